"""The browser client's pages: plain files from ``static/``, no build step and nothing from a CDN.

Each page is one HTML file; its scripts and styles are served from ``/static``.  Which file
answers which address is this table, so links stay stable while pages change:

===========================  ==========================================================
``/``                        home: play the computer, hot-seat, create an online game
``/lobby``                   public games waiting for players
``/play/{id}``               a game (the token travels in the fragment: ``#token=...``)
``/replay/{id}``             a finished game, move by move
``/rules`` ``/rules/{name}`` the rules of each preset
``/scorekeeper``             the scorekeeper (also a self-contained file that works from disk)
``/sheets/{name}``           the printable rule sheet and score sheet (PDF)
===========================  ==========================================================
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from pardon.web.api import ApiError

STATIC = Path(__file__).resolve().parent / "static"

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    """One HTML page of ``static/``; never cached, so a new version is picked up at once."""
    path = STATIC / name
    if not path.is_file():
        raise ApiError(404, "not_found", f"no page {name}")
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})


@router.get("/")
def home() -> FileResponse:
    return page("index.html")


@router.get("/lobby")
def lobby_page() -> FileResponse:
    return page("lobby.html")


@router.get("/play/{game_id}")
def game_page(game_id: str) -> FileResponse:
    return page("game.html")


@router.get("/replay/{game_id}")
def replay_page(game_id: str) -> FileResponse:
    return page("replay.html")


@router.get("/rules")
@router.get("/rules/{name}")
def rules_page(name: str = "classic") -> FileResponse:
    return page("rules.html")


@router.get("/scorekeeper")
def scorekeeper_page() -> FileResponse:
    return page("scorekeeper.html")


@router.get("/sheets/{name}")
def sheet_file(name: str) -> Response:
    """A printable sheet as PDF, made on the first request and kept in memory: a version always makes the same bytes."""
    try:
        from pardon.printables import FILES, sheet_pdf
    except ImportError:
        message = "the printable sheets need the print extra: pip install 'pardon[print]'"
        raise ApiError(503, "unavailable", message) from None
    if name not in FILES:
        raise ApiError(404, "not_found", f"no sheet {name}: choose one of {', '.join(FILES)}")
    headers = {"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "no-cache"}
    return Response(sheet_pdf(name), media_type="application/pdf", headers=headers)


def mount(app: FastAPI) -> None:
    """Add the pages and the static files to ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
