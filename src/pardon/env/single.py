"""Sorry! as a single-agent Gymnasium environment: the agent plays one seat, pardon's
own computer players (:mod:`pardon.bots`, any level) play the others.

Observations and actions are those of :mod:`pardon.env.vector` for one game: a dict of
``observation`` (1,098 planes) and ``action_mask`` (141 int8: every legal action, or with
``mask="distinct"`` one for each distinct move; ``config.actions`` of them: 1,551 with hands
of five, 474 with partners).  The reward is +1 when the agent wins (with partners, when its
team does) and -1 when another player does.  ``info`` holds the position as JSON
(docs/json.md) and the card to play.  An action the mask does not allow is refused
(``IllegalError``, nothing changes), or with ``illegal="lose"`` ends the game as a loss
(reward -1, ``info["illegal"]``), for learners that sample without the mask; a legal
action outside a ``mask="distinct"`` mask is played (it makes the move of one inside).
``reset(seed=s)`` deals batch game ``s``, as the other environments do; ``reset`` reads no
options.  Registered as ``gymnasium.make("pardon/Sorry-v0")``.

>>> environment = SorryEnv(opponents="greedy")
>>> observation, info = environment.reset(seed=5)
>>> observation["action_mask"].sum() >= 1, info["card"] is not None
(np.True_, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from pardon.batch.config import on_winning_side
from pardon.batch.convert import action_of, core_position, core_state
from pardon.batch.engine import decider, legal_lanes, new_games, step
from pardon.batch.hands import describe_move
from pardon.batch.observe import features, observe
from pardon.batch.split_any import in_split
from pardon.bots import Bot, make_bot
from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import card_name
from pardon.core.errors import IllegalError, InvalidError
from pardon.core.jsonio import position_to_json
from pardon.core.moves import Move
from pardon.core.turn import legal_moves, observe_state
from pardon.env.vector import (
    action_number,
    game_config,
    mask_kind,
    observation_space,
    offered,
    read_no_options,
    seat_number,
    seed_number,
    seen_by,
    shown,
    to_play,
)
from pardon.textboard import render

#: Decisions after which a game is cut short (truncated); no real game comes near.
DECISION_LIMIT = 5000


class ResetNeededError(IllegalError, gymnasium.error.ResetNeeded):
    """A step before the first ``reset()``: an IllegalError, and Gymnasium's ResetNeeded
    (what its OrderEnforcing wrapper raises for it)."""


class SorryEnv(gymnasium.Env):
    """The agent plays ``seat`` of a game of ``rules`` between ``players``; ``opponents``
    names the computer player of every other seat (one level for all, or one per seat in
    seat order, the agent's own seat left out).  ``mask="distinct"`` offers one action for
    each distinct move in ``action_mask`` (``"legal"``, the default: every legal action)."""

    # render_fps: Gymnasium's checker asks every renderer for one (its text games say 4)
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 4}  # noqa: RUF012 (Gymnasium declares it so)

    def __init__(
        self,
        rules: str = "classic",
        players: int = 2,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        render_mode: str | None = None,
        illegal: str = "refuse",
        mask: str = "legal",
    ) -> None:
        if illegal not in ("refuse", "lose"):
            raise InvalidError(
                f"illegal actions are refused or lose the game: illegal='refuse' or 'lose', not {illegal!r}"
            )
        self.illegal = illegal
        self.mask = mask_kind(mask)
        self.config = game_config(rules, players)
        players = self.config.players  # a plain int, from a NumPy integer too
        seat = seat_number(seat, players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise InvalidError(f"unknown render mode {render_mode!r}: choose ansi or human")
        if not isinstance(opponents, str) and not (
            isinstance(opponents, Sequence) and all(isinstance(name, str) for name in opponents)
        ):
            raise InvalidError(f"opponents names a computer player, or a list of them, not {opponents!r}")
        names = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(names) != players - 1:
            raise InvalidError(f"name {players - 1} computer players, one for each other seat, not {len(names)}")
        try:
            bots = [make_bot(name) for name in names]
        except ValueError as error:
            raise InvalidError(str(error)) from None
        self.bots: dict[int, Bot] = {}
        for other in range(players):
            if other != seat:
                self.bots[other] = bots[len(self.bots)]
        self.seat = seat
        self.render_mode = render_mode
        self.observation_space = observation_space(self.config.actions, features(self.config))
        self.action_space = spaces.Discrete(self.config.actions)
        self.decisions = 0
        self.forfeited = False
        self.games = new_games(self.config, np.zeros(1, dtype=np.uint32))
        self._update_lanes()
        self.chooser = random.Random(0)
        self.was_reset = False  # until reset() the other seats have not played: no game to step in

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict[str, Any]]:
        read_no_options(options, "SorryEnv")
        number = None if seed is None else seed_number(seed)
        super().reset(seed=number)
        # seed s deals batch game s, as the other environments do; without one, the game's
        # seed is drawn from the environment's generator (seeded by the last seed given)
        game_seed = int(self.np_random.integers(2**32)) if number is None else number
        self.chooser = random.Random(game_seed)  # the computer players' own choices
        self.games = new_games(self.config, np.array([game_seed], dtype=np.uint32))
        self.decisions = 0
        self.forfeited = False
        self.splitting: Move | None = None
        self._others_play()
        self.was_reset = True
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def _others_play(self) -> None:
        """The computer players' turns, until the agent is to play or the game is over."""
        rules = self.config.rules
        while int(self.games.winner[0]) < 0 and (seat := int(decider(self.config, self.games)[0])) != self.seat:
            state = core_state(self.config, self.games, 0)
            moves = legal_moves(rules, state)
            colour = self.config.seats[seat]
            bot = self.bots[seat]
            if self.splitting is not None:  # a split 7 made part by part: the move already chosen
                move = self.splitting
            else:
                move = (
                    moves[0]
                    if len(moves) == 1
                    else bot.choose(observe_state(rules, state, colour), moves, self.chooser)
                )
            action = action_of(self.config, self.games, 0, move)
            self.games, _ = step(self.config, self.games, np.array([action], dtype=np.int32))
            self.splitting = move if in_split(self.config, self.games) else None
        self._update_lanes()

    def _update_lanes(self) -> None:
        """The legal lanes (what a step accepts) and the lanes the mask offers."""
        self.lanes = legal_lanes(self.config, self.games)
        self.offered = offered(self.config, self.games, self.lanes, self.mask)

    def _observation(self) -> dict[str, Any]:
        # from the agent's seat: once the game is over the winner stays the player to move
        observer = (self.seat - int(self.games.turn[0])) % self.config.players
        return {
            "observation": observe(self.config, self.games, observer)[0],
            "action_mask": self.offered[:, 0].astype(np.int8),
        }

    def _info(self) -> dict[str, Any]:
        card = int(self.games.card[0])
        position = core_position(self.config, self.games, 0)
        shown = seen_by(position, self.config.seats[self.seat])  # the agent's own hand only
        return {"position": position_to_json(self.config.rules, shown), "card": card_name(card) if card else None}

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self.was_reset:
            raise ResetNeededError("call reset() first: there is no game to play yet")
        if int(self.games.winner[0]) >= 0 or self.forfeited:
            raise IllegalError("the game is over: reset the environment")
        action = action_number(action, self.config.actions)
        if not 0 <= action < self.config.actions or not self.lanes[action, 0]:
            legal = np.flatnonzero(self.lanes[:, 0]).tolist()
            if self.illegal == "lose":
                self.forfeited = True
                return self._observation(), -1.0, True, False, {**self._info(), "illegal": action}
            raise IllegalError(f"action {action} is not legal here: the legal actions are {legal}")
        self.games, _ = step(self.config, self.games, np.array([action], dtype=np.int32))
        self.decisions += 1
        self._others_play()
        winner = int(self.games.winner[0])
        reward = 0.0 if winner < 0 else 1.0 if on_winning_side(self.config, self.seat, winner) else -1.0
        if self.render_mode == "human":
            self.render()
        truncated = winner < 0 and self.decisions >= DECISION_LIMIT
        return self._observation(), reward, winner >= 0, truncated, self._info()

    def render(self) -> str | None:
        """The board as text, and the card and legal actions of the agent; in ``"human"``
        mode printed, returning None, and with no render mode None (as Gymnasium's render
        modes say)."""
        return shown(self._text, self.render_mode)

    def _text(self) -> str:
        position = core_position(self.config, self.games, 0, so_far=True)  # a split 7's parts made shown
        if position.winner is not None:
            return f"{render(position)}\n{COLOUR_NAMES[position.winner].capitalize()} has won."
        if self.forfeited:  # the game stopped at an illegal action: nobody is to play on
            agent = COLOUR_NAMES[self.config.seats[self.seat]].capitalize()
            return f"{render(position)}\n{agent} lost by an illegal action: reset the environment."
        moves = "; ".join(
            f"{action}: {describe_move(self.config, int(action))}" for action in np.flatnonzero(self.offered[:, 0])
        )
        player = COLOUR_NAMES[self.config.seats[int(decider(self.config, self.games)[0])]].capitalize()
        return f"{render(position)}\n{player} {to_play(self.config, self.games, position)}: {moves}"
