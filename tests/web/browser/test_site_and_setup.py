"""The site around the game and setting it up: headings, keyboard reach and contrast on the game
page, the home page's button on a phone, the scorekeeper's navigation, and ``make play``
(its port, and that it installs only what the server needs)."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.play_support import contrast
from tests.web.browser.test_game_page import open_game, vs_computers, wait_my_turn

ROOT = Path(__file__).resolve().parents[3]


def test_the_game_page_has_a_heading_a_readable_status_and_a_log_the_keyboard_reaches(
    live_server: Any, page: Any
) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    wait_my_turn(page)
    # the rules named for people (rules_name), not in the rules' text form
    assert page.locator("h1").count() == 1 and page.locator("h1").inner_text().startswith("Sorry! · Classic · game ")
    colours = page.locator("#connection").evaluate(
        "node => [getComputedStyle(node).color, getComputedStyle(node.parentElement).backgroundColor]"
    )
    assert contrast(*colours) >= 4.5
    page.locator("#turn").click()  # start from the side panel, then Tab
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement.id") == "log":
            break
    else:
        raise AssertionError("Tab never reaches the move log")


def test_the_home_pages_play_button_is_in_view_on_a_phone(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.goto(live_server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        box = page.get_by_role("button", name="Play against the computer").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 844
    finally:
        context.close()


def test_the_scorekeeper_links_to_the_site_and_asks_for_nothing_missing(live_server: Any, page: Any) -> None:
    missing: list[str] = []
    page.on("response", lambda response: missing.append(response.url) if response.status >= 400 else None)
    page.goto(live_server.url + "/scorekeeper")
    page.wait_for_load_state("networkidle")
    nav = page.get_by_role("navigation", name="Site")
    assert nav.get_by_role("link", name="Play").get_attribute("href") == "/"
    assert nav.get_by_role("link", name="Lobby").is_visible() and nav.get_by_role("link", name="Rules").is_visible()
    assert missing == []  # no favicon.ico 404 among them


def test_the_scorekeeper_opened_from_disk_shows_no_links_to_a_site(page: Any) -> None:
    page.goto((ROOT / "src" / "pardon" / "web" / "static" / "scorekeeper.html").as_uri())
    assert page.locator("#site-links").is_hidden()


def make(*arguments: str) -> str:
    """What ``make`` would run (-n: nothing is run), in a fresh environment folder."""
    finished = subprocess.run(
        ["make", "-n", "-s", *arguments, "VENV=/nonexistent/pardon-venv"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=30,
    )
    return finished.stdout


def test_make_play_takes_a_port_a_host_and_a_database() -> None:
    serve = "/nonexistent/pardon-venv/bin/pardon serve"
    stopped = " || test $? -eq 130"  # Ctrl+C is no failure
    assert make("play").splitlines()[-1] == f"{serve} --host 127.0.0.1 --port 8000{stopped}"
    assert make("play", "PORT=8001").splitlines()[-1] == f"{serve} --host 127.0.0.1 --port 8001{stopped}"
    assert make("play", "HOST=0.0.0.0", "DB=other.sqlite3").splitlines()[-1] == (
        f"{serve} --host 0.0.0.0 --port 8000 --db other.sqlite3{stopped}"
    )


def test_make_play_installs_only_what_playing_needs_and_make_test_the_developer_tools() -> None:
    play = make("play")
    assert "-e '.[web,print,tui]'" in play and "[dev]" not in play
    assert "-e '.[dev]'" in make("test")
