"""The partners' split 7 among any team pawns (partner_split=any) in the batch engine: made
part by part, each part legal only where the rest of the 7 can still be made, the turn kept
until the parts add up to 7; the random player uniform over whole moves as the core's; the
environments, the simulations and the conversion to the core's moves."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np

from batch_positions import positions
from pardon.batch.config import LEFT, MOVED, SPLITTING, STAGE, games_at
from pardon.batch.convert import action_of, core_position, core_state, move_key, position_key
from pardon.batch.engine import Config, Games, distinct_lanes, legal_lanes, random_moves, step
from pardon.batch.hands import describe_move
from pardon.batch.observe import SPLIT, features, observe
from pardon.batch.partners import PARTNERS
from pardon.batch.split_any import ANY_ACTIONS, FIRST_PART, describe_part, part_action, splitting
from pardon.cli import main
from pardon.core.turn import legal_moves
from pardon.env.aec import SorryAECEnv
from pardon.env.single import SorryEnv

CONFIG = Config.parse("partners(partner_split=any)")
START, HOME = 66, 0
NOBODY_OUT = [START] * 4
#: Red (seat 0) and Yellow (seat 2, its partner) have pawns out; Blue and Green none.
SPREAD = [[30, 50, START, START], NOBODY_OUT, [20, START, START, START], NOBODY_OUT]


def legal(games: Games, game: int = 0) -> list[int]:
    return np.flatnonzero(legal_lanes(CONFIG, games)[:, game]).tolist()


def core_keys(games: Games, game: int = 0) -> set[object]:
    return {move_key(CONFIG, move) for move in legal_moves(CONFIG.rules, core_state(CONFIG, games, game))}


def test_a_part_is_an_action_of_its_own_after_the_partners_474() -> None:
    assert CONFIG.actions == ANY_ACTIONS == 474 + 48 and FIRST_PART == 474
    assert describe_part(part_action(0, 1, 6)) == "part: slot 1 forward 6"
    assert describe_move(CONFIG, part_action(1, 3, 2)) == "part: partner's slot 3 forward 2"
    assert describe_move(CONFIG, PARTNERS + 1) == "partner's: move slot 0"
    assert features(CONFIG) == 1098 + 14


def test_a_split_of_three_parts_keeps_the_turn_and_the_7_until_it_adds_up() -> None:
    games = positions(CONFIG, SPREAD, 7, 1)
    lanes = legal(games)
    assert all(lane < 9 or lane >= PARTNERS for lane in lanes)  # no split of two pawns in one action
    assert part_action(0, 0, 2) in lanes and part_action(1, 0, 6) in lanes
    drawn = int(games.drawn[0])
    games, played = step(CONFIG, games, np.array([part_action(0, 0, 2)], dtype=np.int32), check=True)
    assert (int(games.turn[0]), int(games.card[0]), int(games.drawn[0])) == (0, 7, drawn)  # no card drawn
    assert int(played.card[0]) == 0 and not played.forfeit[0]  # the 7 counts once, on its last part
    assert (int(games.extras[STAGE, 0]), int(games.extras[LEFT, 0]), int(games.extras[MOVED, 0])) == (SPLITTING, 5, 1)
    lanes = legal(games)
    assert lanes and all(lane >= FIRST_PART for lane in lanes)  # only parts: no pass, no whole 7
    assert not any(part_action(0, 0, count) in lanes for count in range(1, 7))  # a pawn moves once
    assert part_action(0, 1, 6) not in lanes  # more than the 5 left
    seen = observe(CONFIG, games)[0, SPLIT]
    assert seen.tolist() == [0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0]  # 5 left (one-hot 1-6); Red's slot 0 moved
    assert position_key(core_position(CONFIG, games, 0))[0][0] == (30, 50, 66, 66)  # the core's: as it began
    games, _ = step(CONFIG, games, np.array([part_action(0, 1, 2)], dtype=np.int32), check=True)
    games, played = step(CONFIG, games, np.array([part_action(1, 0, 3)], dtype=np.int32), check=True)
    assert int(played.card[0]) == 7 and not splitting(games)[0]
    assert (int(games.turn[0]), int(games.drawn[0])) == (1, drawn + 1)  # Blue's turn, its card drawn
    pawns = position_key(core_position(CONFIG, games, 0))[0]
    assert pawns[0] == (28, 48, 66, 66) and pawns[2] == (17, 66, 66, 66)


def test_no_part_is_legal_where_the_rest_of_the_7_cannot_be_made() -> None:
    # Red 3 from Home and Yellow 2: five squares in all, no 7 to make
    games = positions(CONFIG, [[3, HOME, HOME, HOME], NOBODY_OUT, [2, HOME, HOME, HOME], NOBODY_OUT], 7, 1)
    assert legal(games) == [0]  # the pass
    assert len(core_keys(games)) == 1
    # Red 4 and Yellow 3: only Red 4 then Yellow 3, or Yellow 3 then Red 4; both Home, the team wins
    games = positions(CONFIG, [[4, HOME, HOME, HOME], NOBODY_OUT, [3, HOME, HOME, HOME], NOBODY_OUT], 7, 1)
    assert legal(games) == [part_action(0, 0, 4), part_action(1, 0, 3)]
    games, _ = step(CONFIG, games, np.array([part_action(1, 0, 3)], dtype=np.int32), check=True)
    assert legal(games) == [part_action(0, 0, 4)]
    games, _ = step(CONFIG, games, np.array([part_action(0, 0, 4)], dtype=np.int32), check=True)
    assert int(games.winner[0]) == 0


def test_whole_moves_are_the_cores_and_the_random_player_chooses_among_them_uniformly() -> None:
    copies = 1500
    start = positions(CONFIG, SPREAD, 7, copies)
    wanted = core_keys(start)
    games, active, finals = start, np.arange(copies), {}
    while active.size:  # each game's parts until its turn is over
        after, _ = step(CONFIG, games, random_moves(CONFIG, games), check=True)
        within = splitting(after)
        for game in np.flatnonzero(~within).tolist():
            finals[int(active[game])] = position_key(core_position(CONFIG, after, game))[0]
        games, active = games_at(after, np.flatnonzero(within)), active[within]
    seen = Counter(finals.values())
    assert set(seen) == {key[0] for key in wanted}  # every whole move, none other
    expected = copies / len(wanted)
    chi_square = sum((count - expected) ** 2 / expected for count in seen.values())
    assert len(wanted) > 20
    assert chi_square < len(wanted) + 6 * (2 * len(wanted)) ** 0.5  # uniform (a 6-sigma bound)
    lanes = distinct_lanes(CONFIG, start)[:, 0]
    assert lanes[FIRST_PART:].sum() == legal_lanes(CONFIG, start)[FIRST_PART:, 0].sum()  # every part offered


def test_a_core_split_is_played_part_by_part_through_action_of() -> None:
    games = positions(CONFIG, SPREAD, 7, 1)
    moves = legal_moves(CONFIG.rules, core_state(CONFIG, games, 0))
    split = max(moves, key=lambda move: len(move.actions))
    assert len(split.actions) >= 3
    for _ in range(len(split.actions)):
        action = action_of(CONFIG, games, 0, split)
        assert action >= FIRST_PART
        games, _ = step(CONFIG, games, np.array([action], dtype=np.int32), check=True)
    assert not splitting(games)[0]
    assert position_key(core_position(CONFIG, games, 0))[0] == split.result.pawns


def test_the_environments_and_the_simulations_play_it(tmp_path: Path) -> None:
    from pettingzoo.test import api_test

    api_test(SorryAECEnv(rules="partners(partner_split=any)", players=4), num_cycles=200)
    aec = SorryAECEnv(rules="partners(partner_split=any)", players=4, render_mode="ansi")
    aec.reset(seed=3)
    while True:  # the first agent's first part of a split: the board shows it made
        mask = aec.observe(aec.agent_selection)["action_mask"]
        parts = np.flatnonzero(mask[FIRST_PART:])
        if parts.size > 3:
            aec.step(FIRST_PART + int(parts[0]))
            break
        aec.step(int(np.flatnonzero(mask)[0]))
    shown = aec.render()
    assert shown is not None and "6 left of a split 7, part by part: part:" in shown
    env = SorryEnv(rules="partners(partner_split=any)", players=4, opponents="random")
    observation, _ = env.reset(seed=4)
    rng = np.random.default_rng(0)
    over, steps = False, 0
    while not over and steps < 2000:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, _, over, _, _ = env.step(action)
        steps += 1
    assert over
    out = tmp_path / "run"
    rules = "partners(partner_split=any)"
    assert main(["sim", "--engine", "batch", "--rules", rules, "--games", "6", "--out", str(out)]) == 0
    assert len((out / "games.jsonl").read_text().splitlines()) == 6


def test_with_doubling_a_split_is_made_at_the_card_and_checked_against_the_core() -> None:
    from pardon.batch.verify import cross_check

    config = Config.parse("partners(scoring=1939,doubling=true,partner_split=any)")
    assert config.actions == 522 + 4 and features(config) == 1098 + 10 + 14
    decisions = config.actions - 4  # go on, double, accept, drop out

    def going_on(config: Config, games: Games) -> np.ndarray:
        # random moves, but nobody doubles: long games, many 7s split
        actions = np.array(random_moves(config, games))
        lanes = legal_lanes(config, games)
        actions[lanes[decisions]] = decisions
        return actions

    report = cross_check(config, range(6), choose=going_on)
    assert report.games == 6 and report.decisions > 6 * 300
