"""The ``pardon`` command, run as a real process, on valid and invalid input."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import random
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pardon.cli import _parser
from pardon.core import Game, Pack, format_record, parse_position, record_of
from pardon.core.board import COLOUR_NAMES
from pardon.core.rules import PRESETS, parse_rules


def pardon(*arguments: str, stdin: str | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pardon", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        cwd=cwd,
    )


def position(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rules": "classic",
        "seats": ["red", "yellow"],
        "turn": "red",
        "pawns": {"red": ["S4", "home", "home", 20], "yellow": [25, "start", "S1", "start"]},
    }
    data.update(changes)
    return data


def moves_of(data: object, card: str) -> dict[str, Any]:
    result = pardon("moves", "-", "--card", card, stdin=json.dumps(data))
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    parsed: dict[str, Any] = json.loads(result.stdout)
    return parsed


def test_moves_lists_every_choice_with_its_result() -> None:
    output = moves_of(position(), "5")
    assert output["card"] == "5"
    assert [(move["move"], move["pass"]) for move in output["moves"]] == [("5 20-25", False)]
    result = output["moves"][0]["result"]
    assert result == {
        "rules": "classic",
        "seats": ["red", "yellow"],
        "turn": "yellow",
        "pawns": {"red": ["home", "home", "S4", 25], "yellow": ["S1", "start", "start", "start"]},
    }


def test_moves_after_a_2_keeps_the_turn_and_marks_the_winner() -> None:
    output = moves_of(position(pawns={"red": ["S4", "home", "home", "home"], "yellow": [25, 1, 2, 3]}), "2")
    assert output["moves"] == [
        {
            "move": "2 S4-home",
            "pass": False,
            "result": {
                "rules": "classic",
                "seats": ["red", "yellow"],
                "turn": "red",
                "pawns": {"red": ["home", "home", "home", "home"], "yellow": [25, 3, 2, 1]},
                "winner": "red",
            },
        }
    ]
    forfeit = moves_of(position(pawns={"red": ["S5", "home", "home", "home"], "yellow": [25, 1, 2, 3]}), "2")
    assert [(move["move"], move["pass"], move["result"]["turn"]) for move in forfeit["moves"]] == [
        ("2 pass", True, "red")
    ]


def test_moves_offers_the_pass_of_an_11_whenever_it_is_legal() -> None:
    data = position(pawns={"red": [59, "home", "home", "home"], "yellow": [30, "start", "start", "start"]})
    output = moves_of(data, "11")
    assert [(move["move"], move["pass"]) for move in output["moves"]] == [("11 pass", True), ("11 59x30", False)]


def test_moves_reads_a_file_and_a_rules_object(tmp_path: Path) -> None:
    file = tmp_path / "position.json"
    file.write_text(json.dumps(position(rules={"preset": "classic", "switched_opponent_slides": False})))
    result = pardon("moves", str(file), "--card", "sorry")
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["card"] == "sorry"
    assert output["moves"][0]["result"]["rules"] == {"preset": "classic", "switched_opponent_slides": False}


@pytest.mark.parametrize(
    ("stdin", "card", "words"),
    [
        ("{not json", "5", "not valid JSON"),
        (json.dumps(position(colour="red")), "5", 'unknown key "colour"'),
        (json.dumps(position()), "6", "unknown card"),
        (json.dumps(position(turn="green")), "5", "not playing"),
        (json.dumps(position(rules="classic(pawns=5)")), "5", "pawns"),
        (json.dumps(position(rules="nonesuch")), "5", "unknown rules preset"),
        (json.dumps(position(pawns={"red": [20, 20, "home", "home"], "yellow": [1, 2, 3, 4]})), "5", "two pawns"),
        (json.dumps(position(pawns={"red": [20, "home"], "yellow": [1, 2, 3, 4]})), "5", "has 2 pawns"),
        (json.dumps(position(pawns={"red": [60, "home", "home", "home"], "yellow": [1, 2, 3, 4]})), "5", "no square"),
        (json.dumps(position(pawns={"red": ["20", "home", "home", "home"], "yellow": [1, 2, 3, 4]})), "5", "number"),
        (json.dumps(position(pawns={"red": ["S9", "home", "home", "home"], "yellow": [1, 2, 3, 4]})), "5", "location"),
        (json.dumps(position(seats=["red"])), "5", "not in 'seats'"),
        (json.dumps(position(seats=["red"], pawns={"red": [1, 2, 3, 4]})), "5", "2 to 4"),
        (json.dumps([1, 2]), "5", "JSON object"),
        (json.dumps(position(pawns={"red": ["home"] * 4, "yellow": [1, 2, 3, 4]})), "5", "game is over"),
    ],
)
def test_bad_input_exits_non_zero_with_one_line_on_stderr(stdin: str, card: str, words: str) -> None:
    result = pardon("moves", "-", "--card", card, stdin=stdin)
    assert result.returncode != 0
    assert result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr


def test_a_missing_file_is_one_line_too(tmp_path: Path) -> None:
    result = pardon("moves", str(tmp_path / "nope.json"), "--card", "5")
    assert result.returncode != 0
    assert "cannot read" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_selfplay_writes_a_record_that_replay_checks(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    result = pardon("selfplay", "--rules", "classic", "--players", "2", "--seed", "7", "--record", str(record))
    assert result.returncode == 0, result.stderr
    text = record.read_text()
    assert '[Seed "7"]' in text
    replayed = pardon("replay", "--json", str(record))
    assert replayed.returncode == 0, replayed.stderr
    final = json.loads(replayed.stdout)
    assert final["winner"] in ("red", "yellow")
    assert all(location == "home" for location in final["pawns"][final["winner"]])
    # The same seed gives the same game.
    again = pardon("selfplay", "--players", "2", "--seed", "7")
    assert again.stdout == text


def test_replay_refuses_a_tampered_record(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    pardon("selfplay", "--players", "3", "--seed", "3", "--record", str(record))
    lines = record.read_text().splitlines()
    index = max(number for number, line in enumerate(lines) if line.endswith("pass"))
    colour, card, _ = lines[index].split(" ", 2)
    lines[index] = f"{colour} {card} 12-25"
    record.write_text("\n".join(lines) + "\n")
    result = pardon("replay", "--json", str(record))
    assert result.returncode != 0
    assert "decision" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_play_prints_a_game_with_a_board() -> None:
    result = pardon("play", "--players", "2", "--seed", "5")
    assert result.returncode == 0, result.stderr
    assert "Leader draw" in result.stdout
    assert " wins after " in result.stdout
    assert "[R]" in result.stdout or "[Y]" in result.stdout


def test_play_shows_the_fire_and_ice_in_the_centre_till_a_card_places_them() -> None:
    result = pardon("play", "--rules", "modern", "--players", "2", "--seed", "5")
    assert result.returncode == 0, result.stderr
    boards = result.stdout.split("\n\n")
    assert "*F*" in result.stdout.split("1. ", 1)[1] and "#I#" in result.stdout  # on the board from the start
    assert "*F* the Fire in the centre, for a 2" in result.stdout  # and said in the legend
    assert any("*F*" not in board and ("*R*" in board or "*Y*" in board) for board in boards)  # till placed


def test_rules_lists_presets_and_options() -> None:
    result = pardon("rules")
    assert result.returncode == 0
    assert "classic" in result.stdout and "switched_opponent_slides" in result.stdout
    listed = json.loads(pardon("rules", "--json").stdout)
    assert listed["presets"]["classic"]["deck"] == 45


def test_play_can_draw_the_board_only_at_the_end() -> None:
    every = pardon("play", "--players", "2", "--seed", "5").stdout
    end = pardon("play", "--players", "2", "--seed", "5", "--board", "end").stdout
    none = pardon("play", "--players", "2", "--seed", "5", "--board", "none").stdout
    assert end.count(" >  =  =  o ") == 1 < every.count(" >  =  =  o ")
    assert " >  =  =  o " not in none
    # The same seed plays the same game whatever is drawn.
    numbered = re.compile(r"^ *\d+\. ", re.MULTILINE)
    assert len(numbered.findall(none)) == len(numbered.findall(every)) > 10
    assert [line for line in none.splitlines() if numbered.match(line)] == [
        line for line in every.splitlines() if numbered.match(line)
    ]


EVERY_RULES = [*PRESETS, "classic-1939(scoring=1939,doubling=true)"]


@pytest.mark.parametrize("rules", EVERY_RULES)
def test_every_preset_plays_from_the_cli_and_replays_from_its_record(rules: str, tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    players = str(PRESETS[rules].players[-1]) if rules in PRESETS else "3"
    result = pardon(
        "selfplay",
        "--rules",
        rules,
        "--players",
        players,
        "--seed",
        "11",
        "--bots",
        "greedy" if players == "1" else "greedy,random",  # no more levels than seats
        "--record",
        str(record),
    )
    assert result.returncode == 0, result.stderr
    replayed = pardon("replay", "--json", str(record))
    assert replayed.returncode == 0, replayed.stderr
    final = json.loads(replayed.stdout)
    assert final["winner"] in final["seats"]
    if parse_rules(rules).scoring != "none":
        assert set(final["scores"]) == set(final["seats"])


def hand_position(**changes: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "rules": "adult",
        "seats": ["red", "yellow"],
        "turn": "red",
        "pawns": {"red": [4, "start", "start", "start"], "yellow": [34, "start", "start", "start"]},
        "hands": {"red": ["3", "3", "5", "12", "sorry"]},
    }
    data.update(changes)
    return data


def test_moves_in_a_hand_game_name_the_card_and_need_no_card_option() -> None:
    result = pardon("moves", "-", stdin=json.dumps(hand_position()))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["hand"] == ["3", "3", "5", "12", "sorry"]
    assert [move["move"] for move in output["moves"]] == ["3 4-7", "5 4-9", "12 4-16", "sorry start-34"]
    assert output["moves"][0]["result"]["hands"] == {"red": ["3", "5", "12", "sorry"]}
    refused = pardon("moves", "-", "--card", "5", stdin=json.dumps(hand_position()))
    assert refused.returncode == 2 and "leave out --card" in refused.stderr


def test_moves_check_says_whether_a_move_is_legal_and_why_not() -> None:
    """Players who argue about a move ask the rules, not a list: --check answers for one move."""

    def check(data: object, move: str, card: str | None = "5") -> dict[str, Any]:
        given = ("--card", card) if card else ()
        result = pardon("moves", "-", *given, "--check", move, stdin=json.dumps(data))
        assert result.returncode == 0 and result.stderr == "", result.stderr
        answer: dict[str, Any] = json.loads(result.stdout)
        assert answer["move"] == move
        return answer

    legal = check(position(), "5 20")  # a short form, read as the notation reads it
    moves = moves_of(position(), "5")["moves"]
    assert legal["legal"] and legal["as"] == "5 20-25" and not legal["pass"]
    assert legal["result"] == next(move["result"] for move in moves if move["move"] == "5 20-25")
    home = check(position(), "5 S4-home")
    assert not home["legal"] and "a pawn needs the exact count to reach Home" in home["reason"]
    wrong_card = check(position(), "4 20-16")
    assert not wrong_card["legal"] and wrong_card["reason"] == "the card to play is a 5, not a 4"
    in_hand = check(hand_position(), "8 4-12", card=None)
    assert not in_hand["legal"] and "there is no 8 in your hand" in in_hand["reason"]
    assert check(hand_position(), "sorry 34", card=None)["as"] == "sorry start-34"
    for move, words in (("5 nowhere", "cannot read location"), ("10 20", "could mean")):  # bad input, not a ruling
        refused = pardon("moves", "-", "--card", move.split()[0], "--check", move, stdin=json.dumps(position()))
        assert refused.returncode == 2 and refused.stdout == "" and words in refused.stderr, refused.stderr


def test_moves_reads_tokens_and_doubling_and_refuses_what_cannot_be() -> None:
    modern = {
        "rules": "modern",
        "seats": ["red", "yellow"],
        "turn": "red",
        "pawns": {"red": [20, "start", "start"], "yellow": [33, 40, "start"]},
        "tokens": {"fire": None, "ice": {"colour": "yellow", "pawn": 0}},
    }
    output = moves_of(modern, "11")
    assert [move["move"] for move in output["moves"]] == ["11 20-31", "11 start-14", "11 20x40"]
    assert output["moves"][0]["result"]["tokens"] == {"fire": None, "ice": {"colour": "yellow", "pawn": 1}}
    for bad, words in (
        ({**modern, "tokens": {"ice": {"colour": "yellow", "pawn": 7}}}, "index"),
        (
            {
                **modern,
                "rules": "classic",
                "pawns": {"red": [20, "start", "start", "start"], "yellow": [33, 40, "start", "start"]},
            },
            "no Fire and Ice",
        ),
        ({**hand_position(), "hands": {"red": ["3", "3", "5", "12"]}}, "a hand has 5"),
        ({**hand_position(), "doubling": {"stake": 2, "out": []}}, "no doubling"),
    ):
        result = pardon("moves", "-", "--card", "11", stdin=json.dumps(bad))
        assert result.returncode == 2 and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def game_record(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("analyse") / "game.txt"
    made = pardon("selfplay", "--players", "2", "--bots", "greedy,tactician", "--seed", "3", "--record", str(path))
    assert made.returncode == 0, made.stderr
    return path


def test_analyse_prints_the_chances_by_turn_and_the_biggest_mistakes(game_record: Path) -> None:
    result = pardon("analyse", str(game_record), "--top", "2")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""  # no progress bar where stderr is not a terminal
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"Red and Yellow, classic: Yellow won after \d+ cards\.", lines[0])
    assert lines[2].startswith("Win chance by turn (1-")
    assert lines[3].startswith("  Red ") and lines[4].startswith("  Yellow ")
    # the graph ends with how the game ended, not only the chance before the last card
    assert lines[3].endswith("%, lost") and lines[4].endswith("%, won")
    assert "Biggest mistakes of Red and Yellow, judged by expert:" in lines
    assert [line[:4] for line in lines if re.match(r" ?\d+\. Turn ", line)] == [" 1. ", " 2. "]
    assert all(len(line) <= 80 for line in lines)


def test_analyse_json_has_every_decisions_chances_and_the_mistakes(game_record: Path) -> None:
    result = pardon("analyse", str(game_record), "--json", "--seat", "red", "--bot", "tactician", "--top", "4")
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert {key: output[key] for key in ("rules", "seats", "winner", "bot", "coached")} == {
        "rules": "classic",
        "seats": ["red", "yellow"],
        "winner": "yellow",
        "bot": "tactician",
        "coached": ["red"],
    }
    decisions = output["decisions"]
    assert [decision["decision"] for decision in decisions] == list(range(1, len(decisions) + 1))
    for decision in decisions:
        assert set(decision["chances"]) == {"red", "yellow"}
        assert sum(decision["chances"].values()) == pytest.approx(1.0, abs=1e-3)
        assert ("loss" in decision) == (decision["colour"] == "red" and decision["choices"] > 1)
    mistakes = output["mistakes"]
    assert 0 < len(mistakes) <= 4
    assert [mistake["loss"] for mistake in mistakes] == sorted((mistake["loss"] for mistake in mistakes), reverse=True)
    assert set(mistakes[0]) == {
        "decision",
        "turn",
        "colour",
        "card",
        "played",
        "better",
        "played_chance",
        "best_chance",
        "loss",
        "reason",
    }
    assert all(mistake["colour"] == "red" and mistake["loss"] > 0 and mistake["reason"] for mistake in mistakes)


def test_analyse_refuses_what_is_not_a_record_in_one_line(game_record: Path, tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.bin"
    garbage.write_bytes(bytes(range(256)))
    notes = tmp_path / "notes.txt"
    notes.write_text("shopping: eggs, milk\n", encoding="utf-8")
    broken = tmp_path / "broken.txt"
    broken.write_text(game_record.read_text(encoding="utf-8").replace("\nR ", "\nR 12 pass # ", 1), encoding="utf-8")
    for arguments, words in (
        ([str(tmp_path / "missing.txt")], "cannot read"),
        ([str(garbage)], "not UTF-8 text"),
        ([str(notes)], "line 1"),
        ([str(broken)], "decision"),
        ([str(game_record), "--seat", "blue"], "blue is not in this game"),
        ([str(game_record), "--bot", "wizard"], "unknown computer player"),
    ):
        result = pardon("analyse", *arguments)
        assert result.returncode == 2, (arguments, result.stderr)
        assert result.stdout == ""
        assert result.stderr.startswith("pardon analyse: ") and words in result.stderr, result.stderr
        assert len(result.stderr.strip().splitlines()) == 1


def test_replay_reads_a_record_an_editor_saved_with_a_byte_order_mark(game_record: Path, tmp_path: Path) -> None:
    marked = tmp_path / "marked.txt"
    marked.write_bytes(b"\xef\xbb\xbf" + game_record.read_bytes())  # "unknown colour '\ufeff[Rules'"
    assert pardon("replay", "--json", str(marked)).stdout == pardon("replay", "--json", str(game_record)).stdout != ""


def test_replay_refuses_a_damaged_record_in_words_that_say_what_is_wrong(game_record: Path) -> None:
    text = game_record.read_text(encoding="utf-8")
    unclosed = text.replace('"]', '"', 1)  # a tag without its ]: it was "unknown colour '[Rules'"
    seed = re.sub(r'\[Seed "[0-9]+"\]', '[Seed "' + "7" * 5000 + '"]', text)  # Python's own limit was quoted
    for record, words in (
        (unclosed, 'line 1: a tag is written [Name "value"], not'),
        (seed, "the seed has 5000 digits: at most 4000"),
    ):
        result = pardon("replay", "-", stdin=record)
        assert result.returncode == 2 and result.stderr.startswith("pardon replay: ") and words in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
    binary = subprocess.run(
        [sys.executable, "-m", "pardon", "replay", "-"], input=bytes(range(128, 256)), capture_output=True, check=False
    )
    assert binary.returncode == 2
    assert binary.stderr.decode() == "pardon replay: cannot read standard input: it is not UTF-8 text\n"


def test_analyse_and_replay_read_a_record_that_starts_at_a_position(tmp_path: Path) -> None:
    rules = parse_rules("adult")  # hands: the start carries every hand
    start = "R:20,start,start,start Y:14,49,start,start turn:Y hand:R:1,2,8,10,12 hand:Y:1,1,1,2,7"
    game = Game.at(rules, parse_position(start), Pack.new(rules.deck, 5), 5)
    rng = random.Random(5)
    while not game.is_over:
        game.play(rng.choice(game.legal_moves()))
    path = tmp_path / "puzzle.txt"
    path.write_text(format_record(record_of(game)), encoding="utf-8")
    assert f'[Position "{start}"]' in path.read_text(encoding="utf-8")
    replayed = pardon("replay", "--json", str(path))
    assert replayed.returncode == 0, replayed.stderr
    assert game.winner is not None and json.loads(replayed.stdout)["winner"] == COLOUR_NAMES[game.winner]
    analysed = pardon("analyse", str(path), "--bot", "greedy", "--json")
    assert analysed.returncode == 0, analysed.stderr
    assert len(json.loads(analysed.stdout)["decisions"]) == len(game.moves)
    no_pack = "".join(line for line in path.read_text(encoding="utf-8").splitlines(True) if "[Pack" not in line)
    refused = pardon("analyse", "-", stdin=no_pack)
    assert refused.returncode == 2 and "no [Pack ...] tag" in refused.stderr, refused.stderr


def test_hint_says_why_the_best_move_is_best() -> None:
    bump = position(pawns={"red": [23, 50, "start", "start"], "yellow": [28, "start", "start", "start"]})
    result = pardon("hint", "-", "--card", "5", "--bot", "tactician", "--json", stdin=json.dumps(bump))
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert output["moves"][0]["move"] == "5 23-28"
    assert output["reason"] == "Bump the leader: sends Yellow's pawn 10 from Home back to Start"
    text = pardon("hint", "-", "--card", "5", "--bot", "tactician", stdin=json.dumps(bump))
    assert text.stdout.splitlines()[-1] == f"Why 5 23-28: {output['reason']}"


def test_puzzle_chooses_by_level_and_refuses_an_unknown_one() -> None:
    shown = pardon("puzzle", "--level", "hard", "--json")
    assert shown.returncode == 0 and json.loads(shown.stdout)["difficulty"] == "hard"
    listed = pardon("puzzle", "--list", "--level", "hard")
    assert listed.returncode == 0 and all(" hard " in line for line in listed.stdout.splitlines()[1:])
    unknown = pardon("puzzle", "--level", "expert")
    assert unknown.returncode == 2 and unknown.stdout == ""
    assert unknown.stderr.strip() == "pardon puzzle: unknown level 'expert': choose easy, medium, hard"
    both = pardon("puzzle", "--list", "--number", "3")  # the number was ignored: the whole list came
    assert both.returncode == 2 and both.stdout == "" and "give --number or --answer without it" in both.stderr


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--coach-level", "wizard", "unknown computer player 'wizard'"),
        ("--hint-level", "tactician(nonsense=2)", "does not take the options"),
        ("--takeover-level", "mcts(iterations=", "--takeover-level"),
        ("--create-rate", "-3", "--create-rate must be a number from 0 to"),  # was read as no limit at all
        ("--create-rate", "nan", "not nan"),
        ("--join-rate", "-1", "--join-rate must be a number from 0 to"),
        ("--bot-pace", "inf", "--bot-pace must be a number from 0 to 60"),  # computers that never move
        ("--takeover-after", "-5", "--takeover-after must be a number from 0"),
        ("--expire-waiting", "-1", "--expire-waiting must be a number from 0"),  # was read as never
        ("--public-url", "games.example:8000", "--public-url must be an address such as https://"),
        ("--allow-origin", "https://a.example/path", "--allow-origin must be an address"),
        ("--public-url", "https://games.example/pardon", "pardon cannot be served under a path"),  # pages load /static
    ],
)
def test_serve_refuses_a_bad_option_before_it_starts(option: str, value: str, words: str, tmp_path: Path) -> None:
    """A level it cannot make, or a value that would quietly change what it does: one line, and
    nothing made."""
    database = tmp_path / "games.sqlite3"
    result = pardon("serve", "--port", "0", "--db", str(database), option, value)
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert words in result.stderr
    assert not database.exists()


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["sim", "--games", "5", "--out", "{file}"], "--out {file}: it is a file, not a directory"),
        (["sim", "--games", "5", "--out", "{file}/run"], "{file} is a file, not a directory"),
        (["sim", "--games", "5", "--out", "/proc/no-such/run"], "cannot use /proc/no-such"),
        (["sim", "--games", "5", "--jobs", "0", "--out", "{new}"], "--jobs must be 1 or more, not 0"),
        (["report", "{run}", "--out", "{file}"], "--out {file}: it is a file, not a directory"),
        (["report", "{run}", "--out", "/proc/no-such/report"], "cannot use /proc/no-such"),
        (["tournament", "--games", "2", "--out", "{file}"], "--out {file}: it is a file, not a directory"),
        (["tournament", "--games", "2", "--out", "/proc/no-such/run"], "--out /proc/no-such/run: cannot make it"),
        (["tournament", "--games", "2", "--bots", "greedy,wizard", "--out", "{new}"], "unknown computer player"),
        (["tournament", "--games", "0"], "--games must be 1 or more, not 0"),
        (["tournament", "--games", "-4"], "--games must be 1 or more, not -4"),
        (["tournament", "--games", "2", "--jobs", "-2"], "--jobs must be 1 or more, not -2"),
        (["tournament", "--games", "2", "--jobs", "100000"], "--jobs 100000 is more processes than"),
        (["sim", "--games", "5", "--jobs", "100000", "--out", "{new}"], "--jobs 100000 is more processes than"),
        (["play", "--delay", "inf"], "--delay must be 0 or more seconds, not inf"),
        (["play", "--delay", "nan"], "--delay must be 0 or more seconds, not nan"),
        # more levels than seats: the last never played (a shorter list repeats round the table)
        (
            ["sim", "--bots", "random,greedy,tactician,random,greedy", "--games", "3", "--out", "{new}"],
            "4 players, 5 levels",
        ),
        (
            ["selfplay", "--players", "2", "--bots", "random,greedy,tactician", "--record", "{new}"],
            "2 players, 3 levels",
        ),
        (["play", "--players", "3", "--bots", "random,greedy,tactician,random"], "3 players, 4 levels given"),
        (["play", "--bots", " "], "--bots names no computer player"),
        (["sim", "--bots", ",", "--games", "3", "--out", "{new}"], "--bots names no computer player"),
        (["report", "{file}"], "{file} is not a simulation run: it is a file, not a folder"),
    ],
)
def test_what_cannot_be_written_or_played_is_one_line_and_changes_nothing(
    arguments: list[str], words: str, tmp_path: Path
) -> None:
    run = tmp_path / "run"
    assert pardon("sim", "--games", "3", "--jobs", "1", "--quiet", "--out", str(run)).returncode == 0
    file = tmp_path / "a-file.txt"
    file.write_text("kept\n", encoding="utf-8")
    before = sorted(tmp_path.rglob("*"))
    names = {"file": str(file), "run": str(run), "new": str(tmp_path / "new")}
    result = pardon(*(argument.format(**names) for argument in arguments))
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert result.stderr.startswith(f"pardon {arguments[0]}: ") and words.format(**names) in result.stderr
    assert sorted(tmp_path.rglob("*")) == before and file.read_text(encoding="utf-8") == "kept\n"


@pytest.mark.parametrize(
    "command",
    [
        ["selfplay", "--seed", "3"],
        ["play", "--players", "2", "--seed", "3", "--fast", "--board", "none"],
    ],
)
def test_a_level_with_several_options_plays_in_every_command(command: list[str]) -> None:
    # the list was split at every comma: "cannot read computer player 'expectimax(depth=1'"
    result = pardon(*command, "--bots", "expectimax(depth=1,width=2),random")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""


def test_a_short_list_of_levels_repeats_round_the_table() -> None:
    result = pardon("play", "--players", "4", "--bots", "greedy,random", "--seed", "3", "--fast", "--board", "none")
    assert result.returncode == 0, result.stderr
    assert "computer players: Red greedy, Blue random, Yellow greedy, Green random" in result.stdout
    solo = pardon("play", "--rules", "solo", "--seed", "3", "--fast", "--board", "none")  # the default pair, cut
    assert solo.returncode == 0 and "computer players: Red greedy\n" in solo.stdout, solo.stderr


@contextlib.contextmanager
def heeding_ctrl_c() -> Iterator[None]:
    """Commands started here heed Ctrl+C, as in a terminal: a suite started in the background of
    a shell inherits SIGINT ignored, which a command inherits too (and Python then never raises
    KeyboardInterrupt); a signal handled here is the default again in the command."""
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def long_simulation(tmp_path: Path, jobs: int, start_new_session: bool = False) -> subprocess.Popen[str]:
    """``pardon sim`` of far more games than a test waits for, on ``jobs`` processes, heeding Ctrl+C."""
    command = [sys.executable, "-m", "pardon", "sim", "--games", "100000", "--jobs", str(jobs)]
    with heeding_ctrl_c():
        return subprocess.Popen(
            [*command, "--out", str(tmp_path / "run")],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=start_new_session,
        )


def test_ctrl_c_in_a_simulation_ends_the_progress_line_and_says_the_run_resumes(tmp_path: Path) -> None:
    run = long_simulation(tmp_path, jobs=1)
    assert run.stderr is not None
    while run.stderr.read(1) != "[":  # until the progress bar has begun
        pass
    run.send_signal(signal.SIGINT)
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 130
    assert stderr.endswith("\npardon sim: interrupted: the same command resumes it\n")
    assert "Traceback" not in stderr


def test_ctrl_c_in_a_run_on_two_processes_is_one_line_not_a_traceback_from_each(tmp_path: Path) -> None:
    """Ctrl+C in a terminal interrupts every process of the command: the workers leave it to
    the parent, which says the one line (they each printed a KeyboardInterrupt traceback)."""
    run = long_simulation(tmp_path, jobs=2, start_new_session=True)  # its own group, as a terminal's foreground job
    assert run.stderr is not None
    seen = ""
    while "games/s" not in seen:  # until games have come back from the workers
        character = run.stderr.read(1)
        assert character, f"the run ended before it began: {seen}"
        seen += character
    time.sleep(1.0)  # the workers are playing on
    os.killpg(run.pid, signal.SIGINT)  # what Ctrl+C does: the whole group
    _, stderr = run.communicate(timeout=60)
    assert run.returncode == 130
    assert stderr.endswith("\npardon sim: interrupted: the same command resumes it\n")
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr


def test_the_command_to_watch_a_game_again_plays_the_same_game() -> None:
    """It names the computer players too: without them it plays another game."""
    first = pardon("play", "--bots", "tactician,random", "--seed", "5", "--fast", "--board", "none")
    assert first.returncode == 0, first.stderr
    again = first.stdout.splitlines()[-1].removeprefix("Watch this game again with: ")
    assert "--bots tactician,random" in again
    words = shlex.split(again)
    assert words[0] == "pardon"
    second = pardon(*words[1:], "--fast", "--board", "none")
    assert second.stdout == first.stdout


@pytest.mark.parametrize("command", ["moves - --card 5", "hint - --card 5", "replay -", "analyse -"])
def test_a_closed_standard_input_is_one_line(command: str) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pardon", *command.split()],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        stdin=subprocess.DEVNULL,
        preexec_fn=lambda: os.close(0),  # as `pardon moves - <&-` starts it: no standard input at all
    )
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"pardon {command.split(maxsplit=1)[0]}: cannot read standard input: it is closed\n"


@pytest.mark.parametrize("closed", [1, 2])
def test_a_closed_standard_output_plays_on_and_drops_what_is_written(closed: int) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pardon", "play", "--seed", "3", "--fast", "--board", "none"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        preexec_fn=lambda: os.close(closed),  # as `pardon play >&-` starts it: it was a traceback
    )
    assert result.returncode == 0
    assert (result.stdout, result.stderr) == ("", "") if closed == 1 else "Watch this game again" in result.stdout


def test_every_option_of_every_command_says_what_it_does() -> None:
    """`pardon COMMAND --help` documents every option, with its default where it has one."""
    parser = _parser()
    commands = next(action for action in parser._actions if isinstance(action, argparse._SubParsersAction))
    for name, command in commands.choices.items():
        for action in command._actions:
            assert action.help, f"pardon {name} {'/'.join(action.option_strings) or action.dest} has no help"
    sim = pardon("sim", "--help").stdout
    assert re.search(r"--games GAMES\s+games to play \(default 1000\)", sim), sim


@pytest.mark.parametrize(
    "arguments",
    [["sim", "--games", "2", "--quiet", "--out", ""], ["tournament", "--games", "2", "--quiet", "--out", ""]],
)
def test_an_empty_out_is_refused_not_taken_for_this_folder(arguments: list[str], tmp_path: Path) -> None:
    """`--out "$RUN"` with RUN unset: the run would land among the user's files."""
    result = pardon(*arguments, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == f"pardon {arguments[0]}: --out must name a folder (. for this one)\n"
    assert list(tmp_path.iterdir()) == []


def test_serve_with_a_database_whose_driver_is_missing_is_one_line(tmp_path: Path) -> None:
    if importlib.util.find_spec("MySQLdb") is not None:
        pytest.skip("the MySQL driver is installed here")
    result = pardon("serve", "--port", "0", "--db", "mysql://user@127.0.0.1/pardon", cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr == "pardon serve: --db: this database needs the Python package MySQLdb, which is not installed\n"
    )
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("tables", "words"),
    [
        (["CREATE TABLE customers (id INTEGER)"], "it holds another program's tables (customers)"),
        (
            ["CREATE TABLE alembic_version (version_num VARCHAR(32))", "INSERT INTO alembic_version VALUES ('abc123')"],
            "it holds another program's schema (revision abc123, not pardon's)",
        ),
        (  # a newer pardon's: said so, where "another program's" sent its games' keeper to an empty database
            [
                "CREATE TABLE alembic_version (version_num VARCHAR(32))",
                "INSERT INTO alembic_version VALUES ('9999')",
                "CREATE TABLE games (id INTEGER)",
                "CREATE TABLE seats (id INTEGER)",
                "CREATE TABLE decisions (id INTEGER)",
            ],
            "it was made by a newer pardon (schema 9999; this one knows up to 0005): serve it with that version",
        ),
    ],
)
def test_serve_never_writes_into_another_programs_database(tmp_path: Path, tables: list[str], words: str) -> None:
    """A --db mistyped onto another program's SQLite file once had pardon's tables added to it."""
    database = tmp_path / "theirs.sqlite3"
    with sqlite3.connect(database) as connection:
        for statement in tables:
            connection.execute(statement)
    before = database.read_bytes()
    result = pardon("serve", "--port", "0", "--db", str(database))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith(f"pardon serve: will not use the database at {database}: {words}")
    assert result.stderr.endswith("a database of its own\n") and result.stderr.count("\n") == 1
    assert database.read_bytes() == before  # not a byte written


def test_hint_in_a_hand_game_ranks_only_a_card_of_the_hand() -> None:
    hands = position(
        rules="adult",
        pawns={"red": [4, "start", "start", "start"], "yellow": [25, "start", "start", "start"]},
        hands={"red": ["1", "2", "3", "4", "5"], "yellow": []},
    )
    held = pardon("hint", "-", "--card", "3", "--bot", "greedy", "--json", stdin=json.dumps(hands))
    assert held.returncode == 0, held.stderr
    assert [move["move"] for move in json.loads(held.stdout)["moves"]] == ["3 4-7"]
    result = pardon("hint", "-", "--card", "12", "--bot", "greedy", stdin=json.dumps(hands))
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == "pardon hint: Red holds 1, 2, 3, 4, 5: the card comes from the hand, not 12\n"


def test_a_named_player_plays_first_when_asked() -> None:
    """RULES.md §3.8 offers a named player first (the youngest, in 2013): from the command line only
    Red could be, the first seat of a game with leader=named."""
    record = pardon("selfplay", "--first", "yellow", "--seed", "3")
    assert record.returncode == 0, record.stderr
    assert '[First "yellow"]' in record.stdout
    first_move = next(line for line in record.stdout.splitlines() if line and not line.startswith("["))
    assert first_move.startswith("Y ")
    replayed = pardon("replay", "-", stdin=record.stdout)
    assert replayed.returncode == 0, replayed.stderr
    watched = pardon("play", "--first", "G", "--seed", "3", "--fast", "--board", "none")
    assert watched.returncode == 0 and watched.stdout.rstrip().endswith("--seed 3 --first green"), watched.stdout
    refused = pardon("selfplay", "--players", "2", "--first", "blue")
    assert refused.returncode == 2
    assert refused.stderr == "pardon selfplay: --first: Blue is not playing (the seats are Red, Yellow)\n"
    assert pardon("selfplay", "--first", "purple").returncode == 2


def test_selfplay_never_writes_over_a_file_it_did_not_make_without_force(tmp_path: Path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    refused = pardon("selfplay", "--record", str(notes))
    assert refused.returncode == 2 and refused.stderr.startswith(f"pardon selfplay: --record {notes}: the file is")
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    forced = pardon("selfplay", "--record", str(notes), "--force", "--bots", "greedy,random")
    assert forced.returncode == 0, forced.stderr
    record = notes.read_text(encoding="utf-8")
    assert '[Red "greedy"]' in record and '[Blue "random"]' in record  # the levels that played, named


@pytest.mark.parametrize(
    "command",
    [
        "play",
        "tui",
        "moves",
        "selfplay",
        "replay",
        "rules",
        "sim",
        "report",
        "tournament",
        "hint",
        "analyse",
        "puzzle",
        "sheets",
    ],
)
def test_every_command_help_says_what_it_does_with_an_example(command: str) -> None:
    result = pardon(command, "--help")
    assert result.returncode == 0
    _usage, description = result.stdout.split("\n\n")[:2]
    assert len(description.split()) >= 5 and f"examples:\n  pardon {command}" in result.stdout


def test_a_usage_error_is_one_line_as_pardons_own() -> None:
    result = pardon("moves")
    assert result.returncode == 2
    assert result.stderr == "pardon moves: the following arguments are required: file (see pardon moves --help)\n"
    assert pardon("play", "--players", "9").stderr.count("\n") == 1


def test_options_with_a_default_say_it_in_help() -> None:
    assert "(default: every)" in pardon("play", "--help").stdout
    assert "default 4, unless the rules say otherwise" in pardon("selfplay", "--help").stdout


def test_every_command_that_starts_a_game_plays_four_unless_told() -> None:
    # the games to study were once two-player by default, and those to watch or play four
    assert '[Seats "red blue yellow green"]' in pardon("selfplay").stdout
    watched = pardon("play", "--fast", "--seed", "2", "--board", "none").stdout
    assert "computer players: Red greedy, Blue random, Yellow greedy, Green random" in watched
    report = json.loads(pardon("tournament", "--bots", "random,greedy", "--games", "1", "--quiet", "--json").stdout)
    assert report["players"] == 4


def test_a_run_made_with_two_players_resumes_with_two_when_not_told(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert pardon("sim", "--players", "2", "--games", "3", "--jobs", "1", "--quiet", "--out", str(run)).returncode == 0
    resumed = pardon("sim", "--games", "5", "--jobs", "1", "--quiet", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    rows = [json.loads(line) for line in (run / "games.jsonl").read_text().splitlines()]
    assert len(rows) == 5
    fresh = tmp_path / "fresh"
    assert pardon("sim", "--games", "2", "--jobs", "1", "--quiet", "--out", str(fresh)).returncode == 0
    assert json.loads((fresh / "run.json").read_text())["players"] == 4


def test_replay_says_how_the_game_ended_and_rules_how_to_play(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    assert pardon("selfplay", "--record", str(record)).returncode == 0
    said = pardon("replay", str(record)).stdout
    assert said.startswith(f"{record}: every move is legal; ") and " won after " in said
    rules = pardon("rules").stdout
    assert rules.startswith("How to play: ") and max(len(line) for line in rules.splitlines()) <= 100


def test_report_of_a_folder_sim_never_wrote_in_says_so_in_words(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    result = pardon("report", str(tmp_path))
    assert result.returncode == 2 and "[Errno" not in result.stderr and "has no run.json" in result.stderr


def test_puzzle_list_has_a_heading_over_its_columns() -> None:
    assert pardon("puzzle", "--list").stdout.splitlines()[0].split() == ["#", "rules", "level", "found", "by", "theme"]
