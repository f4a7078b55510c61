"""The environments' ``mask="distinct"``: one action for each distinct move, a subset of the
legal actions (pardon.batch.engine.distinct_lanes); the default mask stays every legal action."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from pardon.batch.convert import outcomes
from pardon.batch.engine import Config, Games, distinct_lanes, legal_lanes
from pardon.core.errors import InvalidError
from pardon.env.aec import SorryAECEnv
from pardon.env.single import SorryEnv
from pardon.env.vector import SorryVectorEnv


def check_distinct(config: Config, games: Games, masks: np.ndarray) -> tuple[int, int]:
    """Assert that ``masks`` (one row of 141 per game) offer exactly one legal action for each
    distinct position the game's legal actions can make; returns the numbers of (offered,
    legal) actions over the games still playing."""
    legal = legal_lanes(config, games)
    offered = masks.T.astype(bool)
    assert not (offered & ~legal).any(), "an offered action is not legal"
    reached = outcomes(config, games, legal)  # every legal action's position, played for real
    for game in range(offered.shape[1]):
        mine = [reached[game, int(action)] for action in np.flatnonzero(offered[:, game])]
        every = {reached[game, int(action)] for action in np.flatnonzero(legal[:, game])}
        assert len(mine) == len(set(mine)), f"game {game}: two offered actions make the same position"
        assert set(mine) == every, f"game {game}: a move is not offered"
    assert np.array_equal(offered, distinct_lanes(config, games))
    playing = np.asarray(games.winner) < 0
    return int(offered[:, playing].sum()), int(legal[:, playing].sum())


@pytest.mark.parametrize(("players", "opponent"), [(2, "random"), (4, "greedy"), (3, "self")])
def test_vector_distinct_mask_offers_one_legal_action_for_each_move(players: int, opponent: str) -> None:
    env = SorryVectorEnv(32, players=players, opponent=opponent, mask="distinct", seed=7)
    observation, _ = env.reset(seed=7)
    rng = np.random.default_rng(players)
    offered = legal = fewer = 0
    finished = 0
    for _ in range(250):
        masks = observation["action_mask"]
        assert masks.dtype == np.int8 and (masks.sum(axis=1) >= 1).all()
        some, every = check_distinct(env.config, env.games, masks)
        offered, legal = offered + some, legal + every
        fewer += int((masks.sum(axis=1) < env.lanes.sum(axis=0)).sum())
        observation, _, terminated, _, _ = env.step(np.array([rng.choice(np.flatnonzero(mask)) for mask in masks]))
        finished += int(terminated.sum())
    assert finished > 0  # whole games, new ones dealt, all checked
    assert fewer > 0 and offered < legal  # leaving Start with either pawn, a 7 split either way...


def test_vector_afterstates_follow_the_mask() -> None:
    env = SorryVectorEnv(16, opponent="self", mask="distinct")
    observation, _ = env.reset(seed=2)
    rows, actions, after = env.afterstates()
    assert len(rows) == observation["action_mask"].sum() < env.lanes.sum()
    assert (observation["action_mask"][rows, actions] == 1).all()
    assert after.shape[0] == len(rows)


def test_vector_skip_forced_skips_decisions_with_one_distinct_move() -> None:
    # with the distinct mask a decision whose legal actions all make one move is forced too
    env = SorryVectorEnv(32, opponent="random", skip_forced=True, mask="distinct", seed=4)
    observation, _ = env.reset(seed=4)
    for _ in range(40):
        masks = observation["action_mask"]
        assert (masks.sum(axis=1) >= 2).all()
        check_distinct(env.config, env.games, masks)
        observation, *_ = env.step(masks.argmax(axis=1))


def test_the_default_mask_is_every_legal_action() -> None:
    for env in (SorryVectorEnv(16, seed=3), SorryVectorEnv(16, seed=3, mask="legal")):
        observation, _ = env.reset(seed=3)
        for _ in range(40):
            masks = observation["action_mask"]
            assert np.array_equal(masks.T.astype(bool), legal_lanes(env.config, env.games))
            observation, *_ = env.step(masks.argmax(axis=1))
    single = SorryEnv()
    observation, _ = single.reset(seed=1)
    assert np.array_equal(observation["action_mask"].astype(bool), legal_lanes(single.config, single.games)[:, 0])
    aec = SorryAECEnv()
    aec.reset(seed=1)
    mask = aec.observe(aec.agent_selection)["action_mask"]
    assert np.array_equal(mask.astype(bool), legal_lanes(aec.config, aec.games)[:, 0])


def play_aec(seed: int, mask: str) -> Counter[str]:
    """One AEC game with ``mask``, each offered mask checked; counts of positions with
    fewer offered than legal actions, and of positions."""
    game = SorryAECEnv(players=3, mask=mask)
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen: Counter[str] = Counter()
    for agent in game.agent_iter():
        observation, _, terminated, truncated, _ = game.last()
        if terminated or truncated:
            game.step(None)
            continue
        offered = observation["action_mask"]
        check_distinct(game.config, game.games, offered[None, :])
        seen["positions"] += 1
        seen["fewer"] += int(offered.sum() < game.lanes[:, 0].sum())
        for other in game.agents:
            if other != agent:
                assert not game.observe(other)["action_mask"].any()
        game.step(int(rng.choice(np.flatnonzero(offered))))
    return seen


def test_aec_distinct_mask_over_whole_games() -> None:
    seen: Counter[str] = Counter()
    for seed in range(3):
        seen += play_aec(seed, "distinct")
    assert seen["positions"] > 100 and seen["fewer"] > 0


def test_single_agent_distinct_mask_over_whole_games() -> None:
    environment = SorryEnv(players=2, opponents="greedy", mask="distinct")
    rng = np.random.default_rng(5)
    fewer = 0
    for seed in range(3):
        observation, _ = environment.reset(seed=seed)
        done = False
        while not done:
            offered = observation["action_mask"]
            check_distinct(environment.config, environment.games, offered[None, :])
            fewer += int(offered.sum() < environment.lanes[:, 0].sum())
            observation, _, terminated, truncated, _ = environment.step(int(rng.choice(np.flatnonzero(offered))))
            done = terminated or truncated
        assert not observation["action_mask"].any()  # over: nothing offered
    assert fewer > 0


def test_a_legal_action_outside_the_distinct_mask_is_still_played() -> None:
    env = SorryVectorEnv(64, opponent="random", mask="distinct", seed=1)
    observation, _ = env.reset(seed=1)
    for _ in range(200):
        extra = env.lanes & ~env.offered
        games = np.flatnonzero(extra.any(axis=0))
        if games.size:
            actions = observation["action_mask"].argmax(axis=1)
            game = int(games[0])
            actions[game] = int(np.flatnonzero(extra[:, game])[0])
            env.step(actions)  # accepted: it makes the move of an offered action
            return
        observation, *_ = env.step(observation["action_mask"].argmax(axis=1))
    raise AssertionError("no position with a duplicate action in 200 steps")


@pytest.mark.parametrize("mask", ["Distinct", "moves", "", None, 1, ["distinct"]])
def test_an_unknown_mask_is_refused_naming_the_choices(mask: object) -> None:
    makers = [
        lambda: SorryVectorEnv(2, mask=mask),  # type: ignore[arg-type]
        lambda: SorryEnv(mask=mask),  # type: ignore[arg-type]
        lambda: SorryAECEnv(mask=mask),  # type: ignore[arg-type]
    ]
    for make in makers:
        with pytest.raises(ValueError, match=r"mask is 'legal' .* or 'distinct'") as raised:
            make()
        assert isinstance(raised.value, InvalidError)


@pytest.mark.parametrize("environment", ["aec", "single", "vector"])
@pytest.mark.filterwarnings("ignore:SorryAECEnv.reset reads no options")  # api_test's own {"options": 1}
def test_the_environments_pass_their_api_checks_with_the_distinct_mask(environment: str) -> None:
    if environment == "aec":
        api_test(SorryAECEnv(players=3, mask="distinct"), num_cycles=300)
    elif environment == "single":
        check_env(SorryEnv(opponents="greedy", illegal="lose", mask="distinct"), skip_render_check=True)
    else:
        import gymnasium

        import pardon.env  # noqa: F401  (registers the ids)

        vector = gymnasium.make_vec("pardon/SorryVector-v0", num_envs=4, mask="distinct")
        observation, _ = vector.reset(seed=1)
        assert observation in vector.observation_space
        for _ in range(50):
            actions = observation["action_mask"].argmax(axis=1)
            assert actions in vector.action_space
            observation, reward, terminated, truncated, _ = vector.step(actions)
            assert observation in vector.observation_space
            assert reward.shape == terminated.shape == truncated.shape == (4,)
