"""Hands of five (docs/rules.md): choose a card from your hand, or discard from a dead hand.

With ``Rules.hand`` set, a player holds cards instead of drawing one a turn.  Every
move names the card it plays; the card leaves the hand with the move (the
:class:`~pardon.core.game.Game` then discards it and draws back up, the chance step).
A card is *usable* when it has a move other than a pass, and a player with a usable
card must play one — except that an 11 which can only switch may be declined, as the
switch is never compulsory.  A dead hand (no usable card, or only such 11s, declined)
is discarded from: one move per distinct card, each a pass of that card.  After a 2
the same player plays again (``draw_again_on_2``), from the refilled hand.

>>> from pardon.core.rules import parse_rules
>>> from pardon.core.state import initial_position
>>> rules = parse_rules("adult")
>>> start = initial_position(rules, (0, 2))
>>> position = with_hand(start, 0, (3, 5, 8, 12, 13))
>>> sorted({move.card for move in hand_moves(rules, position)})
[3, 5, 8, 12, 13]
"""

from __future__ import annotations

from pardon.core.board import next_seat
from pardon.core.moves import Move, legal_moves
from pardon.core.rules import Rules
from pardon.core.state import NO_EXTRAS, Extras, Position, passing_over_dropped


def with_hand(position: Position, colour: int, hand: tuple[int, ...]) -> Position:
    """``position`` with ``colour`` holding ``hand`` (kept sorted)."""
    extras = position.extras or NO_EXTRAS
    hands = list(extras.hands or ((),) * len(position.pawns))
    hands[colour] = tuple(sorted(hand))
    # Built directly rather than with ``_replace``: this runs for every card of every turn.
    held = Extras(tuple(hands), extras.fire, extras.ice, extras.stake, extras.out)
    return Position(position.seats, position.pawns, position.turn, position.winner, held)


def without_card(hand: tuple[int, ...], card: int) -> tuple[int, ...]:
    """``hand`` less one ``card``."""
    index = hand.index(card)
    return hand[:index] + hand[index + 1 :]


def hand_moves(rules: Rules, position: Position) -> list[Move]:
    """Every legal play from the hand of the player to move, card by card in rank
    order, one move per distinct outcome of each card.  Empty when the game is over.

    A card whose use is compulsory (it has a use, and no pass) obliges the player to
    play a card: then only the plays are listed.  Otherwise the hand may be treated as
    dead: an 11 that can only switch may be declined (its switch is never compulsory,
    docs/rules.md: "The 11 switch"), so beside its switches each card may be discarded (``CARD pass``).
    """
    if position.winner is not None:
        return []
    colour = position.turn
    hand = position.hands[colour]
    by_card: list[tuple[Position, list[Move]]] = []
    for card in sorted(set(hand)):
        after = with_hand(position, colour, without_card(hand, card))
        by_card.append((after, legal_moves(rules, after, card)))
    if any(not any(move.is_pass for move in moves) for _, moves in by_card):
        return [move for _, moves in by_card for move in moves if not move.is_pass]
    return [_discard(after, move.card) if move.is_pass else move for after, moves in by_card for move in moves]


def _discard(after: Position, card: int) -> Move:
    """A dead hand's discard of ``card``: no pawn moves, the next player's turn."""
    following = next_seat(after.seats, after.turn)
    return Move(card, (), passing_over_dropped(after._replace(turn=following)))


def card_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """The moves of one card: from the hand in a hand game, else as drawn."""
    if rules.hand:
        return [move for move in hand_moves(rules, position) if move.card == card]
    return legal_moves(rules, position, card)
