"""The home page's hot-seat and online forms, in a real Chromium against a real ``pardon serve``:
what is typed in a seat row outlives a change of rules, of the number of seats or of colour; a
public game's friends' seats are open seats, sent without the names typed for friends; the colour
chosen under "Your colour" is the creator's in every kind of game; and the panel of a solo game
says nothing untrue about other seats."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytest.importorskip("playwright")

from playwright.sync_api import expect

PLAY_URL = re.compile(r"/play/(?P<id>[A-Za-z0-9_-]+)#token=(?P<token>[A-Za-z0-9_-]+)$")


def open_home(page: Any, server: Any) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("body[data-ready=true]")


def seats_of(server: Any, game_id: str) -> list[tuple[str, str, str | None, str, bool]]:
    summary = server.rest(f"/api/games/{game_id}")
    return [(seat["colour"], seat["kind"], seat["level"], seat["name"], seat["open"]) for seat in summary["seats"]]


def rows(form: Any) -> list[str]:
    """The colours of a form's seat rows, in order."""
    colours: list[str] = form.locator(".seat-row").evaluate_all("rows => rows.map((row) => row.dataset.colour)")
    return colours


def test_names_and_seat_kinds_typed_outlive_a_change_of_rules_or_of_the_number_of_seats(
    live_server: Any, page: Any
) -> None:
    open_home(page, live_server)
    hotseat, online = page.locator("#hotseat"), page.locator("#online")
    hotseat.locator("label[for=hotseat-count-3]").click()
    hotseat.get_by_label("Red's name").fill("Ann")
    hotseat.get_by_label("Who plays Blue").select_option("bot")
    hotseat.get_by_label("Blue's computer level").select_option("random")
    hotseat.get_by_label("Who plays Yellow").select_option("hotseat")
    hotseat.get_by_label("Yellow's name").fill("Cy")
    online.locator("label[for=online-count-3]").click()
    online.get_by_label("Red's name").fill("Me")
    online.get_by_label("Blue's name").fill("Cleo")
    online.get_by_label("Who plays Yellow").select_option("bot")
    online.get_by_label("Yellow's computer level").select_option("tactician")

    def typed_is_all_there() -> None:
        expect(hotseat.get_by_label("Red's name")).to_have_value("Ann")
        expect(hotseat.get_by_label("Who plays Blue")).to_have_value("bot")
        expect(hotseat.get_by_label("Blue's computer level")).to_have_value("random")
        expect(hotseat.get_by_label("Who plays Yellow")).to_have_value("hotseat")
        expect(hotseat.get_by_label("Yellow's name")).to_have_value("Cy")
        expect(online.get_by_label("Red's name")).to_have_value("Me")
        expect(online.get_by_label("Blue's name")).to_have_value("Cleo")
        expect(online.get_by_label("Who plays Yellow")).to_have_value("bot")
        expect(online.get_by_label("Yellow's computer level")).to_have_value("tactician")

    page.get_by_label("Rules", exact=True).select_option("modern")  # the rows are drawn again
    typed_is_all_there()
    page.get_by_label("Rules", exact=True).select_option("partners")  # four seats: one row more
    assert rows(hotseat) == rows(online) == ["red", "blue", "yellow", "green"]
    typed_is_all_there()
    page.get_by_label("Rules", exact=True).select_option("classic")
    hotseat.locator("label[for=hotseat-count-2]").click()  # Blue goes; the rows left keep theirs
    online.locator("label[for=online-count-2]").click()
    assert rows(hotseat) == rows(online) == ["red", "yellow"]
    expect(hotseat.get_by_label("Yellow's name")).to_have_value("Cy")
    expect(online.get_by_label("Who plays Yellow")).to_have_value("bot")
    hotseat.locator("label[for=hotseat-count-3]").click()  # and Blue comes back as it was
    online.locator("label[for=online-count-3]").click()
    typed_is_all_there()

    hotseat.get_by_role("button", name="Start the hot-seat game").click()
    page.wait_for_url(PLAY_URL)
    game = PLAY_URL.search(page.url)
    assert game is not None
    assert seats_of(live_server, game["id"]) == [
        ("red", "hotseat", None, "Ann", False),
        ("blue", "bot", "random", "Computer (Beginner)", False),
        ("yellow", "hotseat", None, "Cy", False),
    ]


def test_a_public_games_friend_seats_are_open_seats_sent_without_a_name(live_server: Any, page: Any) -> None:
    """An open seat is whoever joins it from the lobby: a name typed for a friend would be shown
    for a stranger (the server refuses it). The box goes while Public is ticked, its name kept."""
    open_home(page, live_server)
    online = page.locator("#online")
    online.locator("label[for=online-count-3]").click()
    online.get_by_label("Red's name").fill("Host")
    online.get_by_label("Blue's name").fill("Cleo")
    online.get_by_label("Yellow's name").fill("Dan")
    public = online.locator("#online-public")
    public.check()
    for colour in ("Blue", "Yellow"):
        expect(online.get_by_label(f"{colour}'s name")).to_be_hidden()
        expect(online.locator(f".seat-row[data-colour={colour.lower()}] .open-note")).to_have_text(
            "Open to anyone in the lobby, under their own name"
        )
        expect(online.get_by_label(f"Who plays {colour}").locator("option:checked")).to_have_text("Open seat (lobby)")
    expect(online.get_by_label("Red's name")).to_be_visible()  # the host's own seat keeps its name
    public.uncheck()  # invitations again: the names come back
    expect(online.get_by_label("Blue's name")).to_have_value("Cleo")
    expect(online.get_by_label("Yellow's name")).to_be_visible()
    expect(online.locator(".seat-row[data-colour=blue] .open-note")).to_be_hidden()
    expect(online.get_by_label("Who plays Blue").locator("option:checked")).to_have_text("Friend (link)")
    public.check()

    with page.expect_request(lambda request: request.url.endswith("/api/games") and request.method == "POST") as sent:
        online.get_by_role("button", name="Create the online game").click()
    assert [seat.get("name") for seat in sent.value.post_data_json["seats"]] == ["Host", None, None]
    panel = page.locator("#game-lobby")
    mine = panel.get_by_role("link", name="Go to my seat").get_attribute("href")
    game = PLAY_URL.search(mine or "")
    assert game is not None
    assert seats_of(live_server, game["id"]) == [
        ("red", "human", None, "Host", False),
        ("blue", "human", None, "Blue", True),
        ("yellow", "human", None, "Yellow", True),
    ]
    expect(panel.locator(".invite[data-colour=blue] .chip-name")).to_have_text("Blue — open to anyone in the lobby")


def test_your_colour_is_the_creators_in_hot_seat_and_online_games(live_server: Any, page: Any) -> None:
    """The top form's colour was honoured only against the computer: the creator was always Red."""
    open_home(page, live_server)
    hotseat, online = page.locator("#hotseat"), page.locator("#online")
    hotseat.get_by_label("Red's name").fill("Ann")  # the creator's row, Red for now
    hotseat.get_by_label("Yellow's name").fill("Bob")
    online.locator("label[for=online-count-3]").click()
    online.get_by_label("Red's name").fill("Ann")
    online.get_by_label("Blue's name").fill("Cleo")
    online.get_by_label("Yellow's name").fill("Dan")
    page.locator("label[for=colour-blue]").click()
    expect(hotseat.locator(".my-colour")).to_have_text("Blue")
    # two seats: Blue and its opposite, as against the computer; the names go with the people
    assert rows(hotseat) == ["blue", "green"]
    expect(hotseat.get_by_label("Blue's name")).to_have_value("Ann")
    expect(hotseat.get_by_label("Green's name")).to_have_value("Bob")
    # three seats: the usual ones, Blue among them; Cleo, who had Blue, takes the creator's Red
    assert rows(online) == ["red", "blue", "yellow"]
    expect(online.get_by_label("Who plays Blue")).to_have_value("me")
    expect(online.get_by_label("Blue's name")).to_have_value("Ann")
    expect(online.get_by_label("Red's name")).to_have_value("Cleo")
    expect(online.get_by_label("Yellow's name")).to_have_value("Dan")

    online.get_by_role("button", name="Create the online game").click()
    panel = page.locator("#game-lobby")
    expect(panel.locator(".my-seat .chip-name")).to_have_text("You play Blue")
    mine = PLAY_URL.search(panel.get_by_role("link", name="Go to my seat").get_attribute("href") or "")
    assert mine is not None
    assert [seat[:2] + seat[3:4] for seat in seats_of(live_server, mine["id"])] == [
        ("red", "human", "Cleo"),
        ("blue", "human", "Ann"),
        ("yellow", "human", "Dan"),
    ]
    expect(panel.get_by_role("textbox", name="Red's invite link")).to_be_visible()
    page.get_by_role("link", name="Go to my seat").click()
    page.wait_for_url(PLAY_URL)
    page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
    assert page.evaluate("() => window.pardonGame.seats") == ["blue"]

    open_home(page, live_server)
    page.locator("label[for=colour-green]").click()
    page.locator("#hotseat").get_by_role("button", name="Start the hot-seat game").click()
    page.wait_for_url(PLAY_URL)
    game = PLAY_URL.search(page.url)
    assert game is not None
    assert [seat[:2] for seat in seats_of(live_server, game["id"])] == [("blue", "hotseat"), ("green", "hotseat")]


def test_a_solo_online_game_says_it_has_no_other_seat(live_server: Any, page: Any) -> None:
    open_home(page, live_server)
    page.get_by_label("Rules", exact=True).select_option("solo")
    page.locator("#online").get_by_role("button", name="Create the online game").click()
    panel = page.locator("#game-lobby")
    expect(panel.get_by_role("link", name="Go to my seat")).to_be_visible()
    words = panel.inner_text()
    assert "Every other seat is a computer player" not in words
    assert "the solo challenge has no other seat" in words
    assert "The game starts when you go to your seat." in words


def test_names_typed_in_rows_a_smaller_game_hides_outlive_a_change_of_colour(live_server: Any, page: Any) -> None:
    """Four seats typed, then two, then another colour, then four again: the names of the rows
    the two-seat form hid were gone."""
    open_home(page, live_server)
    hotseat = page.locator("#hotseat")
    hotseat.locator("label[for=hotseat-count-4]").click()
    for colour, name in (("Red", "Ann"), ("Blue", "Bob"), ("Yellow", "Cy"), ("Green", "Di")):
        hotseat.get_by_label(f"Who plays {colour}").select_option("hotseat")
        hotseat.get_by_label(f"{colour}'s name").fill(name)
    hotseat.locator("label[for=hotseat-count-2]").click()
    page.locator("label[for=colour-blue]").click()
    hotseat.locator("label[for=hotseat-count-4]").click()
    names = sorted(
        hotseat.get_by_label(f"{colour}'s name").input_value() for colour in ("Red", "Blue", "Yellow", "Green")
    )
    assert names == ["Ann", "Bob", "Cy", "Di"]
    expect(hotseat.get_by_label("Blue's name")).to_have_value("Ann")  # the creator's row


def test_an_online_game_made_and_left_is_among_the_games_in_progress(live_server: Any, page: Any) -> None:
    """ "Create another online game" dropped the last one's links for good: a host who never
    went to their seat could not reach that game again (and its public seats counted against
    the address's limit until they expired)."""
    open_home(page, live_server)
    online = page.locator("#online")
    online.get_by_role("button", name="Create the online game").click()
    panel = page.locator("#game-lobby")
    mine = PLAY_URL.search(panel.get_by_role("link", name="Go to my seat").get_attribute("href") or "")
    assert mine is not None
    open_home(page, live_server)  # left without going to the seat
    item = page.locator(f"#my-games [data-game='{mine['id']}']")
    item.get_by_role("link", name="Continue").click()
    page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
    assert page.evaluate("() => window.pardonGame.seats") == ["red"]
