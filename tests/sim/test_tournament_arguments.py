"""run_tournament refuses what a caller can get wrong, with InvalidError and before any game."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pardon.core import InvalidError
from pardon.sim.tournament import run_tournament


def test_bots_given_as_one_text_are_refused_with_the_list_meant() -> None:
    # was "each computer player may be listed once": the letters of the text were the players
    with pytest.raises(InvalidError, match=r"\['random', 'greedy'\]"):
        run_tournament("random,greedy", games=2)


@pytest.mark.parametrize("games", [0, -4, 2.5])
def test_a_tournament_of_no_games_is_refused(games: object) -> None:
    # games=0 used to play a whole deal anyway
    with pytest.raises(InvalidError, match="at least one game"):
        run_tournament(["random", "greedy"], games=games)  # type: ignore[arg-type]


def test_the_other_refusals_are_invalid_errors() -> None:
    with pytest.raises(InvalidError, match="at least two"):
        run_tournament(["random"])
    with pytest.raises(InvalidError, match="listed once"):
        run_tournament(["random", "random"])
    with pytest.raises(InvalidError, match="played by 4 players"):
        run_tournament(["random", "greedy"], rules="partners", players=2)


@pytest.mark.parametrize("seed", ["1", 1.5, True, None])
def test_a_seed_that_is_not_a_whole_number_is_refused(seed: object) -> None:
    # seed="1" played the deals of seed 1 and reported seed '1'; seed=1.5 quietly other deals
    with pytest.raises(InvalidError, match="seed must be a whole number"):
        run_tournament(["random", "greedy"], games=2, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", [2.0, "2", True])
def test_players_that_are_not_a_whole_number_are_refused(players: object) -> None:
    # players=2.0 was a TypeError from inside: can't multiply sequence by non-int of type 'float'
    with pytest.raises(InvalidError, match="players must be a whole number"):
        run_tournament(["random", "greedy"], players=players, games=2)  # type: ignore[arg-type]


@pytest.mark.parametrize("bots", [None, 5, [1, 2], [["random"], ["greedy"]]])
def test_bots_that_are_not_a_list_of_texts_are_refused(bots: object) -> None:
    # None was a TypeError (object of type 'NoneType' has no len()), [["random"], ...] one
    # from set() (unhashable type: 'list')
    with pytest.raises(InvalidError, match="bots is a list of computer players"):
        run_tournament(bots, games=2)  # type: ignore[arg-type]


def test_a_solo_tournament_is_an_invalid_error() -> None:
    # was a plain ValueError from inside: "a tournament needs 2 or more players per game"
    with pytest.raises(InvalidError, match="played alone"):
        run_tournament(["random", "greedy"], rules="solo", players=1, games=2)


def test_numpy_integers_and_a_generator_of_bots_are_taken() -> None:
    report = run_tournament(
        (bot for bot in ["random", "greedy"]),
        players=np.int64(2),  # type: ignore[arg-type]
        games=np.int64(2),  # type: ignore[arg-type]
        seed=np.uint16(3),  # type: ignore[arg-type]
    )
    same = run_tournament(["random", "greedy"], players=2, games=2, seed=3)
    assert report.bots == same.bots and report.pairings == same.pairings
    assert type(report.players) is int and type(report.seed) is int
    json.dumps(report.to_json())  # the report's settings are plain ints


def test_a_folder_named_as_text_is_taken(tmp_path: Path) -> None:
    # directory="runs/t" was an AttributeError ('str' object has no attribute ...)
    report = run_tournament(["random", "greedy"], games=2, directory=str(tmp_path))
    again = run_tournament(["random", "greedy"], games=2, directory=tmp_path)
    assert again.kept == 2 and again.pairings == report.pairings
