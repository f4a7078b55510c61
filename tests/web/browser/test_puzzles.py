"""The puzzles in the browser: a position and a card, the moves in words, the verdict with the
coach's reason and every move's chance, the level chosen, and the puzzles solved remembered."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def _open(page: Any, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def test_a_puzzle_is_solved_by_choosing_its_best_move(live_server: Any, page: Any) -> None:
    puzzle = live_server.rest("/api/puzzles/4")
    best = live_server.rest(f"/api/puzzles/4/answer?move={puzzle['moves'][0]['move'].replace(' ', '%20')}")["best"]
    wrong = next(move for move in puzzle["moves"] if move["move"] != best)
    right = next(move for move in puzzle["moves"] if move["move"] == best)

    _open(page, f"{live_server.url}/puzzles/4")
    expect(page.locator("#title")).to_have_text("Puzzle 4")
    expect(page.locator("#task")).to_contain_text("Red to play an 11")
    expect(page.locator("#board svg")).to_be_visible()
    buttons = page.locator("#moves button")
    expect(buttons).to_have_count(len(puzzle["moves"]))

    buttons.filter(has_text=wrong["text"]).click()
    expect(page.locator("#verdict-head")).to_have_text("Not the best move")
    expect(buttons.filter(has_text=wrong["text"])).to_have_attribute("aria-current", "true")  # yours, marked
    expect(page.locator("#said")).to_contain_text(f"Not the best move. The best is: {right['text']}")
    expect(page.locator("#verdict-text")).to_contain_text(f"The best is: {right['text']}")
    assert page.locator("#verdict-reason").inner_text().strip()  # the coach's line on why
    expect(page.locator("#chances li")).to_have_count(len(puzzle["moves"]))
    expect(page.locator("#chances li.best")).to_contain_text(right["text"])
    expect(page.locator("#show-best")).to_be_visible()

    buttons.filter(has_text=right["text"]).click()
    expect(page.locator("#verdict-head")).to_have_text("Right: the best move")
    expect(page.locator("#show-best")).to_be_hidden()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    expect(page.locator("#title")).to_have_text("Puzzle 4 (solved)")  # remembered in this browser


def test_the_level_chooses_the_puzzles_and_next_goes_through_them(live_server: Any, page: Any) -> None:
    hard = [entry["number"] for entry in live_server.rest("/api/puzzles?level=hard")["puzzles"]]
    _open(page, f"{live_server.url}/puzzles")
    page.select_option("#level", "hard")
    expect(page).to_have_url(f"{live_server.url}/puzzles/{hard[0]}?level=hard")
    expect(page.locator("#about")).to_contain_text("Hard")
    page.click("#next")
    expect(page).to_have_url(f"{live_server.url}/puzzles/{hard[1]}?level=hard")
    page.go_back()
    expect(page.locator("#title")).to_have_text(f"Puzzle {hard[0]}")
    _open(page, f"{live_server.url}/puzzles/99999")
    expect(page.locator("#puzzle-error")).to_contain_text("there is no puzzle 99999")


def test_a_hand_puzzle_shows_the_hand_and_its_cards_moves(live_server: Any, page: Any) -> None:
    adult = next(entry for entry in live_server.rest("/api/puzzles")["puzzles"] if entry["rules"] == "adult")
    _open(page, f"{live_server.url}/puzzles/{adult['number']}")
    expect(page.locator("#task")).to_contain_text("plays one card of the hand")
    expect(page.locator("#task .hand-card")).to_have_count(5)
    expect(page.locator("#big-card")).to_have_class("big-card none")
    assert page.locator("#moves button").count() >= 3


def test_a_second_tap_or_next_meanwhile_leaves_the_board_and_the_verdict_of_the_last(
    live_server: Any, page: Any
) -> None:
    """An answer still loading or playing out, and another chosen (or Next pressed): the old
    animation went on over the new puzzle's board, and the verdict was of one move while the
    board showed the other."""
    _open(page, f"{live_server.url}/puzzles/14")
    pawns_of_14 = page.locator("#board .pawn").count()
    _open(page, f"{live_server.url}/puzzles/13")
    assert page.locator("#board .pawn").count() != pawns_of_14  # 2 players, then 4
    buttons = page.locator("#moves button")
    buttons.nth(0).click()
    buttons.nth(1).click()  # a quick second tap
    expect(buttons.nth(1)).to_have_attribute("aria-current", "true")
    expect(page.locator("#verdict-text")).to_contain_text(buttons.nth(1).locator(".text").inner_text())
    buttons.nth(0).click()
    page.click("#next")  # while the move plays out
    expect(page.locator("#title")).to_have_text("Puzzle 14")
    page.wait_for_timeout(1500)  # longer than any animation
    assert page.locator("#board .pawn").count() == pawns_of_14
    expect(page.locator("#verdict")).to_be_hidden()


def test_an_address_that_names_no_puzzle_says_so_and_next_goes_on(live_server: Any, page: Any) -> None:
    for address in ("0", "abc", "999999999999999999999", "206"):
        _open(page, f"{live_server.url}/puzzles/{address}")
        expect(page.locator("#puzzle-error")).to_contain_text("no")
        page.click("#next")
        expect(page.locator("#title")).to_have_text(re.compile(r"^Puzzle 1\b"))
