"""What a learner can get wrong is refused with the project's own errors, and changes
nothing: an action that is not a whole number (a float was cut down to another action),
text, None, an unknown agent, arguments of the wrong type."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest

from pardon.core import IllegalError, InvalidError
from pardon.env.aec import SorryAECEnv
from pardon.env.single import SorryEnv
from pardon.env.vector import SorryVectorEnv


def _legal(mask: np.ndarray) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("offset", [0.5, 0.7])
def test_single_a_fractional_action_is_refused_not_rounded_down(offset: float) -> None:
    environment = SorryEnv()
    observation, _ = environment.reset(seed=1)
    action = _legal(observation["action_mask"])
    before = environment.games
    with pytest.raises(InvalidError, match="whole number"):
        environment.step(action + offset)  # used to play action `action`
    assert environment.games is before
    environment.step(np.int64(action))  # a NumPy integer is an action


@pytest.mark.parametrize("action", ["x", None, True, [1, 2]])
def test_single_an_action_of_the_wrong_type_is_an_invalid_error(action: object) -> None:
    environment = SorryEnv()
    environment.reset(seed=1)
    with pytest.raises(InvalidError):
        environment.step(action)


def test_single_arguments_of_the_wrong_type() -> None:
    with pytest.raises(InvalidError, match="seat"):
        SorryEnv(seat="0")  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="opponents"):
        SorryEnv(opponents=5)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="not '2'"):
        SorryEnv(players="2")  # type: ignore[arg-type]


def test_aec_bad_actions_and_agents() -> None:
    game = SorryAECEnv()
    game.reset(seed=1)
    legal = _legal(game.observe(game.agent_selection)["action_mask"])
    with pytest.raises(InvalidError, match="whole number"):
        game.step(legal + 0.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="whole number"):
        game.step("x")  # type: ignore[arg-type]
    with pytest.raises(IllegalError):
        game.step(None)
    with pytest.raises(InvalidError, match="unknown agent"):
        game.observe("purple")
    with pytest.raises(InvalidError, match="seed"):
        game.reset(seed=1.5)  # type: ignore[arg-type]
    game.step(legal)


def test_vector_fractional_actions_and_wrong_shapes_are_refused() -> None:
    environment = SorryVectorEnv(2, seed=1)
    observation, _ = environment.reset(seed=1)
    actions = np.array([_legal(mask) for mask in observation["action_mask"]])
    with pytest.raises(InvalidError, match="whole numbers"):
        environment.step(actions + 0.5)
    with pytest.raises(InvalidError, match="whole numbers"):
        environment.step(actions[:1])
    with pytest.raises(InvalidError, match="seed"):
        environment.reset(seed=0.5)  # type: ignore[arg-type]
    environment.step(actions)


@pytest.mark.parametrize("value", ["no", "", 1, None])
def test_vector_skip_forced_is_true_or_false(value: object) -> None:
    # "no" was taken as true: forced moves were skipped
    with pytest.raises(InvalidError, match="skip_forced is true or false"):
        SorryVectorEnv(2, skip_forced=value)  # type: ignore[arg-type]
    assert SorryVectorEnv(2, skip_forced=np.bool_(True)).skip_forced is True


def test_numpy_integers_are_players_and_seats_in_every_environment() -> None:
    # SorryEnv said "plays 2, 3 or 4 players, not np.int64(3)" and "seat 1 is not one of the 2
    # seats", where the vector environment took them
    single = SorryEnv(players=np.int64(3), seat=np.int64(1), opponents="random")  # type: ignore[arg-type]
    assert (single.config.players, single.seat) == (3, 1) and type(single.seat) is int
    single.reset(seed=2)
    assert SorryAECEnv(players=np.int64(3)).possible_agents == ["red", "blue", "yellow"]  # type: ignore[arg-type]
    vector = SorryVectorEnv(np.int32(2), players=np.int64(3), seat=np.int64(2))  # type: ignore[arg-type]
    assert (vector.config.players, vector.seat) == (3, 2)
    for seat in (True, 1.0, "1"):
        with pytest.raises(InvalidError, match="seat must be a whole number"):
            SorryEnv(seat=seat)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="seat 2 is not one of the 2 seats"):
        SorryEnv(seat=np.int64(2))  # type: ignore[arg-type]


def test_single_a_step_before_reset_is_refused() -> None:
    # seat 1's agent played seat 0's move in a game the other seats never played
    environment = SorryEnv(seat=1)
    with pytest.raises(IllegalError, match=r"call reset\(\) first"):
        environment.step(0)
    with pytest.raises(gymnasium.error.ResetNeeded):
        environment.step(0)
    observation, _ = environment.reset(seed=3)
    environment.step(_legal(observation["action_mask"]))
