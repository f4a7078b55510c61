"""A small picture of the classic board, drawn from the core's board tables.

The track, the slides, the Safety Zones, Start and Home all come from
:mod:`pardon.core.board`, and where each lies from :mod:`pardon.core.layout`'s grid (Red's side
on top, as the terminal draws it), so the printed board is the board the engine plays on.
"""

from __future__ import annotations

from reportlab.graphics.shapes import Circle, Drawing, Group, Line, Polygon, Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from pardon.core import layout
from pardon.core.board import (
    BLUE,
    COLOURS,
    GREEN,
    SAFETY_LENGTH,
    SLIDES,
    TRACK_LENGTH,
    YELLOW,
    entrance_square,
    start_exit_square,
)
from pardon.printables.layout import INK, MUTED, PAWN_COLOURS, RULE, TINTS

_HOME_STEPS = layout.HOME_DEPTH + 0.55  # centre of Home's circle, a little past Home's cell, from the entrance
_START_STEPS = layout.START_DEPTH  # centre of Start's circle, on Start's cell, from the start exit circle
_CIRCLE = 1.08  # radius of Start and Home, in squares
_LABEL_FONT = "Helvetica-Bold"
_LABEL_SIZE = 0.5  # in squares


class _Grid:
    """Scales the layout's grid to points: ``cell`` points a square, y up as PDF draws it."""

    def __init__(self, size: float) -> None:
        self.cell = size / layout.SIZE
        self.size = size

    def point(self, point: layout.Point) -> tuple[float, float]:
        x, y = point
        return x * self.cell, (layout.SIZE - y) * self.cell

    def centre(self, square: int) -> tuple[float, float]:
        return self.point(layout.centre(layout.square_cell(square)))

    def safety(self, colour: int, index: int) -> tuple[float, float]:
        return self.point(layout.centre(layout.safety_cell(colour, index)))

    def inward(self, square: int, steps: float) -> tuple[float, float]:
        """The point ``steps`` squares into the board from a track square of a colour's side."""
        x, y = self.centre(square)
        dx, dy = _up(layout.INWARD[layout.side_of(square)])
        return x + dx * steps * self.cell, y + dy * steps * self.cell

    @staticmethod
    def forward(square: int) -> tuple[int, int]:
        """The way the pawns go past a track square, as an (x, y) step."""
        return _up(layout.FORWARD[layout.side_of(square)])


def _up(step: tuple[int, int]) -> tuple[int, int]:
    """A layout step (rows down, columns right) as an (x, y) step with y up."""
    down, right = step
    return right, -down


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
    dx, dy = grid.forward(triangle)
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
        x, y = grid.safety(colour, step)
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
