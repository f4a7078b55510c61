"""How the game went, at the end of a game in a real Chromium: the win-chance graph (the page's
own player's line, round by round; the others on request), the human player's biggest mistakes,
each placed in words ("Your 12th turn"), and each shown on the board with both moves marked.

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
#: Engine notation in brackets, "(11 1x30)", "(7 52-54 9-14)": never in the coach's words.
NOTATION = re.compile(r"\(\d+ [^)]*\)")
TURN_NUMBER = re.compile(r"Turn \d+")
CARD_WORDS = {"sorry": "a Sorry!", "8": "an 8", "11": "an 11"}


def finished_against_a_computer(server: Server, seed: int = 3) -> dict[str, Any]:
    game = create_game(server, {"seed": seed, "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
    play_to_the_end(server, game, game["seats"][0]["token"])
    return game


def percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def ordinal(number: int) -> str:
    suffix = "th" if 11 <= number % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def placed(analysis: dict[str, Any], mistake: dict[str, Any]) -> tuple[int, int]:
    """Which of its player's turns a mistake was made in (from 1), and in which round: once round
    the table, a 2's draw again not ending it."""
    turns: list[tuple[int, str]] = []  # each turn (a card) and its player
    for decision in analysis["decisions"]:
        if not turns or turns[-1][0] != decision["turn"]:
            turns.append((decision["turn"], decision["colour"]))
    rounds: dict[int, int] = {}
    round_, seen, previous = 0, set[str](), None
    for turn, colour in turns:
        if previous is None or (colour in seen and colour != previous):
            round_, seen = round_ + 1, set()
        seen.add(colour)
        rounds[turn], previous = round_, colour
    nth = sum(1 for turn, colour in turns if colour == mistake["colour"] and turn <= mistake["turn"])
    return nth, rounds[mistake["turn"]]


def open_the_coach(page: Any, link: str, tap: bool = False) -> Any:
    open_game(page, link)
    page.locator("#game-over").wait_for(state="visible")
    button = page.get_by_role("button", name="How the game went")
    button.tap() if tap else button.click()
    page.locator("#coach[data-state=ready]").wait_for()
    return page.locator("#coach")


def line_colours(panel: Any) -> list[str]:
    lines = panel.locator("svg.chance-graph .chance-line")
    return [lines.nth(index).get_attribute("data-colour") or "" for index in range(lines.count())]


def assert_no_notation(text: str) -> None:
    assert not NOTATION.search(text), f"notation in {text!r}"
    assert not TURN_NUMBER.search(text), f"a turn by its number in {text!r}"


def test_the_end_of_a_game_shows_how_it_went_and_the_mistakes_on_the_board(
    quick_server: Server, page: Any, artefacts: Path
) -> None:
    game = finished_against_a_computer(quick_server)
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    mine = [mistake for mistake in analysis["mistakes"] if mistake["colour"] == "red"]
    assert analysis["coached"] == ["red"] and mine, "seed 3: the first legal move every time costs something"

    panel = open_the_coach(page, game["seats"][0]["link"])
    assert page.evaluate("() => document.activeElement.id") == "coach-title"
    assert panel.get_by_role("heading", name="How the game went").is_visible()

    # the graph: at first only the player's own chance, one line, with its text alternative
    assert line_colours(panel) == ["red"]
    assert (panel.locator("#coach-status").text_content() or "").startswith("Your chance to win, round by round")
    graph = panel.get_by_role("img", name=re.compile("Win chance by round"))
    assert graph.count() == 1
    desc = panel.locator("#chance-graph-desc").text_content() or ""
    assert "Red: 50% at the start" in desc and "Yellow" not in desc
    # the bottom counts rounds (a few of them), not turns
    ticks = panel.locator("svg.chance-graph text.x-tick").all_text_contents()
    assert ticks[0] == "Round 1" and ticks[-1] == "End" and 3 <= len(ticks) <= 6
    assert all(re.fullmatch(r"Round \d+|End", tick) for tick in ticks)
    assert panel.locator("svg.chance-graph text", has_text="Turn").count() == 0
    assert panel.locator("svg.chance-graph text", has_text="100%").count() == 1
    panel.locator(".chance-details summary").click()
    table = panel.locator(".chance-table")
    assert table.locator("thead th").all_text_contents() == ["Round", "Red"]
    rows = table.locator("tbody th").all_text_contents()
    assert rows[0] == "1" and rows[-1] == "End" and all(row.isdigit() for row in rows[:-1])
    assert int(rows[-2]) < analysis["decisions"][-1]["turn"] / 1.5, "rounds, not turns"
    assert table.locator("tbody tr").last.locator("td").first.text_content() == (
        "100%" if analysis["winner"] == "red" else "0%"
    )

    # the others on request: every player's line, legend and column
    toggle = panel.get_by_role("checkbox", name="Show the other player")
    assert toggle.bounding_box()["height"] >= 16
    assert panel.locator(".chance-toggle").bounding_box()["height"] >= 44  # the row to tap
    toggle.check()
    assert line_colours(panel) == ["red", "yellow"]
    assert "Yellow: 50% at the start" in (panel.locator("#chance-graph-desc").text_content() or "")
    assert panel.locator(".chance-table thead th").all_text_contents() == ["Round", "Red", "Yellow"]
    assert panel.locator(".chance-line[data-colour=red]").get_attribute("stroke-dasharray") != (
        panel.locator(".chance-line[data-colour=yellow]").get_attribute("stroke-dasharray")
    ), "told apart by more than colour"
    toggle.uncheck()
    assert line_colours(panel) == ["red"]

    # the mistakes, biggest first, each placed in words
    assert panel.get_by_role("heading", name="Your biggest mistakes").is_visible()
    items = panel.locator("ol.mistakes > li")
    assert items.count() == len(mine) <= 3
    for index, mistake in enumerate(mine):
        text = items.nth(index).inner_text()
        nth, round_ = placed(analysis, mistake)
        card = CARD_WORDS.get(mistake["card"], f"a {mistake['card']}")
        assert f"Your {ordinal(nth)} turn (round {round_}), with {card}:" in text
        assert re.search(r"\d+(st|nd|rd|th) turn", text)
        assert_no_notation(text)
        assert f"You played: {mistake['played_text']}" in text
        assert f"Better: {mistake['better_text']}" in text
        lost = round(mistake["best_chance"] * 100) - round(mistake["played_chance"] * 100)  # of the two shown
        assert (f"−{lost}%" if lost > 0 else "−<1%") in text
        assert f"({percent(mistake['best_chance'])} → {percent(mistake['played_chance'])} to win)" in text
        assert mistake["reason"] in text
    assert_no_notation(panel.inner_text())
    page.screenshot(path=str(artefacts / "coach-panel.png"), full_page=True)
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)

    # one shown on the board: the position of that turn, both moves marked, each its own way
    first = mine[0]
    items.first.get_by_role("button", name="Show on the board").click()
    page.locator(f'#board[data-reviewing="{first["decision"]}"]').wait_for()
    for action in pawn_actions(first["better_move"]):
        ring = page.locator(f'.mark.better-mark[data-place="{place_key(action)}"]')
        assert ring.count() == 1
        assert ring.get_attribute("aria-label") == f"Better: {first['better_text']}"
        assert page.locator(f'.pawn.selected[data-key="{action["pawn"]}"]').count() >= 1
    for action in pawn_actions(first["played_move"]):
        ring = page.locator(f'.mark.played-mark[data-place="{place_key(action)}"]')
        assert ring.count() == 1
        assert ring.get_attribute("aria-label") == f"Played: {first['played_text']}"
    assert page.locator(".mark.played-mark").count() == len(pawn_actions(first["played_move"])) >= 1
    assert page.locator(".mark.better-mark").count() == len(pawn_actions(first["better_move"])) >= 1
    reviewing = page.locator("#reviewing-text").text_content() or ""
    nth, round_ = placed(analysis, first)
    assert f"Your {ordinal(nth)} turn (round {round_})" in reviewing
    assert "Played (dotted purple ring" in reviewing and first["played_text"] in reviewing
    assert "Better (solid green ring" in reviewing and first["better_text"] in reviewing
    assert "Marked on the board" not in reviewing
    assert_no_notation(reviewing)
    card_name = page.locator("#card-name").text_content() or ""
    assert f"your {ordinal(nth)} turn" in card_name
    assert_no_notation(card_name)
    board_position = page.evaluate("() => window.pardonGame.board.position")
    assert board_position["pawns"] == first["position"]["pawns"]
    page.screenshot(path=str(artefacts / "coach-show-on-board.png"))
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)

    page.get_by_role("button", name="Back to the end").click()
    assert page.locator("#reviewing").is_hidden() and page.locator(".mark.better-mark, .mark.played-mark").count() == 0
    assert page.locator(".pawn.played-pawn").count() == 0
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


def test_a_busy_server_is_asked_again_when_it_says_and_the_analysis_then_shown(quick_server: Server, page: Any) -> None:
    game = finished_against_a_computer(quick_server, seed=4)
    asked: list[float] = []

    def busy_once(route: Any) -> None:
        asked.append(page.evaluate("() => performance.now()"))
        if len(asked) == 1:
            message = "the server is analysing other games: try again in a few seconds"
            route.fulfill(status=503, headers={"Retry-After": "1"}, json={"error": "busy", "message": message})
        else:
            route.continue_()

    page.route(ANALYSIS, busy_once)
    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    status = page.locator("#coach-status")
    page.wait_for_function("() => document.querySelector('#coach-status').textContent.includes('trying again')")
    assert status.text_content() == "The server is busy analysing other games: trying again in 1 s…"
    page.locator("#coach[data-state=ready]").wait_for(timeout=30_000)
    assert len(asked) == 2 and asked[1] - asked[0] >= 900  # asked again when the server said, not at once
    assert page.locator("svg.chance-graph").count() == 1


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
    nth, _ = placed(analysis, other)
    assert name.startswith(f"Better card: {label} (your {ordinal(nth)} turn; the {played} was played)")
    assert page.locator("#card-text").text_content() == other["better_card_text"]
    reviewing = page.locator("#reviewing-text").text_content() or ""
    assert f"Better (solid green ring): {other['better_text']}." in reviewing and f"a {label}" in other["better_text"]


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
    # both play at this screen: both their lines, and nothing more to show
    assert line_colours(page.locator("#coach")) == ["red", "yellow"]
    assert page.locator(".chance-toggle").count() == 0
    sections = page.locator("#coach-mistakes section.player-mistakes")
    assert sections.count() == 2
    for index, (colour, name) in enumerate([("red", "Mum"), ("yellow", "Sam")]):
        section = sections.nth(index)
        assert section.get_attribute("data-colour") == colour
        assert name in (section.get_by_role("heading").text_content() or "")
        items = section.locator("ol.mistakes > li")
        assert items.count() == len(by_colour[colour])
        for item, mistake in zip(items.all(), by_colour[colour], strict=True):
            if mistake["played_move"]["actions"]:
                assert f"{name} played: {mistake['played_text']}" in item.inner_text()
            else:
                assert re.search(f"{name} (declined the switch|passed)\\.", item.inner_text())
            nth, round_ = placed(analysis, mistake)
            assert f"{name}'s {ordinal(nth)} turn (round {round_})" in item.inner_text()
            assert_no_notation(item.inner_text())
            assert item.get_attribute("data-colour") == colour
        if not by_colour[colour]:
            assert (section.locator(".no-mistakes").text_content() or "").startswith(f"No mistakes: every move {name}")
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)


def declining(moves: list[Any]) -> Any:
    """A player who passes whenever a pass is offered: an 11 whose switch they decline."""
    return next((move for move in moves if move["pass"]), moves[0])


def test_a_declined_switch_is_said_in_words_and_the_better_move_marked(quick_server: Server, page: Any) -> None:
    """ "Marked on the board" was said of a declined switch, with nothing of it marked: the move
    played, which moves nothing, is said in words, and the better one marked."""
    game = create_game(quick_server, {"seed": 2, "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
    play_to_the_end(quick_server, game, game["seats"][0]["token"], declining)
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    mine = [mistake for mistake in analysis["mistakes"] if mistake["colour"] == "red"]
    index, declined = next((n, m) for n, m in enumerate(mine) if not m["played_move"]["actions"])
    assert "declines the switch" in declined["played_text"], "seed 2: a declined switch is among the 3 biggest"
    panel = open_the_coach(page, game["seats"][0]["link"])
    item = panel.locator("ol.mistakes > li").nth(index)
    text = item.inner_text()
    assert "You declined the switch." in text and "You played:" not in text
    assert f"Better: {declined['better_text']}" in text
    assert_no_notation(text)

    item.get_by_role("button", name="Show on the board").click()
    page.locator(f'#board[data-reviewing="{declined["decision"]}"]').wait_for()
    assert page.locator(".mark.played-mark").count() == 0  # nothing moved: nothing to mark
    better = pawn_actions(declined["better_move"])
    assert page.locator(".mark.better-mark").count() == len(better) >= 1
    for action in better:
        assert page.locator(f'.pawn.selected[data-key="{action["pawn"]}"]').count() >= 1
    reviewing = page.locator("#reviewing-text").text_content() or ""
    nth, round_ = placed(analysis, declined)
    assert reviewing.startswith(f"Your {ordinal(nth)} turn (round {round_}), with an 11: the board before your move.")
    assert "You declined the switch." in reviewing
    assert f"Better (solid green ring): {declined['better_text']}." in reviewing
    assert "Marked on the board" not in reviewing and "Played (" not in reviewing
    problems = serious_problems(page)
    assert not problems, "\n".join(problems)


def test_the_coachs_words_for_turns_and_moves_that_move_nothing(quick_server: Server, page: Any) -> None:
    """Ordinals, rounds (a 2's draw again is no new round), and a pass, a declined switch or a
    discard said as what was done, or as what to do when it is the better move."""
    game = create_game(quick_server, {"seats": [{"kind": "human"}, {"kind": "human"}]})  # waiting: nothing moves
    open_game(page, game["spectator_link"])
    words = page.evaluate(
        """async () => {
            const coach = await import('/static/coach.js');
            const none = { actions: [] };
            const some = { actions: [{ kind: "step", pawn: "red:4" }] };
            // Red, Yellow, Red, Red again (a 2), Yellow, Red: three rounds
            const decisions = [[1, "red"], [2, "yellow"], [3, "red"], [4, "red"], [4, "red"], [5, "yellow"], [6, "red"]]
                .map(([turn, colour]) => ({ turn, colour, chances: {} }));
            const turns = coach.turnsOf(decisions);
            const alone = coach.turnsOf([1, 2, 2, 3].map((turn) => ({ turn, colour: "red", chances: {} })));
            const mine = (colour) => colour === "red";
            const owner = (colour) => (colour === "yellow" ? "Sam" : colour);
            return {
                ordinals: [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 101, 111, 112].map(coach.ordinal),
                rounds: turns.map((turn) => [turn.turn, turn.round, turn.nth]),
                solo: alone.map((turn) => [turn.turn, turn.round, turn.nth]),
                placed: [
                    coach.turnWords({ turn: 4, colour: "red" }, turns, { mine, owner }),
                    coach.turnWords({ turn: 5, colour: "yellow" }, turns, { mine, owner }),
                ],
                played: [
                    coach.moveWords(none, "Red draws an 11 and declines the switch", "You"),
                    coach.moveWords(none, "Red draws a 4 and cannot use it (forfeit)", "Sam"),
                    coach.moveWords(none, "Red cannot use any card and discards a Sorry!", "You"),
                    coach.moveWords(some, "Red plays a 1: 3 to 4", "You"),
                ],
                better: [
                    coach.moveWords(none, "Red draws an 11 and declines the switch"),
                    coach.moveWords(none, "Red draws a 4 and cannot use it (forfeit)"),
                    coach.moveWords(none, "Red cannot use any card and discards a 5"),
                ],
                cards: ["7", "8", "11", "sorry"].map(coach.aCard),
            };
        }"""
    )
    assert words["ordinals"] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "23rd", "101st", "111th", "112th"
    ]  # fmt: skip
    assert words["rounds"] == [[1, 1, 1], [2, 1, 1], [3, 2, 2], [4, 2, 3], [5, 2, 2], [6, 3, 4]]
    assert words["solo"] == [[1, 1, 1], [2, 2, 2], [3, 3, 3]]  # alone, a turn a round
    assert words["placed"] == ["Your 3rd turn (round 2)", "Sam's 2nd turn (round 2)"]
    assert words["played"] == [
        "You declined the switch",
        "Sam passed",
        "You discarded a Sorry!",
        "Red plays a 1: 3 to 4",
    ]
    assert words["better"] == ["Decline the switch", "Pass", "Discard a 5"]
    assert words["cards"] == ["a 7", "an 8", "an 11", "a Sorry!"]


def test_the_coach_reads_at_a_glance_on_a_phone_one_line_then_all_four(
    quick_server: Server, phone: Any, browser: Any, artefacts: Path
) -> None:
    """Four jagged lines over hundreds of turns in a phone's width could not be read: the human's
    own chance, by rounds, at first; the three computers' on request."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * 3
    game = create_game(quick_server, {"seed": 5, "seats": seats})
    play_to_the_end(quick_server, game, game["seats"][0]["token"])
    analysis = quick_server.rest(f"/api/games/{game['id']}/analysis")
    assert analysis["seats"] == ["red", "blue", "yellow", "green"] and analysis["coached"] == ["red"]
    panel = open_the_coach(phone, game["seats"][0]["link"], tap=True)
    assert line_colours(panel) == ["red"]
    assert panel.locator(".chance-legend li").all_text_contents() == ["Red (you)"]
    points = panel.locator(".chance-line").get_attribute("points") or ""
    turns = analysis["decisions"][-1]["turn"]
    assert len(points.split()) <= turns / 3, "a point a round, not a turn"
    ticks = panel.locator("svg.chance-graph text.x-tick").all_text_contents()
    assert ticks[0] == "Round 1" and ticks[-1] == "End" and len(ticks) <= 5
    assert_no_notation(panel.inner_text())
    toggle = panel.locator(".chance-toggle")
    assert toggle.inner_text().strip() == "Show the other players"
    assert toggle.bounding_box()["height"] >= 44
    panel.locator("#coach-graph").screenshot(path=str(artefacts / "coach-phone-graph.png"))
    problems = serious_problems(phone)
    assert not problems, "\n".join(problems)

    toggle.tap()
    assert panel.get_by_role("checkbox", name="Show the other players").is_checked()
    assert line_colours(panel) == ["red", "blue", "yellow", "green"]
    dashes = [line.get_attribute("stroke-dasharray") for line in panel.locator(".chance-line").all()]
    assert len(set(dashes)) == 4, "each line its own dash: not by colour alone"
    assert panel.locator(".chance-table thead th").all_text_contents() == ["Round", "Red", "Blue", "Yellow", "Green"]
    problems = serious_problems(phone)
    assert not problems, "\n".join(problems)
    phone.locator("#coach").screenshot(path=str(artefacts / "coach-phone.png"))

    if analysis["mistakes"]:
        panel.get_by_role("button", name="Show on the board").first.tap()
        phone.locator("#board[data-reviewing]").wait_for()
        assert phone.locator(".mark.better-mark").count() >= 1
        phone.screenshot(path=str(artefacts / "coach-phone-show.png"))
        problems = serious_problems(phone)
        assert not problems, "\n".join(problems)

    # a spectator: the winner's chance at first
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        watcher = context.new_page()
        panel = open_the_coach(watcher, game["spectator_link"])
        assert line_colours(panel) == [analysis["winner"]]
        assert (panel.locator("#coach-status").text_content() or "").startswith("The winner's chance to win")
        panel.locator(".chance-toggle").click()
        assert len(line_colours(panel)) == 4
        problems = serious_problems(watcher)
        assert not problems, "\n".join(problems)
    finally:
        context.close()
