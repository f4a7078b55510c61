"""A small picture of the classic board, drawn from the core's board tables.

The track, the slides, the Safety Zones, Start and Home all come from
:mod:`pardon.core.board` (and the grid from :mod:`pardon.textboard`, Red's side on top, as
the terminal draws it), so the printed board is the board the engine plays on.
"""

from __future__ import annotations

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from pardon.core.board import (
    BLUE,
    COLOURS,
    GREEN,
    SAFETY_LENGTH,
    SIDE_LENGTH,
    SLIDES,
    TRACK_LENGTH,
    YELLOW,
    entrance_square,
    start_exit_square,
)
from pardon.printables.layout import INK, MUTED, PAWN_COLOURS, RULE, TINTS
from pardon.textboard import SIZE, square_cell

# Per side (top, right, bottom, left): the way the pawns go along it, and the way into the board,
# as (x, y) steps in drawing coordinates (y up).
_FORWARD = ((1, 0), (0, -1), (-1, 0), (0, 1))
_INWARD = ((0, -1), (-1, 0), (0, 1), (1, 0))
_HOME_STEPS = SAFETY_LENGTH + 1.55  # centre of Home, in squares from the entrance
_START_STEPS = 2.0  # centre of Start, in squares from the start exit circle
_CIRCLE = 1.08  # radius of Start and Home, in squares
_LABEL_FONT = "Helvetica-Bold"
_LABEL_SIZE = 0.5  # in squares


class _Grid:
    """Converts grid cells to points: ``cell`` points a square, row 0 at the top."""

    def __init__(self, size: float) -> None:
        self.cell = size / SIZE
        self.size = size

    def centre(self, square: int) -> tuple[float, float]:
        row, column = square_cell(square)
        return (column + 0.5) * self.cell, (SIZE - row - 0.5) * self.cell

    def inward(self, square: int, steps: float) -> tuple[float, float]:
        """The point ``steps`` squares into the board from a track square of a colour's side."""
        x, y = self.centre(square)
        dx, dy = _INWARD[square // SIDE_LENGTH]
        return x + dx * steps * self.cell, y + dy * steps * self.cell


def board_drawing(size: float) -> Drawing:
    """The classic board, ``size`` points square."""
    grid = _Grid(size)
    drawing = Drawing(size, size)
    drawing.add(_track(grid))
    for colour in COLOURS:
        drawing.add(_safety_zone_and_home(grid, colour))
        drawing.add(_start(grid, colour))
    for slide in SLIDES:
        drawing.add(_slide(grid, slide.triangle, slide.end, slide.colour))
    drawing.add(_pack(grid))
    return drawing


def _track(grid: _Grid) -> Group:
    group = Group()
    half = grid.cell / 2
    for square in range(TRACK_LENGTH):
        x, y = grid.centre(square)
        group.add(Rect(x - half, y - half, grid.cell, grid.cell, fillColor=None, strokeColor=RULE, strokeWidth=0.5))
    return group


def _slide(grid: _Grid, triangle: int, end: int, colour: int) -> Group:
    """The slide's bar from its triangle to its end circle, in the colour of its side."""
    group = Group()
    paint = PAWN_COLOURS[colour]
    (x0, y0), (x1, y1) = grid.centre(triangle), grid.centre(end)
    group.add(Line(x0, y0, x1, y1, strokeColor=paint, strokeWidth=grid.cell * 0.28))
    dx, dy = _FORWARD[triangle // SIDE_LENGTH]
    reach = grid.cell * 0.36
    # The triangle points the way the pawns go: tip ahead, base behind.
    across_x, across_y = -dy * reach, dx * reach
    back_x, back_y = x0 - dx * reach, y0 - dy * reach
    points = [
        x0 + dx * reach,
        y0 + dy * reach,
        back_x + across_x,
        back_y + across_y,
        back_x - across_x,
        back_y - across_y,
    ]
    group.add(Polygon(points, fillColor=paint, strokeColor=paint, strokeWidth=0.4))
    group.add(Circle(x1, y1, grid.cell * 0.3, fillColor=paint, strokeColor=paint))
    return group


def _safety_zone_and_home(grid: _Grid, colour: int) -> Group:
    group = Group()
    paint, tint = PAWN_COLOURS[colour], TINTS[colour]
    entrance = entrance_square(colour)
    half = grid.cell / 2
    for step in range(1, SAFETY_LENGTH + 1):
        x, y = grid.inward(entrance, step)
        group.add(Rect(x - half, y - half, grid.cell, grid.cell, fillColor=tint, strokeColor=paint, strokeWidth=0.6))
    x, y = grid.inward(entrance, _HOME_STEPS)
    group.add(Circle(x, y, grid.cell * _CIRCLE, fillColor=paint, strokeColor=paint))
    group.add(_label(x, y, "HOME", grid.cell, INK if colour == YELLOW else None))
    return group


def _start(grid: _Grid, colour: int) -> Group:
    group = Group()
    paint, tint = PAWN_COLOURS[colour], TINTS[colour]
    x, y = grid.inward(start_exit_square(colour), _START_STEPS)
    group.add(Circle(x, y, grid.cell * _CIRCLE, fillColor=tint, strokeColor=paint, strokeWidth=1))
    # Four pawns waiting in Start.
    spread = grid.cell * 0.42
    for px, py in ((-1, 1), (1, 1), (-1, -1), (1, -1)):
        group.add(Circle(x + px * spread, y + py * spread, grid.cell * 0.2, fillColor=paint, strokeColor=None))
    # The label goes further into the board, where nothing else is drawn; across the board from
    # a left or right side it needs room for its whole width.
    reach = _START_STEPS + _CIRCLE + 0.6
    if colour in (BLUE, GREEN):
        reach += stringWidth("START", _LABEL_FONT, _LABEL_SIZE) / 2 - 0.3
    label_x, label_y = grid.inward(start_exit_square(colour), reach)
    group.add(_label(label_x, label_y, "START", grid.cell, MUTED))
    return group


def _pack(grid: _Grid) -> Group:
    """The pack face down in the centre, as the rules put it."""
    group = Group()
    middle = grid.size / 2
    width, height = grid.cell * 1.7, grid.cell * 2.3
    for shift in (0.9, 0.45, 0.0):
        group.add(
            Rect(
                middle - width / 2 + shift,
                middle - height / 2 - shift,
                width,
                height,
                rx=2,
                ry=2,
                fillColor=TINTS[0] if shift else PAWN_COLOURS[0],
                strokeColor=PAWN_COLOURS[0],
                strokeWidth=0.6,
            )
        )
    group.add(_label(middle, middle, "PACK", grid.cell, None))
    return group


def _label(x: float, y: float, text: str, cell: float, colour: object) -> String:
    """A small capital label centred on (x, y); white unless a colour is given."""
    size = cell * _LABEL_SIZE
    return String(
        x,
        y - size * 0.35,
        text,
        fontName=_LABEL_FONT,
        fontSize=size,
        fillColor=colour if colour is not None else "#FFFFFF",
        textAnchor="middle",
    )
