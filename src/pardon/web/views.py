"""What the server sends about a game: each seat's view as JSON, never more than it may know.

A seat sees its observation (``Game.observe``: other hands hidden, never the pack's order),
the card drawn, the discard pile, and — when the decision is its own — its legal moves with
the position after each.  A spectator sees no hand at all.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import card_name
from pardon.core.game import Game
from pardon.core.jsonio import position_to_json
from pardon.core.moves import Move
from pardon.core.notation import format_move
from pardon.core.state import Position


def public_position(game: Game) -> Position:
    """The position with every hand hidden: what a spectator may see."""
    position = game.position
    if not position.hands:
        return position
    return position.with_extras(hands=tuple(() for _ in position.hands))


def discards_json(discards: tuple[int, ...]) -> dict[str, Any]:
    """The discard pile since the last shuffle: how many cards, and of which kinds."""
    counted = Counter(card_name(card) for card in discards)
    return {"count": len(discards), "cards": dict(sorted(counted.items()))}


def moves_json(game: Game, moves: list[Move]) -> list[dict[str, Any]]:
    """Each legal move by its notation, whether it passes, and the position after it."""
    position = game.position
    return [
        {
            "move": format_move(position, move),
            "pass": move.is_pass,
            "result": position_to_json(game.rules, move.result),
        }
        for move in moves
    ]


def view_json(game: Game, viewer: int | None, moves: list[dict[str, Any]] | None) -> dict[str, Any]:
    """The game as ``viewer`` sees it (None: a spectator); ``moves`` only if the decision is theirs."""
    if viewer is None:
        position, discards = public_position(game), game.pack.discards
    else:
        observation = game.observe(viewer)
        position, discards = observation.position, observation.discards
    over = game.is_over
    return {
        "position": position_to_json(game.rules, position),
        "stage": "over" if over else game.stage,
        "decider": None if over else COLOUR_NAMES[game.decider],
        "card": card_name(game.card) if game.card is not None else None,
        "discards": discards_json(discards),
        "pack": len(game.pack.draw_pile),
        "viewer": COLOUR_NAMES[viewer] if viewer is not None else None,
        "moves": moves or [],
    }
