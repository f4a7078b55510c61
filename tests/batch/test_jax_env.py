"""The pure-JAX environment (pgx's shape: init and step for one game, jitted and vmapped) plays
the NumPy engine's very games, ends them with zero-sum rewards, and keeps a finished game as it
is.  Skipped unless JAX is installed (``pip install 'pardon[jax]'``)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from pardon.batch.engine import Config, Games, decider, legal_lanes, new_games, step
from pardon.batch.observe import observe
from pardon.core.errors import InvalidError

pytestmark = pytest.mark.slow  # compiling takes a while
jax = pytest.importorskip("jax")
jnp = pytest.importorskip("jax.numpy")

from pardon.batch.jax_env import SorryJax  # noqa: E402


def seen_by_decider(config: Config, games: Games) -> np.ndarray:
    """NumPy's observations from each game's seat to decide (with doubling, the one answering a double)."""
    observers = (decider(config, games).astype(int) - games.turn) % config.players
    seen = observe(config, games)
    for observer in range(1, config.players):
        seen = np.where((observers == observer)[:, None], observe(config, games, observer), seen)
    return seen


@pytest.mark.parametrize(
    ("rules", "players"),
    [
        ("classic", 4),
        ("modern-no-tokens", 2),
        ("classic(pawns=3)", 3),
        ("solo", 1),
        ("adult", 2),  # hands of five
        ("classic-1939(scoring=1939,doubling=true)", 2),
        ("classic-1939(scoring=1939,doubling=true)", 4),
        ("adult(scoring=1939,doubling=true)", 3),
        ("partners", 4),
        ("partners(hand=5)", 4),
        ("classic-1939(partners=true,scoring=1939,doubling=true)", 4),
        ("modern", 2),  # Fire and Ice
        ("modern(deck=44,draw_again_on_2=false)", 3),
        ("modern(scoring=1939,doubling=true)", 3),  # Fire and Ice with doubling
        ("modern(hand=5)", 2),  # Fire and Ice with hands of five: 12,157 actions, fewer games
    ],
)
def test_the_jax_environment_plays_the_numpy_engines_games_to_their_ends(rules: str, players: int) -> None:
    env = SorryJax(rules, players)
    count = 3 if env.num_actions > 10_000 else 12
    init, play = jax.jit(jax.vmap(env.init_seed)), jax.jit(jax.vmap(env.step))
    state = init(jnp.arange(count, dtype=jnp.uint32))
    games = new_games(env.config, np.arange(count, dtype=np.uint32))
    rng = np.random.default_rng(5)
    rewarded = np.zeros((count, players))
    for _ in range(2000):
        for mine, theirs in zip(games, state.games, strict=True):  # the batch axis: NumPy's last, vmap's first
            assert np.array_equal(mine, np.moveaxis(np.asarray(theirs), 0, -1))
        going = games.winner < 0
        mask = np.asarray(state.legal_action_mask)
        assert np.array_equal(mask, legal_lanes(env.config, games).T & going[:, None])
        assert np.array_equal(np.asarray(state.observation), seen_by_decider(env.config, games))
        assert np.array_equal(np.asarray(state.current_player), decider(env.config, games))  # or answering a double
        assert np.array_equal(np.asarray(state.terminated), ~going)
        if not going.any():
            break
        actions = np.array([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        state = play(state, jnp.asarray(actions))
        games, _ = step(env.config, games, actions)
        rewarded += np.asarray(state.rewards)
    else:
        raise AssertionError("the games did not end")
    winners = games.winner.astype(int)
    expected = np.where(np.arange(players) == winners[:, None], 1.0, -1.0)
    assert np.array_equal(rewarded, expected)  # once each: +1 the winner, -1 the others
    assert (np.asarray(state.step_count) > 0).all()


def test_a_finished_game_stays_as_it_is_and_init_takes_a_key() -> None:
    env = SorryJax("classic", 2)
    state = jax.jit(jax.vmap(env.init))(jax.random.split(jax.random.key(3), 4))
    assert state.observation.shape == (4, env.observation_size)
    assert state.legal_action_mask.shape == (4, env.num_actions) and state.legal_action_mask.any(axis=1).all()
    assert state.rewards.shape == (4, 2) and not state.terminated.any() and not state.truncated.any()
    play = jax.jit(jax.vmap(env.step))
    while not state.terminated.all():
        state = play(state, jnp.argmax(state.legal_action_mask, axis=1))
    again = play(state, jnp.zeros(4, dtype=jnp.int32))
    leaves = jax.tree_util.tree_leaves
    for before, after in zip(leaves(state.games), leaves(again.games), strict=True):
        assert np.array_equal(before, after)
    assert not np.asarray(again.rewards).any() and np.array_equal(again.step_count, state.step_count)
    assert not np.asarray(again.legal_action_mask).any()


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("classic(pawns=3)", 3)])
def test_step_auto_reset_is_pgx_auto_reset_and_its_observations_stay_right(rules: str, players: int) -> None:
    env = SorryJax(rules, players)
    count = 8
    init, play = jax.jit(jax.vmap(env.init_seed)), jax.jit(jax.vmap(env.step))
    auto = jax.jit(jax.vmap(env.step_auto_reset))
    state = init(jnp.arange(count, dtype=jnp.uint32))
    rng = np.random.default_rng(7)
    ended = 0
    for turn in range(700):
        mask = np.asarray(state.legal_action_mask)
        actions = jnp.asarray([rng.choice(np.flatnonzero(row)) for row in mask])
        seeds = jnp.arange(count, dtype=jnp.uint32) + np.uint32(count * (turn + 1))
        stepped, fresh = play(state, actions), init(seeds)  # pgx's auto_reset(env.step, env.init)
        over = np.asarray(stepped.terminated)
        fresh = fresh._replace(rewards=stepped.rewards, terminated=stepped.terminated)
        expected = jax.tree_util.tree_map(functools.partial(_where, over), fresh, stepped)
        state = auto(state, actions, seeds)
        for mine, theirs in zip(jax.tree_util.tree_leaves(state), jax.tree_util.tree_leaves(expected), strict=True):
            assert np.array_equal(np.asarray(mine), theirs)
        games = type(state.games)(*(np.moveaxis(np.asarray(field), 0, -1) for field in state.games))
        assert np.array_equal(np.asarray(state.observation), seen_by_decider(env.config, games))  # brought up to date
        assert np.array_equal(np.asarray(state.legal_action_mask), legal_lanes(env.config, games).T)
        ended += int(over.sum())
    assert ended >= count  # every game has ended at least once, on average
    with_key = jax.jit(env.step_auto_reset)(jax.tree_util.tree_map(lambda field: field[0], state), 0, jax.random.key(1))
    assert with_key.observation.shape == (env.observation_size,)


def _where(over: np.ndarray, new: object, old: object) -> np.ndarray:
    """``new`` where ``over`` (one flag a game, the batch first), else ``old``."""
    return np.where(over.reshape((-1,) + (1,) * (np.ndim(old) - 1)), new, old)


def test_one_game_a_batch_and_a_batch_of_batches_agree() -> None:
    env = SorryJax("classic", 4)
    seeds = jnp.arange(6, dtype=jnp.uint32)
    state = jax.jit(jax.vmap(env.init_seed))(seeds)
    grid = jax.jit(jax.vmap(jax.vmap(env.init_seed)))(seeds.reshape(2, 3))
    one = jax.jit(env.init_seed)(seeds[4])
    actions = jnp.argmax(state.legal_action_mask, axis=1).astype(jnp.int32)
    after = jax.jit(jax.vmap(env.step))(state, actions)
    after_grid = jax.jit(jax.vmap(jax.vmap(env.step)))(grid, actions.reshape(2, 3))
    after_one = jax.jit(env.step)(one, actions[4])
    passed = jax.jit(jax.vmap(env.step, in_axes=(0, None)))(state, 0)  # one action for every game
    for many, nested, alone, same in zip(
        jax.tree_util.tree_leaves(after),
        jax.tree_util.tree_leaves(after_grid),
        jax.tree_util.tree_leaves(after_one),
        jax.tree_util.tree_leaves(passed),
        strict=True,
    ):
        assert np.array_equal(np.asarray(nested).reshape(np.shape(many)), many)
        assert np.array_equal(alone, np.asarray(many)[4])
        assert np.shape(same) == np.shape(many)


@pytest.mark.parametrize(
    ("rules", "players", "said"),
    [
        ("partners(partner_split=any)", 4, "partner_split=two"),
        ("modern(partners=true)", 4, "Fire and Ice are not played with partners"),
        ("classic", 5, "2, 3 or 4 players"),
    ],
)
def test_rules_the_batch_engine_does_not_play_are_refused_with_a_message(rules: str, players: int, said: str) -> None:
    with pytest.raises(InvalidError, match=said):
        SorryJax(rules, players)
