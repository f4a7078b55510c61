"""The batch engine says what it wants when given something else (without JAX installed, a
list of seeds was a ModuleNotFoundError for 'jax')."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from pardon.batch.engine import Config, legal_lanes, new_games, play, step
from pardon.core import InvalidError


@pytest.mark.skipif(importlib.util.find_spec("jax") is not None, reason="with JAX a list is read as JAX's")
def test_a_list_of_seeds_without_jax_is_an_invalid_error() -> None:
    with pytest.raises(InvalidError, match="NumPy arrays"):
        new_games(Config.parse("classic", 2), [1, 2])
    assert new_games(Config.parse("classic", 2), np.array([1, 2], dtype=np.uint32)).seed.tolist() == [1, 2]


def test_players_of_the_wrong_type_are_named_as_given() -> None:
    with pytest.raises(InvalidError, match="not '2'"):
        Config.parse("classic", "2")  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [-1, 141, 200])
def test_an_action_outside_the_encoding_is_an_invalid_error(action: int) -> None:
    # 200 was an IndexError from inside, and -1 silently played action 140 (a Sorry!).
    config = Config.parse("classic", 2)
    games = new_games(config, np.arange(3, dtype=np.uint32))
    with pytest.raises(InvalidError, match="0 to 140"):
        step(config, games, np.array([0, action, 0]))
    with pytest.raises(InvalidError, match="0 to 140"):
        play(config, games, np.array([action, 0, 0]), advance=False)


@pytest.mark.parametrize(
    ("actions", "words"),
    [
        (np.array([1]), "not shape 1"),  # was one action broadcast to every game
        (np.int64(1), "not a single number"),
        (1, "not a single number"),
        (np.array([1, 1]), "not shape 2"),  # was NumPy's broadcasting ValueError
        (np.ones((3, 1), dtype=np.int64), "not shape 3×1"),
    ],
)
def test_actions_are_one_per_game(actions: object, words: str) -> None:
    config = Config.parse("classic", 2)
    games = new_games(config, np.arange(3, dtype=np.uint32))
    with pytest.raises(InvalidError, match=f"give one action per game, an array of shape 3, {words}"):
        step(config, games, actions)
    with pytest.raises(InvalidError, match="one action per game"):
        play(config, games, actions, advance=False)


def test_games_made_for_another_number_of_players_are_refused() -> None:
    games = new_games(Config.parse("classic", 2), np.arange(3, dtype=np.uint32))
    four = Config.parse("classic", 4)
    with pytest.raises(InvalidError, match="these games are of 2 players, and the config plays 4"):
        step(four, games, np.zeros(3, dtype=np.int32))
    with pytest.raises(InvalidError, match="these games are of 2 players"):
        legal_lanes(four, games)


def test_players_may_be_a_numpy_integer() -> None:
    # "the batch engine plays 2, 3 or 4 players, not np.int64(3)"
    config = Config.parse("classic", np.int64(3))  # type: ignore[arg-type]
    assert config == Config.parse("classic", 3) and type(config.players) is int
    with pytest.raises(InvalidError, match=r"plays 2, 3 or 4 players, not 5$"):
        Config.parse("classic", np.int64(5))  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="not True"):
        Config.parse("classic", True)
