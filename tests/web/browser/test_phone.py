"""The site on a phone, held upright (390x844) and sideways (844x390), driven by taps: what a
family passing one phone round the table needs: targets a finger can hit, the board and the card
in view together when the phone is turned, the button that starts a game on the first screen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.conftest import UPRIGHT, Server
from tests.web.browser.play_support import play_to_the_end
from tests.web.browser.test_game_page import (
    READY,
    Move,
    create_game,
    furthest,
    open_game,
    pawn_actions,
    place_key,
    play_by_clicks,
    vs_computers,
    wait_my_turn,
)
from tests.web.browser.test_scorekeeper import add_players, record_win

SIDEWAYS = {"width": 844, "height": 390}
SMALL_SIDEWAYS = {"width": 667, "height": 375}  # a smaller phone held sideways
SMALLEST_SIDEWAYS = {"width": 640, "height": 360}  # a small phone held sideways
FINGER = 40  # CSS pixels: the least height of a thing to tap
LINK_TARGET = 44  # CSS pixels: the least height of a link to another page, a finger's pad


def no_sideways_scroll(page: Any) -> bool:
    fits: bool = page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
    return fits


def test_a_laptop_zoomed_to_200_percent_reads_the_panels_at_full_width(live_server: Server, browser: Any) -> None:
    """At 200% a 1024x768 laptop is 512x384 CSS pixels: the sideways phone's two columns left the
    panels 170px wide, with words broken mid-word. One column it is, the panels under the board."""
    game = live_server.rest("/api/games", {"seed": 2, "seats": [{"kind": "human"}, {"kind": "bot"}]})
    context = browser.new_context(viewport={"width": 512, "height": 384})
    try:
        page = context.new_page()
        page.goto(game["seats"][0]["link"])
        page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        board, side = page.locator("#board").bounding_box(), page.locator(".side").bounding_box()
        assert board is not None and side is not None
        assert side["width"] > 400 and side["y"] >= board["y"] + board["height"] - 1  # under the board
        assert no_sideways_scroll(page)
    finally:
        context.close()


def test_the_game_turned_sideways_shows_the_whole_board_beside_the_turn(
    live_server: Server, phone: Any, artefacts: Path
) -> None:
    game = vs_computers(live_server, seed=7, players=2)
    open_game(phone, game["seats"][0]["link"])
    wait_my_turn(phone)
    phone.set_viewport_size(SIDEWAYS)  # turned mid-game
    phone.wait_for_function(READY)
    phone.screenshot(path=str(artefacts / "phone-sideways-game.png"))
    board = phone.locator("#board").bounding_box()
    turn = phone.locator("#turn").bounding_box()
    assert board["y"] + board["height"] <= SIDEWAYS["height"], "the whole board is on the screen"
    assert board["width"] >= 300, "and no smaller than it was upright"
    assert turn["x"] >= board["x"] + board["width"], "the turn and the card stand beside the board"
    assert turn["y"] + turn["height"] <= SIDEWAYS["height"]
    assert no_sideways_scroll(phone)
    phone.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")  # down to the log
    phone.wait_for_timeout(100)
    board = phone.locator("#board").bounding_box()
    assert board["y"] >= 0 and board["y"] + board["height"] <= SIDEWAYS["height"], "the board stays in view"
    phone.set_viewport_size(UPRIGHT)  # and back
    board = phone.locator("#board").bounding_box()
    assert board["width"] >= 370 and no_sideways_scroll(phone)


def test_the_game_pages_folding_sections_open_under_a_finger(live_server: Server, phone: Any) -> None:
    game = vs_computers(live_server, seed=7, players=2)
    open_game(phone, game["seats"][0]["link"])
    wait_my_turn(phone)
    summaries = phone.locator("summary")
    assert summaries.count() >= 2
    for index in range(summaries.count()):
        summary = summaries.nth(index)
        if summary.is_visible():
            assert summary.bounding_box()["height"] >= FINGER, summary.inner_text()
    moves = phone.locator("#moves-details summary")
    moves.tap()
    assert phone.locator("#moves-details").evaluate("details => details.open")


@pytest.mark.parametrize(
    "screen",
    [SIDEWAYS, SMALL_SIDEWAYS, SMALLEST_SIDEWAYS, UPRIGHT],
    ids=["sideways", "small-sideways", "smallest-sideways", "upright"],
)
def test_the_home_page_has_its_play_button_on_the_first_screen(
    live_server: Server, phone: Any, screen: dict[str, int]
) -> None:
    phone.set_viewport_size(screen)
    phone.goto(live_server.url + "/")
    phone.wait_for_selector("body[data-ready=true]")
    play = phone.get_by_role("button", name="Play against the computer")
    box = play.bounding_box()
    assert box["y"] + box["height"] <= screen["height"], "no scrolling before the first tap"
    assert phone.get_by_role("form", name="Play against the computer").count() == 1  # its heading still names it
    assert no_sideways_scroll(phone)
    options = phone.locator(".rule-options summary")
    assert options.bounding_box()["height"] >= FINGER
    play.tap()  # two taps from the home screen to a game: the link, then this
    phone.wait_for_url("**/play/**")
    phone.wait_for_function(READY)


def test_the_end_of_game_dialog_sideways_scrolls_to_its_last_button_and_closes(
    quick_server: Server, phone: Any, artefacts: Path
) -> None:
    rules = "partners(scoring=1939,doubling=true)"  # a table of points: the tallest dialog
    game = create_game(quick_server, {"rules": rules, "seed": 2, "seats": [{"kind": "hotseat"}] * 4})
    play_to_the_end(quick_server, game, game["host_token"])
    phone.set_viewport_size(SIDEWAYS)
    open_game(phone, game["host_link"])
    phone.locator("#game-over").wait_for(state="visible")
    phone.screenshot(path=str(artefacts / "phone-sideways-game-over.png"))
    winner = phone.locator("#winner").bounding_box()
    assert winner["y"] >= 0, "the dialog's top is not pushed off the screen"
    for name in ("See the board", "How the game went"):
        button = phone.get_by_role("button", name=name)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= SIDEWAYS["height"], f"{name} can be brought into view"
    phone.get_by_role("button", name="See the board").tap()
    phone.locator("#game-over").wait_for(state="hidden")


def a_split_seven(now: dict[str, Any]) -> Move | None:
    """A 7 split between two pawns, each part onto a track square, if the card offers one."""
    for move in now["moves"]:
        parts = pawn_actions(move)
        if len(parts) == 2 and all(isinstance(part["landing"], int) for part in parts):
            return move
    return None


def tap(page: Any, selector: str) -> None:
    """A finger on the middle of what ``selector`` finds (a pawn's or a ring's own shape), brought
    on screen first if it is off it, as a player scrolls to it."""
    target = page.locator(selector).first
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def tap_move(page: Any, move: Move) -> None:
    """Make ``move`` by taps (its card from the hand first, in a hand game), without waiting for it."""
    card = f'#hand button[data-card="{move["card"]}"]'
    if page.evaluate("() => window.pardonGame.card") != move["card"] and page.locator(card).count():
        tap(page, card)
    actions = pawn_actions(move)
    if not actions:
        tap(page, f'#choices button[data-move="{move["move"]}"]')
    for action in actions:
        if page.evaluate("() => window.pardonGame.selection?.pawn") != action["pawn"]:
            tap(page, f'.pawn[data-key="{action["pawn"]}"] .pawn-hit')
        tap(page, f'.mark[data-place="{place_key(action)}"]')


def test_a_split_seven_by_taps_speaks_of_taps_and_cancel_never_of_escape(live_server: Server, phone: Any) -> None:
    game = vs_computers(live_server, seed=3, players=2)
    open_game(phone, game["seats"][0]["link"])
    for _ in range(200):  # play by clicks (a tap, on a phone) until a 7 may be split
        now = wait_my_turn(phone)
        if a_split_seven(now) is not None:
            break
        play_by_clicks(phone, furthest(now["moves"]))
    else:
        raise AssertionError("no 7 to split")
    first, _ = pawn_actions(a_split_seven(now))  # type: ignore[arg-type]
    tap(phone, f'.pawn[data-key="{first["pawn"]}"] .pawn-hit')
    prompt = phone.locator("#prompt").inner_text()
    assert prompt.startswith("Now tap a marked place"), prompt
    x, y = phone.evaluate(
        """() => {  // the middle of a track square a finger's width from every pawn and ring
            const near = [...document.querySelectorAll('.mark, .pawn')].map((node) => node.getBoundingClientRect());
            for (const square of document.querySelectorAll('.square')) {
                const box = square.getBoundingClientRect();
                const [x, y] = [box.x + box.width / 2, box.y + box.height / 2];
                if (near.every((b) => Math.hypot(b.x + b.width / 2 - x, b.y + b.height / 2 - y) > 40)) return [x, y];
            }
            return [null, null];
        }"""
    )
    assert x is not None
    phone.touchscreen.tap(x, y)
    message = phone.locator("#message").inner_text()
    assert "Escape" not in message and "another pawn" in message, message
    tap(phone, f'.mark[data-place="{place_key(first)}"]')
    phone.wait_for_function("() => window.pardonGame.selection.chosen.length === 1")
    prompt = phone.locator("#prompt").inner_text()
    assert "Escape" not in prompt, prompt
    assert phone.locator("#choices button").all_inner_texts() == ["Cancel"], "a way back without a keyboard"
    phone.get_by_role("button", name="Cancel").tap()
    phone.wait_for_function(
        "() => window.pardonGame.selection === null || window.pardonGame.selection.chosen.length === 0"
    )
    assert phone.locator("#prompt").inner_text().startswith("Tap a pawn")


def test_the_rules_contents_sideways_reach_their_last_entry_mid_page(live_server: Server, phone: Any) -> None:
    phone.set_viewport_size(SIDEWAYS)
    phone.goto(live_server.url + "/rules")
    phone.wait_for_selector("body[data-ready=true]")
    phone.evaluate("() => window.scrollTo(0, 1500)")  # reading, halfway down
    last = phone.locator(".rules-nav nav a").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= SIDEWAYS["height"], "the last entry of the contents"
    assert no_sideways_scroll(phone)


SITE_PAGES = ["/", "/lobby", "/rules", "/scorekeeper", "/no-such-page"]


def header_links(page: Any) -> list[dict[str, Any]]:
    """The links at the top of the page, to the home page and the site's pages: each one's words and box."""
    links: list[dict[str, Any]] = page.eval_on_selector_all(
        ".site-header a, nav[aria-label=Site] a",
        "links => links.filter(a => a.getClientRects().length)"
        ".map(a => ({text: a.innerText.trim(), height: a.getBoundingClientRect().height}))",
    )
    return links


@pytest.mark.parametrize("screen", [UPRIGHT, SMALL_SIDEWAYS], ids=["upright", "small-sideways"])
def test_every_header_link_is_a_finger_tall_on_a_phone(
    live_server: Server, phone: Any, page: Any, screen: dict[str, int]
) -> None:
    game = vs_computers(live_server, seed=7, players=2)
    phone.set_viewport_size(screen)
    for path in [*SITE_PAGES, game["seats"][0]["link"].removeprefix(live_server.url)]:
        phone.goto(live_server.url + path)
        links = header_links(phone)
        assert len(links) >= (1 if path.startswith("/play/") else 4), path
        short = [link for link in links if link["height"] < LINK_TARGET]
        assert short == [], f"{path}: {short}"
        assert no_sideways_scroll(phone), path
    # a desktop with a mouse keeps its slim header
    for path in SITE_PAGES[:2]:
        page.goto(live_server.url + path)
        assert page.locator("header.site-header").bounding_box()["height"] < 60
        assert all(link["height"] < LINK_TARGET for link in header_links(page))


def heights(
    page: Any, selector: str, key: str = "node.getAttribute('aria-label') || node.innerText.trim()"
) -> dict[str, float]:
    """Each shown element's height, by ``key`` (JavaScript of ``node``): by default its words,
    or its label for a screen reader."""
    boxes: list[list[Any]] = page.eval_on_selector_all(
        selector,
        "nodes => nodes.filter(node => node.getClientRects().length)"
        f".map(node => [{key}, node.getBoundingClientRect().height])",
    )
    return dict(boxes)


def box_heights(page: Any, selector: str) -> dict[str, float]:
    """Each shown box to fill in (an input, a select), by its id, and its height."""
    return heights(page, selector, "node.id || node.name")


SCOREKEEPER_TOOLBAR = "[role=toolbar][aria-label=Match] button, [role=toolbar][aria-label=Match] .button"
SCOREKEEPER_ACTIONS = "#sheet .actions button"
SCOREKEEPER_BOXES = "input[type=text], input[type=number], select"


def scorekeeper_with_a_game(page: Any, server: Server) -> None:
    page.goto(server.url + "/scorekeeper")
    add_players(page, "Grandma", "Sam", "Ann", "Blue and Green")
    record_win(page, "Sam")
    page.get_by_role("button", name="Edit game 1").wait_for()


def test_the_scorekeepers_buttons_are_a_finger_tall_on_a_phone(
    live_server: Server, phone: Any, page: Any, artefacts: Path
) -> None:
    scorekeeper_with_a_game(phone, live_server)
    toolbar = heights(phone, SCOREKEEPER_TOOLBAR)
    assert "Download this page" in toolbar and "Undo game 1" in toolbar and len(toolbar) == 6
    actions = heights(phone, SCOREKEEPER_ACTIONS)
    assert set(actions) == {"Edit game 1", "Remove game 1"}
    boxes = box_heights(phone, SCOREKEEPER_BOXES)
    assert {"new-name", "new-colour"} <= set(boxes)  # the new player's name and colour, and the game's boxes
    short = {name: height for name, height in {**toolbar, **actions, **boxes}.items() if height < LINK_TARGET}
    assert short == {}
    assert no_sideways_scroll(phone)
    phone.screenshot(path=str(artefacts / "phone-scorekeeper.png"), full_page=True)
    # a desktop with a mouse keeps its close-set buttons: the toolbar's of one height, each game's smaller
    scorekeeper_with_a_game(page, live_server)
    (toolbar_height,) = set(heights(page, SCOREKEEPER_TOOLBAR).values())
    (actions_height,) = set(heights(page, SCOREKEEPER_ACTIONS).values())
    assert actions_height < toolbar_height < LINK_TARGET
    assert max(box_heights(page, SCOREKEEPER_BOXES).values()) < LINK_TARGET


def test_the_rules_contents_are_a_finger_tall_on_a_touch_screen(
    live_server: Server, phone: Any, page: Any, artefacts: Path
) -> None:
    phone.goto(live_server.url + "/rules")  # upright the contents fold away: the rules come first
    phone.wait_for_selector("body[data-ready=true]")
    assert not phone.locator(".rules-nav nav a").first.is_visible()
    assert phone.get_by_label("Edition").bounding_box()["height"] >= LINK_TARGET
    folded = phone.locator(".rules-nav summary")  # a phone had no contents at all: one tap opens them
    assert folded.inner_text() == "Contents" and folded.bounding_box()["height"] >= LINK_TARGET
    folded.tap()
    upright = heights(phone, ".rules-nav nav a")
    assert len(upright) >= 8 and min(upright.values()) >= LINK_TARGET
    phone.get_by_role("link", name="Every option", exact=True).tap()
    phone.wait_for_function("document.getElementById('options').getBoundingClientRect().top < innerHeight")
    assert no_sideways_scroll(phone)
    phone.set_viewport_size(SIDEWAYS)  # sideways they stand beside the rules, each entry a finger tall
    contents = heights(phone, ".rules-nav nav a")
    assert len(contents) >= 8 and "Every option" in contents
    short = {name: height for name, height in contents.items() if height < LINK_TARGET}
    assert short == {}
    assert no_sideways_scroll(phone)
    phone.screenshot(path=str(artefacts / "phone-sideways-rules-contents.png"))
    # a desktop with a mouse keeps its close-set list: one line an entry, two for a long one
    page.goto(live_server.url + "/rules")
    page.wait_for_selector("body[data-ready=true]")
    desktop = heights(page, ".rules-nav nav a")
    assert desktop.keys() == contents.keys() and not page.locator(".rules-nav summary").is_visible()
    assert all(height < 2 * FINGER for height in desktop.values())
    assert min(desktop.values()) < 20
    # the page opens on how to play, not on the board's table of square numbers
    assert page.locator("#rules-body h2").first.inner_text().startswith("The classic game")
    # every section's entry starts at one left edge, each sub-section's at one edge further in
    edges = page.evaluate(
        """() => [...document.querySelectorAll('#toc li')].map((li) =>
            [li.classList.contains('sub'), Math.round(li.querySelector('a').getBoundingClientRect().left)])"""
    )
    tops = {left for sub, left in edges if not sub}
    subs = {left for sub, left in edges if sub}
    assert len(tops) == 1 and len(subs) == 1 and min(subs) > min(tops), edges


SMALL_UPRIGHT = {"width": 320, "height": 568}  # a small phone held upright (an iPhone SE)


def on_screen(page: Any, selector: str) -> bool:
    """Whether what ``selector`` finds lies wholly on the screen, where a finger can tap it."""
    box = page.locator(selector).first.bounding_box()
    height: int = page.evaluate("() => window.innerHeight")
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= height + 1  # a pixel's rounding


@pytest.mark.parametrize("who", ["two-at-one-phone", "against-the-computer"])
def test_a_card_chosen_from_the_hand_brings_its_pawns_into_view_on_a_small_phone(
    live_server: Server, phone: Any, who: str
) -> None:
    """A hand of cards (the adult preset) on a small phone held upright: the hand is under the board,
    and once a card was chosen the pawn to tap next was above the top of the screen."""
    phone.set_viewport_size(SMALL_UPRIGHT)
    at_one_phone = who == "two-at-one-phone"
    seats = [{"kind": "hotseat"}] * 2 if at_one_phone else [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "adult", "seed": 5, "seats": seats})
    open_game(phone, game["host_link"] if at_one_phone else game["seats"][0]["link"])
    off: list[str] = []
    for _ in range(10):
        now = wait_my_turn(phone)
        if phone.locator("#show-hand").count():
            tap(phone, "#show-hand")  # "Show Red's hand", under the board
        move = furthest(now["moves"])
        card = f'#hand button[data-card="{move["card"]}"]'
        if phone.evaluate("() => window.pardonGame.card") != move["card"]:
            tap(phone, card)
        for action in pawn_actions(move)[:1]:
            pawn = f'.pawn[data-key="{action["pawn"]}"] .pawn-hit'
            if not on_screen(phone, pawn):
                top = phone.locator(pawn).first.bounding_box()["y"]
                off.append(f"event {now['event']}: {action['pawn']} at y={top:.0f}")
        tap_move(phone, move)
        phone.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    assert off == [], "the pawn to tap next is on the screen once its card is chosen"


def test_the_boxes_to_tick_and_the_replay_slider_are_a_finger_tall_on_a_phone(
    quick_server: Server, phone: Any, page: Any
) -> None:
    """Rows 22 px tall, set 30 px apart: a finger ticked the wrong winner on the scorekeeper."""
    phone.goto(quick_server.url + "/")
    phone.wait_for_selector("body[data-ready=true]")
    phone.locator(".rule-options summary").tap()  # the rule options' boxes too
    home = heights(phone, "label.check")
    assert {"Hints on request", "Public: list it in the lobby, so anyone can take an open seat or watch"} <= set(home)
    assert len(home) >= 5
    phone.goto(quick_server.url + "/scorekeeper")
    add_players(phone, "Grandma", "Sam", "Ann", "Blue and Green")
    form = heights(phone, "#game-form label.check")
    assert {"Grandma", "Sam", "Ann", "Blue and Green", "Doubled game (counts 2 wins)"} <= set(form)
    game = create_game(quick_server, {"seed": 3, "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
    play_to_the_end(quick_server, game, game["seats"][0]["token"])
    phone.goto(f"{quick_server.url}/replay/{game['id']}")
    phone.wait_for_selector("body[data-ready=true]")
    slider = phone.locator("#slider").bounding_box()["height"]
    short = {name: height for name, height in {**home, **form, "slider": slider}.items() if height < LINK_TARGET}
    assert short == {}
    # a desktop with a mouse keeps its close-set rows
    page.goto(quick_server.url + "/")
    page.wait_for_selector("body[data-ready=true]")
    assert heights(page, "label.check")["Hints on request"] < LINK_TARGET


PHONE_WITH_BARS = {"width": 390, "height": 664}  # a phone held upright, less its browser's bars (an iPhone 13)


def test_a_mistake_shown_on_a_phone_has_its_words_and_the_way_back_under_the_board(
    quick_server: Server, phone: Any
) -> None:
    """The board showed the mistake's position, but what it showed, and "Back to the end", were in
    the coach's panel far below: the player saw a changed board and the words "Red wins!"."""
    phone.set_viewport_size(PHONE_WITH_BARS)
    game = create_game(quick_server, {"seed": 3, "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
    play_to_the_end(quick_server, game, game["seats"][0]["token"])
    open_game(phone, game["seats"][0]["link"])
    phone.get_by_role("button", name="How the game went").tap()
    phone.locator("#coach[data-state=ready]").wait_for()
    show = phone.get_by_role("button", name="Show on the board").first
    show.tap()  # scrolled to, far down the page
    phone.locator("#board[data-reviewing]").wait_for()
    for what in ("#board", "#reviewing-text", "#back-to-end", ".mark.better-mark"):
        assert on_screen(phone, what), f"{what} is on the screen with the rest"
    phone.get_by_role("button", name="Back to the end").tap()
    assert phone.locator("#reviewing").is_hidden()


def test_the_game_pages_header_says_pardon_sorry_with_its_space_on_a_phone(live_server: Server, phone: Any) -> None:
    game = vs_computers(live_server, seed=7, players=2)
    open_game(phone, game["seats"][0]["link"])
    space = phone.evaluate(
        """() => {  // from the end of the word "pardon" to the start of "Sorry!"
            const brand = document.querySelector(".site-header .brand");
            const words = document.createRange();
            words.selectNodeContents(brand.firstChild);
            return brand.querySelector("b").getBoundingClientRect().left - words.getBoundingClientRect().right;
        }"""
    )
    assert space >= 3, "pardon Sorry!, not pardonSorry!"


def test_the_online_games_invitations_open_at_their_heading_on_a_phone(live_server: Server, phone: Any) -> None:
    """The panel, taller than the screen, had the focus and was scrolled to its middle by the browser."""
    phone.set_viewport_size(PHONE_WITH_BARS)
    phone.goto(live_server.url + "/")
    phone.wait_for_selector("body[data-ready=true]")
    phone.locator("#online").get_by_role("button", name="Create the online game").tap()
    phone.locator("#game-lobby").wait_for(state="visible")
    assert phone.evaluate("() => document.activeElement.id") == "game-lobby"
    assert on_screen(phone, "#game-lobby-title"), "Your game is ready, at the top of the screen"


def test_a_phone_shares_an_invite_link_straight_into_a_message(live_server: Server, phone: Any) -> None:
    """A browser that can share (a phone's) offers Share beside Copy: the link goes to a chat at once."""
    phone.add_init_script("navigator.share = async (data) => { window.shared = data; };")
    phone.goto(live_server.url + "/")
    phone.wait_for_selector("body[data-ready=true]")
    phone.locator("#online").get_by_role("button", name="Create the online game").tap()
    share = phone.get_by_role("button", name="Share Yellow's invite link")
    share.tap()
    shared = phone.wait_for_function("() => window.shared").json_value()
    link = phone.get_by_role("textbox", name="Yellow's invite link").input_value()
    assert shared["url"] == link and "/play/" in link


def test_where_the_ice_goes_is_asked_with_its_buttons_on_the_screen(live_server: Server, phone: Any) -> None:
    """A 1 that may put the Ice on one pawn or another: the buttons that name each were under the screen."""
    phone.set_viewport_size(PHONE_WITH_BARS)
    game = vs_computers(live_server, seed=3, players=2, rules="modern")
    open_game(phone, game["seats"][0]["link"])
    for _ in range(200):
        now = wait_my_turn(phone)
        same = where_a_token_goes(now)
        if same:
            break
        tap_move(phone, furthest(now["moves"]))
        phone.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
    else:
        pytest.fail("no card for Red with a token to place")
    tap_move(phone, same[0])  # its pawns: then where the token goes is asked
    phone.wait_for_function("() => window.pardonGame.tokenChoice !== null")
    buttons = phone.locator("#choices button")
    assert buttons.count() == len(same) + 1  # each place, and Cancel
    for index in range(buttons.count()):
        assert on_screen(phone, f"#choices button >> nth={index}"), buttons.nth(index).inner_text()


def where_a_token_goes(now: dict[str, Any]) -> list[Move]:
    """The moves of the same pawns to the same places that differ only in where a token goes, if any."""
    by_pawns: dict[str, list[Move]] = {}
    for move in now["moves"]:
        if pawn_actions(move) and now["stage"] == "card":
            by_pawns.setdefault(json.dumps(pawn_actions(move), sort_keys=True), []).append(move)
    return next((same for same in by_pawns.values() if len(same) > 1), [])


def test_the_score_sheets_edit_and_remove_are_in_reach_on_the_smallest_phone(live_server: Server, phone: Any) -> None:
    """On a 320 px phone a sheet of four players is wider than the screen: its buttons, at the right
    of their row, could be reached only by scrolling the sheet sideways, and nothing said so."""
    phone.set_viewport_size(SMALL_UPRIGHT)
    phone.goto(live_server.url + "/scorekeeper")
    add_players(phone, "Grandma", "Sam", "Ann", "Blue and Green")
    for name in ("Sam", "Ann", "Grandma"):
        record_win(phone, name)
    phone.get_by_role("button", name="Remove game 3").wait_for()
    wrap = phone.locator(".table-wrap").first.bounding_box()
    buttons = phone.locator("#sheet .actions button")
    assert buttons.count() == 6
    for index in range(buttons.count()):
        box = buttons.nth(index).bounding_box()
        name = buttons.nth(index).get_attribute("aria-label")
        assert wrap["x"] <= box["x"] and box["x"] + box["width"] <= wrap["x"] + wrap["width"], name
    wider, cue = phone.locator(".table-wrap").first.evaluate(
        "wrap => [wrap.scrollWidth > wrap.clientWidth, getComputedStyle(wrap).backgroundImage]"
    )
    assert not wider or "gradient" in cue, "a sheet wider than the screen shows at its edge that it scrolls"
    assert no_sideways_scroll(phone)
