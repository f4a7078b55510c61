"""``tactician``: one move ahead, judged by the hand-written evaluation.

It plays the move whose resulting position has the best value
(:mod:`pardon.bots.evaluation`): progress, pawns parked in the Safety Zone or Home, pawns
spread out, pawns within one card of their Safety Zone, and — counting the cards left in
the pack — the danger of being bumped before its next turn.  The advice of the rule
sheet's "Playing better" follows from those terms: a Sorry! or an 11 is worth most
against the opponent's pawn that has come furthest, a 4 or a 10's back-1 from near Start
lands a pawn just short of its own entrance, and a pawn that can reach the Safety Zone
goes in.
"""

from __future__ import annotations

import random

from pardon.bots import only_move
from pardon.bots.doubling import doubles_by_chance
from pardon.bots.evaluation import TUNED, Evaluator, Weights, card_chances
from pardon.core.moves import Move
from pardon.core.observation import Observation


def best_moves(evaluator: Evaluator, observation: Observation, moves: list[Move]) -> list[Move]:
    """The moves of highest value for the observing seat (ties kept, in order)."""
    seat = observation.seat
    chances = card_chances(observation.remaining(), observation.rules)
    scored = [(evaluator.values(move.result, chances)[seat], move) for move in moves]
    best = max(value for value, _ in scored)
    return [move for value, move in scored if value >= best - 1e-9]


class TacticianBot:
    """One ply with the tuned evaluation; ties broken at random."""

    name = "tactician"

    def __init__(self, weights: Weights = TUNED, **changes: float) -> None:
        self.weights = weights.with_changes(**changes)  # e.g. make_bot('tactician(threat=0.5)')
        self._evaluators: dict[object, Evaluator] = {}

    def evaluator(self, observation: Observation) -> Evaluator:
        found = self._evaluators.get(observation.rules)
        if found is None:
            found = self._evaluators[observation.rules] = Evaluator(observation.rules, self.weights)
        return found

    @doubles_by_chance
    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) <= 1:
            return only_move(moves)
        choices = best_moves(self.evaluator(observation), observation, moves)
        return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]
