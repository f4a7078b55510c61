"""Fixtures for the server tests: a real app on a SQLite file, clients over real websockets."""

from __future__ import annotations

import sys
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests are not a package: web_support beside this file

from fastapi.testclient import TestClient  # noqa: E402

from pardon.web.app import create_app  # noqa: E402
from pardon.web.settings import Settings, sqlite_url  # noqa: E402


@pytest.fixture
def database(tmp_path: Path) -> str:
    return sqlite_url(tmp_path / "games.sqlite3")


@pytest.fixture
def make_server(database: str) -> Iterator[Callable[..., TestClient]]:
    """Start the app (computer players at once, generous limits unless a test says otherwise)."""
    opened: list[TestClient] = []

    def start(**changes: Any) -> TestClient:
        options: dict[str, Any] = {"bot_pace": 0.0, "takeover_after": 3600.0, "rate": 10_000.0, "burst": 10_000}
        options.update(changes)
        client = TestClient(create_app(Settings(database=database, **options)))
        client.__enter__()
        opened.append(client)
        return client

    yield start
    for client in reversed(opened):
        client.__exit__(None, None, None)


@pytest.fixture
def server(make_server: Callable[..., TestClient]) -> TestClient:
    return make_server()
