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


@pytest.mark.parametrize(
    ("rules", "text", "reason"),
    [
        ("classic", "7 20-22 30-32 40-43", "a 7 is split between two pawns at most"),
        ("partners(partner_split=any)", "7 20-22 30-32 40-44", "the parts must add up to 7"),
        ("partners(partner_split=any)", "7 20-22 20-23 40-42", "each part of a split 7 moves a different pawn"),
        ("partners(partner_split=any)", "5 20-22 30-33", "only a 7 can be split"),
    ],
)
def test_a_split_among_any_pawns_is_explained_by_its_own_rule(rules: str, text: str, reason: str) -> None:
    position = parse_position(
        "R:20,30,40,start B:start,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    card = 5 if text.startswith("5") else 7
    with pytest.raises(IllegalError) as refused:
        parse_move(parse_rules(rules), position, card, text)
    assert reason in str(refused.value)
    assert "two pawns" not in str(refused.value) or rules == "classic"


def test_a_split_among_three_pawns_is_legal_with_any_split() -> None:
    position = parse_position(
        "R:20,30,40,start B:start,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    move = parse_move(parse_rules("partners(partner_split=any)"), position, 7, "7 20-22 30-32 40-43")
    # Written in another order than legal_moves lists it, the same outcome is found.
    assert sorted((action.origin, action.end) for action in move.actions) == [(28, 25), (38, 36), (48, 46)]


@pytest.mark.parametrize(
    ("red", "card", "text", "reason"),
    [
        # The 2013 Sorry! may move a pawn forward 4: past Home it needs the exact count.
        ("S3,8,start", "sorry", "sorry S3-home", "needs the exact count to reach Home: it is 3 from Home, not 4"),
        # Any forward card leaves Start, counting the circle: the 5 comes out onto 8.
        ("S3,8,start", "5", "5 start-8", "your own pawn is on square 8, where a 5 brings a pawn out"),
        ("S3,4,start", "1", "1 start-4", "your own pawn is on your start exit"),
    ],
)
def test_2013_refusals_name_the_2013_rule(red: str, card: str, text: str, reason: str) -> None:
    position = parse_position(f"R:{red} Y:30,start,start turn:R")
    with pytest.raises(IllegalError) as refused:
        parse_move(parse_rules("modern-no-tokens"), position, parse_card(card), text)
    assert reason in str(refused.value)
