"""The batch's random player chooses as the core's does: uniformly among distinct moves, one
lane for each outcome (pardon.batch.engine.distinct_lanes), however many lanes make it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from batch_positions import positions, random_positions
from pardon.batch import verify
from pardon.batch.actions import ACTIONS, MOVE, SPLIT, SWITCH
from pardon.batch.convert import core_state, outcomes
from pardon.batch.engine import (
    STREAM_CHOICE,
    Config,
    Games,
    choose_uniform,
    distinct_lanes,
    legal_lanes,
    random_bits,
    random_moves,
)
from pardon.core.turn import legal_moves


def lowest_of_each_outcome(config: Config, games: Games) -> np.ndarray:
    """The lanes the random player must choose among, found by playing every legal lane."""
    lanes = legal_lanes(config, games)
    return verify.lowest_of_each_outcome(outcomes(config, games, lanes), lanes.shape)


def test_leaving_start_is_one_move_however_many_pawns_are_in_start() -> None:
    # three pawns in Start and a 1: four legal lanes (each Start pawn's, and the pawn on the
    # track's), two moves; the old random player left Start three times in four
    config = Config.parse("classic", 2)
    games = positions(config, [[66, 66, 66, 30], [66, 66, 66, 66]], card=1, copies=4000)
    assert np.flatnonzero(legal_lanes(config, games)[:, 0]).tolist() == [MOVE, MOVE + 1, MOVE + 2, MOVE + 3]
    assert np.flatnonzero(distinct_lanes(config, games)[:, 0]).tolist() == [MOVE, MOVE + 3]
    assert len(legal_moves(config.rules, core_state(config, games, 0))) == 2
    actions = random_moves(config, games)
    assert set(actions.tolist()) == {MOVE, MOVE + 3}
    leaving = float(np.mean(actions == MOVE))
    assert abs(leaving - 0.5) < 0.04  # 4,000 choices: a standard deviation is 0.008


def test_pawns_taken_back_4_where_they_stood_are_one_move() -> None:
    # two pawns at the ends of long slides, nothing on the slides: each 4 backward lands on
    # the triangle and slides back where it stood, both leaving the position as it was
    config = Config.parse("classic", 2)
    games = positions(config, [[40, 25, 66, 66], [66, 66, 66, 66]], card=4, copies=1)
    assert legal_lanes(config, games)[MOVE : MOVE + 2, 0].all()
    assert np.flatnonzero(distinct_lanes(config, games)[:, 0]).tolist() == [MOVE]
    assert len(legal_moves(config.rules, core_state(config, games, 0))) == 1


def test_a_switch_that_ends_as_a_move_is_the_move() -> None:
    # 2013 rules: switching with the pawn on 41 sends it round its own slide onto its partner,
    # which goes to Start: the same position as going forward 11 and bumping it
    config = Config.parse("modern-no-tokens", 4)
    rows = [[52, 66, 66, 0], [66, 64, 56, 0], [45, 66, 66, 0], [57, 4, 66, 0]]
    games = positions(config, rows, card=11, copies=1, turn=3)
    lanes = legal_lanes(config, games)
    assert lanes[MOVE, 0] and lanes[SWITCH + 2, 0]
    kept = distinct_lanes(config, games)
    assert kept[MOVE, 0] and not kept[SWITCH + 2, 0]
    assert kept[:, 0].sum() == len(legal_moves(config.rules, core_state(config, games, 0)))


def test_the_random_choice_is_uniform_over_the_distinct_outcomes_of_a_7() -> None:
    # three pawns that can split a 7 many ways: many pairs of split lanes end alike
    config = Config.parse("classic", 2)
    copies = 12_000
    games = positions(config, [[20, 23, 40, 66], [66, 66, 66, 66]], card=7, copies=copies)
    lanes, kept = legal_lanes(config, games), distinct_lanes(config, games)
    moves = len(legal_moves(config.rules, core_state(config, games, 0)))
    assert kept[:, 0].sum() == moves < lanes[:, 0].sum()
    first = Games(*(field[..., :5] for field in games))
    assert np.array_equal(kept[:, :5], lowest_of_each_outcome(config, first))
    found = outcomes(config, games, kept)
    chosen = Counter(found[row, int(action)] for row, action in enumerate(random_moves(config, games)))
    assert len(chosen) == moves
    share = np.array(list(chosen.values())) / copies
    spread = np.sqrt((1 / moves) * (1 - 1 / moves) / copies)
    assert np.abs(share - 1 / moves).max() < 5 * spread


@pytest.mark.parametrize(
    ("rules", "players"),
    [("classic", 4), ("modern-no-tokens", 2), ("classic(pawns=3,switched_opponent_slides=false)", 3), ("solo", 1)],
)
def test_one_lane_for_each_core_move_in_positions_of_every_kind(rules: str, players: int) -> None:
    config = Config.parse(rules, players)
    count = 1500
    games = random_positions(config, count, seed=players)
    wanted = lowest_of_each_outcome(config, games)
    assert np.array_equal(distinct_lanes(config, games), wanted)  # NumPy's own way
    square = Games(*(np.asarray(field).reshape((*field.shape[:-1], 30, 50)) for field in games))
    assert np.array_equal(distinct_lanes(config, square).reshape((ACTIONS, count)), wanted)  # JAX's way
    for index in range(count):
        assert wanted[:, index].sum() == len(legal_moves(config.rules, core_state(config, games, index)))
    expected = choose_uniform(wanted, random_bits(games.seed, games.drawn, STREAM_CHOICE))
    assert np.array_equal(random_moves(config, games), expected)
    assert np.array_equal(random_moves(config, square).reshape(count), expected)
    assert (wanted[SPLIT:SWITCH].sum(axis=0) < legal_lanes(config, games)[SPLIT:SWITCH].sum(axis=0)).any()
