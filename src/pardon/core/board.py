"""The geometry of the board (docs/rules.md: "The board") as tables.

Every pawn location is stored *relative to its colour* as one small integer, its
**distance to Home** (``HOME`` = 0):

====================  ==========================================
``HOME``              0
Safety Zone S5 … S1   1 … 5
track square          6 … 65 (6 = on its own Safety Zone entrance,
                      64 = on its own start exit circle)
``START``             66
====================  ==========================================

With this encoding a forward move of ``n`` is ``h - n`` (illegal below 0), because a
pawn never moves forward past its own entrance except into its Safety Zone, and a
backward move is ``h + n`` wrapped round the 60 track squares.  No lap counter is
needed.  Track squares themselves are numbered 0–59 clockwise, as in docs/rules.md.
"""

from __future__ import annotations

from typing import Final

RED: Final = 0
BLUE: Final = 1
YELLOW: Final = 2
GREEN: Final = 3
COLOURS: Final = (RED, BLUE, YELLOW, GREEN)
COLOUR_NAMES: Final = ("red", "blue", "yellow", "green")
COLOUR_LETTERS: Final = "RBYG"

TRACK_LENGTH: Final = 60
SIDE_LENGTH: Final = 15
SAFETY_LENGTH: Final = 5

HOME: Final = 0
FIRST_TRACK: Final = 6  # on the colour's own Safety Zone entrance
START_EXIT: Final = 64  # on the colour's own start exit circle
LAST_TRACK: Final = 65  # the square just past the entrance, a full lap from Home
START: Final = 66
NOT_ON_TRACK: Final = -1

CORNER_OFFSET: Final = 0
SHORT_TRIANGLE_OFFSET: Final = 1
ENTRANCE_OFFSET: Final = 2
DIAMOND_OFFSET: Final = 3
START_EXIT_OFFSET: Final = 4
LONG_TRIANGLE_OFFSET: Final = 9
SHORT_SLIDE_LENGTH: Final = 3  # squares after the triangle, end circle included
LONG_SLIDE_LENGTH: Final = 4


def side_base(colour: int) -> int:
    """The first track square of a colour's side (0, 15, 30, 45)."""
    return SIDE_LENGTH * colour


def entrance_square(colour: int) -> int:
    """The last track square before the colour's Safety Zone."""
    return side_base(colour) + ENTRANCE_OFFSET


def start_exit_square(colour: int) -> int:
    """The circle where a pawn of this colour comes out of Start."""
    return side_base(colour) + START_EXIT_OFFSET


def corner_squares() -> tuple[int, ...]:
    """The four corner squares (the Fire spaces of the 2013 board)."""
    return tuple(side_base(colour) + CORNER_OFFSET for colour in COLOURS)


def _square_of(colour: int, distance: int) -> int:
    """Track square of a pawn ``distance`` (6–65) from its Home."""
    return (entrance_square(colour) - (distance - FIRST_TRACK)) % TRACK_LENGTH


#: ``SQUARE[colour][distance]`` is the track square for a track distance, else -1.
SQUARE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        _square_of(colour, distance) if FIRST_TRACK <= distance <= LAST_TRACK else NOT_ON_TRACK
        for distance in range(START + 1)
    )
    for colour in COLOURS
)

#: ``DISTANCE[colour][square]`` is the inverse of ``SQUARE``.
DISTANCE: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(
        next(d for d in range(FIRST_TRACK, LAST_TRACK + 1) if SQUARE[colour][d] == square)
        for square in range(TRACK_LENGTH)
    )
    for colour in COLOURS
)


class Slide:
    """One slide: its triangle, the squares it sweeps, and the colour printed on it."""

    __slots__ = ("colour", "end", "swept", "triangle")

    def __init__(self, triangle: int, length: int, colour: int) -> None:
        self.triangle = triangle
        self.end = (triangle + length) % TRACK_LENGTH
        #: triangle+1 … end circle, inclusive: every pawn here goes back to Start.
        self.swept = tuple((triangle + k) % TRACK_LENGTH for k in range(1, length + 1))
        self.colour = colour

    def __repr__(self) -> str:
        return f"Slide({self.triangle}->{self.end}, {COLOUR_NAMES[self.colour]})"


def _build_slides() -> tuple[Slide, ...]:
    slides = []
    for colour in COLOURS:
        base = side_base(colour)
        slides.append(Slide(base + SHORT_TRIANGLE_OFFSET, SHORT_SLIDE_LENGTH, colour))
        slides.append(Slide(base + LONG_TRIANGLE_OFFSET, LONG_SLIDE_LENGTH, colour))
    return tuple(slides)


#: The eight slides, in clockwise order from Red's short slide.  Each carries the
#: colour of its side; which colours *ride* a slide is a rules option.
SLIDES: Final = _build_slides()
SLIDE_AT_TRIANGLE: Final[dict[int, Slide]] = {slide.triangle: slide for slide in SLIDES}


def is_on_track(distance: int) -> bool:
    """Whether a colour-relative distance is a track square."""
    return FIRST_TRACK <= distance <= LAST_TRACK


def is_in_safety_zone(distance: int) -> bool:
    """Whether a colour-relative distance is S1–S5."""
    return HOME < distance < FIRST_TRACK


def safety_index(distance: int) -> int:
    """The k of S(k) for a Safety Zone distance (S1 is 5 from Home)."""
    return FIRST_TRACK - distance


def safety_distance(index: int) -> int:
    """The distance from Home of S(index)."""
    return FIRST_TRACK - index


def partner(colour: int) -> int:
    """The colour sitting opposite: Red+Yellow and Blue+Green are partners (docs/rules.md: "Partners")."""
    return (colour + 2) % len(COLOURS)


def next_seat(seats: tuple[int, ...], colour: int) -> int:
    """The colour that plays after ``colour``: play passes left (clockwise)."""
    index = seats.index(colour) + 1
    return seats[index if index < len(seats) else 0]
