"""``pardon serve``: run the application under uvicorn, and say where to point a browser."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import errno
import faulthandler
import functools
import json
import logging
import os
import socket
import sqlite3
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import uvicorn
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from uvicorn.protocols.http.h11_impl import H11Protocol

from pardon.web import errors, metrics

try:
    import resource
except ImportError:  # Windows has no open-file limit to read
    resource = None  # type: ignore[assignment]
from pardon.web.app import create_app
from pardon.web.logs import set_up_logging, uvicorn_log_config
from pardon.web.migrate import foreign_tables
from pardon.web.protocol import CLOSE_TRY_LATER, COUNTED, WRITE_NOW, Connections, Quota, client_key, error_message
from pardon.web.proxies import TrustedProxies
from pardon.web.settings import Settings
from pardon.web.storage import error_reason, make_engine

try:  # uvicorn's fastest HTTP protocol, where httptools is installed (uvicorn[standard])
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
except ImportError:  # pragma: no cover
    HttpToolsProtocol = None  # type: ignore[assignment,misc]

try:  # uvicorn's websocket protocol for the websockets library (uvicorn 0.35 and later)
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
    from websockets.exceptions import PayloadTooBig
    from websockets.frames import Frame, Opcode
    from websockets.http11 import Request
except ImportError:  # pragma: no cover - older uvicorn: its own protocol, which only closes
    WebSocketsSansIOProtocol = None  # type: ignore[assignment,misc]

#: The largest frame read at all.  The protocol's own limit (Settings.max_message) answers a
#: longer message with ``too_large`` and keeps the connection; a frame over this one is not
#: read: the client is told ``too_large`` and the connection is closed (1009).
MAX_FRAME = 64 * 1024

#: Where refused connections log to: nowhere, unless logging is set up to show it.
QUIET = logging.getLogger("pardon.web.refused")
QUIET.setLevel(logging.WARNING)

#: Addresses that mean "every interface": a browser on this machine reaches them as localhost.
ANY_ADDRESS = ("0.0.0.0", "::", "")

#: Seconds a connection has to send a whole request, headers and body (a small one: at most
#: Settings.max_body), counted from when it opens or from the answer to its last request.  One
#: that sends nothing, or a byte at a time (slowloris), is closed then (``408 too_slow`` if it
#: had begun a request).  Generous for a phone on a poor network, where a request is a packet
#: or two, each sent again after 1, 2, 4, 8 s when lost.  Once a request is in, the clock
#: stops: an answer takes what it takes, and an upgraded websocket is no longer HTTP at all.
#: Between requests an idle connection goes sooner, at uvicorn's keep-alive timeout (5 s).
REQUEST_TIMEOUT = 20.0

#: HTTP connections (pages, API requests, websockets before their upgrade) open at once from
#: one client address, unless set (Settings.max_http_per_address).  A browser opens about six
#: to one server, so a household of browsers behind one address fits many times over.  Past
#: it a connection is answered ``503 too_many_connections`` as soon as it is made, and closed;
#: those already open go on.  An
#: upgraded websocket leaves this count for its own (Settings.max_connections_per_address).
MAX_HTTP_PER_ADDRESS = 64

#: Files the server keeps for itself beyond its connections (the database and its journal, its
#: log, Python's modules): connections are refused past the process's open-file limit less
#: these, so that the database can always open a file (:func:`most_connections`).
RESERVED_FILES = 100

#: How the log names the refused when the server is full: every address alike.
EVERYONE = "any address"

#: Seconds between two lines in the log about one address's refused connections.
REFUSALS_LOGGED_EVERY = 60.0

#: Where the server says that it refuses an address's connections (once a minute at most).
LOG = logging.getLogger("pardon.web.server")


def browser_address(host: str, port: int, secure: bool = False) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``.

    >>> browser_address("127.0.0.1", 8000)
    'http://127.0.0.1:8000'
    >>> browser_address("0.0.0.0", 8080)
    'http://localhost:8080'
    >>> browser_address("::1", 8443, secure=True)
    'https://[::1]:8443'
    """
    if host in ANY_ADDRESS:
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"{'https' if secure else 'http'}://{host}:{port}"


class _Server(uvicorn.Server):
    """uvicorn's server, which prints the address once it is listening (the port may be 0),
    and remembers whether it failed to start in the application or when it began to listen."""

    listening_failed = False
    #: Whether the log is JSON: then what it says to a person is a line of the log too.
    json_log = False

    def _say(self, text: str) -> None:
        if self.json_log:
            LOG.info(text)
        else:
            print(text, flush=True)

    async def startup(self, sockets: Any = None) -> None:
        try:
            await super().startup(sockets)
        except SystemExit:
            self.listening_failed = not self.lifespan.should_exit
            raise
        if self.started and self.servers:
            port = self.servers[0].sockets[0].getsockname()[1]
            address = browser_address(self.config.host, port, secure=self.config.is_ssl)
            self._say(f"pardon is running: open {address} in your browser (Ctrl+C stops it)")
            shared = network_address() if self.config.host in ANY_ADDRESS else None
            if shared is not None:  # invite links follow the address the page was opened at
                shared_address = browser_address(shared, port, secure=self.config.is_ssl)
                self._say(f"for friends on your network, open {shared_address} instead")


def network_address() -> str | None:
    """This machine's address on its network (what a friend's browser can reach), if it has one:
    the source address of a route outwards (a UDP socket sends nothing to learn it)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("10.255.255.255", 1))
            found: str = probe.getsockname()[0]
    except OSError:
        return None
    return None if found.startswith("127.") or found == "0.0.0.0" else found


if WebSocketsSansIOProtocol is not None:

    class WebSocketProtocol(WebSocketsSansIOProtocol):
        """uvicorn's websocket protocol, which counts each connection against its client
        address (refusing one past the cap before the application sees it), and answers in
        the protocol's words where uvicorn alone would only close: a frame over
        :data:`MAX_FRAME` is answered ``too_large`` before the close (1009), and a text frame
        that is not UTF-8 is handed to the application as bytes, which it refuses as
        ``malformed`` like any binary frame (uvicorn would log a traceback and close with 1007)."""

        #: The application's count of its connections (set for each server: :func:`serve`).
        counted: Connections | None = None
        #: The proxies whose connections name their client (set for each server).
        proxies: TrustedProxies = TrustedProxies(())
        #: The turns of the handshakes (set for each server).
        admission: Admission
        #: The client address this connection holds a place of, once counted.
        holds: str | None = None

        def handle_connect(self, event: Request) -> None:
            """Count the connection against its client address here, as soon as it asks, and
            refuse one past the cap at once, before the application (routing, a task, logging)
            costs anything: with the error and close code the application would give.  The
            application is told the connection is counted (the scope's extensions)."""
            connections, client = self.counted, self.client
            if connections is None or client is None:
                super().handle_connect(event)
                return
            address = client_key(self.proxies.client_of(client[0], _header_map(event.headers)))
            if not connections.opens.allow(address):  # opened too fast: refused as cheaply as can be
                self._refuse_at_once(event, connections.opened_too_fast())
                return
            if connections.per_address.take(address):
                self.holds = address
                self.admission.admit(address, lambda: self._let_in(event))
                return
            connections.knocks.knock(address)
            self._refuse_at_once(event, connections.too_many_from_one_address())

        def _let_in(self, event: Request) -> None:
            """The handshake, its turn come (:class:`Admission`); nothing if the client has gone."""
            if self.transport.is_closing():
                return
            super().handle_connect(event)
            if hasattr(self, "scope"):
                self.scope["extensions"][COUNTED] = {}
                self.scope["extensions"][WRITE_NOW] = {"write": self.write_now}

        def write_now(self, text: str) -> bool:
            """Write a text message at once, as one frame, bypassing the application's send (a
            task switch and the ASGI layers for each of a broadcast's hundreds of clients): True
            if written; False where the send must go the usual way (the handshake not complete,
            closing, or the client not keeping up), which the caller then takes."""
            if not (self.handshake_complete and self.writable.is_set()) or self.close_sent or self.disconnected:
                return False
            if self.initial_response is not None or self.transport.is_closing():
                return False
            self.transport.write(_text_frame(text))
            return True

        def _refuse_at_once(self, event: Request, error: errors.CommandError) -> None:
            """Complete the handshake, say why, and close (1013), without the application."""
            self.conn.logger = QUIET  # a flood of refusals logs nothing
            self.conn.available_extensions = []  # no compression to set up for three frames
            response = self.conn.accept(event)
            if response.status_code != 101:  # not a websocket handshake: uvicorn answers it
                super().handle_connect(event)
                return
            refusal = error_message(error, None)
            self.conn.send_response(response)
            self.conn.send_text(json.dumps(refusal, separators=(",", ":")).encode())
            self.conn.send_close(CLOSE_TRY_LATER, error.code)
            self.transport.write(b"".join(self.conn.data_to_send()))
            self.request, self.response = event, response
            self.handshake_initiated = self.handshake_complete = self.close_sent = True
            self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.counted is not None and self.holds is not None:
                self.counted.per_address.give_back(self.holds)
                self.holds = None
            super().connection_lost(exc)

        def handle_parser_exception(self) -> None:
            """A frame too large: ``too_large``, then the close the parser has queued (1009).
            The rest of the client's data is read and dropped until it goes (or for the close
            timeout): a socket closed with data unread would reset the connection, and the
            client could lose the error."""
            if self.close_sent:
                return
            if not (isinstance(self.conn.parser_exc, PayloadTooBig) and self.handshake_complete):
                super().handle_parser_exception()
                return
            assert self.conn.close_sent is not None
            closing = self.conn.close_sent
            self.queue.put_nowait({"type": "websocket.disconnect", "code": closing.code, "reason": closing.reason})
            self.transport.write(TOO_LARGE_FRAME + b"".join(self.conn.data_to_send()))
            self.close_sent = True
            if self.transport.can_write_eof():
                self.transport.write_eof()
            self.close_timer = self.loop.call_later(self.close_timeout, self.transport.close)

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not _is_utf8(self.frames):
                self.curr_msg_data_type = "bytes"
            super().send_receive_event_to_app()

    _TOO_LARGE = {"type": "error", "code": errors.TOO_LARGE, "message": f"frames are at most {MAX_FRAME} bytes"}
    TOO_LARGE_FRAME = Frame(Opcode.TEXT, json.dumps({**_TOO_LARGE, "event": None}).encode()).serialize(mask=False)


def _protocol_for(connections: Connections, proxies: TrustedProxies, admission: Admission) -> type[asyncio.Protocol]:
    """The websocket protocol of one server: it refuses what the application's counts refuse,
    counting a trusted proxy's connection against the client it names, and lets the
    handshakes in by turns."""
    shared = {"counted": connections, "proxies": proxies, "admission": admission}
    return type("PardonWebSocketProtocol", (WebSocketProtocol,), shared)


class Admission:
    """Websockets let into the application at most ``rate`` a second across the server (after a
    burst of ``burst``), by turns of client address: a crowd opening hundreds at once waits its
    turns, spread out, instead of queueing hundreds of handshakes (a room, a welcome and a sync
    each) ahead of every game's next move; a player of another address, one connection in its
    queue, is let in at the next turn.  ``rate`` 0: every one at once."""

    def __init__(self, rate: float, burst: int):
        self.rate = rate
        self.burst = float(max(1, burst))
        self.tokens = self.burst
        self.when = time.monotonic()
        self.waiting: dict[str, collections.deque[Callable[[], None]]] = {}
        self.timer: asyncio.TimerHandle | None = None

    def admit(self, address: str, go: Callable[[], None]) -> None:
        """Call ``go`` now if there is room and nobody waits; else at ``address``'s turn."""
        if self.rate <= 0:
            go()
            return
        self._refill()
        if not self.waiting and self.tokens >= 1:
            self.tokens -= 1
            go()
            return
        self.waiting.setdefault(address, collections.deque()).append(go)
        self._schedule()

    def _refill(self) -> None:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.when) * self.rate)
        self.when = now

    def _schedule(self) -> None:
        if self.timer is None and self.waiting:
            delay = max(0.0, (1 - self.tokens) / self.rate)
            self.timer = asyncio.get_running_loop().call_later(delay, self._next_turn)

    def _next_turn(self) -> None:
        """Let in the first of the address whose turn it is (it goes to the back of the line)."""
        self.timer = None
        self._refill()
        while self.waiting and self.tokens >= 1:
            address = next(iter(self.waiting))
            queue = self.waiting.pop(address)
            go = queue.popleft()
            if queue:
                self.waiting[address] = queue  # to the back of the line
            self.tokens -= 1
            go()
        self._schedule()


@functools.lru_cache(maxsize=32)
def _text_frame(text: str) -> bytes:
    """A server's text frame (unmasked, uncompressed): the same bytes for every client, so a
    broadcast encodes it once."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


def _header_map(headers: Any) -> dict[str, str]:
    """A handshake's headers by lower-cased name, repeated ones joined as one list."""
    joined: dict[str, str] = {}
    for name, value in headers.raw_items():
        key = name.lower()
        joined[key] = f"{joined[key]}, {value}" if key in joined else value
    return joined


if TYPE_CHECKING:  # the mixin below is typed as one of the protocols it is mixed into
    _HttpBase = H11Protocol
else:
    _HttpBase = asyncio.Protocol


class _GuardedHttp(_HttpBase):
    """What pardon adds to uvicorn's HTTP protocol (either one, :func:`_http_protocol_for`):

    - a connection from a flooding address (:meth:`Connections.is_flooding`) is dropped as
      soon as it is made, without a word;
    - past ``most_open`` connections of every kind open at once (:func:`most_connections`:
      from everyone, websockets too), a new one is answered 503 and closed at once, so that
      many addresses together cannot take the files the database needs;
    - each connection holds a place of its client address, :data:`MAX_HTTP_PER_ADDRESS` at
      most: past them it is answered 503 and closed at once (and the operator told, once a
      minute for each address); an upgrade to a websocket gives the place back;
    - a connection that owes a request (new, or answered and kept alive) has
      :data:`REQUEST_TIMEOUT` seconds to send all of it: uvicorn itself waits for ever on a
      connection that sends nothing, or a byte now and then, and cancels its keep-alive
      timer at the first byte."""

    #: The server's count of its websockets (set for each server).
    counted: Connections
    #: The proxies whose connections carry many clients' requests, never counted as one (set for each server).
    proxies: TrustedProxies
    #: Its HTTP connections of each client address (set for each server).
    places: Quota
    #: When each address was last logged as refused (set for each server).
    refusals: _Refusals
    #: Connections of every kind open at once past which a new one is refused (set for each server).
    most_open: int
    #: The client address whose place this connection holds, once counted.
    holds: str | None = None
    #: The clock of the request this connection owes, while it runs; whether any of it came.
    deadline: asyncio.TimerHandle | None = None
    heard = False

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        address = client_key(str(peer[0])) if isinstance(peer, tuple) else None
        if address is not None and self.proxies.trusts(str(peer[0])):
            address = None  # a proxy's connection carries its clients' requests: each is limited by its own address
        if address is not None and self.counted.is_flooding(address):
            transport.abort()
            return
        if len(self.connections) > self.most_open:
            self.refusals.tell(EVERYONE, f"{self.most_open} connections open at once, as many as it can hold")
            message = "the server has as many connections as it can hold: try again in a minute"
            transport.write(_http_error(503, errors.SERVER_FULL, message, retry_after=30))
            transport.close()
            return
        if address is not None and not self.places.take(address):
            limit = self.places.limit
            self.refusals.tell(address, f"more than {limit} connections open at once from one address")
            message = f"at most {limit} connections at once from one address: try again later"
            transport.write(_http_error(503, errors.TOO_MANY_CONNECTIONS, message, retry_after=10))
            transport.close()
            return
        self.holds = address
        self._watch()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop()
        self._give_back()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        self.heard = self.heard or bool(data)
        super().data_received(data)
        if self.transport.get_protocol() is self:  # not upgraded to a websocket by this data
            self._watch()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch()

    def handle_websocket_upgrade(self, *event: Any) -> None:
        """A websocket from now on: no clock, and no place among the HTTP connections (the
        websocket protocol counts it against its own cap)."""
        self._stop()
        self._give_back()
        super().handle_websocket_upgrade(*event)

    def _watch(self) -> None:
        """Run the clock while the connection owes a request (its headers or the rest of its
        body), from the first moment it does; stop it once a request is in."""
        cycle = self.cycle
        received = cycle is not None and not cycle.response_complete and not cycle.more_body
        if received or self.transport.is_closing():
            self._stop()
        elif self.deadline is None:
            self.heard = False
            self.deadline = self.loop.call_later(REQUEST_TIMEOUT, self._too_slow)

    def _stop(self) -> None:
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None

    def _too_slow(self) -> None:
        """Time is up: close, saying why to a client that had begun a request (unless its
        answer has begun, which a word more would corrupt)."""
        self.deadline = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return
        cycle = self.cycle
        answering = cycle is not None and cycle.response_started and not cycle.response_complete
        if self.heard and not answering:
            message = f"the request did not arrive within {REQUEST_TIMEOUT:g} seconds"
            transport.write(_http_error(408, errors.TOO_SLOW, message))
        transport.close()

    def _give_back(self) -> None:
        if self.holds is not None:
            self.places.give_back(self.holds)
            self.holds = None


class _Refusals:
    """Tells the operator that an address's connections are refused: once in
    :data:`REFUSALS_LOGGED_EVERY` seconds for each address at most, however many there are."""

    def __init__(self) -> None:
        self.told: dict[str, float] = {}

    def tell(self, address: str, why: str) -> None:
        now = time.monotonic()
        last = self.told.get(address)
        if last is not None and now - last < REFUSALS_LOGGED_EVERY:
            return
        if len(self.told) >= 1024:  # forget the addresses told long enough ago
            self.told = {known: at for known, at in self.told.items() if now - at < REFUSALS_LOGGED_EVERY}
        self.told[address] = now
        about = {} if address == EVERYONE else {"client": address}
        LOG.warning(
            "refusing connections from %s: %s (said once a minute at most for each address)", address, why, extra=about
        )


def _http_error(status: int, code: str, message: str, retry_after: int | None = None) -> bytes:
    """A whole HTTP answer that closes the connection: an error of the API's kind,
    ``{"error": CODE, "message": TEXT}``, written straight to the socket."""
    metrics.refused(code)  # every refusal made before the application is made here
    body = json.dumps({"error": code, "message": message}, separators=(",", ":")).encode()
    reason = {408: "Request Timeout", 503: "Service Unavailable"}[status]
    head = [f"HTTP/1.1 {status} {reason}", "content-type: application/json", f"content-length: {len(body)}"]
    if retry_after is not None:
        head.append(f"retry-after: {retry_after}")
    head.append("connection: close")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


def _http_protocol_for(
    connections: Connections,
    most_open: int,
    base: type[asyncio.Protocol] | None = None,
    per_address: int = MAX_HTTP_PER_ADDRESS,
    proxies: TrustedProxies | None = None,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol (``base``: httptools' where it is installed, else h11's),
    guarded for one server (:class:`_GuardedHttp`)."""
    if base is None:
        base = HttpToolsProtocol if HttpToolsProtocol is not None else H11Protocol
    places = Quota(per_address)
    shared = {
        "counted": connections,
        "places": places,
        "refusals": _Refusals(),
        "most_open": most_open,
        "proxies": proxies if proxies is not None else TrustedProxies(()),
    }
    return type("PardonHttpProtocol", (_GuardedHttp, base), shared)


def most_connections() -> int:
    """How many connections the server may hold open at once: as many as its open-file limit
    allows, less :data:`RESERVED_FILES`.  The limit is raised first as far as the system lets a
    process raise it (the hard limit): a soft limit of 1024 is the usual default, and few
    enough for a crowd of idle connections to reach."""
    if resource is None:  # no such limit to read (Windows): a number a server there holds
        return 4096
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or hard > soft:
        wanted = 1 << 20 if hard == resource.RLIM_INFINITY else hard
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
    return max(soft - RESERVED_FILES, 16)


def _is_utf8(frames: list[bytes]) -> bool:
    try:
        b"".join(frames).decode()
    except UnicodeDecodeError:
        return False
    return True


def database_problem(url: str) -> str | None:
    """Why the database at ``url`` cannot be opened and written, in words; None if it can."""
    path = _sqlite_path(url)
    where = str(path) if path is not None else _shown(url)
    problem = _file_problem(path) if path is not None else None
    if problem is not None:
        return f"cannot open the database at {where}: {problem}"
    try:
        # another program's data is never written into, not even a journal mode: a file is read first
        foreign = None
        if path is not None and path.exists():
            read_only = f"file:{quote(str(path))}?mode=ro"  # SQLite's own URI: the path quoted for it
            foreign = _foreign(create_engine("sqlite://", creator=lambda: sqlite3.connect(read_only, uri=True)))
        if foreign is None:
            engine = make_engine(url)
            try:
                with engine.connect() as connection:
                    connection.execute(text("SELECT 1"))
                    if path is None:  # a database server's (PostgreSQL): looked at once connected
                        foreign = foreign_tables(connection)
            finally:
                engine.dispose()
    except OSError as error:
        return f"cannot open the database at {where}: {(error.strerror or str(error)).lower()}"
    except SQLAlchemyError as error:
        return f"cannot open the database at {where}: {error_reason(error)}"
    if foreign is not None:
        return f"will not use the database at {where}: {foreign}"
    return None


def _foreign(engine: Engine) -> str | None:
    """:func:`foreign_tables` of a database opened for reading only."""
    try:
        with engine.connect() as connection:
            return foreign_tables(connection)
    finally:
        engine.dispose()


def _shown(url: str) -> str:
    """A database URL fit to print: its password hidden."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return "the URL given"


def _sqlite_path(url: str) -> Path | None:
    if not url.startswith("sqlite"):
        return None
    path = make_url(url).database or ""
    return Path(path) if path and path != ":memory:" else None


def _file_problem(path: Path) -> str | None:
    """What stops SQLite from keeping a database at ``path`` (the file, and its journal beside it)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:  # make_engine creates the missing folders
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is not a directory"
    if path.is_dir():
        return f"it is a directory: give a file's path, such as {path / 'games.sqlite3'}"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"permission denied: cannot write in {folder} (SQLite keeps files beside the database)"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "permission denied: the file cannot be read and written"
    return None


def _why_not_listening(host: str, port: int) -> str:
    """Why the server could not listen on ``host``:``port``, found by trying it again: a busy
    port wants another port, a mistyped address another --host."""
    try:
        addresses = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return "there is no such address (--host takes this machine's name or one of its addresses)"
    family, kind, protocol, _, address = addresses[0]
    try:
        with socket.socket(family, kind, protocol) as probe:
            probe.bind(address)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            return f"is another server using it? Try --port {port + 1}"
        if error.errno == errno.EADDRNOTAVAIL:
            return "this machine has no such address (--host takes one of its own addresses)"
        if error.errno == errno.EACCES:
            return "permission denied (ports below 1024 need the administrator; try --port 8000)"
        return error.strerror or str(error)
    return f"is another server using it? Try --port {port + 1}"  # freed since: busy a moment ago


def serve(settings: Settings, host: str, port: int, tls: tuple[str, str] | None = None) -> None:
    """Serve until interrupted (the database checked first: :func:`database_problem`); https and
    wss with ``tls``, a certificate file and its key's."""
    faulthandler.enable()  # a fatal signal (SIGBUS, SIGSEGV) is said on standard error, never a silent death
    set_up_logging(settings.log_format)
    app = create_app(settings)
    metrics.CURRENT.set(app.state.metrics)  # for the refusals made before the application (one app a process)
    proxies = TrustedProxies(settings.trusted_proxies)
    connections = app.state.connections
    http = _http_protocol_for(
        connections, most_connections(), per_address=settings.max_http_per_address, proxies=proxies
    )
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ssl_certfile=tls[0] if tls else None,
        ssl_keyfile=tls[1] if tls else None,
        http=http,
        ws="auto"
        if WebSocketsSansIOProtocol is None
        else _protocol_for(connections, proxies, Admission(settings.admit_rate, settings.admit_burst)),
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="info",
        log_config=uvicorn_log_config(settings.log_format),
        proxy_headers=False,
    )
    server = _Server(config)
    server.json_log = settings.log_format == "json"
    try:
        server.run()
    except SystemExit:
        if server.started:
            raise
        if server.listening_failed:
            message = f"cannot listen on {host}:{port}: {_why_not_listening(host, port)}"
        else:
            message = "the server could not start (the error is above)"
        print(f"pardon serve: {message}", file=sys.stderr)
        raise SystemExit(2) from None
