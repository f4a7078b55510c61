"""``expectimax``: looks ahead through the next draws, counting the cards left.

For each of its moves it considers every card the next player can draw, with that card's
true chance given the cards already seen (the discard pile: card counting), the reply
that player would choose, and so on for ``depth`` decisions; positions at the horizon are
judged by the evaluation (:mod:`pardon.bots.evaluation`) with the pawn values learned from
who wins (:mod:`pardon.bots.learned`; ``learned=0`` for the hand-written ones).  Every player is assumed
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
evaluation's (calibrated) win chances instead of its values, the default with three or
four players.

In a hand game the other players' hands are hidden: the search is run on ``samples``
deals of them (default 8), drawn from the unseen cards, and each move's values are
averaged over the deals.  One deal alone lets the search plan against cards the opponent
may well not hold; it lost to ``tactician``, and 8 deals beat 1 by 69.5% (docs/bots.md).

The search runs on the forward model of :mod:`pardon.bots.model`; its budget is
``depth`` (decisions searched: 1 is the evaluation alone) and ``width`` (how many moves of
each inner decision are searched deeper, 0 for all).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from typing import Any

from pardon.bots import only_move
from pardon.bots.doubling import doubles_by_chance
from pardon.bots.evaluation import SEARCHED, Evaluator, Weights, card_chances
from pardon.bots.model import advance, draw_chances, draw_given, matches, sample_game, take_back, undraw_given
from pardon.core.errors import InvalidError
from pardon.core.game import Game
from pardon.core.moves import Move
from pardon.core.observation import Observation
from pardon.core.rules import Rules
from pardon.core.state import Position

Vector = list[float]
BACKUPS = ("value", "chance")
DEPTH_TWO_PLAYERS = 3
DEPTH_MORE_PLAYERS = 2
#: The deepest search taken: far beyond what finishes in a game's time (each decision
#: multiplies the work by the cards and replies), and a bound that keeps a mistyped depth
#: from running out of stack.
MAX_DEPTH = 12


class ExpectimaxBot:
    """Expectimax over the next ``depth`` decisions and the draws between them; inner
    decisions search only their ``width`` best moves by the evaluation (0: all)."""

    name = "expectimax"

    def __init__(
        self,
        depth: int | None = None,
        weights: Weights = SEARCHED,
        width: int = 1,
        roots: int = 10,
        backup: str | None = None,
        samples: int = 8,
        rank: int = 1,
        **changes: float,
    ) -> None:
        if depth is not None and not 1 <= depth <= MAX_DEPTH:
            raise InvalidError(
                f"expectimax searches from 1 to {MAX_DEPTH} decisions (depth=1 to {MAX_DEPTH}), not {depth}"
            )
        if not 1 <= rank <= MAX_DEPTH:
            raise InvalidError(f"the roots are ranked by a search of 1 to {MAX_DEPTH} decisions (rank=1), not {rank}")
        if width < 0 or roots < 0:
            raise InvalidError("width and roots count moves (0: every move), so they are 0 or more")
        self.rank = rank
        if backup is not None and backup not in BACKUPS:
            raise InvalidError(f"unknown backup {backup!r}: choose {', '.join(BACKUPS)}")
        self.depth = depth
        self.width = width
        self.roots = roots
        self.backup = backup
        self._chance_backup = False  # set per search by ``backup_for``
        if samples < 1:
            raise InvalidError("expectimax needs at least one deal of the hidden hands (samples=1)")
        self.samples = samples
        self.weights = weights.with_changes(**changes)  # e.g. make_bot('tactician(threat=0.5)')
        self._evaluators: dict[object, Evaluator] = {}

    @doubles_by_chance
    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) <= 1:
            return only_move(moves)
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
        self._chance_backup = self.backup_for(observation) == "chance"
        context = self._context(observation.remaining(), observation.rules)
        shallow = [self._leaf(evaluator, move.result, context) for move in moves]
        depth = self.depth_for(observation)
        if depth == 1:
            return shallow
        # hidden hands: average over several deals of them (the open game needs one)
        deals = self.samples if observation.rules.hand else 1
        models = (self._model(observation, rng) for _ in range(deals))
        games = [game for game in models if matches(game, observation, moves)]
        if not games:
            return shallow
        seat = observation.seat
        kept: list[int] = list(range(len(moves)))
        if roots and len(moves) > roots:
            ranking = shallow
            if 1 < self.rank < depth:  # a shallower search picks the roots worth the full one
                ranking = self._searched(games, moves, kept, shallow, self.rank, evaluator)
            kept = sorted(kept, key=lambda index: -ranking[index][seat])[:roots]
        return self._searched(games, moves, kept, shallow, depth, evaluator)

    def _searched(
        self,
        games: list[Game],
        moves: list[Move],
        kept: list[int],
        shallow: list[Vector],
        depth: int,
        evaluator: Evaluator,
    ) -> list[Vector]:
        """The value vectors of the ``kept`` moves searched ``depth`` decisions deep, averaged
        over the model ``games`` (minus infinity for the others)."""
        totals = [[0.0] * 4 for _ in moves]
        for game in games:
            for index in kept:
                move = moves[index]
                decided = move.result.winner is not None
                vector = shallow[index] if decided else self._after(game, move, depth, evaluator)
                total = totals[index]
                for colour in range(4):
                    total[colour] += vector[colour]
        values = [[-math.inf] * 4 for _ in moves]
        for index in kept:
            values[index] = [total / len(games) for total in totals[index]]
        return values

    def position_chances(self, observation: Observation) -> Vector:
        """Every colour's chance to win from the observed position, by the judge at this
        level's horizon (the evaluation's calibrated chances with the cards left to draw)."""
        remaining = card_chances(observation.remaining(), observation.rules)
        return self._evaluator(observation).win_chances(observation.position, remaining)

    def depth_for(self, observation: Observation) -> int:
        """The decisions searched: ``depth`` if given; else 3 with two players (the horizon
        after the player's own next move) and 2 with more, where depth 3 would stop after
        another opponent's move and costs about a second at the 99th percentile."""
        if self.depth is not None:
            return self.depth
        return DEPTH_TWO_PLAYERS if len(observation.position.seats) == 2 else DEPTH_MORE_PLAYERS

    def backup_for(self, observation: Observation) -> str:
        """What the search averages: ``backup`` if given; else the evaluation's values with
        two players and its calibrated win chances with more, where a player's value
        (its score less a mix of its opponents') is only a stand-in for its chance of
        winning, and measured weaker (docs/bots.md)."""
        if self.backup is not None:
            return self.backup
        return "value" if len(observation.position.seats) == 2 else "chance"

    def _evaluator(self, observation: Observation) -> Evaluator:
        found = self._evaluators.get(observation.rules)
        if found is None:
            found = self._evaluators[observation.rules] = Evaluator(observation.rules, self.weights)
        return found

    def _model(self, observation: Observation, rng: random.Random) -> Game:
        """The game the search plays forward: the observed one with the unseen cards dealt in
        an order of ``rng``'s (:func:`pardon.bots.model.sample_game`)."""
        return sample_game(observation, rng)

    def _context(self, remaining: Counter[int], rules: Rules) -> Any:
        """What the leaves of one decision share, from the cards left to draw: the chance of each card."""
        return card_chances(remaining, rules)

    def _leaf(self, evaluator: Evaluator, position: Position, chances: Any) -> Vector:
        """A position's value vector at the search's horizon (``chances`` from :meth:`_context`)."""
        if self._chance_backup:
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
            draw_given(game, card)
            vector = self._decide(game, depth, evaluator)
            undraw_given(game)
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
            context = self._context(Counter(game.pack.draw_pile), game.rules)
            for move in game.legal_moves():
                vector = self._leaf(evaluator, move.result, context)
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
        context = self._context(Counter(game.pack.draw_pile), game.rules)
        decider = game.decider
        ranked = sorted(moves, key=lambda move: -self._rank(evaluator, move.result, context)[decider])
        return ranked[: self.width]

    def _rank(self, evaluator: Evaluator, position: Position, chances: Any) -> Vector:
        """What an inner decision's moves are ranked by, one ply ahead: the evaluation's values."""
        return evaluator.values(position, chances)
