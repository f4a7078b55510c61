"""Several server processes on one PostgreSQL database (docs/protocol.md, "Several server processes").

Each game has one **owner**: the process holding the game's advisory lock
(``pg_try_advisory_lock``) on a connection it keeps open.  Only the owner decides — it checks
and stores the players' moves and runs the computer players — so two processes never race
for a game; and the decision's number in the primary key would refuse a second writer anyway.
The lock belongs to the owner's connection: when the owner stops or dies, PostgreSQL ends the
connection and the lock is free for another process to take.

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

from pardon.web.storage import CHANNEL

log = logging.getLogger("pardon.web")

#: Seconds between two attempts to take over the games watched here whose owner has gone.
TAKEOVER_POLL = 1.0


def libpq_url(engine: Engine) -> str:
    """The engine's database as a libpq URL (the same server, user, database and options)."""
    return engine.url.set(drivername="postgresql").render_as_string(hide_password=False)


class Cluster:
    """This process among others: the games it owns, and the news of the others."""

    def __init__(self, engine: Engine):
        self.url = libpq_url(engine)
        #: Holds the advisory locks of the games this process owns, as long as it lives.
        self._locks = psycopg.connect(self.url, autocommit=True)
        self._guard = threading.Lock()
        self._owned: set[str] = set()
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None

    def claim(self, game_id: str) -> bool:
        """Whether this process owns ``game_id`` now (taking it if nobody does)."""
        with self._guard:
            if game_id in self._owned:
                return True
            row = self._locks.execute("SELECT pg_try_advisory_lock(hashtextextended(%s, 0))", (game_id,)).fetchone()
            if row is not None and row[0]:
                self._owned.add(game_id)
                return True
            return False

    def release(self, game_id: str) -> None:
        """Give a game up (a finished game nobody here watches any more)."""
        with self._guard:
            if game_id in self._owned:
                self._owned.discard(game_id)
                self._locks.execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (game_id,))

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
        try:
            with psycopg.connect(self.url, autocommit=True) as connection:
                connection.execute(f"LISTEN {CHANNEL}")
                ready.set()
                while not self._stopping.is_set():
                    for note in connection.notifies(timeout=TAKEOVER_POLL):
                        loop.call_soon_threadsafe(news, note.payload)
                    loop.call_soon_threadsafe(orphans)
        except Exception:
            if not self._stopping.is_set():
                log.exception("pardon serve: no longer hearing the other server processes")
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
