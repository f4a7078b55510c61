"""Wrong arguments to the Python API are the project's own errors, with a message, and change
nothing: a seed that is not a whole number, seats or a first player of the wrong type, rules
that are not a Rules value, a play() of something that is not a Move, an option named "rules"."""

from __future__ import annotations

import numpy as np
import pytest

from pardon.core import Game, IllegalError, InvalidError, parse_move, parse_position, parse_record, parse_rules
from pardon.core.game import record_of, replay
from pardon.core.jsonio import position_from_json, rules_from_json
from pardon.core.turn import start

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


@pytest.mark.parametrize("colour", [1, 3, 9, -1, "red", None])
def test_observing_a_colour_not_in_play_is_refused(colour: object) -> None:
    # A colour not seated used to get an Observation, whose hand then raised IndexError.
    game = Game.new(parse_rules("adult"), (0, 2), 3)
    with pytest.raises(IllegalError, match="is not playing"):
        game.observe(colour)  # type: ignore[arg-type]
    assert game.observe(2).seat == 2


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
