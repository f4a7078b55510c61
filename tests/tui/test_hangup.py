"""Closing the terminal a screen runs in: the game is saved and the command ends at once.

The terminal window closed sends SIGHUP; a pseudo-terminal deleted under a command that does
not have it as its controlling terminal sends nothing, and only reads and writes tell.  Either
way an online seat (``--join``) stayed for good, stuck writing to a queue nothing emptied, and a
game on this machine spun a core for an hour reading a terminal that was no more.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from tui_support import Terminal

pytest.importorskip("textual")

#: How soon the command must be gone once its terminal is.
PROMPTLY = 2.0


def _closed(terminal: Terminal) -> tuple[int | None, float, float]:
    """Close the terminal; the command's status (None: still running well after PROMPTLY),
    how long it took to end, and the processor time it used meanwhile."""
    before = terminal.cpu_seconds()
    started = time.monotonic()
    terminal.close_window()
    while terminal.process.poll() is None and time.monotonic() - started < 2 * PROMPTLY:
        time.sleep(0.05)
    status = terminal.process.poll()
    used = terminal.cpu_seconds() - before if status is None else 0.0
    if status is None:
        terminal.process.kill()
    return status, time.monotonic() - started, used


@pytest.fixture
def server(tmp_path: Path) -> Iterator[object]:
    pytest.importorskip("fastapi")
    from test_online import Server

    running = Server(tmp_path / "games.sqlite3")
    yield running
    running.stop()


@pytest.mark.parametrize("controlling", [True, False], ids=["sighup", "no-sighup"])
def test_a_game_here_closed_with_its_terminal_is_saved_and_ends(tmp_path: Path, controlling: bool) -> None:
    arguments = ["tui", "--players", "2", "--seed", "4", "--pace", "0", "--record", "game.txt"]
    terminal = Terminal(arguments, cwd=tmp_path, controlling=controlling)
    terminal.read_until(b"q quit")
    status, took, _ = _closed(terminal)
    assert status == 130 and took < PROMPTLY, (status, took)
    record = (tmp_path / "game.txt").read_text(encoding="utf-8")
    assert '[Seed "4"]' in record and '[Result "*"]' in record  # to take up again with --resume


@pytest.mark.parametrize("controlling", [True, False], ids=["sighup", "no-sighup"])
def test_an_online_seat_closed_with_its_terminal_ends_and_never_spins(
    server: object, tmp_path: Path, controlling: bool
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    created = server.rest("/api/games", {"rules": "classic", "seats": seats})  # type: ignore[attr-defined]
    terminal = Terminal(["tui", "--join", created["seats"][0]["link"]], cwd=tmp_path, controlling=controlling)
    terminal.read_until(b"your turn")
    status, took, used = _closed(terminal)
    assert status == 130 and took < PROMPTLY, (status, took, f"{used:.1f} s of processor")


def test_a_terminal_gone_is_told_from_one_that_never_was() -> None:
    from pardon.tui.gone import terminal_gone

    with open(Path(__file__)) as not_a_terminal:  # a file, a pipe: nothing gone, nothing to leave
        assert not terminal_gone(not_a_terminal)
    assert not terminal_gone(sys.stdin) or not sys.stdin.isatty()
