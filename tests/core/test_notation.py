"""Notation round trips (hypothesis), and the three errors for bad input."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pardon.core import (
    AmbiguousError,
    Game,
    IllegalError,
    InvalidError,
    format_move,
    format_position,
    format_record,
    legal_moves,
    parse_card,
    parse_move,
    parse_position,
    parse_record,
    parse_rules,
    record_of,
)
from pardon.core.cards import CARDS
from pardon.core.game import replay
from pardon.core.notation import Record, find_move, record_name
from pardon.core.state import seats_for

CLASSIC = parse_rules("classic")


def random_game_positions(seed: int, players: int, stop: int) -> Game:
    """A game played ``stop`` turns by random players (or to its end)."""
    game = Game.new(CLASSIC, seats_for(players), seed)
    rng = random.Random(seed)
    while not game.is_over and game.turns < stop:
        game.draw()
        moves = game.legal_moves()
        game.play_trusted(moves[rng.randrange(len(moves))])
    return game


games = st.builds(
    random_game_positions,
    seed=st.integers(0, 10**6),
    players=st.sampled_from([2, 3, 4]),
    stop=st.integers(0, 400),
)


@settings(max_examples=150, deadline=None)
@given(game=games, card=st.sampled_from(CARDS))
def test_every_generated_move_round_trips_through_its_text(game: Game, card: int) -> None:
    position = game.position
    for move in legal_moves(CLASSIC, position, card):
        text = format_move(position, move)
        assert parse_move(CLASSIC, position, card, text) == move
        assert find_move(CLASSIC, position, card, text) == move
        # Every generated move applies: its result is a valid position.
        assert move.result.seats == position.seats


@settings(max_examples=150, deadline=None)
@given(game=games)
def test_positions_round_trip(game: Game) -> None:
    text = format_position(game.position)
    assert parse_position(text) == game.position
    assert format_position(parse_position(text)) == text


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([2, 3, 4]))
def test_records_round_trip(seed: int, players: int) -> None:
    game = random_game_positions(seed, players, 10**6)
    record = record_of(game)
    assert parse_record(format_record(record)) == record


@settings(max_examples=100, deadline=None)
@given(
    game=games,
    card=st.sampled_from(CARDS),
    origin=st.sampled_from(["start", "home", "S1", "S3", "S5", *map(str, range(60))]),
    destination=st.sampled_from(["start", "home", "S1", "S2", "S4", *map(str, range(60))]),
    switch=st.booleans(),
)
def test_a_move_that_is_not_generated_is_rejected(
    game: Game, card: int, origin: str, destination: str, switch: bool
) -> None:
    position = game.position
    text = f"{'sorry' if card == 13 else card} {origin}{'x' if switch else '-'}{destination}"
    legal = legal_moves(CLASSIC, position, card)
    legal_texts = {format_move(position, move) for move in legal}
    if text in legal_texts:
        return
    try:
        move = parse_move(CLASSIC, position, card, text)
    except (IllegalError, AmbiguousError, InvalidError):
        return
    # Accepted text that is not canonical (a split in the other order, say) must still
    # name a generated move.
    assert move in legal


POSITION = "R:20,S2,start,start Y:25,start,start,start turn:R"


@pytest.mark.parametrize(
    ("text", "error", "words"),
    [
        ("", InvalidError, "empty"),
        ("five 20-25", InvalidError, "unknown card"),
        ("5 20-", InvalidError, "cannot read"),
        ("5 99-104", InvalidError, "no square"),
        ("5 Q:20-25", InvalidError, "cannot read"),
        ("7 20-27", IllegalError, "the card to play is a 5"),
        ("5 21-26", IllegalError, "not a legal move"),
        ("5 S2-home", IllegalError, "not a legal move"),
        ("5 pass", IllegalError, "must be used"),
    ],
)
def test_bad_moves_raise_the_right_error(text: str, error: type[Exception], words: str) -> None:
    position = parse_position(POSITION)
    with pytest.raises(error, match=words):
        parse_move(CLASSIC, position, parse_card("5"), text)


def test_short_forms_and_ambiguity() -> None:
    position = parse_position(POSITION)
    assert format_move(position, parse_move(CLASSIC, position, 5, "5 20")) == "5 20-25"
    with pytest.raises(AmbiguousError, match="could mean"):
        parse_move(CLASSIC, position, 10, "10 20")
    assert format_move(position, parse_move(CLASSIC, position, 10, "10 20-19")) == "10 20-19"
    assert format_move(position, parse_move(CLASSIC, position, 13, "sorry 25")) == "sorry start-25"


def test_a_split_may_be_written_in_either_order() -> None:
    position = parse_position("R:20,40,start,start Y:50,start,start,start turn:R")
    move = parse_move(CLASSIC, position, 7, "7 20-23 40-44")
    assert format_move(position, move) == "7 40-44 20-23"
    assert parse_move(CLASSIC, position, 7, "7 40-44 20-23") == move


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("R:20 Y:25 turn:R extra", "cannot read"),
        ("R:20,start Y:25,start", "whose turn"),
        ("Q:20 Y:1 turn:R", "unknown colour"),
        ("R:20,61 Y:1 turn:R", "no square"),
        ("R:20 R:21 turn:R", "listed twice"),
        ("turn:R", "1 to 4"),
    ],
)
def test_bad_positions_are_invalid(text: str, words: str) -> None:
    with pytest.raises(InvalidError, match=words):
        parse_position(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[Rules "classic"]\n[Seats "red yellow"]\n', "Seed"),
        ('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "x"]\n', "whole number"),
        ('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "1"]\n\nQ 5 pass\n', "line 5"),
        ('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "1"]\n\nR\n', "line 5"),
    ],
)
def test_bad_records_are_invalid(text: str, words: str) -> None:
    with pytest.raises(InvalidError, match=words):
        parse_record(text)


def test_a_split_is_read_in_the_order_written_and_matched_by_its_outcome() -> None:
    position = parse_position("R:21,22,S5,S4 Y:start,start,start,start turn:R")
    # 21+3 first, then 22+4: nothing is swept; listed under the other order.
    move = parse_move(CLASSIC, position, 7, "7 21-24 22-26")
    assert format_position(move.result) == "R:S5,S4,28,26 Y:start,start,start,start turn:Y"
    # 22+4 first, then 21+3 slides and sweeps the pawn on 26: another outcome.
    swept = parse_move(CLASSIC, position, 7, "7 22-26 21-24")
    assert format_position(swept.result) == "R:S5,S4,28,start Y:start,start,start,start turn:Y"
    # A split with the same outcome as the whole 7 by one pawn is that move.
    other = parse_position("R:20,23,home,home Y:start,start,start,start turn:R")
    assert format_move(other, parse_move(CLASSIC, other, 7, "7 23-27 20-23")) == "7 20-27"


@pytest.mark.parametrize("text", ["7 20-13", "7 start-4", "5 20-25", "seven", "", "7 20-16 30-27 40-40"])
def test_find_move_answers_none_where_parse_move_refuses(text: str) -> None:
    """``find_move`` reads as ``parse_move`` does, but a text it cannot match gives None (no reason sought)."""
    position = parse_position("red:20,30,start,start yellow:start,start,start,start turn:red")
    with pytest.raises((InvalidError, IllegalError, AmbiguousError)):
        parse_move(CLASSIC, position, 7, text)
    assert find_move(CLASSIC, position, 7, text) is None


@pytest.mark.parametrize("stake", ["²", "³"])
def test_a_stake_in_superscript_digits_is_an_invalid_error(stake: str) -> None:
    # str.isdigit() takes "²" for a digit, int() does not: a plain ValueError came out
    with pytest.raises(InvalidError, match="stake is a whole number"):
        parse_position(f"R:start Y:start turn:R stake:{stake}")


@pytest.mark.parametrize("square", ["١٧", "１７"])
def test_a_square_in_other_scripts_digits_is_not_read(square: str) -> None:
    # "\d" matched any Unicode digit: "１７" (full width) was read as square 17
    with pytest.raises(InvalidError, match="cannot read location"):
        parse_position(f"R:{square},start,start,start Y:start,start,start,start turn:R")


@pytest.mark.parametrize("word", ["hand:R:", "hand:R"])
def test_an_empty_hand_is_refused(word: str) -> None:
    # it was read as hands of nothing: a position unequal to the same one written without it,
    # and format_position wrote it back without the hand
    with pytest.raises(InvalidError, match="expected hand:COLOUR:CARDS"):
        parse_position(f"R:start Y:start turn:R {word}")


@pytest.mark.parametrize(
    ("text", "twice"),
    [
        ("R:start Y:start turn:R turn:Y", "turn twice"),
        ("R:home Y:start winner:R winner:Y", "winner twice"),
        ("R:17 Y:start turn:R fire:R17 fire:R17", "fire twice"),
        ("R:start Y:start turn:R stake:2 stake:4", "stake twice"),
        ("R:start Y:start turn:R hand:R:1,2,3,4,5 hand:red:7,8,10,11,12", "red's hand twice"),
    ],
)
def test_a_part_given_twice_is_refused(text: str, twice: str) -> None:
    # the last one quietly won: "turn:R turn:Y" was Yellow's turn
    with pytest.raises(InvalidError, match=twice):
        parse_position(text)


@pytest.mark.parametrize("move", [None, "7 pass", (7, (), None)])
def test_format_move_of_something_that_is_not_a_move_is_an_invalid_error(move: object) -> None:
    # was an AttributeError ('NoneType' object has no attribute 'card')
    position = parse_position("R:20,S2,start,start Y:25,start,start,start turn:R")
    with pytest.raises(InvalidError, match="format_move takes a Move"):
        format_move(position, move)  # type: ignore[arg-type]


def test_format_move_in_something_that_is_not_a_position_is_an_invalid_error() -> None:
    position = parse_position("R:20,S2,start,start Y:25,start,start,start turn:R")
    move = parse_move(parse_rules("classic"), position, 5, "5 20-25")
    with pytest.raises(InvalidError, match="format_move takes the Position"):
        format_move(None, move)  # type: ignore[arg-type]


@pytest.mark.parametrize("position", [None, "R:start Y:start turn:R"])
def test_format_position_of_something_that_is_not_a_position_is_an_invalid_error(position: object) -> None:
    # was an AttributeError ('NoneType' object has no attribute 'seats')
    with pytest.raises(InvalidError, match="format_position takes a Position"):
        format_position(position)  # type: ignore[arg-type]


RECORD_TAGS = '[Rules "classic"]\n[Seats "red yellow"]\n'


@pytest.mark.parametrize("seed", ["1_000", " 7", "+7", "٣", "７", "7.0"])
def test_a_record_seed_not_written_in_plain_digits_is_refused(seed: str) -> None:
    # int() took "1_000", " 7", "+7" and other scripts' digits: a record read as another text
    with pytest.raises(InvalidError, match="seed must be a whole number"):
        parse_record(f'{RECORD_TAGS}[Seed "{seed}"]\n')


def test_a_negative_record_seed_is_read() -> None:
    assert parse_record(f'{RECORD_TAGS}[Seed "-5"]\n').seed == -5


def test_a_tag_given_twice_is_refused() -> None:
    # the second [Seed ...] quietly won: another game
    with pytest.raises(InvalidError, match=r"line 4: the record has two \[Seed ...\] tags"):
        parse_record(f'{RECORD_TAGS}[Seed "1"]\n[Seed "2"]\n')


# ---------------------------------------------------------------- the players' names


def test_a_record_names_its_players_as_pgn_does_and_reads_them_back() -> None:
    game = Game.new(parse_rules("classic"), (0, 2), 5)
    record = record_of(game)._replace(players=((2, "expectimax"), (0, "Grand-mère")))
    text = format_record(record)
    assert '[Red "Grand-mère"]\n[Yellow "expectimax"]\n' in text  # in colour order, whatever order given
    again = parse_record(text)
    assert again.players == ((0, "Grand-mère"), (2, "expectimax")) and replay(again).position == game.position
    assert format_record(record_of(game)) == format_record(parse_record(format_record(record_of(game))))
    assert "[Red" not in format_record(record_of(game))  # an unnamed record is as before


@pytest.mark.parametrize(
    ("players", "says"),
    [
        (((1, "Ann"),), "names a player for blue, who does not play in it"),
        (((0, "Ann"), (0, "Bob")), "names red's player twice"),
        (((0, 'say "hi"'),), "without quotes"),
        (((0, "a # b"),), "without quotes, '#'"),
        (((0, "two\nlines"),), "line breaks"),
        (((0, "two\u2028lines"),), "line breaks"),  # splitlines ends a line there too: the record broke
        (((0, ""),), "1 to 80 characters"),
        (((0, " Ann"),), "no spaces at its ends"),
        (((0, "x" * 81),), "1 to 80 characters"),
        (((0, 7),), "(colour, name) pairs"),
        ("Ann", "(colour, name) pairs"),
        (((9, "Ann"),), "colour number"),
    ],
)
def test_a_players_name_that_would_not_read_back_is_refused(players: object, says: str) -> None:
    record = Record("classic", (0, 2), 5, ())._replace(players=players)
    with pytest.raises(InvalidError, match=re.escape(says)):
        format_record(record)


def test_a_record_naming_a_colour_not_in_play_is_refused_when_read() -> None:
    with pytest.raises(InvalidError, match="names a player for green, who does not play in it"):
        parse_record('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "1"]\n[Green "Ann"]\n')


def test_any_text_made_a_record_name_reads_back_as_it_was_written() -> None:
    for text, name in [('Mum "the boss" #1', "Mum the boss 1"), ("Ann\u2028Bob\x85", "Ann Bob"), ("\t#\n", "")]:
        assert record_name(text) == name
    game = Game.new(parse_rules("classic"), (0, 2), 5)
    record = record_of(game)._replace(players=((0, record_name("Zoë\u2029 " + "x" * 90)),))
    assert parse_record(format_record(record)).players == record.players


def test_a_switch_is_read_with_a_capital_x_and_a_switch_written_as_a_step_is_shown_how() -> None:
    rules = parse_rules("classic")
    position = parse_position("R:0,start,start,start B:21,start,start,start turn:R")
    assert parse_move(rules, position, 11, "11 0X21") == parse_move(rules, position, 11, "11 0x21")
    with pytest.raises(IllegalError, match="can only switch, written with an x: 11 0x21"):
        parse_move(rules, position, 11, "11 0-21")
    ahead = parse_position("R:20,start,start,start B:40,start,start,start turn:R")
    with pytest.raises(IllegalError, match="can go to 31 only, or switch: 11 20x40"):
        parse_move(rules, ahead, 11, "11 20-40")
