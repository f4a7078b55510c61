"""Calibrate the evaluation's win chances: fit ``scale`` to who actually wins.

``Evaluator.win_chances`` turns each colour's score into a chance of winning, a softmax
with temperature ``scale`` (squares of progress).  ``mcts`` backs those chances up and the
hints show them to players, so they should mean what they say: of the positions given
a 30% chance, about 30% should be won.  This script plays self-play games (``--bot``
for every seat, with a share ``--explore`` of uniformly random moves so the positions
vary), records each position just after a move (where the evaluation is used), and
finds by maximum likelihood the ``scale`` that best predicts the winners, together with
its ``phase``: the scale is ``scale * remaining ** phase``, where ``remaining`` is the share
of the squares to Home the pawns still have to go (1 at the start), since the same lead is
worth more near the end of a game.

    python scripts/calibrate.py --rules classic --players 2 --games 2000

prints the fitted pair, the log loss at the fitted pair, at the best constant scale and at
the stored pair (a coin flip scores ln 2 = 0.693 with 2 players), and a reliability table.  Games are seeded from
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
from pardon.bots.evaluation import CALIBRATED_SCALES, TUNED, Evaluator, remaining, temperature_at
from pardon.bots.selfplay import Sample, after_each_move, log_loss, softmax
from pardon.core.game import Game
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.sim.progress import Progress

#: The phase exponents tried by ``fit``.
PHASES = tuple(step / 20 for step in range(0, 31))


def play(rules_name: str, players: int, bot_spec: str, explore: float, seed: int) -> list[Sample]:
    """One self-play game's positions after each move, with the game's winner."""
    rules = parse_rules(rules_name)
    seats = seats_for(players)
    game = Game.new(rules, seats, seed)
    rng = random.Random(f"pardon-calibrate:{seed}")
    bot = make_bot(bot_spec)
    evaluator = Evaluator(rules, TUNED)
    recorded: list[tuple[list[float], int, float]] = []
    for mover, chances in after_each_move(game, bot, explore, rng):
        raws = evaluator.raws(game.position, chances)
        scores = [raws[colour] for colour in seats]
        recorded.append((scores, seats.index(mover), remaining(game.position)))
    assert game.winner is not None
    winner = seats.index(game.winner)
    return [(scores, winner, mover, left) for scores, mover, left in recorded]


def fit_scale(samples: Sequence[Sample], phase: float = 0.0, low: float = 5.0, high: float = 5000.0) -> float:
    """The maximum-likelihood scale for ``phase``: golden-section search on its logarithm."""
    ratio = (math.sqrt(5) - 1) / 2
    a, b = math.log(low), math.log(high)
    for _ in range(32):
        c, d = b - ratio * (b - a), a + ratio * (b - a)
        if log_loss(samples, math.exp(c), phase) < log_loss(samples, math.exp(d), phase):
            b = d
        else:
            a = c
    return math.exp((a + b) / 2)


def fit(samples: Sequence[Sample], phases: Sequence[float] = PHASES) -> tuple[float, float]:
    """The maximum-likelihood ``(scale, phase)``, the phase from ``phases`` (a log loss in
    the phase has one minimum, so the scan stops once the loss rises)."""
    best: tuple[float, float, float] | None = None
    for phase in phases:
        scale = fit_scale(samples, phase)
        loss = log_loss(samples, scale, phase)
        if best is not None and loss > best[0]:
            break
        best = (loss, scale, phase)
    assert best is not None
    return best[1], best[2]


def reliability(
    samples: Sequence[Sample], scale: float, phase: float = 0.0, bins: int = 10
) -> list[tuple[float, float, int]]:
    """Per bin of the mover's predicted chance: mean prediction, share won, positions."""
    sums = [[0.0, 0.0, 0] for _ in range(bins)]
    for scores, winner, mover, left in samples:
        chance = softmax(scores, temperature_at(scale, phase, left))[mover]
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
    print(f"{arguments.rules}, {arguments.players} players, {arguments.games} games, {len(samples):,} positions")
    print("fitting ...", file=sys.stderr)
    scale, phase = fit(samples)
    print(f"fitted scale {scale:.1f}, phase {phase:g}: log loss {log_loss(samples, scale, phase):.4f}")
    constant = fit_scale(samples)
    print(f"best constant scale {constant:.1f} (phase 0): log loss {log_loss(samples, constant):.4f}")
    stored = CALIBRATED_SCALES.get((rules.hand > 0, arguments.players))
    if stored is not None:
        print(f"stored scale {stored[0]:g}, phase {stored[1]:g}: log loss {log_loss(samples, *stored):.4f}")
    print(f"no information (every seat alike): {math.log(arguments.players):.4f}")
    print("\nmover's predicted chance (fitted) | won | positions")
    for predicted, won, count in reliability(samples, scale, phase):
        print(f"{predicted:6.1%} | {won:6.1%} | {count:,}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
