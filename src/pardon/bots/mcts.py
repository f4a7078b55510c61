"""``mcts``: Monte Carlo tree search with chance nodes.

Each iteration deals the unseen cards in a fresh random order (a *determinization*,
:func:`pardon.bots.model.sample_game`, so the draws follow the pack's true composition)
and walks down the tree: at a decision it picks a move by UCT for the player who decides
there, then the model draws the next card, which selects (or creates) that card's child.
A new node is judged by a *rollout* and the result — a value per colour, so every player
maximises its own share (multi-player backup) — is added along the path.

Rollouts (``rollout=``):

- ``"eval"`` (default): play on with the one-ply evaluation until the searching player has
  made a move (and at least ``horizon`` decisions were played), then take the evaluation's
  win chances (:meth:`Evaluator.win_chances`).  Every leaf is thus a position just after
  the searcher's own move, where the evaluation was tuned (docs/bots.md: a horizon after
  the opponent's reply is what made ``expectimax(depth=2)`` no better than ``tactician``);
- ``"random"``: play to the end with the engine's fast random-playout kernel and score
  the winner (with doubling nobody doubles or drops out in a rollout).

With ``stratified`` (open games only), the card drawn after a move in the tree is not the
deal's next but the one whose share of that move's draws lags its chance most.

The root is seeded by an ``expectimax`` search of ``root_depth`` decisions (by default
expectimax's own: 3 with two players, 2 with more): each move starts with ``root_prior``
virtual visits at the win chance that search gives it, so a small budget already plays
like ``expectimax``.  Only its ``candidates`` best moves are searched further (0: all),
so the iterations go where the search's ranking is in doubt; inner moves start with
``prior`` virtual visits at their evaluated win chance.  The budget is ``iterations`` or,
if given, ``seconds`` per decision.  The candidate with the best mean result is played.

Every value backed up is a win chance, the evaluation's softmax at :data:`SCALE`.  The
root's search backs up the same: with three or four players it averages those chances
(``expectimax``'s own backup there); with two it backs up margins, whose logistic is the
2-player softmax.  Priors and rollouts on one footing matter: a root seeded with 2-player
logistics of margins (about 0.5 each) among 4-player shares (about 0.25) drags the mean of
the most visited move down, and the least searched move wins.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter

from pardon.bots import only_move
from pardon.bots.doubling import doubles_by_chance, without_double
from pardon.bots.evaluation import SEARCHED, Evaluator, Weights, card_chances
from pardon.bots.expectimax import MAX_DEPTH, ExpectimaxBot
from pardon.bots.model import draw_chances, draw_given, matches, next_key, outcome, outcome_for, sample_game
from pardon.core.errors import InvalidError
from pardon.core.game import Game
from pardon.core.moves import DROP, Move
from pardon.core.observation import Observation
from pardon.core.playout import random_playout

Vector = list[float]
ROLLOUTS = ("eval", "random")
#: The default budget: iterations per decision (docs/bots.md gives the decision times).
ITERATIONS = 400
#: The temperature of the win chances ``mcts`` backs up: sharper than the calibrated one the
#: hints show (with the calibrated 150 it lost to ``expectimax`` 46.0%, docs/bots.md).
SCALE = 40.0


class _Node:
    """A decision: its moves, their statistics, and per move the children by next card."""

    __slots__ = ("active", "children", "decider", "drawn", "moves", "totals", "visits")

    def __init__(self, decider: int, moves: list[Move], priors: list[Vector], weight: float) -> None:
        self.decider = decider
        self.moves = moves
        self.visits = [weight] * len(moves)
        self.totals = [[weight * value for value in prior] for prior in priors]
        self.children: list[dict[object, _Node]] = [{} for _ in moves]
        self.drawn: dict[int, dict[int, int]] = {}  # by move: the cards drawn after it (``stratified`` only)
        self.active = list(range(len(moves)))  # the moves UCT may pick

    def select(self, exploration: float) -> int:
        active = self.active
        if len(active) == 1:
            return active[0]
        decider = self.decider
        log_total = math.log(sum(self.visits[index] for index in active) + 1)
        best, best_score = active[0], -math.inf
        for index in active:
            visits = self.visits[index]
            score = self.totals[index][decider] / visits + exploration * math.sqrt(log_total / visits)
            if score > best_score:
                best, best_score = index, score
        return best

    def mean(self, index: int) -> float:
        """Move ``index``'s mean result for the decider, its prior included."""
        return self.totals[index][self.decider] / self.visits[index]


class MctsBot:
    """Determinized MCTS with chance nodes and a value per colour."""

    name = "mcts"

    def __init__(
        self,
        iterations: int = ITERATIONS,
        seconds: float | None = None,
        rollout: str = "eval",
        horizon: int = 1,
        exploration: float = 0.4,
        prior: float = 4.0,
        root_depth: int | None = None,
        root_prior: float = 16.0,
        candidates: int = 3,
        paired: bool = False,
        stratified: bool = False,
        weights: Weights = SEARCHED,
        **changes: float,
    ) -> None:
        if rollout not in ROLLOUTS:
            raise InvalidError(f"unknown rollout {rollout!r}: choose {', '.join(ROLLOUTS)}")
        if iterations < 1 and seconds is None:
            raise InvalidError("mcts needs a budget: iterations >= 1 or seconds")
        if seconds is not None and not seconds > 0:
            raise InvalidError(f"mcts needs a positive time budget (seconds > 0), not seconds={seconds}")
        if candidates < 0:
            raise InvalidError(f"candidates counts moves (0: every move), so it is 0 or more, not {candidates}")
        if root_depth is not None and root_depth > MAX_DEPTH:
            raise InvalidError(f"the root is seeded by a search of at most {MAX_DEPTH} decisions, not {root_depth}")
        self.iterations = iterations
        self.seconds = seconds
        self.rollout = rollout
        self.horizon = horizon
        self.exploration = exploration
        self.prior = max(prior, 1e-6)  # at least a trace, so every visit count is positive
        self.root_depth = root_depth
        self.root_prior = max(root_prior, 1e-6)
        self.candidates = candidates
        self.paired = paired
        self.stratified = stratified
        if not weights.scale:
            changes.setdefault("scale", SCALE)
        self.weights = weights.with_changes(**changes)  # e.g. make_bot('mcts(threat=0.5)')
        self._evaluators: dict[object, Evaluator] = {}

    @doubles_by_chance
    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        if len(moves) <= 1:
            return only_move(moves)
        root = self.search(observation, moves, rng)
        best = max(root.active, key=lambda index: (root.mean(index), root.visits[index]))
        return moves[best]

    def search(self, observation: Observation, moves: list[Move], rng: random.Random) -> _Node:
        """Run the budget's iterations from the observed decision; return the root."""
        evaluator = self._evaluator(observation)
        chances = card_chances(observation.remaining(), observation.rules)
        root = self._root(observation, moves, rng, evaluator, chances)
        if not matches(sample_game(observation, rng), observation, moves) or len(root.active) == 1:
            return root  # a decision the model cannot rebuild, or nothing in doubt: the priors decide
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        iteration = 0
        while True:
            if deadline is not None:
                if time.perf_counter() >= deadline and iteration > 0:
                    break
            elif iteration >= self.iterations:
                break
            if self.paired:  # every candidate on the same deal: their differences are not luck
                deal = rng.getrandbits(64)
                for index in root.active:
                    game = sample_game(observation, random.Random(deal))
                    self._iterate(root, game, evaluator, rng, observation.seat, index)
                iteration += len(root.active)
            else:
                self._iterate(root, sample_game(observation, rng), evaluator, rng, observation.seat)
                iteration += 1
        return root

    def win_chances(self, root: _Node) -> list[float]:
        """Each root move's estimated win chance for the player deciding there."""
        return [total[root.decider] / visits for total, visits in zip(root.totals, root.visits, strict=True)]

    def _evaluator(self, observation: Observation) -> Evaluator:
        found = self._evaluators.get(observation.rules)
        if found is None:
            found = self._evaluators[observation.rules] = Evaluator(observation.rules, self.weights)
        return found

    def _root(
        self,
        observation: Observation,
        moves: list[Move],
        rng: random.Random,
        evaluator: Evaluator,
        chances: list[float],
    ) -> _Node:
        """The root, its moves seeded with an expectimax search of ``root_depth`` decisions;
        only the ``candidates`` best of them are searched further."""
        if self.root_depth is not None and self.root_depth <= 1:
            root = self._node(evaluator, observation.seat, moves, chances)
        else:
            priors = self._root_priors(observation, moves, rng, evaluator, chances)
            root = _Node(observation.seat, moves, priors, self.root_prior)
        if self.candidates and len(moves) > self.candidates:
            ranked = sorted(root.active, key=lambda index: -root.mean(index))
            root.active = sorted(ranked[: self.candidates])
        return root

    def _root_priors(
        self,
        observation: Observation,
        moves: list[Move],
        rng: random.Random,
        evaluator: Evaluator,
        chances: list[float],
    ) -> list[Vector]:
        """Each root move's win shares by the ``expectimax`` search, on the rollouts' footing."""
        searcher = ExpectimaxBot(self.root_depth, self.weights)
        searched = searcher.move_values(observation, moves, rng, searcher.roots)
        margins = searcher.backup_for(observation) == "value"
        seats = observation.position.seats
        priors = []
        for move, vector in zip(moves, searched, strict=True):
            if vector[observation.seat] == -math.inf:  # not searched: its one-ply chance
                priors.append(evaluator.win_chances(move.result, chances))
            elif margins:  # 2 players: the logistic of the margin is the 2-player softmax
                priors.append(
                    [
                        evaluator.margin_chance(value, move.result) if colour in seats else 0.0
                        for colour, value in enumerate(vector)
                    ]
                )
            else:  # 3-4 players: the search averaged the same shares
                priors.append(vector)
        return priors

    def _node(self, evaluator: Evaluator, decider: int, moves: list[Move], chances: list[float]) -> _Node:
        return self._expand(evaluator, decider, moves, chances)[0]

    def _expand(
        self, evaluator: Evaluator, decider: int, moves: list[Move], chances: list[float]
    ) -> tuple[_Node, Move]:
        """A new node for ``decider``'s ``moves``, their win chances its priors, and the move
        the evaluation ranks best there (a rollout's first): one evaluation of each move serves both."""
        priors = []
        best, best_value = moves[0], -math.inf
        for move in moves:
            values, shares = evaluator.values_and_chances(move.result, chances)
            priors.append(shares)
            if values[decider] > best_value:  # the first of equals, as ``max`` picks
                best, best_value = move, values[decider]
        return _Node(decider, moves, priors, self.prior), best

    def _iterate(
        self, root: _Node, game: Game, evaluator: Evaluator, rng: random.Random, seat: int, first: int | None = None
    ) -> None:
        """One descent from the root (through its move ``first`` if given), a rollout, and the backup."""
        path: list[tuple[_Node, int]] = []
        node = root
        while True:
            index = node.select(self.exploration) if first is None or node is not root else first
            path.append((node, index))
            game.play_trusted(node.moves[index])
            if game.is_over:
                value = outcome(game)
                break
            key = self._next(game, node, index)
            child = node.children[index].get(key)
            if child is None:
                chances = card_chances(Counter(game.pack.draw_pile), game.rules)
                child, first_move = self._expand(evaluator, game.decider, game.legal_moves(), chances)
                node.children[index][key] = child
                value = self._rollout(game, evaluator, rng, seat, first_move)
                break
            node = child
        for visited, index in path:
            visited.visits[index] += 1
            totals = visited.totals[index]
            for colour in range(4):
                totals[colour] += value[colour]

    def _next(self, game: Game, node: _Node, index: int) -> object:
        """Step to the next decision after ``node``'s move ``index``; name the step reached.

        ``stratified``: in an open game the card drawn is not the deal's next but the one whose
        share of this move's draws lags its chance most, so every card turns up in proportion
        to its chance and the move's mean is not swayed by which cards happened to come.
        """
        if not (self.stratified and game.awaiting_draw and not game.rules.hand):
            return next_key(game)
        drawn = node.drawn.setdefault(index, {})
        total = sum(drawn.values()) + 1
        card = max(draw_chances(game), key=lambda pair: pair[1] * total - drawn.get(pair[0], 0))[0]
        drawn[card] = drawn.get(card, 0) + 1
        draw_given(game, card)
        return card

    def _rollout(
        self, game: Game, evaluator: Evaluator, rng: random.Random, seat: int, first: Move | None = None
    ) -> Vector:
        """The value of the decision the game stands at: the evaluation's best moves until
        ``seat`` (the searching player) has moved, judged just after its move.  ``first``,
        if given, is the best move at the decision now (already found by :meth:`_expand`)."""
        if self.rollout == "random":
            return _random_rollout(game, rng)
        played = 0
        limit = self.horizon + 2 * len(game.position.seats)  # a bound; ``seat`` moves well before
        while True:
            decider = game.decider
            if first is not None:
                best, first = first, None
            else:
                moves = game.legal_moves()
                chances = card_chances(Counter(game.pack.draw_pile), game.rules)
                best = max(moves, key=lambda move: evaluator.values(move.result, chances)[decider])
            game.play_trusted(best)
            played += 1
            if game.is_over:
                return outcome(game)
            if (decider == seat and played >= self.horizon) or played >= limit:
                return evaluator.win_chances(game.position, card_chances(Counter(game.pack.draw_pile), game.rules))
            next_key(game)


def _random_rollout(game: Game, rng: random.Random) -> Vector:
    """Random moves to the end: the engine's fast kernel when only cards are drawn.  With
    doubling nobody doubles or drops out in a rollout (every double accepted): a random
    double, dropped half the time, would end most rollouts without asking who plays better."""
    rules = game.rules
    if game.card is not None and not (rules.hand or rules.tokens or rules.doubling):
        game.undraw()  # the kernel draws for itself; the game is a sample, dropped after the rollout
        winner, _ = random_playout(rules, game.position, game.pack, game.seed, rng)
        assert winner is not None
        return outcome_for(rules.partners, winner)
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        if rules.doubling:
            moves = [move for move in without_double(moves) if not (move.actions and move.actions[0].kind == DROP)]
        game.play_trusted(moves[rng.randrange(len(moves))])
    return outcome(game)
