"""Helpers for the browser tests that need a game to reach a certain point quickly.

``play_to_the_end`` plays a game's seats over the websocket as a client would (the first legal
move each time), so that a page opened afterwards shows the end; ``play_until`` in
``test_game_page`` plays by clicks instead, when the clicks are what is tested.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from websockets.sync.client import connect

Move = dict[str, Any]
STATE_CARRIERS = ("sync", "event", "state")
#: Seconds between two moves: the tests' servers let a connection send 1,000 messages a second
#: (conftest.Server; 20 by default, Settings.rate).
MOVE_EVERY = 0.002


def play_to_the_end(
    server: Any, game: dict[str, Any], token: str, choose: Callable[[list[Move]], Move] = lambda moves: moves[0]
) -> dict[str, Any]:
    """Play every decision ``token`` makes (a player's seat, or the host's hot-seat seats) until
    the game is over, as quickly as the server lets one connection; the computers play theirs.
    Returns the final state."""
    address = f"ws://127.0.0.1:{server.port}{game['websocket']}"
    deadline = time.monotonic() + 90
    state: dict[str, Any] = {}
    with connect(address, open_timeout=5) as socket:
        socket.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        sent, synced, last = -1, False, 0.0
        while time.monotonic() < deadline:
            message = json.loads(socket.recv(timeout=15))
            kind = message["type"]
            synced = synced or kind == "sync"  # what comes before it may be stale
            if kind in STATE_CARRIERS:
                state = message["state"]
            if kind == "error":
                sent = -1  # refused: try again
            if not synced:
                continue
            if state["status"] == "finished":
                return state
            if state["moves"] and state["event"] != sent:
                sent = state["event"]
                time.sleep(max(0.0, last + MOVE_EVERY - time.monotonic()))
                last = time.monotonic()
                socket.send(json.dumps({"type": "move", "move": choose(state["moves"])["move"], "event": sent}))
    raise AssertionError(f"game {game['id']} did not finish in time")


def wait_finished(server: Any, game_id: str, seconds: float = 60) -> None:
    """Wait until a game between computers is over (someone must be watching for it to begin)."""
    deadline = time.monotonic() + seconds
    while server.rest(f"/api/games/{game_id}")["status"] != "finished":
        assert time.monotonic() < deadline, "the computer players did not finish"
        time.sleep(0.1)


def contrast(first: str, second: str) -> float:
    """The WCAG contrast ratio of two CSS colours written ``rgb(r, g, b)`` or ``#rrggbb``."""

    def luminance(colour: str) -> float:
        if colour.startswith("#"):
            channels = [int(colour[index : index + 2], 16) for index in (1, 3, 5)]
        else:
            channels = [int(float(part)) for part in colour[colour.index("(") + 1 : colour.index(")")].split(",")[:3]]
        linear = [c / 255 / 12.92 if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)
