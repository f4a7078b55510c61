"""The batch engine says what it wants when given something else (without JAX installed, a
list of seeds was a ModuleNotFoundError for 'jax')."""

from __future__ import annotations

import numpy as np
import pytest

from pardon.batch.engine import Config, legal_lanes, new_games, play, random_moves, reset_finished, step
from pardon.core import IllegalError, InvalidError


def test_a_list_or_a_number_of_seeds_is_read_as_numpys() -> None:
    # a list was "'list' object has no attribute 'dtype'" with JAX installed, and without it
    # an InvalidError asking for NumPy arrays
    config = Config.parse("classic", 2)
    assert new_games(config, [1, 2]).seed.tolist() == [1, 2]
    assert new_games(config, 5).seed.shape == ()  # one game, no batch axis
    assert new_games(config, np.array([1, 2], dtype=np.uint32)).seed.tolist() == [1, 2]
    for seeds in ([-1], [1.5], [[1], [2, 3]], "3"):
        with pytest.raises(InvalidError, match="0 to 4294967295"):
            new_games(config, seeds)


def test_rules_text_in_a_config_points_to_config_parse() -> None:
    # was AttributeError: 'str' object has no attribute 'partners'
    with pytest.raises(InvalidError, match=r"Config.parse\('classic\(pawns=3\)', players\) reads rules text"):
        Config("classic(pawns=3)", 2)  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="Config takes a Rules value, not None"):
        Config(None, 2)  # type: ignore[arg-type]


@pytest.mark.parametrize(("seeds", "words"), [(np.arange(2, dtype=np.uint32), "shape 2"), (7, "a single number")])
def test_reset_finished_takes_one_seed_per_game(seeds: object, words: str) -> None:
    # two seeds for three games were NumPy's "operands could not be broadcast"
    config = Config.parse("classic", 2)
    games = new_games(config, [1, 2, 3])
    with pytest.raises(InvalidError, match=f"give one seed per game, an array of shape 3, not {words}"):
        reset_finished(config, games, seeds)
    assert reset_finished(config, games, [4, 5, 6]).seed.tolist() == [1, 2, 3]  # none is over


def _mid_game(config: Config, count: int) -> object:
    games = new_games(config, np.arange(count, dtype=np.uint32))
    for _ in range(20):
        games, _ = step(config, games, random_moves(config, games))
    return games


@pytest.mark.parametrize(("players", "action"), [(2, 140), (2, 85), (2, 133), (3, 140), (3, 89)])
def test_an_action_on_an_opponent_the_game_does_not_have_is_an_illegal_error(players: int, action: int) -> None:
    # a switch or a Sorry! on the player 3 seats on, in a game of 2, was an IndexError from inside
    config = Config.parse("classic", players)
    games = _mid_game(config, 4)
    actions = random_moves(config, games)
    actions[2] = action
    with pytest.raises(IllegalError, match=f"action {action} of game 2 .* is never legal with {players} players"):
        step(config, games, actions)
    one = new_games(config, np.uint32(3))
    with pytest.raises(IllegalError, match=f"action {action} of the game"):
        step(config, one, np.int32(action))


def test_step_checks_the_actions_when_asked() -> None:
    config = Config.parse("classic", 4)
    games = _mid_game(config, 50)
    actions = random_moves(config, games)
    checked, _ = step(config, games, actions, check=True)
    unchecked, _ = step(config, games, actions)
    assert all(np.array_equal(a, b) for a, b in zip(checked, unchecked, strict=True))
    lanes = legal_lanes(config, games)
    game = int(np.flatnonzero(~lanes.all(axis=0))[0])
    actions[game] = int(np.flatnonzero(~lanes[:, game])[0])
    with pytest.raises(IllegalError, match=f"action {actions[game]} is not legal in game {game}: its legal actions"):
        step(config, games, actions, check=True)
    with pytest.raises(InvalidError, match="0 to 140"):
        step(config, games, np.full(50, 141), check=True)


def test_a_finished_game_takes_any_action_when_checked() -> None:
    config = Config.parse("classic", 2)
    games = new_games(config, np.arange(20, dtype=np.uint32))
    while not (games.winner >= 0).any():
        games, _ = step(config, games, random_moves(config, games), check=True)
    actions = random_moves(config, games)
    actions[games.winner >= 0] = 1  # ignored: nobody plays a finished game
    step(config, games, actions, check=True)


def test_players_of_the_wrong_type_are_named_as_given() -> None:
    with pytest.raises(InvalidError, match="not '2'"):
        Config.parse("classic", "2")  # type: ignore[arg-type]


@pytest.mark.parametrize("action", [-1, 141, 200])
def test_an_action_outside_the_encoding_is_an_invalid_error(action: int) -> None:
    # 200 was an IndexError from inside, and -1 silently played action 140 (a Sorry!).
    config = Config.parse("classic", 2)
    games = new_games(config, np.arange(3, dtype=np.uint32))
    with pytest.raises(InvalidError, match="0 to 140"):
        step(config, games, np.array([0, action, 0]))
    with pytest.raises(InvalidError, match="0 to 140"):
        play(config, games, np.array([action, 0, 0]), advance=False)


@pytest.mark.parametrize(
    ("actions", "words"),
    [
        (np.array([1]), "not shape 1"),  # was one action broadcast to every game
        (np.int64(1), "not a single number"),
        (1, "not a single number"),
        (np.array([1, 1]), "not shape 2"),  # was NumPy's broadcasting ValueError
        (np.ones((3, 1), dtype=np.int64), "not shape 3×1"),
    ],
)
def test_actions_are_one_per_game(actions: object, words: str) -> None:
    config = Config.parse("classic", 2)
    games = new_games(config, np.arange(3, dtype=np.uint32))
    with pytest.raises(InvalidError, match=f"give one action per game, an array of shape 3, {words}"):
        step(config, games, actions)
    with pytest.raises(InvalidError, match="one action per game"):
        play(config, games, actions, advance=False)


def test_games_made_for_another_number_of_players_are_refused() -> None:
    games = new_games(Config.parse("classic", 2), np.arange(3, dtype=np.uint32))
    four = Config.parse("classic", 4)
    with pytest.raises(InvalidError, match="these games are of 2 players, and the config plays 4"):
        step(four, games, np.zeros(3, dtype=np.int32))
    with pytest.raises(InvalidError, match="these games are of 2 players"):
        legal_lanes(four, games)


def test_players_may_be_a_numpy_integer() -> None:
    # "the batch engine plays 2, 3 or 4 players, not np.int64(3)"
    config = Config.parse("classic", np.int64(3))  # type: ignore[arg-type]
    assert config == Config.parse("classic", 3) and type(config.players) is int
    with pytest.raises(InvalidError, match=r"plays 2, 3 or 4 players, not 5$"):
        Config.parse("classic", np.int64(5))  # type: ignore[arg-type]
    with pytest.raises(InvalidError, match="not True"):
        Config.parse("classic", True)
