"""``greedy``: the one-ply baseline, apologies' RewardV1 formula, so we can measure
against that peer.

A player's score is (65 × pawns − the sum of its pawns' distances to Home, Start
counting 65) + 10 per pawn in the Safety Zone or Home + 100 if every pawn is Home.
A move is worth (number of opponents × own score − the sum of the opponents' scores)
in the position it leads to; the best move is played, ties broken at random.
"""

from __future__ import annotations

import random

from pardon.bots import only_move
from pardon.bots.doubling import doubles_by_chance
from pardon.core.board import FIRST_TRACK, START
from pardon.core.moves import Move
from pardon.core.observation import Observation
from pardon.core.state import Position

START_DISTANCE = 65  # a pawn in Start is one step further than its start exit (64)


def score(position: Position, colour: int) -> int:
    """apologies' RewardV1 score of one colour."""
    pawns = position.pawns[colour]
    distance = sum(START_DISTANCE if pawn == START else pawn for pawn in pawns)
    safe = sum(1 for pawn in pawns if pawn < FIRST_TRACK)
    value = START_DISTANCE * len(pawns) - distance + 10 * safe
    if safe == len(pawns) and all(pawn == 0 for pawn in pawns):
        value += 100
    return value


def value(position: Position, colour: int) -> int:
    """How good ``position`` is for ``colour`` against everyone else."""
    opponents = [other for other in position.seats if other != colour]
    return len(opponents) * score(position, colour) - sum(score(position, other) for other in opponents)


class GreedyBot:
    name = "greedy"

    @doubles_by_chance
    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) <= 1:
            return only_move(moves)
        colour = observation.seat
        values = [value(move.result, colour) for move in moves]
        best = max(values)
        choices = [move for move, worth in zip(moves, values, strict=True) if worth == best]
        return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]
