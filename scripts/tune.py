"""Tune the evaluation weights of ``tactician`` / ``expectimax`` by self-play.

Coordinate ascent over duplicate matches: for each weight in turn, a candidate with that
weight moved up (then down) by its step plays a duplicate match against the current
best weights; it replaces them if it wins more than ``--accept`` of the games.  A weight
whose two candidates both fail has its step halved.  Every match uses fresh deals, so
the weights are not fitted to a fixed set of games.

    python scripts/tune.py --bot tactician --games 800 --rounds 3 --jobs 2

prints each trial and, at the end, the ``Weights(...)`` to paste into
``TUNED`` in src/pardon/bots/evaluation.py.  docs/bots.md describes the run that made
the stored weights.
"""

from __future__ import annotations

import argparse
import sys

from pardon.bots.evaluation import TUNED, Weights
from pardon.sim.tournament import run_tournament

#: First step of each weight (squares of progress, or a fraction for ``threat``/``leader``).
STEPS = {"out": 4.0, "safety": 3.0, "home": 3.0, "spread": 2.0, "reach": 2.0, "threat": 0.3, "leader": 0.25}
MCTS_STEPS = {"scale": 10.0}


def spec(bot: str, weights: Weights, extra: str) -> str:
    options = ",".join(f"{name}={value:.6g}" for name, value in zip(Weights.names(), weights.to_list(), strict=True))
    return f"{bot}({options}{',' + extra if extra else ''})"


def match(bot: str, candidate: Weights, incumbent: Weights, arguments: argparse.Namespace, trial: int) -> float:
    """The candidate's duplicate score against the incumbent."""
    report = run_tournament(
        [spec(bot, candidate, arguments.options), spec(bot, incumbent, arguments.options)],
        rules=arguments.rules,
        players=arguments.players,
        games=arguments.games,
        jobs=arguments.jobs,
        seed=arguments.seed * 1000 + trial,
    )
    return report.pairings[0].rate.estimate


def tune(arguments: argparse.Namespace) -> Weights:
    best = TUNED
    steps = dict(STEPS) | (MCTS_STEPS if arguments.bot == "mcts" else {})
    trial = 0
    for round_number in range(arguments.rounds):
        for name, step in steps.items():
            improved = False
            for sign in (1, -1):
                candidate = best.with_changes(**{name: getattr(best, name) + sign * step})
                trial += 1
                rate = match(arguments.bot, candidate, best, arguments, trial)
                print(f"round {round_number + 1} {name}={getattr(candidate, name):g}: {rate:.3f}", flush=True)
                if rate > arguments.accept:
                    best, improved = candidate, True
                    break
            if not improved:
                steps[name] = step / 2
        print(f"after round {round_number + 1}: {best!r}", flush=True)
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bot", default="tactician", choices=("tactician", "expectimax", "mcts"))
    parser.add_argument("--options", default="", help="other options of the player, e.g. depth=1")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=800, help="games per match")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--accept", type=float, default=0.52, help="score a candidate needs to replace the best")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    best = tune(parser.parse_args())
    print(f"TUNED: Final = {best!r}", file=sys.stdout)
    return 0


if __name__ == "__main__":
    sys.exit(main())
