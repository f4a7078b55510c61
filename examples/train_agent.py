"""Train an agent for 2-player Sorry! from scratch on the vectorised environment, then
measure it against the random player.

The agent judges each legal action by the position it makes (its *afterstate*, from
``SorryVectorEnv.afterstates``) with a learned win chance: a logistic model over how
many of each player's pawns stand on each location (4 players x 67 locations).  It plays
the action whose afterstate it rates highest (a random action now and then while
learning) and, when a game ends, moves the win chances of the afterstates it chose
towards the result (1 won, 0 lost), in steps that shrink as it learns: Monte Carlo
learning of an afterstate value, as TD-Gammon did with temporal differences.  Only NumPy
(matplotlib for the curve); a few minutes on one core.

    python examples/train_agent.py                  # train, then play 2,000 games against random
    python examples/train_agent.py --curve docs/batch-training.png --json docs/batch-training.json

Prints the learning curve (win rate against random on evaluation games as training
goes) and the final result over ``--evaluate`` games (2,000 by default) on seeds the
training never saw.
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
PLANES = SEATS * SLOTS * LOCATIONS
EVALUATION_SEED = 1_000_000_000  # far from the training seeds


def features(observations: np.ndarray) -> np.ndarray:
    """Pawns per player and location (slots summed), and a constant."""
    counts = observations[:, :PLANES].reshape(-1, SEATS, SLOTS, LOCATIONS).sum(axis=2).reshape(-1, SEATS * LOCATIONS)
    return np.hstack([counts, np.ones((len(counts), 1), dtype=np.float32)])


class Agent:
    """A logistic win chance of afterstates; plays the best-rated legal action."""

    def __init__(self) -> None:
        self.weights = np.zeros(SEATS * LOCATIONS + 1, dtype=np.float64)

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
        error = won - self.rate(phi)
        self.weights += rate * (phi.T @ error) / max(len(phi), 1)


def evaluate(agent: Agent, games: int, envs: int, seed: int) -> float:
    """The agent's share of wins in ``games`` games against random (learner at seat 0)."""
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
    return wins / games


def train(args: argparse.Namespace) -> dict[str, object]:
    agent = Agent()
    env = SorryVectorEnv(args.envs, opponent="random", skip_forced=True, seed=args.seed)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    history: list[list[np.ndarray]] = [[] for _ in range(args.envs)]
    played = 0
    curve: list[tuple[int, float]] = [(0, evaluate(agent, args.checkpoint_games, args.envs, EVALUATION_SEED))]
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
            curve.append((played, evaluate(agent, args.checkpoint_games, args.envs, EVALUATION_SEED)))
            print(f"{played:>7} games  win rate against random {curve[-1][1]:.1%}", flush=True)
            next_checkpoint += args.checkpoint
    seconds = time.perf_counter() - started
    final = evaluate(agent, args.evaluate, args.envs, EVALUATION_SEED + 7)
    print(f"trained on {played:,} games in {seconds:.0f} s; against random over {args.evaluate:,} games: {final:.1%}")
    return {"games": played, "seconds": round(seconds, 1), "final": final, "evaluated": args.evaluate, "curve": curve}


def plot(result: dict[str, object], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    curve = result["curve"]
    assert isinstance(curve, list)
    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.plot([games for games, _ in curve], [rate * 100 for _, rate in curve], marker="o")
    axes.axhline(80, color="grey", linestyle="--", linewidth=1)
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
    parser.add_argument("--envs", type=positive, default=512, help="games played at once (512)")
    parser.add_argument("--rate", type=above_zero, default=0.05, help="learning rate at first (0.05)")
    parser.add_argument(
        "--halving", type=above_zero, default=20_000, help="training games until the rate is halved (20,000)"
    )
    parser.add_argument("--explore", type=share, default=0.05, help="share of random actions while learning (0.05)")
    parser.add_argument(
        "--checkpoint", type=positive, default=2_000, help="training games between curve points (2,000)"
    )
    parser.add_argument("--checkpoint-games", type=positive, default=500, help="evaluation games per curve point (500)")
    parser.add_argument("--evaluate", type=positive, default=2_000, help="final evaluation games (2,000)")
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
