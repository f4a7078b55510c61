"""Moves in a player's words: "Red plays a 4: 20 back to 16, bumping Blue to Start"."""

from __future__ import annotations

from pardon.core.board import COLOUR_NAMES, FIRST_TRACK, SQUARE, START
from pardon.core.cards import a_card
from pardon.core.moves import BUMP_FROM_START, SWITCH, Action, Move
from pardon.core.notation import format_location, format_move
from pardon.core.state import Position


def _name(colour: int) -> str:
    return COLOUR_NAMES[colour].capitalize()


def _where(colour: int, distance: int) -> str:
    text = format_location(colour, distance)
    if distance == START:
        return "Start"
    if FIRST_TRACK <= distance < START:
        return text
    return text if text != "home" else "Home"


def _action(action: Action) -> str:
    colour = action.colour
    if action.kind == SWITCH:
        target_square = SQUARE[action.target][action.target_origin]
        text = f"switches {_where(colour, action.origin)} with {_name(action.target)} on {target_square}"
    elif action.kind == BUMP_FROM_START:
        text = f"Start to {_where(colour, action.landing)}"
    else:
        text = f"{_where(colour, action.origin)} to {_where(colour, action.landing)}"
    if action.end != action.landing:
        text += f", slides to {_where(colour, action.end)}"
    return text


def describe_move(position: Position, move: Move) -> str:
    """One line for a move made in ``position``: the card, the pawns, the bumps, the win."""
    player = _name(position.turn)
    card = a_card(move.card)
    if move.is_pass:
        verb = "declines the switch" if move.card == 11 else "cannot use it (forfeit)"
        text = f"{player} draws {card} and {verb}"
    else:
        text = f"{player} plays {card}: " + "; ".join(_action(action) for action in move.actions)
    bumped = [_name(colour) if colour != position.turn else "its own pawn" for colour, _ in move.bumps]
    if bumped:
        text += f" (sends {', '.join(bumped)} back to Start)"
    if move.result.winner is not None:
        text += f". {_name(move.result.winner)} wins!"
    elif move.result.turn == position.turn:
        text += ", and draws again"
    return f"{text}  [{format_move(position, move)}]"
