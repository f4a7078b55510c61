"""What knowing the pack is worth: a clairvoyant ``expectimax`` against a fair player.

The clairvoyant plays ``expectimax``'s search with the same judge, but on the real game: it
knows the order of the pack, so where the fair search weighs every card the next draw can
turn up, it follows the one that will come.  No fair player can know more, so its share of
wins bounds what knowing the next draws is worth to a search of that depth and judge — a
yardstick for how far a fair player (``expert``) might climb above ``expectimax``.

Every deal is played twice, each player seated first once (a duplicate pair, seeds as
``pardon tournament``'s), 2-player classic; the share is given with a 95% interval that
counts each deal as one observation, as the tournament's do.  Progress goes to stderr.

    python scripts/clairvoyant.py --deals 500 --seed 777
    python scripts/clairvoyant.py --deals 300 --seed 777 --depth 7 --width 0 --roots 0
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from typing import Any

from pardon.bots import make_bot
from pardon.bots.evaluation import Evaluator
from pardon.bots.expectimax import ExpectimaxBot, Vector
from pardon.core.game import Game
from pardon.core.observation import Observation
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.sim.tournament import deal_seed

RULES = parse_rules("classic")
SEATS = seats_for(2)


class Clairvoyant(ExpectimaxBot):
    """``expectimax`` searching the real game: its chance nodes follow the card that will come."""

    name = "clairvoyant"

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.real: Game | None = None  # the game being played, set before each decision

    def _model(self, observation: Observation, rng: random.Random) -> Game:
        real = self.real
        assert real is not None
        model = Game(real.rules, real.before_draw)  # the real pack, in its real order
        if real.card is not None:
            model.draw()
        return model

    def _chance(self, game: Game, depth: int, evaluator: Evaluator) -> Vector:
        game.draw()  # the next card of the real pack
        vector = self._decide(game, depth, evaluator)
        game.undraw()
        return vector


def play(seed: int, seer_colour: int, seer: Clairvoyant, fair: Any) -> bool:
    """One game; whether the clairvoyant won."""
    game = Game.new(RULES, SEATS, seed)
    rng = random.Random(seed)
    seer.real = game
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        if len(moves) > 1:
            bot = seer if game.decider == seer_colour else fair
            game.play_trusted(bot.choose(game.observe(game.decider), moves, rng))
        else:
            game.play_trusted(moves[0])
    return game.winner == seer_colour


def interval(scores: list[float]) -> tuple[float, float, float]:
    """The mean of the deals' scores and its 95% interval (normal approximation)."""
    mean = sum(scores) / len(scores)
    spread = math.sqrt(sum((score - mean) ** 2 for score in scores) / max(1, len(scores) - 1) / len(scores))
    return mean, mean - 1.96 * spread, mean + 1.96 * spread


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=500, help="deals, each played twice (500)")
    parser.add_argument("--seed", type=int, default=777, help="tournament seed of the deals (777)")
    parser.add_argument("--opponent", default="expectimax", help="the fair player (expectimax)")
    parser.add_argument("--depth", type=int, default=None, help="the clairvoyant's depth (expectimax's own)")
    parser.add_argument("--width", type=int, default=1, help="the clairvoyant's width (1; 0 searches every reply)")
    parser.add_argument("--roots", type=int, default=10, help="the clairvoyant's roots (10; 0 searches every move)")
    args = parser.parse_args(argv)
    if args.deals < 1:
        parser.error("--deals must be at least 1")
    seer = Clairvoyant(depth=args.depth, width=args.width, roots=args.roots)
    fair = make_bot(args.opponent)
    scores: list[float] = []
    started = time.monotonic()
    for deal in range(args.deals):
        seed = deal_seed(args.seed, deal)
        scores.append(sum(play(seed, colour, seer, fair) for colour in SEATS) / len(SEATS))
        if (deal + 1) % 25 == 0 or deal + 1 == args.deals:
            mean, low, high = interval(scores)
            elapsed = time.monotonic() - started
            print(
                f"{deal + 1}/{args.deals} deals: clairvoyant {mean:.1%} ({low:.1%}-{high:.1%}), {elapsed:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    mean, low, high = interval(scores)
    print(
        f"clairvoyant expectimax(depth={args.depth},width={args.width},roots={args.roots}) against"
        f" {args.opponent}: {mean:.1%} ({low:.1%}-{high:.1%}) over {2 * len(scores)} games, seed {args.seed}"
    )


if __name__ == "__main__":
    main()
