"""One turn, one value: the whole state of a game as an immutable :class:`GameState`, and
the pure functions that step it.

A turn is a chance event, then decisions.  :func:`chance_outcomes` lists the cards the next
draw can turn up with their chances, :func:`draw` turns up a given one (a search's chance
node) and :func:`draw_next` the one the pack's order holds (a real game); :func:`legal_moves`
lists the choices of :func:`decider`, and :func:`apply` makes one.  Nothing here keeps or
changes anything: :class:`~pardon.core.game.Game` is only a history of these values.

A turn goes through up to three stages: decisions before the draw (:data:`BEFORE_DRAW`: the
Fire pawn's move, a double, or going on), the other players' answers to a double
(:data:`ANSWERING`), and the card (:data:`CARD`): drawn, or chosen from the hand in a hand
game.

>>> from pardon.core.rules import parse_rules
>>> rules = parse_rules("classic")
>>> state, _ = start(rules, seats=(0, 2), seed=7)
>>> awaiting_draw(rules, state)
True
>>> card, drawn = draw_next(rules, state)
>>> after = apply(rules, drawn, legal_moves(rules, drawn)[0])
>>> after.card is None and state.card is None  # every value stays as it was made
True
"""

from __future__ import annotations

import reprlib
from typing import Final, NamedTuple

from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import NO_CARD, Pack, a_card, card_number
from pardon.core.errors import IllegalError, InvalidError, whole_number
from pardon.core.hands import hand_moves, with_hand
from pardon.core.moves import ACCEPT, DOUBLE, DROP, Action, Move
from pardon.core.moves import legal_moves as card_moves
from pardon.core.observation import Observation, observe
from pardon.core.rules import Rules, check_rules
from pardon.core.state import Position, check_seats, initial_position, passing_over_dropped
from pardon.core.tokens import fire_moves

__all__ = [
    "ANSWERING",
    "BEFORE_DRAW",
    "CARD",
    "GameState",
    "LeaderDraw",
    "apply",
    "as_made",
    "awaiting_draw",
    "begin_turn",
    "chance_outcomes",
    "decider",
    "draw",
    "draw_next",
    "legal_moves",
    "observe_state",
    "start",
    "view",
]

BEFORE_DRAW: Final = "before-draw"
ANSWERING: Final = "answering"
CARD: Final = "card"


class GameState(NamedTuple):
    """Everything a turn depends on, as one hashable value.

    ``seed`` names the random stream of the pack's reshuffles (and of the hands' refills),
    so a state alone determines what the real game deals next.
    """

    position: Position
    pack: Pack
    seed: int
    #: The card drawn and not yet played, if any (never set in a hand game).
    card: int | None = None
    stage: str = CARD
    #: The colours still to answer a double, in turn; whether anyone has accepted.
    answering: tuple[int, ...] = ()
    accepted: bool = False
    #: Whether the player to move has doubled this turn (once a turn), and whether its
    #: Fire pawn has moved before this turn's draw (once a turn).
    doubled: bool = False
    fired: bool = False


class LeaderDraw(NamedTuple):
    """The cards drawn to choose the Leader (docs/rules.md: "Who goes first"), round by round."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]  # ((colour, card), ...) per round
    leader: int


def draw_for_leader(seats: tuple[int, ...], pack: Pack, seed: int) -> tuple[LeaderDraw, Pack]:
    """Every player draws; the highest card leads; tied players draw again."""
    drawing = seats
    rounds = []
    while True:
        drawn = []
        for colour in drawing:
            card, pack = pack.draw(seed)
            drawn.append((colour, card))
        rounds.append(tuple(drawn))
        best = max(card for _, card in drawn)
        drawing = tuple(colour for colour, card in drawn if card == best)
        if len(drawing) == 1:
            return LeaderDraw(tuple(rounds), drawing[0]), pack.reshuffled(seed)


def start(
    rules: Rules, seats: tuple[int, ...], seed: int, first: int | None = None
) -> tuple[GameState, LeaderDraw | None]:
    """A new game's first state: the Leader chosen as the rules say, the pack shuffled (and,
    with hands, five cards dealt to each player, one at a time from the Leader).

    ``first`` names who plays first when the rules let the players choose (the youngest in
    2013, the winner of the last game of a match); otherwise the Leader is drawn for.
    """
    check_rules(rules)
    seed = whole_number(seed, "the seed")
    seats = check_seats(seats, rules)
    if first is not None:
        first = whole_number(first, "first", "a colour number (0 red, 1 blue, 2 yellow, 3 green)")
    if first is not None and first not in seats:
        raise IllegalError(f"{COLOUR_NAMES[first] if 0 <= first < 4 else first} is not playing")
    pack = Pack.new(rules.deck, seed)
    leader_draw = None
    if rules.leader == "named" and first is None:
        first = seats[0]
    if first is None:
        leader_draw, pack = draw_for_leader(seats, pack, seed)
        first = leader_draw.leader
    position = initial_position(rules, seats, first)
    if rules.hand:
        position, pack = _deal(position, pack, seed, rules.hand)
    return begin_turn(rules, GameState(position, pack, seed)), leader_draw


def begin_turn(rules: Rules, state: GameState) -> GameState:
    """The state at the start of the turn of the player to move: its decisions before the
    draw, if it has any, else the card."""
    fresh = GameState(state.position, state.pack, state.seed)  # at the card, nothing done yet
    if not (rules.tokens or rules.doubling):  # no decision is ever made before the draw
        return fresh
    before = fresh._replace(stage=BEFORE_DRAW)
    return before if _before_draw_moves(rules, before) else fresh


# --- reading a state -------------------------------------------------------------------


def decider(state: GameState) -> int:
    """The colour whose decision :func:`legal_moves` lists: the player to move, or the player
    to answer a double."""
    try:
        return state.answering[0] if state.stage == ANSWERING and state.answering else state.position.turn
    except AttributeError:
        _refuse_wrong_arguments(None, state, with_rules=False)
        raise


def awaiting_draw(rules: Rules, state: GameState) -> bool:
    """Whether the next step is chance (:func:`draw_next`, :func:`draw`) rather than a decision."""
    try:
        return state.stage == CARD and state.card is None and not rules.hand and state.position.winner is None
    except AttributeError:
        _refuse_wrong_arguments(rules, state)
        raise


def legal_moves(rules: Rules, state: GameState) -> list[Move]:
    """The choices of :func:`decider` (empty while a card is to be drawn, and once the game is
    over).  In a hand game each move's result shows the mover's own hand only, as the
    player's observation does; :func:`apply` puts the other hands back."""
    try:
        position = state.position
        if position.winner is not None:
            return []
        if state.stage == BEFORE_DRAW:
            return _before_draw_moves(rules, state)
        if state.stage == ANSWERING:
            colour = state.answering[0]
            return [Move(NO_CARD, (Action(kind, colour, -1, -1, -1),), position) for kind in (ACCEPT, DROP)]
        if rules.hand:
            return hand_moves(rules, view(state, position.turn))
        if state.card is None:
            return []
        return card_moves(rules, position, state.card)
    except (AttributeError, TypeError):
        _refuse_wrong_arguments(rules, state)
        raise


def view(state: GameState, colour: int) -> Position:
    """The position as ``colour`` sees it: the other hands hidden."""
    hands = state.position.hands
    if not hands:
        return state.position
    hidden = tuple(hand if seat == colour else () for seat, hand in enumerate(hands))
    return state.position.with_extras(hands=hidden)


def observe_state(rules: Rules, state: GameState, colour: int) -> Observation:
    """What ``colour``, a seat in play, may know: never the order of the pack, nor other hands."""
    _refuse_wrong_arguments(rules, state)
    if type(colour) is not int:  # a NumPy integer is a colour too; a float, a bool or text is not
        colour = whole_number(colour, "the colour", "a colour number (0 red, 1 blue, 2 yellow, 3 green)")
    if colour not in state.position.seats:
        named = COLOUR_NAMES[colour] if 0 <= colour < len(COLOUR_NAMES) else str(colour)
        raise IllegalError(f"{named} is not playing: only a seat in play can be observed")
    return observe(rules, view(state, colour), colour, state.card, state.pack.discards)


def _refuse_wrong_arguments(rules: object, state: object, *moves: object, with_rules: bool = True) -> None:
    """InvalidError naming an argument of the wrong type, if there is one.  The step
    functions call it only once something has failed (an AttributeError from inside), so
    that a search's calls pay nothing for it."""
    if with_rules:
        check_rules(rules)
    if not isinstance(state, GameState):
        raise InvalidError(
            f"state must be a GameState (from start(), draw_next() or apply()), not {reprlib.repr(state)}"
        )
    for move in moves:  # apply's move
        if not isinstance(move, Move):
            raise InvalidError(f"apply takes a Move from legal_moves(rules, state), not {reprlib.repr(move)}")


# --- chance ----------------------------------------------------------------------------


def chance_outcomes(rules: Rules, state: GameState) -> list[tuple[int, float]]:
    """Each card the next draw can turn up, with its chance (from the pack's composition;
    once the pack is empty, from the discards that will be shuffled into it).

    Each chance is ``count / total``, the float nearest the exact fraction, so their sum may
    miss 1.0 by a unit in the last place; the exact fractions are the counts of
    ``state.pack.draw_pile`` (of ``state.pack.discards`` once it is empty) over their number."""
    _check_draw(rules, state)
    return state.pack.chances()


def draw_next(rules: Rules, state: GameState) -> tuple[int, GameState]:
    """The real chance step: the card the pack's order holds next, turned up."""
    _check_draw(rules, state)
    card, pack = state.pack.draw(state.seed)
    position, _, seed, _, stage, answering, accepted, doubled, fired = state
    return card, GameState(position, pack, seed, card, stage, answering, accepted, doubled, fired)


def draw(rules: Rules, state: GameState, card: int) -> GameState:
    """``card`` turned up next (one of :func:`chance_outcomes`): a search's chance outcome.
    Only the order of the face-down cards changes, which nobody can see."""
    _check_draw(rules, state)
    card = card_number(card)
    pack = state.pack
    pile, discards, shuffles = pack.draw_pile, pack.discards, pack.shuffles
    if not pile:  # the discards become the new pack
        pile, discards, shuffles = discards, (), shuffles + 1
    if card not in pile:
        raise IllegalError(f"{a_card(card)} cannot be drawn: none is left in the pack")
    at = pile.index(card)
    rearranged = Pack((card, *pile[:at], *pile[at + 1 :]), discards, shuffles)
    return draw_next(rules, state._replace(pack=rearranged))[1]


def _check_draw(rules: Rules, state: GameState) -> None:
    _refuse_wrong_arguments(rules, state)
    if state.position.winner is not None:
        raise IllegalError(f"the game is over: {COLOUR_NAMES[state.position.winner]} has won")
    if rules.hand:
        raise IllegalError("in a game with hands the cards are played from the hand, not drawn")
    if state.stage != CARD:
        raise IllegalError(f"{COLOUR_NAMES[decider(state)]} has a decision to make before the draw")
    if state.card is not None:
        raise IllegalError(f"{a_card(state.card)} has been drawn and must be played first")


# --- decisions -------------------------------------------------------------------------


def apply(rules: Rules, state: GameState, move: Move) -> GameState:
    """The state after ``move``, one of :func:`legal_moves` (trusted, not checked again: a
    move from another state gives a wrong state; :meth:`~pardon.core.game.Game.play` checks)."""
    try:
        if state.stage == BEFORE_DRAW:
            return _decided_before_draw(rules, state, move)
        if state.stage == ANSWERING:
            return _answered(rules, state, move)
        return _played(rules, state, as_made(state, move))
    except (AttributeError, TypeError):
        _refuse_wrong_arguments(rules, state, move)
        raise


def _before_draw_moves(rules: Rules, state: GameState) -> list[Move]:
    """Going on to the card, the Fire pawn's move, a double: each a move without a card."""
    position = state.position
    if position.winner is not None:
        return []
    found = fire_moves(position) if rules.tokens and not state.fired else []
    if rules.doubling and not state.doubled:
        found.append(Move(NO_CARD, (Action(DOUBLE, position.turn, -1, -1, -1),), position))
    return [Move(NO_CARD, (), position), *found] if found else []


def _decided_before_draw(rules: Rules, state: GameState, move: Move) -> GameState:
    if not move.actions:  # going on to the card
        return state._replace(stage=CARD)
    if move.actions[0].kind == DOUBLE:
        answering = _clockwise_after(state.position, state.position.turn)
        return state._replace(doubled=True, stage=ANSWERING, answering=answering, accepted=False)
    fired = state._replace(position=move.result, fired=True)  # the Fire pawn's move
    return fired if _before_draw_moves(rules, fired) else fired._replace(stage=CARD)


def _answered(rules: Rules, state: GameState, move: Move) -> GameState:
    colour, position = state.answering[0], state.position
    accepted = state.accepted
    if move.actions[0].kind == DROP:
        position = position.with_extras(out=tuple(sorted((*position.out, colour))))
    else:
        accepted = True
    answered = state._replace(position=position, answering=state.answering[1:], accepted=accepted)
    if answered.answering:
        return answered
    if not accepted:  # everybody dropped out: the game ends, the doubler wins
        return answered._replace(position=position._replace(winner=position.turn), stage=CARD)
    doubled = answered._replace(position=position.with_extras(stake=position.stake * 2), stage=BEFORE_DRAW)
    return doubled if _before_draw_moves(rules, doubled) else doubled._replace(stage=CARD)


def _played(rules: Rules, state: GameState, move: Move) -> GameState:
    mover = state.position.turn
    position, pack = move.result, state.pack
    if rules.hand:
        pack = pack.discard(move.card)
        position, pack = _refill(position, mover, pack, state.seed, rules.hand)
    played = GameState(passing_over_dropped(position), pack, state.seed)
    if played.position.winner is None and played.position.turn != mover:
        return begin_turn(rules, played)
    return played._replace(doubled=state.doubled, fired=state.fired)  # the same player again (a 2)


def as_made(state: GameState, move: Move) -> Move:
    """``move`` as made in ``state``: a hand game's card shown from the mover's view (other
    hands hidden) gets every hand back in its result (only the mover's hand changes)."""
    hands = state.position.hands
    if not hands or state.stage != CARD:
        return move
    mover = state.position.turn
    held = tuple(move.result.hands[mover] if seat == mover else hand for seat, hand in enumerate(hands))
    return move._replace(result=move.result.with_extras(hands=held))


def _clockwise_after(position: Position, colour: int) -> tuple[int, ...]:
    """The players still in the game after ``colour``, clockwise."""
    seats = position.seats
    index = seats.index(colour)
    following = seats[index + 1 :] + seats[:index]
    return tuple(seat for seat in following if seat not in position.out)


def _deal(position: Position, pack: Pack, seed: int, size: int) -> tuple[Position, Pack]:
    """Deal ``size`` cards to each player, one at a time, from the player to move."""
    seats = position.seats
    order = (position.turn, *_clockwise_after(position, position.turn))
    hands: dict[int, list[int]] = {colour: [] for colour in seats}
    for _ in range(size):
        for colour in order:
            card, pack = pack.take(seed)
            hands[colour].append(card)
    for colour in seats:
        position = with_hand(position, colour, tuple(hands[colour]))
    return position, pack


def _refill(position: Position, colour: int, pack: Pack, seed: int, size: int) -> tuple[Position, Pack]:
    """Draw ``colour``'s hand back up to ``size`` cards."""
    hand = list(position.hands[colour])
    while len(hand) < size:
        card, pack = pack.take(seed)
        hand.append(card)
    return with_hand(position, colour, tuple(hand)), pack
