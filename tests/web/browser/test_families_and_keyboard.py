"""A family at one screen, and a player without a mouse, in a real Chromium against a real ``pardon serve``.

Hands stay hidden until their player takes the device; partners are told whose turn and which
team; a card no pawn can use says why and what to do; a hint is asked once however often the
button is pressed; the keyboard's focus stays on the page after a move; Tab reaches a pawn that
cannot move too, and Enter on it says why; what happened is said aloud, your turn and your card
too; the end of a doubled partners game says who dropped out; and a browser that refuses
storage (private mode, cookies off) still creates a game and plays it.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect
from tests.web.browser.play_support import MOVE_EVERY, play_to_the_end
from tests.web.browser.test_game_page import (
    READY,
    Move,
    create_game,
    furthest,
    open_game,
    pawn_actions,
    place_key,
    play_by_clicks,
    play_until_hint_offered,
    press_until_played,
    split_seven,
    state,
    vs_computers,
    wait_my_turn,
)
from websockets.sync.client import connect


def test_a_hint_double_clicked_is_asked_for_once(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "classic", "seed": 4, "hints": True, "seats": seats})
    asked: list[str] = []
    page.on(
        "websocket",
        lambda socket: socket.on(
            "framesent", lambda payload: asked.append(payload) if '"hint"' in str(payload) else None
        ),
    )
    open_game(page, game["seats"][0]["link"])
    now = play_until_hint_offered(page)
    page.locator("#hint").dblclick()
    page.wait_for_function("() => window.pardonGame.hinted !== null")
    page.wait_for_timeout(300)
    assert [json.loads(frame)["type"] for frame in asked] == ["hint"]
    assert page.locator("#hint").get_attribute("aria-disabled") == "false"  # answered: it may be asked again
    assert state(page)["event"] == now["event"]
    page.wait_for_function(READY)


def test_a_hot_seat_hand_stays_hidden_until_its_player_takes_the_device(live_server: Any, page: Any) -> None:
    seats = [{"kind": "hotseat", "name": "Mum"}, {"kind": "bot", "level": "greedy"}, {"kind": "hotseat", "name": "Sam"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    open_game(page, game["host_link"])
    shown: set[str] = set()
    for _ in range(4):
        now = wait_my_turn(page)
        who = "Mum (Red)" if now["decider"] == "red" else "Sam (Yellow)"
        if now["decider"] not in shown or page.locator("#show-hand").count():
            # a new player's turn: the cards on screen are not theirs to see yet, nor anyone's
            expect(page.locator("#hand-wrap")).to_be_hidden()
            assert page.locator("#hand button").count() == 0
            assert page.locator("#moves-panel").is_hidden()  # the moves would tell the cards
            assert f"Pass the device to {who}" in page.locator("#prompt").inner_text()
            button = page.locator("#show-hand")
            assert button.inner_text() == f"Show {who}'s hand"
            assert page.evaluate("() => document.activeElement.id") == "show-hand"
            page.keyboard.press("Enter")  # the keyboard takes it too
            shown.add(now["decider"])
            # the focus goes on to the hand (or the only card's pawns or button), never the top of the page
            assert page.evaluate("() => document.activeElement.closest('#hand, #board, #choices') !== null")
        expect(page.locator("#hand-wrap")).to_be_visible()
        assert page.locator("#hand-title").inner_text() == f"{who}'s hand"
        move = furthest(now["moves"])
        if move["card"] != page.evaluate("() => window.pardonGame.card"):
            page.locator(f'#hand button[data-card="{move["card"]}"]').first.click()
        play_by_clicks(page, move)
        page.wait_for_function(READY)
        if state(page)["decider"] != now["decider"]:  # between two players' turns, no hand shows
            expect(page.locator("#hand-wrap")).to_be_hidden()
    assert shown == {"red", "yellow"}


def test_on_a_tablet_held_upright_the_one_thing_to_do_is_on_screen(live_server: Any, browser: Any) -> None:
    """The hand's gate ("Show Mum's hand") sat below the screen of a 768x1024 tablet, where a
    grandparent would not think to scroll."""
    seats = [{"kind": "hotseat", "name": "Mum"}, {"kind": "hotseat", "name": "Sam"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    tablet = browser.new_context(viewport={"width": 768, "height": 1024}, has_touch=True, is_mobile=True)
    try:
        page = tablet.new_page()
        open_game(page, game["host_link"])
        gate = page.locator("#show-hand")
        gate.wait_for()
        box = gate.bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 1024 + 1, box  # a pixel's rounding
    finally:
        tablet.close()


def test_a_double_tap_never_plays_the_next_players_turn(live_server: Any, page: Any) -> None:
    """On one screen, a double tap on the only move (or Pass) once sent the second tap as the next
    player's move: the old button played against the new turn, or a new button drawn in the same
    place took the next player's choice before they held the device."""
    game = create_game(live_server, {"seed": 3, "seats": [{"kind": "hotseat"}, {"kind": "hotseat"}]})
    page.add_init_script("localStorage.setItem('pardon.autoPass', 'off')")  # a lone Pass waits, to be tapped twice
    open_game(page, game["host_link"])
    doubled = 0
    for _ in range(60):
        now = wait_my_turn(page)
        only = page.locator("#choices button.confirm, #choices button[data-move$='pass']")
        if len(now["moves"]) == 1 and now["card"] != "2" and only.count():  # a 2 draws again: the same player
            box = only.first.bounding_box()
            assert box is not None
            x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
            page.mouse.click(x, y)
            page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}", polling=10)
            page.mouse.click(x, y)  # the second tap of a double tap, landing as the turn has moved on
            page.wait_for_timeout(900)
            page.wait_for_function(READY)
            after = state(page)
            assert after["event"] == now["event"] + 1, "the second tap played the next player's turn"
            assert after["decider"] != now["decider"]
            doubled += 1
            if doubled == 3:
                return
            continue
        play_by_clicks(page, furthest(now["moves"]))
    raise AssertionError(f"only {doubled} single-move turns to double-tap")


def kinds(move: Move) -> set[str]:
    return {action["kind"] for action in move["actions"]}


def yellow_drops_out_of_blues_double(now: dict[str, Any], doubled: list[bool]) -> Move:
    """Red and Yellow race Home; late on, Blue doubles, Yellow drops out, the others accept."""
    moves, who = now["moves"], now["decider"]
    home = sum(where == "home" for colour in ("red", "yellow") for where in now["position"]["pawns"][colour])
    for move in moves:
        if "double" in kinds(move) and who == "blue" and not doubled and home >= 6:
            doubled.append(True)
            return move
        if kinds(move) & {"drop", "accept"} and ("drop" in kinds(move)) == (who == "yellow"):
            return move
    plain = [move for move in moves if not kinds(move) & {"double", "drop", "accept"}]
    if who in ("red", "yellow"):
        return furthest(plain)
    return plain[-1]  # Blue and Green dawdle


def play_hot_seat(server: Any, game: dict[str, Any], choose: Any, until: Any = None) -> dict[str, Any]:
    """Play every seat of a hot-seat game over the websocket with ``choose(state)`` until it is over
    (or ``until(state)``); that state."""
    address = f"ws://127.0.0.1:{server.port}{game['websocket']}"
    deadline = time.monotonic() + 120
    with connect(address, open_timeout=5) as socket:
        socket.send(json.dumps({"type": "hello", "token": game["host_token"], "since": 0}))
        sent, synced, now = -1, False, {}
        while time.monotonic() < deadline:
            message = json.loads(socket.recv(timeout=15))
            synced = synced or message["type"] == "sync"
            now = message.get("state", now)
            if message["type"] == "error":
                sent = -1
            if not synced:
                continue
            if now["status"] == "finished" or (until and now["moves"] and until(now)):
                return now
            if now["moves"] and now["event"] != sent:
                sent = now["event"]
                time.sleep(MOVE_EVERY)
                move = choose(now)["move"]
                socket.send(json.dumps({"type": "move", "move": move, "event": sent, "seat": now["decider"]}))
    raise AssertionError("the game did not finish in time")


def test_a_partner_who_dropped_out_of_a_double_is_not_said_to_win(quick_server: Any, page: Any) -> None:
    rules = "partners(scoring=1939,doubling=true)"
    game = create_game(quick_server, {"rules": rules, "seed": 2, "seats": [{"kind": "hotseat"}] * 4})
    doubled: list[bool] = []
    final = play_hot_seat(quick_server, game, lambda now: yellow_drops_out_of_blues_double(now, doubled))
    assert final["winner"] in ("red", "yellow") and final["position"]["doubling"]["out"] == ["yellow"]
    assert final["position"]["scores"]["yellow"] == 0  # docs/rules.md, "Points": who drops out scores nothing
    open_game(page, game["host_link"])
    page.locator("#game-over").wait_for(state="visible")
    assert page.locator("#winner").inner_text().strip() == "Red wins! (Yellow dropped out.)"
    assert page.locator("#winner .dot").evaluate_all("(dots) => dots.map((dot) => dot.classList[1])") == ["red"]
    assert "Yellow dropped out of the double and scores nothing." in page.locator("#result-note").inner_text()
    assert "Yellow (dropped out)" in page.locator("#final-scores").inner_text()
    assert page.locator("#turn").inner_text() == "Red wins! (Yellow dropped out.)"
    # the dialog is modal: Tab goes round its buttons, never to the page it covers
    for _ in range(12):
        page.keyboard.press("Tab")
        assert page.evaluate(
            "() => document.activeElement.closest('#game-over') !== null || document.activeElement === document.body"
        )
    page.keyboard.press("Escape")
    assert page.evaluate("() => document.activeElement.id") == "show-result"
    page.keyboard.press("Tab")  # the page is back in reach once the dialog is closed
    assert page.evaluate("() => document.activeElement.closest('#game-over') === null")


SPOKEN = (
    "() => { window.spoken = []; const live = document.getElementById('live');"
    " new MutationObserver(() => window.spoken.push(live.textContent))"
    ".observe(live, {childList: true, characterData: true, subtree: true}); }"
)


def test_a_card_no_pawn_can_use_says_why_and_what_happens(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=4)  # Red's first card cannot be used: every pawn is in Start
    page.emulate_media(reduced_motion="reduce")
    page.goto(game["seats"][0]["link"])
    page.wait_for_function("() => document.getElementById('prompt').textContent.includes('passing automatically')")
    prompt = page.locator("#prompt").inner_text()
    assert "only a 1, a 2 or a Sorry! brings a pawn out of Start" in prompt and "Your turn is over" in prompt
    spoken = page.locator("#live").inner_text()
    assert "Your turn: you drew" in spoken and "no pawn can use it" in spoken


def test_the_keyboard_keeps_its_place_and_hears_its_turn_and_its_pawns_bumped(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=2, players=4)
    open_game(page, game["seats"][0]["link"])
    page.evaluate(SPOKEN)
    for _ in range(40):
        now = wait_my_turn(page)
        if now["status"] == "finished":
            break
        spoken = page.evaluate("() => window.spoken")
        if any("bumped your pawn" in text for text in spoken):
            break
        assert f"Your turn: you drew {'a Sorry! card' if now['card'] == 'sorry' else ''}".strip() in spoken[-1]
        if page.evaluate("() => document.activeElement === document.body"):
            page.keyboard.press("Tab")
        press_until_played(page, now["event"])
        page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
        page.wait_for_function(READY)
        if state(page)["decider"] != "red":  # the move's controls are gone: the focus is still on the page
            focused = page.evaluate(
                "() => [document.activeElement.id, getComputedStyle(document.activeElement).outlineStyle]"
            )
            assert focused == ["turn", "solid"], focused
        page.evaluate("() => { window.spoken = []; }")
    else:
        raise AssertionError("no computer bumped a red pawn")
    bumped = next(text for text in page.evaluate("() => window.spoken") if "bumped your pawn" in text)
    assert "sends Red back to Start" in bumped


def test_partners_on_one_screen_see_the_team_and_who_plays_for_it_once_home(quick_server: Any, page: Any) -> None:
    game = create_game(quick_server, {"rules": "partners", "seed": 3, "seats": [{"kind": "hotseat"}] * 4})

    def all_home(now: dict[str, Any]) -> bool:
        pawns = now["position"]["pawns"][now["decider"]] if now["decider"] else []
        return bool(pawns) and all(where == "home" for where in pawns)

    open_game(page, game["host_link"])
    now = wait_my_turn(page)
    team = "Team Red and Yellow" if now["decider"] in ("red", "yellow") else "Team Blue and Green"
    assert page.locator("#turn .team-line").inner_text() == team
    reached = play_hot_seat(quick_server, game, furthest_of, until=all_home)
    page.reload()
    page.wait_for_function(READY)
    who, partner = (
        reached["decider"].capitalize(),
        {"red": "Yellow", "yellow": "Red", "blue": "Green", "green": "Blue"}[reached["decider"]],
    )
    line = page.locator("#turn .team-line").inner_text()
    assert line == f"All {who}'s pawns are Home: {who} plays {partner}'s pawns for the team."


def furthest_of(now: dict[str, Any]) -> Move:
    return furthest(now["moves"])


FOCUSED_PAWN = "() => document.activeElement.classList.contains('pawn') ? document.activeElement.dataset.key : null"


def test_the_keyboard_reaches_a_pawn_that_cannot_move_and_hears_why_not(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=4, players=2)
    open_game(page, game["seats"][0]["link"])
    for _ in range(100):  # a card that cannot bring a pawn out, with one waiting in Start and another to move
        now = wait_my_turn(page)
        reasons = now["why_not"].get(now["card"] or "", {})
        movable = {action["pawn"] for move in now["moves"] for action in pawn_actions(move)}
        if "red:start" in reasons and movable:
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        raise AssertionError("no card that leaves a pawn in Start while another moves")
    page.wait_for_function(READY)
    # the decision begins where it always has: on a pawn that can move, or the one move's button
    assert page.evaluate(FOCUSED_PAWN) in movable or page.evaluate(
        "() => document.activeElement.closest('#choices') !== null"
    )
    reached: list[str] = []
    for _ in range(40):  # keyboard only: Tab round the page to the pawn in Start
        key = page.evaluate(FOCUSED_PAWN)
        if key == "red:start":
            break
        if key:
            reached.append(key)
        page.keyboard.press("Tab")
    else:
        raise AssertionError(f"Tab never reached the pawn in Start (reached {reached})")
    pawn = page.locator('.pawn[data-key="red:start"][tabindex="0"]')
    assert pawn.get_attribute("aria-disabled") == "true"
    assert "movable" not in (pawn.get_attribute("class") or "")
    card = "Sorry!" if now["card"] == "sorry" else now["card"]
    expect(pawn).to_have_accessible_name(f"Red pawn in Start: cannot move with the {card}")
    expect(page.get_by_role("button", name="Red pawn in Start: cannot move", disabled=True)).to_have_count(1)
    page.keyboard.press("Enter")
    message = page.locator("#message")  # role=alert: a screen reader says it at once
    expect(message).to_have_text(f"Why not? {reasons['red:start']}.")
    page.keyboard.press(" ")  # Space asks the same, and moves nothing either
    expect(message).to_have_text(f"Why not? {reasons['red:start']}.")
    page.wait_for_timeout(400)
    after = page.evaluate(
        "() => { const g = window.pardonGame; return {event: g.state.event, pending: g.pending,"
        " pawn: g.selection && g.selection.pawn, marks: document.querySelectorAll('.mark').length}; }"
    )
    assert after == {"event": now["event"], "pending": False, "pawn": None, "marks": 0}
    assert page.evaluate(FOCUSED_PAWN) == "red:start"  # the focus stays where the player asked
    # the pawns that can move are still a Tab away, and Enter on one goes on as before
    press_until_played(page, now["event"])
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")


REFUSING_STORAGE = """
for (const name of ["getItem", "setItem", "removeItem"]) {
  Storage.prototype[name] = () => { throw new DOMException("storage is off", "SecurityError"); };
}
"""


def test_a_browser_that_refuses_storage_still_creates_a_game_and_plays_it(live_server: Any, page: Any) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.add_init_script(REFUSING_STORAGE)
    page.emulate_media(reduced_motion="reduce")
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert page.evaluate("() => { try { localStorage.getItem('x'); return false; } catch { return true; } }")
    page.get_by_role("button", name="Create the online game").click()  # kept for a reload, if it could be
    page.locator("#game-lobby").wait_for()
    page.reload()
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url("**/play/**")
    page.wait_for_function(READY, timeout=15_000)
    assert page.evaluate("() => window.pardonGame.seats") == ["red"]  # the token from the link, kept nowhere
    now = wait_my_turn(page)
    box = page.locator("#auto-pass")
    ticked = box.is_checked()
    box.click()  # not kept for the next visit, but for this page it stands
    expect(box).to_be_checked(checked=not ticked)
    now = wait_my_turn(page)
    play_by_clicks(page, furthest(now["moves"]))
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    expect(box).to_be_checked(checked=not ticked)
    assert errors == []


def test_the_pawn_that_moved_first_in_a_split_7_says_why_it_takes_no_more(live_server: Any, page: Any) -> None:
    """Half a split 7 made, the pawn that moved says what a player needs to hear (to a screen reader,
    and on Enter): it has had its share of the 7, and the rest must move another pawn."""
    game = vs_computers(live_server, seed=11, players=2)  # a 7 to split at event 18
    open_game(page, game["seats"][0]["link"])
    for _ in range(300):  # reach a 7 that can be split, without playing it
        now = wait_my_turn(page)
        if split_seven(now):
            break
        play_by_clicks(page, furthest(now["moves"]))
    move = split_seven(now)
    assert move is not None
    first, _ = pawn_actions(move)
    page.locator(f'.pawn[data-key="{first["pawn"]}"]').first.click(force=True)
    page.locator(f'.mark[data-place="{place_key(first)}"]').click(force=True)
    page.wait_for_function("() => window.pardonGame.selection.chosen.length === 1")
    moved, rest = first["steps"], 7 - first["steps"]
    why = f"moved {moved} already with this 7: the other {rest} must move another pawn"
    pawn = page.locator(f'.pawn[data-key="{first["pawn"]}"][tabindex="0"]')
    where = first["pawn"].split(":")[1]
    expect(pawn).to_have_accessible_name(f"Red pawn on {where}: {why}")
    assert pawn.get_attribute("aria-disabled") == "true"
    pawn.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_text(f"That pawn {why}.")
    # no pawn is left with the vague words: each says why it cannot, or that it can
    labels = page.locator(".pawn[tabindex]").evaluate_all("pawns => pawns.map(p => p.getAttribute('aria-label'))")
    assert labels and not any("rest of the move" in label for label in labels), labels
    assert page.evaluate("() => window.pardonGame.selection.chosen.length") == 1  # asking changed nothing


def test_a_double_of_a_doubled_game_says_what_the_scores_would_count(quick_server: Any, page: Any) -> None:
    """Red doubles, Yellow accepts and doubles again: Red is asked to stake ×4, not "double"."""
    rules = "classic(scoring=1939,doubling=true)"
    game = create_game(quick_server, {"rules": rules, "seed": 2, "seats": [{"kind": "hotseat"}] * 2})

    def redoubled(now: dict[str, Any]) -> bool:
        return now["stage"] == "answering" and now["position"]["doubling"]["stake"] == 2

    def double_and_accept(now: dict[str, Any]) -> Move:
        wanted = next((move for move in now["moves"] if kinds(move) & {"double", "accept"}), None)
        return wanted or furthest(now["moves"])

    play_hot_seat(quick_server, game, double_and_accept, until=redoubled)
    open_game(page, game["host_link"])
    prompt = page.locator("#prompt")
    expect(prompt).to_contain_text(
        "Yellow doubled the stakes: accept, and every score of this game counts ×4 (×2 until now)"
    )


def test_a_hot_seat_tables_names_are_on_the_buttons_and_the_winner(live_server: Any, page: Any) -> None:
    """At one screen, Sam's move button said "Play: Yellow plays…" and the log "Yellow wins!"."""
    seats = [{"kind": "hotseat", "name": "Ann"}, {"kind": "hotseat", "name": "Sam"}]
    game = create_game(live_server, {"seed": 3, "seats": seats})
    open_game(page, game["host_link"])
    for _ in range(12):  # a few turns each: every move's words name the player as the table does
        now = wait_my_turn(page)
        who = {"red": "Ann (Red)", "yellow": "Sam (Yellow)"}[now["decider"]]
        said = page.locator("#choices button, #moves button").all_inner_texts()
        played = [text for text in said if " plays " in text]
        assert all(text.removeprefix("Play: ").startswith(f"{who} plays") for text in played), (who, played)
        play_by_clicks(page, furthest(now["moves"]))
    final = play_to_the_end(live_server, game, game["host_token"], furthest)
    winner = {"red": "Ann", "yellow": "Sam"}[final["winner"]]
    expect(page.locator("#log")).to_contain_text(f"{winner} wins")
    said = page.locator("#log").inner_text()
    assert "Yellow wins" not in said and "Red wins" not in said
