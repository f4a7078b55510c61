"""Computer players.  Every player has one method, ``choose(observation, moves, rng)``."""

from __future__ import annotations

import random
from typing import Protocol

from pardon.core.moves import Move
from pardon.core.observation import Observation


class Bot(Protocol):
    """A computer player: picks one of the legal moves it is given."""

    name: str

    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move: ...


class RandomBot:
    """Uniform over the legal moves (one per distinct outcome, so no outcome is favoured)."""

    name = "random"

    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


def make_bot(name: str) -> Bot:
    """A computer player by its level's name."""
    from pardon.bots.greedy import GreedyBot

    bots: dict[str, type[RandomBot] | type[GreedyBot]] = {"random": RandomBot, "greedy": GreedyBot}
    if name not in bots:
        raise ValueError(f"unknown computer player {name!r}: choose {', '.join(bots)}")
    return bots[name]()


BOTS = ("random", "greedy")
