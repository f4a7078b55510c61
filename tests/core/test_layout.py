"""The board's one layout: every place has its own cell, and all three pictures of the board use it."""

from __future__ import annotations

from itertools import pairwise

import pytest

from pardon.core import layout
from pardon.core.board import (
    COLOUR_NAMES,
    COLOURS,
    DISTANCE,
    HOME,
    SAFETY_LENGTH,
    SIDE_LENGTH,
    START,
    TRACK_LENGTH,
    entrance_square,
    safety_distance,
    start_exit_square,
)
from pardon.core.layout import (
    HOME_DEPTH,
    INWARD,
    SIZE,
    START_DEPTH,
    centre,
    home_cell,
    inward_point,
    safety_cell,
    square_cell,
    start_cell,
    turned,
    turned_point,
)
from pardon.core.rules import Rules
from pardon.core.state import Position


def places() -> dict[str, tuple[int, int]]:
    """Every place on the board by name, with its cell."""
    found = {str(square): square_cell(square) for square in range(TRACK_LENGTH)}
    for colour in COLOURS:
        name = COLOUR_NAMES[colour]
        found |= {f"{name} S{index}": safety_cell(colour, index) for index in range(1, SAFETY_LENGTH + 1)}
        found[f"{name} Home"] = home_cell(colour)
        found[f"{name} Start"] = start_cell(colour)
    return found


def is_adjacent(one: tuple[int, int], other: tuple[int, int]) -> bool:
    return abs(one[0] - other[0]) + abs(one[1] - other[1]) == 1


def is_on_edge(cell: tuple[int, int]) -> bool:
    return 0 in cell or SIZE - 1 in cell


# The geometry itself


def test_the_grid_is_fifteen_squares_a_side_plus_a_corner() -> None:
    assert SIZE == SIDE_LENGTH + 1 == 16


def test_no_two_places_share_a_cell_and_all_lie_on_the_grid() -> None:
    cells = places()
    assert len(cells) == TRACK_LENGTH + len(COLOURS) * (SAFETY_LENGTH + 2)
    assert len(set(cells.values())) == len(cells), "two places share a cell"
    assert all(0 <= row < SIZE and 0 <= column < SIZE for row, column in cells.values())


def test_the_track_is_a_closed_ring_round_the_edge() -> None:
    ring = [square_cell(square) for square in range(TRACK_LENGTH)]
    for square in range(TRACK_LENGTH):
        assert is_adjacent(ring[square], ring[(square + 1) % TRACK_LENGTH]), f"square {square} and the next"
    assert set(ring) == {(row, column) for row in range(SIZE) for column in range(SIZE) if is_on_edge((row, column))}


def test_the_track_goes_clockwise_red_blue_yellow_green() -> None:
    # Red's side along the top, Blue's down the right, Yellow's along the bottom, Green's up the left.
    sides = {
        colour: [square_cell(square) for square in range(TRACK_LENGTH) if layout.side_of(square) == colour]
        for colour in COLOURS
    }
    rows = {colour: {row for row, _ in cells} for colour, cells in sides.items()}
    columns = {colour: {column for _, column in cells} for colour, cells in sides.items()}
    assert all(len(cells) == SIDE_LENGTH for cells in sides.values())
    assert rows[0] == {0} and columns[1] == {SIZE - 1} and rows[2] == {SIZE - 1} and columns[3] == {0}
    # The shoelace sum is positive for a clockwise ring when rows grow downwards, as on a page.
    ring = [square_cell(square) for square in range(TRACK_LENGTH)]
    area = sum(
        column * ring[(index + 1) % TRACK_LENGTH][0] - ring[(index + 1) % TRACK_LENGTH][1] * row
        for index, (row, column) in enumerate(ring)
    )
    assert area > 0
    assert [sides[colour][0] for colour in COLOURS] == [(0, 0), (0, SIZE - 1), (SIZE - 1, SIZE - 1), (SIZE - 1, 0)]


@pytest.mark.parametrize("colour", COLOURS)
def test_each_safety_zone_runs_inward_from_its_entrance_to_home(colour: int) -> None:
    zone = [square_cell(entrance_square(colour))]
    zone += [safety_cell(colour, index) for index in range(1, SAFETY_LENGTH + 1)]
    zone.append(home_cell(colour))
    middle = (SIZE - 1) / 2
    for outer, inner in pairwise(zone):
        assert is_adjacent(outer, inner)
        assert (inner[0] - outer[0], inner[1] - outer[1]) == INWARD[colour]
        assert abs(inner[0] - middle) + abs(inner[1] - middle) < abs(outer[0] - middle) + abs(outer[1] - middle)
    assert not any(is_on_edge(cell) for cell in zone[1:])
    assert len(zone) - 1 == HOME_DEPTH


@pytest.mark.parametrize("colour", COLOURS)
def test_start_lies_in_from_its_start_exit(colour: int) -> None:
    row, column = square_cell(start_exit_square(colour))
    down, right = INWARD[colour]
    assert start_cell(colour) == (row + down * START_DEPTH, column + right * START_DEPTH)
    assert not is_on_edge(start_cell(colour))


@pytest.mark.parametrize("quarter_turns", range(4))
def test_turning_the_board_a_quarter_turn_takes_each_colour_to_the_next(quarter_turns: int) -> None:
    for colour in COLOURS:
        other = (colour + quarter_turns) % len(COLOURS)
        assert turned(home_cell(colour), quarter_turns) == home_cell(other)
        assert turned(start_cell(colour), quarter_turns) == start_cell(other)
        for index in range(1, SAFETY_LENGTH + 1):
            assert turned(safety_cell(colour, index), quarter_turns) == safety_cell(other, index)
    for square in range(TRACK_LENGTH):
        cell = square_cell(square)
        assert turned(cell, quarter_turns) == square_cell((square + SIDE_LENGTH * quarter_turns) % TRACK_LENGTH)
        assert turned_point(centre(cell), quarter_turns) == centre(turned(cell, quarter_turns))
        assert turned(turned(cell, quarter_turns), 4 - quarter_turns) == cell


@pytest.mark.parametrize("colour", COLOURS)
def test_inward_points_pass_through_the_safety_zone_and_home(colour: int) -> None:
    entrance = entrance_square(colour)
    assert inward_point(entrance, 0) == centre(square_cell(entrance))
    for index in range(1, SAFETY_LENGTH + 1):
        assert inward_point(entrance, index) == centre(safety_cell(colour, index))
    assert inward_point(entrance, HOME_DEPTH) == centre(home_cell(colour))
    assert inward_point(start_exit_square(colour), START_DEPTH) == centre(start_cell(colour))


# The three pictures of the board take their places from the layout


def terminal_text(lines: list[str], cell: tuple[int, int]) -> str:
    """What the terminal board shows in a cell: three characters a cell."""
    row, column = cell
    return lines[row][3 * column : 3 * column + 3]


@pytest.mark.parametrize("colour", COLOURS)
def test_the_terminal_board_draws_every_place_in_its_layout_cell(colour: int) -> None:
    from pardon.textboard import render

    letter = "RBYG"[colour]
    for square in range(TRACK_LENGTH):
        pawns = tuple((DISTANCE[colour][square], START, START, START) if c == colour else () for c in COLOURS)
        lines = render(Position((colour,), pawns, colour)).split("\n")
        assert terminal_text(lines, square_cell(square)) == f"[{letter}]", f"square {square}"
    for index in range(1, SAFETY_LENGTH + 1):
        pawns = tuple((HOME, safety_distance(index), START, START) if c == colour else () for c in COLOURS)
        lines = render(Position((colour,), pawns, colour)).split("\n")
        assert terminal_text(lines, safety_cell(colour, index)) == f"[{letter}]", f"S{index}"
        assert terminal_text(lines, home_cell(colour)) == f"h1{letter.lower()}"
        assert terminal_text(lines, start_cell(colour)) == f"s2{letter.lower()}"


def test_the_browser_board_is_the_layout_seen_from_reds_seat() -> None:
    pytest.importorskip("fastapi")
    from pardon.web.board_json import RED_SEAT, board_geometry

    geometry = board_geometry(Rules())
    assert geometry["size"] == SIZE
    for entry in geometry["track"]:
        cell = square_cell(entry["square"])
        assert (entry["x"], entry["y"]) == centre(turned(cell, RED_SEAT))
        assert entry["side"] == COLOUR_NAMES[layout.side_of(entry["square"])]
    # Red's side along the bottom, square 0 in its bottom-right corner.
    assert (geometry["track"][0]["x"], geometry["track"][0]["y"]) == (SIZE - 0.5, SIZE - 0.5)
    for colour in COLOURS:
        player = geometry["players"][COLOUR_NAMES[colour]]
        for index, point in enumerate(player["safety"], start=1):
            assert (point["x"], point["y"]) == centre(turned(safety_cell(colour, index), RED_SEAT))
        home = depth_in(turned_point((player["home"]["x"], player["home"]["y"]), -RED_SEAT), entrance_square(colour))
        start = depth_in(
            turned_point((player["start"]["x"], player["start"]["y"]), -RED_SEAT), start_exit_square(colour)
        )
        assert home - player["home"]["r"] >= SAFETY_LENGTH + 0.5, "Home's circle covers S5"
        assert start - player["start"]["r"] >= 0.5, "Start's circle covers the track"
        assert abs(start - START_DEPTH) < player["start"]["r"], "Start's circle misses Start's cell"


def depth_in(point: tuple[float, float], square: int) -> float:
    """How far into the board from ``square`` a point of the layout lies; it must lie on the line straight in."""
    x, y = centre(square_cell(square))
    depth = abs(point[0] - x) + abs(point[1] - y)
    assert inward_point(square, depth) == pytest.approx(point, abs=1e-9)
    return depth


def test_the_printed_board_scales_the_layout() -> None:
    pytest.importorskip("reportlab")
    from reportlab.graphics.shapes import Circle, Rect

    from pardon.printables.board_diagram import board_drawing

    cell = 10.0
    drawing = board_drawing(SIZE * cell)

    def printed(point: tuple[float, float]) -> tuple[float, float]:
        return point[0] * cell, (SIZE - point[1]) * cell  # PDF's y runs upwards

    def unprinted(x: float, y: float) -> tuple[float, float]:
        return x / cell, SIZE - y / cell

    def rect_centre(rect: Rect) -> tuple[float, float]:
        return rect.x + rect.width / 2, rect.y + rect.height / 2

    track, *groups = drawing.contents
    assert [rect_centre(rect) for rect in track.contents] == [
        printed(centre(square_cell(square))) for square in range(TRACK_LENGTH)
    ]
    for colour in COLOURS:
        zone, start = groups[2 * colour], groups[2 * colour + 1]
        rects = [shape for shape in zone.contents if isinstance(shape, Rect)]
        assert [rect_centre(rect) for rect in rects] == [
            printed(centre(safety_cell(colour, index))) for index in range(1, SAFETY_LENGTH + 1)
        ]
        start_circle = next(shape for shape in start.contents if isinstance(shape, Circle))
        assert (start_circle.cx, start_circle.cy) == printed(centre(start_cell(colour)))
        home = next(shape for shape in zone.contents if isinstance(shape, Circle))
        depth = depth_in(unprinted(home.cx, home.cy), entrance_square(colour))
        assert abs(depth - HOME_DEPTH) < home.r / cell, "Home's circle misses Home's cell"
        assert depth > SAFETY_LENGTH, "Home's circle is not past S5"


def test_the_terminal_board_shows_a_token_on_no_pawn_in_the_centre() -> None:
    # the plain-text board of pardon play and replay once showed the Fire and Ice only on a pawn
    from pardon.core.notation import parse_position
    from pardon.textboard import FIRE_CELL, ICE_CELL, legend, render

    position = parse_position("R:28,start,start Y:40,33,start turn:R fire:Y33")
    lines = render(position, tokens=True).split("\n")
    assert terminal_text(lines, ICE_CELL) == "#I#" and terminal_text(lines, FIRE_CELL).strip() == ""
    assert "*Y*" in render(position, tokens=True)
    bumped = parse_position("R:28,start,start Y:40,start,start turn:Y")
    lines = render(bumped, tokens=True).split("\n")
    assert (terminal_text(lines, FIRE_CELL), terminal_text(lines, ICE_CELL)) == ("*F*", "#I#")
    assert "*F*" not in render(bumped) and "#I#" not in render(bumped)  # a game without Fire and Ice
    assert "*F* the Fire in the centre, for a 2" in legend(tokens=True)
    assert "*F*" not in legend()
