"""Points in batch games (``scoring=1939`` and ``scoring=1992``): the batch's
:func:`~pardon.batch.engine.points` equal the core's :func:`~pardon.core.scoring.points_of`
for the same final position, on many finished games and on positions made for each bonus;
the cross-check compares them; JAX gives NumPy's; simulations write them as the core's do;
Fire and Ice with hands of five scored as the core scores them (doubling: tests/batch/test_doubling.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pardon.batch import verify
from pardon.batch.config import Games
from pardon.batch.convert import core_position
from pardon.batch.engine import Config, new_games, points, random_moves, step
from pardon.batch.verify import MismatchError, cross_check
from pardon.cli import main
from pardon.core.board import HOME, START
from pardon.core.errors import InvalidError
from pardon.core.scoring import points_of
from pardon.sim.simulate import read_rows


def finished_games(config: Config, count: int, first_seed: int = 0) -> Games:
    games = new_games(config, np.arange(first_seed, first_seed + count, dtype=np.uint32))
    while (games.winner < 0).any():
        games, _ = step(config, games, random_moves(config, games))
    return games


def core_points(config: Config, games: Games, index: int) -> dict[int, int] | None:
    return points_of(config.rules, core_position(config, games, index))


def batch_points(config: Config, scores: Any, index: int) -> dict[int, int]:
    return {colour: int(score) for colour, score in zip(config.seats, np.asarray(scores)[:, index], strict=True)}


@pytest.mark.parametrize("scoring", ["1939", "1992"])
@pytest.mark.parametrize(
    ("preset", "players", "count"),
    [("classic", 2, 400), ("classic", 3, 300), ("classic", 4, 300), ("classic-1939(pawns=3)", 3, 200)],
)
def test_batch_points_equal_the_core_s_on_finished_games(preset: str, players: int, count: int, scoring: str) -> None:
    rules = f"{preset[:-1]},scoring={scoring})" if preset.endswith(")") else f"{preset}(scoring={scoring})"
    config = Config.parse(rules, players)
    games = finished_games(config, count)
    scores = points(config, games)
    assert scores.shape == (players, count) and scores.dtype == np.int32
    bonuses = set()
    for index in range(count):
        expected = core_points(config, games, index)
        assert expected is not None
        assert batch_points(config, scores, index) == expected, index
        winner = config.seats[int(games.winner[index])]
        bonuses.add(expected[winner] - (1 if scoring == "1939" else 5) * config.rules.pawns)
    assert len(bonuses) >= 4  # games won with different margins: more than one bonus (or none)


def one_game(config: Config, home: list[int], winner: int, turn: int) -> Games:
    """A finished game (a batch of one) whose seats have ``home`` pawns Home each (the rest
    in Start), won by seat ``winner`` with seat ``turn`` to move."""
    games = new_games(config, np.zeros(1, dtype=np.uint32))
    rows = []
    for row in range(config.players):
        seat = (turn + row) % config.players
        pawns = [HOME] * home[seat] + [START] * (config.rules.pawns - home[seat])
        rows.append(pawns + [HOME] * (4 - config.rules.pawns))
    pawns = np.array(rows, dtype=np.int8)[..., None]
    return games._replace(
        pawns=pawns, turn=np.array([turn], dtype=np.int8), winner=np.array([winner], dtype=np.int8), card=games.card * 0
    )


@pytest.mark.parametrize(
    ("rules", "home", "winner", "expected"),
    [
        ("classic(scoring=1939)", [4, 0, 0, 0], 0, [28, 0, 0, 0]),  # 4 + 24: no opponent pawn Home
        ("classic(scoring=1939)", [1, 4, 1, 0], 1, [1, 4 + 2 + 16, 1, 0]),  # none has more than 1
        ("classic(scoring=1939)", [2, 1, 3, 4], 3, [2, 1, 3, 4 + 6]),  # one has 3: no bonus
        ("classic(scoring=1939)", [2, 2, 4, 0], 2, [2, 2, 4 + 4 + 8, 0]),  # none has more than 2
        ("classic(scoring=1992)", [0, 0, 0, 4], 3, [0, 0, 0, 20 + 60 + 100]),
        ("classic(scoring=1992)", [1, 4, 1, 1], 1, [5, 20 + 45 + 50, 5, 5]),
        ("classic(scoring=1992)", [2, 0, 4, 1], 2, [10, 0, 20 + 45 + 25, 5]),
        ("classic(scoring=1992)", [4, 3, 0, 0], 0, [20 + 5 * 9, 15, 0, 0]),  # one has 3: no bonus
        ("classic(scoring=1992,pawns=3)", [3, 0, 2, 1], 0, [15 + 5 * 6 + 25, 0, 10, 5]),
        ("classic(scoring=1939,pawns=3)", [0, 3, 1, 0], 1, [0, 3 + 1 + 16, 1, 0]),
    ],
)
@pytest.mark.parametrize("turn", [0, 1, 3])
def test_each_bonus_is_the_rules_and_the_core_s(
    rules: str, home: list[int], winner: int, expected: list[int], turn: int
) -> None:
    config = Config.parse(rules, 4)
    games = one_game(config, home, winner, turn)  # the seat to move is any: only the pawns and the winner count
    scores = points(config, games)
    assert np.asarray(scores)[:, 0].tolist() == expected
    assert batch_points(config, scores, 0) == core_points(config, games, 0)


def test_games_not_over_and_rules_without_points_score_nothing() -> None:
    config = Config.parse("classic(scoring=1992)", 3)
    games = new_games(config, np.arange(300, dtype=np.uint32))
    for _ in range(150):  # some over, most not
        games, _ = step(config, games, random_moves(config, games))
    scores = points(config, games)
    going_on = games.winner < 0
    assert going_on.any() and (~going_on).any()
    assert (scores[:, going_on] == 0).all()
    assert (scores[:, ~going_on] > 0).any(axis=0).all()
    plain = Config.parse("classic", 3)
    assert not points(plain, finished_games(plain, 20)).any()


def test_points_take_one_game_or_batches_of_any_shape() -> None:
    config = Config.parse("classic(scoring=1939)", 4)
    games = finished_games(config, 6)
    scores = points(config, games)
    grid = Games(*(field.reshape(*field.shape[:-1], 2, 3) for field in games))
    assert np.array_equal(points(config, grid), scores.reshape(4, 2, 3))
    single = Games(*(field[..., 4] for field in games))
    assert np.array_equal(points(config, single), scores[:, 4])


def test_points_refuse_games_of_another_number_of_players() -> None:
    games = new_games(Config.parse("classic", 2), np.arange(3, dtype=np.uint32))
    with pytest.raises(InvalidError, match="these games are of 2 players"):
        points(Config.parse("classic(scoring=1939)", 4), games)


@pytest.mark.parametrize(
    ("rules", "players"),
    [("classic(scoring=1939)", 2), ("classic-1939(scoring=1939)", 4), ("classic(scoring=1992)", 3)],
)
def test_the_cross_check_compares_the_points_of_every_game(rules: str, players: int) -> None:
    report = cross_check(Config.parse(rules, players), range(500, 512))
    assert report.games == report.scored == 12
    assert cross_check(Config.parse("classic", players), range(500, 503)).scored == 0  # no points to compare


def test_the_cross_check_finds_points_that_are_not_the_core_s(monkeypatch: pytest.MonkeyPatch) -> None:
    def without_the_bonus(config: Config, games: Games) -> Any:  # a real formula, and a wrong one
        home = (games.pawns[:, : config.rules.pawns] == HOME).sum(axis=1)
        seat = (np.arange(config.players)[:, None] - games.turn[None]) % config.players
        return np.take_along_axis(home, seat, axis=0).astype(np.int32) * (games.winner >= 0)

    monkeypatch.setattr(verify, "points", without_the_bonus)
    with pytest.raises(MismatchError, match=r"the batch scores red \d+, yellow \d+, the core red"):
        cross_check(Config.parse("classic(scoring=1939)", 2), range(10))


def test_the_cross_check_command_says_the_points_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert verify.main(["--rules", "classic(scoring=1992)", "--players", "4", "--games", "6", "--chunk", "4"]) == 0
    out, _ = capsys.readouterr()
    assert out.startswith("6 games of classic(scoring=1992) with 4 players: ")
    assert "decisions and the points of 6 games agree with the core" in out


def test_points_with_fire_and_ice_and_hands_of_five_agree_with_the_core() -> None:
    report = verify.cross_check(Config.parse("classic(scoring=1992,hand=5,tokens=true)", 3), range(40, 46))
    assert report.games == report.scored == 6 and report.decisions > 6 * 50


def test_jax_scores_as_numpy_does() -> None:
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    from pardon.batch.jax_backend import jitted

    for rules, players in [("classic(scoring=1939)", 3), ("classic(scoring=1992,pawns=3)", 4)]:
        config = Config.parse(rules, players)
        games = new_games(config, np.arange(200, dtype=np.uint32))
        for _ in range(200):  # some games over, some not
            games, _ = step(config, games, random_moves(config, games))
        on_jax = Games(*(jnp.asarray(field) for field in games))
        expected = points(config, games)
        assert (games.winner >= 0).any() and (expected > 0).any()
        assert np.array_equal(np.asarray(points(config, on_jax)), expected)
        assert np.array_equal(np.asarray(jitted(config).points(on_jax)), expected)
        one_by_one = jax.vmap(lambda one: points(config, one), in_axes=-1, out_axes=-1)  # noqa: B023
        assert np.array_equal(np.asarray(one_by_one(on_jax)), expected)


def run_sim(out: Path, rules: str, engine: str) -> list[dict[str, Any]]:
    arguments = ["sim", "--rules", rules, "--players", "3", "--games", "60", "--out", str(out), "--quiet"]
    assert main([*arguments, "--engine", engine, "--jobs", "1"]) == 0  # no worker processes forked
    return list(read_rows(out))


@pytest.mark.parametrize("scoring", ["1939", "1992"])
def test_batch_simulations_write_points_as_the_core_s_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scoring: str
) -> None:
    rules = f"classic(scoring={scoring})"
    batch, core = run_sim(tmp_path / "batch", rules, "batch"), run_sim(tmp_path / "core", rules, "core")
    capsys.readouterr()
    for rows in (batch, core):
        for row in rows:
            assert list(row["points"]) == row["seats"]  # by colour, in the seats' order
            winner_points = row["points"][row["winner"]]
            assert winner_points == max(row["points"].values()) >= (4 if scoring == "1939" else 20)
    assert main(["report", str(tmp_path / "batch")]) == 0
    assert all(row["points"] is None for row in run_sim(tmp_path / "plain", "classic", "batch"))
