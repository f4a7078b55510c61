"""A readable text picture of the board, for the terminal.

The board is :mod:`pardon.core.layout`'s grid as it lies, Red's side on top, one grid cell to
three characters.  Pawns are their colour's letter; each Safety Zone runs inward from its
entrance, ending at Home (``h`` and the number of pawns there); ``s`` and a number is a Start.
A slide is ``>`` (its triangle), ``=`` (the squares it sweeps) and ``o`` (its end).  With Fire
and Ice, the Fire pawn is ``*R*`` and the frozen pawn ``#R#``; a token on no pawn is in the centre
of the board (``*F*`` the Fire, ``#I#`` the Ice) till a card places it (:func:`tokens_in_centre`).

:func:`board_cells` says what each cell shows and whose it is, so that a screen can colour it
(the full-screen game does); :func:`render` writes the board as text, in colour if asked, and
:func:`legend` says what the marks mean.  Every mark is a letter or a sign, so the board reads
the same without colour.

>>> from pardon.core.state import initial_position
>>> from pardon.core.rules import parse_rules
>>> print(render(initial_position(parse_rules("classic"), (0, 2))).splitlines()[0])
 .  >  =  =  o  .  .  .  .  >  =  =  =  o  .  .
"""

from __future__ import annotations

from typing import Final, NamedTuple

from pardon.core.board import (
    COLOUR_LETTERS,
    FIRST_TRACK,
    HOME,
    SAFETY_LENGTH,
    SLIDES,
    SQUARE,
    START,
    TRACK_LENGTH,
    safety_index,
)
from pardon.core.layout import SIZE, Cell, home_cell, safety_cell, square_cell, start_cell
from pardon.core.state import Position

# What a cell shows: the kinds a screen colours differently.
BLANK: Final = "blank"
TRACK: Final = "track"
SLIDE_START: Final = "slide-start"
SLIDE: Final = "slide"
SLIDE_END: Final = "slide-end"
SAFETY: Final = "safety"
HOME_CELL: Final = "home"
START_CELL: Final = "start"
PAWN: Final = "pawn"
TOKEN: Final = "token"


class BoardCell(NamedTuple):
    """One cell of the board: its three characters, what it is, and whose (-1: nobody's)."""

    text: str
    kind: str
    colour: int = -1


EMPTY: Final = BoardCell("   ", BLANK)


#: The cells in the middle of the board where the Fire and the Ice lie while on no pawn.
FIRE_CELL: Final = (SIZE // 2 - 1, SIZE // 2 - 1)
ICE_CELL: Final = (SIZE // 2, SIZE // 2)


def board_cells(position: Position, tokens: bool = False) -> list[list[BoardCell]]:
    """The board's :data:`~pardon.core.layout.SIZE` x SIZE cells, row by row; with ``tokens`` (a
    game with Fire and Ice), a token on no pawn is shown in the centre."""
    grid = [[EMPTY] * SIZE for _ in range(SIZE)]
    if tokens:
        if position.fire is None:
            _put(grid, FIRE_CELL, BoardCell("*F*", TOKEN))
        if position.ice is None:
            _put(grid, ICE_CELL, BoardCell("#I#", TOKEN))
    for slide in SLIDES:
        _put(grid, square_cell(slide.triangle), BoardCell(" > ", SLIDE_START, slide.colour))
        for square in slide.swept[:-1]:
            _put(grid, square_cell(square), BoardCell(" = ", SLIDE, slide.colour))
        _put(grid, square_cell(slide.end), BoardCell(" o ", SLIDE_END, slide.colour))
    for square in range(TRACK_LENGTH):
        row, column = square_cell(square)
        if grid[row][column] is EMPTY:
            grid[row][column] = BoardCell(" . ", TRACK)
    for colour in position.seats:
        letter = COLOUR_LETTERS[colour]
        pawns = position.pawns[colour]
        for index in range(1, SAFETY_LENGTH + 1):
            _put(grid, safety_cell(colour, index), BoardCell(" : ", SAFETY, colour))
        for pawn in pawns:
            cell = pawn_cell(colour, pawn)
            if cell is not None and HOME < pawn < START:
                _put(grid, cell, BoardCell(_pawn_text(position, colour, pawn), PAWN, colour))
        home = sum(1 for pawn in pawns if pawn == HOME)
        start = sum(1 for pawn in pawns if pawn == START)
        _put(grid, home_cell(colour), BoardCell(f"h{home}{letter.lower()}", HOME_CELL, colour))
        _put(grid, start_cell(colour), BoardCell(f"s{start}{letter.lower()}", START_CELL, colour))
    return grid


def pawn_cell(colour: int, distance: int) -> Cell | None:
    """The cell of a pawn of ``colour`` at ``distance`` from its Home (None for none)."""
    if FIRST_TRACK <= distance < START:
        return square_cell(SQUARE[colour][distance])
    if HOME < distance < FIRST_TRACK:
        return safety_cell(colour, safety_index(distance))
    if distance == HOME:
        return home_cell(colour)
    if distance == START:
        return start_cell(colour)
    return None


def _pawn_text(position: Position, colour: int, distance: int) -> str:
    letter = COLOUR_LETTERS[colour]
    if position.fire == (colour, distance):
        return f"*{letter}*"
    if position.ice == (colour, distance):
        return f"#{letter}#"
    return f"[{letter}]"


def render(position: Position, colour: bool = False, tokens: bool = False) -> str:
    """The board as lines of text; with ``colour``, in the terminal's colours (ANSI); with
    ``tokens`` (a game with Fire and Ice), the tokens on no pawn in the centre."""
    lines = []
    for row in board_cells(position, tokens):
        if colour:  # the same characters as without colour, trailing blanks left out
            shown = list(row)
            while shown and not shown[-1].text.strip():
                shown.pop()
            if shown:
                shown[-1] = shown[-1]._replace(text=shown[-1].text.rstrip())
            lines.append("".join(ansi(cell) for cell in shown))
        else:
            lines.append("".join(cell.text for cell in row).rstrip())
    return "\n".join(lines)


# --- colour in a plain terminal (the full-screen game styles cells itself) -----------------

#: Foreground (on the board) and background (under a pawn) colour codes per colour.
_FOREGROUND: Final = ("31", "34", "33", "32")
_PAWN: Final = ("1;97;41", "1;97;44", "1;30;43", "1;97;42")
_RESET: Final = "\x1b[0m"


def ansi(cell: BoardCell) -> str:
    """A cell's text in its colour, as ANSI escape codes (plain when it has none)."""
    if cell.kind == PAWN:
        code = _PAWN[cell.colour]
    elif cell.kind == TRACK:
        code = "2"
    elif cell.kind == TOKEN:
        code = "1;91" if cell.text == "*F*" else "1;96"
    elif cell.colour >= 0:
        code = ("1;" if cell.kind in (HOME_CELL, START_CELL) else "") + _FOREGROUND[cell.colour]
    else:
        return cell.text
    return f"\x1b[{code}m{cell.text}{_RESET}"


#: What the marks mean, one ``(mark, meaning)`` pair each.
LEGEND: Final = (
    ("[R]", "a pawn: R B Y G by colour"),
    (" . ", "a square of the track"),
    (">=o", "a slide: triangle, swept squares, end"),
    (" : ", "a Safety Zone square"),
    ("sNr", "Red's Start, with N pawns in it"),
    ("hNr", "Red's Home, with N pawns in it"),
    ("*R*", "the Fire pawn (Fire and Ice)"),
    ("#R#", "a pawn frozen by the Ice"),
    ("*F*", "the Fire in the centre, for a 2"),
    ("#I#", "the Ice in the centre, for a 1"),
)

#: The marks only a game with Fire and Ice shows.
TOKEN_MARKS: Final = ("*R*", "#R#", "*F*", "#I#")


#: Where a token in the centre is, and which card puts it on a pawn (Fire and Ice).
FIRE_IN_CENTRE: Final = "Fire: centre, for a 2"
ICE_IN_CENTRE: Final = "Ice: centre, for a 1"


def tokens_in_centre(position: Position) -> tuple[str, ...]:
    """The Fire and Ice not on a pawn, each in words: in the centre, till a card places it (a 2
    may put the Fire on a pawn of its player's, a 1 puts the Ice on an opponent's).  Only for a
    game with Fire and Ice: without, both are always "in the centre"."""
    return tuple(
        words for words, token in ((FIRE_IN_CENTRE, position.fire), (ICE_IN_CENTRE, position.ice)) if token is None
    )


def legend(colour: bool = False, tokens: bool = False) -> str:
    """What the board's marks mean, two to a line; the Fire and Ice marks only with ``tokens``."""
    shown = [item for item in LEGEND if tokens or item[0] not in TOKEN_MARKS]
    entries = [f"{_legend_mark(mark, colour)} {meaning:38s}" for mark, meaning in shown]
    lines = ["  ".join(entries[index : index + 2]).rstrip() for index in range(0, len(entries), 2)]
    return "\n".join(lines)


def _legend_mark(mark: str, colour: bool) -> str:
    if not colour:
        return mark
    if mark == ">=o":
        return "".join(ansi(BoardCell(sign, SLIDE, 0)) for sign in mark)
    kinds = {"[R]": PAWN, " . ": TRACK, " : ": SAFETY, "sNr": START_CELL, "hNr": HOME_CELL, "*R*": PAWN, "#R#": PAWN}
    kinds |= {"*F*": TOKEN, "#I#": TOKEN}  # a token's colour is its own, whatever the cell's
    return ansi(BoardCell(mark, kinds[mark], -1 if mark == " . " else 0))


def _put(grid: list[list[BoardCell]], cell: Cell, content: BoardCell) -> None:
    row, column = cell
    grid[row][column] = content
