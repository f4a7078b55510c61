"""The JSON interface (docs/json.md): what is refused, with one line that says why."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest

from pardon.core import AmbiguousError, InvalidError, parse_rules
from pardon.core.jsonio import parse_json, position_from_json, position_to_json

POSITION = (
    '{"rules": "classic", "seats": ["red", "yellow"], "turn": "red", '
    '"pawns": {"red": [20, "S2", "start", "start"], "yellow": [25, "start", "start", "start"]}}'
)


def position(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(POSITION)
    data.update(changes)
    return data


def test_a_position_reads_back_from_its_text() -> None:
    rules, read = position_from_json(parse_json(POSITION))
    assert rules == parse_rules("classic") and position_to_json(rules, read) == {
        **json.loads(POSITION),
        "pawns": {"red": ["S2", 20, "start", "start"], "yellow": [25, "start", "start", "start"]},
    }


@pytest.mark.parametrize(
    "text",
    ["[" * 100_000, '{"a":' * 100_000, '[{"a":' * 50_000, "[" * 100_000 + "]" * 100_000],
    ids=["arrays", "objects", "both", "closed"],
)
def test_json_nested_too_deeply_is_one_clear_error(text: str) -> None:
    with pytest.raises(InvalidError, match="nested too deeply"):
        parse_json(text)


@pytest.mark.parametrize(
    "text",
    [
        POSITION.replace('"turn": "red"', '"turn": "red", "turn": "yellow"'),
        POSITION[:-1] + ', "pawns": {"red": [1, 2, 3, 4], "yellow": [5, 6, 7, 8]}}',
        POSITION.replace('"yellow": [25', '"yellow": [25, "start", "start", "start"], "yellow": [26'),
        '{"rules": {"preset": "classic", "pawns": 3, "pawns": 4}}',
    ],
    ids=["turn", "pawns", "a colour's pawns", "a rules option"],
)
def test_a_key_given_twice_is_ambiguous(text: str) -> None:
    with pytest.raises(AmbiguousError, match="given twice"):
        parse_json(text)


def test_a_colour_given_twice_in_two_spellings_is_ambiguous() -> None:
    pawns = {"red": [20, "S2", "start", "start"], "R": [21, "S2", "start", "start"], "yellow": [25] + ["start"] * 3}
    with pytest.raises(AmbiguousError, match='the pawns of red are given twice, as "red" and "R"'):
        position_from_json(position(pawns=pawns))
    hands = {"red": ["1", "2", "3", "4", "5"], "r": ["1", "2", "3", "4", "5"]}
    adult = position(rules="adult", pawns={"red": [4, "start", "start", "start"], "yellow": [34] + ["start"] * 3})
    with pytest.raises(AmbiguousError, match="the hands of red are given twice"):
        position_from_json({**adult, "hands": hands})
    with pytest.raises(InvalidError, match="drops out only once"):
        doubling = "classic-1939(scoring=1939,doubling=true)"
        position_from_json(position(rules=doubling, doubling={"stake": 1, "out": ["yellow", "Y"]}))


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [
        ("hands", {}, "no hands"),
        ("hands", None, "no hands"),
        ("tokens", {}, "no Fire and Ice"),
        ("tokens", {"fire": None, "ice": None}, "no Fire and Ice"),
        ("doubling", {}, "no doubling"),
        ("doubling", {"stake": 1, "out": []}, "no doubling"),
    ],
)
def test_the_keys_of_rules_not_in_play_must_be_absent(key: str, value: object, words: str) -> None:
    with pytest.raises(InvalidError, match=words):
        position_from_json(position(**{key: value}))


def test_tokens_count_in_the_pawns_as_written_whatever_the_colour_is_called() -> None:
    data = {
        "rules": "modern",
        "seats": ["R", "Y"],
        "turn": "R",
        "pawns": {"R": [20, "start", "start"], "Y": ["start", 33, 40]},
        "tokens": {"fire": {"colour": "R", "pawn": 0}, "ice": {"colour": "y", "pawn": 1}},
    }
    _, read = position_from_json(data)
    assert read.fire == (0, read.pawns[0][0]) and read.ice is not None and read.ice[0] == 2


ADULT = position(rules="adult", pawns={"red": [4, "start", "start", "start"], "yellow": [34] + ["start"] * 3})
MODERN = {
    "rules": "modern",
    "seats": ["red", "yellow"],
    "turn": "red",
    "pawns": {"red": ["start"] * 3, "yellow": ["start"] * 3},
}


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # each said in Python: None, {'red': 1000}, cards 13, {'colour': ...}
        (position(scores={"red": 1000}), 'should be null for this position, not {"red": 1000}'),
        (
            {**ADULT, "hands": {"red": ["sorry"] * 5, "yellow": ["sorry", "1", "1", "1", "2"]}},
            "the hands hold 6 Sorry! cards; the 45-card pack has 4",
        ),
        (
            {**ADULT, "hands": {"red": ["1", "1", "1", "1", "1"], "yellow": ["1", "2", "2", "2", "2"]}},
            "the hands hold 6 1s; the 45-card pack has 5",
        ),
        (
            {**MODERN, "tokens": {"fire": None, "ice": {"colour": "yellow", "pawn": 0, "extra": 1}}},
            'the ice token must be null or {"colour": C, "pawn": I}, not {"colour": "yellow", "pawn": 0, "extra": 1}',
        ),
        (position(seats=["red", "R"]), "'seats' names red twice"),  # was "a colour can be played by one player only"
        (position(seats=["red", None]), "a colour is 'red', 'blue', 'yellow' or 'green', not null"),
        (position(rules=True), "rules must be a preset name or an object of options, not true"),
        (position(extra=None), 'unknown key "extra" in the position'),
    ],
)
def test_a_message_shows_values_as_json_and_cards_as_players_name_them(data: object, message: str) -> None:
    with pytest.raises(InvalidError) as refused:
        position_from_json(data)
    assert message in str(refused.value)


def test_a_value_shown_in_a_message_is_cut_short() -> None:
    with pytest.raises(InvalidError) as refused:
        position_from_json(position(turn=[[[[[[[[[["red"] * 1000]]]]]]]]]))
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize(
    "stdin",
    [
        "[" * 100_000,
        POSITION.replace('"turn": "red"', '"turn": "red", "turn": "yellow"'),
        POSITION.replace('"yellow": [25', '"R": [21, "S2", "start", "start"], "yellow": [25'),
        POSITION[:-1] + ', "tokens": {}}',
        POSITION[:-1] + ', "hands": {}}',
    ],
    ids=["nested", "key twice", "colour twice", "tokens", "hands"],
)
def test_pardon_moves_refuses_bad_json_in_one_line(stdin: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pardon", "moves", "-", "--card", "5"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("pardon moves: ")
    assert "Traceback" not in result.stderr


def test_a_number_too_long_to_read_is_invalid_json() -> None:
    # Python refuses to read an integer of more than 4,300 digits: a plain ValueError came out
    with pytest.raises(InvalidError, match="not valid JSON for this interface"):
        parse_json('{"seats": [' + "1" * 5000 + "]}")


@pytest.mark.parametrize("text", [None, b"{}", 5])
def test_json_that_is_not_text_is_an_invalid_error(text: object) -> None:
    # was a TypeError: the JSON object must be str, bytes or bytearray
    with pytest.raises(InvalidError, match="JSON is read from text"):
        parse_json(text)  # type: ignore[arg-type]
