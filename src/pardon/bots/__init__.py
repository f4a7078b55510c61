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


BOTS: dict[str, type[RandomBot]] = {"random": RandomBot}


def make_bot(name: str) -> Bot:
    if name not in BOTS:
        raise ValueError(f"unknown computer player {name!r}: choose {', '.join(BOTS)}")
    return BOTS[name]()
