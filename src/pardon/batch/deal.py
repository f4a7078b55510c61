"""Chance in the batch engine: each game's random bits (a hash of its seed, a counter and a
stream), new games (the leader and the first card), and the draw of each game's next card."""

from __future__ import annotations

import reprlib
from typing import Any

import numpy as np

from pardon.batch.actions import SLOTS
from pardon.batch.backend import Array, as_int8, column, namespace, select, settled
from pardon.batch.config import (
    BEFORE_DRAW,
    CARD_STAGE,
    EXTRA_ROWS,
    I8,
    SEEDS,
    SPLIT_ROWS,
    SPLITTING,
    STAGE,
    STREAM_DRAW,
    STREAM_LEADER,
    U32,
    Config,
    Games,
    Tables,
    extra_rows,
    tables,
)
from pardon.batch.fast_path import _is_fast, _scatter
from pardon.core.cards import CARDS
from pardon.core.errors import InvalidError

# --- random bits ------------------------------------------------------------------------


def _mix(x: Array) -> Array:
    """A 32-bit integer hash (lowbias32): every bit of the input reaches every bit."""
    with np.errstate(over="ignore"):  # it wraps round on purpose (NumPy warns for one game's scalars)
        x = x ^ (x >> U32(16))
        x = x * U32(0x21F0AAAD)
        x = x ^ (x >> U32(15))
        x = x * U32(0x735A2D97)
        return x ^ (x >> U32(15))


def random_bits(seed: Array, counter: Array, stream: int) -> Array:
    """32 random bits of a game: a hash of its seed, a counter and the stream (draws,
    the leader, random players' choices), the same on NumPy and on JAX."""
    xp = namespace(seed, counter)
    key = _mix(seed ^ U32((stream * 0x9E3779B9) & 0xFFFFFFFF))
    return _mix(key + xp.asarray(counter).astype(xp.uint32))


# --- new games and the draw --------------------------------------------------------------


def new_games(config: Config, seeds: Array) -> Games:
    """One game per seed, its first card drawn: all pawns in Start (or one out), and the
    first player to move chosen by the rules (``leader="named"``: the first seat;
    otherwise each seat is equally likely, as the draw for the Leader makes it, from the
    game's seed).  With hands of five, five cards are dealt to each seat instead, one at a
    time from the Leader, and none is drawn."""
    seeds = _seed_array(seeds)
    xp = namespace(seeds)
    table = tables(config)
    _check_seeds(seeds)
    seeds = xp.asarray(seeds).astype(xp.uint32)
    shape = seeds.shape
    batch = len(shape)
    zero8 = xp.zeros(shape, dtype=xp.int8)
    pawns = xp.zeros((config.players, SLOTS, *shape), dtype=xp.int8) + column(table.first_row, batch)
    if table.random_leader:
        turn = (random_bits(seeds, xp.zeros(shape, dtype=xp.int32), STREAM_LEADER) % U32(config.players)).astype(
            xp.int8
        )
    else:
        turn = zero8
    pack = xp.zeros((len(CARDS), *shape), dtype=xp.int8) + column(table.deck, batch)
    left = zero8 + I8(config.deck_size)
    drawn = xp.zeros(shape, dtype=xp.int32)
    held = (config.players, len(CARDS)) if config.rules.hand else (0,)
    hands = xp.zeros((*held, *shape), dtype=xp.int8)
    extras = xp.zeros((extra_rows(config.rules), *shape), dtype=xp.int16)
    if extras.shape[0]:  # with doubling a turn begins before the draw (a double, or going on); the tokens in the centre
        first = [BEFORE_DRAW if config.rules.doubling else CARD_STAGE, 0, 0, 0, 0, 0, -1, -1, 0]
        first += [0] * (extras.shape[0] - EXTRA_ROWS)  # no split 7 being made
        extras = extras + column(np.array(first), batch, np.int16)
    games = Games(pawns, turn, zero8, pack, left, seeds, drawn, zero8 - I8(1), turn, hands, extras)
    return _dealt(config, games) if config.rules.hand else draw(config, games)


def _dealt(config: Config, games: Games) -> Games:
    """New games of hands of five: ``config.rules.hand`` cards dealt to each seat, one at a
    time from the seat to move (seat 0), and no card drawn."""
    taking = games.winner < 0
    for _ in range(config.rules.hand):
        for seat in range(config.players):
            kind, _, games = take(config, games, taking)
            games = settled(games._replace(hands=into_hand(games.hands, seat, kind)))
    return games


def into_hand(hands: Array, seat: int, kind: Array, count: int = 1) -> Array:
    """``hands`` with ``count`` cards of ``kind`` (an index in ``CARDS``; -1: none) added to
    ``seat``'s (-1: one taken out of it)."""
    xp = namespace(hands)
    kinds = column(np.arange(len(CARDS)), kind.ndim)
    added = as_int8(kinds == kind[None]) * I8(count)
    return xp.stack([hands[row] + added if row == seat else hands[row] for row in range(hands.shape[0])])


def _seed_array(seeds: Any) -> Array:
    """``seeds`` as an array: a list or a number read as NumPy's (reading a list's dtype was
    an AttributeError), an array (NumPy's or JAX's) as it is."""
    if hasattr(seeds, "dtype"):
        return seeds
    try:
        return np.asarray(seeds)
    except ValueError:  # a ragged list
        raise InvalidError(f"seeds are whole numbers from 0 to {SEEDS - 1}, not {reprlib.repr(seeds)}") from None


def _check_seeds(seeds: Array) -> None:
    """InvalidError unless ``seeds`` are whole numbers from 0 to ``SEEDS - 1``: cast to 32 bits,
    -1 or 2**32 would silently be another seed's game, 1.5 seed 1's.  (Under JAX's ``jit``
    the values cannot be looked at; their type is.)"""
    dtype = np.dtype(seeds.dtype)
    if dtype.kind not in "iu":
        raise InvalidError(f"seeds are whole numbers from 0 to {SEEDS - 1}, not {dtype} values")
    fits = dtype.kind == "u" and dtype.itemsize <= 4  # uint32 and narrower: nothing to look at
    if not fits and isinstance(seeds, np.ndarray | np.generic):
        values = np.asarray(seeds)
        outside = (values < 0) | (values >= SEEDS)
        if outside.any():
            raise InvalidError(f"a seed is a whole number from 0 to {SEEDS - 1}, not {values[outside][0]}")


def draw(config: Config, games: Games) -> Games:
    """Each game still going on turns up its next card; an empty pack is first made of
    the discards again (the whole deck: nothing else is ever out of the pack).  With hands
    of five no card is drawn (a hand is drawn back up as its card is played): the games as
    they are; with doubling, only the games at their card draw (not before the draw, nor while
    a double is answered)."""
    if config.rules.hand:
        return games
    taking = games.winner < 0
    if games.extras.shape[0]:  # only at the card: not before the draw, nor while a double is answered
        taking = taking & (games.extras[STAGE] == CARD_STAGE)
    _, card, games = take(config, games, taking)
    if games.extras.shape[0] == SPLIT_ROWS:  # a split 7 being made keeps its 7
        card = select(games.extras[STAGE] == SPLITTING, games.card, card)
    return games._replace(card=card)


def take(config: Config, games: Games, taking: Array) -> tuple[Array, Array, Games]:
    """Where ``taking``, one card taken from each game's pack: its kind (its index in
    ``CARDS``; -1 where none is taken), the card (0 where none), and the games with their
    pack, cards left and cards drawn counted.  An empty pack is first made of the discards again: the deck less the
    cards in the hands."""
    xp = namespace(games.pack)
    table = tables(config)
    empty = (games.left == 0) & taking
    pack = _refilled(table, games.pack, empty, games.hands)
    full = I8(config.deck_size)
    if config.rules.hand:  # every card is in a pack, a hand or the discards
        full = full - xp.sum(games.hands, axis=(0, 1), dtype=xp.int8)
    left = select(empty, full, games.left)
    divisor = xp.maximum(left, I8(1)).astype(xp.uint32)
    pick = as_int8(random_bits(games.seed, games.drawn, STREAM_DRAW) % divisor)
    # the kind picked: how many kinds' cards all come before it (row by row: small
    # temporaries), and its card: as many ranks on, and one more past each missing rank
    kind = xp.zeros(pick.shape, dtype=xp.int8)
    before, skipped = kind, kind
    for row in range(len(CARDS) - 1):
        before = before + pack[row]
        passed = as_int8(before <= pick)
        kind = kind + passed
        if CARDS[row + 1] - CARDS[row] > 1:
            skipped = skipped + passed * I8(CARDS[row + 1] - CARDS[row] - 1)
    taken = select(taking, kind, I8(-1))
    card = select(taking, kind + skipped + I8(CARDS[0]), I8(0))
    return (
        taken,
        card,
        games._replace(
            pack=xp.stack([pack[row] - as_int8(taken == row) for row in range(len(CARDS))]),
            left=left - as_int8(taking),
            drawn=games.drawn + taking.astype(xp.int32),
        ),
    )


def _refilled(table: Tables, pack: Array, empty: Array, hands: Array) -> Array:
    """The packs, made of the discards again where ``empty``: the whole deck less the cards
    in the ``hands`` (none without hands; on NumPy only those games are written)."""
    xp = namespace(pack)
    full = column(table.deck, empty.ndim)
    if hands.shape[0]:
        full = full - xp.sum(hands, axis=0, dtype=xp.int8)
    if not _is_fast(xp, empty):
        return select(empty, full, pack)
    rows = np.flatnonzero(empty)
    if not rows.size:
        return pack
    pack = pack.copy()
    _scatter(pack, rows, full if not hands.shape[0] else np.take(full, rows, axis=-1))
    return pack
