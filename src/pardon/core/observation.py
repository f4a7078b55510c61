"""What one seat may know: the board, the card it drew, and the discard pile.

The order of the pack is never part of an observation; its composition is, because
every player can count the discards (RULES.md §7 and ARCHITECTURE habit 8).
"""

from __future__ import annotations

from collections import Counter
from typing import NamedTuple

from pardon.core.cards import DECKS
from pardon.core.rules import Rules
from pardon.core.state import Position


class Observation(NamedTuple):
    """A seat's view of the game at its decision."""

    rules: Rules
    seat: int
    position: Position
    card: int | None
    discards: tuple[int, ...]

    def remaining(self) -> Counter[int]:
        """Cards still to be drawn before the next reshuffle: the pack less the discards
        (the card just drawn is on the discard pile)."""
        left = Counter(DECKS[self.rules.deck])
        left.subtract(self.discards)
        return +left


def observe(rules: Rules, position: Position, seat: int, card: int | None, discards: tuple[int, ...]) -> Observation:
    """What ``seat`` may know: never the order of the pack."""
    return Observation(rules, seat, position, card, discards)
