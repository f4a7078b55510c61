"""Statistics of simulation runs, with their uncertainty, as JSON and as an HTML report.

:func:`summarise` reads a run's rows once, as a stream (memory does not grow with the
number of games), and gives every figure with a 95% interval: means (normal interval of
the mean), medians (the order-statistic interval), and rates (Wilson).  :func:`write_report`
turns one or more runs into ``index.html`` with plots (matplotlib) and ``report.json``
with the same figures.

>>> rows = [{"draws": d, "turns": d, "winner_place": d % 2, "bumps": 1, "slides": 0, "sorry": 1,
...          "forfeits": 2, "lead_changes": 3, "seats": ["red", "yellow"], "bots": ["random", "random"],
...          "winner": "red", "points": None, "cards": {"5": [2, 1]}} for d in (60, 80, 100)]
>>> summary = summarise(rows, {"rules": "classic", "players": 2})
>>> summary["length"]["mean"]["estimate"], summary["length"]["median"]["estimate"]
(80.0, 80)
>>> round(summary["cards"]["5"]["forfeit_rate"]["estimate"], 2)
0.5
"""

from __future__ import annotations

import html
import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from pardon.core.cards import CARD_NAMES
from pardon.sim.stats import Z95, ClusteredRate, Interval, wilson

MEASURES: Final = ("bumps", "slides", "sorry", "forfeits", "lead_changes", "turns")


class _Mean:
    """A running mean and variance (Welford), for an interval of the mean."""

    def __init__(self) -> None:
        self.count = 0
        self.mean = 0.0
        self.squares = 0.0

    def add(self, value: float) -> None:
        self.count += 1
        delta = value - self.mean
        self.mean += delta / self.count
        self.squares += delta * (value - self.mean)

    def interval(self) -> Interval:
        if self.count == 0:
            return Interval(math.nan, math.nan, math.nan)
        if self.count == 1:
            return Interval(self.mean, self.mean, self.mean)
        half = Z95 * math.sqrt(self.squares / (self.count - 1) / self.count)
        return Interval(self.mean, self.mean - half, self.mean + half)


def median_interval(histogram: Mapping[int, int]) -> Interval:
    """The median of integer values given as counts, with the 95% order-statistic interval
    (ranks n/2 ∓ 1.96·√n/2, the normal approximation of the binomial)."""
    total = sum(histogram.values())
    if total == 0:
        return Interval(math.nan, math.nan, math.nan)
    half_width = Z95 * math.sqrt(total) / 2
    ranks = (
        max(1, math.floor(total / 2 - half_width)),
        math.ceil((total + 1) / 2),
        min(total, math.ceil(total / 2 + half_width) + 1),
    )
    values = _values_at_ranks(histogram, ranks)
    return Interval(values[1], values[0], values[2])


def _values_at_ranks(histogram: Mapping[int, int], ranks: tuple[int, ...]) -> list[int]:
    found: list[int] = []
    seen = 0
    wanted = list(ranks)
    for value in sorted(histogram):
        seen += histogram[value]
        while wanted and wanted[0] <= seen:
            found.append(value)
            wanted.pop(0)
    return found


def summarise(rows: Iterable[Mapping[str, Any]], settings: Mapping[str, Any]) -> dict[str, Any]:
    """Every figure of one run, each with its 95% interval."""
    lengths: Counter[int] = Counter()
    length_mean = _Mean()
    measures = {name: _Mean() for name in MEASURES}
    places: Counter[int] = Counter()
    seat_wins: Counter[str] = Counter()
    wasted = {card: ClusteredRate() for card in CARD_NAMES.values()}  # by game: a game's cards are not independent
    winner_points = _Mean()
    games = finished = 0
    seats: list[str] = []
    bots: list[str] = []
    for row in rows:
        games += 1
        seats, bots = row["seats"], row["bots"]
        if row["winner"] is None:
            continue
        finished += 1
        lengths[row["draws"]] += 1
        length_mean.add(row["draws"])
        for name in MEASURES:
            measures[name].add(row[name])
        places[row["winner_place"]] += 1
        seat_wins[row["winner"]] += 1
        for card, rate in wasted.items():
            used, lost = row["cards"].get(card, (0, 0))
            rate.add(lost, used)
        if row["points"]:
            winner_points.add(row["points"][row["winner"]])
    players = int(settings.get("players") or len(seats))
    share = 1 / max(1, players)
    first = wilson(places[0], finished)
    return {
        "run": dict(settings),
        "games": games,
        "finished": finished,
        "length": {
            "mean": _json(length_mean.interval()),
            "median": _json(median_interval(lengths)),
            "histogram": {str(value): count for value, count in sorted(lengths.items())},
        },
        "measures": {name: _json(mean.interval()) for name, mean in measures.items()},
        "win_by_place": [_json(wilson(places[place], finished)) for place in range(players)],
        "first_player_advantage": _json(Interval(first.estimate - share, first.low - share, first.high - share)),
        "win_by_seat": [
            {"colour": colour, "bot": bot, **_json(wilson(seat_wins[colour], finished))}
            for colour, bot in zip(seats, bots, strict=True)
        ],
        "cards": {
            card: {
                "played": rate.trials,
                "forfeited": rate.events,
                "per_game": rate.trials / max(1, finished),
                "forfeit_rate": _json(rate.interval()),
            }
            for card, rate in wasted.items()
            if rate.trials
        },
        "winner_points": _json(winner_points.interval()) if winner_points.count else None,
    }


def _json(interval: Interval) -> dict[str, float | None]:
    """An interval as JSON: all three null where there is nothing to estimate from (no
    finished game), since NaN is not JSON."""
    if math.isnan(interval.estimate):
        return {"estimate": None, "low": None, "high": None}
    return {"estimate": interval.estimate, "low": interval.low, "high": interval.high}


# --- the HTML report --------------------------------------------------------------------------


def write_report(summaries: list[dict[str, Any]], out: Path) -> Path:
    """Write ``index.html``, its plots and ``report.json`` into ``out``; return the page."""
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(summaries, indent=2) + "\n", encoding="utf-8")
    plots = _plots(summaries, out)
    page = out / "index.html"
    page.write_text(_page(summaries, plots), encoding="utf-8")
    return page


def _label(summary: Mapping[str, Any]) -> str:
    """What a run is, and where (two runs of the same settings differ by their folder)."""
    run = summary["run"]
    bots = ",".join(run.get("bots", ()))
    engine = f", {run['engine']} engine" if run.get("engine", "core") != "core" else ""
    where = f" ({run['directory']})" if run.get("directory") else ""
    players = "1 player" if run["players"] == 1 else f"{run['players']} players"
    return f"{run['rules']}, {players}, {bots}{engine}{where}"


#: How each measure of a game is named on the page: what it counts.
MEASURE_NAMES: Final = {
    "bumps": "bumps per game",
    "slides": "slides per game",
    "sorry": "Sorry! cards drawn per game",
    "forfeits": "forfeits per game",
    "lead_changes": "lead changes per game",
    "turns": "turns per game",
}


def _plots(summaries: list[dict[str, Any]], out: Path) -> list[tuple[str, str]]:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    made: list[tuple[str, str]] = []
    finished = [summary for summary in summaries if summary["finished"]]  # an empty run has nothing to plot
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    longest = max((int(value) for summary in finished for value in summary["length"]["histogram"]), default=1)
    step = max(1, math.ceil(longest / 80))  # about 80 bins: one per card is noise for a small run
    for summary in finished:
        bins: Counter[int] = Counter()
        for value, count in summary["length"]["histogram"].items():
            bins[int(value) // step * step] += count
        total = max(1, sum(bins.values()))
        values = range(min(bins, default=0), max(bins, default=0) + step, step)
        shares = [bins[value] / total / step for value in values]
        axes.step([value + step / 2 for value in values], shares, where="mid", label=_label(summary), linewidth=1.2)
    axes.set_xlabel("cards played in the game" + (f" (bins of {step})" if step > 1 else ""))
    axes.set_ylabel("share of games per card")
    axes.set_title("How long a game lasts")
    if finished:
        axes.legend(fontsize=7)
    made.append(("Game length", _save(figure, out / "game-length.png")))

    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    width = 0.8 / max(1, len(finished))
    for index, summary in enumerate(finished):
        rates = summary["win_by_place"]
        xs = [place + index * width for place in range(len(rates))]
        estimates = [rate["estimate"] for rate in rates]
        errors = [
            [rate["estimate"] - rate["low"] for rate in rates],
            [rate["high"] - rate["estimate"] for rate in rates],
        ]
        axes.bar(xs, estimates, width=width, yerr=errors, capsize=3, label=_label(summary))
    places = max((len(summary["win_by_place"]) for summary in finished), default=2)
    axes.set_xticks([place + 0.4 - width / 2 for place in range(places)], ["1st", "2nd", "3rd", "4th"][:places])
    axes.set_ylabel("win rate (95% interval)")
    axes.set_xlabel("place in the order of play")
    axes.set_title("Win rate by seat")
    if finished:
        axes.legend(fontsize=7)
    made.append(("Win rate by seat", _save(figure, out / "win-by-seat.png")))

    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    for summary in finished:
        players = summary["run"]["players"]
        mean = summary["length"]["mean"]
        axes.errorbar(
            [players],
            [mean["estimate"]],
            yerr=[[mean["estimate"] - mean["low"]], [mean["high"] - mean["estimate"]]],
            fmt="o",
            capsize=4,
            label=_label(summary),
        )
    axes.set_xlabel("players")
    axes.set_ylabel("mean cards played (95% interval)")
    axes.set_title("Game length by number of players")
    axes.set_xticks(sorted({summary["run"]["players"] for summary in finished}) or [1, 2, 3, 4])
    if finished:
        axes.legend(fontsize=7)
    made.append(("Game length by player count", _save(figure, out / "length-by-players.png")))
    return made


def _save(figure: Any, path: Path) -> str:
    from matplotlib import pyplot

    figure.tight_layout()
    figure.savefig(path, dpi=110)
    pyplot.close(figure)
    return path.name


def _interval_text(value: Mapping[str, float | None], percent: bool = False, whole: bool = False) -> str:
    estimate, low, high = value["estimate"], value["low"], value["high"]
    if estimate is None or low is None or high is None:
        return "— (no finished game)"
    if percent:
        return f"{estimate:.1%} ({low:.1%}–{high:.1%})"
    if whole:
        return f"{estimate:.0f} ({low:.0f}–{high:.0f})"
    return f"{estimate:.2f} ({low:.2f}–{high:.2f})"


def _page(summaries: list[dict[str, Any]], plots: list[tuple[str, str]]) -> str:
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'><title>pardon: simulation report</title>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
        "table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:.25em .6em;text-align:right}"
        "th:first-child,td:first-child{text-align:left}img{max-width:100%}</style></head><body>",
        "<h1>Simulation report</h1>",
        "<p>Every figure is an estimate with its 95% interval in brackets.</p>",
    ]
    for title, name in plots:
        parts.append(f"<h2>{html.escape(title)}</h2><img src='{html.escape(name)}' alt='{html.escape(title)}'>")
    for summary in summaries:
        parts.append(f"<h2>{html.escape(_label(summary))}</h2>")
        parts.append(f"<p>{summary['finished']:,} games finished of {summary['games']:,}.</p>")
        rows = [
            ("cards played, mean", _interval_text(summary["length"]["mean"])),
            ("cards played, median", _interval_text(summary["length"]["median"], whole=True)),
        ]
        if summary["run"]["players"] > 1:  # alone, the player always wins: there is no advantage to measure
            advantage = _interval_text(summary["first_player_advantage"], True)
            rows.append(("first player's advantage (win rate − 1/players)", advantage))
        rows += [
            (MEASURE_NAMES.get(name, f"{name.replace('_', ' ')} per game"), _interval_text(value))
            for name, value in summary["measures"].items()
        ]
        if summary["winner_points"]:
            rows.append(("winner's points", _interval_text(summary["winner_points"])))
        parts.append(_table(("figure", "value"), rows))
        seats = [(f"{seat['colour']} ({seat['bot']})", _interval_text(seat, True)) for seat in summary["win_by_seat"]]
        places = [
            (f"place {index + 1} in the order of play", _interval_text(rate, True))
            for index, rate in enumerate(summary["win_by_place"])
        ]
        parts.append(_table(("seat", "win rate"), seats + places))
        cards = [
            (card, f"{data['per_game']:.2f}", _interval_text(data["forfeit_rate"], True))
            for card, data in summary["cards"].items()
        ]
        parts.append(_table(("card", "played per game", "forfeited or discarded"), cards))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def _table(header: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"
