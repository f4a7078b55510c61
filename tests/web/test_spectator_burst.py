"""A burst of spectators (issue 43, item 3): each client address may open so many websockets a
second, refused past them before the application or a room sees them; and a crowd arriving
at once costs one replay of the game's log, not one each."""

from __future__ import annotations

import contextlib
import json
import socket
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import Message, Player, create, free_port, play_to_end, served, token_of
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from pardon.core.game import Game
from pardon.web.rooms import new_game
from pardon.web.views import decision_texts


def _socket(port: int, game: Message, address: str) -> ClientConnection:
    bound = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(address, 0))
    return connect(f"ws://127.0.0.1:{port}{game['websocket']}", sock=bound, open_timeout=10)


def _first(connection: ClientConnection) -> Message:
    """Say hello as a spectator (a refused connection may be closed before it is sent); the first answer."""
    with contextlib.suppress(ConnectionClosed):
        connection.send(json.dumps({"type": "hello"}))
    answer: Message = json.loads(connection.recv(timeout=10))
    return answer


def test_websockets_opened_too_fast_are_refused_before_the_application(tmp_path: Path) -> None:
    port = free_port()
    options = ("--connect-rate", "0.1", "--connect-burst", "3")
    with served(str(tmp_path / "games.sqlite3"), port, *options), contextlib.ExitStack() as stack:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        game = httpx.post(f"http://127.0.0.1:{port}/api/games", json={"seats": seats, "public": True}).json()
        held = [stack.enter_context(_socket(port, game, "127.0.0.7")) for _ in range(3)]
        assert all(_first(connection)["type"] == "welcome" for connection in held)
        with _socket(port, game, "127.0.0.7") as refused:
            error = _first(refused)
            assert error["type"] == "error" and error["code"] == "rate_limited"
            with pytest.raises(ConnectionClosed):
                while True:
                    refused.recv(timeout=10)
            assert refused.close_code == 1013
        with _socket(port, game, "127.0.0.8") as other:  # another address is not held back
            assert _first(other)["type"] == "welcome"


def test_the_application_refuses_them_too(make_server: Callable[..., TestClient]) -> None:
    server = make_server(connect_rate=0.1, connect_burst=2)
    game = create(server, [{"kind": "human"}, {"kind": "bot"}], public=True)
    for _ in range(2):
        with server.websocket_connect(game["websocket"]) as allowed:
            assert Player(allowed).hello(None)["role"] == "spectator"
    with server.websocket_connect(game["websocket"]) as third:
        assert third.receive_json()["code"] == "rate_limited"
        with pytest.raises(WebSocketDisconnect) as closed:
            third.receive_json()
        assert closed.value.code == 1013


def test_a_crowd_of_spectators_costs_one_replay_of_the_log(make_server: Callable[..., TestClient]) -> None:
    server = make_server()
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], public=True, seed=3)
    with server.websocket_connect(game["websocket"]) as playing:
        player = Player(playing)
        player.hello(token_of(game, "red"))
        play_to_end(player, stop_at=40)
        room = server.app.state.rooms.rooms[game["id"]]  # type: ignore[attr-defined]
        syncs = []
        for _ in range(3):
            with server.websocket_connect(game["websocket"]) as watching:
                watching.send_json({"type": "hello"})
                assert watching.receive_json()["type"] == "welcome"
                syncs.append(watching.receive_json())
        texts = room.log_texts()
        assert room.log_texts() is texts  # nothing new: put in words once, not for each spectator
        assert isinstance(room._texts[1], Game) and texts == decision_texts(new_game(room.row), room.game.moves)
        assert all(sync["type"] == "sync" and sync["events"] for sync in syncs)
        assert [[event["text"] for event in sync["events"]] for sync in syncs] == [texts[: len(syncs[0]["events"])]] * 3
