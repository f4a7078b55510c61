"""``expectimax``: looks ahead through the next draws, counting the cards left.

For each of its moves it considers every card the next player can draw, with that card's
true chance given the cards already seen (the discard pile: card counting), the reply
that player would choose, and so on for ``depth`` decisions; positions at the horizon are
judged by the tuned evaluation (:mod:`pardon.bots.evaluation`).  Every player is assumed
to pick the move best for itself by that evaluation (a max^n tree with chance nodes), so
it works for any number of players and for partners.  A classic 2 that draws again is
simply a second decision of the same player.

The default with two players, ``depth=3`` with ``width=1``, is: its own move, every card
of the next player and the reply that player ranks best one ply ahead, then every card of
the following decision and its best move.  With 2 players the horizon is then a position after the
searching player's own move, which is where the evaluation was tuned (``tactician``'s
horizon); a horizon after the opponent's reply (``depth=2``) judges positions the tuning
never saw, and measured no stronger than ``tactician`` (docs/bots.md).  With three or four
players the default is ``depth=2`` (depth 3 would stop after another opponent's move).
``width=0`` searches every reply (several times slower); ``backup="chance"`` averages the
evaluation's win chances instead of its values.

The search runs on the forward model of :mod:`pardon.bots.model`; its budget is
``depth`` (decisions searched: 1 is the evaluation alone) and ``width`` (how many moves of
each inner decision are searched deeper, 0 for all).
"""

from __future__ import annotations

import math
import random
from collections import Counter

from pardon.bots.evaluation import TUNED, Evaluator, Weights, card_chances
from pardon.bots.model import advance, draw_chances, draw_given, matches, sample_game, take_back, undraw_given
from pardon.core.game import Game
from pardon.core.moves import Move
from pardon.core.observation import Observation
from pardon.core.state import Position

Vector = list[float]
BACKUPS = ("value", "chance")
DEPTH_TWO_PLAYERS = 3
DEPTH_MORE_PLAYERS = 2


class ExpectimaxBot:
    """Expectimax over the next ``depth`` decisions and the draws between them; inner
    decisions search only their ``width`` best moves by the evaluation (0: all)."""

    name = "expectimax"

    def __init__(
        self,
        depth: int | None = None,
        weights: Weights = TUNED,
        width: int = 1,
        roots: int = 10,
        backup: str = "value",
        **changes: float,
    ) -> None:
        if depth is not None and depth < 1:
            raise ValueError("expectimax searches at least one decision (depth=1)")
        if backup not in BACKUPS:
            raise ValueError(f"unknown backup {backup!r}: choose {', '.join(BACKUPS)}")
        self.depth = depth
        self.width = width
        self.roots = roots
        self.backup = backup
        self.weights = weights.with_changes(**changes)  # e.g. make_bot('tactician(threat=0.5)')
        self._evaluators: dict[object, Evaluator] = {}

    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) == 1:
            return moves[0]
        values = self.move_values(observation, moves, rng, self.roots)
        seat = observation.seat
        best = max(vector[seat] for vector in values)
        choices = [move for move, vector in zip(moves, values, strict=True) if vector[seat] >= best - 1e-9]
        return choices[rng.randrange(len(choices))] if len(choices) > 1 else choices[0]

    def move_values(
        self, observation: Observation, moves: list[Move], rng: random.Random, roots: int = 0
    ) -> list[Vector]:
        """Each move's value vector (a value per colour) after searching ``depth`` decisions.

        With ``roots``, only that many moves — the best one ply ahead — are searched; the
        others are valued at minus infinity (a split 7 can offer dozens of moves, and this
        bounds the time of a decision).
        """
        evaluator = self._evaluator(observation)
        chances = card_chances(observation.remaining(), observation.rules)
        game = sample_game(observation, rng)
        depth = self.depth_for(observation)
        searching = depth > 1 and matches(game, observation, moves)
        shallow = [self._leaf(evaluator, move.result, chances) for move in moves]
        if not searching:
            return shallow
        seat = observation.seat
        kept: list[int] = list(range(len(moves)))
        if roots and len(moves) > roots:
            kept = sorted(kept, key=lambda index: -shallow[index][seat])[:roots]
        values = [[-math.inf] * 4 for _ in moves]
        for index in kept:
            move = moves[index]
            decided = move.result.winner is not None
            values[index] = shallow[index] if decided else self._after(game, move, depth, evaluator)
        return values

    def depth_for(self, observation: Observation) -> int:
        """The decisions searched: ``depth`` if given; else 3 with two players (the horizon
        after the player's own next move) and 2 with more, where depth 3 would stop after
        another opponent's move and costs about a second at the 99th percentile.  In a hand
        game the search does not yet model the hidden hands well enough to help (it lost to
        ``tactician`` at depths 2 and 3 in the 1992 game), so there it is the evaluation alone."""
        if self.depth is not None:
            return self.depth
        if observation.rules.hand:
            return 1
        return DEPTH_TWO_PLAYERS if len(observation.position.seats) == 2 else DEPTH_MORE_PLAYERS

    def _evaluator(self, observation: Observation) -> Evaluator:
        found = self._evaluators.get(observation.rules)
        if found is None:
            found = self._evaluators[observation.rules] = Evaluator(observation.rules, self.weights)
        return found

    def _leaf(self, evaluator: Evaluator, position: Position, chances: list[float]) -> Vector:
        if self.backup == "chance":
            return evaluator.win_chances(position, chances)
        return evaluator.values(position, chances)

    def _after(self, game: Game, move: Move, depth: int, evaluator: Evaluator) -> Vector:
        """The value vector of making ``move``, with ``depth`` decisions (this one included)."""
        if move.result.winner is not None:
            return self._leaf(evaluator, move.result, [])
        card = advance(game, move)
        vector = (
            self._chance(game, depth - 1, evaluator) if game.awaiting_draw else self._decide(game, depth - 1, evaluator)
        )
        take_back(game, card)
        return vector

    def _chance(self, game: Game, depth: int, evaluator: Evaluator) -> Vector:
        """The expected value vector over the next draw, ``depth`` decisions to go."""
        total = [0.0, 0.0, 0.0, 0.0]
        for card, chance in draw_chances(game):
            pack = draw_given(game, card)
            vector = self._decide(game, depth, evaluator)
            undraw_given(game, pack)
            for colour in range(4):
                total[colour] += chance * vector[colour]
        return total

    def _decide(self, game: Game, depth: int, evaluator: Evaluator) -> Vector:
        """The value vector of the decision now due: its decider's best move."""
        if game.is_over:
            return self._leaf(evaluator, game.position, [])
        decider = game.decider
        best: Vector | None = None
        if depth == 1:
            chances = card_chances(Counter(game.pack.draw_pile), game.rules)
            for move in game.legal_moves():
                vector = self._leaf(evaluator, move.result, chances)
                if best is None or vector[decider] > best[decider]:
                    best = vector
        else:
            moves = game.legal_moves()
            if self.width and len(moves) > self.width:
                moves = self._likeliest(game, moves, evaluator)
            for move in moves:
                vector = self._after(game, move, depth, evaluator)
                if best is None or vector[decider] > best[decider]:
                    best = vector
        assert best is not None
        return best

    def _likeliest(self, game: Game, moves: list[Move], evaluator: Evaluator) -> list[Move]:
        """The ``width`` moves the decider ranks best one ply ahead: the only ones searched deeper."""
        chances = card_chances(Counter(game.pack.draw_pile), game.rules)
        decider = game.decider
        ranked = sorted(moves, key=lambda move: -evaluator.values(move.result, chances)[decider])
        return ranked[: self.width]
