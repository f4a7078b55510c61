"""What the server keeps is bounded: finished games looked up are not kept in memory, game
creation is limited per client address, and games abandoned while waiting expire."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from web_support import Player, create, token_of

from pardon.web.registry import Rooms


def _rooms(server: TestClient) -> Rooms:
    rooms: Rooms = server.app.state.rooms  # type: ignore[attr-defined]
    return rooms


def _finished_game(server: TestClient, seed: int) -> str:
    """A game of two computers, watched to its end."""
    game = create(server, [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}], seed=seed)
    with server.websocket_connect(game["websocket"]) as socket:
        watcher = Player(socket)
        watcher.hello(game["spectator_token"])
        watcher.until(lambda message: message.get("state", {}).get("status") == "finished")
        assert game["id"] in _rooms(server).rooms  # kept while watched
    game_id: str = game["id"]
    return game_id


def test_finished_games_looked_up_are_not_kept_in_memory(server: TestClient) -> None:
    finished = [_finished_game(server, seed) for seed in (1, 2, 3)]
    assert not set(finished) & set(_rooms(server).rooms)  # nobody watches them any more
    for _ in range(5):
        for game_id in finished:
            for path in ("", "/record", "/result", "/replay"):
                assert server.get(f"/api/games/{game_id}{path}").status_code == 200, path
            with server.websocket_connect(f"/ws/games/{game_id}") as socket:  # a bad token
                socket.send_json({"type": "hello", "token": "not-a-token"})
                assert socket.receive_json()["code"] == "bad_token"
    assert not set(finished) & set(_rooms(server).rooms)


def test_a_finished_game_is_not_kept_for_a_client_that_never_says_hello(server: TestClient) -> None:
    game_id = _finished_game(server, 5)
    with server.websocket_connect(f"/ws/games/{game_id}") as socket:
        socket.send_json({"type": "move", "move": "1 start-exit"})  # not a hello
        assert socket.receive_json()["code"] == "malformed"
    assert _gone_soon(server, game_id)
    with server.websocket_connect(f"/ws/games/{game_id}") as socket:  # gone before saying hello
        socket.close()
    assert _gone_soon(server, game_id)


def _gone_soon(server: TestClient, game_id: str) -> bool:
    """Whether the room is forgotten within a second: far sooner than housekeeping's minute."""
    deadline = time.monotonic() + 1
    while game_id in _rooms(server).rooms and time.monotonic() < deadline:
        time.sleep(0.02)
    return game_id not in _rooms(server).rooms


def test_housekeeping_forgets_a_finished_game_left_behind(make_server: Callable[..., TestClient]) -> None:
    server = make_server(sweep_every=0.05)
    game_id = _finished_game(server, 4)
    rooms = _rooms(server)
    assert server.portal is not None
    # kept for a client that never came to it; looked at on the event loop, since the next sweep
    # (every 50 ms) may come before this thread would look, on a busy machine
    assert server.portal.call(lambda: rooms.watch(game_id) is not None and game_id in rooms.rooms)
    deadline = time.monotonic() + 5
    while game_id in _rooms(server).rooms and time.monotonic() < deadline:
        time.sleep(0.05)
    assert game_id not in _rooms(server).rooms


def test_creating_games_is_limited_per_address(make_server: Callable[..., TestClient]) -> None:
    server = make_server(create_rate=6.0, create_burst=3)  # 6 a minute: one every 10 s once the burst is spent
    seats = [{"kind": "human"}, {"kind": "bot"}]
    for _ in range(3):
        assert server.post("/api/games", json={"seats": seats}).status_code == 201
    refused = server.post("/api/games", json={"seats": seats})
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited"
    assert 1 <= int(refused.headers["Retry-After"]) <= 10
    assert server.get("/api/lobby").status_code == 200  # only creation is limited
    spare = make_server(create_rate=0.0)  # no limit
    for _ in range(25):
        assert spare.post("/api/games", json={"seats": seats}).status_code == 201


def _status_once_gone(server: TestClient, game_id: str, wait: float = 15.0) -> Any:
    """The game's REST answer once it is gone (404), or its last answer after ``wait`` seconds."""
    deadline = time.monotonic() + wait
    answer = server.get(f"/api/games/{game_id}")
    while answer.status_code != 404 and time.monotonic() < deadline:
        time.sleep(0.1)
        answer = server.get(f"/api/games/{game_id}")
    return answer


@pytest.mark.slow
def test_a_game_nobody_comes_to_expires(make_server: Callable[..., TestClient]) -> None:
    # 2 s: on a busy machine creating a game and joining it may take longer than a shorter expiry
    server = make_server(waiting_expiry=2.0, sweep_every=0.1)
    abandoned = create(server, [{"kind": "human"}, {"kind": "open"}], public=True)
    attended = create(server, [{"kind": "human"}, {"kind": "open"}], public=True)
    with server.websocket_connect(attended["websocket"]) as host_socket:
        Player(host_socket).hello(token_of(attended, "red"))  # the host waits in the game
        playing = create(server, [{"kind": "human"}, {"kind": "bot"}])
        with server.websocket_connect(playing["websocket"]) as player_socket:
            Player(player_socket).hello(token_of(playing, "red"))  # this one starts at once
        gone = _status_once_gone(server, abandoned["id"])
        assert gone.status_code == 404 and gone.json()["error"] == "no_game"
        deadline = time.monotonic() + 5  # its room is forgotten by the sweep that deleted it, just after
        while abandoned["id"] in _rooms(server).rooms and time.monotonic() < deadline:
            time.sleep(0.02)
        assert abandoned["id"] not in _rooms(server).rooms
        listed = [game["id"] for game in server.get("/api/lobby").json()["games"]]
        assert abandoned["id"] not in listed and attended["id"] in listed
        assert server.get(f"/api/games/{playing['id']}").json()["status"] == "playing"  # only waiting games expire
    assert _status_once_gone(server, attended["id"]).status_code == 404  # the host has left too
    with server.websocket_connect(attended["websocket"]) as socket:
        assert socket.receive_json()["code"] == "no_game"
