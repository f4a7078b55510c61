"""How the game went, at the end of a game in a real Chromium: the win-chance graph, the human
player's biggest mistakes, and each shown on the board with the better move marked.

The game is a human (Red, who always plays the first legal move: the test plays it over the
websocket) against a computer, with a fixed seed: the same game, and so the same analysis,
every time.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.accessibility import serious_problems
from tests.web.browser.conftest import Server
from tests.web.browser.play_support import play_to_the_end
from tests.web.browser.test_game_page import create_game, open_game, pawn_actions, place_key

ANALYSIS = "**/api/games/*/analysis"


def finished_against_a_computer(server: Server, seed: int = 3) -> dict[str, Any]:
    game = create_game(server, {"seed": seed, "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
    play_to_the_end(server, game, game["seats"][0]["token"])
    return game


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def test_the_end_of_a_game_shows_how_it_went_and_the_mistakes_on_the_board(
    quick_server: Server, page: Any, artefacts: Path
) -> None:
    game = finished_against_a_computer(quick_server)
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    mine = [mistake for mistake in analysis["mistakes"] if mistake["colour"] == "red"]
    assert analysis["coached"] == ["red"] and mine, "seed 3: the first legal move every time costs something"

    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for()
    assert page.evaluate("() => document.activeElement.id") == "coach-title"
    panel = page.locator("#coach")
    assert panel.get_by_role("heading", name="How the game went").is_visible()

    # the graph: one line per player, in the player's colour, with its text alternative
    lines = panel.locator("svg.chance-graph polyline.chance-line")
    assert lines.count() == 2
    assert [lines.nth(index).get_attribute("data-colour") for index in range(2)] == ["red", "yellow"]
    graph = panel.get_by_role("img", name=re.compile("Win chance by turn"))
    assert graph.count() == 1
    assert "Red: 50% at the start" in (panel.locator("#chance-graph-desc").text_content() or "")
    assert panel.locator("svg.chance-graph text", has_text="Turn").count() == 1
    assert panel.locator("svg.chance-graph text", has_text="100%").count() == 1
    panel.locator(".chance-details summary").click()
    table = panel.locator(".chance-table")
    assert table.locator("thead th").all_text_contents() == ["Turn", "Red", "Yellow"]
    assert table.locator("tbody tr").last.locator("th").text_content() == "End"
    winner_column = 1 if analysis["winner"] == "red" else 2
    assert table.locator("tbody tr").last.locator("td").nth(winner_column - 1).text_content() == "100%"

    # the mistakes, biggest first
    assert panel.get_by_role("heading", name="Your biggest mistakes").is_visible()
    items = panel.locator("ol.mistakes > li")
    assert items.count() == len(mine) <= 3
    for index, mistake in enumerate(mine):
        text = items.nth(index).inner_text()
        card = "Sorry!" if mistake["card"] == "sorry" else mistake["card"]
        assert f"Turn {mistake['turn']}, {card}:" in text
        # in words (notation for those who know it after them)
        assert f"You played: {mistake['played_text']} ({mistake['played']})" in text
        assert f"Better: {mistake['better_text']} ({mistake['better']})" in text
        lost = round(mistake["best_chance"] * 100) - round(mistake["played_chance"] * 100)  # of the two shown
        assert (f"−{lost}%" if lost > 0 else "−<1%") in text
        assert f"({percent(mistake['best_chance'])} → {percent(mistake['played_chance'])} to win)" in text
        assert mistake["reason"] in text
    page.screenshot(path=str(artefacts / "coach-panel.png"), full_page=True)
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)

    # one shown on the board: the position of that turn, the better move marked
    first = mine[0]
    items.first.get_by_role("button", name="Show on the board").click()
    page.locator(f'#board[data-reviewing="{first["decision"]}"]').wait_for()
    for action in pawn_actions(first["better_move"]):
        ring = page.locator(f'.mark.better-mark[data-place="{place_key(action)}"]')
        assert ring.count() == 1
        assert ring.get_attribute("aria-label") == f"Better: {first['better_text']}"
        assert page.locator(f'.pawn.selected[data-key="{action["pawn"]}"]').count() >= 1
    reviewing = page.locator("#reviewing-text").text_content() or ""
    assert f"Turn {first['turn']}, before this move: {first['played_text']}." in reviewing
    assert first["better_text"] in reviewing
    board_position = page.evaluate("() => window.pardonGame.board.position")
    assert board_position["pawns"] == first["position"]["pawns"]
    page.screenshot(path=str(artefacts / "coach-show-on-board.png"))
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)

    page.get_by_role("button", name="Back to the end").click()
    assert page.locator("#reviewing").is_hidden() and page.locator(".mark.better-mark").count() == 0
    final = page.evaluate("() => window.pardonGame.state.position.pawns")
    assert page.evaluate("() => window.pardonGame.board.position.pawns") == final


def test_the_panel_says_it_is_analysing_and_a_failure_breaks_nothing(quick_server: Server, page: Any) -> None:
    game = finished_against_a_computer(quick_server, seed=4)
    held: list[Any] = []

    def hold(route: Any) -> None:  # answered below, once the waiting has been seen
        held.append(route)

    page.route(ANALYSIS, hold)
    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    status = page.locator("#coach-status")
    assert status.text_content() == "Analysing the game…"
    page.wait_for_function("() => document.querySelector('#coach').dataset.state === 'loading'")
    assert held, "the analysis is asked for once the game is over"
    held[0].fulfill(status=500, json={"error": "server_error", "message": "something went wrong"})
    page.locator("#coach[data-state=failed]").wait_for()
    assert status.text_content() == "The game could not be analysed: something went wrong"
    assert page.locator("svg.chance-graph").count() == 0 and page.locator("ol.mistakes").count() == 0
    page.get_by_role("button", name="The result").click()  # the rest of the page works as ever
    assert page.locator("#game-over").is_visible()
    assert page.locator("#replay-link").get_attribute("href") == f"/replay/{game['id']}"


def test_a_hand_games_mistake_is_shown_with_the_card_the_better_move_plays(quick_server: Server, page: Any) -> None:
    # the better move may play another card of the hand: the card beside the board is that one
    game = create_game(
        quick_server,
        {"seed": 1, "rules": "adult", "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]},
    )
    play_to_the_end(quick_server, game, game["seats"][0]["token"])
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    mine = [mistake for mistake in analysis["mistakes"] if mistake["colour"] == "red"]
    index, other = next((n, m) for n, m in enumerate(mine) if m["better_card"] != m["card"])
    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for()
    page.locator("ol.mistakes > li").nth(index).get_by_role("button", name="Show on the board").click()
    page.locator(f'#board[data-reviewing="{other["decision"]}"]').wait_for()
    label = {"sorry": "Sorry!"}.get(other["better_card"], other["better_card"])
    played = {"sorry": "Sorry!"}.get(other["card"], other["card"])
    name = page.locator("#card-name").text_content() or ""
    assert name.startswith(f"Better card: {label} (turn {other['turn']}; the {played} was played)")
    assert page.locator("#card-text").text_content() == other["better_card_text"]
    assert f"with the {label}: {other['better_text']}" in (page.locator("#reviewing-text").text_content() or "")


def test_a_game_with_doubles_says_its_doubling_decisions_are_not_judged(quick_server: Server, page: Any) -> None:
    """Point Scoring Sorry! with doubles: the human doubles whenever it may. The coach judges no
    decision to double, accept or drop, and the panel says so."""
    game = create_game(
        quick_server,
        {
            "seed": 3,
            "rules": "classic-1939(scoring=1939,doubling=true)",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}],
        },
    )

    def doubling(moves: list[Any]) -> Any:
        return next((move for move in moves if move["move"] == "double"), moves[0])

    play_to_the_end(quick_server, game, game["seats"][0]["token"], doubling)
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    assert any(decision["move"] == "double" and decision["best"] is None for decision in analysis["decisions"])
    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for()
    note = page.locator("#coach .coach-note")
    assert note.text_content() == "Doubling decisions (to double, accept or drop) are not judged: only cards are."
    title = page.locator("#chance-graph-title").text_content() or ""
    assert title.endswith(" and the end") and " to " in title


def test_players_at_one_screen_each_find_their_own_mistakes_under_their_name(quick_server: Server, page: Any) -> None:
    """A hot-seat game: the mistakes of everyone at the screen were one list, biggest first, so a
    family had to read the dots to find their own. Each player now has their own, under their name."""
    seats = [{"kind": "hotseat", "name": "Mum"}, {"kind": "hotseat", "name": "Sam"}]
    game = create_game(quick_server, {"seed": 3, "seats": seats})
    play_to_the_end(quick_server, game, game["host_token"])
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    assert analysis["coached"] == ["red", "yellow"]
    by_colour = {colour: [m for m in analysis["mistakes"] if m["colour"] == colour] for colour in analysis["coached"]}
    assert any(by_colour.values()), "seed 3: the first legal move every time costs something"

    open_game(page, game["host_link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for()
    assert page.locator("#mistakes-title").text_content() == "Biggest mistakes"
    sections = page.locator("#coach-mistakes section.player-mistakes")
    assert sections.count() == 2
    for index, (colour, name) in enumerate([("red", "Mum"), ("yellow", "Sam")]):
        section = sections.nth(index)
        assert section.get_attribute("data-colour") == colour
        assert name in (section.get_by_role("heading").text_content() or "")
        items = section.locator("ol.mistakes > li")
        assert items.count() == len(by_colour[colour])
        for item, mistake in zip(items.all(), by_colour[colour], strict=True):
            assert f"played: {mistake['played_text']} ({mistake['played']})" in item.inner_text()
            assert item.get_attribute("data-colour") == colour
        if not by_colour[colour]:
            assert (section.locator(".no-mistakes").text_content() or "").startswith(f"No mistakes: every move {name}")
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)
