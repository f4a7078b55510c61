"""A one-line progress bar for long runs: games done, games per second, time elapsed and left.

>>> import io
>>> stream = io.StringIO()
>>> bar = Progress(4, stream)
>>> bar.update(0)
>>> bar.update(4)
>>> stream.getvalue().rsplit("\\r", 1)[-1].startswith("[" + "#" * 30 + "] 4/4 games")
True
"""

from __future__ import annotations

import math
import time
from typing import TextIO

#: Games per second above which the bar is redrawn at most five times a second.
FAST = 5.0


class Progress:
    """A progress bar on a terminal stream (None: silent).

    A fast run is redrawn at most five times a second; a slow one (under :data:`FAST`
    games a second) at every game, so that a chunk of games finishing at once never leaves
    a stale count on screen until the next chunk, minutes later.

    The rate and the time left count only the games played since the first update, so a
    resumed run does not credit itself with the games an earlier run played.
    """

    def __init__(self, total: int, stream: TextIO | None, width: int = 30, unit: str = "games") -> None:
        self.total = total
        self.unit = unit  # what is counted: games, or the decisions of ``pardon analyse``
        self.stream = stream
        self.width = width
        self.started = time.monotonic()
        self.last = 0.0
        self.first: int | None = None

    def update(self, done: int) -> None:
        if self.stream is None:
            return
        if self.first is None:
            self.first = done
        now = time.monotonic()
        elapsed = now - self.started
        played = done - self.first
        rate = played / elapsed if played and elapsed > 0 else math.nan
        if done < self.total and now - self.last < 0.2 and not rate < FAST:
            return
        self.last = now
        eta = (self.total - done) / rate if not math.isnan(rate) else math.nan
        filled = self.width * min(done, self.total) // max(1, self.total)
        bar = "#" * filled + "." * (self.width - filled)
        speed = "" if math.isnan(rate) else f", {games_per_second(rate)} {self.unit}/s"
        left = "?" if math.isnan(eta) else duration(eta)
        self.stream.write(f"\r[{bar}] {done}/{self.total} {self.unit}{speed}, {duration(elapsed)} elapsed, ETA {left} ")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def games_per_second(rate: float) -> str:
    """``1,250``, ``14``, ``0.35``: slow players (a few games a minute) still show a rate."""
    if rate >= 10:
        return f"{rate:,.0f}"
    return f"{rate:.1f}" if rate >= 1 else f"{rate:.2f}"


def duration(seconds: float) -> str:
    """``42s``, ``3m07s``, ``2h05m``."""
    if seconds < 60:
        return f"{seconds:.0f}s"
    minutes, seconds = divmod(int(seconds), 60)
    return f"{minutes}m{seconds:02d}s" if minutes < 60 else f"{minutes // 60}h{minutes % 60:02d}m"
