"""Kill-and-restart: a real ``pardon serve`` killed with SIGKILL mid-game resumes the game exactly."""

from __future__ import annotations

import json
import os
import signal
import time
from typing import Any

import httpx
import pytest
from web_support import free_port, served
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.slow

Message = dict[str, Any]


class Client:
    """A real websocket client playing the first legal move of every decision of its seat."""

    def __init__(self, connection: ClientConnection, game: Message, colour: str, since: int = 0):
        self.connection = connection
        token = next(seat["token"] for seat in game["seats"] if seat["colour"] == colour)
        self.connection.send(json.dumps({"type": "hello", "token": token, "since": since}))
        self.events: list[tuple[int, str, str]] = []
        self.state: Message = {}

    def receive(self) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=20))
        if message["type"] == "sync":
            self.events += [(item["event"], item["colour"], item["move"]) for item in message["events"]]
        if message["type"] == "event":
            self.events.append((message["event"], message["decision"]["colour"], message["decision"]["move"]))
        if message["type"] in ("sync", "event", "state"):
            self.state = message["state"]
        return message

    def play(self, until_event: int | None = None) -> None:
        while True:
            while not (self.state.get("moves") or self.state.get("status") == "finished"):
                self.receive()
            if self.state["status"] == "finished" or (until_event and self.state["event"] >= until_event):
                return
            move = self.state["moves"][0]["move"]
            self.connection.send(json.dumps({"type": "move", "move": move, "event": self.state["event"]}))
            if self.receive().get("code") == "rate_limited":  # faster than a person: wait as asked
                time.sleep(0.2)


def _address(port: int, game: Message) -> str:
    return f"ws://127.0.0.1:{port}{game['websocket']}"


def _create(port: int) -> Message:
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seed": 17}
    game: Message = httpx.post(f"http://127.0.0.1:{port}/api/games", json=body, timeout=10).json()
    return game


def test_a_killed_server_resumes_every_game_exactly(database: str) -> None:
    port = free_port()
    with served(database, port) as process:
        interrupted, control = _create(port), _create(port)
        with connect(_address(port, interrupted)) as connection:
            client = Client(connection, interrupted, "red")
            client.play(until_event=40)
            seen = client.state["event"]
            move = client.state["moves"][0]["move"]  # killed while this move is on its way in
            connection.send(json.dumps({"type": "move", "move": move, "event": seen}))
            os.kill(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
    with served(database, port):
        summary = httpx.get(f"http://127.0.0.1:{port}/api/games/{interrupted['id']}").json()
        assert summary["status"] == "playing" and summary["event"] >= seen
        with connect(_address(port, interrupted)) as connection:
            again = Client(connection, interrupted, "red", since=seen)
            again.play()
        assert [event for event, _, _ in again.events] == list(range(seen + 1, again.state["event"] + 1))
        with connect(_address(port, control)) as connection:
            uninterrupted = Client(connection, control, "red")
            uninterrupted.play()
        records = [
            httpx.get(f"http://127.0.0.1:{port}/api/games/{game['id']}/record").text for game in (interrupted, control)
        ]
    assert client.events + again.events == uninterrupted.events
    assert again.state["winner"] == uninterrupted.state["winner"]
    assert records[0] == records[1]
