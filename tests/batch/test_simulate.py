"""``pardon sim --engine batch``: result rows as the core engine writes them, resumable, and
clear refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pardon.cli import main
from pardon.core.cards import CARD_NAMES
from pardon.sim.simulate import read_rows

KEYS = {
    "game", "seed", "seats", "bots", "first", "winner", "winner_place", "draws", "turns",
    "bumps", "slides", "sorry", "forfeits", "lead_changes", "points", "cards",
}  # fmt: skip


def test_batch_simulation_writes_rows_the_report_reads(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "run"
    assert (
        main(
            [
                "sim",
                "--engine",
                "batch",
                "--games",
                "300",
                "--players",
                "2",
                "--bots",
                "greedy,random",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    assert "300 games played by the batch engine" in capsys.readouterr().out
    rows = list(read_rows(out))
    assert [row["game"] for row in rows] == list(range(300))
    assert all(set(row) == KEYS for row in rows)
    for row in rows:
        assert row["winner"] in row["seats"] and row["first"] in row["seats"]
        assert sum(used for used, _ in row["cards"].values()) == row["draws"] == row["turns"]
        assert sum(lost for _, lost in row["cards"].values()) == row["forfeits"]
        assert row["sorry"] == row["cards"].get("sorry", [0, 0])[0]
    greedy_wins = sum(row["winner"] == "red" for row in rows) / len(rows)
    assert greedy_wins > 0.65  # red plays greedy
    assert json.loads((out / "run.json").read_text())["engine"] == "batch"
    assert main(["report", str(out)]) == 0
    assert (out / "report" / "report.json").exists()


def test_batch_run_resumes_to_the_same_rows(tmp_path: Path) -> None:
    whole, halves = tmp_path / "whole", tmp_path / "halves"
    main(["sim", "--engine", "batch", "--games", "80", "--players", "3", "--seed", "4", "--out", str(whole), "--quiet"])
    main(
        ["sim", "--engine", "batch", "--games", "30", "--players", "3", "--seed", "4", "--out", str(halves), "--quiet"]
    )
    main(
        ["sim", "--engine", "batch", "--games", "80", "--players", "3", "--seed", "4", "--out", str(halves), "--quiet"]
    )
    assert list(read_rows(whole)) == list(read_rows(halves))


def test_runs_of_one_engine_are_not_resumed_by_the_other(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch, core = tmp_path / "batch", tmp_path / "core"
    main(["sim", "--engine", "batch", "--games", "10", "--out", str(batch), "--quiet"])
    main(["sim", "--games", "5", "--out", str(core), "--quiet"])
    capsys.readouterr()
    assert main(["sim", "--games", "20", "--out", str(batch), "--quiet"]) == 2
    assert "played by the batch engine, not the core engine" in capsys.readouterr().err
    assert main(["sim", "--engine", "batch", "--games", "20", "--out", str(core), "--quiet"]) == 2
    assert "played by the core engine, not the batch engine" in capsys.readouterr().err
    assert len(list(read_rows(batch))) == 10 and len(list(read_rows(core))) == 5


def test_a_run_kept_while_random_chose_among_actions_is_not_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    main(["sim", "--engine", "batch", "--games", "10", "--bots", "random,greedy", "--out", str(out), "--quiet"])
    settings = json.loads((out / "run.json").read_text())
    assert settings["levels"]["random"] == {"level": "random", "chooses": "among distinct moves"}
    assert settings["levels"]["greedy"] == {"level": "greedy"}
    del settings["levels"]["random"]["chooses"]  # as a run kept before random chose among moves
    (out / "run.json").write_text(json.dumps(settings))
    capsys.readouterr()
    assert main(["sim", "--engine", "batch", "--games", "20", "--bots", "random,greedy", "--out", str(out)]) == 2
    assert "'random' played with chooses None, now 'among distinct moves'" in capsys.readouterr().err
    assert len(list(read_rows(out))) == 10


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--bots", "mcts"], "plays the computer players random and greedy"),
        (["--rules", "modern(partners=true)"], "Fire and Ice are not played with partners"),
        (["--jobs", "2"], "plays its games in one process"),
    ],
)
def test_what_the_batch_engine_does_not_do_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str], message: str
) -> None:
    out = tmp_path / "run"
    assert main(["sim", "--engine", "batch", "--games", "5", "--out", str(out), *arguments]) == 2
    assert message in capsys.readouterr().err
    assert not (out / "games.jsonl").exists()


@pytest.mark.parametrize(
    ("damage", "message"),
    [("garbage", "games.jsonl, line 11: not JSON"), ("no settings", "holds games.jsonl but no run.json")],
)
def test_a_batch_run_is_not_resumed_past_damaged_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], damage: str, message: str
) -> None:
    main(["sim", "--engine", "batch", "--games", "10", "--out", str(tmp_path), "--quiet"])
    results = tmp_path / "games.jsonl"
    if damage == "garbage":
        results.write_text(results.read_text() + "garbage\n")
    else:
        (tmp_path / "run.json").unlink()
    before = results.read_text()
    capsys.readouterr()
    assert main(["sim", "--engine", "batch", "--games", "20", "--out", str(tmp_path), "--quiet"]) == 2
    assert message in capsys.readouterr().err
    assert results.read_text() == before  # no game skipped, none played twice


def test_a_solo_run_has_the_core_engine_s_rows(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the solo challenge, one player unless told: rows as the core engine writes them, the cards
    # drawn (draws) the challenge's count; the games differ (each engine its own pack)
    batch, core = tmp_path / "batch", tmp_path / "core"
    for engine, out in (("batch", batch), ("core", core)):
        arguments = ["--rules", "solo(scoring=1939)", "--games", "40", "--seed", "9", "--out", str(out), "--quiet"]
        assert main(["sim", "--engine", engine, *arguments]) == 0
    assert "40 games played by the batch engine" in capsys.readouterr().out
    rows, core_rows = list(read_rows(batch)), list(read_rows(core))
    same = ("game", "seats", "bots", "first", "winner", "winner_place", "lead_changes", "points")
    assert [{key: row[key] for key in same} for row in rows] == [{key: row[key] for key in same} for row in core_rows]
    assert rows[0]["seats"] == ["red"] and rows[0]["points"] == {"red": 28} and rows[0]["lead_changes"] == 0
    for row in (*rows, *core_rows):
        assert set(row) == KEYS
        assert sum(used for used, _ in row["cards"].values()) == row["draws"] == row["turns"] > 20
    mean = sum(row["draws"] for row in rows) / len(rows)
    core_mean = sum(row["draws"] for row in core_rows) / len(core_rows)
    assert abs(mean - core_mean) < 12  # about 80 cards each, a standard deviation of 17 a game
    assert json.loads((batch / "run.json").read_text())["players"] == 1
    assert main(["report", str(batch)]) == 0


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("classic", 3),
        ("classic-1939(scoring=1939,doubling=true)", 3),  # the players weigh their doubles
        ("solo", 1),
        pytest.param("partners", 4, marks=pytest.mark.slow),
        ("partners(partner_split=any)", 4),  # a split 7's parts: one move, one card
        pytest.param("adult", 2, marks=pytest.mark.slow),
        pytest.param("modern", 3, marks=pytest.mark.slow),
        ("modern(scoring=1939,doubling=true)", 3),  # the Fire pawn's move before or after a double
    ],
)
def test_each_row_counts_what_the_core_counts_over_the_same_games(rules: str, players: int) -> None:
    # the batch's rows, and the core's tally of the very same games replayed move by move
    from pardon.batch.engine import Config
    from pardon.batch.players import choose
    from pardon.batch.simulate import play_games
    from pardon.batch.verify import cross_check
    from pardon.core.rules import parse_rules
    from pardon.sim.simulate import Simulation, _Tally

    simulation, count = Simulation(rules, players, ("random",), 10, seed=7), 10
    config = Config(parse_rules(rules), players)
    rows = play_games(config, simulation, range(count))
    tallies = [_Tally(config.rules) for _ in range(count)]
    turns = [0] * count

    def counted(game: int, move: Any, state: Any) -> None:
        tallies[game].add(move, state.position)
        turns[game] += 1

    seeds = [simulation.game_seed(number) % 2**32 for number in range(count)]
    cross_check(config, seeds, counted, lambda config, games: choose(config, games, simulation.seat_bots()))
    for row, tally, turn in zip(rows, tallies, turns, strict=True):
        core = {
            "draws": tally.draws,
            "turns": turn,
            "bumps": tally.bumps,
            "slides": tally.slides,
            "sorry": tally.cards.get(13, [0, 0])[0],
            "forfeits": tally.forfeits,
            "lead_changes": tally.lead_changes,
            "cards": {CARD_NAMES[card]: counts for card, counts in sorted(tally.cards.items())},
        }
        assert {column: row[column] for column in core} == core
