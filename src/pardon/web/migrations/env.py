"""Alembic's entry point: run the migrations on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from pardon.web.storage import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


_config = getattr(context, "config", None)  # None when merely imported (the doctest run imports every module)
if _config is not None:
    run_migrations(_config.attributes["connection"])
