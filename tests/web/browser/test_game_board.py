"""The board in a real Chromium against a real ``pardon serve``: what a player sees and chooses on it.

Step counts on the destination rings, the board turned to the player's seat, pawns that stand
out and take the focus, passing when no pawn can move, the Fire and Ice tokens, card texts that
fit, every way of making a split 7, and a phone's fingers.  Seeds are chosen so that the
situation comes within a few turns (the computers play greedy, with the game's own seeded
random stream, so a seed always gives the same game).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")
from tests.web.browser.accessibility import serious_problems
from tests.web.browser.play_support import contrast
from tests.web.browser.test_game_page import (
    READY,
    Move,
    click_pawn,
    click_place,
    create_game,
    furthest,
    open_game,
    pawn_actions,
    place_key,
    play_by_clicks,
    play_until,
    state,
    vs_computers,
    wait_my_turn,
)

from pardon.core.cards import CARD_TEXT
from pardon.core.rules import PRESETS, parse_rules
from pardon.web.views import card_text

expect = pytest.importorskip("playwright.sync_api").expect


def centre_of(page: Any, selector: str) -> tuple[float, float]:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def backward_past_the_start_exit(now: dict[str, Any]) -> Move | None:
    """A 4 that takes a Red pawn back past its start exit (square 4) and round the corner."""
    for move in now["moves"]:
        for action in pawn_actions(move):
            if move["card"] == "4" and action["kind"] == "step" and action["from"] in (3, 4, 5, 6):
                return move
    return None


def test_a_backward_4_past_the_start_exit_counts_minus_4_on_its_ring(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=14, players=2)  # Red's third turn: a 4 with a pawn on its start exit
    open_game(page, game["seats"][0]["link"])
    for _ in range(60):
        now = wait_my_turn(page)
        move = backward_past_the_start_exit(now)
        if move:
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        raise AssertionError("no 4 past the start exit came")
    (action,) = pawn_actions(move)
    assert action["steps"] == -4 and len(action["path"]) - action["slide_squares"] == 4
    click_pawn(page, action["pawn"])
    ring = page.locator(f'.mark[data-place="{place_key(action)}"]')
    assert ring.get_attribute("data-badge") == "−4"
    assert page.locator('.mark[data-badge="56"], .mark[data-badge="59"]').count() == 0


def test_the_board_turns_so_that_your_colour_is_at_the_bottom(live_server: Any, browser: Any) -> None:
    seats = [{"kind": "bot"}, {"kind": "bot"}, {"kind": "human"}, {"kind": "bot"}]  # you play Yellow
    game = create_game(live_server, {"seed": 2, "seats": seats})
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        open_game(page, game["seats"][2]["link"])
        assert page.locator("svg.board").get_attribute("data-seat") == "yellow"
        board_y = centre_of(page, "svg.board .board-face")[1]
        yellow_y = centre_of(page, ".start-circle.yellow")[1]
        red_y = centre_of(page, ".start-circle.red")[1]
        assert yellow_y > board_y > red_y  # Yellow's Start near you, Red's across the table
        label = page.locator(".start-circle.yellow .circle-label").get_attribute("transform") or ""
        assert label.startswith("rotate(0 ")  # your own START reads the right way up
        watcher = context.new_page()
        open_game(watcher, game["spectator_link"])  # a spectator sits at the first seat
        assert watcher.locator("svg.board").get_attribute("data-seat") == "red"
        assert centre_of(watcher, ".start-circle.red")[1] > centre_of(watcher, "svg.board .board-face")[1]
    finally:
        context.close()


def several_pawns(now: dict[str, Any]) -> Move | None:
    pawns = {action["pawn"] for move in now["moves"] for action in pawn_actions(move)}
    return now["moves"][0] if len(pawns) >= 2 else None


def wait_for_several_pawns(page: Any) -> dict[str, Any]:
    for _ in range(60):
        now = wait_my_turn(page)
        if several_pawns(now):
            return now
        play_by_clicks(page, furthest(now["moves"]))
    raise AssertionError("no turn with a choice of pawns")


def test_movable_pawns_stand_out_and_the_first_takes_the_focus(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=7, players=2)  # Red's fourth turn: two pawns can move
    open_game(page, game["seats"][0]["link"])
    now = wait_for_several_pawns(page)
    halo = page.locator(".pawn.movable .pawn-halo").first.evaluate("node => getComputedStyle(node).stroke")
    track = page.locator(".square-face").first.evaluate("node => getComputedStyle(node).fill")
    assert contrast(halo, track) >= 3  # the ring round a pawn that can move shows on the cream track
    focused = page.evaluate(
        "() => document.activeElement.classList.contains('movable') && document.activeElement.dataset.key"
    )
    assert focused, "the first movable pawn has the focus"
    page.keyboard.press("Enter")  # that pawn: its destinations are marked, the first focused
    assert page.evaluate("() => document.activeElement.classList.contains('mark')")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")


def lone_pass(now: dict[str, Any]) -> Move | None:
    return now["moves"][0] if len(now["moves"]) == 1 and now["moves"][0]["pass"] else None


def test_a_card_no_pawn_can_use_is_passed_by_itself_and_the_log_says_so(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=4)  # Red's first card cannot be used
    open_game(page, game["seats"][0]["link"])
    page.wait_for_function("() => document.getElementById('log').textContent.includes('passed automatically')")
    assert page.locator("#auto-pass").is_checked()  # on by default against the computer
    line = next(text for text in page.locator("#log li").all_inner_texts() if "passed automatically" in text)
    assert line.startswith("Red draws") and "cannot use it" in line
    page.locator("#auto-pass").uncheck()  # off: the next such card waits for the player, with its Pass button
    page.wait_for_timeout(300)  # a pass sent before the click (the computers play fast) is heard by now
    passed_before = page.locator("#log").inner_text().count("passed automatically")
    passed = play_until(page, lone_pass)
    assert passed["move"]["pass"]
    assert page.locator("#log").inner_text().count("passed automatically") == passed_before
    # at one screen with no computer too: a lone Pass is no choice (it was a fifth of a hot-seat game's clicks)
    hot_seat = [{"kind": "hotseat", "name": "Ann"}, {"kind": "hotseat", "name": "Sam"}]
    again = create_game(live_server, {"seed": 4, "seats": hot_seat})
    page.evaluate("() => localStorage.clear()")
    open_game(page, again["host_link"])
    page.wait_for_function("() => document.getElementById('log').textContent.includes('passed automatically')")
    assert page.locator("#auto-pass").is_checked()
    line = next(text for text in page.locator("#log li").all_inner_texts() if "passed automatically" in text)
    assert line.startswith("Ann (Red) draws"), line  # named as the table named her


def test_turning_passing_automatically_off_while_it_waits_leaves_the_pass_to_the_player(
    live_server: Any, page: Any
) -> None:
    game = vs_computers(live_server, seed=4)  # Red's first card cannot be used
    open_game(page, game["seats"][0]["link"])
    page.wait_for_function("() => document.getElementById('prompt').textContent.includes('passing automatically')")
    event, log = page.evaluate(
        "() => { document.getElementById('auto-pass').click();"
        " return [window.pardonGame.state.event, document.getElementById('log').textContent] }"
    )
    page.wait_for_timeout(1500)  # longer than the moment an automatic pass waits
    now = state(page)
    assert now["event"] == event and now["decider"] == "red", "the pass waits for the player"
    assert not page.locator("#auto-pass").is_checked()
    assert page.locator("#choices button", has_text="Pass").is_visible()
    assert page.locator("#log").inner_text().count("passed automatically") == log.count("passed automatically")


def test_while_a_card_no_pawn_can_use_is_passed_the_keyboard_reaches_the_pawns_and_why_not(
    live_server: Any, page: Any
) -> None:
    game = vs_computers(live_server, seed=4)  # Red's first card cannot be used
    open_game(page, game["seats"][0]["link"])
    page.evaluate("() => { window.pardonGame.autoPass = 'on'; }")
    page.wait_for_function("() => document.getElementById('prompt').textContent.includes('passing automatically')")
    reachable = page.evaluate(
        "() => [...document.querySelectorAll('.pawn[tabindex=\"0\"]')].map(pawn =>"
        " [pawn.dataset.key, pawn.getAttribute('aria-disabled'), pawn.getAttribute('aria-label')])"
    )
    assert reachable, "the pawns are a Tab away while the pass waits: each says why it cannot move"
    assert all(key.startswith("red:") and disabled == "true" for key, disabled, _ in reachable), reachable
    assert all("cannot move with the" in (label or "") for _, _, label in reachable), reachable


def test_enter_on_a_pawn_while_a_card_no_pawn_can_use_is_passed_says_why_not(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=4)  # Red's first card, an 8, cannot be used
    open_game(page, game["seats"][0]["link"])
    page.evaluate("() => { window.pardonGame.autoPass = 'on'; }")
    page.wait_for_function("() => document.getElementById('prompt').textContent.includes('passing automatically')")
    now = state(page)
    page.locator('.pawn[data-key="red:start"][tabindex="0"]').focus()
    page.keyboard.press("Enter")  # within the moment the pass waits: it once said nothing at all
    why = now["why_not"][now["card"]]["red:start"]
    expect(page.locator("#message")).to_have_text(f"Why not? {why}.")


STALE_TAB_STOPS = """() => {  // each frame: a pawn still a Tab stop while a state that is not Red's is drawn
  window.staleTabStops = [];
  const look = () => {
    const g = window.pardonGame;
    if (g && g.state && !g.ready && g.state.decider !== "red") {
      for (const pawn of document.querySelectorAll(".pawn[tabindex]")) {
        window.staleTabStops.push([g.state.event, pawn.dataset.key, pawn.getAttribute("aria-label")]);
      }
    }
    requestAnimationFrame(look);
  };
  look();
}"""


def test_no_pawn_stays_a_tab_stop_while_the_move_made_is_drawn(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=7, players=2)
    open_game(page, game["seats"][0]["link"], reduced_motion=False)  # the move is animated
    page.evaluate(STALE_TAB_STOPS)
    for _ in range(4):
        now = wait_my_turn(page)
        play_by_clicks(page, furthest(now["moves"]))
        page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    wait_my_turn(page)
    # they once stayed, "can move" (or why not) of a turn that was over, until the animation ended
    assert page.evaluate("() => window.staleTabStops") == []


def test_the_ice_is_explained_and_put_on_a_pawn_on_the_board(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=4, players=2, rules="modern")  # Red's third turn: a 1, two pawns to ice
    open_game(page, game["seats"][0]["link"])

    def ice_choice(now: dict[str, Any]) -> dict[str, Any] | None:
        icing = [move for move in now["moves"] if any(a["kind"] == "ice" and a.get("pawn") for a in move["actions"])]
        return icing[0] if len({a["pawn"] for m in icing for a in m["actions"] if a["kind"] == "ice"}) >= 2 else None

    for _ in range(40):
        now = wait_my_turn(page)
        if ice_choice(now):
            break
        play_by_clicks(page, furthest(now["moves"]))
    move = ice_choice(now)
    assert move is not None
    (step,) = pawn_actions(move)
    targets = {a["pawn"] for m in now["moves"] if pawn_actions(m) == [step] for a in m["actions"] if a["kind"] == "ice"}
    click_pawn(page, step["pawn"])
    click_place(page, place_key(step))
    prompt = page.locator("#prompt").inner_text()
    assert "Ice" in prompt and "cannot move or be moved" in prompt
    marked = set(page.locator(".token-mark").evaluate_all("marks => marks.map(m => m.dataset.place)"))
    assert marked == {f"sq:{key.split(':')[1]}" for key in targets}
    button = page.locator("#choices button", has_text="Ice on Yellow's pawn on").first
    assert button.is_visible()
    assert page.evaluate("() => document.activeElement.classList.contains('token-mark')")
    assert serious_problems(page) == []
    target = sorted(targets)[-1]
    click_pawn(page, target)  # chosen on the board
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    assert f"Ice on Yellow {target.split(':')[1]}" in state(page)["last"]["text"]
    page.wait_for_function(READY)
    gap = page.evaluate(
        """() => {  // the Ice is drawn on the pawn the position names, whatever the order of its pawns
            const g = window.pardonGame, ice = g.state.position.tokens.ice;
            const where = g.state.position.pawns[ice.colour][ice.pawn];
            const token = document.querySelector('.token.ice').getBoundingClientRect();
            const pawn = document.querySelector(`.pawn[data-key="${ice.colour}:${where}"]`).getBoundingClientRect();
            const dx = token.x + token.width / 2 - pawn.x - pawn.width / 2;
            return g.ready ? Math.hypot(dx, token.y + token.height / 2 - pawn.y - pawn.height / 2) : 0;
        }"""
    )
    assert gap < 30
    # the Ice is seen from across the table: a ring round its pawn, and a badge bigger than a letter was
    assert page.locator(".token-halo.ice").count() == 1
    widths = page.evaluate(
        """() => [document.querySelector('.token.ice'), document.querySelector('.square-face')]
            .map((node) => node.getBoundingClientRect().width)"""
    )
    assert widths[0] >= 0.55 * widths[1], widths  # the badge to a square: a letter's disc was 0.5


def test_the_fire_is_offered_with_its_meaning_and_can_be_left(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=5, players=2, rules="modern")  # Red's second turn: a 2 and the Fire
    open_game(page, game["seats"][0]["link"])
    for _ in range(40):
        now = wait_my_turn(page)
        firing = [move for move in now["moves"] if any(a["kind"] == "fire" for a in move["actions"])]
        if firing:
            break
        play_by_clicks(page, furthest(now["moves"]))
    (step,) = pawn_actions(firing[0])
    click_pawn(page, step["pawn"])
    click_place(page, place_key(step))
    assert "next corner" in page.locator("#prompt").inner_text()
    assert page.locator(".token-mark.fire-mark").count() >= 1
    page.locator("#choices button", has_text="No Fire this time").click()
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    assert "Fire" not in state(page)["last"]["text"]


def test_the_tokens_wait_clear_of_the_card_and_the_pack(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=2, players=2, rules="modern")
    open_game(page, game["seats"][0]["link"])

    def overlaps(first: str, second: str) -> bool:
        a, b = page.locator(first).first.bounding_box(), page.locator(second).first.bounding_box()
        assert a and b
        return not (
            a["x"] + a["width"] <= b["x"]
            or b["x"] + b["width"] <= a["x"]
            or a["y"] + a["height"] <= b["y"]
            or b["y"] + b["height"] <= a["y"]
        )

    for token in (".token.fire", ".token.ice"):
        for other in (".card-face-up .card-face", ".pack", ".logo", ".home-circle", ".start-circle"):
            for index in range(page.locator(other).count()):
                assert not overlaps(token, f"{other} >> nth={index}"), (token, other, index)


def test_every_card_text_fits_on_the_centre_card(live_server: Any, page: Any) -> None:
    game = create_game(live_server, {"seats": [{"kind": "human"}, {"kind": "human"}]})  # waiting: nothing moves
    open_game(page, game["spectator_link"])
    texts = sorted({card_text(parse_rules(name), card) for name in PRESETS for card in CARD_TEXT})
    spilled = page.evaluate(
        """async (texts) => {
            const board = await import('/static/board.js');
            const game = window.pardonGame;
            const wrong = [];
            for (const text of texts) {
                board.showCard(game.board, {card: '12', text, pack: 1, discards: 0});
                const card = game.board.cardFace.querySelector('.card-face').getBBox();
                const words = game.board.cardText.getBBox();
                const number = game.board.cardNumber.getBBox();
                const inside = words.x >= card.x && words.y >= card.y
                    && words.x + words.width <= card.x + card.width && words.y + words.height <= card.y + card.height;
                const written = game.board.cardText.textContent.replace(/\\s+/g, '') === text.replace(/\\s+/g, '');
                if (!inside || !written || number.x + number.width > words.x) wrong.push(text);
            }
            return wrong;
        }""",
        texts,
    )
    assert spilled == []


def test_a_sorry_card_fits_the_side_panel_and_the_hand(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=12)  # Red's first card is a Sorry!
    open_game(page, game["seats"][0]["link"])
    for _ in range(30):
        now = wait_my_turn(page)
        if now["card"] == "sorry":
            break
        play_by_clicks(page, furthest(now["moves"]))
    card = page.locator("#big-card")
    assert card.inner_text() == "Sorry!"
    assert card.evaluate("node => node.scrollWidth <= node.clientWidth && node.scrollHeight <= node.clientHeight")
    hand = vs_computers(live_server, seed=1, players=2, rules="adult")
    open_game(page, hand["seats"][0]["link"])
    for _ in range(30):
        now = wait_my_turn(page)
        if "sorry" in now["position"]["hands"]["red"]:
            break
        play_by_clicks(page, furthest(now["moves"]))
    button = page.locator('#hand button[data-card="sorry"]').first
    assert button.evaluate("node => node.scrollWidth <= node.clientWidth")
    assert button.inner_text() == "Sorry!"


def test_a_split_7_can_be_made_by_any_way_to_its_outcome(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=31, players=2)  # Red's fifth turn: a 7 with pawns 1-6 apart

    def out_first(moves: list[Move]) -> Move:
        out = [move for move in moves if any(action["from"] == "start" for action in pawn_actions(move))]
        return (out or [move for move in moves if not move["pass"]] or moves)[0]

    open_game(page, game["seats"][0]["link"])
    for _ in range(40):
        now = wait_my_turn(page)
        if any(move["ways"] for move in now["moves"]):
            break
        play_by_clicks(page, out_first(now["moves"]))
    else:
        raise AssertionError("no 7 with another way to its outcome")
    move = next(move for move in now["moves"] if move["ways"])
    heard = page.locator("#log li").count()  # the log's next line is this move's (the computer may follow fast)
    way = move["ways"][0]
    first, second = way
    click_pawn(page, first["pawn"])
    page.locator(f'.mark[data-place="{place_key(first)}"]').wait_for()  # offered, though the move lists it otherwise
    click_place(page, place_key(first))
    page.wait_for_function("() => window.pardonGame.selection.chosen.length === 1")
    if page.evaluate("() => window.pardonGame.selection.pawn") != second["pawn"]:
        click_pawn(page, second["pawn"])
    click_place(page, place_key(second))
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    page.locator("#log li").nth(heard).wait_for()
    assert page.locator("#log li").nth(heard).inner_text() == move["text"]  # the one move of that outcome


def test_on_a_phone_choices_are_a_finger_wide_and_the_card_is_readable(live_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        game = vs_computers(live_server, seed=7, players=2)
        open_game(page, game["seats"][0]["link"])
        now = wait_for_several_pawns(page)
        assert page.locator("#prompt").inner_text().startswith("Tap")
        assert page.locator(".card-text").first.evaluate("node => getComputedStyle(node).display") == "none"
        assert page.locator(".card-number").first.bounding_box()["height"] >= 20  # type: ignore[index]
        assert page.locator("#card-text").inner_text().strip() == now["card_text"]
        key, x, y = page.evaluate(
            """() => {  // a point 20 px from a movable pawn's centre, on nothing else that can be chosen
                const choices = [...document.querySelectorAll('.pawn.movable[tabindex]')];
                for (const pawn of choices) {
                    const box = pawn.getBoundingClientRect();
                    const [cx, cy] = [box.x + box.width / 2, box.y + box.height / 2];
                    for (const [dx, dy] of [[20, 0], [-20, 0], [0, 20], [0, -20]]) {
                        const [x, y] = [cx + dx, cy + dy];
                        const nearest = choices.every((other) => {
                            const b = other.getBoundingClientRect();
                            return other === pawn || Math.hypot(b.x + b.width / 2 - x, b.y + b.height / 2 - y) > 20;
                        });
                        const hit = document.elementFromPoint(x, y);
                        if (nearest && !hit.closest('.pawn.movable')) return [pawn.dataset.key, x, y];
                    }
                }
                return [null, 0, 0];
            }"""
        )
        assert key, "a movable pawn with free space round it"
        assert page.locator(f'.pawn[data-key="{key}"] .pawn-hit').first.bounding_box()["width"] < 44  # type: ignore[index]
        page.touchscreen.tap(x, y)  # a finger's width off the pawn still chooses it
        assert page.evaluate("() => window.pardonGame.selection.pawn") == key
    finally:
        context.close()
