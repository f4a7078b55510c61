"""Learn the value of a pawn on every square from who wins self-play games.

The hand-written evaluation counts a pawn's progress square for square, with a few
bonuses (out of Start, in the Safety Zone, Home, near the Safety Zone).  This script
fits instead one value per distance from Home (67 of them, Start counting 0), together
with the weights of the danger of being bumped, by maximum likelihood of the winners of
``tactician`` self-play games (``--explore`` of the moves uniformly random, so the
positions vary): each seat's chance to win is a softmax of its score, at a temperature
that shrinks as the pawns near Home (``phase``, as in ``scripts/calibrate.py``).

    python scripts/learn.py --rules classic --players 2 --games 12000 --write

plays the games (seeded from ``--seed``), fits on 85% of them, prints the log loss on the
other 15% against the hand-written evaluation's, and with ``--write`` stores the values in
``src/pardon/bots/learned.py`` under the game's key (hands or not, players), where
``expectimax`` and ``mcts`` read them (``learned=1``, their default).  Needs numpy (the
``sim`` extra).  Partnership games use the 4-player values.
"""

from __future__ import annotations

import argparse
import functools
import math
import random
import runpy
import sys
import textwrap
from pathlib import Path
from typing import Any

import numpy as np

from pardon.bots import make_bot, selfplay
from pardon.bots.evaluation import TUNED, Evaluator, Weights, remaining
from pardon.bots.learned import Terms
from pardon.core.board import FIRST_TRACK, START
from pardon.core.game import Game
from pardon.core.rules import parse_rules
from pardon.core.state import Position, seats_for
from pardon.sim.pool import worker_pool
from pardon.sim.progress import Progress

MODULE = Path(__file__).resolve().parent.parent / "src" / "pardon" / "bots" / "learned.py"
PHASE = 0.75  # the temperature's shrinking with the way left, as calibrated for the classic game
DISTANCES = START  # one value per distance 0 (Home) .. 65; Start is the reference, 0
# per seat: the pawns at each distance, the danger from players drawing before its next
# turn and from those drawing after it, and (the mover only) tempo and a 2's draw again
FEATURES = DISTANCES + 4

#: One seat in a recorded position: its pawns, the danger from players drawing before its
#: next turn and from those drawing after it, whether it has just moved, and whether it
#: draws again (a classic 2).
Seat = tuple[tuple[int, ...], float, float, bool, bool]
#: One recorded position: its seats, the hand evaluation's raw scores, the winner's seat
#: index and the share of the way still to go.
Sample = tuple[list[Seat], list[float], int, float]


def seat_of(evaluator: Evaluator, position: Position, chances: list[float], colour: int, mover: int) -> Seat:
    first = evaluator.danger(colour, position, chances, later=0.0)
    total = evaluator.danger(colour, position, chances, later=1.0)
    return position.pawns[colour], first, total - first, colour == mover, position.turn == mover == colour


def play(
    rules_name: str, players: int, explore: float, seed: int, bot_name: str = "tactician", keep: float = 1.0
) -> list[Sample]:
    """One self-play game's positions after each move (a share ``keep`` of them, drawn at
    random: neighbouring positions of a game tell much the same), with its winner."""
    rules = parse_rules(rules_name)
    seats = seats_for(players)
    game = Game.new(rules, seats, seed)
    rng = random.Random(f"pardon-learn:{seed}")
    keeping = random.Random(f"pardon-learn-keep:{seed}")
    bot = make_bot(bot_name)
    evaluator = Evaluator(rules, TUNED)
    recorded: list[tuple[list[Seat], list[float], float]] = []
    for mover, chances in selfplay.after_each_move(game, bot, explore, rng):
        if keep < 1.0 and keeping.random() >= keep:
            continue
        position = game.position
        raws = evaluator.raws(position, chances)
        seated = [seat_of(evaluator, position, chances, colour, mover) for colour in seats]
        recorded.append((seated, [raws[colour] for colour in seats], remaining(position)))
    assert game.winner is not None
    winner = seats.index(game.winner)
    return [(rows, raws, winner, left) for rows, raws, left in recorded]


def arrays(samples: list[Sample]) -> tuple[Any, Any]:
    """The features (positions x seats x features), those of the position scaled by its
    temperature, and the winners' seat indexes."""
    features = np.zeros((len(samples), len(samples[0][0]), FEATURES))
    for index, (seats, _, _, left) in enumerate(samples):
        shrink = 1 / max(left, 0.02) ** PHASE
        for place, (pawns, first, later, moved, again) in enumerate(seats):
            row = features[index, place]
            for pawn in pawns:
                if pawn < START:
                    row[pawn] += shrink
            row[DISTANCES] = first * shrink
            row[DISTANCES + 1] = later * shrink
            row[DISTANCES + 2] = moved
            row[DISTANCES + 3] = again
    winners = np.array([winner for _, _, winner, _ in samples])
    return features, winners


def log_loss(features: Any, winners: Any, weights: Any) -> float:
    scores = features @ weights
    top = scores.max(axis=1, keepdims=True)
    log_total = top[:, 0] + np.log(np.exp(scores - top).sum(axis=1))
    return float(np.mean(log_total - scores[np.arange(len(winners)), winners]))


def penalty(width: int, smooth: float, ridge: float = 1.0) -> Any:
    """The prior: neighbouring squares of the track, and of the Safety Zone, are worth
    about the same (``smooth`` times the squared differences), and every weight is held a
    little towards 0 (``ridge``), so that rare squares borrow from their neighbours."""
    matrix = ridge * np.eye(width)
    if not smooth:
        return matrix
    for first, last in ((1, FIRST_TRACK - 1), (FIRST_TRACK, START - 1)):
        for distance in range(first, last):
            step = np.zeros(width)
            step[distance], step[distance + 1] = 1.0, -1.0
            matrix += smooth * np.outer(step, step)
    return matrix


def fit(features: Any, winners: Any, smooth: float, steps: int = 5) -> Any:
    """Maximum likelihood of the winners under a softmax of the seats' scores (a
    conditional logit) with the :func:`penalty` prior, by Newton's method."""
    count, _, width = features.shape
    prior = penalty(width, smooth)
    weights = np.zeros(width)
    chosen = features[np.arange(count), winners]
    for _ in range(steps):
        scores = features @ weights
        chances = np.exp(scores - scores.max(axis=1, keepdims=True))
        chances /= chances.sum(axis=1, keepdims=True)
        mean = np.einsum("ns,nsf->nf", chances, features)
        gradient = (mean - chosen).sum(axis=0) + prior @ weights
        rows = (features * np.sqrt(chances)[..., None]).reshape(-1, width)
        second = rows.T @ rows
        second -= mean.T @ mean
        weights -= np.linalg.solve(second + prior, gradient)
    return weights


def learned_values(weights: Any) -> Terms:
    """The fitted weights in squares: scaled so that a square of progress on the track is
    worth 1 on average (the slope of the values from the start exit to the Safety Zone)."""
    track = np.arange(FIRST_TRACK, START)
    slope = -np.polyfit(track, weights[FIRST_TRACK:START], 1)[0]
    pawns = (*(round(float(value / slope), 2) for value in weights[:DISTANCES]), 0.0)
    threat = float(-weights[DISTANCES] / slope)
    return Terms(
        pawns=pawns,
        threat=round(threat, 4),
        later=round(float(-weights[DISTANCES + 1] / slope) / threat, 4),
        scale=round(float(1 / slope), 1),
        phase=PHASE,
    )


def write(key: tuple[bool, int], values: Terms) -> None:
    """Store ``values`` under ``key`` in the module, keeping the other games' values (as
    the file holds them now: another run may have written since this one started)."""
    table = dict(runpy.run_path(str(MODULE))["LEARNED"])
    table[key] = values
    entries = []
    for hands, players in sorted(table):
        found = table[(hands, players)]
        numbers = textwrap.fill(", ".join(f"{value:g}" for value in found.pawns), width=100)
        entries.append(
            f"    ({hands}, {players}): Terms(\n        pawns=(\n"
            + textwrap.indent(numbers, " " * 12)
            + f",\n        ),\n        threat={found.threat!r},\n        later={found.later!r},\n"
            + f"        scale={found.scale!r},\n        phase={found.phase!r},\n    ),"
        )
    head = MODULE.read_text().split("# fmt: off", 1)[0]
    text = "LEARNED: Final[dict[tuple[bool, int], Terms]] = {\n" + "\n".join(entries) + "\n}\n"
    MODULE.write_text(head + "# fmt: off\n" + text + "# fmt: on\n")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--explore", type=float, default=0.1, help="share of uniformly random moves")
    parser.add_argument("--games", type=int, default=12000)
    parser.add_argument("--seed", type=int, default=200000)
    parser.add_argument("--bot", default="tactician", help="the level that plays the self-play games")
    parser.add_argument("--keep", type=float, default=1.0, help="share of the positions kept (at random)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes playing the games")
    parser.add_argument(
        "--smooth",
        default="1e5",
        help="weight of the prior that neighbouring squares are alike; several, comma-separated, "
        "are each fitted and the one with the lowest held-out log loss is kept",
    )
    parser.add_argument("--write", action="store_true", help=f"store the values in {MODULE.name}")
    arguments = parser.parse_args()
    rules = parse_rules(arguments.rules)
    if rules.partners:
        parser.error("partnership games are not supported: they use the 4-player values")
    if arguments.players not in rules.players:
        parser.error(f"rules {arguments.rules} are played by {' or '.join(map(str, rules.players))} players")
    samples: list[Sample] = []
    held_out = arguments.games - arguments.games * 85 // 100
    make_bot(arguments.bot)  # a mistyped level stops here, before any game
    bar = Progress(arguments.games, sys.stderr)
    bar.update(0)
    split = 0
    one_game = functools.partial(
        play, arguments.rules, arguments.players, arguments.explore, bot_name=arguments.bot, keep=arguments.keep
    )
    with worker_pool(max(1, arguments.jobs)) as pool:
        seeds = range(arguments.seed, arguments.seed + arguments.games)
        for game, played in enumerate(pool.imap(one_game, seeds, chunksize=4)):
            if game == arguments.games - held_out:
                split = len(samples)
            samples += played
            bar.update(game + 1)
    print(
        f"{arguments.rules}, {arguments.players} players, {arguments.games} games of {arguments.bot}, "
        f"{len(samples):,} positions"
    )
    print("fitting ...", file=sys.stderr)
    features, winners = arrays(samples)
    fitted = []
    for smooth in (float(text) for text in arguments.smooth.split(",")):
        weights = fit(features[:split], winners[:split], smooth)
        loss = log_loss(features[split:], winners[split:], weights)
        print(f"smooth {smooth:g}: held-out log loss {loss:.5f}")
        fitted.append((loss, smooth, weights))
    loss, smooth, weights = min(fitted, key=lambda item: item[0])
    values = learned_values(weights)
    temperature = Evaluator(rules, Weights()).temperature(arguments.players)
    print(f"held-out log loss: learned {loss:.5f} (smooth {smooth:g}), ", end="")
    hand = selfplay.log_loss([(raws, winner, 0, left) for _, raws, winner, left in samples[split:]], *temperature)
    print(f"hand-written {hand:.5f}, no information {math.log(arguments.players):.4f}")
    print(f"threat {values.threat}, later {values.later}, scale {values.scale}, phase {values.phase}")
    print("pawn values by distance from Home (Start 0):", ", ".join(f"{value:g}" for value in values.pawns))
    if arguments.write:
        write((rules.hand > 0, arguments.players), values)
        print(f"written to {MODULE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
