"""``pardon sim`` and ``pardon report``: reproducible, resumable, the same on a Dask cluster."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pardon.core.errors import InvalidError
from pardon.sim.report import median_interval, summarise, write_report
from pardon.sim.simulate import RESULTS, Simulation, check_simulation, read_rows, read_settings, run_simulation

SIM = Simulation("classic", 2, ("random",), 40, seed=5)


def results(directory: Path) -> str:
    return (directory / RESULTS).read_text(encoding="utf-8")


def test_rows_describe_each_game(tmp_path: Path) -> None:
    run_simulation(Simulation("classic", 3, ("greedy", "random"), 6, seed=1), tmp_path)
    rows = list(read_rows(tmp_path))
    assert [row["game"] for row in rows] == list(range(6))
    for row in rows:
        assert row["bots"] == ["greedy", "random", "greedy"]
        assert row["winner"] in row["seats"]
        assert row["seats"][(row["seats"].index(row["first"]) + row["winner_place"]) % 3] == row["winner"]
        assert row["draws"] == sum(used for used, _ in row["cards"].values())
        assert row["forfeits"] == sum(lost for _, lost in row["cards"].values())
        assert row["bumps"] >= 0 and row["lead_changes"] >= 0


def test_the_same_seed_gives_the_same_rows_whatever_the_jobs(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path / "one", jobs=1)
    run_simulation(SIM, tmp_path / "two", jobs=2)
    assert results(tmp_path / "one") == results(tmp_path / "two")
    other = Simulation("classic", 2, ("random",), 40, seed=6)
    run_simulation(other, tmp_path / "other")
    assert results(tmp_path / "other") != results(tmp_path / "one")


def test_a_killed_run_resumes_to_exactly_the_full_run(tmp_path: Path) -> None:
    full, killed = tmp_path / "full", tmp_path / "killed"
    games = "400"
    arguments = ["--rules", "classic", "--players", "2", "--games", games, "--seed", "9", "--jobs", "1", "--quiet"]
    command = [sys.executable, "-m", "pardon", "sim", *arguments]
    process = subprocess.Popen([*command, "--out", str(killed)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        path = killed / RESULTS
        if path.exists() and path.read_bytes().count(b"\n") >= 20:
            break
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    partial = (killed / RESULTS).read_bytes()
    assert 20 <= partial.count(b"\n") < 400, "the run was killed halfway"
    with (killed / RESULTS).open("ab") as stream:
        stream.write(b'{"game": 9999, "half a li')  # as if killed in the middle of a write
    resumed = subprocess.run([*command, "--out", str(killed)], capture_output=True, text=True, timeout=300, check=False)
    assert resumed.returncode == 0, resumed.stderr
    played = int(resumed.stdout.split()[0].replace(",", ""))
    assert played == 400 - partial.count(b"\n")  # no game played twice
    subprocess.run([*command, "--out", str(full)], check=True, timeout=300, capture_output=True)
    assert results(killed) == results(full)


def test_resuming_with_other_settings_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path)
    before = results(tmp_path)
    with pytest.raises(InvalidError, match="holds a run with seed 5, not 6"):
        run_simulation(Simulation("classic", 2, ("random",), 40, seed=6), tmp_path)
    assert results(tmp_path) == before
    more = Simulation("classic", 2, ("random",), 50, seed=5)  # more games of the same run
    assert run_simulation(more, tmp_path) == 10


@pytest.mark.parametrize("engine", ["core", "batch"])
def test_asking_a_run_for_fewer_games_than_it_holds_plays_none_and_says_how_many_it_holds(
    tmp_path: Path, engine: str
) -> None:
    command = [sys.executable, "-m", "pardon", "sim", "--engine", engine, "--out", str(tmp_path), "--seed", "5"]
    subprocess.run([*command, "--games", "30", "--quiet"], check=True, capture_output=True)
    before = results(tmp_path)
    again = subprocess.run([*command, "--games", "10"], check=True, capture_output=True, text=True)
    assert again.stdout.startswith("0 games played") and f"; 30 in {tmp_path / RESULTS}" in again.stdout
    assert "[" + "#" * 30 + "] 30/30 games" in again.stderr, again.stderr  # the bar full, not overflowing
    assert results(tmp_path) == before


@pytest.mark.parametrize("engine", ["core", "batch"])
def test_a_run_asked_for_fewer_games_than_it_holds_keeps_the_larger_number(tmp_path: Path, engine: str) -> None:
    # run.json said 10 while 30 games were kept, and the report showed 10 beside 30
    from pardon.batch.simulate import run_batch_simulation

    run: Callable[[Simulation, Path], int] = run_simulation if engine == "core" else run_batch_simulation
    run(Simulation("classic", 2, ("random",), 30, seed=5), tmp_path)
    run(Simulation("classic", 2, ("random",), 10, seed=5), tmp_path)
    assert json.loads((tmp_path / "run.json").read_text())["games"] == 30
    assert read_settings(tmp_path).games == len(list(read_rows(tmp_path))) == 30
    run(Simulation("classic", 2, ("random",), 40, seed=5), tmp_path)  # and more extends the run
    assert json.loads((tmp_path / "run.json").read_text())["games"] == 40


def test_a_file_is_not_a_run_and_is_said_to_be_a_file(tmp_path: Path) -> None:
    file = tmp_path / "games.jsonl"
    file.write_text("", encoding="utf-8")
    with pytest.raises(InvalidError, match="it is a file, not a folder"):
        read_settings(file)
    with pytest.raises(InvalidError, match="there is no such folder"):
        read_settings(tmp_path / "missing")


def test_resuming_after_a_players_options_changed_is_refused(tmp_path: Path) -> None:
    run = Simulation("classic", 2, ("greedy", "random"), 4, seed=2)
    run_simulation(run, tmp_path)
    settings = tmp_path / "run.json"
    recorded = json.loads(settings.read_text())
    assert set(recorded["levels"]) == {"greedy", "random"}
    recorded["levels"]["greedy"]["level"] = "tactician"
    settings.write_text(json.dumps(recorded))
    before = results(tmp_path)
    with pytest.raises(InvalidError, match="'greedy' played with level 'tactician', now 'greedy'"):
        run_simulation(Simulation("classic", 2, ("greedy", "random"), 8, seed=2), tmp_path)
    assert results(tmp_path) == before


def test_a_dask_cluster_gives_the_rows_of_a_local_run(tmp_path: Path) -> None:
    from distributed import LocalCluster

    run_simulation(SIM, tmp_path / "local", jobs=1)
    run_simulation(SIM, tmp_path / "dask-local", jobs=2, scheduler="local")
    with LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        run_simulation(SIM, tmp_path / "dask-address", jobs=2, scheduler=cluster.scheduler_address)
    assert results(tmp_path / "dask-local") == results(tmp_path / "local")
    assert results(tmp_path / "dask-address") == results(tmp_path / "local")


def test_the_median_interval_comes_from_order_statistics() -> None:
    # 1..100 once each: the median is 50.5 rounded up to a value, the interval about ±10.
    median = median_interval(dict.fromkeys(range(1, 101), 1))
    assert median.estimate == 51 and 39 <= median.low <= 42 and 59 <= median.high <= 62


def test_summary_figures_have_intervals(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path)
    summary = summarise(read_rows(tmp_path), SIM.to_json())
    assert summary["games"] == summary["finished"] == 40
    mean = summary["length"]["mean"]
    assert mean["low"] < mean["estimate"] < mean["high"]
    assert abs(sum(rate["estimate"] for rate in summary["win_by_place"]) - 1) < 1e-9
    assert set(summary["cards"]) == {"1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "sorry"}


def test_report_writes_html_plots_and_json(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path / "two")
    run_simulation(Simulation("classic", 4, ("random",), 12, seed=5), tmp_path / "four")
    out = tmp_path / "report"
    done = subprocess.run(
        [sys.executable, "-m", "pardon", "report", str(tmp_path / "two"), str(tmp_path / "four"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    page = (out / "index.html").read_text(encoding="utf-8")
    for image in ("game-length.png", "win-by-seat.png", "length-by-players.png"):
        assert image in page and (out / image).stat().st_size > 1000
    figures = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert [summary["run"]["players"] for summary in figures] == [2, 4]
    missing = subprocess.run(
        [sys.executable, "-m", "pardon", "report", str(tmp_path / "nothing")],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert missing.returncode == 2 and len(missing.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("text", "rows", "kept"),
    [(b"", 0, b""), (b"ab\ncd\nef", 2, b"ab\ncd\n"), (b"abcdefg", 0, b""), (b"a\nb\n", 2, b"a\nb\n")],
)
def test_rows_are_counted_a_chunk_at_a_time_and_a_partial_last_line_cut(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: bytes, rows: int, kept: bytes
) -> None:
    from pardon.sim import jsonlines

    monkeypatch.setattr(jsonlines, "CHUNK", 3)  # lines across chunk boundaries
    path = tmp_path / RESULTS
    path.write_bytes(text)
    assert jsonlines.complete_rows(path) == rows
    assert path.read_bytes() == kept


@pytest.mark.parametrize(
    ("text", "last"),
    [(b"", ""), (b"a\n", "a\n"), (b"ab\ncd\n", "cd\n"), (b"abcdefg\nhijklmnop\n", "hijklmnop\n")],
)
def test_the_last_row_is_read_from_the_end_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, text: bytes, last: str
) -> None:
    from pardon.sim import jsonlines

    monkeypatch.setattr(jsonlines, "CHUNK", 3)  # lines across chunk boundaries
    path = tmp_path / RESULTS
    path.write_bytes(text)
    assert jsonlines.last_line(path) == last


def test_results_without_their_settings_are_not_resumed(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path)
    (tmp_path / "run.json").unlink()  # as if copied without it: what run the rows are is unknown
    before = results(tmp_path)
    with pytest.raises(InvalidError, match=f"holds {RESULTS} but no run.json"):
        run_simulation(Simulation("classic", 2, ("random",), 50, seed=5), tmp_path)
    assert results(tmp_path) == before  # not game 0 onwards again after the 40 games there


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda text: text + "garbage\n", "line 41: not JSON"),
        (lambda text: text + '{"game": 3}\n', "holds 41 rows but the last is game 3, not 40"),
        (lambda text: "".join(text.splitlines(keepends=True)[1:]), "holds 39 rows but the last is game 39, not 38"),
    ],
    ids=["garbage line", "stray row", "lost row"],
)
def test_a_damaged_results_file_is_refused_not_resumed_past(
    tmp_path: Path, damage: Callable[[str], str], message: str
) -> None:
    run_simulation(SIM, tmp_path)
    (tmp_path / RESULTS).write_text(damage(results(tmp_path)), encoding="utf-8")
    before = results(tmp_path)
    with pytest.raises(InvalidError, match=message):  # resuming would skip or repeat games
        run_simulation(Simulation("classic", 2, ("random",), 50, seed=5), tmp_path)
    assert results(tmp_path) == before


def test_a_garbage_line_is_refused_by_the_report_naming_it(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path)
    with (tmp_path / RESULTS).open("a", encoding="utf-8") as stream:
        stream.write("[1, 2]\n")
    with pytest.raises(InvalidError, match=f"{RESULTS}, line 41: not a result row"):
        list(read_rows(tmp_path))


def test_a_report_of_a_run_without_a_finished_game_is_strict_json(tmp_path: Path) -> None:
    run_simulation(SIM, tmp_path / "empty")
    (tmp_path / "empty" / RESULTS).write_text("", encoding="utf-8")  # begun, no game written yet
    run_simulation(SIM, tmp_path / "full")
    out = tmp_path / "report"
    arguments = ["report", str(tmp_path / "empty"), str(tmp_path / "full"), "--out", str(out)]
    done = subprocess.run([sys.executable, "-m", "pardon", *arguments], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and not done.stderr, done.stderr

    def no_nan(constant: str) -> None:
        raise AssertionError(f"{constant} is not JSON")

    empty, full = json.loads((out / "report.json").read_text(encoding="utf-8"), parse_constant=no_nan)
    assert empty["games"] == empty["finished"] == 0
    assert empty["length"]["mean"] == {"estimate": None, "low": None, "high": None}
    assert empty["first_player_advantage"]["estimate"] is None
    assert [rate["estimate"] for rate in empty["win_by_place"]] == [None, None]
    assert full["finished"] == 40
    page = (out / "index.html").read_text(encoding="utf-8")
    assert "— (no finished game)" in page and "nan" not in page
    # two runs of the same settings are told apart by their folders
    assert f"random ({tmp_path / 'empty'})" in page and f"random ({tmp_path / 'full'})" in page


def test_a_report_plots_a_place_that_never_won(tmp_path: Path) -> None:
    # Six partners games where the second place never wins: the Wilson interval of 0 in 6
    # came out with a low bound a rounding error above 0, and matplotlib refused the
    # negative error bar ("'yerr' must not contain negative values").
    run_simulation(Simulation("partners", 4, ("random",), 6, seed=1), tmp_path / "run")
    summary = summarise(read_rows(tmp_path / "run"), Simulation("partners", 4, ("random",), 6, seed=1).to_json())
    assert summary["win_by_place"][1]["estimate"] == 0.0
    page = write_report([summary], tmp_path / "report")
    assert "win-by-seat.png" in page.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("simulation", "message"),
    [
        (Simulation("classic", 2, (), 2), "at least one computer player"),
        (Simulation("classic", 2, ("random",), 2.5), "games"),  # type: ignore[arg-type]
        (Simulation("classic", 2, ("random",), 2, seed=1.5), "seed"),  # type: ignore[arg-type]
        # the third level never played: run.json named it, the rows did not
        (Simulation("classic", 2, ("random", "greedy", "tactician"), 2), "2 players, 3 levels given"),
        (Simulation("classic", 3, ("random",) * 4, 2), "3 players, 4 levels given"),
    ],
)
def test_a_simulation_of_the_wrong_shape_is_an_invalid_error(
    tmp_path: Path, simulation: Simulation, message: str
) -> None:
    with pytest.raises(InvalidError, match=message):
        run_simulation(simulation, tmp_path)


def test_numpy_integers_are_whole_numbers_in_a_simulation() -> None:
    # np.int64(2) players was refused as "not a whole number" (the core takes NumPy integers),
    # and a list of bots kept as a list made the frozen settings unhashable
    checked = check_simulation(Simulation("classic", np.int64(2), ["random"], np.int32(4), np.uint8(5)))  # type: ignore[arg-type]
    assert checked == Simulation("classic", 2, ("random",), 4, 5)
    assert all(type(value) is int for value in (checked.players, checked.games, checked.seed))
    assert hash(checked) == hash(Simulation("classic", 2, ("random",), 4, 5))


@pytest.mark.parametrize("what", ["players", "games", "seed"])
@pytest.mark.parametrize("value", [2.0, "2", True, None])
def test_a_simulation_number_that_is_not_a_whole_number_is_refused(what: str, value: object) -> None:
    settings = {"rules": "classic", "players": 2, "bots": ("random",), "games": 2, "seed": 1, what: value}
    with pytest.raises(InvalidError, match=f"a simulation's {what} must be a whole number"):
        check_simulation(Simulation(**settings))  # type: ignore[arg-type]


def test_a_folder_named_as_text_is_taken(tmp_path: Path) -> None:
    # run_simulation(simulation, "runs/one") was an AttributeError: 'str' object has no attribute 'mkdir'
    small = Simulation("classic", 2, ("random",), 3, seed=5)
    assert run_simulation(small, str(tmp_path / "text")) == 3
    run_simulation(small, tmp_path / "path")
    assert results(tmp_path / "text") == results(tmp_path / "path")
    assert [row["game"] for row in read_rows(str(tmp_path / "text"))] == [0, 1, 2]


@pytest.mark.parametrize(
    ("missing", "command", "extra"),
    [
        ("matplotlib", ["report", "{run}"], "sim"),
        ("numpy", ["sim", "--engine", "batch", "--games", "4", "--out", "{out}"], "rl"),
        ("distributed", ["sim", "--dask", "local", "--games", "4", "--out", "{out}"], "sim"),
    ],
)
def test_a_missing_extra_is_named_in_one_line_and_nothing_is_written(
    missing: str, command: list[str], extra: str, tmp_path: Path
) -> None:
    """Without matplotlib, `pardon report` printed a traceback and left a report folder half
    written; `sim --engine batch` and `--dask` tracebacks too."""
    run_simulation(SIM, tmp_path / "run")
    out = tmp_path / "out"
    arguments = [word.format(run=tmp_path / "run", out=out) for word in command]
    blocked = f"import sys; sys.modules[{missing!r}] = None; from pardon.cli import main; sys.exit(main({arguments!r}))"
    done = subprocess.run([sys.executable, "-c", blocked], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.splitlines() == [
        f"pardon {command[0]}: this needs the {extra} extra (no {missing}): in pardon's folder,"
        f" .venv/bin/pip install -e '.[{extra}]' (make setup installs every extra)"
    ]
    assert not out.exists() and not (tmp_path / "run" / "report").exists()


def test_a_report_says_what_each_figure_counts(tmp_path: Path) -> None:
    """A median of whole cards read "179.00", "sorry per game" counted Sorry! cards drawn, and a
    solo run had a first player's advantage and "1 players"."""
    solo = Simulation("solo", 1, ("random",), 6, seed=5)
    run_simulation(SIM, tmp_path / "two")
    run_simulation(solo, tmp_path / "solo")
    summaries = [
        summarise(read_rows(tmp_path / "two"), SIM.to_json()),
        summarise(read_rows(tmp_path / "solo"), solo.to_json()),
    ]
    page = write_report(summaries, tmp_path / "report").read_text(encoding="utf-8")
    median = re.search(r"cards played, median</td><td>([^<]+)</td>", page)
    assert median is not None and re.fullmatch(r"\d+ \(\d+–\d+\)", median.group(1)), median
    assert "Sorry! cards drawn per game" in page and "sorry per game" not in page
    alone = page[page.index("<h2>solo, 1 player, random") :]
    assert "first player's advantage" not in alone and "1 players" not in page


@pytest.mark.parametrize(("rules", "slides"), [("classic", 1), ("classic(switched_opponent_slides=false)", 0)])
def test_a_switched_opponent_that_slides_counts_as_a_slide(rules: str, slides: int) -> None:
    # the batch engine counted it and the core's simulations did not (13.22 against 12.99 a game)
    from pardon.core.moves import SWITCH, legal_moves, slides_ridden
    from pardon.core.notation import format_position, parse_position
    from pardon.core.rules import parse_rules

    parsed = parse_rules(rules)

    def switch_with_30(at: str) -> Any:
        moves = legal_moves(parsed, parse_position(at), 11)
        return next(
            move
            for move in moves
            if move.actions and move.actions[0].kind == SWITCH and "R:30" in format_position(move.result)
        )

    switch = switch_with_30("R:1,start,start,start Y:30,start,start,start turn:R")
    assert format_position(switch.result).split()[1] == ("Y:4,start,start,start" if slides else "Y:1,start,start,start")
    assert slides_ridden(parsed, switch) == slides
    switch = switch_with_30("R:1,start,start,start Y:30,3,start,start turn:R")  # the slide sweeps Yellow's own pawn
    assert len(switch.bumps) == slides and slides_ridden(parsed, switch) == slides
