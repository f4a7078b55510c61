"""Why a move is not allowed, in a player's words, naming the rule that forbids it.

:func:`why_not` answers for a move as the player wrote it (``"5 20-25"``, ``"1 start"``,
``"sorry 33"``); :func:`parse_move <pardon.core.notation.parse_move>` puts the answer in
its IllegalError.  The checks follow docs/rules.md ("The classic game") in the order a player would think of
them: is there such a pawn, can this card move it at all, how far, and where it ends.
"""

from __future__ import annotations

from pardon.core.board import FIRST_TRACK, HOME, SQUARE, START, START_EXIT
from pardon.core.cards import SORRY, a_card
from pardon.core.locations import format_location
from pardon.core.moves import context, legal_moves
from pardon.core.rules import Rules
from pardon.core.state import Position

FORWARD_CARDS = frozenset((1, 2, 3, 5, 7, 8, 10, 11, 12))


def _where(colour: int, distance: int) -> str:
    """A location as a player says it: Start, Home, S3, square 20."""
    if FIRST_TRACK <= distance < START:
        return f"square {SQUARE[colour][distance]}"
    return format_location(colour, distance).capitalize()


def why_pawn_cannot_move(rules: Rules, position: Position, card: int, origin: int) -> str | None:
    """Why the player's pawn at ``origin`` cannot use ``card`` at all, or None if it can."""
    colour = position.turn
    if origin not in position.pawns[colour]:
        return f"you have no pawn at {_where(colour, origin)}"
    if origin == HOME:
        return "a pawn that is Home never moves again"
    if position.ice == (colour, origin):
        return "that pawn is frozen by the Ice: it cannot move until a 1 moves the Ice on"
    if origin == START:
        out = -1 if card == SORRY else context(rules, position.seats, colour).leave_start[card]
        if card != SORRY and out < 0:
            if rules.leave_start == "circle":
                return "only a 1, a 2 or a Sorry! brings a pawn out of Start"
            return "the 4 and the 10's back 1 never bring a pawn out of Start"
        if card == SORRY and not _opponents_on_track(position):
            return "a Sorry! needs an opponent's pawn on the track to land on"
        if out == START_EXIT and out in position.pawns[colour]:
            return "your own pawn is on your start exit, and you may not land on your own pawn"
        if out in position.pawns[colour]:  # 2013: the pawn comes out past the circle
            where = _where(colour, out)
            return f"your own pawn is on {where}, where {a_card(card)} brings a pawn out, and you may not land on it"
        return None
    if card == SORRY and not rules.sorry_forward_4:
        return "a Sorry! moves a pawn from your Start, not one already out"
    count = 4 if card == SORRY else card  # the 2013 Sorry! may move a pawn forward 4
    if (card in FORWARD_CARDS or card == SORRY) and origin < count and card not in (10, 11):
        return f"a pawn needs the exact count to reach Home: it is {origin} from Home, not {count}"
    if card == 11 and origin < 11 and origin < FIRST_TRACK:
        return "a pawn needs the exact count to reach Home, and only pawns on the track can be switched"
    if any(action.origin == origin for move in legal_moves(rules, position, card) for action in move.actions):
        return None
    if card == 10 and origin < 10:  # forward 10 passes Home, so back 1 is what was blocked
        return "a pawn needs the exact count to reach Home, and going back 1 would land on your own pawn"
    if position.ice is not None:
        iced = SQUARE[position.ice[0]][position.ice[1]]
        blocked = f"your own pawn or on square {iced}, blocked by the Ice"
        return f"{_where(colour, origin)} cannot use {a_card(card)}: it would land on {blocked}"
    return f"{_where(colour, origin)} cannot use {a_card(card)}: it would land on your own pawn"


def _opponents_on_track(position: Position) -> bool:
    return any(
        FIRST_TRACK <= pawn < START
        for other in position.seats
        if other != position.turn
        for pawn in position.pawns[other]
    )


def why_not_pass(card: int) -> str:
    """Why a player may not pass: a card that can be used must be used (§3.7)."""
    if card == 11:
        return "a pawn can move forward 11, so the 11 must be used: move 11 or switch"
    return f"a pawn can use {a_card(card)}, and a card that can be used must be used"
