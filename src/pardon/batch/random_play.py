"""The random players: a uniform choice among each game's legal lanes
(:func:`random_actions`) or among its distinct moves (:func:`random_moves`), from the game's
own random stream; NumPy makes the same choice without building every lane."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final, NamedTuple

import numpy as np

from pardon.batch import compiled
from pardon.batch.actions import (
    BACK1 as BACK1_LANE,
)
from pardon.batch.actions import (
    MOVE as MOVE_LANE,
)
from pardon.batch.actions import OPPONENTS, SLOTS, SPLIT, SPLIT_COUNTS, SWITCH
from pardon.batch.actions import (
    SORRY as SORRY_LANE,
)
from pardon.batch.backend import Array, any0, column, cumsum0, is_numpy, namespace, select
from pardon.batch.config import I16, STREAM_CHOICE, Config, Games, splits_any, tables
from pardon.batch.deal import random_bits
from pardon.batch.distinct import (
    _eleven_found,
    _seven_found,
    _sliding_switches,
    _start_duplicates,
    _step_duplicates,
    _steps_compared,
    distinct_lanes,
)
from pardon.batch.doubling import choice_counter
from pardon.batch.fast_path import _is_fast, _rows_of
from pardon.batch.legal import (
    _RARE,
    _RARE_CARDS,
    _back1_lanes,
    _move_lanes,
    _padded,
    _split_masks,
    _split_masks_of,
    legal_lanes,
)
from pardon.batch.squares import _on_track, _sides
from pardon.core.board import START


def choose_uniform(lanes: Array, bits: Array) -> Array:
    """The legal lane numbered ``bits`` modulo the game's number of legal lanes, in lane
    order: with random ``bits``, a uniform choice among the legal actions."""
    xp = namespace(lanes)
    if is_numpy(xp) and lanes.ndim == 2 and lanes.shape[0] > MANY_LANES:
        return _choose_among_many(np.asarray(lanes), np.asarray(bits))
    counts = xp.sum(lanes, axis=0, dtype=xp.int16)
    pick = (bits % xp.maximum(counts, I16(1)).astype(xp.uint32)).astype(xp.int16)
    before = cumsum0(lanes.astype(xp.int16)) <= pick
    return xp.sum(before, axis=0, dtype=xp.int16).astype(xp.int32) % lanes.shape[0]


#: Beyond this many lanes (hands of five with Fire and Ice: 12,157) NumPy finds each game's
#: legal lanes rather than summing every lane of every game.
MANY_LANES: Final = 2_000


def _choose_among_many(lanes: np.ndarray, bits: np.ndarray) -> np.ndarray:
    """:func:`choose_uniform` on NumPy for many lanes (one axis of games): the same lanes."""
    game, lane = np.nonzero(lanes.T)  # game by game, in lane order
    counts = np.bincount(game, minlength=lanes.shape[1])
    pick = bits % np.maximum(counts, 1).astype(np.uint32)
    chosen = np.zeros(lanes.shape[1], dtype=np.int32)
    has = counts > 0
    chosen[has] = lane[(np.cumsum(counts) - counts)[has] + pick[has]]
    return chosen


#: ``_NTH_BIT[byte * 8 + n]``: the position of the n-th set bit of ``byte`` (0 if none).
_NTH_BIT: Final = np.array(
    [([bit for bit in range(8) if byte >> bit & 1] + [0] * 8)[n] for byte in range(256) for n in range(8)],
    dtype=np.int32,
)
_BIT_WEIGHTS: Final = np.array([1, 2, 4, 8], dtype=np.uint8)


def _lane_bits(lanes: Array) -> Array:
    """``(4, n)`` lanes (one per slot) as the bits of a uint8."""
    return (lanes.view(np.uint8) * _BIT_WEIGHTS[:, None]).sum(axis=0, dtype=np.uint8)


def random_actions(config: Config, games: Games) -> Array:
    """One legal action per game, uniformly among its legal lanes (the mask an agent sees),
    from the game's own random stream (its seed and the cards drawn so far):
    ``choose_uniform(legal_lanes(...), bits)`` (0 for a game over).  A move that several
    actions make (leaving Start with any of the pawns there, a split 7 in either order) is
    chosen as often as it has actions: :func:`random_moves` chooses as the core's ``random``
    player does.  NumPy makes the same choice without building all the lanes."""
    return _random_choice(config, games, distinct=False)


def random_moves(config: Config, games: Games) -> Array:
    """One legal action per game, uniformly among its distinct moves (one lane for each
    position its legal actions can make: :func:`distinct_lanes`, as the core's ``random``
    player chooses among its legal moves), from the game's own random stream:
    ``choose_uniform(distinct_lanes(...), bits)`` (0 for a game over).  Working out which
    actions make the same move costs time: NumPy's choice takes about 2.5 times as long per
    card as :func:`random_actions`'s, without building all the lanes either."""
    return _random_choice(config, games, distinct=True)


def _random_choice(config: Config, games: Games, distinct: bool) -> Array:
    """:func:`random_moves` (``distinct``) or :func:`random_actions`."""
    xp = namespace(games.pawns)
    bits = random_bits(games.seed, choice_counter(config, games), STREAM_CHOICE)
    if not _is_fast(xp, games.card) or config.rules.hand or config.rules.partners or games.extras.shape[0]:
        if distinct and splits_any(config.rules) and config.rules.hand:
            from pardon.batch.split_hands import random_hand_parts

            # at the card, the whole move chosen among the turn's, then its parts; decisions as below
            others = np.zeros(games.card.shape, dtype=np.int32)  # without doubling every game is at its card
            if config.rules.doubling:
                others = np.asarray(choose_uniform(distinct_lanes(config, games), bits))
            return random_hand_parts(config, games, np.asarray(bits), others)
        if distinct and splits_any(config.rules):
            from pardon.batch.split_any import lanes_but_sevens, random_parts

            # a 7: the whole move chosen among the turn's, then its parts; the others as below
            lanes = distinct_lanes(config, games, lanes_but_sevens(config, games))
            return random_parts(config, games, np.asarray(bits), np.asarray(choose_uniform(lanes, bits)))
        lanes = distinct_lanes(config, games) if distinct else legal_lanes(config, games)
        return choose_uniform(lanes, bits)
    table = tables(config)
    pawns, card = games.pawns, games.card
    own = pawns[0]
    tens, fours, *held_by = _rows_of(card, (10, 4, *_RARE_CARDS))
    moves = _move_lanes(table, own, card)
    simple = _lane_bits(moves & ~_start_duplicates(own) if distinct else moves)
    if tens.size:  # a 10's backward 1, worked out where a 10 is held
        ten_own = own.take(tens, axis=1)
        simple[tens] |= _lane_bits(_back1_lanes(ten_own, card.take(tens))) << np.uint8(4)
    steps = np.concatenate([fours, tens]) if distinct else fours[:0]
    if steps.size and compiled.AVAILABLE:  # compared and found in one compiled loop
        held, sides = np.take(pawns, steps, axis=-1), _sides(config, games.turn.take(steps))
        simple[steps] &= ~compiled.step_repeats(table, held, sides, card.take(steps), simple.take(steps))
        steps = steps[:0]
    if steps.size:  # steps of a 4 or a 10, compared where two or more of them slide
        legal = simple.take(steps)
        move, back1 = _unpacked(legal), _unpacked(legal >> np.uint8(4))
        compared = _steps_compared(table, own.take(steps, axis=1), card.take(steps), move, back1)
        steps, legal, move, back1 = steps[compared], legal[compared], move[:, compared], back1[:, compared]
    if steps.size:
        held, sides = np.take(pawns, steps, axis=-1), _sides(config, games.turn.take(steps))
        found = _step_duplicates(table, held, sides, card.take(steps), move, back1)
        simple[steps] = legal & ~(_lane_bits(found[:SLOTS]) | (_lane_bits(found[SLOTS:]) << np.uint8(4)))
    rare = _rare_choices(config, games, held_by, simple, distinct)
    simple_count = np.bitwise_count(simple).astype(np.int16)
    rare_count = np.zeros(card.shape, dtype=np.int16)
    for choice in rare:
        rare_count[choice.rows] = choice.count
    used = simple_count + rare_count
    forfeit = select(card == 11, (simple & np.uint8(15)) == 0, used == 0) & (card != 0)
    total = used + forfeit
    pick = (bits % np.maximum(total, 1).astype(np.uint32)).astype(np.int16) - forfeit
    # lane 0 is the pass, then the simple lanes (MOVE, BACK1), then the rare card's
    index = simple.astype(np.int32) * 8 + np.clip(pick, 0, 7)
    actions = (MOVE_LANE + np.take(_NTH_BIT, index)) * (pick >= 0)
    for choice in rare:
        beyond = pick.take(choice.rows) - simple_count.take(choice.rows)
        chosen = choice.lane(beyond)
        actions[choice.rows] = select(beyond >= 0, chosen, actions.take(choice.rows))
    return actions * (card != 0)


class _RareChoice(NamedTuple):
    """NumPy's random player with a rare card: the games holding it, how many lanes of the
    card's own kind each has, and the lane numbered ``pick`` (0 <= pick < count) of each
    (any lane where pick is out of range: it is not used)."""

    rows: Array
    count: Array
    lane: Callable[[Array], Array]


def _rare_choices(
    config: Config, games: Games, held_by: list[Array], simple: Array, distinct: bool = True
) -> list[_RareChoice]:
    """The rare cards' lanes (``held_by``: the games holding each) as bit masks, counted
    and numbered without building them; with ``distinct``, the lowest lane of each outcome
    only: the lanes of a 7 or an 11 that end as a lower one does are left out, its MOVE
    lanes' bits cleared from ``simple`` (:func:`distinct_lanes`)."""
    table = tables(config)
    choices = []
    for (_, _, name), rows in zip(_RARE, held_by, strict=True):
        if not rows.size:
            continue
        held = np.take(games.pawns, rows, axis=-1)
        if name == "sorry":
            theirs = _bit_mask(_on_track(held[1:]).reshape((-1, rows.size)))  # bit 4 (o - 1) + s
            targets = np.bitwise_count(theirs).astype(np.int16)
            choices.append(_RareChoice(rows, targets * any0(held[0] == START), functools.partial(_sorry_lane, theirs)))
            continue
        sides = _sides(config, games.turn.take(rows)) if distinct else None
        if name == "split":
            masks = _split_masks(table, held[0])
            some = np.flatnonzero(masks.any(axis=0)) if distinct else rows[:0]  # games with a split
            if some.size and sides is not None:
                move = _unpacked(simple.take(rows[some]))
                pawns, card = held[..., some], games.card.take(rows[some])
                found = _seven_found(table, pawns, sides[:, some], card, move, masks[:, some])
                masks[:, some] &= ~_split_masks_of(found[SLOTS:])
                simple[rows[some]] &= ~_lane_bits(found[:SLOTS])
            choices.append(_masks_choice(masks, rows, SPLIT, SPLIT_COUNTS, _nth_bit_8))
            continue
        targets = _padded(_on_track(held[1:]), 0, config.players).reshape((-1, rows.size))
        switch = (_on_track(held[0])[:, None] & targets[None]).reshape((-1, rows.size))
        some = np.flatnonzero(_sliding_switches(config, held, sides, switch)) if sides is not None else rows[:0]
        if some.size and sides is not None:
            move = _unpacked(simple.take(rows[some]))
            pawns, card = held[..., some], games.card.take(rows[some])
            found = _eleven_found(table, pawns, sides[:, some], card, ~any0(move)[None], move, switch[:, some])
            switch[:, some] &= ~found[BACK1_LANE:]
            simple[rows[some]] &= ~_lane_bits(found[MOVE_LANE:BACK1_LANE])
        kept = switch.reshape((SLOTS, OPPONENTS * SLOTS, rows.size))
        masks = np.stack([_bit_mask(kept[slot]) for slot in range(SLOTS)])
        choices.append(_masks_choice(masks, rows, SWITCH, OPPONENTS * SLOTS, _nth_bit))
    return choices


def _sorry_lane(targets: Array, pick: Array) -> Array:
    """A Sorry!'s lane onto its target number ``pick`` (``targets``: their bits)."""
    return SORRY_LANE + _nth_bit(targets, pick)


def _bit_mask(flags: Array) -> Array:
    """``(n, *batch)`` booleans (n <= 16) as the bits of one uint16 per game."""
    weights = column(1 << np.arange(flags.shape[0]), flags.ndim - 1, np.uint16)
    return (flags.view(np.uint8) * weights).sum(axis=0, dtype=np.uint16)


#: ``_NTH_BIT_12[bits * 12 + n]``: the position of set bit number n (from the lowest) of
#: 12-bit ``bits`` (0 if none).
_NTH_BIT_12: Final = np.array(
    [([bit for bit in range(12) if bits >> bit & 1] + [0] * 12)[n] for bits in range(1 << 12) for n in range(12)],
    dtype=np.int8,
)


def _nth_bit(bits: Array, nth: Array) -> Array:
    """The position of set bit number ``nth`` (from 0, from the lowest) of 12-bit ``bits``."""
    index = bits.astype(np.intp) * 12 + np.clip(nth, 0, 11)
    return _NTH_BIT_12.take(index).astype(np.int32)


def _nth_bit_8(bits: Array, nth: Array) -> Array:
    """The position of set bit number ``nth`` of 8-bit ``bits``."""
    return _NTH_BIT.take(bits.astype(np.int32) * 8 + np.clip(nth, 0, 7))


def _unpacked(bits: Array) -> Array:
    """``(4, n)``: the low four bits of ``bits`` (uint8: MOVE lanes, or BACK1 lanes shifted down)."""
    return ((bits[None] >> column(np.arange(SLOTS), 1, np.uint8)) & np.uint8(1)) != 0


def _masks_choice(
    masks: Array, rows: Array, first: int, width: int, nth: Callable[[Array, Array], Array]
) -> _RareChoice:
    """A rare card's lanes from their masks, group by group in action order: bit b of
    ``masks[g]`` is lane ``first + width g + b`` (``nth``: the position of a mask's set bit
    of a rank)."""
    counts = np.bitwise_count(masks).astype(np.int16)
    running = cumsum0(counts)  # lanes up to each group's, included

    def lane(pick: Array) -> Array:
        group = np.minimum(np.sum(running <= pick, axis=0, dtype=np.int16), I16(masks.shape[0] - 1))
        at = group.astype(np.intp) * rows.size + np.arange(rows.size)  # (group, game) in the masks
        rank = pick - running.ravel().take(at) + counts.ravel().take(at)
        return first + width * group.astype(np.int32) + nth(masks.ravel().take(at), rank)

    return _RareChoice(rows, running[-1], lane)
