"""The server application: FastAPI for REST and websockets, storage opened and games resumed at startup.

>>> from pardon.web.settings import Settings
>>> app = create_app(Settings(database="sqlite:///:memory:"))
>>> app.title
'pardon'
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from pardon import __version__
from pardon.web.api import ERRORS, ApiError, router
from pardon.web.board_json import router as board_router
from pardon.web.info_api import router as info_router
from pardon.web.migrate import upgrade
from pardon.web.pages import mount
from pardon.web.protocol import serve_connection
from pardon.web.results_api import router as results_router
from pardon.web.rooms import Rooms
from pardon.web.settings import Settings
from pardon.web.storage import Store, make_engine

log = logging.getLogger("pardon.web")


def create_app(settings: Settings) -> FastAPI:
    """The application; the database is migrated and unfinished games resumed when it starts."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.database)
        upgrade(engine)
        rooms = Rooms(Store(engine), settings)
        app.state.rooms = rooms
        resumed = rooms.resume_all()
        log.info("pardon serve: %d unfinished games resumed", resumed)
        try:
            yield
        finally:
            rooms.close()
            engine.dispose()

    app = FastAPI(
        responses=ERRORS,
        title="pardon",
        version=__version__,
        summary="Sorry! played online: create games, invite players, play over a websocket (docs/protocol.md).",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.include_router(router)
    app.include_router(info_router)
    app.include_router(results_router)
    app.include_router(board_router)
    mount(app)
    app.add_exception_handler(ApiError, _api_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _invalid_request)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, _http_error)  # type: ignore[arg-type]
    app.add_exception_handler(Exception, _server_error)

    @app.get("/healthz", summary="Whether the server is up")
    def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.websocket("/ws/games/{game_id}")
    async def play(socket: WebSocket, game_id: str) -> None:
        await serve_connection(socket, game_id, app.state.rooms, settings)

    return app


async def _api_error(_request: Request, error: ApiError) -> JSONResponse:
    return JSONResponse({"error": error.code, "message": error.message}, status_code=error.status)


async def _invalid_request(_request: Request, error: RequestValidationError) -> JSONResponse:
    problems = [f"{'.'.join(str(part) for part in problem['loc'])}: {problem['msg']}" for problem in error.errors()[:5]]
    return JSONResponse({"error": "invalid_request", "message": "; ".join(problems)}, status_code=422)


async def _http_error(request: Request, error: HTTPException) -> Response:
    """The API's refusals all have one form (a body that is not JSON, a method not allowed)."""
    if not request.url.path.startswith("/api/"):
        return await http_exception_handler(request, error)
    code = {400: "bad_request", 404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "refused")
    body = {"error": code, "message": str(error.detail)}
    return JSONResponse(body, status_code=error.status_code, headers=error.headers)


async def _server_error(_request: Request, error: Exception) -> JSONResponse:
    log.error("request failed", exc_info=error)
    return JSONResponse({"error": "server_error", "message": "something went wrong"}, status_code=500)
