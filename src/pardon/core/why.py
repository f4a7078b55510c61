"""Why a move is not allowed, in a player's words, naming the rule that forbids it.

:func:`why_not` answers for a move as the player wrote it (``"5 20-25"``, ``"1 start"``,
``"sorry 33"``); :func:`parse_move <pardon.core.notation.parse_move>` puts the answer in
its IllegalError.  The checks follow docs/rules.md ("The classic game") in the order a player would think of
them: is there such a pawn, can this card move it at all, how far, and where it ends.
"""

from __future__ import annotations

from collections.abc import Iterator

from pardon.core.board import DISTANCE, FIRST_TRACK, HOME, SQUARE, START, START_EXIT, TRACK_LENGTH, partner
from pardon.core.cards import SORRY, a_card
from pardon.core.kernel import land, moved
from pardon.core.locations import format_location
from pardon.core.moves import BONUS_HOME, BUMP_FROM_START, STEP, SWITCH, Action, Move, context, legal_moves
from pardon.core.rules import Rules
from pardon.core.state import Position
from pardon.core.tokens import ice_targets

FORWARD_CARDS = frozenset((1, 2, 3, 5, 7, 8, 10, 11, 12))
#: The actions that move a pawn (a token placed on a pawn does not move it).
PAWN_ACTIONS = frozenset((STEP, SWITCH, BUMP_FROM_START, BONUS_HOME))


def _where(colour: int, distance: int) -> str:
    """A location as a player says it: Start, Home, S3, square 20."""
    if FIRST_TRACK <= distance < START:
        return f"square {SQUARE[colour][distance]}"
    return format_location(colour, distance).capitalize()


def _pawn_moves(moves: list[Move], colour: int, origin: int) -> Iterator[Action]:
    """The actions of ``moves`` that move the pawn of ``colour`` at ``origin``."""
    for move in moves:
        for action in move.actions:
            if action.kind in PAWN_ACTIONS and action.colour == colour and action.origin == origin:
                yield action


def can_move_pawn(moves: list[Move], colour: int, origin: int) -> bool:
    """Whether one of ``moves`` (a card's legal moves) moves the pawn of ``colour`` at
    ``origin``: steps it, switches it, brings it out with a Sorry!, or sends it straight Home
    after the Fire pawn."""
    return any(_pawn_moves(moves, colour, origin))


def why_pawn_cannot_move(
    rules: Rules,
    position: Position,
    card: int,
    origin: int,
    colour: int | None = None,
    moves: list[Move] | None = None,
) -> str | None:
    """Why the pawn at ``origin`` cannot use ``card`` at all, or None if it can.

    The pawn is the player's, or with ``colour`` their partner's (docs/rules.md: "Partners").
    None exactly when some legal move of the card moves that pawn (:func:`can_move_pawn`).
    ``moves``, the card's legal moves if the caller has them, spares working them out again
    for every pawn asked about.
    """
    player = position.turn
    colour = player if colour is None else colour
    mine = colour == player
    if not mine and not (rules.partners and colour == partner(player)):
        return "you can move only your own pawns" + (" and your partner's" if rules.partners else "")
    if origin not in position.pawns[colour]:
        owner = "you have" if mine else "your partner has"
        return f"{owner} no pawn at {_where(colour, origin)}"
    if origin == HOME:
        return "a pawn that is Home never moves again"
    if moves is None:
        moves = legal_moves(rules, position, card)
    if can_move_pawn(moves, colour, origin):
        return None
    if position.ice == (colour, origin) and card != 1:  # a 1 first moves the Ice on
        return "that pawn is frozen by the Ice: it cannot move until a 1 moves the Ice on"
    if origin == START:
        return _why_not_out_of_start(rules, position, card, colour)
    if card == SORRY and not rules.sorry_forward_4:
        return "a Sorry! moves a pawn from your Start, not one already out"
    count = 4 if card == SORRY else card  # the 2013 Sorry! may move a pawn forward 4
    if card == 7 and origin < count:
        return (
            f"a pawn needs the exact count to reach Home: it is {origin} from Home, not 7, "
            "and no split of the 7 with another pawn is legal"
        )
    if (card in FORWARD_CARDS or card == SORRY) and origin < count and card not in (10, 11):
        return f"a pawn needs the exact count to reach Home: it is {origin} from Home, not {count}"
    if card == 11 and origin < 11:
        if origin < FIRST_TRACK:
            return "a pawn needs the exact count to reach Home, and only pawns on the track can be switched"
        return "a pawn needs the exact count to reach Home, and it has no opponent's pawn it may switch with"
    landings = _landings(card, origin)
    ice = _ice_after(rules, position, card)
    if card == 10 and origin < 10:  # forward 10 passes Home, so back 1 is what was blocked
        back = _blocked(rules, position, colour, landings, ice) or "your own pawn"
        return f"a pawn needs the exact count to reach Home, and going back 1 would land on {back}"
    blocked = _blocked(rules, position, colour, landings, ice)
    if blocked is not None:
        return f"{_where(colour, origin)} cannot use {a_card(card)}: it would land on {blocked}"
    alike = _same_outcome(rules, position, moves, colour, origin, landings)
    if alike is not None:
        return (
            f"moving the pawn on {_where(colour, origin)} with {a_card(card)} ends just as moving "
            f"the pawn on {alike} does, and one outcome is one move: move that pawn"
        )
    return f"{_where(colour, origin)} cannot use {a_card(card)} now: no way of moving it is legal"


def why_pawn_cannot_go(
    rules: Rules,
    position: Position,
    card: int,
    origin: int,
    place: tuple[int, int],
    colour: int | None = None,
    moves: list[Move] | None = None,
) -> str | None:
    """Why the pawn at ``origin`` cannot end its move with ``card`` at ``place``, or None if a
    legal move takes it there (onto the square, or on to it by a slide).

    ``place`` is ``(place_colour, distance)``: where a pawn of ``place_colour`` would stand
    (a track square may be named through any colour).  The pawn is the player's, or with
    ``colour`` their partner's.  The answer is what a player asks when a pawn will not go
    where they pointed: what the card does, and what stands in the way.
    """
    colour = position.turn if colour is None else colour
    if moves is None:
        moves = legal_moves(rules, position, card)
    cannot = why_pawn_cannot_move(rules, position, card, origin, colour, moves)
    if cannot is not None:
        return cannot
    place_colour, distance = place
    on_track = FIRST_TRACK <= distance < START
    target = DISTANCE[colour][SQUARE[place_colour][distance]] if on_track else distance
    if _reaches(moves, colour, origin, target if on_track or place_colour == colour else -1):
        return None
    if not on_track and place_colour != colour:
        return (
            "a pawn goes only into its own colour's Safety Zone and Home"
            if distance < START
            else ("a pawn goes back only to its own colour's Start, and only when it is bumped")
        )
    if target == START:
        return "a pawn goes back to Start only when it is bumped"
    if target == origin:
        return "the pawn is on that square already: a card must move it"
    return _why_not_there(rules, position, card, colour, origin, target, moves)


def _reaches(moves: list[Move], colour: int, origin: int, target: int) -> bool:
    """Whether one of ``moves`` takes the pawn of ``colour`` at ``origin`` to ``target``
    (its distance), landing there or sliding on to it."""
    return any(target in (action.landing, action.end) for action in _pawn_moves(moves, colour, origin))


def _places(moves: list[Move], colour: int, origin: int) -> list[str]:
    """Where ``moves`` take the pawn of ``colour`` at ``origin``, as a player says it."""
    landings = {action.landing for action in _pawn_moves(moves, colour, origin)}
    return [_where(colour, landing) for landing in sorted(landings, reverse=True)]


def _what_the_card_does(rules: Rules, card: int) -> str:
    """A card's moves of a pawn already out, in a player's words."""
    if card == 4:
        return "a 4 moves a pawn back 4"
    if card == 10:
        return "a 10 moves a pawn forward 10 or back 1"
    if card == 11:
        return "an 11 moves a pawn forward 11 or switches it with an opponent's pawn"
    if card == 7:
        return "a 7 moves a pawn forward 7, or two pawns forward 7 between them"
    if card == SORRY:
        return "a Sorry! moves a pawn forward 4" if rules.sorry_forward_4 else "a Sorry! moves a pawn from your Start"
    return f"{a_card(card)} moves a pawn forward {card}"


def _why_not_there(
    rules: Rules, position: Position, card: int, colour: int, origin: int, target: int, moves: list[Move]
) -> str:
    """Why a pawn that can use ``card`` cannot use it to end at ``target`` (not Start, not
    where it stands): the count is wrong, or the square by the right count is taken."""
    if origin == START:
        if card == SORRY:  # its landings are the marked pawns, too many to list
            return "from Start, a Sorry! takes this pawn only onto a pawn it may bump"
        places = " or ".join(_places(moves, colour, origin))
        return f"from Start, {a_card(card)} takes this pawn only to {places}"
    forward = origin - target  # squares forward along the pawn's way Home (negative: back)
    if card == 7 and 0 < forward < 7:
        ice = _ice_after(rules, position, card)
        blocked = _blocked(rules, position, colour, [target], ice)
        if blocked is not None:
            return f"moving this pawn {forward} of the 7 would land it on {blocked}"
        rest = 7 - forward
        return f"the other {rest} of the 7 must move another pawn, and no other pawn can move {rest}"
    landings = _landings(card, origin)
    if target in landings:
        blocked = _blocked(rules, position, colour, [target], _ice_after(rules, position, card))
        if blocked is not None:
            return f"it would land on {blocked}"
        alike = _same_outcome(rules, position, moves, colour, origin, [target])
        if alike is not None:
            return f"that ends just as moving the pawn on {alike} does, and one outcome is one move: move that pawn"
        return f"{_what_the_card_does(rules, card)}, but that move is not legal here"
    if card == 11 and FIRST_TRACK <= target < START:
        return "an 11 switches a pawn only with an opponent's pawn on the track, and moves it forward exactly 11"
    by_count = " or ".join(_where(colour, landing) for landing in landings)
    return f"{_what_the_card_does(rules, card)}" + (f": this pawn to {by_count}" if by_count else "")


def why_pawns_cannot_move(
    rules: Rules, position: Position, card: int, colours: tuple[int, ...]
) -> dict[tuple[int, int], str]:
    """Why each pawn of ``colours`` (the player's, and with partners the partner's) that
    cannot use ``card`` cannot, by ``(colour, distance)``: the card's legal moves are worked
    out once for all of them."""
    moves = legal_moves(rules, position, card)
    reasons = {}
    for colour in colours:
        for distance in sorted(set(position.pawns[colour])):
            why = why_pawn_cannot_move(rules, position, card, distance, colour, moves)
            if why is not None:
                reasons[colour, distance] = why
    return reasons


def _why_not_out_of_start(rules: Rules, position: Position, card: int, colour: int) -> str:
    """Why no pawn of ``colour`` comes out of Start with ``card`` (there is one there)."""
    if card == SORRY:
        targets = _sorry_targets(rules, position, colour)
        if not targets:
            return "a Sorry! needs an opponent's pawn on the track to land on"
        if all(target == position.ice for target in targets):
            return "a Sorry! may not land on the pawn frozen by the Ice, and there is no other to land on"
        return "a Sorry! has no opponent's pawn it may land on"
    out = context(rules, position.seats, colour).leave_start[card]
    if out < 0:
        if rules.leave_start == "circle":
            return "only a 1, a 2 or a Sorry! brings a pawn out of Start"
        return "the 4 and the 10's back 1 never bring a pawn out of Start"
    if out == START_EXIT and out in position.pawns[colour]:
        return "your own pawn is on your start exit, and you may not land on your own pawn"
    where = _where(colour, out)
    if out in position.pawns[colour]:  # 2013: the pawn comes out past the circle
        return f"your own pawn is on {where}, where {a_card(card)} brings a pawn out, and you may not land on it"
    blocked = _blocked(rules, position, colour, [out], _ice_after(rules, position, card)) or "no free square"
    return f"{a_card(card).capitalize()} brings this pawn out onto {where}, and it would land on {blocked}"


def _landings(card: int, origin: int) -> list[int]:
    """Where ``card`` would take a pawn at ``origin`` by count (forward, or back for a 4 or a 10)."""
    count = 4 if card == SORRY else card
    landings = [] if card == 4 or origin < count else [origin - count]
    if card in (4, 10):
        back = origin + (4 if card == 4 else 1)
        landings.append(back - TRACK_LENGTH if back >= START else back)
    return landings


def _ice_after(rules: Rules, position: Position, card: int) -> tuple[int, int] | None:
    """The pawn the Ice is on when the card moves a pawn: a 1 first moves it on, onto the
    only opponent's pawn on the track if there is one (elsewhere it need block nothing)."""
    if card != 1 or not rules.tokens:
        return position.ice
    targets = ice_targets(position)
    return targets[0] if len(targets) == 1 else None


def _blocked(
    rules: Rules, position: Position, colour: int, landings: list[int], ice: tuple[int, int] | None
) -> str | None:
    """What stands where a pawn of ``colour`` would land (or slide to): a pawn of its own
    colour, the player's pawn (for a partner's pawn), or the Ice; None if nothing does."""
    player = position.turn
    iced = None if ice is None else SQUARE[ice[0]][ice[1]]
    by_ice = "the Ice" if ice == position.ice else "the Ice, which the 1 first puts on the only opponent's pawn"
    rides = context(rules, position.seats, colour).rides
    said = []
    for landing in landings:
        if landing in position.pawns[colour] and landing != HOME:
            said.append("your own pawn" if colour == player else "a pawn of its own colour")
        elif not FIRST_TRACK <= landing < START:
            continue
        elif colour != player and DISTANCE[player][SQUARE[colour][landing]] in position.pawns[player]:
            said.append("your own pawn, and your partner's pawn may not land on yours")
        elif SQUARE[colour][landing] == iced:
            said.append(f"square {iced}, blocked by {by_ice}")
        elif (ride := rides[landing]) is not None and SQUARE[colour][ride.end] == iced:
            said.append(f"square {SQUARE[colour][landing]} and slide on to square {iced}, blocked by {by_ice}")
    return " or on ".join(dict.fromkeys(said)) or None


def _same_outcome(
    rules: Rules, position: Position, moves: list[Move], colour: int, origin: int, landings: list[int]
) -> str | None:
    """The pawn of a listed move that ends just as this pawn's move by count would (a slide
    may carry a pawn back to where it began), named as a player says it; None if none."""
    ctx = context(rules, position.seats, colour)
    for landing in landings:
        landed = land(ctx, position.pawns, origin, landing)
        if landed is None:
            continue
        after = moved(position.pawns, colour, origin, *landed)
        for move in moves:
            if move.result.pawns == after:
                first = next(action for action in move.actions if action.kind in PAWN_ACTIONS)
                return _where(first.colour, first.origin)
    return None


def _sorry_targets(rules: Rules, position: Position, colour: int) -> list[tuple[int, int]]:
    """The pawns on the track that a Sorry! from the Start of ``colour`` may land on, the Ice
    aside: an opponent's, or (from the player's own Start) the partner's if there is none."""
    player = position.turn
    mate = partner(colour) if rules.partners else colour
    targets = [
        (other, pawn)
        for other in position.seats
        if other not in (colour, mate)
        for pawn in position.pawns[other]
        if FIRST_TRACK <= pawn < START
    ]
    if not targets and mate != colour and colour == player:
        targets = [(mate, pawn) for pawn in position.pawns[mate] if FIRST_TRACK <= pawn < START]
    return targets


def why_not_pass(card: int) -> str:
    """Why a player may not pass: a card that can be used must be used (§3.7)."""
    if card == 11:
        return "a pawn can move forward 11, so the 11 must be used: move 11 or switch"
    return f"a pawn can use {a_card(card)}, and a card that can be used must be used"
