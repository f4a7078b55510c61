"""The batch's computer players decide doubles as the core's do (pardon.batch.outlook): the
same win chances to the last bit and the same decision at every double offered or answered,
against the core's evaluation of the same state; and `pardon sim` with doubling gives the
same games in distribution with either engine."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import numpy as np
import pytest

from pardon.batch.config import ANSWERING, BEFORE_DRAW, DOUBLINGS, STAGE
from pardon.batch.convert import action_of, core_state
from pardon.batch.doubling import DECISIONS, decider
from pardon.batch.engine import Config, new_games, random_moves, step
from pardon.batch.outlook import doubling_actions, win_chances
from pardon.batch.players import choose
from pardon.bots.doubling import doubling_move, without_double
from pardon.bots.evaluation import SEARCHED, Evaluator, card_chances
from pardon.cli import main
from pardon.core.board import START
from pardon.core.turn import legal_moves, observe_state

DOUBLING = "scoring=1939,doubling=true"
FAST = [(f"classic-1939({DOUBLING})", 2), (f"partners({DOUBLING})", 4), (f"adult({DOUBLING})", 3)]
SLOW = [
    (f"classic-1939({DOUBLING})", 3),
    (f"classic-1939({DOUBLING})", 4),
    (f"adult({DOUBLING})", 2),
    (f"adult({DOUBLING})", 4),
    (f"classic({DOUBLING},pawns=3)", 3),
    (f"classic({DOUBLING},deck=55,leave_start=forward-count)", 2),
    (f"classic({DOUBLING},deck=45,leave_start=forward-circle,pawns_out=1)", 4),
    (f"modern-no-tokens({DOUBLING})", 3),
]


def decisions_agree(rules: str, players: int, count: int, steps: int, *, weigh: bool) -> list[int]:
    """Play ``count`` games (``weigh``: the computer players' doubles; else every decision at
    random, for drop-outs and high stakes) and check each double offered or answered against
    the core; return how many of each decision the batch made."""
    config = Config.parse(rules, players)
    games = new_games(config, np.arange(count, dtype=np.uint32))
    evaluator = Evaluator(config.rules, SEARCHED)
    made = [0] * DECISIONS
    for _ in range(steps):
        stage = games.extras[STAGE]
        rows = np.flatnonzero((games.winner < 0) & ((stage == BEFORE_DRAW) | (stage == ANSWERING)))
        actions, seat = doubling_actions(config, games), decider(config, games)
        chances = win_chances(config, games, seat)
        for row in rows.tolist():
            state = core_state(config, games, row)
            observation = observe_state(config.rules, state, config.seats[int(seat[row])])
            core = evaluator.win_chances(observation.position, card_chances(observation.remaining(), config.rules))
            assert chances[:, row].tolist() == [core[colour] for colour in config.seats]  # to the last bit
            moves = legal_moves(config.rules, state)
            move = doubling_move(observation, moves) or without_double(moves)[0]
            assert actions[row] == action_of(config, games, row, move)
            made[int(actions[row]) - (config.actions - DECISIONS)] += 1
        decided = choose(config, games, ["random"] * players) if weigh else random_moves(config, games)
        games, _ = step(config, games, decided)
        if (games.winner >= 0).all():
            break
    return made


@pytest.mark.parametrize(("rules", "players"), FAST)
def test_doubles_are_decided_as_the_core_decides_them(rules: str, players: int) -> None:
    go_on, double, accept, drop = decisions_agree(rules, players, 40, 3000, weigh=False)
    assert go_on and double and accept and drop


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players"), SLOW)
def test_doubles_are_decided_as_the_core_decides_them_in_every_edition(rules: str, players: int) -> None:
    assert sum(decisions_agree(rules, players, 60, 3000, weigh=False)) > 300


@pytest.mark.slow
def test_whole_games_of_weighed_doubles_agree_with_the_core_to_the_end() -> None:
    # the players' own doubles: long games, whose late positions weigh the lead most
    go_on, double, accept, drop = decisions_agree(f"partners({DOUBLING})", 4, 30, 5000, weigh=True)
    assert go_on > 1000 and double and accept and drop


def _rows(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in (path / "games.jsonl").read_text().splitlines()]


def test_pardon_sim_simulates_doubling_with_either_engine_alike(tmp_path: Path) -> None:
    # the core's random player doubled at random in simulations (its games ended after 2 draws,
    # a double dropped) though every computer player weighs a double
    arguments = ["sim", "--rules", f"classic-1939({DOUBLING})", "--players", "2", "--games", "400", "--quiet"]
    assert main([*arguments, "--engine", "batch", "--out", str(tmp_path / "batch")]) == 0
    assert main([*arguments, "--engine", "core", "--out", str(tmp_path / "core")]) == 0
    batch, core = _rows(tmp_path / "batch"), _rows(tmp_path / "core")
    for column in ("draws", "bumps"):
        ours, theirs = ([float(row[column]) for row in rows] for rows in (batch, core))  # type: ignore[arg-type]
        error = (statistics.variance(ours) / len(ours) + statistics.variance(theirs) / len(theirs)) ** 0.5
        assert abs(statistics.mean(ours) - statistics.mean(theirs)) < 4 * error, column
    won = [max(row["points"].values()) for row in core]  # type: ignore[attr-defined]
    assert statistics.mean(won) > 8  # games played on, not ended at once by a double dropped (5 points)
    settings = json.loads((tmp_path / "core" / "run.json").read_text())
    assert settings["levels"]["random"]["doubles"] == "by its chance of winning"


def test_a_doubling_run_kept_while_random_doubled_at_random_is_not_resumed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    arguments = [
        "sim",
        "--rules",
        f"classic-1939({DOUBLING})",
        "--players",
        "2",
        "--games",
        "6",
        "--out",
        str(tmp_path),
        "--quiet",
    ]
    assert main(arguments) == 0
    settings = json.loads((tmp_path / "run.json").read_text())
    del settings["levels"]["random"]["doubles"]  # as a run made before kept it
    (tmp_path / "run.json").write_text(json.dumps(settings))
    before = (tmp_path / "games.jsonl").read_text()
    capsys.readouterr()
    assert main([*arguments[:-3], "--games", "12", "--out", str(tmp_path), "--quiet"]) == 2
    assert "'random' played with doubles None, now 'by its chance of winning'" in capsys.readouterr().err
    assert (tmp_path / "games.jsonl").read_text() == before


def test_a_stake_doubled_past_what_an_integer_holds_is_doubled_no_more() -> None:
    # a learner in an environment may double on and on: the computers stop at a stake of 8
    config = Config.parse(f"classic-1939({DOUBLING})", 2)
    games = new_games(config, np.arange(4, dtype=np.uint32))
    games.pawns[:] = START
    games.pawns[0, 0, :] = 20  # the player to move leads by a pawn out and on its way: it doubles
    base = config.actions - DECISIONS
    assert (doubling_actions(config, games) == base + 1).all()
    for doublings in (3, 63, 64, 65, 1000):
        games.extras[DOUBLINGS] = doublings
        assert (doubling_actions(config, games) == base).all(), doublings  # it goes on to the draw
    games.extras[DOUBLINGS] = 2
    assert (doubling_actions(config, games) == base + 1).all()
