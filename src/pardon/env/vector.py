"""A vectorised Gymnasium environment over :mod:`pardon.batch`: ``num_envs`` games at
once, the learner playing one seat of each against the batch's computer players (or
every seat, ``opponent="self"``).

Observations are dicts of ``observation`` (``(num_envs, 1098)`` float32 planes from the
player to decide: the player to move, or with doubling the one answering a double,
:mod:`pardon.batch.observe`) and ``action_mask`` (``(num_envs, 141)``
int8, :mod:`pardon.batch.actions`): by default every legal action (``mask="legal"``),
or with ``mask="distinct"`` one action for each distinct move, the lowest of those that
make it (:func:`pardon.batch.engine.distinct_lanes`).  A step plays each game's action, then the other
seats' turns, until each game is at the learner's next decision or over.  The reward is
+1 for a game the learner won (with partners, its team) and -1 for one it lost (with ``opponent="self"``: for the
player whose step it was, who can lose only to a forced move played by ``skip_forced``).
A finished game is replaced at once by a new one (``autoreset_mode`` SAME_STEP):
``info`` follows Gymnasium's vector convention: ``info["final_obs"]`` holds, for each
game, the last observation of one that finished (seen from the learner's seat) or None,
``info["final_info"]["winner"]`` its winning seat, each with its mask under ``"_" + key``
(``info["_final_obs"]`` says which games finished).  Seeds are whole numbers from 0 to
2**32 - 1; any other is refused (``InvalidError``), not wrapped round onto another game's.
``reset`` reads no options.  Registered as ``gymnasium.make_vec("pardon/SorryVector-v0", num_envs)``.

>>> env = SorryVectorEnv(4, seed=1)
>>> observation, info = env.reset(seed=1)
>>> observation["observation"].shape, observation["action_mask"].shape
((4, 1098), (4, 141))
>>> import numpy as np
>>> actions = np.array([np.flatnonzero(mask)[0] for mask in observation["action_mask"]])
>>> observation, reward, terminated, truncated, info = env.step(actions)
>>> reward.tolist(), terminated.tolist()
([0.0, 0.0, 0.0, 0.0], [False, False, False, False])
"""

from __future__ import annotations

import reprlib
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import logger, spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from pardon.batch.actions import ACTIONS
from pardon.batch.backend import Array
from pardon.batch.config import LEFT, on_winning_side
from pardon.batch.config import games_at as take
from pardon.batch.convert import put_games as put
from pardon.batch.doubling import decider
from pardon.batch.engine import SEEDS, Config, Games, distinct_lanes, draw, legal_lanes, new_games, play
from pardon.batch.observe import FEATURES, features, observe, observe_from
from pardon.batch.players import check_players, choose
from pardon.batch.split_any import in_split
from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import card_name
from pardon.core.errors import IllegalError, InvalidError, whole_number
from pardon.core.rules import parse_rules
from pardon.core.state import Position

OPPONENTS = ("random", "greedy", "self")

#: What an ``action_mask`` offers: every legal action, or one action for each distinct move.
MASKS = ("legal", "distinct")


def observation_space(actions: int = ACTIONS, size: int = FEATURES) -> spaces.Dict:
    """One game's observation: the planes (``size`` numbers: ``features(config)``) and the
    mask of legal actions (``actions`` of them: ``config.actions``)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(0.0, 1.0, (size,), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), dtype=np.int8),
        }
    )


def game_config(rules: str, players: int) -> Config:
    """The batch config of an environment's games: any rules the batch engine plays but the
    solo challenge, which has no one to win against (its score is the cards drawn, not a win)."""
    config = Config(parse_rules(rules), players)
    if config.rules.solo:
        raise InvalidError(
            "the environments are games won or lost against other players; the solo challenge "
            "(one player, scored by the cards drawn) is played by pardon.batch and pardon sim"
        )
    return config


def seen_by(position: Position, colour: int) -> Position:
    """``position`` as the player of ``colour`` sees it: with hands of five, the other hands hidden."""
    if not position.hands:
        return position
    return position.with_extras(hands=tuple(hand if seat == colour else () for seat, hand in enumerate(position.hands)))


def to_play(config: Config, games: Games, position: Position) -> str:
    """What the player to move of game 0 plays, as a render says it: "to play a 7" (in a split
    7 made part by part "to move the 3 left of a split 7, part by part"), or
    with hands of five "to play from 2, 5, 7, 11, Sorry!"; with doubling before the draw
    "to go on or double", and "to answer Red's double" by the player answering it."""
    if config.rules.doubling:
        from pardon.batch.config import ANSWERING, BEFORE_DRAW, STAGE

        stage = int(games.extras[STAGE, 0])
        if stage == BEFORE_DRAW:
            return "to go on to the draw or double"
        if stage == ANSWERING:
            return f"to answer {COLOUR_NAMES[position.turn].capitalize()}'s double"
    if config.rules.hand:
        return f"to play from {', '.join(card_name(card) for card in position.hands[position.turn])}"
    if in_split(config, games):
        left = int(games.extras[LEFT, 0])
        return f"to move the {left} left of a split 7, part by part"
    return f"to play a {card_name(int(games.card[0]))}"


def mask_kind(mask: Any) -> str:
    """The ``mask`` option, checked: ``"legal"`` (every legal action) or ``"distinct"`` (one
    action for each distinct move); InvalidError (a ValueError) naming the choices if not."""
    if not isinstance(mask, str) or mask not in MASKS:
        raise InvalidError(
            f"mask is 'legal' (every legal action) or 'distinct' (one action for each distinct move), "
            f"not {reprlib.repr(mask)}"
        )
    return mask


def offered(config: Config, games: Games, lanes: Array, mask: str) -> Array:
    """The lanes an ``action_mask`` offers: ``lanes`` (the legal ones) for ``"legal"``, or for
    ``"distinct"`` the lowest of the legal lanes that make each distinct move (a subset)."""
    return distinct_lanes(config, games, lanes) if mask == "distinct" else lanes


def seed_number(seed: Any) -> int:
    """A game seed as the batch engine takes it: a whole number from 0 to 2**32 - 1 (an int
    or a NumPy integer); InvalidError if not (a bool, a float or text would name another
    game, and so would -1 or 2**32, wrapped round to 32 bits)."""
    number = whole_number(seed, "the seed")
    if not 0 <= number < SEEDS:
        raise InvalidError(f"the seed must be a whole number from 0 to {SEEDS - 1}, not {number}")
    return number


def seat_number(seat: Any, players: int) -> int:
    """The learner's seat as a plain int (a NumPy integer too): 0 to ``players - 1``;
    InvalidError if not (a bool, a float or text would name another seat)."""
    number = whole_number(seat, "seat")
    if not 0 <= number < players:
        raise InvalidError(f"seat {number} is not one of the {players} seats")
    return number


def flag(value: Any, what: str) -> bool:
    """``value`` if it is a bool; InvalidError if not (the text "no" would turn it on)."""
    if not isinstance(value, bool | np.bool_):
        raise InvalidError(f"{what} is true or false, not {reprlib.repr(value)}")
    return bool(value)


def shown(text: Callable[[], str], render_mode: str | None) -> str | None:
    """What ``render()`` gives, as Gymnasium's and PettingZoo's render modes say: the text
    (``"ansi"``); in ``"human"`` mode the text printed and None; with no render mode None
    and their usual warning."""
    if render_mode is None:
        logger.warn(
            "You are calling render method without specifying any render mode: make the environment "
            "with render_mode='ansi' for the board as text, or 'human' to print it"
        )
        return None
    if render_mode == "human":
        print(text())
        return None
    return text()


#: What to do instead of a reset option.
NO_OPTIONS = "the rules, players and opponents are set when the environment is made (make another for others)"


def read_no_options(options: dict[str, Any] | None, environment: str) -> None:
    """InvalidError for reset options (``{}`` and None are none): none is read, and one
    such as ``{"rules": ...}`` would otherwise be ignored without a word."""
    if options:
        raise InvalidError(f"{environment}.reset reads no options, not {reprlib.repr(options)}: {NO_OPTIONS}")


def ignore_options(options: dict[str, Any] | None, environment: str) -> None:
    """A warning for reset options: none is read, but PettingZoo's own api_test passes one."""
    if options:
        warnings.warn(
            f"{environment}.reset reads no options; {reprlib.repr(options)} ignored: {NO_OPTIONS}", stacklevel=3
        )


def action_number(action: Any, actions: int = ACTIONS) -> int:
    """One action as a plain int: an int or a NumPy integer (a 0-d or one-element array
    too), never a float cut down to another action, a bool or text; InvalidError if not."""
    value = np.asarray(action)
    if value.size == 1 and value.dtype.kind in "iu":
        return int(value.reshape(()))
    raise InvalidError(f"an action is a whole number from 0 to {actions - 1}, not {action!r}")


def action_numbers(actions: Any, count: int, numbered: int = ACTIONS) -> Array:
    """``count`` actions, one per game, as int64; InvalidError unless they are whole numbers."""
    value = np.asarray(actions)
    if value.dtype.kind not in "iu" or value.size != count:
        raise InvalidError(
            f"step takes {count} whole numbers from 0 to {numbered - 1}, one action per game, not {actions!r}"
        )
    return value.astype(np.int64).reshape(count)


class SorryVectorEnv(VectorEnv):
    """``num_envs`` games of ``rules`` between ``players``; the learner plays ``seat`` (the
    seat that moves first is drawn for, so the learner sometimes leads, sometimes not).

    ``mask="distinct"`` makes each ``action_mask`` offer one action for each distinct move
    (a subset of the legal actions; ``"legal"``, the default, offers them all).  A legal
    action outside it is still played (it makes the same move as one inside).  With
    ``skip_forced``, a decision is forced when its mask offers one action."""

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        num_envs: int,
        rules: str = "classic",
        players: int = 2,
        opponent: str = "random",
        seat: int = 0,
        skip_forced: bool = False,
        seed: int | None = None,
        mask: str = "legal",
    ) -> None:
        num_envs = whole_number(num_envs, "num_envs")
        if num_envs < 1:
            raise InvalidError("a vectorised environment has at least one game")
        if opponent not in OPPONENTS:
            raise InvalidError(f"unknown opponent {opponent!r}: choose {', '.join(OPPONENTS)}")
        if opponent != "self":
            check_players([opponent])
        self.config = game_config(rules, players)
        seat = seat_number(seat, self.config.players)
        self.num_envs = num_envs
        self.opponent, self.seat, self.skip_forced = opponent, seat, flag(skip_forced, "skip_forced")
        self.mask = mask_kind(mask)
        self.single_observation_space = observation_space(self.config.actions, features(self.config))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.single_action_space = spaces.Discrete(self.config.actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, self.config.actions))
        self._next_seed = 0 if seed is None else seed_number(seed)
        self.games = self._new(num_envs)
        self._update_lanes()

    # --- the games ------------------------------------------------------------------------

    def _update_lanes(self) -> None:
        """The games' legal lanes (what a step accepts) and the lanes their masks offer."""
        self.lanes = legal_lanes(self.config, self.games)
        self.offered = offered(self.config, self.games, self.lanes, self.mask)

    def _new(self, count: int) -> Games:
        seeds = (np.arange(count, dtype=np.uint64) + np.uint64(self._next_seed)) % np.uint64(2**32)
        self._next_seed = (self._next_seed + count) % 2**32
        return self._to_learner(new_games(self.config, seeds.astype(np.uint32)))

    def _waiting(self, games: Games, lanes: Array) -> Array:
        """The games where somebody other than the learner decides next (an opponent, or a
        forced move when those are skipped: one offered lane in ``lanes``)."""
        waiting = np.zeros(games.card.shape, dtype=bool)
        if self.opponent != "self":
            waiting |= decider(self.config, games) != self.seat
        if self.skip_forced:
            waiting |= lanes.sum(axis=0) == 1
        return waiting & (games.winner < 0)

    def _to_learner(self, games: Games) -> Games:
        """Play the other seats' turns (and forced moves) until each game is at the
        learner's decision or over."""
        players = [self.opponent] * self.config.players
        while True:
            lanes = legal_lanes(self.config, games)
            if self.skip_forced:  # a decision is forced when its mask offers one action
                lanes = offered(self.config, games, lanes, self.mask)
            rows = np.flatnonzero(self._waiting(games, lanes))
            if not rows.size:
                return games
            part = take(games, rows)
            if self.opponent == "self":
                actions = np.argmax(lanes[:, rows], axis=0)  # forced: the only legal lane
            else:
                actions = choose(self.config, part, players)
                forced = (lanes[:, rows].sum(axis=0) == 1) & (part.turn == self.seat)
                actions = np.where(forced, np.argmax(lanes[:, rows], axis=0), actions)
            played, _ = play(self.config, part, actions)
            games = put(games, rows, draw(self.config, played))

    def _observation(self) -> dict[str, Array]:
        return {
            # from the seat deciding: the player answering a double sees the board as its own
            "observation": observe_from(self.config, self.games, decider(self.config, self.games)),
            "action_mask": self.offered.T.astype(np.int8),
        }

    # --- the Gymnasium interface ----------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        read_no_options(options, "SorryVectorEnv")
        if seed is not None:
            self._next_seed = seed_number(seed)
        self.games = self._new(self.num_envs)
        self._update_lanes()
        return self._observation(), {}

    def step(self, actions: Any) -> tuple[Any, Array, Array, Array, dict[str, Any]]:
        actions = action_numbers(actions, self.num_envs, self.config.actions)
        if ((actions < 0) | (actions >= self.config.actions)).any():
            raise InvalidError(f"actions are numbered 0 to {self.config.actions - 1}")
        legal = self.lanes[actions, np.arange(self.num_envs)] | (self.games.winner >= 0)
        if not legal.all():
            game = int(np.flatnonzero(~legal)[0])
            raise IllegalError(
                f"action {int(actions[game])} is not legal in game {game}: "
                f"legal are {np.flatnonzero(self.lanes[:, game]).tolist()}"
            )
        mover = decider(self.config, self.games)  # the player deciding: the mover, or one answering a double
        played, _ = play(self.config, self.games, actions.astype(np.int32))
        games = self._to_learner(draw(self.config, played))
        over = games.winner >= 0
        # with "self", seen by the player whose step it was: a forced move played for the
        # next player (skip_forced) may win the game for that one
        learner = mover if self.opponent == "self" else self.seat
        rewards = np.where(over, np.where(on_winning_side(self.config, learner, games.winner), 1.0, -1.0), 0.0)
        infos: dict[str, Any] = {}
        self.games = games
        if over.any():
            rows = np.flatnonzero(over)
            # seen by the learner (with "self": by the player whose step it was), not by the
            # winner, who stays the player to move of a finished game
            seats = mover[rows] if self.opponent == "self" else np.full(len(rows), self.seat)
            infos = self._final_infos(over, observe_from(self.config, take(games, rows), seats), games.winner[rows])
            self.games = put(games, rows, self._new(len(rows)))
        self._update_lanes()
        return self._observation(), rewards, over, np.zeros(self.num_envs, dtype=bool), infos

    def _final_infos(self, finished: np.ndarray, seen: np.ndarray, winners: np.ndarray) -> dict[str, Any]:
        """Gymnasium's ``info`` of the games ``finished`` and reset in the same step (``seen``,
        ``winners``: a row each): ``final_obs``, one entry a game (the last observation of a
        finished one, else None), ``final_info`` with its ``winner`` (-1 where none), each with
        its mask under ``_`` + key."""
        rows = np.flatnonzero(finished)
        final = np.full(self.num_envs, None, dtype=object)
        for row, observation in zip(rows, seen, strict=True):
            # nobody is to play a finished game: its mask is empty
            final[row] = {"observation": observation, "action_mask": np.zeros(self.config.actions, dtype=np.int8)}
        winner = np.full(self.num_envs, -1, dtype=np.int64)
        winner[rows] = winners
        return {
            "final_obs": final,
            "_final_obs": finished.copy(),
            "final_info": {"winner": winner, "_winner": finished.copy()},
            "_final_info": finished.copy(),
        }

    def afterstates(self) -> tuple[Array, Array, Array]:
        """Every action the mask offers in every game (every legal action, or with
        ``mask="distinct"`` one for each distinct move) with the position it leads to, before
        the turn passes, as seen by the player who moves: ``(game, action, observation)``
        arrays (for agents that judge a move by the position it makes)."""
        rows, actions = np.nonzero(self.offered.T)
        after, _ = play(self.config, take(self.games, rows), actions.astype(np.int32), advance=False)
        return rows, actions, observe(self.config, after)
