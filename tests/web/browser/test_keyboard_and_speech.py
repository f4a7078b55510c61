"""The game page to a player without a mouse, or who hears it through a screen reader.

The keyboard's focus never falls to the top of the page (a split 7 half made, Escape, a move
made, the same turn drawn again after a reconnect, the coach's "Show on the board"); what
happens is said aloud line by line, none lost to the next; the pawns say what choosing them
does; the board's empty places stay quiet while a summary says where every pawn stands; and the
heading says the game in words.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect
from tests.web.browser.conftest import Server
from tests.web.browser.test_game_coach import finished_against_a_computer
from tests.web.browser.test_game_page import (
    READY,
    Move,
    create_game,
    furthest,
    open_game,
    pawn_actions,
    place_key,
    play_by_clicks,
    split_seven,
    state,
    switch_eleven,
    vs_computers,
    wait_my_turn,
)

ACTIVE = (
    "() => { const a = document.activeElement; if (!a || a === document.body) return 'body';"
    " if (a.classList.contains('pawn')) return 'pawn:' + a.dataset.key;"
    " if (a.classList.contains('mark')) return 'mark:' + a.dataset.place;"
    " if (a.dataset && a.dataset.card) return 'card:' + a.dataset.card; return a.id || a.tagName; }"
)


def reach(page: Any, wanted: Any, turns: int = 300) -> dict[str, Any]:
    """Play by clicks until ``wanted(state)`` names a move (not made): that state."""
    for _ in range(turns):
        now = wait_my_turn(page)
        if wanted(now):
            page.wait_for_function(READY)
            return now
        play_by_clicks(page, furthest(now["moves"]))
    raise AssertionError("the wanted situation did not arise")


def focus_pawn(page: Any, key: str) -> None:
    page.locator(f'.pawn[data-key="{key}"][tabindex="0"]').focus()


def test_half_a_split_seven_keeps_the_focus_and_says_what_is_left(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=11, players=2)  # a 7 to split at event 18
    open_game(page, game["seats"][0]["link"])
    now = reach(page, split_seven)
    move = split_seven(now)
    assert move is not None
    first, second = pawn_actions(move)
    focus_pawn(page, first["pawn"])
    page.keyboard.press("Enter")
    ring = page.locator(f'.mark[data-place="{place_key(first)}"]')
    where = "Home" if first["landing"] == "home" else str(first["landing"])
    # the ring of a part of the 7 says its share of the card
    expect(ring).to_have_accessible_name(
        re.compile(rf"to {re.escape(where)}(, then slides)?, {first['steps']} of the 7$")
    )
    ring.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.pardonGame.selection.chosen.length === 1")
    focused = page.evaluate(ACTIVE)
    assert focused != "body", "the focus fell to the top of the page"
    assert focused.startswith(("pawn:", "mark:")) or focused == "BUTTON", focused
    said = page.locator("#live p").last
    expect(said).to_have_text(
        f"Moved {first['steps']} of the 7: now move another pawn {7 - first['steps']} (Escape to start again)."
    )
    # Escape starts again: the focus goes back to the pawn the move began with
    page.keyboard.press("Escape")
    page.wait_for_function("() => window.pardonGame.selection && window.pardonGame.selection.chosen.length === 0")
    assert page.evaluate(ACTIVE) == f"pawn:{first['pawn']}"
    assert second["pawn"] != first["pawn"]


def test_escape_after_choosing_a_pawn_gives_the_focus_back_to_it(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    now = reach(page, lambda now: any(pawn_actions(move) for move in now["moves"]))
    pawn = next(action["pawn"] for move in now["moves"] for action in pawn_actions(move))
    focus_pawn(page, pawn)
    page.keyboard.press("Enter")
    assert page.evaluate(ACTIVE).startswith("mark:")
    page.keyboard.press("Escape")
    assert page.evaluate("() => window.pardonGame.selection.pawn") is None
    assert page.evaluate(ACTIVE) == f"pawn:{pawn}"
    # Enter on a ring: the focus waits on the turn banner at once, not on the body while the move is shown
    page.keyboard.press("Enter")
    page.locator(".mark").first.focus()
    page.keyboard.press("Enter")
    assert page.evaluate(ACTIVE) == "turn"
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")


def test_the_same_turn_drawn_again_after_a_reconnect_keeps_the_focus(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    now = wait_my_turn(page)
    page.wait_for_function(READY)
    cards = page.locator("#hand button:not([disabled])")
    assert cards.count() >= 2, "a hand with a choice of cards"
    card = cards.nth(1)
    card.focus()
    chosen = card.get_attribute("data-card")
    page.evaluate("() => window.pardonGame.socket.close()")  # a dropped connection: the page reconnects
    page.wait_for_function("() => window.pardonGame.socket && window.pardonGame.socket.readyState === 1")
    page.wait_for_function(READY)
    page.wait_for_timeout(300)
    assert state(page)["event"] == now["event"]
    assert page.evaluate(ACTIVE) == f"card:{chosen}"


def test_escape_from_the_pawns_goes_back_to_the_hand(live_server: Any, page: Any) -> None:
    """The hand comes after the board in the page, so Shift+Tab from a pawn never reaches it:
    with nothing half-made, Escape takes a keyboard player back to the card they chose."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    wait_my_turn(page)
    page.wait_for_function(READY)
    cards = page.locator("#hand button:not([disabled])")
    assert cards.count() >= 2, "a hand with a choice of cards"
    for index in range(cards.count()):  # a card with a pawn to move: the keyboard goes on to it
        card = cards.nth(index)
        card.focus()
        page.keyboard.press("Enter")
        if page.evaluate(ACTIVE).startswith("pawn:"):
            break
    else:
        pytest.fail("no card of the hand moves a pawn")
    chosen = card.get_attribute("data-card")
    assert "(Escape: choose another card)" in (page.locator("#prompt").text_content() or "")
    page.keyboard.press("Escape")
    assert page.evaluate(ACTIVE) == f"card:{chosen}"
    other = cards.nth(0 if index else 1)
    other.focus()
    page.keyboard.press("Enter")  # another card chosen from there
    assert page.evaluate("() => window.pardonGame.card") == other.get_attribute("data-card")


def test_every_move_is_said_in_a_log_none_replacing_another(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=4)
    open_game(page, game["seats"][0]["link"])
    live = page.locator("#live")
    assert live.get_attribute("role") == "log" and live.get_attribute("aria-relevant") == "additions"
    for _ in range(3):
        now = wait_my_turn(page)
        play_by_clicks(page, furthest(now["moves"]))
    wait_my_turn(page)
    lines = live.locator("p").all_inner_texts()
    for colour in ("Blue", "Yellow", "Green"):
        assert any(line.startswith(colour) for line in lines), (colour, lines)
    assert any(line.startswith("Your turn: you drew") for line in lines), lines
    assert all(re.search(r"[.!?:]$", line) for line in lines), lines  # each said as a sentence
    assert all(line.count("back to Start") <= 1 for line in lines), lines
    assert len(lines) <= 20


def test_a_pawn_to_switch_with_says_so(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=37, players=2)  # an 11 to switch at event 40
    open_game(page, game["seats"][0]["link"])
    now = reach(page, switch_eleven)
    move = switch_eleven(now)
    assert move is not None
    action = next(action for action in move["actions"] if action["kind"] == "switch")
    focus_pawn(page, action["pawn"])
    page.keyboard.press("Enter")
    colour, where = action["target"].split(":")
    target = page.locator(f'.pawn.target[data-key="{action["target"]}"][tabindex="0"]')
    expect(target).to_have_accessible_name(f"Switch with {colour.capitalize()}'s pawn on {where}")
    # a focusable pawn is named once: no <title> repeats its name
    assert page.locator(".pawn title, .mark title").count() == 0


def test_the_board_keeps_its_empty_places_quiet_and_sums_up_the_pawns(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    wait_my_turn(page)
    hidden = page.locator(".layer-track").get_attribute("aria-hidden")
    assert hidden == "true"
    assert page.locator(".layer-pawns").get_attribute("aria-hidden") is None
    summary = page.locator("#board-summary")
    expect(summary).to_have_text(re.compile(r"Red: .*\. Yellow: .*\."))
    assert page.locator("svg.board").get_attribute("aria-describedby") == "board-summary"
    now = wait_my_turn(page)
    play_by_clicks(page, furthest(now["moves"]))
    wait_my_turn(page)
    pawns = state(page)["position"]["pawns"]["red"]
    text = summary.inner_text()
    for where in pawns:
        if isinstance(where, int):
            assert f"on square {where} (" in text, text
    # the heading says the game in words, not its id
    heading = page.get_by_role("heading", level=1)
    expect(heading).to_have_accessible_name("Sorry! · Classic: Red (you) and Yellow (computer)")
    assert game["id"] in heading.inner_text()  # still in sight


def test_the_coach_keeps_the_focus_in_reach(quick_server: Server, page: Any) -> None:
    game = finished_against_a_computer(quick_server)
    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for()
    page.locator("ol.mistakes > li").first.get_by_role("button", name="Show on the board").click()
    page.locator("#board[data-reviewing]").wait_for()
    assert page.evaluate("() => document.activeElement.id") == "reviewing-text"
    # the better move's ring is to look at: no Tab stop, no button that does nothing
    assert page.locator(".mark.better-mark").count() >= 1
    assert page.locator(".mark.better-mark[tabindex], .mark.better-mark[role=button]").count() == 0
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "back-to-end"
    # a reload with the coach open puts the focus on its heading
    page.reload()
    page.wait_for_function(READY)
    page.locator("#coach[data-state=ready]").wait_for()
    assert page.evaluate("() => document.activeElement.id") == "coach-title"


def test_a_bump_of_your_pawn_is_said_once(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=2, players=4)  # a computer bumps a red pawn within 40 turns
    open_game(page, game["seats"][0]["link"])
    for _ in range(40):
        now = wait_my_turn(page)
        said = [line for line in page.locator("#live p").all_inner_texts() if "bumped your pawn" in line]
        if said:
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        raise AssertionError("no computer bumped a red pawn")
    line = said[0]
    assert line.count("back to Start") == 1 and line.count("bumped") == 1, line
    assert "(bumped your pawn: sends Red back to Start)" in line, line


def test_the_player_to_pass_the_device_to_is_named_once(live_server: Any, page: Any) -> None:
    seats = [{"kind": "hotseat", "name": "Mum"}, {"kind": "bot", "level": "greedy"}, {"kind": "hotseat", "name": "Sam"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    open_game(page, game["host_link"])
    page.locator("#show-hand").wait_for()
    who = {"red": "Mum (Red)", "yellow": "Sam (Yellow)"}[state(page)["decider"]]
    lines = page.locator("#live p").all_inner_texts()
    assert f"Pass the device to {who}." in lines, lines
    assert all(line.count(who) <= 1 for line in lines), lines


HOLDERS = """async () => {
  const board = await import("/static/board.js");
  const g = window.pardonGame;
  const position = structuredClone(g.state.position);
  const yellow = position.pawns.yellow.findIndex((where) => where !== "home");
  const red = position.pawns.red.findIndex((where) => where !== "home");
  position.tokens = {ice: {colour: "yellow", pawn: yellow}, fire: {colour: "red", pawn: red}};
  await board.showPosition(g.board, position);
  board.setFocusable(g.board, []);  // every pawn named by the board itself
  const name = (colour, index) => {
    const key = `${colour}:${position.pawns[colour][index]}`;
    return document.querySelector(`.pawn[data-key="${key}"]`).getAttribute("aria-label");
  };
  return [name("yellow", yellow), name("red", red), document.getElementById("board-summary").textContent];
}"""


def test_a_pawn_holding_the_fire_or_the_ice_says_so(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    wait_my_turn(page)
    page.wait_for_function(READY)
    ice, fire, summary = page.evaluate(HOLDERS)
    assert ice.startswith("Yellow pawn") and ice.endswith(", frozen by the Ice"), ice
    assert fire.startswith("Red pawn") and fire.endswith(", holding the Fire"), fire
    assert "frozen by the Ice" in summary and "holding the Fire" in summary, summary


def test_the_arrow_keys_walk_a_pawns_way_and_enter_asks_why_not(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    asked: list[str] = []
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framesent", lambda payload: asked.append(payload) if '"why"' in str(payload) else None
        ),
    )
    open_game(page, game["seats"][0]["link"])

    now = reach(page, lambda now: any(pawn_actions(move) for move in now["moves"]))
    pawn = next(action["pawn"] for move in now["moves"] for action in pawn_actions(move))
    focus_pawn(page, pawn)
    page.keyboard.press("Enter")
    page.wait_for_function("() => window.pardonGame.selection && window.pardonGame.selection.pawn")
    for _ in range(30):  # forward along the way until a place that is not marked
        page.keyboard.press("ArrowRight")
        if page.evaluate("() => document.activeElement.classList.contains('cursor-mark')"):
            break
    else:
        raise AssertionError("the arrows never left the marked places")
    cursor = page.locator(".cursor-mark")
    expect(cursor).to_have_accessible_name(re.compile(r": not a place this pawn can go\. Enter asks why not\.$"))
    assert cursor.is_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_contain_text("this pawn")
    page.wait_for_timeout(300)
    assert len(asked) == 1, asked  # the same question a click asks of the server
    assert page.evaluate("() => window.pardonGame.state.event") == now["event"]  # nothing moved
    page.keyboard.press("ArrowLeft")  # and back again
    assert page.evaluate(ACTIVE) != "body"


def fire_jump_offered(now: dict[str, Any]) -> bool:
    """Before the draw, the Fire pawn may jump: a move with a pawn action at the draw."""
    return now["stage"] != "card" and any(pawn_actions(move) for move in now["moves"])


def fire_on_mine(moves: list[Move]) -> Move:
    """A move that puts the Fire on one of Red's pawns, if one does; else ``furthest``."""
    for move in moves:
        if any(a["kind"] == "fire" and str(a.get("pawn") or "").startswith("red:") for a in move["actions"]):
            return move
    return furthest(moves)


def test_before_the_draw_the_draw_button_comes_first_and_a_token_choice_is_said(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=1, players=2, rules="modern")
    open_game(page, game["seats"][0]["link"])
    said_token = False
    for _ in range(200):
        now = wait_my_turn(page)
        if now["status"] == "finished":
            break
        page.wait_for_function(READY)
        if fire_jump_offered(now):
            focused = page.evaluate("() => [document.activeElement.tagName, document.activeElement.textContent]")
            assert focused == ["BUTTON", "Draw a card"], focused
            page.keyboard.press("Shift+Tab")  # the Fire pawn's jump is a Tab away
            assert page.evaluate(ACTIVE).startswith("pawn:")
            if said_token:
                return
        lines = page.locator("#live p").all_inner_texts()
        said_token = said_token or any(
            line.startswith(("You may put the Fire", "Before moving, the 1")) for line in lines
        )
        play_by_clicks(page, fire_on_mine(now["moves"]))
    raise AssertionError(f"no Fire jump before a draw (token choice said: {said_token})")
