"""A readable text picture of the board, for the terminal.

The board is :mod:`pardon.core.layout`'s grid as it lies, Red's side on top, one grid cell to
three characters.  Pawns are their colour's letter; each Safety Zone runs inward from its
entrance, ending at Home (``h`` and the number of pawns there); ``s`` and a number is a Start.
"""

from __future__ import annotations

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


def render(position: Position) -> str:
    """The board as lines of text."""
    grid = [["   "] * SIZE for _ in range(SIZE)]
    for slide in SLIDES:
        _put(grid, square_cell(slide.triangle), " > ")
        for square in slide.swept[:-1]:
            _put(grid, square_cell(square), " = ")
        _put(grid, square_cell(slide.end), " o ")
    for square in range(TRACK_LENGTH):
        row, column = square_cell(square)
        if grid[row][column] == "   ":
            grid[row][column] = " . "
    for colour in position.seats:
        letter = COLOUR_LETTERS[colour]
        pawns = position.pawns[colour]
        for index in range(1, SAFETY_LENGTH + 1):
            _put(grid, safety_cell(colour, index), " : ")
        for pawn in pawns:
            if FIRST_TRACK <= pawn < START:
                _put(grid, square_cell(SQUARE[colour][pawn]), f"[{letter}]")
            elif HOME < pawn < FIRST_TRACK:
                _put(grid, safety_cell(colour, safety_index(pawn)), f"[{letter}]")
        home = sum(1 for pawn in pawns if pawn == HOME)
        start = sum(1 for pawn in pawns if pawn == START)
        _put(grid, home_cell(colour), f"h{home}{letter.lower()}")
        _put(grid, start_cell(colour), f"s{start}{letter.lower()}")
    return "\n".join("".join(row).rstrip() for row in grid)


def _put(grid: list[list[str]], cell: Cell, text: str) -> None:
    row, column = cell
    grid[row][column] = text
