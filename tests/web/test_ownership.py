"""Several ``pardon serve`` on one PostgreSQL database: an owner whose lock connection is ended
while it runs on (``pg_terminate_backend``) decides no more once another process has taken the
game: its computer plays no more, while its player's moves are still taken through it and the
new owner's computer answers them, to the game's end."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from web_support import SocketClient, free_port, served
from websockets.sync.client import ClientConnection, connect

from pardon.core.game import replay
from pardon.core.notation import parse_record

pytestmark = pytest.mark.slow

Message = dict[str, Any]


def _libpq(database: str) -> str:
    return database.replace("postgresql+psycopg://", "postgresql://", 1)


def _end_lock_connection(database: str, game_id: str) -> None:
    """End the connection holding the game's advisory lock (its process runs on), and wait
    until it has ended (the lock is free then)."""
    with psycopg.connect(_libpq(database), autocommit=True) as admin:
        found = admin.execute(
            "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 1"
            " AND ((classid::bigint << 32) | objid::bigint) = hashtextextended(%s, 0)",
            (game_id,),
        ).fetchall()
        assert len(found) == 1, found
        admin.execute("SELECT pg_terminate_backend(%s)", (found[0][0],))
        deadline = time.monotonic() + 10
        while admin.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", (found[0][0],)).fetchone():
            assert time.monotonic() < deadline
            time.sleep(0.005)


def _stored(database: str, game_id: str) -> int:
    with psycopg.connect(_libpq(database)) as connection:
        row = connection.execute("SELECT count(*) FROM decisions WHERE game_id = %s", (game_id,)).fetchone()
        assert row is not None
        return int(row[0])


def _socket(port: int, game: Message) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{port}{game['websocket']}")


def _settle(client: SocketClient, database: str, game_id: str) -> int:
    """Read until the client has every stored event and the decision is its own; the event."""
    while not (client.state.get("moves") and client.state["event"] == _stored(database, game_id)):
        client.receive()
    client.connection.send(json.dumps({"type": "ping"}))  # and past every answer to what it sent before
    while client.receive()["type"] != "pong":
        pass
    event: int = client.state["event"]
    return event


def _answer(client: SocketClient) -> Message:
    """The answer to a move: an error, or the event it made."""
    while True:
        message = client.receive()
        if message["type"] in ("error", "event"):
            return message


def test_an_owner_that_has_lost_its_lock_decides_no_more(postgres: str, tmp_path: Path) -> None:
    first, second = free_port(), free_port()
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    with served(postgres, first, log=first_log), served(postgres, second, log=second_log):
        body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seed": 31}
        game: Message = httpx.post(f"http://127.0.0.1:{first}/api/games", json=body, timeout=10).json()
        token = next(seat["token"] for seat in game["seats"] if seat["colour"] == "red")
        with _socket(first, game) as old_connection, _socket(second, game) as new_connection:
            old = SocketClient(old_connection, token)  # the owner: the process that created the game
            old.play(until_event=12)
            seen = _settle(old, postgres, game["id"])
            new = SocketClient(new_connection, token)
            new.until_event(seen)
            _end_lock_connection(postgres, game["id"])
            new.send_move(new.state["moves"][0]["move"])  # the second process takes the game over, and stores it
            assert _answer(new)["type"] == "event"
            old.play()  # the player goes on through the first process; the new owner's computer answers
            assert old.state["status"] == "finished"
            new.until_event(old.state["event"])
            assert old.events == new.events
        record = httpx.get(f"http://127.0.0.1:{second}/api/games/{game['id']}/record").text
    assert replay(parse_record(record)).is_over
    assert [event for event, _, _ in new.events] == list(range(1, new.state["event"] + 1))
    assert "no longer decided here" in first_log.read_text()
    assert "taken over at event" in second_log.read_text()
    for log in (first_log, second_log):  # nobody retried a refused move again and again
        assert log.read_text().count("computer move refused") <= 2, log.read_text()[-3000:]
