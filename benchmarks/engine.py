"""Benchmark the pardon engine with random players, beside the peer library ``apologies``.

What is measured, single-threaded, for 2 and 4 players in the classic game, every
game from the first position (first seat leads, ``Pack.new(45, seed)``) to a winner,
with ``random.Random(seed)`` choosing uniformly among the legal moves:

* the **public API loops**, in games per second: the ``Game`` loop (``Game.new``,
  ``draw``, ``legal_moves``, ``rng.choice``, ``play_trusted``), the turn functions
  (``turn.start``, ``draw_next``, ``legal_moves``, ``rng.choice``, ``apply``), and the
  bare moves loop (``pack.draw``, ``moves.legal_moves``, ``rng.choice``, take ``.result``);
* the **playout kernel** — ``pardon.core.playout.play_random_game``, which plays the
  very same games without building every move — in games per second;
* the median microseconds of one ``legal_moves`` call over every call of those games
  (timed in a separate pass, so the timer does not slow the games above);
* where the ``Game`` loop's time goes, per card: listing the legal moves
  (``Game.legal_moves``) and everything else (``draw``, ``play_trusted``, the history,
  ``rng.choice``), with the games per second the loop would reach if listing the moves
  cost nothing (timed in a separate pass, less the timer's own cost): a ceiling for any
  faster move generation under the same ``Game``;
* the same figures for ``apologies`` (``benchmarks/peer_apologies.py``, run as a
  subprocess under the separate venv ``.peer-venv``), and the ratios ours/apologies.

The measurement is repeated ``--rounds`` times, alternating pardon and apologies, and
the best round of each figure is reported (the usual way to read a benchmark on a
machine that other work can slow down).

A ratio of two best rounds compares figures taken minutes apart, and on a shared
machine whose speed drifts from minute to minute it moves with that drift.  So the
kernel's ratio is also measured **interleaved**: ``--slices`` times per player count,
a short slice of pardon games (about 0.15 s) and a short slice of apologies games
(about 0.3 s, in one long-lived ``peer_apologies.py --serve`` process) alternate,
pardon first and last, each slice on new seeds.  Each apologies slice is compared with
the mean speed of the two pardon slices around it, so both are measured under the same
machine conditions (a slice's speed is counted in cards per second, at the mean game
length of all that side's slices, so that a slice of short games does not read as a
fast one); the report gives the median of these per-slice ratios with their quartiles
and extremes, and the pooled ratio (all games of each side over all their time).
Nothing is asserted: this prints figures.

Run from the repository root::

    bash benchmarks/setup_peer_env.sh   # once, for the apologies figures
    PYTHONPATH=src python benchmarks/engine.py [--games N] [--rounds R] [--slices K]
        [--seed S] [--json] [--skip-peer]

Progress goes to stderr; the report (a table, or one JSON object) to stdout.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pardon.core import turn
from pardon.core.cards import Pack
from pardon.core.game import Game
from pardon.core.moves import legal_moves
from pardon.core.playout import play_random_game
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import initial_position, seats_for

ROOT = Path(__file__).resolve().parent.parent
PEER_SCRIPT = ROOT / "benchmarks" / "peer_apologies.py"
PEER_PYTHON = ROOT / ".peer-venv" / "bin" / "python"
PLAYERS = (2, 4)
RULES = Rules()


def progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def loop_game(players: int, seed: int, rules: Rules = RULES) -> int:
    """One game through the public API; returns the number of cards drawn."""
    position = initial_position(rules, seats_for(players))
    pack = Pack.new(rules.deck, seed)
    rng = random.Random(seed)
    draws = 0
    while position.winner is None:
        card, pack = pack.draw(seed)
        position = rng.choice(legal_moves(rules, position, card)).result
        draws += 1
    return draws


def timed_calls(players: int, seed: int, times: list[int]) -> None:
    """The same game, timing every ``legal_moves`` call (nanoseconds into ``times``)."""
    position = initial_position(RULES, seats_for(players))
    pack = Pack.new(RULES.deck, seed)
    rng = random.Random(seed)
    clock = time.perf_counter_ns
    while position.winner is None:
        card, pack = pack.draw(seed)
        start = clock()
        moves = legal_moves(RULES, position, card)
        times.append(clock() - start)
        position = rng.choice(moves).result


def timer_cost_ns() -> float:
    """What one pair of ``perf_counter_ns`` calls costs (subtracted from timed sections)."""
    clock = time.perf_counter_ns
    start = clock()
    for _ in range(100_000):
        clock()
        clock()
    return (clock() - start) / 100_000


def game_time_split(players: int, seeds: range) -> dict[str, float]:
    """The ``Game`` loop's time per card: in ``legal_moves`` and in everything else, and
    its games per second were ``legal_moves`` free."""
    clock = time.perf_counter_ns
    seats = seats_for(players)
    total = listing = cards = 0
    for seed in seeds:
        start = clock()
        game = Game.new(RULES, seats, seed, first=seats[0])
        rng = random.Random(seed)
        while not game.is_over:
            if game.awaiting_draw:
                game.draw()
            before = clock()
            moves = game.legal_moves()
            listing += clock() - before
            game.play_trusted(rng.choice(moves))
            cards += 1
        total += clock() - start
    rest = total - listing - timer_cost_ns() * cards
    return {
        "card_us": total / cards / 1000,
        "listing_us": listing / cards / 1000,
        "rest_us": rest / cards / 1000,
        "free_listing_games_per_s": len(seeds) / rest * 1e9,
    }


def games_per_second(play: Any, players: int, seeds: range) -> tuple[float, int]:
    """Games per second of ``play(players, seed)`` over ``seeds``, and the cards drawn."""
    start = time.perf_counter()
    draws = sum(play(players, seed) for seed in seeds)
    return len(seeds) / (time.perf_counter() - start), draws


def turn_game(players: int, seed: int, rules: Rules = RULES) -> int:
    """One game through the pure turn functions; returns the number of cards played."""
    seats = seats_for(players)
    state, _ = turn.start(rules, seats, seed, first=seats[0])
    rng = random.Random(seed)
    cards = 0
    while state.position.winner is None:
        if turn.awaiting_draw(rules, state):
            _, state = turn.draw_next(rules, state)
        move = rng.choice(turn.legal_moves(rules, state))
        state = turn.apply(rules, state, move)
        cards += 1 if move.card else 0
    return cards


def whole_game(players: int, seed: int) -> int:
    return game_loop(RULES, players, seed)


def kernel_game(players: int, seed: int) -> int:
    return play_random_game(RULES, seats_for(players), seed)[1]


def measure_pardon(players: int, seeds: range) -> dict[str, float]:
    """One round of pardon figures for one player count."""
    loop_rate, draws = games_per_second(loop_game, players, seeds)
    game_rate, game_draws = games_per_second(whole_game, players, seeds)
    turn_rate, turn_draws = games_per_second(turn_game, players, seeds)
    kernel_rate, kernel_draws = games_per_second(kernel_game, players, seeds)
    for name, count in (("the kernel", kernel_draws), ("the Game loop", game_draws), ("the turn loop", turn_draws)):
        if count != draws:
            progress(f"warning: {name} drew {count} cards where the moves loop drew {draws}")
    times: list[int] = []
    for seed in seeds:
        timed_calls(players, seed, times)
    split = game_time_split(players, seeds)
    return {
        **{f"split_{key}": value for key, value in split.items()},
        "games": len(seeds),
        "loop_games_per_s": loop_rate,
        "game_games_per_s": game_rate,
        "turn_games_per_s": turn_rate,
        "kernel_games_per_s": kernel_rate,
        "legal_moves_us_median": statistics.median(times) / 1000,
        "legal_moves_us_mean": statistics.fmean(times) / 1000,
        "draws_per_game": draws / len(seeds),
    }


#: Other presets measured once each (fewer games), with the player counts they allow.
OTHER_PRESETS = (
    ("classic-1939", 2),
    ("modern", 2),
    ("modern", 4),
    ("modern-no-tokens", 2),
    ("modern-no-tokens", 4),
    ("adult", 2),
    ("adult", 4),
    ("partners", 4),
    ("solo", 1),
)


def game_loop(rules: Rules, players: int, seed: int) -> int:
    """One game through ``Game`` (every decision: a hand's cards, Fire and Ice), the first
    seat leading; returns the number of cards played."""
    game = Game.new(rules, seats_for(players), seed, first=seats_for(players)[0])
    rng = random.Random(seed)
    cards = 0
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        move = rng.choice(game.legal_moves())
        game.play_trusted(move)
        cards += 1 if move.card else 0
    return cards


def preset_figures(name: str, players: int, seeds: range) -> dict[str, Any]:
    """Games per second of a preset through the public loop and the kernel."""
    rules = parse_rules(name)
    seats = seats_for(players)

    def loop(players: int, seed: int) -> int:
        if rules.hand or rules.tokens:
            return game_loop(rules, players, seed)
        return loop_game(players, seed, rules)

    def kernel(_: int, seed: int) -> int:
        return play_random_game(rules, seats, seed)[1]

    loop_rate, draws = games_per_second(loop, players, seeds)
    kernel_rate, _ = games_per_second(kernel, players, seeds)
    return {
        "preset": name,
        "players": players,
        "games": len(seeds),
        "loop_games_per_s": round(loop_rate, 1),
        "kernel_games_per_s": round(kernel_rate, 1),
        "draws_per_game": round(draws / len(seeds), 1),
    }


def measure_peer(games2: int, games4: int, seed: int) -> dict[str, Any] | None:
    """One round of apologies figures, from its own script under its own venv."""
    if not PEER_PYTHON.exists():
        progress(f"no {PEER_PYTHON.relative_to(ROOT)}: run `bash benchmarks/setup_peer_env.sh` for the peer")
        return None
    command = [str(PEER_PYTHON), str(PEER_SCRIPT), "--games2", str(games2), "--games4", str(games4)]
    command += ["--seed", str(seed)]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False, cwd=ROOT)
    if done.returncode != 0:
        progress(f"the peer benchmark failed (exit status {done.returncode})")
        return None
    report: dict[str, Any] = json.loads(done.stdout)
    return report


#: Games per interleaved slice: (pardon kernel, apologies), by player count.
SLICE_GAMES = {2: (200, 6), 4: (80, 3)}


class Peer:
    """apologies in its own long-lived process, playing a slice of games on request."""

    def __init__(self) -> None:
        command = [str(PEER_PYTHON), str(PEER_SCRIPT), "--serve"]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)

    def play(self, players: int, games: int, seed: int) -> tuple[float, int]:
        """Seconds taken by ``games`` games from ``seed``, and the cards they drew."""
        stdin, stdout = self.process.stdin, self.process.stdout
        assert stdin is not None and stdout is not None
        stdin.write(f"{players} {games} {seed}\n")
        stdin.flush()
        line = stdout.readline()
        if not line:
            raise RuntimeError("the peer process ended")
        report = json.loads(line)
        return report["elapsed_s"], report["legal_move_calls"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def timed_kernel(players: int, seeds: range) -> tuple[float, int]:
    """Seconds taken by the kernel's games from ``seeds``, and the cards they drew."""
    start = time.perf_counter()
    draws = sum(kernel_game(players, seed) for seed in seeds)
    return time.perf_counter() - start, draws


def interleaved(peer: Peer, players: int, slices: int, seed: int) -> dict[str, Any]:
    """The kernel / apologies ratio from ``slices`` apologies slices, each between two
    pardon slices (pardon, apologies, pardon, …, pardon), every slice on new seeds.

    A slice's speed is its cards per second over the mean cards per game of all that
    side's slices: games per second at the mean game length, so that a slice of short
    games does not read as a fast one.  The pooled ratio is plain games per second of
    all slices of each side."""
    ours_games, peer_games = SLICE_GAMES[players]
    ours: list[tuple[float, int]] = []  # (seconds, cards) per slice
    theirs: list[tuple[float, int]] = []
    for index in range(slices + 1):
        ours.append(timed_kernel(players, range(seed + index * ours_games, seed + (index + 1) * ours_games)))
        if index < slices:
            theirs.append(peer.play(players, peer_games, seed + index * peer_games))
    ours_cards = sum(cards for _, cards in ours) / (ours_games * len(ours))  # per game
    peer_cards = sum(cards for _, cards in theirs) / (peer_games * len(theirs))
    ours_speed = [cards / seconds / ours_cards for seconds, cards in ours]
    peer_speed = [cards / seconds / peer_cards for seconds, cards in theirs]
    ratios = sorted((ours_speed[k] + ours_speed[k + 1]) / 2 / peer_speed[k] for k in range(slices))
    quartiles = statistics.quantiles(ratios, n=4) if slices > 1 else ratios * 3
    pooled_ours = ours_games * len(ours) / sum(seconds for seconds, _ in ours)
    pooled_peer = peer_games * len(theirs) / sum(seconds for seconds, _ in theirs)
    return {
        "slices": slices,
        "games_per_slice": {"pardon": ours_games, "apologies": peer_games},
        "median": round(statistics.median(ratios), 1),
        "quartiles": [round(quartiles[0], 1), round(quartiles[2], 1)],
        "range": [round(ratios[0], 1), round(ratios[-1], 1)],
        "pooled": round(pooled_ours / pooled_peer, 1),
        "kernel_games_per_s_pooled": round(pooled_ours, 1),
        "apologies_games_per_s_pooled": round(pooled_peer, 2),
    }


def best(rounds: list[dict[str, float]], key: str, highest: bool = True) -> float:
    values = [figures[key] for figures in rounds]
    return max(values) if highest else min(values)


def run(args: argparse.Namespace) -> dict[str, Any]:
    seeds = range(args.seed, args.seed + args.games)
    ours: dict[int, list[dict[str, float]]] = {players: [] for players in PLAYERS}
    peer_rounds: list[dict[str, Any]] = []
    peer_info: dict[str, Any] = {}
    for round_number in range(1, args.rounds + 1):
        for players in PLAYERS:
            progress(f"round {round_number}/{args.rounds}: pardon, {players} players, {args.games} games")
            ours[players].append(measure_pardon(players, seeds))
        if not args.skip_peer and (round_number == 1 or peer_rounds):
            progress(f"round {round_number}/{args.rounds}: apologies, {args.peer_games2}+{args.peer_games4} games")
            report = measure_peer(args.peer_games2, args.peer_games4, args.seed)
            if report is not None:
                peer_rounds.append(report)
                peer_info = {"version": report.get("version"), "python": report.get("python")}
    result: dict[str, Any] = {
        "python": platform.python_version(),
        "machine": platform.machine(),
        "seed": args.seed,
        "rounds": args.rounds,
        "pardon": {},
        "apologies": None,
        "ratios": None,
    }
    for players in PLAYERS:
        rounds = ours[players]
        result["pardon"][str(players)] = {
            "games": args.games,
            "draws_per_game": rounds[0]["draws_per_game"],
            "loop_games_per_s": round(best(rounds, "loop_games_per_s"), 1),
            "game_games_per_s": round(best(rounds, "game_games_per_s"), 1),
            "turn_games_per_s": round(best(rounds, "turn_games_per_s"), 1),
            "kernel_games_per_s": round(best(rounds, "kernel_games_per_s"), 1),
            "legal_moves_us_median": round(best(rounds, "legal_moves_us_median", highest=False), 2),
            "legal_moves_us_mean": round(best(rounds, "legal_moves_us_mean", highest=False), 2),
            "game_loop_card_us": round(best(rounds, "split_card_us", highest=False), 2),
            "game_loop_listing_us": round(best(rounds, "split_listing_us", highest=False), 2),
            "game_loop_rest_us": round(best(rounds, "split_rest_us", highest=False), 2),
            "game_loop_free_listing_games_per_s": round(best(rounds, "split_free_listing_games_per_s"), 1),
        }
    if peer_rounds:
        peer: dict[str, Any] = dict(peer_info)
        ratios: dict[str, Any] = {}
        for players in PLAYERS:
            figures = [report["players"][str(players)] for report in peer_rounds]
            peer[str(players)] = {
                "games": figures[0]["games"],
                "draws_per_game": figures[0]["legal_move_calls_per_game"],
                "games_per_s": max(entry["games_per_s"] for entry in figures),
                "legal_moves_us_median": min(entry["legal_move_us_median"] for entry in figures),
            }
            mine = result["pardon"][str(players)]
            ratios[str(players)] = {
                "loop": round(mine["loop_games_per_s"] / peer[str(players)]["games_per_s"], 1),
                "game": round(mine["game_games_per_s"] / peer[str(players)]["games_per_s"], 1),
                "turn": round(mine["turn_games_per_s"] / peer[str(players)]["games_per_s"], 1),
                "kernel": round(mine["kernel_games_per_s"] / peer[str(players)]["games_per_s"], 1),
                "game_free_listing": round(
                    mine["game_loop_free_listing_games_per_s"] / peer[str(players)]["games_per_s"], 1
                ),
                "legal_moves_call": round(
                    peer[str(players)]["legal_moves_us_median"] / mine["legal_moves_us_median"], 1
                ),
            }
        result["apologies"] = peer
        result["ratios"] = ratios
    result["interleaved"] = None
    if not args.skip_peer and args.slices and PEER_PYTHON.exists():
        peer_process = Peer()
        try:
            result["interleaved"] = {}
            for players in PLAYERS:
                progress(f"interleaved: {args.slices} slices of pardon and of apologies, {players} players")
                result["interleaved"][str(players)] = interleaved(peer_process, players, args.slices, args.seed)
        finally:
            peer_process.close()
    other_seeds = range(args.seed, args.seed + max(1, args.games // 4))
    result["presets"] = []
    for name, players in OTHER_PRESETS:
        progress(f"preset {name}, {players} players, {len(other_seeds)} games")
        result["presets"].append(preset_figures(name, players, other_seeds))
    return result


def table(result: dict[str, Any]) -> str:
    """The report as a small table."""
    rows: list[tuple[str, ...]] = [("", *(f"{players} players" for players in PLAYERS))]

    def row(label: str, source: dict[str, Any], key: str, unit: str) -> None:
        rows.append((label, *(f"{source[str(players)][key]:,.1f} {unit}".strip() for players in PLAYERS)))

    mine = result["pardon"]
    row("pardon: Game loop (public API)", mine, "game_games_per_s", "games/s")
    row("pardon: turn functions loop (public API)", mine, "turn_games_per_s", "games/s")
    row("pardon: moves loop (legal_moves, pack)", mine, "loop_games_per_s", "games/s")
    row("pardon: playout kernel", mine, "kernel_games_per_s", "games/s")
    row("pardon: legal_moves median", mine, "legal_moves_us_median", "µs")
    row("pardon: legal_moves calls per game", mine, "draws_per_game", "")
    row("pardon: Game loop per card (timed pass)", mine, "game_loop_card_us", "µs")
    row("  of which Game.legal_moves", mine, "game_loop_listing_us", "µs")
    row("  of which draw, play_trusted, history, choice", mine, "game_loop_rest_us", "µs")
    row("pardon: Game loop were legal_moves free", mine, "game_loop_free_listing_games_per_s", "games/s")
    peer = result["apologies"]
    if peer is not None:
        version = peer.get("version", "?")
        row(f"apologies {version}: games", peer, "games_per_s", "games/s")
        row(f"apologies {version}: legal moves median", peer, "legal_moves_us_median", "µs")
        row(f"apologies {version}: legal-move calls per game", peer, "draws_per_game", "")
        ratios = result["ratios"]
        row("ratio: Game loop / apologies", ratios, "game", "x")
        row("ratio: turn functions loop / apologies", ratios, "turn", "x")
        row("ratio: moves loop / apologies", ratios, "loop", "x")
        row("ratio: playout kernel / apologies", ratios, "kernel", "x")
        row("ratio: Game loop were legal_moves free / apologies", ratios, "game_free_listing", "x")
        row("ratio: one legal-moves call, apologies / pardon", ratios, "legal_moves_call", "x")
    mixed = result.get("interleaved")
    if mixed:
        rows.append(
            (
                "ratio: playout kernel / apologies, interleaved",
                *(f"{mixed[str(players)]['median']:,.1f} x" for players in PLAYERS),
            )
        )
        rows.append(
            (
                "  (median of slices; quartiles; range; pooled)",
                *(
                    "{q[0]:.1f}–{q[1]:.1f}; {r[0]:.1f}–{r[1]:.1f}; {p:.1f}".format(
                        q=mixed[str(players)]["quartiles"],
                        r=mixed[str(players)]["range"],
                        p=mixed[str(players)]["pooled"],
                    )
                    for players in PLAYERS
                ),
            )
        )
    width = [max(len(line[column]) for line in rows) for column in range(len(rows[0]))]
    lines = [f"Python {result['python']}, one core, seed {result['seed']}, best of {result['rounds']} rounds"]
    if mixed:
        slices = mixed[str(PLAYERS[0])]["slices"]
        lines[0] += f"; interleaved ratio over {slices} alternating slices per player count"
    for line in rows:
        lines.append("  ".join(cell.ljust(width[0]) if i == 0 else cell.rjust(width[i]) for i, cell in enumerate(line)))
    if peer is None:
        lines.append("(apologies not measured)")
    lines.append("")
    lines.append("Other presets, one round:")
    for entry in result.get("presets", []):
        lines.append(
            f"  {entry['preset']:18} {entry['players']} players: public loop {entry['loop_games_per_s']:,.1f} games/s,"
            f" kernel {entry['kernel_games_per_s']:,.1f} games/s, {entry['draws_per_game']:,.1f} cards per game"
        )
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="pardon games per player count and round (400)")
    parser.add_argument("--seed", type=int, default=1, help="first game seed; apologies seeds its global random (1)")
    parser.add_argument("--rounds", type=int, default=6, help="rounds; the best of each figure is kept (6)")
    parser.add_argument("--peer-games2", type=int, default=80, help="apologies games with 2 players per round (80)")
    parser.add_argument("--peer-games4", type=int, default=40, help="apologies games with 4 players per round (40)")
    parser.add_argument(
        "--slices", type=int, default=20, help="alternating pardon/apologies slices per player count; 0: none (20)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of a table")
    parser.add_argument("--skip-peer", action="store_true", help="do not run apologies")
    args = parser.parse_args(argv)
    if args.slices < 0:
        parser.error("--slices must be at least 0")
    for name in ("games", "rounds", "peer_games2", "peer_games4"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    return args


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    result = run(args)
    print(json.dumps(result) if args.json else table(result))


if __name__ == "__main__":
    main()
