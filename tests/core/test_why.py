"""Why a move is not allowed: each refusal names the rule, in a player's words."""

from __future__ import annotations

import pytest

from pardon.core import IllegalError, parse_card, parse_move, parse_position, parse_rules

CLASSIC = parse_rules("classic")
POSITION = "R:20,S2,4,start Y:25,S1,start,start turn:R"


@pytest.mark.parametrize(
    ("card", "text", "reason"),
    [
        ("5", "5 21-26", "you have no pawn at square 21"),
        ("5", "5 S2-home", "needs the exact count to reach Home"),
        ("5", "5 start-4", "only a 1, a 2 or a Sorry! brings a pawn out of Start"),
        ("1", "1 start-4", "your own pawn is on your start exit"),
        ("5", "5 20-26", "with a 5 the pawn on 20 can go to 25 only"),
        ("7", "7 20-23 20-24", "a split 7 moves two different pawns"),
        ("7", "7 start-5 20-26", "a split 7 never brings a pawn out of Start"),
        ("5", "5 20-25 S2-home", "only a 7 can be split"),
        ("sorry", "sorry start-30", "there is no opponent's pawn on square 30"),
        ("sorry", "sorry start-S1", "only pawns on the track can be bumped"),
        ("sorry", "sorry 20-24", "a Sorry! moves a pawn from your Start"),
        ("11", "11 20x4", "you cannot bump or switch your own pawn"),
        ("4", "4 home-S1", "you have no pawn at Home"),
        ("3", "3 pass", "a card that can be used must be used"),
        ("11", "11 pass", "the 11 must be used: move 11 or switch"),
        ("4", "4 Y:25-21", "you can move only your own pawns"),
    ],
)
def test_an_illegal_move_says_which_rule_forbids_it(card: str, text: str, reason: str) -> None:
    position = parse_position(POSITION)
    with pytest.raises(IllegalError) as refused:
        parse_move(CLASSIC, position, parse_card(card), text)
    assert reason in str(refused.value)


def test_home_pawns_are_named() -> None:
    position = parse_position("R:home,S2,4,start Y:25,S1,start,start turn:R")
    with pytest.raises(IllegalError, match="Home never moves again"):
        parse_move(CLASSIC, position, 4, "4 home-S1")
