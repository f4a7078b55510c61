"""Several ``pardon serve`` processes on one PostgreSQL database: one owner per game, events
fanned out to the other processes' clients, and the game taken over when its owner dies."""

from __future__ import annotations

import json
import os
import signal
import time
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from web_support import free_port, served
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.slow

Message = dict[str, Any]


class Client:
    """A real websocket client; as a player it plays the first legal move of each of its decisions."""

    def __init__(self, connection: ClientConnection, token: str, since: int = 0):
        self.connection = connection
        self.connection.send(json.dumps({"type": "hello", "token": token, "since": since}))
        self.events: list[tuple[int, str, str]] = []
        self.errors: list[str] = []
        self.state: Message = {}

    def receive(self) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=20))
        if message["type"] == "sync":
            self.events += [(item["event"], item["colour"], item["move"]) for item in message["events"]]
        if message["type"] == "event":
            self.events.append((message["event"], message["decision"]["colour"], message["decision"]["move"]))
        if message["type"] in ("sync", "event", "state"):
            self.state = message["state"]
        if message["type"] == "error":
            self.errors.append(message["code"])
        return message

    def play(self, until_event: int | None = None) -> None:
        while True:
            while not (self.state.get("moves") or self.state.get("status") == "finished"):
                self.receive()
            if self.state["status"] == "finished" or (until_event and self.state["event"] >= until_event):
                return
            self.send_move(self.state["moves"][0]["move"])
            if self.receive().get("code") == "rate_limited":  # faster than a person: wait as asked
                time.sleep(0.2)

    def send_move(self, move: str) -> None:
        self.connection.send(json.dumps({"type": "move", "move": move, "event": self.state["event"]}))

    def until_event(self, event: int) -> None:
        while self.state.get("event", -1) < event:
            self.receive()


def _create(port: int) -> Message:
    body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seed": 29}
    game: Message = httpx.post(f"http://127.0.0.1:{port}/api/games", json=body, timeout=10).json()
    return game


def _socket(port: int, game: Message) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{port}{game['websocket']}")


def test_two_processes_share_a_game_and_one_takes_over_when_the_owner_dies(postgres: str) -> None:
    red = "red"
    first, second = free_port(), free_port()
    with served(postgres, second), ExitStack() as watching:
        with served(postgres, first) as owner:
            game = _create(first)  # the process that creates a game owns it
            token = next(seat["token"] for seat in game["seats"] if seat["colour"] == red)
            watcher = Client(watching.enter_context(_socket(second, game)), game["spectator_token"])  # elsewhere
            with _socket(first, game) as connection:
                player = Client(connection, token)
                player.play(until_event=30)
                seen = player.state["event"]
                watcher.until_event(seen)
                assert watcher.events == player.events  # every event, heard through PostgreSQL
                assert watcher.state["position"] == player.state["position"]
                with _socket(second, game) as elsewhere:  # only the owner decides
                    intruder = Client(elsewhere, token)
                    intruder.until_event(seen)
                    intruder.send_move(player.state["moves"][0]["move"])
                    while not intruder.errors:
                        intruder.receive()
                    assert intruder.errors == ["not_owner"]
                os.kill(owner.pid, signal.SIGKILL)
                owner.wait(timeout=10)
        with _socket(second, game) as connection:  # the other process takes the game over
            again = Client(connection, token, since=seen)
            again.play()
        assert [event for event, _, _ in again.events] == list(range(seen + 1, again.state["event"] + 1))
        watcher.until_event(again.state["event"])
        assert watcher.events == player.events + again.events
        record = httpx.get(f"http://127.0.0.1:{second}/api/games/{game['id']}/record").text
        control = _create(second)
        with _socket(second, control) as connection:
            uninterrupted = Client(connection, next(s["token"] for s in control["seats"] if s["colour"] == red))
            uninterrupted.play()
        assert player.events + again.events == uninterrupted.events
        assert record == httpx.get(f"http://127.0.0.1:{second}/api/games/{control['id']}/record").text
