"""A PostgreSQL server restarted under a running ``pardon serve`` (``systemctl restart
postgresql``, an unattended upgrade): while it is down, moves are refused with nothing changed;
once it is back, every game goes on where it was.  Before, the lost lock connection made the
process believe another had taken its games, the read that followed failed while the database
was down, and each game was set aside as one whose "decision stored by another writer does not
replay" until pardon itself was restarted.

The test runs a PostgreSQL server of its own (``.ci/postgres``), which it stops and starts."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import SocketClient, free_port, served, token_of
from websockets.sync.client import connect

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def own_postgres() -> Iterator[tuple[str, Path]]:
    """A PostgreSQL server for this test alone: its URL and its folder (``stop``, ``start``)."""
    if not list(Path("/usr/lib/postgresql").glob("*/bin/initdb")):
        pytest.skip("no PostgreSQL server installed (.ci/run installs it)")
    started = subprocess.run([str(ROOT / ".ci" / "postgres")], capture_output=True, text=True, check=True, timeout=120)
    url, folder = started.stdout.split()
    try:
        yield url, Path(folder)
    finally:
        subprocess.run([f"{folder}/stop"], check=False, timeout=60)


def _answer(client: SocketClient) -> dict[str, Any]:
    """The answer to the move just sent: its event, or an error."""
    while True:
        message = client.receive()
        if message["type"] in ("event", "error"):
            return message


def test_a_game_goes_on_after_its_postgresql_server_restarts(own_postgres: tuple[str, Path], tmp_path: Path) -> None:
    url, folder = own_postgres
    port = free_port()
    log = tmp_path / "serve.log"
    with served(url, port, log=log):
        body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seed": 29}
        game = httpx.post(f"http://127.0.0.1:{port}/api/games", json=body, timeout=10).json()
        with connect(f"ws://127.0.0.1:{port}{game['websocket']}") as connection:
            player = SocketClient(connection, token_of(game, "red"))
            player.play(until_event=8)
            subprocess.run([f"{folder}/stop"], check=True, timeout=60)
            time.sleep(2)  # the lock connection is found gone (checked once a second)
            while not player.state.get("moves"):
                player.receive()
            before = player.state["event"]
            player.send_move(player.state["moves"][0]["move"])
            refused = _answer(player)
            assert refused["type"] == "error" and refused["code"] == "server_error", refused
            assert "database is not answering" in refused["message"] and "does not replay" not in refused["message"]
            subprocess.run([f"{folder}/start"], check=True, timeout=60)
            deadline = time.monotonic() + 30
            while True:  # once the database answers, the game goes on from where it was
                time.sleep(0.5)
                player.send_move(player.state["moves"][0]["move"])
                answer = _answer(player)
                if answer["type"] == "event":
                    break
                assert answer["code"] in ("server_error", "stale"), (answer, log.read_text()[-3000:])
                assert "does not replay" not in answer["message"], answer
                assert time.monotonic() < deadline, f"the game never went on: {answer}"
            assert answer["event"] == before + 1
            player.play(until_event=before + 6)  # and the computer plays on too
        assert httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).status_code == 200
    said = log.read_text()
    assert "cannot go on" not in said, said
    assert said.count("the database does not answer (") == 1, said  # said once, not at every try
