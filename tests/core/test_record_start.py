"""Records of games begun at a position (``Game.at``): the ``Position`` and ``Pack`` tags, the
pack's text, and replaying such a record to the same game."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pardon.core import (
    Game,
    InvalidError,
    Pack,
    Record,
    format_position,
    format_record,
    parse_position,
    parse_record,
    parse_rules,
    record_of,
    replay,
)
from pardon.core.cards import CARDS
from pardon.core.game import replay_steps
from pardon.core.notation import format_pack, parse_pack
from pardon.core.rules import Rules
from pardon.core.state import seats_for

#: Presets with what their positions add to the text: nothing, hands, partners, Fire and Ice, doubling.
PRESETS_AT = {
    "classic": "",
    "adult": "hand:",
    "partners": "",
    "modern": "fire:",
    "classic-1939(scoring=1939,doubling=true)": "stake:",
}


def play_random(game: Game, rng: random.Random, turns: int) -> Game:
    while not game.is_over and game.turns < turns:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        game.play_trusted(moves[rng.randrange(len(moves))])
    return game


def game_at_a_random_position(rules_text: str, seed: int) -> Game:
    """A game begun (``Game.at``) where a seeded random game stood before a draw, then played on
    by random players to its end."""
    rules = parse_rules(rules_text)
    rng = random.Random(seed)
    players = max(rules.players) if rules.partners or seed % 2 else min(rules.players)
    before = play_random(Game.new(rules, seats_for(players), seed), rng, rng.randrange(200)).before_draw
    return play_random(Game.at(rules, before.position, before.pack, before.seed), rng, 10**6)


@pytest.mark.parametrize("rules", PRESETS_AT)
@pytest.mark.parametrize("seed", range(6))
def test_a_record_begun_at_a_position_round_trips_and_replays_to_the_same_game(rules: str, seed: int) -> None:
    game = game_at_a_random_position(rules, seed)
    record = record_of(game)
    assert game.began_at is not None
    assert record.position == format_position(game.began_at[0]) and record.pack == format_pack(game.began_at[1])
    text = format_record(record)
    assert f'[Position "{record.position}"]\n[Pack "{record.pack}"]\n' in text
    assert parse_record(text) == record
    again = replay(parse_record(text))
    assert again.state == game.state  # position, pack, seed and stage
    assert again.moves == game.moves
    assert again.began_at == game.began_at


@pytest.mark.parametrize(("rules", "word"), [(rules, word) for rules, word in PRESETS_AT.items() if word])
def test_what_the_rules_add_to_a_start_is_in_its_record(rules: str, word: str) -> None:
    """Hands, tokens and stakes do appear in the starts above: the round trips carried them."""
    starts = [record_of(game_at_a_random_position(rules, seed)).position or "" for seed in range(6)]
    if word == "stake:":  # a random player doubles now and then: look further for a doubled start
        starts += [record_of(game_at_a_random_position(rules, seed)).position or "" for seed in range(6, 40)]
    assert any(word in start for start in starts)


def test_a_start_with_every_extra_and_partners_replays() -> None:
    rules = parse_rules("partners(hand=5,scoring=1939,doubling=true)")
    position = parse_position(
        "R:20,S2,start,start B:35,start,start,start Y:home,50,start,start G:5,start,start,start turn:B "
        "hand:R:1,2,3,4,5 hand:B:7,8,10,11,12 hand:Y:sorry,1,2,3,4 hand:G:5,7,8,10,11 stake:2"
    )
    pack = Pack((12, 13, 1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13), (5, 7), 2)
    game = play_random(Game.at(rules, position, pack, 9), random.Random(9), 40)
    record = parse_record(format_record(record_of(game)))
    assert parse_position(record.position or "") == position and parse_pack(record.pack or "") == pack
    assert replay(record).state == game.state


def test_steps_of_a_record_begun_at_a_position_start_there() -> None:
    game = game_at_a_random_position("classic", 3)
    assert game.began_at is not None
    steps = replay_steps(record_of(game))
    number, step, _ = next(steps)
    assert number == 1 and step.turns == 0 and step.position == game.began_at[0]


def test_a_game_from_the_seed_writes_no_start_and_its_record_is_unchanged() -> None:
    game = Game.new(parse_rules("classic"), (0, 2), seed=7)
    play_random(game, random.Random(7), 3)
    record = record_of(game)
    assert game.began_at is None and record.position is None and record.pack is None
    text = format_record(record)
    assert text.startswith('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "7"]\n[Result "*"]\n\n')
    assert "Position" not in text and "Pack" not in text
    assert parse_record(text) == record and format_record(parse_record(text)) == text


def test_the_pack_text_names_each_pile_and_the_shuffles() -> None:
    pack = Pack((1, 13, 7), (2, 3), 1)
    assert format_pack(pack) == "draw 1 sorry 7 / discards 2 3 / shuffles 1"
    assert format_pack(Pack((), (), 0)) == "draw / discards / shuffles 0"
    assert parse_pack("  Shuffles 1 /DISCARDS 2 3/ draw 1 Sorry! 7 ") == pack  # any order, case, spacing


@settings(max_examples=200, deadline=None)
@given(
    draw_pile=st.lists(st.sampled_from(CARDS), max_size=55),
    discards=st.lists(st.sampled_from(CARDS), max_size=55),
    shuffles=st.integers(0, 10**6),
)
def test_pack_text_round_trips(draw_pile: list[int], discards: list[int], shuffles: int) -> None:
    pack = Pack(tuple(draw_pile), tuple(discards), shuffles)
    assert parse_pack(format_pack(pack)) == pack


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("draw 1 6 / discards / shuffles 1", "draw pile: unknown card '6'"),
        ("draw 1 / discards seven / shuffles 1", "discard pile: unknown card 'seven'"),
        ("draw 1 / discards ７ / shuffles 1", "unknown card '７'"),
        ("draw 1 / discards / shuffles ١", "number of shuffles is a whole number"),
        ("draw 1 / discards / shuffles ²", "number of shuffles is a whole number"),
        ("draw 1 / discards / shuffles -1", "number of shuffles is a whole number"),
        ("draw 1 / discards / shuffles 1 2", "one whole number"),
        ("draw 1 / discards / shuffles", "one whole number"),
        ("draw 1 / draw 2 / discards / shuffles 1", "gives its draw twice"),
        ("draw 1 / discards / shuffles 1 / shuffles 2", "gives its shuffles twice"),
        ("draw 1 / discards 2", "no shuffles part"),
        ("pile 1 / discards / shuffles 1", "unknown part 'pile'"),
        ("draw 1 // shuffles 1", "an empty part"),
        ("", "an empty part"),
    ],
)
def test_a_bad_pack_text_is_refused_naming_what_is_wrong(text: str, words: str) -> None:
    with pytest.raises(InvalidError, match=words):
        parse_pack(text)


@settings(max_examples=300, deadline=None)
@given(text=st.text(alphabet=st.sampled_from('draw discards shuffles sorry 0123456789/!x ７²-\n"')))
def test_any_pack_text_is_read_or_refused_with_an_invalid_error(text: str) -> None:
    try:
        pack = parse_pack(text)
    except InvalidError:
        return
    assert parse_pack(format_pack(pack)) == pack


TAGS = '[Rules "classic"]\n[Seats "red yellow"]\n[Seed "1"]\n'
START = "R:20,start,start,start Y:40,start,start,start turn:R"
PACK = "draw 5 1 / discards / shuffles 1"


@pytest.mark.parametrize(
    ("tags", "words"),
    [
        (f'[Position "{START}"]\n', r"has a \[Position ...\] tag but no \[Pack ...\] tag"),
        (f'[Pack "{PACK}"]\n', r"has a \[Pack ...\] tag but no \[Position ...\] tag"),
        (f'[Position "{START}"]\n[Pack "draw 6 / discards / shuffles 1"]\n', r"\[Pack ...\] tag: .*unknown card"),
        (f'[Position "R:20 Y:40"]\n[Pack "{PACK}"]\n', r"\[Position ...\] tag: say whose turn"),
        (f'[Position "R:99 Y:40 turn:R"]\n[Pack "{PACK}"]\n', r"\[Position ...\] tag: there is no square 99"),
        (f'[Position "{START}"]\n[Pack "{PACK}"]\n[Pack "{PACK}"]\n', r"two \[Pack ...\] tags"),
    ],
)
def test_a_bad_start_in_a_record_is_refused(tags: str, words: str) -> None:
    with pytest.raises(InvalidError, match=words):
        parse_record(TAGS + tags + "\nR 5 20-25\n")


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"position": START}, "no \\[Pack"),
        ({"pack": PACK}, "no \\[Position"),
        ({"position": START, "pack": 7}, "pack is text or None"),
        ({"position": START, "pack": "draw 6 / discards / shuffles 1"}, "unknown card"),
        ({"position": START, "pack": PACK, "seats": (0, 1)}, "names red blue, but the \\[Position ...\\] tag seats"),
        ({"position": START, "pack": PACK, "first": 2}, "leave out \\[First"),
    ],
)
def test_a_record_value_with_a_bad_start_is_refused_by_replay(changes: dict[str, Any], words: str) -> None:
    record = Record("classic", (0, 2), 1, ((0, "5 20-25"),))._replace(**changes)
    with pytest.raises(InvalidError, match=words):
        replay(record)


@settings(max_examples=300, deadline=None)
@given(
    position=st.text(alphabet=st.sampled_from("RYBG:,0123456789 startShometurnwinerfic١\n")),
    pack=st.text(alphabet=st.sampled_from("drawdiscshuffle 123457sorry/ ²")),
)
def test_garbage_start_tags_raise_an_invalid_error_and_nothing_else(position: str, pack: str) -> None:
    text = f'{TAGS}[Position "{position}"]\n[Pack "{pack}"]\n'
    try:
        record = parse_record(text)
    except InvalidError:
        return
    assert parse_record(format_record(record)) == record


def test_a_record_written_by_hand_is_read_in_its_canonical_form() -> None:
    start = "Y:40,start,start,start r:start,20,start,start turn:r"
    record = parse_record(f'{TAGS}[Pack "shuffles 1 / draw 5 1 / discards"]\n[Position "{start}"]\n\nR 5 20-25\n')
    assert (record.position, record.pack) == (START, PACK)
    assert replay(record).position == parse_position("R:25,start,start,start Y:40,start,start,start turn:Y")


def test_a_finished_position_keeps_whose_turn_it_was() -> None:
    # "winner:R" alone is read as Red's turn too: a winner with another turn writes both
    position = parse_position("R:home,home,home,home Y:40,start,start,start turn:Y")._replace(winner=0)
    assert format_position(position) == "R:home,home,home,home Y:40,start,start,start winner:R turn:Y"
    assert parse_position(format_position(position)) == position
    assert format_position(position._replace(turn=0)) == "R:home,home,home,home Y:40,start,start,start winner:R"


def test_a_start_its_text_cannot_give_back_has_no_record() -> None:
    rules: Rules = parse_rules("classic")
    unsorted = parse_position(START)._replace(pawns=((66, 66, 66, 36), (), (), ()), seats=(0,))
    game = Game.at(rules, unsorted, Pack((5,), (), 1), 1)
    with pytest.raises(InvalidError, match="does not give back exactly"):
        record_of(game)
    game = Game.at(rules, parse_position(START), Pack((5,), (), -1), 1)
    with pytest.raises(InvalidError, match="pack that its text does not give back exactly"):
        record_of(game)
