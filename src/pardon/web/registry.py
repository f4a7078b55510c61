"""The rooms of one server process: every unfinished game it serves, and finished ones while
watched (:class:`Rooms`).

Rooms are opened from the database when a game is asked for, resumed at startup, swept when
nobody watches them and expired when nobody came to play; with several processes
(:mod:`pardon.web.cluster`) each game is owned by one process, the others follow what it
stores, and the games of a process that has gone are claimed by the others.  Each room
itself is :class:`pardon.web.rooms.Room`.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import secrets
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from pardon.web import errors
from pardon.web.cluster import Cluster
from pardon.web.errors import CommandError
from pardon.web.rooms import PRESENCE_BEAT, GameBrokenError, Room, log, new_game, say_database_away
from pardon.web.settings import Settings
from pardon.web.storage import FINISHED, PLAYING, WAITING, GameRow, Store, Writer


class Rooms:
    """The rooms of this server: every unfinished game, and finished ones while watched."""

    def __init__(self, store: Store, settings: Settings):
        self.store = store
        self.settings = settings
        self.writer = Writer(store)
        self.rooms: dict[str, Room] = {}
        #: Games that could not be loaded (their stored decisions do not replay), and why.
        self.broken: dict[str, str] = {}
        #: PostgreSQL: this process among others (one owner per game); None on SQLite.
        self.cluster = Cluster(store) if store.is_postgres else None
        #: The event loop serving the clients (REST requests are answered in other threads).
        self.loop: asyncio.AbstractEventLoop | None = None
        self._sweeper: asyncio.Task[None] | None = None
        #: This process among the others, in what it tells them of its players (several processes).
        self.process = secrets.token_hex(4)
        self._reminded = 0.0
        #: The news being made in the rooms (each under its room's lock), kept until done.
        self._hearing: set[asyncio.Task[None]] = set()
        #: The round of claiming the games whose owner has gone, while one runs.
        self._claiming: asyncio.Task[None] | None = None

    def resume_all(self) -> int:
        """Rebuild every unfinished game from the database (at startup) that no other process
        runs; how many.  A game that does not replay is set aside, and the others resumed."""
        self.loop = asyncio.get_running_loop()
        if self.cluster is not None:
            self.cluster.listen(self.news, self.take_over_orphans)
        for row in self.store.games_with_status((WAITING, PLAYING), limit=1_000_000):
            try:
                room = self._open(row, keep=True, only_owned=True)
            except GameBrokenError:
                continue
            if room is not None:
                room.start_timers()
        quiet_collector()
        self._sweeper = self.loop.create_task(self._sweep_often())
        return len(self.rooms)

    def on_loop(self, action: Callable[..., None], *arguments: Any) -> None:
        """Run ``action`` on the event loop, from whatever thread: clients' mailboxes are the loop's."""
        if self.loop is None:
            action(*arguments)
        else:
            self.loop.call_soon_threadsafe(action, *arguments)

    def news(self, payload: str) -> None:
        """Another process (or this one) stored a change of a game, ``ID:n`` or ``ID``, or says
        which of a game's seats have players connected to it, ``ID!PROCESS!COLOURS``."""
        if payload.endswith("?"):  # a process opened the game: who is here?
            if (asked := self.rooms.get(payload[:-1])) is not None and asked._here():
                asked.remind()
            return
        if "!" in payload:
            self._heard_presence(payload)
            return
        game_id, _, number = payload.partition(":")
        room = self.rooms.get(game_id)
        if room is None or room.broken is not None or (number and int(number) <= room.event):  # made here
            return
        hearing = asyncio.get_running_loop().create_task(self._hear(room, int(number) if number else None))
        self._hearing.add(hearing)
        hearing.add_done_callback(self._hearing.discard)

    async def _hear(self, room: Room, number: int | None) -> None:
        """Make the news in the room under its lock: a move being stored here is made first."""
        async with room.lock:
            try:
                await room.heard(number)
            except SQLAlchemyError:  # read again with the next news, or when this process takes the game over
                say_database_away(room.row.id)
            except Exception:
                room.fail("a decision stored by another server process does not replay here")
        if room.gone:  # expired by another process: its clients are told, as by this one's sweep
            self._expire_room(room)

    def _heard_presence(self, payload: str) -> None:
        game_id, process, colours = payload.split("!", 2)
        room = self.rooms.get(game_id)
        if room is not None and process != self.process:
            room.heard_presence(process, frozenset(int(colour) for colour in colours.split(",") if colour))

    def _tell_presence(self, game_id: str, colours: frozenset[int]) -> None:
        """Tell the other processes which seats of a game have players connected here."""
        said = ",".join(str(colour) for colour in sorted(colours))
        try:
            self.store.notify([f"{game_id}!{self.process}!{said}"])
        except SQLAlchemyError:  # said again at the next reminder
            say_database_away(game_id)

    def _nudge(self, game_id: str) -> None:
        with contextlib.suppress(SQLAlchemyError):  # the next watcher nudges again
            self.store.notify([game_id])

    def _remind(self) -> None:
        """Every few seconds: say again who is connected here, and forget the players of silent processes."""
        now = time.monotonic()
        if now - self._reminded < PRESENCE_BEAT:
            return
        self._reminded = now
        for room in list(self.rooms.values()):
            if room.row.status != FINISHED:
                room.remind()

    def take_over_orphans(self) -> None:
        """Once a second: give up the games whose locks this process has lost, and take over
        the games served here whose owner has gone (their lock is free)."""
        if self.cluster is None:
            return
        self._remind()
        if self._claiming is None or self._claiming.done():  # one round at a time: a game taken over once
            self._claiming = asyncio.get_running_loop().create_task(self._claim_orphans())

    async def _claim_orphans(self) -> None:
        """The locks checked and the orphans claimed in a thread (a slow database holds up no
        game), then each game lost given up and each one claimed taken over, under its lock."""
        cluster = self.cluster
        assert cluster is not None
        orphans = [
            room
            for room in list(self.rooms.values())
            if not room.owner and room.broken is None and room.row.status != FINISHED
        ]

        def ask() -> tuple[set[str], list[int | None]]:
            return cluster.check(), [cluster.claim(room.row.id) for room in orphans]

        lost, epochs = await asyncio.to_thread(ask)
        for game_id in lost:
            if (room := self.rooms.get(game_id)) is not None:
                await _give_up(room)
        for room, epoch in zip(orphans, epochs, strict=True):
            if epoch is not None:
                await _take_over(room, epoch)

    def get(self, game_id: str) -> Room | None:
        """A game's room, to look at (REST): None if there is no such game; :class:`GameBrokenError`
        if it cannot be loaded.  An unfinished game's room stays in memory (it is live); a
        finished game's is read from the database and forgotten, unless someone watches it."""
        return self._find(game_id, keep=False)

    def watch(self, game_id: str) -> Room | None:
        """A game's room for a client to attend (websocket): kept in memory until
        :meth:`release` once nobody watches it; as :meth:`get` otherwise.  The tokens of seats
        joined from the lobby whose players did not come in time open nothing from now on."""
        room = self._find(game_id, keep=True)
        if room is not None:
            room.forget_lapsed_joins()
        return room

    def _find(self, game_id: str, keep: bool) -> Room | None:
        if game_id in self.broken:
            raise GameBrokenError(self.broken[game_id])
        room = self.rooms.get(game_id)
        if room is None:
            row = self.store.game(game_id)
            if row is None:
                return None
            room = self._open(row, keep=keep or row.status != FINISHED)
        if room is None:
            return None
        if room.broken is not None:
            raise GameBrokenError(room.broken)
        return room

    def add(self, row: GameRow) -> Room:
        """A new game: stored first, then opened."""
        self.store.add_game(row)
        return self._new_room(row)

    def add_public(self, row: GameRow, creator: str, most: int, seen_since: datetime | None) -> Room | None:
        """A new public game made from the address ``creator``: stored, then opened; None (nothing
        stored) if that address has ``most`` public games waiting already (:meth:`Store.add_public_game`)."""
        if not self.store.add_public_game(row, creator, most, seen_since):
            return None
        return self._new_room(row)

    def add_rematch(self, row: GameRow) -> Room | None:
        """A finished game's rematch: stored and linked to it at once, then opened; None if
        the game already has its rematch (another request made it first)."""
        if not self.store.add_rematch(row):
            return None
        return self._new_room(row)

    def _new_room(self, row: GameRow) -> Room:
        """The room of a game just stored (before any decision), kept."""
        room = Room(row, new_game(row), [], self.store, self.writer, self.settings)
        self._own(room, self._claim(row.id))
        # a request that lost a race (two players pressing rematch) may have opened it first: one room
        kept = self.rooms.setdefault(row.id, room)
        if kept is room:
            self._ask_presence(room)
        return kept

    def _open(self, row: GameRow, keep: bool, only_owned: bool = False) -> Room | None:
        """The room of a stored game, its decisions replayed (after claiming it: so that they are
        all the last owner stored).  Kept in memory if ``keep``; None if ``only_owned`` and
        another process owns the game."""
        live = row.status != FINISHED
        epoch = self._claim(row.id) if live and keep else None
        if only_owned and self.cluster is not None and epoch is None:
            return None
        try:
            room = Room.rebuild(row, self.store.decisions(row.id), self.store, self.writer, self.settings)
        except Exception:
            log.exception("game %s cannot be loaded: its stored decisions do not replay", row.id)
            if epoch is not None and self.cluster is not None:
                self.cluster.release(row.id)
            self.broken[row.id] = (
                f"game {row.id} cannot be loaded: its stored decisions do not replay; "
                "the server's log says why (it tries again when restarted)"
            )
            raise GameBrokenError(self.broken[row.id]) from None
        if live and keep:
            self._own(room, epoch)
        if keep:
            kept = self.rooms.setdefault(row.id, room)
            if kept is room:
                self._ask_presence(room)
            if kept is room and epoch is not None and not only_owned:
                # taken over as it was asked for (resume_all starts its own): its computers
                # stand in for the players away, on the event loop (a REST request runs elsewhere)
                self.on_loop(self._start_timers, room)
            return kept
        return room

    def _start_timers(self, room: Room) -> None:
        if self.rooms.get(room.row.id) is room and room.owner:
            room.start_timers()

    def _claim(self, game_id: str) -> int | None:
        return self.cluster.claim(game_id) if self.cluster is not None else None

    def _own(self, room: Room, epoch: int | None) -> None:
        """Whether this process decides for the room: yes, unless another process owns the game."""
        cluster = self.cluster
        if cluster is None:
            return
        game_id = room.row.id
        room.claim = lambda: cluster.claim(game_id)
        room.database_answers = lambda: cluster.answering
        room.disown = lambda: cluster.forget(game_id)
        room.tell_presence = lambda colours: self._tell_presence(game_id, colours)
        room.nudge = lambda: self._nudge(game_id)
        room.owner = epoch is not None
        if epoch is not None:
            room.epoch = epoch

    def _ask_presence(self, room: Room) -> None:
        """A room just kept: the other processes say which of its players are connected to them
        (an owner that did not know would have its computer stand in for them).  Asked once the
        room is kept, so that the answers find it."""
        if self.cluster is not None and room.row.status != FINISHED:
            with contextlib.suppress(SQLAlchemyError):  # their reminders say it soon anyway
                self.store.notify([f"{room.row.id}?"])

    def release(self, room: Room) -> None:
        """Forget a finished game nobody watches (it stays in the database)."""
        if room.row.status == FINISHED and not room.listeners:
            self._forget(room)

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.row.id) is not room:
            return
        room.close()
        del self.rooms[room.row.id]
        if self.cluster is not None:
            self.cluster.release(room.row.id)

    # --- housekeeping -----------------------------------------------------------------

    async def _sweep_often(self) -> None:
        expiry = self.settings.waiting_expiry
        # a short expiry is swept more often: who is at a game is recorded several times within it
        every = min(self.settings.sweep_every, expiry / 3) if expiry > 0 else self.settings.sweep_every
        while True:
            await asyncio.sleep(every)
            try:
                await self.sweep()
            except Exception:  # the next sweep tries again
                log.exception("pardon serve: housekeeping failed")

    async def sweep(self) -> None:
        """Forget the rooms nobody needs: finished games nobody watches (looked at over REST,
        or refused a websocket), and games another process runs that nobody watches here.
        Then delete the games abandoned while waiting for players."""
        for room in list(self.rooms.values()):
            if not room.listeners and room.broken is None and (room.row.status == FINISHED or not room.owner):
                self._forget(room)
        # recorded by every process, whether it expires games or not: another may
        watched = [room.row.id for room in list(self.rooms.values()) if room.row.status == WAITING and room.listeners]
        expiry = self.settings.waiting_expiry
        before = datetime.now(UTC) - timedelta(seconds=expiry) if expiry > 0 else None
        for game_id in await asyncio.to_thread(self._expire, watched, before):
            expired = self.rooms.get(game_id)
            if expired is not None:
                self._expire_room(expired)
            log.info("game %s expired: nobody came to play it", game_id, extra={"game": game_id})

    def _expire_room(self, room: Room) -> None:
        """A game deleted while waiting for players: its clients are told, and its room forgotten."""
        for listener in list(room.listeners):
            listener.deliver(_expired(room))
        self._forget(room)

    def _expire(self, watched: list[str], before: datetime | None) -> list[str]:
        self.store.seen(watched)
        return self.store.expire_waiting(before) if before is not None else []

    def close(self) -> None:
        if self._sweeper is not None:
            self._sweeper.cancel()
        for room in self.rooms.values():
            room.close()
        self.rooms.clear()
        self.writer.close()
        if self.cluster is not None:
            self.cluster.close()


async def _take_over(room: Room, epoch: int) -> None:
    """The room's game is this process's now: taken over under the room's lock, so that a
    player's move being stored here is made first."""
    async with room.lock:
        with contextlib.suppress(CommandError):  # a failure is that game's alone: it is set aside
            await room.become_owner(epoch)


async def _give_up(room: Room) -> None:
    """The room's process has lost the game's lock: follow from now on (under the room's lock,
    so that a decision being stored is made, or refused, first)."""
    async with room.lock:
        with contextlib.suppress(CommandError):  # a failure is that game's alone: it is set aside
            room.lose_ownership()


def _expired(room: Room) -> dict[str, Any]:
    message = "this game has expired: nobody came to play it; create another"
    return {"type": "error", "code": errors.NO_GAME, "message": message, "event": room.event}


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
