"""Self-play games for fitting the evaluation (``scripts/calibrate.py``, ``scripts/learn.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator

from pardon.bots import Bot
from pardon.bots.evaluation import card_chances
from pardon.core.game import Game


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
