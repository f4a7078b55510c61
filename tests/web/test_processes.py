"""Several ``pardon serve`` processes on one PostgreSQL database: one owner per game, events
fanned out to the other processes' clients, players' moves through any of them, and the game
taken over when its owner dies."""

from __future__ import annotations

import os
import signal
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from web_support import SocketClient, free_port, served
from websockets.sync.client import ClientConnection, connect

pytestmark = pytest.mark.slow

Message = dict[str, Any]


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
            watcher = SocketClient(watching.enter_context(_socket(second, game)), game["spectator_token"])  # elsewhere
            with _socket(first, game) as connection:
                player = SocketClient(connection, token)
                player.play(until_event=30)
                seen = player.state["event"]
                watcher.until_event(seen)
                assert watcher.events == player.events  # every event, heard through PostgreSQL
                assert watcher.state["position"] == player.state["position"]
                with _socket(second, game) as elsewhere:  # the player's moves may come through either
                    through = SocketClient(elsewhere, token)
                    through.play(until_event=seen + 12)  # the owner's computer answers the moves made elsewhere
                    assert through.errors == []
                    seen = through.state["event"]
                player.until_event(seen)
                assert player.events == through.events
                os.kill(owner.pid, signal.SIGKILL)
                owner.wait(timeout=10)
        with _socket(second, game) as connection:  # the other process takes the game over
            again = SocketClient(connection, token, since=seen)
            again.play()
        assert [event for event, _, _ in again.events] == list(range(seen + 1, again.state["event"] + 1))
        watcher.until_event(again.state["event"])
        assert watcher.events == player.events + again.events
        record = httpx.get(f"http://127.0.0.1:{second}/api/games/{game['id']}/record").text
        control = _create(second)
        with _socket(second, control) as connection:
            uninterrupted = SocketClient(connection, next(s["token"] for s in control["seats"] if s["colour"] == red))
            uninterrupted.play()
        assert player.events + again.events == uninterrupted.events
        assert record == httpx.get(f"http://127.0.0.1:{second}/api/games/{control['id']}/record").text
