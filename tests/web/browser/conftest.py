"""A real ``pardon serve`` on loopback for the browser tests, with its own SQLite file.

``live_server`` is one server process for the whole run (games are independent, so tests
share it); ``start_server`` starts another when a test needs its own (a restart, say).
Computer players move after ``bot_pace`` seconds: quick, but slow enough to see animations.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")

from web_support import free_port, wait_until_up

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test is slow: ``make check`` leaves them to CI (``make test``)."""
    for item in items:
        if item.path.is_relative_to(HERE):
            item.add_marker(pytest.mark.slow)


class Server:
    """A ``pardon serve`` process: its address, database file, and how to stop it."""

    def __init__(self, database: Path, *, bot_pace: float = 0.05, extra: tuple[str, ...] = ()) -> None:
        self.database = database
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "pardon", "serve", "--port", str(self.port), "--db", str(database)]
        # games made fast, read as often as every test of the run together reads them, and played to
        # their end over one websocket as fast as the server answers (play_support.play_to_the_end)
        command += ["--bot-pace", str(bot_pace), "--create-rate", "0", "--join-rate", "0", "--read-rate", "0"]
        command += ["--message-rate", "1000", "--message-burst", "1000", *extra]
        self.command = command
        self.process = self.launch()

    def launch(self) -> subprocess.Popen[bytes]:
        process = subprocess.Popen(self.command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ)
        wait_until_up(self.url, process)
        return process

    def kill(self) -> None:
        """End the server at once (SIGKILL), as a crash or a power cut would."""
        self.process.kill()
        self.process.wait()

    def restart(self) -> None:
        """Start it again, at the same address on the same database."""
        self.process = self.launch()

    def rest(self, path: str, body: dict[str, Any] | None = None) -> Any:
        """The JSON answer of ``path`` (a POST of ``body`` if given, else a GET)."""
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@pytest.fixture
def start_server(tmp_path: Path) -> Iterator[Callable[..., Server]]:
    """Start servers of one's own (each stopped after the test); same database unless told."""
    started: list[Server] = []

    def start(database: Path | None = None, **options: object) -> Server:
        server = Server(database or tmp_path / "games.sqlite3", **options)  # type: ignore[arg-type]
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


#: A phone held upright, in CSS pixels.
UPRIGHT = {"width": 390, "height": 844}


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    """A page in a phone's context (touch, mobile, three device pixels a CSS pixel), held
    upright; a script error on it fails the test."""
    context = browser.new_context(viewport=UPRIGHT, has_touch=True, is_mobile=True, device_scale_factor=3)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        yield page
    finally:
        context.close()
    assert errors == []


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for the whole run."""
    server = Server(tmp_path_factory.mktemp("live") / "games.sqlite3")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def quick_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server whose computer players decide at once: a game between them ends in a moment."""
    server = Server(tmp_path_factory.mktemp("quick") / "games.sqlite3", bot_pace=0)
    yield server
    server.stop()
