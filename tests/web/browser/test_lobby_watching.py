"""The lobby offers the public games being played to watch, in a real Chromium against a real
``pardon serve``: a started game once simply disappeared from it."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect


def test_a_public_game_under_way_is_offered_to_watch_and_watched(live_server: Any, browser: Any) -> None:
    created = live_server.rest(
        "/api/games",
        {
            "rules": "classic",
            "public": True,
            "seats": [{"kind": "human", "name": "Sam"}, {"kind": "bot", "level": "random"}],
        },
    )
    host, visitor = browser.new_context(), browser.new_context()
    try:
        seat = host.new_page()  # Sam comes: the game starts
        seat.goto(created["seats"][0]["link"])
        seat.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        page = visitor.new_page()
        page.goto(live_server.url + "/lobby")
        card = page.locator(f"#playing [data-game='{created['id']}']")
        expect(card).to_contain_text("Classic game · 2 players · move")
        expect(card.locator("li[data-colour=red]")).to_contain_text("Sam")
        expect(card.locator("li[data-colour=yellow]")).to_contain_text("computer")
        expect(page.locator("#playing-count")).to_contain_text("being played")
        assert created["id"] not in page.locator("#games").inner_text()  # nothing to join there
        card.get_by_role("link", name="Watch").click()
        page.wait_for_url(f"**/play/{created['id']}")
        page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        assert page.evaluate("() => window.pardonGame.seats") == []  # a spectator: no seat, no token
    finally:
        host.close()
        visitor.close()
