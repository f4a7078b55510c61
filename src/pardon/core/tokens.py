"""Fire and Ice, the tokens of the 2013 edition (docs/rules.md: "The 2013 edition"), built on the board moves.

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

The board moves list one move per arrangement of the pawns; where the tokens tell two
such moves apart (one barred by the Ice, or leaving the Fire elsewhere), the moves are
made again here.

Every token decision is part of a move (:data:`~pardon.core.moves.ICE`,
:data:`~pardon.core.moves.FIRE`, :data:`~pardon.core.moves.BONUS_HOME` actions, first
or last), so a move still carries all its consequences and needs no chance.
"""

from __future__ import annotations

from typing import Final

from pardon.core.board import DISTANCE, FIRST_TRACK, HOME, SQUARE, START, corner_squares, next_seat
from pardon.core.cards import NO_CARD
from pardon.core.kernel import (
    BONUS_HOME,
    FIRE,
    ICE,
    SPLIT_CARD,
    STEP,
    SWITCH,
    SWITCH_WITH,
    Action,
    Context,
    Move,
    Option,
    Pawns,
    card_steps,
    context,
    land,
    moved,
    realise,
    tables,
)
from pardon.core.partners import board_moves
from pardon.core.rules import Rules
from pardon.core.state import Position

CORNERS: Final = frozenset(corner_squares())
CENTRE: Final = -1

Pawn = tuple[int, int]  # (colour, distance)
Made = tuple[tuple[Action, ...], tuple[Pawn, ...], Pawns]  # a move's actions, bumps and pawns


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
    if _may_hide_moves(position, card, moves):
        moves += _told_apart_by_tokens(rules, position, card)
    if position.ice is not None:
        moves = _thawed(rules, position, card, moves, position.ice)
    if position.fire is not None:
        moves = [fired for move in moves for fired in _follow_fire(rules, move, position.fire)]
    return _distinct(moves)


def _may_hide_moves(position: Position, card: int, moves: list[Move]) -> bool:
    """Whether the board moves may leave out a move that the tokens tell apart from one
    they list (see :func:`_told_apart_by_tokens`).  Two moves end alike only as split 7s,
    or when a slide makes them (for switches, a slide that sweeps a pawn to Start)."""
    ice, fire = position.ice, position.fire
    if card == SPLIT_CARD:
        if fire is not None and fire[0] == position.turn:
            return True
        if ice is None:
            return False
        square = SQUARE[ice[0]][ice[1]]
        return any(_touches(action, ice, square) for move in moves for action in move.actions)
    if card in (4, 10, 11) and (ice is not None or fire is not None):
        return any(_slides(move) for move in moves)
    return False


def _slides(move: Move) -> bool:
    """Whether a pawn of ``move`` rides a slide (for a switch: one that sweeps a pawn)."""
    if move.actions and move.actions[0].kind == SWITCH:
        return bool(move.bumps)
    return any(action.landing != action.end for action in move.actions)


def _told_apart_by_tokens(rules: Rules, position: Position, card: int) -> list[Move]:
    """The moves that the board moves leave out as ending like one they list (one outcome,
    one move), made again here, since the tokens may tell them apart.

    Of two moves that end alike, the Ice may bar one and not the other (with Red's 43
    iced, ``4 43-39`` and ``4 28-24`` both slide back to where they began), or they may
    leave the Fire on different pawns (the Fire pawn leapfrogging another on a split 7,
    or a switched pawn sliding on to where a pawn of its colour was swept).  Duplicates
    go once the tokens have had their say.
    """
    ctx = context(rules, position.seats, position.turn)
    pawns = position.pawns
    if card == SPLIT_CARD:
        made = _every_split(ctx, pawns)
    elif card == 11:
        made = [realise(ctx, pawns, switch) for switch in _every_switch(ctx, pawns)]
    elif card in (4, 10):  # every step by count, out of Start apart (it cannot slide)
        steps = card_steps(ctx, pawns[ctx.colour], card)
        made = [realise(ctx, pawns, step) for step in steps if step[1] != START]
    else:
        return []
    moves = []
    for actions, bumps, after in made:
        won = after[ctx.colour][-1] == HOME  # sorted, so the farthest pawn is last
        turn, winner = (ctx.colour, ctx.colour) if won else (ctx.next_turn, None)
        moves.append(Move(card, actions, position._replace(pawns=after, turn=turn, winner=winner), bumps))
    return moves


def _every_switch(ctx: Context, pawns: Pawns) -> list[Option]:
    """Every 11 switch of a pawn of the player's with an opponent's, both on the track."""
    return [
        (SWITCH_WITH, pawn, other, at)
        for pawn in pawns[ctx.colour]
        if FIRST_TRACK <= pawn < START
        for other in ctx.targets
        for at in pawns[other]
        if FIRST_TRACK <= at < START
    ]


def _every_split(ctx: Context, pawns: Pawns) -> list[Made]:
    """Every split 7 of two of the player's pawns, each order made part by part."""
    movable = [pawn for pawn in pawns[ctx.colour] if HOME < pawn < START]  # distinct
    made = []
    for first in movable:
        for second in movable:
            if first == second:
                continue
            for count in range(1, SPLIT_CARD):
                split = _split_made(ctx, pawns, ((first, count), (second, SPLIT_CARD - count)))
                if split is not None:
                    made.append(split)
    return made


def _split_made(ctx: Context, pawns: Pawns, parts: tuple[tuple[int, int], ...]) -> Made | None:
    """The actions, bumps and pawns of a split 7's ``(pawn, count)`` parts made in order,
    each judged when it is made; ``None`` if one is illegal then."""
    actions: tuple[Action, ...] = ()
    bumps: tuple[Pawn, ...] = ()
    for origin, count in parts:
        if origin - count < HOME or (ctx.colour, origin) in bumps:  # past Home, or swept by the first part
            return None
        landed = land(ctx, pawns, origin, origin - count)
        if landed is None:
            return None
        end, more = landed
        actions += (Action(STEP, ctx.colour, origin, origin - count, end),)
        bumps += more
        pawns = moved(pawns, ctx.colour, origin, end, more)
    return actions, bumps, pawns


def _thawed(rules: Rules, position: Position, card: int, moves: list[Move], ice: Pawn) -> list[Move]:
    """``moves`` less those that move, or end a pawn on, the iced pawn (landing there
    and sliding on included); a slide that swept it leaves it in place."""
    kept: list[Move] = []
    square = SQUARE[ice[0]][ice[1]]
    for move in moves:
        if any(_touches(action, ice, square) for action in move.actions):
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


def _touches(action: Action, ice: Pawn, square: int) -> bool:
    """Whether ``action`` moves the iced pawn, or lands a pawn on its ``square``: the
    square is blocked even to a pawn that would slide on from it."""
    if action.kind in (ICE, FIRE, BONUS_HOME):
        return False
    if ice in ((action.colour, action.origin), (action.target, action.target_origin)):
        return True
    return FIRST_TRACK <= action.landing < START and SQUARE[action.colour][action.landing] == square


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


def _follow_fire(rules: Rules, move: Move, fire: Pawn) -> list[Move]:
    """``move`` with the Fire token moved along with its pawn; when that pawn comes
    Home, one move without and one per other pawn that may go straight Home."""
    where = _fire_after(rules, move, fire)
    if where is not None and where[1] == HOME:
        return _fire_home(move, where[0])
    if where == fire:
        return [move]
    return [Move(move.card, move.actions, move.result.with_extras(fire=where), move.bumps)]


def _fire_after(rules: Rules, move: Move, fire: Pawn) -> Pawn | None:
    """Where the Fire pawn is after ``move``: ``None`` once bumped to Start."""
    colour, pawn = fire
    if fire in move.bumps:
        return None
    moved_by = -1
    for index, action in enumerate(move.actions):
        if action.kind in (STEP, SWITCH) and (action.colour, action.origin) == (colour, pawn):
            pawn, moved_by = action.end, index
        elif action.kind == SWITCH and (action.target, action.target_origin) == (colour, pawn):
            pawn, moved_by = switched_end(rules, move, action), index
    if pawn == START or pawn not in move.result.pawns[colour]:  # swept by a slide on the way
        return None
    later = move.actions[moved_by + 1 :]
    if later and pawn != HOME and any(action.colour == colour and action.end == pawn for action in later):
        return None  # a later part of a split 7 slid onto its square, sweeping it
    return colour, pawn


def switched_end(rules: Rules, move: Move, switch: Action) -> int:
    """Where the opponent's pawn of an 11 switch ends: on the player's pawn's square, then
    at the end of a slide it rides from there (if switched pawns slide), or back in
    Start if the player's pawn's slide swept it first."""
    colour = switch.target
    square = SQUARE[switch.colour][switch.origin]
    landing = DISTANCE[colour][square]
    if (colour, landing) in move.bumps:
        return START
    ride = tables(rules).rides[colour].get(square)
    if ride is None or not rules.switched_opponent_slides:
        return landing
    return DISTANCE[colour][ride[0]]


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


def next_corner(colour: int, pawn: int) -> int | None:
    """The corner a Fire pawn of ``colour`` at ``pawn`` (a distance from Home) would jump to:
    the next one ahead on the track, short of the Safety Zone; None if there is none."""
    if not FIRST_TRACK <= pawn < START:
        return None
    return next((place for place in range(pawn - 1, FIRST_TRACK - 1, -1) if SQUARE[colour][place] in CORNERS), None)


def fire_moves(position: Position) -> list[Move]:
    """The Fire pawn's move to the next corner before the draw, if its owner is to play
    and may make it; an empty list otherwise."""
    fire = position.fire
    if fire is None or fire[0] != position.turn or position.ice == fire or position.winner is not None:
        return []
    colour, pawn = fire
    corner = next_corner(colour, pawn)
    if corner is None:
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
