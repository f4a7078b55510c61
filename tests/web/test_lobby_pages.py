"""The lobby a page at a time, so that every game it offers can be found; one address cannot
fill it; an open seat carries no name meant for someone else."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_support import Player, create

Message = dict[str, Any]

OPEN_PAIR = [{"kind": "open"}, {"kind": "open"}]


def _public(server: TestClient) -> Message:
    return create(server, OPEN_PAIR, public=True)


def test_every_game_of_a_long_lobby_is_reached_page_by_page(make_server: Callable[..., TestClient]) -> None:
    """The lobby listed the 100 newest games, and the longest waiting were never shown."""
    server = make_server(create_rate=0.0)
    made = [_public(server)["id"] for _ in range(112)]
    first = server.get("/api/lobby").json()
    assert (first["total"], first["offset"], first["limit"], len(first["games"])) == (112, 0, 50, 50)
    seen: list[str] = []
    offset = 0
    while offset < first["total"]:
        page = server.get("/api/lobby", params={"offset": offset, "limit": 30}).json()
        seen += [game["id"] for game in page["games"]]
        offset += 30
    assert seen == list(reversed(made))  # newest first, each once
    assert server.get("/api/lobby", params={"offset": 500}).json()["games"] == []


def test_a_lobby_page_out_of_bounds_is_refused_with_a_reason(server: TestClient) -> None:
    for params in ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": "abc"}):
        refused = server.get("/api/lobby", params=params)
        assert refused.status_code == 422, (params, refused.text)
        assert refused.json()["error"] == "invalid_request"


def test_one_address_has_only_so_many_public_games_waiting(make_server: Callable[..., TestClient]) -> None:
    """Twenty at once, then ten a minute, each lasting a day: one script could keep the whole
    lobby full of its own empty games."""
    server = make_server(public_per_address=3)
    games = [_public(server) for _ in range(3)]
    refused = server.post("/api/games", json={"seats": OPEN_PAIR, "public": True})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited", refused.text
    assert "3 public games waiting" in refused.json()["message"]
    assert server.get("/api/lobby").json()["total"] == 3  # nothing changed
    wrong = server.post("/api/games", json={"seats": [{"kind": "open"}], "public": True, "rules": "nonsense"})
    assert wrong.status_code == 422  # a game that cannot be is said so first, whatever the count
    private = server.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]})
    assert private.status_code == 201  # a private game (links to friends) is not limited so

    # one of them fills up and starts: room for one more
    for colour in ("red", "yellow"):
        token = server.post(f"/api/games/{games[0]['id']}/join", json={"seat": colour}).json()["token"]
        with server.websocket_connect(games[0]["websocket"]) as socket:
            Player(socket).hello(token)
    assert server.get(f"/api/games/{games[0]['id']}").json()["status"] == "playing"
    assert server.post("/api/games", json={"seats": OPEN_PAIR, "public": True}).status_code == 201


def test_a_server_with_no_creation_limit_limits_no_public_game(make_server: Callable[..., TestClient]) -> None:
    server = make_server(create_rate=0.0, public_per_address=1)
    assert [server.post("/api/games", json={"seats": OPEN_PAIR, "public": True}).status_code for _ in range(4)] == [
        201
    ] * 4


def test_an_open_seat_is_given_no_name(server: TestClient) -> None:
    """A name typed for a friend went to whichever stranger joined the seat from the lobby."""
    seats = [{"kind": "human", "name": "Host"}, {"kind": "open", "name": "Grandma"}]
    refused = server.post("/api/games", json={"seats": seats, "public": True})
    assert refused.status_code == 422 and refused.json()["error"] == "invalid_seats", refused.text
    assert "no name" in refused.json()["message"] and "(yellow)" in refused.json()["message"]
    assert server.get("/api/lobby").json()["total"] == 0


def test_a_join_refused_names_the_seat_as_the_pages_do(server: TestClient) -> None:
    game = _public(server)
    assert server.post(f"/api/games/{game['id']}/join", json={"seat": "red"}).status_code == 200
    taken = server.post(f"/api/games/{game['id']}/join", json={"seat": "red"})
    assert taken.status_code == 409 and taken.json()["message"] == "Red has been taken"
