"""The stored puzzles, the test that makes a move clearly best, and ``pardon puzzle``."""

from __future__ import annotations

import json
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from module_loader import load_module
from pardon.bots import puzzles as module
from pardon.bots.model import sample_game
from pardon.bots.puzzles import (
    DIFFICULTIES,
    FINDERS,
    HAND,
    MIN_MOVES,
    Budget,
    Puzzle,
    clearly_best,
    examine,
    generate,
    grade,
    load_puzzles,
    paired_interval,
    playout_results,
    puzzle_observation,
    read_puzzles,
    theme,
)
from pardon.cli import main
from pardon.core import format_move, legal_moves, parse_position, parse_rules
from pardon.core.cards import NO_CARD
from pardon.core.notation import format_position
from pardon.core.state import check_position

PUZZLES = load_puzzles()
STORED = json.loads(module.PUZZLE_PATH.read_text(encoding="utf-8"))
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_puzzles.py"


def run_margin(number: int) -> float:
    """The margin of the run that made puzzle ``number``."""
    runs = STORED.get("runs") or [{"numbers": [1, len(PUZZLES)], "settings": STORED["settings"]}]
    for run in runs:
        first, last = run["numbers"]
        if first <= number <= last:
            return float(run["settings"]["margin"])
    raise AssertionError(f"no run made puzzle {number}")


def test_the_package_holds_puzzles_numbered_in_order() -> None:
    assert len(PUZZLES) >= 1
    assert [puzzle.number for puzzle in PUZZLES] == list(range(1, len(PUZZLES) + 1))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda puzzle: f"puzzle{puzzle.number}")
def test_a_stored_puzzle_is_sound(puzzle: Puzzle) -> None:
    rules = parse_rules(puzzle.rules)
    position = parse_position(puzzle.position)
    assert check_position(rules, position) == position
    assert position.winner is None
    moves = puzzle.moves()
    written = [format_move(position, move) for move in moves]
    assert len(set(written)) == len(moves) >= MIN_MOVES
    assert puzzle.best in written and puzzle.best_move() in moves
    assert sorted(written) == sorted(move for move, _ in puzzle.chances)
    chances = [chance for _, chance in puzzle.chances]
    assert puzzle.chances[0][0] == puzzle.best
    assert chances == sorted(chances, reverse=True)
    assert all(0 <= chance <= 1 for chance in chances)
    assert chances[0] - chances[1] >= run_margin(puzzle.number) - 1e-9
    low, high = puzzle.margin
    assert 0 < low <= chances[0] - chances[1] + 1e-9 <= high + 2e-9
    assert puzzle.difficulty == grade(puzzle.gain) and puzzle.difficulty in DIFFICULTIES
    assert puzzle.found_by in FINDERS
    assert puzzle.is_hand == bool(rules.hand) and (puzzle.card == HAND) == bool(rules.hand)
    assert puzzle.theme == theme(position, puzzle.best_move(), puzzle.second_move())
    assert Puzzle.from_json(puzzle.to_json()) == puzzle


def test_a_paired_interval_by_hand() -> None:
    mean, low, high = paired_interval([1, 1, 0, 1], [0, 1, 0, 0])
    # differences 1, 0, 0, 1: mean 0.5, sample variance 1/3, standard error sqrt(1/12)
    assert mean == 0.5
    assert high - mean == pytest.approx(1.96 * (1 / 12) ** 0.5)
    assert mean - low == pytest.approx(high - mean)


def test_clearly_best_needs_every_interval_above_zero_and_the_margin() -> None:
    clear = [[1.0] * 30 + [0.0] * 10, [1.0] * 15 + [0.0] * 25, [0.0] * 40]
    verdict = clearly_best(clear, 0.1)
    assert verdict.clear and verdict.best == 0 and verdict.second == 1
    assert verdict.margin[0] > 0
    assert not clearly_best(clear, 0.5).clear  # leads by 0.375 only
    noisy = [[1.0, 0.0] * 20, [0.0, 1.0] * 20, [0.0] * 40]
    assert not clearly_best(noisy, 0.0).clear
    with pytest.raises(ValueError):
        clearly_best([[1.0, 0.0]], 0.1)


def test_examine_keeps_a_move_only_when_the_verification_agrees(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = parse_rules("classic")
    position = parse_position("R:home,S1,27,40 Y:home,home,home,29 turn:R")
    moves = legal_moves(rules, position, 2)
    assert len(moves) == 3
    bump = next(index for index, move in enumerate(moves) if move.bumps)
    calls: list[str] = []

    def fake(
        rules: Any, position: Any, card: int, moves: Any, playouts: int, seed: str, best: int = bump
    ) -> list[list[float]]:
        calls.append(seed)
        rng = random.Random(seed)
        wins = [0.9 if index == best else 0.3 for index in range(len(moves))]
        return [[float(rng.random() < win) for _ in range(playouts)] for win in wins]

    monkeypatch.setattr(module, "playout_results", fake)
    found = examine(rules, position, 2, Budget(step=50, search=100, verify=100), "t", "here", 7)
    assert found.stage == "accepted" and found.puzzle is not None
    puzzle = found.puzzle
    assert puzzle.best == format_move(position, moves[bump]) and puzzle.number == 7 and puzzle.playouts == 100
    assert puzzle.theme == "bump before you are bumped"
    assert [seed.split(":")[-1] for seed in calls] == ["search0", "search1", "verify"]

    def changes_its_mind(rules: Any, position: Any, card: int, moves: Any, playouts: int, seed: str) -> Any:
        return fake(rules, position, card, moves, playouts, seed, 0 if seed.endswith("verify") else bump)

    monkeypatch.setattr(module, "playout_results", changes_its_mind)
    assert examine(rules, position, 2, Budget(step=50, search=100, verify=100), "t").stage == "verified"

    def all_alike(rules: Any, position: Any, card: int, moves: Any, playouts: int, seed: str) -> Any:
        return [[float(index % 2) for index in range(playouts)] for _ in moves]

    monkeypatch.setattr(module, "playout_results", all_alike)
    assert examine(rules, position, 2, Budget(step=50, search=100, verify=100), "t").stage == "searched"


def test_playouts_are_paired_and_reproducible() -> None:
    rules = parse_rules("classic")
    position = parse_position("R:home,S1,27,40 Y:home,home,home,29 turn:R")
    moves = legal_moves(rules, position, 2)
    first = playout_results(rules, position, 2, moves, 4, "seed")
    assert first == playout_results(rules, position, 2, moves, 4, "seed")
    assert [len(row) for row in first] == [4, 4, 4]
    assert all(value in (0.0, 1.0) for row in first for value in row)


def test_the_generator_samples_candidates_from_a_seeded_game() -> None:
    budget = Budget(screen=0.0, per_game=3)
    first = list(module.candidates(5, budget, 1))  # classic, 2 players
    assert first == list(module.candidates(5, budget, 1))
    assert 1 <= len(first) <= 3
    for rules, position, card, source, screen in first:
        assert card is not None and len(legal_moves(rules, position, card)) >= MIN_MOVES
        assert "decision" in source and screen in ("gap", "disagree", "open")


def test_the_sources_mix_the_rules() -> None:
    rules = {rules for rules, _ in module.SOURCES}
    assert {"classic", "classic-1939", "partners", "adult", "modern", "modern-no-tokens"} <= rules
    assert {players for rules, players in module.SOURCES if rules == "classic"} == {2, 3, 4}


def test_a_hand_game_gives_candidates_with_the_hand_and_no_card() -> None:
    index = next(index for index, (rules, _) in enumerate(module.SOURCES) if rules == "adult")
    found = list(module.candidates(index, Budget(screen=0.0, per_game=3), 1))
    assert found
    for rules, position, card, _, _ in found:
        assert card is None and rules.hand == 5
        hands = position.hands
        assert len(hands[position.turn]) == 5  # its own hand, the others hidden
        assert all(not hand for colour, hand in enumerate(hands) if colour != position.turn)
        assert MIN_MOVES <= len(module.puzzle_moves(rules, position, None)) <= Budget.max_moves


def test_an_open_share_draws_candidates_the_evaluation_does_not_pick() -> None:
    screens = [
        candidate.screen
        for index in range(6)
        for candidate in module.candidates(index, Budget(open=1.0, per_game=2, screen=0.05), 3)
    ]
    assert screens and set(screens) <= {"disagree", "open", "gap"} and {"disagree", "open"} & set(screens)
    assert all(
        candidate.screen == "gap" for candidate in module.candidates(0, Budget(open=0.0, per_game=2, screen=0.0), 3)
    )


# ------------------------------------------------------------------ the grading


@pytest.mark.parametrize(
    ("gain", "level"),
    [(0.3, "easy"), (0.12, "easy"), (0.1199, "medium"), (0.08, "medium"), (0.0799, "hard"), (0.05, "hard")],
)
def test_the_difficulty_is_graded_by_the_gain(gain: float, level: str) -> None:
    assert grade(gain) == level


def test_a_gain_at_a_band_edge_is_read_from_the_stored_decimals() -> None:
    assert grade(0.42 - 0.30) == "easy"  # 0.11999999999999997 in floating point
    assert grade(0.3 - 0.22) == "medium"


def test_an_old_puzzle_file_without_found_by_is_read_and_regraded() -> None:
    entries = []
    for puzzle in PUZZLES[:3]:
        entry = puzzle.to_json()
        del entry["found_by"]
        entry["difficulty"] = "medium"  # the old meaning: tactician finds it
        entries.append(entry)
    old = read_puzzles(json.dumps({"settings": {}, "puzzles": entries}))
    for puzzle, before in zip(old, PUZZLES, strict=False):
        assert puzzle.found_by == "tactician" and puzzle.difficulty == grade(puzzle.gain)
        assert puzzle.chances == before.chances and puzzle.best == before.best
    assert module.regrade(old[0]).found_by == PUZZLES[0].found_by


# ------------------------------------------------------------------ other games: hands, partners, Fire and Ice

TINY = Budget(step=20, search=40, verify=40, margin=0.01)
MADE = {
    # the player's own hand is part of the position; the answer names the card
    "hand": (
        "adult",
        "R:home,home,home,S5 B:home,home,home,S3 Y:home,home,home,34 turn:Y hand:Y:4,4,8,8,12",
        None,
        TINY,
    ),
    # a split 7 between the player's pawn and its partner's
    "partners": (
        "partners",
        "R:home,home,home,S3 B:home,home,home,home Y:home,home,home,41 G:home,home,home,46 turn:Y",
        7,
        Budget(step=30, search=60, verify=40, margin=0.01),
    ),
    # Ice on the player's pawn; the 2 may put Fire on a pawn first
    "fire and ice": ("modern", "R:S4,50,start B:home,S3,21 Y:home,home,start turn:B ice:B21", 2, TINY),
}


@pytest.fixture(scope="module")
def made() -> dict[str, Puzzle]:
    found = {}
    for number, (name, (rules_text, text, card, budget)) in enumerate(MADE.items(), 1):
        outcome = examine(parse_rules(rules_text), parse_position(text), card, budget, "t", name, number)
        assert outcome.stage == "accepted" and outcome.puzzle is not None, (name, outcome.notes)
        found[name] = outcome.puzzle
    return found


def test_puzzles_of_other_games_round_trip_through_json(made: dict[str, Puzzle]) -> None:
    for puzzle in made.values():
        again = Puzzle.from_json(json.loads(json.dumps(puzzle.to_json())))
        assert again == puzzle
        position = again.game_position
        assert format_position(parse_position(again.position)) == again.position
        assert again.is_best(again.best_move()) and again.is_best(again.parse_answer(again.best))
        assert not again.is_best(again.parse_answer(again.chances[1][0]))
        assert sorted(format_move(position, move) for move in again.moves()) == sorted(m for m, _ in again.chances)
        assert again.difficulty == grade(again.gain) and again.found_by in FINDERS


def test_a_hand_puzzle_names_the_card_of_the_hand(made: dict[str, Puzzle]) -> None:
    puzzle = made["hand"]
    assert puzzle.card == HAND and puzzle.card_value is None and puzzle.hand == (4, 4, 8, 8, 12)
    assert {move.card for move in puzzle.moves()} == {4, 8, 12}
    assert puzzle.best.split()[0] in {"4", "8", "12"}
    with pytest.raises(Exception, match="no 5 in your hand"):
        puzzle.parse_answer("5 34-39")


def test_a_fire_and_ice_puzzle_keeps_the_tokens(made: dict[str, Puzzle]) -> None:
    puzzle = made["fire and ice"]
    assert puzzle.game_position.ice is not None and "ice:" in puzzle.position
    assert any("fire:" in move for move, _ in puzzle.chances)


def test_the_playouts_of_a_hand_game_deal_the_hidden_hands_afresh() -> None:
    rules = parse_rules("adult")
    position = parse_position(MADE["hand"][1])
    seen = puzzle_observation(rules, position, None)
    deals = {sample_game(seen, random.Random(seed)).position.hands for seed in range(5)}
    assert len(deals) > 1
    assert all(hands[position.turn] == (4, 4, 8, 8, 12) for hands in deals)
    assert all(len(hands[colour]) == 5 for hands in deals for colour in position.seats)


def test_the_playouts_of_fire_and_ice_play_the_fire_before_the_draw() -> None:
    rules = parse_rules("modern")
    position = parse_position("R:S4,50,start B:home,S3,21 Y:home,home,start turn:B fire:B21")
    moves = module.puzzle_moves(rules, position, 5)
    seen = puzzle_observation(rules, position, 5)
    before_draw = 0
    for seed in range(10):
        game = sample_game(seen, random.Random(seed))
        game.play_trusted(moves[0])
        module._play_out(game, module.Evaluator(rules))
        before_draw += sum(1 for move in game.moves if move.card == NO_CARD and move.actions)
    assert before_draw > 0


# ------------------------------------------------------------------ the run: processes, resuming


def test_processes_find_the_same_puzzles_in_the_same_order() -> None:
    budget = Budget(step=10, search=20, verify=20, margin=0.01, per_game=1, max_moves=4)
    alone = generate(budget, 3, range(12), 2)
    assert len(alone) == 2
    assert generate(budget, 3, range(12), 2, jobs=2) == alone
    assert [puzzle.number for puzzle in alone] == [1, 2]


def test_the_script_gives_the_same_file_with_jobs_and_appends(tmp_path: Path) -> None:
    script = load_module(SCRIPT)
    tiny = ["--seed", "3", "--step", "10", "--search", "20", "--verify", "20", "--margin", "0.01"]
    tiny += ["--per-game", "1", "--max-moves", "4", "--wanted", "2"]
    files = []
    for jobs in ("1", "2"):
        out, log = tmp_path / f"out{jobs}.json", tmp_path / f"log{jobs}.jsonl"
        assert script.main([*tiny, "--fresh", "--jobs", jobs, "--out", str(out), "--log", str(log)]) == 0
        files.append(json.loads(out.read_text(encoding="utf-8")))
    assert files[0]["puzzles"] == files[1]["puzzles"] and len(files[0]["puzzles"]) == 2
    assert files[0]["runs"] == [{"numbers": [1, 2], "settings": files[0]["settings"]}]
    # the same command again: resumed from the log, nothing more to do
    out, log = tmp_path / "out1.json", tmp_path / "log1.jsonl"
    assert script.main([*tiny, "--fresh", "--jobs", "1", "--out", str(out), "--log", str(log)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["puzzles"] == files[0]["puzzles"]
    # a run appends to the puzzles in the file: they keep their numbers
    kept = tmp_path / "kept.json"
    kept.write_text(json.dumps({"settings": STORED["settings"], "puzzles": STORED["puzzles"][:2]}), encoding="utf-8")
    more = [*tiny[:-1], "4", "--out", str(kept), "--log", str(tmp_path / "log-more.jsonl")]
    assert script.main(more) == 0
    data = json.loads(kept.read_text(encoding="utf-8"))
    assert data["puzzles"][:2] == STORED["puzzles"][:2]
    assert data["puzzles"][2:] == [{**entry, "number": entry["number"] + 2} for entry in files[0]["puzzles"]]
    assert [run["numbers"] for run in data["runs"]] == [[1, 2], [3, 4]] and data["settings"] == files[0]["settings"]


def test_a_run_leaves_out_a_position_the_set_holds_already() -> None:
    script = load_module(SCRIPT)
    first, second = PUZZLES[:2]
    again = replace(first, number=7, best=first.best)
    assert script._extend([first], [again, second]) == [first, second]


def test_the_script_regrades_an_old_file(tmp_path: Path) -> None:
    script = load_module(SCRIPT)
    old = json.loads(module.PUZZLE_PATH.read_text(encoding="utf-8"))
    for entry in old["puzzles"]:
        entry.pop("found_by", None)
        entry["difficulty"] = "easy"
    old.pop("runs", None)
    out = tmp_path / "old.json"
    out.write_text(json.dumps(old), encoding="utf-8")
    assert script.main(["--regrade", "--out", str(out)]) == 0
    again = json.loads(out.read_text(encoding="utf-8"))
    assert [entry["difficulty"] for entry in again["puzzles"]] == [puzzle.difficulty for puzzle in PUZZLES]
    assert all(entry["found_by"] in FINDERS for entry in again["puzzles"])
    assert again["runs"][0]["numbers"] == [1, len(PUZZLES)]


# ------------------------------------------------------------------ the command


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    status = main(["puzzle", *arguments])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_the_command_shows_a_puzzle(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = PUZZLES[0]
    status, out, _ = run(capsys, "--number", "1")
    assert status == 0
    assert f"{puzzle.colour.capitalize()} to play" in out and "Legal moves:" in out
    assert puzzle.best in out
    assert "[" in out  # the board
    assert f"Position: {puzzle.position}" in out  # the squares the moves name
    assert "a Safety Zone square" in out and "the Fire pawn" not in out  # the legend, no tokens in classic
    status, out, _ = run(capsys, "--number", str(next(p.number for p in PUZZLES if "fire:" in p.position)))
    assert status == 0 and "the Fire pawn" in out
    status, out, _ = run(capsys, "--number", "1", "--json")
    data = json.loads(out)
    assert data["position"] == puzzle.position and puzzle.best in data["moves"] and data["turn"] == puzzle.colour


def test_the_command_lists_the_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--list")
    heading, *rows = out.splitlines()
    assert (
        status == 0 and len(rows) == len(PUZZLES) and heading.split() == ["#", "rules", "level", "found", "by", "theme"]
    )
    assert PUZZLES[-1].theme in out
    status, out, _ = run(capsys, "--list", "--json")
    assert [entry["number"] for entry in json.loads(out)["puzzles"]] == [puzzle.number for puzzle in PUZZLES]


def test_the_command_checks_answers(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = PUZZLES[0]
    status, out, _ = run(capsys, "--number", "1", "--answer", puzzle.best)
    assert status == 0 and "right" in out
    wrong = puzzle.chances[1][0]
    status, out, _ = run(capsys, "--number", "1", "--answer", wrong)
    assert status == 0 and "not the best" in out and puzzle.best in out and f"{wrong} <- yours" in out
    assert (
        out.splitlines()[0]
        == f"{wrong}: not the best; {puzzle.best} is. Bump the leader: sends Red's pawn 10 from Home back to Start."
    )  # why, as the coach says it
    status, out, _ = run(capsys, "--number", "1", "--answer", wrong, "--json")
    data = json.loads(out)
    assert data["correct"] is False and data["best"] == puzzle.best and len(data["moves"]) == len(puzzle.chances)
    assert data["reason"] == "Bump the leader: sends Red's pawn 10 from Home back to Start"  # as said in words
    status, out, _ = run(capsys, "--number", "1", "--answer", puzzle.best, "--json")
    assert json.loads(out)["reason"]  # the best: why it beats the second best


def test_short_forms_are_read(capsys: pytest.CaptureFixture[str]) -> None:
    for puzzle in PUZZLES:
        move = puzzle.best_move()
        action = move.actions[0] if len(move.actions) == 1 else None
        if action is None or action.kind == module.SWITCH or move.card == 13:
            continue
        full = puzzle.best.split()
        short = f"{full[0]} {full[1].split('-')[0]}"
        try:
            assert puzzle.parse_answer(short) == move
        except Exception:  # the short form names several moves here
            continue
        status, out, _ = run(capsys, "--number", str(puzzle.number), "--answer", short)
        assert status == 0 and "right" in out
        return
    pytest.skip("no stored puzzle has a one-pawn answer")


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("--answer", "banana 1-2"), "unknown card"),
        (("--answer", f"{PUZZLES[0].card} xx"), "cannot read"),
        (("--number", "100000"), "there is no puzzle 100000"),
    ],
)
def test_bad_answers_are_one_line_errors(
    capsys: pytest.CaptureFixture[str], arguments: tuple[str, ...], message: str
) -> None:
    status, out, err = run(capsys, *arguments)
    assert status == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err and err.startswith("pardon puzzle:")


def test_an_illegal_answer_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    puzzle = PUZZLES[0]
    other = 5 if puzzle.card_value != 5 else 8
    status, _, err = run(capsys, "--number", "1", "--answer", f"{other} 20-25")
    assert status == 2 and "not" in err and len(err.strip().splitlines()) == 1


# ------------------------------------------------------------------ the command: other games, levels


@pytest.fixture()
def made_puzzles(made: dict[str, Puzzle], monkeypatch: pytest.MonkeyPatch) -> list[Puzzle]:
    """The command reads the puzzles made here: 1 hand, 2 partners, 3 Fire and Ice."""
    numbered = [replace(puzzle, number=number) for number, puzzle in enumerate(made.values(), 1)]
    monkeypatch.setattr(module, "load_puzzles", lambda: numbered)
    return numbered


def test_the_command_shows_and_answers_puzzles_of_other_games(
    made_puzzles: list[Puzzle], capsys: pytest.CaptureFixture[str]
) -> None:
    for puzzle in made_puzzles:
        number = str(puzzle.number)
        status, out, _ = run(capsys, "--number", number)
        assert status == 0 and puzzle.best in out and f"--number {number} --answer" in out
        if puzzle.is_hand:
            assert "a card of the hand (4, 4, 8, 8, 12)" in out
        status, out, _ = run(capsys, "--number", number, "--answer", puzzle.best)
        assert status == 0 and "right" in out
        wrong = puzzle.chances[1][0]
        status, out, _ = run(capsys, "--number", number, "--answer", wrong, "--json")
        data = json.loads(out)
        assert status == 0 and data["correct"] is False and data["best"] == puzzle.best
    status, out, _ = run(capsys, "--number", "1", "--json")
    data = json.loads(out)
    assert data["card"] == HAND and data["hand"] == ["4", "4", "8", "8", "12"] and data["found_by"] in FINDERS
    status, _, err = run(capsys, "--number", "1", "--answer", "5 34-39")
    assert status == 2 and "no 5 in your hand" in err and len(err.strip().splitlines()) == 1


def test_the_command_lists_the_finder(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--list", "--json")
    assert status == 0
    assert [entry["found_by"] for entry in json.loads(out)["puzzles"]] == [puzzle.found_by for puzzle in PUZZLES]
    status, out, _ = run(capsys, "--list")
    assert PUZZLES[0].found_by in out.splitlines()[1]  # under the heading


@pytest.mark.parametrize("level", DIFFICULTIES)
def test_a_level_shows_its_first_puzzle_and_lists_its_puzzles(capsys: pytest.CaptureFixture[str], level: str) -> None:
    of_level = [puzzle for puzzle in PUZZLES if puzzle.difficulty == level]
    if not of_level:
        status, out, err = run(capsys, "--level", level)
        assert status == 2 and out == "" and f"no {level} puzzle" in err and len(err.strip().splitlines()) == 1
        return
    status, out, _ = run(capsys, "--level", level)
    assert status == 0 and out.startswith(f"Puzzle {of_level[0].number} (") and f", {level})" in out
    status, out, _ = run(capsys, "--level", level.upper(), "--answer", of_level[0].best)
    assert status == 0 and "right" in out
    status, out, _ = run(capsys, "--list", "--level", level)
    assert status == 0 and [int(line.split()[0]) for line in out.splitlines()[1:]] == [p.number for p in of_level]
    status, out, _ = run(capsys, "--number", str(of_level[0].number), "--level", level, "--json")
    assert status == 0 and json.loads(out)["difficulty"] == level
    other = next((puzzle for puzzle in PUZZLES if puzzle.difficulty != level), None)
    if other is not None:
        status, out, err = run(capsys, "--number", str(other.number), "--level", level)
        assert status == 2 and out == "" and f"puzzle {other.number} is {other.difficulty}, not {level}" in err


def test_a_level_without_puzzles_and_an_unknown_level_are_one_line_errors(
    made_puzzles: list[Puzzle], capsys: pytest.CaptureFixture[str]
) -> None:
    missing = next(level for level in DIFFICULTIES if all(p.difficulty != level for p in made_puzzles))
    for arguments, message in [
        (("--level", missing), f"there is no {missing} puzzle yet"),
        (("--list", "--level", missing), f"there is no {missing} puzzle yet"),
        (("--level", "expert"), "unknown level 'expert': choose easy, medium, hard"),
    ]:
        status, out, err = run(capsys, *arguments)
        assert status == 2 and out == "", arguments
        assert len(err.strip().splitlines()) == 1 and message in err and err.startswith("pardon puzzle:")


def test_a_puzzle_decided_by_where_a_token_goes_or_a_2_first_is_themed_so() -> None:
    # they had been "the quiet move" and "out of Start", where the coach's reason spoke of the token or the 2
    themes = Counter(puzzle.theme for puzzle in PUZZLES)
    assert themes["where the Fire goes"] >= 1 and themes["where the Ice goes"] >= 1 and themes["play the 2 first"] >= 1
    for puzzle in PUZZLES:
        best, second = puzzle.best_move(), puzzle.second_move()
        if best.result.pawns == second.result.pawns and best.result.fire != second.result.fire:
            assert puzzle.theme in ("where the Fire goes", "where the Ice goes"), puzzle.number
