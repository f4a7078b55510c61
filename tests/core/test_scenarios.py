"""One scenario per rule of docs/rules.md ("The board", "Cards", "The classic game"), each with
the exact set of results.

Positions are written in pardon's notation (docs/notation.md): ``R:4,start,start,start``
lists Red's pawns by track square, ``S1``–``S5``, ``start`` or ``home``.
"""

from __future__ import annotations

import itertools

import pytest

from pardon.core import Game, legal_moves, parse_card, parse_position, parse_rules
from pardon.core.notation import format_move, format_position

CLASSIC = parse_rules("classic")
FOUR_IN_START = "start,start,start,start"


def outcomes(position_text: str, card: str, rules: str = "classic") -> dict[str, str]:
    """Each legal move's text mapped to the position it leads to (in canonical text)."""
    position = parse_position(position_text)
    moves = legal_moves(parse_rules(rules), position, parse_card(card))
    texts = [format_move(position, move) for move in moves]
    assert len(set(texts)) == len(texts), "two moves share a text"
    results = [move.result for move in moves]
    assert len(set(results)) == len(results), "two moves share an outcome"
    return {text: format_position(move.result) for text, move in zip(texts, moves, strict=True)}


def canonical(position_text: str) -> str:
    """A position's canonical text (each colour's pawns nearest Home first)."""
    return format_position(parse_position(position_text))


def expect(mapping: dict[str, str]) -> dict[str, str]:
    return {text: canonical(position) for text, position in mapping.items()}


def test_leaving_start_onto_own_pawn_is_illegal() -> None:
    assert outcomes(f"R:4,start,start,start Y:{FOUR_IN_START} turn:R", "1") == expect(
        {
            "1 4-5": f"R:5,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_leaving_start_onto_an_opponent_bumps_it_and_a_2_draws_again() -> None:
    assert outcomes("R:start,start,start,start Y:4,start,start,start turn:R", "2") == expect(
        {
            "2 start-4": f"R:4,start,start,start Y:{FOUR_IN_START} turn:R",
        }
    )


def test_a_1_or_2_only_reaches_the_circle_and_other_cards_cannot_bring_a_pawn_out() -> None:
    assert outcomes(f"R:{FOUR_IN_START} Y:{FOUR_IN_START} turn:R", "1") == expect(
        {
            "1 start-4": f"R:4,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )
    for card in ("3", "4", "5", "7", "8", "10", "11", "12"):
        assert outcomes(f"R:{FOUR_IN_START} Y:{FOUR_IN_START} turn:R", card) == expect(
            {
                f"{card} pass": f"R:{FOUR_IN_START} Y:{FOUR_IN_START} turn:Y",
            }
        )


def test_forward_cards_count_every_square_and_pass_over_pawns() -> None:
    assert outcomes("R:20,22,start,start Y:23,start,start,start turn:R", "3") == expect(
        {
            "3 22-25": "R:20,25,start,start Y:23,start,start,start turn:Y",
            "3 20-23": "R:22,23,start,start Y:start,start,start,start turn:Y",
        }
    )


def test_backing_out_of_the_safety_zone_with_a_4() -> None:
    assert outcomes(f"R:S2,start,start,start Y:{FOUR_IN_START} turn:R", "4") == expect(
        {
            "4 S2-0": f"R:0,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )
    # From S3 back 4 lands on Red's own short-slide triangle: no ride on its own colour.
    assert outcomes(f"R:S3,start,start,start Y:{FOUR_IN_START} turn:R", "4") == expect(
        {
            "4 S3-1": f"R:1,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_backing_out_of_the_safety_zone_with_a_10_is_forced() -> None:
    assert outcomes(f"R:S1,start,start,start Y:{FOUR_IN_START} turn:R", "10") == expect(
        {
            "10 S1-2": f"R:2,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_a_10_offers_forward_10_and_backward_1() -> None:
    assert outcomes(f"R:20,start,start,start Y:{FOUR_IN_START} turn:R", "10") == expect(
        {
            "10 20-30": f"R:30,start,start,start Y:{FOUR_IN_START} turn:Y",
            "10 20-19": f"R:19,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_a_4_from_the_start_exit_then_an_8_goes_exactly_home() -> None:
    after_4 = outcomes(f"R:4,start,start,start Y:{FOUR_IN_START} turn:R", "4")
    assert after_4 == expect({"4 4-0": f"R:0,start,start,start Y:{FOUR_IN_START} turn:Y"})
    assert outcomes(f"R:0,start,start,start Y:{FOUR_IN_START} turn:R", "8") == expect(
        {
            "8 0-home": f"R:home,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_backward_moves_pass_the_entrance_and_never_enter_the_safety_zone() -> None:
    assert outcomes(f"R:3,start,start,start Y:{FOUR_IN_START} turn:R", "4") == expect(
        {
            "4 3-59": f"R:59,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_entering_the_safety_zone_leaves_an_opponent_in_its_own_zone_alone() -> None:
    assert outcomes("R:0,start,start,start Y:S3,start,start,start turn:R", "5") == expect(
        {
            "5 0-S3": "R:S3,start,start,start Y:S3,start,start,start turn:Y",
        }
    )


def test_home_needs_the_exact_count() -> None:
    assert outcomes(f"R:S3,home,home,home Y:{FOUR_IN_START} turn:R", "5") == expect(
        {
            "5 pass": f"R:home,home,home,S3 Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_a_pawn_never_moves_forward_past_its_own_entrance() -> None:
    # From square 59 (9 from Home) a 12 would pass Home: only the pawn on 20 can move.
    assert outcomes(f"R:59,20,start,start Y:{FOUR_IN_START} turn:R", "12") == expect(
        {
            "12 20-32": f"R:59,32,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_home_pawns_never_move() -> None:
    assert outcomes(f"R:home,start,start,start Y:{FOUR_IN_START} turn:R", "4") == expect(
        {
            "4 pass": f"R:home,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_sliding_on_another_colours_slide_sweeps_every_pawn_including_your_own() -> None:
    # 16+8 lands on Blue's long-slide triangle (24): Red rides to 28, and the Red pawn
    # on 26 and the Blue pawn on 27 both go back to Start.
    position = "R:16,26,start,start B:27,start,start,start Y:S1,start,start,start turn:R"
    assert outcomes(position, "8")["8 16-24"] == (
        "R:28,start,start,start B:start,start,start,start Y:S1,start,start,start turn:B"
    )


def test_a_pawn_does_not_slide_on_its_own_colour() -> None:
    assert outcomes(f"R:6,start,start,start Y:{FOUR_IN_START} turn:R", "3") == expect(
        {
            "3 6-9": f"R:9,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_passing_a_triangle_or_stopping_on_a_slide_body_does_not_slide() -> None:
    assert outcomes(f"R:20,start,start,start Y:{FOUR_IN_START} turn:R", "5") == expect(
        {
            "5 20-25": f"R:25,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_landing_on_the_end_circle_bumps_only_its_occupant() -> None:
    assert outcomes("R:20,start,start,start Y:28,start,start,start turn:R", "8") == expect(
        {
            "8 20-28": f"R:28,start,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_moving_backward_onto_a_triangle_from_inside_the_slide() -> None:
    # Red on 17 inside Blue's short slide (16->19): back 1 onto the triangle rides to 19,
    # sweeping the Blue pawn on 18 but not itself.
    position = (
        "R:17,start,start,start B:18,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    assert outcomes(position, "10") == expect(
        {
            "10 17-27": "R:27,start,start,start B:18,start,start,start Y:start,start,start,start "
            "G:start,start,start,start turn:B",
            "10 17-16": "R:19,start,start,start B:start,start,start,start Y:start,start,start,start "
            "G:start,start,start,start turn:B",
        }
    )
    # From the end circle of Blue's long slide (24->28) back 4: onto the triangle, and it
    # rides back to where it started, sweeping the slide.
    position = (
        "R:28,start,start,start B:26,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    assert outcomes(position, "4") == expect(
        {
            "4 28-24": "R:28,start,start,start B:start,start,start,start Y:start,start,start,start "
            "G:start,start,start,start turn:B",
        }
    )


def test_a_split_7_never_puts_two_pawns_on_one_square_and_merges_equal_outcomes() -> None:
    result = outcomes(f"R:5,6,start,start Y:{FOUR_IN_START} turn:R", "7")
    reds = sorted(position.split()[0] for position in result.values())
    # 5+4 and 6+3 would share square 9.  5+1 then 6+6 equals 5+7; 5+2/6+5 equals 5+5/6+2.
    expected = ["R:12,6,start,start", "R:13,5,start,start", "R:11,7,start,start", "R:10,8,start,start"]
    assert reds == sorted(expected)
    assert len(result) == 4


def test_a_split_7_whose_first_part_slides_over_the_second_pawns_square() -> None:
    position = f"R:20,26,start,start Y:{FOUR_IN_START} turn:R"
    result = outcomes(position, "7")
    # 20+4 lands on Blue's triangle (24) and slides to 28, sweeping 25-28: legal only
    # when the pawn on 26 has moved on first (26+3 = 29).
    assert result["7 26-29 20-24"] == canonical(f"R:28,29,start,start Y:{FOUR_IN_START} turn:Y")
    assert "7 20-24 26-29" not in result


def test_a_split_7_with_part_of_it_going_home() -> None:
    result = outcomes(f"R:S3,20,start,start Y:{FOUR_IN_START} turn:R", "7")
    assert result["7 S3-home 20-24"] == canonical(f"R:home,28,start,start Y:{FOUR_IN_START} turn:Y")
    # Two pawns may go Home on one 7.
    both = outcomes(f"R:S2,S3,start,start Y:{FOUR_IN_START} turn:R", "7")
    assert both == expect({"7 S3-home S2-home": f"R:home,home,start,start Y:{FOUR_IN_START} turn:Y"})


def test_a_7_that_cannot_be_used_whole_or_split_is_forfeited() -> None:
    assert outcomes(f"R:S3,home,start,start Y:{FOUR_IN_START} turn:R", "7") == expect(
        {
            "7 pass": f"R:home,S3,start,start Y:{FOUR_IN_START} turn:Y",
        }
    )


def test_an_11_switch_may_be_declined_when_no_pawn_can_go_forward_11() -> None:
    assert outcomes("R:59,start,start,start Y:30,start,start,start turn:R", "11") == expect(
        {
            "11 pass": "R:59,start,start,start Y:30,start,start,start turn:Y",
            "11 59x30": "R:30,start,start,start Y:59,start,start,start turn:Y",
        }
    )


def test_an_11_must_be_used_when_a_pawn_can_go_forward_11() -> None:
    result = outcomes("R:20,start,start,start Y:35,start,start,start turn:R", "11")
    assert set(result) == {"11 20-31", "11 20x35"}


def test_a_switch_onto_a_triangle_slides_both_pawns() -> None:
    position = "R:46,start,start,start B:start,start,start,start Y:39,start,start,start G:48,start,start,start turn:R"
    assert outcomes(position, "11") == expect(
        {
            "11 46-57": "R:57,start,start,start B:start,start,start,start Y:39,start,start,start "
            "G:48,start,start,start turn:B",
            # Red rides Yellow's slide to 43; Yellow, put on Green's triangle, rides to 49
            # and sweeps the Green pawn on 48.
            "11 46x39": "R:43,start,start,start B:start,start,start,start Y:49,start,start,start "
            "G:start,start,start,start turn:B",
            # Green put on its own triangle does not ride.
            "11 46x48": "R:48,start,start,start B:start,start,start,start Y:39,start,start,start "
            "G:46,start,start,start turn:B",
        }
    )
    without = outcomes(position, "11", "classic(switched_opponent_slides=false)")
    assert without["11 46x39"].startswith("R:43,start,start,start B:start,start,start,start Y:46,")


def test_an_opponents_switch_can_put_a_pawn_past_its_entrance_and_it_goes_round_again() -> None:
    result = outcomes("R:20,start,start,start Y:3,start,start,start turn:R", "11")
    assert result["11 20x3"] == "R:3,start,start,start Y:20,start,start,start turn:Y"
    again = outcomes("R:3,start,start,start Y:20,start,start,start turn:R", "1")
    assert again == expect(
        {"1 3-4": "R:4,start,start,start Y:20,start,start,start turn:Y", "1 start-4": again["1 start-4"]}
    )


def test_a_sorry_bumps_an_opponent_from_start() -> None:
    assert outcomes("R:start,start,start,start Y:20,S1,start,start turn:R", "sorry") == expect(
        {
            "sorry start-20": "R:20,start,start,start Y:S1,start,start,start turn:Y",
        }
    )


def test_a_sorry_onto_a_triangle_slides() -> None:
    position = (
        "R:start,start,start,start B:27,start,start,start Y:24,start,start,start G:start,start,start,start turn:R"
    )
    assert outcomes(position, "sorry") == expect(
        {
            "sorry start-27": "R:27,start,start,start B:start,start,start,start Y:24,start,start,start "
            "G:start,start,start,start turn:B",
            "sorry start-24": "R:28,start,start,start B:start,start,start,start Y:start,start,start,start "
            "G:start,start,start,start turn:B",
        }
    )


def test_a_sorry_without_a_pawn_in_start_or_a_target_is_forfeited() -> None:
    assert outcomes("R:20,home,home,home Y:30,start,start,start turn:R", "sorry") == expect(
        {
            "sorry pass": "R:home,home,home,20 Y:30,start,start,start turn:Y",
        }
    )
    assert outcomes("R:start,start,start,start Y:S1,start,start,home turn:R", "sorry") == expect(
        {
            "sorry pass": "R:start,start,start,start Y:home,S1,start,start turn:Y",
        }
    )


def test_safety_zone_pawns_cannot_be_switched() -> None:
    assert outcomes("R:59,start,start,start Y:S2,start,start,start turn:R", "11") == expect(
        {
            "11 pass": "R:59,start,start,start Y:S2,start,start,start turn:Y",
        }
    )


def test_a_forfeited_2_still_draws_again() -> None:
    assert outcomes(f"R:S5,home,home,home Y:{FOUR_IN_START} turn:R", "2") == expect(
        {
            "2 pass": f"R:home,home,home,S5 Y:{FOUR_IN_START} turn:R",
        }
    )


def test_a_win_in_the_middle_of_a_2s_chain_ends_the_game() -> None:
    assert outcomes(f"R:S4,home,home,home Y:{FOUR_IN_START} turn:R", "2") == expect(
        {
            "2 S4-home": f"R:home,home,home,home Y:{FOUR_IN_START} winner:R",
        }
    )


def test_the_game_ends_at_once_and_no_extra_draw_is_taken() -> None:
    game = Game.new(CLASSIC, (0, 2), seed=11)
    while not game.is_over:
        game.draw()
        moves = game.legal_moves()
        winning = [move for move in moves if move.result.winner is not None]
        game.play((winning or moves)[0])
    assert game.legal_moves() == []
    with pytest.raises(ValueError, match="over"):
        game.draw()


@pytest.mark.parametrize("seed", range(40))
def test_the_leader_draw_picks_the_highest_card_and_redraws_ties(seed: int) -> None:
    game = Game.new(CLASSIC, (0, 1, 2, 3), seed)
    assert game.leader_draw is not None
    rounds = game.leader_draw.rounds
    for earlier, later in itertools.pairwise(rounds):
        best = max(card for _, card in earlier)
        assert {colour for colour, _ in later} == {colour for colour, card in earlier if card == best}
    last = rounds[-1]
    best = max(card for _, card in last)
    assert [colour for colour, card in last if card == best] == [game.leader_draw.leader]
    assert game.turn == game.leader_draw.leader
    # All the cards go back: the pack is whole again.
    assert len(game.pack.draw_pile) == 45 and not game.pack.discards
