"""The environments: PettingZoo's API and seed tests, Gymnasium's checker, real games played
through each, and errors that change nothing."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from pardon.batch.observe import FEATURES, PAWNS
from pardon.core.errors import IllegalError, InvalidError
from pardon.core.jsonio import position_from_json
from pardon.env.aec import SorryAECEnv
from pardon.env.single import SorryEnv
from pardon.env.vector import SorryVectorEnv


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("classic", 4), ("modern-no-tokens", 3)])
@pytest.mark.filterwarnings("ignore:SorryAECEnv.reset reads no options")  # the test's own {"options": 1}
def test_aec_environment_passes_the_pettingzoo_api_test(rules: str, players: int) -> None:
    api_test(SorryAECEnv(rules=rules, players=players), num_cycles=300)


def test_aec_environment_is_deterministic_for_a_seed() -> None:
    seed_test(lambda: SorryAECEnv(players=3), num_cycles=300)


def play_aec(seed: int) -> list[tuple[str, int]]:
    game = SorryAECEnv(players=2)
    game.reset(seed=seed)
    rng = np.random.default_rng(0)
    trail = []
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            action = None
        else:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            trail.append((agent, action))
        game.step(action)
    return trail


def test_aec_games_repeat_with_their_seed_and_differ_between_seeds() -> None:
    assert play_aec(11) == play_aec(11)
    assert play_aec(11) != play_aec(12)


def test_aec_game_ends_with_rewards_and_the_json_position() -> None:
    game = SorryAECEnv(players=2, render_mode="ansi")
    game.reset(seed=4)
    rng = np.random.default_rng(1)
    totals = dict.fromkeys(game.possible_agents, 0.0)
    for agent in game.agent_iter():
        observation, reward, terminated, truncated, _ = game.last()
        totals[agent] += reward
        game.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert sorted(totals.values()) == [-1.0, 1.0]
    rules, position = (
        position_from_json(game.infos[game.possible_agents[0]]["position"]) if game.agents else (None, None)
    )
    del rules, position
    text = game.render()
    assert "has won" in text


def test_aec_observation_shows_the_position_from_each_agent() -> None:
    game = SorryAECEnv(players=2)
    game.reset(seed=2)
    mover = game.agent_selection
    other = next(agent for agent in game.agents if agent != mover)
    assert game.observe(mover)["action_mask"].sum() >= 1
    assert game.observe(other)["action_mask"].sum() == 0
    _, position = position_from_json(game.infos[mover]["position"])
    assert position.turn == game.possible_agents.index(mover) * 2  # red and yellow
    assert game.observe(mover)["observation"].shape == (FEATURES,)


def test_aec_illegal_action_is_refused_and_changes_nothing() -> None:
    game = SorryAECEnv()
    game.reset(seed=9)
    mask = game.observe(game.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    before = game.observe(game.agent_selection)["observation"].copy()
    with pytest.raises(IllegalError, match="legal actions"):
        game.step(illegal)
    assert np.array_equal(game.observe(game.agent_selection)["observation"], before)


def test_aec_refuses_rules_the_batch_does_not_play() -> None:
    with pytest.raises(InvalidError, match="Fire and Ice are not played with partners"):
        SorryAECEnv(rules="modern(partners=true)", players=4)


def test_the_environments_refuse_the_solo_challenge_which_has_no_one_to_win_against() -> None:
    for make in (SorryAECEnv, SorryEnv, lambda **options: SorryVectorEnv(4, **options)):
        with pytest.raises(InvalidError, match=r"solo challenge .* pardon sim"):
            make(rules="solo", players=1)


#: Every level of computer player, the searching ones on a small budget (the test's time).
LEVELS = ["random", "greedy", "tactician", "expectimax", "mcts(iterations=20)", "expert"]


@pytest.mark.parametrize("opponents", LEVELS)
def test_single_agent_environment_passes_gymnasiums_checker(opponents: str) -> None:
    check_env(SorryEnv(opponents=opponents, illegal="lose"), skip_render_check=True)


@pytest.mark.parametrize("opponents", LEVELS)
def test_single_agent_plays_against_every_level(opponents: str) -> None:
    # The searching levels (expectimax, mcts, expert) sample the unseen cards from what they
    # see, and were refused: the card drawn was not last on the discard pile the batch game
    # was turned into ("the card drawn must be the last card on the discard pile").
    environment = SorryEnv(players=3, seat=1, opponents=opponents)
    observation, _ = environment.reset(seed=4)
    for _ in range(30):
        observation, _, terminated, _, _ = environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
        if terminated:
            break
    assert observation["action_mask"].any() or terminated


def test_single_agent_plays_whole_games_against_computer_players() -> None:
    environment = SorryEnv(players=3, seat=1, opponents=["greedy", "random"])
    rng = np.random.default_rng(3)
    results = []
    for seed in range(4):
        observation, info = environment.reset(seed=seed)
        assert info["position"]["turn"] == "blue"
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
            observation, reward, terminated, truncated, info = environment.step(action)
            done = terminated or truncated
        results.append(reward)
    assert set(results) <= {-1.0, 1.0}
    assert info["position"]["winner"] in ("red", "blue", "yellow")


def test_single_agent_repeats_a_seeded_game() -> None:
    def trail(seed: int) -> list[float]:
        environment = SorryEnv(opponents="greedy")
        observation, _ = environment.reset(seed=seed)
        seen = []
        for _ in range(30):
            action = int(np.flatnonzero(observation["action_mask"])[-1])
            observation, reward, terminated, _, _ = environment.step(action)
            seen.append(float(observation["observation"][PAWNS].sum()) + reward)
            if terminated:
                break
        return seen

    assert trail(8) == trail(8)


def test_single_agent_errors() -> None:
    with pytest.raises(InvalidError, match="one for each other seat"):
        SorryEnv(players=3, opponents=["random"])
    with pytest.raises(InvalidError, match="unknown computer player"):
        SorryEnv(opponents="nobody")
    environment = SorryEnv()
    observation, _ = environment.reset(seed=1)
    with pytest.raises(IllegalError, match="not legal"):
        environment.step(int(np.flatnonzero(observation["action_mask"] == 0)[0]))


def test_vector_environment_plays_and_resets_games() -> None:
    env = SorryVectorEnv(64, opponent="random", seed=5)
    observation, _ = env.reset(seed=5)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(400):
        masks = observation["action_mask"]
        assert (masks.sum(axis=1) >= 1).all()
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in masks])
        observation, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        assert set(np.unique(reward[terminated])) <= {-1.0, 1.0}
        assert (reward[~terminated] == 0).all()
        if terminated.any():  # Gymnasium's convention: one entry a game, with its mask
            assert info["_final_obs"].tolist() == terminated.tolist()
            assert info["final_info"]["_winner"].tolist() == terminated.tolist()
            for row in range(64):
                final = info["final_obs"][row]
                assert (final is None) == (not terminated[row])
                if final is not None:
                    assert final["observation"].shape == (FEATURES,) and not final["action_mask"].any()
                    assert info["final_info"]["winner"][row] in (0, 1)
        finished += int(terminated.sum())
        assert (env.games.turn == 0).all()  # always the learner's decision
    assert finished > 64


def test_vector_environment_is_deterministic_and_refuses_illegal_actions() -> None:
    def run(seed: int) -> np.ndarray:
        env = SorryVectorEnv(8, opponent="greedy", skip_forced=True)
        observation, _ = env.reset(seed=seed)
        total = np.zeros(8)
        for _ in range(50):
            actions = observation["action_mask"].argmax(axis=1)
            observation, reward, _, _, _ = env.step(actions)
            total += reward
        return np.hstack([total, observation["observation"].sum(axis=1)])

    assert np.array_equal(run(3), run(3))
    env = SorryVectorEnv(2)
    observation, _ = env.reset(seed=1)
    bad = observation["action_mask"].argmin(axis=1)
    before = env.games
    with pytest.raises(IllegalError, match="not legal"):
        env.step(bad)
    assert env.games is before


def test_vector_afterstates_are_the_legal_actions_outcomes() -> None:
    env = SorryVectorEnv(16, opponent="self")
    observation, _ = env.reset(seed=2)
    rows, actions, after = env.afterstates()
    assert len(rows) == observation["action_mask"].sum()
    assert (observation["action_mask"][rows, actions] == 1).all()
    assert after.shape == (len(rows), FEATURES)


def test_gymnasiums_own_vector_wrappers_read_the_finished_games() -> None:
    # Gymnasium's wrappers read info by its convention (an entry a game, a mask a key): the
    # environment's own layout, a row for each finished game, failed inside DictInfoToList.
    from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics

    env = DictInfoToList(RecordEpisodeStatistics(SorryVectorEnv(8, opponent="random", seed=1)))
    observation, _ = env.reset(seed=1)
    for _ in range(400):
        actions = np.array([np.flatnonzero(mask)[0] for mask in observation["action_mask"]])
        observation, reward, terminated, _, infos = env.step(actions)
        if terminated.any():
            for row, info in enumerate(infos):
                assert ("final_obs" in info) == ("episode" in info) == bool(terminated[row])
                if terminated[row]:
                    assert info["final_obs"]["observation"].shape == (FEATURES,)
                    assert info["episode"]["r"] == reward[row] and info["final_info"]["winner"] in (0, 1)
            return
    raise AssertionError("no game finished in 400 steps")


def test_the_environments_are_registered_with_gymnasium() -> None:
    import gymnasium

    environment = gymnasium.make("pardon/Sorry-v0", opponents="greedy", players=3)
    observation, _ = environment.reset(seed=2)
    assert environment.spec is not None and environment.spec.id == "pardon/Sorry-v0"
    observation, *_ = environment.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert observation in environment.observation_space
    # every check, the render modes' too (made again from the spec)
    check_env(gymnasium.make("pardon/Sorry-v0", illegal="lose").unwrapped)
    vector = gymnasium.make_vec("pardon/SorryVector-v0", num_envs=4, opponent="greedy")
    assert isinstance(vector.unwrapped, SorryVectorEnv) and vector.num_envs == 4
    observation, _ = vector.reset(seed=1)
    assert observation["action_mask"].shape == (4, 141)
