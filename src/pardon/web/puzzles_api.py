"""The puzzles in the browser (``/puzzles``): a position and a card, find the best move.

The same puzzles as ``pardon puzzle`` (``pardon.bots.puzzles``), each with its legal moves in
words and in the shape the board draws them, and the verdict on an answer: right or not,
the best move, the coach's one-line reason, and every move's win chance as the verifying
search found it.  Nothing is stored: a puzzle page needs no game.
"""

from __future__ import annotations

from functools import cache
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, Field

from pardon.bots.coach import reason
from pardon.bots.puzzles import DIFFICULTIES, Puzzle, load_puzzles
from pardon.core.board import COLOUR_NAMES, partner
from pardon.core.cards import card_name
from pardon.core.errors import PardonError
from pardon.core.jsonio import position_to_json
from pardon.core.notation import format_move
from pardon.core.rules import in_words
from pardon.web.api import ApiError
from pardon.web.views import card_text, decision_json

router = APIRouter(prefix="/api")


class PuzzleSummary(BaseModel):
    number: int
    rules: str
    rules_name: str
    difficulty: str = Field(description="easy, medium or hard: by how much the best move beats the second best")
    colour: str = Field(description="the colour to move: the solver's")
    partner: str | None = Field(None, description="the solver's partner, in a partnership game")


class PuzzleList(BaseModel):
    puzzles: list[PuzzleSummary]


class PuzzleMove(BaseModel):
    move: str = Field(description="the move in pardon's notation, as an answer names it")
    text: str = Field(description="the move in words")
    decision: dict[str, Any] = Field(description="the move's steps, as the board animates them")
    after: dict[str, Any] = Field(description="the position after the move")


class PuzzleView(BaseModel):
    number: int
    rules: str
    rules_name: str
    difficulty: str
    colour: str
    card: str | None = Field(description="the card drawn; null when it is chosen from the hand")
    card_text: str | None = Field(description="what the card does, in words")
    hand: list[str] = Field(description="the solver's hand, in a game with hands (the answer plays one of them)")
    position: dict[str, Any]
    moves: list[PuzzleMove]


class MoveChance(BaseModel):
    move: str
    text: str
    chance: float = Field(description="the solver's chance of winning after it, by the verifying search")


class PuzzleVerdict(BaseModel):
    number: int
    answer: str
    correct: bool
    best: str
    best_text: str
    reason: str = Field(description="the coach's line on why the best move beats the one it is compared with")
    compared_with: str = Field(description="that move in words: yours, or if yours is the best, the second best")
    theme: str
    playouts: int = Field(description="games played out after each move to judge it")
    chances: list[MoveChance] = Field(description="every legal move, best first")


@cache
def _puzzles() -> dict[int, Puzzle]:
    return {puzzle.number: puzzle for puzzle in load_puzzles()}


def _puzzle(number: int) -> Puzzle:
    puzzle = _puzzles().get(number)
    if puzzle is None:
        raise ApiError(404, "no_puzzle", f"there is no puzzle {number}: there are {len(_puzzles())}")
    return puzzle


def _summary(puzzle: Puzzle) -> PuzzleSummary:
    rules, turn = puzzle.game_rules, puzzle.game_position.turn
    return PuzzleSummary(
        number=puzzle.number,
        rules=puzzle.rules,
        rules_name=in_words(rules),
        difficulty=puzzle.difficulty,
        colour=puzzle.colour,
        partner=COLOUR_NAMES[partner(turn)] if rules.partners else None,
    )


@router.get("/puzzles", response_model=PuzzleList, summary="The puzzles, by number")
def puzzles(level: Annotated[str | None, Query(max_length=20)] = None) -> PuzzleList:
    """Every puzzle, or those of one ``level`` (easy, medium or hard)."""
    if level is not None and level not in DIFFICULTIES:
        raise ApiError(422, "invalid_level", f"a level is one of {', '.join(DIFFICULTIES)}, not {level!r}")
    chosen = [puzzle for puzzle in _puzzles().values() if level is None or puzzle.difficulty == level]
    return PuzzleList(puzzles=[_summary(puzzle) for puzzle in chosen])


@router.get("/puzzles/{number}", response_model=PuzzleView, summary="A puzzle: the position, the card, the moves")
def puzzle(number: int) -> PuzzleView:
    """The position to solve, the card (or the hand) and every legal move, in words too."""
    found = _puzzle(number)
    rules, position = found.game_rules, found.game_position
    card = found.card_value
    moves = [
        PuzzleMove(
            move=format_move(position, move),
            text=decision["text"],
            decision=decision,
            after=position_to_json(rules, move.result),
        )
        for move in found.moves()
        for decision in [decision_json(rules, position, move)]
    ]
    return PuzzleView(
        **_summary(found).model_dump(),
        card=card_name(card) if card is not None else None,
        card_text=card_text(rules, card) if card is not None else None,
        hand=[card_name(held) for held in found.hand],
        position=position_to_json(rules, position),
        moves=moves,
    )


@router.get("/puzzles/{number}/answer", response_model=PuzzleVerdict, summary="The verdict on an answer")
def answer(number: int, move: Annotated[str, Query(max_length=200)]) -> PuzzleVerdict:
    """Whether ``move`` (in notation, as the puzzle's moves name them) is the best, and why."""
    found = _puzzle(number)
    rules, position = found.game_rules, found.game_position
    try:
        given = found.parse_answer(move)
    except PardonError as error:
        raise ApiError(422, "invalid_move", str(error)) from None
    best = found.best_move()
    correct = found.is_best(given)
    other = found.second_move() if correct else given  # what the best move is better than
    why = reason(rules, position, best, other, found.chance_of(best) - found.chance_of(other))
    texts = {format_move(position, legal): decision_json(rules, position, legal)["text"] for legal in found.moves()}
    return PuzzleVerdict(
        number=found.number,
        answer=format_move(position, given),
        correct=correct,
        best=found.best,
        best_text=texts.get(found.best, found.best),
        reason=why,
        compared_with=texts.get(format_move(position, other), format_move(position, other)),
        theme=found.theme,
        playouts=found.playouts,
        chances=[MoveChance(move=text, text=texts.get(text, text), chance=chance) for text, chance in found.chances],
    )
