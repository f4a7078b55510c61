"""Move values, legal-move generation and applying a move (RULES.md §3).

``legal_moves(rules, position, card)`` is a pure function: it lists every distinct
outcome of the card exactly once, in a stable order (pawns nearest Home first), each
as a :class:`Move` that already carries its consequences — the resulting position and
every pawn bumped back to Start.  A forfeit is an explicit move with no actions.
``apply`` therefore only returns ``move.result``.

Internally a pawn is a colour-relative distance to Home (:mod:`pardon.core.board`),
so forward is subtraction and "never past your own entrance" is "never below 0".
This module is the engine's hot path: it builds tuples directly and keeps the common
case (one pawn, no bump, no slide) free of any general machinery.
"""

from __future__ import annotations

from typing import Final, NamedTuple

from pardon.core.board import (
    COLOURS,
    DISTANCE,
    FIRST_TRACK,
    HOME,
    SLIDE_AT_TRIANGLE,
    SQUARE,
    START,
    START_EXIT,
    TRACK_LENGTH,
    next_seat,
)
from pardon.core.cards import SORRY
from pardon.core.rules import Rules
from pardon.core.state import Position

#: What an action does.
STEP: Final = 0  # move a pawn by count (forward, backward, or out of Start)
SWITCH: Final = 1  # 11: exchange squares with an opponent's pawn
BUMP_FROM_START: Final = 2  # Sorry!: from Start onto an opponent's pawn

SPLIT_CARD: Final = 7
_LAST_TRACK: Final = START - 1
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__

Pawns = tuple[tuple[int, ...], ...]
Bumps = tuple[tuple[int, int], ...]


class Action(NamedTuple):
    """One thing done with a card: a pawn of ``colour`` leaves ``origin``.

    ``landing`` is where the count (or the switch, or the Sorry!) puts it and ``end``
    where it stands once any slide is ridden.  ``target``/``target_origin`` name the
    opponent's pawn of a switch or a Sorry! (``-1`` when there is none).
    """

    kind: int
    colour: int
    origin: int
    landing: int
    end: int
    target: int = -1
    target_origin: int = -1


class Move(NamedTuple):
    """A legal choice for a card, with its consequences computed once.

    ``actions`` is empty for a pass (forfeit or declined 11).  ``bumps`` lists every
    ``(colour, distance)`` pawn sent back to Start, by landing or by a slide sweep,
    in the order it happened.  ``result`` is the position after the move.
    """

    card: int
    actions: tuple[Action, ...]
    result: Position
    bumps: Bumps = ()

    @property
    def is_pass(self) -> bool:
        """Whether the card is not used: a forfeit, or an 11 whose switch is declined."""
        return not self.actions


class Tables(NamedTuple):
    """Per-rules lookups, built once for each Rules value."""

    #: ``rides[colour]`` maps a triangle square to (end square, swept squares).
    rides: tuple[dict[int, tuple[int, tuple[int, ...]]], ...]
    draw_again_on_2: bool
    switched_opponent_slides: bool


_TABLES: dict[Rules, Tables] = {}


def tables(rules: Rules) -> Tables:
    """The lookups for ``rules`` (made once, then shared)."""
    found = _TABLES.get(rules)
    if found is None:
        rides = tuple(
            {
                triangle: (slide.end, slide.swept)
                for triangle, slide in SLIDE_AT_TRIANGLE.items()
                if (slide.colour == colour) == (rules.slide_riders == "own")
            }
            for colour in COLOURS
        )
        found = _TABLES[rules] = Tables(rides, rules.draw_again_on_2, rules.switched_opponent_slides)
    return found


def occupancy(pawns: Pawns) -> dict[int, int]:
    """Map each occupied track square to the colour of the pawn on it."""
    occupied: dict[int, int] = {}
    for colour, row in enumerate(pawns):
        squares = SQUARE[colour]
        for pawn in row:
            if FIRST_TRACK <= pawn < START:
                occupied[squares[pawn]] = colour
    return occupied


def next_turn(rules: Rules, position: Position, card: int) -> int:
    """Who draws after ``card`` is played or forfeited: the same player after a classic 2."""
    if card == 2 and rules.draw_again_on_2:
        return position.turn
    return next_seat(position.seats, position.turn)


def _settle(pawns: Pawns, changes: list[tuple[int, int, int]]) -> Pawns:
    """``pawns`` after each ``(colour, old, new)`` change, in order, re-sorted."""
    changed: dict[int, list[int]] = {}
    for colour, old, new in changes:
        row = changed.get(colour)
        if row is None:
            row = changed[colour] = list(pawns[colour])
        row[row.index(old)] = new
    result = list(pawns)
    for colour, row in changed.items():
        row.sort()
        result[colour] = tuple(row)
    return tuple(result)


def _moved(pawns: Pawns, colour: int, origin: int, end: int) -> Pawns:
    """``pawns`` with one pawn of ``colour`` moved from ``origin`` to ``end``."""
    row = list(pawns[colour])
    row[row.index(origin)] = end
    row.sort()
    return (*pawns[:colour], tuple(row), *pawns[colour + 1 :])


def _land(
    rides: dict[int, tuple[int, tuple[int, ...]]],
    pawns: Pawns,
    occupied: dict[int, int],
    colour: int,
    origin: int,
    landing: int,
) -> tuple[int, Bumps] | None:
    """Where a pawn moved from ``origin`` to ``landing`` ends, and whom it bumps.

    ``None`` when the move is illegal (it would end on an own pawn).  The order is
    RULES.md §3.3: bump the occupant of the landing square, then slide and sweep.
    """
    if landing < FIRST_TRACK:
        if landing != HOME and landing in pawns[colour]:
            return None
        return landing, ()
    square = SQUARE[colour][landing]
    occupant = occupied.get(square, -1)
    if occupant == colour:
        return None
    ride = rides.get(square)
    if ride is None:
        return landing, (((occupant, DISTANCE[occupant][square]),) if occupant >= 0 else ())
    end_square, swept = ride
    bumps = [(occupant, DISTANCE[occupant][square])] if occupant >= 0 else []
    origin_square = SQUARE[colour][origin] if FIRST_TRACK <= origin < START else -1
    for swept_square in swept:
        swept_colour = occupied.get(swept_square, -1)
        if swept_colour >= 0 and swept_square != origin_square:  # the slider has left
            bumps.append((swept_colour, DISTANCE[swept_colour][swept_square]))
    return DISTANCE[colour][end_square], tuple(bumps)


def _after_land(pawns: Pawns, colour: int, origin: int, end: int, bumps: Bumps) -> Pawns:
    if not bumps:
        return _moved(pawns, colour, origin, end)
    changes = [(colour, origin, end)]
    changes.extend((bumped, at, START) for bumped, at in bumps)
    return _settle(pawns, changes)


def _backward(distance: int, count: int) -> int:
    """Distance after a backward move (wrapping round the track)."""
    moved = distance + count
    return moved - TRACK_LENGTH if moved > _LAST_TRACK else moved


class _Generator:
    """Builds the moves of one card in one position, one per distinct result."""

    __slots__ = ("_occupied", "card", "colour", "moves", "position", "rules", "seen", "tables", "turn")

    def __init__(self, rules: Rules, position: Position, card: int) -> None:
        self.rules = rules
        self.tables = tables(rules)
        self.position = position
        self.card = card
        self.colour = position.turn
        if card == 2 and self.tables.draw_again_on_2:
            self.turn = position.turn
        else:
            self.turn = next_seat(position.seats, position.turn)
        self.moves: list[Move] = []
        self.seen: set[Pawns] | None = None
        self._occupied: dict[int, int] | None = None

    @property
    def occupied(self) -> dict[int, int]:
        occupied = self._occupied
        if occupied is None:
            occupied = self._occupied = occupancy(self.position.pawns)
        return occupied

    def add(self, actions: tuple[Action, ...], pawns: Pawns, bumps: Bumps) -> None:
        """Record a move; a result already seen is dropped when de-duplicating."""
        seen = self.seen
        if seen is not None:
            if pawns in seen:
                return
            seen.add(pawns)
        position = self.position
        mover = actions[0].colour
        if pawns[mover][-1] == HOME:  # sorted, so the farthest pawn is last
            result = _new(Position, (position.seats, pawns, position.turn, mover))
        else:
            result = _new(Position, (position.seats, pawns, self.turn, None))
        self.moves.append(_new(Move, (self.card, actions, result, bumps)))

    def step(self, origin: int, landing: int) -> None:
        """A pawn of the player's colour moved by count from ``origin`` to ``landing``."""
        colour = self.colour
        pawns = self.position.pawns
        if landing < FIRST_TRACK:
            if landing != HOME and landing in pawns[colour]:
                return
            action = _new(Action, (STEP, colour, origin, landing, landing, -1, -1))
            self.add((action,), _moved(pawns, colour, origin, landing), ())
            return
        landed = _land(self.tables.rides[colour], pawns, self.occupied, colour, origin, landing)
        if landed is not None:
            end, bumps = landed
            action = _new(Action, (STEP, colour, origin, landing, end, -1, -1))
            self.add((action,), _after_land(pawns, colour, origin, end, bumps), bumps)

    def forward(self, count: int) -> None:
        previous = -1
        for pawn in self.position.pawns[self.colour]:
            if pawn == START:
                break  # rows are sorted: the rest are in Start too
            if pawn >= count and pawn != previous:
                self.step(pawn, pawn - count)
            previous = pawn

    def backward(self, count: int) -> None:
        previous = -1
        for pawn in self.position.pawns[self.colour]:
            if pawn == START:
                break
            if pawn not in (HOME, previous):
                self.step(pawn, _backward(pawn, count))
            previous = pawn

    def leave_start(self) -> None:
        if START in self.position.pawns[self.colour]:
            self.step(START, START_EXIT)

    def pass_move(self) -> Move:
        position = self.position
        result = _new(Position, (position.seats, position.pawns, self.turn, None))
        return _new(Move, (self.card, (), result, ()))

    def opponents(self) -> list[tuple[int, int]]:
        """Every opponent pawn on the track, as ``(colour, distance)``."""
        position = self.position
        colour = self.colour
        return [
            (other, pawn)
            for other in position.seats
            if other != colour
            for pawn in position.pawns[other]
            if FIRST_TRACK <= pawn < START
        ]

    def sorry(self) -> None:
        position = self.position
        colour = self.colour
        if START not in position.pawns[colour]:
            return
        rides = self.tables.rides[colour]
        for target, at in self.opponents():
            landing = DISTANCE[colour][SQUARE[target][at]]
            landed = _land(rides, position.pawns, self.occupied, colour, START, landing)
            if landed is not None:
                end, bumps = landed
                action = _new(Action, (BUMP_FROM_START, colour, START, landing, end, target, at))
                self.add((action,), _after_land(position.pawns, colour, START, end, bumps), bumps)

    def switches(self) -> None:
        targets = self.opponents()
        if not targets:
            return
        self.seen = {move.result.pawns for move in self.moves}
        position = self.position
        colour = self.colour
        rides = self.tables.rides
        opponent_slides = self.tables.switched_opponent_slides
        previous = -1
        for pawn in position.pawns[colour]:
            if pawn == START:
                break
            if pawn < FIRST_TRACK or pawn == previous:
                continue
            previous = pawn
            square = SQUARE[colour][pawn]
            for target, at in targets:
                target_square = SQUARE[target][at]
                landing = DISTANCE[colour][target_square]
                target_landing = DISTANCE[target][square]
                pawns = _settle(position.pawns, [(colour, pawn, landing), (target, at, target_landing)])
                if target_square in rides[colour] or (opponent_slides and square in rides[target]):
                    self.add_switch_with_slides(pawn, target, at, landing, target_landing, pawns)
                else:
                    action = _new(Action, (SWITCH, colour, pawn, landing, landing, target, at))
                    self.add((action,), pawns, ())

    def add_switch_with_slides(
        self, pawn: int, target: int, at: int, landing: int, target_landing: int, pawns: Pawns
    ) -> None:
        """A switch onto a triangle: first the player's pawn slides, then the opponent's."""
        colour = self.colour
        end, pawns, bumps = _slide_in_place(self.tables, pawns, colour, landing)
        if self.tables.switched_opponent_slides and target_landing in pawns[target]:
            _, pawns, more = _slide_in_place(self.tables, pawns, target, target_landing)
            bumps += more
        action = _new(Action, (SWITCH, colour, pawn, landing, end, target, at))
        self.add((action,), pawns, bumps)

    def splits(self) -> None:
        """Every split 7 (RULES.md §3.4): two distinct pawns, parts made in order."""
        _add_splits(self)


def _slide_in_place(tables: Tables, pawns: Pawns, colour: int, at: int) -> tuple[int, Pawns, Bumps]:
    """A pawn put on a square without moving by count rides the slide there, if it may."""
    ride = tables.rides[colour].get(SQUARE[colour][at])
    if ride is None:
        return at, pawns, ()
    end_square, swept = ride
    occupied = occupancy(pawns)
    bumps = tuple((occupied[square], DISTANCE[occupied[square]][square]) for square in swept if square in occupied)
    end = DISTANCE[colour][end_square]
    return end, _after_land(pawns, colour, at, end, bumps), bumps


class _Part(NamedTuple):
    """One half of a split 7, judged alone in the position before the card."""

    origin: int
    landing: int
    #: ``None`` when the part lands on an own pawn here (it may still be legal second).
    landed: tuple[int, Bumps] | None
    #: Squares (track 0–59, Safety Zone 100+) the part reads or changes.
    places: frozenset[int]


def _place(colour: int, distance: int) -> int:
    """A key for where a pawn stands: its track square, or 100 + a Safety Zone distance."""
    if distance >= FIRST_TRACK:
        return SQUARE[colour][distance]
    return 100 + 10 * colour + distance


def _part(generator: _Generator, origin: int, count: int) -> _Part | None:
    if origin < count:
        return None  # would pass Home
    colour = generator.colour
    landing = origin - count
    landed = _land(
        generator.tables.rides[colour], generator.position.pawns, generator.occupied, colour, origin, landing
    )
    places = {_place(colour, origin)}
    if landing != HOME:
        places.add(_place(colour, landing))
    if landed is not None and landed[0] != landing:
        ride = generator.tables.rides[colour][SQUARE[colour][landing]]
        places.update(ride[1])
    return _Part(origin, landing, landed, frozenset(places))


def _add_splits(generator: _Generator) -> None:
    """Split 7s.  Parts that touch no common square are combined directly (their order
    cannot matter); parts that do are played out one after the other."""
    movable = [pawn for pawn in dict.fromkeys(generator.position.pawns[generator.colour]) if HOME < pawn < START]
    if len(movable) < 2:
        return
    generator.seen = {move.result.pawns for move in generator.moves}
    parts = {(pawn, count): _part(generator, pawn, count) for pawn in movable for count in range(1, SPLIT_CARD)}
    order = {pawn: index for index, pawn in enumerate(movable)}
    for first in movable:
        for count in range(1, SPLIT_CARD):
            first_part = parts[first, count]
            if first_part is None:
                continue
            for second in movable:
                if second == first:
                    continue
                second_part = parts[second, SPLIT_CARD - count]
                if second_part is None:
                    continue
                if first_part.places & second_part.places:
                    _add_split_in_order(generator, first_part, second_part)
                elif order[first] < order[second] and first_part.landed and second_part.landed:
                    _add_split_apart(generator, first_part, second_part)


def _add_split_apart(generator: _Generator, first: _Part, second: _Part) -> None:
    """Two parts that cannot affect each other: both made in the original position."""
    colour = generator.colour
    assert first.landed is not None and second.landed is not None
    first_end, first_bumps = first.landed
    second_end, second_bumps = second.landed
    bumps = first_bumps + second_bumps
    changes = [(colour, first.origin, first_end), (colour, second.origin, second_end)]
    changes.extend((bumped, at, START) for bumped, at in bumps)
    actions = (
        _new(Action, (STEP, colour, first.origin, first.landing, first_end, -1, -1)),
        _new(Action, (STEP, colour, second.origin, second.landing, second_end, -1, -1)),
    )
    generator.add(actions, _settle(generator.position.pawns, changes), bumps)


def _add_split_in_order(generator: _Generator, first: _Part, second: _Part) -> None:
    """Two parts that touch a common square: the second is judged after the first."""
    colour = generator.colour
    rides = generator.tables.rides[colour]
    pawns = generator.position.pawns
    if first.landed is None:
        return  # the first part is made in the original position
    first_end, first_bumps = first.landed
    if (colour, second.origin) in first_bumps:
        return  # the first part's slide swept the second pawn back to Start
    middle = _after_land(pawns, colour, first.origin, first_end, first_bumps)
    landed = _land(rides, middle, occupancy(middle), colour, second.origin, second.landing)
    if landed is None:
        return
    second_end, second_bumps = landed
    actions = (
        _new(Action, (STEP, colour, first.origin, first.landing, first_end, -1, -1)),
        _new(Action, (STEP, colour, second.origin, second.landing, second_end, -1, -1)),
    )
    final = _after_land(middle, colour, second.origin, second_end, second_bumps)
    generator.add(actions, final, first_bumps + second_bumps)


def legal_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """Every legal way to use ``card``, one per distinct outcome, passes included.

    A pass (forfeit) is the only move when the card cannot be used; with an 11 it is
    also offered when no pawn can go forward 11, since a switch is never compulsory.
    Returns an empty list when the game is over.
    """
    if position.winner is not None:
        return []
    generator = _Generator(rules, position, card)
    if card == SORRY:
        generator.sorry()
    elif card == 4:
        generator.seen = set()  # a slide can bring two different moves to one result
        generator.backward(4)
    else:
        generator.forward(card)
        if card in {1, 2}:
            generator.leave_start()
        elif card == 10:
            generator.seen = {move.result.pawns for move in generator.moves}
            generator.backward(1)
        elif card == SPLIT_CARD:
            generator.splits()
        elif card == 11:
            if not generator.moves:
                generator.moves.append(generator.pass_move())
            generator.switches()
            return generator.moves
    if not generator.moves:
        generator.moves.append(generator.pass_move())
    return generator.moves


def apply(move: Move) -> Position:
    """The position after ``move`` (already computed when the move was generated)."""
    return move.result
