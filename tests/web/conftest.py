"""Fixtures for the server tests: a real app, clients over real websockets.

Every test that uses ``database`` runs twice: on a SQLite file, and on a real PostgreSQL
server named by the environment variable ``PARDON_TEST_POSTGRES`` (a SQLAlchemy URL, as
``.ci/run`` sets it), each test in a fresh schema of its own.  Without that variable, or
with no server answering there, the PostgreSQL runs are skipped, saying why.
"""

from __future__ import annotations

import os
import secrets
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

POSTGRES = os.environ.get("PARDON_TEST_POSTGRES", "")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: a SQLite file, or a schema of its own on the PostgreSQL server."""
    if request.param == "sqlite":
        yield sqlite_url(tmp_path / "games.sqlite3")
        return
    if not POSTGRES:
        pytest.skip("no PostgreSQL server: set PARDON_TEST_POSTGRES=postgresql+psycopg://... (.ci/run does)")
    yield from postgres_schema(POSTGRES)


@pytest.fixture
def postgres() -> Iterator[str]:
    """A fresh schema on the PostgreSQL server (tests of what only PostgreSQL does)."""
    if not POSTGRES:
        pytest.skip("no PostgreSQL server: set PARDON_TEST_POSTGRES=postgresql+psycopg://... (.ci/run does)")
    yield from postgres_schema(POSTGRES)


def postgres_schema(url: str) -> Iterator[str]:
    """The URL of a new schema on the server at ``url`` (dropped afterwards, with everything in it)."""
    psycopg = pytest.importorskip("psycopg")
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    name = f"test_{secrets.token_hex(6)}"
    try:
        with psycopg.connect(plain, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f"CREATE SCHEMA {name}")
    except psycopg.OperationalError as error:
        pytest.skip(f"the PostgreSQL server of PARDON_TEST_POSTGRES does not answer: {error}")
    joiner = "&" if "?" in url else "?"
    try:
        yield f"{url}{joiner}options=-csearch_path%3D{name}"
    finally:
        with psycopg.connect(plain, autocommit=True, connect_timeout=5) as admin:
            admin.execute(f"DROP SCHEMA {name} CASCADE")


@pytest.fixture
def make_server(database: str) -> Iterator[Callable[..., TestClient]]:
    """Start the app (computer players at once, generous limits unless a test says otherwise)."""
    opened: list[TestClient] = []

    def start(**changes: Any) -> TestClient:
        options: dict[str, Any] = {"bot_pace": 0.0, "takeover_after": 3600.0, "rate": 10_000.0, "burst": 10_000}
        options["read_rate"] = 0.0  # a test reads faster than any person: the read limit's own tests set it
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
