"""The coach for a finished game (``GET /api/games/{id}/analysis``): every player's win chance
decision by decision, and the human players' biggest mistakes, each with the better move, why,
and what the board needs to show it.

It is :func:`pardon.bots.coach.analyse` (``pardon analyse``) run on the game's record, coaching
the seats people played (human and hot-seat seats; never a computer's), judged by
``Settings.coach_level``.  Only a finished game is analysed: its record, seed included, is public
by then (``/api/games/{id}/record``), so nothing hidden leaks from a game in progress; and a
finished game never changes, so each analysis is made once and kept (the last
``Settings.analysis_cache`` games).  The work is done in a thread, off the event loop: a whole
game takes a second or two.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from pardon.bots.coach import DEFAULT_TOP, analyse
from pardon.core.cards import card_name
from pardon.core.game import record_of, replay_steps
from pardon.core.jsonio import position_to_json
from pardon.core.notation import Record
from pardon.web.api import ERRORS, ApiError, come_back, game_room, refused_for_now
from pardon.web.protocol import Colour
from pardon.web.rooms import BOT
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


class AnalysisCache:
    """The analyses made, by game id: the ``size`` most recently asked for.  Two requests for
    one game at once make it once: the second waits for the first.

    Analyses run one at a time in a thread of their own (never in the pool that hints and
    the other requests use), and at most :data:`ANALYSES_WAITING` wait for it."""

    def __init__(self, size: int):
        self.size = max(1, size)
        self._done: OrderedDict[str, Json] = OrderedDict()
        self._making = threading.Lock()  # one analysis at a time, whichever thread asks
        self._guard = threading.Lock()  # the kept analyses, read on the event loop too
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pardon-coach")
        self.waiting = 0  # read and written on the event loop only

    def get(self, key: str) -> Json | None:
        with self._guard:
            found = self._done.get(key)
            if found is not None:
                self._done.move_to_end(key)
            return found

    def get_or_make(self, key: str, make: Callable[[], Json]) -> Json:
        found = self.get(key)
        if found is not None:
            return found
        with self._making:
            found = self.get(key)  # made by another request while this one waited
            if found is not None:
                return found
            made = make()
            with self._guard:
                self._done[key] = made
                while len(self._done) > self.size:
                    self._done.popitem(last=False)
        return made


def analyses_of(request: Request) -> AnalysisCache:
    cache: AnalysisCache = request.app.state.analyses
    return cache


@router.get(
    "/games/{game_id}/analysis",
    response_model=GameAnalysis,
    summary="A finished game analysed: win chances by turn, the human players' biggest mistakes",
    responses={503: refused_for_now("busy: too many analyses are waiting already")},
)
async def game_analysis(game_id: str, request: Request) -> Any:
    """Once the game is over (``409 not_finished`` before); made once, then kept.  While too
    many analyses wait already, ``503 busy`` with ``Retry-After``."""
    cache = analyses_of(request)
    found = cache.get(game_id)
    if found is not None:
        return JSONResponse(found)
    if cache.waiting >= ANALYSES_WAITING:
        return come_back(503, "busy", "the server is analysing other games: try again in a few seconds", 5)
    cache.waiting += 1
    try:
        body = await asyncio.get_running_loop().run_in_executor(cache.worker, _analysis, request, game_id)
    finally:
        cache.waiting -= 1
    return JSONResponse(body)


def _analysis(request: Request, game_id: str) -> Json:
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
    return cache.get_or_make(game_id, lambda: analysis_json(game_id, record, people, level))


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
