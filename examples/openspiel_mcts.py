"""OpenSpiel's own MCTS bot against a random player, on pardon's OpenSpiel game (needs the
``openspiel`` extra: ``pip install 'pardon[openspiel]'``).

    python examples/openspiel_mcts.py --games 40 --simulations 50

Plays ``--games`` 2-player games of ``--rules`` with ``pyspiel.load_game("python_pardon")``:
``open_spiel.python.algorithms.mcts.MCTSBot`` (its UCT search, the game's chance nodes
sampled) against OpenSpiel's uniform random bot, each playing first in half the games.  The
search judges a leaf by ``--evaluator``: ``progress`` (how far each side's pawns have come, a
sum over pawns) or ``rollout`` (OpenSpiel's random rollouts, slower and noisier).  Prints the
MCTS bot's share of wins with its 95% interval (Wilson), and a line per game on stderr.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts
from open_spiel.python.bots import uniform_random

from pardon.core.board import START
from pardon.env.openspiel import PardonState


class ProgressEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """A leaf's value for each player: how far its pawns have come (0 all in Start, 1 all Home)
    against the others' mean, so that the values sum to zero as the game's returns do."""

    def evaluate(self, state: PardonState) -> np.ndarray:
        if state.is_terminal():
            return np.array(state.returns())
        position = state.state.position
        progress = np.array(
            [
                sum(START - distance for distance in position.pawns[colour]) / (START * len(position.pawns[colour]))
                for colour in state.seats
            ]
        )
        return progress - progress.mean()

    def prior(self, state: PardonState) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return list(state.chance_outcomes())
        actions = state.legal_actions()
        return [(action, 1.0 / len(actions)) for action in actions]


def play(game: Any, bots: list[Any], rng: np.random.RandomState) -> list[float]:
    """One game to its end; the returns."""
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=np.array(chances) / sum(chances))))
            continue
        actions = state.legal_actions()
        player = state.current_player()
        state.apply_action(actions[0] if len(actions) == 1 else bots[player].step(state))
    return list(state.returns())


def wilson(wins: float, games: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share."""
    if not games:
        return 0.0, 1.0
    z, share = 1.96, wins / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rules", default="classic", help="any edition with drawn cards (default classic)")
    parser.add_argument("--games", type=int, default=40, help="games to play (default 40)")
    parser.add_argument("--simulations", type=int, default=50, help="MCTS simulations a decision (default 50)")
    parser.add_argument("--evaluator", choices=("progress", "rollout"), default="progress")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the games and the bots (default 0)")
    arguments = parser.parse_args()
    rng = np.random.RandomState(arguments.seed)
    wins = 0.0
    started = time.monotonic()
    for number in range(arguments.games):
        game = pyspiel.load_game(
            "python_pardon", {"rules": arguments.rules, "players": 2, "seed": arguments.seed + number}
        )
        evaluator = ProgressEvaluator() if arguments.evaluator == "progress" else mcts.RandomRolloutEvaluator(1, rng)
        searcher = mcts.MCTSBot(game, 2.0, arguments.simulations, evaluator, random_state=rng)
        seat = number % 2  # the MCTS bot plays first in half the games
        bots = [searcher, uniform_random.UniformRandomBot(1 - seat, rng)]
        if seat:
            bots.reverse()
        returns = play(game, bots, rng)
        won = returns[seat] > 0
        wins += won
        print(
            f"game {number + 1}: MCTS {'won' if won else 'lost'} ({time.monotonic() - started:.0f} s)", file=sys.stderr
        )
    low, high = wilson(wins, arguments.games)
    share = wins / arguments.games if arguments.games else 0.0
    print(
        f"OpenSpiel's MCTS ({arguments.simulations} simulations, {arguments.evaluator}) against random, "
        f"{arguments.rules}: won {wins:.0f} of {arguments.games}, {share:.1%} ({low:.1%}–{high:.1%})"
    )


if __name__ == "__main__":
    main()
