"""Computer players: the one interface, and what each level prefers."""

from __future__ import annotations

import random

import pytest

from pardon.bots import make_bot
from pardon.bots.greedy import score
from pardon.core import Game, IllegalError, legal_moves, parse_position, parse_rules
from pardon.core.notation import format_move
from pardon.core.observation import observe
from pardon.core.state import seats_for

CLASSIC = parse_rules("classic")


def test_greedy_score_matches_the_reward_formula() -> None:
    position = parse_position("R:home,S3,4,start Y:start,start,start,start turn:R")
    # 260 - (0 + 3 + 64 + 65) + 10 * 2 (Home and S3)
    assert score(position, 0) == 148
    assert score(position, 2) == 0
    finished = parse_position("R:home,home,home,home Y:start,start,start,start winner:R")
    assert score(finished, 0) == 260 + 40 + 100


def test_greedy_prefers_the_bump() -> None:
    position = parse_position("R:20,40,start,start Y:45,start,start,start turn:R")
    moves = legal_moves(CLASSIC, position, 5)
    choice = make_bot("greedy").choose(observe(CLASSIC, position, 0, 5, ()), moves, random.Random(0))
    assert format_move(position, choice) == "5 40-45"


@pytest.mark.parametrize("name", ["random", "greedy"])
@pytest.mark.parametrize("players", [2, 4])
def test_every_level_plays_a_game_to_the_end(name: str, players: int) -> None:
    bot = make_bot(name)
    game = Game.new(CLASSIC, seats_for(players), 5)
    rng = random.Random(5)
    while not game.is_over:
        card = game.draw()
        moves = game.legal_moves()
        move = bot.choose(observe(CLASSIC, game.position, game.turn, card, game.pack.discards), moves, rng)
        assert move in moves
        game.play(move)
    assert game.winner is not None


def test_an_unknown_level_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown computer player"):
        make_bot("grandmaster")


def test_an_observation_counts_the_cards_left_but_never_shows_their_order() -> None:
    game = Game.new(CLASSIC, seats_for(2), 3)
    card = game.draw()
    seen = observe(CLASSIC, game.position, game.turn, card, game.pack.discards)
    left = seen.remaining()
    assert sum(left.values()) == 44
    assert left[card] == (5 if card == 1 else 4) - 1
    assert "draw_pile" not in seen._fields and not any(isinstance(value, type(game.pack)) for value in seen)


@pytest.mark.parametrize("level", ["random", "greedy", "tactician", "expectimax", "mcts(iterations=10)", "expert"])
def test_choosing_from_no_moves_says_why(level: str) -> None:
    # a player asked to choose while a card is still to be drawn (legal_moves() is empty then)
    # raised IndexError (random) or "max() arg is an empty sequence" (the others)
    game = Game.new(parse_rules("classic"), (0, 2), 7)
    assert game.awaiting_draw and game.legal_moves() == []
    with pytest.raises(IllegalError, match="no move to choose from"):
        make_bot(level).choose(game.observe(game.decider), game.legal_moves(), random.Random(1))
