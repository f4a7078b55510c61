"""The board's geometry for drawing it (``GET /api/board``): where every square, slide and circle is.

The browser draws the board from this alone, so it holds no board knowledge of its own.
Every place comes from :mod:`pardon.core.layout`'s 16 x 16 grid (the terminal's and the
printed diagram's too), seen from Red's seat: turned half a turn, so Red's side runs along the
bottom with square 0 in its bottom-right corner.  Coordinates are in squares (one square is
1 x 1; a point is a square's centre).  The circles of Start and Home are bigger than a square,
so their centres lie a little further in than Start's and Home's cells.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from pardon.core import layout
from pardon.core.board import (
    COLOUR_NAMES,
    COLOURS,
    DIAMOND_OFFSET,
    SAFETY_LENGTH,
    SLIDES,
    TRACK_LENGTH,
    corner_squares,
    entrance_square,
    side_base,
    start_exit_square,
)
from pardon.core.errors import PardonError
from pardon.core.jsonio import rules_from_json
from pardon.core.rules import Rules
from pardon.web.api import ERRORS, ApiError

SIZE = layout.SIZE  # squares along each side of the board
CENTRE = SIZE / 2
RED_SEAT = 2  # quarter turns of the layout that put Red's side at the bottom
CIRCLE_RADIUS = 1.3  # Start and Home circles, in squares
START_GAP = 0.5  # between the track and Start's edge
HOME_GAP = 0.55  # between S5 and Home's edge
#: Where the Fire and Ice tokens wait in the centre: above the logo, clear of the pack, the card
#: turned up and the Home circle above (the centre is drawn the same whichever side is at the bottom).
TOKEN_SPOTS = {"fire": (CENTRE + 0.3, CENTRE - 3.1), "ice": (CENTRE + 1.3, CENTRE - 3.1)}

router = APIRouter(prefix="/api", responses=ERRORS)

Point = layout.Point


def _seen_from_red(point: Point) -> Point:
    """A point of the layout as the browser draws it, rounded so the JSON stays short."""
    x, y = layout.turned_point(point, RED_SEAT)
    return (round(x, 4), round(y, 4))


def square_point(square: int) -> Point:
    """The centre of a track square."""
    return _seen_from_red(layout.centre(layout.square_cell(square)))


def _safety_point(colour: int, index: int) -> Point:
    """S1–S5 go inwards from the entrance square."""
    return _seen_from_red(layout.centre(layout.safety_cell(colour, index)))


def _home_centre(colour: int) -> Point:
    """Home's circle just clears S5, on the line of the Safety Zone."""
    return _seen_from_red(layout.inward_point(entrance_square(colour), SAFETY_LENGTH + 0.5 + HOME_GAP + CIRCLE_RADIUS))


def _start_centre(colour: int) -> Point:
    """Start's circle just clears the track, in from the start exit."""
    return _seen_from_red(layout.inward_point(start_exit_square(colour), 0.5 + START_GAP + CIRCLE_RADIUS))


def _slots(centre: Point, colour: int, count: int) -> list[Point]:
    """Where ``count`` pawns stand inside a circle: a small square of four (or a triangle of three)."""
    spread = 0.55
    corners = [(-1, -1), (1, -1), (-1, 1), (1, 1)] if count >= 4 else [(0, -1.1), (-1, 0.7), (1, 0.7)]
    red = [(centre[0] + dx * spread, centre[1] + dy * spread) for dx, dy in corners[:count]]
    return red if colour == 0 else [_spin(point, centre, colour) for point in red]


def _spin(point: Point, centre: Point, colour: int) -> Point:
    """``point`` turned ``colour`` quarter turns clockwise about ``centre`` (y grows downwards)."""
    x, y = point[0] - centre[0], point[1] - centre[1]
    for _ in range(colour):
        x, y = -y, x
    return (round(x + centre[0], 4), round(y + centre[1], 4))


def _xy(point: Point) -> dict[str, float]:
    return {"x": point[0], "y": point[1]}


def _circle(centre: Point, colour: int, pawns: int) -> dict[str, Any]:
    return {**_xy(centre), "r": CIRCLE_RADIUS, "slots": [_xy(point) for point in _slots(centre, colour, pawns)]}


def _track() -> list[dict[str, Any]]:
    corners = set(corner_squares())
    return [
        {"square": square, **_xy(square_point(square)), "side": COLOUR_NAMES[layout.side_of(square)]}
        | ({"corner": True} if square in corners else {})
        for square in range(TRACK_LENGTH)
    ]


def _slides() -> list[dict[str, Any]]:
    return [
        {
            "colour": COLOUR_NAMES[slide.colour],
            "triangle": slide.triangle,
            "end": slide.end,
            "squares": [slide.triangle, *slide.swept],
        }
        for slide in SLIDES
    ]


def _colour(colour: int, pawns: int) -> dict[str, Any]:
    """One colour's own places: Safety Zone, Home, Start, and which way its side faces."""
    return {
        "safety": [_xy(_safety_point(colour, index)) for index in range(1, SAFETY_LENGTH + 1)],
        "home": _circle(_home_centre(colour), colour, pawns),
        "start": _circle(_start_centre(colour), colour, pawns),
        "entrance": entrance_square(colour),
        "start_exit": start_exit_square(colour),
        "angle": 90 * colour,  # degrees clockwise from Red's side at the bottom, for labels
    }


def board_geometry(rules: Rules) -> dict[str, Any]:
    """Everything needed to draw the board for ``rules``, as JSON."""
    older_board = rules.board == "diamonds"  # the 1939 game's board (a drawing option: play is the same)
    return {
        "size": SIZE,
        "colours": list(COLOUR_NAMES),
        "track": _track(),
        "slides": _slides(),
        "players": {COLOUR_NAMES[colour]: _colour(colour, rules.pawns) for colour in COLOURS},
        "diamonds": [side_base(colour) + DIAMOND_OFFSET for colour in COLOURS] if older_board else [],
        "fire_spaces": list(corner_squares()) if rules.tokens else [],
        "tokens": {"fire": _xy(TOKEN_SPOTS["fire"]), "ice": _xy(TOKEN_SPOTS["ice"])} if rules.tokens else None,
        "centre": _xy((CENTRE, CENTRE)),
        "pawn_radius": 0.36,
    }


@router.get("/board", summary="The board's geometry for drawing it (squares, slides, Safety Zones, Start, Home)")
def board(rules: Annotated[str, Query(max_length=200)] = "classic") -> dict[str, Any]:
    try:
        parsed = rules_from_json(rules)
    except (PardonError, ValueError) as error:
        raise ApiError(422, "invalid_rules", str(error)) from None
    return board_geometry(parsed)
