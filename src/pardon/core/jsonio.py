"""The JSON interface (docs/json.md): positions and move lists as plain JSON values.

A position is ``{"rules": PRESET_OR_OBJECT, "seats": [colour, ...], "turn": colour,
"pawns": {colour: [location, ...]}}`` with an optional ``"winner"``; a location is
``"start"``, ``"home"``, a track square 0–59 or ``"S1"``–``"S5"``.  What the rules
add is in optional keys: ``"hands"`` (hands of five), ``"tokens"`` (Fire and Ice),
``"doubling"`` (stake and who dropped out), ``"scores"`` (a finished game's points).
Unknown keys are an error, so a typo never passes silently; so is a key the rules do
not play, and anything said twice (a repeated key, a colour written as ``"red"`` and
``"R"``), since only one of the two could be meant.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from pardon.core.board import COLOUR_NAMES, COLOURS
from pardon.core.cards import DECKS, SORRY, card_name
from pardon.core.errors import AmbiguousError, InvalidError, PardonError, shown_json
from pardon.core.hands import card_moves, hand_moves
from pardon.core.moves import Move
from pardon.core.notation import format_move, location_from_json, location_to_json, parse_card_word, parse_colour
from pardon.core.rules import Rules, from_dict, nearest_preset, parse_rules
from pardon.core.scoring import points_of
from pardon.core.state import Extras, Position, check_position

POSITION_KEYS = frozenset({"rules", "seats", "turn", "pawns", "winner", "hands", "tokens", "doubling", "scores"})


def parse_json(text: str) -> Any:
    """Read JSON text for this interface; raise InvalidError (not JSON, or nested too
    deeply to read) or AmbiguousError (an object gives one key twice), one line each.

    >>> parse_json('{"turn": "red", "turn": "blue"}')
    Traceback (most recent call last):
    ...
    pardon.core.errors.AmbiguousError: the key "turn" is given twice in one object
    """
    if not isinstance(text, str):
        raise InvalidError(f"JSON is read from text, not {shown_json(text)}")
    try:
        return json.loads(text, object_pairs_hook=_object_once)
    except json.JSONDecodeError as error:
        raise InvalidError(f"not valid JSON ({error.msg} at line {error.lineno} column {error.colno})") from None
    except RecursionError:
        raise InvalidError("the JSON is nested too deeply to read") from None
    except PardonError:  # a key given twice
        raise
    except ValueError as error:  # a number of more than 4,300 digits
        raise InvalidError(f"not valid JSON for this interface: {error}") from None


def _object_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise AmbiguousError(f"the key {shown_json(key)} is given twice in one object")
        found[key] = value
    return found


def rules_to_json(rules: Rules) -> str | dict[str, Any]:
    """A preset's name, or ``{"preset": NAME, option: value, ...}`` for the differences."""
    name, changes = nearest_preset(rules)
    return name if not changes else {"preset": name, **changes}


def rules_from_json(value: object) -> Rules:
    if isinstance(value, str):
        return parse_rules(value)
    if isinstance(value, dict):
        return from_dict(value)
    raise InvalidError(f"rules must be a preset name or an object of options, not {shown_json(value)}")


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
    if rules.hand:
        data["hands"] = {
            COLOUR_NAMES[colour]: [card_name(card) for card in hand]
            for colour, hand in enumerate(position.hands)
            if hand
        }
    if rules.tokens:
        data["tokens"] = {
            word: _token_to_json(position, pawn) for word, pawn in (("fire", position.fire), ("ice", position.ice))
        }
    if rules.doubling:
        data["doubling"] = {"stake": position.stake, "out": [COLOUR_NAMES[colour] for colour in position.out]}
    points = points_of(rules, position)
    if points is not None:
        data["scores"] = {COLOUR_NAMES[colour]: value for colour, value in points.items()}
    return data


def _token_to_json(position: Position, pawn: tuple[int, int] | None) -> dict[str, Any] | None:
    if pawn is None:
        return None
    colour, distance = pawn
    return {"colour": COLOUR_NAMES[colour], "pawn": position.pawns[colour].index(distance)}


def _colour_key(value: object) -> int:
    if not isinstance(value, str):
        raise InvalidError(f"a colour is 'red', 'blue', 'yellow' or 'green', not {shown_json(value)}")
    return parse_colour(value)


def _by_colour(value: dict[str, Any], what: str) -> dict[int, Any]:
    """An object keyed by colour, read: a colour given twice (``"red"`` and ``"R"``) is refused."""
    found: dict[int, Any] = {}
    keys: dict[int, str] = {}
    for key, item in value.items():
        colour = _colour_key(key)
        if colour in found:
            given = f"as {shown_json(keys[colour])} and {shown_json(key)}"
            raise AmbiguousError(f"{what} of {COLOUR_NAMES[colour]} are given twice, {given}")
        found[colour], keys[colour] = item, key
    return found


#: The keys some rules add: the key, what the rules lack without it, the option that plays it.
_KEYS_OF_RULES = (
    ("hands", "hands", "hand=5"),
    ("tokens", "Fire and Ice tokens", "tokens=true"),
    ("doubling", "doubling", "doubling=true"),
)


def _check_keys_in_play(rules: Rules, data: dict[str, Any]) -> None:
    """The keys of rules the game does not play must be absent, even empty or null."""
    in_play = {"hands": bool(rules.hand), "tokens": rules.tokens, "doubling": rules.doubling}
    for key, what, setting in _KEYS_OF_RULES:
        if key in data and not in_play[key]:
            raise InvalidError(f"these rules have no {what}: leave out {key!r} (it comes with {setting})")


def position_from_json(data: object) -> tuple[Rules, Position]:
    """Read and check a position; raise InvalidError naming what is wrong."""
    if not isinstance(data, dict):
        raise InvalidError("a position must be a JSON object")
    unknown = sorted(set(data) - POSITION_KEYS)
    if unknown:
        known = ", ".join(sorted(POSITION_KEYS))
        raise InvalidError(f"unknown key {shown_json(unknown[0])} in the position: expected {known}")
    for key in ("rules", "seats", "turn", "pawns"):
        if key not in data:
            raise InvalidError(f"the position has no {key!r}")
    rules = rules_from_json(data["rules"])
    _check_keys_in_play(rules, data)
    seats_value = data["seats"]
    if not isinstance(seats_value, list):
        raise InvalidError("'seats' must be a list of colours")
    seats = _seats_from_json(seats_value)
    pawns_value = data["pawns"]
    if not isinstance(pawns_value, dict):
        raise InvalidError("'pawns' must be an object: colour -> list of locations")
    written: dict[int, list[int]] = {}  # each colour's pawns in the order given (tokens count in it)
    for colour, locations in _by_colour(pawns_value, "the pawns").items():
        if colour not in seats:
            raise InvalidError(f"{COLOUR_NAMES[colour]!r} has pawns but is not in 'seats'")
        if not isinstance(locations, list):
            raise InvalidError(f"the pawns of {COLOUR_NAMES[colour]!r} must be a list of locations")
        written[colour] = [location_from_json(colour, location) for location in locations]
    for colour in seats:
        if colour not in written:
            raise InvalidError(f"{COLOUR_NAMES[colour]!r} is in 'seats' but has no pawns listed")
    winner = data.get("winner")
    position = Position(
        tuple(sorted(seats)) if len(set(seats)) == len(seats) else tuple(seats),
        tuple(tuple(sorted(written.get(colour, ()))) for colour in COLOURS),
        _colour_key(data["turn"]),
        None if winner is None else _colour_key(winner),
    )
    hands = _hands_from_json(data.get("hands"), seats)
    _check_cards_held(rules, hands)
    extras = Extras(
        hands,
        _token_from_json(data.get("tokens"), "fire", written),
        _token_from_json(data.get("tokens"), "ice", written),
        *_doubling_from_json(data.get("doubling")),
    )
    position = position._replace(extras=None if extras == Extras() else extras)
    check_position(rules, position)
    scores = data.get("scores")
    if scores is not None:
        points = points_of(rules, position)
        expected = None if points is None else {COLOUR_NAMES[colour]: value for colour, value in points.items()}
        if scores != expected:
            raise InvalidError(f"'scores' should be {shown_json(expected)} for this position, not {shown_json(scores)}")
    return rules, position


def _seats_from_json(value: list[Any]) -> list[int]:
    """The colours of ``"seats"``; a colour named twice (``"red"`` and ``"R"`` too) is refused."""
    seats: list[int] = []
    for seat in value:
        colour = _colour_key(seat)
        if colour in seats:
            raise InvalidError(f"'seats' names {COLOUR_NAMES[colour]} twice: a colour is played by one player")
        seats.append(colour)
    return seats


def _check_cards_held(rules: Rules, hands: tuple[tuple[int, ...], ...]) -> None:
    """The hands together hold no more of a card than the pack has (said before the core's
    check, in players' words: "6 Sorry! cards", not the card's number)."""
    held = Counter(card for hand in hands for card in hand)
    pack = DECKS.get(rules.deck, {})
    for card, count in sorted(held.items()):
        if card in pack and count > pack[card]:
            raise InvalidError(
                f"the hands hold {count} {_cards_named(card)}; the {rules.deck}-card pack has {pack[card]}"
            )


def _cards_named(card: int) -> str:
    """Several of a card as players say it: "Sorry! cards", "1s", "12s"."""
    return "Sorry! cards" if card == SORRY else f"{card}s"


def _hands_from_json(value: object, seats: list[int]) -> tuple[tuple[int, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict):
        raise InvalidError("'hands' must be an object: colour -> list of cards")
    hands: dict[int, tuple[int, ...]] = {}
    for colour, cards in _by_colour(value, "the hands").items():
        if not isinstance(cards, list) or not all(isinstance(card, (str, int)) for card in cards):
            raise InvalidError(f'the hand of {COLOUR_NAMES[colour]!r} must be a list of cards such as "7" or "sorry"')
        hands[colour] = tuple(sorted(parse_card_word(str(card)) for card in cards))
    return tuple(hands.get(colour, ()) for colour in COLOURS)


def _token_from_json(value: object, word: str, written: dict[int, list[int]]) -> tuple[int, int] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or set(value) - {"fire", "ice"}:
        raise InvalidError('\'tokens\' must be {"fire": null or {"colour": C, "pawn": I}, "ice": ...}')
    token = value.get(word)
    if token is None:
        return None
    if not isinstance(token, dict) or set(token) != {"colour", "pawn"}:
        raise InvalidError(f'the {word} token must be null or {{"colour": C, "pawn": I}}, not {shown_json(token)}')
    colour = _colour_key(token["colour"])
    index = token["pawn"]
    pawns = written.get(colour, [])
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(pawns):
        name = COLOUR_NAMES[colour]
        raise InvalidError(f"the {word} token's pawn must be an index into {name}'s pawns, not {shown_json(index)}")
    return colour, pawns[index]


def _doubling_from_json(value: object) -> tuple[int, tuple[int, ...]]:
    if value is None:
        return 1, ()
    if not isinstance(value, dict) or set(value) - {"stake", "out"}:
        raise InvalidError('\'doubling\' must be {"stake": N, "out": [colour, ...]}')
    stake = value.get("stake", 1)
    out = value.get("out", [])
    if isinstance(stake, bool) or not isinstance(stake, int):
        raise InvalidError(f"the stake must be a whole number, not {shown_json(stake)}")
    if not isinstance(out, list):
        raise InvalidError("'out' must be a list of colours")
    return stake, tuple(sorted(_colour_key(colour) for colour in out))


def move_to_json(rules: Rules, position: Position, move: Move) -> dict[str, Any]:
    return {
        "move": format_move(position, move),
        "pass": move.is_pass,
        "result": position_to_json(rules, move.result),
    }


def moves_to_json(rules: Rules, position: Position, card: int | None) -> list[dict[str, Any]]:
    """Every legal move of ``card``; in a hand game (``card`` None) every play of the hand."""
    moves = hand_moves(rules, position) if card is None else card_moves(rules, position, card)
    return [move_to_json(rules, position, move) for move in moves]
