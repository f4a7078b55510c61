"""Learn the `expert` level's value of a position by self-play on the batch engine.

The value is a small neural network (one hidden layer of ``--hidden`` tanh units) giving
the chance that the player to draw next wins a 2-player classic game, from the position
before that draw (:mod:`pardon.bots.expert` lists its inputs: where each pawn stands, how
far each opponent pawn is behind each of the player's own, the cards left in the pack).

Each generation plays ``--games`` games at once on :mod:`pardon.batch` (NumPy), every move
chosen by the network one ply ahead (the move whose position gives the mover the best
chance; ``--explore`` of them at random), then fits the network to who won each game
(Monte Carlo targets: every position counts 1 if its player to draw went on to win).  The
first generation is played by ``greedy``.  Progress goes to stderr; the network is written
to ``src/pardon/bots/expert.json`` with ``--write``.

    python scripts/train_expert.py --generations 30 --games 4000 --seed 1 --write

Needs numpy (the ``rl`` or ``sim`` extra).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

from pardon.batch.convert import games_at, put_games
from pardon.batch.engine import Config, Games, draw, legal_lanes, new_games, play
from pardon.batch.observe import locations
from pardon.batch.players import greedy_actions
from pardon.bots.expert import FEATURES, GAP, PACK, THEIRS, TRACK_SQUARES, Network
from pardon.core.cards import CARDS, DECKS

OUT = Path(__file__).resolve().parent.parent / "src" / "pardon" / "bots" / "expert.json"


def features(config: Config, games: Games) -> np.ndarray:
    """``(games, FEATURES)`` float32: the inputs of :mod:`pardon.bots.expert` for batch games
    before a draw (seat 0 is the player to draw), computed as arrays."""
    count = games.card.shape[0]
    out = np.zeros((count, FEATURES), dtype=np.float32)
    rows = np.arange(count)
    for seat, base in ((0, 0), (1, THEIRS)):
        for slot in range(config.rules.pawns):
            out[rows, base + games.pawns[seat, slot].astype(np.int64)] += 1.0
    place = locations(config, games, 0).astype(np.int64)  # 1..60 on the track, from the drawer's side
    for mine in range(config.rules.pawns):
        for theirs in range(config.rules.pawns):
            a, b = place[0, mine], place[1, theirs]
            on = (a >= 1) & (a <= TRACK_SQUARES) & (b >= 1) & (b <= TRACK_SQUARES)
            behind = (a - b) % TRACK_SQUARES  # how far their pawn is behind mine, 1..59
            np.add.at(out, (rows[on], GAP + behind[on] - 1), 1.0)
    deck = np.array([DECKS[config.rules.deck][card] for card in CARDS], dtype=np.float32)
    out[:, PACK : PACK + len(CARDS)] = (games.pack.astype(np.float32) / deck[:, None]).T
    return out


class Trainer:
    """The network's weights as arrays, its chance and an Adam step on the log loss."""

    def __init__(self, hidden: int, rng: np.random.Generator) -> None:
        self.w1 = rng.normal(0, 0.1, (FEATURES, hidden)).astype(np.float64)
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0, 0.1, hidden)
        self.b2 = np.zeros(1)
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.steps = 0

    @property
    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def chance(self, phi: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(np.tanh(phi @ self.w1 + self.b1) @ self.w2 + self.b2[0])))

    def fit(
        self, phi: np.ndarray, won: np.ndarray, epochs: int, batch: int, rate: float, rng: np.random.Generator
    ) -> float:
        """Adam on the mean log loss; returns the loss before fitting."""
        p = np.clip(self.chance(phi), 1e-7, 1 - 1e-7)
        before = float(-np.mean(won * np.log(p) + (1 - won) * np.log(1 - p)))
        for _ in range(epochs):
            order = rng.permutation(len(phi))
            for start in range(0, len(order), batch):
                part = order[start : start + batch]
                self._step(phi[part], won[part], rate)
        return before

    def _step(self, x: np.ndarray, y: np.ndarray, rate: float) -> None:
        h = np.tanh(x @ self.w1 + self.b1)
        p = 1.0 / (1.0 + np.exp(-(h @ self.w2 + self.b2[0])))
        d = (p - y) / len(x)  # d loss / d logit
        dh = np.outer(d, self.w2) * (1 - h * h)
        grads = [x.T @ dh, dh.sum(0), h.T @ d, np.array([d.sum()])]
        self.steps += 1
        for param, grad, (m, v) in zip(self.params, grads, self.moments, strict=True):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            m_hat = m / (1 - 0.9**self.steps)
            v_hat = v / (1 - 0.999**self.steps)
            param -= rate * m_hat / (np.sqrt(v_hat) + 1e-8)

    def network(self) -> Network:
        return Network(w1=self.w1.tolist(), b1=self.b1.tolist(), w2=self.w2.tolist(), b2=float(self.b2[0]))


def generation(
    config: Config, trainer: Trainer | None, count: int, seed: int, explore: float, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray, float]:
    """Play ``count`` games to the end; the positions before each draw, whether their
    player to draw won, and the share of games won by the first player."""
    games = new_games(config, (np.arange(count, dtype=np.uint64) + seed).astype(np.uint32))
    kept: list[np.ndarray] = []
    who: list[np.ndarray] = []  # (game, seat to draw) of each kept position
    while (games.winner < 0).any():
        lanes = legal_lanes(config, games)
        playing = np.flatnonzero(games.winner < 0)
        if trainer is None:
            actions = greedy_actions(config, games, lanes)
            after, _ = play(config, games, actions)
            after = games_at(after, playing)
        else:
            after = chosen(config, trainer, games, lanes, playing, explore, rng)
        going = after.winner < 0
        kept.append(features(config, games_at(after, np.flatnonzero(going))))
        who.append(np.stack([playing[going], after.turn[going].astype(np.int64)], axis=1))
        games = draw(config, put_games(games, playing, after))
    pairs = np.concatenate(who)
    won = (games.winner[pairs[:, 0]] == pairs[:, 1]).astype(np.float64)
    return np.concatenate(kept), won, float((games.winner == games.leader).mean())


def chosen(
    config: Config,
    trainer: Trainer,
    games: Games,
    lanes: np.ndarray,
    playing: np.ndarray,
    explore: float,
    rng: np.random.Generator,
) -> Games:
    """The position after each playing game's best move by the network, one ply ahead."""
    rows, actions = np.nonzero(lanes[:, playing].T)
    rows = playing[rows]
    before = games_at(games, rows)
    after, _ = play(config, before, actions.astype(np.int32))
    chance = trainer.chance(features(config, after))
    again = after.turn == before.turn
    value = np.where(after.winner >= 0, 2.0, np.where(again, chance, 1.0 - chance))
    value = np.where(rng.random(len(value)) < explore, rng.random(len(value)) + 3.0, value)
    value += rng.random(len(value)) * 1e-9
    order = np.lexsort((-value, rows))
    first = order[np.r_[True, rows[order][1:] != rows[order][:-1]]]
    return games_at(after, first)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--games", type=int, default=4000, help="games played at once per generation")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--explore", type=float, default=0.03)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0.003)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=Path, help="go on from this network (JSON)")
    parser.add_argument("--write", action="store_true", help="write the network to --out after each generation")
    parser.add_argument("--out", type=Path, default=OUT, help=f"where --write writes (default {OUT})")
    args = parser.parse_args(argv)
    config = Config.parse("classic", 2)
    rng = np.random.default_rng(args.seed)
    trainer = Trainer(args.hidden, rng)
    if args.start:
        start = Network.load(args.start)
        trainer.w1, trainer.b1 = np.array(start.w1), np.array(start.b1)
        trainer.w2, trainer.b2 = np.array(start.w2), np.array([start.b2])
        trainer.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in trainer.params]
    began = time.monotonic()
    for number in range(args.generations):
        seed = args.seed * 10_000_000 + number * args.games
        player = trainer if number or args.start else None
        phi, won, first = generation(config, player, args.games, seed, args.explore, rng)
        rate = args.rate if number < args.generations * 2 // 3 else args.rate / 3  # settle at the end
        loss = trainer.fit(phi, won, args.epochs, 1024, rate, rng)
        print(
            f"generation {number + 1}/{args.generations}: {len(phi):,} positions, "
            f"log loss before fitting {loss:.4f}, first player won {first:.1%}, {time.monotonic() - began:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        if args.write:
            trainer.network().save(args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
