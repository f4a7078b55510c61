"""The database: games, their seats and every decision, through SQLAlchemy 2 (SQLite or PostgreSQL).

A game is stored as what replays it exactly: the rules text, the seats, the seed, who was
named to play first, and each decision in record notation, numbered from 1 (the event
numbers of the protocol).  The decision's number is part of the primary key, so two
writers can never both store decision ``n`` of a game.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    event,
    insert,
    select,
    text,
    update,
)
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError

log = logging.getLogger("pardon.web")

WAITING = "waiting"
PLAYING = "playing"
FINISHED = "finished"

metadata = MetaData()

games = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("rules", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("first", Integer, nullable=True),
    Column("public", Boolean, nullable=False),
    Column("hints", Boolean, nullable=False),
    Column("status", String(16), nullable=False),
    Column("winner", Integer, nullable=True),
    Column("host_hash", String(64), nullable=False),
    Column("watch_hash", String(64), nullable=False),
    Column("rematch_of", String(32), nullable=True),
    Column("rematch", String(32), nullable=True),
    Column("created", DateTime(timezone=True), nullable=False),
    Index("games_by_status", "status", "public"),
)

seats = Table(
    "seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("colour", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("level", String(32), nullable=True),
    Column("name", String(40), nullable=False),
    Column("token_hash", String(64), nullable=True),
    Column("claimed", Boolean, nullable=False),
)

decisions = Table(
    "decisions",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),
    Column("colour", Integer, nullable=False),
    Column("move", String(200), nullable=False),
)


# Built once: a decision is the one write of every move.
_ADD_DECISION = insert(decisions)
_SET_RESULT = (
    update(games)
    .where(games.c.id == bindparam("key"))
    .values(status=bindparam("new_status"), winner=bindparam("new_winner"))
)


#: The PostgreSQL channel on which each stored change of a game is announced (``ID:n``, n the
#: game's last event after a decision, or ``ID`` for any other change); other processes listen.
CHANNEL = "pardon_games"

#: The most decisions stored in one transaction by the writer.
BATCH = 512
_NOTIFY = text("SELECT pg_notify(:channel, payload) FROM unnest(CAST(:payloads AS text[])) AS payload")


@dataclass(frozen=True)
class Decision:
    """One decision to store: ``status`` and ``winner`` are the game's after it."""

    game_id: str
    number: int
    colour: int
    move: str
    status: str = PLAYING
    winner: int | None = None


@dataclass(frozen=True)
class SeatRow:
    colour: int
    kind: str  # "human", "bot" or "hotseat"
    level: str | None
    name: str
    token_hash: str | None
    claimed: bool


@dataclass(frozen=True)
class GameRow:
    id: str
    rules: str
    seed: int
    first: int | None
    public: bool
    hints: bool
    status: str
    winner: int | None
    host_hash: str
    watch_hash: str
    seats: tuple[SeatRow, ...]
    rematch_of: str | None = None
    rematch: str | None = None
    created: datetime = field(default_factory=lambda: datetime.now(UTC))

    def with_status(self, status: str, winner: int | None = None) -> GameRow:
        return replace(self, status=status, winner=winner)


class DecisionTakenError(Exception):
    """Another writer stored this decision number first."""


def make_engine(url: str) -> Engine:
    """An engine; SQLite gets WAL (readers never wait for the writer), foreign keys, and
    ``synchronous=NORMAL``: a commit survives the server being killed, which is what the
    server promises (a power cut may lose the last moves)."""
    if url.startswith("sqlite"):
        path = url.split("///", 1)[1] if "///" in url else ""
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


class Store:
    """Every read and write of games, each one short transaction."""

    def __init__(self, engine: Engine):
        self.engine = engine

    @contextmanager
    def _transaction(self) -> Iterator[Connection]:
        with self.engine.begin() as connection:
            yield connection

    def add_game(self, row: GameRow) -> None:
        with self._transaction() as connection:
            connection.execute(
                insert(games).values(
                    id=row.id,
                    rules=row.rules,
                    seed=row.seed,
                    first=row.first,
                    public=row.public,
                    hints=row.hints,
                    status=row.status,
                    winner=row.winner,
                    host_hash=row.host_hash,
                    watch_hash=row.watch_hash,
                    rematch_of=row.rematch_of,
                    rematch=row.rematch,
                    created=row.created,
                )
            )
            connection.execute(
                insert(seats),
                [
                    {
                        "game_id": row.id,
                        "colour": seat.colour,
                        "kind": seat.kind,
                        "level": seat.level,
                        "name": seat.name,
                        "token_hash": seat.token_hash,
                        "claimed": seat.claimed,
                    }
                    for seat in row.seats
                ],
            )

    def game(self, game_id: str) -> GameRow | None:
        with self.engine.connect() as connection:
            found = connection.execute(select(games).where(games.c.id == game_id)).mappings().first()
            if found is None:
                return None
            return _game_row(found, self._seats(connection, [game_id])[game_id])

    def _seats(self, connection: Connection, ids: list[str]) -> dict[str, tuple[SeatRow, ...]]:
        found: dict[str, list[SeatRow]] = {game_id: [] for game_id in ids}
        query = select(seats).where(seats.c.game_id.in_(ids)).order_by(seats.c.game_id, seats.c.colour)
        for row in connection.execute(query).mappings():
            found[row["game_id"]].append(
                SeatRow(row["colour"], row["kind"], row["level"], row["name"], row["token_hash"], row["claimed"])
            )
        return {game_id: tuple(rows) for game_id, rows in found.items()}

    def games_with_status(
        self, statuses: tuple[str, ...], public_only: bool = False, limit: int = 1000
    ) -> list[GameRow]:
        with self.engine.connect() as connection:
            query = select(games).where(games.c.status.in_(statuses))
            if public_only:
                query = query.where(games.c.public.is_(True))
            rows = list(connection.execute(query.order_by(games.c.created.desc()).limit(limit)).mappings())
            found = self._seats(connection, [row["id"] for row in rows])
            return [_game_row(row, found[row["id"]]) for row in rows]

    def decisions(self, game_id: str) -> list[tuple[int, str]]:
        with self.engine.connect() as connection:
            query = select(decisions.c.colour, decisions.c.move).where(decisions.c.game_id == game_id)
            return [(row.colour, row.move) for row in connection.execute(query.order_by(decisions.c.number))]

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def add_decisions(self, batch: list[Decision]) -> None:
        """Store decisions of any games, each with the status that changes with it, in one
        transaction: all of them, or none (:class:`DecisionTakenError` if one was taken)."""
        try:
            with self._transaction() as connection:
                connection.execute(
                    _ADD_DECISION,
                    [{"game_id": d.game_id, "number": d.number, "colour": d.colour, "move": d.move} for d in batch],
                )
                ended = [d for d in batch if d.status != PLAYING]  # a game is marked playing when it starts
                if ended:
                    connection.execute(
                        _SET_RESULT, [{"key": d.game_id, "new_status": d.status, "new_winner": d.winner} for d in ended]
                    )
                self._announce(connection, [f"{d.game_id}:{d.number}" for d in batch])
        except IntegrityError:
            raise DecisionTakenError(f"a decision of {batch[0].game_id} is already stored") from None

    def add_decision(self, game_id: str, number: int, colour: int, move: str, status: str, winner: int | None) -> None:
        """Store decision ``number`` (and a status that changes with it) in one transaction."""
        self.add_decisions([Decision(game_id, number, colour, move, status, winner)])

    def _announce(self, connection: Connection, payloads: list[str]) -> None:
        """Tell the other server processes (PostgreSQL: delivered when the transaction commits)."""
        if self.is_postgres and payloads:
            connection.execute(_NOTIFY, {"channel": CHANNEL, "payloads": payloads})

    def set_status(self, game_id: str, status: str) -> None:
        with self._transaction() as connection:
            connection.execute(update(games).where(games.c.id == game_id).values(status=status))
            self._announce(connection, [game_id])

    def claim_seat(self, game_id: str, colour: int, token_hash: str | None = None) -> None:
        """Mark a seat as taken by its player (with a new token when joined from the lobby)."""
        values: dict[str, Any] = {"claimed": True}
        if token_hash is not None:
            values["token_hash"] = token_hash
        with self._transaction() as connection:
            connection.execute(
                update(seats).where(seats.c.game_id == game_id, seats.c.colour == colour).values(**values)
            )
            self._announce(connection, [game_id])

    def set_rematch(self, game_id: str, rematch_id: str) -> bool:
        """Link a finished game to its rematch; False if it already has one."""
        with self._transaction() as connection:
            result = connection.execute(
                update(games).where(games.c.id == game_id, games.c.rematch.is_(None)).values(rematch=rematch_id)
            )
            self._announce(connection, [game_id])
            return bool(result.rowcount)


class Writer:
    """One thread stores every decision of this process.  Decisions that arrive while it is
    committing are stored together in the next transaction (group commit), so a burst of
    moves from many games costs a few commits, and the event loop never waits on the disk.

    ``await writer.add(decision)`` returns once the decision is committed (or raises): a
    room broadcasts only then.
    """

    def __init__(self, store: Store):
        self.store = store
        self._queue: queue.SimpleQueue[tuple[Decision, asyncio.Future[None]] | None] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="pardon-writer", daemon=True)
        self._thread.start()

    async def add(self, decision: Decision) -> None:
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.put((decision, done))
        await done

    def close(self) -> None:
        """Store what is queued, then stop."""
        self._queue.put(None)
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while (first := self._queue.get()) is not None:
            batch = [first]
            stop = False
            while len(batch) < BATCH:
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    break
                if item is None:
                    stop = True
                    break
                batch.append(item)
            self._store(batch)
            if stop:
                return

    def _store(self, batch: list[tuple[Decision, asyncio.Future[None]]]) -> None:
        try:
            self.store.add_decisions([decision for decision, _ in batch])
        except Exception as error:
            if len(batch) > 1:  # one decision spoilt the transaction: store each alone, to fail only that one
                for item in batch:
                    self._store([item])
                return
            _settle(batch[0][1], error)
            return
        for _, done in batch:
            _settle(done, None)


def _settle(done: asyncio.Future[None], error: BaseException | None) -> None:
    """Answer an awaiting room from the writer thread (its loop may have closed meanwhile)."""

    def answer() -> None:
        if done.done():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    try:
        done.get_loop().call_soon_threadsafe(answer)
    except RuntimeError:  # the loop is closed: nobody is waiting any more
        log.debug("decision settled after the server stopped")


def _game_row(row: Any, seat_rows: tuple[SeatRow, ...]) -> GameRow:
    created = row["created"]
    if created.tzinfo is None:  # SQLite keeps no time zone
        created = created.replace(tzinfo=UTC)
    return GameRow(
        id=row["id"],
        rules=row["rules"],
        seed=row["seed"],
        first=row["first"],
        public=row["public"],
        hints=row["hints"],
        status=row["status"],
        winner=row["winner"],
        host_hash=row["host_hash"],
        watch_hash=row["watch_hash"],
        seats=seat_rows,
        rematch_of=row["rematch_of"],
        rematch=row["rematch"],
        created=created,
    )
