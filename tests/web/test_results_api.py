"""A finished game's result for the scorekeeper, and the scorekeeper page as a download."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_support import Player, create

from pardon.core.board import COLOUR_NAMES
from pardon.core.game import replay
from pardon.core.notation import parse_record
from pardon.core.scoring import points_of


def play_computers_to_the_end(server: TestClient, rules: str, seats: int, seed: int) -> dict[str, Any]:
    """Create a game of computers only and watch it to the end (a watcher starts it)."""
    game = create(server, [{"kind": "bot", "level": "greedy"}] * seats, rules=rules, seed=seed)
    with server.websocket_connect(game["websocket"]) as socket:
        watcher = Player(socket)
        watcher.hello(game["spectator_token"])
        watcher.until(lambda message: message.get("state", {}).get("status") == "finished")
    return game


def result_of(server: TestClient, game_id: str) -> dict[str, Any]:
    answer = server.get(f"/api/games/{game_id}/result")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_a_finished_game_gives_its_winner_and_the_points_of_the_core(server: TestClient) -> None:
    game = play_computers_to_the_end(server, "classic(scoring=1939)", seats=3, seed=7)
    result = result_of(server, game["id"])
    replayed = replay(parse_record(server.get(f"/api/games/{game['id']}/record").text))
    points = points_of(replayed.rules, replayed.position)
    assert points is not None
    assert result["winner"] == COLOUR_NAMES[replayed.winner or 0]
    assert result["scoring"] == "1939" and result["stake"] == 1 and not result["doubled"] and result["wins"] == 1
    assert {player["colour"]: player["points"] for player in result["players"]} == {
        COLOUR_NAMES[colour]: value for colour, value in points.items()
    }
    winner = next(player for player in result["players"] if player["colour"] == result["winner"])
    assert winner["home"] == 4 and all(player["home"] < 4 for player in result["players"] if player is not winner)
    assert [side["colours"] for side in result["sides"]] == [["red"], ["blue"], ["yellow"]]
    assert [side["won"] for side in result["sides"]].count(True) == 1
    # three computers of one level: each told apart by its colour, to count for a player of its own
    assert [side["name"] for side in result["sides"]] == [
        "Computer (Easy) (Red)",
        "Computer (Easy) (Blue)",
        "Computer (Easy) (Yellow)",
    ]


def test_a_doubled_game_everyone_dropped_out_of_scores_the_doubler_5_times_the_stake(server: TestClient) -> None:
    # seed 4: one double is accepted, then the other player drops out of the next one
    game = play_computers_to_the_end(server, "classic(scoring=1939,doubling=true)", seats=2, seed=4)
    result = result_of(server, game["id"])
    assert result["stake"] == 2 and result["doubled"] and result["wins"] == 2 and result["everyone_dropped_out"]
    players = {player["colour"]: player for player in result["players"]}
    winner = players[result["winner"]]
    loser = next(player for player in result["players"] if player is not winner)
    assert winner["points"] == 5 * 2 and not winner["dropped_out"]
    assert loser["points"] == 0 and loser["dropped_out"]
    replayed = replay(parse_record(server.get(f"/api/games/{game['id']}/record").text))
    assert points_of(replayed.rules, replayed.position) == {0: players["red"]["points"], 2: players["yellow"]["points"]}


def test_a_partners_game_counts_each_partnership_as_one_side(server: TestClient) -> None:
    game = play_computers_to_the_end(server, "partners", seats=4, seed=3)
    result = result_of(server, game["id"])
    assert result["partners"] and result["scoring"] == "none"
    assert [side["colours"] for side in result["sides"]] == [["red", "yellow"], ["blue", "green"]]
    winning = next(side for side in result["sides"] if side["won"])
    assert result["winner"] in winning["colours"] and all(side["points"] is None for side in result["sides"])
    expected = " and ".join(f"Computer (Easy) ({colour.capitalize()})" for colour in winning["colours"])
    assert winning["name"] == expected


def test_a_game_still_going_or_unknown_has_no_result(make_server: Callable[..., TestClient]) -> None:
    server = make_server()
    game = create(server, [{"kind": "human"}, {"kind": "bot"}], seed=1)
    waiting = server.get(f"/api/games/{game['id']}/result")
    assert waiting.status_code == 409 and waiting.json()["error"] == "not_finished"
    missing = server.get("/api/games/nosuchgame/result")
    assert missing.status_code == 404 and "nosuchgame" in missing.json()["message"]


def test_the_scorekeeper_downloads_as_one_self_contained_file(server: TestClient) -> None:
    answer = server.get("/scorekeeper.html")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/html")
    assert 'attachment; filename="scorekeeper.html"' in answer.headers["content-disposition"]
    page = answer.text
    assert page == server.get("/scorekeeper").text
    # nothing outside the file: no stylesheet, script or image fetched from anywhere (the empty
    # icon is written in the page itself, so that no browser asks for /favicon.ico)
    for reference in ("<link", 'src="', "@import", "url("):
        assert reference not in page.replace('<link rel="icon" href="data:,">', ""), reference
