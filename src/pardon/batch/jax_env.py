"""A pure-JAX environment for one game of Sorry!, shaped as pgx's: ``init(key)`` and
``step(state, action)``, both jit- and vmap-able, the state carrying ``current_player``,
``observation``, ``legal_action_mask``, ``rewards`` and ``terminated``
(``pip install 'pardon[jax]'``; with a GPU build of JAX it runs on the GPU).

It is the batch engine (:mod:`pardon.batch.engine`) for one game, unchanged: a game is the
engine's :class:`~pardon.batch.engine.Games` without its batch axis, and ``vmap`` makes the
batch again.  So a game of this environment is the NumPy engine's game of the same seed,
action for action (tests/batch/test_jax_env.py).  Observations and actions are those of
docs/batch.md: 1,098 numbers seen from the player to move, 141 actions.

    import jax
    from pardon.batch.jax_env import SorryJax

    env = SorryJax("classic", players=4)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step))
    state = init(jax.random.split(jax.random.key(0), 1024))
    keys = jax.random.split(jax.random.key(1), 1024)
    action = jax.vmap(lambda key, mask: jax.random.choice(key, mask.size, p=mask / mask.sum()))(
        keys, state.legal_action_mask)
    state = step(state, action)

The rewards are those of a two-sided zero-sum game for each player: +1 to the winner, -1 to
every other player, at the step that ends the game, else 0; a step of a finished game
changes nothing.  The next card is drawn within the step, from the game's own seeded pack
(the engine's random streams), so the key given to ``init`` decides the whole game but for
the players' actions.  JAX is imported when the environment is made, never on import.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pardon.batch.actions import ACTIONS
from pardon.batch.config import batch_of_one
from pardon.batch.engine import Config, Games, legal_lanes, new_games, step
from pardon.batch.observe import FEATURES, observe

__all__ = ["SorryJax", "State"]


class State(NamedTuple):
    """One game and what an agent sees of it (every field a JAX array; vmapped, each gains a
    leading batch axis)."""

    games: Games  # the engine's game, without a batch axis
    current_player: Any  # int32: the seat to move (0 = the seat that is colour config.seats[0])
    observation: Any  # (1098,) float32: the position seen from the player to move
    legal_action_mask: Any  # (141,) bool: the legal actions (none once the game is over)
    rewards: Any  # (players,) float32: +1 the winner, -1 the others, at the step that ends the game
    terminated: Any  # bool: somebody has won
    truncated: Any  # bool: always False (a game of Sorry! always ends)
    step_count: Any  # int32: actions played


class SorryJax:
    """``init(key) -> State`` and ``step(state, action) -> State`` for ``rules`` between
    ``players`` (any rules the batch engine plays; 2 players unless told, 1 for the solo challenge)."""

    num_actions = ACTIONS
    observation_size = FEATURES

    def __init__(self, rules: str = "classic", players: int | None = None) -> None:
        import jax  # noqa: F401  # a clear ImportError now, not at the first call

        self.config = Config.parse(rules, players)
        self.num_players = self.config.players

    def init(self, key: Any) -> State:
        """A new game whose seed is drawn from ``key``: its Leader drawn for, its first card turned up."""
        import jax
        import jax.numpy as jnp

        return self.init_seed(jax.random.bits(key, (), jnp.uint32))

    def init_seed(self, seed: Any) -> State:
        """A new game of ``seed`` (a uint32): the NumPy engine's game of the same seed."""
        import jax.numpy as jnp

        games = _one(new_games(self.config, jnp.reshape(jnp.asarray(seed, dtype=jnp.uint32), (1,))))
        return self._state(games, jnp.zeros(self.num_players, dtype=jnp.float32), jnp.int32(0))

    def step(self, state: State, action: Any) -> State:
        """``action`` played (trusted to be legal: one of ``legal_action_mask``), then the next
        card turned up; a finished game stays as it is."""
        import jax
        import jax.numpy as jnp

        after, _ = step(self.config, batch_of_one(state.games), jnp.reshape(jnp.asarray(action, dtype=jnp.int32), (1,)))
        games = jax.tree_util.tree_map(lambda new, old: jnp.where(state.terminated, old, new), _one(after), state.games)
        ended = (games.winner >= 0) & ~state.terminated
        seats = jnp.arange(self.num_players, dtype=jnp.int8)
        rewards = jnp.where(ended, jnp.where(seats == games.winner, 1.0, -1.0), 0.0).astype(jnp.float32)
        count = state.step_count + jnp.where(state.terminated, 0, 1).astype(jnp.int32)
        return self._state(games, rewards, count)

    def _state(self, games: Games, rewards: Any, count: Any) -> State:
        import jax.numpy as jnp

        terminated = games.winner >= 0
        legal = legal_lanes(self.config, batch_of_one(games))[:, 0]
        return State(
            games=games,
            current_player=games.turn.astype(jnp.int32),
            observation=observe(self.config, games),
            legal_action_mask=legal & ~terminated,
            rewards=rewards,
            terminated=terminated,
            truncated=jnp.bool_(False),
            step_count=count,
        )


def _one(games: Games) -> Games:
    """The only game of a batch of one, without its batch axis."""
    return Games(*(field[..., 0] for field in games))
