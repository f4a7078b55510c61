"""The immutable position: where every pawn stands, whose turn it is, who has won.

Pawn locations are colour-relative distances to Home (see :mod:`pardon.core.board`);
each colour's pawns are kept sorted, so two positions with the same pawns on the same
squares are equal and hash alike whatever order the pawns were listed in.
"""

from __future__ import annotations

import operator
import reprlib
from collections import Counter
from typing import Any, Final, NamedTuple

from pardon.core.board import (
    COLOUR_NAMES,
    COLOURS,
    DISTANCE,
    FIRST_TRACK,
    HOME,
    SQUARE,
    START,
    START_EXIT,
    is_on_track,
    next_seat,
    partner,
)
from pardon.core.cards import CARDS, DECKS
from pardon.core.errors import InvalidError
from pardon.core.rules import Rules

#: Colours in play for each number of players when the players do not choose (docs/rules.md: "The board").
DEFAULT_SEATS: dict[int, tuple[int, ...]] = {1: (0,), 2: (0, 2), 3: (0, 1, 2), 4: (0, 1, 2, 3)}


class Extras(NamedTuple):
    """The state some rules add to the board: hands, tokens, doubling (docs/rules.md: "Points",
    "Hands of five", "The 2013 edition").

    ``hands[colour]`` is that colour's hand, sorted (empty for a hand not known: the
    other seats' hands in an observation).  ``fire`` and ``ice`` name the pawn a token
    sits on as ``(colour, distance)``, or ``None`` while it is in the centre.  ``stake``
    multiplies the points after doubles; ``out`` lists the colours that dropped out.
    """

    hands: tuple[tuple[int, ...], ...] = ()
    fire: tuple[int, int] | None = None
    ice: tuple[int, int] | None = None
    stake: int = 1
    out: tuple[int, ...] = ()


NO_EXTRAS: Final = Extras()


class Position(NamedTuple):
    """Everything on the board, and whose turn it is.

    ``pawns[colour]`` lists that colour's pawns (empty for a colour not in play) as
    sorted distances to Home.  ``turn`` is the colour that draws next; ``winner`` is
    the colour that has won, or ``None`` while the game goes on.  ``extras`` holds
    what hands, Fire and Ice, or doubling add (``None`` for the classic game).
    """

    seats: tuple[int, ...]
    pawns: tuple[tuple[int, ...], ...]
    turn: int
    winner: int | None = None
    extras: Extras | None = None

    @property
    def more(self) -> Extras:
        """The extras, or empty ones."""
        return self.extras or NO_EXTRAS

    @property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return self.more.hands

    @property
    def fire(self) -> tuple[int, int] | None:
        return self.more.fire

    @property
    def ice(self) -> tuple[int, int] | None:
        return self.more.ice

    @property
    def stake(self) -> int:
        return self.more.stake

    @property
    def out(self) -> tuple[int, ...]:
        return self.more.out

    def with_extras(self, **changes: Any) -> Position:
        """This position with some extras changed (``None`` when none are left, so that
        equal positions compare equal)."""
        extras = self.more._replace(**changes)
        return self._replace(extras=None if extras == NO_EXTRAS else extras)

    @property
    def is_over(self) -> bool:
        """Whether somebody has won."""
        return self.winner is not None

    def occupant(self, square: int) -> tuple[int, int] | None:
        """``(colour, distance)`` of the pawn on a track square, if any."""
        for colour in self.seats:
            distance = DISTANCE[colour][square]
            if distance in self.pawns[colour]:
                return colour, distance
        return None


def seats_for(players: int) -> tuple[int, ...]:
    """The usual colours for 1 (solo), 2, 3 or 4 players."""
    if players not in DEFAULT_SEATS:
        raise InvalidError(f"Sorry! is played by 2 to 4 players (1 in the solo challenge), not {players}")
    return DEFAULT_SEATS[players]


def passing_over_dropped(position: Position) -> Position:
    """``position`` with the turn passed on, clockwise, over players who dropped out of a
    double (docs/rules.md: "Points"): they take no more turns."""
    out = position.out
    turn = position.turn
    if position.winner is not None or turn not in out:
        return position
    for _ in position.seats:  # at most once round the table
        turn = next_seat(position.seats, turn)
        if turn not in out:
            return position._replace(turn=turn)
    return position


def initial_position(rules: Rules, seats: tuple[int, ...], first: int | None = None) -> Position:
    """Every pawn in Start (or on its start exit for ``pawns_out``); ``first`` plays first."""
    seats = check_seats(seats, rules)
    out = rules.pawns_out
    pawns = tuple(
        tuple(sorted((START_EXIT,) * out + (START,) * (rules.pawns - out))) if colour in seats else ()
        for colour in COLOURS
    )
    return Position(seats, pawns, seats[0] if first is None else first)


def check_seats(seats: tuple[int, ...], rules: Rules | None = None) -> tuple[int, ...]:
    """Seats in clockwise order, checked: distinct colours, as many as the rules allow."""
    allowed = rules.players if rules is not None else (2, 3, 4)
    try:
        if isinstance(seats, (str, bytes)) or any(isinstance(colour, bool) for colour in seats):
            raise TypeError
        seats = tuple(operator.index(colour) for colour in seats)
    except TypeError:
        raise InvalidError(
            f"seats must be a tuple of colour numbers such as (0, 2), not {reprlib.repr(seats)}"
        ) from None
    if len(seats) not in allowed:
        if allowed == (1,):
            raise InvalidError(f"the solo challenge is played by 1 player, not {len(seats)}")
        if allowed == (4,):
            raise InvalidError(f"the partners game is played by 4 players, not {len(seats)}")
        raise InvalidError(f"Sorry! is played by 2 to 4 players, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise InvalidError("a colour can be played by one player only")
    if any(colour not in COLOURS for colour in seats):
        raise InvalidError(f"unknown colour in seats {seats!r}")
    return tuple(sorted(seats))


def check_position_value(value: object) -> Position:
    """``value`` if it is a :class:`Position`, else InvalidError (whether it could arise is
    :func:`check_position`'s question)."""
    if not isinstance(value, Position):
        raise InvalidError(f"position must be a Position (parse_position(text)), not {reprlib.repr(value)}")
    return value


def check_position(rules: Rules, position: Position) -> Position:
    """Raise InvalidError unless ``position`` could arise under ``rules``; return it."""
    seats = check_seats(position.seats, rules)
    if seats != position.seats:
        raise InvalidError("seats must be listed clockwise: red, blue, yellow, green")
    if position.turn not in seats:
        raise InvalidError(f"{_name(position.turn)} is not playing, so it cannot be {_name(position.turn)}'s turn")
    squares: dict[int, int] = {}
    for colour in COLOURS:
        pawns = position.pawns[colour]
        if colour not in seats:
            if pawns:
                raise InvalidError(f"{_name(colour)} is not playing but has pawns")
            continue
        if len(pawns) != rules.pawns:
            raise InvalidError(f"{_name(colour)} has {len(pawns)} pawns; these rules give each player {rules.pawns}")
        if list(pawns) != sorted(pawns):
            raise InvalidError(f"{_name(colour)}'s pawns are not sorted")
        _check_pawns(colour, pawns, squares)
    home = {colour for colour in seats if all(pawn == HOME for pawn in position.pawns[colour])}
    if rules.partners:  # a side is done only with both partners' pawns Home
        finished = [colour for colour in seats if colour in home and partner(colour) in home]
    else:
        finished = sorted(home)
    if position.winner is None and finished:
        raise InvalidError(f"{_name(finished[0])} has every pawn Home, so the game is over")
    last_in = [colour for colour in seats if colour not in position.out] == [position.winner]
    if position.winner is not None and position.winner not in finished and not last_in:
        raise InvalidError(f"{_name(position.winner)} is named the winner without every pawn Home")
    if len(finished) > (2 if rules.partners else 1):
        raise InvalidError("only one side can have every pawn Home")
    _check_hands(rules, position)
    _check_tokens(rules, position)
    _check_doubling(rules, position)
    return position


def _check_hands(rules: Rules, position: Position) -> None:
    hands = position.hands
    if not rules.hand:
        if any(hands):
            raise InvalidError("these rules have no hands: a card is drawn each turn")
        return
    if len(hands) != len(COLOURS) or not hands[position.turn]:
        raise InvalidError(f"{_name(position.turn)} is to play, so {_name(position.turn)}'s hand must be given")
    held: Counter[int] = Counter()
    for colour, hand in enumerate(hands):
        if hand and colour not in position.seats:
            raise InvalidError(f"{_name(colour)} is not playing but holds cards")
        if hand and len(hand) != rules.hand:
            raise InvalidError(f"{_name(colour)} holds {len(hand)} cards; a hand has {rules.hand}")
        if any(card not in CARDS for card in hand):
            raise InvalidError(f"{_name(colour)} holds a card that is not in the pack")
        held.update(hand)
    for card, count in held.items():
        if count > DECKS[rules.deck][card]:
            raise InvalidError(f"the hands hold {count} cards {card}; the {rules.deck}-card pack has fewer")


def _check_tokens(rules: Rules, position: Position) -> None:
    if not rules.tokens:
        if position.fire is not None or position.ice is not None:
            raise InvalidError("these rules have no Fire and Ice tokens")
        return
    for word, pawn in (("Fire", position.fire), ("Ice", position.ice)):
        if pawn is None:
            continue
        colour, distance = pawn
        if colour not in position.seats or distance not in position.pawns[colour]:
            raise InvalidError(f"the {word} token is on a pawn that is not there")
        if not HOME < distance < START or (word == "Ice" and distance < FIRST_TRACK):
            where = "on the track" if word == "Ice" else "out of Start and not Home"
            raise InvalidError(f"the {word} token sits only on a pawn {where}")


def _check_doubling(rules: Rules, position: Position) -> None:
    stake, out = position.stake, position.out
    if (stake != 1 or out) and not rules.doubling:
        raise InvalidError("these rules have no doubling")
    if stake < 1 or stake & (stake - 1):
        raise InvalidError(f"the stake is doubled from 1, so it is 1, 2, 4, ... not {stake}")
    if any(colour not in position.seats for colour in out):
        raise InvalidError("a player who is not playing cannot drop out")
    if position.winner is None and position.turn in out:
        raise InvalidError(f"{_name(position.turn)} dropped out and has no turn")
    if len(set(out)) != len(out):
        raise InvalidError("a player drops out only once")
    if out and position.winner is None and len(out) >= len(position.seats) - 1:
        raise InvalidError(f"every other player dropped out, so the game is over: {_name(position.turn)} has won")


def _check_pawns(colour: int, pawns: tuple[int, ...], squares: dict[int, int]) -> None:
    seen_safety: set[int] = set()
    for pawn in pawns:
        if not HOME <= pawn <= START:
            raise InvalidError(f"{_name(colour)} has a pawn at an impossible place ({pawn})")
        if is_on_track(pawn):
            square = SQUARE[colour][pawn]
            if square in squares:
                other = _name(squares[square])
                raise InvalidError(f"two pawns ({_name(colour)} and {other}) stand on square {square}")
            squares[square] = colour
        elif HOME < pawn < FIRST_TRACK:
            if pawn in seen_safety:
                raise InvalidError(f"two {_name(colour)} pawns stand on one Safety Zone square")
            seen_safety.add(pawn)


def _name(colour: int) -> str:
    return COLOUR_NAMES[colour].capitalize() if 0 <= colour < len(COLOUR_NAMES) else str(colour)
