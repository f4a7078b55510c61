"""``pardon backup FILE``: a consistent copy of a server's SQLite database, safe while it runs.

SQLite's online backup API copies the database as one read transaction sees it: every game
and every decision committed before the copy began, none half-written, while the server goes on
storing moves (in WAL mode a reader never holds up the writer).  The copy is written beside
FILE under a temporary name, checked, flushed to the disk, then renamed: FILE is never a
half-made copy.  Another ``pardon serve --db FILE`` serves the games as they were.  A
PostgreSQL database is backed up with ``pg_dump`` (said, with the command).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import sqlite3
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from pardon.web.storage import sqlite_file


class BackupError(ValueError):
    """A backup that cannot be made: said in one line (the command exits 2)."""


def backup(database_url: str, destination: Path, force: bool = False, say: Callable[[str], None] = print) -> int:
    """Copy the SQLite database of ``database_url`` to ``destination``; the games copied.
    Refuses (:class:`BackupError`) an existing ``destination`` unless ``force``, a database
    that is not a SQLite file (PostgreSQL: use ``pg_dump``), and a file that is not there."""
    source = _source_file(database_url)
    destination = destination.expanduser().absolute()
    _check_destination(source, destination, force)
    temporary = destination.with_name(f".{destination.name}.{secrets.token_hex(4)}.partial")
    try:
        _copy(source, temporary)
        games = _check_copy(temporary)
        _flush(temporary)
        os.replace(temporary, destination)
        _flush(destination.parent)
    finally:
        with contextlib.suppress(FileNotFoundError):
            temporary.unlink()
    size = destination.stat().st_size
    say(
        f"pardon backup: {games} game{'' if games == 1 else 's'} copied from {source} to {destination} ({size:,} bytes)"
    )
    return games


def _source_file(database_url: str) -> Path:
    """The SQLite file of ``database_url``, which must exist."""
    try:
        url = make_url(database_url)
    except ArgumentError:
        raise BackupError(f"{database_url!r} is not a database URL") from None
    if url.get_backend_name() == "postgresql":
        raise BackupError(f"a PostgreSQL database is backed up with pg_dump: {pg_dump_command(database_url)}")
    path = sqlite_file(database_url)
    if path is None:
        raise BackupError("only a SQLite file is copied by pardon backup; back this database up with its own tools")
    if not path.is_file():
        raise BackupError(f"there is no database at {path} (--db names the file pardon serve uses)")
    return path


def pg_dump_command(database_url: str) -> str:
    """The ``pg_dump`` command that backs up the PostgreSQL database of ``database_url``: its
    password left out (pg_dump asks for it, or reads ``~/.pgpass`` or ``PGPASSWORD``).

    >>> pg_dump_command("postgresql+psycopg://pardon:secret@db.example/games")
    "pg_dump --format=custom --file=pardon.dump 'postgresql://pardon@db.example/games'"
    """
    given = make_url(database_url)
    url = URL.create("postgresql", given.username, None, given.host, given.port, given.database, given.query)
    return f"pg_dump --format=custom --file=pardon.dump '{url.render_as_string(hide_password=False)}'"


def _check_destination(source: Path, destination: Path, force: bool) -> None:
    if not destination.parent.is_dir():
        raise BackupError(f"cannot write {destination}: the folder {destination.parent} does not exist")
    if destination.resolve() == source:
        raise BackupError(f"{destination} is the database itself: give another file")
    if destination.is_dir():
        raise BackupError(f"{destination} is a folder: give a file's name")
    if destination.exists() and not force:
        raise BackupError(f"{destination} exists: give another file, or --force to replace it")


def _copy(source: Path, copy: Path) -> None:
    """Copy ``source`` into the new file ``copy`` in one step: one read transaction, so that the
    server's writes meanwhile neither spoil the copy nor make it start again; then a file of its
    own (journal mode DELETE: no ``-wal`` beside it)."""
    reading = sqlite3.connect(f"file:{quote(str(source))}?mode=ro", uri=True, timeout=30)
    try:
        writing = sqlite3.connect(copy)
        try:
            reading.backup(writing)
            writing.execute("PRAGMA journal_mode=DELETE")
        finally:
            writing.close()
    except sqlite3.DatabaseError as error:
        raise BackupError(f"cannot copy {source}: {error}") from None
    finally:
        reading.close()


def _check_copy(copy: Path) -> int:
    """The copy's games, once SQLite finds it whole (``quick_check``)."""
    connection = sqlite3.connect(copy)
    try:
        verdict = connection.execute("PRAGMA quick_check").fetchone()[0]
        if verdict != "ok":
            raise BackupError(f"the copy is damaged ({verdict}); nothing was written")
        try:
            found: int = connection.execute("SELECT count(*) FROM games").fetchone()[0]
        except sqlite3.OperationalError:
            raise BackupError("that file is not a database of pardon serve (it has no games)") from None
        return found
    finally:
        connection.close()


def _flush(path: Path) -> None:
    """Make ``path`` (a file, or a folder's entries) reach the disk before it is relied on."""
    with contextlib.suppress(OSError):  # a folder cannot be opened for this everywhere (Windows)
        handle = os.open(path, os.O_RDONLY)
        try:
            os.fsync(handle)
        finally:
            os.close(handle)
