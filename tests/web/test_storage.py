"""The migrations build exactly the schema the code uses, and applying them again changes nothing."""

from __future__ import annotations

from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pardon.web.migrate import upgrade
from pardon.web.settings import database_url
from pardon.web.storage import make_engine, metadata


def test_the_migrations_give_the_schema_of_the_code(tmp_path: Path) -> None:
    engine = make_engine(database_url(str(tmp_path / "games.sqlite3")))
    upgrade(engine)
    upgrade(engine)  # a second start finds nothing to do
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    engine.dispose()
