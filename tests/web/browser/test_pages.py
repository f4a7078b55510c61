"""The pages around the game, in a real Chromium against a real ``pardon serve``: home, the
lobby, the rules, the replay viewer, and the address ``make play`` prints."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from tests.web.browser.play_support import play_to_the_end, wait_finished

from pardon.core.rules import PRESETS
from pardon.web.pages import STATIC
from pardon.web.server import network_address

ROOT = Path(__file__).resolve().parents[3]
PLAY_URL = re.compile(r"/play/(?P<id>[A-Za-z0-9_-]+)#token=(?P<token>[A-Za-z0-9_-]+)$")


def open_ready(page: Any, url: str) -> None:
    """Open a page and wait until its script has loaded what it needs from the API."""
    page.goto(url)
    page.wait_for_selector("body[data-ready=true]")


def game_id_of(url: str) -> str:
    match = PLAY_URL.search(url)
    assert match, url
    return match["id"]


def seats_of(server: Any, game_id: str) -> list[tuple[str, str, str | None, str]]:
    summary = server.rest(f"/api/games/{game_id}")
    return [(seat["colour"], seat["kind"], seat["level"], seat["name"]) for seat in summary["seats"]]


def game_page_exists() -> bool:
    return (STATIC / "game.html").is_file()


def test_one_click_from_home_plays_the_computer(live_server: Any, page: Any, artefacts: Path) -> None:
    open_ready(page, live_server.url + "/")
    page.screenshot(path=str(artefacts / "home.png"), full_page=True)
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(PLAY_URL)
    game_id = game_id_of(page.url)
    assert seats_of(live_server, game_id) == [
        ("red", "human", None, "Red"),
        ("blue", "bot", "expectimax", "Computer (Hard)"),
        ("yellow", "bot", "expectimax", "Computer (Hard)"),
        ("green", "bot", "expectimax", "Computer (Hard)"),
    ]
    assert live_server.rest(f"/api/games/{game_id}")["rules"] == "classic"
    if game_page_exists():
        page.wait_for_selector("svg")
        deadline = time.monotonic() + 10
        while live_server.rest(f"/api/games/{game_id}")["status"] != "playing" and time.monotonic() < deadline:
            time.sleep(0.1)
        assert live_server.rest(f"/api/games/{game_id}")["status"] == "playing"


def test_home_options_choose_the_rules_players_level_and_colour(live_server: Any, page: Any) -> None:
    open_ready(page, live_server.url + "/")
    page.get_by_label("Rules", exact=True).select_option("modern")
    assert "Fire and Ice" in page.locator("#preset-about").inner_text()
    page.locator("label[for=players-2]").click()
    page.get_by_label("Computer level", exact=True).select_option("tactician")
    page.locator("label[for=colour-blue]").click()
    assert "Blue against 1 computer player (Medium)" in page.locator("#quick-summary").inner_text()
    page.get_by_role("button", name="Play against the computer").click()
    page.wait_for_url(PLAY_URL)
    game_id = game_id_of(page.url)
    assert seats_of(live_server, game_id) == [
        ("blue", "human", None, "Blue"),
        ("green", "bot", "tactician", "Computer (Medium)"),
    ]
    assert live_server.rest(f"/api/games/{game_id}")["rules"] == "modern"


def test_hot_seat_names_players_and_refuses_a_screen_with_nobody(live_server: Any, page: Any) -> None:
    open_ready(page, live_server.url + "/")
    form = page.locator("#hotseat")
    form.locator("label[for=hotseat-count-3]").click()
    for colour in ("red", "blue"):
        form.get_by_label(f"Who plays {colour.capitalize()}").select_option("bot")
    form.get_by_role("button", name="Start the hot-seat game").click()
    assert "at least one player on this screen" in form.get_by_role("alert").inner_text()
    form.get_by_label("Who plays Red").select_option("hotseat")
    form.get_by_label("Who plays Blue").select_option("hotseat")
    form.get_by_label("Red's name").fill("Ann")
    form.get_by_label("Blue's name").fill("Bob")
    form.get_by_label("Yellow's computer level").select_option("random")
    form.get_by_role("button", name="Start the hot-seat game").click()
    page.wait_for_url(PLAY_URL)
    assert seats_of(live_server, game_id_of(page.url)) == [
        ("red", "hotseat", None, "Ann"),
        ("blue", "hotseat", None, "Bob"),
        ("yellow", "bot", "random", "Computer (Beginner)"),
    ]


def say_hello(page: Any, game_id: str, token: str) -> None:
    """A player's browser connects to the game as the game page does (hello with its token)."""
    page.evaluate(
        """([id, token]) => new Promise((resolve, reject) => {
            const socket = new WebSocket(`ws://${location.host}/ws/games/${id}`);
            socket.onopen = () => socket.send(JSON.stringify({type: "hello", token, since: 0}));
            socket.onmessage = (message) => { if (JSON.parse(message.data).type === "sync") resolve(); };
            socket.onerror = () => reject(new Error("websocket failed"));
            window.keepOpen = socket;
        })""",
        [game_id, token],
    )


def test_online_game_shows_invites_that_copy_and_seats_that_join(
    live_server: Any, browser: Any, artefacts: Path
) -> None:
    host = browser.new_context(
        viewport={"width": 1280, "height": 900}, permissions=["clipboard-read", "clipboard-write"]
    )
    friend = browser.new_context()
    try:
        page = host.new_page()
        open_ready(page, live_server.url + "/")
        form = page.locator("#online")
        form.locator("label[for=online-count-3]").click()
        form.get_by_label("Blue's name").fill("Cleo")
        form.get_by_label("Who plays Yellow").select_option("bot")
        form.get_by_role("button", name="Create the online game").click()
        lobby = page.locator("#game-lobby")
        invite = lobby.get_by_role("textbox", name="Blue's invite link")
        link = invite.input_value()
        match = PLAY_URL.search(link)
        assert match and link.startswith(live_server.url)
        assert seats_of(live_server, match["id"])[1] == ("blue", "human", None, "Cleo")
        lobby.get_by_role("button", name="Copy Blue's invite link").click()
        assert page.evaluate("navigator.clipboard.readText()") == link
        assert lobby.get_by_role("button", name="Copy Blue's invite link").inner_text() == "Copied!"
        badge = lobby.locator(".invite[data-colour=blue] .badge")
        assert badge.inner_text() == "Waiting"
        assert (
            lobby.get_by_role("textbox", name="spectator link")
            .input_value()
            .startswith(f"{live_server.url}/play/{match['id']}#")
        )
        mine = lobby.get_by_role("link", name="Go to my seat").get_attribute("href")
        assert mine is not None and PLAY_URL.search(mine) and mine != link

        guest = friend.new_page()
        guest.goto(live_server.url + "/lobby")
        say_hello(guest, match["id"], match["token"])
        page.wait_for_function("document.querySelector('.invite[data-colour=blue] .badge').textContent === 'Joined'")
        page.screenshot(path=str(artefacts / "home-online-lobby.png"), full_page=True)
        page.get_by_role("link", name="Go to my seat").click()
        page.wait_for_url(PLAY_URL)
        assert game_id_of(page.url) == match["id"]
    finally:
        host.close()
        friend.close()


def test_an_online_game_waiting_for_players_is_still_there_after_the_home_page_is_reloaded(
    live_server: Any, page: Any
) -> None:
    """The invite links and the host's own seat are shown once: a reload (or the tab closed and
    opened again) must not lose them, or the game waits for its host for ever."""
    open_ready(page, live_server.url + "/")
    page.locator("#online").get_by_role("button", name="Create the online game").click()
    lobby = page.locator("#game-lobby")
    link = lobby.get_by_role("textbox", name="Yellow's invite link").input_value()
    mine = lobby.get_by_role("link", name="Go to my seat").get_attribute("href")
    open_ready(page, live_server.url + "/")
    expect(lobby.get_by_role("textbox", name="Yellow's invite link")).to_have_value(link)
    assert lobby.get_by_role("link", name="Go to my seat").get_attribute("href") == mine
    lobby.get_by_role("button", name="Create another online game").click()  # done with it: the form again
    expect(lobby).to_be_hidden()
    expect(page.get_by_role("button", name="Create the online game")).to_be_visible()
    open_ready(page, live_server.url + "/")
    expect(lobby).to_be_hidden()


def test_a_friend_who_cannot_come_is_played_by_the_computer_so_the_game_can_start(
    live_server: Any, page: Any, artefacts: Path
) -> None:
    """A friend who never opens their link once kept the game waiting for good: the host hands
    their seat to a computer, from the home page or from the host's own seat."""
    open_ready(page, live_server.url + "/")
    form = page.locator("#online")
    form.locator("label[for=online-count-3]").click()
    form.get_by_label("Blue's name").fill("Cleo")
    form.get_by_role("button", name="Create the online game").click()
    lobby = page.locator("#game-lobby")
    link = lobby.get_by_role("textbox", name="Blue's invite link").input_value()
    game = PLAY_URL.search(link)
    assert game is not None
    lobby.get_by_role("button", name="Computer plays Blue instead").click()
    blue = lobby.locator(".invite[data-colour=blue]")
    expect(blue.locator(".badge")).to_have_text("Computer")
    expect(blue.locator(".chip-name")).to_have_text("Blue — Computer (Hard)")
    expect(page.locator("#game-status")).to_contain_text("Blue is played by the computer (Hard) now")
    assert seats_of(live_server, game["id"])[1][:2] == ("blue", "bot")
    lobby.screenshot(path=str(artefacts / "home-online-hand-over.png"))

    page.get_by_role("link", name="Go to my seat").click()
    page.wait_for_url(PLAY_URL)
    expect(page.locator("#turn")).to_have_text("Waiting for Yellow to join")
    page.get_by_role("button", name="Computer plays Yellow instead").click()
    expect(page.locator("#turn")).not_to_contain_text("Waiting")
    expect(page.locator("#no-shows")).to_be_hidden()
    assert [kind for _, kind, _, _ in seats_of(live_server, game["id"])] == ["human", "bot", "bot"]


def test_a_game_put_down_is_offered_again_on_the_home_page_until_it_is_over(live_server: Any, page: Any) -> None:
    """A hot-seat game left (the Back button, a tab closed) could only be found again through the
    browser's history: the home page now offers every game of this browser still going."""
    seats = [{"kind": "hotseat", "name": "Mémé"}, {"kind": "hotseat", "name": "Léo"}, {"kind": "bot"}]
    family = live_server.rest("/api/games", {"seed": 2, "seats": seats})
    page.goto(family["host_link"])
    page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
    over = live_server.rest("/api/games", {"seed": 3, "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]})
    play_to_the_end(live_server, over, over["seats"][0]["token"])
    page.goto(over["seats"][0]["link"])
    page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
    open_ready(page, live_server.url + "/")
    games = page.locator("#my-games")
    expect(games).to_be_visible()
    items = games.locator("li")
    assert items.count() == 1  # the game that is over is not offered
    assert "Mémé (Red), Léo (Blue)" in items.first.inner_text()
    items.first.get_by_role("link", name="Continue").click()
    page.wait_for_url(f"**/play/{family['id']}")
    page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")
    assert page.evaluate("() => window.pardonGame.seats") == ["red", "blue"]  # the seats, without the link


def test_a_friend_invited_without_a_name_is_named_by_colour_once(live_server: Any, page: Any, artefacts: Path) -> None:
    open_ready(page, live_server.url + "/")
    form = page.locator("#online")
    form.locator("label[for=online-count-3]").click()
    form.get_by_label("Blue's name").fill("Cleo")  # Yellow is left without a name
    form.get_by_role("button", name="Create the online game").click()
    lobby = page.locator("#game-lobby")
    lobby.get_by_role("textbox", name="Yellow's invite link").wait_for()
    heads = {
        colour: lobby.locator(f".invite[data-colour={colour}] .chip-name").inner_text() for colour in ("blue", "yellow")
    }
    assert heads == {"blue": "Blue — Cleo", "yellow": "Yellow"}  # once "Yellow — Yellow"
    lobby.screenshot(path=str(artefacts / "home-online-invites.png"))


def test_public_lobby_lists_a_game_and_join_takes_the_seat(live_server: Any, page: Any, artefacts: Path) -> None:
    created = live_server.rest("/api/games", {"public": True, "seats": [{"kind": "open"}, {"kind": "open"}]})
    game_id = created["id"]
    open_ready_lobby = live_server.url + "/lobby"
    page.goto(open_ready_lobby)
    card = page.locator(f"[data-game='{game_id}']")
    card.wait_for()
    assert card.get_by_role("button", name="Join as Red", exact=True).is_visible()
    page.screenshot(path=str(artefacts / "lobby.png"), full_page=True)
    card.get_by_role("button", name="Join as Yellow", exact=True).click()
    page.wait_for_url(PLAY_URL)
    assert game_id_of(page.url) == game_id
    summary = live_server.rest(f"/api/games/{game_id}")
    assert [(seat["colour"], seat["open"]) for seat in summary["seats"]] == [("red", True), ("yellow", False)]


def test_lobby_says_why_a_seat_cannot_be_taken(live_server: Any, page: Any) -> None:
    created = live_server.rest("/api/games", {"public": True, "seats": [{"kind": "open"}, {"kind": "bot"}]})
    page.clock.install()  # the lobby refreshes only when the test says: the stale button stays
    page.goto(live_server.url + "/lobby")
    card = page.locator(f"[data-game='{created['id']}']")
    card.wait_for()
    live_server.rest(f"/api/games/{created['id']}/join", {"seat": "red"})  # someone else was quicker
    card.get_by_role("button", name=re.compile("as Red")).click()
    alert = page.locator("#lobby-error")
    alert.wait_for()
    assert "Could not join as Red: Red has been taken" in alert.inner_text()


def test_rules_page_shows_every_preset(live_server: Any, page: Any, artefacts: Path) -> None:
    open_ready(page, live_server.url + "/rules")
    assert page.get_by_role("heading", level=1).inner_text() == "Rules: Classic"
    assert page.get_by_role("heading", name="The classic game (classic)").is_visible()
    own_section = {
        "classic-1939": "The 1939 game",
        "partners": "Partners",
        "adult": "Hands of five",
        "modern": "The 2013 edition with Fire and Ice",
        "modern-no-tokens": "The 2013 edition without tokens",
        "solo": "The solo challenge",
    }
    for name in PRESETS:
        page.get_by_label("Edition").select_option(name)
        page.wait_for_function(f"document.querySelector('h1')?.textContent.toLowerCase() === 'rules: {name}'")
        assert page.url.endswith(f"/rules/{name}")
        if name in own_section:
            own = page.get_by_role("heading", name=re.compile("^" + re.escape(own_section[name])))
            own.first.wait_for()
            assert own.count() == 1
    assert page.locator("tr.changed").count() >= 2  # solo: solo and leader differ from classic
    page.screenshot(path=str(artefacts / "rules-solo.png"))
    open_ready(page, live_server.url + "/rules/chess")
    assert "there is no preset 'chess'" in page.get_by_role("alert").inner_text()
    # no edition is chosen in the box, so that choosing Classic (the first) shows it
    assert page.get_by_label("Edition").input_value() == ""
    page.get_by_label("Edition").select_option("classic")
    page.wait_for_function("document.querySelector('h1')?.textContent.toLowerCase() === 'rules: classic'")


def test_an_edition_opens_at_its_top_and_a_name_in_capitals_is_the_edition(live_server: Any, page: Any) -> None:
    open_ready(page, live_server.url + "/rules/CLASSIC")
    assert page.url.endswith("/rules/classic")
    page.wait_for_function("document.querySelector('h1')?.textContent.toLowerCase() === 'rules: classic'")
    page.locator("#options").scroll_into_view_if_needed()
    assert page.evaluate("window.scrollY") > 1000
    page.get_by_label("Edition").select_option("adult")
    page.wait_for_function("document.querySelector('h1')?.textContent.toLowerCase() === 'rules: adult'")
    page.wait_for_function("window.scrollY === 0")  # not in the middle of the adult rules


def test_pardon_serve_prints_the_address_to_open(tmp_path: Path) -> None:
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^play:.*\n\t\$\(BIN\)/pardon serve\b", makefile, re.MULTILINE)
    command = [sys.executable, "-m", "pardon", "serve", "--port", "0", "--db", str(tmp_path / "games.sqlite3")]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        found = re.fullmatch(
            r"pardon is running: open (http://127\.0\.0\.1:\d+) in your browser \(Ctrl\+C stops it\)\n", line
        )
        assert found, line
        with urllib.request.urlopen(found[1] + "/", timeout=10) as answer:
            assert "Play against the computer" in answer.read().decode()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_pardon_serve_on_every_address_prints_the_one_friends_can_open(tmp_path: Path) -> None:
    """Opened at localhost, the invite links lead to localhost: a host serving friends on the
    network is told the address to open instead (when the machine has one)."""
    command = [sys.executable, "-m", "pardon", "serve", "--host", "0.0.0.0", "--port", "0"]
    server = subprocess.Popen(
        [*command, "--db", str(tmp_path / "g.sqlite3")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline()
        assert re.fullmatch(
            r"pardon is running: open http://localhost:\d+ in your browser \(Ctrl\+C stops it\)\n", first
        )
        shared = network_address()
        if shared is not None:  # a machine with no network has no such address to give
            second = server.stdout.readline()
            assert second.startswith(f"for friends on your network, open http://{shared}:"), second
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_invite_links_to_localhost_say_a_friend_elsewhere_cannot_open_them(live_server: Any, page: Any) -> None:
    open_ready(page, live_server.url.replace("127.0.0.1", "localhost") + "/")
    page.locator("#online").get_by_role("button", name="Create the online game").click()
    expect(page.locator("#local-links")).to_contain_text("These links lead to this computer only")


def test_pardon_serve_says_when_the_port_is_taken(live_server: Any, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(live_server.port), "--db", str(tmp_path / "x")]
    finished = subprocess.run(command, check=False, capture_output=True, text=True, timeout=30)
    assert finished.returncode == 2
    assert f"cannot listen on 127.0.0.1:{live_server.port}: is another server using it?" in finished.stderr


@pytest.mark.skipif(not (STATIC / "board.js").is_file(), reason="the board is drawn by board.js")
def test_replay_viewer_steps_and_jumps(live_server: Any, page: Any, artefacts: Path) -> None:
    created = live_server.rest(
        "/api/games",
        {"seed": 3, "seats": [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]},
    )
    game_id = created["id"]
    page.goto(live_server.url + "/lobby")
    say_hello(page, game_id, created["spectator_token"])  # someone watching: the computers begin
    deadline = time.monotonic() + 60
    while live_server.rest(f"/api/games/{game_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.2)
    steps = live_server.rest(f"/api/games/{game_id}/replay")["steps"]
    open_ready(page, f"{live_server.url}/replay/{game_id}")
    counter, description, total = page.locator("#counter"), page.locator("#description"), len(steps)
    expect(counter).to_have_text(f"Move 0 of {total}")
    page.get_by_role("button", name="Next move").click()
    expect(counter).to_have_text(f"Move 1 of {total}")
    expect(description).to_have_text(steps[0]["description"])
    expect(page.locator("#big-card")).to_have_text(steps[0]["card"])
    page.keyboard.press("ArrowRight")
    expect(description).to_have_text(steps[1]["description"])
    page.keyboard.press("ArrowLeft")
    expect(counter).to_have_text(f"Move 1 of {total}")
    page.locator("#steps button").nth(9).click()
    expect(counter).to_have_text(f"Move 10 of {total}")
    expect(description).to_have_text(steps[9]["description"])
    page.get_by_label("Jump to move").fill(str(total))
    expect(counter).to_have_text(f"Move {total} of {total}")
    expect(description).to_contain_text("wins")
    page.get_by_role("button", name="Previous move").click()
    page.evaluate("document.activeElement.blur()")
    page.keyboard.press(" ")  # play: one move to the end, then it stops
    expect(counter).to_have_text(f"Move {total} of {total}")
    expect(page.get_by_role("button", name="Play", exact=True)).to_be_visible()
    page.screenshot(path=str(artefacts / "replay.png"))
    record = page.get_by_role("link", name="Download the record")
    assert record.get_attribute("href") == f"/api/games/{game_id}/record"
    assert page.locator("svg").count() >= 1


BOARD_PAWNS = "() => [...document.querySelectorAll('#board .pawn')].map((pawn) => pawn.dataset.key).sort()"


@pytest.mark.parametrize("gap_ms", [40, 150])
def test_the_replay_stepped_quickly_shows_on_the_board_the_move_it_names(
    quick_server: Any, page: Any, gap_ms: int
) -> None:
    # 40 presses of the right arrow 40 or 150 ms apart once left the board 2 to 14 moves behind the
    # counter for good: each step's animation ran over the others'
    bots = [{"kind": "bot", "level": "random"}] * 4
    created = quick_server.rest("/api/games", {"seed": 5, "seats": bots})
    page.goto(quick_server.url + "/lobby")
    say_hello(page, created["id"], created["spectator_token"])  # someone watching: the computers begin
    wait_finished(quick_server, created["id"])
    total = len(quick_server.rest(f"/api/games/{created['id']}/replay")["steps"])
    assert total > 45
    open_ready(page, f"{quick_server.url}/replay/{created['id']}")
    page.locator("#counter").click()  # the page, not a button, has the keys
    for _ in range(40):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(gap_ms)
    expect(page.locator("#counter")).to_have_text(f"Move 40 of {total}")
    page.wait_for_timeout(1500)  # every animation over
    stepped = page.evaluate(BOARD_PAWNS)
    slider = page.get_by_label("Jump to move")
    slider.fill("39")
    slider.fill("40")  # drawn at once, without animation
    expect(page.locator("#counter")).to_have_text(f"Move 40 of {total}")
    assert page.evaluate(BOARD_PAWNS) == stepped


def test_a_partners_replay_names_the_rules_in_words_and_the_team_that_won(quick_server: Any, page: Any) -> None:
    bots = [{"kind": "bot", "level": "random"}] * 4
    created = quick_server.rest("/api/games", {"rules": "partners(partner_split=any)", "seed": 3, "seats": bots})
    page.goto(quick_server.url + "/lobby")
    say_hello(page, created["id"], created["spectator_token"])  # someone watching: the computers begin
    wait_finished(quick_server, created["id"])
    winner = quick_server.rest(f"/api/games/{created['id']}")["winner"]
    team = " and ".join(
        colour.capitalize() for colour in (("red", "yellow") if winner in ("red", "yellow") else ("blue", "green"))
    )
    open_ready(page, f"{quick_server.url}/replay/{created['id']}")
    expect(page.locator("#title")).to_have_text("Replay: Partners with 7s split among any team pawns")
    expect(page.locator("#result")).to_contain_text(f"{team} win after ")  # once "Red wins": partners win together


def test_a_replay_of_a_hand_game_for_points_says_its_start_cards_and_points(quick_server: Any, page: Any) -> None:
    """The 1992 game starts a pawn of each colour on its start exit, and its cards come from hands:
    the replay said "every pawn in Start", "Yellow drew 4", and never the points."""
    bots = [{"kind": "bot", "level": "greedy"}] * 2
    created = quick_server.rest("/api/games", {"rules": "adult", "seed": 5, "seats": bots})
    page.goto(quick_server.url + "/lobby")
    say_hello(page, created["id"], created["spectator_token"])
    wait_finished(quick_server, created["id"])
    replay = quick_server.rest(f"/api/games/{created['id']}/replay")
    scores = replay["steps"][-1]["position"]["scores"]
    open_ready(page, f"{quick_server.url}/replay/{created['id']}")
    first = replay["steps"][0]["colour"].capitalize()
    expect(page.locator("#description")).to_have_text(
        f"The start: one pawn of each colour on its start exit, the others in Start; {first} plays first."
    )
    page.get_by_role("button", name="Next move").click()
    card = replay["steps"][0]["card"]
    expect(page.locator("#card-name")).to_have_text(f"{first}'s card: {'Sorry!' if card == 'sorry' else card}")
    points = " · ".join(f"{colour.capitalize()} {scores[colour]}" for colour in ("red", "yellow"))
    expect(page.locator("#result")).to_contain_text(f"Points: {points}.")


def test_replay_of_an_unfinished_game_says_why(live_server: Any, page: Any) -> None:
    created = live_server.rest("/api/games", {"seats": [{"kind": "human"}, {"kind": "bot"}]})
    open_ready(page, f"{live_server.url}/replay/{created['id']}")
    expect(page.get_by_role("alert")).to_contain_text("once it is over")


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/play/%E0%A4%A", "There is no such game."),
        ("/replay/%E0%A4%A", "there is no game '%E0%A4%A'"),
        ("/rules/%E0%A4%A", "there is no preset '%E0%A4%A'"),
        ("/play/{game}#token=%E0%A4%A", "This link does not open a seat of this game."),
    ],
)
def test_an_address_with_a_broken_escape_says_what_is_wrong(live_server: Any, page: Any, path: str, says: str) -> None:
    """A link cut short or mangled ("%E0%A4%A" is no escape) once stopped each page's script at
    its first line (URIError), leaving "Loading…" for ever; now the server says what is wrong."""
    created = live_server.rest("/api/games", {"seats": [{"kind": "human"}, {"kind": "bot"}]})
    failures: list[str] = []
    page.on("pageerror", lambda error: failures.append(str(error)))
    page.goto(live_server.url + path.format(game=created["id"]))
    expect(page.locator("body")).to_contain_text(says)
    assert failures == []


def test_an_unknown_game_says_so_plainly_with_the_way_home(live_server: Any, page: Any, artefacts: Path) -> None:
    """No empty board, card and players beside the message: the message, and a link home."""
    page.goto(live_server.url + "/play/SOMEID")
    expect(page.get_by_role("heading", name="There is no such game.")).to_be_visible()
    for part in ("#board", "#big-card", "#seats", "#log"):
        expect(page.locator(part)).to_be_hidden()
    home = page.get_by_role("link", name="Go to the home page")
    expect(home).to_have_attribute("href", "/")
    assert page.title().startswith("There is no such game.")
    page.screenshot(path=str(artefacts / "game-unknown.png"))
    home.click()
    page.wait_for_selector("body[data-ready=true]")
    assert page.url == live_server.url + "/"


@pytest.mark.parametrize("path", ["/nowhere", "/play/", "/rules/classic/more"])
def test_an_address_that_is_no_page_is_a_page_in_the_sites_style(
    live_server: Any, page: Any, artefacts: Path, path: str
) -> None:
    """Once the raw JSON ``{"detail":"Not Found"}``; programs still get it (tests/web/test_pages_route.py)."""
    answer = page.goto(live_server.url + path)
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", name="There is no such page")).to_be_visible()
    expect(page.get_by_role("navigation", name="Site")).to_be_visible()
    if path == "/nowhere":
        page.screenshot(path=str(artefacts / "not-found.png"))
    page.get_by_role("link", name="Go to the home page").click()
    page.wait_for_selector("body[data-ready=true]")


def with_back_forward_cache(browser: Any) -> Any:
    """Another Chromium, with the back-forward cache that Playwright turns off (``--disable-back-forward-cache``)."""
    return browser.browser_type.launch(
        executable_path=shutil.which("chromium") or shutil.which("chromium-browser"),
        headless=True,
        args=["--no-sandbox", "--disable-gpu"],
        ignore_default_args=["--disable-back-forward-cache"],
    )


def go_back_to_the_cached_page(page: Any) -> None:
    """Back, and wait until the page is shown again out of the cache (not loaded: no load event)."""
    page.evaluate("() => { window.restored = null; }")
    page.go_back(wait_until="commit")
    page.wait_for_function("() => window.restored === true")


RESTORED = "() => window.addEventListener('pageshow', (event) => { window.restored = event.persisted; })"


def test_back_from_a_game_finds_the_home_pages_buttons_working(live_server: Any, browser: Any) -> None:
    """Back from the game brings the home page out of the back-forward cache as it was left, its
    button disabled while the game was created: it is given back on ``pageshow``."""
    cached = with_back_forward_cache(browser)
    try:
        page = cached.new_page()
        open_ready(page, live_server.url + "/")
        page.evaluate(RESTORED)
        for name in ("Play against the computer", "Start the hot-seat game"):
            page.get_by_role("button", name=name).click()
            page.wait_for_url(PLAY_URL)
            go_back_to_the_cached_page(page)
            expect(page.get_by_role("button", name=name)).to_be_enabled()
    finally:
        cached.close()


def test_back_from_a_seat_joined_finds_the_lobby_up_to_date(live_server: Any, browser: Any) -> None:
    """The lobby stopped refreshing while it joined; back from the seat it refreshes again."""
    created = live_server.rest("/api/games", {"public": True, "seats": [{"kind": "open"}, {"kind": "open"}]})
    cached = with_back_forward_cache(browser)
    try:
        page = cached.new_page()
        page.goto(live_server.url + "/lobby")
        page.evaluate(RESTORED)
        card = page.locator(f"[data-game='{created['id']}']")
        card.get_by_role("button", name="Join as Yellow", exact=True).click()
        page.wait_for_url(PLAY_URL)
        page.wait_for_function("() => window.pardonGame && window.pardonGame.ready")  # come: the seat is the player's
        go_back_to_the_cached_page(page)
        expect(card.locator(".badge.joined")).to_have_text("Taken")  # Yellow's seat, now the player's own
        expect(card.get_by_role("button", name="Join as Red", exact=True)).to_be_enabled()
    finally:
        cached.close()
