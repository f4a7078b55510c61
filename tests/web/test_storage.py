"""The migrations build exactly the schema the code uses, applying them again changes nothing, and
the data they mend is mended."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select

from pardon.web.migrate import upgrade
from pardon.web.server import database_problem
from pardon.web.settings import database_url
from pardon.web.storage import games, make_engine, metadata, seats


def test_the_migrations_give_the_schema_of_the_code(database: str) -> None:
    engine = make_engine(database)
    upgrade(engine)
    upgrade(engine)  # a second start finds nothing to do
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), metadata) == []
    engine.dispose()


def test_names_stored_before_they_were_cleaned_are_cleaned_by_the_upgrade(database: str) -> None:
    engine = make_engine(database)
    upgrade(engine, "0003")  # the last revision that stored names as they were given
    stored = {  # colour: (level, name as stored)
        0: (None, "\u202eMum\u200b"),
        1: ("expectimax", "\u2066\u00ad"),
        2: (None, "\u200b"),
        3: (None, "\U0001f468\u200d\U0001f467 Dad"),
    }
    game = {"rules": "classic", "seed": 1, "public": True, "hints": True, "status": "waiting"}
    with engine.begin() as connection:
        created = datetime.now(UTC)
        connection.execute(games.insert().values(id="g1", host_hash="h", watch_hash="w", created=created, **game))
        for colour, (level, name) in stored.items():
            kind = "bot" if level else "human"
            row = {"game_id": "g1", "colour": colour, "kind": kind, "level": level, "name": name, "claimed": False}
            connection.execute(seats.insert().values(**row))
    upgrade(engine)
    with engine.connect() as connection:
        names = dict(connection.execute(select(seats.c.colour, seats.c.name).order_by(seats.c.colour)).all())
    engine.dispose()
    assert names == {0: "Mum", 1: "Computer (Hard)", 2: "Yellow", 3: "\U0001f468\u200d\U0001f467 Dad"}


def test_a_database_file_named_with_the_characters_of_a_url_is_that_very_file(tmp_path: Path) -> None:
    """--db 'a?b#c.sqlite3' served a file named 'a', and 'x%20y.sqlite3' one named 'x y.sqlite3'."""
    names = ["a?b#c.sqlite3", "x%20y.sqlite3", "games.db?mode=ro"]
    for name in names:
        url = database_url(str(tmp_path / name))
        assert database_problem(url) is None  # the file is checked (read only) where it is
        engine = make_engine(url)
        upgrade(engine)
        engine.dispose()
        assert database_problem(url) is None  # and read again, now that it holds pardon's tables
    assert sorted(path.name for path in tmp_path.iterdir() if path.name in names) == sorted(names)
    assert not (tmp_path / "a").exists() and not (tmp_path / "x y.sqlite3").exists()
