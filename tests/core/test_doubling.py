"""Doubling in Point Scoring Sorry (docs/rules.md: "Points"): a decision before the draw, answered
by every other player."""

from __future__ import annotations

import pytest

from pardon.core import Game, IllegalError, InvalidError, legal_moves, parse_rules, replay
from pardon.core.board import COLOUR_LETTERS
from pardon.core.game import ANSWERING, BEFORE_DRAW, CARD, record_of
from pardon.core.hands import hand_moves
from pardon.core.jsonio import moves_to_json, position_from_json, position_to_json
from pardon.core.notation import format_move, format_position, format_record, parse_position, parse_record
from pardon.core.state import check_position

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


@pytest.mark.parametrize("seats", [(0, 2), (0, 1, 2), (0, 1, 2, 3)], ids=["2p", "3p", "4p"])
def test_a_double_everyone_drops_ends_the_game_cleanly(seats: tuple[int, ...]) -> None:
    game = Game.new(DOUBLING, seats, seed=5, first=0)
    say(game, "double")
    for _ in seats[1:]:
        say(game, "drop")
    assert game.is_over and game.winner == 0 and game.decider == 0
    assert game.legal_moves() == [] and not game.awaiting_draw
    assert game.points == {colour: 5 if colour == 0 else 0 for colour in seats}
    assert game.result is not None and game.result.multiplier == 1
    with pytest.raises(IllegalError, match="game is over"):
        game.draw()
    text = format_record(record_of(game))
    assert text.splitlines()[-len(seats) :] == ["R double", *(f"{COLOUR_LETTERS[colour]} drop" for colour in seats[1:])]
    replayed = replay(parse_record(text))
    assert replayed.position == game.position and replayed.points == game.points
    assert format_record(record_of(replayed)) == text
    assert position_from_json(position_to_json(DOUBLING, game.position)) == (DOUBLING, game.position)


def test_dropping_out_of_a_later_double_scores_5_times_the_stake_already_doubled() -> None:
    game = Game.new(DOUBLING, (0, 1, 2), seed=5, first=0)
    say(game, "double")
    say(game, "accept")  # Blue
    say(game, "drop")  # Yellow
    assert game.position.stake == 2
    while game.turn != 1:  # to Blue's turn; Yellow, out, is passed over
        game.draw()
        game.play(game.legal_moves()[0])
    assert game.stage == BEFORE_DRAW
    say(game, "double")
    say(game, "drop")  # Red: Blue is the last player in
    assert game.winner == 1 and game.decider == 1
    assert game.points == {0: 0, 1: 10, 2: 0}
    assert replay(parse_record(format_record(record_of(game)))).position == game.position


def test_a_move_never_gives_the_turn_to_a_player_who_dropped_out() -> None:
    position = parse_position("R:20,start,start,start B:start,start,start,start Y:start,start,start,start turn:R out:B")
    assert [format_position(move.result) for move in legal_moves(DOUBLING, position, 5)] == [
        "R:25,start,start,start B:start,start,start,start Y:start,start,start,start turn:Y out:B"
    ]
    assert {move.result.turn for move in legal_moves(DOUBLING, position, 2)} == {0}  # a 2 draws again
    last = parse_position("R:20,start,start,start B:start,start,start,start Y:30,start,start,start turn:Y out:B")
    assert {move.result.turn for move in legal_moves(DOUBLING, last, 13)} == {0}  # round from Yellow to Red
    data = moves_to_json(DOUBLING, position, 5)
    assert [move["result"]["turn"] for move in data] == ["yellow"]


def test_a_dead_hands_discard_passes_over_a_player_who_dropped_out() -> None:
    rules = parse_rules("adult(scoring=1939,doubling=true)")
    text = "R:S5,home,home,home B:19,start,start,start Y:34,start,start,start turn:R out:B hand:R:3,5,8,12,12"
    moves = hand_moves(rules, parse_position(text))
    assert [move.card for move in moves] == [3, 5, 8, 12]  # nothing can be used: a discard of each card
    assert all(move.is_pass and move.result.turn == 2 for move in moves)


def test_a_position_where_everyone_else_dropped_out_must_be_over() -> None:
    position = parse_position("R:20,start,start,start Y:start,start,start,start turn:R out:Y")
    with pytest.raises(InvalidError, match="every other player dropped out"):
        check_position(DOUBLING, position)
    check_position(DOUBLING, position._replace(winner=0))


def test_the_record_names_who_was_chosen_to_play_first() -> None:
    game = Game.new(DOUBLING, (0, 2), seed=3, first=2)
    record = record_of(game)
    assert record.first == 2 and '[First "yellow"]' in format_record(record)
    assert replay(parse_record(format_record(record))).turn == 2
    assert record_of(Game.new(DOUBLING, (0, 2), seed=3)).first is None
