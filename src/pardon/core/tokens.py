"""Fire and Ice, the tokens of the 2013 edition (RULES.md §8), built on the board moves.

A token sits on one pawn, named ``(colour, distance)`` in :class:`~pardon.core.state.Extras`,
or in the centre (``None``); it follows its pawn as the pawn moves.

* **Ice** — a 1 first puts Ice on an opponent's pawn on the track (compulsory; back
  to the centre when there is none).  The iced pawn is frozen: it cannot move or be
  moved, bumped, switched, hit by a Sorry!, swept off by a slide, or landed on, so a
  move that would end a pawn on its square is not legal.  A slide that passes over
  it leaves it where it is.
* **Fire** — a 2 may first put Fire on one of the player's pawns out of Start and
  not Home.  Before drawing, the owner of the Fire pawn may move it forward to the
  next corner strictly ahead (:func:`fire_moves`), as an ordinary forward move.  When
  the Fire pawn comes Home its owner may send one other pawn from the track or the
  Safety Zone straight Home, and Fire returns to the centre; a bumped Fire pawn
  loses it to the centre.  Ice beats Fire: an iced Fire pawn does not move.

Every token decision is part of a move (:data:`~pardon.core.moves.ICE`,
:data:`~pardon.core.moves.FIRE`, :data:`~pardon.core.moves.BONUS_HOME` actions, first
or last), so a move still carries all its consequences and needs no chance.
"""

from __future__ import annotations

from collections import Counter
from typing import Final

from pardon.core.board import DISTANCE, FIRST_TRACK, HOME, SQUARE, START, corner_squares, next_seat
from pardon.core.cards import NO_CARD
from pardon.core.moves import BONUS_HOME, FIRE, ICE, STEP, SWITCH, Action, Move, board_moves
from pardon.core.rules import Rules
from pardon.core.state import Position

CORNERS: Final = frozenset(corner_squares())
CENTRE: Final = -1

Pawn = tuple[int, int]  # (colour, distance)


def token_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """Every legal move of ``card`` with Fire and Ice in play, one per distinct outcome."""
    if card == 1:
        return _with_ice_placed(rules, position)
    if card == 2:
        return _with_fire_placed(rules, position)
    return _frozen_aware_moves(rules, position, card)


def ice_targets(position: Position) -> list[Pawn]:
    """The opponents' pawns on the track, where a 1 may put the Ice."""
    return [
        (colour, pawn)
        for colour in position.seats
        if colour != position.turn
        for pawn in dict.fromkeys(position.pawns[colour])
        if FIRST_TRACK <= pawn < START
    ]


def _with_ice_placed(rules: Rules, position: Position) -> list[Move]:
    targets = ice_targets(position)
    if not targets:  # the Ice goes back to the centre, if it was out
        if position.ice is None:
            return _frozen_aware_moves(rules, position, 1)
        return _prefixed(rules, position.with_extras(ice=None), 1, Action(ICE, CENTRE, CENTRE, CENTRE, CENTRE))
    moves: list[Move] = []
    for colour, pawn in targets:
        placed = position.with_extras(ice=(colour, pawn))
        moves.extend(_prefixed(rules, placed, 1, Action(ICE, colour, pawn, pawn, pawn)))
    return moves


def _with_fire_placed(rules: Rules, position: Position) -> list[Move]:
    colour = position.turn
    moves = _frozen_aware_moves(rules, position, 2)
    for pawn in dict.fromkeys(position.pawns[colour]):
        if HOME < pawn < START and position.fire != (colour, pawn):
            placed = position.with_extras(fire=(colour, pawn))
            moves.extend(_prefixed(rules, placed, 2, Action(FIRE, colour, pawn, pawn, pawn)))
    return _distinct(moves)


def _prefixed(rules: Rules, position: Position, card: int, action: Action) -> list[Move]:
    """The moves of ``card`` in ``position``, each after the token ``action``."""
    return [
        Move(card, (action, *move.actions), move.result, move.bumps)
        for move in _frozen_aware_moves(rules, position, card)
    ]


def _frozen_aware_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """The board moves of ``card`` with the iced pawn frozen and Fire following its pawn."""
    moves = board_moves(rules, position, card)
    if position.ice is not None:
        moves = _thawed(rules, position, card, moves, position.ice)
    if position.fire is not None:
        moves = [fired for move in moves for fired in _follow_fire(position, move, position.fire)]
    return _distinct(moves)


def _thawed(rules: Rules, position: Position, card: int, moves: list[Move], ice: Pawn) -> list[Move]:
    """``moves`` less those that move, or end a pawn on, the iced pawn; a slide that
    swept it leaves it in place."""
    kept: list[Move] = []
    for move in moves:
        if any(_touches(action, ice) for action in move.actions):
            continue
        if ice in move.bumps:
            move = _unswept(move, ice)
            if _square_taken_twice(move.result, ice):
                continue
        kept.append(move)
    has_pass = any(move.is_pass for move in kept)
    if not has_pass and (not kept or (card == 11 and not any(move.actions[0].kind == STEP for move in kept))):
        kept.insert(0, _pass(rules, position, card))
    return kept


def _touches(action: Action, ice: Pawn) -> bool:
    if action.kind in (ICE, FIRE, BONUS_HOME):
        return False
    if (action.colour, action.origin) == ice:
        return True
    return (action.target, action.target_origin) == ice


def _unswept(move: Move, ice: Pawn) -> Move:
    """``move`` with the iced pawn put back where a slide's sweep had taken it from."""
    colour, pawn = ice
    bumps = list(move.bumps)
    bumps.remove(ice)
    rows = list(move.result.pawns)
    row = list(rows[colour])
    row.remove(START)
    rows[colour] = tuple(sorted((*row, pawn)))
    return Move(move.card, move.actions, move.result._replace(pawns=tuple(rows)), tuple(bumps))


def _square_taken_twice(position: Position, ice: Pawn) -> bool:
    """Whether another pawn ended on the iced pawn's square (not allowed)."""
    square = SQUARE[ice[0]][ice[1]]
    return sum(position.pawns[colour].count(DISTANCE[colour][square]) for colour in position.seats) > 1


def _pass(rules: Rules, position: Position, card: int) -> Move:
    follows = position.turn if card == 2 and rules.draw_again_on_2 else next_seat(position.seats, position.turn)
    return Move(card, (), position._replace(turn=follows))


def _follow_fire(before: Position, move: Move, fire: Pawn) -> list[Move]:
    """``move`` with the Fire token moved along with its pawn; when that pawn comes
    Home, one move without and one per other pawn that may go straight Home."""
    where = _fire_after(before, move, fire)
    if where is not None and where[1] == HOME:
        return _fire_home(move, where[0])
    if where == fire:
        return [move]
    return [Move(move.card, move.actions, move.result.with_extras(fire=where), move.bumps)]


def _fire_after(before: Position, move: Move, fire: Pawn) -> Pawn | None:
    """Where the Fire pawn is after ``move``: ``None`` once bumped to Start."""
    colour, pawn = fire
    if fire in move.bumps:
        return None
    for action in move.actions:
        if action.kind in (STEP, SWITCH) and (action.colour, action.origin) == (colour, pawn):
            pawn = action.end
        elif action.kind == SWITCH and (action.target, action.target_origin) == (colour, pawn):
            arrived = Counter(move.result.pawns[colour]) - Counter(before.pawns[colour])
            pawn = next((place for place in arrived if place != START), START)
    if pawn not in move.result.pawns[colour] or pawn == START:  # swept by a slide on the way
        return None
    return colour, pawn


def _fire_home(move: Move, colour: int) -> list[Move]:
    """The Fire pawn is Home: Fire to the centre, and the owner may bring one other
    pawn of the track or the Safety Zone straight Home."""
    result = move.result.with_extras(fire=None)
    moves = [Move(move.card, move.actions, result, move.bumps)]
    if result.winner is not None:
        return moves
    for pawn in dict.fromkeys(result.pawns[colour]):
        if HOME < pawn < START and result.ice != (colour, pawn):
            moves.append(_bonus(move, result, colour, pawn))
    return moves


def _bonus(move: Move, result: Position, colour: int, pawn: int) -> Move:
    row = list(result.pawns[colour])
    row.remove(pawn)
    rows = list(result.pawns)
    rows[colour] = tuple(sorted((HOME, *row)))
    after = result._replace(pawns=tuple(rows))
    if rows[colour][-1] == HOME:  # every pawn Home
        after = after._replace(turn=colour, winner=colour)
    return Move(move.card, (*move.actions, Action(BONUS_HOME, colour, pawn, HOME, HOME)), after, move.bumps)


def _distinct(moves: list[Move]) -> list[Move]:
    seen: set[Position] = set()
    kept = []
    for move in moves:
        if move.result not in seen:
            seen.add(move.result)
            kept.append(move)
    return kept


def fire_moves(position: Position) -> list[Move]:
    """The Fire pawn's move to the next corner before the draw, if its owner is to play
    and may make it; an empty list otherwise."""
    fire = position.fire
    if fire is None or fire[0] != position.turn or position.ice == fire or position.winner is not None:
        return []
    colour, pawn = fire
    corner = next(
        (place for place in range(pawn - 1, FIRST_TRACK - 1, -1) if SQUARE[colour][place] in CORNERS),
        None,
    )
    if corner is None or not FIRST_TRACK <= pawn < START:
        return []
    square = SQUARE[colour][corner]
    if position.ice is not None and SQUARE[position.ice[0]][position.ice[1]] == square:
        return []
    if corner in position.pawns[colour]:
        return []
    rows = [list(row) for row in position.pawns]
    rows[colour].remove(pawn)
    rows[colour].append(corner)
    bumps: list[Pawn] = []
    for other in position.seats:
        there = DISTANCE[other][square]
        if other != colour and there in rows[other]:
            rows[other].remove(there)
            rows[other].append(START)
            bumps.append((other, there))
    after = position._replace(pawns=tuple(tuple(sorted(row)) for row in rows)).with_extras(fire=(colour, corner))
    return [Move(NO_CARD, (Action(STEP, colour, pawn, corner, corner),), after, tuple(bumps))]
