"""Benchmark the peer Sorry! engine ``apologies`` (0.4.3) for comparison with pardon.

What is measured, single-threaded, for 2 and 4 players in GameMode.STANDARD with
random players (``apologies.source.RandomInputSource``):

* games per second: complete games, from a fresh ``Engine`` to a winner;
* microseconds per legal-move generation call, timed with
  ``time.perf_counter_ns`` around every call (median and mean over all games);
* player turns and legal-move calls per game (a 2 lets a player draw again, so
  one turn can need several calls).

The loop is the lowest-level complete-game loop apologies offers: the
fine-grained public ``Engine`` methods that ``Engine.play_next()`` is built
from, namely ``next_turn``, ``Game.create_player_view``, ``draw``,
``construct_legal_moves`` (with the drawn card, so it only runs
``Rules.construct_legal_moves``), ``Character.choose_move`` and
``execute_move``.  ``play_next()`` itself is not used: before every turn it
deep-copies the whole game, history included, through cattrs (a rollback
snapshot), which makes it about 50 times slower and quadratic in game length;
that would measure serialization, not the game engine.

apologies draws cards and picks random moves through the global ``random``
module, so seeding it (``--seed``) makes the games repeatable.

The library is not a dependency of pardon; it lives in a separate virtual
environment.  Run from the repository root::

    bash benchmarks/setup_peer_env.sh
    .peer-venv/bin/python benchmarks/peer_apologies.py [--games N | --games2 N --games4 N]
        [--seconds S] [--seed N]

Progress goes to stderr; one JSON object with the figures goes to stdout.

``--serve`` instead keeps the process for alternating measurements
(``benchmarks/engine.py``): each line ``PLAYERS GAMES SEED`` read from stdin plays
that many games, seeded so, and answers one JSON line with their figures, without
progress; the process ends with its input.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from importlib.metadata import version

from apologies.engine import Character, Engine
from apologies.game import GameMode, PlayerView
from apologies.rules import Move, Rules
from apologies.source import RandomInputSource

EXPECTED_VERSION = "0.4.3"
DEFAULT_GAMES = {2: 30, 4: 15}
PROGRESS_BATCH = 5


@dataclass
class Tally:
    """Raw figures gathered over the games played for one player count."""

    games: int = 0
    turns: int = 0
    elapsed_ns: int = 0
    legal_move_ns: list[int] = field(default_factory=list)


def new_engine(players: int) -> Engine:
    """Build an engine for a STANDARD game between random players."""
    characters = [Character(name=f"random{i}", source=RandomInputSource()) for i in range(players)]
    return Engine(mode=GameMode.STANDARD, characters=characters)


def timed_legal_moves(engine: Engine, view: PlayerView, tally: Tally) -> list[Move]:
    """Draw a card and generate the legal moves for it, timing only the generation."""
    card = engine.draw()
    start = time.perf_counter_ns()
    _, moves = engine.construct_legal_moves(view, card=card)
    tally.legal_move_ns.append(time.perf_counter_ns() - start)
    return moves


def play_turn(engine: Engine, tally: Tally) -> None:
    """Play one player's turn: what Engine.play_next() does, minus its game snapshot."""
    color, character = engine.next_turn()
    done = False
    while not done:
        view = engine.game.create_player_view(color)
        moves = timed_legal_moves(engine, view, tally)
        move = character.choose_move(engine.mode, view, moves[:], Rules.evaluate_move)
        if move not in moves:  # same guard as Engine.choose_next_move
            move = random.choice(moves)
        done = engine.execute_move(color, move)
    tally.turns += 1


def play_game(players: int, tally: Tally) -> None:
    """Play one complete game and add its figures to the tally."""
    start = time.perf_counter_ns()
    engine = new_engine(players)
    engine.start_game()
    while not engine.completed:
        play_turn(engine, tally)
    tally.elapsed_ns += time.perf_counter_ns() - start
    tally.games += 1


def run(players: int, games: int, seconds: float | None, seed: int, quiet: bool = False) -> Tally:
    """Play up to ``games`` games (stopping early once ``seconds`` have passed)."""
    random.seed(seed)
    tally = Tally()
    deadline = None if seconds is None else time.perf_counter() + seconds
    while tally.games < games:
        play_game(players, tally)
        if quiet:
            continue
        if tally.games % PROGRESS_BATCH == 0 or tally.games == games:
            print(
                f"{players} players: {tally.games}/{games} games",
                file=sys.stderr,
                flush=True,
            )
        if deadline is not None and time.perf_counter() >= deadline:
            print(
                f"{players} players: time cap reached after {tally.games} games",
                file=sys.stderr,
                flush=True,
            )
            break
    return tally


def summarize(tally: Tally) -> dict[str, float | int]:
    """Turn raw figures into the reported ones."""
    calls = tally.legal_move_ns
    return {
        "games": tally.games,
        "games_per_s": round(tally.games / (tally.elapsed_ns / 1e9), 2),
        "legal_move_us_median": round(statistics.median(calls) / 1000, 2),
        "legal_move_us_mean": round(statistics.fmean(calls) / 1000, 2),
        "legal_move_calls": len(calls),
        "turns_per_game": round(tally.turns / tally.games, 1),
        "legal_move_calls_per_game": round(len(calls) / tally.games, 1),
    }


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parse the command line."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games2", type=int, default=DEFAULT_GAMES[2], help="games with 2 players")
    parser.add_argument("--games4", type=int, default=DEFAULT_GAMES[4], help="games with 4 players")
    parser.add_argument(
        "--games",
        type=int,
        help="games for every player count (overrides --games2/--games4)",
    )
    parser.add_argument(
        "--seconds",
        type=float,
        help="time cap per player count (at least one game is played)",
    )
    parser.add_argument("--seed", type=int, default=1, help="seed for the global random module")
    parser.add_argument("--serve", action="store_true", help="answer 'PLAYERS GAMES SEED' lines from stdin")
    args = parser.parse_args(argv)
    for name in ("games", "games2", "games4"):
        value = getattr(args, name)
        if value is not None and value < 1:
            parser.error(f"--{name} must be at least 1")
    return args


def serve() -> None:
    """Play the games each stdin line asks for; answer each with one JSON line."""
    for line in sys.stdin:
        players, games, seed = (int(word) for word in line.split())
        tally = run(players, games, None, seed, quiet=True)
        print(json.dumps(summarize(tally) | {"elapsed_s": tally.elapsed_ns / 1e9}), flush=True)


def main(argv: list[str] | None = None) -> None:
    """Run the benchmark and print the JSON report."""
    args = parse_args(argv)
    if args.serve:
        serve()
        return
    peer_version = version("apologies")
    if peer_version != EXPECTED_VERSION:
        print(
            f"warning: apologies {peer_version}, expected {EXPECTED_VERSION}",
            file=sys.stderr,
        )
    counts = {2: args.games2, 4: args.games4}
    if args.games is not None:
        counts = dict.fromkeys(counts, args.games)
    report = {
        "peer": "apologies",
        "version": peer_version,
        "python": platform.python_version(),
        "mode": "STANDARD",
        "seed": args.seed,
        "players": {str(n): summarize(run(n, games, args.seconds, args.seed)) for n, games in counts.items()},
    }
    print(json.dumps(report))


if __name__ == "__main__":
    main()
