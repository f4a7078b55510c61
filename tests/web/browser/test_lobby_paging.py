"""The lobby a page at a time, in a real Chromium against a real ``pardon serve``: it once showed
only the newest 100 games, and nobody could reach the others.  Now it says how many there are,
and "Show more games" adds the next page below those shown (following the page's ``next``: the
games after the last shown, however the lobby changes meanwhile), each game once, until every
game can be reached; a server that does not page its lobby (no ``total``) gets the list it sent."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

OPEN_GAME = {"rules": "classic", "public": True, "seats": [{"kind": "open"}, {"kind": "open"}]}


def shown(page: Any) -> list[str]:
    """The ids of the games on the lobby page, in order."""
    ids: list[str] = page.locator("#games .game-card").evaluate_all("cards => cards.map((card) => card.dataset.game)")
    return ids


def test_show_more_games_reaches_every_game_of_the_lobby_each_once(start_server: Any, page: Any) -> None:
    server = start_server()  # a lobby of its own, creation not rate-limited (conftest's Server)
    made = [server.rest("/api/games", OPEN_GAME)["id"] for _ in range(130)]
    assert server.rest("/api/lobby")["total"] == 130
    page.clock.install()  # the lobby refreshes only when the test says
    page.goto(server.url + "/lobby")
    cards = page.locator("#games .game-card")
    expect(cards).to_have_count(50)
    assert shown(page) == made[::-1][:50]  # the newest first
    count, more = page.locator("#lobby-count"), page.get_by_role("button", name=re.compile("^Show more games"))
    expect(count).to_have_text("130 public games are waiting for players; the newest 50 are shown.")
    expect(more).to_have_text("Show more games (80 more)")

    made.append(server.rest("/api/games", OPEN_GAME)["id"])  # meanwhile: every game one place further on
    more.focus()
    page.keyboard.press("Enter")
    expect(cards).to_have_count(100)  # the 50 after the last shown: none twice, none skipped
    ids = shown(page)
    assert ids == made[:-1][::-1][:100] and made[-1] not in ids
    assert page.evaluate("() => document.activeElement.dataset.game") == ids[50]  # the keyboard on the first added
    expect(more).to_have_text("Show more games (31 more)")
    expect(page.locator("#lobby-news")).to_have_text("50 more games shown.")

    page.clock.run_for(3_100)  # a refresh: the new game, and every game asked for, kept listed
    expect(cards.first).to_have_attribute("data-game", made[-1])
    expect(cards).to_have_count(100)
    assert shown(page) == made[::-1][:100]
    expect(more).to_have_text("Show more games (31 more)")

    more.click()
    expect(cards).to_have_count(131)
    assert shown(page) == made[::-1]
    expect(more).to_be_hidden()
    expect(count).to_have_text("131 public games are waiting for players.")
    page.clock.run_for(3_100)  # the refreshes keep them all
    expect(page.locator("#updated")).to_contain_text("Updated")
    expect(cards).to_have_count(131)


def test_a_lobby_without_a_total_is_shown_without_a_button_for_more(live_server: Any, page: Any) -> None:
    """A server from before the lobby had pages answers the games alone: all of them, no button."""
    live_server.rest("/api/games", OPEN_GAME)

    def games_alone(route: Any) -> None:
        answer = route.fetch()
        route.fulfill(response=answer, json={"games": answer.json()["games"]})

    page.route(re.compile(r"/api/lobby(\?.*)?$"), games_alone)
    page.goto(live_server.url + "/lobby")
    cards = page.locator("#games .game-card")
    cards.first.wait_for()
    listed = len(json.loads(page.evaluate("() => fetch('/api/lobby').then((r) => r.text())"))["games"])
    expect(cards).to_have_count(listed)
    expect(page.locator("#lobby-count")).to_have_text(
        f"{listed} public {'game is' if listed == 1 else 'games are'} waiting for players."
    )
    expect(page.get_by_role("button", name=re.compile("^Show more games"))).to_be_hidden()
