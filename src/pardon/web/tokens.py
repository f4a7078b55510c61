"""Secret tokens: unguessable, stored only as hashes, compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """192 random bits, URL-safe."""
    return secrets.token_urlsafe(24)


def new_game_id() -> str:
    """A game's public name: random, so that games cannot be listed by counting."""
    return secrets.token_urlsafe(9)


def hash_token(token: str) -> str:
    """What the database keeps: a stolen database gives no working token."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def token_matches(token: str, stored_hash: str | None) -> bool:
    """Whether ``token`` is the one hashed as ``stored_hash``, in time independent of where they differ."""
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), stored_hash)
