"""The coach for a finished game (``GET /api/games/{id}/analysis``): every player's win chance
decision by decision, and the human players' biggest mistakes, each with the better move, why,
and what the board needs to show it.

It is :func:`pardon.bots.coach.analyse` (``pardon analyse``) run on the game's record, coaching
the seats people played (human and hot-seat seats; never a computer's), judged by
``Settings.coach_level``.  Only a finished game is analysed: its record, seed included, is public
by then (``/api/games/{id}/record``), so nothing hidden leaks from a game in progress; and a
finished game never changes, so each analysis is made once and kept (the last
``Settings.analysis_cache`` games asked for).  The work is done in a thread, off the event loop:
a whole game takes a second or two; those waiting for it take turns by client address.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from pardon.bots.coach import DEFAULT_TOP, analyse
from pardon.core.cards import card_name
from pardon.core.game import record_of, replay_steps
from pardon.core.jsonio import position_to_json
from pardon.core.notation import Record
from pardon.web.api import ERRORS, ApiError, come_back, game_room, refused_for_now
from pardon.web.kept import Kept
from pardon.web.protocol import Colour, client_key
from pardon.web.seating import BOT
from pardon.web.storage import FINISHED
from pardon.web.views import card_text, decision_json

Json = dict[str, Any]
#: A decision's keys set only when it was judged (null otherwise).
JUDGED = ("best", "best_chance", "played_chance", "loss")


class AnalysedDecision(BaseModel):
    decision: int = Field(description="the decision's number in the record, from 1")
    turn: int = Field(description="the number of the card played, counting every card of the game from 1")
    colour: Colour
    card: str | None = Field(description="the card, or null for a decision without one")
    move: str = Field(description="the decision made, in move notation")
    choices: int = Field(description="how many distinct legal moves there were")
    chances: dict[str, float] = Field(description="every player's win chance before the decision, by colour (0 to 1)")
    best: str | None = Field(default=None, description="coached decisions with a choice: the best move")
    best_chance: float | None = None
    played_chance: float | None = None
    loss: float | None = Field(default=None, description="the best move's chance less the played one's")


class Mistake(BaseModel):
    decision: int
    turn: int
    colour: Colour
    card: str
    played: str = Field(description="the move played, in move notation")
    better: str = Field(description="the better move, in move notation")
    played_text: str = Field(description="the move played, in words")
    better_text: str = Field(description="the better move, in words")
    played_chance: float
    best_chance: float
    loss: float = Field(description="the win chance the move played gave away (0 to 1)")
    reason: str = Field(description="why the better move is better, in one line")
    card_text: str = Field(description="what the card does under these rules")
    better_card: str = Field(description="the card the better move plays: in a hand game, maybe another of the hand")
    better_card_text: str = Field(description="what that card does under these rules")
    pack: int = Field(description="cards left face down when the decision was made")
    discards: int = Field(description="cards on the discard pile then")
    position: Json = Field(description="the position before the decision, as its player saw it (docs/json.md)")
    better_move: Json = Field(description="the better move's pawn actions and bumps, for the board to show")
    played_move: Json = Field(description="the played move's pawn actions and bumps")


class GameAnalysis(BaseModel):
    id: str
    rules: str
    seats: list[Colour]
    winner: Colour | None
    level: str = Field(description="the computer level that judged the moves")
    coached: list[Colour] = Field(description="the seats people played: only their decisions are judged")
    decisions: list[AnalysedDecision]
    mistakes: list[Mistake] = Field(
        description=f"each coached seat's {DEFAULT_TOP} biggest mistakes (if it made any), the biggest first"
    )


router = APIRouter(prefix="/api", responses=ERRORS)


#: Analyses asked for and not yet answered, across the server, before more are refused (503):
#: each is seconds of CPU, so a crowd of requests must not stand in front of the games.
ANALYSES_WAITING = 8

#: Seconds a client refused for now is told to wait (``Retry-After``): about one analysis.
COME_BACK = 5


class _Asked:
    """One analysis asked for and not yet answered: who asked, what makes it, and its answer."""

    def __init__(self, address: str, make: Callable[[], bytes]):
        self.address = address
        self.make = make
        self.answer: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()


class AnalysisCache:
    """The analyses made, by game id (as JSON text): the ``size`` most recently asked for, each
    made once (two requests for one game at once: the second waits for the first).

    Analyses run one at a time in a thread of their own (never in the pool that hints and the
    other requests use).  Those waiting take turns by client address (round robin), so that one
    address asking for many waits behind nobody's but its own; each address may have at most
    ``per_address`` asked for and not answered (``429``), and at most :data:`ANALYSES_WAITING`
    wait across the server (``503``).  One whose client has gone is dropped before it is made.
    The queue is read and written on the event loop only."""

    def __init__(self, size: int, per_address: int = 2):
        self.kept = Kept[str, bytes](size)
        self.per_address = max(1, per_address)
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pardon-coach")
        #: The process that judges (made when first needed): seconds of CPU in a thread of the
        #: server's would hold the interpreter's lock from every game's moves meanwhile.
        self._judge: ProcessPoolExecutor | None = None
        self._turns: dict[str, deque[_Asked]] = {}  # those waiting, by address, in the order they came
        self._held: dict[str, int] = {}  # asked for and not answered, by address
        self._served: dict[str, int] = {}  # when each address holding some was last served (a count)
        self._rounds = 0
        self._running = False

    def judged(self, game_id: str, record: Record, coached: tuple[int, ...], level: str) -> bytes:
        """:func:`analysis_bytes` made in the judging process (called from the worker thread)."""
        if self._judge is None:
            self._judge = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"))
        return self._judge.submit(analysis_bytes, game_id, record, coached, level).result()

    def close(self) -> None:
        """Stop the judging process, if there is one (the server stops)."""
        if self._judge is not None:
            self._judge.shutdown(wait=False, cancel_futures=True)
            self._judge = None

    def get(self, game_id: str) -> bytes | None:
        """The analysis kept for the game, as JSON text, or None."""
        return self.kept.get(game_id)

    def get_or_make(self, game_id: str, make: Callable[[], bytes]) -> bytes:
        """The analysis kept for the game; else made by ``make`` (in this thread) and kept."""
        return self.kept.get_or_make(game_id, make)

    @property
    def waiting(self) -> int:
        """Analyses asked for and not yet answered, across the server."""
        return sum(self._held.values())

    def refusal(self, address: str) -> JSONResponse | None:
        """None if ``address`` may ask for one more analysis now; else the answer saying why not."""
        if self._held.get(address, 0) >= self.per_address:
            message = f"at most {self.per_address} analyses at once from one address: try again when one is done"
            return come_back(429, "rate_limited", message, COME_BACK)
        if self.waiting >= ANALYSES_WAITING:
            return come_back(503, "busy", "the server is analysing other games: try again in a few seconds", COME_BACK)
        return None

    async def answer(self, request: Request, address: str, make: Callable[[], bytes]) -> bytes | None:
        """The analysis ``make`` makes, in its address's turn; None if the client left first
        (its analysis, if not begun, is never made)."""
        asked = _Asked(address, make)
        self._held[address] = self._held.get(address, 0) + 1
        self._turns.setdefault(address, deque()).append(asked)
        self._next()
        gone = asyncio.ensure_future(_gone(request))
        try:
            await asyncio.wait((asked.answer, gone), return_when=asyncio.FIRST_COMPLETED)
        finally:
            gone.cancel()
            self._let_go(address)
        if not asked.answer.done():
            asked.answer.cancel()  # skipped when its turn comes; if begun, it is kept for the next to ask
            return None
        return asked.answer.result()

    def _let_go(self, address: str) -> None:
        held = self._held[address] - 1
        if held:
            self._held[address] = held
        else:
            del self._held[address]
            self._served.pop(address, None)  # remembered only while it has analyses asked for

    def _next(self) -> None:
        """Start the next analysis, unless one is under way: the oldest of the address served
        least lately (one never served first, then in the order they came)."""
        while not self._running and self._turns:
            address = min(self._turns, key=lambda waiting: self._served.get(waiting, -1))
            line = self._turns[address]
            asked = line.popleft()
            if not line:
                del self._turns[address]
            self._rounds += 1
            self._served[address] = self._rounds
            if asked.answer.cancelled():  # its client has gone
                continue
            self._running = True
            made = asyncio.get_running_loop().run_in_executor(self.worker, asked.make)
            made.add_done_callback(lambda done, asked=asked: self._made(asked, done))  # type: ignore[misc]

    def _made(self, asked: _Asked, done: asyncio.Future[bytes]) -> None:
        self._running = False
        if not asked.answer.done():
            if done.exception() is not None:
                asked.answer.set_exception(done.exception())  # type: ignore[arg-type]
            else:
                asked.answer.set_result(done.result())
        self._next()


async def _gone(request: Request) -> None:
    """Returns once the client has closed its connection (while its answer is awaited)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def analyses_of(request: Request) -> AnalysisCache:
    cache: AnalysisCache = request.app.state.analyses
    return cache


@router.get(
    "/games/{game_id}/analysis",
    response_model=GameAnalysis,
    summary="A finished game analysed: win chances by turn, the human players' biggest mistakes",
    responses={
        429: refused_for_now("rate_limited: this address has as many analyses under way as it may"),
        503: refused_for_now("busy: too many analyses are waiting already"),
    },
)
async def game_analysis(game_id: str, request: Request) -> Any:
    """Once the game is over (``409 not_finished`` before); made once, then kept.  Each client
    address may have :attr:`Settings.analyses_per_address` analyses under way at once (``429
    rate_limited`` past them); while too many wait across the server, ``503 busy``.  Both come
    with ``Retry-After``.  Those waiting take turns by address."""
    cache = analyses_of(request)
    found = cache.get(game_id)
    if found is not None:
        return Response(found, media_type="application/json")
    address = client_key(request.client.host) if request.client else ""
    refused = cache.refusal(address)
    if refused is not None:
        return refused
    body = await cache.answer(request, address, lambda: _analysis(request, game_id))
    if body is None:  # the client has gone: nobody reads this
        return Response(status_code=204)
    return Response(body, media_type="application/json")


def _analysis(request: Request, game_id: str) -> bytes:
    cache = analyses_of(request)
    found = cache.get(game_id)
    if found is not None:
        return found
    room = game_room(request, game_id)
    row = room.row
    if row.status != FINISHED or room.game.winner is None:
        raise ApiError(409, "not_finished", "a game is analysed once it is over")
    record = record_of(room.game)._replace(first=row.first)
    people = tuple(seat.colour for seat in row.seats if seat.kind != BOT)
    level: str = request.app.state.settings.coach_level
    return cache.get_or_make(game_id, lambda: cache.judged(game_id, record, people, level))


def analysis_bytes(game_id: str, record: Record, coached: tuple[int, ...], level: str) -> bytes:
    """:func:`analysis_json` as the JSON text it is kept and sent as."""
    return json.dumps(analysis_json(game_id, record, coached, level)).encode()


def analysis_json(game_id: str, record: Record, coached: tuple[int, ...], level: str) -> Json:
    """The analysis of ``record`` for the ``coached`` seats: every decision, and each coached
    seat's :data:`DEFAULT_TOP` biggest mistakes with the position and the moves to show them."""
    analysis = analyse(record, bot=level, seats=coached)
    found = analysis.to_json(top=len(analysis.mistakes))
    kept: dict[str, int] = {}
    mistakes = []
    for mistake in found["mistakes"]:  # the biggest first
        if kept.setdefault(mistake["colour"], 0) < DEFAULT_TOP:
            kept[mistake["colour"]] += 1
            mistakes.append(mistake)
    _show(record, {mistake["decision"]: mistake for mistake in mistakes})
    return {
        "id": game_id,
        "rules": found["rules"],
        "seats": found["seats"],
        "winner": found["winner"],
        "level": found["bot"],
        "coached": found["coached"],
        "decisions": [dict.fromkeys(JUDGED) | decision for decision in found["decisions"]],
        "mistakes": mistakes,
    }


def _show(record: Record, mistakes: dict[int, Json]) -> None:
    """Add to each mistake (by decision number) the position it was made in, as its player saw
    it, the card and the pack, and both moves' structure and words."""
    left = len(mistakes)
    for number, game, move in replay_steps(record):
        if left == 0:
            return
        mistake = mistakes.get(number)
        if mistake is not None:
            left -= 1
            seen = game.observe(game.decider)
            played = decision_json(game.rules, seen.position, move)
            better_move = game.parse(mistake["better"])
            better = decision_json(game.rules, seen.position, better_move)
            mistake |= {
                "played_text": played["text"],
                "better_text": better["text"],
                "card_text": card_text(seen.rules, move.card),
                "better_card": card_name(better_move.card),
                "better_card_text": card_text(seen.rules, better_move.card),
                "position": position_to_json(seen.rules, seen.position),
                "pack": len(game.pack.draw_pile),
                "discards": len(game.pack.discards),
                "better_move": better,
                "played_move": played,
            }
        game.play_trusted(move)
