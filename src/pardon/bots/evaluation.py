"""How good a position is for each colour: the hand-written evaluation that ``tactician``,
``expectimax`` and ``mcts`` share.

A colour's *raw score* counts, in squares of progress:

- progress: how far each pawn has come from Start (Start 0, start exit 2, Home 66);
- ``out``: a bonus per pawn out of Start, which needs a 1, a 2 or a Sorry! (classic);
- ``safety`` / ``home``: bonuses per pawn parked in the Safety Zone or Home, where nobody
  can bump it ("park pawns in your Safety Zone");
- ``spread``: a bonus per pawn in play beyond the first ("spread your pawns out": more
  cards have a use, a split 7 has two targets);
- ``reach``: a bonus per track pawn close enough to enter its Safety Zone on one card;
- ``threat``: minus the expected loss from being bumped before the next turn.  For each
  track pawn it counts the cards left in the pack (card counting) that let an opponent
  land on it — forward, backward, a split 7 part, a slide's sweep, coming out of Start
  onto it — or hit it with a Sorry!, and charges that chance times what the pawn has
  gained; ``later`` scales the danger from opponents who draw only after the pawn's owner
  has had a turn (1, the default, treats every opponent alike).

A colour's *value* is its raw score less its opponents' (the mean and the best of them,
mixed by ``leader``); partners add their raws.  ``win_chances`` turns raws into a
probability per colour (a softmax with temperature ``scale``, which shrinks with the share
of the way still to go to the power ``phase``: the same lead is worth more near the end;
both calibrated on who actually wins by ``scripts/calibrate.py``), which ``mcts`` backs up
and the hints show.

The weights are one dataclass of floats, :class:`Weights`, tuned by
``scripts/tune.py``; :data:`TUNED` holds the result (``tactician``'s).  With ``learned=1``
(:data:`SEARCHED`, the searches' default) the progress and bonuses are replaced by one value
per square learned from who wins self-play games (:mod:`pardon.bots.learned`), with its own
``threat``, ``later`` and temperature; a game without learned values keeps the hand-written
ones.  Either way a colour's raw score is the sum of its pawns' values less the danger.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import astuple, dataclass, fields, replace
from typing import Final

from pardon.bots.learned import LEARNED, Terms
from pardon.core.board import COLOURS, FIRST_TRACK, HOME, SQUARE, START, START_EXIT, TRACK_LENGTH, partner
from pardon.core.cards import DECKS, SORRY
from pardon.core.moves import tables
from pardon.core.rules import Rules
from pardon.core.state import Position

LAST_TRACK: Final = START - 1
FORWARD_CARDS: Final = (1, 2, 3, 5, 7, 8, 10, 11, 12)
#: Distances from which one card can carry a pawn into its Safety Zone or Home.
REACH_LIMIT: Final = 17
_HITS_CACHE_SIZE: Final = 50_000
MIN_REMAINING: Final = 0.02  # a floor for ``remaining`` in ``temperature_at``: the scale stays positive
WIN: Final = 1000.0  # the value of a won game, beyond any raw score


@dataclass(frozen=True, slots=True)
class Weights:
    """The evaluation's weights, in squares of progress (progress itself counts 1)."""

    out: float = 8.0
    safety: float = 3.0
    home: float = 8.0
    spread: float = 0.0
    reach: float = 2.0
    threat: float = 0.65
    leader: float = 0.5
    scale: float = 0.0  # 0: the calibrated scale and phase of the game (``CALIBRATED_SCALES``)
    later: float = 1.0
    phase: float = 0.0  # the scale shrinks as (squares left / squares at the start) ** phase
    # 1: the game's learned pawn values, threat, later and temperature (``LEARNED``), in place of
    # out, safety, home, reach, threat and later
    learned: float = 0.0

    def to_list(self) -> list[float]:
        return list(astuple(self))

    @classmethod
    def from_list(cls, values: Iterable[float]) -> Weights:
        return cls(*values)

    def with_changes(self, **changes: float) -> Weights:
        return replace(self, **changes)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(field.name for field in fields(cls))


#: The weights found by ``scripts/tune.py`` (see docs/bots.md): ``tactician``'s.
TUNED: Final = Weights()
#: The searches' weights: the learned evaluation (:mod:`pardon.bots.learned`) where the
#: game has one, else the tuned weights.
SEARCHED: Final = TUNED.with_changes(learned=1.0)

#: The win chances' ``(scale, phase)`` by (hands?, players), fitted by ``scripts/calibrate.py``:
#: the maximum-likelihood temperature for the winners of ``tactician`` self-play games, at
#: the start and as the pawns near Home (``Evaluator.scale_at``).  The more luck a game
#: holds, the more squares of lead one more point of chance needs.
CALIBRATED_SCALES: Final[dict[tuple[bool, int], tuple[float, float]]] = {
    (False, 2): (301.0, 0.75),
    (False, 3): (266.0, 0.8),
    (False, 4): (214.0, 0.8),
    (True, 2): (122.0, 0.45),
    (True, 3): (144.0, 0.6),
    (True, 4): (137.0, 0.7),
}


def _bit(card: int) -> int:
    return 1 << card


class _Reach:
    """Which track squares each of a colour's pawns can hit with which cards, as card bit masks.

    ``plain[d]`` maps square -> cards for a pawn ``d`` from Home; ``split`` adds the parts
    of a split 7 (1-6), usable only when another pawn can take the rest.
    """

    __slots__ = ("plain", "split")

    def __init__(self, rules: Rules, colour: int) -> None:
        rides = tables(rules).rides[colour]
        self.plain: list[dict[int, int]] = [{} for _ in range(START + 1)]
        self.split: list[dict[int, int]] = [{} for _ in range(START + 1)]
        for distance in range(FIRST_TRACK, START):
            for card in FORWARD_CARDS:
                self._add(self.plain[distance], rides, colour, distance - card, card)
            self._add(self.plain[distance], rides, colour, _back(distance, 4), 4)
            self._add(self.plain[distance], rides, colour, _back(distance, 1), 10)
            self.split[distance] = dict(self.plain[distance])
            for part in range(1, 7):
                self._add(self.split[distance], rides, colour, distance - part, 7)
        for card, landing in _leave_start(rules).items():
            self._add(self.plain[START], rides, colour, landing, card)
        self.split[START] = self.plain[START]

    @staticmethod
    def _add(
        hits: dict[int, int], rides: dict[int, tuple[int, tuple[int, ...]]], colour: int, at: int, card: int
    ) -> None:
        if not FIRST_TRACK <= at <= LAST_TRACK:
            return  # into the Safety Zone, or past Home: nobody there to bump
        square = SQUARE[colour][at]
        bit = _bit(card)
        hits[square] = hits.get(square, 0) | bit
        ride = rides.get(square)
        if ride is not None:
            for swept in ride[1]:
                hits[swept] = hits.get(swept, 0) | bit


def _back(distance: int, count: int) -> int:
    at = distance + count
    return at - TRACK_LENGTH if at > LAST_TRACK else at


def _leave_start(rules: Rules) -> dict[int, int]:
    """Where each card brings a pawn out of Start (docs/rules.md: "Leaving Start", "The 2013 edition")."""
    if rules.leave_start == "circle":
        return {1: START_EXIT, 2: START_EXIT}
    if rules.leave_start == "forward-circle":
        return dict.fromkeys(FORWARD_CARDS, START_EXIT)
    return {card: START_EXIT - (card - 1) for card in FORWARD_CARDS}


_REACHES: dict[Rules, tuple[_Reach, ...]] = {}


def _reaches(rules: Rules) -> tuple[_Reach, ...]:
    found = _REACHES.get(rules)
    if found is None:
        found = _REACHES[rules] = tuple(_Reach(rules, colour) for colour in COLOURS)
    return found


def remaining(position: Position) -> float:
    """The share of their way Home the seated pawns still have to go: 1 at the start, 0 at the end."""
    pawns = position.pawns
    seats = position.seats
    return sum(sum(pawns[colour]) for colour in seats) / (START * len(pawns[seats[0]]) * len(seats))


def temperature_at(scale: float, phase: float, left: float) -> float:
    """The win chances' temperature with ``left`` of the way still to go: ``scale`` times
    ``left`` to the power ``phase`` (a lead is worth more near the end of a game)."""
    return scale * math.pow(max(left, MIN_REMAINING), phase)


def card_chances(remaining: Counter[int] | dict[int, int], rules: Rules) -> list[float]:
    """The chance of each card (indexed by card) on the next draw.

    An empty pack is reshuffled from the discards: then every card of the deck can come.
    """
    total = sum(remaining.values())
    source: dict[int, int] = dict(remaining) if total else DECKS[rules.deck]
    total = total or sum(source.values())
    chances = [0.0] * (SORRY + 1)
    for card, count in source.items():
        chances[card] = count / total
    return chances


def hand_pawn_values(weights: Weights) -> tuple[float, ...]:
    """What a pawn at each distance from Home is worth by the hand-written terms: its
    progress, ``out``, and ``home``, ``safety`` or ``reach`` where it stands (Start 0)."""
    values = []
    for pawn in range(START + 1):
        value = 0.0 if pawn == START else START - pawn + weights.out
        if pawn == HOME:
            value += weights.home
        elif pawn < FIRST_TRACK:
            value += weights.safety
        elif pawn <= REACH_LIMIT:
            value += weights.reach
        values.append(value)
    return tuple(values)


class Evaluator:
    """Raw scores, values and win chances of positions under one set of rules."""

    __slots__ = ("_cached_chances", "_hits_cache", "_mask_cache", "_terms", "reaches", "rules", "weights")

    def __init__(self, rules: Rules, weights: Weights = TUNED) -> None:
        self.rules = rules
        self.weights = weights
        self.reaches = _reaches(rules)
        self._mask_cache: dict[int, float] = {}  # chance of a set of cards, for ``_cached_chances``
        self._cached_chances: list[float] | None = None
        self._hits_cache: dict[tuple[int, tuple[int, ...]], tuple[dict[int, int], int]] = {}
        self._terms: dict[int, Terms] = {}

    def terms(self, players: int) -> Terms:
        """The terms of a game of ``players``: learned ones if the weights ask for them and
        the game has them (partners: the 4-player ones), else the hand-written weights;
        a ``scale`` in the weights overrides the temperature."""
        found = self._terms.get(players)
        if found is None:
            found = self._terms[players] = self._make_terms(players)
        return found

    def _make_terms(self, players: int) -> Terms:
        weights = self.weights
        key = (self.rules.hand > 0, 4 if self.rules.partners else players)
        terms = LEARNED.get(key) if weights.learned else None
        if terms is None:
            scale, phase = CALIBRATED_SCALES.get(key, CALIBRATED_SCALES[(False, 2)])
            terms = Terms(hand_pawn_values(weights), weights.threat, weights.later, scale, phase)
        if weights.scale > 0:
            terms = terms._replace(scale=weights.scale, phase=weights.phase)
        return terms

    def raws(self, position: Position, chances: list[float]) -> list[float]:
        """Each colour's raw score (0 for colours not in play), indexed by colour."""
        pawns = position.pawns
        seats = position.seats
        terms = self.terms(len(seats))
        values = terms.pawns
        spread = self.weights.spread
        raws = [0.0] * len(COLOURS)
        for colour in seats:
            row = pawns[colour]
            raw = sum([values[pawn] for pawn in row])
            if spread:
                raw += spread * max(0, sum(1 for pawn in row if HOME < pawn < START) - 1)
            if terms.threat:
                raw -= terms.threat * self.danger(colour, position, chances, terms.later)
            raws[colour] = raw
        return raws

    def danger(self, colour: int, position: Position, chances: list[float], later: float | None = None) -> float:
        """Expected squares lost by ``colour``'s track pawns to its opponents' next cards;
        the danger from opponents who draw only after ``colour`` is weighed by ``later``
        (the weights' if not given)."""
        row = position.pawns[colour]
        targets = [pawn for pawn in row if FIRST_TRACK <= pawn <= LAST_TRACK]
        if not targets:
            return 0.0
        squares = SQUARE[colour]
        later = self.weights.later if later is None else later
        danger = 0.0
        team = (colour, partner(colour)) if self.rules.partners else (colour,)
        seats = position.seats
        first = seats.index(position.turn) if position.turn in seats else 0
        place = (seats.index(colour) - first) % len(seats)  # how many players draw before ``colour``
        for attacker in seats:
            if attacker in team:
                continue
            hits, anywhere = self._hits(attacker, position.pawns[attacker])
            if not hits and not anywhere:
                continue
            # an attacker who draws only after ``colour`` has had its turn is a lesser danger
            weight = 1.0 if (seats.index(attacker) - first) % len(seats) < place else later
            for pawn in targets:
                mask = hits.get(squares[pawn], 0) | anywhere
                if mask:
                    danger += weight * self._chance(mask, chances) * (START - pawn + self.weights.out)
        return danger

    def _hits(self, attacker: int, row: tuple[int, ...]) -> tuple[dict[int, int], int]:
        """The squares ``attacker``'s pawns can hit, with the cards that do it, and the cards
        that hit any track square (a Sorry! while a pawn waits in Start).

        Sibling positions of a search share most rows, so the answers are kept (bounded).
        """
        key = (attacker, row)
        found = self._hits_cache.get(key)
        if found is None:
            if len(self._hits_cache) >= _HITS_CACHE_SIZE:
                self._hits_cache.clear()
            found = self._hits_cache[key] = self._find_hits(attacker, row)
        return found

    def _find_hits(self, attacker: int, row: tuple[int, ...]) -> tuple[dict[int, int], int]:
        reach = self.reaches[attacker]
        movable = sum(1 for pawn in row if HOME < pawn < START)
        table = reach.split if movable > 1 else reach.plain
        hits: dict[int, int] = {}
        in_start = False
        for pawn in row:
            if pawn == START:
                if in_start:
                    continue
                in_start = True
            elif not FIRST_TRACK <= pawn <= LAST_TRACK:
                continue
            for square, mask in table[pawn].items():
                hits[square] = hits.get(square, 0) | mask
        return hits, _bit(SORRY) if in_start else 0  # a Sorry! can hit any pawn on the track

    def _chance(self, mask: int, chances: list[float]) -> float:
        if chances is not self._cached_chances:
            self._mask_cache.clear()
            self._cached_chances = chances
        found = self._mask_cache.get(mask)
        if found is None:
            found = 0.0
            for card in range(1, SORRY + 1):
                if mask >> card & 1:
                    found += chances[card]
            self._mask_cache[mask] = found
        return found

    def values(self, position: Position, chances: list[float]) -> list[float]:
        """Each colour's value: its (team's) raw score less its opponents'; ±WIN once decided."""
        winner = position.winner
        if winner is not None:
            return self._decided(position, winner)
        return self.values_from_raws(position.seats, self.raws(position, chances))

    def values_from_raws(self, seats: tuple[int, ...], raws: list[float]) -> list[float]:
        sides = self._sides(seats, raws)
        values = [0.0] * len(COLOURS)
        mix = self.weights.leader
        for colour in seats:
            if self.rules.partners:
                others = [sides[(colour + 1) % len(COLOURS)]]
            else:
                others = [sides[other] for other in seats if other != colour]
            if not others:
                values[colour] = sides[colour]  # solo: only progress counts
                continue
            values[colour] = sides[colour] - (mix * max(others) + (1 - mix) * sum(others) / len(others))
        return values

    def _sides(self, seats: tuple[int, ...], raws: list[float]) -> list[float]:
        if not self.rules.partners:
            return raws
        return [raws[colour] + raws[partner(colour)] for colour in COLOURS]

    def _decided(self, position: Position, winner: int) -> list[float]:
        winners = {winner, partner(winner)} if self.rules.partners else {winner}
        return [WIN if colour in winners else -WIN for colour in COLOURS]

    def scale_at(self, position: Position) -> float:
        """The temperature of ``position``'s win chances (see :func:`temperature_at`)."""
        scale, phase = self.temperature(len(position.seats))
        return temperature_at(scale, phase, remaining(position)) if phase else scale

    def margin_chance(self, margin: float, position: Position) -> float:
        """The win chance of leading by ``margin`` (a searched value) in ``position``: the
        2-player softmax, a logistic at the position's temperature."""
        value = margin / self.scale_at(position)
        if value < -50:
            return 0.0  # hopeless (and exp would overflow)
        return 1 / (1 + math.exp(-value))

    def temperature(self, players: int) -> tuple[float, float]:
        """The win chances' ``(scale, phase)``: the weights' if ``scale`` is set, else the
        learned or calibrated pair (partners are scored by side, with the 4-player pair)."""
        terms = self.terms(players)
        return terms.scale, terms.phase

    def win_chances(self, position: Position, chances: list[float]) -> list[float]:
        """Each colour's estimated chance to win (its side's, with partners), by colour."""
        winner = position.winner
        if winner is not None:
            return [1.0 if value > 0 else 0.0 for value in self._decided(position, winner)]
        return self._chances_from_raws(position, self.raws(position, chances))

    def values_and_chances(self, position: Position, chances: list[float]) -> tuple[list[float], list[float]]:
        """:meth:`values` and :meth:`win_chances` together, from one evaluation of ``position``."""
        winner = position.winner
        if winner is not None:
            values = self._decided(position, winner)
            return values, [1.0 if value > 0 else 0.0 for value in values]
        raws = self.raws(position, chances)
        return self.values_from_raws(position.seats, raws), self._chances_from_raws(position, raws)

    def _chances_from_raws(self, position: Position, raws: list[float]) -> list[float]:
        seats = position.seats
        sides = self._sides(seats, raws)
        if len(seats) == 1:
            return [1.0 if colour in seats else 0.0 for colour in COLOURS]
        scale = self.scale_at(position)
        top = max(sides[colour] for colour in seats)
        weights = {colour: math.exp((sides[colour] - top) / scale) for colour in seats}
        if self.rules.partners:  # a side's chance, counted once per side
            total = weights[seats[0]] + weights[(seats[0] + 1) % len(COLOURS)]
        else:
            total = sum(weights.values())
        return [weights[colour] / total if colour in weights else 0.0 for colour in COLOURS]
