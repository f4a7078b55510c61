"""The batch engine on JAX (``pip install 'pardon[jax]'``; with a GPU build of JAX it runs
on the GPU): the functions of :mod:`pardon.batch.engine`, unchanged, compiled with
``jax.jit``.  A JAX game is the same game as a NumPy game of the same seed: the same
cards, the same random choices, the same positions (tests/batch/test_jax.py).

JAX is imported when these functions are first called, never on import of this module.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from pardon.batch.engine import (
    Config,
    Games,
    Played,
    distinct_lanes,
    legal_lanes,
    new_games,
    points,
    random_actions,
    random_moves,
    reset_finished,
    step,
)

__all__ = ["available", "device", "jitted", "random_run"]


def available() -> bool:
    """Whether JAX is installed."""
    try:
        import jax  # noqa: F401
    except ImportError:
        return False
    return True


def device() -> str:
    """The device JAX computes on, in words ("cpu", "cuda:0 NVIDIA H200", ...)."""
    import jax

    first = jax.devices()[0]
    kind = getattr(first, "device_kind", "")
    return f"{first.platform}:{first.id} {kind}".strip()


class Jitted:
    """The engine's functions for one config, each compiled once per batch shape."""

    def __init__(self, config: Config) -> None:
        import jax

        self.config = config
        self.new_games: Callable[[Any], Games] = jax.jit(functools.partial(new_games, config))
        self.legal_lanes: Callable[[Games], Any] = jax.jit(functools.partial(legal_lanes, config))
        self.distinct_lanes: Callable[[Games], Any] = jax.jit(functools.partial(distinct_lanes, config))
        self.random_actions: Callable[[Games], Any] = jax.jit(functools.partial(random_actions, config))
        self.random_moves: Callable[[Games], Any] = jax.jit(functools.partial(random_moves, config))
        self.step: Callable[[Games, Any], tuple[Games, Played]] = jax.jit(functools.partial(step, config))
        self.points: Callable[[Games], Any] = jax.jit(functools.partial(points, config))


@functools.cache
def jitted(config: Config) -> Jitted:
    """The compiled functions of ``config`` (made once)."""
    return Jitted(config)


@functools.cache
def random_run(config: Config, steps: int) -> Callable[[Games, Any], tuple[Games, Any, Any]]:
    """A compiled loop of ``steps`` random steps over a batch, each finished game replaced
    by a new one (seeds counted on from ``next_seed``): ``run(games, next_seed)`` returns
    the games, the next unused seed, and the number of cards drawn (new games' first cards
    included)."""
    import jax
    import jax.numpy as jnp

    def one(index: int, carry: tuple[Games, Any, Any]) -> tuple[Games, Any, Any]:
        games, next_seed, drawn = carry
        before = games.drawn
        games, _ = step(config, games, random_actions(config, games))
        over = games.winner >= 0
        # every game draws once a step: a finished one, the first card of the game replacing it
        drawn = drawn + jnp.sum(games.drawn - before, dtype=jnp.uint32) + jnp.sum(over, dtype=jnp.uint32)
        fresh = next_seed + jnp.cumsum(over, dtype=jnp.uint32) - over.astype(jnp.uint32)
        games = reset_finished(config, games, fresh)
        return games, next_seed + jnp.sum(over, dtype=jnp.uint32), drawn

    @jax.jit  # type: ignore[untyped-decorator, unused-ignore]  # (untyped where JAX is not installed)
    def run(games: Games, next_seed: Any) -> tuple[Games, Any, Any]:
        done: tuple[Games, Any, Any] = jax.lax.fori_loop(0, steps, one, (games, jnp.uint32(next_seed), jnp.uint32(0)))
        return done

    compiled: Callable[[Games, Any], tuple[Games, Any, Any]] = run
    return compiled
