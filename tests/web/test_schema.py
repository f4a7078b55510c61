"""schemathesis against the published OpenAPI schema: generated requests to every REST
operation of a real ``pardon serve`` on loopback; no answer is a server error, and every
answer conforms to the schema (status, content type, body).

The schema is the application's own (what ``/openapi.json`` serves, checked below to be the
same), read when the tests are collected; the requests go to the live server.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

schemathesis = pytest.importorskip("schemathesis")

from hypothesis import HealthCheck, settings  # noqa: E402
from schemathesis.specs.openapi.checks import positive_data_acceptance  # noqa: E402
from web_support import free_port, served  # noqa: E402

from pardon.web.app import create_app  # noqa: E402
from pardon.web.settings import Settings, sqlite_url  # noqa: E402

pytestmark = pytest.mark.slow


PUBLISHED = create_app(Settings(database="sqlite:///:memory:")).openapi()
schema = schemathesis.openapi.from_dict(PUBLISHED)


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The address of a real server with an empty database."""
    database = sqlite_url(Path(tmp_path_factory.mktemp("schema")) / "games.sqlite3")
    port = free_port()
    with served(database, port):
        yield f"http://127.0.0.1:{port}"


def test_the_schema_tested_is_the_one_published(live: str) -> None:
    assert httpx.get(f"{live}/openapi.json").json() == PUBLISHED


@schema.parametrize()
@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_its_schema_says(case: schemathesis.Case, live: str) -> None:
    # Every check but one: a body may fit the schema and still be refused (422, with its
    # reason) for what no schema says, such as one seat for rules played by 2 to 4.
    case.call_and_validate(base_url=live, timeout=30, excluded_checks=[positive_data_acceptance])
