"""Puzzles (RULES.md §9): a position and a card, find the best move.

The answer is the engine's, found and verified by search:

1. **Sampling.**  Seeded games between computer players (``tactician`` against
   ``greedy``) are played; every decision with a drawn card and at least
   :data:`MIN_MOVES` distinct legal moves, in the second half of the game, none of which
   wins at once, is a candidate when the evaluation's win chances of its two best moves
   differ by at least ``Budget.screen``; ``Budget.per_game`` of them are drawn at random.
2. **Search.**  Every legal move is judged by ``playouts`` *determinized playouts*: the
   unseen cards (the pack full, less the card in play, as a puzzle shows no discard
   pile) are dealt in a random order, the move is made, and every player then plays by
   the tuned evaluation (the ``tactician`` policy) to the end of the game.  Playout ``i``
   uses the same deal for every move (common random numbers), so two moves are compared
   on the same cards.
3. **The test** (:func:`clearly_best`).  The move with the highest share of wins is
   clearly best when, for *every* other move, the 95% interval of the paired difference
   (mean of ``win(best, i) − win(other, i)`` over the playouts ± 1.96 standard errors)
   lies above zero, and it leads the second best by at least ``margin`` (a difference a
   player can feel).  Positions whose best move wins the game at once are left out.
4. **Verification.**  A kept position is searched again with an independent seed and
   more playouts; it becomes a puzzle only if the same move passes the same test again.
   The stored win chances are those of the verification.

>>> puzzles = load_puzzles()
>>> puzzle = puzzles[0]
>>> best = puzzle.best_move()
>>> puzzle.is_best(best)
True
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from pardon.bots import make_bot
from pardon.bots.evaluation import TUNED, Evaluator, card_chances
from pardon.bots.model import outcome, sample_game
from pardon.core.board import COLOUR_NAMES, FIRST_TRACK, HOME, LAST_TRACK, SQUARE, START
from pardon.core.cards import SORRY, card_name, parse_card
from pardon.core.game import Game
from pardon.core.moves import SWITCH, Move, legal_moves
from pardon.core.notation import format_move, format_position, parse_move, parse_position
from pardon.core.observation import Observation, observe
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.state import Position, check_position, seats_for

#: A puzzle offers at least this many distinct legal moves.
MIN_MOVES = 3
#: z of a two-sided 95% interval.
Z95 = 1.96
#: The games the generator samples from, in turn: (rules, players).
SOURCES: tuple[tuple[str, int], ...] = (
    ("classic", 2),
    ("classic", 2),
    ("classic", 2),
    ("classic-1939", 2),
    ("classic", 2),
    ("classic", 2),
    ("modern-no-tokens", 2),
    ("classic", 2),
    ("classic", 3),
    ("classic", 2),
    ("classic", 2),
    ("classic", 4),
)
DIFFICULTIES = ("easy", "medium", "hard")
#: The package data file of the stored puzzles, next to this module.
PUZZLE_FILE = "puzzles.json"
#: Its path in a source checkout (where scripts/make_puzzles.py writes).
PUZZLE_PATH = Path(__file__).with_name(PUZZLE_FILE)
#: The search gives up on a candidate whose leader leads the second by less than this.
HOPELESS_LEAD = 0.02


@dataclass(frozen=True)
class Puzzle:
    """A position, the card drawn, and its best move with every move's win chance."""

    number: int
    rules: str  # rules text, e.g. "classic"
    position: str  # position notation, the player to move is the one to solve it
    card: str  # the card drawn, as written in a move: "7", "sorry"
    best: str  # the best move's notation
    chances: tuple[tuple[str, float], ...]  # every legal move and its win chance, best first
    theme: str
    difficulty: str  # "easy" (greedy finds it), "medium" (tactician does), "hard" (neither)
    playouts: int  # playouts per move of the verifying search
    margin: tuple[float, float]  # 95% interval of best − second best (paired)
    source: str = ""  # where the position came from

    @property
    def game_rules(self) -> Rules:
        return parse_rules(self.rules)

    @property
    def game_position(self) -> Position:
        return parse_position(self.position)

    @property
    def card_value(self) -> int:
        return parse_card(self.card)

    @property
    def colour(self) -> str:
        """The colour to move (the solver's), by name."""
        return COLOUR_NAMES[self.game_position.turn]

    def moves(self) -> list[Move]:
        """Every legal move of the card."""
        return legal_moves(self.game_rules, self.game_position, self.card_value)

    def best_move(self) -> Move:
        return parse_move(self.game_rules, self.game_position, self.card_value, self.best)

    def parse_answer(self, text: str) -> Move:
        """The legal move ``text`` names (short forms too); raises a PardonError if none."""
        return parse_move(self.game_rules, self.game_position, self.card_value, text)

    def is_best(self, move: Move) -> bool:
        return move.result == self.best_move().result

    def chance_of(self, move: Move) -> float:
        """The stored win chance of a legal move."""
        position = self.game_position
        text = format_move(position, move)
        for written, chance in self.chances:
            if written == text:
                return chance
        raise KeyError(text)

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "rules": self.rules,
            "position": self.position,
            "card": self.card,
            "best": self.best,
            "theme": self.theme,
            "difficulty": self.difficulty,
            "moves": [{"move": move, "win_chance": chance} for move, chance in self.chances],
            "playouts": self.playouts,
            "margin": list(self.margin),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        low, high = data["margin"]
        return cls(
            number=int(data["number"]),
            rules=str(data["rules"]),
            position=str(data["position"]),
            card=str(data["card"]),
            best=str(data["best"]),
            chances=tuple((str(entry["move"]), float(entry["win_chance"])) for entry in data["moves"]),
            theme=str(data["theme"]),
            difficulty=str(data["difficulty"]),
            playouts=int(data["playouts"]),
            margin=(float(low), float(high)),
            source=str(data.get("source", "")),
        )


def load_puzzles() -> list[Puzzle]:
    """The puzzles stored with the package (``pardon/bots/puzzles.json``), by number."""
    text = resources.files("pardon.bots").joinpath(PUZZLE_FILE).read_text(encoding="utf-8")
    return read_puzzles(text)


def read_puzzles(text: str) -> list[Puzzle]:
    data = json.loads(text)
    return sorted((Puzzle.from_json(entry) for entry in data["puzzles"]), key=lambda puzzle: puzzle.number)


# ------------------------------------------------------------------ the statistics


@dataclass(frozen=True)
class Verdict:
    """What :func:`clearly_best` found: the leader, and its interval against the second."""

    best: int  # index of the move with the highest mean
    second: int
    chances: tuple[float, ...]  # each move's share of wins
    margin: tuple[float, float]  # 95% interval of best − second (paired)
    clear: bool  # whether the test passed


def paired_interval(first: Sequence[float], second: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean of ``first[i] − second[i]`` and its interval (± z standard errors)."""
    count = len(first)
    if count != len(second) or count < 2:
        raise ValueError("paired results need two equal samples of at least 2")
    differences = [a - b for a, b in zip(first, second, strict=True)]
    mean = sum(differences) / count
    variance = sum((value - mean) ** 2 for value in differences) / (count - 1)
    half = z * math.sqrt(variance / count)
    return mean, mean - half, mean + half


def clearly_best(results: Sequence[Sequence[float]], margin: float, z: float = Z95) -> Verdict:
    """Whether one move is clearly best, from each move's paired playout results.

    ``results[m][i]`` is the result (1 win, 0 loss) of move ``m`` in playout ``i``; the
    playouts of one index share their deal.  The leader passes when its paired
    interval against every other move lies above zero and its mean leads the second's
    by at least ``margin``.

    >>> clearly_best([[1, 1, 1, 0] * 10, [0, 1, 0, 0] * 10, [0, 0, 1, 0] * 10], 0.1).clear
    True
    >>> clearly_best([[1, 1, 0, 0] * 10, [1, 0, 1, 0] * 10, [0, 0, 0, 0] * 10], 0.1).clear
    False
    """
    if len(results) < 2:
        raise ValueError("a comparison needs at least 2 moves")
    chances = tuple(sum(row) / len(row) for row in results)
    order = sorted(range(len(results)), key=lambda index: -chances[index])
    best, second = order[0], order[1]
    mean, low, high = paired_interval(results[best], results[second], z)
    clear = mean >= margin and all(paired_interval(results[best], results[other], z)[1] > 0 for other in order[1:])
    return Verdict(best, second, chances, (low, high), clear)


# ------------------------------------------------------------------ the search


def puzzle_observation(rules: Rules, position: Position, card: int) -> Observation:
    """What the solver knows: the board and the card; the pack full less that card."""
    return observe(rules, position, position.turn, card, (card,))


def playout_results(
    rules: Rules, position: Position, card: int, moves: Sequence[Move], playouts: int, seed: str
) -> list[list[float]]:
    """Each move's results over ``playouts`` paired playouts (1 if the mover wins)."""
    seen = puzzle_observation(rules, position, card)
    evaluator = Evaluator(rules, TUNED)
    seat = position.turn
    results: list[list[float]] = [[] for _ in moves]
    for index in range(playouts):
        for row, move in zip(results, moves, strict=True):
            game = sample_game(seen, random.Random(f"{seed}:{index}"))
            game.play_trusted(move)
            row.append(_play_out(game, evaluator)[seat])
    return results


def _play_out(game: Game, evaluator: Evaluator) -> list[float]:
    """Every player plays the evaluation's best move to the end of the game."""
    rules = game.rules
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        if len(moves) > 1:
            chances = card_chances(Counter(game.pack.draw_pile), rules)
            decider = game.decider
            move = max(moves, key=lambda move: evaluator.values(move.result, chances)[decider])
        else:
            move = moves[0]
        game.play_trusted(move)
    return outcome(game)


@dataclass
class Budget:
    """Playouts per move: the search (in steps, stopped early when hopeless) and the
    verification."""

    step: int = 60  # playouts per move added at each step of the search
    search: int = 240  # at most this many per move in the search
    verify: int = 400
    margin: float = 0.05
    max_moves: int = 10  # positions with more moves are passed over (cost)
    per_game: int = 2  # candidates examined per sampled game
    screen: float = 0.05  # least gap between the evaluation's two best moves


@dataclass
class Outcome:
    """What became of one candidate."""

    stage: str  # "accepted", "searched", "verified" (rejected at that stage)
    puzzle: Puzzle | None = None
    notes: dict[str, Any] = field(default_factory=dict)


def examine(
    rules: Rules, position: Position, card: int, budget: Budget, seed: str, source: str = "", number: int = 0
) -> Outcome:
    """Search a candidate, verify it, and make it a puzzle if it passes both."""
    moves = legal_moves(rules, position, card)
    results: list[list[float]] = [[] for _ in moves]
    for step in range(max(1, budget.search // budget.step)):
        more = playout_results(rules, position, card, moves, budget.step, f"{seed}:search{step}")
        results = [row + extra for row, extra in zip(results, more, strict=True)]
        verdict = clearly_best(results, budget.margin)
        if verdict.clear and step >= 1:
            break
        if _hopeless(results, verdict, (step + 1) * budget.step / budget.search):
            break
    notes: dict[str, Any] = {"search": [round(chance, 3) for chance in verdict.chances]}
    if not verdict.clear:
        return Outcome("searched", None, notes)
    checked = playout_results(rules, position, card, moves, budget.verify, f"{seed}:verify")
    again = clearly_best(checked, budget.margin)
    notes["verify"] = [round(chance, 3) for chance in again.chances]
    if not again.clear or again.best != verdict.best:
        return Outcome("verified", None, notes)
    order = sorted(range(len(moves)), key=lambda index: -again.chances[index])
    best = moves[again.best]
    puzzle = Puzzle(
        number=number,
        rules=to_text(rules),
        position=format_position(position),
        card=card_name(card).lower().rstrip("!"),
        best=format_move(position, best),
        chances=tuple((format_move(position, moves[index]), round(again.chances[index], 4)) for index in order),
        theme=theme(position, best),
        difficulty=difficulty(rules, position, card, best),
        playouts=budget.verify,
        margin=(round(again.margin[0], 4), round(again.margin[1], 4)),
        source=source,
    )
    return Outcome("accepted", puzzle, notes)


def _hopeless(results: Sequence[Sequence[float]], verdict: Verdict, spent: float) -> bool:
    """Whether the leader's lead over the second is too small to be worth more playouts:
    its z falls short of 1.96 times the share of the search budget spent so far."""
    mean, low, high = paired_interval(results[verdict.best], results[verdict.second])
    half = (high - low) / 2
    if half <= 0:
        return mean <= 0
    return mean < HOPELESS_LEAD or mean / half * Z95 < Z95 * spent


def candidates(game_index: int, budget: Budget, seed: int) -> Iterator[tuple[Rules, Position, int, str]]:
    """The positions of one sampled game worth searching: ``(rules, position, card, source)``."""
    rules_text, players = SOURCES[game_index % len(SOURCES)]
    rules = parse_rules(rules_text)
    game_seed = seed * 1_000_003 + game_index
    game = Game.new(rules, seats_for(players), game_seed)
    names = ("tactician", "greedy") if game_index % 2 == 0 else ("greedy", "tactician")
    bots = {colour: make_bot(names[index % 2]) for index, colour in enumerate(game.position.seats)}
    rng = random.Random(f"pardon-puzzles:{seed}:{game_index}")
    evaluator = Evaluator(rules, TUNED)
    found: list[tuple[float, int, Position, int]] = []
    decision = 0
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        card = game.card
        if card is not None and MIN_MOVES <= len(moves) <= budget.max_moves:
            gap = _screen(evaluator, rules, game.position, card, moves)
            if gap is not None:
                found.append((gap, decision, game.position, card))
        decision += 1
        game.play_trusted(bots[game.decider].choose(game.observe(game.decider), moves, rng))
    # the second half of the game: more is at stake and the playouts are shorter
    found = [entry for entry in found if entry[0] >= budget.screen and entry[1] >= decision // 2]
    rng.shuffle(found)
    for _, at, position, card in found[: budget.per_game]:
        yield rules, position, card, f"{rules_text} {players}p seed {game_seed} decision {at}"


def _screen(evaluator: Evaluator, rules: Rules, position: Position, card: int, moves: list[Move]) -> float | None:
    """The evaluation's win-chance gap between its two best moves; None for a position
    that is no puzzle (a move that wins at once)."""
    if any(move.result.winner is not None for move in moves):
        return None
    seen = puzzle_observation(rules, position, card)
    chances = card_chances(seen.remaining(), rules)
    values = sorted((evaluator.win_chances(move.result, chances)[position.turn] for move in moves), reverse=True)
    return values[0] - values[1]


def generate(
    budget: Budget,
    seed: int,
    games: Iterator[int],
    wanted: int,
    done: Callable[[int, list[Outcome]], None] | None = None,
) -> list[Puzzle]:
    """Puzzles from the sampled games ``games`` until ``wanted`` are verified; ``done`` is
    told each game's outcomes (for progress and resuming)."""
    puzzles: list[Puzzle] = []
    for game_index in games:
        outcomes = []
        for rules, position, card, source in candidates(game_index, budget, seed):
            check_position(rules, position)
            result = examine(rules, position, card, budget, f"{seed}:{source}", source, len(puzzles) + 1)
            outcomes.append(result)
            if result.puzzle is not None:
                puzzles.append(result.puzzle)
        if done is not None:
            done(game_index, outcomes)
        if len(puzzles) >= wanted:
            break
    return puzzles


# ------------------------------------------------------------------ themes and difficulty


def theme(position: Position, move: Move) -> str:
    """A short name for what the best move does."""
    me = position.turn
    bumped = [colour for colour, _ in move.bumps if colour != me]
    own_bumped = any(colour == me for colour, _ in move.bumps)
    if move.is_pass:
        return "decline the switch"
    if move.card == SORRY:
        return "the Sorry! that hurts most" if bumped else "save the Sorry!"
    kinds = {action.kind for action in move.actions}
    if SWITCH in kinds:
        return "switch with the leader" if _switched_leader(position, move) else "the 11 switch"
    if len(move.actions) == 2 and move.card == 7:
        return "a split 7 that bumps" if bumped else "the right split of a 7"
    action = move.actions[0]
    backward = move.card == 4 or (move.card == 10 and action.origin - action.landing != 10)
    if bumped and _threatened_by(position, me, move.bumps):
        return "bump before you are bumped"
    if bumped:
        return "bump the leader" if len(bumped) == 1 and _furthest(position, move.bumps[0]) else "the bump"
    if own_bumped:
        return "slide over your own pawn"
    if backward:
        near = action.end <= FIRST_TRACK + 12
        if move.card == 10:
            return "the back-1 of a 10 towards Home" if near else "the back-1 of a 10"
        return "backward 4 towards Home" if near else "backward 4"
    if action.end == HOME:
        return "a pawn Home"
    if action.end < FIRST_TRACK <= action.origin:
        return "into the Safety Zone"
    if action.origin == START:
        return "out of Start"
    if _in_danger(position, me, action.origin) and not _in_danger(move.result, me, action.end):
        return "out of danger"
    return "the quiet move"


def _switched_leader(position: Position, move: Move) -> bool:
    """Whether the switch takes the opponents' pawn on the track nearest its Home."""
    me = position.turn
    for action in move.actions:
        if action.kind == SWITCH:
            leaders = [
                pawn - FIRST_TRACK
                for colour in position.seats
                if colour != me
                for pawn in position.pawns[colour]
                if FIRST_TRACK <= pawn <= LAST_TRACK
            ]
            return action.target_origin - FIRST_TRACK <= min(leaders)
    return False


def _furthest(position: Position, bump: tuple[int, int]) -> bool:
    colour, distance = bump
    return all(distance <= pawn for pawn in position.pawns[colour])


def _track_square(colour: int, distance: int) -> int | None:
    return SQUARE[colour][distance] if FIRST_TRACK <= distance <= LAST_TRACK else None


def _behind(attacker_square: int, target_square: int) -> int:
    return (target_square - attacker_square) % 60


def _threatened_by(position: Position, me: int, bumps: Sequence[tuple[int, int]]) -> bool:
    """Whether a bumped pawn stood within 12 squares behind one of the mover's pawns."""
    mine = [_track_square(me, pawn) for pawn in position.pawns[me]]
    for colour, distance in bumps:
        square = _track_square(colour, distance)
        if square is None:
            continue
        if any(target is not None and 1 <= _behind(square, target) <= 12 for target in mine):
            return True
    return False


def _in_danger(position: Position, me: int, distance: int) -> bool:
    target = _track_square(me, distance)
    if target is None:
        return False
    for colour in position.seats:
        if colour == me:
            continue
        for pawn in position.pawns[colour]:
            square = _track_square(colour, pawn)
            if square is not None and 1 <= _behind(square, target) <= 12:
                return True
    return False


def difficulty(rules: Rules, position: Position, card: int, best: Move) -> str:
    """``easy`` when ``greedy`` plays the best move, ``medium`` when ``tactician`` does,
    else ``hard`` (only the deep search finds it)."""
    seen = puzzle_observation(rules, position, card)
    moves = legal_moves(rules, position, card)
    for level, name in zip(DIFFICULTIES, ("greedy", "tactician"), strict=False):
        if make_bot(name).choose(seen, moves, random.Random(0)).result == best.result:
            return level
    return DIFFICULTIES[-1]
