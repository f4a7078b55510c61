"""Cards, deck compositions and the pack (docs/rules.md: "Cards").

A card is a small integer: its number, or ``SORRY`` (13, so that plain ``>`` ranks
cards for the leader draw of §3.8).  The pack is an immutable value; every shuffle
draws from its own ``random.Random`` seeded by the game's seed and the number of
shuffles so far, so a pack is a pure function of (seed, what was drawn) and undoing a
turn needs nothing but the previous value.
"""

from __future__ import annotations

import operator
import random
import reprlib
from collections import Counter
from functools import cache
from typing import Final, NamedTuple

from pardon.core.errors import IllegalError, InvalidError

SORRY: Final = 13
#: The "card" of a decision made without one: a Fire move before the draw, a double.
NO_CARD: Final = 0
CARDS: Final = (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, SORRY)
CARD_NAMES: Final[dict[int, str]] = {card: str(card) for card in CARDS} | {SORRY: "sorry"}
CARD_BY_NAME: Final[dict[str, int]] = {name: card for card, name in CARD_NAMES.items()}
_NAMES: Final = ", ".join(CARD_NAMES.values())
_NUMBERS: Final = ", ".join(str(card) for card in CARDS if card != SORRY) + f" and {SORRY} (Sorry!)"

#: Deck compositions by size: 44 (1939, four of each), 45 (a fifth 1), 55 (five of each).
DECKS: Final[dict[int, dict[int, int]]] = {
    44: dict.fromkeys(CARDS, 4),
    45: dict.fromkeys(CARDS, 4) | {1: 5},
    55: dict.fromkeys(CARDS, 5),
}

#: What each card does, in a player's words (for help texts and the rule sheet).
CARD_TEXT: Final[dict[int, str]] = {
    1: "Bring a pawn out of Start, or move a pawn forward 1.",
    2: "Bring a pawn out of Start, or move a pawn forward 2. Draw again.",
    3: "Move a pawn forward 3.",
    4: "Move a pawn backward 4.",
    5: "Move a pawn forward 5.",
    7: "Move a pawn forward 7, or split the 7 between two pawns.",
    8: "Move a pawn forward 8.",
    10: "Move a pawn forward 10, or backward 1.",
    11: "Move a pawn forward 11, or switch places with an opponent's pawn.",
    12: "Move a pawn forward 12.",
    SORRY: "Take a pawn from Start and bump an opponent's pawn back to its Start.",
}


def card_name(card: int) -> str:
    """The card as players write it: ``"1"`` … ``"12"``, ``"sorry"``; InvalidError if ``card``
    is no card."""
    try:
        return CARD_NAMES[card]
    except (KeyError, TypeError):  # a number that is no card, or something unhashable
        raise InvalidError(f"{reprlib.repr(card)} is not a card: the cards are {_NUMBERS}") from None


def card_number(card: object) -> int:
    """``card`` as a card's number (a plain int: a NumPy integer is one too), else
    InvalidError: asking for a 6, for "7" or for 7.0 is a wrong argument, not a card."""
    if not isinstance(card, bool):  # True == 1, but it is no card
        try:
            number = operator.index(card)  # type: ignore[arg-type]
        except TypeError:
            number = NO_CARD
        if number in CARDS:
            return number
    raise InvalidError(f"{reprlib.repr(card)} is not a card: the cards are {_NUMBERS}")


def card_label(card: int) -> str:
    """A card as printed on it: "7", "Sorry!"."""
    return "Sorry!" if card == SORRY else str(card)


def a_card(card: int) -> str:
    """The card with its article, as in a sentence: "a 7", "an 8", "an 11", "a Sorry!"."""
    return ("an " if card in (8, 11) else "a ") + card_label(card)


def parse_card(text: str) -> int:
    """Read a card name (``"7"``, ``"sorry"``, ``"Sorry!"``); raise InvalidError if unknown."""
    if not isinstance(text, str):
        raise InvalidError(f"a card is written as text such as '7' or 'sorry', not {reprlib.repr(text)}")
    key = text.strip().lower().rstrip("!")
    if key not in CARD_BY_NAME:
        raise InvalidError(f"unknown card {text!r}: expected one of {_NAMES}")
    return CARD_BY_NAME[key]


@cache  # a tuple, made once per size
def deck(size: int) -> tuple[int, ...]:
    """The cards of a deck of ``size`` (44, 45 or 55), in rank order."""
    if size not in DECKS:
        raise InvalidError(f"no deck of {size!r} cards: choose 44, 45 or 55")
    return tuple(card for card, count in DECKS[size].items() for _ in range(count))


def shuffled(cards: tuple[int, ...], seed: int, shuffle_number: int) -> tuple[int, ...]:
    """``cards`` in the order of shuffle number ``shuffle_number`` of the game ``seed``.

    A Fisher-Yates shuffle drawing from ``random.Random("pardon:SEED:NUMBER")``, written
    out here so that a game's cards never depend on how a Python version implements
    ``Random.shuffle`` (it is the same algorithm, and the same order, as CPython 3.11's).
    """
    order = list(cards)
    getrandbits = random.Random(f"pardon:{seed}:{shuffle_number}").getrandbits
    for i, bits in _swap_steps(len(order)):
        j = getrandbits(bits)
        while j > i:  # unbiased: draw again rather than fold
            j = getrandbits(bits)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


@cache
def _swap_steps(length: int) -> tuple[tuple[int, int], ...]:
    """``(i, bits)`` for each swap of a Fisher-Yates shuffle of ``length`` cards: ``i``
    counts down from the last card, and the card swapped with it is drawn below
    ``i + 1`` as ``Random._randbelow`` draws, ``(i + 1).bit_length()`` bits at a time.
    Worked out once per length, so a shuffle makes no call but the draws."""
    return tuple((i, (i + 1).bit_length()) for i in range(length - 1, 0, -1))


class Pack(NamedTuple):
    """The face-down pack and the face-up discard pile.

    ``draw_pile[0]`` is the top card.  ``shuffles`` counts the shuffles so far and
    names the random stream of the next one.
    """

    draw_pile: tuple[int, ...]
    discards: tuple[int, ...]
    shuffles: int

    @classmethod
    def new(cls, size: int, seed: int) -> Pack:
        """A freshly shuffled pack (shuffle number 0)."""
        return cls(shuffled(deck(size), seed, 0), (), 1)

    def draw(self, seed: int) -> tuple[int, Pack]:
        """Turn the top card face up onto the discard pile.

        When the pack is empty the discards are first shuffled into a new pack.
        """
        pile = self.draw_pile
        discards = self.discards
        shuffles = self.shuffles
        if not pile:
            if not discards:  # only a pack made by hand can run out (a real game's cards go round)
                raise IllegalError("no cards left to draw: the pack and the discard pile are empty")
            pile = shuffled(discards, seed, shuffles)
            discards = ()
            shuffles += 1
        card = pile[0]
        return card, Pack(pile[1:], (*discards, card), shuffles)

    def take(self, seed: int) -> tuple[int, Pack]:
        """Take the top card into a hand (hands of five): it stays off the discard pile.

        When the pack is empty the discards are first shuffled into a new pack.
        """
        card, pack = self.draw(seed)
        return card, pack._replace(discards=pack.discards[:-1])

    def discard(self, card: int) -> Pack:
        """Put a card played from a hand face up on the discard pile."""
        return self._replace(discards=(*self.discards, card))

    def reshuffled(self, seed: int) -> Pack:
        """All cards gathered and shuffled into a new pack (after the leader draw)."""
        cards = tuple(sorted(self.draw_pile + self.discards))
        return Pack(shuffled(cards, seed, self.shuffles), (), self.shuffles + 1)

    def remaining(self) -> Counter[int]:
        """How many of each card are left to draw (what a player can count)."""
        return Counter(self.draw_pile)

    def chances(self) -> list[tuple[int, float]]:
        """Each card that can be drawn next with its probability.

        Only the pile's composition matters (its order is hidden): when the pile is
        empty, the next card comes from the reshuffled discards.
        """
        source = self.draw_pile or self.discards
        if not source:
            raise IllegalError("no cards left to draw: the pack and the discard pile are empty")
        counts = Counter(source)
        total = len(source)
        return [(card, counts[card] / total) for card in CARDS if counts[card]]
