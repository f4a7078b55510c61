"""``expert``: ``expectimax``'s search, judging positions with a value learned by self-play.

The value is a small neural network (``expert.json``, made by ``scripts/train_expert.py``
on the batch engine): each player's chance to win, from the position before a draw.  Its
inputs, seen from the player to draw (*mine*) and the others in the order they play (with
2 players, *theirs*; :class:`Layout` places them for any number):

* ``MINE`` / ``THEIRS`` (67 each): how many of the player's / the opponent's pawns stand at
  each distance from Home (0 Home, 1–5 the Safety Zone, 6–65 the track, 66 Start);
* ``GAP`` (59 for each opponent): for every pair of one of the player's pawns and one of
  the opponent's on the track, how far the opponent's pawn is behind the player's (1–59
  squares clockwise): the threats in both directions, which no per-square value can see;
* ``PACK`` (11): the cards of each kind left to draw, as a share of that kind in the deck
  (the card counting every player can do from the discard pile);
* and, in a network made with them (``scripts/train_expert.py --threats``), two *threat*
  inputs for each opponent (:func:`threat_inputs`): the chance that its next card moves
  one of its pawns onto one of the player's, weighed by how far that pawn has come, and
  the same the other way.  The gaps and the pack are inputs already, but the product of a
  gap and its card's share is what a danger is, and a small network only approximates it.

A network judges the classic game of its number of players: the shipped one is for 2
players (a 4-player network, ``expert-4.json`` or ``network=PATH``, is used with 4).  Every
other game (other player counts, hands, other editions) ``expert`` plays as ``expectimax``
does (docs/bots.md says how the network was made and what it is worth).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from pardon.bots.evaluation import Evaluator
from pardon.bots.expectimax import ExpectimaxBot, Vector
from pardon.core.board import FIRST_TRACK, SQUARE, START, TRACK_LENGTH
from pardon.core.cards import CARDS, DECKS
from pardon.core.errors import InvalidError
from pardon.core.observation import Observation
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import Position

NETWORK_FILES: Final = {2: Path(__file__).with_name("expert.json"), 4: Path(__file__).with_name("expert-4.json")}
#: Networks kept as they were shipped, for ``expert(network=NAME)`` to play: each named by
#: the month it was the shipped 2-player one (``2026-12``), so that a network that replaces it
#: can be measured against it (docs/bots.md).
KEPT_NETWORKS: Final = Path(__file__).with_name("networks")
NETWORK_FILE: Final = NETWORK_FILES[2]
TRACK_SQUARES: Final = TRACK_LENGTH
DISTANCES: Final = START + 1  # 0 (Home) .. 66 (Start)


@dataclass(frozen=True)
class Layout:
    """Where each input of a game of ``players`` sits: the pawns of each player by distance
    (the player to draw first, then the others in the order they play), the gaps between
    the player to draw and each other player, the pack."""

    players: int

    def distance(self, seat: int) -> int:
        """The first input of the pawns of the player ``seat`` places after the one to draw."""
        return seat * DISTANCES

    def gap(self, seat: int) -> int:
        """The first gap input between the player to draw and the one ``seat`` places after it."""
        return self.players * DISTANCES + (seat - 1) * (TRACK_SQUARES - 1)

    @property
    def pack(self) -> int:
        return self.gap(self.players)

    @property
    def features(self) -> int:
        """The inputs of a network without the threat inputs (see :meth:`threat`)."""
        return self.pack + len(CARDS)

    def threat(self, seat: int) -> int:
        """The two threat inputs between the player to draw and the one ``seat`` places
        after it: the danger to the player's pawns, then the player's to theirs."""
        return self.features + 2 * (seat - 1)

    @property
    def with_threats(self) -> int:
        """The inputs of a network with the threat inputs."""
        return self.threat(self.players)


TWO: Final = Layout(2)
MINE: Final = TWO.distance(0)
THEIRS: Final = TWO.distance(1)
GAP: Final = TWO.gap(1)
PACK: Final = TWO.pack
FEATURES: Final = TWO.features


@dataclass(frozen=True)
class Network:
    """One hidden layer of tanh units and, for 2 players, a logistic output (the chance of
    the player to draw), else a softmax over the players (each one's chance, the player to
    draw first): ``w1[feature][unit]``, ``w2[unit][output]``."""

    w1: list[list[float]]
    b1: list[float]
    w2: list[list[float]]
    b2: list[float]

    @classmethod
    def load(cls, path: Path = NETWORK_FILE) -> Network:
        data = json.loads(path.read_text())
        w2, b2 = data["w2"], data["b2"]
        if not isinstance(b2, list):  # one output, kept flat in the file
            w2, b2 = [[weight] for weight in w2], [b2]
        return cls(w1=data["w1"], b1=data["b1"], w2=w2, b2=b2)

    @property
    def players(self) -> int:
        return 2 if len(self.b2) == 1 else len(self.b2)

    def save(self, path: Path) -> None:
        w2: Any = [[round(w, 5) for w in row] for row in self.w2]
        b2: Any = [round(b, 5) for b in self.b2]
        if len(b2) == 1:
            w2, b2 = [row[0] for row in w2], b2[0]
        rounded = {"w1": [[round(w, 5) for w in row] for row in self.w1], "b1": [round(b, 5) for b in self.b1]}
        path.write_text(json.dumps({**rounded, "w2": w2, "b2": b2}, separators=(",", ":")) + "\n")

    @property
    def threats(self) -> bool:
        """Whether the network takes the threat inputs (:func:`threat_inputs`)."""
        return len(self.w1) == Layout(self.players).with_threats

    def _hidden(self, active: list[int], pack: list[float], threats: list[float]) -> list[float]:
        w1 = self.w1
        if threats:
            pack = self._with_inputs(pack, Layout(self.players).features, threats)
        return [math.tanh(total) for total in map(sum, zip(pack, *(w1[index] for index in active), strict=True))]

    def chance(self, active: list[int], pack: list[float], threats: list[float] | None = None) -> float:
        """The chance of the player to draw (2 players), from the indices of the inputs that
        are 1 (repeated when a count is more), the pack's part of the hidden units
        (:meth:`pack_part`) and, for a network that takes them, the threat inputs."""
        hidden = self._hidden(active, pack, threats or [])
        logit = self.b2[0] + sum(w[0] * unit for w, unit in zip(self.w2, hidden, strict=True))
        return 1.0 / (1.0 + math.exp(-logit)) if logit > -500 else 0.0

    def chances(self, active: list[int], pack: list[float], threats: list[float] | None = None) -> list[float]:
        """Each player's chance, the player to draw first, then the others in the order they play."""
        if len(self.b2) == 1:
            mine = self.chance(active, pack, threats)
            return [mine, 1.0 - mine]
        logits = list(self.b2)
        for unit, weights in zip(self._hidden(active, pack, threats or []), self.w2, strict=True):
            logits = [logit + unit * weight for logit, weight in zip(logits, weights, strict=True)]
        top = max(logits)
        powers = [math.exp(logit - top) for logit in logits]
        total = sum(powers)
        return [power / total for power in powers]

    def pack_part(self, shares: tuple[float, ...]) -> list[float]:
        """The hidden units' biases plus what the pack's shares add to them."""
        return self._with_inputs(self.b1, Layout(self.players).pack, shares)

    def _with_inputs(self, part: list[float], first: int, values: Sequence[float]) -> list[float]:
        """``part`` (the hidden units' sums so far) plus the inputs from ``first`` on, of ``values``."""
        for offset, value in enumerate(values):
            if value:
                row = self.w1[first + offset]
                part = [total + value * weight for total, weight in zip(part, row, strict=True)]
        return list(part)


def play_order(position: Position) -> list[int]:
    """The colours from the player to draw next, in the order they play."""
    seats = position.seats
    index = seats.index(position.turn)
    return list(seats[index:] + seats[:index])


def active_features(position: Position) -> list[int]:
    """The inputs that are not 0, seen from the player to draw next (each index once per
    count): the pawns of every player, and each gap on the track between a pawn of the
    player to draw and a pawn of another player."""
    order = play_order(position)
    layout = Layout(len(order))
    mine_colour = order[0]
    mine = position.pawns[mine_colour]
    active: list[int] = []
    for seat, colour in enumerate(order):
        base = layout.distance(seat)
        active.extend(base + distance for distance in position.pawns[colour])
    mine_squares = SQUARE[mine_colour]
    for seat, colour in enumerate(order[1:], start=1):
        base = layout.gap(seat) - 1
        theirs_squares = SQUARE[colour]
        for distance in mine:
            square = mine_squares[distance]
            if square < 0:
                continue
            for other in position.pawns[colour]:
                behind = theirs_squares[other]
                if behind >= 0:
                    active.append(base + (square - behind) % TRACK_SQUARES)
    return active


#: The count each card moves a pawn forward (a 7 whole, a 10 and an 11 forward).
FORWARD_COUNTS: Final = {1: 1, 2: 2, 3: 3, 5: 5, 7: 7, 8: 8, 10: 10, 11: 11, 12: 12}
#: The gaps a backward move closes (how far the target is behind the mover): a 4, a 10's 1.
BACKWARD_GAPS: Final = {4: TRACK_SQUARES - 4, 10: TRACK_SQUARES - 1}
LONGEST_COUNT: Final = 12

#: ``(forward, backward)``: ``forward[count]`` the chance that the next card moves a pawn
#: forward ``count``, ``backward[gap]`` that it moves one back onto a pawn ``gap`` behind.
Hits = tuple[tuple[float, ...], tuple[float, ...]]


def hit_chances(remaining: Counter[int], rules: Rules) -> Hits:
    """The chances of the next card's counts (see ``Hits``): from the cards left to draw, or
    the whole deck once none is left (the discards are shuffled into a new pack)."""
    left = remaining if sum(remaining.values()) else Counter(DECKS[rules.deck])
    total = sum(left.values())
    forward = [0.0] * (LONGEST_COUNT + 1)
    backward = [0.0] * TRACK_SQUARES
    for card, count in FORWARD_COUNTS.items():
        forward[count] += left[card] / total
    for card, gap in BACKWARD_GAPS.items():
        backward[gap] += left[card] / total
    return tuple(forward), tuple(backward)


def threat_inputs(position: Position, hits: Hits) -> list[float]:
    """For each other player, in the order they play after the player to draw: the danger
    to the player's pawns on the track from that player's next card, then the player's
    danger to theirs.  A danger adds, for every pair of pawns, the chance that a card
    moves the one onto the other (forward, staying on the track, or backward; splits,
    switches, Sorry!s and slides left to the rest of the network), times the squares the
    target has come from Start, over 60."""
    forward, backward = hits
    order = play_order(position)
    pawns = position.pawns
    mine_colour = order[0]
    mine_squares = SQUARE[mine_colour]
    found: list[float] = []
    for colour in order[1:]:
        theirs_squares = SQUARE[colour]
        danger = attack = 0.0
        for mine in pawns[mine_colour]:
            at = mine_squares[mine]
            if at < 0:
                continue
            for theirs in pawns[colour]:
                behind = theirs_squares[theirs]
                if behind < 0:
                    continue
                gap = (at - behind) % TRACK_SQUARES  # their count onto my pawn
                chance = backward[gap]
                if gap <= LONGEST_COUNT and theirs - gap >= FIRST_TRACK:
                    chance += forward[gap]
                danger += chance * (START - mine)
                gap = TRACK_SQUARES - gap  # my count onto their pawn
                chance = backward[gap]
                if gap <= LONGEST_COUNT and mine - gap >= FIRST_TRACK:
                    chance += forward[gap]
                attack += chance * (START - theirs)
        found += [danger / TRACK_SQUARES, attack / TRACK_SQUARES]
    return found


def pack_shares(remaining: Counter[int], rules: Rules) -> tuple[float, ...]:
    """The cards of each kind left to draw, as a share of that kind in the deck."""
    deck = DECKS[rules.deck]
    return tuple(remaining[card] / deck[card] for card in CARDS)


@lru_cache(maxsize=2)
def trained_network(players: int = 2) -> Network:
    """The trained network of a game of ``players``, read once."""
    return Network.load(NETWORK_FILES[players])


@lru_cache(maxsize=1)
def shipped_networks() -> dict[int, Network]:
    """The trained networks there are, by players (looked for once: a bot is made per hint)."""
    return {players: trained_network(players) for players, path in NETWORK_FILES.items() if path.exists()}


@lru_cache(maxsize=1)
def _trained_rules() -> Rules:
    return parse_rules("classic")


def kept_networks() -> list[str]:
    """The names of the networks kept as they were shipped (``expert(network=NAME)``)."""
    return sorted(path.stem for path in KEPT_NETWORKS.glob("*.json"))


def _network_file(name: str) -> Network:
    """The network kept under ``name`` (:data:`KEPT_NETWORKS`), else in the file ``name``
    (``expert(network=PATH)``); a file that is missing or is not a network is an
    InvalidError that names it."""
    kept = KEPT_NETWORKS / f"{name}.json"
    path = kept if name in kept_networks() else Path(name)
    try:
        return Network.load(path)
    except OSError as error:
        names = ", ".join(kept_networks())
        raise InvalidError(
            f"cannot read the network {name!r}: {error.strerror or error} (the networks kept by name: {names})"
        ) from None
    except (ValueError, KeyError, TypeError) as error:
        raise InvalidError(f"{name!r} is not a network written by scripts/train_expert.py ({error})") from None


class ExpertBot(ExpectimaxBot):
    """``expectimax`` with a learned network at the search's horizon (classic, 2 or 4 players)."""

    name = "expert"

    def __init__(self, network: str = "", **options: Any) -> None:
        super().__init__(**options)
        self.network = network  # a kept network's name or another network's file; "" for the ones shipped
        self._networks = dict(shipped_networks())
        if network:
            chosen = _network_file(network)
            self._networks[chosen.players] = chosen
        self._packs: dict[tuple[float, ...], tuple[list[float], Hits | None]] = {}
        self._network: Network | None = None  # set per decision: the network of this game, if any

    def network_for(self, observation: Observation) -> Network | None:
        """The network that judges this game (classic, with a network of its players), if any."""
        position = observation.position
        if observation.rules != _trained_rules() or position.out:
            return None
        return self._networks.get(len(position.seats))

    def backup_for(self, observation: Observation) -> str:
        """Win chances wherever the network judges (they are what it gives), else as ``expectimax``."""
        return "chance" if self.network_for(observation) else super().backup_for(observation)

    def position_chances(self, observation: Observation) -> Vector:
        """The network's chances where it judges this game, else ``expectimax``'s."""
        network = self.network_for(observation)
        if network is None:
            return super().position_chances(observation)
        remaining = observation.remaining()
        part = network.pack_part(pack_shares(remaining, observation.rules))
        position = observation.position
        threats = threat_inputs(position, hit_chances(remaining, observation.rules)) if network.threats else None
        vector = [0.0, 0.0, 0.0, 0.0]
        found = network.chances(active_features(position), part, threats)
        for colour, chance in zip(play_order(position), found, strict=True):
            vector[colour] = chance
        return vector

    def move_values(self, observation: Observation, moves: list[Any], rng: Any, roots: int = 0) -> list[Vector]:
        network = self.network_for(observation)
        if network is not self._network:
            self._packs.clear()
            self._network = network
        return super().move_values(observation, moves, rng, roots)

    def _context(self, remaining: Counter[int], rules: Rules) -> Any:
        if self._network is None:
            return super()._context(remaining, rules)
        shares = pack_shares(remaining, rules)
        found = self._packs.get(shares)
        if found is None:
            if len(self._packs) > 4096:
                self._packs.clear()
            hits = hit_chances(remaining, rules) if self._network.threats else None
            found = self._packs[shares] = (self._network.pack_part(shares), hits)
        return found

    def _leaf(self, evaluator: Evaluator, position: Position, chances: Any) -> Vector:
        if self._network is None:
            return super()._leaf(evaluator, position, chances)
        vector = [0.0, 0.0, 0.0, 0.0]
        if position.winner is not None:
            vector[position.winner] = 1.0
            return vector
        part, hits = chances
        threats = threat_inputs(position, hits) if hits is not None else None
        found = self._network.chances(active_features(position), part, threats)
        for colour, chance in zip(play_order(position), found, strict=True):
            vector[colour] = chance
        return vector

    def _rank(self, evaluator: Evaluator, position: Position, chances: Any) -> Vector:
        if self._network is None:
            return super()._rank(evaluator, position, chances)
        return self._leaf(evaluator, position, chances)
