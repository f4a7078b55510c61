"""The database: games, their seats and every decision, through SQLAlchemy 2 (SQLite or PostgreSQL).

A game is stored as what replays it exactly: the rules text, the seats, the seed, who was
named to play first, and each decision in record notation, numbered from 1 (the event
numbers of the protocol).  The decision's number is part of the primary key, so two
writers can never both store decision ``n`` of a game; and each decision is stored only
while its writer still owns the game (``games.owner_epoch``: see :meth:`Store.add_decisions`).

One server process uses a SQLite file (:func:`lock_database`); several may share PostgreSQL.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import logging
import os
import queue
import stat
import threading
import time
from collections.abc import Callable, Iterator
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
    and_,
    bindparam,
    create_engine,
    delete,
    event,
    false,
    func,
    insert,
    or_,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

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
    #: Raised by each process that takes the game over; a decision is stored only by the owner of the latest.
    Column("owner_epoch", Integer, nullable=False, server_default="0"),
    #: The last time anyone was seen at a waiting game (created, a seat taken, someone connected).
    Column("last_seen", DateTime(timezone=True), nullable=True),
    #: Who made a public game: the client address as the per-address limits count it (``client_key``).
    Column("creator", String(64), nullable=True),
    Index("games_by_status", "status", "public"),
    Index("games_by_creator", "creator", "status"),
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
    #: Left open for anyone: offered in the lobby of a public game (no invite link).
    Column("open", Boolean, nullable=False, server_default=false()),
    #: When an open seat was last joined from the lobby: until its player comes (``claimed``) it is
    #: kept for them for the grace time (``Settings.join_grace``), then offered again.
    Column("joined_at", DateTime(timezone=True), nullable=True),
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
    #: The game's owner epoch as the deciding process knows it: stored only if it is still the game's.
    #: None for a player's move through a process that does not own the game: its number alone
    #: (the primary key) keeps it from taking the place of another decision.
    epoch: int | None = 0


@dataclass(frozen=True)
class SeatRow:
    colour: int
    kind: str  # "human", "bot" or "hotseat"
    level: str | None
    name: str
    token_hash: str | None
    claimed: bool
    #: Left open for anyone in the lobby (a human seat with no invite link until someone joins).
    open: bool = False
    #: When it was last joined from the lobby (an open seat); its player has come once ``claimed``.
    joined_at: datetime | None = None

    def is_joining(self, cutoff: datetime) -> bool:
        """Joined from the lobby since ``cutoff`` (the grace time ago), its player not come yet:
        kept for them, offered to nobody else."""
        return self.open and not self.claimed and self.joined_at is not None and self.joined_at >= cutoff

    def has_lapsed(self, cutoff: datetime) -> bool:
        """Joined from the lobby before ``cutoff`` and its player never came: open again, and
        the joiner's token opens nothing."""
        return self.open and not self.claimed and self.joined_at is not None and self.joined_at < cutoff

    def is_joinable(self, cutoff: datetime) -> bool:
        """Offered in the lobby: left open on purpose, its player has not come, and nobody has
        joined it since ``cutoff``."""
        return self.open and not self.claimed and not self.is_joining(cutoff)


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
    owner_epoch: int = 0

    def with_status(self, status: str, winner: int | None = None) -> GameRow:
        return replace(self, status=status, winner=winner)


class DecisionTakenError(Exception):
    """Another writer stored this decision number first."""


class NotOwnerError(Exception):
    """Another process has taken the game over since this one claimed it: it may decide no more."""


class DatabaseInUseError(Exception):
    """Another ``pardon serve`` already serves this SQLite file."""


def make_engine(url: str) -> Engine:
    """An engine; SQLite gets WAL (readers never wait for the writer), foreign keys, and
    ``synchronous=NORMAL``: a commit survives the server being killed, which is what the
    server promises (a power cut may lose the last moves)."""
    if url.startswith("sqlite"):
        path = make_url(url).database or ""
        database = Path(path) if path and path != ":memory:" else None
        if database is not None:
            database.parent.mkdir(parents=True, exist_ok=True)
            _wal_files_writable(database)  # a server restarted after the file was read-only a while
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "handle_error", functools.partial(_read_only_is_stale, database))
        return engine
    return create_engine(url, pool_pre_ping=True)


#: The SQLite files this process holds (:func:`lock_database`): the lock file, and how many hold it.
_held: dict[Path, tuple[int, int]] = {}
_held_guard = threading.Lock()


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL; None for another database, or one in memory."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database).expanduser().resolve()


def lock_database(url: str) -> Callable[[], None]:
    """Hold the SQLite file of ``url`` for this process, or raise :class:`DatabaseInUseError`.

    A second server on the same file would serve the games as they were when it loaded
    them and refuse every move of theirs that the first stored.  The lock is an exclusive
    ``flock`` on ``FILE.lock`` (which names the holder's process id), freed by the returned
    function or by the system when the process ends, SIGKILL included.  Holds within one
    process share the lock.  PostgreSQL needs none: processes share it by design
    (:mod:`pardon.web.cluster`); nor does a database in memory, or a system without ``flock``.
    """
    path = sqlite_file(url)
    try:
        import fcntl
    except ImportError:  # not a POSIX system: no lock
        return lambda: None
    if path is None:
        return lambda: None
    with _held_guard:
        if path in _held:
            handle, count = _held[path]
            _held[path] = (handle, count + 1)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = os.open(f"{path}.lock", os.O_RDWR | os.O_CREAT, 0o644)
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                holder = os.read(handle, 32).decode("ascii", "replace").strip()
                os.close(handle)
                who = f" (pid {holder})" if holder.isdigit() else ""
                raise DatabaseInUseError(
                    f"the database {path} is in use by another pardon server{who}; stop it first, "
                    "or serve another file (--db)"
                ) from None
            os.ftruncate(handle, 0)
            os.write(handle, f"{os.getpid()}\n".encode())
            _held[path] = (handle, 1)
    released = threading.Event()

    def let_go() -> None:
        """This hold ends (once, however often called); the lock with the last hold of the process."""
        with _held_guard:
            if released.is_set() or path not in _held:
                return
            released.set()
            handle, count = _held.pop(path)
            if count > 1:
                _held[path] = (handle, count - 1)
                return
            os.ftruncate(handle, 0)
            fcntl.flock(handle, fcntl.LOCK_UN)
            os.close(handle)

    return let_go


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    cursor = connection.cursor()
    # no memory-mapped reads of the file: a file changed under a mapping (made read-only, cut
    # short) kills the process with SIGBUS, where a read() is an error the server can report
    cursor.execute("PRAGMA mmap_size=0")
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _read_only_is_stale(database: Path | None, context: Any) -> None:
    """A SQLite connection refused a write because it opened the file read-only (the file was
    made read-only while the server ran): drop it, and the pool's other connections, as after a
    lost connection, so that once the file is writable again new connections store moves; kept,
    they refused every move until the server was restarted.

    The idle ones are closed now, not when next taken out: a process's connections to a file
    share its WAL index, read-only if it was opened so, for as long as any of them is open.  And
    the WAL files themselves, where SQLite made them while the file was read-only, are given
    the file's own mode again (:func:`_wal_files_writable`)."""
    if "readonly database" in str(context.original_exception):
        context.is_disconnect = True
        if database is not None:
            _wal_files_writable(database)
        if context.engine is not None:
            context.engine.pool.dispose()


#: The files SQLite keeps beside a database in WAL mode: the log of changes and its index.
WAL_FILES = ("-wal", "-shm")


def _wal_files_writable(database: Path) -> None:
    """Where ``database``'s mode lets its owner write it and its WAL files' modes do not, give
    them its mode.

    SQLite makes them with the database's mode: made while the file was read-only (every
    connection closed, then one opened to read), they are read-only, and every connection
    after was refused every write, the file writable again or not, the server restarted or
    not, until someone changed them by hand.  Files this process may not change are left as
    they are (the log still says why writes fail)."""
    try:
        mode = stat.S_IMODE(database.stat().st_mode)
    except OSError:
        return
    if not mode & stat.S_IWUSR:
        return
    for suffix in WAL_FILES:
        side = database.with_name(database.name + suffix)
        with contextlib.suppress(OSError):
            if not side.stat().st_mode & stat.S_IWUSR:
                side.chmod(mode)
                log.warning("%s was read-only (made while the database was): given the database's mode again", side)


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
            _insert_game(connection, row)

    def add_public_game(self, row: GameRow, creator: str, most: int, seen_since: datetime | None) -> bool:
        """Store the public game ``row`` made from the address ``creator``, unless that address has
        ``most`` public games waiting for players already (seen since ``seen_since``: not expired):
        False then, nothing stored.  Counted and stored in one transaction that holds a lock of the
        address's, so that of any number of simultaneous requests, from any number of processes,
        exactly as many as the limit allows are stored."""
        with self._transaction() as connection:
            if most <= 0:  # no limit: only who made it is kept
                _insert_game(connection, row, creator)
                return True
            self._hold_address(connection, creator)
            waiting = (
                select(func.count())
                .select_from(games)
                .where(games.c.creator == creator, games.c.status == WAITING, games.c.public.is_(True))
            )
            if seen_since is not None:
                waiting = waiting.where(func.coalesce(games.c.last_seen, games.c.created) >= seen_since)
            if int(connection.execute(waiting).scalar_one()) >= most:
                return False
            _insert_game(connection, row, creator)
            return True

    def _hold_address(self, connection: Connection, creator: str) -> None:
        """Lock the address until the transaction ends: PostgreSQL by an advisory lock of its own;
        SQLite by taking the database's write lock now, before the count (a write that changes
        nothing: a SQLite transaction takes it at its first write, and a read alone takes none)."""
        if self.is_postgres:
            key = int.from_bytes(hashlib.sha256(f"pardon public {creator}".encode()).digest()[:8], "big", signed=True)
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": key})
        else:
            connection.execute(update(games).where(false()).values(creator=games.c.creator))

    def add_rematch(self, row: GameRow) -> bool:
        """Store ``row`` as the rematch of the finished game ``row.rematch_of`` and link the two,
        in one transaction, if that game has no rematch yet; False (nothing stored) if it has.
        The database decides, by a conditional update: of any number of simultaneous requests,
        from any number of processes, exactly one makes the rematch."""
        assert row.rematch_of is not None
        with self._transaction() as connection:
            linked = connection.execute(
                update(games).where(games.c.id == row.rematch_of, games.c.rematch.is_(None)).values(rematch=row.id)
            )
            if linked.rowcount != 1:  # another request made it first: nothing was changed
                return False
            _insert_game(connection, row)
            self._announce(connection, [row.rematch_of])
            return True

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
            seat = SeatRow(row["colour"], row["kind"], row["level"], row["name"], row["token_hash"], row["claimed"])
            found[row["game_id"]].append(replace(seat, open=row["open"], joined_at=_utc(row["joined_at"])))
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

    def lobby(
        self, limit: int, cutoff: datetime, offset: int = 0, after: tuple[datetime, str] | None = None
    ) -> tuple[list[GameRow], int, bool]:
        """The public games waiting for players with a seat left open for anyone (and not joined
        since ``cutoff``: :meth:`join_seat`), newest first (ties by id): ``limit`` of them, those
        after the game ``after`` (its created time and id: a keyset cursor, which neither loses nor
        repeats a game as others come and go) or from ``offset``; how many there are in all; and
        whether any come after these."""
        with self.engine.connect() as connection:
            joinable = select(seats.c.game_id).where(
                seats.c.game_id == games.c.id, seats.c.open.is_(True), seats.c.claimed.is_(False), _free(cutoff)
            )
            where = (games.c.status == WAITING, games.c.public.is_(True), joinable.exists())
            total = int(connection.execute(select(func.count()).select_from(games).where(*where)).scalar_one())
            query = select(games).where(*where).order_by(games.c.created.desc(), games.c.id)
            if after is not None:
                created, game_id = after
                query = query.where(
                    or_(games.c.created < created, and_(games.c.created == created, games.c.id > game_id))
                )
            rows = list(connection.execute(query.limit(limit + 1).offset(offset)).mappings())
            more, rows = len(rows) > limit, rows[:limit]
            found = self._seats(connection, [row["id"] for row in rows])
            return [_game_row(row, found[row["id"]]) for row in rows], total, more

    def playing_public(self, limit: int) -> tuple[list[tuple[GameRow, int]], int]:
        """The public games being played, newest first (ties by id): ``limit`` of them, each with
        its decisions so far, and how many there are in all.  Anyone may watch them (a public game
        needs no token to watch)."""
        with self.engine.connect() as connection:
            where = (games.c.status == PLAYING, games.c.public.is_(True))
            total = int(connection.execute(select(func.count()).select_from(games).where(*where)).scalar_one())
            made = select(func.count()).where(decisions.c.game_id == games.c.id).scalar_subquery()
            query = select(games, made.label("made")).where(*where)
            rows = list(connection.execute(query.order_by(games.c.created.desc(), games.c.id).limit(limit)).mappings())
            found = self._seats(connection, [row["id"] for row in rows])
            return [(_game_row(row, found[row["id"]]), int(row["made"])) for row in rows], total

    def waiting_public(self, game_ids: list[str]) -> list[str]:
        """Those of ``game_ids`` that are public games still waiting for players."""
        if not game_ids:
            return []
        with self.engine.connect() as connection:
            query = select(games.c.id).where(
                games.c.id.in_(game_ids), games.c.status == WAITING, games.c.public.is_(True)
            )
            return [row.id for row in connection.execute(query)]

    def decisions(self, game_id: str) -> list[tuple[int, str]]:
        with self.engine.connect() as connection:
            query = select(decisions.c.colour, decisions.c.move).where(decisions.c.game_id == game_id)
            return [(row.colour, row.move) for row in connection.execute(query.order_by(decisions.c.number))]

    def decision_count(self, game_id: str) -> int:
        """How many decisions the game has stored: its last event."""
        with self.engine.connect() as connection:
            query = select(func.count()).select_from(decisions).where(decisions.c.game_id == game_id)
            return int(connection.execute(query).scalar_one())

    @property
    def is_postgres(self) -> bool:
        return self.engine.dialect.name == "postgresql"

    def add_decisions(self, batch: list[Decision]) -> None:
        """Store decisions of any games, each with the status that changes with it, in one
        transaction: all of them, or none (:class:`DecisionTakenError` if one was taken,
        :class:`NotOwnerError` if a game has been taken over since its decision was made)."""
        try:
            with self._transaction() as connection:
                if self.is_postgres:  # a game's row held elsewhere stalls the other games' moves no longer
                    connection.execute(_LOCK_TIMEOUT)
                _check_owners(connection, {(d.game_id, d.epoch) for d in batch if d.epoch is not None})
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

    def notify(self, payloads: list[str]) -> None:
        """Tell the other server processes something not stored (who is connected where)."""
        if self.is_postgres and payloads:
            with self._transaction() as connection:
                self._announce(connection, payloads)

    def set_status(self, game_id: str, status: str, epoch: int | None = None) -> None:
        """The game's new status; with ``epoch``, only by the game's owner (:class:`NotOwnerError` otherwise)."""
        with self._transaction() as connection:
            query = update(games).where(games.c.id == game_id)
            if epoch is not None:
                query = query.where(games.c.owner_epoch == epoch)
            if connection.execute(query.values(status=status)).rowcount == 0 and epoch is not None:
                raise NotOwnerError(f"game {game_id} has been taken over by another server process")
            self._announce(connection, [game_id])

    def claim_seat(self, game_id: str, colour: int, kind: str, token_hash: str | None, cutoff: datetime) -> bool:
        """Mark a seat as taken by its player, who has come with the token whose hash is
        ``token_hash`` (None: the host's, for a hot-seat seat); False, changing nothing, if that
        token no longer opens the seat: the host has handed it to a computer, or it was joined
        from the lobby before ``cutoff`` (the grace time ago) and has gone back to the lobby, or
        been joined again since.  A conditional update: of the player arriving and the seat being
        handed over or joined again at once, exactly one happens."""
        with self._transaction() as connection:
            taken = connection.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.colour == colour,
                    seats.c.kind == kind,
                    seats.c.token_hash.is_not_distinct_from(token_hash),
                    or_(seats.c.claimed.is_(True), seats.c.joined_at.is_(None), seats.c.joined_at >= cutoff),
                )
                .values(claimed=True)
            )
            if taken.rowcount != 1:
                return False
            _seen(connection, [game_id])
            self._announce(connection, [game_id])
            return True

    def join_seat(self, game_id: str, colour: int, token_hash: str, now: datetime, cutoff: datetime, name: str) -> bool:
        """Keep an open seat, with its new token and its joiner's ``name``, for whoever asked
        first, until its player comes (:meth:`claim_seat`) or the grace time is over (joined
        before ``cutoff``: the seat is free again, and a new join voids the last joiner's token).
        The database decides, by a conditional update (the seat must still be open and free): of
        any number of simultaneous joins, from any number of processes, exactly one gets True."""
        with self._transaction() as connection:
            taken = connection.execute(
                update(seats)
                .where(
                    seats.c.game_id == game_id,
                    seats.c.colour == colour,
                    seats.c.open.is_(True),
                    seats.c.claimed.is_(False),
                    _free(cutoff),
                )
                .values(token_hash=token_hash, joined_at=now, name=name)
            )
            if taken.rowcount != 1:
                return False
            _seen(connection, [game_id])
            self._announce(connection, [game_id])
            return True

    def joining(self, token_hashes: list[str], cutoff: datetime) -> int:
        """How many of the seats joined with these tokens since ``cutoff`` still wait for their players."""
        if not token_hashes:
            return 0
        with self.engine.connect() as connection:
            query = (
                select(func.count())
                .select_from(seats)
                .where(seats.c.token_hash.in_(token_hashes), seats.c.claimed.is_(False), seats.c.joined_at >= cutoff)
            )
            return int(connection.execute(query).scalar_one())

    def seat_to_computer(self, game_id: str, colour: int, kind: str, level: str, name: str) -> bool:
        """Hand a person's seat nobody has taken to a computer (``kind``, at ``level``), its
        invite link (or the token of whoever joined it from the lobby and has not come) void from
        now on.  A conditional update, as :meth:`join_seat`'s: of the host handing it over and its
        player arriving at once, exactly one happens."""
        with self._transaction() as connection:
            given = connection.execute(
                update(seats)
                .where(seats.c.game_id == game_id, seats.c.colour == colour, seats.c.claimed.is_(False))
                .values(kind=kind, level=level, name=name, token_hash=None, claimed=True, open=False, joined_at=None)
            )
            if given.rowcount != 1:
                return False
            _seen(connection, [game_id])
            self._announce(connection, [game_id])
            return True

    def take_over(self, game_id: str) -> int | None:
        """Raise the game's owner epoch (by the process that now holds its lock): from now on
        only decisions made with the new epoch are stored.  The new epoch; None if there is no
        such game."""
        query = update(games).where(games.c.id == game_id).values(owner_epoch=games.c.owner_epoch + 1)
        with self._transaction() as connection:
            if self.is_postgres:  # a last owner stuck in a transaction: try again later rather than wait for it
                connection.execute(text("SET LOCAL lock_timeout = '5s'"))
            epoch = connection.execute(query.returning(games.c.owner_epoch)).scalar()
            return int(epoch) if epoch is not None else None

    def seen(self, game_ids: list[str]) -> None:
        """Somebody is at these games now: a waiting game is not abandoned while watched."""
        if game_ids:
            with self._transaction() as connection:
                _seen(connection, game_ids)

    def expire_waiting(self, before: datetime) -> list[str]:
        """Delete the games still waiting for players that nobody has been seen at since
        ``before`` (their seats go with them; a game whose rematch this was may ask again).
        The ids deleted."""
        with self._transaction() as connection:
            last = func.coalesce(games.c.last_seen, games.c.created)
            query = delete(games).where(games.c.status == WAITING, last < before).returning(games.c.id)
            gone = list(connection.execute(query).scalars())
            if gone:
                connection.execute(update(games).where(games.c.rematch.in_(gone)).values(rematch=None))
                self._announce(connection, gone)
            return gone


def error_reason(error: BaseException) -> str:
    """What the database (or its driver) said, in one line, for a log or a message: the first
    line of the driver's own error where SQLAlchemy wraps one; the error's kind if it said nothing."""
    said = str(getattr(error, "orig", None) or error).strip()
    return said.splitlines()[0] if said else type(error).__name__


class Writer:
    """One thread stores every decision of this process.  Decisions that arrive while it is
    committing are stored together in the next transaction (group commit), so a burst of
    moves from many games costs a few commits, and the event loop never waits on the disk.

    ``await writer.add(decision)`` returns once the decision is committed (or raises): a
    room broadcasts only then.
    """

    def __init__(self, store: Store):
        self.store = store
        #: When the last commit failed for the database's sake (monotonic seconds) and why; None
        #: once one succeeds: a health check hears of writes that fail while reads still answer.
        self.failing: tuple[float, str] | None = None
        #: Told of each commit, from the writer's thread: the decisions stored, and its seconds (metrics.py).
        self.on_commit: Callable[[int, float], None] | None = None
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
        started = time.perf_counter()
        try:
            self.store.add_decisions([decision for decision, _ in batch])
        except Exception as error:
            if len(batch) > 1:  # one decision spoilt the transaction: store each alone, to fail only that one
                for item in batch:
                    self._store([item])
                return
            if isinstance(error, SQLAlchemyError):  # the database's refusal, not a game's
                self.failing = (time.monotonic(), error_reason(error))
            _settle(batch[0][1], error)
            return
        self.failing = None
        if self.on_commit is not None:
            self.on_commit(len(batch), time.perf_counter() - started)
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


#: How long storing decisions waits for a row another transaction holds, before it is refused.
_LOCK_TIMEOUT = text("SET LOCAL lock_timeout = '3s'")


def _check_owners(connection: Connection, owners: set[tuple[str, int]]) -> None:
    """Refuse a batch unless each game's owner epoch is still the one its decision was made
    with.  The games' rows stay locked (shared) until the transaction ends, so a process
    taking a game over (:meth:`Store.take_over`) waits for this commit, and every decision
    made after the takeover with the old epoch is refused: a process that has lost a game
    can never store another decision of it."""
    if not owners:  # players' moves only: their numbers alone keep them in order
        return
    query = select(games.c.id).where(tuple_(games.c.id, games.c.owner_epoch).in_(sorted(owners)))
    owned = set(connection.execute(query.with_for_update(read=True)).scalars())
    lost = sorted({game_id for game_id, _ in owners} - owned)
    if lost:
        raise NotOwnerError(f"game {lost[0]} has been taken over by another server process")


def _insert_game(connection: Connection, row: GameRow, creator: str | None = None) -> None:
    """A new game and its seats (``creator``: the address that made a public game)."""
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
            owner_epoch=row.owner_epoch,
            last_seen=row.created,
            creator=creator,
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
                "open": seat.open,
                "joined_at": seat.joined_at,
            }
            for seat in row.seats
        ],
    )


def _free(cutoff: datetime) -> Any:
    """Not joined from the lobby since ``cutoff``: never, or so long ago that its joiner's time is up."""
    return or_(seats.c.joined_at.is_(None), seats.c.joined_at < cutoff)


def _utc(moment: datetime | None) -> datetime | None:
    """A stored time, in UTC (SQLite keeps no time zone)."""
    return moment.replace(tzinfo=UTC) if moment is not None and moment.tzinfo is None else moment


def _seen(connection: Connection, game_ids: list[str]) -> None:
    query = update(games).where(games.c.id.in_(game_ids), games.c.status == WAITING)
    connection.execute(query.values(last_seen=datetime.now(UTC)))


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
        owner_epoch=row["owner_epoch"],
    )
