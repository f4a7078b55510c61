"""``pardon backup``: a consistent copy of a running server's SQLite database, served again as it was."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import httpx
from web_support import SocketClient, free_port, served, token_of
from websockets.sync.client import connect


def backup(*arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pardon", "backup", *arguments], check=False, capture_output=True, text=True, timeout=60
    )


def decisions(port: int, game: dict[str, Any]) -> list[tuple[int, str, str]]:
    """Every decision of ``game`` as the server at ``port`` tells a spectator coming (its sync)."""
    with connect(f"ws://127.0.0.1:{port}{game['websocket']}") as connection:
        watcher = SocketClient(connection, game["spectator_token"])
        while watcher.receive()["type"] != "sync":
            pass
        return watcher.events


def test_a_backup_made_while_the_server_plays_is_served_as_it_was(tmp_path: Path) -> None:
    database, copy = tmp_path / "games.sqlite3", tmp_path / "copy.sqlite3"
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with served(str(database), port):
        body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 17}
        game = httpx.post(f"{url}/api/games", json=body, timeout=10).json()
        waiting = httpx.post(f"{url}/api/games", json={"seats": [{"kind": "human"}, {"kind": "human"}]}, timeout=10)
        with connect(f"ws://127.0.0.1:{port}{game['websocket']}") as connection:
            player = SocketClient(connection, token_of(game, "red"))
            player.play(until_event=10)
            before = decisions(port, game)
            playing = threading.Thread(target=player.play)  # the server stores moves while the copy is made
            playing.start()
            made = backup("--db", str(database), str(copy))
            playing.join(timeout=120)
        assert made.returncode == 0, made.stderr
        assert "2 games copied" in made.stdout and made.stderr == ""
        after = decisions(port, game)
    assert not [path.name for path in tmp_path.iterdir() if path.name.endswith(".partial")]
    other_port = free_port()
    with served(str(copy), other_port):
        copied = decisions(other_port, game)
        waiting_there = httpx.get(f"http://127.0.0.1:{other_port}/api/games/{waiting.json()['id']}", timeout=10)
        assert waiting_there.status_code == 200
    # every decision stored before the copy, and only a beginning of those stored while it was made
    assert len(before) >= 10 and copied[: len(before)] == before and after[: len(copied)] == copied


def test_a_backup_replaces_a_file_only_when_told(tmp_path: Path) -> None:
    database, copy = tmp_path / "games.sqlite3", tmp_path / "copy.sqlite3"
    port = free_port()
    with served(str(database), port):
        two = {"seats": [{"kind": "human"}, {"kind": "human"}]}
        assert httpx.post(f"http://127.0.0.1:{port}/api/games", json=two, timeout=10).status_code == 201
    copy.write_text("mine")
    refused = backup("--db", str(database), str(copy))
    assert refused.returncode == 2 and copy.read_text() == "mine"
    assert refused.stderr.strip() == f"pardon backup: {copy} exists: give another file, or --force to replace it"
    forced = backup("--db", str(database), "--force", str(copy))
    assert forced.returncode == 0, forced.stderr
    assert "1 game copied" in forced.stdout
    missing = backup("--db", str(tmp_path / "none.sqlite3"), str(tmp_path / "other.sqlite3"))
    assert missing.returncode == 2 and "there is no database at" in missing.stderr
    assert not (tmp_path / "other.sqlite3").exists() and not (tmp_path / "none.sqlite3").exists()


def test_a_postgresql_database_is_backed_up_with_pg_dump(tmp_path: Path) -> None:
    refused = backup("--db", "postgresql://pardon:secret@db.example:5433/games", str(tmp_path / "copy"))
    assert refused.returncode == 2 and refused.stdout == ""
    assert refused.stderr == (
        "pardon backup: a PostgreSQL database is backed up with pg_dump: "
        "pg_dump --format=custom --file=pardon.dump 'postgresql://pardon@db.example:5433/games'\n"
    )
    assert not (tmp_path / "copy").exists()
