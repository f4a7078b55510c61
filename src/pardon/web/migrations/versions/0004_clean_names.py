"""Names stored before names were cleaned where they enter are cleaned too: a control or format
character (a U+202E that turns the lobby's text round, a zero-width space) is taken out of
every seat's name, as :func:`pardon.web.names.clean_name` does to new ones; a name left empty
becomes the seat's default (its colour's, or a computer's by its level).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from pardon.web.names import seat_name

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

seats = sa.table(
    "seats",
    sa.column("game_id", sa.String),
    sa.column("colour", sa.Integer),
    sa.column("level", sa.String),
    sa.column("name", sa.String),
)


def upgrade() -> None:
    connection = op.get_bind()
    every_seat = sa.select(seats.c.game_id, seats.c.colour, seats.c.level, seats.c.name).execution_options(
        yield_per=1000
    )
    changed = [  # read through once, keeping only the names to change
        {"key": game_id, "number": colour, "cleaned": cleaned}
        for game_id, colour, level, name in connection.execute(every_seat)
        if (cleaned := seat_name(colour, level, name)) != name
    ]
    if changed:
        where = sa.and_(seats.c.game_id == sa.bindparam("key"), seats.c.colour == sa.bindparam("number"))
        connection.execute(sa.update(seats).where(where).values(name=sa.bindparam("cleaned")), changed)


def downgrade() -> None:
    """Nothing to undo: a cleaned name stays cleaned."""
