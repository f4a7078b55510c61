"""A SQLite file is served by one ``pardon serve`` at a time: a second refuses to start,
saying which process holds the file; once that one is gone, the file is free again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from web_support import free_port, served

from pardon.web.settings import sqlite_url

pytestmark = pytest.mark.slow


def _serve(database: Path, port: int) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--db", str(database)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)


def test_a_second_server_on_one_sqlite_file_refuses_to_start(tmp_path: Path) -> None:
    database = tmp_path / "games.sqlite3"
    first = free_port()
    with served(sqlite_url(database), first) as holder:
        second = _serve(database, free_port())
        assert second.returncode == 2
        assert f"the database {database} is in use by another pardon server (pid {holder.pid})" in second.stderr
        assert httpx.get(f"http://127.0.0.1:{first}/healthz").status_code == 200  # the first is untouched
        os.kill(holder.pid, signal.SIGKILL)  # even killed, the holder lets go of the file
        holder.wait(timeout=10)
    again = free_port()
    with served(sqlite_url(database), again):
        assert httpx.get(f"http://127.0.0.1:{again}/healthz").status_code == 200
