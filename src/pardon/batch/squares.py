"""Where pawns stand, as array arithmetic: track distances (the encoding of
:mod:`pardon.core.board`), squares counted clockwise from the mover's side of the board, and
each seat's side relative to the mover's."""

from __future__ import annotations

from pardon.batch.backend import Array, as_int8, column, namespace, select
from pardon.batch.config import I8, NOWHERE, OFF_TRACK, SIDE, SQUARE_OF_HOME, TRACK_SQUARES, Config, tables
from pardon.core.board import FIRST_TRACK, LAST_TRACK


def _on_track(distance: Array) -> Array:
    return (distance >= FIRST_TRACK) & (distance <= LAST_TRACK)


def _wrapped(distance: Array) -> Array:
    """A distance moved backward past the last track square, round to the first ones."""
    return distance - as_int8(distance > LAST_TRACK) * I8(TRACK_SQUARES)


def _square(distance: Array) -> Array:
    """The mover's relative square of one of its own track distances (else NOWHERE)."""
    square = I8(SQUARE_OF_HOME) - distance
    square = square + as_int8(square < 0) * I8(TRACK_SQUARES)
    return select(_on_track(distance), square, NOWHERE)


def _relative_squares(pawns: Array, sides: Array) -> Array:
    """Every pawn's square counted clockwise from the mover's side's first square
    (OFF_TRACK for a pawn in Start, a Safety Zone or Home)."""
    base = (sides * I8(SIDE) + I8(SQUARE_OF_HOME))[:, None]
    square = base - pawns
    square = square + as_int8(square < 0) * I8(TRACK_SQUARES)
    return select(_on_track(pawns), square, OFF_TRACK)


def _sides(config: Config, turn: Array) -> Array:
    """``(players, *batch)``: each seat's side of the board relative to the mover's (with
    2 or 4 players the same whoever moves: then no lookup, a constant broadcast)."""
    xp = namespace(turn)
    sides = tables(config).sides
    if (sides == sides[:, :1]).all():
        return xp.broadcast_to(xp.asarray(column(sides[:, 0], turn.ndim)), (config.players, *turn.shape))
    return xp.take(xp.asarray(sides), turn.astype(xp.int32), axis=1)


def _behind(squares: Array, square: Array) -> Array:
    """How many squares each of ``squares`` lies clockwise past ``square`` (0–59)."""
    behind = squares - square
    return behind + as_int8(behind < 0) * I8(TRACK_SQUARES)


def _distance_from(square: Array, side: Array) -> Array:
    """The distance to Home of a pawn of relative ``side`` standing on relative ``square``."""
    distance = I8(2) + side * I8(SIDE) - square
    distance = distance + as_int8(distance < 0) * I8(TRACK_SQUARES)
    return distance + I8(FIRST_TRACK)
