"""A public online game made on the home page, in a real Chromium against a real ``pardon
serve``: the lobby offers strangers the seats left open, never the host's own; a stranger who
joins takes the open seat, and the host still plays theirs."""

from __future__ import annotations

import re
import time
from typing import Any

PLAY_URL = re.compile(r"/play/(?P<id>[A-Za-z0-9_-]+)#token=(?P<token>[A-Za-z0-9_-]+)$")


def test_the_lobby_offers_the_open_seats_of_a_public_game_and_never_the_hosts(live_server: Any, browser: Any) -> None:
    host, stranger = browser.new_context(), browser.new_context()
    try:
        page = host.new_page()
        page.goto(live_server.url + "/")
        page.wait_for_selector("body[data-ready=true]")
        form = page.locator("#online")
        form.locator("#online-public").check()
        form.get_by_role("button", name="Create the online game").click()
        panel = page.locator("#game-lobby")
        mine = panel.get_by_role("link", name="Go to my seat").get_attribute("href")
        assert mine is not None
        match = PLAY_URL.search(mine)
        assert match is not None
        game_id = match["id"]
        assert "open to anyone in the lobby" in panel.inner_text()

        lobby = stranger.new_page()
        lobby.goto(live_server.url + "/lobby")
        card = lobby.locator(f"[data-game='{game_id}']")
        card.wait_for()
        assert card.get_by_role("button", name=re.compile("as Red")).count() == 0  # the host's seat
        card.get_by_role("button", name=re.compile("as Yellow")).click()
        lobby.wait_for_url(PLAY_URL)

        page.wait_for_function("document.querySelector('.invite[data-colour=yellow] .badge').textContent === 'Joined'")
        summary = live_server.rest(f"/api/games/{game_id}")
        assert [(seat["colour"], seat["open"]) for seat in summary["seats"]] == [("red", False), ("yellow", False)]
        page.get_by_role("link", name="Go to my seat").click()  # the host's link still opens Red
        page.wait_for_url(PLAY_URL)
        deadline = time.monotonic() + 10  # both players have come: the game starts
        while live_server.rest(f"/api/games/{game_id}")["status"] != "playing" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert live_server.rest(f"/api/games/{game_id}")["status"] == "playing"
    finally:
        host.close()
        stranger.close()
