"""Benchmark the pure-JAX environment (pardon.batch.jax_env) on whatever device JAX has: the
cards played a second by ``--batch`` games at once, each step a uniformly random legal action
per game (the mask an agent sees) and every finished game replaced by a new one, as an
agent's training loop plays it; beside the NumPy engine doing the same work (the step, the
legal actions and the observation of every game), in one run.

    PYTHONPATH=src python benchmarks/jax_env.py [--batch 65536] [--steps 50] [--rounds 5] [--skip-numpy]

With a CUDA build of JAX (``pip install 'jax[cuda12]'``) it measures the GPU, and prints it::

    PYTHONPATH=src python benchmarks/jax_env.py --batch 1048576 --steps 100 --skip-numpy

Each figure is the median of ``--rounds`` timed slices of ``--steps`` steps (after one slice
to compile and warm up), with the quartiles.  Progress goes to stderr, the report to stdout.
Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import numpy as np

from pardon.batch.engine import Config, legal_lanes, new_games, random_actions, reset_finished, step
from pardon.batch.observe import observe


def jax_loop(rules: str, players: int, batch: int, steps: int, reset: bool = True) -> Any:
    """A compiled loop of ``steps`` steps of ``batch`` games, finished games replaced (``reset``)
    as pgx's auto-reset does it: a fresh state built for every game, kept where one ended."""
    import jax
    import jax.numpy as jnp

    from pardon.batch.jax_env import SorryJax

    env = SorryJax(rules, players)
    init, play = jax.vmap(env.init_seed), jax.vmap(env.step)

    def one(_: int, carry: Any) -> Any:
        state, key, next_seed, played = carry
        key, choice = jax.random.split(key)
        logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
        action = jax.random.categorical(choice, logits, axis=1)
        state = play(state, action)
        played = played + jnp.sum(~state.terminated, dtype=jnp.int32)
        if not reset:
            return state, key, next_seed, played
        done = state.terminated
        seeds = next_seed + jnp.cumsum(done, dtype=jnp.uint32)
        fresh = init(seeds)
        state = jax.tree_util.tree_map(
            lambda new, old: jnp.where(done.reshape((-1,) + (1,) * (old.ndim - 1)), new, old), fresh, state
        )
        return state, key, next_seed + jnp.sum(done, dtype=jnp.uint32), played

    @jax.jit  # type: ignore[untyped-decorator, unused-ignore]
    def run(state: Any, key: Any, next_seed: Any) -> Any:
        return jax.lax.fori_loop(0, steps, one, (state, key, next_seed, jnp.int32(0)))

    start = jax.jit(init)(jnp.arange(batch, dtype=jnp.uint32))
    return run, start, jax.random.key(0), jnp.uint32(batch)


def time_jax(rules: str, players: int, batch: int, steps: int, rounds: int, reset: bool) -> list[float]:
    import jax

    run, state, key, next_seed = jax_loop(rules, players, batch, steps, reset)
    rates = []
    for index in range(rounds + 1):
        started = time.perf_counter()
        state, key, next_seed, played = jax.block_until_ready(run(state, key, next_seed))
        seconds = time.perf_counter() - started
        print(f"  jax slice {index}: {int(played):,} cards in {seconds:.2f} s", file=sys.stderr)
        if index:  # the first compiles
            rates.append(int(played) / seconds)
    return rates


def time_numpy(rules: str, players: int, batch: int, steps: int, rounds: int, reset: bool) -> list[float]:
    config = Config.parse(rules, players)
    games = new_games(config, np.arange(batch, dtype=np.uint32))
    next_seed = batch
    rates = []
    for index in range(rounds + 1):
        played = 0
        started = time.perf_counter()
        for _ in range(steps):
            games, _ = step(config, games, random_actions(config, games))
            observe(config, games)
            legal_lanes(config, games)
            going = games.winner < 0
            played += int(going.sum())
            if not reset:
                continue
            done = ~going
            seeds = (next_seed + np.cumsum(done) - 1).astype(np.uint32)
            games = reset_finished(config, games, seeds)
            next_seed += int(done.sum())
        seconds = time.perf_counter() - started
        print(f"  numpy slice {index}: {played:,} cards in {seconds:.2f} s", file=sys.stderr)
        if index:
            rates.append(played / seconds)
    return rates


def described(rates: list[float]) -> str:
    if len(rates) < 2:
        return f"{rates[0]:,.0f}"
    low, _, high = statistics.quantiles(rates, n=4, method="inclusive")
    return f"{statistics.median(rates):,.0f} ({low:,.0f}–{high:,.0f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--batch", type=int, default=65_536)
    parser.add_argument("--steps", type=int, default=50, help="steps a timed slice (50)")
    parser.add_argument("--rounds", type=int, default=5, help="timed slices of each (5)")
    parser.add_argument("--skip-numpy", action="store_true", help="the JAX figure alone (a GPU run)")
    parser.add_argument(
        "--no-reset",
        action="store_true",
        help="finished games are not replaced: a step's own cost, without the auto-reset's fresh state for every game",
    )
    options = parser.parse_args()
    import jax

    from pardon.batch.jax_backend import device

    print(f"JAX {jax.__version__} on {device()}; {options.rules}, {options.players} players, {options.batch:,} games")
    reset = not options.no_reset
    jax_rates = time_jax(options.rules, options.players, options.batch, options.steps, options.rounds, reset)
    print(f"pardon.batch.jax_env, cards a second: {described(jax_rates)}")
    if not options.skip_numpy:
        numpy_rates = time_numpy(options.rules, options.players, options.batch, options.steps, options.rounds, reset)
        print(f"NumPy engine, the same work:        {described(numpy_rates)}")
        ratio = statistics.median(jax_rates) / statistics.median(numpy_rates)
        print(f"JAX / NumPy (medians): {ratio:.2f}x")


if __name__ == "__main__":
    main()
