"""Seeds are whole numbers from 0 to 2**32 - 1 in every environment and in the batch engine
(one that would have wrapped round onto another game's is refused); a finished game is shown
from the learner's own seat; what comes after the end, and rendering, follow the standard
interfaces."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import render_test

from pardon.batch.engine import Config, new_games
from pardon.batch.observe import PAWNS
from pardon.core import IllegalError, InvalidError
from pardon.env.aec import SorryAECEnv
from pardon.env.single import SorryEnv
from pardon.env.vector import SorryVectorEnv

OUT_OF_RANGE = [-1, 2**32, 2**64, np.int64(-1)]


@pytest.mark.parametrize("seed", OUT_OF_RANGE)
def test_a_seed_outside_32_bits_is_refused_everywhere(seed: int) -> None:
    # -1 used to play seed 2**32 - 1 and 2**32 seed 0 in the AEC and vector environments (and
    # the batch engine); the vector environment's constructor raised OverflowError, the
    # single-agent one gymnasium's own error.
    with pytest.raises(InvalidError, match="0 to 4294967295"):
        SorryAECEnv().reset(seed=seed)
    with pytest.raises(InvalidError, match="0 to 4294967295"):
        SorryEnv().reset(seed=seed)
    with pytest.raises(InvalidError, match="0 to 4294967295"):
        SorryVectorEnv(2, seed=seed)
    with pytest.raises(InvalidError, match="0 to 4294967295"):
        SorryVectorEnv(2).reset(seed=seed)
    with pytest.raises(InvalidError, match="0 to 4294967295"):
        new_games(Config.parse("classic", 2), np.array([seed]))


def test_the_largest_seed_and_numpy_integers_are_seeds() -> None:
    game = SorryAECEnv()
    game.reset(seed=np.uint32(2**32 - 1))
    assert game.games.seed.tolist() == [2**32 - 1]
    first, _ = SorryEnv().reset(seed=np.int64(7))
    again, _ = SorryEnv().reset(seed=7)
    assert np.array_equal(first["observation"], again["observation"])
    assert new_games(Config.parse("classic", 2), np.array([5, 2**32 - 1])).seed.tolist() == [5, 2**32 - 1]
    with pytest.raises(InvalidError, match="whole numbers"):
        new_games(Config.parse("classic", 2), np.array([1.5]))  # used to be seed 1


def _learners_pawns(observation: np.ndarray) -> np.ndarray:
    """Each player's pawns Home, as seen from the observer (row 0: the observer's own)."""
    return observation[..., PAWNS].reshape((*observation.shape[:-1], 4, 4, 67))[..., 66].sum(axis=-1)


def test_single_a_lost_game_ends_seen_from_the_agents_seat() -> None:
    # The last observation was seen from the winner's seat: a lost game showed the agent's
    # four pawns Home.
    environment = SorryEnv(opponents="greedy")
    rewards = []
    for seed in range(6):
        observation, _ = environment.reset(seed=seed)
        done = False
        while not done:
            observation, reward, done, _, _ = environment.step(_lowest(observation["action_mask"]))
        home = _learners_pawns(observation["observation"])
        assert home[0 if reward > 0 else 1] == 4 and home[1 if reward > 0 else 0] < 4
        rewards.append(reward)
    assert -1.0 in rewards


def test_vector_final_observations_are_seen_from_the_learners_seat() -> None:
    environment = SorryVectorEnv(8, opponent="greedy", seed=3)
    observation, _ = environment.reset(seed=3)
    losses = 0
    for _ in range(1000):
        actions = np.array([_lowest(mask) for mask in observation["action_mask"]])
        observation, reward, terminated, _, info = environment.step(actions)
        if terminated.any():
            rows = np.flatnonzero(info["_final_obs"])
            home = _learners_pawns(np.stack([info["final_obs"][row]["observation"] for row in rows]))
            won = reward[rows] > 0
            assert (home[:, 0] == 4).tolist() == won.tolist()
            losses += int((~won).sum())
        if losses:
            break
    assert losses


def _lowest(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


def test_aec_a_step_after_the_game_is_over_is_an_illegal_error() -> None:
    # Once every agent had stepped out, a step was a KeyError.
    game = SorryAECEnv()
    game.reset(seed=3)
    for _ in game.agent_iter(100_000):
        observation, _, terminated, truncated, _ = game.last()
        game.step(None if terminated or truncated else _lowest(observation["action_mask"]))
    assert game.agents == []
    with pytest.raises(IllegalError, match="over"):
        game.step(0)


def test_human_rendering_prints_and_returns_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    # render() in "human" mode returned the text, failing PettingZoo's render_test.
    render_test(lambda render_mode=None: SorryAECEnv(render_mode=render_mode))
    environment = SorryEnv(render_mode="human")
    environment.reset(seed=1)
    assert environment.render() is None
    assert "to play" in capsys.readouterr().out
    assert "to play" in SorryEnv(render_mode="ansi").render()


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"num_envs": 2.5}, "num_envs"),
        ({"num_envs": "3"}, "num_envs"),
        ({"num_envs": True}, "num_envs"),
        ({"num_envs": 2, "seat": True}, "seat"),
        ({"num_envs": 2, "seat": 1.0}, "seat"),
        ({"num_envs": 2, "seed": 1.5}, "seed"),
        ({"num_envs": 2, "seed": "3"}, "seed"),
    ],
)
def test_vector_arguments_of_the_wrong_type_are_invalid_errors(arguments: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        SorryVectorEnv(**arguments)  # type: ignore[arg-type]


def test_self_play_skipping_forced_moves_rewards_every_finished_game() -> None:
    # With skip_forced, a game often ends with a forced move played for the next player; the
    # reward went only to a mover who won, so those games ended with 0 for everyone.
    environment = SorryVectorEnv(16, opponent="self", skip_forced=True, seed=2)
    observation, _ = environment.reset(seed=2)
    rng = np.random.default_rng(0)
    finished = 0
    for _ in range(600):
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in observation["action_mask"]])
        observation, reward, terminated, _, _ = environment.step(actions)
        assert set(reward[terminated].tolist()) <= {-1.0, 1.0}
        assert not reward[~terminated].any()
        finished += int(terminated.sum())
    assert finished > 20


def test_single_a_forfeited_game_is_rendered_as_lost_not_as_going_on() -> None:
    # After a forfeit the text still said "Red to play a 5: ..." though no step is taken.
    environment = SorryEnv(opponents="random", illegal="lose", render_mode="ansi")
    observation, _ = environment.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, _, _ = environment.step(illegal)
    assert (reward, terminated) == (-1.0, True)
    text = environment.render()
    assert text is not None and text.endswith("Red lost by an illegal action: reset the environment.")


def test_rendering_without_a_render_mode_warns_and_returns_nothing() -> None:
    # render() gave the text with no render mode; Gymnasium and PettingZoo give None and warn
    single = SorryEnv()
    single.reset(seed=1)
    game = SorryAECEnv()
    for environment in (single, game):
        with pytest.warns(UserWarning, match="without specifying any render mode"):
            assert environment.render() is None
    assert "to play" in SorryAECEnv(render_mode="ansi").render()


@pytest.mark.parametrize("make", [SorryEnv, lambda: SorryVectorEnv(2)], ids=["SorryEnv", "SorryVectorEnv"])
def test_reset_options_are_refused_by_the_gymnasium_environments(make: object) -> None:
    # reset(options={"rules": "modern"}) was ignored without a word
    environment = make()  # type: ignore[operator]
    with pytest.raises(InvalidError, match=r"reads no options, not \{'rules': 'modern'\}: the rules"):
        environment.reset(seed=1, options={"rules": "modern"})
    environment.reset(seed=1, options={})  # Gymnasium's checker passes {}
    environment.reset(seed=1, options=None)


def test_reset_options_are_ignored_with_a_warning_by_the_aec_environment() -> None:
    # PettingZoo's api_test passes options={"options": 1}: refusing it would fail the test
    with pytest.warns(UserWarning, match=r"SorryAECEnv.reset reads no options; \{'rules': 'modern'\} ignored"):
        SorryAECEnv().reset(seed=1, options={"rules": "modern"})


def test_a_seed_deals_the_same_batch_game_in_every_environment() -> None:
    # SorryEnv's seed s dealt the game of a seed drawn from a generator seeded by s (seed 0:
    # game 3653403231), where the AEC and vector environments deal game s
    single = SorryEnv()
    single.reset(seed=7)
    game = SorryAECEnv()
    game.reset(seed=7)
    vector = SorryVectorEnv(3)
    vector.reset(seed=7)
    assert single.games.seed.tolist() == game.games.seed.tolist() == [7] == vector.games.seed.tolist()[:1]
    single.reset()  # unseeded: the next game's seed from the generator the last seed seeded
    after = single.games.seed.tolist()
    single.reset(seed=7)
    single.reset()
    assert single.games.seed.tolist() == after != [7]
