"""The pages around the game with the keyboard only, and what a screen reader is told: the focus
stays on the control used (or goes on to the next one, never to the page's top), and a change is
announced once, by a status region, not by a whole region read again."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from tests.web.browser.play_support import wait_finished
from tests.web.browser.test_accessibility import finished_game
from tests.web.browser.test_game_page import create_game, open_game
from tests.web.browser.test_pages import open_ready
from tests.web.browser.test_scorekeeper import PAGE_FILE, add_players

PLAY_URL = re.compile(r"/play/(?P<id>[A-Za-z0-9_-]+)#token=(?P<token>[A-Za-z0-9_-]+)$")
FOCUSED = "() => { const e = document.activeElement; return e ? (e.id || e.tagName) : null; }"


def public_game(server: Any) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]
    return create_game(server, {"rules": "classic", "public": True, "seats": seats})


def wait_lobby_refreshes(page: Any, times: int = 2) -> None:
    """Wait until the lobby has asked the server again ``times`` times (every 3 seconds)."""
    for _ in range(times):
        with page.expect_response("**/api/lobby", timeout=10_000):
            pass
    page.wait_for_timeout(300)  # the last answer drawn


# --- 1. the lobby ----------------------------------------------------------------------------


def test_the_lobby_refreshes_under_a_focused_join_button_and_announces_only_new_games(
    live_server: Any, page: Any
) -> None:
    game = public_game(live_server)
    page.goto(live_server.url + "/lobby")
    card = page.locator(f"[data-game='{game['id']}']")
    card.wait_for()
    join = card.get_by_role("button", name=re.compile("^Join as ")).first
    colour = join.inner_text().removeprefix("Join as ").lower()
    join.focus()
    page.evaluate("() => { document.activeElement.dataset.mark = 'focused'; }")

    other = public_game(live_server)  # a game made meanwhile is said once, by the status region
    wait_lobby_refreshes(page)
    assert page.evaluate("() => document.activeElement.dataset.mark") == "focused"
    assert page.locator("#games").get_attribute("aria-live") is None  # the list is not read again and again
    expect(page.locator(f"[data-game='{other['id']}']")).to_have_count(1)
    news = page.locator("#lobby-news")
    assert news.get_attribute("role") == "status"
    expect(news).to_have_text(re.compile("^New games?: .*Classic game · 3 players"))

    page.keyboard.press("Enter")  # the button under the keyboard is still the one that joins
    page.wait_for_url(PLAY_URL)
    seats = live_server.rest(f"/api/games/{game['id']}")["seats"]
    assert [seat["open"] for seat in seats if seat["colour"] == colour] == [False]


# --- 2. the home page's radio groups --------------------------------------------------------


def test_arrow_keys_on_the_home_pages_radio_groups_keep_the_focus_on_the_radio_chosen(
    live_server: Any, page: Any
) -> None:
    open_ready(page, live_server.url + "/")
    for name in ("players", "hotseat-count", "online-count"):
        page.locator(f"input[name='{name}']:checked").focus()
        for key in ("ArrowLeft", "ArrowRight"):
            page.keyboard.press(key)
            focused = page.evaluate("() => [document.activeElement.name, document.activeElement.checked]")
            assert focused == [name, True], (name, key)
    assert "you play" in page.locator("#quick-summary").inner_text()


# --- 3. the replay ------------------------------------------------------------------------------


def open_replay(server: Any, page: Any, rules: str = "classic", players: int = 2) -> dict[str, Any]:
    game = finished_game(server, rules, players)
    open_game(page, game["spectator_link"])
    wait_finished(server, game["id"])
    open_ready(page, f"{server.url}/replay/{game['id']}")
    return game


def test_the_replays_buttons_keep_the_keyboard_and_each_move_is_announced_once(quick_server: Any, page: Any) -> None:
    open_replay(quick_server, page)
    total = page.locator("#steps li").count()
    first = page.locator("#steps li").first.locator(".text").inner_text()

    page.locator("#next").focus()
    page.keyboard.press("Enter")
    live = page.locator("#replay [aria-live]:not([aria-live=off]), #replay [role=status]")
    expect(live).to_have_count(1)  # the counter and the panel are not two announcements of one move
    expect(live).to_have_text(re.compile(rf"^Move 1 of {total}\. .*{re.escape(first)}$"))
    slider = page.locator("#slider")
    assert slider.get_attribute("aria-valuetext") == f"Move 1 of {total}: {first}"

    page.locator("#previous").focus()
    page.keyboard.press("Enter")  # back at the start: Previous is disabled, the keyboard goes on to Next
    expect(page.locator("#counter")).to_have_text(f"Move 0 of {total}")
    assert page.evaluate(FOCUSED) == "next"
    assert (slider.get_attribute("aria-valuetext") or "").startswith(f"Move 0 of {total}: The start")

    page.locator("#last").focus()
    page.keyboard.press("Enter")  # at the end: Last is disabled, the keyboard goes back to Previous
    expect(page.locator("#counter")).to_have_text(f"Move {total} of {total}")
    assert page.evaluate(FOCUSED) == "previous"

    button = page.locator("#steps button").first  # its name is the move in words, not the notation too
    expect(button).to_have_accessible_name(f"1. {first}")
    assert button.locator(".notation").is_visible()


def test_the_replay_does_not_scroll_sideways_on_a_small_phone(quick_server: Any, browser: Any) -> None:
    context = browser.new_context(viewport={"width": 320, "height": 640})
    try:
        page = context.new_page()
        open_replay(quick_server, page, "modern", 4)  # the longest moves written
        for key in ("End", "Home"):
            page.keyboard.press(key)
            widths = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
            assert widths[0] <= widths[1], (key, widths)
    finally:
        context.close()


# --- 4. the scorekeeper -----------------------------------------------------------------------


def test_recording_a_game_with_the_keyboard_goes_on_to_the_next_games_winner(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    add_players(page, "Ann", "Bob")
    form = page.locator("#game-form")
    form.get_by_label("Bob", exact=True).check()
    form.get_by_role("button", name="Record game 1").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#record-title")).to_have_text("Record game 2")
    focused = page.evaluate("() => [document.activeElement.name, document.activeElement.value]")
    first = form.locator("input[name=winner]").first.get_attribute("value")
    assert focused == ["winner", first]


# --- 5. the home page's online game -----------------------------------------------------------


def create_online_game(page: Any, server: Any) -> Any:
    open_ready(page, server.url + "/")
    page.locator("#online").get_by_role("button", name="Create the online game").click()
    panel = page.locator("#game-lobby")
    panel.get_by_role("link", name="Go to my seat").wait_for()
    return panel


def test_a_copy_button_announces_the_copy(live_server: Any, page: Any) -> None:
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    panel = create_online_game(page, live_server)
    button = panel.get_by_role("button", name="Copy spectator link")
    row = panel.locator(".copy-row", has=page.get_by_role("button", name="Copy spectator link"))
    status = row.locator("[role=status]")
    expect(status).to_have_count(1)
    expect(status).to_have_text("")
    button.focus()
    page.keyboard.press("Enter")
    expect(status).to_have_text(re.compile("^(Copied spectator link|Not copied: .*)$"))
    expect(status).to_have_text("", timeout=5_000)  # said once, then cleared with the button's words


def test_handing_a_seat_to_the_computer_keeps_the_keyboard_on_the_seat(live_server: Any, page: Any) -> None:
    panel = create_online_game(page, live_server)
    colour = panel.locator("li.invite", has=page.locator(".hand-over")).first.get_attribute("data-colour")
    assert colour
    row = panel.locator(f"li.invite[data-colour={colour}]")
    row.locator(".hand-over").focus()
    page.keyboard.press("Enter")
    expect(panel.locator("#game-status")).to_contain_text(f"{colour.capitalize()} is played by the computer")
    focused = page.evaluate("() => [document.activeElement.tagName, document.activeElement.dataset.colour]")
    assert focused == ["LI", colour]
    expect(row).to_contain_text("Computer")


# --- 6. the rules -------------------------------------------------------------------------------


def test_the_edition_box_with_arrow_keys_makes_one_history_entry_and_says_what_is_shown(
    live_server: Any, page: Any
) -> None:
    open_ready(page, live_server.url + "/rules/classic")
    before = page.evaluate("() => history.length")
    select = page.locator("#preset")
    select.focus()
    names = select.locator("option").evaluate_all("options => options.map(option => option.value)")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    chosen = names[names.index("classic") + 2]
    page.wait_for_url(f"**/rules/{chosen}")
    expect(page.locator("h1")).to_have_text(re.compile(f"Rules: {re.escape(chosen)}", re.IGNORECASE))
    assert page.evaluate("() => history.length") == before + 1  # two arrows, one entry
    news = page.locator("#rules-news")
    assert news.get_attribute("role") == "status"
    expect(news).to_have_text(f"Showing the rules of {chosen[0].upper()}{chosen[1:]}")
    page.go_back()
    page.wait_for_url("**/rules/classic")
    expect(select).to_have_value("classic")


def test_the_rules_page_starts_its_headings_with_its_title(live_server: Any, page: Any) -> None:
    open_ready(page, live_server.url + "/rules/classic")
    levels = page.locator("h1, h2, h3, h4, h5, h6").evaluate_all("hs => hs.map(h => h.tagName)")
    assert levels[0] == "H1", levels
