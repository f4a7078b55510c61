"""An address that is no page: a browser gets a page that says so and leads home, status 404;
an API client gets the JSON it always had (``{"error", "message"}`` under ``/api/``, FastAPI's
``{"detail"}`` elsewhere)."""

from __future__ import annotations

import html
import re

import pytest
from fastapi.testclient import TestClient

BROWSER = "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"


@pytest.mark.parametrize("path", ["/nowhere", "/play/", "/replay/", "/lobby/x/y", "/static/nothing.html"])
def test_a_browser_opening_an_address_that_is_no_page_is_told_so_with_a_way_home(server: TestClient, path: str) -> None:
    answer = server.get(path, headers={"Accept": BROWSER})
    assert answer.status_code == 404
    assert answer.headers["content-type"].startswith("text/html")
    assert "There is no such page" in answer.text and '<a class="button primary" href="/">' in answer.text
    assert "/static/pages.css" in answer.text  # the site's look, like every page around the game


@pytest.mark.parametrize("accept", [None, "*/*", "application/json", "text/html, application/json"])
def test_a_client_that_does_not_ask_for_html_first_still_gets_json(server: TestClient, accept: str | None) -> None:
    headers = {"Accept": accept} if accept else {}
    for path in ("/nowhere", "/play/"):
        answer = server.get(path, headers=headers)
        assert answer.status_code == 404 and answer.json() == {"detail": "Not Found"}


@pytest.mark.parametrize("accept", [None, BROWSER])
def test_the_api_answers_json_even_to_a_browser(server: TestClient, accept: str | None) -> None:
    headers = {"Accept": accept} if accept else {}
    unknown = server.get("/api/nowhere", headers=headers)
    assert unknown.status_code == 404 and unknown.json() == {"error": "not_found", "message": "Not Found"}
    game = server.get("/api/games/nosuchgame", headers=headers)
    assert game.status_code == 404 and game.json()["error"] == "no_game"


def test_only_a_page_opened_is_answered_with_a_page(server: TestClient) -> None:
    refused = server.post("/nowhere", headers={"Accept": BROWSER})
    assert refused.status_code in (404, 405) and refused.headers["content-type"] == "application/json"
    assert server.get("/play/somegame", headers={"Accept": BROWSER}).status_code == 200  # the page says if it exists


@pytest.mark.parametrize(
    "path", ["/", "/lobby", "/rules/classic", "/scorekeeper", "/puzzles", "/puzzles/4", "/healthz", "/sheets/rules.pdf"]
)
def test_a_page_answers_head_for_uptime_checks(server: TestClient, path: str) -> None:
    answer = server.head(path)
    assert answer.status_code == 200, answer.text
    assert answer.content == b""  # the headers alone


def test_the_api_is_described_at_docs_with_nothing_loaded_from_elsewhere(server: TestClient) -> None:
    """FastAPI's own /docs loads its scripts from a CDN: blank on a network without the internet."""
    page = server.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert not re.search(r'(?:src|href)="(?:https?:)?//', page.text)
    schema = server.get("/openapi.json").json()
    for path, methods in schema["paths"].items():
        for method in methods:
            assert f"<code>{method.upper()} {html.escape(path)}</code>" in page.text
    for body in schema["components"]["schemas"]:
        assert f'id="{body}"' in page.text
    assert server.get("/redoc").status_code == 404
