"""The strength table: every level against every other, duplicate, 2-player and 4-player classic.

    python benchmarks/tournament.py --games 400 --jobs 2 --out benchmarks/results

plays one duplicate tournament per player count (every pairing of the levels, ``--games``
games each), prints each report, and writes ``tournament-<rules>-<players>p.json`` and a
markdown table ``tournament.md`` (head-to-head win rates with 95% intervals, Elo, decision
times) into ``--out``.  Figures only: nothing is asserted.  ``--bots`` picks the levels
and their budgets, ``--players 2,4`` the table's player counts, ``--rules`` the preset;
``--ladder`` plays only each level against the next (the steps of the strength ladder),
which is where a long run is worth its time.  Every game is kept in
``<out>/games-<rules>-<players>p/`` as it finishes: run the same command again to resume
an interrupted run, or with a larger ``--games`` to add deals to it.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

from pardon.bots import split_bot_specs
from pardon.sim.tournament import TournamentReport, format_report, run_tournament

DEFAULT_BOTS = "random,greedy,tactician,expectimax,mcts"


def markdown(reports: list[TournamentReport], command: str) -> str:
    """The table for the README: one block per tournament."""
    lines = [f"Command: `{command}`", ""]
    for report in reports:
        lines += [
            f"**{report.rules}, {report.players} players** — {report.games_per_pairing} games per pairing "
            f"(duplicate), seed {report.seed}, {report.seconds / 60:.0f} min"
            + (f" (and {report.kept:,} games kept from earlier sittings)" if report.kept else ""),
            "",
            "| pairing | games | first wins | 95% interval | Elo difference |",
            "|---|---:|---:|---|---|",
        ]
        for pairing in report.pairings:
            lines.append(
                f"| {pairing.first} vs {pairing.second} | {pairing.games} | {pairing.rate.estimate:.1%} | "
                f"{pairing.rate.low:.1%}–{pairing.rate.high:.1%} | "
                f"{pairing.elo.estimate:+.0f} ({pairing.elo.low:+.0f} to {pairing.elo.high:+.0f}) |"
            )
        lines += ["", "| level | Elo (95%) | decisions timed | median s | p99 s |", "|---|---|---:|---:|---:|"]
        for bot, rating in zip(report.bots, report.ratings, strict=True):
            timing = report.think.get(bot, {})
            lines.append(
                f"| {bot} | {rating.estimate:+.0f} ({rating.low:+.0f} to {rating.high:+.0f}) | "
                f"{int(timing.get('decisions', 0))} | {timing.get('median', 0.0):.4f} | {timing.get('p99', 0.0):.4f} |"
            )
        lines.append("")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bots", default=DEFAULT_BOTS, help="levels with budgets, e.g. greedy,mcts(iterations=200)")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", default="2,4", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=400, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ladder", action="store_true", help="only each level against the next (weakest first)")
    parser.add_argument("--out", default="benchmarks/results", help="folder for the JSON and markdown files")
    arguments = parser.parse_args()
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    bots = split_bot_specs(arguments.bots)
    print(f"Python {platform.python_version()}, {arguments.jobs} processes, started {time.strftime('%H:%M:%S')}")
    command = "python benchmarks/tournament.py " + " ".join(
        f"'{part}'" if "(" in part else part for part in sys.argv[1:]
    )
    reports = []
    for players in (int(text) for text in arguments.players.split(",")):
        report = run_tournament(
            bots,
            arguments.rules,
            players,
            arguments.games,
            arguments.jobs,
            arguments.seed,
            sys.stderr,
            ladder=arguments.ladder,
            directory=out / f"games-{arguments.rules}-{players}p",
        )
        reports.append(report)
        print(format_report(report), end="\n\n", flush=True)
        path = out / f"tournament-{arguments.rules}-{players}p.json"
        path.write_text(json.dumps(report.to_json(), indent=1) + "\n", encoding="utf-8")
        # written after every tournament, so a run cut short keeps what it finished
        (out / "tournament.md").write_text(markdown(reports, command.strip()), encoding="utf-8")
    print(f"Wrote {out}/tournament.md and the JSON reports.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
