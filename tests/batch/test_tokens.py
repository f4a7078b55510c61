"""Fire and Ice in the batch engine: the Ice put by a 1 and the squares it blocks, the Fire put
by a 2, its jump before the draw and the pawn it sends Home; positions of every kind against the
core's moves."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from batch_positions import positions, random_positions
from pardon.batch import verify
from pardon.batch.config import BEFORE_DRAW, CARD_STAGE, FIRE, ICE, STAGE
from pardon.batch.convert import core_state, move_key, outcomes
from pardon.batch.doubling import choice_counter
from pardon.batch.engine import (
    STREAM_CHOICE,
    Config,
    Games,
    choose_uniform,
    distinct_lanes,
    legal_lanes,
    random_bits,
    random_moves,
    step,
)
from pardon.batch.observe import TOKENS, features, observe
from pardon.batch.tokens import (
    BONUS_BLOCK,
    FIRE_BLOCK,
    FIRE_JUMP,
    GO_ON,
    ICE_BLOCK,
    MOVES,
    TOKEN_ACTIONS,
    describe_token_action,
    fire_jump,
)
from pardon.cli import main
from pardon.core.turn import legal_moves

CONFIG = Config.parse("modern", 2)
START, HOME = 66, 0


def with_tokens(games: Games, ice: int = -1, fire: int = -1, stage: int = CARD_STAGE) -> Games:
    """``games`` with the Ice and the Fire on the pawns ``4 * seat + slot`` (-1: the centre)."""
    extras = games.extras.copy()
    extras[ICE], extras[FIRE], extras[STAGE] = ice, fire, stage
    return games._replace(extras=extras)


def legal(games: Games, game: int = 0) -> list[int]:
    return np.flatnonzero(legal_lanes(CONFIG, games)[:, game]).tolist()


def assert_as_core(config: Config, games: Games) -> None:
    """In every game, the legal lanes make the core's moves, one distinct lane for each."""
    lanes = legal_lanes(config, games)
    found = outcomes(config, games, lanes)
    kept = distinct_lanes(config, games, lanes)
    assert np.array_equal(kept, verify.lowest_of_each_outcome(found, lanes.shape))
    for index in range(games.card.shape[0]):
        moves = legal_moves(config.rules, core_state(config, games, index))
        assert {key for (row, _), key in found.items() if row == index} == {move_key(config, m) for m in moves}
        assert int(kept[:, index].sum()) == len(moves)


def test_the_actions_name_the_tokens() -> None:
    assert CONFIG.actions == TOKEN_ACTIONS == 1107
    assert describe_token_action(FIRE_BLOCK + 5 * 1 + 0) == "put the Fire on slot 1, then: pass"
    assert describe_token_action(BONUS_BLOCK + 4 * 3 + 2) == "move slot 2; then slot 2 straight Home"
    assert describe_token_action(GO_ON) == "go on to the draw"
    assert describe_token_action(FIRE_JUMP) == "move the Fire pawn to the next corner"
    with pytest.raises(ValueError, match="0 to 1106"):
        describe_token_action(TOKEN_ACTIONS)


def test_a_1_must_put_the_ice_on_an_opponent_on_the_track() -> None:
    games = positions(CONFIG, [[START, START, START, HOME], [40, 30, START, HOME]], card=1, copies=1)
    lanes = legal(games)
    assert lanes and all(ICE_BLOCK <= lane < FIRE_BLOCK for lane in lanes)  # no move without the Ice
    assert {(lane - ICE_BLOCK) // 5 for lane in lanes} == {0, 1}  # on Blue's slot 0 or slot 1
    assert_as_core(CONFIG, games)
    alone = with_tokens(positions(CONFIG, [[START, START, START, HOME], [START] * 3 + [HOME]], 1, 1), ice=4)
    after, _ = step(CONFIG, alone, np.array([legal(alone)[-1]], dtype=np.int32))
    assert int(after.extras[ICE, 0]) == -1  # nobody on the track: the Ice goes back to the centre


def test_the_iced_square_is_blocked_and_a_slide_leaves_the_iced_pawn() -> None:
    # Yellow's iced pawn on square 23 (Yellow's distance 15); Red's pawn five squares behind it
    games = positions(CONFIG, [[50, START, START, HOME], [15, START, START, HOME]], card=5, copies=1)
    games = with_tokens(games, ice=4)  # the Ice on Yellow's slot 0
    assert 1 not in legal(games)  # slot 0 forward 5 would land on it (the 5 may bring a pawn out)
    assert 1 in legal(with_tokens(games))  # without the Ice it lands there and bumps
    assert_as_core(CONFIG, games)


def test_the_fire_pawn_jumps_to_the_next_corner_before_the_draw() -> None:
    games = positions(CONFIG, [[40, START, START, HOME], [START] * 3 + [HOME]], card=0, copies=1)
    games = with_tokens(games, fire=0, stage=BEFORE_DRAW)
    able, slot, corner = fire_jump(CONFIG, games)
    assert bool(able[0]) and int(slot[0]) == 0 and int(corner[0]) < 40
    assert legal(games) == [GO_ON, FIRE_JUMP]
    after, _ = step(CONFIG, games, np.array([FIRE_JUMP], dtype=np.int32))
    assert int(after.pawns[0, 0, 0]) == int(corner[0]) and int(after.card[0]) > 0  # then the card is drawn
    assert int(after.extras[FIRE, 0]) == 0 and int(after.extras[STAGE, 0]) == CARD_STAGE


def test_the_fire_pawn_home_may_send_another_pawn_home() -> None:
    games = positions(CONFIG, [[3, 20, START, HOME], [START] * 3 + [HOME]], card=3, copies=1)
    games = with_tokens(games, fire=0)
    lanes = legal(games)
    bonus = [lane for lane in lanes if BONUS_BLOCK <= lane < GO_ON]
    assert bonus == [BONUS_BLOCK + 4 * 1 + 1]  # slot 0 forward 3 (Home), then slot 1 straight Home
    after, _ = step(CONFIG, games, np.array(bonus, dtype=np.int32))
    assert after.pawns[1, :2, 0].tolist() == [HOME, HOME] and int(after.extras[FIRE, 0]) == -1
    assert_as_core(CONFIG, games)


@pytest.mark.parametrize(("rules", "players"), [("modern", 2), ("modern", 4), ("classic(tokens=true)", 3)])
def test_one_lane_for_each_core_move_in_positions_of_every_kind(rules: str, players: int) -> None:
    config = Config.parse(rules, players)
    count = 500
    games = random_positions(config, count, seed=players)
    rng = np.random.default_rng(players)
    card = rng.choice(np.array([1, 1, 2, 2, 4, 7, 10, 11, 13, 3, 5, 12]), count).astype(np.int8)
    extras = games.extras.copy()
    for game in range(count):  # the Ice on a pawn of the track, the Fire on one out of Start and not Home
        for row, lowest, chance in ((ICE, 6, 0.6), (FIRE, 1, 0.6)):
            seats, slots = np.nonzero((games.pawns[..., game] >= lowest) & (games.pawns[..., game] < START))
            absolute = (seats + int(games.turn[game])) % players * 4 + slots
            absolute = absolute[absolute != extras[ICE, game]]
            if absolute.size and rng.random() < chance:
                extras[row, game] = absolute[rng.integers(0, absolute.size)]
    games = games._replace(card=card, extras=extras)
    assert_as_core(config, games)
    lanes = legal_lanes(config, games)
    bits = random_bits(games.seed, choice_counter(config, games), STREAM_CHOICE)
    expected = choose_uniform(distinct_lanes(config, games, lanes), bits)
    assert np.array_equal(random_moves(config, games), expected)
    assert lanes[ICE_BLOCK:FIRE_BLOCK].any() and lanes[FIRE_BLOCK:MOVES].any()


def test_the_observation_shows_the_tokens_and_the_environments_play_them() -> None:
    from pettingzoo.test import api_test

    from pardon.env.aec import SorryAECEnv

    games = with_tokens(positions(CONFIG, [[40, START, START, HOME], [30, START, START, HOME]], 5, 1), ice=4, fire=0)
    seen = observe(CONFIG, games)
    assert seen.shape == (1, features(CONFIG)) == (1, 1131)
    assert np.flatnonzero(seen[0, TOKENS]).tolist() == [4, 16]  # the Ice on Blue's slot 0, the Fire on Red's
    api_test(SorryAECEnv(rules="modern", players=2), num_cycles=300)


def test_pardon_sim_plays_fire_and_ice_with_the_batch_engine(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert main(["sim", "--engine", "batch", "--rules", "modern", "--games", "8", "--out", str(out)]) == 0
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines() if line]
    assert len(rows) == 8
    for row in rows:  # as the core counts them: the cards played, and every decision (the Fire's jumps too)
        assert sum(played for played, _ in row["cards"].values()) == row["draws"] <= row["turns"]
    assert any(row["turns"] > row["draws"] for row in rows)
