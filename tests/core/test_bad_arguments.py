"""Wrong arguments to the Python API are the project's own errors, with a message, and change
nothing: a seed that is not a whole number, seats or a first player of the wrong type, rules
that are not a Rules value, a play() of something that is not a Move, an option named "rules"."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from pardon.core import (
    Game,
    IllegalError,
    InvalidError,
    Pack,
    Record,
    format_record,
    legal_moves,
    parse_move,
    parse_position,
    parse_record,
    parse_rules,
    turn,
)
from pardon.core.game import record_of, replay
from pardon.core.jsonio import position_from_json, rules_from_json
from pardon.core.turn import GameState, observe_state, start

CLASSIC = parse_rules("classic")


@pytest.mark.parametrize("seed", [True, 1.5, 1.0, "01", None])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    # "01" used to be accepted and written to the record as Seed "01", which replays as seed 1:
    # another game.
    with pytest.raises(InvalidError, match="seed must be a whole number"):
        Game.new(CLASSIC, (0, 2), seed)  # type: ignore[arg-type]


def test_numpy_integers_are_whole_numbers() -> None:
    game = Game.new(CLASSIC, (np.int64(0), np.int64(2)), np.uint32(7), first=np.int8(2))  # type: ignore[arg-type]
    assert game.state == Game.new(CLASSIC, (0, 2), 7, first=2).state
    assert type(game.seed) is int and all(type(seat) is int for seat in game.position.seats)


def test_a_negative_seed_replays() -> None:
    game = Game.new(CLASSIC, (0, 2), -5)
    for _ in range(30):
        if game.awaiting_draw:
            game.draw()
        game.play(game.legal_moves()[0])
    assert replay(record_of(game)).state == game.state


@pytest.mark.parametrize("seats", [5, "02", (True, 2), (0.0, 2.0), None])
def test_seats_of_the_wrong_type_are_refused(seats: object) -> None:
    with pytest.raises(InvalidError, match="seats must be a tuple of colour numbers"):
        start(CLASSIC, seats, 1)  # type: ignore[arg-type]


def test_a_first_player_of_the_wrong_type_is_refused() -> None:
    with pytest.raises(InvalidError, match="first must be a colour number"):
        Game.new(CLASSIC, (0, 2), 1, first="red")  # type: ignore[arg-type]


def test_rules_given_as_text_are_refused_with_a_hint() -> None:
    with pytest.raises(InvalidError, match="parse_rules"):
        Game.new("classic", (0, 2), 1)  # type: ignore[arg-type]


@pytest.mark.parametrize("thing", [None, "7 pass", (7, ())])
def test_play_of_something_that_is_not_a_move_changes_nothing(thing: object) -> None:
    game = Game.new(CLASSIC, (0, 2), 7)
    game.draw()
    before = game.state
    with pytest.raises(InvalidError, match="play takes a Move"):
        game.play(thing)  # type: ignore[arg-type]
    assert game.state == before and game.turns == 0


def test_an_option_named_rules_in_json_rules_is_an_unknown_option() -> None:
    # was a TypeError from adjust(rules, **changes): "got multiple values for argument 'rules'"
    with pytest.raises(InvalidError, match="unknown rules option 'rules'"):
        rules_from_json({"preset": "classic", "rules": "b"})
    position = {
        "rules": {"rules": "classic"},
        "seats": ["red", "yellow"],
        "turn": "red",
        "pawns": {"red": ["start"] * 4, "yellow": ["start"] * 4},
    }
    with pytest.raises(InvalidError, match="unknown rules option"):
        position_from_json(position)


@pytest.mark.parametrize("colour", [1, 3, 9, -1, np.int64(1)])
def test_observing_a_colour_not_in_play_is_refused(colour: object) -> None:
    # A colour not seated used to get an Observation, whose hand then raised IndexError.
    game = Game.new(parse_rules("adult"), (0, 2), 3)
    with pytest.raises(IllegalError, match="is not playing"):
        game.observe(colour)  # type: ignore[arg-type]
    with pytest.raises(IllegalError, match="is not playing"):
        observe_state(game.rules, game.state, colour)  # type: ignore[arg-type]
    assert game.observe(2).seat == 2


@pytest.mark.parametrize("colour", ["red", None, 0.0, 2.0, True, [0]])
def test_observing_something_that_is_not_a_colour_number_is_an_invalid_error(colour: object) -> None:
    # game.observe(0.0) (0.0 == 0) was an Observation of a float seat; observe_state(rules,
    # state, 9) one of a colour not in play
    game = Game.new(parse_rules("adult"), (0, 2), 3)
    for observing in (game.observe, lambda colour: observe_state(game.rules, game.state, colour)):
        with pytest.raises(InvalidError, match="the colour must be a colour number"):
            observing(colour)
    assert game.observe(np.int64(2)).seat == 2 and type(game.observe(np.int64(2)).seat) is int  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 5, b"classic", ["classic"], CLASSIC])
def test_rules_that_are_not_text_are_an_invalid_error(text: object) -> None:
    # parse_rules(None) was a TypeError from inside the regular expression.
    with pytest.raises(InvalidError, match="rules are text"):
        parse_rules(text)  # type: ignore[arg-type]


@pytest.mark.parametrize("text", [None, 5, b"7 pass"])
def test_notation_that_is_not_text_is_an_invalid_error_and_changes_nothing(text: object) -> None:
    # game.parse(None) was an AttributeError ('NoneType' object has no attribute 'split').
    game = Game.new(CLASSIC, (0, 2), 7)
    game.draw()
    before = game.state
    with pytest.raises(InvalidError, match="text"):
        game.parse(text)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="text"):
        parse_move(CLASSIC, game.position, game.card, text)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="text"):
        parse_position(text)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="text"):
        parse_record(text)  # type: ignore[arg-type]
    assert game.state == before


def _a_state() -> GameState:
    state, _ = start(CLASSIC, (0, 2), 7)
    return state


@pytest.mark.parametrize(
    ("step", "text"),
    [
        (lambda state: turn.legal_moves(CLASSIC, None), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.legal_moves("classic", state), "rules must be a Rules value"),  # type: ignore[arg-type]
        (lambda state: turn.legal_moves(CLASSIC, tuple(state)), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.chance_outcomes(None, state), "rules must be a Rules value"),  # type: ignore[arg-type]
        (lambda state: turn.chance_outcomes(CLASSIC, None), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.draw_next(CLASSIC, [state]), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.draw(CLASSIC, None, 5), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.awaiting_draw(CLASSIC, None), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.awaiting_draw(None, _a_state()), "rules must be a Rules value"),  # type: ignore[arg-type]
        (lambda state: turn.decider(None), "state must be a GameState"),  # type: ignore[arg-type]
        (lambda state: turn.observe_state(None, state, 0), "rules must be a Rules value"),  # type: ignore[arg-type]
        (lambda state: turn.apply(CLASSIC, state, None), "apply takes a Move"),  # type: ignore[arg-type]
        (lambda state: turn.apply(CLASSIC, state, "7 pass"), "apply takes a Move"),  # type: ignore[arg-type]
        (lambda state: turn.apply(None, state, turn.legal_moves(CLASSIC, state)[0]), "rules must be"),  # type: ignore[arg-type]
        (lambda state: turn.apply(CLASSIC, None, None), "state must be a GameState"),  # type: ignore[arg-type]
    ],
)
def test_the_step_functions_refuse_arguments_of_the_wrong_type(step: Callable[[GameState], object], text: str) -> None:
    # each was an AttributeError from inside ('NoneType' object has no attribute 'position', ...)
    state = turn.draw_next(CLASSIC, _a_state())[1]
    with pytest.raises(InvalidError, match=text):
        step(state)


@pytest.mark.parametrize(
    ("record", "text"),
    [
        (None, "a record is a Record"),
        (Record("classic", (0, 2), 1, None), "moves are \\(colour, text\\) pairs"),  # type: ignore[arg-type]
        (Record("classic", (0, 2), 1, (("R", "7 pass"),)), "colour of decision 1 must be a colour number"),  # type: ignore[arg-type]
        (Record("classic", (0, 2), 1, ((0,),)), "decision 1 of the record is not a \\(colour, text\\) pair"),  # type: ignore[arg-type]
        (Record("classic", (0, 2), 1, (), 9), "result must be a colour number"),
        (Record("classic", (0, 2), 1, (), "red"), "result must be a colour number"),  # type: ignore[arg-type]
        (Record("classic", (0, 7), 1, ()), "seat must be a colour number"),
        (Record("classic", "red yellow", 1, ()), "seats are a tuple of colour numbers"),  # type: ignore[arg-type]
    ],
)
def test_a_malformed_record_value_is_an_invalid_error(record: object, text: str) -> None:
    # replay() of these was a TypeError ('NoneType' object is not iterable, tuple indices must
    # be integers) or an IndexError (a result of 9), and format_record() too
    with pytest.raises(InvalidError, match=text):
        replay(record)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match=text):
        format_record(record)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("replace", "text"),
    [
        ({"rules": "classic"}, "rules must be a Rules value"),
        ({"position": "R:20,S2,start,start Y:25,start,start,start turn:R"}, "position must be a Position"),
        ({"pack": None}, "pack must be a Pack"),
        ({"pack": (7, 5)}, "pack must be a Pack"),
        ({"seed": "1"}, "seed must be a whole number"),
        ({"seed": 1.5}, "seed must be a whole number"),
    ],
)
def test_game_at_refuses_arguments_of_the_wrong_type(replace: dict[str, object], text: str) -> None:
    # text for the position or None for the pack was an AttributeError; a seed of 1.5 or "1"
    # was taken (and a record or a reshuffle then followed another seed's text)
    arguments: dict[str, object] = {
        "rules": CLASSIC,
        "position": parse_position("R:20,S2,start,start Y:25,start,start,start turn:R"),
        "pack": Pack.new(45, 1),
        "seed": 1,
    } | replace
    with pytest.raises(InvalidError, match=text):
        Game.at(**arguments)  # type: ignore[arg-type]


POSITION = "R:20,S2,start,start Y:25,start,start,start turn:R"


@pytest.mark.parametrize("card", [6, 9, 0, True, 7.0, "7", None])
def test_legal_moves_of_something_that_is_no_card_is_an_invalid_error(card: object) -> None:
    # a 6 listed "moves" forward 6 and a 0 a pass, as if they were cards; True the moves of a
    # 1 with card=True; None, "7" or 7.0 were a TypeError from inside
    with pytest.raises(InvalidError, match="is not a card"):
        legal_moves(CLASSIC, parse_position(POSITION), card)  # type: ignore[arg-type]


def test_legal_moves_of_a_numpy_card_are_those_of_the_plain_card() -> None:
    position = parse_position(POSITION)
    for card in (np.int64(7), np.uint8(4), np.int8(11)):
        moves = legal_moves(CLASSIC, position, card)  # type: ignore[arg-type]
        assert moves == legal_moves(CLASSIC, position, int(card))
        assert all(type(move.card) is int for move in moves)


@pytest.mark.parametrize(
    ("rules", "position", "text"),
    [(None, POSITION, "rules must be a Rules value"), (CLASSIC, None, "position must be a Position")],
)
def test_legal_moves_and_parse_move_refuse_arguments_of_the_wrong_type(
    rules: object, position: str | None, text: str
) -> None:
    # both were AttributeErrors from inside ('NoneType' object has no attribute 'tokens')
    where = parse_position(position) if position is not None else None
    with pytest.raises(InvalidError, match=text):
        legal_moves(rules, where, 7)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match=text):
        parse_move(rules, where, 7, "7 20-27")  # type: ignore[arg-type]


@pytest.mark.parametrize("card", ["7", 6, 7.0, True])
def test_parse_move_with_a_card_that_is_no_card_is_an_invalid_error(card: object) -> None:
    # card "7" was refused as "the card to play is a 7, not a 7"; a 6 as an IllegalError
    with pytest.raises(InvalidError, match="is not a card"):
        parse_move(CLASSIC, parse_position(POSITION), card, "7 20-27")  # type: ignore[arg-type]
