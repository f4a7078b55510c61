"""Calibrate the evaluation's win chances: fit ``scale`` to who actually wins.

``Evaluator.win_chances`` turns each colour's score into a chance of winning, a softmax
with temperature ``scale`` (squares of progress).  ``mcts`` backs those chances up and the
hints show them to players, so they should mean what they say: of the positions given
a 30% chance, about 30% should be won.  This script plays self-play games (``--bot``
for every seat, with a share ``--explore`` of uniformly random moves so the positions
vary), records each position just after a move (where the evaluation is used), and
finds by maximum likelihood the ``scale`` that best predicts the winners.

    python scripts/calibrate.py --rules classic --players 2 --games 2000

prints the fitted scale, the log loss at the fitted and the stored scale (a coin flip
scores ln 2 = 0.693 with 2 players), and a reliability table.  Games are seeded from
``--seed``, so a run is reproducible.  Partnership games are not supported (a side's
chance is counted once per side, not per colour).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence

from pardon.bots import make_bot
from pardon.bots.evaluation import TUNED, Evaluator, card_chances
from pardon.core.game import Game
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.sim.progress import Progress

#: One recorded position: each seat's evaluated score, the winner's index among the seats,
#: and the index of the seat that has just moved.
Sample = tuple[list[float], int, int]


def play(rules_name: str, players: int, bot_spec: str, explore: float, seed: int) -> list[Sample]:
    """One self-play game's positions after each move, with the game's winner."""
    rules = parse_rules(rules_name)
    seats = seats_for(players)
    game = Game.new(rules, seats, seed)
    rng = random.Random(f"pardon-calibrate:{seed}")
    bot = make_bot(bot_spec)
    evaluator = Evaluator(rules, TUNED)
    recorded: list[tuple[list[float], int]] = []
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
        if not game.is_over:  # the mover counts the cards it has not seen, as in play
            chances = card_chances(game.observe(mover).remaining(), rules)
            raws = evaluator.raws(game.position, chances)
            recorded.append(([raws[colour] for colour in seats], seats.index(mover)))
    assert game.winner is not None
    winner = seats.index(game.winner)
    return [(scores, winner, mover) for scores, mover in recorded]


def softmax(scores: Sequence[float], scale: float) -> list[float]:
    """Each seat's chance under a softmax of its score with temperature ``scale``."""
    top = max(scores)
    weights = [math.exp((score - top) / scale) for score in scores]
    total = sum(weights)
    return [weight / total for weight in weights]


def log_loss(samples: Sequence[Sample], scale: float) -> float:
    """Mean negative log-likelihood of the winners under a softmax with ``scale``."""
    return -sum(math.log(softmax(scores, scale)[winner]) for scores, winner, _ in samples) / len(samples)


def fit_scale(samples: Sequence[Sample], low: float = 5.0, high: float = 2000.0) -> float:
    """The maximum-likelihood scale: golden-section search on its logarithm."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = math.log(low), math.log(high)
    for _ in range(40):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if log_loss(samples, math.exp(c)) < log_loss(samples, math.exp(d)):
            b = d
        else:
            a = c
    return math.exp((a + b) / 2)


def reliability(samples: Sequence[Sample], scale: float, bins: int = 10) -> list[tuple[float, float, int]]:
    """Per bin of the mover's predicted chance: mean prediction, share won, positions."""
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for scores, winner, mover in samples:
        chance = softmax(scores, scale)[mover]
        row = sums[min(bins - 1, int(chance * bins))]
        row[0] += chance
        row[1] += 1.0 if winner == mover else 0.0
        row[2] += 1
    return [(row[0] / row[2], row[1] / row[2], int(row[2])) for row in sums if row[2]]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--bot", default="tactician", help="the level playing every seat")
    parser.add_argument("--explore", type=float, default=0.1, help="share of uniformly random moves")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    rules = parse_rules(arguments.rules)
    if rules.partners:
        parser.error("partnership games are not supported: a side's chance is counted once per side")
    if arguments.players not in rules.players:
        parser.error(f"rules {arguments.rules} are played by {' or '.join(map(str, rules.players))} players")
    samples: list[Sample] = []
    bar = Progress(arguments.games, sys.stderr)
    bar.update(0)
    for game in range(arguments.games):
        samples += play(arguments.rules, arguments.players, arguments.bot, arguments.explore, arguments.seed + game)
        bar.update(game + 1)
    scale = fit_scale(samples)
    print(f"{arguments.rules}, {arguments.players} players, {arguments.games} games, {len(samples):,} positions")
    print(f"fitted scale {scale:.1f}: log loss {log_loss(samples, scale):.4f}")
    print(f"stored scale {TUNED.scale:g}: log loss {log_loss(samples, TUNED.scale):.4f}")
    print(f"no information (every seat alike): {math.log(arguments.players):.4f}")
    print("\nmover's predicted chance (fitted scale) | won | positions")
    for predicted, won, count in reliability(samples, scale):
        print(f"{predicted:6.1%} | {won:6.1%} | {count:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
