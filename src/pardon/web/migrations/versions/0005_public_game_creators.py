"""Who made each public game (the client address, as the per-address limits count it), so that
the database counts an address's public games waiting for players: one count for every server
process on the database, kept across restarts.

Games made before this revision have no creator and count for nobody.

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("creator", sa.String(64), nullable=True))
    op.create_index("games_by_creator", "games", ["creator", "status"])


def downgrade() -> None:
    op.drop_index("games_by_creator", table_name="games")
    with op.batch_alter_table("games") as games:
        games.drop_column("creator")
