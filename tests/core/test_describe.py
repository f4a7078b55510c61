"""Moves in a player's words: what the log, the terminal and the browser say a move did."""

from __future__ import annotations

import random

import pytest

from pardon.core import Game, legal_moves, parse_position, parse_rules
from pardon.core.cards import NO_CARD
from pardon.core.describe import describe_move

CLASSIC = parse_rules("classic")


def _pass_words(text: str, card: int) -> str:
    position = parse_position(text)
    passes = [move for move in legal_moves(CLASSIC, position, card) if move.is_pass]
    assert len(passes) == 1
    return describe_move(CLASSIC, position, passes[0]).split("  [")[0]


def test_an_11_no_pawn_can_use_is_a_forfeit_not_a_declined_switch() -> None:
    # every pawn in Start: nothing goes forward 11 and nothing can switch
    words = _pass_words("R:start,start,start,start Y:30,start,start,start turn:R", 11)
    assert words == "Red draws an 11 and cannot use it (forfeit)"


def test_an_11_with_only_a_switch_left_is_declined() -> None:
    # the pawn on 1 cannot go forward 11 (it would pass Home) but may switch with Yellow's on 30
    words = _pass_words("R:1,start,start,start Y:30,start,start,start turn:R", 11)
    assert words == "Red draws an 11 and declines the switch"


def test_an_11_with_a_pawn_in_the_safety_zone_and_nobody_on_the_track_is_a_forfeit() -> None:
    words = _pass_words("R:S2,start,start,start Y:start,start,start,start turn:R", 11)
    assert words == "Red draws an 11 and cannot use it (forfeit)"


@pytest.mark.parametrize("preset", ["classic", "partners", "modern", "modern-no-tokens"])
def test_every_passed_11_of_seeded_games_says_decline_exactly_when_a_switch_was_offered(preset: str) -> None:
    rules = parse_rules(preset)
    seen = set()
    for seed in range(6):
        game = Game.new(rules, (0, 1, 2, 3), seed)
        rng = random.Random(seed)
        while not game.is_over and game.turns < 400:
            if game.awaiting_draw:
                game.draw()
            moves = game.legal_moves()
            move = rng.choice(moves)
            if move.card == 11 and move.is_pass and not game.position.hands:
                words = describe_move(rules, game.position, move)
                switched = len(moves) > 1  # only the pass is offered when no switch is possible
                seen.add(switched)
                assert ("declines the switch" in words) == switched, words
                assert ("cannot use it (forfeit)" in words) == (not switched), words
            game.play(move)
    assert seen == {True, False}  # both cases met


def test_two_pawns_of_one_colour_sent_back_are_counted_not_named_twice() -> None:
    # Green's Sorry! lands on Red's pawn on 1 and slides over Red's other pawn on 3
    position = parse_position(
        "R:1,3,start,start B:start,start,start,start Y:25,start,start,start G:S2,49,start,start turn:G"
    )
    [move] = [move for move in legal_moves(CLASSIC, position, 13) if len(move.bumps) == 2]
    words = describe_move(CLASSIC, position, move).split("  [")[0]
    assert words == "Green plays a Sorry!: Start to 1, slides to 4 (sends 2 of Red's pawns back to Start)"


def test_partners_win_together_in_the_words_of_the_winning_move() -> None:
    rules = parse_rules("partners")
    game = Game.new(rules, (0, 1, 2, 3), 7)
    rng = random.Random(7)
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        move = rng.choice(moves)
        if move.result.winner is not None:
            words = describe_move(rules, game.position, move).split("  [")[0]
            assert words.endswith(". Red and Yellow win!") or words.endswith(". Blue and Green win!"), words
            return
        game.play(move)
    raise AssertionError("the game ended without a winning move")


def test_a_partner_who_dropped_out_of_a_double_does_not_win_with_the_side() -> None:
    rules = parse_rules("partners(scoring=1939,doubling=true)")
    board = "R:home,home,home,S5 B:20,start,start,start Y:home,home,home,home G:30,start,start,start turn:R"
    position = parse_position(board)
    [win] = [move for move in legal_moves(rules, position, 1) if move.result.winner is not None]
    assert describe_move(rules, position, win).split("  [")[0].endswith(". Red and Yellow win!")
    dropped = parse_position(f"{board} stake:2 out:Y")
    [win] = [move for move in legal_moves(rules, dropped, 1) if move.result.winner is not None]
    assert describe_move(rules, dropped, win).split("  [")[0].endswith(". Red wins!")


def _switch_words(text: str, notation: str, rules: str = "classic") -> str:
    position = parse_position(text)
    game_rules = parse_rules(rules)
    for move in legal_moves(game_rules, position, 11):
        words, shown = describe_move(game_rules, position, move).split("  [")
        if shown == f"{notation}]":
            return words
    raise AssertionError(f"no move {notation}")


def test_a_switched_pawn_that_rides_a_slide_is_said_to_slide() -> None:
    # Red's pawn on 34 lands on Green's 54, the start of a slide Red rides, and ends on 58
    words = _switch_words("G:54,start,start,start R:34,start,start,start turn:G", "11 54x34")
    assert words == "Green plays an 11: switches 54 with Red on 34, Red slides to 58"
    assert "slides" not in _switch_words(
        "G:54,start,start,start R:34,start,start,start turn:G", "11 54x34", "classic(switched_opponent_slides=false)"
    )


def test_a_pawn_swept_by_a_switched_pawns_slide_is_named_by_its_square() -> None:
    # Yellow's pawn from 40 lands on Red's 9 and slides to 13 over Yellow's own pawn on 11:
    # "sends Yellow back to Start" would read as the pawn that was switched
    words = _switch_words("R:9,start,start,start Y:40,11,start,start turn:R", "11 9x40")
    assert (
        words == "Red plays an 11: switches 9 with Yellow on 40, Yellow slides to 13"
        " (sends Yellow's pawn on 11 back to Start)"
    )
    # switched with the pawn on 11, Red's pawn is there when Yellow's slide goes over it
    words = _switch_words("R:9,start,start,start Y:40,11,start,start turn:R", "11 9x11")
    assert (
        words == "Red plays an 11: switches 9 with Yellow on 11, Yellow slides to 13"
        " (sends its own pawn on 11 back to Start)"
    )


@pytest.mark.parametrize(
    ("preset", "said"),
    [
        ("classic(scoring=1939,doubling=true)", "does not double"),
        ("modern", "leaves the Fire pawn where it is"),
        ("modern(scoring=1939,doubling=true)", "neither doubles nor moves the Fire pawn"),
    ],
)
def test_going_on_to_the_draw_says_what_was_declined(preset: str, said: str) -> None:
    """Doubling games logged "Red goes on" before every turn, for every player, never explained."""
    rules = parse_rules(preset)
    game = Game.new(rules, (0, 2), 3)
    rng = random.Random(3)
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        empty = [move for move in moves if move.card == NO_CARD and not move.actions]
        if empty:
            player = ("Red", "Blue", "Yellow", "Green")[game.position.turn]
            assert describe_move(rules, game.position, empty[0]).split("  [")[0] == f"{player} {said}"
            return
        game.play(rng.choice(moves))
    raise AssertionError("no choice before the draw was met")
