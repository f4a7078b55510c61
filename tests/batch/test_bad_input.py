"""The batch engine says what it wants when given something else (without JAX installed, a
list of seeds was a ModuleNotFoundError for 'jax')."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from pardon.batch.engine import Config, new_games
from pardon.core import InvalidError


@pytest.mark.skipif(importlib.util.find_spec("jax") is not None, reason="with JAX a list is read as JAX's")
def test_a_list_of_seeds_without_jax_is_an_invalid_error() -> None:
    with pytest.raises(InvalidError, match="NumPy arrays"):
        new_games(Config.parse("classic", 2), [1, 2])
    assert new_games(Config.parse("classic", 2), np.array([1, 2], dtype=np.uint32)).seed.tolist() == [1, 2]


def test_players_of_the_wrong_type_are_named_as_given() -> None:
    with pytest.raises(InvalidError, match="not '2'"):
        Config.parse("classic", "2")  # type: ignore[arg-type]
