"""How deep the default expectimax searches, by the number of players and the kind of game,
and how it searches a game whose hands are hidden."""

from __future__ import annotations

import random

import pytest

from pardon.bots import make_bot
from pardon.bots.expectimax import ExpectimaxBot
from pardon.core import Game, parse_rules


def depth(rules: str, seats: tuple[int, ...], level: str = "expectimax") -> int:
    bot = make_bot(level)
    assert isinstance(bot, ExpectimaxBot)
    game = Game.new(parse_rules(rules), seats, seed=1)
    return bot.depth_for(game.observe(game.decider))


def test_two_players_search_three_decisions_and_more_players_two() -> None:
    assert depth("classic", (0, 2)) == 3
    assert depth("classic", (0, 1, 2, 3)) == 2


def test_a_hand_game_searches_as_deep_as_the_open_game() -> None:
    assert depth("adult", (0, 2)) == 3
    assert depth("adult", (0, 1, 2, 3)) == 2
    assert depth("adult", (0, 2), "expectimax(depth=1)") == 1


def test_hidden_hands_are_averaged_over_the_deals_drawn_from_the_bots_random_source() -> None:
    game = Game.new(parse_rules("adult"), (0, 2), seed=3)
    while len(game.legal_moves()) < 3:  # a decision worth searching
        game.play(game.legal_moves()[0])
        if game.awaiting_draw:
            game.draw()
    observation, moves = game.observe(game.decider), game.legal_moves()
    averaged = ExpectimaxBot(depth=2, samples=4).move_values(observation, moves, random.Random(9))
    stream = random.Random(9)  # the same deals, one search each
    singles = [ExpectimaxBot(depth=2, samples=1).move_values(observation, moves, stream) for _ in range(4)]
    assert any(one != singles[0] for one in singles)  # the deals differ: one alone is a guess
    for index, vector in enumerate(averaged):
        assert vector == pytest.approx([sum(one[index][c] for one in singles) / 4 for c in range(4)])


def test_a_search_without_a_deal_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one deal"):
        make_bot("expectimax(samples=0)")
