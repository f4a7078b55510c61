"""Benchmark the pure-JAX environment (pardon.batch.jax_env) on whatever device JAX has: the
cards played a second by ``--batch`` games at once, each step a uniformly random legal action
per game (chosen from the mask an agent sees) and every finished game replaced by a new one
(``step_auto_reset``), as an agent's training loop plays it; beside the NumPy engine doing
the same work (the step, the legal actions and the observation of every game, the finished
games replaced), in one run.  Both sides play the very same games: the same seeds, and the
same choice (the engine's random player, ``random_actions``: JAX makes it from the mask), so
they count the same cards, and the report says whether they did.  The JAX loop runs in one
``lax.fori_loop`` with the state donated, as a training loop would: each step brings the
observations up to date where they lie; NumPy builds each step's observations anew.

    PYTHONPATH=src python benchmarks/jax_env.py [--batch 65536] [--steps 50] [--rounds 5] [--skip-numpy]

With a CUDA build of JAX (``pip install 'jax[cuda12]'``) it measures the GPU, and prints it::

    PYTHONPATH=src python benchmarks/jax_env.py --batch 1048576 --steps 100 --skip-numpy

Each figure is the median of ``--rounds`` timed slices of ``--steps`` steps (after one slice
to compile and warm up), with the quartiles.  Progress goes to stderr, the report to stdout.
Nothing is asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from typing import Any

import numpy as np

from pardon.batch.doubling import choice_counter
from pardon.batch.engine import (
    STREAM_CHOICE,
    Config,
    Games,
    legal_lanes,
    new_games,
    random_actions,
    random_bits,
    reset_finished,
    step,
)
from pardon.batch.observe import observe


def jax_loop(rules: str, players: int, batch: int, steps: int, reset: bool = True) -> Any:
    """A compiled loop of ``steps`` steps of ``batch`` games, finished games replaced (``reset``)
    by the environment's auto-reset (``step_auto_reset``, pgx's ``auto_reset`` without a fresh
    state built for every game)."""
    import jax
    import jax.numpy as jnp

    from pardon.batch.jax_env import SorryJax

    env = SorryJax(rules, players)
    play = jax.vmap(env.step_auto_reset if reset else env.step)

    def one(_: int, carry: Any) -> Any:
        state, next_seed, played = carry
        games = Games(*(jnp.moveaxis(field, 0, -1) for field in state.games))  # the engine's: the batch last
        counter = choice_counter(env.config, games)  # with doubling or Fire and Ice, the decisions too
        action = uniform_choice(state.legal_action_mask, random_bits(games.seed, counter, STREAM_CHOICE))
        seeds = next_seed + jnp.arange(batch, dtype=jnp.uint32)  # for the games that end
        state = play(state, action, seeds) if reset else play(state, action)
        played = played + jnp.sum(~state.terminated, dtype=jnp.int32)
        return state, next_seed + jnp.uint32(batch), played

    @functools.partial(jax.jit, donate_argnums=0)  # type: ignore[untyped-decorator, unused-ignore]
    def run(state: Any, next_seed: Any) -> Any:
        return jax.lax.fori_loop(0, steps, one, (state, next_seed, jnp.int32(0)))

    start = jax.jit(jax.vmap(env.init_seed))(jnp.arange(batch, dtype=jnp.uint32))
    return run, start, jnp.uint32(batch)


def uniform_choice(mask: Any, bits: Any) -> Any:
    """The engine's random player (``random_actions``, that is ``choose_uniform``) on the masks
    an agent sees, ``(batch, 141)``: the legal lane numbered ``bits`` modulo the number of
    legal lanes, in lane order (0 where none).  By bits: the lanes as five 32-bit words, the
    word holding the lane found by their counts, the lane in the word by halving.  (Lanes
    first, as the environment's loop keeps the masks: XLA lays them out so.)"""
    import jax
    import jax.numpy as jnp

    lanes = mask.T
    width = 32
    words = -(-lanes.shape[0] // width)
    padded = jnp.pad(lanes, ((0, words * width - lanes.shape[0]), (0, 0))).reshape((words, width, -1))
    shifts = jnp.arange(width, dtype=jnp.uint32)[:, None]
    packed = jnp.sum(padded.astype(jnp.uint32) << shifts, axis=1, dtype=jnp.uint32)  # (5, batch)
    counts = jax.lax.population_count(packed)
    total = jnp.sum(counts, axis=0, dtype=jnp.uint32)
    pick = bits % jnp.maximum(total, jnp.uint32(1))
    word, chosen, rank, before = jnp.zeros_like(pick), packed[0], pick, counts[0]
    for index in range(1, words):  # the word: each word whose lanes all come before the pick passed
        passed = before <= pick
        word = word + passed.astype(jnp.uint32)
        chosen = jnp.where(passed, packed[index], chosen)
        rank = jnp.where(passed, pick - before, rank)
        before = before + counts[index]
    lane = jnp.zeros_like(pick)
    for half in (16, 8, 4, 2, 1):  # the lane in the word: in its lower half, or past it
        low = jax.lax.population_count(chosen & jnp.uint32((1 << half) - 1))
        upper = rank >= low
        rank = jnp.where(upper, rank - low, rank)
        lane = lane + jnp.where(upper, jnp.uint32(half), jnp.uint32(0))
        chosen = jnp.where(upper, chosen >> half, chosen)
    return jnp.where(total > 0, word * width + lane, 0).astype(jnp.int32)


def time_jax(rules: str, players: int, batch: int, steps: int, rounds: int, reset: bool) -> tuple[list[float], int]:
    """The cards a second of each timed slice, and the cards of every slice."""
    import jax

    run, state, next_seed = jax_loop(rules, players, batch, steps, reset)
    rates, cards = [], 0
    for index in range(rounds + 1):
        started = time.perf_counter()
        state, next_seed, played = jax.block_until_ready(run(state, next_seed))
        seconds = time.perf_counter() - started
        print(f"  jax slice {index}: {int(played):,} cards in {seconds:.2f} s", file=sys.stderr)
        cards += int(played)
        if index:  # the first compiles
            rates.append(int(played) / seconds)
    return rates, cards


def time_numpy(rules: str, players: int, batch: int, steps: int, rounds: int, reset: bool) -> tuple[list[float], int]:
    """The cards a second of each timed slice, and the cards of every slice."""
    config = Config.parse(rules, players)
    games = new_games(config, np.arange(batch, dtype=np.uint32))
    next_seed = batch
    rates, cards = [], 0
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
            games = reset_finished(config, games, (next_seed + np.arange(batch)).astype(np.uint32))
            next_seed += batch
        seconds = time.perf_counter() - started
        print(f"  numpy slice {index}: {played:,} cards in {seconds:.2f} s", file=sys.stderr)
        cards += played
        if index:
            rates.append(played / seconds)
    return rates, cards


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
        help="finished games are not replaced (plain step): a step's own cost, the games left dwindling",
    )
    options = parser.parse_args()
    import jax

    from pardon.batch.jax_backend import device

    print(f"JAX {jax.__version__} on {device()}; {options.rules}, {options.players} players, {options.batch:,} games")
    reset = not options.no_reset
    jax_rates, jax_cards = time_jax(options.rules, options.players, options.batch, options.steps, options.rounds, reset)
    print(f"pardon.batch.jax_env, cards a second: {described(jax_rates)}")
    if not options.skip_numpy:
        numpy_rates, numpy_cards = time_numpy(
            options.rules, options.players, options.batch, options.steps, options.rounds, reset
        )
        print(f"NumPy engine, the same work:        {described(numpy_rates)}")
        same = "the same games" if jax_cards == numpy_cards else "NOT the same games"
        print(f"({same}: {jax_cards:,} cards on JAX, {numpy_cards:,} on NumPy)")
        ratio = statistics.median(jax_rates) / statistics.median(numpy_rates)
        print(f"JAX / NumPy (medians): {ratio:.2f}x")


if __name__ == "__main__":
    main()
