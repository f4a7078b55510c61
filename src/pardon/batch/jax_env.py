"""A pure-JAX environment for one game of Sorry!, shaped as pgx's: ``init(key)`` and
``step(state, action)``, both jit- and vmap-able, the state carrying ``current_player``,
``observation``, ``legal_action_mask``, ``rewards`` and ``terminated``
(``pip install 'pardon[jax]'``; with a GPU build of JAX it runs on the GPU).

It is the batch engine (:mod:`pardon.batch.engine`) for one game, unchanged: a game is the
engine's :class:`~pardon.batch.engine.Games` without its batch axis.  So a game of this
environment is the NumPy engine's game of the same seed, action for action
(tests/batch/test_jax_env.py).  Observations and actions are those of docs/batch.md: 1,098
numbers seen from the player to decide, 141 actions (with hands of five 1,551, the observation
showing the mover's hand; with partners 474; with Fire and Ice 1,107 and 33 more numbers;
with doubling 4 more, and 10 more numbers, ``current_player`` being the player answering a
double while one is answered).  Every edition the batch engine plays is played here; where
NumPy makes only the moves a game needs (the partners' splits, Fire and Ice's candidates), JAX
makes them all in every game and keeps each game's.

    import jax
    from pardon.batch.jax_env import SorryJax

    env = SorryJax("classic", players=4)
    init, step = jax.jit(jax.vmap(env.init)), jax.jit(jax.vmap(env.step), donate_argnums=0)
    state = init(jax.random.split(jax.random.key(0), 1024))
    keys = jax.random.split(jax.random.key(1), 1024)
    action = jax.vmap(lambda key, mask: jax.random.choice(key, mask.size, p=mask / mask.sum()))(
        keys, state.legal_action_mask)
    state = step(state, action)

The rewards are those of a two-sided zero-sum game for each player: +1 to the winner, -1 to
every other player, at the step that ends the game, else 0; a step of a finished game
changes nothing.  The next card is drawn within the step, from the game's own seeded pack
(the engine's random streams), so the key given to ``init`` decides the whole game but for
the players' actions.  :meth:`SorryJax.step_auto_reset` is ``step`` with pgx's auto-reset: a
game that ends is replaced by a new one within the step.  JAX is imported when the
environment is made, never on import.

How it runs.  Each function is a ``jax.custom_batching.custom_vmap``: under ``jax.vmap`` the
whole batch goes to the engine's functions as they are written for it (the games on the last
axis), not game by game; one game alone is a batch of one.  A step brings the observation it
is given up to date (a scatter of the few entries that changed: the pawns that moved, the
card, the pack) rather than building it anew, so a state's ``observation`` must be the one
``init`` or a step made for that game, as every state these functions make is; in a loop
(``lax.fori_loop``, ``lax.scan``) or with the state donated (``donate_argnums``) XLA writes it
where it lies.  At 65,536 games on one CPU core, a step vmapped game by game, every
observation built anew (filling 1,098 numbers a game takes longer than the rest of a step)
and pgx's auto-reset (a fresh state for every game at every step) each cost several times
what they cost now (benchmarks/jax_env.py, docs/batch.md: "A pure-JAX environment").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from pardon.batch.actions import ACTIONS
from pardon.batch.config import splits_any
from pardon.batch.engine import Config, Games, decider, legal_lanes, new_games, step
from pardon.batch.observe import FEATURES, entries, features, observe, observe_from, write
from pardon.core.errors import InvalidError

__all__ = ["SorryJax", "State"]


class State(NamedTuple):
    """One game and what an agent sees of it (every field a JAX array; vmapped, each gains a
    leading batch axis)."""

    games: Games  # the engine's game, without a batch axis
    current_player: Any  # int32: the seat to decide (0 = the seat that is colour config.seats[0])
    observation: Any  # (1098,) float32 (features(config)): the position seen from the player to decide
    legal_action_mask: Any  # (141,) bool (config.actions): the legal actions
    rewards: Any  # (players,) float32: +1 the winner, -1 the others, at the step that ends the game
    terminated: Any  # bool: somebody has won (with step_auto_reset: at the step that ended a game)
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
        if splits_any(self.config.rules):
            raise InvalidError(
                "the JAX environment plays the partners' split 7 between two pawns (partner_split=two): "
                "among any team pawns it is made part by part by NumPy's search (pardon.batch.split_any)"
            )
        self.num_players = self.config.players
        self.num_actions = self.config.actions  # 141; hands 1,551; partners 474; Fire and Ice 1,107; doubling +4
        self.observation_size = features(self.config)  # 1,098, with doubling 1,108, with Fire and Ice 1,131
        self._init = _batched(self._init_batch)
        self._step = _batched(self._step_batch)

    def init(self, key: Any) -> State:
        """A new game whose seed is drawn from ``key``: its Leader drawn for, its first card turned up."""
        import jax
        import jax.numpy as jnp

        return self.init_seed(jax.random.bits(key, (), jnp.uint32))

    def init_seed(self, seed: Any) -> State:
        """A new game of ``seed`` (a uint32): the NumPy engine's game of the same seed."""
        import jax.numpy as jnp

        state: State = self._init(jnp.asarray(seed, dtype=jnp.uint32))
        return state

    def step(self, state: State, action: Any) -> State:
        """``action`` played (trusted to be legal: one of ``legal_action_mask``), then the next
        card turned up; a finished game stays as it is."""
        import jax.numpy as jnp

        stepped: State = self._step(state, jnp.asarray(action, dtype=jnp.int32), None)
        return stepped

    def step_auto_reset(self, state: State, action: Any, key: Any) -> State:
        """:meth:`step`, then a game that has just ended replaced by the new game of ``key``
        (a JAX random key as :meth:`init` takes, or a uint32 seed as :meth:`init_seed` takes;
        unused unless the game ended), as pgx's ``auto_reset`` does it: the state returned is
        the new game's (``step_count`` 0), with the ended game's ``rewards`` and
        ``terminated`` set.  The same as ``pgx.experimental.auto_reset(env.step, env.init)``,
        without building a whole new state for every game at every step."""
        import jax.numpy as jnp

        stepped: State = self._step(state, jnp.asarray(action, dtype=jnp.int32), _seed_of(key))
        return stepped

    def _init_batch(self, seeds: Any) -> State:
        """``init_seed`` of a batch of seeds (the batch on the first axis)."""
        import jax.numpy as jnp

        games = new_games(self.config, seeds)
        count = seeds.shape[0]
        rewards = jnp.zeros((count, self.num_players), dtype=jnp.float32)
        return self._state(games, rewards, games.winner >= 0, jnp.zeros(count, dtype=jnp.int32))

    def _step_batch(self, state: State, actions: Any, seeds: Any) -> State:
        """``step`` of a batch (on the first axis; the engine's games on the last), and with
        ``seeds`` the ended games replaced."""
        import jax.numpy as jnp

        games = Games(*(jnp.moveaxis(field, 0, -1) for field in state.games))
        over = games.winner >= 0  # (not state.terminated: after an auto-reset, a new game)
        after, _ = step(self.config, games, actions)
        after = Games(*(jnp.where(over, old, new) for new, old in zip(after, games, strict=True)))
        ended = (after.winner >= 0) & ~over
        seats = jnp.arange(self.num_players, dtype=jnp.int8)[:, None]
        rewards = jnp.where(ended, jnp.where(seats == after.winner, 1.0, -1.0), 0.0).T.astype(jnp.float32)
        count = state.step_count + (~over).astype(jnp.int32)
        seen = (games, state.observation)
        if seeds is None:
            return self._state(after, rewards, after.winner >= 0, count, seen)
        fresh = new_games(self.config, seeds)
        after = Games(*(jnp.where(ended, new, old) for new, old in zip(fresh, after, strict=True)))
        return self._state(after, rewards, ended | (after.winner >= 0), jnp.where(ended, 0, count), seen)

    def _state(
        self, games: Games, rewards: Any, terminated: Any, count: Any, seen: tuple[Games, Any] | None = None
    ) -> State:
        """The state of a batch of games (on their last axis), every field's batch first;
        ``seen``: the games before and their observations, to be brought up to date."""
        import jax.numpy as jnp

        going = games.winner < 0
        legal = _whole(legal_lanes(self.config, games) & going, games.drawn)
        return State(
            games=Games(*(jnp.moveaxis(field, -1, 0) for field in games)),
            current_player=decider(self.config, games).astype(jnp.int32),
            observation=self._observation(games, seen),
            legal_action_mask=legal.T,
            rewards=rewards,
            terminated=terminated,
            truncated=jnp.zeros(terminated.shape, dtype=bool),
            step_count=count,
        )

    def _observation(self, games: Games, seen: tuple[Games, Any] | None) -> Any:
        """The observations of ``games``: brought up to date from those ``seen`` (a scatter of
        what changed), or built anew for new games, with hands of five (the hand and the
        cards not seen change whole at every card played), with doubling (the stage of
        the turn and the stake change at every decision) and with Fire and Ice (the tokens
        and the stage of the turn)."""
        if self.config.rules.doubling:
            return observe_from(self.config, games, decider(self.config, games))  # an answer: the answerer's view
        if seen is None or self.config.rules.hand or self.config.rules.tokens:
            return observe(self.config, games)
        return _updated(self.config, seen[0], seen[1], games)


def _updated(config: Config, before: Games, seen: Any, games: Games) -> Any:
    """The observations ``seen`` of the games ``before`` brought up to date with ``games``
    (both with the batch on their last axis), by one scatter: the ones of ``before`` cleared
    and those of ``games`` set, the pack's numbers written.  A one of ``before`` that
    ``games`` keeps is left alone: each of :func:`~pardon.batch.observe.entries`' columns
    lies in its own part of the observation (a pawn slot's, the card's), so only the same
    entry of the two can share a column."""
    import jax.numpy as jnp

    old, _ = entries(config, before)
    new, pack = entries(config, games)
    return write(seen, jnp.where(old == new, FEATURES, old), new, pack)


def _whole(array: Any, opaque: Any) -> Any:
    """``array`` worked out whole before it is used (``opaque``: any int32 array of the
    batch that is never negative): the result of a conditional, which XLA cannot fuse into
    what reads it.  Fused into the transpose that puts the batch first, the legal lanes were
    worked out entry by entry in the transpose's order, three to four times as long as
    worked out whole and then transposed.  (The condition always holds, but only the data
    can say so.)"""
    import jax
    import jax.numpy as jnp

    return jax.lax.cond(opaque.reshape(-1)[0] >= 0, lambda: array, lambda: jnp.zeros_like(array))


def _seed_of(key: Any) -> Any:
    """A game's seed: a whole number (a seed) as a uint32, else drawn from a JAX random key
    (a typed key, or a raw ``uint32[2]`` one)."""
    import jax
    import jax.numpy as jnp

    given = jnp.asarray(key)
    if jnp.issubdtype(given.dtype, jnp.integer) and given.ndim == 0:
        return given.astype(jnp.uint32)
    return jax.random.bits(key, (), jnp.uint32)


def _batched(batch: Callable[..., Any]) -> Callable[..., Any]:
    """``batch`` (a function of batches on their first axis) as a function of one game,
    whose ``vmap`` is ``batch`` itself: one game is a batch of one, and a batch is handed
    over whole (an argument not mapped broadcast to the batch; None stays None).  Vmapped
    twice, the outer ``vmap`` maps the inner batch's function as any other."""
    import jax
    import jax.numpy as jnp
    from jax.custom_batching import custom_vmap

    @custom_vmap  # type: ignore[untyped-decorator, unused-ignore]
    def one(*args: Any) -> Any:
        alone = batch(*jax.tree_util.tree_map(lambda arg: arg[None], args))
        return jax.tree_util.tree_map(lambda field: field[0], alone)

    @one.def_vmap  # type: ignore[untyped-decorator, unused-ignore]
    def many(size: int, mapped: Any, *args: Any) -> tuple[Any, Any]:
        spread = jax.tree_util.tree_map(
            lambda arg, axis: arg if axis else jnp.broadcast_to(arg, (size, *jnp.shape(arg))), args, tuple(mapped)
        )
        out = batch(*spread)
        return out, jax.tree_util.tree_map(lambda _: True, out)

    return one  # type: ignore[no-any-return, unused-ignore]
