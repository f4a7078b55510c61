"""The board on a phone held upright (390x844) and sideways, in a real Chromium against a real
``pardon serve``: every word on it is at least 11 px, and every pawn and ring a player may
choose takes a tap anywhere within 22 px of its centre (a 44 px target), unless another
choice is nearer, however small the squares are drawn."""

from __future__ import annotations

import math
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.conftest import UPRIGHT, Server
from tests.web.browser.test_game_page import READY, open_game, vs_computers, wait_my_turn

SIDEWAYS = {"width": 844, "height": 390}
SMALLEST_TEXT = 11  # CSS pixels
TARGET = 44  # CSS pixels: a fingertip's pad

#: Every text drawn on the board and shown: its font size as drawn, in CSS pixels.
DRAWN_TEXTS = """() => {
    const svg = document.querySelector('svg.board');
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    return [...svg.querySelectorAll('text')]
        .filter((text) => text.textContent.trim() && text.getClientRects().length
            && getComputedStyle(text).display !== 'none' && getComputedStyle(text).visibility !== 'hidden')
        .map((text) => [text.getAttribute('class'), text.textContent.trim(),
            parseFloat(getComputedStyle(text).fontSize) * scale]);
}"""


@pytest.mark.parametrize("viewport", [UPRIGHT, SIDEWAYS], ids=["upright", "sideways"])
@pytest.mark.parametrize("rules", ["classic", "modern"])
def test_no_word_on_the_board_is_under_11_px_on_a_phone(
    live_server: Server, browser: Any, viewport: Any, rules: str
) -> None:
    game = vs_computers(live_server, seed=3, players=4, rules=rules)
    context = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        open_game(page, game["seats"][0]["link"])
        wait_my_turn(page)
        texts = page.evaluate(DRAWN_TEXTS)
        assert {kind for kind, _, _ in texts} >= {"circle-label", "pawn-letter", "pile-label"}, texts
        small = [(kind, words, round(size, 1)) for kind, words, size in texts if size < SMALLEST_TEXT - 0.05]
        assert small == []
    finally:
        context.close()


def test_a_desktop_board_keeps_the_cards_rule_text(live_server: Server, page: Any) -> None:
    """The words grow only where the board is drawn small: a desktop shows the card's text."""
    game = vs_computers(live_server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    wait_my_turn(page)
    assert page.locator("svg.board .card-text").is_visible()
    assert all(size >= SMALLEST_TEXT - 0.05 for _, _, size in page.evaluate(DRAWN_TEXTS))


#: The choices the board offers now (movable pawns, or rings), each with its centre on screen.
CHOICES = """(selector) => [...document.querySelectorAll(selector)].map((node) => {
    const box = node.getBoundingClientRect();
    return [node.dataset.key ?? node.dataset.place, box.x + box.width / 2, box.y + box.height / 2];
})"""

#: Record what the board's handlers are called with, instead of acting on it.
RECORD = """() => {
    const handlers = window.pardonGame.board.handlers;
    window.tapped = [];
    window.realHandlers = { onPawn: handlers.onPawn, onPlace: handlers.onPlace };
    handlers.onPawn = (key) => window.tapped.push(key);
    handlers.onPlace = (place) => window.tapped.push(place);
}"""
RESTORE = "() => Object.assign(window.pardonGame.board.handlers, window.realHandlers)"


def taps_missed(page: Any, choices: list[Any]) -> list[Any]:
    """Tap 21 px from each choice's centre in 8 directions (inside a 44 px target); each tap whose
    nearest choice is that one must choose it.  The taps that chose something else, or nothing."""
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    missed = []
    page.evaluate(RECORD)
    try:
        for key, x, y in choices:
            for step in range(8):
                angle = step * math.pi / 4
                tap = (x + (TARGET / 2 - 1) * math.cos(angle), y + (TARGET / 2 - 1) * math.sin(angle))
                if not (0 < tap[0] < width and 0 < tap[1] < height):
                    continue
                nearest = min(choices, key=lambda choice: math.hypot(choice[1] - tap[0], choice[2] - tap[1]))
                if nearest[0] != key:
                    continue  # another choice is nearer: that one's
                page.evaluate("() => { window.tapped = []; }")
                page.touchscreen.tap(*tap)
                got = page.evaluate("() => window.tapped")
                if got != [key]:
                    missed.append((key, step, got))
    finally:
        page.evaluate(RESTORE)
    return missed


def test_every_pawn_and_ring_is_a_44_px_target_on_a_phone(live_server: Server, browser: Any) -> None:
    """The pawns and rings are drawn about 23 px wide on a 390 px phone: a tap that misses them
    but lands within half a fingertip still chooses the nearest."""
    game = vs_computers(live_server, seed=3, players=2)
    context = browser.new_context(viewport=UPRIGHT, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        page.emulate_media(reduced_motion="reduce")
        open_game(page, game["seats"][0]["link"])
        for _ in range(30):  # a turn with a pawn to move, and somewhere for it to go
            state = wait_my_turn(page)
            pawns = page.evaluate(CHOICES, ".pawn[tabindex]:not([aria-disabled='true'])")
            if pawns:
                break
            page.locator("#choices button").first.click()
            page.wait_for_function(f"() => window.pardonGame.state.event > {state['event']}")
        assert pawns, "no turn with a pawn to move"
        page.evaluate("() => window.scrollTo(0, 0)")
        page.wait_for_function(READY)
        pawns = page.evaluate(CHOICES, ".pawn[tabindex]:not([aria-disabled='true'])")
        drawn = page.locator(".pawn[tabindex] .pawn-body").first.bounding_box()
        assert drawn and drawn["width"] < TARGET / 1.5  # drawn small: the target is bigger than the pawn
        assert taps_missed(page, pawns) == []

        page.touchscreen.tap(pawns[0][1], pawns[0][2])  # chosen: its rings are the choices now
        page.wait_for_selector(".mark")
        rings = page.evaluate(CHOICES, ".mark")
        others = page.evaluate(CHOICES, ".pawn[tabindex]:not([aria-disabled='true'])")
        near = [ring for ring in rings if all(math.hypot(ring[1] - o[1], ring[2] - o[2]) > TARGET for o in others)]
        missed = taps_missed(page, rings + others)
        assert [miss for miss in missed if miss[0] in {ring[0] for ring in near}] == []
    finally:
        context.close()
