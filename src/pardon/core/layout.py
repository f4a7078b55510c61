"""Where every place on the board lies: one 16 x 16 grid behind every picture of the board.

The terminal board, the printed rule sheet's diagram and the browser's board (``GET
/api/board``) all take their positions from here and only scale them, so the three pictures
cannot disagree.  The grid is the real board's: the 60 track squares of docs/rules.md ("The board") run
clockwise round its edge, 15 a side, each side's first square in a corner.  Laid out here with
Red's side along the top::

    square 0 (Red's corner) at the top left, Red's side running rightwards,
    Blue's side down the right, Yellow's leftwards along the bottom, Green's up the left.

Each colour's Safety Zone runs straight into the board from its entrance square (S1 one cell
in, S5 five cells in), Home is the next cell in, and Start lies two cells in from the start
exit.  A picture seen from another seat turns the whole grid (:func:`turned`).

A *cell* is ``(row, column)``, row 0 at the top and column 0 at the left.  A *point* is
``(x, y)`` in squares, x rightwards and y downwards from the board's top-left corner, so a
cell's centre is ``(column + 0.5, row + 0.5)``.

>>> from pardon.core.board import RED
>>> square_cell(0), square_cell(15), safety_cell(RED, 1), home_cell(RED), start_cell(RED)
((0, 0), (0, 15), (1, 2), (6, 2), (2, 4))
"""

from __future__ import annotations

from typing import Final

from pardon.core.board import SAFETY_LENGTH, SIDE_LENGTH, entrance_square, start_exit_square

Cell = tuple[int, int]
Point = tuple[float, float]
Step = tuple[int, int]

#: Cells along each side of the board: 15 squares and the next side's corner.
SIZE: Final = SIDE_LENGTH + 1
#: How many cells in from the start exit Start lies.
START_DEPTH: Final = 2
#: How many cells in from the entrance Home lies: just past S5.
HOME_DEPTH: Final = SAFETY_LENGTH + 1

#: Per side (Red's, Blue's, Yellow's, Green's): the (row, column) step the pawns take along it.
FORWARD: Final[tuple[Step, ...]] = ((0, 1), (1, 0), (0, -1), (-1, 0))
#: Per side: the (row, column) step from the side into the board (``FORWARD`` turned clockwise).
INWARD: Final[tuple[Step, ...]] = ((1, 0), (0, -1), (-1, 0), (0, 1))
#: The first cell of each side: its corner square.
_CORNERS: Final[tuple[Cell, ...]] = ((0, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1), (SIZE - 1, 0))


def side_of(square: int) -> int:
    """The colour whose side of the board a track square lies on."""
    return square // SIDE_LENGTH


def square_cell(square: int) -> Cell:
    """The cell of a track square (0–59)."""
    side, offset = divmod(square, SIDE_LENGTH)
    return _step(_CORNERS[side], FORWARD[side], offset)


def safety_cell(colour: int, index: int) -> Cell:
    """The cell of a colour's Safety Zone square S(index), 1–5 cells in from its entrance."""
    return _step(square_cell(entrance_square(colour)), INWARD[colour], index)


def home_cell(colour: int) -> Cell:
    """The cell of a colour's Home, at the inner end of its Safety Zone."""
    return _step(square_cell(entrance_square(colour)), INWARD[colour], HOME_DEPTH)


def start_cell(colour: int) -> Cell:
    """The cell of a colour's Start, in from its start exit."""
    return _step(square_cell(start_exit_square(colour)), INWARD[colour], START_DEPTH)


def centre(cell: Cell) -> Point:
    """The centre of a cell, in squares."""
    row, column = cell
    return column + 0.5, row + 0.5


def inward_point(square: int, depth: float) -> Point:
    """The point ``depth`` squares into the board from a track square's centre.

    For what is drawn bigger than a cell, such as the circles of Start and Home.
    """
    x, y = centre(square_cell(square))
    down, right = INWARD[side_of(square)]
    return x + right * depth, y + down * depth


def turned(cell: Cell, quarter_turns: int) -> Cell:
    """A cell with the board turned ``quarter_turns`` quarter turns clockwise (2: from across the table)."""
    row, column = cell
    for _ in range(quarter_turns % 4):
        row, column = column, SIZE - 1 - row
    return row, column


def turned_point(point: Point, quarter_turns: int) -> Point:
    """A point with the board turned ``quarter_turns`` quarter turns clockwise about its centre."""
    x, y = point
    for _ in range(quarter_turns % 4):
        x, y = SIZE - y, x
    return x, y


def _step(cell: Cell, step: Step, count: int) -> Cell:
    return cell[0] + step[0] * count, cell[1] + step[1] * count
