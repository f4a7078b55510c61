"""Make docs/numbers.md, "Sorry! by the numbers", from simulations anyone can rerun.

Two steps, so the games can be played on a big machine and the page written anywhere:

    python scripts/by_the_numbers.py run --out runs --jobs 16 [--scale 1.0]
    python scripts/by_the_numbers.py write --runs runs

``run`` plays every simulation of ``PLAN`` with ``pardon sim`` (resumable: run it again
to finish an interrupted plan) and keeps a summary of each next to its games
(``runs/NAME/summary.json``, the figures of ``pardon report``).  ``--rows DIR`` puts the
games themselves elsewhere.  ``write`` reads the summaries and writes docs/numbers.md and
its plots in docs/numbers/.  ``--scale`` multiplies every number of games (0.01 for a
quick look).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

START = time.monotonic()
ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


class Run(NamedTuple):
    name: str
    rules: str
    players: int
    bots: str
    games: int


#: Every simulation of the page: every preset, then the classic game in depth (last, so
#: that a ``--deadline`` shortens the longest runs and never skips a preset).
PLAN = (
    Run("classic-2p-greedy", "classic", 2, "greedy", 20_000),
    Run("classic-3p-greedy", "classic", 3, "greedy", 20_000),
    Run("classic-4p-greedy", "classic", 4, "greedy", 20_000),
    Run("classic-2p-greedy-random", "classic", 2, "greedy,random", 20_000),
    Run("classic-1939-4p-random", "classic-1939", 4, "random", 20_000),
    Run("modern-2p-random", "modern", 2, "random", 20_000),
    Run("modern-4p-random", "modern", 4, "random", 10_000),
    Run("modern-no-tokens-2p-random", "modern-no-tokens", 2, "random", 20_000),
    Run("modern-no-tokens-4p-random", "modern-no-tokens", 4, "random", 10_000),
    Run("partners-4p-random", "partners", 4, "random", 5_000),
    Run("adult-2p-random", "adult", 2, "random", 5_000),
    Run("adult-4p-random", "adult", 4, "random", 3_000),
    Run("solo-random", "solo", 1, "random", 20_000),
    Run("classic-2p-random", "classic", 2, "random", 400_000),
    Run("classic-3p-random", "classic", 3, "random", 300_000),
    Run("classic-4p-random", "classic", 4, "random", 300_000),
)


def command_run(arguments: argparse.Namespace) -> int:
    from pardon.sim.report import summarise
    from pardon.sim.simulate import Simulation, parse_bots, read_rows, run_simulation

    out = Path(arguments.out)
    rows_root = Path(arguments.rows) if arguments.rows else out
    wanted = set(arguments.only.split(",")) if arguments.only else None
    chosen = [run for run in PLAN if wanted is None or run.name in wanted]
    for index, run in enumerate(chosen):
        games = max(10, round(run.games * arguments.scale))
        simulation = Simulation(run.rules, run.players, parse_bots(run.bots), games, seed=arguments.seed)
        rows = rows_root / run.name
        print(f"{run.name}: {games:,} games", file=sys.stderr, flush=True)
        started = time.monotonic()
        deadline = None
        if arguments.deadline is not None:  # an equal share of the time left to each run left
            left = START + arguments.deadline - time.monotonic()
            if left <= 0:
                print(f"{run.name}: skipped, the deadline has passed", file=sys.stderr)
                continue
            deadline = time.monotonic() + left / (len(chosen) - index)
        played = run_simulation(simulation, rows, jobs=arguments.jobs, progress=sys.stderr, deadline=deadline)
        elapsed = time.monotonic() - started
        summary = summarise(read_rows(rows), simulation.to_json())
        summary["seconds"] = elapsed
        summary["games_per_second"] = played / elapsed if played and elapsed else None
        (out / run.name).mkdir(parents=True, exist_ok=True)
        (out / run.name / "summary.json").write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    return 0


def _load(runs: Path) -> dict[str, dict[str, Any]]:
    found = {}
    for run in PLAN:
        path = runs / run.name / "summary.json"
        if path.exists():
            found[run.name] = json.loads(path.read_text(encoding="utf-8"))
    if not found:
        raise SystemExit(f"no summaries under {runs}: run `python scripts/by_the_numbers.py run --out {runs}` first")
    return found


def _ci(value: dict[str, float], digits: int = 1, percent: bool = False) -> str:
    if percent:
        return f"{value['estimate']:.1%} ({value['low']:.1%}–{value['high']:.1%})"
    return f"{value['estimate']:.{digits}f} ({value['low']:.{digits}f}–{value['high']:.{digits}f})"


def command_write(arguments: argparse.Namespace) -> int:
    from pardon.sim.report import write_report

    summaries = _load(Path(arguments.runs))
    pictures = DOCS / "numbers"
    classic_random = [
        summaries[name] for name in ("classic-2p-random", "classic-3p-random", "classic-4p-random") if name in summaries
    ]
    if classic_random:
        write_report(classic_random, pictures)
        for leftover in ("index.html", "report.json"):
            (pictures / leftover).unlink(missing_ok=True)
    (DOCS / "numbers.md").write_text(_page(summaries), encoding="utf-8")
    print(f"wrote {DOCS / 'numbers.md'} and {pictures}/", file=sys.stderr)
    return 0


def _page(summaries: dict[str, dict[str, Any]]) -> str:
    total = sum(summary["finished"] for summary in summaries.values())
    classic = sum(
        summaries[name]["finished"] for name in summaries if name.startswith("classic-") and "1939" not in name
    )
    lines = [
        "# Sorry! by the numbers",
        "",
        "How long a game of Sorry! lasts, how much going first is worth, which cards get wasted —",
        f"measured over {total:,} simulated games ({classic:,} of the classic game), each figure with",
        "its 95% interval in brackets.  Every game is seeded, so these commands play the very same games:",
        "",
        "```sh",
        "python scripts/by_the_numbers.py run --out runs --jobs 16   # plays the games (resumable)",
        "python scripts/by_the_numbers.py write --runs runs          # writes this page and its plots",
        "```",
        "",
        *_shortfall(summaries),
        "`random` players choose uniformly among the distinct legal moves; `greedy` is the one-ply player",
        '(see [bots.md](bots.md)).  "Cards" counts every card played, the extra draw of a 2 and forfeits',
        "included.  Places are counted in the order of play: the 1st player is the one who went first",
        "(the Leader).",
        "",
        "## The classic game",
        "",
        "| players | games | cards per game, mean | median | 1st player wins | first-player advantage "
        "| bumps per game | lead changes |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, summary in summaries.items():
        if not name.startswith("classic-") or "1939" in name:
            continue
        run = summary["run"]
        cells = [
            f"{run['players']} ({', '.join(run['bots'])})",
            f"{summary['finished']:,}",
            _ci(summary["length"]["mean"]),
            _ci(summary["length"]["median"], 0),
            _ci(summary["win_by_place"][0], percent=True),
            _ci(summary["first_player_advantage"], percent=True),
            _ci(summary["measures"]["bumps"]),
            _ci(summary["measures"]["lead_changes"]),
        ]
        lines.append(_row(cells))
    lines += [
        "",
        "![How long a game lasts](numbers/game-length.png)",
        "",
        "![Win rate by place in the order of play](numbers/win-by-seat.png)",
        "",
        "![Game length by number of players](numbers/length-by-players.png)",
        "",
    ]
    if "classic-2p-greedy-random" in summaries:
        seats = summaries["classic-2p-greedy-random"]["win_by_seat"]
        greedy = next(seat for seat in seats if seat["bot"] == "greedy")
        lines += [
            f"A `greedy` player beats a `random` one {_ci(greedy, percent=True)} of the time "
            f"({summaries['classic-2p-greedy-random']['finished']:,} games, 2 players).",
            "",
        ]
    if "classic-2p-random" in summaries:
        lines += _card_table(summaries["classic-2p-random"], "classic, 2 random players")
    lines += [
        "## Every preset",
        "",
        "| run | games | cards per game, mean | median | 1st player wins | bumps | slides | forfeits |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, summary in summaries.items():
        measures = summary["measures"]
        cells = [
            name,
            f"{summary['finished']:,}",
            _ci(summary["length"]["mean"]),
            _ci(summary["length"]["median"], 0),
            _ci(summary["win_by_place"][0], percent=True),
            _ci(measures["bumps"]),
            _ci(measures["slides"]),
            _ci(measures["forfeits"]),
        ]
        lines.append(_row(cells))
    lines += ["", 'In the solo challenge "cards per game" is the score: cards drawn until every pawn is Home.', ""]
    return "\n".join(lines)


def _shortfall(summaries: dict[str, dict[str, Any]]) -> list[str]:
    """A sentence naming the runs a ``--deadline`` stopped before their planned games."""
    short = [
        f"{name} {summary['finished']:,} of {summary['run']['games']:,}"
        for name, summary in summaries.items()
        if summary["games"] < summary["run"]["games"]
    ]
    if not short:
        return []
    return [
        "The games below were played with `--jobs 2` and a `--deadline` on a 2-core machine, so some runs stopped",
        f"before their planned number of games ({'; '.join(short)}); rerunning the same command plays the rest.",
        "",
    ]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _card_table(summary: dict[str, Any], label: str) -> list[str]:
    lines = [
        f"### Which cards are wasted ({label})",
        "",
        "| card | played per game | not used (forfeited, or an 11's switch declined) |",
        "|---|---|---|",
    ]
    for card, data in summary["cards"].items():
        lines.append(f"| {card} | {data['per_game']:.2f} | {_ci(data['forfeit_rate'], percent=True)} |")
    return [*lines, ""]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    run = commands.add_parser("run", help="play the simulations of the plan")
    run.add_argument("--out", required=True, help="directory for the summaries (and the games unless --rows)")
    run.add_argument("--rows", help="directory for the games themselves")
    run.add_argument("--jobs", type=int, default=1)
    run.add_argument("--seed", type=int, default=2026)
    run.add_argument("--scale", type=float, default=1.0, help="multiply every number of games")
    run.add_argument("--only", help="comma-separated names of the plan to run")
    run.add_argument(
        "--deadline",
        type=float,
        help="seconds after which to stop (between slices of games) and summarise what was played",
    )
    run.set_defaults(handler=command_run)
    write = commands.add_parser("write", help="write docs/numbers.md from the summaries")
    write.add_argument("--runs", required=True)
    write.set_defaults(handler=command_write)
    arguments = parser.parse_args()
    return int(arguments.handler(arguments))


if __name__ == "__main__":
    sys.exit(main())
