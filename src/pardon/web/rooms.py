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

A failure in one game stays in that game: a stored game that does not replay, or a decision
that cannot be made, sets the game aside (:meth:`Room.fail`, :class:`GameBrokenError`) — logged
with its id, its clients told ``server_error`` — and every other game goes on.  A computer
player that fails plays the first legal move instead; a computer move the database refuses
is tried again later and later, never at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from pardon.bots import Bot, make_bot
from pardon.bots.coach import best_reason
from pardon.bots.hint import rank_observed
from pardon.core.board import COLOUR_NAMES
from pardon.core.errors import AmbiguousError, IllegalError, InvalidError
from pardon.core.game import CARD, Game, replay
from pardon.core.moves import Move
from pardon.core.notation import Record, format_move
from pardon.core.rules import parse_rules
from pardon.core.turn import GameState, apply, as_made
from pardon.web import errors
from pardon.web.errors import CommandError
from pardon.web.seating import BOT, HOTSEAT, Listener, Seat, join_cutoff
from pardon.web.settings import Settings
from pardon.web.storage import (
    FINISHED,
    PLAYING,
    WAITING,
    Decision,
    DecisionTakenError,
    GameRow,
    NotOwnerError,
    SeatRow,
    Store,
    Writer,
)
from pardon.web.views import moves_json, view_json, why_not_there

log = logging.getLogger("pardon.web")

#: Seconds before a refused computer move is tried again, doubled at each refusal up to the most.
RETRY_FIRST = 0.1
RETRY_MOST = 30.0


#: What a client is told while the database does not answer (restarted, say): nothing is set aside.
DATABASE_AWAY = "the database is not answering just now; nothing changed: try again in a moment"


#: Seconds between a process's reminders of the players connected to it (several processes), and
#: how long another process trusts the last one: a process that dies stops reminding.
PRESENCE_BEAT = 15.0
PRESENCE_LAPSE = 40.0


def say_database_away(game_id: str) -> None:
    log.warning(
        "game %s: the database does not answer; the game goes on once it does", game_id, extra={"game": game_id}
    )


class GameBrokenError(CommandError):
    """A game the server cannot go on with: a stored decision that does not replay, or one
    that failed to be made (a bug).  It is set aside until the server restarts."""

    def __init__(self, message: str):
        super().__init__(errors.SERVER_ERROR, message)


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
        #: The owner epoch this process decides with: its decisions are stored only while it is the game's.
        self.epoch = row.owner_epoch
        #: Tries to make this process the owner (several processes): the new epoch, or None.
        self.claim: Callable[[], int | None] | None = None
        #: Whether the database answered the last claim (several processes: PostgreSQL).
        self.database_answers: Callable[[], bool] | None = None
        #: Tells the cluster that another process has taken the game (several processes).
        self.disown: Callable[[], None] | None = None
        #: Why the game cannot go on, once it cannot (:meth:`fail`); None while all is well.
        self.broken: str | None = None
        #: The game is no longer in the database (expired while waiting).
        self.gone = False
        #: Clients whose token opened a seat that was no longer theirs when they came (handed to a
        #: computer, or joined from the lobby and gone back to it): they watch, and play nothing.
        self._void: set[Listener] = set()
        #: The legal moves of the state they were made for, and their notation: what the
        #: clients are sent and what a command is resolved against (made once per state).
        self._offered: tuple[GameState | None, list[Move], dict[str, Move]] = (None, [], {})
        #: Every decision in words, as the log says it, and the game played on to the last of them:
        #: made once and extended as the game goes on (:meth:`log_texts`), not once per client.
        self._texts: tuple[list[str], Game | None] = ([], None)
        #: Events a computer decided for a person away: that person's same move, sent on coming
        #: back, is not theirs twice (``duplicate``) but came too late (``stale``).
        self._stood_in: set[int] = set()
        #: Several processes: the seats with players connected to each other process, and when
        #: that process last said so; they are present here too (they may play through it).
        self.elsewhere: dict[str, tuple[frozenset[int], float]] = {}
        #: Tells the other processes which seats have players connected here (several processes).
        self.tell_presence: Callable[[frozenset[int]], None] | None = None
        #: Asks the owner to look at the game again (several processes: a watcher came elsewhere).
        self.nudge: Callable[[], None] | None = None
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

    #: Seconds between presence messages at most: a crowd arriving at once is told of in one.
    PRESENCE_EVERY = 0.2
    #: The presence message waiting to be sent, if one is.
    _presence_due: asyncio.TimerHandle | None = None

    def attach(self, listener: Listener) -> None:
        """A client joins; its seats are present again, and the game starts once every seat is taken.
        A spectator changes no seat: nobody is told.  A client whose seat is no longer its token's
        (the database says so) is told ``not_your_seat``, and only watches."""
        self.listeners.add(listener)
        try:
            refused = self._arrive(listener)
        except SQLAlchemyError:  # the database cannot mark the seat taken: the client is not here
            self.listeners.discard(listener)
            raise
        if refused is not None:
            self._void.add(listener)
            listener.deliver({"type": "error", "code": errors.NOT_YOUR_SEAT, "message": refused, "event": self.event})
            return
        now = time.monotonic()
        for colour in listener.controls:
            seat = self.seats[colour]
            seat.connections += 1
            seat.came(now)
        self._start_if_ready(arriving=listener)
        if listener.controls and self._anyone_away():
            self._schedule_takeover()  # the takeover time counts from now for those it waits for
        if not self.owner and self.nudge is not None and self._ready_to_start():
            self.nudge()  # the owner starts it: a computers-only game waits for someone to watch
        if listener.controls:  # arrived, or one more window on a seat: everyone sees how many
            self._broadcast_presence()
            self._tell_presence()
        self.kick()

    def _arrive(self, listener: Listener) -> str | None:
        """The client's seats taken by their player, those it is the first to come to marked so in
        the database, which decides: None, or why a seat is not this client's any more."""
        cutoff = join_cutoff(self.settings)
        for colour in listener.controls:
            row = self.seats[colour].row
            if row.claimed:
                continue
            if self.store.claim_seat(self.row.id, colour, row.kind, row.token_hash, cutoff):
                self.replace_seat(replace(row, claimed=True))
                continue
            stored = self.store.game(self.row.id)
            now = next((seat for seat in stored.seats if seat.colour == colour), None) if stored else None
            if now is not None:  # the seat as it is now; a lapsed joiner's token opens it no more
                self.replace_seat(replace(now, token_hash=None, joined_at=None) if now.has_lapsed(cutoff) else now)
            name = COLOUR_NAMES[colour]
            if now is not None and now.kind == BOT:
                return f"a computer plays {name} now: the host gave it one"
            grace = _duration(self.settings.join_grace)
            return (
                f"this link no longer opens {name}: its player did not come within {grace} of joining, "
                "so the seat went back to the lobby; join a game again from the lobby"
            )
        return None

    def forget_lapsed_joins(self) -> None:
        """The seats joined from the lobby whose players did not come within the grace time: the
        joiners' tokens open nothing here any more (the database offers the seats again)."""
        cutoff = join_cutoff(self.settings)
        for seat in self.seats.values():
            if seat.row.has_lapsed(cutoff):
                self.replace_seat(replace(seat.row, token_hash=None, joined_at=None))

    def _controls(self, listener: Listener) -> frozenset[int]:
        """The seats a client plays: none for one whose seat was no longer its own when it came."""
        return frozenset() if listener in self._void else listener.controls

    def detach(self, listener: Listener) -> None:
        """A client leaves; a seat left empty is played by a computer after the takeover time."""
        self.listeners.discard(listener)
        if listener in self._void:
            self._void.discard(listener)
            return
        for colour in listener.controls:
            seat = self.seats[colour]
            seat.connections -= 1
            if not self._present(seat):
                seat.left(time.monotonic())
                self._schedule_takeover()
        if listener.controls:
            self._broadcast_presence()
            self._tell_presence()

    # --- presence across processes ----------------------------------------------------

    def _present(self, seat: Seat) -> bool:
        """Whether the seat's player is connected: here, or to another process serving the game."""
        if seat.connections > 0:
            return True
        now = time.monotonic()
        return any(seat.colour in colours and now - when < PRESENCE_LAPSE for colours, when in self.elsewhere.values())

    def _here(self) -> frozenset[int]:
        return frozenset(colour for colour, seat in self.seats.items() if seat.connections > 0)

    def _tell_presence(self) -> None:
        if self.tell_presence is not None:
            self.tell_presence(self._here())

    def remind(self) -> None:
        """Say again who is connected here (the other processes forget a silent process's players)."""
        if self._here():
            self._tell_presence()
        self.recount()

    def heard_presence(self, process: str, colours: frozenset[int]) -> None:
        """Another process's players of this game: they are present here too."""
        if colours:
            self.elsewhere[process] = (colours, time.monotonic())
        else:
            self.elsewhere.pop(process, None)
        self.recount()

    def recount(self) -> None:
        """Who is away, counting the players connected to other processes and forgetting those
        of a process silent too long; a player gone is played by a computer after the takeover time."""
        now = time.monotonic()
        self.elsewhere = {key: heard for key, heard in self.elsewhere.items() if now - heard[1] < PRESENCE_LAPSE}
        changed = False
        for seat in self.seats.values():
            present = self._present(seat)
            if present and seat.away_since is not None:
                seat.came(now)
                if self._anyone_away():
                    self._schedule_takeover()
                changed = True
            elif not present and seat.away_since is None:
                seat.left(now)
                self._schedule_takeover()
                changed = True
        if changed:
            self._broadcast_presence()
            self.kick()  # a player come to another process may be waiting for one long away

    def sync(self, listener: Listener, since: int) -> None:
        """Everything after event ``since``: the decisions missed (in notation and in words), then the state now."""
        texts = self.log_texts() if since < len(self.history) else []
        events = [
            {"event": number, "colour": COLOUR_NAMES[colour], "move": move, "text": texts[number - 1]}
            for number, (colour, move) in enumerate(self.history[since:], start=since + 1)
        ]
        listener.deliver({"type": "sync", "since": since, "events": events, "state": self.state_for(listener, {})})

    def log_texts(self) -> list[str]:
        """Every decision so far in words, as the log said each: only those not yet put in words
        are, so that a crowd of clients arriving costs one replay of the game, not one each."""
        from pardon.web.views import decision_texts  # the log's words, as it said them live

        texts, game = self._texts
        moves = self.game.moves
        if game is None or len(texts) > len(moves):  # the first asked for (or a game read again)
            texts, game = [], new_game(self.row)
        if len(texts) < len(moves):
            texts = texts + decision_texts(game, moves[len(texts) :])
        self._texts = (texts, game)
        return texts

    def state_for(self, listener: Listener, cache: dict[Any, Any]) -> dict[str, Any]:
        """The game as ``listener`` may see it (``cache`` shares work across one broadcast)."""
        viewer = self._viewer(listener)
        deciding = self._is_live() and self.game.decider in self._controls(listener)
        key = (viewer, deciding)
        if key not in cache:
            moves = None
            if deciding:
                if "moves" not in cache:
                    cache["moves"] = moves_json(self.game, self.offered())
                moves = cache["moves"]
            started = self.row.status != WAITING
            cache[key] = {**self.summary(), **view_json(self.game, viewer, moves, started=started)}
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
        joining = seat.row.is_joining(join_cutoff(self.settings))
        return {
            "colour": COLOUR_NAMES[seat.colour],
            "kind": seat.row.kind,
            "name": seat.row.name,
            "level": seat.row.level,
            "connected": seat.is_machine or self._present(seat),
            #: windows open on this seat: more than one is a second tab, or a link passed on
            "windows": 0 if seat.is_machine else seat.connections or int(self._present(seat)),
            "taken": seat.is_machine or seat.row.claimed,  # its player has come: a waiting game waits no more for it
            "computer_playing": seat.is_machine or self._taken_over(seat),
            #: a public game's seat left for anyone, offered in the lobby; joined from it, its player not come yet
            "open": seat.row.open and not seat.row.claimed and not joining,
            "joining": joining,
        }

    def _viewer(self, listener: Listener) -> int | None:
        """Whose eyes a client sees with: its own seat; on a hot-seat screen, the seat to decide."""
        controls = self._controls(listener)
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

    def seat_joined(self, row: SeatRow) -> None:
        """A seat joined from the lobby: its new token.  Unless the host has handed the seat to a
        computer since (the join was stored first, but its news came second): the database has
        the computer, and so does the room."""
        if self.seats[row.colour].is_machine:
            return
        self.replace_seat(row)

    def seat_to_computer(self, row: SeatRow) -> None:
        """A seat whose player never came, handed by the host to a computer: the game starts if
        it waited only for that seat, and everyone sees who plays it now."""
        self.replace_seat(row)
        self._start_if_ready()
        if self.row.status == WAITING:
            self.broadcast_state()
        self.kick()

    # --- decisions ------------------------------------------------------------------

    async def decide(self, listener: Listener, seat: int | None, text: str, event: int) -> None:
        """A client's move: checked, stored, made and broadcast; a :class:`CommandError` changes nothing."""
        self._check_working()
        colour = self.acting_seat(listener, seat, event)
        await _to_the_end(self._decide(colour, text, event))

    async def _decide(self, colour: int, text: str, event: int) -> None:
        async with self.lock:
            await self._follow_or_take_over()
            self._check_live()
            self._check_event(event, colour, text)
            if colour != self.game.decider:
                decider = COLOUR_NAMES[self.game.decider]
                raise CommandError(errors.NOT_YOUR_TURN, f"it is {decider}'s decision, not {COLOUR_NAMES[colour]}'s")
            move = self._parse(text)
            await self._commit(colour, move)

    def acting_seat(self, listener: Listener, seat: int | None, event: int | None = None) -> int:
        """The seat a command is for: named, or the client's only seat; never another's.  A
        hot-seat client's move that names no seat is the decider's, or, for an event already
        decided (a move sent again), the seat that decided it: so that the move sent twice is
        told ``duplicate``, as a one-seat client's is."""
        if listener in self._void:
            why = "this link's seat was no longer its own when it came: it may only watch"
            raise CommandError(errors.NOT_YOUR_SEAT, why)
        controls = listener.controls
        if seat is None:
            if len(controls) == 1:
                return self._not_a_computers(next(iter(controls)))
            if not controls:
                raise CommandError(errors.NOT_YOUR_SEAT, "a spectator cannot play")
            if event is not None and 0 <= event < self.event and self.history[event][0] in controls:
                return self.history[event][0]
            if self.game.decider in controls:
                return self.game.decider
            raise CommandError(errors.NOT_YOUR_TURN, f"it is {COLOUR_NAMES[self.game.decider]}'s decision")
        if seat not in controls:
            raise CommandError(errors.NOT_YOUR_SEAT, f"this connection does not play {COLOUR_NAMES[seat]}")
        return self._not_a_computers(seat)

    def _not_a_computers(self, colour: int) -> int:
        """A seat handed to a computer is the computer's, even for a link that opened it just before."""
        if self.seats[colour].is_machine:
            raise CommandError(
                errors.NOT_YOUR_SEAT, f"a computer plays {COLOUR_NAMES[colour]} now: the host gave it one"
            )
        return colour

    async def _follow_or_take_over(self) -> None:
        """Before a player's move (the room's lock held): a player may play through any process
        serving the game.  One whose game's owner has gone takes the game over first (its
        computers play on from here); another reads what the other processes stored first, so
        that the move is judged on the game as it is.  A database that does not answer: the
        move is refused, nothing changed.  The database is asked from a thread: a slow one
        holds up this game only, not the process's others."""
        if self.owner:
            return
        epoch = await asyncio.to_thread(self.claim) if self.claim is not None else None
        if epoch is not None:
            await self.become_owner(epoch)
            return
        if self.database_answers is not None and not self.database_answers():
            raise CommandError(errors.SERVER_ERROR, DATABASE_AWAY)
        await self._catch_up_soon("another server process")

    def _check_working(self) -> None:
        if self.broken is not None:
            raise CommandError(errors.SERVER_ERROR, self.broken)

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
        if event in self._stood_in and made_by == colour:
            who = COLOUR_NAMES[colour]
            why = f"the computer played {who}'s turn while {who} was away ({made!r}); resynchronise"
            raise CommandError(errors.STALE, why)
        if made_by == colour and " ".join(text.lower().split()) == made.lower():
            raise CommandError(errors.DUPLICATE, f"{made!r} was already played as event {event + 1}")
        raise CommandError(errors.STALE, f"event {event} is not the latest: the last is {self.event}; resynchronise")

    def offered(self) -> list[Move]:
        """The legal moves now, made once for the game's state and shared by everything that
        reads them in it (the clients' view, commands, hints, the computer players)."""
        state, moves, _ = self._offered
        if state is not self.game.state:
            moves = self.game.legal_moves()
            position = self.game.position
            by_text = {format_move(position, move).lower(): move for move in moves}
            self._offered = (self.game.state, moves, by_text)
        return moves

    def _parse(self, text: str) -> Move:
        """The offered move ``text`` names: looked up by its notation, as the clients send it;
        other ways of writing it (a split's parts in another order, say) are read by the
        notation parser, which also says why a move that is not offered is not legal."""
        self.offered()
        found = self._offered[2].get(" ".join(text.lower().split()))
        if found is not None:
            return found
        try:
            return self.game.parse(text)
        except InvalidError as error:
            raise CommandError(errors.INVALID_MOVE, str(error)) from None
        except AmbiguousError as error:
            raise CommandError(errors.AMBIGUOUS_MOVE, str(error)) from None
        except IllegalError as error:
            raise CommandError(errors.ILLEGAL_MOVE, str(error)) from None

    async def _commit(self, colour: int, move: Move, by_computer: bool = False) -> None:
        """Store the decision, then make it and let everyone know (the room's lock held).

        The state after the move is computed first, purely (nothing changes meanwhile); it is
        swapped in only once the decision is stored, so while the commit is under way the game,
        as any client sees it, is as before, and stays so if storing fails.  A decision stored
        but not made here (a bug) sets the game aside.
        """
        made, after, text = self._next_state(move)
        winner = after.position.winner
        status = FINISHED if winner is not None else PLAYING
        number = self.event + 1
        try:
            # a computer plays only for the owner; a player's move is kept from taking another's
            # place by its number alone, through whatever process it came
            epoch = self.epoch if by_computer else None
            await self.writer.add(Decision(self.row.id, number, colour, text, status, winner, epoch))
        except NotOwnerError:
            self.lose_ownership()
            raise CommandError(
                errors.NOT_OWNER, "another server process has taken this game over: connect to it to play"
            ) from None
        except DecisionTakenError:
            self._catch_up()
            raise CommandError(errors.STALE, "another server stored this event first; resynchronise") from None
        except Exception:
            log.exception("cannot store decision %d of game %s", number, self.row.id)
            raise CommandError(errors.SERVER_ERROR, "the move could not be saved; nothing changed") from None
        try:
            self.game.push(made, after)
            self.history.append((colour, text))
            if status != self.row.status:
                self.row = self.row.with_status(status, winner)
            draw_if_due(self.game)
        except Exception:
            self.fail(f"decision {number} ({COLOUR_NAMES[colour]} {text!r}) was stored but could not be made")
            raise CommandError(errors.SERVER_ERROR, self.broken or "") from None
        self._broadcast_event(number, colour, text)
        self.kick()

    def _next_state(self, move: Move) -> tuple[Move, GameState, str]:
        """``move`` (one of the legal moves now) as made, the state after it and its text, by
        the engine's pure functions: the game itself is not touched.  If the engine raises (a
        bug) the client is told ``server_error`` and nothing has changed."""
        state = self.game.state
        try:
            made = as_made(state, move)
            return made, apply(self.game.rules, state, made), format_move(state.position, made)
        except Exception:
            log.exception("cannot make a move in game %s at event %d", self.row.id, self.event)
            raise CommandError(errors.SERVER_ERROR, "the server could not make this move; nothing changed") from None

    def fail(self, what: str) -> None:
        """Set the game aside: something in its decision path raised (a bug, or a stored decision
        that does not replay).  Logged with the game's id (call it while handling the error, so
        that the log has the traceback); every client is told ``server_error``; the computer
        players stop and every later command is refused.  Other games are not touched."""
        if self.broken is not None:
            return
        log.exception("game %s cannot go on: %s", self.row.id, what, extra={"game": self.row.id, "event": self.event})
        self.broken = f"this game cannot go on: {what}; the server's log says why (it tries again when restarted)"
        for timer in self._timers:
            timer.cancel()
        error = {"type": "error", "code": errors.SERVER_ERROR, "message": self.broken, "event": self.event}
        for listener in list(self.listeners):
            listener.deliver(error)

    def _catch_up(self, writer: str = "another writer") -> None:
        """Read what ``writer`` stored that this room has not made (the room is behind the
        database)."""
        with self._catching_up(writer):
            self.refresh()

    async def _catch_up_soon(self, writer: str = "another writer") -> None:
        """:meth:`_catch_up`, reading the database from a thread (the room's lock held)."""
        with self._catching_up(writer):
            await self.refresh_soon()

    @contextlib.contextmanager
    def _catching_up(self, writer: str) -> Iterator[None]:
        """A catch-up's failures, told as a :class:`CommandError`.  A database that does not
        answer (restarted, say) sets nothing aside: the room follows, and catches up once it
        answers again; a decision that does not replay sets the game aside."""
        try:
            yield
        except SQLAlchemyError:
            say_database_away(self.row.id)
            raise CommandError(errors.SERVER_ERROR, DATABASE_AWAY) from None
        except Exception:
            self.fail(f"a decision stored by {writer} does not replay")
            raise CommandError(errors.SERVER_ERROR, self.broken or "") from None

    def _broadcast_event(self, number: int, colour: int, text: str) -> None:
        decision = {"colour": COLOUR_NAMES[colour], "move": text}
        cache: dict[Any, Any] = {}
        for listener in list(self.listeners):
            state = self.state_for(listener, cache)
            listener.deliver({"type": "event", "event": number, "decision": decision, "state": state})

    def broadcast_state(self, but: Listener | None = None) -> None:
        """The state again, without a new event (the game started, a rematch was made)."""
        cache: dict[Any, Any] = {}
        for listener in list(self.listeners):
            if listener is not but:
                listener.deliver({"type": "state", "state": self.state_for(listener, cache)})

    def _broadcast_presence(self) -> None:
        """Tell every client who is here, shortly: the changes until then go in one message."""
        if self._presence_due is None:
            self._presence_due = asyncio.get_running_loop().call_later(self.PRESENCE_EVERY, self._send_presence)

    def _send_presence(self) -> None:
        self._presence_due = None
        seats = [self._seat_json(seat) for seat in self.seats.values()]
        message = {"type": "presence", "event": self.event, "seats": seats}
        for listener in list(self.listeners):
            listener.deliver(message)  # one message for all: encoded once

    def _start_if_ready(self, arriving: Listener | None = None) -> None:
        """Start a waiting game once every seat is taken, and tell everyone; but ``arriving``, the
        client whose coming starts it, which is sent its ``sync`` next (a ``state`` before it
        made a client act twice on the same turn)."""
        if self.owner and self._ready_to_start():
            try:
                self.store.set_status(self.row.id, PLAYING, self.epoch)
            except NotOwnerError:
                with contextlib.suppress(CommandError):  # a failure to follow sets the game aside, said to all
                    self.lose_ownership()
                return
            self.row = self.row.with_status(PLAYING)
            self.broadcast_state(but=arriving)
            if self._anyone_away():
                self._schedule_takeover()  # a player away from the start (come and gone) is stood in for too

    def _ready_to_start(self) -> bool:
        return (
            self.broken is None
            and self.row.status == WAITING
            and all(seat.row.claimed or seat.is_machine for seat in self.seats.values())
        )

    def _is_live(self) -> bool:
        return self.row.status == PLAYING and not self.game.is_over

    # --- hints ----------------------------------------------------------------------

    async def hint(self, listener: Listener, seat: int | None, event: int) -> None:
        """The legal moves ranked by a computer player, for the seat to decide, if the game allows.

        The computer sees only the seat's observation (its own hand, never the pack's order),
        so a hint tells nothing the player could not know.
        """
        self._check_working()
        colour = self.acting_seat(listener, seat)
        if not self.row.hints:
            raise CommandError(errors.HINTS_OFF, "this game was created without hints")
        async with self.lock:
            self._check_live()
            self._check_event(event, colour, "")
            game = self.game
            if colour != game.decider:
                raise CommandError(errors.NOT_YOUR_TURN, "hints are for your own decision")
            if game.stage != CARD or (game.card is None and not game.rules.hand):
                raise CommandError(errors.NO_HINT, "hints rank the moves of a card: there is none to play yet")
            seen, legal, position = game.observe(colour), self.offered(), game.position
        ranked = await asyncio.to_thread(rank_observed, seen, legal, self.settings.hint_level, random.Random(0))
        moves = [{"move": format_move(position, move), "chance": round(chance, 4)} for move, chance in ranked]
        why = best_reason(seen.rules, seen.position, ranked)  # the coach's line: what the best move does
        listener.deliver({"type": "hint", "event": event, "moves": moves, "reason": why})

    def why(self, listener: Listener, seat: int | None, event: int, asked: tuple[str, str, str]) -> None:
        """Why the seat's pawn cannot go where its player pointed with a card (``asked``: the
        card, the pawn and the place, as the client names them); the answer's ``reason`` is
        null when a legal move takes it there.  Nothing changes."""
        self._check_working()
        colour = self.acting_seat(listener, seat)
        self._check_live()
        self._check_event(event, colour, "")
        if colour != self.game.decider or self.game.stage != CARD:
            raise CommandError(errors.NOT_YOUR_TURN, "why a pawn cannot go somewhere is asked of your own card")
        card, pawn, to = asked
        try:
            reason = why_not_there(self.game, colour, card, pawn, to, self.offered())
        except InvalidError as error:
            raise CommandError(errors.MALFORMED, str(error)) from None
        listener.deliver({"type": "why", "event": event, "card": card, "pawn": pawn, "to": to, "reason": reason})

    # --- computer players -----------------------------------------------------------

    def kick(self) -> None:
        """Let the computer players decide, if the decision is theirs."""
        if self._machine_decider() is None:
            return
        if self._driver is None or self._driver.done():
            self._driver = asyncio.get_running_loop().create_task(self._drive())

    def _taken_over(self, seat: Seat) -> bool:
        """A person away long enough is played by a computer, so that those still here need not
        wait; with nobody else waiting (a game against the computer, a hot-seat screen put down:
        a tablet locked, a tab closed) the game waits for them instead."""
        if seat.is_machine or seat.away_since is None or self.row.status != PLAYING:
            return False
        now = time.monotonic()
        self._run_clocks(now)
        # the takeover time counts only while someone waits: both gone, then one back, the one
        # back waits it out before the computer plays for the other; one who comes and goes
        # pauses it, and it goes on when they are back
        return seat.waited_from is not None and seat.waited_until(now) >= self.settings.takeover_after

    def _run_clocks(self, now: float) -> None:
        """Run or pause the takeover clock of each person away, as someone waits for them or not."""
        for seat in self.seats.values():
            if not seat.is_machine and seat.away_since is not None:
                seat.run_clock(self._someone_else_waits(seat) is not None, now)

    def _someone_else_waits(self, seat: Seat) -> float | None:
        """Since when a person at another screen than ``seat``'s has been here (another online
        player, or for an online seat, a hot-seat screen: a hot-seat's own seats wait for each
        other); None if nobody is."""
        since = [
            other.present_since if other.present_since is not None else 0.0
            for other in self.seats.values()
            if other is not seat
            and not other.is_machine
            and not (seat.row.kind == HOTSEAT and other.row.kind == HOTSEAT)
            and self._present(other)
        ]
        return min(since) if since else None

    def _anyone_away(self) -> bool:
        return any(not seat.is_machine and seat.away_since is not None for seat in self.seats.values())

    def _machine_decider(self) -> int | None:
        """The colour a computer decides for now, if any (the owner's computers)."""
        if not self.owner or self.broken is not None or not self._is_live():
            return None
        seat = self.seats[self.game.decider]
        return seat.colour if seat.is_machine or self._taken_over(seat) else None

    async def _drive(self) -> None:
        """The computer players' decisions, one after another while they are due.  A refused
        one (the database failing, say) is tried again after a pause that doubles each time;
        one that raises sets the game aside."""
        pause = RETRY_FIRST
        try:
            while (colour := self._machine_decider()) is not None:
                if self.settings.bot_pace > 0:
                    await asyncio.sleep(self.settings.bot_pace)
                if await self._machine_decision(colour):
                    pause = RETRY_FIRST
                else:
                    await asyncio.sleep(pause)
                    pause = min(2 * pause, RETRY_MOST)
        except Exception:  # a bug must not stop the server: this game is set aside, the others go on
            self.fail("its computer player could not decide")

    async def _machine_decision(self, colour: int) -> bool:
        """One computer decision: False if it was refused (logged), True otherwise."""
        async with self.lock:
            if self._machine_decider() != colour:
                return True
            event = self.event
            observation, moves = self.game.observe(colour), self.offered()
        move = await self._machine_choice(colour, observation, moves, event)
        try:
            await _to_the_end(self._machine_commit(colour, move, event))
        except CommandError as error:
            log.warning("computer move refused in game %s: %s", self.row.id, error.message)
            return False
        return True

    async def _machine_choice(self, colour: int, observation: Any, moves: list[Move], event: int) -> Move:
        """The computer's choice; if the computer player fails (a bug), the first legal move, so
        that the game goes on."""
        seat = self.seats[colour]
        level = seat.row.level if seat.is_machine and seat.row.level else self.settings.takeover_level
        rng = random.Random(f"{self.row.seed}:{event}")
        try:
            bot = self._bot(level)
            if len(moves) == 1:
                return moves[0]
            if bot.name == "random":
                return bot.choose(observation, moves, rng)
            # searches take a while: keep the other games moving meanwhile
            return await asyncio.to_thread(bot.choose, observation, moves, rng)
        except Exception:
            log.exception("computer %r failed in game %s at event %d: first move played", level, self.row.id, event)
            return moves[0]

    async def _machine_commit(self, colour: int, move: Move, event: int) -> None:
        async with self.lock:
            if self.event == event and self._machine_decider() == colour:
                await self._commit(colour, move, by_computer=True)
                if not self.seats[colour].is_machine:
                    self._stood_in.add(event)

    def _bot(self, level: str) -> Bot:
        if level not in self._bots:
            self._bots[level] = make_bot(level)
        return self._bots[level]

    def _schedule_takeover(self) -> None:
        """Look again when the first running takeover clock is due (the clocks brought up to now)."""
        now = time.monotonic()
        self._run_clocks(now)
        if self.row.status == FINISHED or not self.owner:
            return
        running = [seat for seat in self.seats.values() if seat.waited_from is not None]
        left = min((self.settings.takeover_after - seat.waited_until(now) for seat in running), default=None)
        delay = max(0.0, left if left is not None else self.settings.takeover_after) + 0.01
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

    async def become_owner(self, epoch: int) -> None:
        """This process has taken the game over (with owner epoch ``epoch``): catch up with what
        the last owner stored, then decide from now on (computer players, takeover timers)."""
        await self._catch_up_soon("the last owner")  # the database away: taken over at the next try
        self.epoch = epoch
        self.owner = True
        self.start_timers()
        self._start_if_ready()
        log.info(
            "game %s taken over at event %d", self.row.id, self.event, extra={"game": self.row.id, "event": self.event}
        )

    def lose_ownership(self) -> None:
        """Another process has taken the game over (this one's decision was refused, or its
        lock was lost): decide no more, and follow what the new owner stores."""
        if not self.owner:
            return
        self.owner = False
        for timer in self._timers:
            timer.cancel()
        if self.disown is not None:
            self.disown()
        log.warning(
            "game %s: no longer decided here (its lock was lost, or another process took it); following it", self.row.id
        )
        self._catch_up()

    async def heard(self, number: int | None) -> None:
        """Another process stored something (news, the room's lock held): what is not made
        here yet is made, and the computers play on if it is their turn."""
        if number is not None and number <= self.event:  # made here already (this process's own, mostly)
            return
        await self.refresh_soon(number)
        self.kick()

    def refresh(self, number: int | None = None) -> None:
        """Another process stored something: decision ``number`` (make and broadcast every
        decision not yet made here), or a change of seats, status or rematch (read the row)."""
        self._make_news(self._read_decisions(number), number)

    async def refresh_soon(self, number: int | None = None) -> None:
        """:meth:`refresh`, reading the decisions from a thread (the room's lock held, so that
        none is made here meanwhile): a slow database holds up this game only.  The row is read
        on the event loop, where the seats and the status also change (a player arriving): one
        read in a thread could be older than such a change, and undo it."""
        self._make_news(await asyncio.to_thread(self._read_decisions, number), number)

    def _read_decisions(self, number: int | None) -> list[tuple[int, str]] | None:
        """The decisions stored, if some may be new here."""
        return self.store.decisions(self.row.id) if number is None or number > self.event else None

    def _make_news(self, stored: list[tuple[int, str]] | None, number: int | None) -> None:
        if stored is not None:
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
            self.gone = True
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


def _duration(seconds: float) -> str:
    """A time in words: "2 minutes", "90 seconds"."""
    if seconds >= 60 and seconds % 60 == 0:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds:g} second{'s' if seconds != 1 else ''}"


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
