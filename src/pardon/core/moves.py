"""Legal moves: every distinct outcome of a card, in every variant (docs/rules.md: "The classic
game", "Partners", "The 2013 edition").

``legal_moves(rules, position, card)`` is a pure function: it lists every distinct
outcome of the card exactly once, in a stable order (pawns nearest Home first), each
as a :class:`Move` that already carries its consequences — the resulting position and
every pawn bumped back to Start.  A forfeit is an explicit move with no actions.
``apply`` therefore only returns ``move.result``.

The variants are layers, each importing only the ones below it:
:mod:`pardon.core.kernel` (one colour's moves, the classic rules) →
:mod:`pardon.core.partners` (a team's moves; :func:`board_moves`) →
:mod:`pardon.core.tokens` (Fire and Ice) → this module.  The values and names the
rest of the project uses (``Move``, ``Action``, the action kinds) are re-exported here.
"""

from __future__ import annotations

from typing import Final

from pardon.core.board import DISTANCE, SQUARE
from pardon.core.cards import CARDS, card_number
from pardon.core.kernel import (
    ACCEPT,
    BONUS_HOME,
    BUMP_FROM_START,
    DOUBLE,
    DROP,
    FIRE,
    ICE,
    SPLIT_CARD,
    STEP,
    SWITCH,
    Action,
    Bumps,
    Context,
    Move,
    Pawns,
    context,
    steps_result,
    tables,
)
from pardon.core.partners import board_moves
from pardon.core.rules import Rules, check_rules
from pardon.core.state import Position, check_position_value, passing_over_dropped
from pardon.core.tokens import token_moves

__all__ = [
    "ACCEPT",
    "BONUS_HOME",
    "BUMP_FROM_START",
    "DOUBLE",
    "DROP",
    "FIRE",
    "ICE",
    "SPLIT_CARD",
    "STEP",
    "SWITCH",
    "Action",
    "Bumps",
    "Context",
    "Move",
    "Pawns",
    "apply",
    "board_moves",
    "context",
    "legal_moves",
    "slides_ridden",
    "steps_result",
    "tables",
]


_CARD_SET: Final = frozenset(CARDS)


def legal_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """Every legal way to use ``card``, one per distinct outcome, passes included.

    A pass (forfeit) is the only move when the card cannot be used; with an 11 it is
    also offered when no pawn can go forward 11, since a switch is never compulsory.
    Returns an empty list when the game is over.  A ``card`` that is no card (a 6, "7",
    7.0), or arguments of the wrong type, are an InvalidError.
    """
    if type(card) is not int or card not in _CARD_SET:  # a NumPy integer becomes a plain int
        card = card_number(card)
    try:
        if position.winner is not None:
            return []
        moves = token_moves(rules, position, card) if rules.tokens else board_moves(rules, position, card)
    except AttributeError:
        check_rules(rules)
        check_position_value(position)
        raise
    if position.extras is not None and position.extras.out:  # the turn passes over who dropped out
        moves = [move._replace(result=passing_over_dropped(move.result)) for move in moves]
    return moves


def apply(move: Move) -> Position:
    """The position after ``move`` (already computed when the move was generated)."""
    return move.result


def slides_ridden(rules: Rules, move: Move) -> int:
    """How many slides ``move`` rides: each pawn moved that slid, and an opponent's pawn switched
    by an 11 onto a triangle it rides, where the rules have it slide (unless the mover's own slide
    swept it back to Start first).  Simulations count these, whichever engine plays."""
    count = 0
    for action in move.actions:
        if action.kind <= BUMP_FROM_START and action.end != action.landing:
            count += 1
        if action.kind == SWITCH and rules.switched_opponent_slides:
            square = SQUARE[action.colour][action.origin]  # where the opponent's pawn lands
            if square in tables(rules).rides[action.target]:
                count += (action.target, DISTANCE[action.target][square]) not in move.bumps
    return count
