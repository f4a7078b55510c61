"""Make the stored puzzles: search sampled positions, verify, write package data.

    nice -n 10 python scripts/make_puzzles.py --seed 1 --wanted 50 --minutes 60

Each sampled game's outcome is appended to the work log (``--log``) as one JSON line as
soon as it is done, so a run stopped at any point resumes where it left off when the same
command is run again; the puzzles found so far are written to ``--out`` after every game.
Results depend only on ``--seed`` and the budget options, never on the time limit, which
only decides where a run stops (docs/bots.md, "Puzzles").
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from pardon.bots.puzzles import SOURCES, Budget, Outcome, Puzzle, difficulty, generate, theme

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wanted", type=int, default=50, help="stop once this many puzzles are verified")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop starting new games after this long")
    parser.add_argument("--step", type=int, default=Budget.step, help="playouts per move per step of the search")
    parser.add_argument("--search", type=int, default=Budget.search, help="most playouts per move in the search")
    parser.add_argument("--verify", type=int, default=Budget.verify, help="playouts per move, verification")
    parser.add_argument("--margin", type=float, default=Budget.margin, help="least lead of the best move")
    parser.add_argument("--per-game", type=int, default=Budget.per_game, help="candidates searched per game")
    parser.add_argument("--screen", type=float, default=Budget.screen, help="least evaluation gap of a candidate")
    parser.add_argument("--log", default=str(ROOT / "build" / "puzzles-log.jsonl"), help="work log (resumed)")
    parser.add_argument("--out", default=str(ROOT / "src" / "pardon" / "bots" / "puzzles.json"))
    arguments = parser.parse_args()
    budget = Budget(
        step=arguments.step,
        search=arguments.search,
        verify=arguments.verify,
        margin=arguments.margin,
        per_game=arguments.per_game,
        screen=arguments.screen,
    )
    settings = {"seed": arguments.seed, **{key: getattr(budget, key) for key in vars(budget)}}
    log = Path(arguments.log)
    log.parent.mkdir(parents=True, exist_ok=True)
    done, found = _resume(log, settings)
    puzzles = [Puzzle.from_json(entry) for entry in found]
    started = time.monotonic()
    spent_before = sum(entry.get("seconds", 0.0) for entry in _lines(log))
    print(f"resuming: {len(done)} games searched, {len(puzzles)} puzzles" if done else "starting", file=sys.stderr)

    def record(game_index: int, outcomes: list[Outcome]) -> None:
        nonlocal last
        now = time.monotonic()
        kept = [outcome.puzzle.to_json() for outcome in outcomes if outcome.puzzle is not None]
        entry = {
            "settings": settings,
            "game": game_index,
            "seconds": round(now - last, 2),
            "stages": [outcome.stage for outcome in outcomes],
            "notes": [outcome.notes for outcome in outcomes],
            "puzzles": kept,
        }
        last = now
        with log.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(entry) + "\n")
        puzzles.extend(Puzzle.from_json(item) for item in kept)
        _write(Path(arguments.out), puzzles[: arguments.wanted], settings)
        elapsed = now - started
        print(
            f"game {game_index:4d} ({SOURCES[game_index % len(SOURCES)][0]}): "
            f"{' '.join(outcome.stage for outcome in outcomes) or 'no candidate'}; "
            f"{len(puzzles)}/{arguments.wanted} puzzles, {elapsed / 60:5.1f} min "
            f"({(elapsed + spent_before) / 60:.1f} in all)",
            file=sys.stderr,
            flush=True,
        )

    def games() -> Any:
        for game_index in itertools.count():
            if game_index in done:
                continue
            if len(puzzles) >= arguments.wanted or time.monotonic() - started > arguments.minutes * 60:
                return
            yield game_index

    last = time.monotonic()
    generate(budget, arguments.seed, games(), arguments.wanted - len(puzzles), record)
    _write(Path(arguments.out), puzzles[: arguments.wanted], settings)
    total = time.monotonic() - started + spent_before
    print(f"{min(len(puzzles), arguments.wanted)} puzzles in {arguments.out}; {total / 60:.1f} min in all")
    return 0


def _lines(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def _resume(log: Path, settings: dict[str, Any]) -> tuple[set[int], list[dict[str, Any]]]:
    done: set[int] = set()
    found: list[dict[str, Any]] = []
    for entry in _lines(log):
        if entry["settings"] != settings:
            raise SystemExit(f"{log} was made with other settings: remove it or give the same options")
        done.add(entry["game"])
        found.extend(entry["puzzles"])
    return done, found


def relabel(puzzle: Puzzle, number: int) -> Puzzle:
    """The puzzle numbered, its theme and difficulty named by the code of today."""
    rules, position, card = puzzle.game_rules, puzzle.game_position, puzzle.card_value
    best = puzzle.best_move()
    return replace(
        puzzle, number=number, theme=theme(position, best), difficulty=difficulty(rules, position, card, best)
    )


def _write(out: Path, puzzles: list[Puzzle], settings: dict[str, Any]) -> None:
    numbered = [relabel(puzzle, index + 1) for index, puzzle in enumerate(puzzles)]
    data = {
        "about": "pardon puzzles: verified by scripts/make_puzzles.py (docs/bots.md, Puzzles)",
        "settings": settings,
        "puzzles": [puzzle.to_json() for puzzle in numbered],
    }
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
