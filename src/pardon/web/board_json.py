"""The board's geometry for drawing it (``GET /api/board``): where every square, slide and circle is.

The browser draws the board from this alone, so it holds no board knowledge of its own.
Everything comes from :mod:`pardon.core.board`: the track squares of RULES.md §1 laid
clockwise round the edge of a 16 x 16 grid (Red's side at the bottom, square 0 in its
bottom-right corner), each colour's Safety Zone running inwards from its entrance, Start
beside the start exit and Home at the end of the Safety Zone.  Coordinates are in squares
(one square is 1 x 1; a point is a square's centre).  Blue, Yellow and Green are Red's
side turned a quarter turn clockwise each.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query

from pardon.core.board import (
    COLOUR_NAMES,
    COLOURS,
    DIAMOND_OFFSET,
    SAFETY_LENGTH,
    SIDE_LENGTH,
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

SIZE = 16  # squares along each side of the board
CENTRE = SIZE / 2
CIRCLE_RADIUS = 1.3  # Start and Home circles, in squares
START_DEPTH = 2.0  # how far Start's centre lies inside the track
HOME_GAP = 0.55  # between S5 and Home's edge

router = APIRouter(prefix="/api", responses=ERRORS)

Point = tuple[float, float]


def _turn(point: Point, colour: int) -> Point:
    """Red's side turned ``colour`` quarter turns clockwise about the board's centre."""
    return _spin(point, (CENTRE, CENTRE), colour)


def _red_square(offset: int) -> Point:
    """The centre of Red's side square ``offset`` (0: the bottom-right corner, then leftwards)."""
    return (SIZE - 0.5 - offset, SIZE - 0.5)


def square_point(square: int) -> Point:
    """The centre of a track square."""
    colour, offset = divmod(square, SIDE_LENGTH)
    return _turn(_red_square(offset), colour)


def _red_safety(index: int) -> Point:
    """S1–S5 go inwards from the entrance square."""
    x, y = _red_square(entrance_square(0))
    return (x, y - index)


def _red_home() -> Point:
    x, y = _red_safety(SAFETY_LENGTH)
    return (x, y - 0.5 - HOME_GAP - CIRCLE_RADIUS)


def _red_start() -> Point:
    x, y = _red_square(start_exit_square(0))
    return (x, y - 0.5 - START_DEPTH + 0.2)


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


def _circle(red_centre: Point, colour: int, pawns: int) -> dict[str, Any]:
    centre = _turn(red_centre, colour)
    return {**_xy(centre), "r": CIRCLE_RADIUS, "slots": [_xy(point) for point in _slots(centre, colour, pawns)]}


def _track() -> list[dict[str, Any]]:
    corners = set(corner_squares())
    return [
        {"square": square, **_xy(square_point(square)), "side": COLOUR_NAMES[square // SIDE_LENGTH]}
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
        "safety": [_xy(_turn(_red_safety(index), colour)) for index in range(1, SAFETY_LENGTH + 1)],
        "home": _circle(_red_home(), colour, pawns),
        "start": _circle(_red_start(), colour, pawns),
        "entrance": entrance_square(colour),
        "start_exit": start_exit_square(colour),
        "angle": 90 * colour,  # degrees clockwise from Red's side at the bottom, for labels
    }


def board_geometry(rules: Rules) -> dict[str, Any]:
    """Everything needed to draw the board for ``rules``, as JSON."""
    older_board = rules.deck == 44  # the 1939 pack goes with the older board and its diamonds
    return {
        "size": SIZE,
        "colours": list(COLOUR_NAMES),
        "track": _track(),
        "slides": _slides(),
        "players": {COLOUR_NAMES[colour]: _colour(colour, rules.pawns) for colour in COLOURS},
        "diamonds": [side_base(colour) + DIAMOND_OFFSET for colour in COLOURS] if older_board else [],
        "fire_spaces": list(corner_squares()) if rules.tokens else [],
        "tokens": {"fire": _xy((CENTRE - 1.4, CENTRE + 2.2)), "ice": _xy((CENTRE + 1.4, CENTRE + 2.2))}
        if rules.tokens
        else None,
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
