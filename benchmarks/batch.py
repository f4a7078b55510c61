"""Benchmark the batch engine (pardon.batch) beside apologies and the core's kernel, in one run.

What is measured, on one CPU core (the process and the apologies subprocess are pinned to
one), classic rules, 2 and 4 players, random players, in **cards drawn per second**:

* ``apologies`` (``benchmarks/peer_apologies.py --serve`` in ``.peer-venv``, as
  ``benchmarks/engine.py`` runs it), whole games; its version is the one installed there,
  read from the peer venv (``importlib.metadata``), not assumed;
* pardon's playout kernel (``pardon.core.playout``, as ``benchmarks/engine.py`` times it),
  whole games;
* the batch engine on NumPy: ``--batch`` games at once (65,536), each step one card played
  in every game, every finished game replaced at once by a new one; with its compiled loops
  (``pardon.batch.compiled``) where Numba is installed, as the ``rl`` extra installs it (the
  report says which);
* the batch engine on JAX, jitted (when JAX is installed; on the CPU here, pinned to one
  core and one thread), the same loop compiled.

**The batch's player** is ``random_moves`` (``--player moves``, the default): uniform among
the distinct moves, as the core's random player, the simulations and the environments'
computer players choose, and so the figure a user meets.  ``--player actions`` times
``random_actions`` instead: uniform among the *actions* (one per pawn), a biased player (a
move that several actions make is chosen as often as it has actions), cheaper to choose for;
its figures are labelled so.

**Steady state.** A batch made at once holds games that all start together: its first steps
are all early-game positions and no game ends, so no refill is paid for.  So each batch is
first warmed up, untimed, until 99% of its first games have ended and been replaced (about
the 99th percentile of a game's length in steps: some 320 steps with 2 players, 690 with 4;
``--warmup`` sets the steps instead), and only then timed, in slices of ``--steps`` steps in
which games end and are replaced (the report counts them).  JAX is warmed up for as many
steps as NumPy needed (or as a reference NumPy batch of 4,096 games needed).

**Interleaved rounds.** Apologies, the kernel and each batch backend are measured in slices
interleaved within a round (apologies, kernel, NumPy, JAX), ``--rounds`` rounds per player
count (9), so each ratio compares figures taken under the same machine conditions.  The
report gives, for each, the **median** cards per second of its slices with the quartiles,
and the median of the per-round ratios to apologies with their quartiles
(``statistics.quantiles``, inclusive); never the best round or the extremes.

It also prints the memory per game (the state, and the peak working memory of a step, the
player's choice included) and, with ``--scaling``, the cost of a step as the batch grows from
1 to 1,000,000 games (``--plot FILE`` draws it): the first games of one batch of a million,
warmed up to steady state as above (minutes), each step timed alone, the median reported.

On a GPU, with a CUDA build of JAX (``pip install 'jax[cuda12]'``), the same script
measures the accelerator (it prints the device and the batch size)::

    python benchmarks/batch.py --backend jax --batch 1048576 --steps 200 --skip-peer --skip-kernel --any-core

Run from the repository root::

    bash benchmarks/setup_peer_env.sh   # once, for the apologies figures
    PYTHONPATH=src python benchmarks/batch.py [--rounds R] [--batch B] [--steps S] [--json]
        [--player moves|actions] [--warmup STEPS] [--scaling] [--plot docs/batch-scaling.png]
        [--backend numpy|jax|both] [--skip-peer] [--skip-kernel] [--any-core]

Progress goes to stderr; the report (a table, or one JSON object) to stdout.  Nothing is
asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))  # benchmarks/engine.py: the peer and the kernel, measured as there

import numpy as np  # noqa: E402

import engine as core_benchmark  # noqa: E402
from pardon.batch.convert import games_at, put_games  # noqa: E402
from pardon.batch.engine import (  # noqa: E402
    Config,
    Games,
    new_games,
    random_actions,
    random_moves,
    reset_finished,
    step,
)

PLAYERS = (2, 4)
#: apologies games per slice (about 0.3 s on an idle core), and kernel games per slice.
PEER_GAMES = {2: 3, 4: 1}
KERNEL_GAMES = {2: 100, 4: 40}
#: The batch's random players: ``--player`` names one.
CHOOSERS: dict[str, Callable[[Config, Games], Any]] = {"moves": random_moves, "actions": random_actions}
PLAYER_LABELS = {
    "moves": "random_moves: uniform among the distinct moves, as the core's random player (unbiased)",
    "actions": "random_actions: uniform among the actions, one per pawn (BIASED: a move made by "
    "several actions is chosen as often as it has actions)",
}
#: A batch is warmed up until this share of its first games has ended (a long game's steps).
LONG_GAME = 0.99
#: Games of the reference NumPy batch that finds the warm-up steps where NumPy is not measured.
REFERENCE_GAMES = 4096
#: Most warm-up steps (no classic game comes near: the longest 4-player ones last about 1,000).
WARMUP_CAP = 20_000
SCALING_SIZES = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def pin_to_one_core() -> int | None:
    """Run on one core (the first this process may use); its children inherit it."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


class Slice(NamedTuple):
    """One timed slice: its seconds, the cards drawn in it, and the games that ended in it."""

    seconds: float
    cards: int
    ended: int


class NumpyBatch:
    """A batch of games on NumPy, kept going: finished games are replaced by new ones."""

    def __init__(self, players: int, size: int, seed: int, player: str, games: Games | None = None) -> None:
        self.config = Config.parse("classic", players)
        self.choose = CHOOSERS[player]
        self.next_seed = seed
        self.games = self._new(size) if games is None else games

    def _new(self, count: int) -> Games:
        seeds = (np.arange(count, dtype=np.uint64) + self.next_seed) % 2**32
        self.next_seed += count
        return new_games(self.config, seeds.astype(np.uint32))

    def _one_step(self) -> tuple[int, np.ndarray]:
        """One step of every game, the finished ones replaced: the cards drawn (a new game's
        first card included) and the rows whose games ended."""
        config, games = self.config, self.games
        before = int(games.drawn.sum(dtype=np.int64))
        games, _ = step(config, games, self.choose(config, games))
        cards = int(games.drawn.sum(dtype=np.int64)) - before
        over = np.flatnonzero(games.winner >= 0)
        if over.size:
            games = put_games(games, over, self._new(over.size))
            cards += over.size
        self.games = games
        return cards, over

    def run(self, steps: int) -> Slice:
        """``steps`` steps, timed."""
        cards = ended = 0
        started = time.perf_counter()
        for _ in range(steps):
            drawn, over = self._one_step()
            cards += drawn
            ended += over.size
        return Slice(time.perf_counter() - started, cards, ended)

    def warm_up(self, steps: int | None = None) -> tuple[int, float]:
        """Play, untimed, until ``LONG_GAME`` of the batch's games of the moment have ended
        (or ``steps`` steps): the steps played, and the share of those games that ended."""
        first = np.ones(self.games.card.shape, dtype=bool)  # the games not yet replaced
        size = first.size
        played = 0
        while played < (WARMUP_CAP if steps is None else steps):
            if steps is None and first.sum() <= (1 - LONG_GAME) * size:
                break
            _, over = self._one_step()
            first[over] = False
            played += 1
        return played, 1 - float(first.sum()) / size


def jax_loop(config: Config, steps: int, player: str) -> Callable[[Games, Any], tuple[Games, Any, Any, Any]]:
    """A compiled loop of ``steps`` steps of ``player``, each finished game replaced by a new
    one (seeds counted on from ``next_seed``), as the NumPy batch plays:
    ``loop(games, next_seed)`` gives the games, the next seed, the cards drawn (new games'
    first cards included) and the games ended.  (``pardon.batch.jax_backend.random_run``
    is this loop with ``random_actions`` only.)"""
    import jax
    import jax.numpy as jnp

    choose = CHOOSERS[player]

    def one(index: int, carry: tuple[Games, Any, Any, Any]) -> tuple[Games, Any, Any, Any]:
        games, next_seed, drawn, ended = carry
        before = games.drawn
        games, _ = step(config, games, choose(config, games))
        over = games.winner >= 0
        count = jnp.sum(over, dtype=jnp.uint32)
        drawn = drawn + jnp.sum(games.drawn - before, dtype=jnp.uint32) + count
        fresh = next_seed + jnp.cumsum(over, dtype=jnp.uint32) - over.astype(jnp.uint32)
        games = reset_finished(config, games, fresh)
        return games, next_seed + count, drawn, ended + count

    @jax.jit
    def loop(games: Games, next_seed: Any) -> tuple[Games, Any, Any, Any]:
        start = (games, jnp.uint32(next_seed), jnp.uint32(0), jnp.uint32(0))
        done: tuple[Games, Any, Any, Any] = jax.lax.fori_loop(0, steps, one, start)
        return done

    compiled: Callable[[Games, Any], tuple[Games, Any, Any, Any]] = loop
    return compiled


class JaxBatch:
    """The same on JAX: a compiled loop of ``steps`` steps."""

    def __init__(self, players: int, size: int, seed: int, steps: int, player: str) -> None:
        import jax.numpy as jnp

        from pardon.batch.jax_backend import jitted

        self.config = Config.parse("classic", players)
        self.steps = steps
        self.loop = jax_loop(self.config, steps, player)
        self.games = jitted(self.config).new_games(jnp.arange(seed, seed + size, dtype=jnp.uint32))
        self.next_seed = seed + size
        self.run()  # compile

    def run(self) -> Slice:
        started = time.perf_counter()
        games, next_seed, cards, ended = self.loop(self.games, self.next_seed)
        games.drawn.block_until_ready()
        elapsed = time.perf_counter() - started
        self.games, self.next_seed = games, int(next_seed)
        return Slice(elapsed, int(cards), int(ended))

    def warm_up(self, steps: int) -> int:
        """At least ``steps`` steps, untimed (whole compiled loops): the steps played."""
        calls = math.ceil(steps / self.steps)
        for _ in range(calls):
            self.run()
        return calls * self.steps


def reference_warmup(players: int, player: str, seed: int) -> int:
    """The steps a fresh NumPy batch of ``REFERENCE_GAMES`` needs for ``LONG_GAME`` of its
    games to end: the warm-up of a backend measured without NumPy."""
    steps, _ = NumpyBatch(players, REFERENCE_GAMES, seed + 2**31, player).warm_up()
    return steps


def spread(values: list[float], digits: int = 1) -> dict[str, Any]:
    """The median and the quartiles (inclusive: within the values) of ``values``."""
    quartiles = statistics.quantiles(values, n=4, method="inclusive") if len(values) > 1 else values * 3

    def rounded(value: float) -> float:
        return round(value) if digits == 0 else round(value, digits)

    return {
        "median": rounded(statistics.median(values)),
        "quartiles": [rounded(quartiles[0]), rounded(quartiles[2])],
    }


def interleaved(args: argparse.Namespace, players: int, peer: Any, backends: dict[str, Any]) -> dict[str, Any]:
    """``args.rounds`` rounds of slices: apologies, kernel, each batch backend; each one's
    cards per second (median and quartiles of its slices) and the per-round ratios to
    apologies (median and quartiles)."""
    slices: dict[str, list[Slice]] = {name: [] for name in ["apologies", "kernel", *backends]}
    seed = args.seed
    for round_number in range(args.rounds):
        progress(f"  round {round_number + 1}/{args.rounds}")
        if peer is not None:
            elapsed, cards = peer.play(players, PEER_GAMES[players], seed + round_number * 10)
            slices["apologies"].append(Slice(elapsed, cards, PEER_GAMES[players]))
        if not args.skip_kernel:
            low = seed + round_number * KERNEL_GAMES[players]
            elapsed, cards = core_benchmark.timed_kernel(players, range(low, low + KERNEL_GAMES[players]))
            slices["kernel"].append(Slice(elapsed, cards, KERNEL_GAMES[players]))
        for name, backend in backends.items():
            slices[name].append(backend.run(args.steps) if name == "numpy" else backend.run())
    result: dict[str, Any] = {}
    for name, measured in slices.items():
        if not measured:
            continue
        speeds = [part.cards / part.seconds for part in measured]
        result[name] = {
            "cards_per_s": spread(speeds, digits=0),
            "slices": len(measured),
            "cards": sum(part.cards for part in measured),
            "seconds": round(sum(part.seconds for part in measured), 3),
            "games_ended_per_slice": [part.ended for part in measured],
        }
    if slices["apologies"]:
        peer_speeds = [part.cards / part.seconds for part in slices["apologies"]]
        for name in ["kernel", *backends]:
            if slices[name]:
                ratios = [
                    part.cards / part.seconds / peer_speed
                    for part, peer_speed in zip(slices[name], peer_speeds, strict=True)
                ]
                result[name]["ratio"] = spread(ratios)
    return result


def memory_per_game(players: int, player: str, size: int = 65_536) -> dict[str, float]:
    """Bytes per game: the state, the mask of legal actions, and the peak working memory of a
    step (the player's choice included)."""
    config = Config.parse("classic", players)
    games = new_games(config, np.arange(size, dtype=np.uint32))
    state = sum(field.nbytes for field in games) / size
    choose = CHOOSERS[player]
    tracemalloc.start()
    games, _ = step(config, games, choose(config, games))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"state_bytes": round(state, 1), "mask_bytes": 141, "step_peak_bytes": round(peak / size, 1)}


def scaling(
    players: int, player: str, sizes: list[int], budget: float, warmup: int | None
) -> tuple[list[dict[str, Any]], int]:
    """Seconds per step (median and quartiles, each step timed alone) and cards per second
    (median) of the NumPy batch at each size: the first games of one batch of the largest
    size, warmed up to steady state; and the warm-up steps."""
    largest = NumpyBatch(players, max(sizes), seed=7, player=player)
    progress(f"  {players} players: warming up {max(sizes):,} games")
    warmed, _ = largest.warm_up(warmup)
    rows = []
    for size in sizes:
        games = largest.games if size == max(sizes) else games_at(largest.games, np.arange(size))
        batch = NumpyBatch(players, size, seed=2**31, player=player, games=games)
        batch.run(2)  # warm
        probe = batch.run(3).seconds / 3
        steps = max(5, min(2000, int(budget / max(1e-7, probe))))
        timed = [batch.run(1) for _ in range(steps)]
        seconds = spread([part.seconds * 1e6 for part in timed])
        rows.append(
            {
                "games": size,
                "steps": steps,
                "step_us": seconds["median"],
                "step_us_quartiles": seconds["quartiles"],
                "cards_per_s": spread([part.cards / part.seconds for part in timed], digits=0)["median"],
            }
        )
        progress(f"  {players} players, {size:>9,} games: {rows[-1]['step_us']:,.0f} µs per step (median)")
    return rows, warmed


def plot(result: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 3.8))
    for players, rows in result["scaling"].items():
        sizes = [row["games"] for row in rows]
        left.loglog(sizes, [row["step_us"] for row in rows], marker="o", label=f"{players} players")
        right.semilogx(sizes, [row["cards_per_s"] / 1e6 for row in rows], marker="o", label=f"{players} players")
    left.set_xlabel("games in the batch")
    left.set_ylabel("µs per step (median)")
    left.set_title(f"Cost of one step (NumPy, one core, {result['player']})")
    right.set_xlabel("games in the batch")
    right.set_ylabel("million cards drawn per second")
    right.set_title("Throughput, steady state")
    for axes in (left, right):
        axes.grid(True, which="both", alpha=0.3)
        axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def peer_version() -> dict[str, str] | None:
    """The installed apologies' version and its Python, asked of the peer venv itself."""
    script = "import importlib.metadata as m, platform; print(m.version('apologies'), platform.python_version())"
    done = subprocess.run(
        [str(core_benchmark.PEER_PYTHON), "-c", script], capture_output=True, text=True, check=False, cwd=ROOT
    )
    if done.returncode != 0:
        progress(f"could not read apologies' version from the peer venv: {done.stderr.strip()}")
        return None
    version, python = done.stdout.split()
    return {"version": version, "python": python}


def warm_up_backends(args: argparse.Namespace, players: int, backends: dict[str, Any]) -> dict[str, Any]:
    """Warm every backend up to steady state (untimed); what was done, for the report."""
    done: dict[str, Any] = {}
    steps = args.warmup
    if "numpy" in backends:
        progress(f"{players} players: warming up NumPy ({args.batch:,} games) until 99% of its games have ended")
        played, share = backends["numpy"].warm_up(args.warmup)
        done["numpy"] = {"steps": played, "first_games_ended": round(share, 4)}
        steps = played
    if "jax" in backends:
        if steps is None:
            steps = reference_warmup(players, args.player, args.seed)
        progress(f"{players} players: warming up JAX for {steps} steps")
        done["jax"] = {"steps": backends["jax"].warm_up(steps)}
    return done


def numba_version() -> str | None:
    """The Numba that compiles the batch's loops (pardon.batch.compiled), or None: array code."""
    from pardon.batch import compiled

    if not compiled.AVAILABLE:
        return None
    import numba

    return str(numba.__version__)


def run(args: argparse.Namespace) -> dict[str, Any]:
    core = None if args.any_core else pin_to_one_core()
    if args.backend in ("jax", "both"):
        os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba_version(),
        "core": core,
        "player": CHOOSERS[args.player].__name__,
        "player_label": PLAYER_LABELS[args.player],
        "batch": args.batch,
        "steps_per_slice": args.steps,
        "rounds": args.rounds,
        "apologies": None,
        "warmup": {},
        "players": {},
    }
    peer = None
    if not args.skip_peer:
        if core_benchmark.PEER_PYTHON.exists():
            result["apologies"] = peer_version()
            peer = core_benchmark.Peer()
        else:
            progress("no .peer-venv: run `bash benchmarks/setup_peer_env.sh` for the apologies figures")
    try:
        for players in PLAYERS:
            backends: dict[str, Any] = {}
            if args.backend in ("numpy", "both"):
                backends["numpy"] = NumpyBatch(players, args.batch, args.seed, args.player)
            if args.backend in ("jax", "both"):
                from pardon.batch.jax_backend import available, device

                if available():
                    progress(f"JAX device: {device()}, batch {args.batch:,} games, {args.steps} steps per call")
                    result["jax_device"] = device()
                    backends["jax"] = JaxBatch(players, args.batch, args.seed, args.steps, args.player)
                else:
                    progress("JAX is not installed: pip install 'pardon[jax]' for the JAX figures")
            result["warmup"][str(players)] = warm_up_backends(args, players, backends)
            progress(f"{players} players: {args.rounds} rounds of interleaved slices")
            result["players"][str(players)] = interleaved(args, players, peer, backends)
    finally:
        if peer is not None:
            peer.close()
    result["memory"] = {str(players): memory_per_game(players, args.player) for players in PLAYERS}
    if args.scaling or args.plot:
        progress("cost per step as the batch grows (steady state)")
        result["scaling"] = {}
        result["scaling_warmup"] = {}
        for players in PLAYERS:
            rows, warmed = scaling(players, args.player, SCALING_SIZES, args.scaling_seconds, args.warmup)
            result["scaling"][str(players)] = rows
            result["scaling_warmup"][str(players)] = warmed
        if args.plot:
            plot(result, args.plot)
            progress(f"plot written to {args.plot}")
    return result


def table(result: dict[str, Any]) -> str:
    where = f"core {result['core']}" if result["core"] is not None else "any core"
    peer = result["apologies"]
    lines = [
        f"Python {result['python']}, NumPy {result['numpy']} "
        f"({'compiled loops: Numba ' + result['numba'] if result.get('numba') else 'no Numba: array code only'}), "
        f"one process pinned to {where}; "
        f"batch of {result['batch']:,} games, {result['steps_per_slice']} steps a slice, "
        f"{result['rounds']} interleaved rounds",
        f"batch player: {result['player_label']}",
    ]
    if peer is not None:
        lines.append(f"peer: apologies {peer['version']} (installed in .peer-venv, Python {peer['python']})")
    if "jax_device" in result:
        lines.append(f"JAX device: {result['jax_device']}")
    for players, done in result["warmup"].items():
        words = [
            f"{name} {entry['steps']} steps"
            + (f" ({entry['first_games_ended']:.1%} of its first games ended)" if "first_games_ended" in entry else "")
            for name, entry in done.items()
        ]
        if words:
            lines.append(f"warm-up before timing, {players} players: {', '.join(words)}")
    batch = "random_moves" if result["player"] == "random_moves" else "random_actions, biased"
    names = {
        "apologies": f"apologies {peer['version']}" if peer is not None else "apologies",
        "kernel": "pardon core kernel",
        "numpy": f"pardon.batch, NumPy ({batch})",
        "jax": f"pardon.batch, JAX ({batch})",
    }
    header = ["cards drawn per second", *(f"{players} players" for players in result["players"])]
    rows = [header]
    for name, label in names.items():
        cells = [label]
        for figures in result["players"].values():
            entry = figures.get(name)
            if entry is None:
                cells.append("-")
                continue
            speed = entry["cards_per_s"]
            low, high = speed["quartiles"]
            cell = f"{speed['median']:,.0f} ({low:,.0f}–{high:,.0f})"
            if "ratio" in entry:
                ratio = entry["ratio"]
                cell += f"  {ratio['median']:,.1f}× ({ratio['quartiles'][0]:,.1f}–{ratio['quartiles'][1]:,.1f}×)"
            cells.append(cell)
        if any(cell != "-" for cell in cells[1:]):
            rows.append(cells)
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    for row in rows:
        lines.append(
            "  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
        )
    lines.append(
        "(medians over the slices, quartiles in brackets; ×: cards per second over apologies' in the same "
        "round, median of the rounds' ratios and their quartiles)"
    )
    for players, figures in result["players"].items():
        for name in ("numpy", "jax"):
            if name in figures:
                ended = figures[name]["games_ended_per_slice"]
                lines.append(
                    f"games ended and replaced per timed slice, {name}, {players} players: "
                    f"median {statistics.median(ended):,.0f} (fewest {min(ended):,})"
                )
    for players, memory in result["memory"].items():
        lines.append(
            f"memory per game, {players} players: state {memory['state_bytes']:.0f} bytes, "
            f"legal-action mask {memory['mask_bytes']} bytes, "
            f"peak working memory of a step {memory['step_peak_bytes']:.0f} bytes"
        )
    for players, scaled in result.get("scaling", {}).items():
        cells = ", ".join(f"{row['games']:,}: {row['step_us']:,.0f} µs" for row in scaled)
        lines.append(f"cost per step (median, steady state), {players} players (games: time): {cells}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--batch", type=int, default=65_536, help="games at once (65,536)")
    parser.add_argument("--steps", type=int, default=20, help="steps per batch slice (20)")
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds per player count (9)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--player",
        choices=tuple(CHOOSERS),
        default="moves",
        help="the batch's random player: moves = random_moves, unbiased (default); "
        "actions = random_actions, uniform among actions (biased)",
    )
    parser.add_argument(
        "--warmup",
        type=int,
        help="untimed steps before timing (default: until 99%% of the batch's first games have ended)",
    )
    parser.add_argument("--backend", choices=("numpy", "jax", "both"), default="both", help="both: JAX if installed")
    parser.add_argument("--skip-peer", action="store_true", help="do not run apologies")
    parser.add_argument("--skip-kernel", action="store_true", help="do not run the core's kernel")
    parser.add_argument("--any-core", action="store_true", help="do not pin to one core (a GPU run)")
    parser.add_argument(
        "--scaling", action="store_true", help="also time a step at 1 to 1,000,000 games (minutes: warms up a million)"
    )
    parser.add_argument("--scaling-seconds", type=float, default=1.0, help="time per size in --scaling (1 s)")
    parser.add_argument("--plot", type=Path, help="draw the scaling figures into this PNG (implies --scaling)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    for name in ("batch", "steps", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    if args.warmup is not None and args.warmup < 0:
        parser.error("--warmup must be at least 0")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = run(args)
    print(json.dumps(result) if args.json else table(result))


if __name__ == "__main__":
    main()
