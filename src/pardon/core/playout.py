"""Fast random playouts, for simulations and search.

A random playout is the loop "draw a card, list its legal moves, pick one uniformly
with ``rng.choice``, play it" run until somebody wins.  This module runs exactly that
loop — same cards, same choices, same positions — without building a
:class:`~pardon.core.moves.Move` for every legal move: it asks
:func:`pardon.core.moves.options` for the distinct outcomes (the very list
``legal_moves`` is made from, in the same order) and works out the position after
the one it picks only (:func:`pardon.core.moves.outcome`).  The cards are read
straight off the pack's pile, which is reshuffled with
:func:`pardon.core.cards.shuffled` exactly when and as
:meth:`Pack.draw <pardon.core.cards.Pack.draw>` would.

>>> from pardon.core.rules import Rules
>>> play_random_game(Rules(), (0, 2), seed=1)  # (winner, cards drawn)
(2, 78)
"""

from __future__ import annotations

import random

from pardon.core.board import HOME
from pardon.core.cards import Pack, shuffled
from pardon.core.moves import PASS, context, legal_moves, options, outcome
from pardon.core.rules import Rules
from pardon.core.state import Position, initial_position

__all__ = ["play_random_game", "random_playout"]

_STOCK_CHOICE = random.Random.choice
_STOCK_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)


def random_playout(
    rules: Rules,
    position: Position,
    pack: Pack,
    seed: int,
    rng: random.Random,
    *,
    max_draws: int | None = None,
    record: list[Position] | None = None,
) -> tuple[int | None, int]:
    """Play on from ``position`` with random moves until somebody wins.

    Equivalent to repeating ``card, pack = pack.draw(seed)`` then
    ``position = rng.choice(legal_moves(rules, position, card)).result``: the same
    calls are made on ``rng``, so the same game is played.  Returns the winner and
    the number of cards drawn; the winner is ``None`` if ``max_draws`` cards were
    drawn first.  ``record``, if given, receives the position after every draw.
    """
    seats, pawns, turn, winner, _ = position
    if winner is not None:
        return winner, 0
    if rules.partners:  # team moves are made by ``legal_moves`` itself
        return _playout_by_legal_moves(rules, position, pack, seed, rng, max_draws, record)
    contexts = {seat: context(rules, seats, seat) for seat in seats}
    choice = rng.choice
    # ``Random.choice(seq)`` is ``seq[self._randbelow(len(seq))]``; for the stock
    # generator that is inlined below (same calls to ``getrandbits``, so the same game).
    stock = type(rng).choice is _STOCK_CHOICE and getattr(type(rng), "_randbelow", None) is _STOCK_RANDBELOW
    getrandbits = rng.getrandbits
    pile, discards, shuffles = pack
    draws = 0
    limit = -1 if max_draws is None else max_draws
    while True:
        if not pile:  # as ``Pack.draw``: the discards are shuffled into a new pack
            if not discards:
                raise ValueError("no cards left to draw")
            pile, discards, shuffles = shuffled(discards, seed, shuffles), (), shuffles + 1
        for card in pile:
            if draws == limit:
                return None, draws
            draws += 1
            ctx = contexts[turn]
            found = options(ctx, pawns, card)
            if stock:
                count = len(found)
                bits = count.bit_length()
                index = getrandbits(bits)
                while index >= count:
                    index = getrandbits(bits)
                option = found[index]
            else:
                option = choice(found)
            if option[0] != PASS:
                pawns = outcome(ctx, pawns, option)
                if pawns[turn][-1] == HOME:  # sorted, so every pawn is Home
                    if record is not None:
                        record.append(Position(seats, pawns, turn, turn))
                    return turn, draws
            turn = ctx.next_turn_after_2 if card == 2 else ctx.next_turn
            if record is not None:
                record.append(Position(seats, pawns, turn, None))
        pile, discards = (), discards + pile  # every card of the pile is face up now


def play_random_game(
    rules: Rules, seats: tuple[int, ...], seed: int, rng: random.Random | None = None
) -> tuple[int, int]:
    """A whole random game: the first seat leads, with ``Pack.new(rules.deck, seed)``
    and, unless given, ``random.Random(seed)`` choosing the moves.

    Returns the winner and the number of cards drawn.
    """
    position = initial_position(rules, seats)
    chooser = random.Random(seed) if rng is None else rng
    winner, draws = random_playout(rules, position, Pack.new(rules.deck, seed), seed, chooser)
    assert winner is not None
    return winner, draws


def _playout_by_legal_moves(
    rules: Rules,
    position: Position,
    pack: Pack,
    seed: int,
    rng: random.Random,
    max_draws: int | None,
    record: list[Position] | None,
) -> tuple[int | None, int]:
    """The plain loop, for rules whose moves only ``legal_moves`` makes."""
    draws = 0
    while position.winner is None:
        if draws == max_draws:
            return None, draws
        card, pack = pack.draw(seed)
        position = rng.choice(legal_moves(rules, position, card)).result
        draws += 1
        if record is not None:
            record.append(position)
    return position.winner, draws
