"""The partners game (docs/rules.md: "Partners"): scenarios with exact results, and whole games."""

from __future__ import annotations

import random

import pytest

from pardon.core import Game, IllegalError, InvalidError, legal_moves, parse_card, parse_position, parse_rules
from pardon.core.board import HOME
from pardon.core.notation import format_move, format_position, parse_move
from pardon.core.state import seats_for

PARTNERS = parse_rules("partners")
EMPTY = "start,start,start,start"


def outcomes(position_text: str, card: str, rules: str = "partners") -> dict[str, str]:
    position = parse_position(position_text)
    moves = legal_moves(parse_rules(rules), position, parse_card(card))
    results = [move.result for move in moves]
    assert len(set(results)) == len(results), "two moves share an outcome"
    return {format_move(position, move): format_position(move.result) for move in moves}


def board(red: str, blue: str, yellow: str, green: str, turn: str = "R") -> str:
    return format_position(parse_position(f"R:{red} B:{blue} Y:{yellow} G:{green} turn:{turn}"))


def test_a_player_may_move_the_partners_pawn() -> None:
    assert outcomes(board("20,start,start,start", EMPTY, "40,start,start,start", EMPTY), "5") == {
        "5 20-25": board("25,start,start,start", EMPTY, "40,start,start,start", EMPTY, "B"),
        "5 40-45": board("20,start,start,start", EMPTY, "45,start,start,start", EMPTY, "B"),
    }


def test_landing_on_the_partners_pawn_bumps_it() -> None:
    result = outcomes(board("20,start,start,start", EMPTY, "25,start,start,start", EMPTY), "5")
    assert result["5 20-25"] == board("25,start,start,start", EMPTY, EMPTY, EMPTY, "B")


def test_the_partners_start_can_be_used() -> None:
    result = outcomes(board("4,start,start,start", EMPTY, EMPTY, EMPTY), "1")
    assert result == {
        "1 4-5": board("5,start,start,start", EMPTY, EMPTY, EMPTY, "B"),
        "1 Y:start-34": board("4,start,start,start", EMPTY, "34,start,start,start", EMPTY, "B"),
    }


def test_a_sorry_lands_on_the_partner_only_with_no_opponent_on_the_track() -> None:
    lonely = board(EMPTY, "S1,start,start,start", "25,home,start,start", EMPTY)
    assert outcomes(lonely, "sorry") == {
        "sorry start-25": board("25,start,start,start", "S1,start,start,start", "home,start,start,start", EMPTY, "B")
    }
    crowded = board(EMPTY, "30,start,start,start", "25,home,start,start", EMPTY)
    assert set(outcomes(crowded, "sorry")) == {"sorry start-30", "sorry Y:start-30"}


def test_an_11_switches_only_with_an_opposing_pawn() -> None:
    result = outcomes(board("59,start,start,start", "30,start,start,start", "10,start,start,start", EMPTY), "11")
    assert set(result) == {"11 10-21", "11 59x30", "11 10x30"}


def test_a_7_over_more_than_two_pawns_only_in_the_1992_reading() -> None:
    position = board("20,22,start,start", EMPTY, "40,start,start,start", EMPTY)
    three = "7 22-23 20-21 40-45"
    assert three not in outcomes(position, "7")
    result = outcomes(position, "7", "partners(partner_split=any)")
    assert result[three] == board("23,21,start,start", EMPTY, "45,start,start,start", EMPTY, "B")
    # A split of two between partners is part of both readings.
    assert "7 22-24 40-45" in outcomes(position, "7")


def test_a_player_with_every_pawn_home_plays_for_the_team() -> None:
    position = board("home,home,home,home", EMPTY, "20,start,start,start", EMPTY)
    assert outcomes(position, "5") == {
        "5 20-25": board("home,home,home,home", EMPTY, "25,start,start,start", EMPTY, "B")
    }


def test_the_team_wins_only_with_all_eight_pawns_home() -> None:
    nearly = board("S5,home,home,home", EMPTY, "S1,home,home,home", EMPTY)
    result = outcomes(nearly, "1")
    assert result["1 S5-home"] == board("home,home,home,home", EMPTY, "S1,home,home,home", EMPTY, "B")
    won = board("home,home,home,home", EMPTY, "S5,home,home,home", EMPTY)
    assert outcomes(won, "1")["1 Y:S5-home"].endswith("winner:R")


def test_partner_moves_are_read_back_from_their_text() -> None:
    position = parse_position(board("4,start,start,start", EMPTY, "S2,start,start,start", EMPTY))
    move = parse_move(PARTNERS, position, 1, "1 Y:S2-S3")
    assert format_move(position, move) == "1 Y:S2-S3"


def test_partners_need_four_players() -> None:
    with pytest.raises(InvalidError, match="partners game is played by 4 players"):
        Game.new(PARTNERS, seats_for(2), 1)


@pytest.mark.parametrize("split", ["two", "any"])
def test_partners_games_end_with_a_whole_team_home(split: str) -> None:
    rules = parse_rules(f"partners(partner_split={split})")
    for seed in range(40):
        game = Game.new(rules, seats_for(4), seed)
        rng = random.Random(seed)
        while not game.is_over:
            game.draw()
            moves = game.legal_moves()
            game.play_trusted(moves[rng.randrange(len(moves))])
        winner = game.winner
        assert winner is not None
        for member in (winner, (winner + 2) % 4):
            assert all(pawn == HOME for pawn in game.position.pawns[member])


@pytest.mark.parametrize(("split", "seed"), [("two", 0), ("two", 1), ("two", 2), ("any", 3)])
def test_every_partners_move_round_trips_through_its_text(split: str, seed: int) -> None:
    rules = parse_rules(f"partners(partner_split={split})")
    game = Game.new(rules, seats_for(4), seed)
    rng = random.Random(seed)
    while not game.is_over and game.turns < 200:
        card = game.draw()
        moves = game.legal_moves()
        for move in moves[:40]:  # a split over many pawns can have hundreds of outcomes
            assert parse_move(rules, game.position, card, format_move(game.position, move)) == move
        game.play_trusted(moves[rng.randrange(len(moves))])


RED_ALONE = "21,start,start,start"


def test_a_sorry_whose_only_target_is_the_players_own_pawn_is_forfeited() -> None:
    # Yellow's pawn from Yellow's Start would bump Red's own pawn: Red forfeits instead.
    assert set(outcomes(board(RED_ALONE, EMPTY, EMPTY, EMPTY), "sorry")) == {"sorry pass"}
    # From Red's own Start onto the partner's pawn, with nobody else to pick on: allowed.
    assert set(outcomes(board("21,home,start,start", EMPTY, "40,start,start,start", EMPTY), "sorry")) == {
        "sorry start-40"
    }


@pytest.mark.parametrize(
    ("red", "yellow", "card", "offered", "refused"),
    [
        ("25,start,start,start", "20,start,start,start", "5", {"5 25-30"}, "5 20-25"),
        ("34,start,start,start", EMPTY, "1", {"1 34-35", "1 start-4"}, "1 Y:start-34"),
        ("34,home,home,home", "20,start,start,start", "2", {"2 34-36", "2 20-22"}, "2 Y:start-34"),
        ("40,start,start,start", "44,start,start,start", "4", {"4 40-36"}, "4 44-40"),
        ("50,start,start,start", "51,start,start,start", "10", {"10 50-0", "10 51-1", "10 50-49"}, "10 51-50"),
        ("25,start,start,start", "14,start,start,start", "11", {"11 25-36"}, "11 14-25"),
        ("25,start,start,start", "20,start,start,start", "12", {"12 25-37", "12 20-32"}, ""),
    ],
)
def test_the_players_move_never_lands_the_partners_pawn_on_the_players(
    red: str, yellow: str, card: str, offered: set[str], refused: str
) -> None:
    moves = outcomes(board(red, EMPTY, yellow, EMPTY), card)
    assert set(moves) == offered and refused not in moves
    # On Yellow's turn it is the other way round: Yellow's pawn may bump its partner Red's.
    assert outcomes(board("25,start,start,start", EMPTY, "20,start,start,start", EMPTY, "Y"), "5")["5 20-25"]


@pytest.mark.parametrize("split", ["two", "any"])
def test_no_part_of_a_split_7_lands_the_partners_pawn_on_the_players(split: str) -> None:
    position = board("25,home,home,home", EMPTY, "20,10,start,start", EMPTY)
    moves = outcomes(position, "7", f"partners(partner_split={split})")
    bumped = board("home,home,home,start", EMPTY, "25,12,start,start", EMPTY, "B")
    assert bumped not in moves.values() and "7 20-25 10-12" not in moves and "7 10-12 20-25" not in moves
    # Made the other way round, Red's part first, Yellow's pawn lands on the empty square.
    assert moves["7 25-27 20-25"] == board("home,home,home,27", EMPTY, "25,10,start,start", EMPTY, "B")


def test_a_slide_of_the_partners_pawn_may_still_sweep_the_players_pawn() -> None:
    moves = outcomes(board("26,start,start,start", EMPTY, "19,start,start,start", EMPTY), "5")
    assert moves["5 19-24"] == board(EMPTY, EMPTY, "28,start,start,start", EMPTY, "B")


@pytest.mark.parametrize(
    ("red", "yellow", "card", "text"),
    [
        ("25,start,start,start", "20,start,start,start", "5", "5 20-25"),
        (RED_ALONE, EMPTY, "sorry", "sorry Y:start-21"),
        ("34,start,start,start", EMPTY, "1", "1 Y:start-34"),
    ],
)
def test_a_move_landing_the_partners_pawn_on_the_players_is_refused_with_the_reason(
    red: str, yellow: str, card: str, text: str
) -> None:
    position = parse_position(board(red, EMPTY, yellow, EMPTY))
    with pytest.raises(IllegalError, match="your partner's pawn may not land on your own pawn"):
        parse_move(PARTNERS, position, parse_card(card), text)
