"""The partners game in the batch engine: the team's pawns, the ruling on the player's own
pawns, the Sorry! on the partner, the split 7 across the team, the team's win; each position
also against the core's moves."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from batch_positions import positions, random_positions
from pardon.batch import verify
from pardon.batch.actions import MOVE, SORRY, SPLIT, SWITCH, switch_action
from pardon.batch.convert import core_state, move_key, outcomes
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
from pardon.batch.partners import (
    PARTNERS,
    TEAM_ACTIONS,
    TEAM_SPLITS,
    describe_team_action,
    mixed_split_action,
)
from pardon.cli import main
from pardon.core.turn import legal_moves
from pardon.env.aec import SorryAECEnv
from pardon.env.vector import SorryVectorEnv

CONFIG = Config.parse("partners")
START, HOME = 66, 0
#: Seats 0-3 are Red, Blue, Yellow, Green: Red's partner Yellow sits 2 seats on.
NOBODY_OUT = [START] * 4


def legal(games: Games) -> list[int]:
    return np.flatnonzero(legal_lanes(CONFIG, games)[:, 0]).tolist()


def assert_as_core(games: Games) -> None:
    """The batch's legal lanes make the core's moves, one distinct lane for each."""
    state = core_state(CONFIG, games, 0)
    core = {move_key(CONFIG, move) for move in legal_moves(CONFIG.rules, state)}
    found = outcomes(CONFIG, games)
    assert {key for (row, _), key in found.items() if row == 0} == core
    assert int(distinct_lanes(CONFIG, games)[:, 0].sum()) == len(core)


def test_the_actions_name_the_partners_pawns_and_the_splits_across_the_team() -> None:
    assert CONFIG.actions == TEAM_ACTIONS == 474
    assert describe_team_action(MOVE + 1) == "move slot 1"
    assert describe_team_action(PARTNERS + MOVE + 3) == "partner's: move slot 3"
    said = "split: partner's slot 2 forward 4, then slot 0 forward 3"
    assert describe_team_action(mixed_split_action(1, 2, 4, 0)) == said
    assert len(TEAM_SPLITS) == 8 * 7 * 6 and len(set(TEAM_SPLITS[:, 0].tolist())) == 336
    with pytest.raises(ValueError, match="0 to 473"):
        describe_team_action(474)


def test_the_partners_pawn_may_not_land_on_the_players_but_the_player_may_bump_the_partner() -> None:
    # Red at distance 40 (square 28); Yellow at 15 (square 23): Yellow's 5 would land on Red
    games = positions(CONFIG, [[40, START, START, START], NOBODY_OUT, [15, START, START, START], NOBODY_OUT], 5, 1)
    assert PARTNERS + MOVE + 0 not in legal(games)
    assert MOVE + 0 in legal(games)
    assert_as_core(games)
    # Red at 45 (square 23), Yellow at 10 (square 28): Red's 5 lands on Yellow and bumps it
    games = positions(CONFIG, [[45, START, START, START], NOBODY_OUT, [10, START, START, START], NOBODY_OUT], 5, 1)
    assert MOVE + 0 in legal(games)
    after, played = step(CONFIG, games, np.array([MOVE + 0], dtype=np.int32))
    assert int(played.bumps[0]) == 1
    assert sorted(after.pawns[1, :, 0].tolist()) == [START] * 4  # Yellow, now 1 seat after Blue's turn
    assert_as_core(games)


def test_a_sorry_lands_on_the_partner_only_when_no_opponent_can_be_hit() -> None:
    rows = [[START] * 4, NOBODY_OUT, [20, 30, START, START], NOBODY_OUT]
    games = positions(CONFIG, rows, 13, 1)
    on_partner = [SORRY + 4, SORRY + 5]  # Red's Sorry! on Yellow's slots 0 and 1
    assert legal(games) == on_partner
    assert_as_core(games)
    rows[1] = [40, START, START, START]  # a Blue pawn on the track: only Blue may be hit
    games = positions(CONFIG, rows, 13, 1)
    assert SORRY + 0 in legal(games) and not set(on_partner) & set(legal(games))
    assert_as_core(games)


def test_an_11_switches_a_team_pawn_only_with_an_opponents() -> None:
    rows = [[40, START, START, START], [30, START, START, START], [20, START, START, START], [50, START, START, START]]
    games = positions(CONFIG, rows, 11, 1)
    lanes = legal(games)
    assert switch_action(0, 1, 0) in lanes and switch_action(0, 3, 0) in lanes  # Red with Blue, with Green
    assert switch_action(0, 2, 0) not in lanes  # never with Yellow
    assert PARTNERS + switch_action(0, 1, 0) in lanes  # Yellow with Green (1 seat after Yellow)
    assert PARTNERS + switch_action(0, 2, 0) not in lanes  # never with Red
    assert_as_core(games)


def test_a_split_7_across_the_team_is_legal_part_by_part() -> None:
    # Red at 43 (square 25), Yellow at 14 (square 24): Red forward 3 and Yellow forward 4
    # both reach square 28.  Red first: Yellow would land on Red (not allowed); Yellow first:
    # Red lands on Yellow and bumps it.
    rows = [[43, START, START, START], NOBODY_OUT, [14, START, START, START], NOBODY_OUT]
    games = positions(CONFIG, rows, 7, 1)
    red_first, yellow_first = mixed_split_action(0, 0, 3, 0), mixed_split_action(1, 0, 4, 0)
    assert red_first not in legal(games)
    assert yellow_first in legal(games)
    _, played = step(CONFIG, games, np.array([yellow_first], dtype=np.int32))
    assert int(played.bumps[0]) == 1
    assert_as_core(games)
    splits = [lane for lane in legal(games) if SPLIT <= lane < SWITCH or lane >= 2 * PARTNERS]
    assert splits and all(lane >= 2 * PARTNERS for lane in splits)  # one pawn each: only mixed splits


def test_the_team_wins_together_and_a_player_home_plays_on_for_the_team() -> None:
    rows = [[HOME] * 4, NOBODY_OUT, [3, HOME, HOME, HOME], NOBODY_OUT]
    games = positions(CONFIG, rows, 3, 1)
    assert legal(games) == [PARTNERS + MOVE + 0]  # Red's pawns are Home: it moves Yellow's
    assert_as_core(games)
    after, _ = step(CONFIG, games, np.array([PARTNERS + MOVE + 0], dtype=np.int32))
    assert int(after.winner[0]) == 0  # the team is Home: the mover, Red, wins for it
    games = positions(CONFIG, [[HOME] * 4, NOBODY_OUT, [10, HOME, HOME, HOME], NOBODY_OUT], 3, 1)
    after, _ = step(CONFIG, games, np.array([PARTNERS + MOVE + 0], dtype=np.int32))
    assert int(after.winner[0]) == -1 and int(after.turn[0]) == 1  # Red Home alone: play goes on


@pytest.mark.parametrize("rules", ["partners", "modern-no-tokens(partners=true)"])
def test_one_lane_for_each_core_move_in_positions_of_every_kind(rules: str) -> None:
    config = Config.parse(rules)
    count = 800
    games = random_positions(config, count, seed=11)
    lanes = legal_lanes(config, games)
    found = outcomes(config, games, lanes)
    wanted = verify.lowest_of_each_outcome(found, lanes.shape)
    assert np.array_equal(distinct_lanes(config, games), wanted)
    for index in range(count):
        moves = legal_moves(config.rules, core_state(config, games, index))
        assert {key for (row, _), key in found.items() if row == index} == {move_key(config, m) for m in moves}
        assert wanted[:, index].sum() == len(moves)
    expected = choose_uniform(wanted, random_bits(games.seed, games.drawn, STREAM_CHOICE))
    assert np.array_equal(random_moves(config, games), expected)
    assert (lanes[2 * PARTNERS :].any(axis=0)).any()  # splits across the team were among them


def test_both_partners_are_rewarded_for_the_teams_win() -> None:
    env = SorryAECEnv(rules="partners", players=4)
    env.reset(seed=5)
    while not any(env.terminations.values()):
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[-1]))
    rewards = env.rewards
    agents = env.possible_agents
    assert rewards[agents[0]] == rewards[agents[2]] == -rewards[agents[1]] == -rewards[agents[3]]
    vector = SorryVectorEnv(rules="partners", players=4, num_envs=8, opponent="random")
    observation, _ = vector.reset(seed=3)
    rewards_seen: list[float] = []
    while len(rewards_seen) < 8:
        actions = np.array([np.flatnonzero(mask)[0] for mask in observation["action_mask"]])
        observation, reward, over, _, info = vector.step(actions)
        rewards_seen += reward[over].tolist()
        if not over.any():
            continue
        for won, winner in zip(reward[over], info["final_info"]["winner"][over], strict=True):
            assert (won > 0) == (int(winner) % 2 == 0)  # seat 0 wins with seat 2


def test_pardon_sim_plays_partners_with_the_batch_engine(tmp_path: Path) -> None:
    out = tmp_path / "run"
    assert main(["sim", "--engine", "batch", "--rules", "partners", "--games", "12", "--out", str(out)]) == 0
    rows = [line for line in (out / "games.jsonl").read_text().splitlines() if line]
    assert len(rows) == 12


def test_partners_with_hands_of_five_play_a_card_of_the_hand_for_the_team() -> None:
    from pardon.batch.hands import describe_hand_action, hand_action

    config = Config.parse("partners(hand=5)")
    assert config.actions == 11 * 474
    split = hand_action(7, 282 + 24 * 1 + 6 * 2 + 3, 474)
    assert describe_hand_action(split, partners=True) == (
        "play a 7: split: slot 1 forward 4, then partner's slot 2 forward 3"
    )
    vector = SorryVectorEnv(rules="partners(hand=5)", players=4, num_envs=4, opponent="random")
    observation, _ = vector.reset(seed=1)
    for _ in range(30):  # the learner plays its first card each turn, the others theirs
        masks = observation["action_mask"]
        assert masks.shape == (4, config.actions) and (masks.sum(axis=1) > 0).all()
        observation, *_ = vector.step(np.array([np.flatnonzero(mask)[0] for mask in masks]))
