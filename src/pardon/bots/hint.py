"""Hints: the legal moves of a position ranked by their estimated chance of winning.

``rank_moves`` is what ``pardon hint`` prints and what the user interfaces call.  The
estimate comes from the chosen computer player:

- ``mcts`` (default): the search's mean result of each move at the root;
- ``expectimax``: each move's searched value turned into a chance with the evaluation's
  calibrated logistic scale (``1 / (1 + exp(-value / scale))``), or its searched win chance as it is
  where it backs up win chances (``backup=chance``, the default with 3 or 4 players);
- any other level: the evaluation's win chances of the position each move leads to.

Without a discard pile the pack is taken to be full, less the card being played.

>>> from pardon.core import parse_position, parse_rules
>>> position = parse_position("R:20,40,start,start Y:45,start,start,start turn:R")
>>> ranked = rank_moves(parse_rules("classic"), position, 5, "tactician")
>>> from pardon.core.notation import format_move
>>> format_move(position, ranked[0][0])
'5 40-45'
"""

from __future__ import annotations

import random

from pardon.bots import make_bot
from pardon.bots.evaluation import TUNED, Evaluator, card_chances
from pardon.bots.expectimax import ExpectimaxBot
from pardon.bots.mcts import MctsBot
from pardon.core.moves import Move, legal_moves
from pardon.core.observation import Observation, observe
from pardon.core.rules import Rules
from pardon.core.state import Position


def rank_moves(
    rules: Rules,
    position: Position,
    card: int,
    bot: str = "mcts",
    rng: random.Random | None = None,
    discards: tuple[int, ...] | None = None,
) -> list[tuple[Move, float]]:
    """Every legal move with its estimated win chance for the player to move, best first."""
    if position.winner is not None:
        raise ValueError("the game is over")
    moves = legal_moves(rules, position, card)
    seen = observe(rules, position, position.turn, card, (card,) if discards is None else (*discards, card))
    return rank_observed(seen, moves, bot, rng)


def rank_observed(
    seen: Observation, moves: list[Move], bot: str = "mcts", rng: random.Random | None = None
) -> list[tuple[Move, float]]:
    """``moves``, the legal moves of the player ``seen`` observes for (a drawn card's, or a
    hand's), with their estimated win chances, best first: nothing hidden from the player is used."""
    chances = _chances(seen, moves, bot, rng or random.Random(0))
    order = sorted(range(len(moves)), key=lambda index: -chances[index])
    return [(moves[index], chances[index]) for index in order]


def _chances(seen: Observation, moves: list[Move], bot: str, rng: random.Random) -> list[float]:
    player = make_bot(bot)
    seat = seen.seat
    if isinstance(player, MctsBot):
        return player.win_chances(player.search(seen, moves, rng))
    if isinstance(player, ExpectimaxBot):
        searched = player.move_values(seen, moves, rng)
        if player.backup_for(seen) == "chance":  # already win chances
            return [vector[seat] for vector in searched]
        evaluator = Evaluator(seen.rules, player.weights)
        return [
            evaluator.margin_chance(vector[seat], move.result) for move, vector in zip(moves, searched, strict=True)
        ]
    weights = getattr(player, "weights", TUNED)
    evaluator = Evaluator(seen.rules, weights)
    pack = card_chances(seen.remaining(), seen.rules)
    return [evaluator.win_chances(move.result, pack)[seat] for move in moves]
