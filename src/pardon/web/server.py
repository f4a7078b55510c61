"""``pardon serve``: run the application under uvicorn, and say where to point a browser."""

from __future__ import annotations

import asyncio
import errno
import json
import logging
import os
import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from uvicorn.protocols.http.h11_impl import H11Protocol

from pardon.web import errors
from pardon.web.app import create_app
from pardon.web.migrate import foreign_tables
from pardon.web.protocol import CLOSE_TRY_LATER, COUNTED, Connections, error_message
from pardon.web.settings import Settings
from pardon.web.storage import make_engine

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


def browser_address(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``.

    >>> browser_address("127.0.0.1", 8000)
    'http://127.0.0.1:8000'
    >>> browser_address("0.0.0.0", 8080)
    'http://localhost:8080'
    >>> browser_address("::1", 8000)
    'http://[::1]:8000'
    """
    if host in ANY_ADDRESS:
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


class _Server(uvicorn.Server):
    """uvicorn's server, which prints the address once it is listening (the port may be 0),
    and remembers whether it failed to start in the application or when it began to listen."""

    listening_failed = False

    async def startup(self, sockets: Any = None) -> None:
        try:
            await super().startup(sockets)
        except SystemExit:
            self.listening_failed = not self.lifespan.should_exit
            raise
        if self.started and self.servers:
            port = self.servers[0].sockets[0].getsockname()[1]
            address = browser_address(self.config.host, port)
            print(f"pardon is running: open {address} in your browser (Ctrl+C stops it)", flush=True)
            shared = network_address() if self.config.host in ANY_ADDRESS else None
            if shared is not None:  # invite links follow the address the page was opened at
                print(f"for friends on your network, open {browser_address(shared, port)} instead", flush=True)


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
            if connections.per_address.take(client[0]):
                self.holds = client[0]
                super().handle_connect(event)
                if hasattr(self, "scope"):
                    self.scope["extensions"][COUNTED] = {}
                return
            connections.knocks.knock(client[0])
            self.conn.logger = QUIET  # a flood of refusals logs nothing
            self.conn.available_extensions = []  # no compression to set up for three frames
            response = self.conn.accept(event)
            if response.status_code != 101:  # not a websocket handshake: uvicorn answers it
                super().handle_connect(event)
                return
            refusal = error_message(connections.too_many_from_one_address(), None)
            self.conn.send_response(response)
            self.conn.send_text(json.dumps(refusal, separators=(",", ":")).encode())
            self.conn.send_close(CLOSE_TRY_LATER, errors.TOO_MANY_CONNECTIONS)
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


def _protocol_for(connections: Connections) -> type[asyncio.Protocol]:
    """The websocket protocol of one server: it refuses what the application's counts refuse."""
    return type("PardonWebSocketProtocol", (WebSocketProtocol,), {"counted": connections})


def _http_protocol_for(connections: Connections) -> type[asyncio.Protocol]:
    """uvicorn's HTTP protocol, which drops a connection from a flooding address as soon as it
    is made: an address holding its whole share of websockets that keeps opening more past
    the refusals answered each second costs a socket accepted and closed, not a handshake."""
    base = HttpToolsProtocol if HttpToolsProtocol is not None else H11Protocol

    def connection_made(self: Any, transport: asyncio.Transport) -> None:
        base.connection_made(self, transport)
        peer = transport.get_extra_info("peername")
        if isinstance(peer, tuple) and connections.is_flooding(str(peer[0])):
            transport.abort()

    return type("PardonHttpProtocol", (base,), {"connection_made": connection_made})


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
            foreign = _foreign(create_engine(f"sqlite:///file:{path}?mode=ro&uri=true"))
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
        reason = str(getattr(error, "orig", None) or error).strip().splitlines()[0]
        return f"cannot open the database at {where}: {reason}"
    if foreign is not None:
        return f"will not use the database at {where}: {foreign}; give pardon a database of its own"
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
    path = url.split("///", 1)[1] if "///" in url else ""
    return Path(path) if path and path != ":memory:" else None


def _file_problem(path: Path) -> str | None:
    """What stops SQLite from keeping a database at ``path`` (the file, and its journal beside it)."""
    folder = path.parent
    while not folder.exists() and folder != folder.parent:  # make_engine creates the missing folders
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is not a directory"
    if not os.access(folder, os.W_OK | os.X_OK):
        return "permission denied"
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        return "permission denied"
    return None


def _log_to_the_operator() -> None:
    """The server's own lines (the games resumed at a restart, a game set aside and why) on
    standard error beside uvicorn's, in its manner; Python alone would print warnings only."""
    server_log = logging.getLogger("pardon")
    if not server_log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
        server_log.addHandler(handler)
        server_log.setLevel(logging.INFO)


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


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve until interrupted (the database checked first: :func:`database_problem`)."""
    _log_to_the_operator()
    app = create_app(settings)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=_http_protocol_for(app.state.connections),
        ws="auto" if WebSocketsSansIOProtocol is None else _protocol_for(app.state.connections),
        ws_max_size=MAX_FRAME,
        ws_per_message_deflate=False,
        log_level="info",
        proxy_headers=False,
    )
    server = _Server(config)
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
