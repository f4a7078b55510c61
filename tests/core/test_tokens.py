"""Fire and Ice (docs/rules.md: "The 2013 edition"), each rule with its exact set of outcomes."""

from __future__ import annotations

import pytest

from pardon.core import Game, IllegalError, legal_moves, parse_card, parse_position, parse_rules
from pardon.core.board import DISTANCE, YELLOW
from pardon.core.cards import Pack
from pardon.core.game import BEFORE_DRAW
from pardon.core.notation import format_move, format_position
from pardon.core.rules import Rules

MODERN = parse_rules("modern")


def outcomes(position_text: str, card: str, rules: Rules = MODERN) -> dict[str, str]:
    position = parse_position(position_text)
    moves = legal_moves(rules, position, parse_card(card))
    return {format_move(position, move): format_position(move.result) for move in moves}


def expect(mapping: dict[str, str]) -> dict[str, str]:
    return {text: format_position(parse_position(position)) for text, position in mapping.items()}


def game_at(position_text: str, seed: int = 1) -> Game:
    return Game.at(MODERN, parse_position(position_text), Pack.new(MODERN.deck, seed), seed)


# --- Ice -----------------------------------------------------------------------------


def test_an_iced_pawn_cannot_move() -> None:
    assert outcomes("R:20,start,start Y:33,start,start turn:Y ice:Y33", "5") == expect(
        {"5 start-38": "R:20,start,start Y:38,33,start turn:R ice:Y33"}
    )


def test_an_iced_pawn_cannot_be_bumped_or_landed_on() -> None:
    assert outcomes("R:28,start,start Y:33,start,start turn:R ice:Y33", "5") == expect(
        {"5 start-8": "R:28,8,start Y:33,start,start turn:Y ice:Y33"}
    )
    # Without the Ice the same 5 bumps it.
    assert "5 28-33" in outcomes("R:28,start,start Y:33,start,start turn:R", "5")


def test_an_iced_pawn_cannot_be_switched() -> None:
    assert outcomes("R:20,start,start Y:33,40,start turn:R ice:Y33", "11") == expect(
        {
            "11 20-31": "R:31,start,start Y:40,33,start turn:Y ice:Y33",
            "11 start-14": "R:20,14,start Y:40,33,start turn:Y ice:Y33",
            "11 20x40": "R:40,start,start Y:20,33,start turn:Y ice:Y33",
        }
    )


def test_an_iced_pawn_cannot_be_hit_by_a_sorry() -> None:
    assert outcomes("R:20,start,start Y:33,40,start turn:R ice:Y33", "sorry") == expect(
        {
            "sorry start-40": "R:40,20,start Y:33,start,start turn:Y ice:Y33",
            "sorry 20-24": "R:24,start,start Y:40,33,start turn:Y ice:Y33",
        }
    )


def test_a_slide_passes_over_an_iced_pawn_and_leaves_it() -> None:
    # Red rides its own long slide 9-13 (2013): the Yellow pawn on 12 goes to Start,
    # the iced one on 11 stays.
    assert outcomes("R:6,start,start Y:11,12,start turn:R ice:Y11", "3") == expect(
        {"3 6-9": "R:13,start,start Y:11,start,start turn:Y ice:Y11"}
    )


def test_a_slide_cannot_end_on_an_iced_pawn() -> None:
    assert outcomes("R:6,start,start Y:13,start,start turn:R ice:Y13", "3") == expect(
        {"3 pass": "R:6,start,start Y:13,start,start turn:Y ice:Y13"}
    )


def test_no_pawn_may_land_on_the_iced_pawn_even_to_slide_on() -> None:
    # Red's 6-9 would land on Red's own long slide triangle, where the iced Yellow pawn
    # stands: the square is blocked, so the slide on to 13 is too.
    assert outcomes("R:6,20,start Y:9,start,start turn:R ice:Y9", "3") == expect(
        {"3 20-23": "R:23,6,start Y:9,start,start turn:Y ice:Y9"}
    )


def test_a_move_that_ends_like_one_the_ice_bars_is_still_allowed() -> None:
    # Without the Ice, 11 1x2 and 11 1x4 leave the same pawns (Red's slide 1-4 sweeps the
    # other pawns): with Red's 2 iced, 1x2 is barred but 1x4 is not, and the slide
    # passes over the iced pawn.
    assert outcomes("R:2,4,start Y:1,start,start turn:Y ice:R2", "11") == expect(
        {
            "11 1-12": "R:2,4,start Y:12,start,start turn:R ice:R2",
            "11 start-44": "R:2,4,start Y:1,44,start turn:R ice:R2",
            "11 1x4": "R:2,4,start Y:start,start,start turn:R ice:R2",
        }
    )
    # Riding the others' slides, Red's 4s 43-39 and 28-24 both slide back to where they
    # began: only the iced pawn's is barred.
    others_slides = parse_rules("modern(slide_riders=others)")
    assert outcomes("R:43,28,start Y:start,start,start turn:R ice:R43", "4", others_slides) == expect(
        {"4 28-24": "R:43,28,start Y:start,start,start turn:Y ice:R43"}
    )


def test_a_1_must_first_put_the_ice_on_an_opponents_pawn() -> None:
    assert outcomes("R:20,start,start Y:33,40,start turn:R", "1") == expect(
        {
            "1 ice:40 20-21": "R:21,start,start Y:40,33,start turn:Y ice:Y40",
            "1 ice:40 start-4": "R:20,4,start Y:40,33,start turn:Y ice:Y40",
            "1 ice:33 20-21": "R:21,start,start Y:40,33,start turn:Y ice:Y33",
            "1 ice:33 start-4": "R:20,4,start Y:40,33,start turn:Y ice:Y33",
        }
    )


def test_the_ice_returns_to_the_centre_when_no_opponent_is_on_the_track() -> None:
    # The pawn it held is free at once and may move with the same 1.
    assert outcomes("R:20,start,start Y:start,start,start turn:R ice:R20", "1") == expect(
        {
            "1 ice:centre 20-21": "R:21,start,start Y:start,start,start turn:Y",
            "1 ice:centre start-4": "R:20,4,start Y:start,start,start turn:Y",
        }
    )


def test_the_ice_move_is_written_and_read_back() -> None:
    position = parse_position("R:20,start,start Y:33,40,start turn:R")
    game = Game.at(MODERN, position, Pack((1,), (), 1), 1)
    game.draw()
    with pytest.raises(IllegalError, match="ice:33, ice:40"):
        game.parse("1 20-21")
    assert format_move(game.position, game.parse("1 ice:33 20-21")) == "1 ice:33 20-21"


# --- Fire ----------------------------------------------------------------------------


def test_a_2_may_first_put_fire_on_one_of_your_pawns() -> None:
    assert outcomes("R:20,S2,start Y:start,start,start turn:R", "2") == expect(
        {
            "2 S2-S4": "R:S4,20,start Y:start,start,start turn:Y",
            "2 20-22": "R:S2,22,start Y:start,start,start turn:Y",
            "2 start-5": "R:S2,20,5 Y:start,start,start turn:Y",
            "2 fire:S2 S2-S4": "R:S4,20,start Y:start,start,start turn:Y fire:RS4",
            "2 fire:S2 20-22": "R:S2,22,start Y:start,start,start turn:Y fire:RS2",
            "2 fire:S2 start-5": "R:S2,20,5 Y:start,start,start turn:Y fire:RS2",
            "2 fire:20 S2-S4": "R:S4,20,start Y:start,start,start turn:Y fire:R20",
            "2 fire:20 20-22": "R:S2,22,start Y:start,start,start turn:Y fire:R22",
            "2 fire:20 start-5": "R:S2,20,5 Y:start,start,start turn:Y fire:R20",
        }
    )


def test_the_fire_pawn_moves_to_the_next_corner_before_the_draw() -> None:
    game = game_at("R:20,start,start Y:30,start,start turn:R fire:R20")
    assert game.stage == BEFORE_DRAW and not game.awaiting_draw
    assert [format_move(game.position, move) for move in game.legal_moves()] == ["continue", "fire 20-30"]
    move = game.parse("fire 20-30")
    game.play(move)
    assert move.bumps == ((YELLOW, DISTANCE[YELLOW][30]),)  # the Yellow pawn on the corner
    assert format_position(game.position) == "R:30,start,start Y:start,start,start turn:R fire:R30"
    assert game.awaiting_draw  # the Fire moves once a turn; then Red draws


def test_going_on_without_the_fire_move_keeps_the_position() -> None:
    game = game_at("R:20,start,start Y:start,start,start turn:R fire:R20")
    game.play(game.parse("continue"))
    assert game.awaiting_draw and format_position(game.position).startswith("R:20,")


def test_the_fire_pawn_cannot_pass_its_own_entrance_nor_land_on_its_own_pawn() -> None:
    # Yellow's entrance is square 32: from 31 the next corner (45) lies beyond it.
    assert game_at("R:start,start,start Y:31,start,start turn:Y fire:Y31").awaiting_draw
    assert game_at("R:20,30,start Y:start,start,start turn:R fire:R20").awaiting_draw
    # Ice beats Fire: an iced Fire pawn does not move.
    assert game_at("R:20,start,start Y:start,start,start turn:R fire:R20 ice:R20").awaiting_draw


def test_the_fire_pawn_home_brings_another_pawn_straight_home() -> None:
    assert outcomes("R:S3,20,start Y:start,start,start turn:R fire:RS3", "3") == expect(
        {
            "3 S3-home": "R:home,20,start Y:start,start,start turn:Y",
            "3 S3-home bonus:20": "R:home,home,start Y:start,start,start turn:Y",
            "3 20-23": "R:S3,23,start Y:start,start,start turn:Y fire:RS3",
            "3 start-6": "R:S3,20,6 Y:start,start,start turn:Y fire:RS3",
        }
    )


def test_a_bumped_fire_pawn_loses_the_fire() -> None:
    assert outcomes("R:start,start,start Y:33,start,start turn:R fire:Y33", "sorry") == expect(
        {"sorry start-33": "R:33,start,start Y:start,start,start turn:Y"}
    )


def test_a_switched_fire_pawn_that_slides_back_to_its_square_keeps_the_fire() -> None:
    # The Yellow Fire pawn on 43 goes to 39, Yellow's long slide triangle, and slides
    # back to 43, sweeping the Red pawn that came there.
    assert outcomes("R:39,start,start Y:43,start,start turn:R fire:Y43", "11") == expect(
        {
            "11 39-50": "R:50,start,start Y:43,start,start turn:Y fire:Y43",
            "11 start-14": "R:39,14,start Y:43,start,start turn:Y fire:Y43",
            "11 39x43": "R:start,start,start Y:43,start,start turn:Y fire:Y43",
        }
    )


def test_which_pawn_a_switch_slides_tells_apart_where_the_fire_goes() -> None:
    # Both switches put Red's pawns on 4 and in Start: the Fire pawn slides 1-4 and
    # sweeps the other Red pawn, or is swept by it.
    assert outcomes("R:2,4,start Y:1,start,start turn:Y fire:R2", "11") == expect(
        {
            "11 1-12": "R:2,4,start Y:12,start,start turn:R fire:R2",
            "11 start-44": "R:2,4,start Y:1,44,start turn:R fire:R2",
            "11 1x2": "R:4,start,start Y:start,start,start turn:R fire:R4",
            "11 1x4": "R:4,start,start Y:start,start,start turn:R",
        }
    )


def test_the_fire_pawn_may_leapfrog_another_on_a_split_7() -> None:
    # "7 18-20 13-18" and "7 13-20" leave pawns on 18 and 20: the Fire tells them apart.
    assert outcomes("R:18,13,start Y:start,start,start turn:R fire:R18", "7") == expect(
        {
            "7 18-25": "R:25,13,start Y:start,start,start turn:Y fire:R25",
            "7 13-20": "R:20,18,start Y:start,start,start turn:Y fire:R18",
            "7 start-10": "R:18,13,10 Y:start,start,start turn:Y fire:R18",
            "7 18-21 13-17": "R:21,17,start Y:start,start,start turn:Y fire:R21",
            "7 18-22 13-16": "R:22,16,start Y:start,start,start turn:Y fire:R22",
            "7 18-23 13-15": "R:23,15,start Y:start,start,start turn:Y fire:R23",
            "7 18-24 13-14": "R:24,14,start Y:start,start,start turn:Y fire:R24",
            "7 18-20 13-18": "R:20,18,start Y:start,start,start turn:Y fire:R20",
        }
    )


def test_a_split_7_may_take_the_fire_pawn_home_rather_than_the_other() -> None:
    assert outcomes("R:S3,2,start Y:start,start,start turn:R fire:RS3", "7") == expect(
        {
            "7 start-10": "R:S3,2,10 Y:start,start,start turn:Y fire:RS3",
            "7 S3-S4 2-home": "R:home,S4,start Y:start,start,start turn:Y fire:RS4",
            "7 S3-home 2-S4": "R:home,S4,start Y:start,start,start turn:Y",
            "7 S3-home 2-S4 bonus:S4": "R:home,home,start Y:start,start,start turn:Y",
        }
    )


def test_a_fire_pawn_swept_by_the_second_part_of_a_split_loses_the_fire() -> None:
    # The Fire pawn goes 10-13; the other pawn's 5-9 rides Red's slide to 13 and sweeps it.
    found = outcomes("R:10,5,start Y:start,start,start turn:R fire:R10", "7")
    assert found["7 10-13 5-9"] == format_position(parse_position("R:13,start,start Y:start,start,start turn:Y"))


def test_tokens_are_refused_where_they_cannot_be() -> None:
    from pardon.core import InvalidError
    from pardon.core.state import check_position

    with pytest.raises(InvalidError, match="Ice token sits only on a pawn on the track"):
        check_position(MODERN, parse_position("R:S2,start,start Y:start,start,start turn:Y ice:RS2"))
    with pytest.raises(InvalidError, match="no Fire and Ice"):
        check_position(
            parse_rules("modern-no-tokens"), parse_position("R:20,start,start Y:start,start,start turn:Y fire:R20")
        )


def test_the_reason_a_move_is_refused_names_the_ice() -> None:
    from pardon.core import parse_move

    frozen = parse_position("R:20,start,start Y:33,start,start turn:Y ice:Y33")
    with pytest.raises(IllegalError, match="frozen by the Ice"):
        parse_move(MODERN, frozen, 5, "5 33-38")
    blocked = parse_position("R:28,start,start Y:33,start,start turn:R ice:Y33")
    with pytest.raises(IllegalError, match="square 33, blocked by the Ice"):
        parse_move(MODERN, blocked, 5, "5 28-33")
