"""The batch engine says what it wants when given something else (without JAX installed, a
list of seeds was a ModuleNotFoundError for 'jax')."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from pardon.batch.engine import Config, new_games, play, step
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
