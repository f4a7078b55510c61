"""The disk under a SQLite database fills up while the server runs:
the server lives on and says why, a player who comes then is told ``database_unavailable`` (a
websocket route once failed inside the HTTP error handler and dropped the connection without a
word), moves are refused with nothing lost, and once there is room again the games go on.
A real server on a small tmpfs of its own (skipped where this process cannot mount one)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import free_port, served, token_of
from websockets.sync.client import connect

pytestmark = pytest.mark.slow

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=6m", "tmpfs", str(disk)], capture_output=True, check=False
    )
    if mounted.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {mounted.stderr.decode().strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def _come_and_move(url: str, game: dict[str, Any]) -> str:
    """A player comes to ``game`` and plays its first legal move: ``stored``, or the error code."""
    with connect(f"{url}/ws/games/{game['id']}") as socket:
        socket.send(json.dumps({"type": "hello", "token": token_of(game, "red")}))
        state: dict[str, Any] = {}
        while not state.get("moves"):
            message = json.loads(socket.recv(timeout=20))
            if message["type"] == "error":
                return str(message["code"])
            state = message.get("state", state)
        socket.send(json.dumps({"type": "move", "move": state["moves"][0]["move"], "event": state["event"]}))
        while True:
            message = json.loads(socket.recv(timeout=20))
            if message["type"] in ("event", "error"):
                return "stored" if message["type"] == "event" else str(message["code"])


def _fill(disk: Path) -> Path:
    filler = disk / "filler"
    with filler.open("wb") as out:
        try:
            while True:
                out.write(b"\0" * 65536)
                out.flush()
        except OSError:
            pass
    return filler


def test_a_full_disk_refuses_with_nothing_lost_and_the_games_go_on(small_disk: Path, tmp_path: Path) -> None:
    port, log = free_port(), tmp_path / "server.log"
    with served(str(small_disk / "games.sqlite3"), port, log=log) as process:
        base = f"http://127.0.0.1:{port}"
        games = [httpx.post(f"{base}/api/games", json={"seats": SEATS, "seed": n}).json() for n in range(3)]
        url = f"ws://127.0.0.1:{port}"
        assert _come_and_move(url, games[0]) == "stored"
        filler = _fill(small_disk)
        answers = {_come_and_move(url, games[1]) for _ in range(3)}  # a newcomer: the seat cannot be marked
        assert answers <= {"database_unavailable", "server_error"}, answers
        assert process.poll() is None
        filler.unlink()
        assert _come_and_move(url, games[1]) == "stored"
        assert _come_and_move(url, games[0]) == "stored"
        assert httpx.get(f"{base}/healthz").status_code in (200, 503)
        assert process.poll() is None
    said = log.read_text()
    assert "the database refused it" in said or "database" in said
    assert "AttributeError" not in said and "Fatal Python error" not in said
