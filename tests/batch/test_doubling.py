"""Doubling in the batch engine: the decisions before the draw and the answers, the players
who dropped out passed over, the stake, the points; each against the core's state."""

from __future__ import annotations

import numpy as np
import pytest

from pardon.batch.config import ACCEPTED, ANSWERING, BEFORE_DRAW, CARD_STAGE, DOUBLINGS, OUT, STAGE
from pardon.batch.convert import core_state
from pardon.batch.doubling import (
    ACCEPT,
    DOUBLE,
    DROP,
    GO_ON,
    MOST_DOUBLINGS,
    card_actions,
    describe_decision,
    stake,
)
from pardon.batch.engine import Config, Games, decider, legal_lanes, new_games, points, random_moves, step
from pardon.core.errors import InvalidError
from pardon.core.turn import apply, legal_moves, start
from pardon.env.vector import SorryVectorEnv

RULES = "classic-1939(scoring=1939,doubling=true)"


def decide(config: Config, games: Games, decision: int) -> Games:
    """Every game makes ``decision`` (an offset after the card's actions)."""
    actions = np.full(games.card.shape, card_actions(config) + decision, dtype=np.int32)
    after, played = step(config, games, actions, check=True)
    assert not played.forfeit.any() and not played.bumps.any()
    return after


def legal(config: Config, games: Games, game: int = 0) -> list[int]:
    return np.flatnonzero(legal_lanes(config, games)[:, game]).tolist()


def test_a_turn_begins_before_the_draw_with_a_double_or_going_on() -> None:
    config = Config.parse(RULES, 2)
    games = new_games(config, np.arange(4, dtype=np.uint32))
    base = card_actions(config)
    assert config.actions == base + 4 == 145
    assert (games.card == 0).all() and (games.extras[STAGE] == BEFORE_DRAW).all()
    assert legal(config, games) == [base + GO_ON, base + DOUBLE]
    assert [describe_decision(config, action) for action in legal(config, games)] == ["go on to the draw", "double"]
    drawn = decide(config, games, GO_ON)
    assert (drawn.card > 0).all() and (drawn.extras[STAGE] == CARD_STAGE).all()
    assert all(action < base for action in legal(config, drawn))  # the card's moves only


def test_a_double_is_answered_in_turn_and_a_player_who_drops_out_plays_no_more() -> None:
    config = Config.parse(RULES, 3)
    games = new_games(config, np.arange(1, dtype=np.uint32))
    mover = int(games.turn[0])
    games = decide(config, games, DOUBLE)
    assert int(games.extras[STAGE, 0]) == ANSWERING
    assert int(decider(config, games)[0]) == (mover + 1) % 3  # the next player answers first
    base = card_actions(config)
    assert legal(config, games) == [base + ACCEPT, base + DROP]
    games = decide(config, games, DROP)
    assert int(decider(config, games)[0]) == (mover + 2) % 3
    games = decide(config, games, ACCEPT)
    assert stake(games).tolist() == [2] and int(games.card[0]) > 0  # accepted: the stake doubles, the card drawn
    assert int(games.extras[OUT, 0]) == 1 << (mover + 1) % 3
    state = core_state(config, games, 0)
    assert state.position.stake == 2 and state.position.out == (config.seats[(mover + 1) % 3],)
    # the card played, the turn passes over the player who dropped out
    for _ in range(3):
        games, _ = step(config, games, random_moves(config, games))
        if int(games.extras[STAGE, 0]) == BEFORE_DRAW:
            break
    assert int(games.turn[0]) == (mover + 2) % 3


def test_everybody_dropping_out_ends_the_game_and_the_doubler_scores_5_times_the_stake() -> None:
    config = Config.parse(RULES, 3)
    games = new_games(config, np.arange(2, dtype=np.uint32))
    games = decide(config, decide(config, games, DOUBLE), ACCEPT)  # the first answer accepts...
    games = decide(config, games, DROP)  # ...the second drops out: stake 2, play on
    assert (games.winner < 0).all() and stake(games).tolist() == [2, 2]
    while (games.extras[STAGE] != BEFORE_DRAW).any():  # to the next turn
        games, _ = step(config, games, random_moves(config, games))
    doubler = games.turn.copy()
    games = decide(config, decide(config, games, DOUBLE), DROP)  # the only one left drops out
    assert games.winner.tolist() == doubler.tolist()
    scores = points(config, games)
    assert scores.dtype == np.int64
    for game in range(2):
        assert scores[:, game].tolist() == [10 if seat == doubler[game] else 0 for seat in range(3)]


def test_after_a_2_the_player_draws_again_without_a_new_decision() -> None:
    config = Config.parse(RULES, 2)
    games = decide(config, new_games(config, np.arange(200, dtype=np.uint32)), GO_ON)
    twos = np.flatnonzero(games.card == 2)
    assert twos.size
    after, _ = step(config, games, random_moves(config, games))
    assert (after.turn[twos] == games.turn[twos]).all()
    assert (after.extras[STAGE, twos] == CARD_STAGE).all() and (after.card[twos] > 0).all()
    others = np.setdiff1d(np.arange(200), twos)
    assert (after.extras[STAGE, others] == BEFORE_DRAW).all() and (after.card[others] == 0).all()


def test_each_decision_has_its_own_random_bits() -> None:
    # the random player's answer to a double is not tied to its own choice to double
    config = Config.parse(RULES, 2)
    games = decide(config, new_games(config, np.arange(4000, dtype=np.uint32)), DOUBLE)
    answers = random_moves(config, games) - card_actions(config)
    assert set(answers.tolist()) == {ACCEPT, DROP}
    assert abs(float(np.mean(answers == DROP)) - 0.5) < 0.04


def test_the_core_agrees_with_a_game_of_doubles() -> None:
    config = Config.parse(RULES, 3)
    games = new_games(config, np.array([9], dtype=np.uint32))
    state, _ = start(config.rules, config.seats, 9, first=config.seats[int(games.leader[0])])
    for decision in (DOUBLE, ACCEPT, DROP):
        moves = legal_moves(config.rules, state)
        assert len(moves) == 2
        state = apply(config.rules, state, moves[0 if decision in (GO_ON, ACCEPT) else 1])
        games = decide(config, games, decision)
        batch = core_state(config, games, 0)
        assert (batch.stage, batch.answering, batch.accepted) == (state.stage, state.answering, state.accepted)
        assert (batch.position.stake, batch.position.out) == (state.position.stake, state.position.out)


def test_a_stake_doubled_on_and_on_plays_on_and_its_points_beyond_int64_are_refused() -> None:
    config = Config.parse(RULES, 2)
    games = new_games(config, np.arange(1, dtype=np.uint32))
    for _ in range(MOST_DOUBLINGS + 1):  # the same player doubles, the other accepts, on and on
        games = decide(config, decide(config, games, DOUBLE), ACCEPT)
        games = games._replace(extras=games.extras.copy())
        games.extras[STAGE], games.extras[ACCEPTED] = BEFORE_DRAW, 0  # the next turn of the same player
    assert int(games.extras[DOUBLINGS, 0]) == MOST_DOUBLINGS + 1
    assert core_state(config, games, 0).position.stake == 2**57
    finished = games._replace(winner=games.turn.copy())
    with pytest.raises(InvalidError, match="doubled more than 56 times"):
        points(config, finished)


def test_the_environments_offer_doubling_and_the_player_answering_decides() -> None:
    from pettingzoo.test import api_test

    from pardon.batch.observe import DOUBLING, FEATURES, observe
    from pardon.env.aec import SorryAECEnv
    from pardon.env.single import SorryEnv

    api_test(SorryAECEnv(rules=RULES, players=3), num_cycles=300)
    env = SorryAECEnv(rules=RULES, players=3, render_mode="ansi")
    env.reset(seed=4)
    mover = env.agent_selection
    base = card_actions(env.config)
    env.step(base + DOUBLE)
    answering = env.agent_selection
    assert answering != mover and "to answer" in str(env.render())
    seen = env.observe(answering)
    assert seen["observation"].shape == (FEATURES + 10,) and seen["action_mask"][base + ACCEPT] == 1
    assert seen["observation"][DOUBLING][:4].tolist() == [0, 0, 1, 1]  # answering, and this agent decides
    assert not env.observe(mover)["action_mask"].any()
    single = SorryEnv(rules=RULES, players=2, opponents="greedy")
    observation, _ = single.reset(seed=1)
    assert observation["observation"].shape == (FEATURES + 10,)
    assert np.flatnonzero(observation["action_mask"]).tolist() == [base + GO_ON, base + DOUBLE]
    vector = SorryVectorEnv(rules=RULES, players=3, num_envs=8, opponent="random")
    observation, _ = vector.reset(seed=2)
    # playing every seat, doubling at random: each answer is seen from the seat answering, not the doubler's
    vector = SorryVectorEnv(rules=RULES, players=3, num_envs=8, opponent="self")
    observation, _ = vector.reset(seed=2)
    rng = np.random.default_rng(2)
    answered = 0
    for _ in range(40):
        games = vector.games
        for game in np.flatnonzero(games.extras[STAGE] == ANSWERING):
            answered += 1
            observer = (int(decider(vector.config, games)[game]) - int(games.turn[game])) % 3
            assert observer != 0
            one = Games(*(np.take(field, [game], axis=-1) for field in games))
            assert np.array_equal(observation["observation"][game], observe(vector.config, one, observer)[0])
            assert observation["observation"][game][DOUBLING][3] == 1  # the observer decides now
        actions = np.array([rng.choice(np.flatnonzero(mask)) for mask in observation["action_mask"]])
        observation, *_ = vector.step(actions)
    assert answered >= 5
