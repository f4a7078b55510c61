"""Simulations: many seeded games between computer players, one result row per game.

``run_simulation`` plays games ``0 … games-1`` of a run; game *i* is a pure function of
(rules, players, bots, the run's seed, *i*), so a run gives the same rows whatever the
number of processes (``jobs``) or machines (a Dask cluster) that play it.  Rows stream to
``DIR/games.jsonl`` in game order as they are played, so memory stays flat and an
interrupted run resumes where it stopped (:func:`resume_point`) without playing a game
twice.  ``DIR/run.json`` records what the run is; resuming with other settings is refused.

A row holds what the statistics need (:mod:`pardon.sim.report`)::

    {"game": 0, "seed": 123, "seats": ["red", "yellow"], "bots": ["random", "random"],
     "first": "yellow", "winner": "red", "winner_place": 1, "draws": 88, "turns": 88,
     "bumps": 7, "slides": 5, "sorry": 6, "forfeits": 21, "lead_changes": 9,
     "points": null, "cards": {"1": [9, 1], ...}}

``winner_place`` is the winner's place in the order of play (0: the player who went
first); ``draws`` counts the cards played (drawn, or played from a hand), ``turns`` every
decision; ``cards`` maps each card to [times played, times forfeited or discarded].
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Final, TextIO

from pardon.bots import Bot, RandomBot, describe_bot, make_bot, split_bot_specs
from pardon.core.board import COLOUR_NAMES, START
from pardon.core.cards import CARD_NAMES, NO_CARD
from pardon.core.errors import InvalidError, whole_number
from pardon.core.game import Game
from pardon.core.moves import Move, legal_moves, slides_ridden
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.scoring import points_of
from pardon.core.state import Position, seats_for
from pardon.sim.jsonlines import (
    LEVELS,
    check_settings,
    complete_rows,
    last_line,
    parse_row,
    read_jsonlines,
    row_line,
)
from pardon.sim.pool import worker_pool
from pardon.sim.progress import Progress

RESULTS: Final = "games.jsonl"
SETTINGS: Final = "run.json"
#: Games handed to the workers at a time: bounded, so memory stays flat for any run.
BATCH: Final = 2000
#: Decisions after which a game is given up as endless (no real game comes near).
DECISION_LIMIT: Final = 20_000
#: A pawn in Start counts this far from Home when telling who leads.
START_DISTANCE: Final = 65


@dataclass(frozen=True)
class Simulation:
    """What a run is: the same settings and seed always give the same games."""

    rules: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0

    def game_seed(self, game: int) -> int:
        """The seed of game ``game``: spread out so that runs with nearby seeds differ."""
        digest = hashlib.sha256(f"pardon-sim:{self.seed}:{game}".encode()).digest()
        return int.from_bytes(digest[:6], "big")

    def seat_bots(self) -> tuple[str, ...]:
        """The computer player of each seat, in seat order (a shorter list repeats round the
        table; :func:`check_simulation` refuses a longer one)."""
        return tuple(self.bots[index % len(self.bots)] for index in range(self.players))

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["bots"] = list(self.bots)
        return data


def check_simulation(simulation: Simulation) -> Simulation:
    """Raise InvalidError unless the run can be played; return it with its rules text
    in canonical form."""
    rules = parse_rules(simulation.rules)
    players, games, seed = (
        whole_number(getattr(simulation, what), f"a simulation's {what}") for what in ("players", "games", "seed")
    )  # a NumPy integer is a whole number too: kept as an int, so that the settings are JSON
    if not simulation.bots or isinstance(simulation.bots, str) or not isinstance(simulation.bots, tuple | list):
        raise InvalidError(f"a simulation names at least one computer player, as a tuple, not {simulation.bots!r}")
    simulation = Simulation(simulation.rules, players, tuple(simulation.bots), games, seed)
    if simulation.players not in rules.players:
        allowed = ", ".join(str(count) for count in rules.players)
        plural = "player" if allowed == "1" else "players"
        raise InvalidError(f"{to_text(rules)} is played by {allowed} {plural}, not {simulation.players}")
    check_seat_count(simulation.bots, simulation.players)
    if simulation.games < 1:
        raise InvalidError("a simulation plays at least one game")
    for spec in simulation.bots:
        make_bot(spec)
    return Simulation(to_text(rules), simulation.players, simulation.bots, simulation.games, simulation.seed)


def check_seat_count(bots: Sequence[str], players: int) -> None:
    """InvalidError if there are more computer players than seats: the last would never play.
    A shorter list is taken round the table again (``greedy,random`` alternate)."""
    if len(bots) > players:
        given = f"{players} player{'s' if players != 1 else ''}, {len(bots)} levels given"
        raise InvalidError(f"give at most one level per seat (a shorter list repeats round the table): {given}")


# --- one game ------------------------------------------------------------------------------


def play_game(simulation: Simulation, game_number: int) -> dict[str, Any]:
    """Play game ``game_number`` of ``simulation`` and return its row."""
    rules = parse_rules(simulation.rules)
    seats = seats_for(simulation.players)
    seed = simulation.game_seed(game_number)
    game = Game.new(rules, seats, seed)
    names = simulation.seat_bots()
    bots: dict[int, Bot] = {colour: make_bot(names[index]) for index, colour in enumerate(seats)}
    rng = random.Random(f"pardon-sim-moves:{seed}")
    first = game.turn
    tally = _Tally(rules)
    if _only_draws(rules) and all(isinstance(bot, RandomBot) for bot in bots.values()):
        position, turns = _random_game(rules, game, rng, tally)
        return _row(simulation, rules, game_number, seed, seats, first, position, turns, tally)
    while not game.is_over and game.turns < DECISION_LIMIT:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        decider = game.decider
        bot = bots[decider]
        if len(moves) == 1:
            move = moves[0]
        elif isinstance(bot, RandomBot) and not rules.doubling:  # no observation needed: skip building one
            move = moves[rng.randrange(len(moves))]
        else:
            move = bot.choose(game.observe(decider), moves, rng)
        game.play_trusted(move)
        tally.add(move, game.position)
    return _row(simulation, rules, game_number, seed, seats, first, game.position, game.turns, tally)


def _only_draws(rules: Rules) -> bool:
    """Whether every decision is a drawn card's move (no hands, tokens or doubles)."""
    return not (rules.hand or rules.tokens or rules.doubling)


def _random_game(rules: Rules, game: Game, rng: random.Random, tally: _Tally) -> tuple[Position, int]:
    """The loop of :func:`play_game` for random players, on positions and the pack alone:
    the same draws and the same calls on ``rng``, so the same game, without a
    :class:`Game`'s history (simulations do not take moves back)."""
    position, pack, seed = game.position, game.pack, game.seed
    turns = 0
    while position.winner is None and turns < DECISION_LIMIT:
        card, pack = pack.draw(seed)
        moves = legal_moves(rules, position, card)
        move = moves[0] if len(moves) == 1 else moves[rng.randrange(len(moves))]
        position = move.result
        turns += 1
        tally.add(move, position)
    return position, turns


def _row(
    simulation: Simulation,
    rules: Rules,
    game_number: int,
    seed: int,
    seats: tuple[int, ...],
    first: int,
    position: Position,
    turns: int,
    tally: _Tally,
) -> dict[str, Any]:
    order = seats[seats.index(first) :] + seats[: seats.index(first)]
    winner = position.winner
    points = points_of(rules, position)
    return {
        "game": game_number,
        "seed": seed,
        "seats": [COLOUR_NAMES[colour] for colour in seats],
        "bots": list(simulation.seat_bots()),
        "first": COLOUR_NAMES[first],
        "winner": None if winner is None else COLOUR_NAMES[winner],
        "winner_place": None if winner is None else order.index(winner),
        "draws": tally.draws,
        "turns": turns,
        "bumps": tally.bumps,
        "slides": tally.slides,
        "sorry": tally.cards.get(13, [0, 0])[0],
        "forfeits": tally.forfeits,
        "lead_changes": tally.lead_changes,
        "points": None if points is None else {COLOUR_NAMES[c]: p for c, p in points.items()},
        "cards": {CARD_NAMES[card]: counts for card, counts in sorted(tally.cards.items())},
    }


class _Tally:
    """What a game's moves add up to."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.draws = self.bumps = self.slides = self.forfeits = self.lead_changes = 0
        self.cards: dict[int, list[int]] = {}
        self.leader: int | None = None

    def add(self, move: Move, after: Position) -> None:
        if move.bumps:
            self.bumps += len(move.bumps)
        self.slides += slides_ridden(self.rules, move)  # a switched opponent's slide included
        if move.card == NO_CARD:
            return
        self.draws += 1
        counts = self.cards.get(move.card)
        if counts is None:
            counts = self.cards[move.card] = [0, 0]
        counts[0] += 1
        if move.is_pass:
            self.forfeits += 1
            counts[1] += 1
            return  # no pawn moved, so the lead cannot change
        leader = _leader(after)
        if leader is not None and leader != self.leader:
            if self.leader is not None:
                self.lead_changes += 1
            self.leader = leader


def _leader(position: Position) -> int | None:
    """The colour nearest to having every pawn Home (Start counting 65, one less than its
    distance code), if only one is, and once it has left Start."""
    best = untouched = START_DISTANCE * len(position.pawns[position.seats[0]])
    leader: int | None = None
    for colour in position.seats:
        row = position.pawns[colour]
        left = sum(row) - row.count(START)
        if left < best:
            best, leader = left, colour
        elif left == best:
            leader = None
    return leader if best < untouched else None


def _play_batch(task: tuple[Simulation, int, int]) -> list[dict[str, Any]]:
    simulation, start, stop = task
    return [play_game(simulation, number) for number in range(start, stop)]


# --- a run -----------------------------------------------------------------------------------


def resume_point(directory: Path, simulation: Simulation, settings: dict[str, Any] | None = None) -> int:
    """How many games of ``simulation`` are already in ``directory`` (0 for a new run);
    ``settings``: what ``run.json`` must record (:func:`settings_of` unless given).

    A half-written last line, left by a run killed while writing, is cut off.  A directory
    holding another run is refused, naming the setting that differs, and so are results
    without their ``run.json`` and a results file whose last row is not the game its line
    number says (a line lost, added or damaged: resuming would skip or repeat games).
    """
    wanted = settings_of(simulation) if settings is None else settings
    advice = "use another --out directory to start a new run"
    results = directory / RESULTS
    if not check_settings(directory / SETTINGS, wanted, ("rules", "players", "bots", "seed"), "run", advice):
        if results.exists() and results.stat().st_size:
            raise InvalidError(f"{directory} holds {RESULTS} but no {SETTINGS} saying what run they are: {advice}")
        return 0
    held = complete_rows(results)
    if held:
        last = parse_row(results, held, last_line(results))
        if last.get("game") != held - 1:
            raise InvalidError(
                f"{results} holds {held:,} rows but the last is game {last.get('game')!r}, not {held - 1:,}: "
                f"a row was lost, added or damaged; mend the file or {advice}"
            )
    return held


def held_games(path: Path) -> str:
    """How many games a run's results file holds, said for the end of a run: a run may hold
    more than the ``--games`` just asked for (an earlier, longer run in the same folder)."""
    return f"{complete_rows(path):,} in {path}"


def write_settings(directory: Path, settings: dict[str, Any], held: int) -> None:
    """Write ``DIR/run.json``; its ``games`` stays the number the folder holds when a run
    is asked for fewer than that (the games already played are kept, and counted)."""
    recorded = {**settings, "games": max(settings["games"], held)}
    (directory / SETTINGS).write_text(json.dumps(recorded, indent=2) + "\n", encoding="utf-8")


#: How ``random`` doubles, recorded with a doubling run (docs/bots.md: "Doubling").
RANDOM_DOUBLES: Final = {"doubles": "by its chance of winning"}


def settings_of(simulation: Simulation) -> dict[str, Any]:
    """What ``DIR/run.json`` records: the run, and what each of its players plays with.
    With doubling, ``random`` records that it doubles by its chance of winning, as every
    computer player does: a run kept while it doubled at random is not resumed."""
    levels = {spec: describe_bot(spec) for spec in dict.fromkeys(simulation.bots)}
    if parse_rules(simulation.rules).doubling:
        levels = {
            spec: {**level, **RANDOM_DOUBLES} if level["level"] == "random" else level for spec, level in levels.items()
        }
    return {**simulation.to_json(), LEVELS: levels}


def run_simulation(
    simulation: Simulation,
    directory: Path | str,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: TextIO | None = None,
    deadline: float | None = None,
) -> int:
    """Play the games of ``simulation`` not yet in ``directory``; return how many were played.

    ``scheduler`` runs the games on a Dask cluster instead of local processes: ``"local"``
    starts a local cluster of ``jobs`` workers, anything else is a scheduler's address.
    ``deadline`` (a ``time.monotonic()`` value) stops the run between two slices of games
    once passed; the games played so far are kept, and a later call resumes.
    """
    simulation = check_simulation(simulation)
    directory = Path(directory)  # a folder's name as text, as a script writes it
    directory.mkdir(parents=True, exist_ok=True)
    done = resume_point(directory, simulation)
    write_settings(directory, settings_of(simulation), done)
    bar = Progress(max(simulation.games, done), progress)  # a run asked for fewer games than it holds
    bar.update(done)
    if done >= simulation.games:
        return 0
    tasks = _batches(simulation, done, max(1, jobs))
    played = done
    with (directory / RESULTS).open("a", encoding="utf-8") as out:
        for rows in _play(tasks, jobs, scheduler):
            out.write("".join(row_line(row) for row in rows))
            out.flush()
            played += len(rows)
            bar.update(played)
            if deadline is not None and time.monotonic() > deadline:
                break
    return played - done


def _batches(simulation: Simulation, start: int, jobs: int) -> list[tuple[Simulation, int, int]]:
    """Consecutive slices of the games left, small enough to keep every worker busy."""
    size = max(1, min(BATCH // jobs, (simulation.games - start) // (4 * jobs) or 1, 200))
    return [(simulation, low, min(low + size, simulation.games)) for low in range(start, simulation.games, size)]


def _play(tasks: list[tuple[Simulation, int, int]], jobs: int, scheduler: str | None) -> Iterator[list[dict[str, Any]]]:
    if scheduler is not None:
        from pardon.sim.cluster import play_on_dask

        yield from play_on_dask(_play_batch, tasks, scheduler, jobs)
        return
    if jobs <= 1:
        yield from map(_play_batch, tasks)
        return
    with worker_pool(jobs) as pool:
        # Handed out a window at a time, in order: rows are written as games finish and
        # the queue of waiting work never grows with the size of the run.
        window = 4 * jobs
        for low in range(0, len(tasks), window):
            yield from pool.imap(_play_batch, tasks[low : low + window])


def read_rows(directory: Path | str) -> Iterator[dict[str, Any]]:
    """The rows of a run, in game order (a partial last line is skipped)."""
    path = Path(directory) / RESULTS
    if not path.exists():
        raise InvalidError(f"{directory} holds no simulation results ({RESULTS} is missing)")
    yield from read_jsonlines(path)


def read_settings(directory: Path | str) -> Simulation:
    directory = Path(directory)
    if directory.exists() and not directory.is_dir():
        raise InvalidError(f"{directory} is not a simulation run: it is a file, not a folder")
    if not directory.is_dir():
        raise InvalidError(f"{directory} is not a simulation run: there is no such folder")
    try:
        data = json.loads((directory / SETTINGS).read_text(encoding="utf-8"))
        return Simulation(data["rules"], data["players"], tuple(data["bots"]), data["games"], data["seed"])
    except (OSError, json.JSONDecodeError, KeyError, TypeError) as error:
        raise InvalidError(f"{directory} is not a simulation run ({SETTINGS}: {error})") from None


def default_jobs() -> int:
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1)


def parse_bots(text: str) -> tuple[str, ...]:
    return tuple(split_bot_specs(text))


__all__ = [
    "Simulation",
    "play_game",
    "read_rows",
    "read_settings",
    "resume_point",
    "run_simulation",
]
