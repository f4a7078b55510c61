"""The partners' split 7 among any number of team pawns (``partner_split="any"``, P92/H05;
docs/rules.md: "Partners") in the batch engine, made part by part.

A split of up to seven parts has no fixed set of whole actions, so the player makes it one
part at a time, each part an action after the partners game's 474
(:mod:`pardon.batch.partners`):

=========  =====================================================================
474–521    PART: slot i of the player (member 0) or of the partner (member 1)
           forward k (1–6): ``474 + 24 m + 6 i + (k − 1)``
=========  =====================================================================

With a 7 the player moves one pawn 7 (the partners game's own lanes) or begins a split with
a part of 1–6; the turn then stays with the player, the 7 in hand, until the parts add up to
7 (the stage :data:`~pardon.batch.config.SPLITTING`: no card is drawn).  A part is legal when
it is legal as it is made (docs/rules.md: "The split 7"), on a pawn the split has not moved
yet, and the rest of the 7 can still be made after it: every legal part leads to a whole
split, so a split never leaves the 7 half used.  The partners game's lanes of a split of two
pawns are never legal under these rules: such a split is two parts.

``Games.extras`` keeps what the split has done (:data:`~pardon.batch.config.LEFT`,
:data:`~pardon.batch.config.MOVED`, :data:`~pardon.batch.config.BEFORE`): how much of the 7
is left, the pawns it moved (bit ``4 m + i``) and the pawns as they stood when it began,
which is the core's position until the split is whole (the core's move is the whole split).

Whole moves are found by :func:`search`: every split, state by state (the pawns, the pawns
moved, the count left), level by level, alike states merged.  The random player
(:func:`~pardon.batch.random_play.random_moves`) chooses uniformly among the whole moves of
the turn's start, as the core's ``random`` player does, and plays the parts of the one chosen:
its random bits stay the same until the 7 is used, and the pawns it began from are kept.

>>> import numpy as np
>>> from pardon.batch.engine import Config, legal_lanes, new_games, random_moves, step
>>> config = Config.parse("partners(partner_split=any)", 4)
>>> config.actions, describe_part(part_action(1, 2, 3))
(522, "part: partner's slot 2 forward 3")
>>> games = new_games(config, np.arange(4, dtype=np.uint32))
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_moves(config, games))
>>> [bool((games.pawns[[0, 2], :, game] == 0).all()) for game in range(4)]
[True, True, True, True]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple, Protocol

import numpy as np

from pardon.batch.actions import SLOTS
from pardon.batch.backend import Array
from pardon.batch.config import (
    BEFORE,
    CARD_STAGE,
    LEFT,
    MOVED,
    SPLITTING,
    STAGE,
    Config,
    Games,
    Played,
    Tables,
    games_at,
    numpy_only,
    one_axis,
    shaped,
    splits_any,
    tables,
)
from pardon.batch.distinct import position_keys
from pardon.batch.partners import (
    MIXED,
    PARTNER_SEAT,
    PARTNERS,
    TEAM_ACTIONS,
    _part,
    play_team,
    team_distinct_lanes,
    team_lanes,
)
from pardon.batch.squares import _sides
from pardon.core.board import HOME, START
from pardon.core.kernel import SPLIT_CARD

#: A part moves a pawn 1 to 6 (a whole 7 on one pawn is the card's own move).
PART_COUNTS: Final = SPLIT_CARD - 1
PARTS: Final = 2 * SLOTS * PART_COUNTS  # 48
FIRST_PART: Final = TEAM_ACTIONS  # 474
ANY_ACTIONS: Final = FIRST_PART + PARTS  # 522
#: Each part's member (0: the player, 1: the partner), slot, count and bit among the pawns moved.
PART_MEMBER: Final = np.repeat(np.arange(2), SLOTS * PART_COUNTS).astype(np.int8)
PART_SLOT: Final = np.tile(np.repeat(np.arange(SLOTS), PART_COUNTS), 2).astype(np.int8)
PART_COUNT: Final = np.tile(np.arange(1, PART_COUNTS + 1), 2 * SLOTS).astype(np.int8)
PART_BIT: Final = (1 << (PART_MEMBER.astype(np.int16) * SLOTS + PART_SLOT)).astype(np.int16)
_PART_SEAT: Final = (PART_MEMBER * PARTNER_SEAT).astype(np.intp)


def part_action(member: int, slot: int, count: int) -> int:
    """The part moving ``member``'s (0: the player, 1: the partner) pawn in ``slot`` forward ``count``."""
    return FIRST_PART + (member * SLOTS + slot) * PART_COUNTS + count - 1


def describe_part(action: int) -> str:
    """A part of a split 7 in words (slots, not squares)."""
    part = action - FIRST_PART
    whose = "partner's " if PART_MEMBER[part] else ""
    return f"part: {whose}slot {PART_SLOT[part]} forward {PART_COUNT[part]}"


def _no_two_pawn_splits() -> np.ndarray:
    """``(474,)``: the partners game's lanes less those of a split of two pawns."""
    from pardon.batch.actions import SPLIT, SWITCH

    kept = np.ones(TEAM_ACTIONS, dtype=bool)
    for block in (0, PARTNERS):
        kept[block + SPLIT : block + SWITCH] = False
    kept[MIXED:] = False
    return kept


_WHOLE_LANES: Final = _no_two_pawn_splits()


class Splits(NamedTuple):
    """The states of splits grown from roots (the first ``roots`` states), and the parts
    between them (edges, level by level)."""

    pawns: np.ndarray  # (players, 4, states) int8, as the roots' games see them
    moved: np.ndarray  # (states,) int16: the pawns the split has moved (bit 4 m + i)
    left: np.ndarray  # (states,) int8: the count left to move
    root: np.ndarray  # (states,) intp: the root each state grew from
    parent: np.ndarray  # (edges,) intp
    child: np.ndarray  # (edges,) intp
    part: np.ndarray  # (edges,) intp: 0–47
    levels: list[slice]  # the edges of each level, the roots' first


def search(table: Tables, pawns: np.ndarray, sides: np.ndarray, moved: np.ndarray, left: np.ndarray) -> Splits:
    """Every split from each root (``pawns`` ``(players, 4, n)``, ``sides`` ``(players, n)``,
    the pawns already ``moved`` and the count ``left``): each legal part of each state, made,
    its state merged with any alike of its level (the same pawns, pawns moved and count left:
    a level holds the states of as many parts, so alike states are of one level)."""
    count = left.size
    states_pawns, states_moved, states_left = [pawns], [moved.astype(np.int16)], [left.astype(np.int8)]
    states_root = [np.arange(count, dtype=np.intp)]
    parents: list[np.ndarray] = []
    children: list[np.ndarray] = []
    parts: list[np.ndarray] = []
    levels: list[slice] = []
    base, total, edges = 0, count, 0
    level_pawns, level_moved, level_left, level_root = pawns, states_moved[0], states_left[0], states_root[0]
    frontier = np.flatnonzero(level_left > 0)
    while frontier.size:
        origin = level_pawns[_PART_SEAT[:, None], PART_SLOT[:, None], frontier[None]]  # (48, F)
        open_ = (PART_COUNT[:, None] <= level_left[frontier][None]) & (
            (level_moved[frontier][None] & PART_BIT[:, None]) == 0
        )
        open_ &= (origin != HOME) & (origin != START) & (origin >= PART_COUNT[:, None])
        part_at, state_at = np.nonzero(open_)
        state = frontier[state_at]
        root = level_root[state]
        after, _, _, legal = _part(
            table,
            level_pawns[..., state],
            sides[:, root],
            PART_MEMBER[part_at],
            PART_SLOT[part_at],
            PART_COUNT[part_at],
            np.ones(state.size, dtype=bool),
        )
        part_at, state, root, after = part_at[legal], state[legal], root[legal], after[..., legal]
        if not state.size:
            break
        new_moved = level_moved[state] | PART_BIT[part_at]
        new_left = (level_left[state] - PART_COUNT[part_at]).astype(np.int8)
        unique, first, inverse = _merged(after, new_moved, new_left, root)
        parents.append(base + state)
        children.append(total + inverse)
        parts.append(part_at.astype(np.intp))
        levels.append(slice(edges, edges + state.size))
        edges += state.size
        level_pawns, level_moved, level_left, level_root = (
            after[..., first],
            new_moved[first],
            new_left[first],
            root[first],
        )
        states_pawns.append(level_pawns)
        states_moved.append(level_moved)
        states_left.append(level_left)
        states_root.append(level_root)
        base, total = total, total + unique
        frontier = np.flatnonzero(level_left > 0)
    return Splits(
        np.concatenate(states_pawns, axis=-1),
        np.concatenate(states_moved),
        np.concatenate(states_left),
        np.concatenate(states_root),
        np.concatenate(parents) if parents else _NONE,
        np.concatenate(children) if parents else _NONE,
        np.concatenate(parts) if parents else _NONE,
        levels,
    )


_NONE: Final = np.zeros(0, dtype=np.intp)


def _merged(
    pawns: np.ndarray, moved: np.ndarray, left: np.ndarray, root: np.ndarray
) -> tuple[int, np.ndarray, np.ndarray]:
    """How many distinct states a level's children are, the first child of each, and each
    child's distinct state."""
    count = left.size
    rows = np.empty((count, 32), dtype=np.uint8)
    flat = np.ascontiguousarray(pawns.reshape(-1, count).T).view(np.uint8)
    width = flat.shape[1]
    rows[:, :width] = flat
    rows[:, width:] = 0
    rows[:, 20:28] = root.astype(np.int64)[:, None].view(np.uint8)
    rows[:, 28:30] = moved.astype(np.int16)[:, None].view(np.uint8)
    rows[:, 30] = left.view(np.uint8)
    keys = rows.view(np.dtype((np.void, 32))).ravel()
    _, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    return first.size, first, inverse.reshape(-1)


def completable(splits: Splits) -> np.ndarray:
    """``(states,)``: whether each state leads to a whole split (its count is all moved, or
    a part from it leads to one)."""
    done: np.ndarray = splits.left == 0
    for level in reversed(splits.levels):
        child = splits.child[level]
        done[splits.parent[level][done[child]]] = True
    return done


def _first_parts(splits: Splits) -> np.ndarray:
    """``(states,)``: the lowest first part (0–47) of the paths from its root to each state
    (PARTS for a root)."""
    first = np.full(splits.left.size, PARTS, dtype=np.intp)
    for depth, level in enumerate(splits.levels):
        parent, child = splits.parent[level], splits.child[level]
        np.minimum.at(first, child, splits.part[level] if depth == 0 else first[parent])
    return first


def splitting(games: Games) -> np.ndarray:
    """Whether each game is in the middle of a split 7."""
    within: np.ndarray = np.asarray(games.extras[STAGE]) == SPLITTING
    return within


def in_split(config: Config, games: Games) -> bool:
    """Whether the first game of ``games`` is in the middle of a split 7 made part by part
    (never, under rules without one)."""
    if not splits_any(config.rules):
        return False
    return bool(np.asarray(splitting(games)).reshape(-1)[0])


def before_split(games: Games) -> np.ndarray:
    """``(players, 4, *batch)``: the pawns as each game's split began (its own where none is
    being made)."""
    packed = np.asarray(games.extras[BEFORE:]).astype(np.int16)
    unpacked = np.stack([packed % 128, packed // 128], axis=1).reshape((-1, *packed.shape[1:]))
    players = games.pawns.shape[0]
    kept = unpacked[: players * SLOTS].reshape(games.pawns.shape).astype(np.int8)
    return np.where(splitting(games)[None, None], kept, games.pawns)


def _packed(pawns: np.ndarray) -> np.ndarray:
    """``(8, n)`` int16: a game's pawns two to a number (as :func:`before_split` reads them)."""
    flat = pawns.reshape(-1, pawns.shape[-1]).astype(np.int16)
    flat = np.concatenate([flat, np.zeros((16 - flat.shape[0], flat.shape[1]), dtype=np.int16)])
    return flat[0::2] + flat[1::2] * np.int16(128)


def _roots(config: Config, games: Games, rows: np.ndarray) -> Splits:
    """The splits from where the games of ``rows`` stand (holding a 7, or in a split)."""
    extras = np.asarray(games.extras)[:, rows]
    within = extras[STAGE] == SPLITTING
    left = np.where(within, extras[LEFT], SPLIT_CARD).astype(np.int8)
    moved = np.where(within, extras[MOVED], 0).astype(np.int16)
    sides = _sides(config, np.asarray(games.turn)[rows])
    return search(tables(config), np.asarray(games.pawns)[..., rows], sides, moved, left)


def _part_lanes(splits: Splits, count: int) -> np.ndarray:
    """``(48, count)``: each root's parts that lead to a whole split."""
    lanes = np.zeros((PARTS, count), dtype=bool)
    if splits.levels:
        done = completable(splits)
        level = splits.levels[0]
        good = done[splits.child[level]]
        lanes[splits.part[level][good], splits.parent[level][good]] = True
    return lanes


def any_lanes(config: Config, games: Games, parts: bool = True) -> np.ndarray:
    """``(522, games)``: the legal actions of each game's player: the partners game's, less its
    splits of two pawns, and the parts of a split (only parts while one is being made).  With
    ``parts=False`` the games holding a 7 are left without their lanes (the random player
    chooses those itself: :func:`random_parts`), and no split is searched."""
    numpy_only(games, "the partners' split 7 among any team pawns")
    if games.card.ndim != 1:
        return any_lanes(config, one_axis(games), parts).reshape((ANY_ACTIONS, *games.card.shape))
    if not parts:
        lanes = np.zeros((ANY_ACTIONS, games.card.size), dtype=bool)
        others = np.flatnonzero(games.card != SPLIT_CARD)
        if others.size:
            lanes[:FIRST_PART, others] = team_lanes(config, games_at(games, others))
        return lanes
    whole = team_lanes(config, games) & _WHOLE_LANES[:, None]
    count = games.card.size
    within = splitting(games)
    sevens = (games.card == SPLIT_CARD) & (games.winner < 0)
    made = np.zeros((PARTS, count), dtype=bool)
    rows = np.flatnonzero(sevens)
    if rows.size:
        made[:, rows] = _part_lanes(_roots(config, games, rows), rows.size)
    whole[:, within] = False
    starting = sevens & ~within
    whole[0] = np.where(starting, ~(whole[1:].any(axis=0) | made.any(axis=0)), whole[0])
    return np.concatenate([whole, made])


def lanes_but_sevens(config: Config, games: Games) -> np.ndarray:
    """``(config.actions, games)``: the legal lanes of the turn (with doubling its decisions
    too), but none for the games holding a 7, whose parts are not searched: the players that
    choose a 7's whole move themselves (:func:`toward_whole_move`) take these for the rest."""
    lanes = any_lanes(config, games, parts=False)
    if not config.rules.doubling:
        return lanes
    from pardon.batch.doubling import doubling_lanes

    return np.asarray(doubling_lanes(config, games, lanes))


def any_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> np.ndarray:
    """``(522, games)``: the legal lanes (or ``lanes``), only the lowest of the moves of one
    pawn that make the same position, and every legal part (no two parts make the same state)."""
    if lanes is None:
        lanes = any_lanes(config, games)
    lanes = np.asarray(lanes)
    if games.card.ndim != 1:
        flat = lanes.reshape((ANY_ACTIONS, -1))
        return any_distinct_lanes(config, one_axis(games), flat).reshape(lanes.shape)
    head = team_distinct_lanes(config, games, lanes[:FIRST_PART])
    return np.concatenate([head, lanes[FIRST_PART:]])


def play_any(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action (0–521) played for its team: a part of a split moves its pawn and
    keeps the turn (and the 7) until the parts add up to 7; the rest as
    :func:`~pardon.batch.partners.play_team`.  A split's 7 counts as played once, on its last
    part (``Played.card`` is 0 on the others), its bumps and slides part by part."""
    from pardon.batch.play import _action_index, _advance

    numpy_only(games, "the partners' split 7 among any team pawns")
    index = _action_index(np, games.card, actions, ANY_ACTIONS)
    if games.card.ndim != 1:
        return shaped(*play_any(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    playing = games.winner < 0
    parts = (index >= FIRST_PART) & playing
    moved, played = play_team(config, games, np.where(parts, 0, index), advance=False)
    pawns, bumps, slides = np.array(moved.pawns), np.array(played.bumps), np.array(played.slides)
    extras = np.array(games.extras)
    rows = np.flatnonzero(parts)
    unfinished = np.zeros(index.shape, dtype=bool)
    if rows.size:
        part = index[rows] - FIRST_PART
        sides = _sides(config, games.turn[rows])
        made = _part(
            tables(config),
            games.pawns[..., rows],
            sides,
            PART_MEMBER[part],
            PART_SLOT[part],
            PART_COUNT[part],
            np.ones(rows.size, dtype=bool),
        )
        pawns[..., rows], bumps[rows], slides[rows] = made[:3]
        within = extras[STAGE, rows] == SPLITTING
        left = np.where(within, extras[LEFT, rows], SPLIT_CARD) - PART_COUNT[part]
        finished = left == 0
        extras[LEFT, rows] = left
        extras[MOVED, rows] = np.where(finished, 0, np.where(within, extras[MOVED, rows], 0) | PART_BIT[part])
        began = np.where(within[None], extras[BEFORE:, rows], _packed(games.pawns[..., rows]))
        extras[BEFORE:, rows] = np.where(finished[None], 0, began)
        extras[STAGE, rows] = np.where(finished, CARD_STAGE, SPLITTING)
        unfinished[rows] = ~finished
    card = np.where(unfinished, np.int8(0), played.card).astype(np.int8)
    played = Played(card, bumps, slides, played.forfeit & ~parts)
    after = games._replace(pawns=pawns, extras=extras)
    if not advance:
        return after, played
    again = np.asarray(games.card == 2) if tables(config).draw_again_on_2 else np.zeros_like(playing)
    advanced = _advance(config, after, playing & ~unfinished, again)
    kept_card: np.ndarray = np.where(unfinished, np.asarray(games.card), np.asarray(advanced.card))
    return advanced._replace(card=kept_card.astype(np.int8)), played


class WholeMoves(NamedTuple):
    """Each game's whole moves from the turn's start, in order (the lowest first action of
    each, then the position): the game, the first action, and the position's keys and pawns."""

    row: np.ndarray
    first: np.ndarray
    keys: tuple[np.ndarray, np.ndarray]
    pawns: np.ndarray  # (players, 4, moves)


def whole_moves(config: Config, games: Games, rows: np.ndarray) -> WholeMoves:
    """The whole moves of the games of ``rows`` (holding a 7) from where each stands: the
    moves of one pawn (at a turn's start) and every whole split.  The position is the pawns
    after it, turned as the mover sees them."""
    splits = _roots(config, games, rows)
    finals = np.flatnonzero(splits.left == 0)
    first = _first_parts(splits)[finals] + FIRST_PART
    found_rows, found_first, found_pawns = [splits.root[finals]], [first], [splits.pawns[..., finals]]
    within = splitting(games)[rows]
    if (~within).any():
        some = games_at(games, rows)
        whole = team_lanes(config, some) & _WHOLE_LANES[:, None]
        whole[:, within] = False
        whole[0] = False
        lane, at = np.nonzero(whole)
        if lane.size:
            after, _ = play_team(config, games_at(some, at), lane.astype(np.int32), advance=False)
            found_rows.append(at)
            found_first.append(lane.astype(np.intp))
            found_pawns.append(np.asarray(after.pawns))
    row = np.concatenate(found_rows)
    first_action = np.concatenate(found_first)
    pawns = np.concatenate(found_pawns, axis=-1)
    high, low = position_keys(pawns)
    if not row.size:
        return WholeMoves(row, first_action, (high, low), pawns)
    order = np.lexsort((first_action, low, high, row))  # alike positions together, the lowest first action first
    same = (
        (row[order][1:] == row[order][:-1])
        & (high[order][1:] == high[order][:-1])
        & (low[order][1:] == low[order][:-1])
    )
    kept = order[np.r_[True, ~same]]
    kept = kept[np.lexsort((low[kept], high[kept], first_action[kept], row[kept]))]
    return WholeMoves(row[kept], first_action[kept], (high[kept], low[kept]), pawns[..., kept])


def random_parts(config: Config, games: Games, bits: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """``actions`` with the random player's choice where a game holds a 7: the whole move
    numbered ``bits`` (modulo their number) among those of the turn's start (the pawns the
    split began from), and its next action (:func:`toward_whole_move`)."""

    def numbered(moves: WholeMoves, rows: np.ndarray, offsets: np.ndarray, counts: np.ndarray) -> np.ndarray:
        numbers: np.ndarray = offsets + bits[rows].astype(np.int64) % np.maximum(counts, 1)
        return numbers

    return toward_whole_move(config, games, actions, numbered)


class Moves(Protocol):
    """Whole moves as a player picks among them: each one's game (an index into the games
    asked about) and the pawns after it (:class:`WholeMoves`, or with hands of five
    :class:`~pardon.batch.split_hands.HandMoves`)."""

    @property
    def row(self) -> np.ndarray: ...

    @property
    def pawns(self) -> np.ndarray: ...


Pick = Callable[[Any, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def toward_whole_move(config: Config, games: Games, actions: np.ndarray, pick: Pick) -> np.ndarray:
    """``actions`` with a player's choice where a game holds a 7: ``pick(moves, rows, offsets,
    counts)`` names one of each game's whole moves of the turn's start (:func:`whole_moves`,
    those of ``rows[k]`` at ``offsets[k]`` on, ``counts[k]`` of them), and its next action is
    played: the move of one pawn, or the lowest part from where the game stands that can still
    make it.  Whatever the split has made so far, the same move is named, so a player follows
    one whole move part by part (a pass where a game has no move)."""
    rows = np.flatnonzero((np.asarray(games.card) == SPLIT_CARD) & (np.asarray(games.winner) < 0))
    if not rows.size:
        return actions
    every = np.arange(rows.size)
    return follow_whole_move(config, games, actions, pick, rows, lambda start: whole_moves(config, start, every))


def with_seven(games: Games) -> Games:
    """The games with the 7 as their card (a hand game's card is 0): the 7's own functions read it."""
    return games._replace(card=np.full(np.shape(games.card), SPLIT_CARD, dtype=np.int8))


def follow_whole_move(
    config: Config,
    games: Games,
    actions: np.ndarray,
    pick: Pick,
    rows: np.ndarray,
    moves_of: Callable[[Games], Any],
    offset: int = 0,
) -> np.ndarray:
    """``actions`` with a player's choice in the games ``rows``: ``pick`` names one of the
    whole moves ``moves_of`` lists from the turn's start (the games of ``rows`` put back
    there), and its first action is played (``offset`` on, where the 7's block begins), or
    in a split being made the lowest part that can still make it; a split begun toward
    another move: one it can make."""
    chosen = np.array(actions, copy=True)
    some = games_at(games, rows)
    start = some._replace(pawns=before_split(some), extras=_before_any_part(some.extras))
    moves = moves_of(start)
    if not moves.row.size:  # no whole move anywhere: each passes
        chosen[rows] = 0
        return chosen
    counts, pick_at = _picked(moves, rows, pick)
    within = splitting(some)
    chosen[rows] = np.where(within | (counts == 0), 0, moves.first[pick_at])
    inside = np.flatnonzero(within)
    if inside.size:  # the whole move picked is the 7's: the same bits, the same turn's start
        target = (moves.keys[0][pick_at][inside], moves.keys[1][pick_at][inside])
        sevens = with_seven(some)  # as the 7's own functions read them (a hand game's card is 0)
        part = _part_toward(config, sevens, inside, target)
        lost = part == PARTS  # a split begun toward another move: one it can still make
        if lost.any():
            astray = inside[lost]
            again = whole_moves(config, sevens, astray)
            _, at = _picked(again, rows[astray], pick)
            part[lost] = _part_toward(config, sevens, astray, (again.keys[0][at], again.keys[1][at]))
        chosen[rows[inside]] = offset + FIRST_PART + part
    return chosen


def _picked(moves: Moves, rows: np.ndarray, pick: Pick) -> tuple[np.ndarray, np.ndarray]:
    """How many whole moves each game of ``rows`` has, and the one ``pick`` names (an index
    into ``moves``)."""
    counts = np.bincount(moves.row, minlength=rows.size)
    offsets = np.concatenate([[0], np.cumsum(counts)[:-1]])
    return counts, np.minimum(pick(moves, rows, offsets, counts), moves.row.size - 1)


def _before_any_part(extras: np.ndarray) -> np.ndarray:
    """The extras of games put back at the start of their turn's card (no split begun)."""
    extras = np.array(extras, copy=True)
    extras[STAGE], extras[LEFT], extras[MOVED] = CARD_STAGE, 0, 0
    return extras


def _part_toward(config: Config, games: Games, rows: np.ndarray, target: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    """The lowest part (0–47) from where each game of ``rows`` stands that can still make the
    position ``target`` (its keys)."""
    splits = _roots(config, games, rows)
    finals = np.flatnonzero(splits.left == 0)
    high, low = position_keys(splits.pawns[..., finals])
    root = splits.root[finals]
    aimed = (high == target[0][root]) & (low == target[1][root])
    first = np.full(rows.size, PARTS, dtype=np.intp)  # PARTS: it cannot
    np.minimum.at(first, root[aimed], _first_parts(splits)[finals[aimed]])
    return first


def part_toward(config: Config, games: Games, index: int, pawns: np.ndarray) -> int | None:
    """The lowest part of game ``index`` (holding a 7) that can still make the position of
    ``pawns`` (``(players, 4)``, turned as the mover sees them), or None if none can."""
    part = int(_part_toward(config, games, np.array([index]), position_keys(pawns[..., None]))[0])
    return None if part == PARTS else FIRST_PART + part
