"""Self-play games for fitting the evaluation (``scripts/calibrate.py``, ``scripts/learn.py``),
and how well a softmax of scores predicts their winners."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence

from pardon.bots import Bot
from pardon.bots.evaluation import card_chances, temperature_at
from pardon.core.game import Game

#: One recorded position: each seat's score, the winner's index among the seats, the index
#: of the seat that has just moved, and the share of the way still to go.
Sample = tuple[list[float], int, int, float]


def after_each_move(game: Game, bot: Bot, explore: float, rng: random.Random) -> Iterator[tuple[int, list[float]]]:
    """Play ``game`` out with ``bot`` in every seat (a share ``explore`` of the moves
    uniformly random, so the positions vary), pausing after each move that does not end
    it: yields the mover and the chance of each card as the mover counts the pack."""
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        mover = game.decider
        if rng.random() < explore:
            move = moves[rng.randrange(len(moves))]
        else:
            move = bot.choose(game.observe(mover), moves, rng)
        game.play(move)
        if not game.is_over:
            yield mover, card_chances(game.observe(mover).remaining(), game.rules)


def softmax(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's chance under a softmax of its score with temperature ``scale``."""
    top = max(scores)
    weights = [math.exp((score - top) / scale) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def log_loss(samples: Sequence[Sample], scale: float, phase: float = 0.0) -> float:
    """Mean negative log-likelihood of the winners under a softmax with ``scale`` and ``phase``."""
    total = 0.0
    for scores, winner, _, left in samples:
        total -= math.log(softmax(scores, temperature_at(scale, phase, left))[winner])
    return total / len(samples)
