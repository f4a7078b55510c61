"""Doubling in Point Scoring Sorry (RULES.md §6): a decision before the draw, answered
by every other player."""

from __future__ import annotations

import pytest

from pardon.core import Game, IllegalError, parse_rules, replay
from pardon.core.game import ANSWERING, BEFORE_DRAW, CARD, record_of
from pardon.core.notation import format_move

DOUBLING = parse_rules("classic-1939(scoring=1939,doubling=true)")


def choices(game: Game) -> list[str]:
    return [format_move(game.position, move) for move in game.legal_moves()]


def say(game: Game, text: str) -> None:
    game.play(game.parse(text))


def test_a_player_may_double_before_drawing() -> None:
    game = Game.new(DOUBLING, (0, 1, 2), seed=3, first=0)
    assert game.stage == BEFORE_DRAW and choices(game) == ["continue", "double"]
    with pytest.raises(IllegalError, match="decision to make before the draw"):
        game.draw()
    say(game, "double")
    assert game.stage == ANSWERING and game.decider == 1 and choices(game) == ["accept", "drop"]


def test_an_accepted_double_doubles_the_stake_and_drops_out_who_declined() -> None:
    game = Game.new(DOUBLING, (0, 1, 2), seed=3, first=0)
    say(game, "double")
    say(game, "accept")  # Blue
    say(game, "drop")  # Yellow
    assert game.position.stake == 2 and game.position.out == (2,)
    assert game.stage == CARD and game.awaiting_draw  # once a turn: Red now draws
    game.draw()
    game.play(game.legal_moves()[0])
    while game.turn == 0 and not game.is_over:  # a 2 draws again
        game.draw()
        game.play(game.legal_moves()[0])
    assert game.turn == 1  # Yellow, out of the game, is passed over
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        assert game.decider != 2
        game.play(game.legal_moves()[0])
    points = game.points
    assert points is not None and points[2] == 0
    assert points[game.winner] % 2 == 0  # every score is doubled


def test_when_everyone_drops_out_the_doubler_scores_5() -> None:
    game = Game.new(DOUBLING, (0, 1, 2), seed=3, first=0)
    say(game, "double")
    say(game, "drop")
    say(game, "drop")
    assert game.is_over and game.winner == 0
    assert game.points == {0: 5, 1: 0, 2: 0}


def test_a_double_is_taken_back_with_pop_and_replays_from_the_record() -> None:
    game = Game.new(DOUBLING, (0, 2), seed=4, first=0)
    say(game, "double")
    say(game, "accept")
    assert game.position.stake == 2
    game.pop()
    assert game.stage == ANSWERING and game.position.stake == 1
    say(game, "accept")
    game.draw()
    game.play(game.legal_moves()[0])
    record = record_of(game)
    assert [text for _, text in record.moves][:2] == ["double", "accept"]
    assert replay(record).position == game.position


def test_without_the_option_there_is_nothing_to_decide_before_the_draw() -> None:
    game = Game.new(parse_rules("classic-1939(scoring=1939)"), (0, 2), seed=1, first=0)
    assert game.awaiting_draw and game.stage == CARD


def test_a_doubled_game_counts_two_wins_in_a_match() -> None:
    from pardon.core.scoring import Match

    match = Match(players=(0, 2), games=3)
    declined = Game.new(DOUBLING, (0, 2), seed=4, first=0)
    say(declined, "double")
    say(declined, "drop")  # a double nobody accepts doubles nothing
    assert declined.result is not None and declined.result.multiplier == 1
    match.record(declined.result)
    doubled = Game.new(DOUBLING, (0, 2), seed=4, first=2)
    say(doubled, "double")
    say(doubled, "accept")
    while not doubled.is_over:
        if doubled.awaiting_draw:
            doubled.draw()
        moves = doubled.legal_moves()
        doubled.play(next((move for move in moves if move.card or not move.actions), moves[0]))
    assert doubled.result is not None and doubled.result.multiplier == 2
    match.record(doubled.result)
    assert match.wins()[doubled.result.winner] >= 2
    assert sum(match.wins().values()) == 3
    assert match.points()[0] >= 5
