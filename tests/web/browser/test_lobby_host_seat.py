"""The lobby, in a real Chromium against a real ``pardon serve``: a public game's seat made for
someone (the host's own, or a friend's with an invite link) is "Taken" only once its player has
come; before that it is said to be waiting for them, as the game page says."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect


def test_a_hosts_seat_not_opened_yet_is_not_shown_taken(live_server: Any, browser: Any) -> None:
    created = live_server.rest(
        "/api/games", {"rules": "classic", "public": True, "seats": [{"kind": "human"}, {"kind": "open"}]}
    )
    visitor, host = browser.new_context(), browser.new_context()
    try:
        page = visitor.new_page()
        page.goto(live_server.url + "/lobby")
        red = page.locator(f"[data-game='{created['id']}'] li[data-colour=red]")
        red.wait_for()
        summary = live_server.rest(f"/api/games/{created['id']}")["seats"][0]
        assert (summary["taken"], summary["open"], summary["joining"]) == (False, False, False)
        expect(red.locator(".badge")).to_have_text("Not here yet")
        expect(red.locator(".badge")).to_have_class("badge waiting")
        assert red.get_by_role("button").count() == 0  # still nobody else's to join

        seat = host.new_page()  # the host comes: now the seat is taken
        seat.goto(created["seats"][0]["link"])
        seat.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        page.get_by_role("button", name="Refresh").click()
        expect(red.locator(".badge")).to_have_text("Taken")
        expect(red.locator(".badge")).to_have_class("badge joined")
    finally:
        visitor.close()
        host.close()


def test_a_seat_joined_whose_page_never_opened_is_still_this_browsers(live_server: Any, browser: Any) -> None:
    """The join's answer carries the seat's only token: a Back pressed, or a page closed, on
    the way to the seat left it kept for nobody until the grace time ran out, and its joiner
    was refused it ("Being joined")."""
    created = live_server.rest(
        "/api/games", {"rules": "classic", "public": True, "seats": [{"kind": "open"}, {"kind": "open"}]}
    )
    context = browser.new_context()
    try:
        page = context.new_page()
        page.route("**/play/**", lambda route: route.fulfill(status=204))  # the way to the seat is lost: no page
        page.goto(live_server.url + "/lobby")
        card = page.locator(f"[data-game='{created['id']}']")
        card.get_by_role("button", name="Join as Red", exact=True).click()
        page.wait_for_function(f"() => localStorage.getItem('pardon.joined.{created['id']}') === 'red'")
        page.unroute("**/play/**")
        page.goto(live_server.url + "/lobby")  # back to the lobby: the seat is this browser's to go to
        red = page.locator(f"[data-game='{created['id']}'] li[data-colour=red]")
        expect(red.get_by_role("link", name="Go to your seat")).to_be_visible()
        assert page.locator(f"[data-game='{created['id']}'] li[data-colour=yellow]").get_by_role("button").count() == 1

        page.goto(live_server.url + "/")  # and the home page, under the games in progress
        mine = page.locator(f"#my-games [data-game='{created['id']}']")
        mine.get_by_role("link", name="Continue").click()
        page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        assert page.evaluate("window.pardonGame.seats") == ["red"]
        summary = live_server.rest(f"/api/games/{created['id']}")["seats"][0]
        assert (summary["colour"], summary["taken"]) == ("red", True)
    finally:
        context.close()


def test_a_joiner_names_themself_in_the_lobby_and_the_host_sees_the_name(live_server: Any, browser: Any) -> None:
    """Every player joining from the lobby was "Yellow" everywhere: no name could be given."""
    seats = [{"kind": "human", "name": "Host"}, {"kind": "open"}]
    created = live_server.rest("/api/games", {"rules": "classic", "public": True, "seats": seats})
    joiner, host = browser.new_context(), browser.new_context()
    try:
        page = joiner.new_page()
        page.goto(live_server.url + "/lobby")
        page.get_by_label("Your name").fill("Sam")
        page.locator(f"[data-game='{created['id']}']").get_by_role("button", name="Join as Yellow", exact=True).click()
        page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        expect(page.locator("#seats")).to_contain_text("Sam")
        seat = host.new_page()
        seat.goto(created["seats"][0]["link"])
        seat.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
        expect(seat.locator("#seats")).to_contain_text("Sam")
        page.goto(live_server.url + "/lobby")  # the name is kept for the next join
        expect(page.get_by_label("Your name")).to_have_value("Sam")
    finally:
        joiner.close()
        host.close()
