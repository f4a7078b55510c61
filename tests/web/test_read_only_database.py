"""A SQLite file made read-only while the server runs: moves are refused with nothing lost, the
log and the health check say why, the server lives on, and once the file is writable again moves
are stored again (connections opened while it was read-only stayed read-only: every move was
refused until a restart).  The server runs without the root's right to write any file."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import free_port, wait_until_up
from websockets.sync.client import connect

from pardon.web.settings import sqlite_url

pytestmark = pytest.mark.slow

#: Run as root, the server is stripped of the capabilities that write a read-only file anyway.
AS_OWNER = (
    ["setpriv", "--inh-caps=-dac_override,-fowner", "--bounding-set=-dac_override,-fowner"] if os.geteuid() == 0 else []
)


@contextmanager
def _server(database: Path, port: int, log: Path) -> Iterator[subprocess.Popen[bytes]]:
    if AS_OWNER and shutil.which("setpriv") is None:
        pytest.skip("run as root without setpriv: a read-only file would be written anyway")
    command = [*AS_OWNER, sys.executable, "-m", "pardon", "serve", "--port", str(port)]
    with log.open("wb") as sink:
        process = subprocess.Popen(
            [*command, "--db", sqlite_url(database), "--bot-pace", "0"], stdout=sink, stderr=subprocess.STDOUT
        )
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
        yield process
    finally:
        process.kill()
        process.wait(timeout=10)


def _move(url: str, token: str) -> tuple[int, str]:
    """Play the first legal move of the player's turn: the game's last event after it, and
    ``stored`` or the error the move was answered with."""
    with connect(url) as socket:
        socket.send(json.dumps({"type": "hello", "token": token, "since": 0}))
        state: dict[str, Any] = {}
        while not state.get("moves"):
            message = json.loads(socket.recv(timeout=20))
            state = message.get("state", state)
        socket.send(json.dumps({"type": "move", "move": state["moves"][0]["move"], "event": state["event"]}))
        while True:
            message = json.loads(socket.recv(timeout=20))
            if message["type"] == "event":
                return message["event"], "stored"
            if message["type"] == "error":
                return message["event"], message["code"]


def _at_once(base: str, requests: int, body: dict[str, object]) -> None:
    """Many requests together: the server opens database connections for them (read-only ones now)."""

    def create_and_look() -> None:
        with httpx.Client(timeout=20) as client:
            client.post(f"{base}/api/games", json=body)
            for _ in range(3):
                client.get(f"{base}/api/lobby")

    threads = [threading.Thread(target=create_and_look) for _ in range(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def test_a_database_file_made_read_only_refuses_moves_and_comes_back(tmp_path: Path) -> None:
    database, log, port = tmp_path / "games.sqlite3", tmp_path / "serve.log", free_port()
    with _server(database, port, log) as process:
        base = f"http://127.0.0.1:{port}"
        body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 3}
        game = httpx.post(f"{base}/api/games", json=body, timeout=10).json()
        url, token = f"ws://127.0.0.1:{port}{game['websocket']}", game["seats"][0]["token"]
        before, answer = _move(url, token)
        assert answer == "stored"

        database.chmod(0o444)
        _at_once(base, 16, body)
        refused = [_move(url, token) for _ in range(3)]
        assert all(answer in ("stored", "server_error") for _, answer in refused), refused
        assert process.poll() is None, log.read_text()
        if any(answer == "server_error" for _, answer in refused):
            assert "readonly database" in log.read_text()
        if refused[-1][1] == "server_error":  # the health check tells of the last write (one opened before may store)
            assert httpx.get(f"{base}/healthz", timeout=10).status_code == 503, refused

        database.chmod(0o644)  # writable again: a connection opened read-only may refuse one more move, no more
        again = [_move(url, token) for _ in range(6)]
        assert [answer for _, answer in again].count("stored") >= 5, (again, log.read_text()[-2000:])
        event = again[-1][0]
        assert process.poll() is None
        record = httpx.get(f"{base}/api/games/{game['id']}", timeout=10).json()
        assert record["event"] >= event > before  # every move stored, none lost


#: Run as the server's owner would: the database made read-only with every connection closed,
#: then read, so that SQLite makes its WAL files then, read-only as the database was.
WAL_FILES_MADE_READ_ONLY = """
import sys
from pathlib import Path
from sqlalchemy import text
from sqlalchemy.exc import OperationalError
from pardon.web.settings import sqlite_url
from pardon.web.storage import make_engine

path = Path(sys.argv[1])
url = sqlite_url(path)
wal, shm = path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")


def writes(engine, times):
    said = []
    for _ in range(times):
        try:
            with engine.begin() as connection:
                connection.execute(text("INSERT INTO t VALUES (1)"))
            said.append("stored")
        except OperationalError as error:
            said.append(str(error.orig))
    return said


def made_read_only(engine):
    engine.dispose()  # every connection closed: SQLite takes its WAL files away
    assert not wal.exists() and not shm.exists()
    path.chmod(0o444)
    with engine.connect() as connection:
        connection.execute(text("SELECT count(*) FROM t")).scalar()
    assert oct(shm.stat().st_mode & 0o777) == "0o444"  # made now, as read-only as the database


engine = make_engine(url)
with engine.begin() as connection:
    connection.execute(text("CREATE TABLE t (x INTEGER)"))
made_read_only(engine)
print(writes(engine, 1))
path.chmod(0o644)
print(writes(engine, 4))
engine.dispose()
for side in (wal, shm):
    side.chmod(0o444)  # as the read-only database made them, the server stopped
print(writes(make_engine(url), 2))  # the server started again
with make_engine(url).connect() as connection:
    print(connection.execute(text("SELECT count(*) FROM t")).scalar())
"""


def test_wal_files_made_while_the_database_was_read_only_do_not_keep_it_so(tmp_path: Path) -> None:
    """SQLite makes its WAL files with the database's mode: made while it was read-only, they
    refused every write after, the database writable again, the server restarted or not."""
    if AS_OWNER and shutil.which("setpriv") is None:
        pytest.skip("run as root without setpriv: a read-only file would be written anyway")
    command = [*AS_OWNER, sys.executable, "-c", WAL_FILES_MADE_READ_ONLY, str(tmp_path / "games.sqlite3")]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
    refused, again, restarted, count = run.stdout.splitlines()
    assert refused == "['attempt to write a readonly database']"
    again_said = eval(again)
    assert again_said[1:] == ["stored"] * 3, again  # the first may meet a connection opened before
    assert eval(restarted) == ["stored", "stored"]
    assert int(count) == again_said.count("stored") + 2
