"""The migrations build exactly the schema the code uses, and applying them again changes nothing."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from pardon.web.migrate import upgrade
from pardon.web.storage import make_engine, metadata


def test_the_migrations_give_the_schema_of_the_code(database: str) -> None:
    engine = make_engine(database)
    upgrade(engine)
    upgrade(engine)  # a second start finds nothing to do
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    engine.dispose()
