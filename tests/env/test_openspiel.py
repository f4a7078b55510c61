"""pardon as an OpenSpiel game: OpenSpiel's own consistency checks in every edition offered,
chance nodes that are the pack's, the core's moves as actions, and the example's MCTS bot."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from pardon.core.errors import InvalidError  # noqa: E402
from pardon.core.notation import format_move, format_position  # noqa: E402
from pardon.core.rules import parse_rules  # noqa: E402
from pardon.core.state import seats_for  # noqa: E402
from pardon.core.turn import apply, draw, legal_moves, start  # noqa: E402
from pardon.env import openspiel  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

EDITIONS = [
    ("classic", 2),
    ("classic", 4),
    ("classic-1939(scoring=1939,doubling=true)", 3),
    ("partners", 4),
    ("modern", 3),
    ("modern-no-tokens", 2),
    ("classic(slide_riders=own,switched_opponent_slides=false,pawns=3)", 2),
]


@pytest.mark.parametrize(("rules", "players"), EDITIONS)
def test_every_edition_with_drawn_cards_passes_openspiels_own_checks(rules: str, players: int) -> None:
    game = pyspiel.load_game("python_pardon", {"rules": rules, "players": players, "seed": 7})
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_a_chance_node_is_the_next_card_of_the_pack_with_its_chance() -> None:
    game = pyspiel.load_game("python_pardon", {"rules": "classic", "players": 2, "seed": 3})
    state = game.new_initial_state()
    assert state.is_chance_node()
    chances = dict(state.chance_outcomes())
    # a fresh pack of 45 after the Leader's draw: five 1s, four of each other card, four Sorry! (13)
    assert sorted(chances) == [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13]
    assert sum(chances.values()) == pytest.approx(1.0)
    core, _ = start(parse_rules("classic"), seats_for(2), 3)
    pile = core.pack.draw_pile or core.pack.discards
    assert all(
        Fraction(chance).limit_denominator(100) == Fraction(pile.count(card), len(pile))
        for card, chance in chances.items()
    )
    state.apply_action(13)  # a Sorry! turned up
    assert state.current_player() == ["red", "yellow"].index(_colour(state)) and str(state).endswith("card:sorry")
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 5) == "draw 5"


def _colour(state: object) -> str:
    return "red" if " turn:R" in str(state) else "yellow"


def test_a_players_actions_are_the_cores_moves_in_its_order() -> None:
    rules = parse_rules("classic")
    game = pyspiel.load_game("python_pardon", {"rules": "classic", "players": 2, "seed": 11})
    state = game.new_initial_state()
    core, _ = start(rules, seats_for(2), 11)
    rng = np.random.RandomState(0)
    for _ in range(120):
        if state.is_terminal():
            break
        if state.is_chance_node():
            card = int(rng.choice([card for card, _ in state.chance_outcomes()]))
            state.apply_action(card)
            core = draw(rules, core, card)
            continue
        moves = legal_moves(rules, core)
        assert state.legal_actions() == list(range(len(moves)))
        action = int(rng.randint(len(moves)))
        words = state.action_to_string(state.current_player(), action)
        assert words.endswith(format_move(core.position, moves[action]))
        state.apply_action(action)
        core = apply(rules, core, moves[action])
        assert str(state).split(" card:")[0] == format_position(core.position)


def test_the_returns_are_zero_sum_and_partners_win_together() -> None:
    game = pyspiel.load_game("python_pardon", {"rules": "partners", "players": 4, "seed": 2})
    state = game.new_initial_state()
    rng = np.random.RandomState(2)
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, chances = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=np.array(chances) / sum(chances))))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    returns = state.returns()
    assert sum(returns) == pytest.approx(0.0)
    assert sorted(returns) == [-1.0, -1.0, 1.0, 1.0]
    assert returns[0] == returns[2] and returns[1] == returns[3]  # red with yellow, blue with green


def test_the_observation_tensor_counts_every_pawn_and_says_the_card() -> None:
    game = pyspiel.load_game("python_pardon", {"rules": "classic", "players": 2, "seed": 3})
    state = game.new_initial_state()
    state.apply_action(13)
    tensor = np.array(state.observation_tensor(state.current_player()))
    assert tensor.shape == openspiel.TENSOR_SHAPE
    assert tensor[: 4 * openspiel.PLACES].sum() == 8  # two colours of four pawns
    assert tensor[4 * openspiel.PLACES + 10] == 1  # the Sorry! card, the last of CARDS
    assert state.observation_string(0) == str(state)


@pytest.mark.parametrize(
    ("params", "said"),
    [
        ({"rules": "adult", "players": 2}, "hands of cards are not offered"),
        ({"rules": "solo", "players": 1}, "between 2 and 4 players, not 1"),
        ({"rules": "partners", "players": 2}, "partners is played by 4 players, not 2"),
        ({"rules": "classic(deck=9)", "players": 2}, "deck"),
    ],
)
def test_a_game_that_cannot_be_played_is_refused_in_words(params: dict[str, object], said: str) -> None:
    with pytest.raises((InvalidError, pyspiel.SpielError, ValueError)) as refused:
        pyspiel.load_game("python_pardon", params)
    assert said in str(refused.value)


def test_the_example_runs_openspiels_mcts_against_random() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "openspiel_mcts.py"), "--games", "2", "--simulations", "10"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("OpenSpiel's MCTS (10 simulations, progress) against random, classic: won ")
    assert result.stderr.count("game ") == 2
