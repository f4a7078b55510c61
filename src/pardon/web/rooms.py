"""Game rooms: one game in progress, the clients watching it, and the computer players in it.

A room owns its :class:`~pardon.core.game.Game`.  Every decision goes through
:meth:`Room.decide`: checked (seat, event number, legality), stored, then applied and
broadcast, in that order, under the room's lock, so that what a client hears has always
been stored.  Storing is the writer thread's work (:class:`~pardon.web.storage.Writer`):
while one room waits for its commit the others go on, and the game as clients see it
changes only once the decision is stored.  Computer players — bot seats, and humans away
longer than the takeover time — decide in :meth:`Room._drive`, with a random stream seeded
by the game's seed and the event number, so a game replays the same whether or not the
server was restarted.  With several server processes (:mod:`pardon.web.cluster`) only the
game's owner decides; the others follow what it stores.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from pardon.bots import Bot, make_bot
from pardon.bots.hint import rank_observed
from pardon.core.board import COLOUR_NAMES
from pardon.core.errors import AmbiguousError, IllegalError, InvalidError
from pardon.core.game import CARD, Game, replay
from pardon.core.moves import Move
from pardon.core.notation import Record, format_move
from pardon.core.rules import parse_rules
from pardon.web import errors
from pardon.web.cluster import Cluster
from pardon.web.errors import CommandError
from pardon.web.settings import Settings
from pardon.web.storage import (
    FINISHED,
    PLAYING,
    WAITING,
    Decision,
    DecisionTakenError,
    GameRow,
    SeatRow,
    Store,
    Writer,
)
from pardon.web.views import moves_json, view_json

log = logging.getLogger("pardon.web")

HUMAN = "human"
BOT = "bot"
HOTSEAT = "hotseat"


class Listener(Protocol):
    """A connected client as a room sees it: the seats it decides for, and a mailbox."""

    @property
    def controls(self) -> frozenset[int]: ...

    def deliver(self, message: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    """A seat and who is at it now."""

    row: SeatRow
    connections: int = 0
    #: When the last connection for this seat closed (monotonic clock); None while connected.
    away_since: float | None = field(default_factory=time.monotonic)

    @property
    def colour(self) -> int:
        return self.row.colour

    @property
    def is_machine(self) -> bool:
        return self.row.kind == BOT


def new_game(row: GameRow) -> Game:
    """The game a stored row describes, before any decision."""
    return Game.new(parse_rules(row.rules), tuple(seat.colour for seat in row.seats), row.seed, first=row.first)


def draw_if_due(game: Game) -> None:
    """The server turns up the next card as soon as one is due (chance is not a decision)."""
    if game.awaiting_draw:
        game.draw()


class Room:
    """One game, its clients and its computer players."""

    def __init__(
        self, row: GameRow, game: Game, history: list[tuple[int, str]], store: Store, writer: Writer, settings: Settings
    ):
        self.row = row
        self.game = game
        #: Every stored decision, (colour, move text); decision n is event n.
        self.history = history
        self.store = store
        self.writer = writer
        self.settings = settings
        self.seats = {seat.colour: Seat(seat) for seat in row.seats}
        self.listeners: set[Listener] = set()
        self.lock = asyncio.Lock()
        self._bots: dict[str, Bot] = {}
        self._driver: asyncio.Task[None] | None = None
        self._timers: list[asyncio.TimerHandle] = []
        #: Whether this process decides for the game (always, but for several processes: cluster.py).
        self.owner = True
        #: Tries to make this process the owner (several processes); None: nobody else could be.
        self.claim: Callable[[], bool] | None = None
        draw_if_due(game)

    @classmethod
    def rebuild(
        cls, row: GameRow, history: list[tuple[int, str]], store: Store, writer: Writer, settings: Settings
    ) -> Room:
        """The room of a stored game: its decisions replayed, each checked again."""
        seats = tuple(seat.colour for seat in row.seats)
        game = replay(Record(row.rules, seats, row.seed, tuple(history), None, row.first))
        return cls(row, game, history, store, writer, settings)

    @property
    def event(self) -> int:
        """The number of the last event: the decisions made so far."""
        return len(self.history)

    # --- clients --------------------------------------------------------------------

    def attach(self, listener: Listener) -> None:
        """A client joins; its seats are present again, and the game starts once every seat is taken."""
        self.listeners.add(listener)
        for colour in listener.controls:
            seat = self.seats[colour]
            seat.connections += 1
            seat.away_since = None
            if not seat.row.claimed:
                self.store.claim_seat(self.row.id, colour)
                self.replace_seat(replace(seat.row, claimed=True))
        self._start_if_ready()
        self._broadcast_presence()
        self.kick()

    def detach(self, listener: Listener) -> None:
        """A client leaves; a seat left empty is played by a computer after the takeover time."""
        self.listeners.discard(listener)
        for colour in listener.controls:
            seat = self.seats[colour]
            seat.connections -= 1
            if seat.connections == 0:
                seat.away_since = time.monotonic()
                self._schedule_takeover()
        self._broadcast_presence()

    def sync(self, listener: Listener, since: int) -> None:
        """Everything after event ``since``: the decisions missed, then the state now."""
        events = [
            {"event": number, "colour": COLOUR_NAMES[colour], "move": move}
            for number, (colour, move) in enumerate(self.history[since:], start=since + 1)
        ]
        listener.deliver({"type": "sync", "since": since, "events": events, "state": self.state_for(listener, {})})

    def state_for(self, listener: Listener, cache: dict[Any, Any]) -> dict[str, Any]:
        """The game as ``listener`` may see it (``cache`` shares work across one broadcast)."""
        viewer = self._viewer(listener)
        deciding = self._is_live() and self.game.decider in listener.controls
        key = (viewer, deciding)
        if key not in cache:
            moves = None
            if deciding:
                if "moves" not in cache:
                    cache["moves"] = moves_json(self.game, self.game.legal_moves())
                moves = cache["moves"]
            cache[key] = {**self.summary(), **view_json(self.game, viewer, moves)}
        state: dict[str, Any] = cache[key]
        return state

    def summary(self) -> dict[str, Any]:
        """What everyone may know about the game besides the board."""
        row = self.row
        return {
            "game": row.id,
            "event": self.event,
            "status": row.status,
            "winner": COLOUR_NAMES[row.winner] if row.winner is not None else None,
            "rematch": row.rematch,
            "seats": [self._seat_json(seat) for seat in self.seats.values()],
        }

    def _seat_json(self, seat: Seat) -> dict[str, Any]:
        return {
            "colour": COLOUR_NAMES[seat.colour],
            "kind": seat.row.kind,
            "name": seat.row.name,
            "level": seat.row.level,
            "connected": seat.is_machine or seat.connections > 0,
            "computer_playing": seat.is_machine or self._taken_over(seat),
        }

    def _viewer(self, listener: Listener) -> int | None:
        """Whose eyes a client sees with: its own seat; on a hot-seat screen, the seat to decide."""
        controls = listener.controls
        if not controls:
            return None
        decider = self.game.decider
        return decider if decider in controls else min(controls)

    def rematch_made(self, rematch_id: str) -> None:
        """The finished game has its rematch: its clients are told (the state names it)."""
        self.row = replace(self.row, rematch=rematch_id)
        self.broadcast_state()

    def replace_seat(self, row: SeatRow) -> None:
        """A seat's new token (joined from the lobby): the room and its row agree."""
        self.seats[row.colour].row = row
        self.row = replace(self.row, seats=tuple(seat.row for seat in self.seats.values()))

    # --- decisions ------------------------------------------------------------------

    async def decide(self, listener: Listener, seat: int | None, text: str, event: int) -> None:
        """A client's move: checked, stored, made and broadcast; a :class:`CommandError` changes nothing."""
        colour = self.acting_seat(listener, seat)
        self._check_owner()
        await _to_the_end(self._decide(colour, text, event))

    async def _decide(self, colour: int, text: str, event: int) -> None:
        async with self.lock:
            self._check_live()
            self._check_event(event, colour, text)
            if colour != self.game.decider:
                decider = COLOUR_NAMES[self.game.decider]
                raise CommandError(errors.NOT_YOUR_TURN, f"it is {decider}'s decision, not {COLOUR_NAMES[colour]}'s")
            move = self._parse(text)
            await self._commit(colour, move)

    def acting_seat(self, listener: Listener, seat: int | None) -> int:
        """The seat a command is for: named, or the client's only seat; never another's."""
        controls = listener.controls
        if seat is None:
            if len(controls) == 1:
                return next(iter(controls))
            if not controls:
                raise CommandError(errors.NOT_YOUR_SEAT, "a spectator cannot play")
            if self.game.decider in controls:
                return self.game.decider
            raise CommandError(errors.NOT_YOUR_TURN, f"it is {COLOUR_NAMES[self.game.decider]}'s decision")
        if seat not in controls:
            raise CommandError(errors.NOT_YOUR_SEAT, f"this connection does not play {COLOUR_NAMES[seat]}")
        return seat

    def _check_owner(self) -> None:
        """Only the owner decides: another process serving this game's clients takes the game
        over if its owner has gone, and otherwise refuses."""
        if self.owner or (self.claim is not None and self.claim() and self.become_owner()):
            return
        raise CommandError(errors.NOT_OWNER, "another server process runs this game: connect to it to play")

    def _check_live(self) -> None:
        if self.game.is_over:
            raise CommandError(errors.GAME_OVER, "the game is over")
        if self.row.status == WAITING:
            raise CommandError(errors.NOT_STARTED, "the game starts when every player has joined")

    def _check_event(self, event: int, colour: int, text: str) -> None:
        """A command names the last event its client saw; only the latest is current."""
        if event == self.event:
            return
        if event > self.event:
            raise CommandError(errors.BAD_EVENT, f"event {event} has not happened: the last is {self.event}")
        made_by, made = self.history[event]
        if made_by == colour and " ".join(text.lower().split()) == made.lower():
            raise CommandError(errors.DUPLICATE, f"{made!r} was already played as event {event + 1}")
        raise CommandError(errors.STALE, f"event {event} is not the latest: the last is {self.event}; resynchronise")

    def _parse(self, text: str) -> Move:
        try:
            return self.game.parse(text)
        except InvalidError as error:
            raise CommandError(errors.INVALID_MOVE, str(error)) from None
        except AmbiguousError as error:
            raise CommandError(errors.AMBIGUOUS_MOVE, str(error)) from None
        except IllegalError as error:
            raise CommandError(errors.ILLEGAL_MOVE, str(error)) from None

    async def _commit(self, colour: int, move: Move) -> None:
        """Store the decision, then make it and let everyone know (the room's lock held).

        The move is tried first, for the game's status after it, and taken back: while the
        commit is under way the game, as any client sees it, is as before; if storing fails
        it stays so.
        """
        text = format_move(self.game.position, move)
        made = self.game.play(move)
        winner = self.game.winner
        self._undo()
        status = FINISHED if winner is not None else PLAYING
        number = self.event + 1
        try:
            await self.writer.add(Decision(self.row.id, number, colour, text, status, winner))
        except DecisionTakenError:
            raise CommandError(errors.STALE, "another server stored this event first; resynchronise") from None
        except Exception:
            log.exception("cannot store decision %d of game %s", number, self.row.id)
            raise CommandError(errors.SERVER_ERROR, "the move could not be saved; nothing changed") from None
        self.game.play_trusted(made)
        self.history.append((colour, text))
        if status != self.row.status:
            self.row = self.row.with_status(status, winner)
        draw_if_due(self.game)
        self._broadcast_event(number, colour, text)
        self.kick()

    def _undo(self) -> None:
        self.game.pop()
        draw_if_due(self.game)

    def _broadcast_event(self, number: int, colour: int, text: str) -> None:
        decision = {"colour": COLOUR_NAMES[colour], "move": text}
        cache: dict[Any, Any] = {}
        for listener in list(self.listeners):
            state = self.state_for(listener, cache)
            listener.deliver({"type": "event", "event": number, "decision": decision, "state": state})

    def broadcast_state(self) -> None:
        """The state again, without a new event (the game started, a rematch was made)."""
        cache: dict[Any, Any] = {}
        for listener in list(self.listeners):
            listener.deliver({"type": "state", "state": self.state_for(listener, cache)})

    def _broadcast_presence(self) -> None:
        seats = [self._seat_json(seat) for seat in self.seats.values()]
        for listener in list(self.listeners):
            listener.deliver({"type": "presence", "event": self.event, "seats": seats})

    def _start_if_ready(self) -> None:
        if (
            self.owner
            and self.row.status == WAITING
            and all(seat.row.claimed or seat.is_machine for seat in self.seats.values())
        ):
            self.store.set_status(self.row.id, PLAYING)
            self.row = self.row.with_status(PLAYING)
            self.broadcast_state()

    def _is_live(self) -> bool:
        return self.row.status == PLAYING and not self.game.is_over

    # --- hints ----------------------------------------------------------------------

    async def hint(self, listener: Listener, seat: int | None, event: int) -> None:
        """The legal moves ranked by a computer player, for the seat to decide, if the game allows.

        The computer sees only the seat's observation (its own hand, never the pack's order),
        so a hint tells nothing the player could not know.
        """
        colour = self.acting_seat(listener, seat)
        if not self.row.hints:
            raise CommandError(errors.HINTS_OFF, "this game was created without hints")
        self._check_owner()
        async with self.lock:
            self._check_live()
            self._check_event(event, colour, "")
            game = self.game
            if colour != game.decider:
                raise CommandError(errors.NOT_YOUR_TURN, "hints are for your own decision")
            if game.stage != CARD or (game.card is None and not game.rules.hand):
                raise CommandError(errors.NO_HINT, "hints rank the moves of a card: there is none to play yet")
            seen, legal, position = game.observe(colour), game.legal_moves(), game.position
        ranked = await asyncio.to_thread(rank_observed, seen, legal, self.settings.hint_level, random.Random(0))
        moves = [{"move": format_move(position, move), "chance": round(chance, 4)} for move, chance in ranked]
        listener.deliver({"type": "hint", "event": event, "moves": moves})

    # --- computer players -----------------------------------------------------------

    def kick(self) -> None:
        """Let the computer players decide, if the decision is theirs."""
        if self._machine_decider() is None:
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _taken_over(self, seat: Seat) -> bool:
        if seat.is_machine or seat.away_since is None or self.row.status != PLAYING:
            return False
        return time.monotonic() - seat.away_since >= self.settings.takeover_after

    def _machine_decider(self) -> int | None:
        """The colour a computer decides for now, if any (the owner's computers)."""
        if not self.owner or not self._is_live():
            return None
        seat = self.seats[self.game.decider]
        return seat.colour if seat.is_machine or self._taken_over(seat) else None

    async def _drive(self) -> None:
        try:
            while (colour := self._machine_decider()) is not None:
                if self.settings.bot_pace > 0:
                    await asyncio.sleep(self.settings.bot_pace)
                await self._machine_decision(colour)
        except Exception:  # a bug must not stop the server; the game waits for a restart
            log.exception("computer player failed in game %s", self.row.id)

    async def _machine_decision(self, colour: int) -> None:
        async with self.lock:
            if self._machine_decider() != colour:
                return
            event = self.event
            observation, moves = self.game.observe(colour), self.game.legal_moves()
        seat = self.seats[colour]
        bot = self._bot(seat.row.level if seat.is_machine and seat.row.level else self.settings.takeover_level)
        rng = random.Random(f"{self.row.seed}:{event}")
        if len(moves) == 1:
            move = moves[0]
        elif bot.name == "random":
            move = bot.choose(observation, moves, rng)
        else:  # searches take a while: keep the other games moving meanwhile
            move = await asyncio.to_thread(bot.choose, observation, moves, rng)
        try:
            await _to_the_end(self._machine_commit(colour, move, event))
        except CommandError as error:
            log.warning("computer move refused in game %s: %s", self.row.id, error.message)

    async def _machine_commit(self, colour: int, move: Move, event: int) -> None:
        async with self.lock:
            if self.event == event and self._machine_decider() == colour:
                await self._commit(colour, move)

    def _bot(self, level: str) -> Bot:
        if level not in self._bots:
            self._bots[level] = make_bot(level)
        return self._bots[level]

    def _schedule_takeover(self) -> None:
        if self.row.status == FINISHED or not self.owner:
            return
        delay = self.settings.takeover_after + 0.01
        handle = asyncio.get_running_loop().call_later(delay, self._takeover_due)
        self._timers = [*[timer for timer in self._timers if not timer.cancelled()][-8:], handle]

    def _takeover_due(self) -> None:
        self._broadcast_presence()
        self.kick()

    def start_timers(self) -> None:
        """After a restart everyone is away: computers take over after the takeover time."""
        if any(not seat.is_machine for seat in self.seats.values()):
            self._schedule_takeover()
        self.kick()

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        if self._driver is not None:
            self._driver.cancel()

    # --- several processes (cluster.py) -----------------------------------------------

    def become_owner(self) -> bool:
        """This process has taken the game over: catch up with what the last owner stored,
        then decide from now on (computer players, takeover timers)."""
        self.refresh()
        self.owner = True
        self.start_timers()
        self._start_if_ready()
        log.info("game %s taken over at event %d", self.row.id, self.event)
        return True

    def refresh(self, number: int | None = None) -> None:
        """Another process, the owner, stored something: decision ``number`` (make and
        broadcast every decision not yet made here), or a change of seats, status or rematch
        (read the row).  Only for a room this process does not own."""
        if number is None or number > self.event:
            stored = self.store.decisions(self.row.id)
            for event, (colour, text) in enumerate(stored[self.event :], start=self.event + 1):
                self._replay_one(event, colour, text)
        if number is None:
            self.reload_row()

    def _replay_one(self, number: int, colour: int, text: str) -> None:
        draw_if_due(self.game)
        self.game.play_trusted(self.game.parse(text))
        self.history.append((colour, text))
        winner = self.game.winner
        if winner is not None:
            self.row = self.row.with_status(FINISHED, winner)
        draw_if_due(self.game)
        self._broadcast_event(number, colour, text)

    def reload_row(self) -> None:
        """Seats, status and rematch as stored (a seat taken, or the game started, elsewhere)."""
        stored = self.store.game(self.row.id)
        if stored is None:
            return
        started = self.row.status == WAITING and stored.status != WAITING
        changed = stored.rematch != self.row.rematch
        self.row = stored
        for seat in stored.seats:
            self.seats[seat.colour].row = seat
        if started or changed:
            self.broadcast_state()
        self._start_if_ready()
        self.kick()


class Rooms:
    """The rooms of this server: every unfinished game, and finished ones while watched."""

    def __init__(self, store: Store, settings: Settings):
        self.store = store
        self.settings = settings
        self.writer = Writer(store)
        self.rooms: dict[str, Room] = {}
        #: PostgreSQL: this process among others (one owner per game); None on SQLite.
        self.cluster = Cluster(store.engine) if store.is_postgres else None
        #: The event loop serving the clients (REST requests are answered in other threads).
        self.loop: asyncio.AbstractEventLoop | None = None

    def resume_all(self) -> int:
        """Rebuild every unfinished game from the database (at startup) that no other process
        runs; how many."""
        self.loop = asyncio.get_running_loop()
        if self.cluster is not None:
            self.cluster.listen(self.news, self.take_over_orphans)
        for row in self.store.games_with_status((WAITING, PLAYING), limit=1_000_000):
            if self.cluster is None or self.cluster.claim(row.id):
                self._open(row).start_timers()
        quiet_collector()
        return len(self.rooms)

    def on_loop(self, action: Callable[..., None], *arguments: Any) -> None:
        """Run ``action`` on the event loop, from whatever thread: clients' mailboxes are the loop's."""
        if self.loop is None:
            action(*arguments)
        else:
            self.loop.call_soon_threadsafe(action, *arguments)

    def news(self, payload: str) -> None:
        """Another process (or this one) stored a change of a game: ``ID:n`` or ``ID``."""
        game_id, _, number = payload.partition(":")
        room = self.rooms.get(game_id)
        if room is None or (room.owner and number):  # the owner made that decision itself
            return
        try:
            if room.owner:  # seats or status: the owner's own decisions are never read back
                room.reload_row()
            else:
                room.refresh(int(number) if number else None)
        except Exception:
            log.exception("cannot follow game %s", game_id)

    def take_over_orphans(self) -> None:
        """Take over the games served here whose owner has gone (its lock is free)."""
        if self.cluster is None:
            return
        for room in list(self.rooms.values()):
            if not room.owner and room.row.status != FINISHED and self.cluster.claim(room.row.id):
                room.become_owner()

    def get(self, game_id: str) -> Room | None:
        if game_id in self.rooms:
            return self.rooms[game_id]
        row = self.store.game(game_id)
        return self._open(row) if row is not None else None

    def add(self, row: GameRow) -> Room:
        """A new game: stored first, then opened."""
        self.store.add_game(row)
        room = Room(row, new_game(row), [], self.store, self.writer, self.settings)
        self._own(room)
        self.rooms[row.id] = room
        return room

    def _open(self, row: GameRow) -> Room:
        room = Room.rebuild(row, self.store.decisions(row.id), self.store, self.writer, self.settings)
        self._own(room)
        self.rooms[row.id] = room
        return room

    def _own(self, room: Room) -> None:
        """Whether this process decides for the room: yes, unless another process owns the game."""
        cluster = self.cluster
        if cluster is None:
            return
        game_id = room.row.id
        room.claim = lambda: cluster.claim(game_id)
        room.owner = cluster.claim(game_id)

    def release(self, room: Room) -> None:
        """Forget a finished game nobody watches (it stays in the database)."""
        if room.row.status == FINISHED and not room.listeners and self.rooms.get(room.row.id) is room:
            room.close()
            del self.rooms[room.row.id]
            if self.cluster is not None:
                self.cluster.release(room.row.id)

    def close(self) -> None:
        for room in self.rooms.values():
            room.close()
        self.rooms.clear()
        self.writer.close()
        if self.cluster is not None:
            self.cluster.close()


def quiet_collector() -> None:
    """Keep the cycle collector's pauses short once the server has started: what is loaded
    by then (the code, the computer players' tables, the games resumed) is set aside for
    good rather than scanned again at every full collection, and the youngest objects are
    collected less often (a move makes many short-lived ones, which reference counting frees
    anyway).  Full collections of the whole heap were what made the slowest moves slow.
    Once per process: a process running several servers (tests) sets aside the first's only."""
    if gc.get_freeze_count():
        return
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)


async def _to_the_end(decision: Any) -> None:
    """Run a decision to its end even if the task awaiting it is cancelled (a client gone, the
    server stopping): a decision the writer has stored must also be made in the room."""
    task = asyncio.ensure_future(decision)
    task.add_done_callback(_retrieve)
    await asyncio.shield(task)


def _retrieve(task: asyncio.Task[None]) -> None:
    """Read a finished decision's outcome, so that one nobody awaits any more is not reported as lost."""
    if not task.cancelled():
        task.exception()
