"""The progress bar of long runs: its rate and time left count only this run's games."""

from __future__ import annotations

import io
import time

from pardon.sim.progress import Progress, duration, games_per_second


def test_a_resumed_run_counts_only_the_games_it_plays() -> None:
    stream = io.StringIO()
    bar = Progress(1000, stream)
    bar.update(900)  # resumed: 900 games were played by an earlier run
    bar.started -= 10.0  # ten seconds later ...
    bar.last = 0.0
    bar.update(950)  # ... 50 more games: 5 games/s, so 10 s are left
    line = stream.getvalue().rsplit("\r", 1)[-1]
    assert "950/1000 games, 5.0 games/s" in line
    assert "ETA 10s" in line


def test_the_bar_ends_its_line_when_done_and_is_silent_without_a_stream() -> None:
    stream = io.StringIO()
    bar = Progress(3, stream)
    for done in range(4):
        bar.update(done)
        time.sleep(0.001)
    assert stream.getvalue().endswith("\n") and "3/3 games" in stream.getvalue()
    Progress(3, None).update(3)  # nothing to write to: nothing happens


def test_a_slow_run_shows_every_game_of_a_burst_and_a_fast_one_is_throttled() -> None:
    slow = io.StringIO()
    bar = Progress(100, slow)
    bar.update(0)
    bar.started -= 60.0  # a minute in: a chunk of three games arrives at once
    for done in (1, 2, 3):
        bar.update(done)
    assert slow.getvalue().rsplit("\r", 1)[-1].startswith("[" + "." * 30 + "] 3/100 games")
    fast = io.StringIO()
    bar = Progress(10_000, fast)
    for done in range(5_000):  # thousands of games a second
        bar.update(done)
    assert fast.getvalue().count("\r") < 10


def test_durations_read_as_a_person_says_them() -> None:
    assert [duration(s) for s in (42, 187, 7500)] == ["42s", "3m07s", "2h05m"]


def test_a_slow_run_still_shows_its_rate() -> None:
    assert [games_per_second(r) for r in (1250.4, 14.2, 3.25, 0.347)] == ["1,250", "14", "3.2", "0.35"]
