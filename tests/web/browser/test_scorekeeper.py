"""The scorekeeper in a real browser: served by a real ``pardon serve``, and opened from disk."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from tests.web.browser.accessibility import serious_problems

from pardon.core.board import COLOUR_NAMES, HOME, START
from pardon.core.rules import Rules
from pardon.core.scoring import points_of
from pardon.core.state import Position

expect = pytest.importorskip("playwright.sync_api").expect

PAGE_FILE = Path(__file__).resolve().parents[3] / "src" / "pardon" / "web" / "static" / "scorekeeper.html"
COLOURS = {name: number for number, name in enumerate(COLOUR_NAMES)}


def add_players(page: Any, *names: str) -> None:
    for name in names:
        page.get_by_label("New player or partnership").fill(name)
        page.get_by_role("button", name="Add player").click()


def record_win(page: Any, name: str, *, doubled: bool = False) -> None:
    form = page.locator("#game-form")
    form.get_by_label(name, exact=True).check()
    if doubled:
        form.get_by_label("Doubled game (counts 2 wins)").check()
    form.get_by_role("button", name="Record game").click()


def sheet(page: Any) -> list[list[str]]:
    """The score sheet's rows of cells, header and totals included (not the column of Edit and Remove)."""
    rows: list[list[str]] = page.eval_on_selector_all(
        "#sheet tr",
        "rows => rows.map(row => [...row.cells].filter(cell => !cell.matches('.actions'))"
        ".map(cell => cell.innerText.trim()))",
    )
    return rows


@pytest.fixture
def keeper(live_server: Any) -> str:
    """The scorekeeper served over http: the tests that reload it use this origin's storage, which
    Chromium keeps as for any site (a file:// page's reload once read a storage without its match)."""
    return f"{live_server.url}/scorekeeper"


@pytest.fixture(scope="module")
def probe(tmp_path_factory: Any) -> str:
    """A blank page opened from disk: every file:// page shares one localStorage."""
    path = tmp_path_factory.mktemp("probe") / "probe.html"
    path.write_text("<!doctype html><title>probe</title>")
    return str(path.as_uri())


#: A digest of a page's whole localStorage, cheap to compute again and again (a match can be megabytes).
STORAGE_DIGEST = """() => {
    let hash = 0x811c9dc5;
    for (const [key, value] of Object.entries(localStorage).sort()) {
        for (const text of [key, "\\u0000", value, "\\u0001"]) {
            for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619) >>> 0;
        }
    }
    return `${localStorage.length}:${hash}`;
}"""


def reload_kept(page: Any, probe: str) -> None:
    """Reloads a page opened from disk once another page sees what it stored.  The browser keeps a
    page's localStorage writes in the page's process a moment before its other pages see them, and a
    reload at once could read the storage of before the last write (seen twice in a hundred runs).
    The probe compares digests, polled at intervals: comparing megabytes each frame outlasted its
    time on a busy machine."""
    stored = page.evaluate(STORAGE_DIGEST)
    for _ in range(50):  # what the last action stores may come a moment after it: until it settles
        page.wait_for_timeout(100)
        settled, stored = stored, page.evaluate(STORAGE_DIGEST)
        if settled == stored:
            break
    other = page.context.new_page()
    try:
        origin = re.match(r"https?://[^/]+", page.url)
        other.goto(f"{origin.group(0)}/healthz" if origin else probe)  # a page of the same origin
        other.wait_for_function(f"stored => ({STORAGE_DIGEST})() === stored", arg=stored, polling=100, timeout=30_000)
    finally:
        other.close()
    page.reload()


def test_a_refusal_is_not_left_on_show_once_the_change_is_made(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/scorekeeper")
    add_players(page, "Sam", "sam")
    expect(page.locator("#message")).to_have_text("There is already a player called sam.")
    add_players(page, "Grandma")  # done: the refusal no longer applies (it once stayed, beside Grandma's name)
    expect(page.locator("#players li")).to_have_count(2)
    expect(page.locator("#message")).to_have_text("")


def test_games_stay_after_a_reload_and_undo_takes_them_back(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/scorekeeper")
    add_players(page, "Grandma", "Sam", "Red and Yellow")
    record_win(page, "Sam")
    record_win(page, "Grandma", doubled=True)
    record_win(page, "Sam")
    assert page.locator("#standing").inner_text() == "Tied: Grandma and Sam, with 2 wins each."
    page.reload()
    assert sheet(page)[1:] == [
        ["1", "", "Won", ""],
        ["2 ×2", "Won ×2", "", ""],
        ["3", "", "Won", ""],
        ["Wins", "2", "2", "0"],
    ]
    page.get_by_role("button", name="Undo game 3").click()
    assert page.locator("#standing").inner_text() == "Grandma leads with 2 wins."
    page.get_by_role("button", name="Undo game 2").click()
    page.reload()
    assert sheet(page)[-1] == ["Wins", "0", "1", "0"]
    # names can change at any time; the sheet follows
    page.get_by_label("Player 1").fill("Nana")
    page.get_by_label("Player 1").press("Enter")
    assert sheet(page)[0] == ["Game", "Nana", "Sam", "Red and Yellow"]
    assert page.get_by_role("button", name="Undo renaming Grandma").is_visible()


def test_a_match_to_a_number_of_wins_announces_its_winner_and_takes_no_more_games(page: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/scorekeeper")
    add_players(page, "Ann", "Bob")
    page.get_by_label("Play to").select_option("wins")
    page.get_by_label("Wins", exact=True).fill("2")
    page.get_by_label("Wins", exact=True).press("Enter")
    record_win(page, "Bob")
    assert page.locator("#standing").inner_text() == "Bob leads with 1 win. First to 2 wins."
    record_win(page, "Bob")
    assert page.locator("#standing").inner_text() == "Bob wins the match with 2 wins!"
    assert page.locator("#game-form button").count() == 0


def test_export_then_import_in_a_fresh_browser_gives_the_same_match(page: Any, browser: Any, live_server: Any) -> None:
    page.goto(f"{live_server.url}/scorekeeper")
    page.get_by_label("Scoring").select_option("1939")
    add_players(page, "Ann", "Bob", "Cy")
    enter_points_game(page, {"Ann": 4, "Bob": 2, "Cy": 1}, winner="Ann")
    enter_points_game(page, {"Ann": 3, "Bob": 1, "Cy": 4}, winner="Cy", stake="2")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export match").click()
    exported = Path(download.value.path())
    kept = page.evaluate("pardonScorekeeper.match()")
    assert json.loads(exported.read_text())["games"] == kept["games"]

    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        other.goto(f"{live_server.url}/scorekeeper")
        bad = exported.with_name("not-a-match.json")
        bad.write_text(json.dumps({**kept, "games": [{**kept["games"][0], "winner": "p9"}]}))
        other.locator("#import-file").set_input_files(str(bad))
        expect(other.locator("#message")).to_contain_text(
            "the winner of game 1 is not one of the players. Nothing was changed."
        )
        assert other.evaluate("pardonScorekeeper.match().players") == []
        other.locator("#import-file").set_input_files(str(exported))
        expect(other.locator("#message")).to_contain_text("3 players, 2 games")
        assert other.evaluate("pardonScorekeeper.match()") == kept
        assert sheet(other) == sheet(page)
        assert other.locator("#standing").inner_text() == page.locator("#standing").inner_text()
    finally:
        fresh.close()


def test_the_page_works_opened_from_disk(page: Any, probe: str) -> None:
    page.goto(PAGE_FILE.as_uri())
    assert page.get_by_role("link", name="Download this page").is_hidden()
    add_players(page, "Ann", "Bob")
    record_win(page, "Ann")
    reload_kept(page, probe)
    assert page.locator("#standing").inner_text() == "Ann leads with 1 win."


# Point Scoring cases: (scoring, pawns each, pawns Home by colour, winner, stake, dropped out, everyone dropped out)
CASES = [
    ("1939", 4, {"red": 4, "yellow": 0}, "red", 1, [], False),  # bonus 24
    ("1939", 4, {"red": 4, "blue": 1, "yellow": 1}, "red", 1, [], False),  # bonus 16
    ("1939", 4, {"red": 4, "blue": 2, "yellow": 0, "green": 1}, "red", 1, [], False),  # bonus 8
    ("1939", 4, {"red": 1, "blue": 4, "yellow": 3}, "blue", 1, [], False),  # no bonus
    ("1939", 4, {"red": 4, "blue": 1, "yellow": 2}, "red", 2, ["blue"], False),  # doubled, one dropped out
    ("1939", 4, {"red": 2, "blue": 0, "green": 4}, "green", 4, [], False),  # doubled twice
    ("1939", 3, {"red": 3, "yellow": 2}, "red", 1, [], False),  # 3 pawns each
    ("1939", 4, {"red": 1, "yellow": 2}, "red", 1, ["yellow"], True),  # everyone dropped out
    ("1939", 4, {"red": 0, "blue": 2, "yellow": 1, "green": 0}, "blue", 2, ["red", "yellow", "green"], True),
    ("1992", 4, {"red": 4, "yellow": 0}, "red", 1, [], False),  # bonus 100
    ("1992", 4, {"red": 4, "blue": 0, "yellow": 2, "green": 1}, "red", 1, [], False),  # bonus 25
    ("1992", 4, {"red": 1, "blue": 4, "yellow": 1}, "blue", 1, [], False),  # bonus 50
    ("1992", 3, {"red": 2, "blue": 3, "yellow": 2}, "blue", 1, [], False),  # 3 pawns each, bonus 25
    ("1992", 4, {"red": 3, "blue": 4}, "blue", 1, [], False),  # no bonus
]


def core_points(
    scoring: str,
    pawns: int,
    home: dict[str, int],
    winner: str,
    stake: int,
    dropped: list[str],
    *,
    partners: bool = False,
) -> dict[str, int]:
    """What pardon.core.scoring gives the finished position with these pawns Home."""
    seats = tuple(sorted(COLOURS[colour] for colour in home))
    placed = [() for _ in COLOUR_NAMES]
    for colour, count in home.items():
        placed[COLOURS[colour]] = (HOME,) * count + (START,) * (pawns - count)
    position = Position(seats, tuple(placed), COLOURS[winner], COLOURS[winner])
    if scoring == "1939":
        position = position.with_extras(stake=stake, out=tuple(sorted(COLOURS[colour] for colour in dropped)))
    rules = Rules(scoring=scoring, pawns=pawns, doubling=scoring == "1939", partners=partners)
    points = points_of(rules, position)
    assert points is not None
    return {COLOUR_NAMES[colour]: value for colour, value in points.items()}


def test_the_points_calculator_matches_the_scoring_module(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    for scoring, pawns, home, winner, stake, dropped, everyone in CASES:
        game = {"home": home, "winner": winner, "stake": stake, "dropped": dropped, "allDropped": everyone}
        computed = page.evaluate("([s, p, g]) => pardonScorekeeper.gamePoints(s, p, g)", [scoring, pawns, game])
        assert computed == core_points(scoring, pawns, home, winner, stake, dropped), (scoring, home, winner, stake)


def enter_points_game(
    page: Any, home: dict[str, int], *, winner: str, stake: str = "1", dropped: tuple[str, ...] = ()
) -> None:
    form = page.locator("#game-form")
    for name, count in home.items():
        form.get_by_label(f"{name}: pawns Home").fill(str(count))
    form.get_by_label(f"{winner} won").check()
    if form.get_by_label("Doubles accepted").count():
        form.get_by_label("Doubles accepted").select_option(stake)
    for name in dropped:
        form.get_by_label(f"{name} dropped out of a double").check()
    form.get_by_role("button", name="Record game").click()


def enter_partners_game(
    page: Any, home: dict[str, int], *, winner: str, stake: str = "1", dropped: tuple[str, ...] = ()
) -> None:
    """A game of the two partnerships, Red and Yellow against Blue and Green: each colour's pawns Home."""
    form = page.locator("#game-form")
    for colour, count in home.items():
        team = "Red and Yellow" if colour in ("red", "yellow") else "Blue and Green"
        form.get_by_label(f"{team}: {colour.capitalize()} pawns Home").fill(str(count))
    form.get_by_label(f"{winner} won").check()
    if form.get_by_label("Doubles accepted").count():
        form.get_by_label("Doubles accepted").select_option(stake)
    for name in dropped:
        form.get_by_label(f"{name} dropped out of a double").check()
    form.get_by_role("button", name="Record game").click()


@pytest.mark.parametrize("scoring", ["1939", "1992"])
def test_a_partnership_enters_each_colours_pawns_home_and_scores_as_the_core(page: Any, scoring: str) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option(scoring)
    for team in ("Red and Yellow", "Blue and Green"):
        page.get_by_label("New player or partnership").fill(team)
        page.locator("#new-colour").select_option(label=team)
        page.get_by_role("button", name="Add player").click()
    # A partnership wins with all 8 pawns Home; the bonus goes by the most Home of one opposing colour.
    games = [
        ({"red": 4, "yellow": 4, "blue": 2, "green": 1}, "red", 1),
        ({"red": 4, "yellow": 3, "blue": 4, "green": 4}, "blue", 2 if scoring == "1939" else 1),
    ]
    for home, winner, stake in games:
        name = "Red and Yellow" if winner == "red" else "Blue and Green"
        enter_partners_game(page, home, winner=name, stake=str(stake))
    # A partnership with one colour still out has not won.
    enter_partners_game(page, {"red": 4, "yellow": 4, "blue": 4, "green": 1}, winner="Blue and Green")
    expect(page.locator("#message")).to_contain_text(
        "set Blue and Green's pawns Home to 4 for each colour, or choose who won"
    )
    expected = []
    for home, winner, stake in games:
        points = core_points(scoring, 4, home, winner, stake, [], partners=True)
        expected.append([points["red"] + points["yellow"], points["blue"] + points["green"]])
    rows = sheet(page)
    assert [[int(cell.split()[0]) for cell in row[1:]] for row in rows[1:3]] == expected
    assert rows[-1] == ["Points", *(str(sum(column)) for column in zip(*expected, strict=True))]
    kept = page.evaluate("pardonScorekeeper.match().games")
    assert [game["home"] for game in kept] == [{"p1": 8, "p2": 3}, {"p1": 7, "p2": 8}]


@pytest.mark.parametrize(("scoring", "target"), [("1939", 35), ("1992", 100)])
def test_the_game_form_scores_as_the_core_and_totals_toward_the_target(page: Any, scoring: str, target: int) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option(scoring)
    add_players(page, "Red", "Blue", "Yellow")
    page.get_by_label("Play to").select_option("points")
    page.get_by_label("Points", exact=True).fill(str(target))
    page.get_by_label("Points", exact=True).press("Enter")
    first, second = {"Red": 4, "Blue": 1, "Yellow": 2}, {"Red": 4, "Blue": 1, "Yellow": 3}
    stake, dropped = ("2", ("Yellow",)) if scoring == "1939" else ("1", ())
    enter_points_game(page, first, winner="Red", stake=stake, dropped=dropped)
    assert page.locator("#standing").inner_text().endswith(f"First to {target} points.")
    enter_points_game(page, second, winner="Red")
    games = [
        core_points(scoring, 4, {k.lower(): v for k, v in first.items()}, "red", int(stake), ["yellow"] * len(dropped)),
        core_points(scoring, 4, {k.lower(): v for k, v in second.items()}, "red", 1, []),
    ]
    rows = sheet(page)
    for row, points in zip(rows[1:3], games, strict=True):
        assert [int(cell.split()[0]) for cell in row[1:]] == [points["red"], points["blue"], points["yellow"]]
    totals = [games[0][colour] + games[1][colour] for colour in ("red", "blue", "yellow")]
    assert rows[-1] == ["Points", *(str(total) for total in totals)]
    assert games[0]["red"] < target <= totals[0]
    assert page.locator("#standing").inner_text() == f"Red wins the match with {totals[0]} points!"


NAMED_COMPUTERS = [{"kind": "bot", "name": "Grandma"}, {"kind": "bot", "name": "Sam"}]


def finished_server_game(page: Any, server: Any, seats: list[dict[str, Any]] = NAMED_COMPUTERS) -> dict[str, Any]:
    """A game of two computers (by default named, doubling allowed; seed 4: one double accepted,
    then the other player drops out of the next), watched from the page until it ends."""
    body = {"rules": "classic(scoring=1939,doubling=true)", "seed": 4, "seats": seats}
    game: dict[str, Any] = server.rest("/api/games", body)
    url = server.url
    page.goto(f"{url}/scorekeeper")
    page.evaluate(
        """([address, token]) => new Promise((resolve, reject) => {
            const socket = new WebSocket(address);
            socket.onopen = () => socket.send(JSON.stringify({type: "hello", token}));
            socket.onmessage = (event) => {
                const message = JSON.parse(event.data);
                if (message.state && message.state.status === "finished") { socket.close(); resolve(); }
            };
            socket.onerror = () => reject(new Error("the websocket failed"));
        })""",
        [url.replace("http", "ws", 1) + game["websocket"], game["spectator_token"]],
    )
    return game


def test_a_server_game_is_added_to_the_match_with_one_click(page: Any, browser: Any, live_server: Any) -> None:
    game = finished_server_game(page, live_server)
    result = live_server.rest(f"/api/games/{game['id']}/result")
    points = {player["name"]: player["points"] for player in result["players"]}
    winner = next(side["name"] for side in result["sides"] if side["won"])

    # a match with no players yet takes the game's players and its Point Scoring
    page.goto(f"{live_server.url}/scorekeeper?add={game['id']}")
    page.get_by_role("button", name="Add this game to the match").click()
    page.wait_for_function("() => !location.search.includes('add=')")  # the game was added
    assert sheet(page)[0] == ["Game", "Grandma", "Sam"]
    assert sheet(page)[-1] == ["Points", str(points["Grandma"]), str(points["Sam"])]
    assert page.get_by_label("Scoring").input_value() == "1939"
    assert "?add=" not in page.url
    page.goto(f"{live_server.url}/scorekeeper?add={game['id']}")
    expect(page.locator("#offer-text")).to_contain_text("already in this match, as game 1")
    assert page.get_by_role("button", name="Add this game to the match").is_hidden()
    # the server's result is kept as it is: no Edit, but Remove, and a note saying so
    assert page.get_by_role("button", name="Edit game 1").count() == 0
    assert page.get_by_role("button", name="Remove game 1").is_visible()
    expect(page.locator("#sheet-note")).to_contain_text("which keeps their result, so they have no Edit")

    # a match counting wins, with the same people named in other case: matched by name; doubled counts 2
    context = browser.new_context()
    try:
        other = context.new_page()
        other.goto(f"{live_server.url}/scorekeeper")
        add_players(other, "sam", "Ann", "grandma")
        record_win(other, "Ann")
        other.goto(f"{live_server.url}/scorekeeper?add={game['id']}")
        other.get_by_role("button", name="Add this game to the match").click()
        wins = dict(zip(sheet(other)[0][1:], sheet(other)[-1][1:], strict=True))
        assert wins == {"sam": "0", "Ann": "1", "grandma": "0", winner.lower(): "2"}
        assert sheet(other)[2][0] == "2 ×2 pardon"
    finally:
        context.close()


def test_a_server_games_players_are_named_with_their_colour_once(page: Any, live_server: Any) -> None:
    """Two unnamed computers of one level are told apart by colour on the server ("Computer
    (Hard) (Blue)"): the offer says that name as it is, not with its colour again."""
    seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "greedy"}]
    game = finished_server_game(page, live_server, seats)
    page.goto(f"{live_server.url}/scorekeeper?add={game['id']}")
    offer = page.locator("#offer-text")
    expect(offer).to_contain_text("is over:")
    said = offer.inner_text() + page.locator("#offer-sides").inner_text()
    assert not re.search(r"\((Red|Yellow)\) \((Red|Yellow)\)", said), said
    assert said.count("(Red) counts for") == 1 and said.count("(Yellow) counts for") == 1, said


def test_the_score_pad_fits_a_phone_in_portrait(browser: Any, live_server: Any, artefacts: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    try:
        phone = context.new_page()
        phone.goto(f"{live_server.url}/scorekeeper")
        phone.get_by_label("Scoring").select_option("1939")
        add_players(phone, "Grandma", "Sam", "Ann", "Blue and Green")
        enter_points_game(phone, {"Grandma": 4, "Sam": 1, "Ann": 0, "Blue and Green": 2}, winner="Grandma")
        overflow = phone.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        phone.screenshot(path=str(artefacts / "scorekeeper-phone.png"), full_page=True)
    finally:
        context.close()


def test_edit_and_remove_are_in_reach_on_a_phone_without_scrolling_sideways(browser: Any, artefacts: Path) -> None:
    """At 390 px with four players each game's Edit and Remove stand on a row of their own under it
    (a column of them would push the sheet past the screen's edge); on a wide screen, beside it."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        phone = context.new_page()
        phone.goto(PAGE_FILE.as_uri())
        phone.get_by_label("Scoring").select_option("1939")
        add_players(phone, "Grandma", "Sam", "Ann", "Blue and Green")
        enter_points_game(phone, {"Grandma": 4, "Sam": 1, "Ann": 0, "Blue and Green": 2}, winner="Grandma")
        enter_points_game(phone, {"Grandma": 1, "Sam": 4, "Ann": 2, "Blue and Green": 2}, winner="Sam")
        wrap = phone.locator(".table-wrap").filter(has=phone.locator("#sheet"))
        assert wrap.evaluate("node => node.scrollWidth <= node.clientWidth"), "the sheet scrolls sideways"
        for name in ("Edit game 1", "Remove game 1", "Edit game 2", "Remove game 2"):
            button = phone.get_by_role("button", name=name)
            box = button.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390, name
        phone.locator("#sheet").scroll_into_view_if_needed()
        phone.screenshot(path=str(artefacts / "scorekeeper-phone-actions.png"))
        assert sheet(phone)[1][:2] == ["1", "15 won"]  # the game's own row holds its scores, as before
        edit_game(phone, 2)
        phone.get_by_role("button", name="Remove game 1").focus()
        phone.set_viewport_size({"width": 1280, "height": 900})  # a wide screen: the buttons beside each game
        phone.wait_for_function("() => document.querySelectorAll('#sheet tbody tr').length === 2")
        assert phone.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Remove game 1"
        row = phone.locator("#sheet tbody tr").nth(1)
        assert row.get_by_role("button", name="Edit game 2").count() == 1
        assert "editing" in (row.get_attribute("class") or "")
    finally:
        context.close()


def test_the_next_games_form_fits_a_small_phone_with_long_names(browser: Any) -> None:
    """At 375 × 667 with four long names, every box of the game form is on screen, none scrolled out of sight."""
    context = browser.new_context(viewport={"width": 375, "height": 667})
    try:
        phone = context.new_page()
        phone.goto(PAGE_FILE.as_uri())
        phone.get_by_label("Scoring").select_option("1939")
        add_players(phone, "Grandmother Josephine", "Samuel the Younger", "Annabelle", "Blue and Green team")
        right_edges = phone.eval_on_selector_all(
            "#game-form input", "inputs => inputs.map(input => input.getBoundingClientRect().right)"
        )
        assert len(right_edges) > 12  # pawns Home, won and dropped out for each player, and the rest
        assert max(right_edges) <= 375
    finally:
        context.close()


def test_a_game_half_entered_survives_a_reload_until_it_is_recorded(page: Any, probe: str, keeper: str) -> None:
    page.goto(keeper)
    page.get_by_label("Scoring").select_option("1939")
    add_players(page, "Red", "Blue", "Yellow")
    form = page.locator("#game-form")
    form.get_by_label("Red: pawns Home").fill("4")
    form.get_by_label("Blue: pawns Home").fill("2")
    form.get_by_label("Blue dropped out of a double").check()
    form.get_by_label("Doubles accepted").select_option("2")
    reload_kept(page, probe)
    form = page.locator("#game-form")
    assert form.get_by_label("Red: pawns Home").input_value() == "4"
    assert form.get_by_label("Blue: pawns Home").input_value() == "2"
    assert form.get_by_label("Red won").is_checked()  # guessed from Red's 4 pawns Home, and kept
    assert form.get_by_label("Blue dropped out of a double").is_checked()
    assert form.get_by_label("Doubles accepted").input_value() == "2"
    form.get_by_role("button", name="Record game 1").click()
    assert page.locator("#message").inner_text().startswith("Game 1 recorded")
    assert len(page.evaluate("pardonScorekeeper.match().games")) == 1
    reload_kept(page, probe)  # the next game starts empty
    form = page.locator("#game-form")
    assert form.get_by_label("Red: pawns Home").input_value() == "0"
    assert not form.get_by_label("Blue dropped out of a double").is_checked()
    # a half-filled form of a match since changed is not brought back into another game
    form.get_by_label("Blue: pawns Home").fill("3")
    page.get_by_role("button", name="Undo game 1").click()
    reload_kept(page, probe)
    assert page.locator("#game-form").get_by_label("Blue: pawns Home").input_value() == "0"


# ---- Changing and removing a recorded game ------------------------------------------------------------


def open_with_game(page: Any, number: int) -> None:
    """Open the scorekeeper in ``page``, a second tab, once it shows game ``number``.

    A new tab reads localStorage through the browser process, which under load may not yet hold what the
    first tab wrote a moment ago; a tab opened later (or reloaded) sees it, as a person would."""
    for _ in range(3):
        page.goto(PAGE_FILE.as_uri())
        try:
            expect(page.get_by_role("button", name=f"Edit game {number}")).to_be_visible(timeout=5000)
            return
        except AssertionError:
            continue
    expect(page.get_by_role("button", name=f"Edit game {number}")).to_be_visible()


def edit_game(page: Any, number: int) -> Any:
    """Open game ``number`` in the form for changes; the form."""
    page.get_by_role("button", name=f"Edit game {number}").click()
    expect(page.locator("#record-title")).to_have_text(f"Edit game {number}")
    return page.locator("#game-form")


def test_a_recorded_game_is_changed_in_place_and_undo_takes_the_change_back(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    add_players(page, "Ann", "Bob", "Cy")
    for name in ("Ann", "Bob", "Ann"):
        record_win(page, name)
    before = sheet(page)
    form = edit_game(page, 2)
    assert form.get_by_label("Bob", exact=True).is_checked()  # the game's values, not an empty form
    assert not form.get_by_label("Doubled game (counts 2 wins)").is_checked()
    assert form.get_by_role("button", name="Record game").count() == 0
    assert sheet(page)[2][0] == "2"  # the row being changed; the others as they were
    form.get_by_label("Cy", exact=True).check()
    form.get_by_label("Doubled game (counts 2 wins)").check()
    form.get_by_role("button", name="Save changes").click()
    expect(page.locator("#message")).to_have_text("Game 2 saved: Cy won a doubled game.")
    assert sheet(page)[1:] == [
        ["1", "Won", "", ""],
        ["2 ×2", "", "", "Won ×2"],
        ["3", "Won", "", ""],
        ["Wins", "2", "0", "2"],
    ]
    assert page.locator("#standing").inner_text() == "Tied: Ann and Cy, with 2 wins each."
    expect(page.locator("#record-title")).to_have_text("Record game 4")  # back to the next game
    page.get_by_role("button", name="Undo editing game 2").click()
    assert sheet(page) == before
    assert page.get_by_role("button", name="Undo game 3").is_visible()  # one step took the whole change back


def test_a_points_game_opens_with_its_values_and_a_wrong_change_is_refused(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option("1939")
    add_players(page, "Red", "Blue", "Yellow")
    enter_points_game(page, {"Red": 4, "Blue": 1, "Yellow": 2}, winner="Red", stake="2", dropped=("Yellow",))
    enter_points_game(page, {"Red": 1, "Blue": 4, "Yellow": 3}, winner="Blue")
    form = edit_game(page, 1)
    assert [form.get_by_label(f"{name}: pawns Home").input_value() for name in ("Red", "Blue", "Yellow")] == [
        "4",
        "1",
        "2",
    ]
    assert form.get_by_label("Red won").is_checked()
    assert form.get_by_label("Doubles accepted").input_value() == "2"
    assert form.get_by_label("Yellow dropped out of a double").is_checked()
    assert not form.get_by_label("Blue dropped out of a double").is_checked()

    # the same checks as a new game: two players with every pawn Home is refused, and nothing changes
    kept = page.evaluate("pardonScorekeeper.match()")
    form.get_by_label("Blue: pawns Home").fill("4")
    form.get_by_role("button", name="Save changes").click()
    expect(page.locator("#message")).to_have_text(
        "Only the winner can have all 4 pawns Home, not Blue too. Game 1 is unchanged."
    )
    assert page.evaluate("pardonScorekeeper.match()") == kept
    expect(page.locator("#record-title")).to_have_text("Edit game 1")  # still open, to fix
    assert page.get_by_role("button", name="Undo game 2").is_visible()

    # fixed: Blue had no pawn Home and Yellow did not drop out; the totals follow
    form.get_by_label("Blue: pawns Home").fill("0")
    form.get_by_label("Yellow dropped out of a double").uncheck()
    form.get_by_role("button", name="Save changes").click()
    first = core_points("1939", 4, {"red": 4, "blue": 0, "yellow": 2}, "red", 2, [])
    second = core_points("1939", 4, {"red": 1, "blue": 4, "yellow": 3}, "blue", 1, [])
    rows = sheet(page)
    assert [int(cell.split()[0]) for cell in rows[1][1:]] == [first["red"], first["blue"], first["yellow"]]
    assert rows[-1] == ["Points", *(str(first[c] + second[c]) for c in ("red", "blue", "yellow"))]
    assert len(page.evaluate("pardonScorekeeper.match().games")) == 2


def test_cancel_leaves_the_game_and_brings_back_the_next_game_half_entered(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option("1992")
    add_players(page, "Red", "Blue")
    enter_points_game(page, {"Red": 4, "Blue": 1}, winner="Red")
    page.locator("#game-form").get_by_label("Blue: pawns Home").fill("3")  # game 2, half entered
    kept = page.evaluate("pardonScorekeeper.match()")
    form = edit_game(page, 1)
    assert form.get_by_label("Blue: pawns Home").input_value() == "1"
    form.get_by_label("Blue: pawns Home").fill("2")
    form.get_by_role("button", name="Cancel").click()
    assert page.evaluate("pardonScorekeeper.match()") == kept
    expect(page.locator("#record-title")).to_have_text("Record game 2")
    assert page.locator("#game-form").get_by_label("Blue: pawns Home").input_value() == "3"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "Edit game 1"


def test_a_change_survives_a_reload_before_and_after_it_is_saved(page: Any, probe: str, keeper: str) -> None:
    page.goto(keeper)
    page.get_by_label("Scoring").select_option("1992")
    add_players(page, "Red", "Blue")
    enter_points_game(page, {"Red": 4, "Blue": 1}, winner="Red")
    page.locator("#game-form").get_by_label("Blue: pawns Home").fill("3")  # game 2, half entered
    form = edit_game(page, 1)
    form.get_by_label("Blue: pawns Home").fill("2")
    reload_kept(page, probe)  # the game is open again, with what was typed in it
    form = page.locator("#game-form")
    expect(page.locator("#record-title")).to_have_text("Edit game 1")
    assert form.get_by_label("Blue: pawns Home").input_value() == "2"
    form.get_by_role("button", name="Save changes").click()
    expect(page.locator("#record-title")).not_to_have_text("Edit game 1")  # saved, the edit closed
    reload_kept(page, probe)
    points = core_points("1992", 4, {"red": 4, "blue": 2}, "red", 1, [])
    expect(page.locator("#sheet tr").last).to_contain_text("Points")  # drawn after the reload, on a busy machine
    assert sheet(page)[-1] == ["Points", str(points["red"]), str(points["blue"])]
    expect(page.locator("#record-title")).to_have_text("Record game 2")
    assert page.locator("#game-form").get_by_label("Blue: pawns Home").input_value() == "3"
    assert page.get_by_role("button", name="Undo editing game 1").is_visible()


def test_a_partnership_game_opens_with_the_split_that_gives_its_points(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option("1939")
    for team in ("Red and Yellow", "Blue and Green"):
        page.get_by_label("New player or partnership").fill(team)
        page.locator("#new-colour").select_option(label=team)
        page.get_by_role("button", name="Add player").click()
    enter_partners_game(page, {"red": 4, "yellow": 4, "blue": 2, "green": 1}, winner="Red and Yellow")
    kept = page.evaluate("pardonScorekeeper.match()")
    form = edit_game(page, 1)
    # only the total 3 is kept; 3 and 0 would lose the bonus of 8, so the page shows 2 and 1
    assert form.get_by_label("Blue and Green: Blue pawns Home").input_value() == "2"
    assert form.get_by_label("Blue and Green: Green pawns Home").input_value() == "1"
    form.get_by_role("button", name="Save changes").click()
    assert page.evaluate("pardonScorekeeper.match()") == kept
    assert page.get_by_role("button", name="Undo game 1").is_visible()  # saved unchanged: nothing to undo


def test_a_game_is_removed_and_undo_brings_it_back(page: Any) -> None:
    page.goto(f"{PAGE_FILE.as_uri()}")
    add_players(page, "Ann", "Bob")
    page.get_by_label("Play to").select_option("games")
    page.get_by_label("Games", exact=True).fill("3")
    page.get_by_label("Games", exact=True).press("Enter")
    for name in ("Ann", "Bob", "Bob"):
        record_win(page, name)
    assert page.locator("#standing").inner_text() == "Bob wins the match with 2 wins!"
    page.get_by_role("button", name="Remove game 1").click()
    expect(page.locator("#message")).to_have_text("Game 1 removed; the games after it move up. Undo brings it back.")
    assert sheet(page)[1:] == [["1", "", "Won"], ["2", "", "Won"], ["Wins", "0", "2"]]
    # the match is no longer over: the form takes game 3 again
    assert page.locator("#standing").inner_text() == "Bob leads with 2 wins. A match of 3 games, 2 played."
    expect(page.locator("#game-form").get_by_role("button", name="Record game 3")).to_be_visible()
    page.get_by_role("button", name="Undo removing game 1").click()
    assert sheet(page)[1:] == [["1", "Won", ""], ["2", "", "Won"], ["3", "", "Won"], ["Wins", "1", "2"]]
    assert page.locator("#standing").inner_text() == "Bob wins the match with 2 wins!"

    # with every game removed the players are free again, and the export is still a match that imports
    for _ in range(3):
        page.get_by_role("button", name="Remove game 1").click()
    assert page.get_by_role("button", name="Remove Ann").is_enabled()
    with page.expect_download() as download:
        page.get_by_role("button", name="Export match").click()
    exported = Path(download.value.path())
    assert json.loads(exported.read_text())["games"] == []
    page.locator("#import-file").set_input_files(str(exported))
    expect(page.locator("#message")).to_contain_text("2 players, 0 games")


def test_the_edit_button_is_reached_and_used_with_the_keyboard(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    add_players(page, "Ann", "Bob")
    record_win(page, "Ann")
    record_win(page, "Ann")
    focused = "document.activeElement.getAttribute('aria-label')"
    page.get_by_role("button", name="Edit game 1").focus()
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "Remove game 1"
    page.keyboard.press("Tab")
    assert page.evaluate(focused) == "Edit game 2"
    page.keyboard.press("Enter")
    expect(page.locator("#record-title")).to_have_text("Edit game 2")
    assert page.evaluate("document.getElementById('game-form').contains(document.activeElement)")
    assert not serious_problems(page)  # the sheet with its buttons, and the form open for changes
    page.keyboard.press("ArrowDown")  # from Ann to Bob
    page.keyboard.press("Tab")
    page.keyboard.press("Space")  # doubled
    page.keyboard.press("Tab")
    page.keyboard.press("Enter")  # Save changes
    expect(page.locator("#message")).to_have_text("Game 2 saved: Bob won a doubled game.")
    assert sheet(page)[-1] == ["Wins", "1", "2"]
    assert page.evaluate(focused) == "Edit game 2"  # back where the change began


def test_a_rename_reaches_the_names_the_game_form_reads_out(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    add_players(page, "Ann", "Bob")
    page.get_by_label("Player 1").fill("Nana")
    page.get_by_label("Player 1").press("Enter")
    assert page.locator("#game-form").get_by_label("Nana", exact=True).count() == 1  # the winner's radio
    page.get_by_label("Scoring").select_option("1992")
    page.get_by_label("Player 2").fill("Bobby")
    page.get_by_label("Player 2").press("Enter")  # the points form is not built again: its labels follow
    form = page.locator("#game-form")
    form.get_by_label("Bobby: pawns Home").fill("4")
    form.get_by_label("Bobby won").check()
    expect(form.locator("#preview")).to_have_text("Nana 0, Bobby 140")


def test_an_imported_game_with_no_points_for_its_winner_is_refused(page: Any, tmp_path: Path) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(PAGE_FILE.as_uri())
    players = [{"id": "p1", "name": "Ann", "colours": []}, {"id": "p2", "name": "Bob", "colours": []}]
    game = {"winner": "p1", "stake": 1, "home": {"p2": 1}, "dropped": [], "allDropped": False, "server": None}
    for points in ({"p2": 5}, {}):  # once accepted, and Edit then threw
        crafted = tmp_path / "crafted.json"
        match = {"format": "pardon-scorekeeper", "version": 1, "scoring": "1992", "pawns": 4, "nextId": 3}
        match |= {"goal": {"kind": "none", "value": None}, "players": players, "games": [game | {"points": points}]}
        crafted.write_text(json.dumps(match))
        page.locator("#import-file").set_input_files(str(crafted))
        expect(page.locator("#message")).to_have_text(
            "Could not import crafted.json: game 1 has no points for its winner and at least one other player. "
            "Nothing was changed."
        )
    assert page.evaluate("pardonScorekeeper.match().games") == []
    assert not errors


def test_a_long_match_is_still_kept_when_its_undo_steps_fill_the_storage(
    page: Any, probe: str, keeper: str, tmp_path: Path
) -> None:
    page.goto(keeper)
    players = [{"id": f"p{n}", "name": name, "colours": []} for n, name in enumerate(("Ann", "Bob", "Cy", "Di"), 1)]
    home = {"p1": 4, "p2": 1, "p3": 2, "p4": 3}
    game = {"winner": "p1", "stake": 1, "home": home, "dropped": [], "allDropped": False, "server": None}
    game["points"] = {"p1": 10, "p2": 1, "p3": 2, "p4": 3}
    match = {"format": "pardon-scorekeeper", "version": 1, "scoring": "1939", "pawns": 4, "nextId": 5}
    match |= {"goal": {"kind": "none", "value": None}, "players": players, "games": [game] * 2000}
    big = tmp_path / "big.json"
    big.write_text(json.dumps(match))
    page.locator("#import-file").set_input_files(str(big))
    expect(page.locator("#message")).to_contain_text("4 players, 2000 games")
    for n in range(20):  # each change keeps a copy of the match for Undo: some 7 MB in all, past the quota
        page.get_by_label("Player 1").fill(f"Ann {n}")
        page.get_by_label("Player 1").press("Enter")
        expect(page.locator("#message")).to_have_text("")  # never "not keeping the score"
    reload_kept(page, probe)
    assert page.get_by_label("Player 1").input_value() == "Ann 19"  # the last change was kept
    assert len(page.evaluate("pardonScorekeeper.match().games")) == 2000
    expect(page.locator("#undo")).to_have_text("Undo renaming Ann 18")  # the newer Undo steps stay


def test_another_tab_changing_the_game_open_here_says_so(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option("1992")
    add_players(page, "Red", "Blue")
    enter_points_game(page, {"Red": 4, "Blue": 1}, winner="Red")
    other = page.context.new_page()
    open_with_game(other, 1)
    form = edit_game(page, 1)
    form.get_by_label("Blue: pawns Home").fill("3")  # typed here, not saved
    edit_game(other, 1).get_by_label("Blue: pawns Home").fill("2")
    other.get_by_role("button", name="Save changes").click()
    expect(page.locator("#record-title")).to_have_text("Record game 2")  # the game changed under it
    expect(page.locator("#message")).to_have_text(
        "The match was changed in another tab or window, so the changes to game 1 made here were not saved."
    )
    assert page.evaluate("pardonScorekeeper.match().games[0].home") == {"p1": 4, "p2": 2}


# ---- Nothing typed is lost without a word ------------------------------------------------------------


def test_edit_on_another_game_keeps_the_changes_typed_into_the_open_one(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option("1992")
    add_players(page, "Red", "Blue")
    enter_points_game(page, {"Red": 4, "Blue": 1}, winner="Red")
    enter_points_game(page, {"Red": 2, "Blue": 4}, winner="Blue")
    form = edit_game(page, 1)
    form.get_by_label("Blue: pawns Home").fill("3")  # typed, not saved
    page.get_by_role("button", name="Edit game 2").click()
    expect(page.locator("#message")).to_have_text(
        "Game 1 is open with changes not saved: save them or cancel them before editing game 2."
    )
    expect(page.locator("#record-title")).to_have_text("Edit game 1")  # still open, with what was typed
    assert form.get_by_label("Blue: pawns Home").input_value() == "3"
    page.get_by_role("button", name="Edit game 1").click()  # its own Edit does not start it afresh
    assert form.get_by_label("Blue: pawns Home").input_value() == "3"
    form.get_by_role("button", name="Save changes").click()
    assert page.evaluate("pardonScorekeeper.match().games[0].home") == {"p1": 4, "p2": 3}
    # a game opened and left as it was gives way to another at once: there is nothing to lose
    edit_game(page, 1)
    form = edit_game(page, 2)
    assert form.get_by_label("Blue: pawns Home").input_value() == "4"


def test_adding_a_player_keeps_what_was_typed_in_the_game_form(page: Any, probe: str, keeper: str) -> None:
    page.goto(keeper)
    page.get_by_label("Scoring").select_option("1939")
    add_players(page, "Red", "Blue")
    form = page.locator("#game-form")
    form.get_by_label("Red: pawns Home").fill("4")
    form.get_by_label("Blue: pawns Home").fill("2")
    form.get_by_label("Doubles accepted").select_option("2")
    add_players(page, "Yellow")  # the next game's form, half entered, gains a row
    assert form.get_by_label("Red: pawns Home").input_value() == "4"
    assert form.get_by_label("Blue: pawns Home").input_value() == "2"
    assert form.get_by_label("Red won").is_checked()
    assert form.get_by_label("Doubles accepted").input_value() == "2"
    assert form.get_by_label("Yellow: pawns Home").input_value() == "0"
    reload_kept(page, probe)  # and it is still kept for that game
    assert page.locator("#game-form").get_by_label("Blue: pawns Home").input_value() == "2"


def test_adding_a_player_keeps_a_game_open_for_changes_and_its_changes(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    add_players(page, "Ann", "Bob")
    record_win(page, "Ann")
    page.locator("#game-form").get_by_label("Bob", exact=True).check()  # game 2, half entered
    form = edit_game(page, 1)
    form.get_by_label("Bob", exact=True).check()
    form.get_by_label("Doubled game (counts 2 wins)").check()
    add_players(page, "Cy")
    expect(page.locator("#record-title")).to_have_text("Edit game 1")
    assert form.get_by_label("Bob", exact=True).is_checked()
    assert form.get_by_label("Doubled game (counts 2 wins)").is_checked()
    form.get_by_role("button", name="Cancel").click()  # the next game's form, as it was left
    assert page.locator("#game-form").get_by_label("Bob", exact=True).is_checked()
    assert page.evaluate("pardonScorekeeper.match().games[0].winner") == "p1"


def test_the_form_heading_says_when_the_match_is_over(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    add_players(page, "Ann", "Bob")
    page.get_by_label("Play to").select_option("games")
    page.get_by_label("Games", exact=True).fill("1")
    page.get_by_label("Games", exact=True).press("Enter")
    record_win(page, "Ann")
    expect(page.locator("#record-title")).to_have_text("The match is over")
    expect(page.locator("#game-form")).to_contain_text("The match is over.")
    page.get_by_role("button", name="Undo game 1").click()
    expect(page.locator("#record-title")).to_have_text("Record game 1")


def test_a_player_who_played_a_points_game_keeps_their_colours(page: Any) -> None:
    page.goto(PAGE_FILE.as_uri())
    page.get_by_label("Scoring").select_option("1992")
    add_players(page, "Red", "Blue")
    assert page.locator("#colour-p1").is_enabled()  # free until the player has played
    enter_points_game(page, {"Red": 4, "Blue": 1}, winner="Red")
    add_players(page, "Yellow")  # not in game 1: still free
    for player in ("p1", "p2"):
        colours = page.locator(f"#colour-{player}")
        expect(colours).to_be_disabled()
        expect(colours).to_have_attribute(
            "title", "The colours of a player who has played a points game stay as they were"
        )
    expect(page.locator("#colour-p3")).to_be_enabled()
    # game 1 still saves unchanged, its pawns Home as entered
    form = edit_game(page, 1)
    form.get_by_role("button", name="Save changes").click()
    expect(page.locator("#message")).to_have_text("Game 1 saved: Red won.")
    # in a match counting wins the colours only show who is who: they stay free
    page.get_by_role("button", name="New match…").click()
    page.get_by_role("button", name="Start a new match").click()
    page.get_by_label("Scoring").select_option("wins")
    record_win(page, "Red")
    expect(page.locator("#colour-p1")).to_be_enabled()


# ---- Doubles without a cap, names and games typed kept, a small phone ------------------------------------


def crafted_match(games: list[dict[str, Any]], scoring: str = "1939") -> dict[str, Any]:
    """A match file of Ann (red) and Bob (blue) with ``games``, as Export match writes one."""
    players = [{"id": "p1", "name": "Ann", "colours": ["red"]}, {"id": "p2", "name": "Bob", "colours": ["blue"]}]
    match = {"format": "pardon-scorekeeper", "version": 1, "scoring": scoring, "pawns": 4, "nextId": 3}
    return match | {"goal": {"kind": "none", "value": None}, "players": players, "games": games}


def stake_game(stake: int) -> dict[str, Any]:
    """Ann wins with 4 Home against Bob's 1, doubled to ``stake``, scored by pardon.core.scoring."""
    points = core_points("1939", 4, {"red": 4, "blue": 1}, "red", stake, [])
    game = {"winner": "p1", "stake": stake, "home": {"p1": 4, "p2": 1}, "dropped": [], "allDropped": False}
    return game | {"points": {"p1": points["red"], "p2": points["blue"]}, "server": None}


def test_any_number_of_doubles_is_entered_and_a_large_stake_imports_again(
    page: Any, browser: Any, live_server: Any, tmp_path: Path
) -> None:
    """The rules put no cap on doubling (once a turn, any number of turns): the form takes up to 20
    doubles accepted (it offered 3), an import any stake up to 2**30 (it refused past 1024), a server
    game its stake, and whatever the page exports it imports again."""
    page.goto(f"{live_server.url}/scorekeeper")
    page.get_by_label("Scoring").select_option("1939")
    add_players(page, "Ann", "Bob")
    doubles = page.locator("#game-form").get_by_label("Doubles accepted")
    assert doubles.locator("option").all_inner_texts()[:3] == ["None", "1 (points ×2)", "2 (points ×4)"]
    assert doubles.locator("option").all_inner_texts()[-1] == f"20 (points ×{2**20})"
    enter_points_game(page, {"Ann": 4, "Bob": 1}, winner="Ann", stake=str(2**12))
    points = core_points("1939", 4, {"red": 4, "blue": 1}, "red", 2**12, [])
    assert sheet(page)[1] == ["1 ×4096", f"{points['red']} won", str(points["blue"])]

    # a game played on the server, doubled 25 times, is added with its stake and points
    stake = 2**25
    served = core_points("1939", 4, {"red": 4, "blue": 2}, "red", stake, [])
    seats = [("red", "Ann", 4), ("blue", "Bob", 2)]
    result = {"id": "doubled25", "rules": "classic(scoring=1939,doubling=true)", "scoring": "1939", "pawns": 4}
    result |= {"partners": False, "winner": "red", "stake": stake, "doubled": True, "everyone_dropped_out": False}
    result["players"] = [
        {"colour": colour, "name": name, "kind": "human", "home": home, "points": served[colour], "dropped_out": False}
        for colour, name, home in seats
    ]
    result["sides"] = [
        {"name": name, "colours": [colour], "won": colour == "red", "points": served[colour]}
        for colour, name, _ in seats
    ]
    page.route("**/api/games/doubled25/result", lambda route: route.fulfill(json=result))
    page.goto(f"{live_server.url}/scorekeeper?add=doubled25")
    page.get_by_role("button", name="Add this game to the match").click()
    page.wait_for_function("() => !location.search.includes('add=')")
    assert page.evaluate("pardonScorekeeper.match().games[1].stake") == stake
    assert sheet(page)[-1] == ["Points", str(points["red"] + served["red"]), str(points["blue"] + served["blue"])]

    # what is exported imports again, in a fresh browser
    with page.expect_download() as download:
        page.get_by_role("button", name="Export match").click()
    exported = Path(download.value.path())
    fresh = browser.new_context()
    try:
        other = fresh.new_page()
        other.goto(f"{live_server.url}/scorekeeper")
        other.locator("#import-file").set_input_files(str(exported))
        expect(other.locator("#message")).to_contain_text("2 players, 2 games")
        assert other.evaluate("pardonScorekeeper.match()") == page.evaluate("pardonScorekeeper.match()")
        assert sheet(other) == sheet(page)
    finally:
        fresh.close()

    # an import takes up to 30 doubles, its points whole numbers; more is refused, in the usual words
    crafted = tmp_path / "doubled.json"
    crafted.write_text(json.dumps(crafted_match([stake_game(2**30)])))
    page.locator("#import-file").set_input_files(str(crafted))
    expect(page.locator("#message")).to_contain_text("Imported doubled.json: 2 players, 1 game")
    assert page.evaluate("pardonScorekeeper.match().games[0].stake") == 2**30
    form = edit_game(page, 1)  # opened for changes, it shows its 30 doubles
    assert form.get_by_label("Doubles accepted").input_value() == str(2**30)
    expect(form.get_by_label("Doubles accepted").locator("option:checked")).to_have_text(f"30 (points ×{2**30})")
    form.get_by_role("button", name="Save changes").click()
    expect(page.locator("#message")).to_have_text("Game 1 saved: Ann won a doubled game.")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export match").click()
    again = json.loads(Path(download.value.path()).read_text())
    assert again["games"] == [stake_game(2**30)]
    crafted.write_text(json.dumps(crafted_match([stake_game(2**31)])))
    page.locator("#import-file").set_input_files(str(crafted))
    expect(page.locator("#message")).to_have_text(
        "Could not import doubled.json: game 1 has a stake that is not 1, 2, 4, 8, ... up to 1073741824 (30 doubles). "
        "Nothing was changed."
    )


def test_a_name_being_typed_survives_a_reload_and_is_checked_when_it_is_saved(
    page: Any, probe: str, keeper: str
) -> None:
    """Names were saved on leaving the box only: one typed, then a reload, was lost."""
    page.goto(keeper)
    add_players(page, "Ann", "Bob")
    page.get_by_label("New player or partnership").fill("Cy")
    page.get_by_label("Player 1").fill("Nana")  # typed, the box not left
    reload_kept(page, probe)
    assert page.get_by_label("Player 1").input_value() == "Nana"
    expect(page.locator("#name-note-p1")).to_have_text("Not saved yet: press Enter")
    assert page.get_by_label("New player or partnership").input_value() == "Cy"
    assert page.evaluate("pardonScorekeeper.match().players[0].name") == "Ann"  # a draft, not yet the name
    assert sheet(page)[0][1] == "Ann"
    page.get_by_label("Player 1").press("Enter")
    assert sheet(page)[0][1] == "Nana"
    expect(page.locator("#name-note-p1")).to_be_hidden()
    reload_kept(page, probe)
    assert page.get_by_label("Player 1").input_value() == "Nana"
    expect(page.locator("#name-note-p1")).to_be_hidden()

    # a name that cannot be saved is kept as typed too, and refused as ever when it is saved
    page.get_by_label("Player 2").fill("nana")
    reload_kept(page, probe)
    assert page.get_by_label("Player 2").input_value() == "nana"
    page.get_by_label("Player 2").focus()
    page.get_by_label("New player or partnership").focus()  # leaving the box saves it, as Enter does
    expect(page.locator("#message")).to_have_text("There is already a player called nana.")
    assert page.get_by_label("Player 2").input_value() == "Bob"
    reload_kept(page, probe)
    assert page.get_by_label("Player 2").input_value() == "Bob"
    assert page.evaluate("pardonScorekeeper.match().players.map(p => p.name)") == ["Nana", "Bob"]


def test_a_game_typed_in_one_tab_is_kept_when_another_tab_records_one(page: Any, probe: str, keeper: str) -> None:
    """A game typed in one tab was silently wiped when another tab recorded a game."""
    page.goto(keeper)
    page.get_by_label("Scoring").select_option("1992")
    add_players(page, "Red", "Blue")
    other = page.context.new_page()
    other.goto(keeper)
    typed = other.locator("#game-form")
    typed.get_by_label("Red: pawns Home").fill("4")
    typed.get_by_label("Blue: pawns Home").fill("2")  # Red won, guessed from Red's 4 Home
    enter_points_game(page, {"Red": 1, "Blue": 4}, winner="Blue")  # the first tab records game 1
    expect(other.locator("#message")).to_have_text(
        "Game 1 was recorded in another tab or window, so what you typed here for game 1 is now in the form for "
        "game 2: check it before recording it."
    )
    expect(other.locator("#record-title")).to_have_text("Record game 2")
    assert typed.get_by_label("Red: pawns Home").input_value() == "4"
    assert typed.get_by_label("Blue: pawns Home").input_value() == "2"
    assert typed.get_by_label("Red won").is_checked()
    reload_kept(other, probe)  # kept as game 2's draft
    typed = other.locator("#game-form")
    assert typed.get_by_label("Blue: pawns Home").input_value() == "2"
    assert typed.get_by_label("Red won").is_checked()
    typed.get_by_role("button", name="Record game 2").click()
    expect(page.locator("#record-title")).to_have_text("Record game 3")
    assert [game["winner"] for game in page.evaluate("pardonScorekeeper.match().games")] == ["p2", "p1"]

    # a match that takes no more games has no form to keep it in: the page says it was cleared
    other.locator("#game-form").get_by_label("Blue: pawns Home").fill("3")
    page.get_by_label("Play to").select_option("games")
    page.get_by_label("Games", exact=True).fill("2")
    page.get_by_label("Games", exact=True).press("Enter")
    expect(other.locator("#message")).to_have_text(
        "The match was changed in another tab or window, so what you typed here for game 3 was cleared."
    )
    expect(other.locator("#record-title")).to_have_text("The match is over")


#: The iPhone SE (first generation), upright, in CSS pixels.
SMALL_PHONE = {"width": 320, "height": 568}


def test_the_points_form_fits_a_320_pixel_phone_and_its_ticks_are_fingertip_targets(browser: Any) -> None:
    """At 320 px the entry table (347 px in 282) clipped "Dropped out", and the Won and Dropped out
    boxes were 19 px with no label: a tap beside one did nothing."""
    context = browser.new_context(viewport=SMALL_PHONE, has_touch=True, is_mobile=True, device_scale_factor=2)
    context.set_default_timeout(15_000)
    try:
        phone = context.new_page()
        phone.goto(PAGE_FILE.as_uri())
        phone.get_by_label("Scoring").select_option("1939")
        names = ("Grandma", "Sam", "Ann", "Blue and Green")
        add_players(phone, *names)
        form = phone.locator("#game-form")
        wrap = form.locator(".table-wrap")
        assert wrap.evaluate("node => node.scrollWidth <= node.clientWidth"), "the game form's table is cut off"
        header = form.get_by_role("columnheader", name="Dropped out")
        assert header.get_attribute("title") == "Dropped out of a double"
        right = wrap.evaluate("node => node.getBoundingClientRect().right")
        assert header.evaluate("node => node.getBoundingClientRect().right") <= right
        assert phone.evaluate("document.documentElement.scrollWidth") <= SMALL_PHONE["width"]
        for name in names:
            won = form.get_by_role("radio", name=f"{name} won")
            dropped = form.get_by_role("checkbox", name=f"{name} dropped out of a double")
            for box in (won, dropped):
                target = box.evaluate("node => [node.closest('label').offsetWidth, node.closest('label').offsetHeight]")
                assert min(target) >= 40, (name, target)
                if name == "Sam":  # a tap beside the box, not on it, ticks it
                    box.scroll_into_view_if_needed()
                    around = box.bounding_box()
                    x, y = around["x"] + around["width"] / 2, around["y"] + around["height"] / 2
                    phone.touchscreen.tap(x + 15, y + 14)
                    expect(box).to_be_checked()
        assert header.inner_text() == "Out"
        phone.set_viewport_size({"width": 1280, "height": 900})  # a wide screen has room for the whole words
        phone.wait_for_function("() => !matchMedia('(max-width: 40rem)').matches")
        assert header.inner_text() == "Dropped out"
    finally:
        context.close()


def test_the_scorekeeper_looks_like_the_rest_of_the_site(page: Any, live_server: Any) -> None:
    """The scorekeeper, one self-contained file, had its own blue buttons, type and links, unlike every other page."""
    looks = """() => {
        const style = (selector, ...names) => {
            const found = getComputedStyle(document.querySelector(selector));
            return names.map((name) => found.getPropertyValue(name));
        };
        return {
            header: style('header', 'background-color', 'color'),
            body: style('body', 'font-family', 'background-color'),
            button: style('button', 'border-radius', 'border-top-width', 'font-weight', 'box-shadow'),
            current: style('nav [aria-current=page]', 'background-color', 'border-radius'),
        };
    }"""
    page.goto(f"{live_server.url}/lobby")
    lobby = page.evaluate(looks)
    page.goto(f"{live_server.url}/scorekeeper")
    assert page.evaluate(looks) == lobby
