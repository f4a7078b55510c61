"""Throughput and memory of ``pardon sim``: games/s with 1 and 2 processes, and the peak
memory of a run as it grows (it should not: results stream to disk).

Each measurement runs ``pardon sim`` as a fresh process into a fresh directory and reads
its peak resident memory (the largest of the command and its worker processes) from
``resource.getrusage(RUSAGE_CHILDREN)``.  Prints figures; asserts nothing.

    python benchmarks/sim.py [--games 10000] [--memory 10000,100000] [--rules classic] [--players 2]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time


def measure(rules: str, players: int, games: int, jobs: int) -> tuple[float, float]:
    """(games per second, peak resident MiB) of one fresh run in a separate process."""
    with tempfile.TemporaryDirectory() as directory:
        command = [
            sys.executable,
            "-m",
            "pardon",
            "sim",
            "--rules",
            rules,
            "--players",
            str(players),
            "--games",
            str(games),
            "--jobs",
            str(jobs),
            "--seed",
            "1",
            "--out",
            directory,
            "--quiet",
        ]
        started = time.perf_counter()
        # A fresh interpreter per measurement: RUSAGE_CHILDREN's peak is the largest of
        # every descendant waited for, so it is read in a child of its own.
        probe = (
            "import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
            "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
        )
        done = subprocess.run([sys.executable, "-c", probe, *command], capture_output=True, text=True, check=True)
        elapsed = time.perf_counter() - started
        peak_kib = int(done.stdout.strip().splitlines()[-1])
    return games / elapsed, peak_kib / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=10_000, help="games for the throughput runs")
    parser.add_argument("--memory", default="10000,100000", help="run sizes for the memory runs (2 processes)")
    arguments = parser.parse_args()
    print(f"pardon sim, {arguments.rules}, {arguments.players} random players", file=sys.stderr)
    rates = {}
    for jobs in (1, 2):
        print(f"  throughput, {arguments.games:,} games, {jobs} job(s) ...", file=sys.stderr, flush=True)
        rates[jobs], _ = measure(arguments.rules, arguments.players, arguments.games, jobs)
    print(f"| jobs | games/s |\n|---|---|\n| 1 | {rates[1]:,.0f} |\n| 2 | {rates[2]:,.0f} |")
    print(f"speed-up with 2 jobs: {rates[2] / rates[1]:.2f}x")
    print("\n| games | peak memory of the largest process |\n|---|---|")
    for games in (int(size) for size in arguments.memory.split(",")):
        print(f"  memory, {games:,} games, 2 jobs ...", file=sys.stderr, flush=True)
        _, peak = measure(arguments.rules, arguments.players, games, 2)
        print(f"| {games:,} | {peak:.0f} MiB |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
