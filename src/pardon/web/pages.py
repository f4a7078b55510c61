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

Any other address outside ``/api/`` opened by a browser (a request that asks for HTML before
JSON) is answered ``404`` with a page that says so and leads home; everyone else gets the JSON
they always had.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles

from pardon.web.api import ApiError

STATIC = Path(__file__).resolve().parent / "static"

#: HEAD too: uptime checks and `curl -I` ask for a page's headers alone.
PAGE_METHODS = ["GET", "HEAD"]

router = APIRouter(include_in_schema=False)


def page(name: str) -> FileResponse:
    """One HTML page of ``static/``; never cached, so a new version is picked up at once."""
    path = STATIC / name
    if not path.is_file():
        raise ApiError(404, "not_found", f"no page {name}")
    return FileResponse(path, media_type="text/html", headers={"Cache-Control": "no-cache"})


def not_found_page() -> FileResponse:
    """The page a browser gets, status 404, for an address that is no page."""
    return FileResponse(
        STATIC / "not-found.html", status_code=404, media_type="text/html", headers={"Cache-Control": "no-cache"}
    )


def prefers_html(accept: str) -> bool:
    """Whether an ``Accept`` header asks for HTML before JSON: a browser opening a page does
    (``text/html,...,*/*;q=0.8``); ``fetch``, curl and API clients (``*/*``, ``application/json``) do not.

    >>> prefers_html("text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8")
    True
    >>> prefers_html("*/*"), prefers_html("application/json"), prefers_html("text/html, application/json")
    (False, False, False)
    >>> prefers_html("application/json;q=0.5, text/html"), prefers_html("text/html;q=0")
    (True, False)
    """
    quality: dict[str, float] = {}
    for part in accept.lower().split(","):
        kind, *parameters = (item.strip() for item in part.split(";"))
        weight = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        quality[kind] = max(weight, quality.get(kind, 0.0))
    html = quality.get("text/html", 0.0)
    as_json = max(quality.get(kind, 0.0) for kind in ("application/json", "application/*", "*/*"))
    return html > as_json


@router.api_route("/", methods=PAGE_METHODS)
def home() -> FileResponse:
    return page("index.html")


@router.api_route("/lobby", methods=PAGE_METHODS)
def lobby_page() -> FileResponse:
    return page("lobby.html")


@router.api_route("/play/{game_id}", methods=PAGE_METHODS)
def game_page(game_id: str) -> FileResponse:
    return page("game.html")


@router.api_route("/replay/{game_id}", methods=PAGE_METHODS)
def replay_page(game_id: str) -> FileResponse:
    return page("replay.html")


@router.api_route("/rules", methods=PAGE_METHODS)
@router.api_route("/rules/{name}", methods=PAGE_METHODS)
def rules_page(name: str = "classic") -> FileResponse:
    return page("rules.html")


@router.api_route("/puzzles", methods=PAGE_METHODS)
@router.api_route("/puzzles/{number}", methods=PAGE_METHODS)
def puzzles_page(number: str = "") -> FileResponse:
    return page("puzzles.html")


@router.api_route("/scorekeeper", methods=PAGE_METHODS)
def scorekeeper_page() -> FileResponse:
    return page("scorekeeper.html")


@router.api_route("/sheets/{name}", methods=PAGE_METHODS)
def sheet_file(name: str) -> Response:
    """A printable sheet as PDF, made on the first request and kept in memory: a version always makes the same bytes."""
    try:
        from pardon.printables import FILES, sheet_pdf
    except ImportError:
        message = "the printable sheets need the print extra: in pardon's folder, .venv/bin/pip install -e '.[print]'"
        raise ApiError(503, "unavailable", message) from None
    if name not in FILES:
        raise ApiError(404, "not_found", f"no sheet {name}: choose one of {', '.join(FILES)}")
    headers = {"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "no-cache"}
    return Response(sheet_pdf(name), media_type="application/pdf", headers=headers)


def mount(app: FastAPI) -> None:
    """Add the pages and the static files to ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static")
