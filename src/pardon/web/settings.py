"""The server's settings, one frozen value handed to every part that needs one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import platformdirs
from sqlalchemy.engine import URL

from pardon.bots import DEFAULT_COACH


def default_database() -> str:
    """A SQLite file in the user's data directory (created on first use)."""
    folder = platformdirs.user_data_path("pardon")
    folder.mkdir(parents=True, exist_ok=True)
    return sqlite_url(folder / "games.sqlite3")


def sqlite_url(path: Path) -> str:
    """The URL of a SQLite file, its path quoted: a "?", "#" or "%xx" in a file's name would
    otherwise be read as the URL's query, or decoded into another file's name."""
    return URL.create("sqlite", database=str(path)).render_as_string()


def database_url(text: str | None) -> str:
    """``--db``: a SQLAlchemy URL, or a plain file path meaning a SQLite file.  A PostgreSQL
    URL without a driver (``postgres://``, ``postgresql://``) is served with psycopg.

    >>> database_url("postgres://pardon@db.example/games")
    'postgresql+psycopg://pardon@db.example/games'
    """
    if not text:
        return default_database()
    if "://" in text:
        scheme, rest = text.split("://", 1)
        if scheme in ("postgres", "postgresql"):  # as hosts write it: served with psycopg, the driver installed
            return f"postgresql+psycopg://{rest}"
        return text
    return sqlite_url(Path(text).expanduser().resolve())


@dataclass(frozen=True)
class Settings:
    """How the server behaves; the defaults suit a server for friends on one machine."""

    database: str
    #: Seconds a computer player waits before each decision (0: at once, as in tests).
    bot_pace: float = 0.6
    #: Seconds a human may be away before a computer player decides for them.
    takeover_after: float = 60.0
    #: The level that decides for an absent human.
    takeover_level: str = "tactician"
    #: The level that ranks moves for a hint.
    hint_level: str = "tactician"
    #: The level that judges a finished game's moves for the coach (GET /api/games/{id}/analysis):
    #: the strongest, as ``pardon analyse`` (a whole game takes a few seconds).
    coach_level: str = DEFAULT_COACH
    #: Finished games whose analysis is kept (a finished game never changes).
    analysis_cache: int = 512
    #: Origins allowed to open a websocket besides the server's own (browser pages elsewhere).
    allowed_origins: tuple[str, ...] = ()
    #: The longest message a client may send, in bytes.
    max_message: int = 4096
    #: Messages a connection may send per second on average, and in a burst.
    rate: float = 20.0
    burst: int = 40
    #: Seconds a new websocket has to say hello before it is closed.
    hello_timeout: float = 10.0
    #: Websockets open at once from one client address, across the server.
    max_connections_per_address: int = 64
    #: Websockets watching one game at once (players are never refused for it).
    max_spectators_per_game: int = 256
    #: The largest request body, in bytes (the API's bodies are small).
    max_body: int = 64 * 1024
    #: The address written in links (``http://host:port``); the request's own when None.
    public_url: str | None = None
    #: Games one client address may create a minute on average, and at once (0: no limit).
    create_rate: float = 10.0
    create_burst: int = 20
    #: Public games one client address may have waiting for players at once, so that one address
    #: cannot fill the lobby (``create_rate`` 0: no limit on this either).
    public_per_address: int = 5
    #: Seconds a seat joined from the lobby is kept for its joiner: not come by then (no websocket),
    #: the seat is offered in the lobby again and the joiner's token opens nothing.
    join_grace: float = 120.0
    #: Seats one client address may join from the lobby a minute on average, and at once; and how
    #: many joined seats it may hold at once whose players have not come yet (``join_rate`` 0:
    #: no limit on either, ``--join-rate 0``).
    join_rate: float = 6.0
    join_burst: int = 3
    joining_per_address: int = 3
    #: Seconds a game may wait for players with nobody at it before it is deleted (0: never).
    waiting_expiry: float = 24 * 3600.0
    #: Seconds between two rounds of housekeeping (forgetting idle rooms, expiring waiting games).
    sweep_every: float = 60.0
    #: Messages, and bytes, waiting to be sent to one client before it counts as too slow to
    #: read and is closed (1013): a reader that never reads holds no more than this.
    outbox_messages: int = 512
    outbox_bytes: int = 16 * 1024 * 1024
    #: Proxies trusted to name their client (``X-Forwarded-For``, ``Forwarded``): addresses or
    #: networks such as ``10.0.0.0/8``.  Only a connection from one of them is read for its
    #: client's address, scheme and host; anyone else's headers are ignored.
    trusted_proxies: tuple[str, ...] = ()
    #: HTTP connections (pages, API requests) open at once from one client address; a trusted
    #: proxy's connections carry many clients' requests and are not counted.
    max_http_per_address: int = 64
    #: How the log is written: ``text`` (lines for a person) or ``json`` (one object a line).
    log_format: str = "text"
    #: Analyses one client address may have asked for and not yet been answered (made or waiting
    #: their turn); past it ``429 rate_limited``: one address cannot keep the coach from everyone.
    analyses_per_address: int = 2
    #: Finished games whose record and replay are kept, made once (a finished game never changes).
    finished_cache: int = 128
    #: REST reads (GET and HEAD of ``/api/...``) one client address may make a minute on average,
    #: and at once; past them ``429 rate_limited`` with ``Retry-After`` (``read_rate`` 0: no limit).
    read_rate: float = 600.0
    read_burst: int = 120
    #: Websockets one client address may open a second on average, and at once; past them one is
    #: told ``rate_limited`` and closed (1013) before it costs a room anything (0: no limit).
    connect_rate: float = 10.0
    connect_burst: int = 100
    #: Addresses or networks (``10.0.0.0/8``) allowed to read ``GET /metrics`` (Prometheus); none
    #: by default: it answers 404.  The connection's own address counts, and a request that came
    #: through a proxy (``X-Forwarded-For``, ``Forwarded``) is refused.
    metrics_from: tuple[str, ...] = ()
    #: Websockets let into the server a second, across every address, after a burst: a crowd
    #: opening hundreds at once is let in by turns of address, spread out, so that the other
    #: games' moves never wait behind hundreds of handshakes (0: every one at once).
    admit_rate: float = 100.0
    admit_burst: int = 4
