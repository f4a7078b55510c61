"""How long each level takes to decide, on the same positions.

    python benchmarks/decisions.py --rules classic --players 2 --games 3 --bots expectimax,mcts

plays ``--games`` seeded games with ``tactician`` choosing every move, and at each decision
with more than one legal move asks every listed level for its choice as well, timing it
in CPU seconds (so other work on the machine does not count).  Every level thus decides
on exactly the same positions, which a tournament cannot give.  Prints the median, 90th
and 99th percentile and the slowest decision per level.  Figures only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from pardon.bots import make_bot, split_bot_specs
from pardon.core import Game, parse_rules
from pardon.core.state import seats_for
from pardon.sim.progress import Progress
from pardon.sim.stats import percentile


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default="tactician,expectimax,mcts", help="levels with budgets, comma-separated")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    rules = parse_rules(arguments.rules)
    specs = split_bot_specs(arguments.bots)
    bots = [make_bot(spec) for spec in specs]
    driver = make_bot("tactician")
    times: dict[str, list[float]] = {spec: [] for spec in specs}
    bar = Progress(arguments.games, sys.stderr)
    for number in range(arguments.games):
        seed = arguments.seed + number
        game = Game.new(rules, seats_for(arguments.players), seed)
        rng = random.Random(seed)
        while not game.is_over:
            if game.awaiting_draw:
                game.draw()
            moves = game.legal_moves()
            seen = game.observe(game.decider)
            if len(moves) > 1:
                for spec, bot in zip(specs, bots, strict=True):
                    started = time.process_time()
                    bot.choose(seen, moves, random.Random(seed))
                    times[spec].append(time.process_time() - started)
            game.play_trusted(driver.choose(seen, moves, rng))
        bar.update(number + 1)
    print(f"\n{arguments.rules}, {arguments.players} players, {arguments.games} games from seed {arguments.seed}")
    print(f"{'level':32s} {'decisions':>9s} {'median s':>9s} {'p90 s':>8s} {'p99 s':>8s} {'max s':>8s}")
    for spec, spent in times.items():
        ordered = sorted(spent)
        print(
            f"{spec:32s} {len(ordered):9d} {statistics.median(ordered):9.4f} {percentile(ordered, 0.9):8.4f} "
            f"{percentile(ordered, 0.99):8.4f} {ordered[-1]:8.4f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
