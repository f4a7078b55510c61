"""The lobby a page at a time, so that every game it offers can be found; one address cannot
fill it; an open seat carries no name meant for someone else."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_support import Player, create, token_of

Message = dict[str, Any]

OPEN_PAIR = [{"kind": "open"}, {"kind": "open"}]


def _public(server: TestClient) -> Message:
    return create(server, OPEN_PAIR, public=True)


def _pages(server: TestClient, first: str) -> list[Message]:
    """The lobby's pages from ``first``, following each page's ``next``."""
    pages = [server.get(first).json()]
    while pages[-1]["next"] is not None:
        pages.append(server.get(pages[-1]["next"]).json())
    return pages


def test_every_game_of_a_long_lobby_is_reached_page_by_page(make_server: Callable[..., TestClient]) -> None:
    """The lobby listed the 100 newest games, and the longest waiting were never shown."""
    server = make_server(create_rate=0.0)
    made = [_public(server)["id"] for _ in range(112)]
    first = server.get("/api/lobby").json()
    assert (first["total"], first["offset"], first["limit"], len(first["games"])) == (112, 0, 50, 50)
    assert first["next"].startswith("/api/lobby?after=") and first["next"].endswith("&limit=50")
    pages = _pages(server, "/api/lobby?limit=30")
    assert [len(page["games"]) for page in pages] == [30, 30, 30, 22] and pages[-1]["next"] is None
    assert [game["id"] for page in pages for game in page["games"]] == list(reversed(made))  # newest first, each once
    assert server.get("/api/lobby", params={"offset": 500}).json()["games"] == []  # offsets still answer


def test_games_coming_and_going_between_pages_are_never_lost_or_repeated(
    make_server: Callable[..., TestClient],
) -> None:
    """Paging by offset, games leaving the first page pushed unseen ones onto it after it was
    read (5 of 30 never listed), and games arriving pushed seen ones onto the next (4 listed twice)."""
    server = make_server(create_rate=0.0, join_rate=0.0)
    made = [_public(server)["id"] for _ in range(30)]
    first = server.get("/api/lobby", params={"limit": 10}).json()
    leaving = [made[-1], made[-3], made[-12], made[5]]  # from the first page read, and from pages not read yet
    for game_id in leaving:  # both seats joined: the game leaves the lobby
        for colour in ("red", "yellow"):
            assert server.post(f"/api/games/{game_id}/join", json={"seat": colour}).status_code == 200
    arrived = [_public(server)["id"] for _ in range(4)]
    listed = [game["id"] for game in first["games"]]
    listed += [game["id"] for page in _pages(server, first["next"]) for game in page["games"]]
    throughout = [game_id for game_id in reversed(made) if game_id not in leaving]
    assert len(listed) == len(set(listed))  # none twice
    assert [game_id for game_id in listed if game_id in throughout] == throughout  # none lost, in order
    assert not set(listed) & set(arrived)  # newer than the first page: on a first page read again


def test_a_lobby_page_out_of_bounds_is_refused_with_a_reason(server: TestClient) -> None:
    wrong = ({"limit": 0}, {"limit": 101}, {"offset": -1}, {"offset": "abc"}, {"after": "abc"}, {"after": "1.a/b"})
    for params in (*wrong, {"after": "123.abc", "offset": 5}):
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


def test_a_joiner_gives_a_name_everyone_sees_and_a_lapsed_joiners_name_goes_with_the_seat(
    make_server: Callable[..., TestClient],
) -> None:
    """A player joining from the lobby could not give a name: every such seat was "Yellow"."""
    server = make_server(join_grace=0.5)
    game = create(server, [{"kind": "human", "name": "Host"}, {"kind": "open"}], public=True)
    too_long = server.post(f"/api/games/{game['id']}/join", json={"seat": "yellow", "name": "x" * 41})
    assert too_long.status_code == 422
    joined = server.post(f"/api/games/{game['id']}/join", json={"seat": "yellow", "name": " \u202eSam "})
    assert joined.status_code == 200, joined.text
    names = lambda: [seat["name"] for seat in server.get(f"/api/games/{game['id']}").json()["seats"]]  # noqa: E731
    assert names() == ["Host", "Sam"]  # cleaned as every name is
    with server.websocket_connect(game["websocket"]) as socket:  # the host sees the joiner's name on the seat
        host = Player(socket)
        host.hello(token_of(game, "red"))
        assert [seat["name"] for seat in host.state["seats"]] == ["Host", "Sam"], host.state["seats"]
    time.sleep(0.6)  # Sam never came: the seat is open again, and its next joiner gives no name
    assert server.post(f"/api/games/{game['id']}/join", json={"seat": "yellow"}).status_code == 200
    assert names() == ["Host", "Yellow"]


def test_the_lobby_offers_the_public_games_being_played_to_watch(make_server: Callable[..., TestClient]) -> None:
    """A started game disappeared from the lobby, which offered no way to watch one."""
    server = make_server(create_rate=0.0)
    assert server.get("/api/lobby/playing").json() == {"games": [], "total": 0, "limit": 20}
    human_and_computer = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    public = create(server, human_and_computer, public=True)
    private = create(server, human_and_computer)
    waiting = _public(server)
    for game in (public, private):  # their players come and play a move: both are under way
        with server.websocket_connect(game["websocket"]) as socket:
            player = Player(socket)
            player.hello(game["seats"][0]["token"])
            player.send_move(player.my_turn_or_over()["moves"][0]["move"])
            player.until_event(player.seen + 1)
    playing = server.get("/api/lobby/playing").json()
    assert (playing["total"], [game["id"] for game in playing["games"]]) == (1, [public["id"]])
    (shown,) = playing["games"]
    assert shown["status"] == "playing" and [seat["kind"] for seat in shown["seats"]] == ["human", "bot"]
    assert shown["event"] == server.get(f"/api/games/{public['id']}").json()["event"] > 0  # the moves so far
    assert waiting["id"] in [game["id"] for game in server.get("/api/lobby").json()["games"]]
    with server.websocket_connect(public["websocket"]) as socket:  # anyone may watch it, with no token
        watcher = Player(socket)
        assert watcher.hello(None)["role"] == "spectator"
    assert server.get("/api/lobby/playing", params={"limit": 0}).status_code == 422
