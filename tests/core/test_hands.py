"""Hands of five (docs/rules.md) and the 1992 adult preset."""

from __future__ import annotations

import random

import pytest

from pardon.core import Game, IllegalError, parse_position, parse_rules, replay
from pardon.core.cards import Pack
from pardon.core.game import record_of
from pardon.core.hands import hand_moves
from pardon.core.notation import format_move, format_position, parse_move

ADULT = parse_rules("adult")


def plays(position_text: str, rules: str = "adult") -> dict[str, str]:
    position = parse_position(position_text)
    return {
        format_move(position, move): format_position(move.result) for move in hand_moves(parse_rules(rules), position)
    }


def game_at(position_text: str, rules: str = "adult", seed: int = 3) -> Game:
    rules_value = parse_rules(rules)
    position = parse_position(position_text)
    held = [card for hand in position.hands for card in hand]
    pile = list(Pack.new(rules_value.deck, seed).draw_pile)
    for card in held:
        pile.remove(card)
    return Game.at(rules_value, position, Pack(tuple(pile), (), 1), seed)


def test_the_adult_game_deals_five_cards_each_and_puts_one_pawn_out() -> None:
    game = Game.new(ADULT, (0, 1, 2, 3), seed=5)
    assert all(len(game.position.hands[colour]) == 5 for colour in (0, 1, 2, 3))
    assert all(sorted(game.position.pawns[colour])[-1] == 66 for colour in (0, 1, 2, 3))
    assert all(game.position.pawns[colour].count(64) == 1 for colour in (0, 1, 2, 3))
    assert len(game.pack.draw_pile) == 45 - 20 and not game.pack.discards
    assert not game.awaiting_draw  # the card comes from the hand


def test_every_move_names_a_card_of_the_hand() -> None:
    assert plays("R:4,start,start,start Y:34,start,start,start turn:R hand:R:3,3,4,5,12") == {
        "3 4-7": "R:7,start,start,start Y:34,start,start,start turn:Y hand:R:3,4,5,12",
        "4 4-0": "R:0,start,start,start Y:34,start,start,start turn:Y hand:R:3,3,5,12",
        "5 4-9": "R:9,start,start,start Y:34,start,start,start turn:Y hand:R:3,3,4,12",
        "12 4-16": "R:19,start,start,start Y:34,start,start,start turn:Y hand:R:3,3,4,5",
    }


def test_a_dead_hand_discards_one_card_of_the_players_choice() -> None:
    hand = "hand:R:3,4,5,8,12"
    assert plays(f"R:start,start,start,start Y:34,start,start,start turn:R {hand}") == {
        f"{card} pass": f"R:start,start,start,start Y:34,start,start,start turn:Y hand:R:{rest}"
        for card, rest in (
            ("3", "4,5,8,12"),
            ("4", "3,5,8,12"),
            ("5", "3,4,8,12"),
            ("8", "3,4,5,12"),
            ("12", "3,4,5,8"),
        )
    }


def test_a_usable_card_must_be_played_rather_than_discarded() -> None:
    game = game_at("R:start,start,start,start Y:34,start,start,start turn:R hand:R:1,4,5,8,12 hand:Y:10,10,10,10,5")
    with pytest.raises(IllegalError, match="cannot be played while another card of your hand can be used"):
        game.parse("4 pass")
    with pytest.raises(IllegalError, match="no 7 in your hand"):
        game.parse("7 start-11")


def test_the_discarded_card_goes_face_up_and_the_hand_is_refilled() -> None:
    game = game_at("R:start,start,start,start Y:34,start,start,start turn:R hand:R:3,4,5,8,12 hand:Y:10,10,10,10,5")
    top = game.pack.draw_pile[0]
    game.play(game.parse("8 pass"))
    assert game.pack.discards == (8,)
    assert sorted(game.position.hands[0]) == sorted((3, 4, 5, 12, top))
    assert game.decider == 2


def test_after_a_2_the_same_player_plays_one_more_card() -> None:
    text = "R:4,start,start,start Y:34,start,start,start turn:R hand:R:2,3,5,7,8 hand:Y:10,10,10,10,5"
    game = game_at(text)
    game.play(game.parse("2 4-6"))
    assert game.decider == 0 and len(game.position.hands[0]) == 5
    no_extra = game_at(text, "adult(draw_again_on_2=false)")
    no_extra.play(no_extra.parse("2 4-6"))
    assert no_extra.decider == 2


def test_a_seat_sees_only_its_own_hand() -> None:
    game = Game.new(ADULT, (0, 2), seed=9, first=0)
    seen = game.observe(0)
    assert seen.hand == game.position.hands[0]
    assert seen.position.hands[2] == ()
    unseen = seen.remaining()
    assert sum(unseen.values()) == 45 - 5  # the pack and Yellow's hand, in some order
    for move in game.legal_moves():  # the moves shown never reveal the other hand
        assert move.result.hands[2] == ()
    game.play(game.legal_moves()[0])
    assert len(game.position.hands[2]) == 5  # the real game keeps every hand


@pytest.mark.parametrize("seed", range(5))
def test_adult_games_replay_from_their_records_and_score_1992_points(seed: int) -> None:
    game = Game.new(ADULT, (0, 1, 2), seed)
    rng = random.Random(seed)
    while not game.is_over:
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    again = replay(record_of(game))
    assert again.position == game.position
    points = game.points
    assert points is not None and game.winner is not None
    assert points[game.winner] >= 5 * 4 + 5 * sum(
        4 - game.position.pawns[c].count(0) for c in (0, 1, 2) if c != game.winner
    )


def test_an_11_that_can_only_switch_may_be_declined_as_a_dead_hand() -> None:
    # Red's only pawn out is on 59: forward 11 would pass Home, a Sorry! needs a pawn in
    # Start.  The switch is never compulsory, so the hand may be treated as dead.
    board = "R:home,home,home,59 Y:30,start,start,start"
    assert plays(f"{board} turn:R hand:R:11,sorry,sorry,sorry,sorry") == {
        "11 pass": f"{board} turn:Y hand:R:sorry,sorry,sorry,sorry",
        "11 59x30": "R:home,home,home,30 Y:59,start,start,start turn:Y hand:R:sorry,sorry,sorry,sorry",
        "sorry pass": f"{board} turn:Y hand:R:11,sorry,sorry,sorry",
    }
    position = parse_position(f"{board} turn:R hand:R:11,sorry,sorry,sorry,sorry")
    declined = parse_move(ADULT, position, None, "11 pass")
    assert declined.is_pass and declined.card == 11


def test_an_11_that_can_only_switch_does_not_excuse_a_usable_card() -> None:
    # The 5 can be used, so a card must be played: the 5, or the 11's switch.
    text = "R:59,S1,home,home Y:30,start,start,start turn:R hand:R:5,11,sorry,sorry,sorry"
    assert set(plays(text)) == {"5 59-S2", "5 S1-home", "11 59x30"}
    position = parse_position(text)
    with pytest.raises(IllegalError, match="discarded only when no card"):
        parse_move(ADULT, position, None, "11 pass")


def test_a_declined_11_is_discarded_and_the_hand_drawn_back_up() -> None:
    game = game_at("R:59,home,home,home Y:30,start,start,start turn:R hand:R:11,sorry,sorry,sorry,sorry")
    game.play(game.parse("11 pass"))
    assert game.pack.discards[-1] == 11 and len(game.position.hands[0]) == 5
    assert format_position(game.position).startswith("R:home,home,home,59 Y:30,start,start,start turn:Y")
