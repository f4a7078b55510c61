"""The JSON interface (docs/json.md): positions and move lists as plain JSON values.

A position is ``{"rules": PRESET_OR_OBJECT, "seats": [colour, ...], "turn": colour,
"pawns": {colour: [location, ...]}}`` with an optional ``"winner"``; a location is
``"start"``, ``"home"``, a track square 0–59 or ``"S1"``–``"S5"``.  Unknown keys are
an error, so a typo never passes silently.
"""

from __future__ import annotations

from typing import Any

from pardon.core.board import COLOUR_NAMES, COLOURS
from pardon.core.errors import InvalidError
from pardon.core.moves import Move, legal_moves
from pardon.core.notation import format_move, location_from_json, location_to_json, parse_colour
from pardon.core.rules import Rules, from_dict, nearest_preset, parse_rules
from pardon.core.state import Position, check_position

POSITION_KEYS = frozenset({"rules", "seats", "turn", "pawns", "winner"})


def rules_to_json(rules: Rules) -> str | dict[str, Any]:
    """A preset's name, or ``{"preset": NAME, option: value, ...}`` for the differences."""
    name, changes = nearest_preset(rules)
    return name if not changes else {"preset": name, **changes}


def rules_from_json(value: object) -> Rules:
    if isinstance(value, str):
        return parse_rules(value)
    if isinstance(value, dict):
        return from_dict(value)
    raise InvalidError(f"rules must be a preset name or an object of options, not {value!r}")


def position_to_json(rules: Rules, position: Position) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rules": rules_to_json(rules),
        "seats": [COLOUR_NAMES[colour] for colour in position.seats],
        "turn": COLOUR_NAMES[position.turn],
        "pawns": {
            COLOUR_NAMES[colour]: [location_to_json(colour, pawn) for pawn in position.pawns[colour]]
            for colour in position.seats
        },
    }
    if position.winner is not None:
        data["winner"] = COLOUR_NAMES[position.winner]
    return data


def _colour_key(value: object) -> int:
    if not isinstance(value, str):
        raise InvalidError(f"a colour is 'red', 'blue', 'yellow' or 'green', not {value!r}")
    return parse_colour(value)


def position_from_json(data: object) -> tuple[Rules, Position]:
    """Read and check a position; raise InvalidError naming what is wrong."""
    if not isinstance(data, dict):
        raise InvalidError("a position must be a JSON object")
    unknown = sorted(set(data) - POSITION_KEYS)
    if unknown:
        raise InvalidError(f"unknown key {unknown[0]!r} in the position: expected {', '.join(sorted(POSITION_KEYS))}")
    for key in ("rules", "seats", "turn", "pawns"):
        if key not in data:
            raise InvalidError(f"the position has no {key!r}")
    rules = rules_from_json(data["rules"])
    seats_value = data["seats"]
    if not isinstance(seats_value, list):
        raise InvalidError("'seats' must be a list of colours")
    seats = [_colour_key(seat) for seat in seats_value]
    pawns_value = data["pawns"]
    if not isinstance(pawns_value, dict):
        raise InvalidError("'pawns' must be an object: colour -> list of locations")
    rows: dict[int, tuple[int, ...]] = {}
    for key, locations in pawns_value.items():
        colour = _colour_key(key)
        if colour not in seats:
            raise InvalidError(f"{key!r} has pawns but is not in 'seats'")
        if not isinstance(locations, list):
            raise InvalidError(f"the pawns of {key!r} must be a list of locations")
        rows[colour] = tuple(sorted(location_from_json(colour, location) for location in locations))
    for colour in seats:
        if colour not in rows:
            raise InvalidError(f"{COLOUR_NAMES[colour]!r} is in 'seats' but has no pawns listed")
    winner = data.get("winner")
    position = Position(
        tuple(sorted(seats)) if len(set(seats)) == len(seats) else tuple(seats),
        tuple(rows.get(colour, ()) for colour in COLOURS),
        _colour_key(data["turn"]),
        None if winner is None else _colour_key(winner),
    )
    return rules, check_position(rules, position)


def move_to_json(rules: Rules, position: Position, move: Move) -> dict[str, Any]:
    return {
        "move": format_move(position, move),
        "pass": move.is_pass,
        "result": position_to_json(rules, move.result),
    }


def moves_to_json(rules: Rules, position: Position, card: int) -> list[dict[str, Any]]:
    return [move_to_json(rules, position, move) for move in legal_moves(rules, position, card)]
