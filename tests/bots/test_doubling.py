"""Every computer level decides a double by the points it expects (pardon.bots.doubling): it
doubles a slight lead, plays on when far ahead, drops out when far behind, and never stakes
the game past MOST_STAKE itself.  Before, a double left the pawns where they were, so every
level chose among doubling, drawing, accepting and dropping out at random: stakes of x512
against the recommended level, 2^40 against the easy one."""

from __future__ import annotations

import random

import pytest

from pardon.bots import BOTS, make_bot
from pardon.bots.doubling import MOST_STAKE, Outlook
from pardon.core import Game, parse_rules
from pardon.core.game import ANSWERING, BEFORE_DRAW, Pack
from pardon.core.moves import ACCEPT, DOUBLE, DROP, Move
from pardon.core.notation import format_move, parse_position

DOUBLING = parse_rules("classic(scoring=1939,doubling=true)")
FAST = ["random", "greedy", "tactician", "expectimax(depth=1)", "mcts(iterations=20)", "expert(depth=1)"]

#: Positions with Red to move, by how Red stands.
EVEN = "R:start,start,start,start Y:start,start,start,start turn:R"
SLIGHTLY_AHEAD = "R:30,start,start,start Y:start,start,start,start turn:R"
FAR_AHEAD = "R:home,home,S2,40 Y:start,start,start,5 turn:R"


def at(text: str, rules: str = "classic(scoring=1939,doubling=true)") -> Game:
    game = Game.at(parse_rules(rules), parse_position(text), Pack.new(45, 1), 1)
    assert game.stage == BEFORE_DRAW
    return game


def kind(move: Move) -> int | None:
    return move.actions[0].kind if move.actions else None


def decision(level: str, game: Game) -> str:
    move = make_bot(level).choose(game.observe(game.decider), game.legal_moves(), random.Random(0))
    return format_move(game.position, move)


def answering(text: str) -> Game:
    """Yellow to answer Red's double in the position ``text`` (Red to move)."""
    game = at(text)
    game.play(game.parse("double"))
    assert game.stage == ANSWERING and game.decider == 2
    return game


@pytest.mark.parametrize("level", FAST)
def test_every_level_doubles_a_slight_lead_and_nothing_else(level: str) -> None:
    assert decision(level, at(SLIGHTLY_AHEAD)) == "double"
    assert decision(level, at(EVEN)) == "continue"
    assert decision(level, at(FAR_AHEAD)) == "continue"  # too good: a win is worth far more than 5 points


@pytest.mark.parametrize("level", FAST)
def test_every_level_accepts_unless_far_behind(level: str) -> None:
    assert decision(level, answering(SLIGHTLY_AHEAD)) == "accept"
    assert decision(level, answering(FAR_AHEAD)) == "drop"


def test_the_levels_named_are_every_level() -> None:
    assert [spec.split("(")[0] for spec in FAST] == list(BOTS)


def test_the_margin_weighs_a_win_by_its_points() -> None:
    game = at(FAR_AHEAD)
    outlook = Outlook.of(game.observe(0))
    # Red winning scores 4 + 24 (Yellow has no pawn Home); Yellow winning, 4 + 8 (Red has 2 Home)
    assert outlook.win_margins == {0: 28, 2: 12}
    assert outlook.chances[0] > 0.75 and outlook.margin(0) > 5
    assert outlook.margin(2) == pytest.approx(-outlook.margin(0))


@pytest.mark.parametrize(("levels", "seed"), [(("greedy", "greedy"), 1), (("expectimax", "random"), 2)])
def test_computers_stake_a_game_at_most_at_the_most_stake(levels: tuple[str, str], seed: int) -> None:
    """Against each other, and against a player who accepts every double."""
    for accepting in (False, True):
        for game_number in range(4):
            game = Game.new(DOUBLING, (0, 2), seed=seed * 100 + game_number)
            bots = {0: make_bot(levels[0]), 2: make_bot(levels[1])}
            rng = random.Random(game_number)
            doubles = 0
            while not game.is_over:
                if game.awaiting_draw:
                    game.draw()
                    continue
                moves = game.legal_moves()
                accept = [move for move in moves if kind(move) == ACCEPT]
                if accepting and game.decider == 2 and accept:
                    move = accept[0]
                else:
                    move = bots[game.decider].choose(game.observe(game.decider), moves, rng)
                doubles += kind(move) == DOUBLE
                assert not (accepting and game.decider == 2 and kind(move) == DROP)
                game.play(move)
            assert game.position.stake <= MOST_STAKE
            assert doubles <= 3  # from 1 to 8, whoever doubles (a double dropped out of ends the game)


def test_with_four_players_a_computer_accepts_an_even_game() -> None:
    game = Game.new(parse_rules("classic(scoring=1939,doubling=true)"), (0, 1, 2, 3), seed=4, first=0)
    game.play(game.parse("double"))
    assert decision("expectimax", game) == "accept"
    assert decision("tactician", game) == "accept"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_random_rollout_of_mcts_plays_the_cards_out_without_doubling(seed: int) -> None:
    # a random double, dropped half the time, would end most rollouts at once
    from pardon.bots.mcts import _random_rollout

    game = Game.new(parse_rules("classic-1939(scoring=1939,doubling=true)"), (0, 1, 2), seed)
    value = _random_rollout(game, random.Random(seed))
    assert game.is_over and game.position.stake == 1 and not game.position.out
    assert game.winner is not None and value[game.winner] == 1.0 and sum(value) == 1.0
    assert len(game.moves) > 100  # the cards played out, not a game ended by a double
