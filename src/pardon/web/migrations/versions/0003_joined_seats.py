"""When an open seat was joined from the lobby: a seat joined but not come to is kept for its
joiner for a grace time only, then offered in the lobby again.

Seats joined from the lobby before this revision were marked taken at once, whether or not
anyone came; those of games still waiting count as joined now, so their players have the grace
time (from the server's start) to come back, and any seat never come to returns to the lobby.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("joined_at", sa.DateTime(timezone=True), nullable=True))
    seats = sa.table(
        "seats",
        sa.column("game_id", sa.String),
        sa.column("kind", sa.String),
        sa.column("claimed", sa.Boolean),
        sa.column("open", sa.Boolean),
        sa.column("joined_at", sa.DateTime(timezone=True)),
    )
    games = sa.table("games", sa.column("id", sa.String), sa.column("status", sa.String))
    waiting = sa.select(games.c.id).where(games.c.status == "waiting")
    op.execute(
        sa.update(seats)
        .where(
            seats.c.open.is_(True),
            seats.c.claimed.is_(True),
            seats.c.kind == "human",
            seats.c.game_id.in_(waiting),
        )
        .values(claimed=False, joined_at=datetime.now(UTC))
    )


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("joined_at")
