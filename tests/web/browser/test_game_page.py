"""The game page in a real Chromium against a real ``pardon serve``: games played by clicks and keys.

Each test creates its game over REST with a fixed seed, opens ``/play/{id}#token=...`` and
plays by clicking pawns and the marked destinations (or the Pass button), the way a person
does.  Which move to make is chosen from the legal moves the server sent to the page; the
page itself is only ever driven through the mouse and the keyboard.
"""

from __future__ import annotations

import json
import re
import signal
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect
from tests.web.web_support import SocketClient, token_of
from websockets.sync.client import connect

Move = dict[str, Any]
PAWN_KINDS = {"step", "switch", "sorry", "bonus-home"}
READY = "() => { const g = window.pardonGame; return g && g.ready && !g.pending; }"
MY_TURN = (
    "() => { const g = window.pardonGame; return g && g.ready && !g.pending && g.state"
    " && (g.state.status === 'finished' || (g.state.moves.length > 0 && g.seats.includes(g.state.decider))); }"
)


def create_game(server: Any, body: dict[str, Any]) -> dict[str, Any]:
    created: dict[str, Any] = server.rest("/api/games", body)
    return created


def vs_computers(server: Any, seed: int, players: int = 4, rules: str = "classic") -> dict[str, Any]:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "greedy"}] * (players - 1)
    return create_game(server, {"rules": rules, "seed": seed, "seats": seats})


def state(page: Any) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate("() => window.pardonGame.state")
    return found


def wait_my_turn(page: Any, timeout: float = 20_000) -> dict[str, Any]:
    page.wait_for_function(MY_TURN, timeout=timeout)
    return state(page)


def pawn_actions(move: Move) -> list[dict[str, Any]]:
    return [action for action in move["actions"] if action["kind"] in PAWN_KINDS]


def place_key(action: dict[str, Any]) -> str:
    landing = action["landing"]
    return f"sq:{landing}" if isinstance(landing, int) else f"{action['colour']}:{landing}"


def click_pawn(page: Any, key: str) -> None:
    page.locator(f'.pawn[data-key="{key}"]').first.click(force=True)


def click_place(page: Any, key: str) -> None:
    page.locator(f'.mark[data-place="{key}"]').click(force=True)


def play_by_clicks(page: Any, move: Move) -> None:
    """Make ``move`` as a player would: pawn, then destination (each part of a split), or its button."""
    event = state(page)["event"]
    actions = pawn_actions(move)
    if not actions:
        page.locator(f'#choices button[data-move="{move["move"]}"]').click()
    for action in actions:
        if state(page)["event"] != event:
            break
        selected = page.evaluate("() => window.pardonGame.selection && window.pardonGame.selection.pawn")
        if selected != action["pawn"]:
            click_pawn(page, action["pawn"])
        click_place(page, place_key(action))
    page.wait_for_timeout(50)
    extra = page.locator(f'#choices button[data-move="{move["move"]}"]')
    if state(page)["event"] == event and not page.evaluate("() => window.pardonGame.pending") and extra.count():
        extra.click()  # the same pawns to the same squares in more than one way (Fire, Ice)
    page.wait_for_function(f"() => window.pardonGame.state.event > {event}", timeout=10_000)


def furthest(moves: list[Move]) -> Move:
    """A simple player: the first move that moves a pawn, preferring bumps; pass if nothing else."""
    playing = [move for move in moves if not move["pass"]]
    bumping = [move for move in playing if move["bumps"]]
    return (bumping or playing or moves)[0]


def play_until(page: Any, done: Callable[[dict[str, Any]], Move | None], turns: int = 400) -> dict[str, Any]:
    """Play by clicks with ``furthest`` until ``done(state)`` names a move (made, then returned with the state)."""
    for _ in range(turns):
        now = wait_my_turn(page)
        if now["status"] == "finished":
            return now
        wanted = done(now)
        play_by_clicks(page, wanted or furthest(now["moves"]))
        if wanted is not None:
            page.wait_for_function(READY)
            return {"move": wanted, **state(page)}
    raise AssertionError("the wanted situation did not arise")


def play_until_hint_offered(page: Any, turns: int = 60) -> dict[str, Any]:
    """Play by clicks until a card gives a real choice (the Hint button is offered then): that state."""
    for _ in range(turns):
        now = wait_my_turn(page)
        if page.locator("#hint").count():
            return now
        play_by_clicks(page, furthest(now["moves"]))
    raise AssertionError("no turn with a choice of moves")


def open_game(page: Any, link: str, reduced_motion: bool = True) -> None:
    if reduced_motion:
        page.emulate_media(reduced_motion="reduce")
    page.goto(link)
    page.wait_for_function(READY, timeout=15_000)


def test_a_whole_game_against_three_computers_played_by_clicks(live_server: Any, page: Any, artefacts: Path) -> None:
    game = vs_computers(live_server, seed=11)
    open_game(page, game["seats"][0]["link"])
    assert page.locator(".square").count() == 60
    assert page.locator(".pawn").count() == 16
    assert page.locator(".slide").count() == 8
    shots = 0
    for turn in range(400):
        now = wait_my_turn(page)
        if now["status"] == "finished":
            break
        if turn in (15, 40) and shots < 2:
            page.screenshot(path=str(artefacts / f"game-whole-{turn}.png"))
            shots += 1
        play_by_clicks(page, furthest(now["moves"]))
    final = state(page)
    assert final["status"] == "finished"
    winner = final["winner"]
    assert final["position"]["pawns"][winner] == ["home"] * 4
    dialog = page.locator("#game-over")
    dialog.wait_for(state="visible")
    assert f"{winner.capitalize()} wins!" in dialog.inner_text()
    assert page.locator("#replay-link").get_attribute("href") == f"/replay/{game['id']}"
    assert page.locator("#record-link").get_attribute("href") == f"/api/games/{game['id']}/record"
    assert page.locator("#scorekeeper-link").get_attribute("href") == f"/scorekeeper?add={game['id']}"
    page.screenshot(path=str(artefacts / "game-over.png"))
    # the rematch keeps the token: the same seat of the new game
    page.locator("#rematch").click()
    page.wait_for_url(lambda url: f"/play/{game['id']}" not in url)
    assert page.url.endswith(f"#token={game['seats'][0]['token']}")
    page.wait_for_function(READY, timeout=15_000)
    assert state(page)["game"] != game["id"]
    assert page.evaluate("() => window.pardonGame.seats") == ["red"]


def split_seven(now: dict[str, Any]) -> Move | None:
    splits = [move for move in now["moves"] if len(pawn_actions(move)) == 2]
    return splits[-1] if now["card"] == "7" and splits else None


def switch_eleven(now: dict[str, Any]) -> Move | None:
    switches = [move for move in now["moves"] if any(a["kind"] == "switch" for a in move["actions"])]
    return switches[0] if now["card"] == "11" and switches else None


def test_a_split_seven_and_an_eleven_switch_made_on_the_board(live_server: Any, page: Any, artefacts: Path) -> None:
    game = vs_computers(live_server, seed=37, players=2)  # a 7 to split at event 36, an 11 to switch at 40
    open_game(page, game["seats"][0]["link"])
    split = play_until(page, split_seven)
    log = page.locator("#log li").all_inner_texts()
    assert split["move"]["text"] in log  # both parts, as chosen: "Red plays a 7: 20 to 23; 12 to 16"
    page.screenshot(path=str(artefacts / "game-split-seven.png"))
    switch = play_until(page, switch_eleven)
    assert "switches" in switch["move"]["text"]
    assert switch["move"]["text"] in page.locator("#log li").all_inner_texts()


def play_from_the_hand(page: Any, move: Move) -> None:
    """``move`` of a hand game: its card chosen from the hand first, then as :func:`play_by_clicks`."""
    if page.evaluate("() => window.pardonGame.card") != move["card"]:
        page.locator(f'#hand button[data-card="{move["card"]}"]').first.click()
    play_by_clicks(page, move)


def test_a_split_half_made_is_given_up_when_a_reconnect_brings_a_later_decision(live_server: Any, page: Any) -> None:
    """A phone that slept mid-split while another tab played the turn: the sync after its
    reconnect brought the later decision, and the old half-move was still shown."""
    game = vs_computers(live_server, seed=11, players=2)  # a 7 to split at event 18
    link = game["seats"][0]["link"]
    held: list[Any] = []
    blocking = {"on": False}

    def route(socket: Any) -> None:  # the page's websocket, through to the server unless it is cut off
        if blocking["on"]:
            held.append(socket)  # left unconnected: the page waits, as one that has lost the network
        else:
            socket.connect_to_server()

    page.route_web_socket(re.compile(r".*/ws/games/.*"), route)
    open_game(page, link)
    for _ in range(300):  # reach a 7 that can be split, without playing it
        now = wait_my_turn(page)
        if split_seven(now):
            break
        play_by_clicks(page, furthest(now["moves"]))
    first = pawn_actions(split_seven(now) or {"actions": []})[0]
    click_pawn(page, first["pawn"])
    click_place(page, place_key(first))
    page.wait_for_function("() => window.pardonGame.selection.chosen.length === 1")
    blocking["on"] = True
    page.evaluate("() => window.pardonGame.socket.close()")
    page.wait_for_function("() => window.pardonGame.socket.readyState === 1")  # connected to nothing
    other = live_server.url.replace("http", "ws") + game["websocket"]
    with connect(other) as connection:  # another tab of the same seat plays the turn meanwhile
        elsewhere = SocketClient(connection, token_of(game, "red"))
        elsewhere.until_event(now["event"])
        elsewhere.send_move(now["moves"][0]["move"])
        elsewhere.until_event(now["event"] + 1)
    blocking["on"] = False
    for socket in held:
        socket.close()  # the page reconnects, to the server this time, and is sent a sync
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    page.wait_for_function(READY)
    assert page.evaluate("() => (window.pardonGame.selection?.chosen ?? []).length") == 0
    assert page.locator(".pawn.selected").count() == 0


def test_a_split_seven_half_made_from_a_hand_survives_a_reload(live_server: Any, page: Any) -> None:
    """The kept part was made again before the card chosen from the hand was known: lost."""
    game = vs_computers(live_server, seed=4, players=2, rules="adult")
    open_game(page, game["seats"][0]["link"])
    for _ in range(200):
        now = wait_my_turn(page)
        split = next((move for move in now["moves"] if move["card"] == "7" and len(pawn_actions(move)) == 2), None)
        if split:
            break
        play_from_the_hand(page, furthest(now["moves"]))
    else:
        pytest.fail("no 7 to split in Red's hand")
    first = pawn_actions(split)[0]
    page.locator('#hand button[data-card="7"]').first.click()
    click_pawn(page, first["pawn"])
    click_place(page, place_key(first))
    chosen = "() => window.pardonGame.selection.chosen.length"
    page.wait_for_function(f"{chosen} === 1")
    prompt = page.locator("#prompt").inner_text()
    page.reload()
    page.wait_for_function(READY)
    page.wait_for_function(f"{chosen} === 1")
    assert page.evaluate("() => window.pardonGame.card") == "7"
    assert page.locator('#hand button[data-card="7"]').first.get_attribute("aria-pressed") == "true"
    assert page.locator("#prompt").inner_text() == prompt


def test_where_the_fire_goes_is_asked_again_after_a_reload(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2, rules="modern")
    open_game(page, game["seats"][0]["link"])

    def asks_where_the_token_goes(now: dict[str, Any]) -> list[Move]:
        by_pawns: dict[str, list[Move]] = {}
        for move in now["moves"]:
            if pawn_actions(move) and now["stage"] == "card":
                by_pawns.setdefault(json.dumps(pawn_actions(move), sort_keys=True), []).append(move)
        return next((same for same in by_pawns.values() if len(same) > 1), [])

    for _ in range(200):
        now = wait_my_turn(page)
        same = asks_where_the_token_goes(now)
        if same:
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        pytest.fail("no card for Red with a token to place")
    for action in pawn_actions(same[0]):
        click_pawn(page, action["pawn"])
        click_place(page, place_key(action))
    page.wait_for_function("() => window.pardonGame.tokenChoice !== null")
    prompt = page.locator("#prompt").inner_text()
    page.reload()
    page.wait_for_function(READY)
    page.wait_for_function("() => window.pardonGame.tokenChoice !== null")
    assert page.locator("#prompt").inner_text() == prompt
    assert page.locator("#choices button").count() == len(same) + 1  # each place, and Cancel


def test_the_second_part_of_a_split_offers_only_legal_completions(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=11, players=2)  # a 7 to split at event 18
    open_game(page, game["seats"][0]["link"])
    for _ in range(300):  # reach a 7 that can be split, without playing it
        now = wait_my_turn(page)
        if split_seven(now):
            break
        play_by_clicks(page, furthest(now["moves"]))
    move = split_seven(now)
    assert move is not None
    first, second = pawn_actions(move)
    chosen = "() => window.pardonGame.selection.chosen.length"
    click_pawn(page, first["pawn"])
    click_place(page, place_key(first))
    page.wait_for_function(f"{chosen} === 1")
    prompt = page.locator("#prompt").inner_text()
    page.reload()  # the part made is made again (it was thrown away)
    page.wait_for_function(READY)
    page.wait_for_function(f"{chosen} === 1")
    assert page.locator("#prompt").inner_text() == prompt  # "Split 7: now move another pawn the rest of the way."
    page.keyboard.press("Escape")  # started again: a reload now starts afresh too
    page.wait_for_function(f"{chosen} === 0")
    page.reload()
    page.wait_for_function(READY)
    assert page.evaluate(chosen) == 0
    click_pawn(page, first["pawn"])
    click_place(page, place_key(first))
    page.wait_for_function(f"{chosen} === 1")
    completions = {
        place_key(action)
        for other in now["moves"]
        if len(pawn_actions(other)) == 2 and first in pawn_actions(other)
        for action in pawn_actions(other)
        if action != first
    }
    if page.evaluate("() => window.pardonGame.selection.pawn") is None:
        click_pawn(page, second["pawn"])
    marked = set(page.locator(".mark").evaluate_all("marks => marks.map(m => m.dataset.place)"))
    assert marked <= completions and place_key(second) in marked
    click_place(page, place_key(second))
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    page.wait_for_function(READY)
    assert move["text"] in page.locator("#log li").all_inner_texts()


def wait_either_turn(pages: list[Any], timeout: float = 20_000) -> tuple[Any, dict[str, Any]]:
    """The page whose player is to move, and its state; a lone Pass is left to the page, which makes it by itself.

    Each page is asked in turn, since one may still show the move before the other's.
    """
    waited = 0.0
    while waited < timeout:
        for page in pages:
            if page.evaluate(MY_TURN):
                now = state(page)
                if now["status"] == "finished" or not (len(now["moves"]) == 1 and now["moves"][0]["pass"]):
                    return page, now
        pages[0].wait_for_timeout(100)
        waited += 100
    raise AssertionError("neither page came to its player's turn")


def test_two_players_online_each_see_the_others_moves(live_server: Any, browser: Any, artefacts: Path) -> None:
    game = create_game(live_server, {"seed": 21, "seats": [{"kind": "human"}, {"kind": "human"}]})
    contexts = [browser.new_context(viewport={"width": 1280, "height": 900}) for _ in range(2)]
    try:
        pages = [context.new_page() for context in contexts]
        pages[0].goto(game["seats"][0]["link"])
        pages[0].wait_for_function(READY)
        assert "Waiting for Yellow" in pages[0].locator("#turn").inner_text()
        pages[1].goto(game["seats"][1]["link"])
        moved = {"red": 0, "yellow": 0}
        for _ in range(12):
            mover, now = wait_either_turn(pages)
            watcher = pages[1 - pages.index(mover)]
            play_by_clicks(mover, furthest(now["moves"]))
            moved[now["decider"]] += 1
            event = state(mover)["event"]
            watcher.wait_for_function(f"() => window.pardonGame.state.event === {event}")
            text = state(mover)["last"]["text"]
            assert text in watcher.locator("#log").inner_text()
            assert state(watcher)["position"]["pawns"] == state(mover)["position"]["pawns"]
        assert moved["red"] and moved["yellow"]
        pages[1].screenshot(path=str(artefacts / "game-online-yellow.png"))
    finally:
        for context in contexts:
            context.close()


def test_a_reload_mid_game_resumes_and_play_continues(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=8, players=3)
    open_game(page, game["seats"][0]["link"], reduced_motion=False)
    for _ in range(4):
        now = wait_my_turn(page)
        play_by_clicks(page, furthest(now["moves"]))
    before = wait_my_turn(page)
    page.reload()
    after = wait_my_turn(page)
    assert after["event"] == before["event"]
    assert after["position"] == before["position"]
    assert page.locator(".pawn.movable").count() + page.locator("#choices button").count() > 0
    play_by_clicks(page, furthest(after["moves"]))
    assert state(page)["event"] > before["event"]
    # the token is remembered for the game: the page opens the seat without the fragment too
    page.goto(f"{live_server.url}/play/{game['id']}")
    page.wait_for_function(READY)
    assert page.evaluate("() => window.pardonGame.seats") == ["red"]


def press_until_played(page: Any, event: int) -> None:
    """Keyboard only: Tab to something that acts (a movable pawn, a mark, a button), Enter, until the move is made."""
    for _ in range(120):
        if page.evaluate(f"() => window.pardonGame.state.event > {event} || window.pardonGame.pending"):
            return
        focused = page.evaluate(
            "() => { const a = document.activeElement; if (!a) return '';"
            " if (a.classList.contains('mark')) return 'mark';"
            " if (a.classList && a.classList.contains('pawn') && a.classList.contains('movable')) return 'pawn';"
            " if (a.tagName === 'BUTTON' && a.closest('#choices')) return 'button'; return ''; }"
        )
        page.keyboard.press("Enter" if focused else "Tab")
    raise AssertionError("the keyboard could not make a move")


def test_keyboard_only_play_of_several_turns(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    for _ in range(6):
        now = wait_my_turn(page)
        page.locator("body").focus()
        press_until_played(page, now["event"])
        page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    assert state(page)["event"] >= 6
    assert page.locator("#live").inner_text().strip() != ""


def test_an_illegal_click_changes_nothing_and_says_why(live_server: Any, page: Any, artefacts: Path) -> None:
    game = vs_computers(live_server, seed=4, players=2)
    open_game(page, game["seats"][0]["link"])
    for _ in range(100):  # a card that cannot bring a pawn out, with one waiting in Start
        now = wait_my_turn(page)
        reasons = now["why_not"].get(now["card"] or "", {})
        movable = [a["pawn"] for m in now["moves"] for a in pawn_actions(m)]
        if "red:start" in reasons and movable:
            break
        play_by_clicks(page, furthest(now["moves"]))
    event = now["event"]
    click_pawn(page, "red:start")
    message = page.locator("#message")
    assert message.inner_text().startswith("Why not? ")
    assert reasons["red:start"] in message.inner_text()
    # a movable pawn, then a square that is not one of its destinations
    click_pawn(page, movable[0])
    page.wait_for_function("() => window.pardonGame.selection.pawn !== null")
    destinations = set(page.locator(".mark").evaluate_all("marks => marks.map(m => m.dataset.place)"))
    slid_to = {f"sq:{a['to']}" for m in now["moves"] for a in pawn_actions(m) if a["pawn"] == movable[0]}
    wrong = next(f"sq:{n}" for n in range(60) if f"sq:{n}" not in destinations | slid_to)
    page.locator(f'.square[data-place="{wrong}"]').click(force=True)
    # at once it says the square is not one; then, from the server, why: what the card does
    expect(message).to_have_text(re.compile(r"^That pawn cannot go there: [^.]+\. Choose a marked square, or "))
    page.screenshot(path=str(artefacts / "game-why-not-there.png"))
    page.keyboard.press("Escape")
    assert page.locator(".mark").count() == 0
    page.wait_for_timeout(300)
    assert state(page)["event"] == event
    page.screenshot(path=str(artefacts / "game-why-not.png"))


def test_pointing_at_the_end_of_a_slide_makes_the_move_that_slides_there(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=5, players=2)
    open_game(page, game["seats"][0]["link"])
    for _ in range(200):  # a move of one pawn that lands on a slide
        now = wait_my_turn(page)
        sliding = [m for m in now["moves"] if len(pawn_actions(m)) == 1 and pawn_actions(m)[0]["slide"]]
        if sliding:
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        raise AssertionError("no move onto a slide")
    action = pawn_actions(sliding[0])[0]
    click_pawn(page, action["pawn"])
    page.wait_for_function("() => window.pardonGame.selection.pawn !== null")
    page.locator(f'.square[data-place="sq:{action["to"]}"]').click(force=True)
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    last = page.evaluate("() => window.pardonGame.state.last")
    assert last["colour"] == "red" and last["actions"] == sliding[0]["actions"]


def test_a_refusal_is_cleared_once_the_game_moves_on(live_server: Any, browser: Any) -> None:
    """Two tabs of one seat: the second's move crosses the first's on the wire and is refused as a
    duplicate.  The refusal once stayed on the second tab turn after turn ("'3 4-7' was already
    played as event 3" under another card); it goes when the next decision is shown."""
    game = create_game(live_server, {"seed": 21, "seats": [{"kind": "human"}, {"kind": "human"}]})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script("localStorage.setItem('pardon.autoPass', 'off')")  # each turn waits for its player
    try:
        first, second, yellow = (context.new_page() for _ in range(3))
        for tab in (first, second):
            tab.goto(game["seats"][0]["link"])
        yellow.goto(game["seats"][1]["link"])
        for _ in range(20):  # to Red's turn
            for tab in (first, second, yellow):
                tab.wait_for_function(READY)
            if state(first)["decider"] == "red" and state(first)["status"] == "playing":
                break
            play_by_clicks(yellow, furthest(wait_my_turn(yellow)["moves"]))
        now = wait_my_turn(first)
        wait_my_turn(second)
        # everyone sees that Red's seat is open twice (a second tab, or a link passed on)
        expect(yellow.locator("#seats li[data-colour=red] .status")).to_have_text("here · open in 2 windows")
        move = furthest(now["moves"])
        play_by_clicks(first, move)
        heard = f"() => window.pardonGame.ready && window.pardonGame.state.event === {now['event'] + 1}"
        second.wait_for_function(heard)
        # the second tab's click of the same move, sent before it heard of the first's
        second.evaluate(
            "([move, event]) => window.pardonGame.socket.send(JSON.stringify({type: 'move', move, event}))",
            [move["move"], now["event"]],
        )
        message = second.locator("#message")
        expect(message).to_contain_text("already played")
        yellow.wait_for_function(f"() => window.pardonGame.state.event === {now['event'] + 1}")
        if state(yellow)["decider"] == "yellow":
            play_by_clicks(yellow, furthest(wait_my_turn(yellow)["moves"]))
        else:  # a 2: Red draws again
            play_by_clicks(first, furthest(wait_my_turn(first)["moves"]))
        second.wait_for_function(f"() => window.pardonGame.state.event === {now['event'] + 2}")
        expect(message).to_have_text("")
    finally:
        context.close()


def test_a_server_killed_mid_game_comes_back_and_the_page_goes_on_by_itself(start_server: Any, page: Any) -> None:
    """SIGKILL while the page is about to pass by itself (a card no pawn can use): the pass is
    lost with the server.  Once it is back the page reconnects on its own and passes again; it
    once waited for the lost pass for ever ("passing automatically", every click ignored)."""
    server = start_server()
    game = vs_computers(server, seed=3, players=2)
    open_game(page, game["seats"][0]["link"])
    passing = "() => document.getElementById('prompt').textContent.includes('passing automatically')"
    for _ in range(100):  # to a card Red cannot use
        page.wait_for_function(f"() => ({passing})() || ({MY_TURN})()", polling=10)
        if page.evaluate(passing):
            break
        play_by_clicks(page, furthest(state(page)["moves"]))
    server.process.send_signal(signal.SIGSTOP)  # frozen at once: the pass goes nowhere
    event = state(page)["event"]
    page.wait_for_timeout(1200)  # the page sends its pass into the frozen server
    server.kill()
    expect(page.locator("#connection")).to_contain_text("reconnecting")
    server.restart()
    expect(page.locator("#connection")).to_have_text("Connected", timeout=15_000)
    page.wait_for_function(f"() => window.pardonGame.state.event > {event}", timeout=15_000)
    assert server.rest(f"/api/games/{game['id']}")["status"] == "playing"
    now = wait_my_turn(page)
    play_by_clicks(page, furthest(now["moves"]))
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")


def test_a_move_made_while_the_connection_is_down_says_it_was_not_sent(start_server: Any, page: Any) -> None:
    """A click while the server is away once left the page waiting for an answer with nothing
    said (the move was never sent); now it says so, and the move can be made once it is back."""
    server = start_server()
    game = vs_computers(server, seed=8, players=2)
    page.add_init_script("localStorage.setItem('pardon.autoPass', 'off')")
    open_game(page, game["seats"][0]["link"])
    now = wait_my_turn(page)
    server.kill()
    expect(page.locator("#connection")).to_contain_text("reconnecting")
    button = page.locator("#moves button").first
    button.evaluate("button => button.click()")  # the list of every legal move, folded away
    expect(page.locator("#message")).to_contain_text("Not connected: that move was not sent")
    assert page.evaluate("() => window.pardonGame.pending") is False
    server.restart()
    expect(page.locator("#connection")).to_have_text("Connected", timeout=15_000)
    expect(page.locator("#message")).to_have_text("")
    again = wait_my_turn(page)
    assert again["event"] == now["event"]
    play_by_clicks(page, furthest(again["moves"]))
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
