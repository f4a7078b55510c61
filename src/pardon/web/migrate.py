"""Bring a database up to the newest schema with Alembic (run when the server starts)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.script import ScriptDirectory
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

MIGRATIONS = Path(__file__).with_name("migrations")

#: The advisory lock that lets one process at a time migrate a PostgreSQL database (any number
#: fixed for pardon): two servers started together on an empty database both created the tables.
MIGRATION_LOCK = 0x70617264  # "pard"


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Apply every migration not yet applied, up to ``revision`` (the newest by default); a
    database already there is left as it is."""
    config = _config()
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":  # the other waits, then finds the schema made
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def _config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def revisions() -> set[str]:
    """Every schema revision of pardon's (what ``alembic_version`` holds in its databases)."""
    return {script.revision for script in ScriptDirectory.from_config(_config()).walk_revisions()}


def foreign_tables(connection: Connection) -> str | None:
    """Why pardon will not use the database, in words: another program's, or a newer pardon's;
    None if it is empty or pardon's (a database of ours holds ``alembic_version`` with one of
    our revisions)."""
    tables = sorted(inspect(connection).get_table_names())
    if not tables:
        return None
    if "alembic_version" not in tables:
        shown = ", ".join(tables[:4]) + (", …" if len(tables) > 4 else "")
        return f"it holds another program's tables ({shown}); give pardon a database of its own"
    found = {row[0] for row in connection.execute(text("SELECT version_num FROM alembic_version"))}
    if found and not found <= revisions():
        shown = ", ".join(sorted(found))
        if {"games", "seats", "decisions"} <= set(tables) and all(_is_later(revision) for revision in found):
            return (
                f"it was made by a newer pardon (schema {shown}; this one knows up to {max(revisions())}): "
                "serve it with that version, or give this one a database of its own"
            )
        return f"it holds another program's schema (revision {shown}, not pardon's); give pardon a database of its own"
    return None


def _is_later(revision: str) -> bool:
    """Whether ``revision`` reads as one of pardon's (numbered 0001, 0002, ...) after the newest here."""
    return revision.isdigit() and len(revision) == 4 and revision > max(revisions())
