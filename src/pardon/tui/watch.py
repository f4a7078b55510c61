"""Watching computer players in a plain terminal (``pardon play``): no full screen needed.

In a terminal the board is drawn in colour and in place, a move at a time, at a pace a person can
follow, under the legend and the last few moves; written to a file or a pipe, every move is a
numbered line with the board after it, as text.  ``fast`` is the old output: every move at once,
no legend, no colour.  Needs nothing beyond the standard library.
"""

from __future__ import annotations

import os
import re
import time
from collections import deque
from typing import Final, TextIO

from pardon.core.state import Position
from pardon.textboard import legend, render

#: Seconds between moves when a person watches in a terminal.
FOLLOWABLE_PACE: Final = 1.0
#: Moves kept in view above the board when it is drawn in place.
RECENT: Final = 6
_CLEAR: Final = "\x1b[H\x1b[2J"
#: A terminal's colour codes, which take no room on the screen.
_ESCAPE: Final = re.compile(r"\x1b\[[0-9;]*m")


def wants_colour(out: TextIO, choice: str) -> bool:
    """Colour ``always``, ``never``, or (``auto``) in a terminal unless NO_COLOR is set."""
    if choice != "auto":
        return choice == "always"
    return out.isatty() and not os.environ.get("NO_COLOR")


class Watcher:
    """Shows a game's moves as they are made, on ``out``.

    ``board`` is ``every`` (after each move), ``end`` or ``none``; ``live`` redraws the board in
    place rather than printing it again; ``delay`` is the pause after each move.
    """

    def __init__(
        self,
        out: TextIO,
        board: str = "every",
        colour: bool = False,
        live: bool = False,
        delay: float = 0.0,
        fast: bool = False,
    ) -> None:
        self.out = out
        self.board = board
        self.colour = colour
        self.live = live and board == "every"
        self.delay = delay
        self.fast = fast
        self.heading: list[str] = []
        self.legend: list[str] = []
        self.recent: deque[str] = deque(maxlen=RECENT)

    def opening(self, lines: list[str], tokens: bool) -> None:
        """The game's first lines (players, Leader draw), then the legend unless ``fast``."""
        self.heading = list(lines)
        if not self.fast:
            self.legend = ["Legend:", *legend(self.colour, tokens).splitlines()]
            self.heading += [*self.legend, ""]
        if not self.live:
            self._print("\n".join(self.heading))

    def turn(self, number: int, words: str, position: Position, is_pass: bool) -> None:
        """One move made: its line, and the board after it."""
        line = f"{number:4d}. {words}"
        if self.live:
            self.recent.append(line)
            board = render(position, self.colour).splitlines()
            self._print(_CLEAR + "\n".join([*self._above(len(board) + 1), "", *board]), flush=True)
        else:
            self._print(line)
            if self.board == "every" and not is_pass:
                self._print(render(position, self.colour) + "\n")
        if self.delay:
            time.sleep(self.delay)

    def _above(self, below: int) -> list[str]:
        """The heading and the last moves, as many as fit above ``below`` lines of the screen: a
        screen taller than the terminal would scroll, and each move leave a copy behind.  When they
        do not all fit, the latest two moves at least, under as much of the heading as fits: its
        first line and the legend, the legend, or the first line."""
        lines = [*self.heading, *self.recent]
        try:
            columns, rows = os.get_terminal_size(self.out.fileno())
        except (AttributeError, OSError, ValueError):  # not a terminal after all: nothing to fit
            return lines
        room = rows - 1 - below  # the cursor's line kept free

        def height(lines: list[str]) -> int:  # a line longer than the terminal is wide takes more rows
            return sum(max(1, -(-len(_ESCAPE.sub("", line)) // max(1, columns))) for line in lines)

        if height(lines) <= room:
            return lines
        title = self.heading[:1]
        for above in ([*title, *self.legend], self.legend, title, []):
            moves: list[str] = []
            for line in reversed(self.recent):
                if moves and height([*above, line, *moves]) > room:
                    break
                moves.insert(0, line)
            if not above or (len(moves) >= min(2, len(self.recent)) and height([*above, *moves]) <= room):
                return [*above, *moves]
        return lines  # not reached: the last try has nothing above the moves

    def end(self, position: Position, lines: list[str]) -> None:
        """The final board (when asked for at the end) and the result."""
        if self.board == "end":
            self._print(render(position, self.colour))
        self._print("\n".join(lines))

    def _print(self, text: str, flush: bool = False) -> None:
        print(text, file=self.out, flush=flush)
