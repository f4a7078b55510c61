"""Alembic's entry point: run the migrations on the connection the server hands over."""

from __future__ import annotations

from alembic import context
from sqlalchemy.engine import Connection

from pardon.web.storage import metadata


def run_migrations(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run_migrations(context.config.attributes["connection"])
