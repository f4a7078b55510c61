"""A readable text picture of the board, for the terminal.

The 60 track squares run clockwise round a 16 × 16 grid (Red's side on top).  Pawns
are their colour's letter; each Safety Zone runs inward from its entrance, ending at
Home (``h`` and the number of pawns there); ``s`` and a number is a Start.
"""

from __future__ import annotations

from pardon.core.board import (
    COLOUR_LETTERS,
    FIRST_TRACK,
    HOME,
    SIDE_LENGTH,
    SLIDES,
    SQUARE,
    START,
    entrance_square,
    start_exit_square,
)
from pardon.core.state import Position

SIZE = SIDE_LENGTH + 1
_INWARD = ((1, 0), (0, -1), (-1, 0), (0, 1))  # per side: top, right, bottom, left


def square_cell(square: int) -> tuple[int, int]:
    """(row, column) of a track square on the grid."""
    side, offset = divmod(square, SIDE_LENGTH)
    if side == 0:
        return 0, offset
    if side == 1:
        return offset, SIZE - 1
    if side == 2:
        return SIZE - 1, SIZE - 1 - offset
    return SIZE - 1 - offset, 0


def _inward(square: int, steps: int, colour: int) -> tuple[int, int]:
    row, column = square_cell(square)
    down, right = _INWARD[colour]
    return row + down * steps, column + right * steps


def render(position: Position) -> str:
    """The board as lines of text."""
    grid = [["   "] * SIZE for _ in range(SIZE)]
    for slide in SLIDES:
        _put(grid, square_cell(slide.triangle), " > ")
        for square in slide.swept[:-1]:
            _put(grid, square_cell(square), " = ")
        _put(grid, square_cell(slide.end), " o ")
    for square in range(SIDE_LENGTH * 4):
        row, column = square_cell(square)
        if grid[row][column] == "   ":
            grid[row][column] = " . "
    for colour in position.seats:
        letter = COLOUR_LETTERS[colour]
        pawns = position.pawns[colour]
        for index in range(1, 6):
            _put(grid, _inward(entrance_square(colour), index, colour), " : ")
        for pawn in pawns:
            if FIRST_TRACK <= pawn < START:
                _put(grid, square_cell(SQUARE[colour][pawn]), f"[{letter}]")
            elif HOME < pawn < FIRST_TRACK:
                index = FIRST_TRACK - pawn
                _put(grid, _inward(entrance_square(colour), index, colour), f"[{letter}]")
        home = sum(1 for pawn in pawns if pawn == HOME)
        start = sum(1 for pawn in pawns if pawn == START)
        _put(grid, _inward(entrance_square(colour), 6, colour), f"h{home}{letter.lower()}")
        _put(grid, _inward(start_exit_square(colour), 2, colour), f"s{start}{letter.lower()}")
    return "\n".join("".join(row).rstrip() for row in grid)


def _put(grid: list[list[str]], cell: tuple[int, int], text: str) -> None:
    row, column = cell
    grid[row][column] = text
