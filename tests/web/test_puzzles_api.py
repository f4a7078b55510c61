"""The puzzles over REST, as the puzzles page reads them: every puzzle shows, its moves are
the legal ones in words, and an answer is judged with the coach's reason; nothing refused
changes anything, and a refusal says why."""

from __future__ import annotations

from collections import Counter

from fastapi.testclient import TestClient

from pardon.bots.puzzles import load_puzzles


def test_every_puzzle_is_listed_and_shows_its_legal_moves(server: TestClient) -> None:
    puzzles = load_puzzles()
    listed = server.get("/api/puzzles").json()["puzzles"]
    assert [entry["number"] for entry in listed] == [puzzle.number for puzzle in puzzles]
    levels = Counter(entry["difficulty"] for entry in listed)
    for level, count in levels.items():
        assert len(server.get("/api/puzzles", params={"level": level}).json()["puzzles"]) == count
    for puzzle in puzzles:
        shown = server.get(f"/api/puzzles/{puzzle.number}").json()
        assert {move["move"] for move in shown["moves"]} == {move for move, _ in puzzle.chances}
        assert all(move["text"].startswith(puzzle.colour.capitalize()) for move in shown["moves"])
        assert "best" not in shown and "chances" not in shown  # the page must not give the answer away
        assert (shown["card"] is None) == puzzle.is_hand and len(shown["hand"]) == len(puzzle.hand)


def test_an_answer_is_judged_with_the_coachs_reason(server: TestClient) -> None:
    puzzle = load_puzzles()[3]
    right = server.get(f"/api/puzzles/{puzzle.number}/answer", params={"move": puzzle.best}).json()
    assert right["correct"] and right["best"] == puzzle.best and right["reason"]
    assert [entry["move"] for entry in right["chances"]] == [move for move, _ in puzzle.chances]
    wrong_move = puzzle.chances[-1][0]
    wrong = server.get(f"/api/puzzles/{puzzle.number}/answer", params={"move": wrong_move}).json()
    assert not wrong["correct"] and wrong["answer"] == wrong_move and wrong["reason"]


def test_what_is_refused_says_why(server: TestClient) -> None:
    missing = server.get("/api/puzzles/99999")
    assert missing.status_code == 404 and missing.json()["error"] == "no_puzzle"
    level = server.get("/api/puzzles", params={"level": "impossible"})
    assert level.status_code == 422 and "easy, medium, hard" in level.json()["message"]
    puzzle = load_puzzles()[3]
    for garbage in ("", "13 1-2", "x" * 200, "sorry 99"):
        answer = server.get(f"/api/puzzles/{puzzle.number}/answer", params={"move": garbage})
        assert answer.status_code == 422, (garbage, answer.text)
        assert answer.json()["message"] and "Traceback" not in answer.text
    assert server.get(f"/api/puzzles/{puzzle.number}/answer").status_code == 422  # no move at all
