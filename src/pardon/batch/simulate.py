"""``pardon sim --engine batch``: a simulation's games played by the batch engine, many at
once, written as the same result rows as :mod:`pardon.sim.simulate` (so ``pardon report``
reads them).

Game *i* of a run is played from the 32-bit seed ``Simulation.game_seed(i) mod 2**32``
(the row's ``seed``), with the batch's own pack and random players, so a run gives the
same rows whatever the size of the batches it is played in; it is not the game the core
engine plays for the same seed, though the batch's ``random`` player chooses as the core's
does, uniformly among distinct moves (docs/batch.md).
A run's ``run.json`` records ``"engine": "batch"``: a run is resumed only by the engine
that began it.

>>> import tempfile
>>> from pathlib import Path
>>> from pardon.sim.simulate import Simulation, read_rows
>>> folder = Path(tempfile.mkdtemp())
>>> run_batch_simulation(Simulation("classic", 2, ("greedy", "random"), 20, seed=3), folder)
20
>>> row = next(read_rows(folder))
>>> sorted(row) == sorted(["game", "seed", "seats", "bots", "first", "winner", "winner_place", "draws",
...     "turns", "bumps", "slides", "sorry", "forfeits", "lead_changes", "points", "cards"])
True
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any, Final, TextIO

import numpy as np

from pardon.batch.backend import Array
from pardon.batch.config import splits_any
from pardon.batch.engine import Config, Games, draw, new_games, play, points
from pardon.batch.players import check_players, choose, described
from pardon.batch.runs import ENGINE, check_engine
from pardon.batch.split_any import splitting
from pardon.core.board import COLOUR_NAMES, START
from pardon.core.cards import CARD_NAMES, CARDS
from pardon.core.errors import InvalidError
from pardon.core.rules import parse_rules
from pardon.sim.jsonlines import LEVELS, row_line
from pardon.sim.progress import Progress
from pardon.sim.simulate import (
    RESULTS,
    Simulation,
    check_simulation,
    held_games,
    resume_point,
    settings_of,
    write_settings,
)

#: Games played at once (the engine's fastest size on one core; memory stays small).
BATCH: Final = 65_536
#: Cards after which a game is given up as endless (no real game comes near).
CARD_LIMIT: Final = 20_000
START_DISTANCE: Final = 65

_KIND_OF_CARD = np.zeros(max(CARDS) + 1, dtype=np.int64)
_KIND_OF_CARD[list(CARDS)] = np.arange(len(CARDS))


def check_batch_simulation(simulation: Simulation) -> Simulation:
    """The run, checked for the batch engine (its rules, players and computer players)."""
    simulation = check_simulation(simulation)
    Config(parse_rules(simulation.rules), simulation.players)  # the batch plays these rules
    check_players(simulation.seat_bots())
    return simulation


def run_batch_simulation(
    simulation: Simulation, directory: Path, *, progress: TextIO | None = None, batch: int = BATCH
) -> int:
    """Play the games of ``simulation`` not yet in ``directory``; return how many were played."""
    simulation = check_batch_simulation(simulation)
    directory.mkdir(parents=True, exist_ok=True)
    check_engine(directory, "batch")
    settings = settings_of(simulation)
    wanted = {**settings, ENGINE: "batch", LEVELS: described(settings[LEVELS])}
    done = resume_point(directory, simulation, wanted)
    write_settings(directory, wanted, done)
    bar = Progress(max(simulation.games, done), progress)  # a run asked for fewer games than it holds
    bar.update(done)
    config = Config(parse_rules(simulation.rules), simulation.players)
    with (directory / RESULTS).open("a", encoding="utf-8") as out:
        for low in range(done, simulation.games, batch):
            numbers = range(low, min(low + batch, simulation.games))
            out.write("".join(row_line(row) for row in play_games(config, simulation, numbers)))
            out.flush()
            bar.update(numbers.stop)
    return max(0, simulation.games - done)


class _Tally:
    """What each game's moves add up to (the columns of a result row)."""

    def __init__(self, count: int) -> None:
        self.bumps = np.zeros(count, dtype=np.int64)
        self.slides = np.zeros(count, dtype=np.int64)
        self.forfeits = np.zeros(count, dtype=np.int64)
        self.lead_changes = np.zeros(count, dtype=np.int64)
        self.leader = np.full(count, -1, dtype=np.int64)
        self.played = np.zeros((count, len(CARDS)), dtype=np.int64)  # by game and kind of card
        self.forfeited = np.zeros((count, len(CARDS)), dtype=np.int64)
        self.decisions = np.zeros(count, dtype=np.int64)  # every decision, those without a card too


def play_games(config: Config, simulation: Simulation, numbers: range) -> list[dict[str, Any]]:
    """The result rows of games ``numbers`` of a run, played together."""
    seeds = np.array([simulation.game_seed(number) % 2**32 for number in numbers], dtype=np.uint32)
    games = new_games(config, seeds)
    players = simulation.seat_bots()
    tally = _Tally(len(seeds))
    while (games.winner < 0).any() and int(games.drawn.max()) < CARD_LIMIT:
        playing = games.winner < 0
        after, played = play(config, games, choose(config, games, players))
        whole = playing & ~splitting(after) if splits_any(config.rules) else playing  # a split 7 is one move
        tally.decisions += whole
        rows = np.flatnonzero(playing & (played.card != 0))  # a card played (not the Fire's jump, nor going on)
        tally.bumps += played.bumps
        tally.slides += played.slides
        tally.forfeits += played.forfeit
        kinds = _KIND_OF_CARD[played.card[rows]]
        np.add.at(tally.played, (rows, kinds), 1)
        np.add.at(tally.forfeited, (rows, kinds), played.forfeit[rows])
        _count_lead_changes(config, after, whole & ~played.forfeit, tally)  # after whole moves
        games = draw(config, after)
    scores = np.asarray(points(config, games)) if config.rules.scoring != "none" else None
    return [_row(config, simulation, number, games, tally, index, scores) for index, number in enumerate(numbers)]


def _count_lead_changes(config: Config, games: Games, moved: Array, tally: _Tally) -> None:
    """The colour nearest to having every pawn Home (Start counting 65), if only one is and
    it has left Start, as :mod:`pardon.sim.simulate` counts it; a change of leader after a
    move counts once a first leader is known."""
    pawns = games.pawns.astype(np.int64)
    left = pawns.sum(axis=1) - (pawns == START).sum(axis=1)  # (players, games), seat 0 to move
    seat = (games.turn[None].astype(np.int64) + np.arange(config.players)[:, None]) % config.players
    best = left.min(axis=0)
    unique = (left == best).sum(axis=0) == 1
    leader = np.take_along_axis(seat, left.argmin(axis=0)[None], axis=0)[0]
    untouched = START_DISTANCE * config.rules.pawns
    leader = np.where(unique & (best < untouched) & moved, leader, -1)
    changed = (leader >= 0) & (leader != tally.leader)
    tally.lead_changes += changed & (tally.leader >= 0)
    tally.leader = np.where(changed, leader, tally.leader)


def _row(
    config: Config,
    simulation: Simulation,
    number: int,
    games: Games,
    tally: _Tally,
    index: int,
    scores: np.ndarray | None,
) -> dict[str, Any]:
    """Game ``index``'s result row (``scores``: every game's points by seat, None under
    rules without points)."""
    seats = config.seats
    first = int(games.leader[index])
    winner = int(games.winner[index])
    # the cards played, as the core counts them: with hands of five not those dealt or drawn back up
    draws = int(tally.played[index].sum()) if config.rules.hand else int(games.drawn[index])
    cards = {
        CARD_NAMES[card]: [int(used), int(lost)]
        for card, used, lost in zip(CARDS, tally.played[index].tolist(), tally.forfeited[index].tolist(), strict=True)
        if used
    }
    return {
        "game": number,
        "seed": int(games.seed[index]),
        "seats": [COLOUR_NAMES[colour] for colour in seats],
        "bots": list(simulation.seat_bots()),
        "first": COLOUR_NAMES[seats[first]],
        "winner": None if winner < 0 else COLOUR_NAMES[seats[winner]],
        "winner_place": None if winner < 0 else (winner - first) % config.players,
        "draws": draws,
        "turns": int(tally.decisions[index]),
        "bumps": int(tally.bumps[index]),
        "slides": int(tally.slides[index]),
        "sorry": cards.get("sorry", [0, 0])[0],
        "forfeits": int(tally.forfeits[index]),
        "lead_changes": int(tally.lead_changes[index]),
        "points": None if scores is None or winner < 0 else _points(seats, scores[:, index]),
        "cards": cards,
    }


def _points(seats: tuple[int, ...], scores: np.ndarray) -> dict[str, int]:
    """A finished game's points as the core's rows hold them: by colour name, the seats in
    order (null in a row under rules without points, or for a game given up)."""
    return {COLOUR_NAMES[colour]: int(score) for colour, score in zip(seats, scores.tolist(), strict=True)}


def command_sim_batch(simulation: Simulation, arguments: argparse.Namespace) -> int:
    """``pardon sim --engine batch``: the run, and one line saying how fast it went."""
    if arguments.dask or arguments.scheduler or arguments.jobs not in (None, 1):
        raise InvalidError("the batch engine plays its games in one process: leave out --jobs, --dask and --scheduler")
    out = Path(arguments.out)
    started = time.monotonic()
    played = run_batch_simulation(simulation, out, progress=None if arguments.quiet else sys.stderr)
    elapsed = time.monotonic() - started
    rate = f" ({played / elapsed:,.0f} games/s)" if played and elapsed > 0 else ""
    print(f"{played:,} games played by the batch engine{rate}; {held_games(out / RESULTS)}")
    return 0
