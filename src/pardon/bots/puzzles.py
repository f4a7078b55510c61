"""Puzzles (the solo puzzles of pardon): a position and a card, find the best move.

A puzzle is a position and the card its player drew; in a game with hands of five
(``adult``) it is the position with the player's own hand (the other hands hidden), and
the answer is a card of the hand *and* its move (the puzzle's ``card`` is ``"hand"``).
The answer is the engine's, found and verified by search:

1. **Sampling.**  Seeded games between computer players (``tactician`` against
   ``greedy``) are played, from the rules and player counts of :data:`SOURCES` in turn;
   every decision of the card (drawn, or chosen from the hand) with :data:`MIN_MOVES` to
   ``Budget.max_moves`` distinct legal moves, in the second half of the game, none of
   which wins at once, in a game not yet as good as decided (``Budget.decided``), may be
   a candidate.  ``Budget.per_game`` of them are drawn at
   random: a share ``Budget.open`` of the draws without the evaluation's screen (among
   the decisions where ``greedy`` and ``tactician`` choose differently, if there are any,
   else among all), the others among those where the evaluation's win chances of the two
   best moves differ by at least ``Budget.screen``.
2. **Search.**  Every legal move is judged by ``playouts`` *determinized playouts*: the
   unseen cards (the pack full, less the card in play or the player's hand, as a puzzle
   shows no discard pile) are dealt in a random order — the other hands first, in a hand
   game — the move is made, and every player then plays by the tuned evaluation (the
   ``tactician`` policy) to the end of the game, the Fire pawn's moves before the draw
   included.  Playout ``i`` uses the same deal for every move (common random numbers), so
   two moves are compared on the same cards.
3. **The test** (:func:`clearly_best`).  The move with the highest share of wins is
   clearly best when, for *every* other move, the 95% interval of the paired difference
   (mean of ``win(best, i) − win(other, i)`` over the playouts ± 1.96 standard errors)
   lies above zero, and it leads the second best by at least ``margin`` (a difference a
   player can feel).  Positions whose best move wins the game at once are left out.
4. **Verification.**  A kept position is searched again with an independent seed and
   more playouts; it becomes a puzzle only if the same move passes the same test again.
   The stored win chances are those of the verification.

The **difficulty** (:func:`grade`) is read from the verified *gain*, the best move's win
chance less the second best's (:data:`GRADES`): ``easy`` from 12 points up, ``medium``
from 8 to 12, ``hard`` below 8.  Who finds the move is a separate field, ``found_by``
(:func:`finder`): ``greedy``, ``tactician`` or only the ``search``.

>>> puzzles = load_puzzles()
>>> puzzle = puzzles[0]
>>> best = puzzle.best_move()
>>> puzzle.is_best(best)
True
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import random
from collections import Counter, deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

from pardon.bots import make_bot
from pardon.bots.evaluation import TUNED, Evaluator, card_chances
from pardon.bots.greedy import value as greedy_value
from pardon.bots.model import outcome, sample_game
from pardon.bots.tactician import best_moves
from pardon.core.board import COLOUR_NAMES, FIRST_TRACK, HOME, LAST_TRACK, SQUARE, START
from pardon.core.cards import NO_CARD, SORRY, card_name, parse_card
from pardon.core.game import Game
from pardon.core.hands import hand_moves
from pardon.core.moves import SWITCH, Move, legal_moves
from pardon.core.notation import format_move, format_position, parse_move, parse_position
from pardon.core.observation import Observation, observe
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.state import Position, check_position, seats_for
from pardon.core.turn import CARD

#: A puzzle offers at least this many distinct legal moves.
MIN_MOVES = 3
#: z of a two-sided 95% interval.
Z95 = 1.96
#: The games the generator samples from, in turn: (rules, players).  Each game's
#: candidates cost about the same (a few moves, playouts to the end); a hand game's
#: playouts are shorter, a 4-player game's longer.
SOURCES: tuple[tuple[str, int], ...] = (
    ("classic", 2),
    ("adult", 2),
    ("classic", 3),
    ("modern", 2),
    ("partners", 4),
    ("classic", 2),
    ("classic-1939", 2),
    ("adult", 3),
    ("classic", 4),
    ("modern", 3),
    ("modern-no-tokens", 2),
    ("classic", 2),
)
DIFFICULTIES = ("easy", "medium", "hard")
#: The least gain (best move's win chance less the second best's) of each difficulty
#: but the last: ``easy`` from 0.12 up, ``medium`` from 0.08, else ``hard``.
GRADES: tuple[tuple[float, str], ...] = ((0.12, "easy"), (0.08, "medium"))
#: Who finds the best move: the one-ply baseline, the tuned evaluation, or only the search.
FINDERS = ("greedy", "tactician", "search")
#: The ``card`` of a hand puzzle: the card is the player's choice, from the hand.
HAND = "hand"
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
    card: str  # the card drawn, as written in a move: "7", "sorry"; "hand": chosen from the hand
    best: str  # the best move's notation
    chances: tuple[tuple[str, float], ...]  # every legal move and its win chance, best first
    theme: str
    difficulty: str  # by the gain (:func:`grade`): "easy", "medium" or "hard"
    playouts: int  # playouts per move of the verifying search
    margin: tuple[float, float]  # 95% interval of best − second best (paired)
    source: str = ""  # where the position came from
    found_by: str = ""  # who finds the best move (:func:`finder`): "greedy", "tactician", "search"

    @property
    def game_rules(self) -> Rules:
        return parse_rules(self.rules)

    @property
    def game_position(self) -> Position:
        return parse_position(self.position)

    @property
    def is_hand(self) -> bool:
        """Whether the card is chosen from the player's hand (a game with hands)."""
        return self.card == HAND

    @property
    def card_value(self) -> int | None:
        """The card drawn; None in a hand puzzle."""
        return None if self.is_hand else parse_card(self.card)

    @property
    def hand(self) -> tuple[int, ...]:
        """The solver's hand (empty unless a hand puzzle)."""
        hands = self.game_position.hands
        return hands[self.game_position.turn] if hands else ()

    @property
    def gain(self) -> float:
        """The best move's win chance less the second best's (the verification's)."""
        return self.chances[0][1] - self.chances[1][1]

    @property
    def colour(self) -> str:
        """The colour to move (the solver's), by name."""
        return COLOUR_NAMES[self.game_position.turn]

    def moves(self) -> list[Move]:
        """Every legal move of the card (of every card of the hand, in a hand puzzle)."""
        return puzzle_moves(self.game_rules, self.game_position, self.card_value)

    def best_move(self) -> Move:
        return parse_move(self.game_rules, self.game_position, self.card_value, self.best)

    def second_move(self) -> Move:
        """The second best move, by the stored chances."""
        return parse_move(self.game_rules, self.game_position, self.card_value, self.chances[1][0])

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
            "found_by": self.found_by,
            "moves": [{"move": move, "win_chance": chance} for move, chance in self.chances],
            "playouts": self.playouts,
            "margin": list(self.margin),
            "source": self.source,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Puzzle:
        """A puzzle from :meth:`to_json`.  A puzzle written before ``found_by`` existed
        named who finds the move in ``difficulty`` (easy: greedy, medium: tactician, hard:
        the search): that becomes ``found_by``, and the difficulty is graded by the gain."""
        low, high = data["margin"]
        puzzle = cls(
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
            found_by=str(data.get("found_by", "")),
        )
        if "found_by" not in data:
            found = dict(zip(DIFFICULTIES, FINDERS, strict=True)).get(puzzle.difficulty, "")
            puzzle = replace(puzzle, found_by=found, difficulty=grade(puzzle.gain))
        return puzzle


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


def puzzle_moves(rules: Rules, position: Position, card: int | None) -> list[Move]:
    """The legal moves of a puzzle: of the card drawn, or (``card`` None, a hand game)
    of every card of the player's hand."""
    if card is None:
        return hand_moves(rules, position)
    return legal_moves(rules, position, card)


def puzzle_observation(rules: Rules, position: Position, card: int | None) -> Observation:
    """What the solver knows: the board and the card (or its own hand, ``card`` None);
    the pack full less that card (less the hand)."""
    if card is None:
        return observe(rules, position, position.turn, None, ())
    return observe(rules, position, position.turn, card, (card,))


def playout_results(
    rules: Rules, position: Position, card: int | None, moves: Sequence[Move], playouts: int, seed: str
) -> list[list[float]]:
    """Each move's results over ``playouts`` paired playouts (1 if the mover wins, or its
    side with partners).  In a hand game the other hands are dealt from the unseen cards
    afresh in each playout (:func:`pardon.bots.model.sample_game`)."""
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
    """Every player plays the evaluation's best move to the end of the game (every
    decision the game offers: the card, a card of the hand, the Fire pawn's move)."""
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
    verification; and how candidates are drawn."""

    step: int = 60  # playouts per move added at each step of the search
    search: int = 240  # at most this many per move in the search
    verify: int = 400
    margin: float = 0.05
    max_moves: int = 10  # positions with more moves are passed over (cost)
    per_game: int = 2  # candidates examined per sampled game
    screen: float = 0.05  # least gap between the evaluation's two best moves
    open: float = 0.25  # share of the candidates drawn without the evaluation's screen
    decided: float = 0.1  # a game whose best move's evaluated win chance is this near 0 or 1 is passed over


@dataclass
class Outcome:
    """What became of one candidate."""

    stage: str  # "accepted", "searched", "verified" (rejected at that stage)
    puzzle: Puzzle | None = None
    notes: dict[str, Any] = field(default_factory=dict)


def examine(
    rules: Rules,
    position: Position,
    card: int | None,
    budget: Budget,
    seed: str,
    source: str = "",
    number: int = 0,
) -> Outcome:
    """Search a candidate, verify it, and make it a puzzle if it passes both (``card``
    None: a hand game's decision, the card chosen from the hand)."""
    moves = puzzle_moves(rules, position, card)
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
    chances = tuple((format_move(position, moves[index]), round(again.chances[index], 4)) for index in order)
    puzzle = Puzzle(
        number=number,
        rules=to_text(rules),
        position=format_position(position),
        card=HAND if card is None else card_name(card).lower().rstrip("!"),
        best=format_move(position, best),
        chances=chances,
        theme=theme(position, best, moves[order[1]]),
        difficulty=grade(chances[0][1] - chances[1][1]),
        playouts=budget.verify,
        margin=(round(again.margin[0], 4), round(again.margin[1], 4)),
        source=source,
        found_by=finder(rules, position, card, best),
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


class Candidate(NamedTuple):
    """A decision of a sampled game worth searching."""

    rules: Rules
    position: Position  # as the player to move sees it (its own hand only)
    card: int | None  # the card drawn; None in a hand game
    source: str  # where it came from: rules, players, game seed, decision
    screen: str  # how it was drawn: "gap" (the evaluation's screen), "disagree", "open"


class _Decision(NamedTuple):
    at: int
    position: Position
    card: int | None
    gap: float
    disagree: bool


def source_of(game_index: int) -> str:
    """The rules and players of a sampled game, e.g. ``classic 2p``."""
    rules_text, players = SOURCES[game_index % len(SOURCES)]
    return f"{rules_text} {players}p"


def candidates(game_index: int, budget: Budget, seed: int) -> Iterator[Candidate]:
    """The decisions of one sampled game worth searching, at most ``budget.per_game``."""
    rules_text, players = SOURCES[game_index % len(SOURCES)]
    rules = parse_rules(rules_text)
    game_seed = seed * 1_000_003 + game_index
    game = Game.new(rules, seats_for(players), game_seed)
    names = ("tactician", "greedy") if game_index % 2 == 0 else ("greedy", "tactician")
    bots = {colour: make_bot(names[index % 2]) for index, colour in enumerate(game.position.seats)}
    rng = random.Random(f"pardon-puzzles:{seed}:{game_index}")
    evaluator = Evaluator(rules, TUNED)
    found: list[_Decision] = []
    decision = 0
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        seen = game.observe(game.decider)
        card = game.card
        if game.stage == CARD and (card is not None or rules.hand) and MIN_MOVES <= len(moves) <= budget.max_moves:
            screened = _screen(evaluator, seen, moves, budget.decided)
            if screened is not None:
                found.append(_Decision(decision, seen.position, card, *screened))
        decision += 1
        game.play_trusted(bots[game.decider].choose(seen, moves, rng))
    # the second half of the game: more is at stake and the playouts are shorter
    late = [entry for entry in found if entry.at >= decision // 2]
    gaps = [entry for entry in late if entry.gap >= budget.screen]
    others = [entry for entry in late if entry.gap < budget.screen]
    for entry, screen in _draw(rng, budget, gaps, others):
        source = f"{rules_text} {players}p seed {game_seed} decision {entry.at}"
        yield Candidate(rules, entry.position, entry.card, source, screen)


def _draw(
    rng: random.Random, budget: Budget, gaps: list[_Decision], others: list[_Decision]
) -> list[tuple[_Decision, str]]:
    """``budget.per_game`` decisions at most: each draw is open (not screened by the
    evaluation) with chance ``budget.open``, preferring a decision where the players
    disagree; a draw whose kind has none left takes one of the other kind."""
    rng.shuffle(gaps)
    rng.shuffle(others)
    others.sort(key=lambda entry: not entry.disagree)  # stable: the disagreements first, shuffled
    drawn: list[tuple[_Decision, str]] = []
    for _ in range(budget.per_game):
        wants_open = rng.random() < budget.open
        if not gaps and not others:
            break
        if (wants_open and others) or not gaps:
            entry = others.pop(0)
            drawn.append((entry, "disagree" if entry.disagree else "open"))
        else:
            drawn.append((gaps.pop(0), "gap"))
    return drawn


def _screen(
    evaluator: Evaluator, seen: Observation, moves: list[Move], decided: float = 0.0
) -> tuple[float, bool] | None:
    """The evaluation's win-chance gap between its two best moves, and whether ``greedy``
    and ``tactician`` choose differently (no move both think best); None for a position
    that is no puzzle: a move that wins at once, or a game as good as decided (the best
    move's win chance by the evaluation within ``decided`` of 0 or 1)."""
    if any(move.result.winner is not None for move in moves):
        return None
    rules, position = seen.rules, seen.position
    puzzle_view = puzzle_observation(rules, position, seen.card)
    chances = card_chances(puzzle_view.remaining(), rules)
    values = sorted((evaluator.win_chances(move.result, chances)[position.turn] for move in moves), reverse=True)
    tactician = {move.result for move in best_moves(evaluator, puzzle_view, moves)}
    worth = [greedy_value(move.result, position.turn) for move in moves]
    greedy = {move.result for move, value in zip(moves, worth, strict=True) if value == max(worth)}
    if not decided <= values[0] <= 1 - decided:
        return None
    return values[0] - values[1], not tactician & greedy


def search_game(game_index: int, budget: Budget, seed: int) -> list[Outcome]:
    """Every candidate of one sampled game examined (its puzzles numbered 0); the result
    depends only on the arguments, so games can be searched in any order, in any process."""
    outcomes = []
    for candidate in candidates(game_index, budget, seed):
        rules, position, card, source, screen = candidate
        check_position(rules, position)
        result = examine(rules, position, card, budget, f"{seed}:{source}", source)
        result.notes["screen"] = screen
        outcomes.append(result)
    return outcomes


def search_games(
    games: Iterable[int], budget: Budget, seed: int, jobs: int = 1
) -> Generator[tuple[int, list[Outcome]], None, None]:
    """Each game of ``games`` with its outcomes, in the order of ``games``; with ``jobs``
    above 1 the games are searched by that many processes, a few games ahead (the
    results are the same).  ``games`` is read lazily: it may stop when it sees fit."""
    if jobs <= 1:
        for game_index in games:
            yield game_index, search_game(game_index, budget, seed)
        return
    import multiprocessing

    ahead = 2 * jobs
    with multiprocessing.get_context().Pool(jobs) as pool:
        waiting: deque[tuple[int, Any]] = deque()
        source = iter(games)
        while True:
            for game_index in itertools.islice(source, ahead - len(waiting)):
                waiting.append((game_index, pool.apply_async(search_game, (game_index, budget, seed))))
            if not waiting:
                return
            game_index, pending = waiting.popleft()
            yield game_index, pending.get()
        # leaving the block terminates the games still under way (the caller has stopped)


def generate(
    budget: Budget,
    seed: int,
    games: Iterable[int],
    wanted: int,
    done: Callable[[int, list[Outcome]], None] | None = None,
    jobs: int = 1,
    enough: Callable[[], bool] | None = None,
) -> list[Puzzle]:
    """Puzzles from the sampled games ``games`` until ``wanted`` are verified (or, if given,
    until ``enough()`` says so after a game), numbered in game order; ``done`` is told each
    game's outcomes (for progress and resuming).  ``jobs``: see :func:`search_games`."""
    puzzles: list[Puzzle] = []
    with contextlib.closing(search_games(games, budget, seed, jobs)) as searched:  # closed: the processes stop
        for game_index, outcomes in searched:
            for result in outcomes:
                if result.puzzle is not None:
                    result.puzzle = replace(result.puzzle, number=len(puzzles) + 1)
                    puzzles.append(result.puzzle)
            if done is not None:
                done(game_index, outcomes)
            if enough() if enough is not None else len(puzzles) >= wanted:
                break
    return puzzles


# ------------------------------------------------------------------ themes and difficulty


def theme(position: Position, move: Move, second: Move | None = None) -> str:
    """A short name for what the best move does (where it differs from the ``second`` best
    only in where a Fire or Ice token goes, or plays a hand's 2 first, that is its theme)."""
    me = position.turn
    if second is not None and move.result.pawns == second.result.pawns:
        if move.result.ice != second.result.ice:
            return "where the Ice goes"
        if move.result.fire != second.result.fire:
            return "where the Fire goes"
    if position.hands and second is not None and move.card == 2 and second.card not in (2, NO_CARD):
        return "play the 2 first"  # it draws again: the other card is still held after it
    bumped = [colour for colour, _ in move.bumps if colour != me]
    own_bumped = any(colour == me for colour, _ in move.bumps)
    if move.is_pass:
        return "the discard" if position.hands else "decline the switch"
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


def grade(gain: float) -> str:
    """The difficulty of a puzzle whose best move gains ``gain`` over the second best
    (:data:`GRADES`): the smaller the gain, the harder the best move is to tell apart.

    >>> grade(0.2), grade(0.1), grade(0.06)
    ('easy', 'medium', 'hard')
    """
    gain = round(gain, 4)  # the stored chances have 4 decimals
    for least, level in GRADES:
        if gain >= least:
            return level
    return DIFFICULTIES[-1]


def finder(rules: Rules, position: Position, card: int | None, best: Move) -> str:
    """Who finds the best move: ``greedy`` when it plays it, else ``tactician`` when it
    does, else ``search`` (only the deep search finds it)."""
    seen = puzzle_observation(rules, position, card)
    moves = puzzle_moves(rules, position, card)
    for name in FINDERS[:-1]:
        if make_bot(name).choose(seen, moves, random.Random(0)).result == best.result:
            return name
    return FINDERS[-1]


def regrade(puzzle: Puzzle) -> Puzzle:
    """The puzzle with its theme, difficulty and finder by the code of today, from its
    stored position and chances (no search)."""
    rules, position, card = puzzle.game_rules, puzzle.game_position, puzzle.card_value
    best = puzzle.best_move()
    return replace(
        puzzle,
        theme=theme(position, best, puzzle.second_move()),
        difficulty=grade(puzzle.gain),
        found_by=finder(rules, position, card, best),
    )
