"""The legal actions: :func:`legal_lanes` gives each game's legal lanes among the 141
actions of :mod:`pardon.batch.actions`, and the split 7's lanes as bit masks."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import numpy as np

from pardon.batch.actions import ACTIONS, OPPONENTS, SLOTS, SPLIT, SPLIT_COUNTS, SWITCH
from pardon.batch.actions import (
    BACK1 as BACK1_LANE,
)
from pardon.batch.actions import (
    MOVE as MOVE_LANE,
)
from pardon.batch.actions import (
    SORRY as SORRY_LANE,
)
from pardon.batch.backend import Array, any0, as_uint8, column, namespace, select
from pardon.batch.config import DISTANCES, I8, Config, Games, Tables, _check_games, _lookup_pair, tables
from pardon.batch.fast_path import _is_fast, _rows_of
from pardon.batch.squares import _on_track, _wrapped
from pardon.core.board import HOME, START
from pardon.core.cards import SORRY


def _blocked(own: Array, landing: Array) -> Array:
    """Whether ``landing`` (any shape ending in the batch) is a square or Safety Zone square
    where one of the ``own`` pawns stands (Home holds any number)."""
    found = landing == own[0]
    for slot in range(1, SLOTS):
        found = found | (landing == own[slot])
    return found & (landing != HOME)


def _main_landing(table: Tables, own: Array, card: Array) -> tuple[Array, Array]:
    """The landing of each own pawn by the card's own move (MOVE), and whether the card
    allows it before looking at the other pawns."""
    forward, out = _lookup_pair(table.card_moves, card)
    in_start = own == START
    on_board = (own != HOME) & ~in_start
    landing = select(in_start, out, _wrapped(own - forward))
    able = select(in_start, out >= 0, on_board & (landing >= 0) & (forward != 0))
    return landing, able


def _move_lanes(table: Tables, own: Array, card: Array) -> Array:
    """``(4, *batch)``: MOVE lanes."""
    landing, able = _main_landing(table, own, card)
    return able & ~_blocked(own, landing)


def _back1_lanes(own: Array, card: Array) -> Array:
    """``(4, *batch)``: a 10's backward 1 (BACK1 lanes)."""
    on_board = (own != HOME) & (own != START)
    return on_board & (card == 10) & ~_blocked(own, _wrapped(own + I8(1)))


def _padded(lanes: Array, axis: int, players: int) -> Array:
    """Lanes over the opponents padded to the encoding's 3 opponents."""
    xp = namespace(lanes)
    missing = OPPONENTS - (players - 1)
    if not missing:
        return lanes
    shape = list(lanes.shape)
    shape[axis] = missing
    return xp.concatenate([lanes, xp.zeros(tuple(shape), dtype=bool)], axis=axis)


def _sorry_lanes(pawns: Array, active: Array) -> tuple[Array]:
    """``(12, *batch)``: a Sorry! from Start onto each opponent pawn on the track."""
    targets = _on_track(pawns[1:])
    lanes = _padded(targets & (any0(pawns[0] == START) & active), 0, pawns.shape[0])
    return (lanes.reshape((OPPONENTS * SLOTS, *active.shape)),)


def _switch_lanes(pawns: Array, active: Array) -> tuple[Array]:
    """``(48, *batch)``: an 11 switch of each own pawn on the track with each opponent's."""
    lanes = _on_track(pawns[0])[:, None, None] & _on_track(pawns[1:])[None] & active
    lanes = _padded(lanes, 1, pawns.shape[0])
    return (lanes.reshape((SLOTS * OPPONENTS * SLOTS, *active.shape)),)


#: The (first, second) slots of the splits, in action order, and for each the place of
#: the pair (second, first).
_PAIRS: Final = [(i, j) for i in range(SLOTS) for j in range(SLOTS) if i != j]
_FIRSTS: Final = np.array([i for i, _ in _PAIRS], dtype=np.intp)
_SECONDS: Final = np.array([j for _, j in _PAIRS], dtype=np.intp)
_SWAPPED: Final = np.array([_PAIRS.index((j, i)) for i, j in _PAIRS], dtype=np.intp)
#: ``_K_SHIFTS``: bit k - 1 of a split mask is the lane of a first part of k.
_K_SHIFTS: Final = np.arange(SPLIT_COUNTS, dtype=np.uint8)


def _split_masks(table: Tables, own: Array) -> Array:
    """``(12, *batch)`` uint8: for each pair of slots (i, j) in action order, bit k - 1 set
    where "slot i forward k, then slot j forward 7 - k" is legal (docs/rules.md: "The split 7").

    Slot i's first parts (not past Home), less those landing on another own pawn; those of
    the pair itself (``split_pair``, :func:`_split_tables`); and the own pawns standing
    where j's second part lands, each its own bit (two own pawns never share a square)."""
    xp = namespace(own)
    batch = own.shape[1:]
    firsts, seconds = xp.asarray(_FIRSTS), xp.asarray(_SECONDS)
    first_at, second_at = xp.take(own, firsts, axis=0), xp.take(own, seconds, axis=0)
    # how many squares the second pawn of each pair stands ahead of the first, less one
    gap = as_uint8(first_at - second_at) - np.uint8(1)  # 0-5: a part of gap + 1 reaches it
    near = (gap < np.uint8(SPLIT_COUNTS)) & (second_at != HOME)
    reaching = xp.left_shift(np.uint8(1), xp.minimum(gap, np.uint8(7)))  # a first part of gap + 1
    second_reaching = xp.left_shift(np.uint8(1), np.uint8(5) - xp.minimum(gap, np.uint8(5)))  # 7 - (gap + 1)
    blocks = select(near, reaching, np.uint8(0)).reshape((SLOTS, SLOTS - 1, *batch))
    occupied = select(near, second_reaching, np.uint8(0))
    movable = (own != HOME) & (own != START)
    below_home = xp.left_shift(np.uint8(1), xp.minimum(as_uint8(own), np.uint8(SPLIT_COUNTS))) - np.uint8(1)
    start = select(movable, below_home, np.uint8(0))  # first parts that do not pass Home
    first_ok = start & ~(blocks[:, 0] | blocks[:, 1] | blocks[:, 2])
    by_second = occupied.reshape((SLOTS, SLOTS - 1, *batch))
    in_way = by_second[:, 0] | by_second[:, 1] | by_second[:, 2]  # any other own pawn, by slot j
    # the first pawn has moved away: only the pawns besides i and j stand in j's way
    in_way = xp.take(in_way, seconds, axis=0) & ~xp.take(occupied, xp.asarray(_SWAPPED), axis=0)
    pair = xp.take(xp.asarray(table.split_pair), first_at.astype(xp.int32) * DISTANCES + second_at)
    free = (pair & np.uint16(0xFF)).astype(xp.uint8)
    crowded = (pair >> np.uint16(8)).astype(xp.uint8)
    return xp.take(first_ok, firsts, axis=0) & free & ~(in_way & crowded)


def _split_lanes(table: Tables, own: Array, active: Array) -> tuple[Array]:
    """``(72, *batch)``: the legal split 7s (SPLIT lanes) where ``active``."""
    masks = _split_masks(table, own)
    batch = active.ndim
    lanes = (masks[:, None] >> column(_K_SHIFTS, batch, np.uint8)) & np.uint8(1)
    return ((lanes.reshape((-1, *active.shape)) != 0) & active,)


#: The rare kinds of card whose lanes NumPy works out only where they are held:
#: (card, first lane, kernel's name).
_RARE: Final = ((7, SPLIT, "split"), (11, SWITCH, "switch"), (SORRY, SORRY_LANE, "sorry"))
_RARE_CARDS: Final = tuple(card for card, _, _ in _RARE)


def _rare_groups(table: Tables, pawns: Array, card: Array) -> Iterator[tuple[Array, Array, int]]:
    """NumPy's way with the rare cards: for each, the games holding it, those lanes, and
    the first lane of its kind."""
    for (_, first, name), rows in zip(_RARE, _rows_of(card, _RARE_CARDS), strict=True):
        if not rows.size:
            continue
        every = np.ones(rows.size, dtype=bool)
        if name == "split":
            found = _split_lanes(table, np.take(pawns[0], rows, axis=1), every)[0]
        else:
            found = (_switch_lanes if name == "switch" else _sorry_lanes)(np.take(pawns, rows, axis=-1), every)[0]
        yield rows, found, first


def _split_lanes_of(masks: Array) -> Array:
    """``(72, n)``: the split lanes of :func:`_split_masks`' ``(12, n)`` masks."""
    return ((masks[:, None] >> _K_SHIFTS[:, None]) & np.uint8(1)).reshape((-1, masks.shape[-1])) != 0


def _split_masks_of(lanes: Array) -> Array:
    """``(12, n)``: split lanes ``(72, n)`` as masks (bit k - 1: the first part k)."""
    by_pair = lanes.reshape((len(_PAIRS), SPLIT_COUNTS, lanes.shape[-1])).view(np.uint8)
    return (by_pair << _K_SHIFTS[:, None]).sum(axis=1, dtype=np.uint8)


def legal_lanes(config: Config, games: Games) -> Array:
    """``(config.actions, *batch)`` booleans: which actions each game's player to decide may
    take, as its edition says (:func:`pardon.batch.editions.edition`: the card in hand's
    :func:`card_lanes`, a hand's, the partners', doubling's, Fire and Ice's)."""
    from pardon.batch.editions import edition

    return edition(config).lanes(config, games)


def card_lanes(config: Config, games: Games) -> Array:
    """``(141, *batch)`` booleans: which actions each game's player to move may take with
    its card (none once the game is over).  A card that cannot be used has one lane set:
    the pass; an 11 has the pass whenever no pawn can go forward 11."""
    xp = namespace(games.pawns)
    table = tables(config)
    _check_games(config, games)
    pawns, card = games.pawns, games.card
    own = pawns[0]
    move = _move_lanes(table, own, card)
    back1 = _back1_lanes(own, card)
    if _is_fast(xp, card):
        lanes = np.zeros((ACTIONS, *card.shape), dtype=bool)
        lanes[MOVE_LANE:BACK1_LANE] = move
        lanes[BACK1_LANE:SPLIT] = back1
        for rows, found, first in _rare_groups(table, pawns, card):
            lanes[first : first + found.shape[0], rows] = found
        used = np.any(lanes[1:], axis=0)
    else:
        split = _split_lanes(table, own, card == 7)[0]
        switch = _switch_lanes(pawns, card == 11)[0]
        sorry = _sorry_lanes(pawns, card == SORRY)[0]
        lanes = xp.concatenate([xp.zeros((1, *card.shape), dtype=bool), move, back1, split, switch, sorry], axis=0)
        used = any0(lanes[1:])
    forfeit = select(card == 11, ~any0(move), ~used) & (card != 0)
    if _is_fast(xp, card):
        lanes[0] = forfeit
        return lanes
    return xp.concatenate([forfeit[None], lanes[1:]], axis=0)
