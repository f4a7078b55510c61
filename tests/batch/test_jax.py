"""The same engine code on JAX: jitted, vmapped over single games, and the same games as NumPy.
Skipped unless JAX is installed (``pip install 'pardon[jax]'``)."""

from __future__ import annotations

import numpy as np
import pytest

from pardon.batch.engine import Config, distinct_lanes, legal_lanes, new_games, random_actions, random_moves, step
from pardon.batch.jax_backend import device, jitted, random_run

pytestmark = pytest.mark.slow  # compiling takes a while
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")


@pytest.mark.parametrize(
    ("rules", "players", "steps"),
    [("classic", 2, 250), ("modern-no-tokens", 4, 250), ("classic(pawns=3)", 3, 250)],
)
def test_jax_plays_the_very_games_numpy_plays(rules: str, players: int, steps: int) -> None:
    config = Config.parse(rules, players)
    seeds = np.arange(200, dtype=np.uint32)
    games, fast = new_games(config, seeds), jitted(config)
    on_jax = fast.new_games(jnp.asarray(seeds))
    for _ in range(steps):
        actions = random_actions(config, games)
        assert np.array_equal(actions, np.asarray(fast.random_actions(on_jax)))
        assert np.array_equal(random_moves(config, games), np.asarray(fast.random_moves(on_jax)))
        assert np.array_equal(legal_lanes(config, games), np.asarray(fast.legal_lanes(on_jax)))
        assert np.array_equal(distinct_lanes(config, games), np.asarray(fast.distinct_lanes(on_jax)))
        games, _ = step(config, games, actions)
        on_jax, _ = fast.step(on_jax, jnp.asarray(actions))
        for mine, theirs in zip(games, on_jax, strict=True):
            assert np.array_equal(mine, np.asarray(theirs))


def test_vmap_over_single_games_equals_the_batch() -> None:
    config = Config.parse("classic", 4)
    fast = jitted(config)
    games = fast.new_games(jnp.arange(64, dtype=jnp.uint32))
    per_game = jax.jit(jax.vmap(lambda one, action: step(config, one, action)[0], in_axes=(-1, 0), out_axes=-1))
    for _ in range(40):
        actions = fast.random_actions(games)
        mapped = per_game(games, actions)
        games, _ = fast.step(games, actions)
        for one, many in zip(mapped, games, strict=True):
            assert np.array_equal(np.asarray(one), np.asarray(many))


def test_random_run_counts_cards_and_replaces_finished_games() -> None:
    config = Config.parse("classic", 2)
    games = jitted(config).new_games(jnp.arange(128, dtype=jnp.uint32))
    games, next_seed, drawn = random_run(config, 400)(games, 128)
    assert int(drawn) == 128 * 400  # every game draws a card every step: finished ones are replaced
    assert int(next_seed) > 128 + 100
    assert device()
