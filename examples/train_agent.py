"""Train an agent for 2-player Sorry! from scratch on the vectorised environment, then
measure it against the random player.

The agent judges each legal action by the position it makes (its *afterstate*, from
``SorryVectorEnv.afterstates``) with a learned win chance: a logistic model over how
many of each player's pawns stand on each location (2 players x 67 locations).  It plays
the action whose afterstate it rates highest (a random action now and then while
learning) and, when a game ends, moves the win chances of the afterstates it chose
towards the result (1 won, 0 lost) by Adam steps that shrink as it learns: Monte Carlo
learning of an afterstate value, as TD-Gammon did with temporal differences.  Only NumPy
(matplotlib for the curve); a few minutes on one core.

    python examples/train_agent.py                  # train, then play 10,000 games against random
    python examples/train_agent.py --curve docs/batch-training.png --json docs/batch-training.json

Prints the learning curve (win rate against random on evaluation games as training
goes) and the final result over ``--evaluate`` games (10,000 by default) on seeds the
training never saw, with its 95% Wilson score interval.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from pardon.env.vector import SorryVectorEnv

SEATS, SLOTS, LOCATIONS = 4, 4, 67
PLAYERS = 2  # the observation's other two seats are empty in a 2-player game
PLANES = SEATS * SLOTS * LOCATIONS
FEATURES = PLAYERS * LOCATIONS + 1
EVALUATION_SEED = 1_000_000_000  # far from the training seeds
MOMENTUM, SPREAD = 0.9, 0.999  # Adam's decay of the gradient's mean and of its square
Z95 = 1.959964  # the normal quantile of a 95% interval


def features(observations: np.ndarray) -> np.ndarray:
    """Pawns per player and location (slots summed), and a constant."""
    planes = observations[:, :PLANES].reshape(-1, SEATS, SLOTS, LOCATIONS)[:, :PLAYERS]
    counts = planes.sum(axis=2).reshape(-1, PLAYERS * LOCATIONS)
    return np.hstack([counts, np.ones((len(counts), 1), dtype=np.float32)])


def wilson(wins: int, games: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (sound near 0% and 100%, unlike p ± 1.96 SE)."""
    rate, spread = wins / games, Z95 * Z95 / games
    centre = (rate + spread / 2) / (1 + spread)
    half = Z95 * math.sqrt(rate * (1 - rate) / games + spread / (4 * games)) / (1 + spread)
    return centre - half, centre + half


class Agent:
    """A logistic win chance of afterstates; plays the best-rated legal action."""

    def __init__(self) -> None:
        self.weights = np.zeros(FEATURES, dtype=np.float64)
        self.mean = np.zeros(FEATURES)  # Adam's running mean of the gradient
        self.square = np.zeros(FEATURES)  # and of its square
        self.steps = 0

    def rate(self, phi: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(phi @ self.weights)))

    def choose(
        self, env: SorryVectorEnv, rng: np.random.Generator, exploring: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each game's action, and the features of the afterstates chosen (by game)."""
        rows, actions, observed = env.afterstates()
        phi = features(observed)
        score = self.rate(phi) + rng.random(len(rows)) * 1e-9  # random among equals
        if exploring:
            score = np.where(rng.random(len(rows)) < exploring, rng.random(len(rows)) + 2.0, score)
        order = np.lexsort((-score, rows))
        first = order[np.r_[True, rows[order][1:] != rows[order][:-1]]]
        chosen = np.zeros(env.num_envs, dtype=np.int64)
        chosen[rows[first]] = actions[first]
        picked = np.zeros((env.num_envs, phi.shape[1]))
        picked[rows[first]] = phi[first]
        return chosen, picked, rows[first]

    def learn(self, phi: np.ndarray, won: np.ndarray, rate: float) -> None:
        """One Adam step: each weight moves by about ``rate`` whatever its gradient's size, so
        locations where pawns seldom stand learn as fast as Start, where all begin (with plain
        gradient steps the agent won 2-3 points fewer games against random)."""
        gradient = phi.T @ (won - self.rate(phi)) / max(len(phi), 1)
        self.steps += 1
        self.mean = MOMENTUM * self.mean + (1 - MOMENTUM) * gradient
        self.square = SPREAD * self.square + (1 - SPREAD) * gradient**2
        mean = self.mean / (1 - MOMENTUM**self.steps)  # unbiased early on, when the means start at 0
        square = self.square / (1 - SPREAD**self.steps)
        self.weights += rate * mean / (np.sqrt(square) + 1e-8)


def evaluate(agent: Agent, games: int, envs: int, seed: int) -> int:
    """The agent's wins in ``games`` games against random (learner at seat 0)."""
    env = SorryVectorEnv(min(envs, games), opponent="random", skip_forced=True, seed=seed)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    wins = finished = 0
    counted = np.ones(env.num_envs, dtype=bool)  # a game started after the quota is not counted
    started = env.num_envs
    while finished < games:
        actions, _, _ = agent.choose(env, rng, exploring=0.0)
        _, reward, terminated, _, _ = env.step(actions)
        for game in np.flatnonzero(terminated):
            if counted[game]:
                finished += 1
                wins += reward[game] > 0
            counted[game] = started < games
            started += 1
    return int(wins)


def train(args: argparse.Namespace) -> dict[str, object]:
    agent = Agent()
    env = SorryVectorEnv(args.envs, opponent="random", skip_forced=True, seed=args.seed)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    history: list[list[np.ndarray]] = [[] for _ in range(args.envs)]
    played = 0
    curve: list[tuple[int, float]] = [(0, checkpoint(agent, args))]
    print(f"{0:>7} games  win rate against random {curve[-1][1]:.1%}", flush=True)
    started = time.perf_counter()
    next_checkpoint = args.checkpoint
    while played < args.games:
        actions, picked, rows = agent.choose(env, rng, exploring=args.explore)
        for game in rows.tolist():
            history[game].append(picked[game])
        _, reward, terminated, _, _ = env.step(actions)
        ended = np.flatnonzero(terminated)
        if ended.size:
            phi = np.vstack([np.array(history[game]) for game in ended if history[game]])
            won = np.concatenate(
                [np.full(len(history[game]), reward[game] > 0, dtype=float) for game in ended if history[game]]
            )
            agent.learn(phi, won, args.rate / (1.0 + played / args.halving))  # steps shrink as it learns
            for game in ended:
                history[game] = []
            played += ended.size
        if played >= next_checkpoint:
            curve.append((played, checkpoint(agent, args)))
            print(f"{played:>7} games  win rate against random {curve[-1][1]:.1%}", flush=True)
            next_checkpoint += args.checkpoint
    seconds = time.perf_counter() - started
    wins = evaluate(agent, args.evaluate, args.envs, EVALUATION_SEED + 7)
    evaluation_seconds = time.perf_counter() - started - seconds
    final, (low, high) = wins / args.evaluate, wilson(wins, args.evaluate)
    print(
        f"trained on {played:,} games in {seconds:.0f} s; against random over {args.evaluate:,} games: "
        f"{final:.1%} (95% Wilson interval {low:.1%}-{high:.1%}, {evaluation_seconds:.0f} s)"
    )
    return {
        "seed": args.seed,
        "games": played,
        "seconds": round(seconds, 1),
        "evaluation_seconds": round(evaluation_seconds, 1),
        "final": final,
        "interval": [round(low, 4), round(high, 4)],
        "evaluated": args.evaluate,
        "curve": curve,
    }


def checkpoint(agent: Agent, args: argparse.Namespace) -> float:
    """A point of the learning curve: the share of ``--checkpoint-games`` won against random."""
    return evaluate(agent, args.checkpoint_games, args.envs, EVALUATION_SEED) / args.checkpoint_games


def plot(result: dict[str, object], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve, final, (low, high) = result["curve"], result["final"], result["interval"]
    assert isinstance(curve, list) and isinstance(final, float)
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.plot([games for games, _ in curve], [rate * 100 for _, rate in curve], marker="o", label="while training")
    axes.errorbar(
        curve[-1][0],
        final * 100,
        yerr=[[(final - low) * 100], [(high - final) * 100]],
        fmt="s",
        color="black",
        capsize=4,
        label=f"final, {result['evaluated']:,} games (95% interval)",
    )
    axes.axhline(80, color="grey", linestyle="--", linewidth=1)
    axes.legend(loc="lower right")
    axes.set_xlabel("training games")
    axes.set_ylabel("wins against random (%)")
    axes.set_title("Afterstate agent, 2-player classic")
    axes.set_ylim(40, 100)
    figure.tight_layout()
    figure.savefig(path, dpi=120)


def positive(text: str) -> int:
    """A count of games: a whole number, 1 or more (0 would never reach a checkpoint)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number, not {text}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def above_zero(text: str) -> float:
    """A rate or a count of games that may have a fraction: a number above 0."""
    number = _number(text)
    if not number > 0:
        raise argparse.ArgumentTypeError(f"must be above 0, not {text}")
    return number


def share(text: str) -> float:
    """A share of the actions: a number from 0 to 1."""
    number = _number(text)
    if not 0 <= number <= 1:
        raise argparse.ArgumentTypeError(f"must be from 0 to 1, not {text}")
    return number


def _number(text: str) -> float:
    try:
        number = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number, not {text}") from None
    if not math.isfinite(number):  # nan and infinity are no rate
        raise argparse.ArgumentTypeError(f"must be a finite number, not {text}")
    return number


def _description() -> str:
    """The module's first paragraph, as --help says it (its first line alone stops mid-sentence)."""
    assert __doc__ is not None
    return " ".join(__doc__.split("\n\n")[0].split())


def main() -> None:
    parser = argparse.ArgumentParser(description=_description())
    parser.add_argument("--games", type=positive, default=20_000, help="training games (20,000)")
    parser.add_argument("--envs", type=positive, default=2_048, help="games played at once (2,048)")
    parser.add_argument("--rate", type=above_zero, default=0.01, help="Adam step size at first (0.01)")
    parser.add_argument(
        "--halving", type=above_zero, default=20_000, help="training games until the rate is halved (20,000)"
    )
    parser.add_argument("--explore", type=share, default=0.05, help="share of random actions while learning (0.05)")
    parser.add_argument(
        "--checkpoint", type=positive, default=2_000, help="training games between curve points (2,000)"
    )
    parser.add_argument("--checkpoint-games", type=positive, default=500, help="evaluation games per curve point (500)")
    parser.add_argument("--evaluate", type=positive, default=10_000, help="final evaluation games (10,000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--curve", type=Path, help="write the learning curve here (PNG; needs matplotlib)")
    parser.add_argument("--json", type=Path, help="write the figures here as JSON")
    args = parser.parse_args()
    result = train(args)
    if args.json:
        args.json.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    if args.curve:
        plot(result, args.curve)


if __name__ == "__main__":
    main()
