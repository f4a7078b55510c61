"""Sorry! as a PettingZoo AEC environment: one game, every seat an agent (named by its
colour), played by the batch engine (:mod:`pardon.batch`) with a batch of one.

Each agent's observation is a dict of ``observation`` (the 1,098 planes of
:mod:`pardon.batch.observe`, seen from that agent) and ``action_mask`` (141 int8, all
zeros unless the agent is to play; every legal action, or with ``mask="distinct"`` one
for each distinct move, a legal action outside it still accepted).  Actions are the batch's fixed encoding
(:mod:`pardon.batch.actions`).  The winner gets +1 and every other player -1 when the
game ends.  ``infos[agent]`` holds the position as JSON (docs/json.md) and the card to
play.  ``render()`` draws the board as text (``render_mode="ansi"``; printed with
``"human"``).  ``reset`` reads no options (any given is ignored, with a warning).

>>> game = SorryAECEnv()
>>> game.reset(seed=3)
>>> game.agent_selection, game.observe("red")["action_mask"].sum()
('yellow', np.int64(0))
>>> game.infos["red"]["card"]
'12'
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from pardon.batch.config import on_winning_side
from pardon.batch.convert import core_position
from pardon.batch.engine import decider, legal_lanes, new_games, step
from pardon.batch.hands import describe_move
from pardon.batch.observe import features, observe
from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import card_name
from pardon.core.errors import IllegalError, InvalidError
from pardon.core.jsonio import position_to_json
from pardon.env.vector import (
    action_number,
    game_config,
    ignore_options,
    mask_kind,
    observation_space,
    offered,
    seed_number,
    seen_by,
    shown,
    to_play,
)
from pardon.textboard import render

RENDER_MODES = ("ansi", "human")


def env(**options: Any) -> SorryAECEnv:
    """The environment, as PettingZoo's own classic games are made."""
    return SorryAECEnv(**options)


class SorryAECEnv(AECEnv):  # type: ignore[misc]
    """A game of ``rules`` between ``players`` agents; ``mask="distinct"`` offers one action
    for each distinct move in ``action_mask`` (``"legal"``, the default: every legal action)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "pardon_sorry_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, rules: str = "classic", players: int = 2, render_mode: str | None = None, mask: str = "legal"
    ) -> None:
        super().__init__()
        self.mask = mask_kind(mask)
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise InvalidError(f"unknown render mode {render_mode!r}: choose {', '.join(RENDER_MODES)}")
        self.config = game_config(rules, players)
        self.render_mode = render_mode
        self.possible_agents = [COLOUR_NAMES[colour] for colour in self.config.seats]
        space = observation_space(self.config.actions, features(self.config))
        self.observation_spaces = dict.fromkeys(self.possible_agents, space)
        self.action_spaces = {agent: spaces.Discrete(self.config.actions) for agent in self.possible_agents}
        self.reset()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise InvalidError(f"unknown agent {agent!r}: the agents are {', '.join(self.possible_agents)}")
        return self.possible_agents.index(agent)

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        ignore_options(options, "SorryAECEnv")
        if seed is None:
            seed = int(np.random.SeedSequence().generate_state(1)[0])
        self.games = new_games(self.config, np.array([seed_number(seed)], dtype=np.uint32))
        self._update_lanes()
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._update()

    def _update_lanes(self) -> None:
        """The legal lanes (what a step accepts) and the lanes the mask offers."""
        self.lanes = legal_lanes(self.config, self.games)
        self.offered = offered(self.config, self.games, self.lanes, self.mask)

    def _update(self) -> None:
        """Whose turn it is and what every agent is told of the position."""
        self.agent_selection = self.possible_agents[int(decider(self.config, self.games)[0])]
        position = core_position(self.config, self.games, 0)
        card = int(self.games.card[0])
        rules, shown = self.config.rules, card_name(card) if card else None
        self.infos = {  # each agent is told its own hand only
            agent: {"position": position_to_json(rules, seen_by(position, self._colour(agent))), "card": shown}
            for agent in self.agents
        }

    def _colour(self, agent: str) -> int:
        return self.config.seats[self._seat(agent)]

    def observe(self, agent: str) -> dict[str, Any]:
        turn = int(self.games.turn[0])
        observer = (self._seat(agent) - turn) % self.config.players
        deciding = self._seat(agent) == int(decider(self.config, self.games)[0])
        mask = self.offered[:, 0].astype(np.int8) if deciding else np.zeros(self.config.actions, dtype=np.int8)
        return {"observation": observe(self.config, self.games, observer)[0], "action_mask": mask}

    def step(self, action: int | None) -> None:
        if not self.agents:  # every agent has stepped out of the finished game
            raise IllegalError("the game is over: reset the environment")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        number = None if action is None else action_number(action, self.config.actions)
        if number is None or not 0 <= number < self.config.actions or not self.lanes[number, 0]:
            legal = np.flatnonzero(self.lanes[:, 0]).tolist()
            raise IllegalError(f"{agent} cannot take action {action}: the legal actions are {legal}")
        self._cumulative_rewards[agent] = 0.0
        self.games, _ = step(self.config, self.games, np.array([number], dtype=np.int32))
        self._update_lanes()
        winner = int(self.games.winner[0])
        if winner >= 0:
            for seat, name in enumerate(self.possible_agents):
                self.rewards[name] = 1.0 if on_winning_side(self.config, seat, winner) else -1.0
                self.terminations[name] = True
        self._update()
        if winner >= 0:
            self.agent_selection = agent
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The board as text, and who is to play which card; in ``"human"`` mode printed,
        returning None, and with no render mode None (as PettingZoo's render modes say)."""
        return shown(self._text, self.render_mode)

    def _text(self) -> str:
        position = core_position(self.config, self.games, 0, so_far=True)  # a split 7's parts made shown
        if position.winner is not None:
            line = f"{COLOUR_NAMES[position.winner].capitalize()} has won."
        else:
            moves = [describe_move(self.config, int(action)) for action in np.flatnonzero(self.offered[:, 0])]
            player = COLOUR_NAMES[self.config.seats[int(decider(self.config, self.games)[0])]].capitalize()
            line = f"{player} {to_play(self.config, self.games, position)}: {'; '.join(moves)}"
        return f"{render(position)}\n{line}"

    def close(self) -> None:
        pass
