"""Watching computer players in a plain terminal (``pardon play``): no full screen needed.

In a terminal the board is drawn in colour and in place, a move at a time, at a pace a person can
follow: beside it who plays which colour and the Leader draw, under it the moves so far, wrapped,
and a line of keys (pause, one move at a time, faster and slower, scroll the moves back, quit).
Written to a file or a pipe, every move is a numbered line with the board after it, as text.
``fast`` is the old output: every move at once, no legend, no colour.  Needs nothing beyond the
standard library.
"""

from __future__ import annotations

import contextlib
import os
import re
import select
import termios
import textwrap
import time
import tty
from collections.abc import Sequence
from typing import Final, TextIO

from pardon.core.board import COLOUR_NAMES
from pardon.core.state import Position
from pardon.textboard import LEGEND, TOKEN_MARKS, legend, render
from pardon.tui.gone import terminal_gone

#: Seconds between moves when a person watches in a terminal (+ and - change it as they watch).
FOLLOWABLE_PACE: Final = 0.5
#: The paces + and - step through, in seconds a move.
PACES: Final = (0.0, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0)
_HOME: Final = "\x1b[H"
_CLEAR: Final = "\x1b[H\x1b[2J"
_END_OF_LINE: Final = "\x1b[K"
_END_OF_SCREEN: Final = "\x1b[J"
#: A terminal's colour codes, which take no room on the screen.
_ESCAPE: Final = re.compile(r"\x1b\[[0-9;]*m")
#: The board's width and height in a terminal (16 cells of 3 characters, a line each).
BOARD: Final = (48, 16)
#: The narrowest column beside the board worth having (else the players go above it).
SIDE_LEAST: Final = 24
_PLAYER_COLOURS: Final = ("1;31", "1;34", "1;33", "1;32")
_ARROWS: Final = {"A": "up", "B": "down", "C": "right", "5~": "pageup", "6~": "pagedown"}
#: A key a terminal sends as several characters: ESC, then [ or O, then the key's own.
_SEQUENCE: Final = re.compile(r"\x1b[\[O]([0-9;]*[~A-Za-z])")


class TerminalGoneError(Exception):
    """The terminal watched in went away (its window closed): nothing more can be shown."""


class StoppedWatchingError(Exception):
    """The watcher pressed q."""


def wants_colour(out: TextIO, choice: str) -> bool:
    """Colour ``always``, ``never``, or (``auto``) in a terminal unless NO_COLOR is set."""
    if choice != "auto":
        return choice == "always"
    return out.isatty() and not os.environ.get("NO_COLOR")


def visible(text: str) -> int:
    """How many columns ``text`` takes, its colour codes aside."""
    return len(_ESCAPE.sub("", text))


class Keys:
    """The watcher's keys, read from a terminal one at a time without waiting for Enter; the
    terminal's settings are put back by :meth:`close`."""

    def __init__(self, stream: TextIO) -> None:
        self.fd = stream.fileno()
        self._saved = termios.tcgetattr(self.fd)
        self._pending: list[str] = []  # keys read together (an arrow held down), one at a time
        tty.setcbreak(self.fd)

    def read(self, seconds: float | None) -> str | None:
        """The next key within ``seconds`` (None: wait for one), or None."""
        if not self._pending:
            ready, _, _ = select.select([self.fd], [], [], seconds)
            if not ready:
                return None
            try:
                data = os.read(self.fd, 64).decode("utf-8", "replace")
            except OSError:
                raise TerminalGoneError from None
            if not data:  # a hung-up terminal reads as empty at once, for ever
                raise TerminalGoneError
            self._pending = _split_keys(data)
        return self._pending.pop(0) if self._pending else None

    def close(self) -> None:
        with contextlib.suppress(termios.error, OSError):
            termios.tcsetattr(self.fd, termios.TCSADRAIN, self._saved)


def _split_keys(data: str) -> list[str]:
    """The keys in what a terminal sent: arrows and Page Up/Down by name, any other character itself."""
    keys = []
    while data:
        sequence = _SEQUENCE.match(data)
        if sequence is not None:
            keys.append(_ARROWS.get(sequence.group(1), ""))
            data = data[sequence.end() :]
        else:
            keys.append(data[0])
            data = data[1:]
    return [key for key in keys if key]


class Watcher:
    """Shows a game's moves as they are made, on ``out``.

    ``board`` is ``every`` (after each move), ``end`` or ``none``; ``live`` redraws the board in
    place rather than printing it again; ``delay`` is the pause after each move; ``keys``, where
    given, pauses, steps, speeds up and slows down, scrolls and quits.
    """

    def __init__(
        self,
        out: TextIO,
        board: str = "every",
        colour: bool = False,
        live: bool = False,
        delay: float = 0.0,
        fast: bool = False,
        keys: Keys | None = None,
    ) -> None:
        self.out = out
        self.board = board
        self.colour = colour
        self.live = live and board == "every"
        self.delay = delay
        self.fast = fast
        self.keys = keys if self.live else None
        self.heading: list[str] = []
        self.players: list[tuple[int, str]] = []
        self.leader = ""
        self.legend: list[str] = []
        self.tokens = False
        self.moves: list[str] = []
        self.last_number = 0
        self.position: Position | None = None
        self.paused = False
        self.show_legend = False  # ? shows the legend where the moves are
        self.scroll = 0  # lines of the moves scrolled back from the latest
        self._drawn = False

    def opening(
        self, lines: list[str], tokens: bool, players: Sequence[tuple[int, str]] = (), leader: str = ""
    ) -> None:
        """The game's first lines (players, Leader draw), then the legend unless ``fast``; drawn
        live, who plays which colour and the Leader draw stay beside the board."""
        self.heading = list(lines)
        self.players = list(players)
        self.leader = leader
        self.tokens = tokens
        if not self.fast:
            self.legend = ["Legend:", *legend(self.colour, tokens).splitlines()]
            self.heading += [*self.legend, ""]
        if not self.live:
            self._print("\n".join(self.heading))

    def turn(self, number: int, words: str, position: Position, is_pass: bool) -> None:
        """One move made: its line, and the board after it."""
        line = f"{number:4d}. {words}"
        self.last_number = number
        if self.live:
            self.moves.append(line)
            self.position = position
            self.scroll = 0
            self._draw()
            self._wait()
            return
        self._print(line)
        if self.board == "every" and not is_pass:
            self._print(render(position, self.colour, self.tokens) + "\n")
        if self.delay:
            time.sleep(self.delay)

    # --- drawn live -------------------------------------------------------------------------

    def _size(self) -> tuple[int, int]:
        try:
            return os.get_terminal_size(self.out.fileno())
        except (AttributeError, OSError, ValueError):
            return 80, 24

    def frame(self, columns: int, rows: int) -> list[str]:
        """The screen, a line a row, none wider than ``columns`` nor more than ``rows - 1`` (the
        cursor's line kept free, so that the terminal never scrolls)."""
        board = render(self.position, self.colour, self.tokens).splitlines() if self.position is not None else []
        side_width = columns - BOARD[0] - 2
        if side_width >= SIDE_LEAST:
            side = self._side(side_width, len(board))
            top = [f"{line}  {side[index]}" if index < len(side) else line for index, line in enumerate(board)]
        else:
            top = [*self._players_line(columns), *board]
        room = max(0, rows - 1 - len(top) - 1)
        below = self._legend_lines(columns)[:room] if self.show_legend else self._moves_shown(columns, room)
        return [*top, *below, self._keys_line(columns)][: max(1, rows - 1)]

    def _legend_lines(self, width: int) -> list[str]:
        return [
            part
            for mark, meaning in LEGEND
            if self.tokens or mark not in TOKEN_MARKS
            for part in textwrap.wrap(f"{mark} {meaning}", width, subsequent_indent="    ")
        ]

    def _side(self, width: int, height: int) -> list[str]:
        """Beside the board: the title, who plays which colour, the Leader draw, and the legend
        as far as it fits."""
        title = self.heading[0].split(";")[0] if self.heading else ""  # the players are named below
        lines = textwrap.wrap(title, width)
        lines += [self._player(colour, level, width) for colour, level in self.players]
        if self.leader:
            lines += ["", *textwrap.wrap(self.leader, width)]
        marks = self._legend_lines(width)
        if len(lines) + 1 + len(marks) <= height:  # the legend where it fits whole (else under ?)
            lines += ["", *marks]
        return lines[:height]

    def _player(self, colour: int, level: str, width: int) -> str:
        name = COLOUR_NAMES[colour].capitalize()
        words = f"{name:7s} {level}"[:width]
        if not self.colour:
            return words
        return f"\x1b[{_PLAYER_COLOURS[colour]}m{name}\x1b[0m{words[len(name) :]}"

    def _players_line(self, columns: int) -> list[str]:
        words = "  ".join(f"{COLOUR_NAMES[colour].capitalize()} {level}" for colour, level in self.players)
        return textwrap.wrap(words, columns)[:1]

    def _moves_shown(self, columns: int, room: int) -> list[str]:
        """The moves, wrapped, the latest last, or ``scroll`` lines back."""
        wrapped = [
            part for move in self.moves for part in textwrap.wrap(move, columns, subsequent_indent=" " * 6) or [""]
        ]
        self.scroll = max(0, min(self.scroll, len(wrapped) - room))
        end = len(wrapped) - self.scroll
        return wrapped[max(0, end - room) : end]

    def _keys_line(self, columns: int) -> str:
        pace = f"{self.delay:g} s a move"
        if self.keys is None:
            return ""
        if self.show_legend:
            words = "? back to the moves  space pause  q quit"
        elif self.scroll:
            words = f"{self.scroll} lines back: down/j to come back, space {'go on' if self.paused else 'pause'}"
        elif self.paused:
            words = f"PAUSED  space go on  n next move  +/- pace ({pace})  up/down moves  ? legend  q quit"
        else:
            words = f"space pause  n one move  +/- pace ({pace})  up/down moves  ? legend  q quit"
        words = words[:columns]
        return f"\x1b[7m{words}\x1b[0m" if self.colour else words

    def _draw(self) -> None:
        columns, rows = self._size()
        lines = self.frame(columns, rows)
        start = _HOME if self._drawn else _CLEAR  # cleared once: after that, each line written over
        self._drawn = True
        self._print(start + "".join(line + _END_OF_LINE + "\n" for line in lines[:-1]) + lines[-1] + _END_OF_SCREEN)

    def _wait(self) -> None:
        """The pause after a move, the keys heard meanwhile; paused, until space or n."""
        if self.keys is None:
            if self.delay:
                time.sleep(self.delay)
            return
        deadline = time.monotonic() + self.delay
        while True:
            key = self.keys.read(None if self.paused else max(0.0, deadline - time.monotonic()))
            if key is None:
                return  # the pause is over (a paused watcher waits for a key)
            if self._heard(key):
                return
            self._draw()

    def _heard(self, key: str) -> bool:
        """Act on a key; whether the next move is to come now."""
        if key in ("q", "Q"):
            raise StoppedWatchingError
        if key in (" ", "p"):
            self.paused = not self.paused
            return not self.paused
        if key in ("n", "right", "."):
            return True
        if key == "?":
            self.show_legend = not self.show_legend
        if key in ("+", "="):
            self.delay = max((pace for pace in PACES if pace < self.delay), default=0.0)
        elif key in ("-", "_"):
            self.delay = min((pace for pace in PACES if pace > self.delay), default=self.delay)
        elif key in ("up", "k", "pageup"):
            self.scroll += 5 if key == "pageup" else 1
        elif key in ("down", "j", "pagedown"):
            self.scroll = max(0, self.scroll - (5 if key == "pagedown" else 1))
        return False

    def end(self, position: Position, lines: list[str]) -> None:
        """The final board (when asked for at the end) and the result."""
        if self.board == "end":
            self._print(render(position, self.colour, self.tokens))
        self._print("\n".join(lines))

    def _print(self, text: str) -> None:
        try:
            print(text, file=self.out, flush=self.live)
        except OSError:
            if terminal_gone(self.out):
                raise TerminalGoneError from None
            raise
