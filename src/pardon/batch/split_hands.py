"""The partners' split 7 among any team pawns (:mod:`pardon.batch.split_any`) played from a
hand of five (:mod:`pardon.batch.hands`): the 7's block of the hand's actions holds its parts,
the 7 stays in the hand while its split is made and leaves it once the split is whole, and a
player chooses among the **whole moves** of the turn: each distinct move of the other cards
(and any discard), then each whole move of the 7 (a move of one pawn, or a whole split),
which it then follows part by part, as without hands.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games, random_moves, step
>>> config = Config.parse("partners(hand=5,partner_split=any)")
>>> games = new_games(config, np.arange(4, dtype=np.uint32))
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_moves(config, games), check=True)
>>> config.actions, bool((games.winner >= 0).all())  # 11 blocks of 522; every game played out
(5742, True)
"""

from __future__ import annotations

import functools
from typing import Final, NamedTuple

import numpy as np

from pardon.batch.config import CARD_STAGE, SPLITTING, STAGE, Config, Games, games_at
from pardon.batch.distinct import position_keys
from pardon.batch.split_any import (
    ANY_ACTIONS,
    FIRST_PART,
    Pick,
    follow_whole_move,
    whole_moves,
    with_seven,
)
from pardon.core.cards import CARDS
from pardon.core.kernel import SPLIT_CARD

#: The 7's block of a hand's actions.
SEVEN: Final = slice(CARDS.index(SPLIT_CARD) * ANY_ACTIONS, (CARDS.index(SPLIT_CARD) + 1) * ANY_ACTIONS)


class HandMoves(NamedTuple):
    """Each game's whole moves from the turn's start, game by game: the distinct lanes of the
    hand but the 7's moves (its discard kept), in lane order, then the 7's whole moves: the game,
    the first action, whether it is the 7's, and the position's keys and pawns after it."""

    row: np.ndarray
    first: np.ndarray
    seven: np.ndarray
    keys: tuple[np.ndarray, np.ndarray]
    pawns: np.ndarray  # (players, 4, moves)


def part_actions() -> slice:
    """The hand's actions that are parts of a split 7: the 7's block from its first part."""
    return slice(SEVEN.start + FIRST_PART, SEVEN.stop)


def hand_whole_moves(config: Config, games: Games) -> HandMoves:
    """The whole moves of every game (NumPy, one axis) at the start of its turn's card."""
    from pardon.batch.hands import hand_distinct_lanes, play_from_hand

    lanes = np.array(hand_distinct_lanes(config, games), copy=True)
    usable = lanes[SEVEN.start + 1 : SEVEN.stop].any(axis=0)  # the 7 moves: its whole moves instead
    lanes[SEVEN.start + 1 : SEVEN.stop] = False
    row, lane = (np.asarray(found) for found in np.nonzero(lanes.T))  # game by game, in lane order
    after, _ = play_from_hand(config, games_at(games, row), lane.astype(np.int32), advance=False)
    rows = np.flatnonzero(usable)
    sevens = whole_moves(config, with_seven(games_at(games, rows)), np.arange(rows.size))
    found_row = np.concatenate([row, rows[sevens.row]])
    first = np.concatenate([lane, SEVEN.start + sevens.first])
    seven = np.concatenate([np.zeros(row.size, dtype=bool), np.ones(sevens.row.size, dtype=bool)])
    pawns = np.concatenate([np.asarray(after.pawns), sevens.pawns], axis=-1)
    high, low = position_keys(pawns)
    order = np.argsort(found_row, kind="stable")  # each game's moves together, the 7's last
    return HandMoves(found_row[order], first[order], seven[order], (high[order], low[order]), pawns[..., order])


def hand_toward_whole_move(config: Config, games: Games, actions: np.ndarray, pick: Pick) -> np.ndarray:
    """``actions`` with a player's choice where a game is at its card: ``pick(moves, rows,
    offsets, counts)`` names one of each game's whole moves of the turn's start
    (:func:`hand_whole_moves`), and its first action is played, or in a split being made the
    lowest part that can still make it (a split begun toward another move: one it can make)."""
    stage = np.asarray(games.extras[STAGE])
    rows = np.flatnonzero(((stage == CARD_STAGE) | (stage == SPLITTING)) & (np.asarray(games.winner) < 0))
    if not rows.size:
        return np.array(actions, copy=True)
    moves_of = functools.partial(hand_whole_moves, config)
    return follow_whole_move(config, games, actions, pick, rows, moves_of, SEVEN.start)


def random_hand_parts(config: Config, games: Games, bits: np.ndarray, actions: np.ndarray) -> np.ndarray:
    """``actions`` with the random player's choice where a game is at its card: the whole move
    numbered ``bits`` (modulo their number) among the turn's, then followed part by part."""

    def numbered(moves: HandMoves, rows: np.ndarray, offsets: np.ndarray, counts: np.ndarray) -> np.ndarray:
        numbers: np.ndarray = offsets + bits[rows].astype(np.int64) % np.maximum(counts, 1)
        return numbers

    return hand_toward_whole_move(config, games, actions, numbered)
