"""``expert``: ``expectimax``'s search, judging positions with a value learned by self-play.

The value is a small neural network (``expert.json``, made by ``scripts/train_expert.py``
on the batch engine): the chance that the player to draw next wins, from the position
before that draw.  Its inputs, seen from that player (*mine*) and the opponent (*theirs*):

* ``MINE`` / ``THEIRS`` (67 each): how many of the player's / the opponent's pawns stand at
  each distance from Home (0 Home, 1–5 the Safety Zone, 6–65 the track, 66 Start);
* ``GAP`` (59): for every pair of one of the player's pawns and one of the opponent's on
  the track, how far the opponent's pawn is behind the player's (1–59 squares clockwise):
  the threats in both directions, which no per-square value can see;
* ``PACK`` (11): the cards of each kind left to draw, as a share of that kind in the deck
  (the card counting every player can do from the discard pile).

The network was trained on the 2-player classic game, so ``expert`` plays that game with
it; every other game (more players, hands, other editions) it plays as ``expectimax`` does
(docs/bots.md says how it was made and what it is worth).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from pardon.bots.evaluation import Evaluator
from pardon.bots.expectimax import ExpectimaxBot, Vector
from pardon.core.board import SQUARE, START, TRACK_LENGTH
from pardon.core.cards import CARDS, DECKS
from pardon.core.observation import Observation
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import Position

NETWORK_FILE: Final = Path(__file__).with_name("expert.json")
TRACK_SQUARES: Final = TRACK_LENGTH
DISTANCES: Final = START + 1  # 0 (Home) .. 66 (Start)
MINE: Final = 0
THEIRS: Final = MINE + DISTANCES
GAP: Final = THEIRS + DISTANCES
PACK: Final = GAP + TRACK_SQUARES - 1
FEATURES: Final = PACK + len(CARDS)


@dataclass(frozen=True)
class Network:
    """One hidden layer of tanh units and a logistic output: ``w1[feature][unit]``."""

    w1: list[list[float]]
    b1: list[float]
    w2: list[float]
    b2: float

    @classmethod
    def load(cls, path: Path = NETWORK_FILE) -> Network:
        data = json.loads(path.read_text())
        return cls(w1=data["w1"], b1=data["b1"], w2=data["w2"], b2=data["b2"])

    def save(self, path: Path) -> None:
        rounded = {
            "w1": [[round(w, 5) for w in row] for row in self.w1],
            "b1": [round(b, 5) for b in self.b1],
            "w2": [round(w, 5) for w in self.w2],
            "b2": round(self.b2, 5),
        }
        path.write_text(json.dumps(rounded, separators=(",", ":")) + "\n")

    def chance(self, active: list[int], pack: list[float]) -> float:
        """The chance from the indices of the features that are 1 (repeated when a count is
        more) and the pack's part of the hidden units (:meth:`pack_part`)."""
        w1 = self.w1
        totals = map(sum, zip(pack, *(w1[index] for index in active), strict=True))
        logit = self.b2 + sum(w * math.tanh(total) for w, total in zip(self.w2, totals, strict=True))
        return 1.0 / (1.0 + math.exp(-logit)) if logit > -500 else 0.0

    def pack_part(self, shares: tuple[float, ...]) -> list[float]:
        """The hidden units' biases plus what the pack's shares add to them."""
        part = list(self.b1)
        for offset, share in enumerate(shares):
            if share:
                row = self.w1[PACK + offset]
                part = [total + share * weight for total, weight in zip(part, row, strict=True)]
        return part


def active_features(position: Position) -> list[int]:
    """The inputs that are not 0, seen from the player to draw next (each index once per
    count): its pawns, its opponent's, and each gap between them on the track."""
    mine_colour = position.turn
    theirs_colour = next(colour for colour in position.seats if colour != mine_colour)
    mine, theirs = position.pawns[mine_colour], position.pawns[theirs_colour]
    active = [MINE + distance for distance in mine]
    active.extend(THEIRS + distance for distance in theirs)
    mine_squares, theirs_squares = SQUARE[mine_colour], SQUARE[theirs_colour]
    for distance in mine:
        square = mine_squares[distance]
        if square < 0:
            continue
        for other in theirs:
            behind = theirs_squares[other]
            if behind >= 0:
                active.append(GAP - 1 + (square - behind) % TRACK_SQUARES)
    return active


def pack_shares(remaining: Counter[int], rules: Rules) -> tuple[float, ...]:
    """The cards of each kind left to draw, as a share of that kind in the deck."""
    deck = DECKS[rules.deck]
    return tuple(remaining[card] / deck[card] for card in CARDS)


@lru_cache(maxsize=1)
def trained_network() -> Network:
    """The trained network, read once."""
    return Network.load()


@lru_cache(maxsize=1)
def _trained_rules() -> Rules:
    return parse_rules("classic")


class ExpertBot(ExpectimaxBot):
    """``expectimax`` with the learned network at the search's horizon (2-player classic)."""

    name = "expert"

    def __init__(self, network: str = "", **options: Any) -> None:
        super().__init__(**options)
        self.network = network  # another network's file (experiments); "" for the one shipped
        self._network = Network.load(Path(network)) if network else trained_network()
        self._packs: dict[tuple[float, ...], list[float]] = {}
        self._learned = False  # set per decision: whether this game is the network's

    def move_values(self, observation: Observation, moves: list[Any], rng: Any, roots: int = 0) -> list[Vector]:
        self._learned = observation.rules == _trained_rules() and len(observation.position.seats) == 2
        return super().move_values(observation, moves, rng, roots)

    def _context(self, remaining: Counter[int], rules: Rules) -> Any:
        if not self._learned:
            return super()._context(remaining, rules)
        shares = pack_shares(remaining, rules)
        part = self._packs.get(shares)
        if part is None:
            if len(self._packs) > 4096:
                self._packs.clear()
            part = self._packs[shares] = self._network.pack_part(shares)
        return part

    def _leaf(self, evaluator: Evaluator, position: Position, chances: Any) -> Vector:
        if not self._learned:
            return super()._leaf(evaluator, position, chances)
        vector = [0.0, 0.0, 0.0, 0.0]
        if position.winner is not None:
            vector[position.winner] = 1.0
            return vector
        drawer = position.turn
        chance = self._network.chance(active_features(position), chances)
        for colour in position.seats:
            vector[colour] = chance if colour == drawer else 1.0 - chance
        return vector

    def _rank(self, evaluator: Evaluator, position: Position, chances: Any) -> Vector:
        if not self._learned:
            return super()._rank(evaluator, position, chances)
        return self._leaf(evaluator, position, chances)
