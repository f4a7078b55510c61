"""A decision as the screen offers it: its notation, its card, its pawn actions and its words.

The screen never judges a move: it shows the choices it is given and sends back the one picked.
A game on this machine gives them as :class:`~pardon.core.moves.Move` values
(:func:`choice_of_move`), a pardon server as the protocol's move objects
(:func:`choice_of_json`, docs/protocol.md); both become the same :class:`Choice`.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from pardon.core.board import COLOUR_NAMES, FIRST_TRACK, SQUARE, START, START_EXIT
from pardon.core.cards import NO_CARD
from pardon.core.describe import describe_move
from pardon.core.errors import InvalidError
from pardon.core.moves import (
    ACCEPT,
    BONUS_HOME,
    BUMP_FROM_START,
    DOUBLE,
    DROP,
    FIRE,
    ICE,
    STEP,
    SWITCH,
    Action,
    Move,
)
from pardon.core.notation import format_move, location_from_json, parse_card_word, parse_colour
from pardon.core.rules import Rules
from pardon.core.state import Position

#: The protocol's names of the action kinds (docs/protocol.md).
KIND_NAMES: Final = {
    "step": STEP,
    "switch": SWITCH,
    "sorry": BUMP_FROM_START,
    "ice": ICE,
    "fire": FIRE,
    "bonus-home": BONUS_HOME,
    "double": DOUBLE,
    "accept": ACCEPT,
    "drop": DROP,
}
#: Actions that move a pawn by the card: chosen on the board, pawn then destination.
PAWN_KINDS: Final = frozenset((STEP, SWITCH, BUMP_FROM_START))


class Choice(NamedTuple):
    """One legal decision: what is sent back (``notation``), the card it plays (``NO_CARD``
    for a decision without one), what it does to the pawns, and the same in words."""

    notation: str
    card: int
    actions: tuple[Action, ...]
    text: str
    is_pass: bool

    @property
    def pawn_actions(self) -> tuple[Action, ...]:
        """The actions that move a pawn by the card (not the tokens, nor the Fire's bonus)."""
        return tuple(action for action in self.actions if action.kind in PAWN_KINDS)


def choice_of_move(rules: Rules, position: Position, move: Move) -> Choice:
    """A legal move of ``position``, as the screen offers it."""
    words = describe_move(rules, position, move).split("  [")[0]  # the notation is shown apart
    return Choice(format_move(position, move), move.card, move.actions, words, move.is_pass)


def choice_of_json(entry: dict[str, Any]) -> Choice:
    """A move object of the protocol's ``moves`` list (``{"move", "pass", "card", "actions",
    "text", ...}``); raise InvalidError if it cannot be read."""
    try:
        card = NO_CARD if entry.get("card") is None else parse_card_word(str(entry["card"]))
        actions = tuple(_action_of_json(action) for action in entry.get("actions", []))
        return Choice(str(entry["move"]), card, actions, str(entry.get("text", entry["move"])), bool(entry["pass"]))
    except (KeyError, TypeError, ValueError) as error:
        raise InvalidError(f"the server sent a move this screen cannot read: {error}") from None


def _action_of_json(data: dict[str, Any]) -> Action:
    kind = KIND_NAMES[data["kind"]]
    colour = -1 if data.get("colour") is None else parse_colour(data["colour"])
    if kind in (DOUBLE, ACCEPT, DROP) or colour < 0:
        return Action(kind, colour, -1, -1, -1)
    if kind in (ICE, FIRE):
        origin = _pawn_of_json(data["pawn"])[1]
        return Action(kind, colour, origin, origin, origin)
    origin = location_from_json(colour, data["from"])
    landing = location_from_json(colour, data["landing"])
    end = location_from_json(colour, data["to"])
    target, target_origin = _pawn_of_json(data["target"]) if "target" in data else (-1, -1)
    return Action(kind, colour, origin, landing, end, target, target_origin)


def _pawn_of_json(key: str) -> tuple[int, int]:
    """A pawn as the protocol names it, ``"blue:33"`` or ``"red:S2"``: its colour and distance."""
    name, _, place = key.partition(":")
    colour = parse_colour(name)
    return colour, location_from_json(colour, int(place) if place.isdigit() else place)


# --- words for the parts of a choice -----------------------------------------------------------


def place_words(colour: int, distance: int) -> str:
    """Where a pawn is, in a player's words: "on 20", "in Start", "Home", "on S2"."""
    if distance == START:
        return "in Start"
    if distance == 0:
        return "Home"
    if distance < FIRST_TRACK:
        return f"on S{FIRST_TRACK - distance}"
    return f"on {SQUARE[colour][distance]}"


def pawn_words(player: int, colour: int, distance: int) -> str:
    """A pawn as the player to move calls it: "Pawn on 20", "Yellow's pawn in Start"."""
    owner = "Pawn" if colour == player else f"{COLOUR_NAMES[colour].capitalize()}'s pawn"
    return f"{owner} {place_words(colour, distance)}"


def steps_of(action: Action) -> int:
    """How many squares a step counts: forward positive, backward negative."""
    start = START_EXIT + 1 if action.origin == START else action.origin
    counted = start - action.landing
    if counted > 12:  # backward past the entrance, round the track: the distance jumps by a lap
        return counted - (START - FIRST_TRACK)
    return counted


def destination_words(action: Action, split: int = 0) -> str:
    """Where a pawn action takes its pawn: "to 25", "back to 16", "switch with Blue on 33";
    "to 23 (3 of 7)" for part of a split 7 that leaves ``split`` squares to count."""
    colour = action.colour
    if action.kind in (SWITCH, BUMP_FROM_START):
        other = f"{COLOUR_NAMES[action.target].capitalize()} on {SQUARE[action.target][action.target_origin]}"
        text = f"switch with {other}" if action.kind == SWITCH else f"Sorry! {other}"
    else:
        steps = steps_of(action)
        where = place_words(colour, action.landing).removeprefix("on ")
        text = f"back to {where}" if steps < 0 else f"to {where}"
        if 0 < steps < split:
            text += f" ({steps} of {split})"
    if action.end != action.landing:
        text += f", slide to {place_words(colour, action.end).removeprefix('on ')}"
    return text


def token_words(action: Action) -> str:
    """A token's part of a choice: "Ice on Yellow 36", "Fire on 20", "S2 goes straight Home"."""
    if action.kind == ICE:
        if action.colour < 0:
            return "Ice back to the centre"
        where = place_words(action.colour, action.origin).removeprefix("on ")
        return f"Ice on {COLOUR_NAMES[action.colour].capitalize()} {where}"
    if action.kind == FIRE:
        return f"Fire on {place_words(action.colour, action.origin).removeprefix('on ')}"
    if action.kind == BONUS_HOME:
        return f"bonus: {place_words(action.colour, action.origin).removeprefix('on ')} goes Home"
    return ""
