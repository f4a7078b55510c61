"""Helpers for the terminal game's tests: a game at a chosen position, the screen as text, and
playing by keys through Textual's pilot."""

from __future__ import annotations

import fcntl
import io
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot

from pardon.core.cards import Pack
from pardon.core.game import Game
from pardon.core.notation import parse_position
from pardon.core.rules import parse_rules
from pardon.tui.app import PardonApp
from pardon.tui.local import LocalTable
from pardon.tui.table import FINISHED


def game_at(rules: str, position: str, cards: Iterable[int], seed: int = 1) -> Game:
    """A game from ``position`` (notation) whose pack turns up ``cards`` first, in that order."""
    return Game.at(parse_rules(rules), parse_position(position), Pack(tuple(cards), (), 1), seed)


def local_app(game: Game, people: Iterable[int] = (0,), level: str = "random", **options: object) -> PardonApp:
    """The screen of ``game`` played by ``people`` here and computers of ``level`` at once (no pause)."""
    return PardonApp(LocalTable(game, frozenset(people), level, pace=0), **options)  # type: ignore[arg-type]


def screen_text(app: PardonApp) -> str:
    """The whole screen as plain text, as a terminal without colour shows it."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True, color_system=None)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


async def until(pilot: Pilot[None], condition: Callable[[], bool], seconds: float = 30.0) -> None:
    """Let the app run until ``condition`` holds; fail after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError("the screen never got there")
        await pilot.pause(0.01)


def deciding(app: PardonApp) -> bool:
    """Whether a person at this screen has a decision to make (or to uncover)."""
    return app.picker is not None or app.covered or app.view_now.status == FINISHED


async def play_by_keys(
    pilot: Pilot[None], app: PardonApp, keys: Iterable[str] = ("enter",), seconds: float = 300
) -> int:
    """Press ``keys`` in turn whenever a person here decides, until the game is over; the number pressed."""
    cycle = list(keys)
    pressed = 0
    deadline = time.monotonic() + seconds
    while app.view_now.status != FINISHED:
        await until(pilot, lambda: deciding(app), seconds=max(1.0, deadline - time.monotonic()))
        if app.view_now.status == FINISHED:
            break
        await pilot.press(cycle[pressed % len(cycle)])
        pressed += 1
    return pressed


#: Every command started in a pseudo-terminal, for the end of each test to stop.
STARTED: list[Terminal] = []


class Terminal:
    """A command in a pseudo-terminal of a given size: what it draws, and keys typed into it."""

    def __init__(
        self, arguments: list[str], size: tuple[int, int] = (80, 24), cwd: Path | None = None, controlling: bool = False
    ) -> None:
        """``controlling``: the pseudo-terminal is the command's controlling terminal, as a
        terminal window's is: closing it sends SIGHUP (else it vanishes without one)."""
        self.master, slave = pty.openpty()
        columns, lines = size
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
        environment = {**os.environ, "TERM": "xterm-256color", "COLORTERM": "truecolor"}
        environment.pop("NO_COLOR", None)
        self.process = subprocess.Popen(
            [sys.executable, "-m", "pardon", *arguments],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=environment,
            cwd=cwd,
            close_fds=True,
            preexec_fn=_take_as_controlling_terminal if controlling else None,  # noqa: PLW1509 (two system calls)
        )
        os.close(slave)
        self.output = b""
        self.closed = False
        STARTED.append(self)

    def stop(self) -> None:
        """End the command if it still runs (a test that failed midway): it has no terminal left
        to hang up on it, and would otherwise spin on after the test."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        if not self.closed:  # closed by finish() its number may be another file's by now
            self.closed = True
            os.close(self.master)

    def read_until(self, wanted: bytes, seconds: float = 30.0) -> bytes:
        deadline = time.monotonic() + seconds
        while wanted not in self.output:
            if time.monotonic() > deadline:
                raise AssertionError(f"{wanted!r} never came; the terminal shows {self.output[-400:]!r}")
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.output += os.read(self.master, 65536)
                except OSError:  # the process has ended and closed its side
                    break
        return self.output

    def close_window(self) -> None:
        """Close the terminal as its window closing does: the command's side is hung up."""
        self.closed = True
        os.close(self.master)

    def cpu_seconds(self) -> float:
        """The processor time the command has used so far."""
        fields = Path(f"/proc/{self.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def finish(self, seconds: float = 20.0) -> int:
        """Wait for the command to end, reading what it still draws (a full terminal would stop it)."""
        deadline = time.monotonic() + seconds
        try:
            while self.process.poll() is None and time.monotonic() < deadline:
                ready, _, _ = select.select([self.master], [], [], 0.1)
                if ready:
                    try:
                        self.output += os.read(self.master, 65536)
                    except OSError:
                        break
            return self.process.wait(timeout=max(0.1, deadline - time.monotonic()))
        finally:
            if self.process.poll() is None:
                self.process.kill()
            self.closed = True
            os.close(self.master)


def _take_as_controlling_terminal() -> None:
    """In the child: a session of its own whose controlling terminal is its standard input."""
    os.setsid()
    fcntl.ioctl(0, termios.TIOCSCTTY, 0)
