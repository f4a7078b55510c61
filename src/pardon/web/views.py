"""What the server sends about a game: each seat's view as JSON, never more than it may know.

A seat sees its observation (``Game.observe``: other hands hidden, never the pack's order),
the card drawn with its rule text, the discard pile, the last decision described in words
with the path of every pawn it moved (so a board can animate it), and — when the decision
is its own — its legal moves, each with the position after it, its pawn actions and a
description, and for every pawn that cannot use the card, why not (:mod:`pardon.core.why`).
The browser therefore needs no rules of its own.  A spectator sees no hand at all.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import permutations
from typing import Any

from pardon.core.board import COLOUR_NAMES, FIRST_TRACK, HOME, SQUARE, START, START_EXIT, TRACK_LENGTH, partner
from pardon.core.cards import CARD_TEXT, SORRY, a_card, card_name
from pardon.core.describe import describe_move
from pardon.core.errors import InvalidError
from pardon.core.game import CARD, Game
from pardon.core.jsonio import position_to_json
from pardon.core.locations import format_location
from pardon.core.moves import ACCEPT, BONUS_HOME, BUMP_FROM_START, DOUBLE, DROP, FIRE, ICE, STEP, SWITCH, Action, Move
from pardon.core.notation import find_move, format_move, location_to_json, parse_card_word, parse_location
from pardon.core.rules import Rules, in_words
from pardon.core.state import Position
from pardon.core.why import why_pawn_cannot_go, why_pawns_cannot_move

ACTION_KINDS = {
    STEP: "step",
    SWITCH: "switch",
    BUMP_FROM_START: "sorry",
    ICE: "ice",
    FIRE: "fire",
    BONUS_HOME: "bonus-home",
    DOUBLE: "double",
    ACCEPT: "accept",
    DROP: "drop",
}
#: Actions that move a pawn across the board (the others place a token or answer a double).
PAWN_ACTIONS = frozenset((STEP, SWITCH, BUMP_FROM_START, BONUS_HOME))


def public_position(game: Game) -> Position:
    """The position with every hand hidden: what a spectator may see."""
    position = game.position
    if not position.hands:
        return position
    return position.with_extras(hands=tuple(() for _ in position.hands))


def discards_json(discards: tuple[int, ...]) -> dict[str, Any]:
    """The discard pile since the last shuffle: how many cards, and of which kinds."""
    counted = Counter(card_name(card) for card in discards)
    return {"count": len(discards), "cards": dict(sorted(counted.items()))}


def pawn_key(colour: int, distance: int) -> str:
    """How the client names a pawn: ``red:start``, ``blue:23``, ``yellow:S2``."""
    return f"{COLOUR_NAMES[colour]}:{location_to_json(colour, distance)}"


def is_backward(origin: int, landing: int) -> bool:
    """Whether a move by count from ``origin`` to ``landing`` (distances to Home) goes backward.

    Backward, a pawn's distance grows, or wraps from its last track square (a lap from Home)
    to its entrance: a backward 4 from its start exit (64) lands on 8.  No count reaches half
    way round the track, so a drop of more than that is such a wrap, never a forward move.
    """
    if origin == START:
        return False
    return landing > origin or origin - landing > TRACK_LENGTH // 2


def _count_path(colour: int, origin: int, landing: int) -> list[int | str]:
    """Every place a pawn passes moving by count from ``origin`` to ``landing``, ``landing`` included."""
    if origin == START:  # out onto the start exit circle, then on if the circle counts as a square
        places = list(range(START_EXIT, landing - 1, -1))
    elif not is_backward(origin, landing):  # forward: towards Home
        places = list(range(origin - 1, landing - 1, -1))
    else:  # backward, round the track (past the entrance, a full lap from Home)
        places, place = [], origin
        while place != landing:
            place = place + 1 if place + 1 < START else FIRST_TRACK
            places.append(place)
    return [location_to_json(colour, place) for place in places]


def _slide_path(colour: int, landing: int, end: int) -> list[int | str]:
    """The squares a slide carries a pawn over, from its triangle to its end circle."""
    if end == landing or not (FIRST_TRACK <= landing < START and FIRST_TRACK <= end < START):
        return []
    square, last = SQUARE[colour][landing], SQUARE[colour][end]
    squares: list[int | str] = []
    while square != last:
        square = (square + 1) % TRACK_LENGTH
        squares.append(square)
    return squares


def action_json(action: Action) -> dict[str, Any]:
    """One action of a move: which pawn, from where to where, and the path it takes."""
    kind, colour = action.kind, action.colour
    if kind in (DOUBLE, ACCEPT, DROP):
        return {"kind": ACTION_KINDS[kind], "colour": COLOUR_NAMES[colour]}
    if kind in (ICE, FIRE):
        placed = {"kind": ACTION_KINDS[kind], "colour": COLOUR_NAMES[colour] if colour >= 0 else None}
        return placed | ({"pawn": pawn_key(colour, action.origin)} if colour >= 0 else {})
    if kind == STEP:
        path = _count_path(colour, action.origin, action.landing)
    elif kind == BONUS_HOME:
        path = ["home"]
    else:  # a switch or a Sorry! jumps straight onto the other pawn's square
        path = [location_to_json(colour, action.landing)]
    slide = _slide_path(colour, action.landing, action.end)
    result: dict[str, Any] = {
        "kind": ACTION_KINDS[kind],
        "colour": COLOUR_NAMES[colour],
        "pawn": pawn_key(colour, action.origin),
        "from": location_to_json(colour, action.origin),
        "landing": location_to_json(colour, action.landing),
        "to": location_to_json(colour, action.end),
        "path": [*path, *slide],
        "slide": bool(slide),
        "slide_squares": len(slide),
    }
    if kind == STEP:  # squares counted: forward is positive, back is negative
        result["steps"] = -len(path) if is_backward(action.origin, action.landing) else len(path)
    if action.target >= 0:
        result["target"] = pawn_key(action.target, action.target_origin)
    return result


def decision_text(rules: Rules, position: Position, move: Move) -> str:
    """A move in a player's words; in a partners game each partner's pawn it moves is named.

    >>> from pardon.core import legal_moves, parse_position, parse_rules
    >>> position = parse_position("R:start,start,start,start B:start,start,start,start "
    ...                           "Y:start,start,start,start G:start,start,start,start turn:R")
    >>> for move in legal_moves(parse_rules("partners"), position, 1):
    ...     print(decision_text(parse_rules("partners"), position, move))
    Red plays a 1: Start to 4
    Red plays a 1: Yellow's pawn from Start to 34
    """
    return describe_move(rules, position, move).split("  [")[0]


def decision_json(rules: Rules, position: Position, move: Move) -> dict[str, Any]:
    """A move's structure for drawing it: its actions, the pawns it bumps, and its words."""
    return {
        "card": card_name(move.card) if move.card in CARD_TEXT else None,
        "actions": [action_json(action) for action in move.actions],
        "bumps": [pawn_key(colour, distance) for colour, distance in move.bumps],
        "text": decision_text(rules, position, move),
    }


def decision_texts(start: Game, moves: Sequence[Move]) -> list[str]:
    """Every decision of a game in a player's words, as the log said each when it was made.

    ``start`` is the game before its first decision (a fresh one: it is played on), ``moves``
    the decisions made since.  A page that connects mid-game reads the log so.
    """
    texts = []
    for move in moves:
        if start.awaiting_draw:
            start.draw()
        before = start.position
        start.play_trusted(move)
        texts.append(decision_text(start.rules, before, move))
    return texts


def moves_json(game: Game, moves: list[Move]) -> list[dict[str, Any]]:
    """Each legal move by its notation, whether it passes, the position after it, and its structure.

    ``ways`` lists the other ways a player may make the same move: a split 7 whose outcome is
    that of another split, or of a 7 by one pawn, is one move (one outcome, one move), yet a
    player may well move its pawns so; the board offers each way, and sends the one move.
    """
    position = game.position
    ways = split_ways(game, moves)
    return [
        {
            "move": format_move(position, move),
            "pass": move.is_pass,
            "result": position_to_json(game.rules, move.result),
            **decision_json(game.rules, position, move),
            "ways": ways.get(index, []),
        }
        for index, move in enumerate(moves)
    ]


def _steps_of(move: Move) -> frozenset[tuple[int, int]] | None:
    """A move's pawns moved by count, as (origin, landing); None if it does anything else."""
    if any(action.kind != STEP for action in move.actions):
        return None
    return frozenset((action.origin, action.landing) for action in move.actions)


def _step_json(colour: int, origin: int, landing: int) -> dict[str, Any]:
    """One part of another way to make a move: a pawn moved forward by count."""
    path = _count_path(colour, origin, landing)
    where = location_to_json(colour, landing)
    return {
        "kind": ACTION_KINDS[STEP],
        "colour": COLOUR_NAMES[colour],
        "pawn": pawn_key(colour, origin),
        "from": location_to_json(colour, origin),
        "landing": where,
        "to": where,
        "path": path,
        "slide": False,
        "slide_squares": 0,
        "steps": len(path),
    }


def split_ways(game: Game, moves: list[Move]) -> dict[int, list[list[dict[str, Any]]]]:
    """For each move of a 7 (by its index in ``moves``), the other ways of moving the player's
    pawns that come to its outcome: other splits, or the whole 7 by one pawn.

    Each way is tried as a player would write it (``7 2-S2 57-2``) and read as the rules read
    it (:func:`pardon.core.notation.find_move`, which reads as ``parse_move`` does without
    seeking why a try is not legal), so no rule is repeated here.
    """
    position = game.position
    sevens = {index: steps for index, move in enumerate(moves) if move.card == 7 and (steps := _steps_of(move))}
    if not sevens:
        return {}
    colour = position.turn
    text_of = {format_move(position, move): index for index, move in enumerate(moves)}
    pawns = sorted({distance for distance in position.pawns[colour] if HOME < distance < START})
    tries: list[tuple[tuple[int, int], ...]] = [((pawn, pawn - 7),) for pawn in pawns]
    for first, second in permutations(pawns, 2):
        tries += [((first, first - count), (second, second - 7 + count)) for count in range(1, 7)]
    found: dict[int, dict[frozenset[tuple[int, int]], list[dict[str, Any]]]] = {}
    for parts in tries:
        if min(landing for _, landing in parts) < HOME:
            continue
        written = "7 " + " ".join(f"{format_location(colour, a)}-{format_location(colour, b)}" for a, b in parts)
        read = find_move(game.rules, position, 7, written)
        if read is None:
            continue
        index = text_of.get(format_move(position, read))
        if index is None or index not in sevens or sevens[index] == frozenset(parts):
            continue
        way = [_step_json(colour, origin, landing) for origin, landing in parts]
        found.setdefault(index, {}).setdefault(frozenset(parts), way)
    return {index: list(ways.values()) for index, ways in found.items()}


def card_text(rules: Rules, card: int) -> str:
    """What a card does under these rules, in a player's words."""
    text = CARD_TEXT[card]
    if card == 2 and not rules.draw_again_on_2:
        text = text.replace(" Draw again.", "")
    elif card == 2 and rules.hand:  # a hand is drawn back up to full, then one more card is played from it
        text = text.replace(" Draw again.", " Then play one more card from your hand.")
    if card == SORRY and rules.sorry_forward_4:
        text += " Or move one of your pawns forward 4."
    if rules.leave_start != "circle" and card in (1, 2, 3, 5, 8, 10, 11, 12):
        text += " Any forward card can bring a pawn out of Start."
    if rules.leave_start != "circle" and card == 7:
        text += " Not split, it can bring a pawn out of Start."
    if rules.tokens and card == 1:
        text += " First the Ice goes on an opponent's pawn."
    if rules.tokens and card == 2:
        text += " You may first put the Fire on one of your pawns."
    return text


def hand_texts(rules: Rules, position: Position, viewer: int | None) -> dict[str, str]:
    """What each card of the viewer's hand does, by card: the page shows the card chosen from the
    hand as it shows a card drawn.  Empty without a hand (a spectator, a game without hands)."""
    hand = position.hands[viewer] if viewer is not None and position.hands else ()
    return {card_name(card): card_text(rules, card) for card in sorted(set(hand))}


def cards_drawn(game: Game) -> int:
    """How many cards the decisions so far have used or forfeited: the solo challenge's count."""
    return sum(1 for move in game.moves if move.card in CARD_TEXT)


def why_not_json(game: Game, viewer: int) -> dict[str, dict[str, str]]:
    """For each card the deciding player may play, why each of their pawns (and, with partners,
    their partner's) that cannot use it cannot: a pawn has a reason exactly when no legal move
    of the card moves it."""
    position = game.position
    if game.stage != CARD or game.is_over or game.decider != viewer:
        return {}
    view = game.observe(viewer).position
    cards = _playable(game, view, viewer)
    team = (position.turn, partner(position.turn)) if game.rules.partners else (position.turn,)
    return {
        card_name(card): {
            pawn_key(colour, distance): why
            for (colour, distance), why in why_pawns_cannot_move(game.rules, view, card, team).items()
        }
        for card in cards
    }


def why_not_there(
    game: Game, viewer: int, card_word: str, pawn: str, to: str, offered: Sequence[Move] | None = None
) -> str | None:
    """Why the deciding player's pawn ``pawn`` (a pawn key) cannot go to ``to`` (a place named
    as a pawn key names one: ``red:S2``, ``blue:home``, a track square by any colour) with the
    card ``card_word`` (the card drawn, or one of their hand); None if a legal move takes it
    there.  :class:`InvalidError` for what names no card, pawn or place of this decision.

    ``offered``, the game's legal moves now if the caller keeps them, spares working out the
    card's again (a partners' 7 has hundreds)."""
    card = parse_card_word(card_word)
    view = game.observe(viewer).position
    if card not in _playable(game, view, viewer):
        raise InvalidError(f"{a_card(card)} is not a card to play now")
    colour, origin = _read_key(pawn, "pawn")
    place = _read_key(to, "place")
    moves = None if offered is None else [move for move in offered if move.card == card]
    return why_pawn_cannot_go(game.rules, view, card, origin, place, colour, moves)


def _playable(game: Game, view: Position, viewer: int) -> list[int]:
    """The cards the deciding ``viewer`` may play: the card drawn, or each card of their hand."""
    if game.card is not None:
        return [game.card]
    return sorted(set(view.hands[viewer])) if view.hands else []


def _read_key(key: str, what: str) -> tuple[int, int]:
    """A pawn key's colour and location (its distance from that colour's Home)."""
    colour_name, _, where = key.partition(":")
    if colour_name not in COLOUR_NAMES or not where:
        raise InvalidError(f"{what} is written colour:location, e.g. red:23 or red:S2, not {key!r}")
    colour = COLOUR_NAMES.index(colour_name)
    return colour, parse_location(colour, where)


def last_decision_json(game: Game) -> dict[str, Any] | None:
    """The decision just made, described, with its pawns' paths (for the board to animate)."""
    last = game.last_decision
    if last is None:
        return None
    before, colour, move = last
    return {"colour": COLOUR_NAMES[colour], **decision_json(game.rules, before, move)}


def teams_json(game: Game) -> list[list[str]] | None:
    """The partnerships of a partners game (Red+Yellow, Blue+Green); None in any other game."""
    if not game.rules.partners:
        return None
    seats = game.position.seats
    return [[COLOUR_NAMES[colour], COLOUR_NAMES[partner(colour)]] for colour in seats if colour < partner(colour)]


def view_json(
    game: Game, viewer: int | None, moves: list[dict[str, Any]] | None, *, started: bool = True
) -> dict[str, Any]:
    """The game as ``viewer`` sees it (None: a spectator); ``moves`` only if the decision is theirs.

    Before the game has ``started`` (players still to come) the Leader's first card, which the
    server has drawn already, is not shown: it is still face down on the pack, as at a table where
    nobody has drawn yet, so nobody learns it before everyone is there (docs/protocol.md).
    """
    if viewer is None:
        position, discards = public_position(game), game.pack.discards
    else:
        observation = game.observe(viewer)
        position, discards = observation.position, observation.discards
    card, pack = game.card, len(game.pack.draw_pile)
    if not started and card is not None:
        card, pack, discards = None, pack + 1, discards[:-1]  # a card drawn lies on top of the discards
    over = game.is_over
    return {
        "position": position_to_json(game.rules, position),
        "stage": "over" if over else game.stage,
        "decider": None if over else COLOUR_NAMES[game.decider],
        "card": card_name(card) if card is not None else None,
        "card_text": card_text(game.rules, card) if card is not None else None,
        "hand_texts": hand_texts(game.rules, position, viewer),
        "discards": discards_json(discards),
        "pack": pack,
        "viewer": COLOUR_NAMES[viewer] if viewer is not None else None,
        "moves": moves or [],
        "why_not": why_not_json(game, viewer) if moves and viewer is not None else {},
        "last": last_decision_json(game),
        "rules": game.rules.name,
        "rules_name": in_words(game.rules),
        "teams": teams_json(game),
        **({"cards_drawn": cards_drawn(game)} if game.rules.solo else {}),
    }
