"""Duplicate tournaments between computer players.

Every pairing of two players meets on the same *deals* — a deal is the seed of a game,
which fixes the pack and its reshuffles — and each deal is played once per *seating*,
so each player sits in every seat on the same cards and most of the luck cancels:

- 2 players: ``AB`` and ``BA``;
- 4 players: ``ABAB`` and ``BABA`` (in the partners game each player is a whole team);
- 3 players: ``ABB``, ``BAB``, ``BBA``, ``AAB``, ``ABA`` and ``BAA``.

Each game has its own seeds, derived from the tournament seed, the deal and the
seating, so a tournament gives the same results whatever the number of processes.
Players with a time budget (``seconds=``) play as fast as the machine lets them, so only
iteration budgets are exactly reproducible.

A tournament given a directory streams one JSON line per game to ``DIR/games.jsonl`` and
records its settings in ``DIR/tournament.json``.  Run again with the same settings, it
plays only the games not yet there: an interrupted run resumes, and a larger ``games``
extends it with new deals (the deals of a smaller count are the first ones of a larger).

>>> [game.seating for game in schedule(("greedy", "random"), players=2, games=4)]
[('greedy', 'random'), ('random', 'greedy'), ('greedy', 'random'), ('random', 'greedy')]
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from pathlib import Path
from typing import Any, Final, NamedTuple, TextIO

from pardon.bots import Bot, describe_bot, make_bot, split_bot_specs
from pardon.core.board import partner
from pardon.core.errors import InvalidError, whole_number
from pardon.core.game import Game
from pardon.core.rules import parse_rules, to_text
from pardon.core.state import seats_for
from pardon.sim.jsonlines import LEVELS, check_settings, complete_rows, read_jsonlines, row_line
from pardon.sim.pool import worker_pool
from pardon.sim.progress import Progress
from pardon.sim.stats import (
    Interval,
    Results,
    bootstrap_ratings,
    duplicate_interval,
    elo_interval,
    percentile,
    wilson,
)

RESULTS: Final = "games.jsonl"
SETTINGS: Final = "tournament.json"
#: The settings a resumed tournament must share with the games already in its directory;
#: the number of games may grow, and a ladder's games are those of the full tournament.
SAME_SETTINGS: Final = ("rules", "players", "bots", "seed")


class Seating(NamedTuple):
    pattern: str  # "AB", "ABAB", ...: which of the pairing's players sits in each seat


def seatings(players: int) -> tuple[str, ...]:
    """The seat patterns of one deal: every player gets every seat equally often.

    >>> seatings(4)
    ('ABAB', 'BABA')
    """
    if players < 2:
        raise ValueError("a tournament needs 2 or more players per game")
    if players % 2 == 0:
        return ("AB" * (players // 2), "BA" * (players // 2))
    lone_a = tuple("".join("A" if seat == index else "B" for seat in range(players)) for index in range(players))
    lone_b = tuple(pattern.translate(str.maketrans("AB", "BA")) for pattern in reversed(lone_a))
    return lone_a + lone_b


@dataclass(frozen=True)
class GameSpec:
    """One game of a tournament: everything needed to play it again."""

    rules: str
    players: int
    pairing: tuple[int, int]  # indexes of players A and B in the tournament's list
    deal: int
    pattern: str
    seating: tuple[str, ...]  # the player (its spec) in each seat, clockwise
    seed: int  # the game's seed: its pack and reshuffles (the same for every seating)
    bot_seed: str  # the players' random source


def deal_seed(tournament_seed: int, deal: int) -> int:
    """The game seed of a deal: shared by every pairing and seating."""
    return random.Random(f"pardon-deal:{tournament_seed}:{deal}").getrandbits(48)


def pairings_of(count: int, ladder: bool = False) -> list[tuple[int, int]]:
    """The pairings of ``count`` players: every one against every other or, as a *ladder*,
    each against the next in the list (the steps a list of levels, weakest first, climbs).

    >>> pairings_of(4, ladder=True)
    [(0, 1), (1, 2), (2, 3)]
    """
    if ladder:
        return [(index, index + 1) for index in range(count - 1)]
    return list(itertools.combinations(range(count), 2))


def schedule(
    bots: Sequence[str], players: int, games: int, rules: str = "classic", seed: int = 0, ladder: bool = False
) -> list[GameSpec]:
    """Every game of the tournament: each pairing plays ``games`` games (rounded up to
    whole deals), deal by deal, each deal in every seating.  A pairing's games are the
    same whether the tournament is a ladder or plays every pairing.
    """
    patterns = seatings(players)
    deals = max(1, math.ceil(games / len(patterns)))
    specs = []
    for deal in range(deals):
        for first, second in pairings_of(len(bots), ladder):
            for pattern in patterns:
                seating = tuple(bots[first] if letter == "A" else bots[second] for letter in pattern)
                specs.append(
                    GameSpec(
                        rules,
                        players,
                        (first, second),
                        deal,
                        pattern,
                        seating,
                        deal_seed(seed, deal),
                        f"pardon-bots:{seed}:{deal}:{first}:{second}:{pattern}",
                    )
                )
    return specs


@dataclass
class GameResult:
    """Who won one game, and how long each player took over its decisions."""

    spec: GameSpec
    winner_letter: str  # "A" or "B"
    cards: int
    think: dict[str, list[float]] = field(default_factory=dict)  # CPU seconds per decision, by player spec


_BOT_CACHE: dict[str, Bot] = {}


def _bot(spec: str) -> Bot:
    found = _BOT_CACHE.get(spec)
    if found is None:
        found = _BOT_CACHE[spec] = make_bot(spec)
    return found


def play_game(spec: GameSpec) -> GameResult:
    """Play one scheduled game with the engine's player loop."""
    rules = parse_rules(spec.rules)
    seats = seats_for(spec.players)
    game = Game.new(rules, seats, spec.seed)
    players = {colour: _bot(spec.seating[index]) for index, colour in enumerate(seats)}
    letters = {colour: spec.pattern[index] for index, colour in enumerate(seats)}
    rng = random.Random(spec.bot_seed)
    think: dict[str, list[float]] = {}
    clock = time.process_time  # the player's own CPU time: other work on the machine does not count
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        decider = game.decider
        if len(moves) == 1:
            game.play_trusted(moves[0])
            continue
        started = clock()
        move = players[decider].choose(game.observe(decider), moves, rng)
        think.setdefault(spec.seating[seats.index(decider)], []).append(clock() - started)
        game.play_trusted(move)
    winner = game.winner
    assert winner is not None
    if rules.partners and letters[winner] != letters[partner(winner)]:
        raise AssertionError("partners must be played by the same player")
    return GameResult(spec, letters[winner], game.turns, think)


def _play_all(specs: list[GameSpec], jobs: int, chunk: int) -> Iterator[GameResult]:
    if jobs <= 1:
        yield from map(play_game, specs)
        return
    with worker_pool(jobs) as pool:  # as they finish: each is kept at once; reports sort them
        yield from pool.imap_unordered(play_game, specs, chunksize=chunk)


@dataclass
class PairingReport:
    first: str
    second: str
    games: int
    deals: int
    first_wins: int
    rate: Interval  # the duplicate interval: deals are the units
    wilson: Interval  # every game as an independent trial, for reference
    elo: Interval  # Elo difference of the first over the second, from ``rate``


@dataclass
class TournamentReport:
    rules: str
    players: int
    bots: list[str]
    seed: int
    games_per_pairing: int
    pairings: list[PairingReport]
    ratings: list[Interval]  # Bradley-Terry Elo, the first player at 0, bootstrap intervals
    think: dict[str, dict[str, float]]  # per player: decisions, median and p99 CPU seconds
    seconds: float  # of this sitting
    kept: int = 0  # games read from the directory, played in earlier sittings

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "games_per_pairing": self.games_per_pairing,
            "interval": "duplicate: mean of per-deal scores +- 1.96 standard errors across deals",
            "pairings": [
                {
                    "first": pairing.first,
                    "second": pairing.second,
                    "games": pairing.games,
                    "deals": pairing.deals,
                    "first_wins": pairing.first_wins,
                    "first_win_rate": _interval_json(pairing.rate),
                    "wilson": _interval_json(pairing.wilson),
                    "elo_difference": _interval_json(pairing.elo),
                }
                for pairing in self.pairings
            ],
            "elo": {bot: _interval_json(rating) for bot, rating in zip(self.bots, self.ratings, strict=True)},
            "think_seconds": self.think,
            "seconds": round(self.seconds, 2),
            "games_kept": self.kept,
        }


def _interval_json(interval: Interval) -> dict[str, float]:
    return {name: round(value, 4) for name, value in interval._asdict().items()}


def summarise(
    bots: Sequence[str],
    rules: str,
    players: int,
    seed: int,
    games: int,
    results: Iterable[GameResult],
    seconds: float,
    kept: int = 0,
) -> TournamentReport:
    """Win rates, intervals and ratings from the games played."""
    per_deal: dict[tuple[int, int], dict[int, list[float]]] = {}
    think: dict[str, list[float]] = {}
    for result in results:
        deals = per_deal.setdefault(result.spec.pairing, {})
        deals.setdefault(result.spec.deal, []).append(1.0 if result.winner_letter == "A" else 0.0)
        for name, times in result.think.items():
            think.setdefault(name, []).extend(times)
    scores: Results = {}
    pairings = []
    for (first, second), deals in sorted(per_deal.items()):
        deal_scores = [sum(games) / len(games) for games in deals.values()]
        scores[(first, second)] = deal_scores
        played = sum(len(games) for games in deals.values())
        won = round(sum(sum(games) for games in deals.values()))
        rate = duplicate_interval(deal_scores)
        pairings.append(
            PairingReport(
                bots[first], bots[second], played, len(deals), won, rate, wilson(won, played), elo_interval(rate)
            )
        )
    ratings = bootstrap_ratings(len(bots), scores, seed=seed)
    return TournamentReport(
        rules, players, list(bots), seed, games, pairings, ratings, _think_summary(think), seconds, kept
    )


def _think_summary(think: dict[str, list[float]]) -> dict[str, dict[str, float]]:
    summary = {}
    for name, times in sorted(think.items()):
        ordered = sorted(times)
        summary[name] = {
            "decisions": len(ordered),
            "median": round(statistics.median(ordered), 5),
            "p99": round(percentile(ordered, 0.99), 5),
        }
    return summary


def run_tournament(
    bots: Sequence[str],
    rules: str = "classic",
    players: int = 2,
    games: int = 100,
    jobs: int = 1,
    seed: int = 0,
    progress: TextIO | None = None,
    on_result: Callable[[GameResult], None] | None = None,
    ladder: bool = False,
    directory: Path | str | None = None,
) -> TournamentReport:
    """Play a duplicate tournament between ``bots`` (player specs) and summarise it; with
    ``ladder``, only each player against the next in the list.  With a ``directory``, every
    game is kept there as it finishes and the games already there are not played again."""
    if isinstance(bots, str):
        raise InvalidError(
            f"bots is a list of computer players, such as {split_bot_specs(bots)!r}, not the text {bots!r}"
        )
    if not isinstance(bots, Iterable):
        raise InvalidError(f"bots is a list of computer players, such as ['greedy', 'random'], not {bots!r}")
    bots = list(bots)  # a generator too, read once
    if not all(isinstance(spec, str) for spec in bots):
        raise InvalidError(
            f"bots is a list of computer players named as text, such as ['greedy', 'random'], not {bots!r}"
        )
    players = whole_number(players, "a tournament's players")
    seed = whole_number(seed, "a tournament's seed")  # "1" and 1.5 would name other deals than 1
    if len(bots) < 2:
        raise InvalidError("a tournament needs at least two computer players")
    if len(set(bots)) != len(bots):
        raise InvalidError("each computer player may be listed once")
    rules = to_text(parse_rules(rules))  # one text for the same rules: classic(pawns=4) is classic
    allowed = parse_rules(rules).players
    if players not in allowed:
        counts = " or ".join(map(str, allowed))
        raise InvalidError(
            f"rules {rules} are played by {counts} player{'s' if allowed != (1,) else ''}, not {players!r}"
        )
    if players < 2:
        raise InvalidError(f"a tournament pits players against each other: {rules} is played alone")
    if isinstance(games, bool) or not isinstance(games, Integral) or games < 1:  # a NumPy integer is one
        raise InvalidError(f"a tournament plays at least one game per pairing, not games={games!r}")
    games = int(games)
    levels = {spec: describe_bot(spec) for spec in bots}  # a bad spec is refused before any game is played
    specs = schedule(bots, players, games, rules, seed, ladder)
    settings = {"rules": rules, "players": players, "bots": list(bots), "seed": seed, LEVELS: levels}
    directory = None if directory is None else Path(directory)  # a folder's name as text too
    kept = {} if directory is None else load_results(directory, settings, specs)
    earlier = len(kept)
    bar = Progress(len(specs), progress)
    bar.update(earlier)
    started = time.monotonic()
    left = [spec for spec in specs if _key(spec) not in kept]
    chunk = max(1, min(8, len(left) // (4 * max(1, jobs))))
    with _results_file(directory, settings) as out:
        for done, result in enumerate(_play_all(left, jobs, chunk), start=len(kept) + 1):
            kept[_key(result.spec)] = result
            if out is not None:
                out.write(row_line(_row(result)))
                out.flush()
            if on_result is not None:
                on_result(result)
            bar.update(done)
    results = [kept[_key(spec)] for spec in specs]  # schedule order, however the games were played
    return summarise(bots, rules, players, seed, games, results, time.monotonic() - started, earlier)


GameKey = tuple[int, int, int, str]  # pairing (two indexes), deal, seating pattern


def _key(spec: GameSpec) -> GameKey:
    return (*spec.pairing, spec.deal, spec.pattern)


def _row(result: GameResult) -> dict[str, Any]:
    spec = result.spec
    return {
        "pairing": list(spec.pairing),
        "deal": spec.deal,
        "pattern": spec.pattern,
        "seed": spec.seed,
        "winner": result.winner_letter,
        "cards": result.cards,
        "think": {name: [round(seconds, 6) for seconds in times] for name, times in result.think.items()},
    }


def load_results(directory: Path, settings: dict[str, Any], specs: Sequence[GameSpec]) -> dict[GameKey, GameResult]:
    """The games of ``specs`` already played in ``directory`` (none for a new one).

    A directory holding another tournament is refused, naming the setting that differs; a
    half-written last line, left by a run killed while writing, is cut off.
    """
    advice = "use another directory to start a new one"
    if not check_settings(directory / SETTINGS, settings, SAME_SETTINGS, "tournament", advice):
        if (directory / RESULTS).exists():
            raise InvalidError(f"{directory} holds {RESULTS} but no {SETTINGS}: use another directory")
        return {}
    complete_rows(directory / RESULTS)
    by_key = {_key(spec): spec for spec in specs}
    kept = {}
    for row in read_jsonlines(directory / RESULTS) if (directory / RESULTS).exists() else ():
        spec = by_key.get((*row["pairing"], row["deal"], row["pattern"]))
        if spec is not None:  # a game of this schedule (a smaller count reports on the first deals)
            kept[_key(spec)] = GameResult(spec, row["winner"], row["cards"], row["think"])
    return kept


@contextlib.contextmanager
def _results_file(directory: Path | None, settings: dict[str, Any]) -> Iterator[TextIO | None]:
    if directory is None:
        yield None
        return
    directory.mkdir(parents=True, exist_ok=True)
    (directory / SETTINGS).write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")
    with (directory / RESULTS).open("a", encoding="utf-8") as out:
        yield out


def format_report(report: TournamentReport) -> str:
    """The report as plain-text tables."""
    lines = [
        f"Duplicate tournament: rules {report.rules}, {report.players} players, "
        f"{_games_text(report)}, seed {report.seed} ({_sitting(report)})",
        "",
        f"{'pairing':34s} {'games':>6s} {'first wins':>10s} {'95% interval':>15s} {'Elo diff (95%)':>22s}",
    ]
    for pairing in report.pairings:
        name = f"{pairing.first} vs {pairing.second}"
        lines.append(
            f"{name:34s} {pairing.games:6d} {pairing.rate.estimate:10.1%} "
            f"{_percent_range(pairing.rate):>15s} {_elo_text(pairing.elo):>22s}"
        )
    lines += ["", f"{'player':24s} {'Elo (95%)':>22s} {'decisions':>10s} {'median s':>9s} {'p99 s':>8s}"]
    for bot, rating in zip(report.bots, report.ratings, strict=True):
        timing = report.think.get(bot, {})
        lines.append(
            f"{bot:24s} {_elo_text(rating):>22s} {int(timing.get('decisions', 0)):10d} "
            f"{timing.get('median', 0.0):9.4f} {timing.get('p99', 0.0):8.4f}"
        )
    lines += ["", "Intervals count each deal (all its seatings together) as one observation; see docs/bots.md."]
    return "\n".join(lines)


def _sitting(report: TournamentReport) -> str:
    """How long this run took, and how many games earlier runs had already played."""
    took = f"{report.seconds:.0f} s"
    return f"{took}; {report.kept:,} games played earlier" if report.kept else took


def _games_text(report: TournamentReport) -> str:
    """Games per pairing as played: a deal is played in every seating, so a count asked for is
    rounded up to whole deals."""
    asked = report.games_per_pairing
    played = max((pairing.games for pairing in report.pairings), default=asked)
    if played in (0, asked):
        return f"{asked:,} {'game' if asked == 1 else 'games'} per pairing"
    return f"{asked:,} {'game' if asked == 1 else 'games'} asked per pairing, {played:,} played (whole deals)"


def _percent_range(interval: Interval) -> str:
    return f"{interval.low:.1%}-{interval.high:.1%}"


def _elo_text(interval: Interval) -> str:
    return f"{interval.estimate:+.0f} ({interval.low:+.0f}..{interval.high:+.0f})"
