"""Fast random playouts, for simulations and search.

A random playout is the loop "draw a card, list its legal moves, pick one uniformly
with ``rng.choice``, play it" run until somebody wins.  This module runs exactly that
loop — same cards, same choices, same positions — without building a
:class:`~pardon.core.moves.Move` for every legal move.  It reads the kernel's own
lists: most cards move one pawn by count, and those steps come from
:func:`pardon.core.kernel.card_steps` (the list :func:`~pardon.core.kernel.options`
starts from), and everything else (a split 7, an 11, a Sorry!,
two steps that may end alike) is asked of :func:`~pardon.core.kernel.options` and
:func:`~pardon.core.kernel.outcome`.  Nothing here judges a move: a step is played
here only when it does not slide (a slide is the kernel's :func:`~pardon.core.kernel.outcome`).
The cards are read straight off the pack's pile, which is reshuffled with
:func:`pardon.core.cards.shuffled` exactly when and as
:meth:`Pack.draw <pardon.core.cards.Pack.draw>` would.

>>> from pardon.core.rules import Rules
>>> play_random_game(Rules(), (0, 2), seed=1)  # (winner, cards drawn)
(2, 78)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final, NamedTuple

from pardon.core.board import FIRST_TRACK, HOME, START
from pardon.core.cards import SORRY, Pack, shuffled
from pardon.core.kernel import (
    ONE_STEP,
    PASS,
    SPLIT_CARD,
    Bumps,
    Context,
    Option,
    card_steps,
    context,
    may_end_alike,
    moved,
    options,
    outcome,
)
from pardon.core.moves import legal_moves
from pardon.core.rules import Rules
from pardon.core.state import Position, initial_position

__all__ = ["play_random_game", "random_playout"]

_STOCK_CHOICE = random.Random.choice
_STOCK_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)

#: ``_BITS[n]`` is ``n.bit_length()``: how many bits ``Random._randbelow(n)`` draws.
#: No card has 256 options.
_BITS: Final = tuple(n.bit_length() for n in range(256))

#: The cards whose outcomes are more than steps by count (as is a 7 two pawns could split).
_SORRY_OR_11: Final = frozenset((SORRY, 11))
_FORFEIT: Final[tuple[Option, ...]] = ((PASS, 0, 0, 0),)


class _Seat(NamedTuple):
    """What the kernel reads on one colour's turns (unpacked once per draw)."""

    ctx: Context
    #: ``after[card]``: who draws after that card.
    after: tuple[int, ...]
    rival_views: tuple[tuple[int, tuple[int, ...]], ...]
    rides: tuple[object | None, ...]


def _seat(ctx: Context) -> _Seat:
    after = tuple(ctx.next_turn_after_2 if card == 2 else ctx.next_turn for card in range(SORRY + 1))
    return _Seat(ctx, after, ctx.rival_views, ctx.rides)


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
    if rules.hand or rules.tokens or rules.doubling:  # decisions besides a drawn card's move
        return _playout_by_game(rules, position, pack, seed, rng, max_draws, record)
    if rules.partners:  # team moves are made by ``legal_moves`` itself
        return _playout_by_legal_moves(rules, position, pack, seed, rng, max_draws, record)
    choice = rng.choice
    # ``Random.choice(seq)`` is ``seq[self._randbelow(len(seq))]``; for the stock
    # generator that is inlined below (same calls to ``getrandbits``, so the same game).
    stock = type(rng).choice is _STOCK_CHOICE and getattr(type(rng), "_randbelow", None) is _STOCK_RANDBELOW
    plan: list[_Seat | None] = [None] * (max(seats) + 1)
    for seat in seats:
        plan[seat] = _seat(context(rules, seats, seat))
    plans = tuple(plan)
    getrandbits = rng.getrandbits
    pile: tuple[int, ...]
    discards: tuple[int, ...]
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
            ctx, after, rival_views, rides = plans[turn]  # type: ignore[misc]
            row = pawns[turn]
            found: Sequence[Option]
            if card in _SORRY_OR_11 or (card == SPLIT_CARD and len(row) - row.count(HOME) - row.count(START) > 1):
                found = options(ctx, pawns, card)
            else:
                found = card_steps(ctx, row, card)
                if may_end_alike(ctx, card, found):
                    found = options(ctx, pawns, card)
                elif not found:
                    found = _FORFEIT
            if stock:
                count = len(found)
                bits = _BITS[count]
                index = getrandbits(bits)
                while index >= count:
                    index = getrandbits(bits)
                option = found[index]
            else:
                option = choice(found)
            kind, origin, landing, _ = option
            if kind == ONE_STEP and (landing < FIRST_TRACK or rides[landing] is None):
                bumps: Bumps = ()  # a step that does not slide bumps at most the occupant
                if landing >= FIRST_TRACK:
                    for other, view in rival_views:
                        at = view[landing]
                        if at in pawns[other]:
                            bumps = ((other, at),)
                            break
                if bumps:
                    pawns = moved(pawns, turn, origin, landing, bumps)
                else:  # only the pawn moves
                    after_row = list(row)
                    after_row[after_row.index(origin)] = landing
                    after_row.sort()
                    changed = list(pawns)
                    changed[turn] = tuple(after_row)
                    pawns = tuple(changed)
                if landing == HOME and pawns[turn][-1] == HOME:  # sorted: every pawn is Home
                    if record is not None:
                        record.append(Position(seats, pawns, turn, turn))
                    return turn, draws
            elif kind != PASS:
                pawns = outcome(ctx, pawns, option)
                if pawns[turn][-1] == HOME:  # sorted, so every pawn is Home
                    if record is not None:
                        record.append(Position(seats, pawns, turn, turn))
                    return turn, draws
            turn = after[card]
            if record is not None:
                record.append(Position(seats, pawns, turn, None))
        discards += pile  # every card of the pile is face up now
        pile = ()


def play_random_game(
    rules: Rules, seats: tuple[int, ...], seed: int, rng: random.Random | None = None
) -> tuple[int, int]:
    """A whole random game: the first seat leads, with ``Pack.new(rules.deck, seed)``
    and, unless given, ``random.Random(seed)`` choosing the moves.

    Returns the winner and the number of cards drawn (played, in a hand game, whose
    hands are dealt from that pack as :meth:`Game.new <pardon.core.game.Game.new>` deals).
    """
    position, pack = initial_position(rules, seats), Pack.new(rules.deck, seed)
    if rules.hand:
        from pardon.core.game import Game

        dealt = Game.new(rules, seats, seed, first=seats[0])
        position, pack = dealt.position, dealt.pack
    chooser = random.Random(seed) if rng is None else rng
    winner, draws = random_playout(rules, position, pack, seed, chooser)
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


def _playout_by_game(
    rules: Rules,
    position: Position,
    pack: Pack,
    seed: int,
    rng: random.Random,
    max_draws: int | None,
    record: list[Position] | None,
) -> tuple[int | None, int]:
    """The :class:`~pardon.core.game.Game` loop, for rules with decisions besides the
    move of a drawn card (a hand, Fire and Ice, doubles): ``rng.choice`` among every
    decision's legal moves.  ``max_draws`` and the count returned are cards played."""
    from pardon.core.game import Game

    game = Game.at(rules, position, pack, seed)
    draws = 0
    while not game.is_over:
        if draws == max_draws:
            return None, draws
        if game.awaiting_draw:
            game.draw()
        move = rng.choice(game.legal_moves())
        game.play_trusted(move)
        if move.card:
            draws += 1
            if record is not None:
                record.append(game.position)
    return game.winner, draws
