"""Make the stored puzzles: search sampled positions, verify, write package data.

    nice -n 10 python scripts/make_puzzles.py --seed 2 --wanted 200 --minutes 60 --jobs 2

A run **appends**: the puzzles in ``--out`` when it starts keep their numbers, and the new
ones (less any the set holds already) are numbered after them, in the order of the sampled games, until the file holds
``--wanted`` puzzles (``--fresh`` starts a new set instead).  ``--jobs N`` searches N games
at a time in N processes; the puzzles are the same as with ``--jobs 1``.

Each sampled game's outcome is appended to the work log (``--log``, by default
``build/puzzles-seedSEED.jsonl``) as one JSON line as soon as it is done, in game order,
so a run stopped at any point resumes where it left off when the same command is run
again (the log's first line keeps the puzzles the run appends to); the puzzles found so
far are written to ``--out`` after every game, and progress is printed on stderr.
Results depend only on ``--seed``, the budget options and the sources, never on the time
limit or ``--jobs``, which only decide where and how fast a run stops (docs/bots.md,
"Puzzles").

``--regrade`` rewrites ``--out`` with every puzzle's difficulty, finder and theme by the
code of today, from the stored chances, without searching.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from pardon.bots.puzzles import DIFFICULTIES, SOURCES, Budget, Outcome, Puzzle, generate, regrade, source_of

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--wanted", type=int, default=50, help="stop once the file holds this many puzzles")
    parser.add_argument("--minutes", type=float, default=60.0, help="stop starting new games after this long")
    parser.add_argument("--jobs", type=int, default=1, help="games searched at a time, each in its own process")
    parser.add_argument("--step", type=int, default=Budget.step, help="playouts per move per step of the search")
    parser.add_argument("--search", type=int, default=Budget.search, help="most playouts per move in the search")
    parser.add_argument("--verify", type=int, default=Budget.verify, help="playouts per move, verification")
    parser.add_argument("--margin", type=float, default=Budget.margin, help="least lead of the best move")
    parser.add_argument("--max-moves", type=int, default=Budget.max_moves, help="most legal moves of a candidate")
    parser.add_argument("--per-game", type=int, default=Budget.per_game, help="candidates searched per game")
    parser.add_argument("--screen", type=float, default=Budget.screen, help="least evaluation gap of a candidate")
    parser.add_argument("--open", type=float, default=Budget.open, help="share of candidates drawn unscreened")
    parser.add_argument("--decided", type=float, default=Budget.decided, help="pass over games this near 0 or 1")
    parser.add_argument("--only", help="search only these sources, e.g. 'adult,partners' or 'classic 3p'")
    parser.add_argument("--fresh", action="store_true", help="start a new set instead of appending to --out")
    parser.add_argument("--regrade", action="store_true", help="re-grade the puzzles of --out, no search")
    parser.add_argument("--log", help="work log, resumed (default: build/puzzles-seedSEED.jsonl)")
    parser.add_argument("--out", default=str(ROOT / "src" / "pardon" / "bots" / "puzzles.json"))
    arguments = parser.parse_args(argv)
    out = Path(arguments.out)
    if arguments.regrade:
        data = json.loads(out.read_text(encoding="utf-8"))
        puzzles = [Puzzle.from_json(entry) for entry in data["puzzles"]]
        puzzles = _numbered(puzzles, regraded=True)
        _write(out, puzzles, data["settings"], _runs_of(data))
        counts = Counter(puzzle.difficulty for puzzle in puzzles)
        print(f"{len(puzzles)} puzzles re-graded in {out}: {_counts(counts, DIFFICULTIES)}")
        return 0
    budget = Budget(
        step=arguments.step,
        search=arguments.search,
        verify=arguments.verify,
        margin=arguments.margin,
        max_moves=arguments.max_moves,
        per_game=arguments.per_game,
        screen=arguments.screen,
        open=arguments.open,
        decided=arguments.decided,
    )
    settings = {
        "seed": arguments.seed,
        **{key: getattr(budget, key) for key in vars(budget)},
        "sources": [list(source) for source in SOURCES],
        **({"only": arguments.only} if arguments.only else {}),
    }
    wanted_sources = _only(arguments.only)
    log = Path(arguments.log or ROOT / "build" / f"puzzles-seed{arguments.seed}.jsonl")
    log.parent.mkdir(parents=True, exist_ok=True)
    if not _lines(log):
        _start(log, out, settings, arguments.fresh)
    header, done, found = _resume(log, settings)
    base = [Puzzle.from_json(entry) for entry in header["base"]]
    base_runs: list[dict[str, Any]] = header["runs"]
    puzzles = _extend(base, [Puzzle.from_json(entry) for entry in found])
    started = time.monotonic()
    spent_before = sum(entry.get("seconds", 0.0) for entry in _lines(log))
    searched = len(done)
    last = started
    print(
        f"resuming: {searched} games searched, {len(puzzles)} puzzles ({len(base)} kept)"
        if done
        else f"starting: {len(base)} puzzles kept, wanted {arguments.wanted}, {arguments.jobs} jobs",
        file=sys.stderr,
    )

    def runs() -> list[dict[str, Any]]:
        total = min(len(puzzles), arguments.wanted)
        if total <= len(base):
            return base_runs
        return [*base_runs, {"numbers": [len(base) + 1, total], "settings": settings}]

    def record(game_index: int, outcomes: list[Outcome]) -> None:
        nonlocal last, searched
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
        searched += 1
        with log.open("a", encoding="utf-8") as stream:
            stream.write(json.dumps(entry) + "\n")
        puzzles[:] = _extend(puzzles, [Puzzle.from_json(item) for item in kept])
        _write(out, puzzles[: arguments.wanted], settings, runs())
        elapsed = now - started
        print(
            f"game {game_index:4d} ({source_of(game_index)}): "
            f"{' '.join(outcome.stage for outcome in outcomes) or 'no candidate'}; "
            f"{_progress(puzzles[: arguments.wanted], arguments.wanted)}; {searched} games, "
            f"{elapsed / 60:.1f} min ({(elapsed + spent_before) / 60:.1f} in all)",
            file=sys.stderr,
            flush=True,
        )

    def games() -> Iterator[int]:
        for game_index in itertools.count():
            if game_index in done or not _wanted_source(game_index, wanted_sources):
                continue
            if len(puzzles) >= arguments.wanted or time.monotonic() - started > arguments.minutes * 60:
                return
            yield game_index

    if len(puzzles) < arguments.wanted:
        wanted = arguments.wanted - len(puzzles)  # new puzzles; one met again is left out: ``enough`` decides
        enough = lambda: len(puzzles) >= arguments.wanted  # noqa: E731
        generate(budget, arguments.seed, games(), wanted, record, jobs=arguments.jobs, enough=enough)
    _write(out, puzzles[: arguments.wanted], settings, runs())
    total = time.monotonic() - started + spent_before
    print(f"{min(len(puzzles), arguments.wanted)} puzzles in {out}; {searched} games, {total / 60:.1f} min in all")
    return 0


def _only(text: str | None) -> list[str]:
    """The sources ``--only`` names: ``adult`` (any players) or ``classic 3p``."""
    names = [" ".join(name.split()) for name in (text or "").split(",") if name.strip()]
    known = {source_of(index) for index in range(len(SOURCES))}
    for name in names:
        if not any(source == name or source.split()[0] == name for source in known):
            raise SystemExit(f"--only: no source {name!r}; the sources are {', '.join(sorted(known))}")
    return names


def _wanted_source(game_index: int, names: list[str]) -> bool:
    source = source_of(game_index)
    return not names or any(source == name or source.split()[0] == name for name in names)


def _extend(puzzles: list[Puzzle], new: list[Puzzle]) -> list[Puzzle]:
    """``puzzles`` and then those of ``new`` that are not in it already (the same rules,
    position and card: a run appending to a set can meet a position of the set again)."""
    seen = {(puzzle.rules, puzzle.position, puzzle.card) for puzzle in puzzles}
    kept = list(puzzles)
    for puzzle in new:
        key = (puzzle.rules, puzzle.position, puzzle.card)
        if key not in seen:
            seen.add(key)
            kept.append(puzzle)
    return kept


def _lines(log: Path) -> list[dict[str, Any]]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line.strip()]


def _start(log: Path, out: Path, settings: dict[str, Any], fresh: bool) -> None:
    """A new work log: its first line keeps the puzzles the run appends to (none if fresh)."""
    base: list[dict[str, Any]] = []
    runs: list[dict[str, Any]] = []
    if not fresh and out.exists():
        data = json.loads(out.read_text(encoding="utf-8"))
        kept = [Puzzle.from_json(entry) for entry in data["puzzles"]]
        base = [puzzle.to_json() for puzzle in _numbered(kept, regraded=True)]
        runs = _runs_of(data)
    header = {"settings": settings, "base": base, "runs": runs}
    log.write_text(json.dumps(header) + "\n", encoding="utf-8")


def _resume(log: Path, settings: dict[str, Any]) -> tuple[dict[str, Any], set[int], list[dict[str, Any]]]:
    """The log's header, the games done and the puzzles they found, in game order."""
    lines = _lines(log)
    if "base" not in lines[0]:
        raise SystemExit(f"{log} is a work log of an older version: remove it or give another --log")
    done: set[int] = set()
    found: list[dict[str, Any]] = []
    for entry in lines:
        if entry["settings"] != settings:
            raise SystemExit(f"{log} was made with other settings: remove it or give the same options")
        if "game" in entry:
            done.add(entry["game"])
            found.extend(entry["puzzles"])
    return lines[0], done, found


def _runs_of(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The runs that made a puzzle file: which numbers each made, with its settings."""
    runs: list[dict[str, Any]] = data.get("runs") or [
        {"numbers": [1, len(data["puzzles"])], "settings": data.get("settings", {})}
    ]
    return runs


def _numbered(puzzles: list[Puzzle], regraded: bool = False) -> list[Puzzle]:
    """The puzzles numbered in order; ``regraded``: their theme, difficulty and finder by
    today's code (a new puzzle has them already)."""
    return [replace(regrade(puzzle) if regraded else puzzle, number=index + 1) for index, puzzle in enumerate(puzzles)]


def _counts(counter: Counter[str], order: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"{key} {counter[key]}" for key in order if counter[key]) or "none"


def _progress(puzzles: list[Puzzle], wanted: int) -> str:
    levels = Counter(puzzle.difficulty for puzzle in puzzles)
    sources = Counter(" ".join(puzzle.source.split()[:2]) for puzzle in puzzles)
    return (
        f"{len(puzzles)}/{wanted} puzzles ({_counts(levels, DIFFICULTIES)}; "
        f"{_counts(sources, sorted(sources, key=lambda source: -sources[source]))})"
    )


def _write(out: Path, puzzles: list[Puzzle], settings: dict[str, Any], runs: list[dict[str, Any]]) -> None:
    """The puzzle file: ``settings`` are those of the last run that made puzzles (or of this
    run, if none did), ``runs`` say which numbers each run made."""
    data = {
        "about": "pardon puzzles: verified by scripts/make_puzzles.py (docs/bots.md, Puzzles)",
        "settings": runs[-1]["settings"] if runs else settings,
        "runs": runs,
        "puzzles": [puzzle.to_json() for puzzle in _numbered(puzzles)],
    }
    out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
