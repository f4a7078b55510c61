"""The board on the screen: :mod:`pardon.textboard`'s cells, coloured, with the choices marked.

Small, a cell is three characters on one line (the board is 48 x 16: it fits an 80 x 24
terminal beside the panel); large, five characters on two lines, the second giving each track
square's number.  The legend sits in the middle of the board, where the real board has its
name.  A pawn that may move shows its number in the list (``R1``), a place it may go an arrow
and a number (``>2``); the one under the cursor is drawn reversed, so the board reads the same
without colour.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from rich.style import Style
from rich.text import Text

from pardon.core.board import COLOUR_LETTERS
from pardon.core.layout import SIZE, Cell, square_cell
from pardon.core.state import Position
from pardon.textboard import (
    BLANK,
    FIRE_IN_CENTRE,
    HOME_CELL,
    ICE_IN_CENTRE,
    PAWN,
    SAFETY,
    SLIDE,
    SLIDE_END,
    SLIDE_START,
    START_CELL,
    TRACK,
    BoardCell,
    board_cells,
    tokens_in_centre,
)

#: Each colour as the board prints it, and a pale tint of it for its Safety Zone, Start and Home.
COLOURS: Final = ("#c62828", "#1565c0", "#e0a800", "#2e7d32")
TINTS: Final = ("#f3c5c0", "#c3d6f2", "#f7e4a0", "#c6e3c4")
BOARD: Final = "#f3ead3"
INK: Final = "#3b3326"
SMALL: Final = (3, 1)
LARGE: Final = (5, 2)

PAWN_MARK: Final = "pawn"
PLACE_MARK: Final = "place"
WHY_MARK: Final = "why"
CHOSEN_MARK: Final = "chosen"
LEFT_MARK: Final = "left"


class Mark(NamedTuple):
    """A choice shown on the board: its number in the list, and whether the cursor is on it;
    or (``CHOSEN_MARK``) a pawn of ``colour`` already picked, or where a picked part takes it; or
    (``LEFT_MARK``) the square a picked part leaves."""

    kind: str
    number: int = 0
    cursor: bool = False
    colour: int = -1


#: The legend in the middle of the board, a line to a row of cells.
LEGEND: Final = (
    "[R] pawn: R B Y G",
    " .  square",
    ">=o slide",
    " :  Safety Zone",
    "sNr N in Start",
    "hNr N Home",
)
TOKEN_LEGEND: Final = ("*R* Fire  #R# Ice",)  # then where a token on no pawn is: in the centre
#: The free middle of the board: rows and columns 3 to 12 of the grid.
MIDDLE: Final = (3, 12)


def cell_style(cell: BoardCell) -> Style:
    """How a cell of the board is coloured."""
    base = Style(color=INK, bgcolor=BOARD)
    colour = cell.colour
    if cell.kind == PAWN:
        ink = "black" if colour == 2 else "white"
        return Style(color=ink, bgcolor=COLOURS[colour], bold=True)
    if cell.kind in (SLIDE_START, SLIDE, SLIDE_END):
        return base + Style(color=COLOURS[colour], bold=True)
    if cell.kind in (SAFETY, HOME_CELL, START_CELL):
        return Style(color=COLOURS[colour], bgcolor=TINTS[colour], bold=cell.kind != SAFETY)
    if cell.kind == TRACK:
        return base + Style(color="#8a7e66")
    return base


def mark_text(cell: BoardCell, mark: Mark) -> str:
    """What a marked cell shows: ``R1`` for a pawn that may move, ``>2`` for where it may go."""
    if mark.kind == PAWN_MARK:
        letter = COLOUR_LETTERS[cell.colour] if cell.colour >= 0 else "?"
        return f"{letter}{mark.number}".ljust(3)[:3]
    if mark.kind == PLACE_MARK:
        return f">{mark.number}".ljust(3)[:3]
    if mark.kind == CHOSEN_MARK:
        return f"<{COLOUR_LETTERS[mark.colour]}>"
    if mark.kind == LEFT_MARK:
        return " . "
    return cell.text


def mark_style(cell: BoardCell, mark: Mark) -> Style:
    if mark.kind == PLACE_MARK:
        style = Style(color="black", bgcolor="#ffffff", bold=True)
    elif mark.kind == PAWN_MARK:
        style = cell_style(cell) + Style(underline=True)
    elif mark.kind == CHOSEN_MARK:
        style = cell_style(BoardCell("", PAWN, mark.colour)) + Style(reverse=True)
    elif mark.kind == LEFT_MARK:
        style = cell_style(BoardCell("", TRACK))
    else:
        style = cell_style(cell)
    return style + Style(reverse=True) if mark.cursor else style


def board_text(position: Position, marks: dict[Cell, Mark], large: bool = False, tokens: bool = False) -> Text:
    """The board, marked, as styled text: 48 x 16 characters, or 80 x 32 ``large``."""
    width, height = LARGE if large else SMALL
    cells = board_cells(position)
    legend = _legend_cells((*LEGEND, *TOKEN_LEGEND, *tokens_in_centre(position)) if tokens else LEGEND, width, tokens)
    text = Text(no_wrap=True, overflow="crop")
    numbers = _square_numbers() if large else {}
    for row in range(SIZE):
        for line in range(height):
            if row or line:
                text.append("\n")
            for column in range(SIZE):
                cell = cells[row][column]
                mark = marks.get((row, column))
                if line == 0 and cell.kind == BLANK and (row, column) in legend:
                    shown, style = legend[row, column], Style(color=INK, bgcolor=BOARD)
                elif line == 0:
                    shown = (mark_text(cell, mark) if mark else cell.text).center(width)
                    style = mark_style(cell, mark) if mark else cell_style(cell)
                else:
                    shown = numbers.get((row, column), "").center(width)
                    style = cell_style(cell) + Style(dim=True, bold=False) if cell.kind != PAWN else cell_style(cell)
                text.append(shown, style)
    return text


def _legend_cells(lines: tuple[str, ...], width: int, tokens: bool) -> dict[Cell, str]:
    """The legend cut into pieces a cell wide, one per blank cell of the board's middle.  With
    Fire and Ice it stays where it is as the tokens come and go from the centre."""
    first, last = MIDDLE
    columns = last - first + 1
    block = (*LEGEND, *TOKEN_LEGEND, FIRE_IN_CENTRE, ICE_IN_CENTRE) if tokens else LEGEND
    top = first + (columns - len(block)) // 2
    pieces: dict[Cell, str] = {}
    indent = (width * columns - max(len(line) for line in block)) // 2  # the block centred, its lines aligned
    for offset, line in enumerate(lines):
        padded = (" " * indent + line).ljust(width * columns)
        for index in range(columns):
            pieces[top + offset, first + index] = padded[width * index : width * index + width]
    return pieces


def _square_numbers() -> dict[Cell, str]:
    return {square_cell(square): str(square) for square in range(60)}
