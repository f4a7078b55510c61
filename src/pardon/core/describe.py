"""Moves in a player's words: "Blue plays a 4: 20 to 16 (sends Red back to Start)"."""

from __future__ import annotations

from collections.abc import Sequence

from pardon.core.board import COLOUR_NAMES, DISTANCE, FIRST_TRACK, SQUARE, START, partner
from pardon.core.cards import NO_CARD, a_card, card_label
from pardon.core.moves import (
    ACCEPT,
    BONUS_HOME,
    BUMP_FROM_START,
    DOUBLE,
    DROP,
    FIRE,
    ICE,
    SWITCH,
    Action,
    Move,
    legal_moves,
)
from pardon.core.notation import format_location, format_move
from pardon.core.rules import Rules
from pardon.core.state import Position
from pardon.core.tokens import switched_end
from pardon.core.turn import LeaderDraw


def _name(colour: int) -> str:
    return COLOUR_NAMES[colour].capitalize()


def _where(colour: int, distance: int) -> str:
    text = format_location(colour, distance)
    if distance == START:
        return "Start"
    if FIRST_TRACK <= distance < START:
        return text
    return text if text != "home" else "Home"


def _action(action: Action, mover: int = -1) -> str:
    """An action in words; a partner's pawn moved by ``mover`` is named ("Blue's pawn from Start to 19")."""
    colour = action.colour
    whose = f"{_name(colour)}'s pawn " if 0 <= mover != colour else ""
    whence = f"{whose}from " if whose else ""
    if action.kind == ICE:
        return (
            "the Ice goes back to the centre"
            if colour < 0
            else f"Ice on {_name(colour)} {_where(colour, action.origin)}"
        )
    if action.kind == FIRE:
        return f"Fire on {_where(colour, action.origin)}"
    if action.kind == BONUS_HOME:
        return f"the Fire pawn is Home, so {_where(colour, action.origin)} goes straight Home"
    if action.kind == SWITCH:
        target_square = SQUARE[action.target][action.target_origin]
        text = f"{whose}switches {_where(colour, action.origin)} with {_name(action.target)} on {target_square}"
    elif action.kind == BUMP_FROM_START:
        text = f"{whence}Start to {_where(colour, action.landing)}"
    else:
        text = f"{whence}{_where(colour, action.origin)} to {_where(colour, action.landing)}"
    if action.end != action.landing:
        text += f", slides to {_where(colour, action.end)}"
    return text


def _winners(rules: Rules, winner: int, out: tuple[int, ...]) -> str:
    """Who wins: with partners, the side ("Red and Yellow win"), less a partner who dropped out
    of a double."""
    if rules.partners and partner(winner) not in out:
        first, second = sorted((winner, partner(winner)))
        return f"{_name(first)} and {_name(second)} win"
    return f"{_name(winner)} wins"


def _bumped(bumps: Sequence[tuple[int, int]], mover: int, by_square: frozenset[int] = frozenset()) -> str:
    """Whom a move sends back, colour by colour: "Yellow", "Blue and Green", "2 of Yellow's pawns",
    "its own pawn" (a slide over the mover's own pawn); for the colours ``by_square``, the
    squares: "Yellow's pawn on 11" (after a switched pawn's slide, "Yellow" alone would read
    as the pawn that slid)."""
    squares: dict[int, list[int]] = {}
    for colour, distance in bumps:
        squares.setdefault(colour, []).append(SQUARE[colour][distance])
    words = []
    for colour, where in squares.items():
        count = len(where)
        if colour in by_square:
            named = " and ".join(str(square) for square in sorted(where))
            whose = "its own" if colour == mover else f"{_name(colour)}'s"
            words.append(f"{whose} pawn{'s' if count > 1 else ''} on {named}")
        elif colour == mover:
            words.append("its own pawn" if count == 1 else f"{count} of its own pawns")
        else:
            words.append(_name(colour) if count == 1 else f"{count} of {_name(colour)}'s pawns")
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _switched_slides(rules: Rules, move: Move) -> dict[int, int]:
    """The opponents' pawns that an 11 switch puts on a slide they ride: colour -> the
    square where the slide ends."""
    slides = {}
    for action in move.actions:
        if action.kind != SWITCH:
            continue
        end = switched_end(rules, move, action)
        landing = DISTANCE[action.target][SQUARE[action.colour][action.origin]]
        if end not in (landing, START):
            slides[action.target] = SQUARE[action.target][end]
    return slides


def _without_card(rules: Rules, player: str, move: Move) -> str:
    if not move.actions:  # the choice before the draw, declined: say which ("goes on" said nothing)
        return f"{player} {_declined(rules)}"
    kind = move.actions[0].kind
    if kind in _ANSWERS:
        return f"{_name(move.actions[0].colour)} {_ANSWERS[kind]}"
    return f"{player} moves the Fire pawn before drawing: {_action(move.actions[0])}"


def _declined(rules: Rules) -> str:
    """What a player who goes on to the draw chose not to do: double, move the Fire pawn, or both."""
    if rules.doubling and rules.tokens:
        return "neither doubles nor moves the Fire pawn"
    if rules.doubling:
        return "does not double"
    if rules.tokens:
        return "leaves the Fire pawn where it is"
    return "goes on to the draw"


_ANSWERS = {DOUBLE: "doubles the stakes", ACCEPT: "accepts the double", DROP: "drops out"}


def _could_switch(rules: Rules, position: Position) -> bool:
    """Whether an 11 offered a switch here: passing it then declines the switch, not a forfeit."""
    return any(not move.is_pass for move in legal_moves(rules, position, 11))


def describe_move(rules: Rules, position: Position, move: Move) -> str:
    """One line for a move made in ``position`` under ``rules``: the card, the pawns, the
    bumps, the win."""
    player = _name(position.turn)
    card = a_card(move.card)
    if move.card == NO_CARD:
        text = _without_card(rules, player, move)
    elif move.is_pass:
        if position.hands:
            text = f"{player} cannot use any card and discards {card}"
        elif move.card == 11 and _could_switch(rules, position):
            text = f"{player} draws {card} and declines the switch"
        else:
            text = f"{player} draws {card} and cannot use it (forfeit)"
    else:
        text = f"{player} plays {card}: " + "; ".join(_action(action, position.turn) for action in move.actions)
    slides = _switched_slides(rules, move) if move.card == 11 else {}
    for colour, square in slides.items():
        text += f", {_name(colour)} slides to {square}"
    if move.bumps:
        named = frozenset({*slides, position.turn}) if slides else frozenset()
        text += f" (sends {_bumped(move.bumps, position.turn, named)} back to Start)"
    if move.result.winner is not None:
        text += f". {_winners(rules, move.result.winner, move.result.out)}!"
    elif move.card == 2 and move.result.turn == position.turn:
        text += ", and plays again" if position.hands else ", and draws again"
    return f"{text}  [{format_move(position, move)}]"


def leader_draw_words(draw: LeaderDraw) -> str:
    """The draw for the Leader, round by round: "Leader draw: Red 5, Blue Sorry!; ... Blue plays first."."""
    rounds = "; ".join(
        ", ".join(f"{_name(colour)} {card_label(card)}" for colour, card in round_) for round_ in draw.rounds
    )
    stop = "" if rounds.endswith("!") else "."  # "Yellow Sorry! Yellow plays first.", not "Sorry!."
    return f"Leader draw: {rounds}{stop} {_name(draw.leader)} plays first."
