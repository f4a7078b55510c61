"""Learn the `expert` level's value of a position by self-play on the batch engine.

The value is a small neural network (one hidden layer of ``--hidden`` tanh units) giving
each player's chance to win a classic game of ``--players`` (2 or 4), from the position
before a draw (:mod:`pardon.bots.expert` lists its inputs: where each pawn stands, how far
each other player's pawns are behind those of the player to draw, the cards left in the pack).

Each generation plays ``--games`` games at once on :mod:`pardon.batch` (NumPy), every move
chosen by the network one ply ahead (the move whose position gives the mover the best
chance; ``--explore`` of them at random), then fits the network to targets: who won each
game (``--lam 1``, Monte Carlo), or TD(lambda) returns of the network's own chances along
each game (``--lam`` below 1: less of the luck of the later draws in each target); a share
``--expected`` of the targets can be the network's chances one draw ahead (every card with
its chance, the drawer's best move for each).  The first generation is played by
``greedy`` (or by the network of ``--start``).  Progress goes to stderr; the network is
written to the shipped file of its players (``src/pardon/bots/expert.json``) with ``--write``.

    python scripts/train_expert.py --generations 36 --games 8000 --seed 32 --write
    python scripts/train_expert.py --generations 12 --games 8000 --lam 0.7 --seed 71 \
        --start src/pardon/bots/expert.json --write
    python scripts/train_expert.py --recipe shipped --out expert.json --plot curve.png

``--recipe shipped`` runs the three steps that made the shipped network (docs/bots.md).

Needs numpy (the ``rl`` or ``sim`` extra).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from pardon.batch.convert import games_at, put_games
from pardon.batch.engine import Config, Games, draw, legal_lanes, new_games, play, tables
from pardon.batch.observe import locations
from pardon.batch.players import greedy_actions
from pardon.bots.expert import (
    BACKWARD_GAPS,
    FORWARD_COUNTS,
    LONGEST_COUNT,
    NETWORK_FILES,
    TRACK_SQUARES,
    Layout,
    Network,
)
from pardon.core.board import FIRST_TRACK, START
from pardon.core.cards import CARDS


def features(config: Config, games: Games, threats: bool = False) -> np.ndarray:
    """``(games, inputs)`` float32: the inputs of :mod:`pardon.bots.expert` for batch games
    before a draw (seat 0 is the player to draw), computed as arrays; with ``threats``,
    the threat inputs too (:func:`pardon.bots.expert.threat_inputs`)."""
    layout = Layout(config.players)
    count = games.card.shape[0]
    out = np.zeros((count, layout.with_threats if threats else layout.features), dtype=np.float32)
    rows = np.arange(count)
    for seat in range(config.players):
        for slot in range(config.rules.pawns):
            out[rows, layout.distance(seat) + games.pawns[seat, slot].astype(np.int64)] += 1.0
    place = locations(config, games, 0).astype(np.int64)  # 1..60 on the track, from the drawer's side
    for seat in range(1, config.players):
        for mine in range(config.rules.pawns):
            for theirs in range(config.rules.pawns):
                a, b = place[0, mine], place[seat, theirs]
                on = (a >= 1) & (a <= TRACK_SQUARES) & (b >= 1) & (b <= TRACK_SQUARES)
                behind = (a - b) % TRACK_SQUARES  # how far their pawn is behind mine, 1..59
                np.add.at(out, (rows[on], layout.gap(seat) + behind[on] - 1), 1.0)
    deck = tables(config).deck.astype(np.float32)
    out[:, layout.pack : layout.pack + len(CARDS)] = (games.pack.astype(np.float32) / deck[:, None]).T
    if threats:
        _threats(config, games, place, out)
    return out


def _threats(config: Config, games: Games, place: np.ndarray, out: np.ndarray) -> None:
    """The threat inputs, as :func:`pardon.bots.expert.threat_inputs` makes them."""
    layout = Layout(config.players)
    pack = _next_pack(config, games).astype(np.float64)
    pack /= pack.sum(axis=0, keepdims=True)
    kinds = {card: kind for kind, card in enumerate(CARDS)}
    forward = np.zeros((LONGEST_COUNT + 1, pack.shape[1]))
    backward = np.zeros((TRACK_SQUARES, pack.shape[1]))
    for card, count in FORWARD_COUNTS.items():
        forward[count] += pack[kinds[card]]
    for card, gap in BACKWARD_GAPS.items():
        backward[gap] += pack[kinds[card]]
    rows = np.arange(pack.shape[1])
    distance = games.pawns.astype(np.int64)

    def chance(gap: np.ndarray, mover: np.ndarray) -> np.ndarray:
        ahead = (gap <= LONGEST_COUNT) & (mover - gap >= FIRST_TRACK)
        return backward[gap, rows] + np.where(ahead, forward[np.minimum(gap, LONGEST_COUNT), rows], 0.0)

    for seat in range(1, config.players):
        danger = np.zeros(len(rows))
        attack = np.zeros(len(rows))
        for mine in range(config.rules.pawns):
            for theirs in range(config.rules.pawns):
                a, b = place[0, mine], place[seat, theirs]
                on = (a >= 1) & (a <= TRACK_SQUARES) & (b >= 1) & (b <= TRACK_SQUARES)
                gap = (a - b) % TRACK_SQUARES
                danger += np.where(on, chance(gap, distance[seat, theirs]) * (START - distance[0, mine]), 0.0)
                gap = (b - a) % TRACK_SQUARES
                attack += np.where(on, chance(gap, distance[0, mine]) * (START - distance[seat, theirs]), 0.0)
        out[:, layout.threat(seat)] = danger / TRACK_SQUARES
        out[:, layout.threat(seat) + 1] = attack / TRACK_SQUARES


class Trainer:
    """The network's weights as arrays, each player's chance and an Adam step on the log loss.

    Chances are ``(positions, players)``, the player to draw first; with 2 players the
    network has one logistic output (that player's chance), else a softmax over the players."""

    def __init__(self, players: int, hidden: int, rng: np.random.Generator, threats: bool = False) -> None:
        self.players = players
        outputs = 1 if players == 2 else players
        inputs = Layout(players).with_threats if threats else Layout(players).features
        self.w1 = rng.normal(0, 0.1, (inputs, hidden)).astype(np.float64)
        self.b1 = np.zeros(hidden)
        self.w2 = rng.normal(0, 0.1, (hidden, outputs))
        self.b2 = np.zeros(outputs)
        self.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in self.params]
        self.steps = 0

    @classmethod
    def of(cls, network: Network, threats: bool = False) -> Trainer:
        """A trainer going on from ``network``; with ``threats``, taking the threat inputs
        too (their weights start at 0 if the network has none: it judges as before)."""
        trainer = cls(network.players, len(network.b1), np.random.default_rng(0))
        w1 = np.array(network.w1)
        if threats and not network.threats:
            w1 = np.vstack([w1, np.zeros((Layout(network.players).with_threats - len(w1), w1.shape[1]))])
        trainer.w1, trainer.b1 = w1, np.array(network.b1)
        trainer.w2, trainer.b2 = np.array(network.w2), np.array(network.b2)
        trainer.moments = [(np.zeros_like(p), np.zeros_like(p)) for p in trainer.params]
        return trainer

    @property
    def threats(self) -> bool:
        return bool(self.w1.shape[0] == Layout(self.players).with_threats)

    @property
    def params(self) -> list[np.ndarray]:
        return [self.w1, self.b1, self.w2, self.b2]

    def _out(self, phi: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        hidden = np.tanh(phi @ self.w1 + self.b1)
        logits = hidden @ self.w2 + self.b2
        if self.players == 2:
            mine = 1.0 / (1.0 + np.exp(-logits[:, 0]))
            return hidden, np.stack([mine, 1.0 - mine], axis=1)
        powers = np.exp(logits - logits.max(axis=1, keepdims=True))
        return hidden, powers / powers.sum(axis=1, keepdims=True)

    def chances(self, phi: np.ndarray) -> np.ndarray:
        return self._out(phi)[1]

    def loss(self, phi: np.ndarray, won: np.ndarray) -> float:
        """The mean log loss against ``won`` (each player's target)."""
        p = np.clip(self.chances(phi), 1e-7, 1.0)
        return float(-np.mean(np.sum(won * np.log(p), axis=1)))

    def fit(
        self, phi: np.ndarray, won: np.ndarray, epochs: int, batch: int, rate: float, rng: np.random.Generator
    ) -> None:
        """Adam on the mean log loss against ``won`` (each player's target)."""
        for _ in range(epochs):
            order = rng.permutation(len(phi))
            for start in range(0, len(order), batch):
                part = order[start : start + batch]
                self._step(phi[part], won[part], rate)

    def _step(self, x: np.ndarray, y: np.ndarray, rate: float) -> None:
        h, p = self._out(x)
        d = (p - y) / len(x)  # d loss / d logits
        if self.players == 2:
            d = d[:, :1]
        dh = (d @ self.w2.T) * (1 - h * h)
        grads = [x.T @ dh, dh.sum(0), h.T @ d, d.sum(0)]
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
        return network_of(self.params)


def network_of(params: list[np.ndarray]) -> Network:
    """The network of a trainer's four arrays of weights (``Trainer.params``' order)."""
    w1, b1, w2, b2 = params
    return Network(w1=w1.tolist(), b1=b1.tolist(), w2=w2.tolist(), b2=b2.tolist())


class Averaged:
    """The mean of a trainer's weights over the generations added (``--average``: the settling
    generations), which smooths out their wandering from one generation's games to the next."""

    def __init__(self) -> None:
        self.count = 0
        self.params: list[np.ndarray] = []

    def add(self, trainer: Trainer) -> None:
        self.count += 1
        if self.count == 1:
            self.params = [param.copy() for param in trainer.params]
            return
        for mean, param in zip(self.params, trainer.params, strict=True):
            mean += (param - mean) / self.count

    def network(self) -> Network:
        return network_of(self.params)


def _replayed(recent: list[tuple[np.ndarray, np.ndarray]]) -> tuple[np.ndarray, np.ndarray]:
    """The positions and targets of the generations kept for ``--replay``, together (the one
    generation's own arrays, not a copy, without replay)."""
    if len(recent) == 1:
        return recent[0]
    return np.concatenate([phi for phi, _ in recent]), np.concatenate([won for _, won in recent])


def _turned(players: int, seats: np.ndarray) -> np.ndarray:
    """``(len(seats), players)``: the seats from each of ``seats`` on, in the order they play."""
    return (seats[:, None] + np.arange(players)) % players


def to_seats(players: int, chances: np.ndarray, drawer: np.ndarray) -> np.ndarray:
    """Chances counted from the player to draw, as chances of seats 0, 1, ..."""
    out = np.empty_like(chances)
    np.put_along_axis(out, _turned(players, drawer), chances, axis=1)
    return out


def from_seats(players: int, chances: np.ndarray, drawer: np.ndarray) -> np.ndarray:
    """Chances of seats 0, 1, ..., counted from the player to draw."""
    return np.take_along_axis(chances, _turned(players, drawer), axis=1)


def generation(
    config: Config,
    trainer: Trainer | None,
    count: int,
    seed: int,
    explore: float,
    lam: float,
    expected: float,
    rng: np.random.Generator,
    threats: bool = False,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Play ``count`` games to the end; the positions before each draw, their targets (each
    player's chance from the player to draw on: TD(``lam``) returns of the playing network,
    or who won when ``lam`` is 1 or greedy played; for a share ``expected`` of them, the
    network's chances one draw ahead), and the share of games won by the first player."""
    games = new_games(config, (np.arange(count, dtype=np.uint64) + seed).astype(np.uint32))
    kept: list[np.ndarray] = []
    who: list[np.ndarray] = []  # (game, seat to draw) of each kept position, step by step
    looked: list[tuple[np.ndarray, np.ndarray]] = []  # (kept index, targets) one draw ahead
    held = 0
    while (games.winner < 0).any():
        lanes = legal_lanes(config, games)
        playing = np.flatnonzero(games.winner < 0)
        if trainer is None:
            # ties broken among the legal actions (not the distinct moves), as when the shipped
            # network was made: the same command still writes the same network
            actions = greedy_actions(config, games, lanes)
            after, _ = play(config, games, actions)
            after = games_at(after, playing)
        else:
            after = chosen(config, trainer, games, lanes, playing, explore, rng)
        going = after.winner < 0
        waiting = games_at(after, np.flatnonzero(going))
        kept.append(features(config, waiting, threats))
        if trainer is not None and expected > 0:
            some = np.flatnonzero(rng.random(int(going.sum())) < expected)
            looked.append((held + some, expected_targets(config, trainer, games_at(waiting, some))))
        held += int(going.sum())
        who.append(np.stack([playing[going], after.turn[going].astype(np.int64)], axis=1))
        games = draw(config, put_games(games, playing, after))
    first = float((games.winner == games.leader).mean())
    if trainer is None:
        lam = 1.0
    targets = td_targets(config.players, trainer, kept, who, games.winner, lam)
    for index, target in looked:
        targets[index] = target
    return np.concatenate(kept), targets, first


def td_targets(
    players: int,
    trainer: Trainer | None,
    kept: list[np.ndarray],
    who: list[np.ndarray],
    winner: np.ndarray,
    lam: float,
) -> np.ndarray:
    """TD(``lam``) returns, walking each game back from its end: a position's target mixes
    the network's chances at the next position (weight 1 - ``lam``) with that position's own
    target (``lam``); the end counts 1 for the winner.  Counted from each position's player to draw."""
    count = len(winner)
    won = np.zeros((count, players))
    won[np.arange(count), winner.astype(np.int64)] = 1.0
    value_next, return_next = won.copy(), won.copy()  # by seat
    targets: list[np.ndarray] = []
    for phi, pairs in zip(reversed(kept), reversed(who), strict=True):
        rows, seats = pairs[:, 0], pairs[:, 1]
        target = (1.0 - lam) * value_next[rows] + lam * return_next[rows]
        targets.append(from_seats(players, target, seats))
        if lam < 1.0 and trainer is not None and len(phi):
            value_next[rows] = to_seats(players, trainer.chances(phi), seats)
        return_next[rows] = target
    return np.concatenate(targets[::-1])


def _next_pack(config: Config, games: Games) -> np.ndarray:
    """``(11, games)`` int8: the cards the next draw comes from, by kind (``CARDS`` order):
    the pack, or the whole deck once it is empty (the discards are shuffled into a new one)."""
    return np.where(games.left[None] == 0, tables(config).deck[:, None], games.pack).astype(np.int8)


def drawn_as(config: Config, games: Games, kind: int) -> tuple[Games, np.ndarray]:
    """Games before a draw with a card of kind ``kind`` (``CARDS`` order) drawn, and that
    card's chance (0 where none is left); an empty pack is first made of the whole deck."""
    pack = _next_pack(config, games)
    left = np.where(games.left == 0, np.int8(config.deck_size), games.left).astype(np.int8)
    chance = pack[kind] / np.maximum(left, 1)
    pack = pack.copy()
    pack[kind] -= (pack[kind] > 0).astype(np.int8)
    card = np.full(left.shape, CARDS[kind], dtype=np.int8)
    return games._replace(card=card, pack=pack, left=left - 1, drawn=games.drawn + 1), chance


def after_chances(config: Config, trainer: Trainer, before: Games, after: Games) -> np.ndarray:
    """Each player's chance after each move, by the network, counted from the player who moved."""
    players = config.players
    found = to_seats(players, trainer.chances(features(config, after, trainer.threats)), after.turn.astype(np.int64))
    won = np.zeros_like(found)
    ended = np.flatnonzero(after.winner >= 0)
    won[ended, after.winner[ended].astype(np.int64)] = 1.0
    found[ended] = won[ended]
    return from_seats(players, found, before.turn.astype(np.int64))


def expected_targets(config: Config, trainer: Trainer, games: Games) -> np.ndarray:
    """Each position's chances for its players, one draw ahead by the network: the average
    over the cards the player to draw may draw, each weighed by its chance, of the chances
    after that player's best move (the best for itself)."""
    count = games.card.shape[0]
    total = np.zeros((count, config.players))
    for kind in range(len(CARDS)):
        given, chance = drawn_as(config, games, kind)
        some = np.flatnonzero(chance > 0)
        if not some.size:
            continue
        given = games_at(given, some)
        rows, actions = np.nonzero(legal_lanes(config, given).T)
        before = games_at(given, rows)
        after, _ = play(config, before, actions.astype(np.int32))
        value = after_chances(config, trainer, before, after)
        best = _best_of(rows, value[:, 0], np.zeros(len(rows)))
        total[some] += chance[some, None] * value[best]
    return total


def _best_of(rows: np.ndarray, value: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """The index of the highest ``value`` of each row (rows in order, each present), ties by ``tie``."""
    order = np.lexsort((-tie, -value, rows))
    return order[np.r_[True, rows[order][1:] != rows[order][:-1]]]


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
    value = after_chances(config, trainer, before, after)[:, 0]
    value = np.where(after.winner >= 0, 2.0, value)
    value = np.where(rng.random(len(value)) < explore, rng.random(len(value)) + 3.0, value)
    return games_at(after, _best_of(rows, value, rng.random(len(value))))


#: The three steps that made the shipped 2-player network (docs/bots.md, "expert"), each going on
#: from the network the one before wrote: ``--recipe shipped`` runs them one after the other.
SHIPPED = (
    ["--generations", "36", "--games", "8000", "--hidden", "32", "--seed", "32"],
    ["--generations", "12", "--games", "8000", "--lam", "0.7", "--seed", "71"],
    ["--generations", "80", "--games", "8000", "--lam", "0.7", "--seed", "91", "--rate", "0.002"],
)


def parser_of() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, choices=sorted(NETWORK_FILES), default=2)
    parser.add_argument("--generations", type=int, default=30)
    parser.add_argument("--games", type=int, default=4000, help="games played at once per generation")
    parser.add_argument("--hidden", type=int, default=32)
    parser.add_argument("--explore", type=float, default=0.03)
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0.003)
    parser.add_argument("--lam", type=float, default=1.0, help="TD(lambda) targets; 1 fits who won")
    parser.add_argument("--expected", type=float, default=0.0, help="share of targets one draw ahead")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--replay", type=int, default=1, help="fit each generation to the last N generations' games")
    parser.add_argument(
        "--average", action="store_true", help="write the mean of the weights over the settling generations"
    )
    parser.add_argument("--start", type=Path, help="go on from this network (JSON)")
    parser.add_argument("--threats", action="store_true", help="add the threat inputs (docs/bots.md)")
    parser.add_argument("--write", action="store_true", help="write the network to --out after each generation")
    parser.add_argument("--out", type=Path, help="where --write writes (default: the shipped network of --players)")
    parser.add_argument(
        "--recipe",
        choices=["shipped"],
        help="run the three steps that made the shipped 2-player network, writing it to --out (about 35 minutes)",
    )
    parser.add_argument("--history", type=Path, help="write each generation's figures to this JSON file")
    parser.add_argument("--plot", type=Path, help="draw the learning curve (each generation's log loss) to this file")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = parser_of()
    args = parser.parse_args(argv)
    if args.recipe:
        return shipped(parser, args)
    history = train(parser, args)
    report(args, history)
    return 0


def shipped(parser: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    """``--recipe shipped``: the three steps, each starting from the network the one before wrote."""
    if args.players != 2:
        parser.error("--recipe shipped makes the 2-player network")
    out = args.out or NETWORK_FILES[2]
    history: list[dict[str, float]] = []
    for number, step in enumerate(SHIPPED):
        start = ["--start", str(out)] if number else []
        print(f"step {number + 1} of {len(SHIPPED)}: {' '.join(step + start)}", file=sys.stderr, flush=True)
        part = train(parser, parser.parse_args([*step, *start, "--write", "--out", str(out)]))
        history += [{**row, "step": number + 1} for row in part]
    report(args, history)
    print(f"wrote {out}", file=sys.stderr)
    return 0


def report(args: argparse.Namespace, history: list[dict[str, float]]) -> None:
    """The figures of each generation to ``--history``, the learning curve to ``--plot``."""
    if args.history:
        args.history.write_text(json.dumps(history, indent=1) + "\n")
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 3.6))
        steps = sorted({int(row.get("step", 1)) for row in history})
        for step in steps:
            rows = [(number, row) for number, row in enumerate(history, 1) if int(row.get("step", 1)) == step]
            axes.plot([n for n, _ in rows], [row["log_loss"] for _, row in rows], label=f"step {step}")
        axes.set_xlabel("generation (8,000 games each)")
        axes.set_ylabel("log loss on the new games, before fitting")
        axes.set_title("expert's network: learning curve")
        axes.grid(alpha=0.3)
        if len(steps) > 1:
            axes.legend()
        figure.tight_layout()
        figure.savefig(args.plot, dpi=110)


def train(parser: argparse.ArgumentParser, args: argparse.Namespace) -> list[dict[str, float]]:
    """One training run of ``args``: each generation's figures."""
    config = Config.parse("classic", args.players)
    out = args.out or NETWORK_FILES[args.players]
    rng = np.random.default_rng(args.seed)
    trainer = Trainer(args.players, args.hidden, rng, args.threats)
    if args.start:
        trainer = Trainer.of(Network.load(args.start), args.threats)
        if trainer.players != args.players:
            parser.error(f"{args.start} is a network of {trainer.players} players, not {args.players}")
    began = time.monotonic()
    history = []
    recent: list[tuple[np.ndarray, np.ndarray]] = []  # the last --replay generations' positions and targets
    average = Averaged()
    for number in range(args.generations):
        seed = args.seed * 10_000_000 + number * args.games
        player = trainer if number or args.start else None
        phi, won, first = generation(
            config, player, args.games, seed, args.explore, args.lam, args.expected, rng, trainer.threats
        )
        settling = number >= args.generations * 2 // 3
        rate = args.rate / 3 if settling else args.rate  # settle at the end
        loss = trainer.loss(phi, won)  # the new games', before fitting
        recent = [*recent, (phi, won)][-args.replay :]
        trainer.fit(*_replayed(recent), args.epochs, 1024, rate, rng)
        if args.average and settling:
            average.add(trainer)
        seconds = time.monotonic() - began
        history.append({"log_loss": float(loss), "positions": len(phi), "first_won": float(first), "seconds": seconds})
        print(
            f"generation {number + 1}/{args.generations}: {len(phi):,} positions, "
            f"log loss before fitting {loss:.4f}, first player won {first:.1%}, {seconds:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        if args.write:
            (average.network() if average.count else trainer.network()).save(out)
    return history


if __name__ == "__main__":
    raise SystemExit(main())
