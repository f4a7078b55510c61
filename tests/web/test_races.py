"""Races between clients of a real ``pardon serve`` on loopback: requests that arrive together
must leave the games as one of them alone would (on SQLite and on PostgreSQL)."""

from __future__ import annotations

import json
import os
import signal
from contextlib import ExitStack
from typing import Any

import httpx
import pytest
from web_support import SocketClient, free_port, post_at_once, served, token_of
from websockets.sync.client import connect

from pardon.web.storage import WAITING, Store, make_engine

pytestmark = pytest.mark.slow

Message = dict[str, Any]


def _finished_game(port: int) -> Message:
    """A game of two computers, watched by its host until its end (they move at once)."""
    body = {"seats": [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}], "seed": 3}
    game: Message = httpx.post(f"http://127.0.0.1:{port}/api/games", json=body, timeout=10).json()
    with connect(f"ws://127.0.0.1:{port}{game['websocket']}") as socket:
        socket.send(json.dumps({"type": "hello", "token": game["host_token"]}))
        while json.loads(socket.recv(timeout=20)).get("state", {}).get("status") != "finished":
            pass
    return game


def test_a_rematch_asked_by_everyone_at_once_is_made_once(database: str) -> None:
    """Both players (and the host) asking for the rematch at the same instant all get the same
    game, and no other game is made: before, each request that found no rematch yet stored a
    game of its own, and all but one were left waiting, unreachable, until they expired."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with served(database, port, "--create-rate", "0", "--join-rate", "0"):
        for _ in range(3):
            game = _finished_game(port)
            headers = {"Authorization": f"Bearer {game['host_token']}"}
            answers = post_at_once(f"{url}/api/games/{game['id']}/rematch", 12, headers=headers)
            assert [answer.status_code for answer in answers] == [200] * 12, [answer.text for answer in answers]
            made = {answer.json()["id"] for answer in answers}
            assert len(made) == 1
            engine = make_engine(database)
            try:
                waiting = Store(engine).games_with_status((WAITING,))
            finally:
                engine.dispose()
            rematches = [row.id for row in waiting if row.rematch_of == game["id"]]
            assert rematches == list(made)


def _until_yellow_decides(red: SocketClient, yellow: SocketClient) -> int:
    """Both play until it is Yellow's decision after at least one event; the event then."""
    while red.state.get("status") != "playing" or red.state["event"] == 0 or red.state["decider"] != "yellow":
        if red.state.get("moves"):
            red.send_move(red.state["moves"][0]["move"])
        elif red.state.get("decider") == "yellow":  # Yellow plays first
            yellow.until_event(red.state["event"])
            while not yellow.state.get("moves"):  # at that event Yellow may not have heard the start yet
                yellow.receive()
            yellow.send_move(yellow.state["moves"][0]["move"])
        red.receive()
    yellow.until_event(red.state["event"])
    event: int = red.state["event"]
    return event


@pytest.mark.parametrize("asked_first_by", ["websocket", "rest"])
def test_a_game_taken_over_by_another_process_hands_an_absent_seat_to_the_computer(
    postgres: str, asked_first_by: str
) -> None:
    """The owner of a game of two people dies while it is Yellow's decision; Yellow never comes
    back.  Red comes back through the other process, which had never served the game: it takes
    the game over as it is asked for it, and after the takeover time a computer decides for
    Yellow.  Before, a process that took a game over when a client (or a REST request) first
    asked for it started no takeover timer, and Red waited for ever."""
    first, second = free_port(), free_port()
    with ExitStack() as stack:
        owner = stack.enter_context(served(postgres, first, "--takeover-after", "1"))
        stack.enter_context(served(postgres, second, "--takeover-after", "1"))
        body = {"seats": [{"kind": "human"}, {"kind": "human"}], "seed": 5}
        game: Message = httpx.post(f"http://127.0.0.1:{first}/api/games", json=body, timeout=10).json()
        address = f"ws://127.0.0.1:{first}{game['websocket']}"
        with connect(address) as red_socket, connect(address) as yellow_socket:
            red = SocketClient(red_socket, token_of(game, "red"))
            yellow = SocketClient(yellow_socket, token_of(game, "yellow"))
            seen = _until_yellow_decides(red, yellow)
            os.kill(owner.pid, signal.SIGKILL)
            owner.wait(timeout=10)
        if asked_first_by == "rest":
            assert httpx.get(f"http://127.0.0.1:{second}/api/games/{game['id']}", timeout=10).status_code == 200
        with connect(f"ws://127.0.0.1:{second}{game['websocket']}") as socket:
            red = SocketClient(socket, token_of(game, "red"), since=seen)
            red.until_event(seen + 1)  # Yellow's decision, by the computer standing in
            assert red.events[-1][1] == "yellow"
