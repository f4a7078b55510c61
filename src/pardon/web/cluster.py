"""Several server processes on one PostgreSQL database (docs/protocol.md, "Several server processes").

Each game has one **owner**: the process holding the game's advisory lock
(``pg_try_advisory_lock``) on a connection it keeps open.  Only the owner decides — it checks
and stores the players' moves and runs the computer players — so two processes never race
for a game; and the decision's number in the primary key would refuse a second writer anyway.
The lock belongs to the owner's connection: when the owner stops or dies, PostgreSQL ends the
connection and the lock is free for another process to take.

A lock can also be lost while its process lives on (the connection cut, or ended by an
administrator), so a lock alone does not make a process safe to decide.  Taking a game
raises its **owner epoch** (``games.owner_epoch``), and every decision is stored only with
the game's current epoch (:meth:`~pardon.web.storage.Store.add_decisions`): the moment
another process takes the game, the old owner can store nothing more of it, and on its
first refusal it becomes a follower.  A lost lock connection is noticed within a second
(:meth:`Cluster.check`) and opened again.

Every stored change of a game is announced on the channel :data:`~pardon.web.storage.CHANNEL`
in the transaction that makes it (``ID:n`` for decision *n*, ``ID`` for seats, status and
rematch), so it is heard exactly when it is committed.  A :class:`Cluster` listens: a room
that another process owns reads the new decisions from the database and sends them to its
own clients (spectators may therefore connect to any process), and once a second it tries to
take over the rooms whose owner has gone.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import Engine

from pardon.web.storage import CHANNEL, Store, error_reason

log = logging.getLogger("pardon.web")

#: Seconds between two attempts to take over the games watched here whose owner has gone.
TAKEOVER_POLL = 1.0

#: The longest wait before listening again after the listening connection was lost (the games
#: waiting for the database are taken up again then, at the latest).
LISTEN_RETRY_MOST = 5.0

_TRY_LOCK = "SELECT pg_try_advisory_lock(hashtextextended(%s, 0))"
_UNLOCK = "SELECT pg_advisory_unlock(hashtextextended(%s, 0))"


def libpq_url(engine: Engine) -> str:
    """The engine's database as a libpq URL (the same server, user, database and options)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class Cluster:
    """This process among others: the games it owns, and the news of the others."""

    def __init__(self, store: Store):
        self.store = store
        self.url = libpq_url(store.engine)
        #: Holds the advisory locks of the games this process owns, as long as it lives.
        self._locks = psycopg.connect(self.url, autocommit=True)
        self._guard = threading.Lock()
        #: The games this process owns, each with the owner epoch it took it with.
        self._owned: dict[str, int] = {}
        #: Games owned until the lock connection ended, not yet reported by :meth:`check`.
        self._lost: set[str] = set()
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None
        #: Whether the database answered the last claim of a game (it may be restarting).
        self.answering = True

    def claim(self, game_id: str) -> int | None:
        """The owner epoch with which this process owns ``game_id`` now (taking the game if
        nobody holds it); None if another process does."""
        with self._guard:
            if game_id in self._owned:
                return self._owned[game_id]
            try:
                row = self._locks.execute(_TRY_LOCK, (game_id,)).fetchone()
            except psycopg.Error:  # the lock connection is gone, and every lock with it
                self._reconnect()
                if not self.answering:
                    return None
                try:  # a new connection: asked again on it
                    row = self._locks.execute(_TRY_LOCK, (game_id,)).fetchone()
                except psycopg.Error:
                    return None
            self.answering = True
            if row is None or not row[0]:
                return None
            try:  # after the lock: any decision the last owner is storing is committed first
                epoch = self.store.take_over(game_id)
            except Exception:  # the database failing, or the last owner stuck: another time
                log.exception("pardon serve: cannot take game %s over", game_id)
                self._unlock(game_id)
                self.answering = False
                return None
            if epoch is None:  # no such game
                self._unlock(game_id)
                return None
            self._owned[game_id] = epoch
            return epoch

    def release(self, game_id: str) -> None:
        """Give a game up (a finished game nobody here watches any more)."""
        with self._guard:
            if self._owned.pop(game_id, None) is not None:
                self._unlock(game_id)

    def forget(self, game_id: str) -> None:
        """This process has learnt that it no longer owns ``game_id`` (another has taken it)."""
        self.release(game_id)

    def check(self) -> set[str]:
        """The games whose locks this process has lost since it took them: its lock connection
        has ended (cut, or ended by an administrator).  A new connection is opened for the
        next claims; those games are owned no more."""
        with self._guard:
            try:
                self._locks.execute("SELECT 1")
            except psycopg.Error:
                self._reconnect()
            lost, self._lost = self._lost, set()
            return lost

    def _reconnect(self) -> None:
        """A new lock connection (the guard held): every game owned until now is lost."""
        if self._owned:
            count = len(self._owned)
            log.warning(
                "pardon serve: lost the locks of %d game%s; another process may take them", count, "s"[: count != 1]
            )
        self._lost |= set(self._owned)
        self._owned.clear()
        try:
            self._locks.close()
            self._locks = psycopg.connect(self.url, autocommit=True)
        except psycopg.Error as error:  # the database is unreachable: the next claim tries again
            if self.answering:  # said once until it answers again, not at every try
                log.warning("pardon serve: the database does not answer (%s); games wait for it", error_reason(error))
            self.answering = False
        else:
            if not self.answering:
                log.info("pardon serve: the database answers again")
            self.answering = True

    def _unlock(self, game_id: str) -> None:
        try:
            self._locks.execute(_UNLOCK, (game_id,))
        except psycopg.Error:  # the connection is gone, and the lock with it
            self._reconnect()

    def listen(self, news: Callable[[str], None], orphans: Callable[[], None]) -> None:
        """Call ``news(payload)`` for each announced change and ``orphans()`` once a second, on
        the running event loop, until :meth:`close`."""
        loop = asyncio.get_running_loop()
        ready = threading.Event()
        self._listener = threading.Thread(
            target=self._listen, args=(loop, news, orphans, ready), name="pardon-listen", daemon=True
        )
        self._listener.start()
        ready.wait(timeout=10)  # listening before any game is served, so no news is missed

    def _listen(
        self,
        loop: asyncio.AbstractEventLoop,
        news: Callable[[str], None],
        orphans: Callable[[], None],
        ready: threading.Event,
    ) -> None:
        pause = TAKEOVER_POLL
        deaf = False  # said once while the database does not answer, not at every try
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    ready.set()
                    pause = TAKEOVER_POLL
                    if deaf:
                        log.info("pardon serve: hearing the other server processes again")
                        deaf = False
                    while not self._stopping.is_set():
                        for note in connection.notifies(timeout=TAKEOVER_POLL):
                            loop.call_soon_threadsafe(news, note.payload)
                        loop.call_soon_threadsafe(orphans)
            except Exception as error:
                if self._stopping.is_set():
                    break
                if not isinstance(error, psycopg.OperationalError):
                    log.exception("pardon serve: not hearing the other server processes; trying again")
                elif not deaf:
                    why = error_reason(error)
                    log.warning("pardon serve: not hearing the other server processes (%s); trying again", why)
                deaf = True
                loop.call_soon_threadsafe(orphans)  # the game locks are checked meanwhile too
                self._stopping.wait(pause)
                pause = min(2 * pause, LISTEN_RETRY_MOST)
            finally:
                ready.set()

    def close(self) -> None:
        """Stop listening, and give up every game (closing the connection frees the locks)."""
        self._stopping.set()
        if self._listener is not None:
            self._listener.join(timeout=2 * TAKEOVER_POLL + 1)
        with self._guard:
            self._owned.clear()
            self._locks.close()
