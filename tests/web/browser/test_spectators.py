"""The game page for a spectator, in a real Chromium against a real ``pardon serve``: two
computers play while the spectator watches through the game's spectator link."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

READY = "() => { const g = window.pardonGame; return g && g.ready && !g.pending; }"
WATCHING = "You are watching this game."


def test_a_spectator_clicking_a_pawn_is_told_it_watches_and_is_offered_no_rematch(live_server: Any, page: Any) -> None:
    seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}]
    game = live_server.rest("/api/games", {"rules": "classic", "seed": 5, "seats": seats})
    page.emulate_media(reduced_motion="reduce")
    page.goto(game["spectator_link"])
    page.wait_for_function(READY, timeout=15_000)
    assert page.evaluate("() => window.pardonGame.role") == "spectator"
    assert page.locator("#prompt").inner_text() == WATCHING  # told on arrival, before any click

    message = page.locator("#message")
    page.locator(".pawn").first.click(force=True)
    assert message.inner_text() == WATCHING
    page.wait_for_function("() => document.getElementById('message').textContent === ''", timeout=6_000)
    page.locator(".pawn").last.click(force=True)  # again, while the computers play on
    assert message.inner_text() == WATCHING

    dialog = page.locator("#game-over")
    dialog.wait_for(state="visible", timeout=60_000)
    assert page.locator("#replay-link").is_visible()
    assert page.locator("#close-over").is_visible()
    assert page.locator("#rematch").is_hidden()  # hidden means hidden, though buttons are inline-flex
    assert "yours" not in message.inner_text()
