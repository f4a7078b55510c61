"""Who is who and what happened, in a real Chromium against a real ``pardon serve``.

The move log reads the same after a reload; computer levels have players' names; computer
seats name their colour; hot-seat names are used; partners see their teams, their partner's
pawns in the log and their team's win; a double is offered in words before the draw; and
the end of a game and the wait for a friend lead somewhere.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from threading import Thread
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect
from tests.web.browser.accessibility import serious_problems
from tests.web.browser.play_support import play_to_the_end, wait_finished
from tests.web.browser.test_game_page import (
    READY,
    create_game,
    furthest,
    open_game,
    pawn_actions,
    play_by_clicks,
    state,
    vs_computers,
    wait_my_turn,
)
from websockets.sync.client import connect

from pardon.web.names import LEVEL_NAMES

PLAY_URL = re.compile(r"/play/(?P<id>[A-Za-z0-9_-]+)#token=")


def log_lines(page: Any) -> list[str]:
    lines: list[str] = page.locator("#log li").all_inner_texts()
    return lines


def test_the_move_log_reads_the_same_after_a_reload(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=4)  # Red's first card cannot be used: passed by itself
    open_game(page, game["seats"][0]["link"])
    for _ in range(4):
        now = wait_my_turn(page)
        play_by_clicks(page, furthest(now["moves"]))
    wait_my_turn(page)
    before = log_lines(page)
    assert any("passed automatically" in line for line in before)
    page.reload()
    page.wait_for_function(READY)
    assert log_lines(page) == before
    assert not any(re.search(r": \d+ \S+-\S+", line) for line in log_lines(page))  # no notation ("Red: 4 4-0")


def test_computer_levels_have_players_names_and_a_line_each(live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    levels = page.get_by_label("Computer level", exact=True)
    assert levels.locator("option").all_inner_texts() == ["Beginner", "Easy", "Medium", "Hard", "Patient", "Expert"]
    assert page.evaluate("async () => (await import('/static/site.js')).LEVEL_NAMES") == LEVEL_NAMES
    about = page.locator("#level-about").inner_text()
    assert about.startswith("Hard: ") and "Recommended" in about
    levels.select_option("random")
    assert page.locator("#level-about").inner_text().startswith("Beginner: plays any legal move")
    assert "(Beginner)" in page.locator("#quick-summary").inner_text()


def test_computer_players_are_named_by_colour_and_level(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "expectimax"}, {"kind": "bot", "level": "random"}]
    game = create_game(live_server, {"seed": 3, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    lines = page.locator("#seats li").all_inner_texts()
    assert "Blue computer (Hard)" in lines[1] and "Yellow computer (Beginner)" in lines[2]
    assert "Red (you)" in lines[0]
    assert "expectimax" not in page.locator("#seats").inner_text()


def test_hot_seat_names_are_used_in_the_banner_and_the_win(live_server: Any, page: Any) -> None:
    seats = [{"kind": "hotseat", "name": "Ann"}, {"kind": "hotseat", "name": "Bob"}]
    game = create_game(live_server, {"seed": 9, "seats": seats})
    page.add_init_script("localStorage.setItem('pardon.autoPass', 'off')")  # each turn waits for its player
    open_game(page, game["host_link"])
    now = wait_my_turn(page)
    who = {"red": "Ann (Red)", "yellow": "Bob (Yellow)"}
    assert page.locator("#turn").inner_text().strip() == f"{who[now['decider']]} to play"
    assert page.locator("#pass-device").inner_text() == f"Pass the device to {who[now['decider']]}"
    page.reload()  # a reload (or the presence message that follows a connection) once took it away
    wait_my_turn(page)
    page.wait_for_timeout(800)
    expect(page.locator("#pass-device")).to_have_text(f"Pass the device to {who[now['decider']]}")
    assert "(you)" not in page.locator("#seats").inner_text()
    assert "Ann (Red)" in page.locator("#seats").inner_text()
    # on a shared screen "you" is whoever holds it: another colour's pawn names the player to move
    other = "yellow" if now["decider"] == "red" else "red"
    page.locator(f'.pawn[data-key^="{other}:"]').first.click(force=True)
    expect(page.locator("#message")).to_have_text(
        f"That is {other.capitalize()}'s pawn: it is {who[now['decider']]}'s turn."
    )
    # the log names the player as the banner does ("Ann (Red) plays a 1"), not by colour alone
    first = who[now["decider"]]
    play_by_clicks(page, furthest(now["moves"]))
    page.wait_for_function(READY)
    assert page.locator("#log li").last.inner_text().startswith(f"{first} ")


def test_a_long_name_without_spaces_fits_a_phone(live_server: Any, browser: Any) -> None:
    """A name of 40 letters with no space to break at (an e-mail address, say) wraps: the page
    stays as wide as the phone, the board and the lobby's Join button in view."""
    long = "Wolfeschlegelsteinhausenbergerdorffwelch"
    phone = browser.new_context(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    try:
        page = phone.new_page()
        game = create_game(live_server, {"seed": 9, "seats": [{"kind": "hotseat", "name": long}] * 2})
        open_game(page, game["host_link"])
        wait_my_turn(page)
        assert long in page.locator("#turn").inner_text()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        public = {"public": True, "seats": [{"kind": "human", "name": long}, {"kind": "open"}]}  # the host, named
        listed = create_game(live_server, public)
        page.goto(live_server.url + "/lobby")
        join = page.locator(f"[data-game='{listed['id']}']").get_by_role("button", name="Join as Yellow", exact=True)
        expect(join).to_be_visible()
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        assert join.evaluate("node => node.getBoundingClientRect().right") <= 375
    finally:
        phone.close()


def test_a_hot_seat_winner_is_named(quick_server: Any, page: Any) -> None:
    seats = [{"kind": "hotseat", "name": "Ann"}, {"kind": "bot", "level": "random"}]
    game = create_game(quick_server, {"seed": 9, "seats": seats})
    final = play_to_the_end(quick_server, game, game["host_token"], furthest)
    open_game(page, game["host_link"])
    page.locator("#game-over").wait_for(state="visible")
    who = {"red": "Ann (Red)", "yellow": "Yellow"}
    assert page.locator("#winner").inner_text().strip() == f"{who[final['winner']]} wins!"
    assert final["winner"] == "red"  # this seed: Ann, not the computer


def test_partners_see_their_teams_their_partners_pawns_and_their_teams_win(
    quick_server: Any, page: Any, artefacts: Path
) -> None:
    seats = [{"kind": "bot", "level": "greedy"}] * 4
    game = create_game(quick_server, {"rules": "partners", "seed": 7, "seats": seats})
    open_game(page, game["spectator_link"])  # someone watching: the computers begin
    wait_finished(quick_server, game["id"])
    page.reload()
    page.wait_for_function(READY)
    assert page.locator("#teams").inner_text().startswith("Partners: Red and Yellow against Blue and Green")
    partners_pawns = [line for line in log_lines(page) if re.search(r"(Red|Blue|Yellow|Green)'s pawn", line)]
    assert partners_pawns, "the log names a partner's pawn moved"
    mover, owner = re.match(r"(\w+) plays .*?(\w+)'s pawn", partners_pawns[0]).groups()  # type: ignore[union-attr]
    assert {mover, owner} in ({"Red", "Yellow"}, {"Blue", "Green"})  # always the mover's partner
    winner = state(page)["winner"]
    team = "Red and Yellow" if winner in ("red", "yellow") else "Blue and Green"
    page.locator("#game-over").wait_for(state="visible")
    assert page.locator("#winner").inner_text().strip() == f"{team} win!"
    dots = page.locator("#winner .dot").evaluate_all("(dots) => dots.map((dot) => dot.classList[1])")
    assert dots == team.lower().split(" and ")  # both partners' colours, not the winner's alone
    page.locator("#game-over .dialog").screenshot(path=str(artefacts / "game-partners-win.png"))


def test_a_double_is_offered_in_words_before_the_draw(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "classic(scoring=1939,doubling=true)", "seed": 3, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    for _ in range(60):
        now = wait_my_turn(page)
        if any(move["move"] == "double" for move in now["moves"]):
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        raise AssertionError("Red was never offered a double")
    buttons = page.locator("#choices button").all_inner_texts()
    assert sorted(buttons) == ["Double the stakes", "Draw a card"]
    prompt = page.locator("#prompt").inner_text()
    assert "No pawn can use" not in prompt and "Double the stakes before you draw" in prompt
    assert page.locator("#card-name").inner_text() == "No card drawn"
    page.locator("#choices button", has_text="Draw a card").click()
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    assert state(page)["card"] is not None or state(page)["decider"] != "red"  # the card is drawn


def test_the_home_page_turns_doubling_on(live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.locator("label[for=players-2]").click()
    page.get_by_label("Doubling").check()
    assert "Classic rules with doubling" in page.locator("#quick-summary").inner_text()
    assert page.locator("#hotseat .rules-name").inner_text() == "Classic with doubling"
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(PLAY_URL)
    game_id = PLAY_URL.search(page.url)["id"]  # type: ignore[index]
    assert live_server.rest(f"/api/games/{game_id}")["rules"] == "classic(scoring=1939,doubling=true)"


def test_the_result_closed_stays_closed_across_a_reload(quick_server: Any, page: Any) -> None:
    """The end-of-game dialog came back over the board (or the coach) at every reload."""
    game = create_game(quick_server, {"seed": 6, "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    play_to_the_end(quick_server, game, game["seats"][0]["token"], furthest)
    open_game(page, game["seats"][0]["link"])
    dialog, after = page.locator("#game-over"), page.locator("#after-game")
    dialog.wait_for(state="visible")
    page.get_by_role("button", name="See the board").click()
    page.reload()
    page.wait_for_function("() => window.pardonGame && window.pardonGame.state && window.pardonGame.ready")
    expect(after).to_be_visible()
    assert dialog.is_hidden()
    after.get_by_role("button", name="The result").click()  # opened again: a reload shows it again
    expect(dialog).to_be_visible()
    page.reload()
    dialog.wait_for(state="visible")
    page.get_by_role("button", name="How the game went").click()
    page.reload()
    page.wait_for_function("() => window.pardonGame && window.pardonGame.state && window.pardonGame.ready")
    expect(page.locator("#coach-title")).to_be_in_viewport()
    assert dialog.is_hidden()


def test_doubling_is_not_offered_where_it_would_replace_the_games_own_points(live_server: Any, page: Any) -> None:
    """Doubling brings the 1939 points: ticked for an Adult game, it once swapped Adult's own 1992
    points for them without a word."""
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.locator("label[for=players-2]").click()
    page.get_by_label("Doubling").check()
    page.get_by_label("Rules", exact=True).select_option("adult")
    doubling = page.locator("#doubling")
    assert doubling.is_disabled()
    assert "not with Adult rules" in page.locator("#doubling-about").inner_text()
    assert "doubling" not in page.locator("#quick-summary").inner_text()
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(PLAY_URL)
    game_id = PLAY_URL.search(page.url)["id"]  # type: ignore[index]
    assert live_server.rest(f"/api/games/{game_id}")["rules"] == "adult"
    page.goto(live_server.url + "/")  # back to Classic, doubling is offered again, as it was described
    page.wait_for_selector("body[data-ready=true]")
    page.get_by_label("Rules", exact=True).select_option("classic")
    assert doubling.is_enabled() and "play for points" in page.locator("#doubling-about").inner_text()


def test_the_end_of_a_game_keeps_rematch_and_replay_in_reach(quick_server: Any, page: Any) -> None:
    game = create_game(quick_server, {"seed": 6, "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    play_to_the_end(quick_server, game, game["seats"][0]["token"], furthest)
    open_game(page, game["seats"][0]["link"])
    dialog = page.locator("#game-over")
    dialog.wait_for(state="visible")
    page.get_by_role("button", name="See the board").click()
    assert dialog.is_hidden()
    after = page.locator("#after-game")
    assert after.is_visible()
    assert after.get_by_role("button", name="Rematch").is_visible()
    assert after.get_by_role("link", name="Replay").get_attribute("href") == f"/replay/{game['id']}"
    assert serious_problems(page) == []
    after.get_by_role("button", name="The result").click()
    assert dialog.is_visible() and page.get_by_role("button", name="Rematch").first.is_visible()
    page.keyboard.press("Escape")  # closes it too, and the way back stays
    assert dialog.is_hidden() and after.is_visible()


def test_a_rematch_asked_for_by_one_player_is_offered_to_the_other(quick_server: Any, browser: Any) -> None:
    """Once Ann asks for a rematch, Bob's page at the end says so, rather than wait in silence."""
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    game = create_game(quick_server, {"seed": 9, "seats": seats})
    threads = [Thread(target=play_to_the_end, args=(quick_server, game, seat["token"])) for seat in game["seats"]]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    contexts = [browser.new_context() for _ in seats]
    try:
        ann, bob = (context.new_page() for context in contexts)
        for page, seat in zip((ann, bob), game["seats"], strict=True):
            open_game(page, seat["link"])
            page.locator("#game-over").wait_for(state="visible")
        ann.get_by_role("button", name="Rematch").click()
        ann.wait_for_url(lambda url: game["id"] not in url)
        expect(bob.locator("#rematch-message")).to_have_text("A rematch has been made: join it here.")
        bob.get_by_role("button", name="Join the rematch").click()
        bob.wait_for_url(ann.url.split("#")[0] + "#token=*")
    finally:
        for context in contexts:
            context.close()


def test_a_game_waiting_for_a_named_friend_names_them(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": "Ann"}, {"kind": "human", "name": "Bob"}]
    game = create_game(live_server, {"seed": 9, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    assert page.locator("#turn").inner_text() == "Waiting for Bob (Yellow) to join"  # once "for Yellow"


def test_a_game_waiting_for_one_friend_does_not_wait_for_one_who_came_and_went(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human", "name": name} for name in ("Ann", "Bob", "Cat")]
    game = create_game(live_server, {"seed": 9, "seats": seats})
    with connect(f"ws://127.0.0.1:{live_server.port}{game['websocket']}", max_size=2**24) as ann:
        ann.send(json.dumps({"type": "hello", "token": game["seats"][0]["token"]}))
        assert json.loads(ann.recv(timeout=10))["type"] == "welcome"  # Ann's seat is hers: she has come, and gone
    open_game(page, game["seats"][1]["link"])
    assert page.locator("#turn").inner_text() == "Waiting for Cat (Yellow) to join"  # once Ann too
    assert page.locator("#seats li[data-colour=red] .status").inner_text() == "joined, not here now"
    assert page.locator("#seats li[data-colour=yellow] .status").inner_text() == "invited, not joined yet"


def test_a_game_waiting_for_a_friend_shows_no_card(live_server: Any, page: Any) -> None:
    game = create_game(live_server, {"seed": 9, "seats": [{"kind": "human"}, {"kind": "human"}]})
    open_game(page, game["seats"][0]["link"])
    assert page.locator("#turn").inner_text() == "Waiting for Yellow to join"
    assert page.locator("#big-card").inner_text() == "—"
    assert page.locator("#card-text").inner_text() == ""
    assert "empty" in (page.locator(".card-face-up").get_attribute("class") or "")
    assert page.locator(".card-number").text_content() == ""
    # nobody has drawn: the whole pack, nothing discarded (once "44 left", "1 discarded")
    assert page.locator(".pile-label").all_text_contents() == ["45 left", "0 discarded"]


def test_passing_automatically_is_offered_once_the_game_is_under_way(
    live_server: Any, page: Any, artefacts: Path
) -> None:
    game = create_game(live_server, {"seed": 9, "seats": [{"kind": "human"}, {"kind": "human"}]})
    open_game(page, game["seats"][0]["link"])
    assert page.locator("#auto-pass-row").is_hidden()  # nothing to pass while waiting for Yellow
    page.screenshot(path=str(artefacts / "game-waiting.png"))
    with connect(f"ws://127.0.0.1:{live_server.port}{game['websocket']}", open_timeout=5) as friend:
        friend.send(json.dumps({"type": "hello", "token": game["seats"][1]["token"], "since": 0}))
        page.wait_for_function("() => window.pardonGame.state.status === 'playing'")
        page.wait_for_function(READY)
        expect(page.locator("#auto-pass-row")).to_be_visible()
        card = state(page)["card"]
        assert card and page.locator(".card-number").text_content() == ("S!" if card == "sorry" else card)
        assert page.locator(".pile-label").all_text_contents() == ["44 left", "1 discarded"]  # the card turned up


def test_the_home_page_offers_the_rules_options_of_each_edition(live_server: Any, page: Any) -> None:
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.locator("label[for=players-2]").click()
    page.locator(".rule-options summary").click()
    page.get_by_label("Point Scoring Sorry! (1939)").check()
    page.get_by_label("A Sorry! may instead move one of your pawns forward 4").check()
    page.get_by_label("Any forward card brings a pawn out of Start").check()
    summary = page.locator("#quick-summary").inner_text()
    assert summary.startswith("Classic rules with Point Scoring, any forward card leaves Start, Sorry! or forward 4,")
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(PLAY_URL)
    game_id = PLAY_URL.search(page.url)["id"]  # type: ignore[index]
    rules = "classic(leave_start=forward-count,sorry_forward_4=true,scoring=1939)"
    assert live_server.rest(f"/api/games/{game_id}")["rules"] == rules
    page.goto(live_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.select_option("#preset", "modern")  # 2013 already has both: only what it lacks is offered
    offered = page.locator("#rule-options label").all_text_contents()
    diamonds = "The older board, with a diamond on each short slide (as drawn in 1939; play is the same)"
    assert offered == ["Point Scoring Sorry! (1939): the game is scored in points", diamonds]
    page.select_option("#preset", "classic-1939")  # its board has the diamonds already
    assert diamonds not in page.locator("#rule-options label").all_text_contents()
    page.select_option("#preset", "partners")
    page.locator(".rule-options summary").click()
    page.get_by_label("Partners may split a 7 among any number of the team's pawns").check()
    assert "you play Red with Yellow (computer" in page.locator("#quick-summary").inner_text()  # a partner, not a foe
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(PLAY_URL)
    game_id = PLAY_URL.search(page.url)["id"]  # type: ignore[index]
    assert live_server.rest(f"/api/games/{game_id}")["rules"] == "partners(partner_split=any)"


def test_a_player_asked_to_accept_a_double_is_told_dropping_out_scores_nothing(live_server: Any, page: Any) -> None:
    seats = [{"kind": "hotseat"}, {"kind": "hotseat"}]
    game = create_game(live_server, {"rules": "classic(scoring=1939,doubling=true)", "seed": 3, "seats": seats})
    open_game(page, game["host_link"])
    now = wait_my_turn(page)
    page.get_by_role("button", name="Double the stakes").click()
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    wait_my_turn(page)
    prompt = page.locator("#prompt").inner_text()
    assert "drop out, and score nothing for this game" in prompt and "lose only" not in prompt
    assert sorted(page.locator("#choices button").all_inner_texts()) == ["Accept the double", "Drop out"]


def card_panel(page: Any) -> tuple[str, str, str]:
    """The card beside the board as a player reads it: its face, its name line, and what it does."""
    return (
        page.locator("#big-card").inner_text(),
        page.locator("#card-name").inner_text(),
        page.locator("#card-text").inner_text(),
    )


def test_a_hand_turn_shows_the_card_chosen_and_never_says_no_card_drawn(live_server: Any, page: Any) -> None:
    """In a game with hands nothing is drawn before it is played: at each step of a turn the card
    panel (and the board's card) shows the card chosen from the hand, or says none is chosen yet."""
    seats = [{"kind": "hotseat", "name": "Mum"}, {"kind": "hotseat", "name": "Sam"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    open_game(page, game["host_link"])
    names = {"red": "Mum (Red)", "yellow": "Sam (Yellow)"}
    texts: dict[str, str] = {}
    for _ in range(4):
        now = wait_my_turn(page)
        who = names[now["decider"]]
        assert now["card"] is None
        if page.locator("#show-hand").count():  # the hand face down until its player holds the device
            assert card_panel(page) == ("—", f"{who} chooses a card from their hand", "")
            page.locator("#show-hand").click()
        texts.update(state(page)["hand_texts"])
        chosen = page.evaluate("() => window.pardonGame.card")  # the only card that can be played is chosen for you
        if chosen is None:
            assert card_panel(page) == ("—", "No card chosen yet", "")
        move = furthest(now["moves"])
        label = "Sorry!" if move["card"] == "sorry" else move["card"]
        if move["card"] != chosen:
            page.locator(f'#hand button[data-card="{move["card"]}"]').first.click()
        shown = (label, f"Card: {label}", texts[move["card"]])
        assert card_panel(page) == shown
        assert page.locator(".card-number").text_content() == ("S!" if label == "Sorry!" else label)
        pawns = pawn_actions(move)
        if pawns:  # a pawn chosen, its places marked: still the same card
            page.locator(f'.pawn[data-key="{pawns[0]["pawn"]}"]').first.click(force=True)
            page.wait_for_function("() => window.pardonGame.selection && window.pardonGame.selection.pawn")
            assert card_panel(page) == shown
        play_by_clicks(page, move)
        page.wait_for_function(READY)
        assert "No card drawn" not in page.locator("#card-name").inner_text()
    assert "No card drawn" not in " ".join(page.locator(".side").all_inner_texts())
