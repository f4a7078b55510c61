"""The worker processes of a simulation or a tournament on this machine.

Ctrl+C reaches every process of the terminal's group: the workers ignore it and the parent
alone stops the run (the pool is ended as the parent leaves it), so a user sees the one line
the command line prints, not a traceback from each worker.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
from multiprocessing.pool import Pool

__all__ = ["most_jobs", "worker_pool"]


def _ignore_interrupts() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def worker_pool(jobs: int) -> Pool:
    """A pool of ``jobs`` worker processes that leave Ctrl+C to the parent."""
    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    return context.Pool(jobs, initializer=_ignore_interrupts)


def most_jobs() -> int:
    """The most worker processes a run on this machine may ask for: 8 a core (more only
    wait their turn, and a mistyped --jobs 100000 would start as many processes)."""
    return 8 * (os.cpu_count() or 1)
