"""Kill-and-restart: a real ``pardon serve`` killed with SIGKILL mid-game resumes the game exactly."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import SocketClient, free_port, served, token_of
from websockets.sync.client import connect

pytestmark = pytest.mark.slow

Message = dict[str, Any]


def _address(port: int, game: Message) -> str:
    return f"ws://127.0.0.1:{port}{game['websocket']}"


def _create(port: int) -> Message:
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seed": 17}
    game: Message = httpx.post(f"http://127.0.0.1:{port}/api/games", json=body, timeout=10).json()
    return game


def test_a_killed_server_resumes_every_game_exactly(database: str, tmp_path: Path) -> None:
    port = free_port()
    with served(database, port) as process:
        interrupted, control = _create(port), _create(port)
        with connect(_address(port, interrupted)) as connection:
            client = SocketClient(connection, token_of(interrupted, "red"))
            client.play(until_event=40)
            seen = client.state["event"]
            move = client.state["moves"][0]["move"]  # killed while this move is on its way in
            connection.send(json.dumps({"type": "move", "move": move, "event": seen}))
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    log = tmp_path / "restarted.log"
    with served(database, port, log=log):
        assert "pardon serve: 2 unfinished games resumed" in log.read_text()  # the operator is told
        summary = httpx.get(f"http://127.0.0.1:{port}/api/games/{interrupted['id']}").json()
        assert summary["status"] == "playing" and summary["event"] >= seen
        with connect(_address(port, interrupted)) as connection:
            again = SocketClient(connection, token_of(interrupted, "red"), since=seen)
            again.play()
        assert [event for event, _, _ in again.events] == list(range(seen + 1, again.state["event"] + 1))
        with connect(_address(port, control)) as connection:
            uninterrupted = SocketClient(connection, token_of(control, "red"))
            uninterrupted.play()
        records = [
            httpx.get(f"http://127.0.0.1:{port}/api/games/{game['id']}/record").text for game in (interrupted, control)
        ]
    assert client.events + again.events == uninterrupted.events
    assert again.state["winner"] == uninterrupted.state["winner"]
    assert records[0] == records[1]
