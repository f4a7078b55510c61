"""The partners game (docs/rules.md: "Partners"): Red+Yellow against Blue+Green.

On your turn the card may move any pawn of your team: either Start, a split 7 across
the team's pawns, an 11 switch of a team pawn with an opposing one.  Each pawn keeps
its own colour's rules (its Safety Zone, its slides).  No pawn may land on a pawn of
its own colour, and (**ruling**) your move never lands a pawn on a pawn of *your*
colour either: your own move sends your own pawns to Start only by a slide, so your
partner's pawn may not land on yours.  Any other pawn is bumped, your partner's
included.  A Sorry! lands on an opposing pawn, or, from your own Start, on your
partner's pawn only when no opposing pawn is on the track.  The split 7 is between
two pawns (``partner_split="two"``, 1939) or any number of team pawns (``"any"``,
P92).  The first team with every pawn Home wins.

Moves are made from the same single-colour options as the classic game, one team
colour at a time, then the splits that mix pawns; one outcome is one move.
"""

from __future__ import annotations

from pardon.core.board import FIRST_TRACK, HOME, START, partner
from pardon.core.cards import SORRY
from pardon.core.kernel import (
    ACROSS,
    BUMP_FROM_START,
    PASS,
    SORRY_ON,
    SPLIT_CARD,
    STEP,
    Action,
    Context,
    Move,
    Pawns,
    classic_moves,
    context,
    land,
    moved,
    options,
    realise,
)
from pardon.core.rules import Rules
from pardon.core.state import Position

Made = tuple[tuple[Action, ...], tuple[tuple[int, int], ...], Pawns]


def board_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """The moves of ``card`` on the board, before any Fire and Ice: the team's with
    partners, else the player's own (:func:`pardon.core.kernel.classic_moves`)."""
    if rules.partners:
        return team_moves(rules, position, card)
    return classic_moves(rules, position, card)


def team_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """Every legal way for the team to use ``card``, one per distinct outcome."""
    seats, pawns, colour, _, _ = position
    team = (colour, partner(colour))
    contexts = {member: context(rules, seats, member) for member in team}
    player = contexts[colour]
    turn = player.next_turn_after_2 if card == 2 else player.next_turn
    made: dict[Pawns, Made] = {}
    for member in team:
        for option in options(contexts[member], pawns, card):
            if option[0] != PASS:
                actions, bumps, after = realise(contexts[member], pawns, option)
                if member == colour or not _lands_on(colour, contexts[member], pawns, actions):
                    made.setdefault(after, (actions, bumps, after))
    if card == SORRY and not any(action[0].kind == BUMP_FROM_START for action, _, _ in made.values()):
        _add_sorry_on_partner(player, pawns, made)
    if card == SPLIT_CARD:
        _add_team_splits(rules, colour, contexts, pawns, made)
    moves = [_move(position, card, turn, team, *found) for found in made.values()]
    can_pass = not moves or (card == 11 and not any(_is_forward_11(move) for move in moves))
    if can_pass:
        moves.insert(0, Move(card, (), Position(seats, pawns, turn, None, position.extras)))
    return moves


def _is_forward_11(move: Move) -> bool:
    return move.actions[0].kind == STEP


def _move(
    position: Position,
    card: int,
    turn: int,
    team: tuple[int, int],
    actions: tuple[Action, ...],
    bumps: tuple[tuple[int, int], ...],
    after: Pawns,
) -> Move:
    if all(after[member][-1] == HOME for member in team):
        return Move(
            card, actions, Position(position.seats, after, position.turn, position.turn, position.extras), bumps
        )
    return Move(card, actions, Position(position.seats, after, turn, None, position.extras), bumps)


def _lands_on(colour: int, ctx: Context, pawns: Pawns, actions: tuple[Action, ...]) -> bool:
    """Whether the partner's pawns moved by ``actions`` (parts made one after the other)
    land on a pawn of ``colour``, the player's: that is not allowed (a slide may still
    sweep the player's pawns)."""
    mover = ctx.colour
    for action in actions:
        if action.kind == BUMP_FROM_START and action.target == colour:
            return True
        if action.kind != STEP:
            continue
        if ACROSS[mover][colour][action.landing] in pawns[colour]:  # -1, in no row, off the track
            return True
        landed = land(ctx, pawns, action.origin, action.landing)
        if landed is None:
            return True
        pawns = moved(pawns, mover, action.origin, *landed)
    return False


def _add_sorry_on_partner(ctx: Context, pawns: Pawns, made: dict[Pawns, Made]) -> None:
    """With no opposing pawn on the track, a Sorry! from the player's Start lands on the
    partner's colour (P92: "if there's no one else to pick on"); never the other way
    round, onto the player's own pawn."""
    if START not in pawns[ctx.colour]:
        return
    other = partner(ctx.colour)
    for at in pawns[other]:
        if not FIRST_TRACK <= at < START:
            continue
        option = (SORRY_ON, other, at, 0)  # realised as a Sorry! on an opponent
        actions, bumps, after = realise(ctx, pawns, option)
        made.setdefault(after, (actions, bumps, after))


def _add_team_splits(
    rules: Rules, player: int, contexts: dict[int, Context], pawns: Pawns, made: dict[Pawns, Made]
) -> None:
    """Splits of 7 over two (or, with ``partner_split="any"``, more) team pawns, parts
    made one after the other, each legal when made."""
    most = 2 if rules.partner_split == "two" else SPLIT_CARD
    seen: set[tuple[Pawns, int, frozenset[tuple[int, int]]]] = set()

    def extend(
        current: Pawns,
        left: int,
        used: frozenset[tuple[int, int]],
        steps: tuple[Action, ...],
        bumps: tuple[tuple[int, int], ...],
    ) -> None:
        if left == 0:
            if len(steps) >= 2:
                made.setdefault(current, (steps, bumps, current))
            return
        if len(steps) == most or (current, left, used) in seen:
            return
        seen.add((current, left, used))
        for member, ctx in contexts.items():
            for pawn in dict.fromkeys(current[member]):
                if not HOME < pawn < START or (member, pawn) in used:
                    continue
                last = left if len(steps) >= 1 or left < SPLIT_CARD else SPLIT_CARD - 1
                for count in range(1, min(last, pawn) + 1):
                    if len(steps) + 1 == most and count != left:
                        continue
                    landing = pawn - count
                    if member != player and ACROSS[member][player][landing] in current[player]:
                        continue  # the partner's pawn may not land on the player's
                    landed = land(ctx, current, pawn, landing)
                    if landed is None:
                        continue
                    end, more = landed  # a pawn swept to Start here cannot be a later part
                    after = moved(current, member, pawn, end, more)
                    step = Action(STEP, member, pawn, landing, end)
                    extend(after, left - count, used | {(member, end)}, (*steps, step), bumps + more)

    extend(pawns, SPLIT_CARD, frozenset(), (), ())
