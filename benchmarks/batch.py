"""Benchmark the batch engine (pardon.batch) beside apologies and the core's kernel, in one run.

What is measured, on one CPU core (the process and the apologies subprocess are pinned to
one), classic rules, 2 and 4 players, random players, in **cards drawn per second**:

* ``apologies`` 0.4.2 (``benchmarks/peer_apologies.py --serve`` in ``.peer-venv``, as
  ``benchmarks/engine.py`` runs it);
* pardon's playout kernel (``pardon.core.playout``, as ``benchmarks/engine.py`` times it);
* the batch engine on NumPy: ``--batch`` games at once (65,536), each step a uniformly
  random legal action per game, every finished game replaced at once by a new one;
* the batch engine on JAX, jitted (when JAX is installed; on the CPU here, pinned to one
  core and one thread).

The three are measured in interleaved slices (apologies, kernel, batch, apologies, ...),
``--rounds`` times per player count, so each ratio compares figures taken under the same
machine conditions; the report gives the median ratio with its extremes, and the pooled
figures (all cards over all time of each).

It also prints the memory per game (the state, and the peak working memory of a step) and,
with ``--scaling``, the cost of a step as the batch grows from 1 to 1,000,000 games
(``--plot FILE`` draws it).

On a GPU, with a CUDA build of JAX (``pip install 'jax[cuda12]'``), the same script
measures the accelerator (it prints the device and the batch size)::

    python benchmarks/batch.py --backend jax --batch 1048576 --steps 200 --skip-peer --skip-kernel --any-core

Run from the repository root::

    bash benchmarks/setup_peer_env.sh   # once, for the apologies figures
    PYTHONPATH=src python benchmarks/batch.py [--rounds R] [--batch B] [--json]
        [--scaling] [--plot docs/batch-scaling.png] [--backend numpy|jax|both] [--skip-peer]

Progress goes to stderr; the report (a table, or one JSON object) to stdout.  Nothing is
asserted: this prints figures.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))  # benchmarks/engine.py: the peer and the kernel, measured as there

import numpy as np  # noqa: E402

import engine as core_benchmark  # noqa: E402
from pardon.batch.convert import put_games  # noqa: E402
from pardon.batch.engine import Config, Games, new_games, random_actions, step  # noqa: E402

PLAYERS = (2, 4)
#: apologies games per slice (about 0.3 s on an idle core), and kernel games per slice.
PEER_GAMES = {2: 3, 4: 1}
KERNEL_GAMES = {2: 100, 4: 40}


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def pin_to_one_core() -> int | None:
    """Run on one core (the first this process may use); its children inherit it."""
    if not hasattr(os, "sched_setaffinity"):
        return None
    core = min(os.sched_getaffinity(0))
    os.sched_setaffinity(0, {core})
    return core


class NumpyBatch:
    """A batch of games on NumPy, kept going: finished games are replaced by new ones."""

    def __init__(self, players: int, size: int, seed: int) -> None:
        self.config = Config.parse("classic", players)
        self.next_seed = seed
        self.games = self._new(size)

    def _new(self, count: int) -> Games:
        seeds = (np.arange(count, dtype=np.uint64) + self.next_seed) % 2**32
        self.next_seed += count
        return new_games(self.config, seeds.astype(np.uint32))

    def run(self, steps: int) -> tuple[float, int]:
        """Seconds taken by ``steps`` steps, and the cards drawn (new games' first ones included)."""
        config, games = self.config, self.games
        cards = 0
        started = time.perf_counter()
        for _ in range(steps):
            before = int(games.drawn.sum(dtype=np.int64))
            games, _ = step(config, games, random_actions(config, games))
            cards += int(games.drawn.sum(dtype=np.int64)) - before
            over = np.flatnonzero(games.winner >= 0)
            if over.size:
                games = put_games(games, over, self._new(over.size))
                cards += over.size
        self.games = games
        return time.perf_counter() - started, cards


class JaxBatch:
    """The same on JAX: a compiled loop of ``steps`` steps."""

    def __init__(self, players: int, size: int, seed: int, steps: int) -> None:
        import jax.numpy as jnp

        from pardon.batch.jax_backend import jitted, random_run

        self.config = Config.parse("classic", players)
        self.loop = random_run(self.config, steps)
        self.games = jitted(self.config).new_games(jnp.arange(seed, seed + size, dtype=jnp.uint32))
        self.next_seed = seed + size
        self.run()  # compile

    def run(self) -> tuple[float, int]:
        started = time.perf_counter()
        games, next_seed, cards = self.loop(self.games, self.next_seed)
        games.drawn.block_until_ready()
        elapsed = time.perf_counter() - started
        self.games, self.next_seed = games, int(next_seed)
        return elapsed, int(cards)


def interleaved(args: argparse.Namespace, players: int, peer: Any, backends: dict[str, Any]) -> dict[str, Any]:
    """``args.rounds`` rounds of slices: apologies, kernel, each batch backend."""
    slices: dict[str, list[tuple[float, int]]] = {name: [] for name in ["apologies", "kernel", *backends]}
    seed = args.seed
    for round_number in range(args.rounds):
        if peer is not None:
            slices["apologies"].append(peer.play(players, PEER_GAMES[players], seed + round_number * 10))
        if not args.skip_kernel:
            low = seed + round_number * KERNEL_GAMES[players]
            slices["kernel"].append(core_benchmark.timed_kernel(players, range(low, low + KERNEL_GAMES[players])))
        for name, backend in backends.items():
            slices[name].append(backend.run(args.steps) if name == "numpy" else backend.run())
    result: dict[str, Any] = {}
    for name, measured in slices.items():
        if not measured:
            continue
        seconds = sum(elapsed for elapsed, _ in measured)
        cards = sum(count for _, count in measured)
        result[name] = {
            "cards_per_s": round(cards / seconds),
            "slices": len(measured),
            "cards": cards,
            "seconds": round(seconds, 2),
        }
    if slices["apologies"]:
        for name in ["kernel", *backends]:
            if slices[name]:
                ratios = [
                    (count / elapsed) / (peer_count / peer_elapsed)
                    for (elapsed, count), (peer_elapsed, peer_count) in zip(
                        slices[name], slices["apologies"], strict=True
                    )
                ]
                result[name]["ratio_median"] = round(statistics.median(ratios), 1)
                result[name]["ratio_range"] = [round(min(ratios), 1), round(max(ratios), 1)]
                result[name]["ratio_pooled"] = round(
                    result[name]["cards_per_s"] / result["apologies"]["cards_per_s"], 1
                )
    return result


def memory_per_game(players: int, size: int = 65_536) -> dict[str, float]:
    """Bytes per game: the state, the mask of legal actions, and the peak working memory of a step."""
    config = Config.parse("classic", players)
    games = new_games(config, np.arange(size, dtype=np.uint32))
    state = sum(field.nbytes for field in games) / size
    tracemalloc.start()
    games, _ = step(config, games, random_actions(config, games))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {"state_bytes": round(state, 1), "mask_bytes": 141, "step_peak_bytes": round(peak / size, 1)}


def scaling(players: int, sizes: list[int], budget: float) -> list[dict[str, float]]:
    """Seconds per step (and cards per second) of the NumPy batch at each size."""
    rows = []
    for size in sizes:
        batch = NumpyBatch(players, size, seed=7)
        batch.run(2)  # warm
        steps = max(3, min(2000, int(budget / max(1e-7, batch.run(3)[0] / 3))))
        seconds, cards = batch.run(steps)
        rows.append({"games": size, "step_us": round(seconds / steps * 1e6, 1), "cards_per_s": round(cards / seconds)})
        progress(f"  {players} players, {size:>9,} games: {rows[-1]['step_us']:,.0f} µs per step")
    return rows


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
    left.set_ylabel("µs per step")
    left.set_title("Cost of one step (NumPy, one core)")
    right.set_xlabel("games in the batch")
    right.set_ylabel("million cards drawn per second")
    right.set_title("Throughput")
    for axes in (left, right):
        axes.grid(True, which="both", alpha=0.3)
        axes.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def run(args: argparse.Namespace) -> dict[str, Any]:
    core = None if args.any_core else pin_to_one_core()
    if args.backend in ("jax", "both"):
        os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "numpy": np.__version__,
        "core": core,
        "batch": args.batch,
        "steps_per_slice": args.steps,
        "rounds": args.rounds,
        "players": {},
    }
    peer = None
    if not args.skip_peer:
        if core_benchmark.PEER_PYTHON.exists():
            peer = core_benchmark.Peer()
        else:
            progress("no .peer-venv: run `bash benchmarks/setup_peer_env.sh` for the apologies figures")
    try:
        for players in PLAYERS:
            backends: dict[str, Any] = {}
            if args.backend in ("numpy", "both"):
                backends["numpy"] = NumpyBatch(players, args.batch, args.seed)
                backends["numpy"].run(2)
            if args.backend in ("jax", "both"):
                from pardon.batch.jax_backend import available, device

                if available():
                    progress(f"JAX device: {device()}, batch {args.batch:,} games, {args.steps} steps per call")
                    result["jax_device"] = device()
                    backends["jax"] = JaxBatch(players, args.batch, args.seed, args.steps)
                else:
                    progress("JAX is not installed: pip install 'pardon[jax]' for the JAX figures")
            progress(f"{players} players: {args.rounds} rounds of interleaved slices")
            result["players"][str(players)] = interleaved(args, players, peer, backends)
    finally:
        if peer is not None:
            peer.close()
    result["memory"] = {str(players): memory_per_game(players) for players in PLAYERS}
    if args.scaling or args.plot:
        sizes = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000]
        progress("cost per step as the batch grows")
        result["scaling"] = {str(players): scaling(players, sizes, args.scaling_seconds) for players in PLAYERS}
        if args.plot:
            plot(result, args.plot)
            progress(f"plot written to {args.plot}")
    return result


def table(result: dict[str, Any]) -> str:
    where = f"core {result['core']}" if result["core"] is not None else "any core"
    lines = [
        f"Python {result['python']}, NumPy {result['numpy']}, one process pinned to {where}; "
        f"batch of {result['batch']:,} games, {result['rounds']} interleaved rounds",
    ]
    if "jax_device" in result:
        lines.append(f"JAX device: {result['jax_device']}")
    names = {
        "apologies": "apologies 0.4.2",
        "kernel": "pardon core kernel",
        "numpy": "pardon.batch, NumPy",
        "jax": "pardon.batch, JAX",
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
            cell = f"{entry['cards_per_s']:,}"
            if "ratio_median" in entry:
                low, high = entry["ratio_range"]
                cell += f" ({entry['ratio_median']:,}×; {low:,}–{high:,}×)"
            cells.append(cell)
        if any(cell != "-" for cell in cells[1:]):
            rows.append(cells)
    widths = [max(len(row[column]) for row in rows) for column in range(len(header))]
    for row in rows:
        lines.append(
            "  ".join(cell.ljust(widths[0]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row))
        )
    lines.append("(×: cards per second over apologies', median of the interleaved rounds; extremes)")
    for players, memory in result["memory"].items():
        lines.append(
            f"memory per game, {players} players: state {memory['state_bytes']:.0f} bytes, "
            f"legal-action mask {memory['mask_bytes']} bytes, "
            f"peak working memory of a step {memory['step_peak_bytes']:.0f} bytes"
        )
    for players, scaled in result.get("scaling", {}).items():
        cells = ", ".join(f"{row['games']:,}: {row['step_us']:,.0f} µs" for row in scaled)
        lines.append(f"cost per step, {players} players (games: time): {cells}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--batch", type=int, default=65_536, help="games at once (65,536)")
    parser.add_argument("--steps", type=int, default=20, help="steps per batch slice (20)")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per player count (5)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--backend", choices=("numpy", "jax", "both"), default="both", help="both: JAX if installed")
    parser.add_argument("--skip-peer", action="store_true", help="do not run apologies")
    parser.add_argument("--skip-kernel", action="store_true", help="do not run the core's kernel")
    parser.add_argument("--any-core", action="store_true", help="do not pin to one core (a GPU run)")
    parser.add_argument("--scaling", action="store_true", help="also time a step at 1 to 1,000,000 games")
    parser.add_argument("--scaling-seconds", type=float, default=1.0, help="time per size in --scaling (1 s)")
    parser.add_argument("--plot", type=Path, help="draw the scaling figures into this PNG (implies --scaling)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    args = parser.parse_args(argv)
    for name in ("batch", "steps", "rounds"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = run(args)
    print(json.dumps(result) if args.json else table(result))


if __name__ == "__main__":
    main()
