"""The server application: FastAPI for REST and websockets, storage opened and games resumed at startup.

>>> from pardon.web.settings import Settings
>>> app = create_app(Settings(database="sqlite:///:memory:"))
>>> app.title
'pardon'
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pardon import __version__
from pardon.web import errors
from pardon.web.api import ERRORS, ApiError, CreationLimit, router
from pardon.web.api_docs import router as docs_router
from pardon.web.board_json import router as board_router
from pardon.web.coach_api import AnalysisCache
from pardon.web.coach_api import router as coach_router
from pardon.web.info_api import router as info_router
from pardon.web.kept import Kept
from pardon.web.metrics import install as install_metrics
from pardon.web.migrate import upgrade
from pardon.web.pages import mount, not_found_page, prefers_html
from pardon.web.protocol import Connections, serve_connection
from pardon.web.proxies import ForwardedClient, HostCheck, TrustedProxies
from pardon.web.puzzles_api import router as puzzles_router
from pardon.web.read_limit import ReadLimit
from pardon.web.registry import Rooms
from pardon.web.results_api import router as results_router
from pardon.web.settings import Settings
from pardon.web.storage import Store, error_reason, lock_database, make_engine, sqlite_file

log = logging.getLogger("pardon.web")


def create_app(settings: Settings) -> FastAPI:
    """The application; the database is migrated and unfinished games resumed when it starts."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        let_go = lock_database(settings.database)  # one server per SQLite file
        try:
            engine = make_engine(settings.database)
            upgrade(engine)
            app.state.database_file = _file_identity(sqlite_file(settings.database))
            rooms = Rooms(Store(engine), settings)
            app.state.rooms = rooms
            app.state.metrics.watch(rooms)
            app.state.creation_limit = CreationLimit(settings.create_rate, settings.create_burst)
            resumed = rooms.resume_all()
            log.info("pardon serve: %d unfinished game%s resumed", resumed, "" if resumed == 1 else "s")
            try:
                yield
            finally:
                rooms.close()
                app.state.analyses.close()
                engine.dispose()
        finally:
            let_go()

    app = FastAPI(
        responses=ERRORS,
        title="pardon",
        version=__version__,
        summary="Sorry! played online: create games, invite players, play over a websocket (docs/protocol.md).",
        lifespan=lifespan,
        docs_url=None,  # /docs is pardon's own page (api_docs): FastAPI's load scripts from a CDN
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.analyses = AnalysisCache(settings.analysis_cache, settings.analyses_per_address)
    app.state.finished = Kept[tuple[str, str], bytes](2 * settings.finished_cache)  # a record and a replay each
    connections = app.state.connections = Connections(settings)
    app.add_middleware(BodyLimit, limit=settings.max_body)
    # outside the body limit, inside anything that names a trusted proxy's client (added after it)
    app.add_middleware(ReadLimit, per_minute=settings.read_rate, burst=settings.read_burst)
    # Outermost, so that every limit and log line after them sees the real client and site.
    app.add_middleware(HostCheck, settings=settings)
    app.add_middleware(ForwardedClient, proxies=TrustedProxies(settings.trusted_proxies))
    app.include_router(router)
    app.include_router(info_router)
    app.include_router(results_router)
    app.include_router(coach_router)
    app.include_router(board_router)
    app.include_router(puzzles_router)
    app.include_router(docs_router)
    mount(app)
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(SQLAlchemyError, _database_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)

    @app.get("/healthz", summary="Whether the server is up and its database answers")
    def healthz() -> JSONResponse:
        return _health(app)

    @app.head("/healthz", include_in_schema=False)  # uptime checks that ask for the headers alone
    def healthz_headers() -> JSONResponse:
        return _health(app)

    @app.websocket("/ws/games/{game_id}")
    async def play(socket: WebSocket, game_id: str) -> None:
        await serve_connection(socket, game_id, app.state.rooms, settings, connections)

    install_metrics(app, settings.metrics_from)  # last: its middleware outside all others, counting their refusals
    return app


def _file_identity(path: Path | None) -> tuple[Path, int, int] | None:
    """A SQLite file and which file it is (device and inode), to notice it deleted or replaced."""
    if path is None or not path.exists():
        return None
    found = path.stat()
    return path, found.st_dev, found.st_ino


def _health(app: FastAPI) -> JSONResponse:
    """``ok``, or 503 with the problem: an uptime check then hears of a database deleted under the
    running server (whose games would be lost at the next restart) or one that no longer answers."""
    problem = _database_problem(app)
    if problem is None:
        app.state.health_reported = None
        return JSONResponse({"status": "ok"})
    if getattr(app.state, "health_reported", None) != problem:  # logged once, not at every check
        app.state.health_reported = problem
        log.error("pardon serve: %s", problem)
    return JSONResponse({"status": "failing", "problem": problem}, status_code=503)


def _database_problem(app: FastAPI) -> str | None:
    known = getattr(app.state, "database_file", None)
    if known is not None:
        path, device, inode = known
        try:
            found = path.stat()
        except OSError:
            return f"the database file {path} is gone: the games played from now on are lost at the next restart"
        if (found.st_dev, found.st_ino) != (device, inode):
            return f"the database file {path} was replaced: restart the server to use the new one"
    try:
        with app.state.rooms.store.engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        return f"the database does not answer: {type(error).__name__}"
    failing = app.state.rooms.writer.failing
    if failing is not None and time.monotonic() - failing[0] < WRITES_FAILING_FOR:
        return f"the database refuses to store moves: {failing[1]}"
    return None


#: Seconds for which a move the database refused to store (and none stored since) fails the
#: health check: reads may still answer while every write fails (a full disk, a locked file).
WRITES_FAILING_FOR = 60.0


class BodyLimit:
    """Refuse a request body over ``limit`` bytes with ``413 too_large``, before reading it:
    a ``Content-Length`` over the limit is refused at once; a body without one (chunked) is
    read up to the limit, counting, and refused as soon as it goes past."""

    def __init__(self, app: ASGIApp, limit: int):
        self.app = app
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = _content_length(scope)
        if length is not None:
            if length > self.limit:
                await self._refuse(send)
            else:
                await self.app(scope, receive, send)
            return
        body = await self._read_within_limit(receive)
        if body is None:
            await self._refuse(send)
            return
        await self.app(scope, _replay(body, receive), send)

    async def _read_within_limit(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it is longer than the limit."""
        body = bytearray()
        while True:
            message = await receive()
            if message["type"] != "http.request":  # the client left: nothing to answer
                return bytes(body)
            body += message.get("body", b"")
            if len(body) > self.limit:
                return None
            if not message.get("more_body", False):
                return bytes(body)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps({"error": "too_large", "message": f"a request body is at most {self.limit} bytes"}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        headers.append((b"connection", b"close"))  # the body is left unread: this connection cannot carry another
        await send({"type": "http.response.start", "status": 413, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope: Scope) -> int | None:
    for name, value in scope["headers"]:
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


def _replay(body: bytes, receive: Receive) -> Receive:
    """A ``receive`` that gives the body already read, then what the client sends next (its leaving)."""
    given = False

    async def replay() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return replay


async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
    return JSONResponse({"error": error.code, "message": error.message}, status_code=error.status)


async def _invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    problems = [f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}" for problem in error.errors()[:5]]
    return JSONResponse({"error": "invalid_request", "message": "; ".join(problems)}, status_code=422)


async def _http_error(request: Request, error: HTTPException) -> Response:
    """The API's refusals all have one form (a body that is not JSON, a method not allowed).
    Elsewhere an address that is no page is a page that says so, for a browser (docs/protocol.md)."""
    if not request.url.path.startswith("/api/"):
        browser = request.method in ("GET", "HEAD") and prefers_html(request.headers.get("accept", ""))
        if error.status_code == 404 and browser:
            return not_found_page()
        return await http_exception_handler(request, error)
    code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "refused")
    body = {"error": code, "message": str(error.detail)}
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


async def _database_error(request: Request, error: SQLAlchemyError) -> JSONResponse:
    """The database refused a request's read or write (a SQLite file locked by another program,
    a full disk, a PostgreSQL server restarting): nothing was changed, and the client is told so,
    with the reason in one line of the log rather than a traceback per request."""
    method = getattr(request, "method", "WEBSOCKET")  # a websocket's route has no method
    log.warning("%s %s: the database refused it: %s", method, request.url.path, error_reason(error))
    message = "the database cannot be used just now; nothing changed: try again in a moment"
    return JSONResponse(
        {"error": errors.DATABASE_UNAVAILABLE, "message": message}, status_code=503, headers={"Retry-After": "5"}
    )


async def _server_error(request: Request, error: Exception) -> JSONResponse:
    # Starlette raises the error again once this answer is sent, and uvicorn logs its traceback:
    # this line names the request, without a second copy of the traceback.
    log.error("%s %s failed: %s", request.method, request.url.path, type(error).__name__)
    return JSONResponse({"error": "server_error", "message": "something went wrong"}, status_code=500)
