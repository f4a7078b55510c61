"""What one seat may know: the board, the card it drew or its own hand, and the discard pile.

The order of the pack is never part of an observation; its composition is, because
every player can count the discards (docs/rules.md: "Hands of five"; one observation per seat, docs/architecture.md).
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

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own hand (empty unless the rules deal hands)."""
        hands = self.position.hands
        return hands[self.seat] if hands else ()

    def remaining(self) -> Counter[int]:
        """Cards the seat has not seen since the last reshuffle: the pack less the
        discards (the card just drawn is on the discard pile) and its own hand.  In a
        hand game they are the pack and the other players' hands together."""
        left = Counter(DECKS[self.rules.deck])
        left.subtract(self.discards)
        left.subtract(self.hand)
        return +left


def observe(rules: Rules, position: Position, seat: int, card: int | None, discards: tuple[int, ...]) -> Observation:
    """What ``seat`` may know: never the order of the pack (the caller hides the other
    hands from ``position``, as :meth:`pardon.core.game.Game.observe` does)."""
    return Observation(rules, seat, position, card, discards)
