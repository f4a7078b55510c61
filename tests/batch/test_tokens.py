"""Fire and Ice in the batch engine: the Ice put by a 1 and the squares it blocks, the Fire put
by a 2, its jump before the draw and the pawn it sends Home; positions of every kind against the
core's moves; with hands of five, the Fire pawn's jump comes before the hand is played; with
doubling, the jump and the double in either order, each once a turn."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from batch_positions import holding, positions, random_positions
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
from pardon.batch.hands import describe_move, hand_action
from pardon.batch.observe import TOKENS, features, observe
from pardon.batch.tokens import (
    BONUS_BLOCK,
    CARD_MOVES,
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


HANDS = Config.parse("modern(hand=5)", 2)


def test_with_hands_of_five_each_card_has_the_token_actions_then_the_two_decisions() -> None:
    assert HANDS.actions == 11 * CARD_MOVES + 2 == 12_157
    ice_then_move = hand_action(1, ICE_BLOCK + 5 * 2 + 1, CARD_MOVES)
    assert (
        describe_move(HANDS, ice_then_move) == "play a 1: put the Ice on slot 2 of the next player, then: move slot 0"
    )
    assert describe_move(HANDS, hand_action(12, 0, CARD_MOVES)) == "discard a 12"
    assert describe_move(HANDS, HANDS.actions - 2) == "go on to the draw"
    assert describe_move(HANDS, HANDS.actions - 1) == "move the Fire pawn to the next corner"


def test_with_hands_of_five_a_1_bringing_the_ice_back_frees_the_pawn_and_must_be_played() -> None:
    # Red's one pawn out is iced and Blue has none on the track: the 1 brings the Ice back to the
    # centre, then moves the pawn it freed; the 3, 4, 5 and 12 have no move
    games = positions(HANDS, [[40, HOME, HOME, HOME], [START, START, START, HOME]], card=0, copies=1)
    games = with_tokens(holding(HANDS, games, 0, [1, 3, 4, 5, 12]), ice=0)
    lanes = np.flatnonzero(legal_lanes(HANDS, games)[:, 0]).tolist()
    assert lanes == [hand_action(1, 1, CARD_MOVES)]  # slot 0 forward 1; no discard: the 1 must be played
    assert_as_core(HANDS, games)
    after, played = step(HANDS, games, np.array(lanes, dtype=np.int32), check=True)
    assert int(after.extras[ICE, 0]) == -1 and int(after.pawns[-1, 0, 0]) == 39 and int(played.card[0]) == 1


def test_with_hands_of_five_the_fire_pawn_jumps_before_a_card_is_played() -> None:
    games = positions(HANDS, [[40, START, START, HOME], [START, START, START, HOME]], card=0, copies=1)
    games = with_tokens(games, fire=0, stage=BEFORE_DRAW)
    assert np.flatnonzero(legal_lanes(HANDS, games)[:, 0]).tolist() == [HANDS.actions - 2, HANDS.actions - 1]
    assert_as_core(HANDS, games)
    corner = int(fire_jump(HANDS, games)[2][0])
    after, _ = step(HANDS, games, np.array([HANDS.actions - 1], dtype=np.int32), check=True)
    assert int(after.pawns[0, 0, 0]) == corner < 40 and int(after.extras[STAGE, 0]) == CARD_STAGE
    assert np.array_equal(after.hands, games.hands) and int(after.turn[0]) == 0  # the same player, the same hand
    assert legal_lanes(HANDS, after)[: HANDS.actions - 2, 0].any()


DOUBLING = Config.parse("modern(scoring=1939,doubling=true)", 2)


def decisions(games: Games) -> list[int]:
    return [int(lane) - DOUBLING.card_actions for lane in np.flatnonzero(legal_lanes(DOUBLING, games)[:, 0])]


def decided(games: Games, decision: int) -> Games:
    after, _ = step(DOUBLING, games, np.array([DOUBLING.card_actions + decision], dtype=np.int32), check=True)
    assert_as_core(DOUBLING, after)
    return after


def test_with_doubling_the_fire_pawn_may_move_before_or_after_a_double_once_each() -> None:
    from pardon.batch.doubling import ACCEPT, DOUBLE, FIRE_MOVE, GO_ON

    assert DOUBLING.actions == CARD_MOVES + 5 and features(DOUBLING) == 1098 + 10 + 33
    assert describe_move(DOUBLING, DOUBLING.card_actions + FIRE_MOVE) == "move the Fire pawn to the next corner"
    games = positions(DOUBLING, [[40, START, START, HOME], [30, START, START, HOME]], card=0, copies=1)
    games = with_tokens(games, fire=0, stage=BEFORE_DRAW)
    assert decisions(games) == [GO_ON, DOUBLE, FIRE_MOVE]
    assert_as_core(DOUBLING, games)
    jumped = decided(games, FIRE_MOVE)  # the jump first: the double is still to be made, not the jump
    assert int(jumped.pawns[0, 0, 0]) < 40 and decisions(jumped) == [GO_ON, DOUBLE]
    assert int(decided(decided(jumped, DOUBLE), ACCEPT).card[0]) > 0  # then the card is drawn
    accepted = decided(decided(games, DOUBLE), ACCEPT)  # the double first: then the jump, not a double
    assert int(accepted.card[0]) == 0 and decisions(accepted) == [GO_ON, FIRE_MOVE]
    after = decided(accepted, FIRE_MOVE)
    assert int(after.card[0]) > 0 and int(after.extras[STAGE, 0]) == CARD_STAGE
    seen = observe(DOUBLING, games)[0]
    assert np.flatnonzero(seen[1098 + 10 :]).tolist() == [16, 32]  # the Fire on Red's slot 0; before the draw


def test_with_doubling_long_games_replay_exactly_through_the_core() -> None:
    # random moves, a double now and then, always accepted: long games, Fire pawns moved before
    # and after doubles (random players drop out of half the doubles: such games end soon)
    from pardon.batch.doubling import ACCEPT, DOUBLE, FIRE_MOVE, GO_ON

    config = Config.parse("modern(scoring=1939,doubling=true)", 3)
    base = config.card_actions
    moved_after_double = 0

    def mostly_going_on(config: Config, games: Games) -> np.ndarray:
        nonlocal moved_after_double
        actions = np.array(random_moves(config, games))
        lanes = legal_lanes(config, games)
        now_and_then = (games.seed.astype(np.int64) + games.drawn) % 16 == 0
        actions[(actions == base + DOUBLE) & ~now_and_then] = base + GO_ON
        actions[lanes[base + ACCEPT]] = base + ACCEPT
        moved_after_double += int(((actions == base + FIRE_MOVE) & ~lanes[base + DOUBLE]).sum())
        return actions

    report = verify.cross_check(config, range(20), choose=mostly_going_on)
    assert report.games == report.scored == 20 and report.decisions > 20 * 100
    assert moved_after_double > 0
