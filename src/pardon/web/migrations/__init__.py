"""Alembic migrations of the server's database, applied when the server starts."""
