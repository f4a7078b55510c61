"""The takeover time of an absent player runs while someone waits for them and pauses while
nobody does: a waiting player whose connection comes and goes does not restart it (it did: a
player reconnecting every 1.3 s waited 12 s with a 3 s takeover time, and no computer came)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import SocketClient, free_port, served
from websockets.sync.client import connect

from pardon.web.settings import sqlite_url

pytestmark = pytest.mark.slow

TAKEOVER = 3.0
#: How long the waiting player stays each time, and is away between.
STAY, AWAY = 1.0, 0.3


def _events_until(client: SocketClient, until: float) -> list[dict[str, Any]]:
    """The decisions a client hears of until the monotonic time ``until`` (or the first one), as
    ``{"event", "colour"}``: each as it is made, or in the ``sync`` that greets a client coming
    back (a decision made as it went, before the server knew it had gone, comes so)."""
    heard: list[dict[str, Any]] = []
    while not heard and (left := until - time.monotonic()) > 0:
        try:
            message = json.loads(client.connection.recv(timeout=left))
        except TimeoutError:
            break
        if message["type"] == "event":
            heard.append({"event": message["event"], "colour": message["decision"]["colour"]})
        if message["type"] == "sync":
            heard += [{"event": item["event"], "colour": item["colour"]} for item in message["events"]]
    return heard


def test_a_waiting_player_who_keeps_reconnecting_still_sees_the_computer_stand_in(tmp_path: Path) -> None:
    port = free_port()
    socket_url = f"ws://127.0.0.1:{port}"
    with served(sqlite_url(tmp_path / "games.sqlite3"), port, "--takeover-after", str(TAKEOVER)):
        body = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 4}
        game = httpx.post(f"http://127.0.0.1:{port}/api/games", json=body, timeout=10).json()
        tokens = {seat["colour"]: seat["token"] for seat in game["seats"]}
        with connect(socket_url + game["websocket"]) as red_socket:
            red = SocketClient(red_socket, tokens["red"])
            with connect(socket_url + game["websocket"]) as yellow_socket:
                SocketClient(yellow_socket, tokens["yellow"])
                while red.state.get("status") != "playing":
                    red.receive()
                while red.state["decider"] != "yellow":  # Red plays until it is Yellow's turn
                    event = red.state["event"]
                    red.send_move(red.state["moves"][0]["move"])
                    red.until_event(event + 1)
                left_at = red.state["event"]
        waited, deadline, stood_in = 0.0, time.monotonic() + 4 * TAKEOVER, []
        while not stood_in and time.monotonic() < deadline:  # Red comes and goes, waiting for Yellow
            with connect(socket_url + game["websocket"]) as red_socket:
                came = time.monotonic()
                red = SocketClient(red_socket, tokens["red"], since=left_at)
                stood_in = _events_until(red, came + STAY)
                waited += time.monotonic() - came
            time.sleep(AWAY)
    assert stood_in, f"no computer played for Yellow in {waited:.1f} s of waiting"
    assert stood_in[0] == {"event": left_at + 1, "colour": "yellow"}
    assert TAKEOVER - 0.2 <= waited <= TAKEOVER + 1.0  # the takeover time of waiting, plus a margin
