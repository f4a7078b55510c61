"""Bring a database up to the newest schema with Alembic (run when the server starts)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).with_name("migrations")


def upgrade(engine: Engine) -> None:
    """Apply every migration not yet applied; a database already at the newest is left as it is."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "head")
