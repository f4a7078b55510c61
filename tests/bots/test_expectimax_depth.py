"""How deep the default expectimax searches, by the number of players and the kind of game."""

from __future__ import annotations

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


def test_a_hand_game_is_played_by_the_evaluation_alone_unless_a_depth_is_asked() -> None:
    assert depth("adult", (0, 2)) == 1
    assert depth("adult", (0, 2), "expectimax(depth=2)") == 2
