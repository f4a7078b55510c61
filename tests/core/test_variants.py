"""Scenarios for the editions and variants of docs/rules.md that pardon plays."""

from __future__ import annotations

import dataclasses
import random

import pytest

from pardon.core import Game, InvalidError, legal_moves, parse_card, parse_position, parse_rules
from pardon.core.notation import format_move, format_position
from pardon.core.rules import (
    BOARD_CHOICES,
    LEADER_CHOICES,
    LEAVE_START_CHOICES,
    PARTNER_SPLIT_CHOICES,
    PRESETS,
    SCORING_CHOICES,
    SLIDE_RIDERS,
    Rules,
    in_words,
)
from pardon.core.state import seats_for

MODERN = "modern-no-tokens"
THREE_IN_START = "start,start,start"


def outcomes(position_text: str, card: str, rules: str) -> dict[str, str]:
    position = parse_position(position_text)
    moves = legal_moves(parse_rules(rules), position, parse_card(card))
    return {format_move(position, move): format_position(move.result) for move in moves}


def expect(mapping: dict[str, str]) -> dict[str, str]:
    return {text: format_position(parse_position(position)) for text, position in mapping.items()}


@pytest.mark.parametrize(
    ("card", "landing"),
    [
        ("1", "4"),
        ("2", "5"),
        ("3", "6"),
        ("5", "8"),
        ("7", "10"),
        ("8", "11"),
        ("10", "13"),
        ("11", "14"),
        ("12", "15"),
    ],
)
def test_2013_any_forward_card_leaves_start_counting_the_circle(card: str, landing: str) -> None:
    start = f"R:{THREE_IN_START} Y:{THREE_IN_START} turn:R"
    assert outcomes(start, card, MODERN) == expect(
        {f"{card} start-{landing}": f"R:{landing},start,start Y:{THREE_IN_START} turn:Y"}
    )


def test_2013_leaving_start_onto_the_circle_only_in_the_other_reading() -> None:
    start = f"R:{THREE_IN_START} Y:{THREE_IN_START} turn:R"
    assert outcomes(start, "5", f"{MODERN}(leave_start=forward-circle)") == expect(
        {"5 start-4": f"R:4,start,start Y:{THREE_IN_START} turn:Y"}
    )


def test_2013_the_4_and_the_10s_back_1_never_bring_a_pawn_out() -> None:
    start = f"R:{THREE_IN_START} Y:{THREE_IN_START} turn:R"
    assert outcomes(start, "4", MODERN) == expect({"4 pass": start.replace("turn:R", "turn:Y")})
    assert set(outcomes(start, "10", MODERN)) == {"10 start-13"}


def test_2013_a_split_7_part_never_leaves_start() -> None:
    position = f"R:20,start,start Y:{THREE_IN_START} turn:R"
    assert all("start-" not in text for text in outcomes(position, "7", MODERN) if text != "7 start-10")
    assert "7 start-10" in outcomes(position, "7", MODERN)


def test_2013_leaving_start_bumps_and_slides_like_any_landing() -> None:
    # Red out with a 5 lands on 8, bumping the Yellow pawn there.
    assert outcomes(f"R:{THREE_IN_START} Y:8,start,start turn:R", "5", MODERN) == expect(
        {"5 start-8": f"R:8,start,start Y:{THREE_IN_START} turn:Y"}
    )


def test_2013_sorry_may_instead_move_forward_4() -> None:
    assert outcomes("R:20,start,start Y:25,start,start turn:R", "sorry", MODERN) == expect(
        {
            "sorry start-25": "R:20,25,start Y:start,start,start turn:Y",
            "sorry 20-24": "R:24,start,start Y:25,start,start turn:Y",
        }
    )


def test_2013_a_2_gives_no_extra_draw() -> None:
    assert outcomes(f"R:20,start,start Y:{THREE_IN_START} turn:R", "2", MODERN)["2 20-22"].endswith("turn:Y")


def test_2013_a_pawn_rides_its_own_colour_slide_and_not_another() -> None:
    result = outcomes(f"R:6,start,start Y:{THREE_IN_START} turn:R", "3", MODERN)
    assert result["3 6-9"] == format_position(parse_position(f"R:13,start,start Y:{THREE_IN_START} turn:Y"))
    assert outcomes(f"R:20,start,start Y:{THREE_IN_START} turn:R", "4", MODERN) == expect(
        {"4 20-16": f"R:16,start,start Y:{THREE_IN_START} turn:Y"}
    )


def test_2013_riding_your_own_short_slide_carries_you_past_your_entrance() -> None:
    result = outcomes(f"R:0,start,start Y:{THREE_IN_START} turn:R", "1", MODERN)
    assert result["1 0-1"] == format_position(parse_position(f"R:4,start,start Y:{THREE_IN_START} turn:Y"))
    # ... so that pawn is a whole lap (64 squares) from Home again.
    assert parse_position(result["1 0-1"]).pawns[0][0] == 64


def test_three_pawns_win_with_three_home() -> None:
    result = outcomes("R:home,home,S5 Y:start,start,start turn:R", "1", "classic(pawns=3)")
    assert result == expect({"1 S5-home": "R:home,home,home Y:start,start,start winner:R"})


def test_one_pawn_out_starts_on_the_start_exit() -> None:
    game = Game.new(parse_rules("classic(pawns_out=1)"), seats_for(2), 3)
    assert format_position(game.position).startswith("R:4,start,start,start Y:34,start,start,start")


@pytest.mark.parametrize("deck", [44, 45, 55])
def test_deck_sizes(deck: int) -> None:
    game = Game.new(parse_rules(f"classic(deck={deck})"), seats_for(2), 1)
    assert len(game.pack.draw_pile) == deck


def test_the_1939_preset_uses_the_44_card_pack() -> None:
    assert parse_rules("classic-1939").deck == 44


def test_the_solo_challenge_counts_the_cards_until_every_pawn_is_home() -> None:
    rules = parse_rules("solo")
    game = Game.new(rules, seats_for(1), 9)
    rng = random.Random(9)
    while not game.is_over:
        game.draw()
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    assert game.winner == 0
    assert game.turns > 20
    with pytest.raises(InvalidError, match="solo challenge is played by 1 player"):
        Game.new(rules, seats_for(2), 9)
    # Alone, a Sorry! has no one to bump and an 11 no one to switch with.
    alone = "R:20,start,start,start turn:R"
    assert outcomes(alone, "sorry", "solo") == expect({"sorry pass": alone})
    assert set(outcomes(alone, "11", "solo")) == {"11 20-31"}


def test_a_scoring_game_reports_points_at_the_end() -> None:
    game = Game.new(parse_rules("classic(scoring=1939)"), seats_for(2), 1)
    assert game.points is None
    rng = random.Random(1)
    while not game.is_over:
        game.draw()
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    assert game.points is not None
    assert game.winner is not None
    assert game.points[game.winner] >= 4


def test_every_option_value_has_words_for_the_rules_name() -> None:
    """A rules name for people (the browser's title, the lobby) says each option that differs
    from the nearest preset: every value of every option has its words."""
    choices: dict[str, tuple[object, ...]] = {
        "deck": (44, 45, 55),
        "pawns": (3, 4),
        "pawns_out": (0, 1),
        "hand": (0, 5),
        "slide_riders": SLIDE_RIDERS,
        "leader": LEADER_CHOICES,
        "leave_start": LEAVE_START_CHOICES,
        "partner_split": PARTNER_SPLIT_CHOICES,
        "scoring": SCORING_CHOICES,
        "board": BOARD_CHOICES,
    }
    for field in dataclasses.fields(Rules):
        values = choices.get(field.name, (True, False))
        for value in values:
            for preset in PRESETS.values():
                try:
                    rules = dataclasses.replace(preset, **{field.name: value})
                except InvalidError:
                    continue  # not allowed with this preset (Fire and Ice with partners, ...)
                words = in_words(rules)
                assert "=" not in words and "(" not in words, (field.name, value, words)
    assert in_words(parse_rules("classic-1939(pawns=3)")) == "Classic-1939 with 3 pawns"
    assert in_words(parse_rules("classic(deck=44)")) == "Classic with a 44-card pack"  # the plain board
    assert in_words(parse_rules("classic(board=diamonds)")) == "Classic with the older board's diamonds"
    assert in_words(parse_rules("modern(deck=55)")) == "Modern with a 55-card pack"
    assert in_words(parse_rules("partners(partner_split=any)")) == "Partners with 7s split among any team pawns"
