"""Owner epochs (only a game's latest owner stores its decisions), the last time anyone was
seen at a waiting game (abandoned ones expire), and seats left open for the lobby.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("owner_epoch", sa.Integer, nullable=False, server_default="0"))
    op.add_column("games", sa.Column("last_seen", sa.DateTime(timezone=True), nullable=True))
    op.execute("UPDATE games SET last_seen = created")
    op.add_column("seats", sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("open")
    with op.batch_alter_table("games") as games:
        games.drop_column("last_seen")
        games.drop_column("owner_epoch")
