"""run_tournament refuses what a caller can get wrong, with InvalidError and before any game."""

from __future__ import annotations

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
