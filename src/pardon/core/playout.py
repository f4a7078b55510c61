"""Fast random playouts, for simulations and search.

A random playout is the loop "draw a card, list its legal moves, pick one uniformly
with ``rng.choice``, play it" run until somebody wins.  This module runs exactly that
loop — same cards, same choices, same positions — without building a
:class:`~pardon.core.moves.Move` for every legal move.  Most cards move one pawn by
count (forward, out of Start, backward): those steps are listed here directly, in
the order :func:`pardon.core.moves.options` lists them, and the pawns after the one
picked are worked out here, a slide apart.  Everything else (a split 7, an 11, a
Sorry!, a slide, two steps by count that may end alike) is asked of
:func:`pardon.core.moves.options` (the very list ``legal_moves`` is made from) and
:func:`pardon.core.moves.outcome`.  The cards are read straight off the pack's pile,
which is reshuffled with :func:`pardon.core.cards.shuffled` exactly when and as
:meth:`Pack.draw <pardon.core.cards.Pack.draw>` would.

>>> from pardon.core.rules import Rules
>>> play_random_game(Rules(), (0, 2), seed=1)  # (winner, cards drawn)
(2, 78)
"""

from __future__ import annotations

import random
from typing import Final, NamedTuple

from pardon.core.board import FIRST_TRACK, HOME, START, TRACK_LENGTH
from pardon.core.cards import SORRY, Pack, shuffled
from pardon.core.moves import (
    ONE_STEP,
    PASS,
    SPLIT_CARD,
    Bumps,
    Context,
    _moved,
    context,
    legal_moves,
    options,
    outcome,
)
from pardon.core.rules import Rules
from pardon.core.state import Position, initial_position

__all__ = ["play_random_game", "random_playout"]

_STOCK_CHOICE = random.Random.choice
_STOCK_RANDBELOW = getattr(random.Random, "_randbelow_with_getrandbits", None)

# How the kernel lists a card's options (``_Seat.how``).  Moves by count that no
# other pawn's position can make alike are listed here, in ``options`` order, as
# ``(origin, landing)`` steps; anything else is left to ``options``.
_LISTED: Final = 0  # by ``options``
_FORWARD: Final = 1  # each pawn forward by the card, then out of Start
_SEVEN: Final = 2  # the same while fewer than two pawns can move (so no split)
_BACKWARD: Final = 3  # each pawn backward 4
_TEN: Final = 4  # forward 10, out of Start, then each pawn backward 1

_LAST_TRACK: Final = START - 1

#: ``_BITS[n]`` is ``n.bit_length()``: how many bits ``Random._randbelow(n)`` draws.
#: No card has 256 options.
_BITS: Final = tuple(n.bit_length() for n in range(256))


class _Seat(NamedTuple):
    """What the kernel reads on one colour's turns (unpacked once per draw)."""

    ctx: Context
    #: ``how[card]``: how that card's options are listed (``_FORWARD`` …).
    how: tuple[int, ...]
    #: ``after[card]``: who draws after that card.
    after: tuple[int, ...]
    rival_views: tuple[tuple[int, tuple[int, ...]], ...]
    rides: tuple[object | None, ...]
    ride_spots: frozenset[int]
    leave_start: tuple[int, ...]


_SEATS: dict[tuple[int, bool], _Seat] = {}  # by the id of the context (contexts are kept)


def _seat(ctx: Context, stock: bool) -> _Seat:
    """The kernel's view of ``ctx`` (made once per context: a game is short enough for
    making it to show); with a generator whose ``choice`` is its own, every card's
    options are listed by ``options`` and chosen by that ``choice``."""
    found = _SEATS.get((id(ctx), stock))
    if found is None or found.ctx is not ctx:
        if len(_SEATS) > 256:
            _SEATS.clear()
        found = _SEATS[id(ctx), stock] = _make_seat(ctx, stock)
    return found


def _make_seat(ctx: Context, stock: bool) -> _Seat:
    how = [_LISTED] * (SORRY + 1)
    if stock:
        for card in (1, 2, 3, 5, 8, 12):
            how[card] = _FORWARD
        how[SPLIT_CARD], how[4], how[10] = _SEVEN, _BACKWARD, _TEN
    after = tuple(ctx.next_turn_after_2 if card == 2 else ctx.next_turn for card in range(SORRY + 1))
    return _Seat(ctx, tuple(how), after, ctx.rival_views, ctx.rides, ctx.ride_spots, ctx.leave_start)


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
        plan[seat] = _seat(context(rules, seats, seat), stock)
    plans = tuple(plan)
    steps: list[tuple[int, int]] | None
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
            ctx, how, after, rival_views, rides, spots, leave_start = plans[turn]  # type: ignore[misc]
            row = pawns[turn]
            kind = how[card]
            if kind == _SEVEN and len(row) - row.count(HOME) - row.count(START) > 1:
                kind = _LISTED  # a split 7
            if not kind:
                steps = None
            else:
                steps = []
                if kind != _BACKWARD:  # forward by the card (pawns are sorted, Start last)
                    for pawn in row:
                        if pawn >= card:
                            if pawn == START:
                                break
                            landing = pawn - card
                            if landing == HOME or landing not in row:
                                steps.append((pawn, landing))
                    out = leave_start[card]
                    if out >= 0 and row[-1] == START and out not in row:
                        steps.append((START, out))
                if kind >= _BACKWARD:  # backward 4, or 1 with a 10, round the track
                    back = 4 if kind == _BACKWARD else 1
                    for pawn in row:
                        if pawn == START:
                            break
                        if pawn != HOME:
                            landing = pawn + back
                            if landing > _LAST_TRACK:
                                landing -= TRACK_LENGTH
                            if landing not in row:
                                steps.append((pawn, landing))
                    if len(steps) > 1:  # two steps may end alike only if both slide
                        sliding = 0
                        for _, landing in steps:
                            if landing in spots:
                                sliding += 1
                        if sliding > 1:
                            steps = None
            if steps is None:
                found = options(ctx, pawns, card)
                if stock:
                    count = len(found)
                    bits = _BITS[count]
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
            else:
                count = len(steps) or 1  # a forfeit when there is no step
                bits = _BITS[count]
                index = getrandbits(bits)
                while index >= count:
                    index = getrandbits(bits)
                if steps:
                    origin, landing = steps[index]
                    if landing >= FIRST_TRACK and rides[landing] is not None:
                        pawns = outcome(ctx, pawns, (ONE_STEP, origin, landing, 0))  # it slides
                    else:
                        bumps: Bumps = ()
                        if landing >= FIRST_TRACK:  # the occupant of a track square goes to Start
                            for other, view in rival_views:
                                at = view[landing]
                                if at in pawns[other]:
                                    bumps = ((other, at),)
                                    break
                        if bumps:
                            pawns = _moved(pawns, turn, origin, landing, bumps)
                        else:  # only the pawn moves
                            moved = list(row)
                            moved[moved.index(origin)] = landing
                            moved.sort()
                            changed = list(pawns)
                            changed[turn] = tuple(moved)
                            pawns = tuple(changed)
                    if landing == HOME and pawns[turn][-1] == HOME:  # sorted: every pawn is Home
                        if record is not None:
                            record.append(Position(seats, pawns, turn, turn))
                        return turn, draws
            turn = after[card]
            if record is not None:
                record.append(Position(seats, pawns, turn, None))
        pile, discards = (), discards + pile  # every card of the pile is face up now


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
