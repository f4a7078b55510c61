"""Text forms of locations, moves, positions and game records; their parsers.

Locations: ``start``, ``home``, a track square ``0``–``59`` (numbered as in docs/rules.md: "The board") or
``S1``–``S5`` (a colour's own Safety Zone).  A pawn whose colour is not the player's
and who is not on the track is written with its colour letter: ``Y:start``.

Moves (``format_move`` / ``parse_move``), the card first::

    1 start-4        a 1 brings a pawn out of Start onto square 4
    4 20-16          a pawn backward 4
    7 10-13 S2-home  a split 7, parts in the order they are made
    11 20x33         switch the pawn on 20 with the opponent's pawn on 33
    sorry start-33   from Start onto the opponent's pawn on 33
    2 pass           the card cannot be used (or an 11's switch is declined)

The destination of a step is where the count ends; a slide, if any, follows from the
board.  ``parse_move`` also takes short forms — ``4 20`` (the pawn on 20),
``sorry 33`` — and says when one names several moves.

Positions: ``R:home,S3,17,start Y:start,start,start,start turn:R`` (each seat's pawns,
then whose turn it is, or ``winner:R`` once the game is over).

Game records look like PGN: tag lines, then one decision per line, the colour first::

    [Rules "classic"]
    [Seats "red yellow"]
    [Seed "7"]
    [Result "yellow"]

    Y 1 start-34
    R 5 pass

A game begun at a position of its own (``Game.at``) adds where it began, as PGN's FEN tag
does: ``[Position "R:20,start Y:40,start turn:R"]`` (position text) and
``[Pack "draw 1 sorry 7 / discards 2 3 / shuffles 1"]`` (``format_pack``: the pile top card
first, the discards, the shuffles made so far).
"""

from __future__ import annotations

import functools
import re
import reprlib
from collections.abc import Callable, Sequence
from typing import Final, NamedTuple, TypeVar

from pardon.core.board import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    COLOURS,
    DISTANCE,
    FIRST_TRACK,
    HOME,
    SQUARE,
    START,
    TRACK_LENGTH,
    partner,
    safety_distance,
)
from pardon.core.cards import CARD_NAMES, NO_CARD, SORRY, Pack, a_card, card_name, card_number, parse_card
from pardon.core.errors import AmbiguousError, IllegalError, InvalidError, PardonError, shown_json, whole_number
from pardon.core.hands import card_moves
from pardon.core.locations import format_location
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
    steps_result,
)
from pardon.core.rules import Rules, check_rules
from pardon.core.state import Extras, Position, check_position_value
from pardon.core.why import why_not_pass, why_pawn_cannot_move

# ---------------------------------------------------------------- colours


def parse_colour(text: str) -> int:
    """A colour from its name or letter (``red``, ``R``)."""
    key = text.strip().lower()
    for colour in COLOURS:
        if key in (COLOUR_NAMES[colour], COLOUR_LETTERS[colour].lower()):
            return colour
    raise InvalidError(f"unknown colour {text!r}: expected red, blue, yellow or green (or R, B, Y, G)")


def first_player(text: str | None, seats: Sequence[int]) -> int | None:
    """``--first``: the colour named to play first (RULES.md §3.8: a named player, the youngest
    in 2013) instead of the Leader the rules choose; one of the game's seats, or None."""
    if text is None:
        return None
    colour = parse_colour(text)
    if colour not in seats:
        playing = ", ".join(COLOUR_NAMES[seat].capitalize() for seat in seats)
        raise InvalidError(f"--first: {COLOUR_NAMES[colour].capitalize()} is not playing (the seats are {playing})")
    return colour


def colour_name(colour: int) -> str:
    return COLOUR_NAMES[colour]


# -------------------------------------------------------------- locations


_LOCATION = re.compile(r"^(?:(start)|(home)|[sS]([1-5])|([0-9]{1,2}))$", re.IGNORECASE)  # ASCII digits only


def parse_location(colour: int, text: str) -> int:
    """The distance from Home of a location written for a pawn of ``colour``."""
    match = _LOCATION.match(text.strip())
    if match is None:
        raise InvalidError(f"cannot read location {text!r}: expected start, home, S1-S5 or a square 0-59")
    if match.group(1):
        return START
    if match.group(2):
        return HOME
    if match.group(3):
        return safety_distance(int(match.group(3)))
    square = int(match.group(4))
    if square >= TRACK_LENGTH:
        raise InvalidError(f"there is no square {square}: the track has squares 0-59")
    return DISTANCE[colour][square]


def location_to_json(colour: int, distance: int) -> str | int:
    """A location as the JSON interface writes it: a track square is an integer."""
    if FIRST_TRACK <= distance < START:
        return SQUARE[colour][distance]
    return format_location(colour, distance)


def location_from_json(colour: int, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InvalidError(f'a location is "start", "home", "S1"-"S5" or a square 0-59, not {shown_json(value)}')
    if isinstance(value, int):
        if not 0 <= value < TRACK_LENGTH:
            raise InvalidError(f"there is no square {value}: the track has squares 0-59")
        return DISTANCE[colour][value]
    if value.strip().isdigit():
        raise InvalidError(
            f"a track square is written as a number, {value.strip()}, not the string {shown_json(value)}"
        )
    return parse_location(colour, value)


# ------------------------------------------------------------------ moves


def _pawn_text(player: int, colour: int, distance: int) -> str:
    text = format_location(colour, distance)
    if colour != player and not FIRST_TRACK <= distance < START:
        return f"{COLOUR_LETTERS[colour]}:{text}"
    return text


#: The words of decisions made without a card (docs/rules.md: "Points" for doubling, "The 2013
#: edition" for Fire and Ice).
_WORDS_WITHOUT_CARD: Final = {DOUBLE: "double", ACCEPT: "accept", DROP: "drop"}
#: The token actions, written ``WORD:LOCATION`` (``ice:centre`` when the Ice goes back).
_TOKEN_WORDS: Final = {ICE: "ice", FIRE: "fire", BONUS_HOME: "bonus"}
GO_ON: Final = "continue"


def _action_text(player: int, action: Action) -> str:
    if action.kind in _TOKEN_WORDS:
        if action.colour < 0:
            return f"{_TOKEN_WORDS[action.kind]}:centre"
        return f"{_TOKEN_WORDS[action.kind]}:{format_location(action.colour, action.origin)}"
    origin = _pawn_text(player, action.colour, action.origin)
    if action.kind == SWITCH:
        return f"{origin}x{SQUARE[action.target][action.target_origin]}"
    return f"{origin}-{format_location(action.colour, action.landing)}"  # in the pawn's own colour


def format_move(position: Position, move: Move) -> str:
    """The canonical text of a move made in ``position``."""
    try:
        return _move_text(position, move)
    except (AttributeError, TypeError):
        if not isinstance(move, Move):
            raise InvalidError(f"format_move takes a Move from legal_moves(), not {reprlib.repr(move)}") from None
        if not isinstance(position, Position):
            raise InvalidError(
                f"format_move takes the Position the move is made in, not {reprlib.repr(position)}"
            ) from None
        raise


def _move_text(position: Position, move: Move) -> str:
    if move.card == NO_CARD:
        if not move.actions:
            return GO_ON
        kind = move.actions[0].kind
        if kind in _WORDS_WITHOUT_CARD:
            return _WORDS_WITHOUT_CARD[kind]
        return f"fire {_action_text(position.turn, move.actions[0])}"  # the Fire pawn to a corner
    if move.is_pass:
        return f"{card_name(move.card)} pass"
    actions = " ".join(_action_text(position.turn, action) for action in move.actions)
    return f"{card_name(move.card)} {actions}"


def _token_texts(player: int, move: Move) -> list[str]:
    return [_action_text(player, action) for action in move.actions if action.kind in _TOKEN_WORDS]


def _pawn_actions(move: Move) -> tuple[Action, ...]:
    actions = move.actions
    if any(action.kind in _TOKEN_WORDS for action in actions):
        return tuple(action for action in actions if action.kind not in _TOKEN_WORDS)
    return actions  # most moves have no token action: read many times, so not copied


class _Spec(NamedTuple):
    """One action as written: which pawn, and where to (``None`` when left out)."""

    colour: int | None
    origin: int  # distance, in ``colour``'s frame (or the player's when colour is None)
    switch: bool
    destination: str | None


_ACTION = re.compile(r"^(?:([RBYGrbyg]):)?([^-xX]+?)(?:([-xX])(.+))?$")


def _parse_spec(player: int, text: str) -> _Spec:
    match = _ACTION.match(text)
    if match is None or (match.group(3) and not match.group(4)):
        raise InvalidError(f"cannot read {text!r}: expected FROM-TO, FROMxSQUARE or a pawn's location")
    colour = parse_colour(match.group(1)) if match.group(1) else None
    origin = parse_location(player if colour is None else colour, match.group(2))
    return _Spec(colour, origin, (match.group(3) or "").lower() == "x", match.group(4))


def _square_of(colour: int, distance: int) -> int:
    return SQUARE[colour][distance] if FIRST_TRACK <= distance < START else -1


def _matches(player: int, spec: _Spec, action: Action) -> bool:
    """Whether a written action names ``action``."""
    colour = player if spec.colour is None else spec.colour
    if FIRST_TRACK <= spec.origin < START:
        # A track square names its pawn whatever the colour it was read for.
        if _square_of(colour, spec.origin) != _square_of(action.colour, action.origin):
            return False
        if spec.colour is not None and spec.colour != action.colour:
            return False
    elif colour != action.colour or spec.origin != action.origin:
        return False
    if spec.switch != (action.kind == SWITCH):
        return False
    if spec.destination is None:
        return True
    if action.kind == SWITCH:
        target = parse_location(action.target, spec.destination)
        return _square_of(action.target, target) == SQUARE[action.target][action.target_origin]
    if action.kind == BUMP_FROM_START:
        target = parse_location(action.target, spec.destination)
        return FIRST_TRACK <= target < START and SQUARE[action.target][target] == _square_of(
            action.colour, action.landing
        )
    return parse_location(action.colour, spec.destination) == action.landing


def parse_move(rules: Rules, position: Position, card: int | None, text: str) -> Move:
    """The legal move of ``card`` that ``text`` names (``card`` is None in a hand game:
    the text names a card of the player's hand).

    Raises InvalidError (cannot be read), IllegalError (no legal move matches; the
    message says why when it can) or AmbiguousError (several moves match).
    """
    return _read_move(rules, position, card, text, explain=True)


def find_move(rules: Rules, position: Position, card: int | None, text: str) -> Move | None:
    """The legal move that ``text`` names as :func:`parse_move` reads it, or None when it
    names none (or several): for trying many texts, since it seeks no reason why not."""
    try:
        return _read_move(rules, position, card, text, explain=False)
    except PardonError:
        return None


def check_text(text: object, what: str) -> str:
    """``text`` if it is a string, else InvalidError saying that ``what`` is written as text."""
    if not isinstance(text, str):
        raise InvalidError(f"{what} is written as text, not {reprlib.repr(text)}")
    return text


def _read_move(rules: Rules, position: Position, card: int | None, text: str, explain: bool) -> Move:
    check_rules(rules)
    check_position_value(position)
    if card is not None:
        card = card_number(card)  # "7" or a 6 is a wrong argument, not a card the text does not name
    words = check_text(text, "a move").split()
    if not words:
        raise InvalidError("empty move: expected a card and what to do with it, e.g. '5 20-25'")
    written_card = parse_card_word(words[0])
    if card is None:
        card = _card_in_hand(position, written_card)
    elif written_card != card:
        raise IllegalError(f"the card to play is {a_card(card)}, not {a_card(written_card)}")
    moves = list(_card_moves(rules, position, card))
    if not moves:
        raise IllegalError(_no_move_reason(rules, position, card))
    tokens = [word.lower() for word in words[1:] if word.split(":")[0].lower() in _TOKEN_WORDS.values()]
    rest = [word for word in words[1:] if word.split(":")[0].lower() not in _TOKEN_WORDS.values()]
    if tokens or rules.tokens:
        moves = _with_tokens(position, card, tokens, moves)
    if [word.lower() for word in rest] == ["pass"]:
        for move in moves:
            if not _pawn_actions(move):
                return move
        raise IllegalError(_why_not_pass(rules, card))
    if not rest:
        if tokens:
            return _only(text, position, [move for move in moves if not _pawn_actions(move)])
        raise InvalidError(f"say what to do with the {card_name(card)}, e.g. '{format_move(position, moves[0])}'")
    specs = [_parse_spec(position.turn, word) for word in rest]
    if card == SORRY and len(rest) == 1 and specs[0].destination is None and specs[0].origin != START:
        specs = [_Spec(None, START, False, rest[0].split(":")[-1])]  # "sorry 33" names the target
    found = _find(position.turn, specs, moves) or _find_split_by_result(rules, position, card, specs, moves)
    if not found:
        reason = _explain(rules, position, card, specs, moves) if explain else "no legal move matches"
        raise IllegalError(f"{' '.join(rest)} is not a legal move for {a_card(card)} here: {reason}")
    return _only(text, position, found)


@functools.lru_cache(maxsize=16)
def _card_moves(rules: Rules, position: Position, card: int) -> tuple[Move, ...]:
    """A card's legal moves, kept for the last few positions: reading many moves written for
    one position (every way of a split 7, a partners' 7 with a thousand outcomes) lists them once."""
    return tuple(card_moves(rules, position, card))


def _only(text: str, position: Position, found: list[Move]) -> Move:
    if not found:
        raise IllegalError(f"{text.strip()!r} is not a legal move here")
    if len(found) > 1:
        choices = ", ".join(format_move(position, move) for move in found)
        raise AmbiguousError(f"{text.strip()!r} could mean {choices}: say which")
    return found[0]


def _card_in_hand(position: Position, card: int) -> int:
    hands = position.hands
    hand = hands[position.turn] if hands else ()
    if card not in hand:
        held = ", ".join(card_name(held) for held in hand) or "nothing"
        raise IllegalError(f"there is no {card_name(card)} in your hand: you hold {held}")
    return card


def _no_move_reason(rules: Rules, position: Position, card: int) -> str:
    if position.winner is not None:
        return "the game is over"
    return f"{a_card(card)} cannot be played while another card of your hand can be used"


def _why_not_pass(rules: Rules, card: int) -> str:
    if rules.hand:
        return "a card can be discarded only when no card of the hand can be used, but for an 11's switch"
    return why_not_pass(card)


def _with_tokens(position: Position, card: int, tokens: list[str], moves: list[Move]) -> list[Move]:
    """The moves whose token actions are those written (``ice:centre`` may be left out)."""
    wanted = [token for token in tokens if token != "ice:centre"]
    found = [
        move
        for move in moves
        if [text.lower() for text in _token_texts(position.turn, move) if text != "ice:centre"] == wanted
    ]
    if not found and card == 1 and any(_token_texts(position.turn, move) for move in moves):
        targets = sorted({t for move in moves for t in _token_texts(position.turn, move)})
        raise IllegalError(f"a 1 first puts the Ice on an opponent's pawn: write one of {', '.join(targets)}")
    if not found:
        raise IllegalError(f"{' '.join(tokens)} is not allowed here")
    return found


def _find(player: int, specs: list[_Spec], moves: list[Move]) -> list[Move]:
    count = len(specs)
    return [
        move
        for move in moves
        if len(actions := _pawn_actions(move)) == count
        and all(_matches(player, spec, action) for spec, action in zip(specs, actions, strict=True))
    ]


def _find_split_by_result(
    rules: Rules, position: Position, card: int, specs: list[_Spec], moves: list[Move]
) -> list[Move]:
    """A split 7 written in an order that leads to an outcome listed under another
    text (the other order, or even the whole 7 by one pawn): made part by part as
    written, then matched by its result, since one outcome is one move."""
    if card != 7 or len(specs) < 2:
        return []
    steps = []
    for spec in specs:
        if spec.colour not in (None, position.turn) or spec.switch or spec.destination is None:
            return []
        try:
            landing = parse_location(position.turn, spec.destination)
        except InvalidError:
            return []
        steps.append((spec.origin, landing))
    if sum(origin - landing for origin, landing in steps) != 7:
        return []
    pawns = steps_result(rules, position, steps)
    return [move for move in moves if move.result.pawns == pawns] if pawns else []


def _explain(rules: Rules, position: Position, card: int, specs: list[_Spec], moves: list[Move]) -> str:
    """The rule a written move breaks, as far as it can be named."""
    any_split = rules.partners and rules.partner_split == "any"
    if len(specs) > 1 and card != 7:
        return "only a 7 can be split" + ("" if any_split else " between two pawns")
    if len(specs) > 2 and not any_split:
        return "a 7 is split between two pawns at most"
    player = position.turn
    pawns_named = {(player if spec.colour is None else spec.colour, spec.origin) for spec in specs}
    if len(specs) >= 2 and len(pawns_named) < len(specs):
        return "each part of a split 7 moves a different pawn" if any_split else "a split 7 moves two different pawns"
    for spec in specs:
        if rules.partners and _lands_partner_on_player(position, spec):
            return (
                "your partner's pawn may not land on your own pawn: your move sends your pawns to Start only by a slide"
            )
        if spec.colour is not None and spec.colour != player:
            if rules.partners and spec.colour == partner(player):
                return "that move of your partner's pawn is not allowed here"
            return "you can move only your own pawns" + (" and your partner's" if rules.partners else "")
        if len(specs) == 2 and spec.origin == START:
            return "a split 7 never brings a pawn out of Start"
        reason = why_pawn_cannot_move(rules, position, card, spec.origin)
        if reason:
            return reason
    spec = specs[0]
    if spec.switch or (card == SORRY and spec.destination is not None):
        return _explain_target(rules, position, card, spec)
    if len(specs) >= 2:
        return "the parts must add up to 7, each made forward, one after the other, and legal when made"
    destinations = sorted(
        {
            format_location(action.colour, action.landing)
            for move in moves
            for action in move.actions[:1]
            if len(move.actions) == 1 and action.origin == spec.origin and action.kind != SWITCH
        }
    )
    where = format_location(player, spec.origin)
    switches = sorted(
        format_move(position, move)
        for move in moves
        if move.actions and move.actions[0].kind == SWITCH and move.actions[0].origin == spec.origin
    )
    if destinations:
        also = f", or switch: {' or '.join(switches)}" if switches else ""
        return f"with {a_card(card)} the pawn on {where} can go to {' or '.join(destinations)} only{also}"
    if switches:  # "11 0-21" for a switch: say how a switch is written
        return f"with an 11 the pawn on {where} can only switch, written with an x: {' or '.join(switches)}"
    return f"the pawn on {where} cannot move with {a_card(card)}"


def _lands_partner_on_player(position: Position, spec: _Spec) -> bool:
    """Whether a written action moves the partner's pawn onto a pawn of the player's (docs/rules.md: "Partners")."""
    player = position.turn
    mate = partner(player)
    if spec.colour not in (None, mate) or spec.switch or spec.destination is None:
        return False
    on_track = FIRST_TRACK <= spec.origin < START
    if spec.colour is None and not (on_track and DISTANCE[mate][SQUARE[player][spec.origin]] in position.pawns[mate]):
        return False  # a track square names the partner's pawn only if it stands there
    try:
        landing = parse_location(mate, spec.destination)
    except InvalidError:
        return False
    return FIRST_TRACK <= landing < START and DISTANCE[player][SQUARE[mate][landing]] in position.pawns[player]


def _explain_target(rules: Rules, position: Position, card: int, spec: _Spec) -> str:
    destination = spec.destination or ""
    if not destination.strip().isdigit():
        return "only pawns on the track can be bumped by a Sorry! or switched by an 11"
    square = int(destination)
    what = "switched" if card == 11 else "bumped by a Sorry!"
    for other in position.seats:
        if other != position.turn and DISTANCE[other][square] in position.pawns[other]:
            if position.ice == (other, DISTANCE[other][square]):
                return f"the pawn on square {square} is frozen by the Ice: it cannot be {what}"
            if rules.partners and other == partner(position.turn):
                return f"the pawn on square {square} is your partner's: only an opponent's pawn can be {what}"
            return "that move is not allowed here"
    if DISTANCE[position.turn][square] in position.pawns[position.turn]:
        return "you cannot bump or switch your own pawn"
    return f"there is no opponent's pawn on square {square}"


def parse_card_word(word: str) -> int:
    try:
        return parse_card(word)
    except ValueError as error:
        raise InvalidError(str(error)) from None


# -------------------------------------------------------------- positions


def format_position(position: Position) -> str:
    """``R:home,S3,17,start Y:... turn:R`` (or ``winner:R``), then what the rules add:
    ``hand:R:1,5,7,11,sorry`` per known hand, ``fire:R17`` / ``ice:Y33`` for a token's
    pawn (colour letter and location), ``stake:2`` and ``out:B`` after doubles."""
    if not isinstance(position, Position):
        raise InvalidError(f"format_position takes a Position, not {reprlib.repr(position)}")
    parts = [
        f"{COLOUR_LETTERS[colour]}:" + ",".join(format_location(colour, pawn) for pawn in position.pawns[colour])
        for colour in position.seats
    ]
    if position.winner is not None:
        parts.append(f"winner:{COLOUR_LETTERS[position.winner]}")
    if position.winner != position.turn:  # a winner alone is read as its own turn too
        parts.append(f"turn:{COLOUR_LETTERS[position.turn]}")
    for colour, hand in enumerate(position.hands):
        if hand:
            parts.append(f"hand:{COLOUR_LETTERS[colour]}:" + ",".join(card_name(card) for card in hand))
    for word, pawn in (("fire", position.fire), ("ice", position.ice)):
        if pawn is not None:
            parts.append(f"{word}:{COLOUR_LETTERS[pawn[0]]}{format_location(*pawn)}")
    if position.stake != 1:
        parts.append(f"stake:{position.stake}")
    if position.out:
        parts.append("out:" + ",".join(COLOUR_LETTERS[colour] for colour in position.out))
    return " ".join(parts)


_POSITION_WORDS: Final = frozenset({"turn", "winner", "fire", "ice", "stake", "out"})


def parse_position(text: str) -> Position:
    """The inverse of :func:`format_position`; pawns may be listed in any order."""
    pawns: dict[int, tuple[int, ...]] = {}
    hands: dict[int, tuple[int, ...]] = {}
    tokens: dict[str, tuple[int, int]] = {}
    stake, out = 1, tuple[int, ...]()
    turn = winner = None
    given: set[str] = set()
    for word in check_text(text, "a position").split():
        key, colon, value = word.partition(":")
        if not colon or not value:
            raise InvalidError(f"cannot read {word!r}: expected COLOUR:PAWNS, turn:COLOUR or winner:COLOUR")
        lowered = key.lower()
        if lowered in _POSITION_WORDS:
            if lowered in given:  # "turn:R turn:Y" would quietly be Yellow's turn
                raise InvalidError(f"cannot read {word!r}: the position gives {lowered} twice")
            given.add(lowered)
        if lowered in ("turn", "winner"):
            colour = parse_colour(value)
            if lowered == "turn":
                turn = colour
            else:
                winner = colour
        elif lowered == "hand":
            who, _, cards = value.partition(":")
            hand = tuple(sorted(parse_card_word(card) for card in cards.split(",") if card))
            if not hand:  # an empty hand would make a position unequal to the same one without it
                raise InvalidError(f"cannot read {word!r}: expected hand:COLOUR:CARDS, e.g. hand:R:1,5,7,11,sorry")
            colour = parse_colour(who)
            if colour in hands:
                raise InvalidError(f"cannot read {word!r}: the position gives {COLOUR_NAMES[colour]}'s hand twice")
            hands[colour] = hand
        elif lowered in ("fire", "ice"):
            colour = parse_colour(value[0])
            tokens[lowered] = (colour, parse_location(colour, value[1:]))
        elif lowered == "stake":
            stake = _whole_number(value, "stake")
        elif lowered == "out":
            out = tuple(sorted(parse_colour(letter) for letter in value.split(",")))
        else:
            colour = parse_colour(key)
            if colour in pawns:
                raise InvalidError(f"{COLOUR_NAMES[colour]}'s pawns are listed twice")
            pawns[colour] = tuple(sorted(parse_location(colour, item) for item in value.split(",")))
    if not pawns:
        raise InvalidError("a position lists the pawns of 1 to 4 colours")
    if turn is None:
        turn = winner
    if turn is None:
        raise InvalidError("say whose turn it is: turn:COLOUR")
    rows = tuple(pawns.get(colour, ()) for colour in COLOURS)
    extras = None
    if hands or tokens or stake != 1 or out:
        hand_rows = tuple(hands.get(colour, ()) for colour in COLOURS) if hands else ()
        extras = Extras(hand_rows, tokens.get("fire"), tokens.get("ice"), stake, out)
    return Position(tuple(sorted(pawns)), rows, turn, winner, extras)


def _whole_number(text: str, what: str) -> int:
    if not (text.isascii() and text.isdigit()):  # "²" is a digit to isdigit() but not to int()
        raise InvalidError(f"the {what} is a whole number, not {text!r}")
    return int(text)


# ------------------------------------------------------------------- packs

_PACK_PARTS: Final = ("draw", "discards", "shuffles")
_PACK_EXAMPLE: Final = "draw 1 sorry 7 / discards 2 3 / shuffles 1"


def format_pack(pack: Pack) -> str:
    """``draw 1 sorry 7 / discards 2 3 / shuffles 1``: the face-down pile, top card first,
    the discard pile, bottom card first, and how many shuffles have been made (an empty
    pile is its word alone: ``draw / discards 2 3 / shuffles 1``)."""
    if not isinstance(pack, Pack):
        raise InvalidError(f"format_pack takes a Pack, not {reprlib.repr(pack)}")
    draw_pile = " ".join(["draw", *map(card_name, pack.draw_pile)])
    discards = " ".join(["discards", *map(card_name, pack.discards)])
    return f"{draw_pile} / {discards} / shuffles {whole_number(pack.shuffles, 'the shuffles of a pack')}"


def parse_pack(text: str) -> Pack:
    """The inverse of :func:`format_pack`: its three parts, each once, in any order."""
    parts: dict[str, list[str]] = {}
    for part in check_text(text, "a pack").split("/"):
        words = part.split()
        name = words[0].lower() if words else ""
        if name not in _PACK_PARTS:
            what = f"unknown part {words[0]!r}" if words else "an empty part"
            raise InvalidError(f"{what} in a pack: expected draw CARDS / discards CARDS / shuffles N")
        if name in parts:  # "draw 1 / draw 2" would quietly be one pile or the other
            raise InvalidError(f"the pack gives its {name} twice")
        parts[name] = words[1:]
    for name in _PACK_PARTS:
        if name not in parts:
            raise InvalidError(f"the pack has no {name} part: expected e.g. {_PACK_EXAMPLE!r}")
    shuffles = parts["shuffles"]
    if len(shuffles) != 1:
        written = " ".join(["shuffles", *shuffles])
        raise InvalidError(f"a pack's shuffles are one whole number, e.g. 'shuffles 1', not {written!r}")
    return Pack(
        _pack_cards(parts["draw"], "draw pile"),
        _pack_cards(parts["discards"], "discard pile"),
        _whole_number(shuffles[0], "number of shuffles"),
    )


def _pack_cards(words: list[str], pile: str) -> tuple[int, ...]:
    try:
        return tuple(parse_card_word(word) for word in words)
    except InvalidError as error:
        raise InvalidError(f"the pack's {pile}: {error}") from None


# ---------------------------------------------------------------- records

_T = TypeVar("_T")


class Record(NamedTuple):
    """A whole game: the rules, the seats, the seed, and every decision in order.

    ``moves`` are ``(colour, move text)`` pairs; ``result`` is the winner or None;
    ``first`` is who was named to play first (the winner of the last game of a match),
    None when the Leader follows from the rules and the seed.

    A game begun at a position of its own (:meth:`~pardon.core.game.Game.at`: a puzzle, a
    test) starts from ``position`` (:func:`format_position` text) with ``pack``
    (:func:`format_pack` text); both are None for a game that starts from the seed's opening.

    ``players`` names who played which colour, as ``(colour, name)`` pairs (written as PGN
    names its players: ``[Red "you"]``, ``[Yellow "expectimax"]``); the terminal game reads
    them to take a game up again.  Names are for people: a replay does not need them.
    """

    rules: str
    seats: tuple[int, ...]
    seed: int
    moves: tuple[tuple[int, str], ...]
    result: int | None = None
    first: int | None = None
    position: str | None = None
    pack: str | None = None
    players: tuple[tuple[int, str], ...] = ()


def check_record(record: object) -> Record:
    """``record`` if it is a :class:`Record` whose parts have the right types, and whose start,
    if it has one, gives both a position and a pack that can be read (whether its seats and
    decisions make a game is for :func:`~pardon.core.game.replay` to say), else InvalidError."""
    if not isinstance(record, Record):
        raise InvalidError(f"a record is a Record (parse_record(text), record_of(game)), not {reprlib.repr(record)}")
    if not isinstance(record.rules, str):
        raise InvalidError(f"a record's rules are text such as 'classic', not {reprlib.repr(record.rules)}")
    if isinstance(record.seats, (str, bytes)) or not isinstance(record.seats, (tuple, list)):
        raise InvalidError(f"a record's seats are a tuple of colour numbers, not {reprlib.repr(record.seats)}")
    for seat in record.seats:
        _colour_number(seat, "a record's seat")
    whole_number(record.seed, "a record's seed")
    if not isinstance(record.moves, (tuple, list)):
        raise InvalidError(f"a record's moves are (colour, text) pairs, not {reprlib.repr(record.moves)}")
    for number, decision in enumerate(record.moves, start=1):
        if not isinstance(decision, (tuple, list)) or len(decision) != 2 or not isinstance(decision[1], str):
            raise InvalidError(
                f"decision {number} of the record is not a (colour, text) pair: {reprlib.repr(decision)}"
            )
        _colour_number(decision[0], f"the colour of decision {number}")
    for what, colour in (("result", record.result), ("first player", record.first)):
        if colour is not None:
            _colour_number(colour, f"a record's {what}")
    _check_players(record.players, record.seats)
    start_of(record)
    return record


MAX_NAME: Final = 80


def _fits_a_name(char: str) -> bool:
    """Whether a player's name in a record may hold ``char``: not the tag's quotes, nor a
    comment, nor anything unprintable (a line's end, which splitlines also finds in U+2028)."""
    return char.isprintable() and char not in '"#'


def record_name(text: str) -> str:
    """``text`` as a player's name a record can hold: what does not fit a name becomes a space,
    spaces run together, at most :data:`MAX_NAME` characters ("" when nothing is left)."""
    kept = "".join(char if _fits_a_name(char) else " " for char in text)
    return " ".join(kept.split())[:MAX_NAME].strip()


def _check_players(players: object, seats: Sequence[int]) -> None:
    if isinstance(players, (str, bytes)) or not isinstance(players, (tuple, list)):
        raise InvalidError(f"a record's players are (colour, name) pairs, not {reprlib.repr(players)}")
    named: set[int] = set()
    for pair in players:
        if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not isinstance(pair[1], str):
            raise InvalidError(f"a record's players are (colour, name) pairs, not {reprlib.repr(pair)}")
        colour = _colour_number(pair[0], "the colour of a record's player")
        if colour not in seats:
            raise InvalidError(f"the record names a player for {COLOUR_NAMES[colour]}, who does not play in it")
        if colour in named:
            raise InvalidError(f"the record names {COLOUR_NAMES[colour]}'s player twice")
        named.add(colour)
        name = pair[1]
        if not name.strip() or len(name) > MAX_NAME or not all(map(_fits_a_name, name)) or name != name.strip():
            raise InvalidError(
                f"a player's name in a record is 1 to {MAX_NAME} characters, printable, without quotes, '#' or "
                f"line breaks, and no spaces at its ends: not {reprlib.repr(name)}"
            )


def start_of(record: Record) -> tuple[Position, Pack] | None:
    """The position and the pack a record starts from, read from its ``position`` and
    ``pack`` (None for a record that starts from the seed's opening); InvalidError when only
    one is given or either cannot be read."""
    if record.position is None and record.pack is None:
        return None
    for what, text in (("position", record.position), ("pack", record.pack)):
        if text is not None and not isinstance(text, str):
            raise InvalidError(f"a record's {what} is text or None, not {reprlib.repr(text)}")
    if record.position is None or record.pack is None:
        given, missing = ("Position", "Pack") if record.pack is None else ("Pack", "Position")
        raise InvalidError(
            f"the record has a [{given} ...] tag but no [{missing} ...] tag: a record that starts "
            "at a position gives both"
        )
    return _read_tag("Position", parse_position, record.position), _read_tag("Pack", parse_pack, record.pack)


def _read_tag(tag: str, parse: Callable[[str], _T], text: str) -> _T:
    try:
        return parse(text)
    except InvalidError as error:
        raise InvalidError(f"the [{tag} ...] tag: {error}") from None


def _colour_number(value: object, what: str) -> int:
    colour = whole_number(value, what, "a colour number (0 red, 1 blue, 2 yellow, 3 green)")
    if colour not in COLOURS:
        raise InvalidError(f"{what} must be a colour number (0 red, 1 blue, 2 yellow, 3 green), not {colour}")
    return colour


def format_record(record: Record) -> str:
    check_record(record)
    result = COLOUR_NAMES[record.result] if record.result is not None else "*"
    lines = [
        f'[Rules "{record.rules}"]',
        f'[Seats "{" ".join(COLOUR_NAMES[colour] for colour in record.seats)}"]',
        f'[Seed "{record.seed}"]',
        f'[Result "{result}"]',
    ]
    if record.first is not None:
        lines.append(f'[First "{COLOUR_NAMES[record.first]}"]')
    for colour, name in sorted(record.players):
        lines.append(f'[{COLOUR_NAMES[colour].capitalize()} "{name}"]')
    start = start_of(record)
    if start is not None:  # written as read back, whatever spacing or order it was given in
        lines.append(f'[Position "{format_position(start[0])}"]')
        lines.append(f'[Pack "{format_pack(start[1])}"]')
    lines.append("")
    lines.extend(f"{COLOUR_LETTERS[colour]} {text}" for colour, text in record.moves)
    return "\n".join(lines) + "\n"


_TAG = re.compile(r'^\[(\w+)\s+"([^"]*)"\]$')
_SEED = re.compile(r"^-?[0-9]+$")
#: The longest seed a record may give (Python reads at most 4,300 digits of a number from text).
MOST_SEED_DIGITS = 4000


def parse_record(text: str) -> Record:
    """Read a record (tags, a blank line, one decision a line); ``#`` starts a comment."""
    tags: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for number, raw in enumerate(check_text(text, "a record").removeprefix("\ufeff").splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        tag = _TAG.match(line)
        if line.startswith("[") and not tag:
            raise InvalidError(f'line {number}: a tag is written [Name "value"], not {reprlib.repr(line)}')
        if tag:
            if moves:
                raise InvalidError(f"line {number}: tags come before the moves")
            if tag.group(1).lower() in tags:  # a second [Seed ...] quietly named another game
                raise InvalidError(f"line {number}: the record has two [{tag.group(1).capitalize()} ...] tags")
            tags[tag.group(1).lower()] = tag.group(2)
            continue
        colour_text, _, move_text = line.partition(" ")
        if not move_text.strip():
            raise InvalidError(f"line {number}: expected COLOUR MOVE, e.g. 'R 1 start-4', not {line!r}")
        try:
            colour = parse_colour(colour_text)
        except InvalidError as error:
            raise InvalidError(f"line {number}: {error}") from None
        moves.append((colour, " ".join(move_text.split())))
    for required in ("rules", "seats", "seed"):
        if required not in tags:
            raise InvalidError(f"the record has no [{required.capitalize()} ...] tag")
    if not _SEED.match(tags["seed"]):  # int() would take "1_000", " 7" and other scripts' digits
        raise InvalidError(f"the seed must be a whole number, not {reprlib.repr(tags['seed'])}")
    if len(tags["seed"]) > MOST_SEED_DIGITS:  # Python reads no longer number from text
        raise InvalidError(f"the seed has {len(tags['seed'])} digits: at most {MOST_SEED_DIGITS}")
    seed = int(tags["seed"])
    seats = tuple(sorted(parse_colour(word) for word in tags["seats"].split()))
    result_text = tags.get("result", "*")
    result = None if result_text == "*" else parse_colour(result_text)
    first = parse_colour(tags["first"]) if "first" in tags else None
    players = tuple((colour, tags[COLOUR_NAMES[colour]]) for colour in COLOURS if COLOUR_NAMES[colour] in tags)
    _check_players(players, seats)
    record = Record(
        tags["rules"], seats, seed, tuple(moves), result, first, tags.get("position"), tags.get("pack"), players
    )
    start = start_of(record)
    if start is None:
        return record
    return record._replace(position=format_position(start[0]), pack=format_pack(start[1]))  # canonical text


__all__ = [
    "CARD_NAMES",
    "Record",
    "format_location",
    "format_move",
    "format_pack",
    "format_position",
    "format_record",
    "parse_location",
    "parse_move",
    "parse_pack",
    "parse_position",
    "parse_record",
    "record_name",
]
