"""axe-core over every page, in a real Chromium against a real ``pardon serve``: home, the game
in each mode (against the computer, hot-seat, online while waiting, a spectator, partners,
Fire and Ice, hands of five, doubling, and the end of a game with how it went: the coach's
panel, here and in test_game_coach), the lobby, a replay, the rules and the scorekeeper.  No
page may have a serious or critical violation.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.accessibility import serious_problems
from tests.web.browser.conftest import Server
from tests.web.browser.play_support import wait_finished
from tests.web.browser.test_game_page import READY, create_game, open_game, vs_computers, wait_my_turn


def finished_game(server: Server, rules: str = "classic", players: int = 2) -> dict[str, Any]:
    """A game between computers (it begins when someone watches)."""
    seats = [{"kind": "bot", "level": "greedy"}] * players
    created: dict[str, Any] = create_game(server, {"rules": rules, "seed": 3, "seats": seats})
    return created


def assert_accessible(page: Any, where: str) -> None:
    problems = serious_problems(page)
    assert not problems, f"{where}:\n" + "\n".join(problems)


@pytest.mark.parametrize(
    "path",
    [
        "/",
        "/lobby",
        "/rules",
        "/rules/partners",
        "/scorekeeper",
        "/puzzles/4",
        "/nowhere",
        "/play/no-such-game",
        "/docs",
    ],
)
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_pages_around_the_game_have_no_serious_violation(
    live_server: Any, browser: Any, path: str, size: str
) -> None:
    if path == "/lobby":  # with a game to join listed, and one to watch
        live_server.rest("/api/games", {"public": True, "seats": [{"kind": "open"}, {"kind": "bot"}]})
        live_server.rest("/api/games", {"public": True, "seats": [{"kind": "bot"}, {"kind": "bot"}]})
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    context = browser.new_context(**(phone if size == "phone" else {"viewport": {"width": 1280, "height": 800}}))
    try:
        page = context.new_page()
        page.goto(live_server.url + path)
        if path.startswith("/play/"):  # no such game: said plainly
            page.locator("#closed").wait_for()
        elif path not in ("/scorekeeper", "/nowhere", "/docs"):  # those have no script to wait for
            page.wait_for_selector("body[data-ready=true]" if path != "/lobby" else ".game-card, .empty")
        assert_accessible(page, f"{path} ({size})")
    finally:
        context.close()


def test_the_home_page_with_an_online_game_created_has_no_serious_violation(live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_role("button", name="Create the online game").click()
    page.locator("#game-lobby").wait_for()
    assert_accessible(page, "home, online game created")


@pytest.mark.parametrize(
    ("rules", "players"),
    [("classic", 4), ("partners", 4), ("modern", 2), ("adult", 2), ("classic(scoring=1939,doubling=true)", 2)],
)
def test_a_game_against_the_computer_has_no_serious_violation(
    live_server: Any, page: Any, rules: str, players: int
) -> None:
    game = vs_computers(live_server, seed=5, players=players, rules=rules)
    open_game(page, game["seats"][0]["link"])
    wait_my_turn(page)
    assert_accessible(page, f"game ({rules})")
    movable = page.locator(".pawn.movable")
    if movable.count():  # a pawn chosen: its destinations are marked
        movable.first.click(force=True)
        assert_accessible(page, f"game ({rules}), a pawn chosen")


def test_hot_seat_online_waiting_and_spectator_games_have_no_serious_violation(live_server: Any, page: Any) -> None:
    hotseat = create_game(live_server, {"seed": 9, "seats": [{"kind": "hotseat", "name": "Ann"}, {"kind": "hotseat"}]})
    open_game(page, hotseat["host_link"])
    wait_my_turn(page)
    assert_accessible(page, "hot-seat game")
    online = create_game(live_server, {"seed": 9, "seats": [{"kind": "human"}, {"kind": "human"}]})
    open_game(page, online["seats"][0]["link"])
    assert_accessible(page, "online game, waiting for a friend")
    open_game(page, online["spectator_link"])
    assert_accessible(page, "spectator")


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_the_end_of_a_game_and_its_replay_have_no_serious_violation(quick_server: Server, page: Any, size: str) -> None:
    if size == "phone":
        page.set_viewport_size({"width": 390, "height": 844})
    game = finished_game(quick_server)
    open_game(page, game["spectator_link"])
    wait_finished(quick_server, game["id"])
    page.locator("#game-over").wait_for(state="visible")
    page.wait_for_function(READY)
    assert_accessible(page, f"the game-over dialog ({size})")
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for()
    assert_accessible(page, f"how the game went, computers only ({size})")
    page.goto(f"{quick_server.url}/replay/{game['id']}")
    page.wait_for_selector("body[data-ready=true]")
    assert_accessible(page, f"replay ({size})")


def test_a_phone_sized_game_has_no_serious_violation(live_server: Any, browser: Any, artefacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        game = vs_computers(live_server, seed=5, players=4)
        open_game(page, game["seats"][0]["link"])
        wait_my_turn(page)
        assert_accessible(page, "game on a phone")
        page.goto(live_server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        assert_accessible(page, "home on a phone")
    finally:
        context.close()
