"""The stored puzzles, the test that makes a move clearly best, and ``pardon puzzle``."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from pardon.bots import puzzles as module
from pardon.bots.puzzles import (
    DIFFICULTIES,
    MIN_MOVES,
    Budget,
    Puzzle,
    clearly_best,
    examine,
    load_puzzles,
    paired_interval,
    playout_results,
    theme,
)
from pardon.cli import main
from pardon.core import format_move, legal_moves, parse_position, parse_rules
from pardon.core.state import check_position

PUZZLES = load_puzzles()
STORED = json.loads(module.PUZZLE_PATH.read_text(encoding="utf-8"))


def test_the_package_holds_puzzles_numbered_in_order() -> None:
    assert len(PUZZLES) >= 1
    assert [puzzle.number for puzzle in PUZZLES] == list(range(1, len(PUZZLES) + 1))


@pytest.mark.parametrize("puzzle", PUZZLES, ids=lambda puzzle: f"puzzle{puzzle.number}")
def test_a_stored_puzzle_is_sound(puzzle: Puzzle) -> None:
    rules = parse_rules(puzzle.rules)
    position = parse_position(puzzle.position)
    assert check_position(rules, position) == position
    assert position.winner is None
    moves = legal_moves(rules, position, puzzle.card_value)
    written = [format_move(position, move) for move in moves]
    assert len(set(written)) == len(moves) >= MIN_MOVES
    assert puzzle.best in written and puzzle.best_move() in moves
    assert sorted(written) == sorted(move for move, _ in puzzle.chances)
    chances = [chance for _, chance in puzzle.chances]
    assert puzzle.chances[0][0] == puzzle.best
    assert chances == sorted(chances, reverse=True)
    assert all(0 <= chance <= 1 for chance in chances)
    assert chances[0] - chances[1] >= STORED["settings"]["margin"] - 1e-9
    low, high = puzzle.margin
    assert 0 < low <= chances[0] - chances[1] + 1e-9 <= high + 2e-9
    assert puzzle.difficulty in DIFFICULTIES
    assert puzzle.theme == theme(position, puzzle.best_move())
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
    first = list(module.candidates(1, budget, 1))
    assert first == list(module.candidates(1, budget, 1))
    assert 1 <= len(first) <= 3
    for rules, position, card, source in first:
        assert len(legal_moves(rules, position, card)) >= MIN_MOVES
        assert "decision" in source


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
    status, out, _ = run(capsys, "--number", "1", "--json")
    data = json.loads(out)
    assert data["position"] == puzzle.position and puzzle.best in data["moves"] and data["turn"] == puzzle.colour


def test_the_command_lists_the_puzzles(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "--list")
    assert status == 0 and len(out.splitlines()) == len(PUZZLES)
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
    status, out, _ = run(capsys, "--number", "1", "--answer", wrong, "--json")
    data = json.loads(out)
    assert data["correct"] is False and data["best"] == puzzle.best and len(data["moves"]) == len(puzzle.chances)


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
