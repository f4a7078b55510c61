"""The migrations build exactly the schema the code uses, applying them again changes nothing, and
the data they mend is mended."""

from __future__ import annotations

from datetime import UTC, datetime

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import select

from pardon.web.migrate import upgrade
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
