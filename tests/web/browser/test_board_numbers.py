"""The board prints the numbers the words use, in a real Chromium against a real ``pardon serve``:
the moves, the log and the hints say "4 to 12" and "32 to S5", so every track square's number
is on the rim beside it, and each Safety Zone square is named in it, whichever side is drawn at
the bottom."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.test_game_page import open_game, vs_computers, wait_my_turn

#: Each printed number with the track square nearest to it (by the centres drawn on screen).
NEAREST_SQUARES = """() => {
    const centre = (node) => {
        const b = node.getBoundingClientRect();
        return [b.x + b.width / 2, b.y + b.height / 2];
    };
    const squares = [...document.querySelectorAll('.square')].map((node) => [node.dataset.place, centre(node)]);
    return [...document.querySelectorAll('.square-number')].map((number) => {
        const [x, y] = centre(number);
        const away = (square) => Math.hypot(square[1][0] - x, square[1][1] - y);
        const nearest = squares.reduce((best, square) => (away(square) < away(best) ? square : best));
        return [number.textContent, nearest[0]];
    });
}"""


@pytest.mark.parametrize("seat", [0, 1], ids=["red-at-the-bottom", "yellow-at-the-bottom"])
def test_every_square_is_numbered_beside_itself_and_the_words_use_those_numbers(
    live_server: Any, page: Any, seat: int
) -> None:
    game = vs_computers(live_server, seed=5, players=2)
    if seat:  # the human plays Yellow: the board is turned, Yellow's side at the bottom
        seats = [{"kind": "bot", "level": "greedy"}, {"kind": "human"}]
        game = live_server.rest("/api/games", {"rules": "classic", "seed": 5, "seats": seats})
    open_game(page, game["seats"][seat]["link"])
    numbers = page.evaluate(NEAREST_SQUARES)
    assert sorted(int(number) for number, _ in numbers) == list(range(60))
    assert all(place == f"sq:{number}" for number, place in numbers), numbers
    safety = page.evaluate("() => [...document.querySelectorAll('.safety .safety-number')].map((n) => n.textContent)")
    assert sorted(set(safety)) == ["S1", "S2", "S3", "S4", "S5"] and len(safety) % 5 == 0

    wait_my_turn(page)  # the words of the moves: every place they name is printed on the board
    words = " ".join(page.locator("#log li").all_inner_texts() + page.locator("#choices").all_inner_texts())
    named = re.findall(r"\b(S[1-5]|\d{1,2}) to (S[1-5]|\d{1,2})\b", words)
    printed = {number for number, _ in numbers} | set(safety)
    assert {place for pair in named for place in pair} <= printed, words
