"""The statistics of a tournament: win rates with confidence intervals, and Elo ratings.

Two intervals for a win rate are offered:

- :func:`wilson` — the Wilson score interval, which treats every game as an independent
  trial.  In a duplicate tournament the games of one deal are not independent (the same
  cards are played with the seats swapped), so this interval is only a reference.
- :func:`duplicate_interval` — the interval the tournament reports: each *deal* is one
  observation, scored as the share of its games (one per seating) the first player won;
  the interval is the mean of those scores ± z standard errors across deals.  Swapping
  seats on the same cards cancels most of the luck, so this is usually much narrower
  than the Wilson interval of the same games, and it is honest about what was repeated.

Elo differences follow from a win rate ``p`` as ``400 log10(p / (1 - p))``; several
players are rated together by a Bradley-Terry fit of all their pairwise results, with
intervals from a bootstrap over deals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final, NamedTuple

Z95: Final = 1.959963984540054
ELO_CAP: Final = 0.999  # a 100% or 0% rate has no finite Elo: clamp it


class Interval(NamedTuple):
    """An estimate and its two-sided confidence interval."""

    estimate: float
    low: float
    high: float


def percentile(ordered: Sequence[float], share: float) -> float:
    """The value at ``share`` (0.99: the 99th percentile) of ``ordered``, sorted values: the
    nearest rank at or below, never past the largest.

    >>> percentile([0.1, 0.2, 0.3, 0.4], 0.99), percentile([5.0], 0.5)
    (0.4, 5.0)
    """
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wilson(wins: float, games: float, z: float = Z95) -> Interval:
    """The Wilson score interval of a proportion.

    >>> low, high = wilson(60, 100)[1:]
    >>> round(low, 4), round(high, 4)
    (0.502, 0.6906)
    """
    if games <= 0:
        return Interval(math.nan, 0.0, 1.0)
    p = wins / games
    denominator = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denominator
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denominator
    # the interval holds p, but at 0 (or 1) rounding can leave a bound a hair past it
    return Interval(p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half)))


class ClusteredRate:
    """A rate of events among trials that come in clusters (the cards of one game are played in
    one game, and a game that wastes many of one card is not many independent games): the
    Wilson interval of the trials, widened by the design effect that the clusters measure.

    The design effect is the ratio estimator's variance from the clusters (each cluster's
    events less the rate times its trials, squared) over the variance that independent trials
    would have; the Wilson interval is then taken of the effective number of trials (trials
    over the design effect, never more than the trials).  The sums are kept as the clusters
    come, so a run of any size is summarised in one pass.

    >>> rate = ClusteredRate()
    >>> for events, trials in [(1, 4), (3, 4), (0, 4), (4, 4)]:  # clusters that differ more than chance
    ...     rate.add(events, trials)
    >>> clustered, plain = rate.interval(), wilson(8, 16)
    >>> clustered.estimate, clustered.high - clustered.low > plain.high - plain.low
    (0.5, True)
    """

    def __init__(self) -> None:
        self.clusters = 0
        #: The sums of each cluster's events and trials (whole numbers stay whole), their squares and products.
        self.events: float = 0
        self.trials: float = 0
        self.events_squared = self.trials_squared = self.cross = 0.0

    def add(self, events: float, trials: float) -> None:
        self.clusters += 1
        self.events += events
        self.trials += trials
        self.events_squared += events * events
        self.trials_squared += trials * trials
        self.cross += events * trials

    def interval(self, z: float = Z95) -> Interval:
        if self.trials <= 0:
            return Interval(math.nan, 0.0, 1.0)
        rate = self.events / self.trials
        independent = rate * (1 - rate) / self.trials
        if self.clusters < 2 or independent <= 0:
            return wilson(self.events, round(self.trials), z)
        residuals = self.events_squared - 2 * rate * self.cross + rate * rate * self.trials_squared
        clustered = self.clusters / (self.clusters - 1) * max(0.0, residuals) / (self.trials * self.trials)
        effect = max(1.0, clustered / independent)
        effective = self.trials / effect
        return wilson(rate * effective, effective, z)


def duplicate_interval(deal_scores: Sequence[float], z: float = Z95) -> Interval:
    """Mean of per-deal scores ± z standard errors (deals are the independent units).

    >>> [round(value, 3) for value in duplicate_interval([1.0, 0.5, 0.5, 0.0, 1.0])]
    [0.6, 0.233, 0.967]
    """
    count = len(deal_scores)
    if count == 0:
        return Interval(math.nan, 0.0, 1.0)
    mean = sum(deal_scores) / count
    if count == 1:
        return Interval(mean, 0.0, 1.0)
    variance = sum((score - mean) ** 2 for score in deal_scores) / (count - 1)
    half = z * math.sqrt(variance / count)
    return Interval(mean, max(0.0, mean - half), min(1.0, mean + half))


def elo_from_rate(rate: float) -> float:
    """The Elo difference that predicts winning ``rate`` of the games.

    >>> round(elo_from_rate(0.75), 1)
    190.8
    >>> elo_from_rate(0.5)
    0.0
    """
    clamped = min(max(rate, 1 - ELO_CAP), ELO_CAP)
    return 400 * math.log10(clamped / (1 - clamped))


def rate_from_elo(difference: float) -> float:
    """The expected score of a player rated ``difference`` above its opponent."""
    return 1 / (1 + 10 ** (-difference / 400))


def elo_interval(rate: Interval) -> Interval:
    """A win-rate interval carried over to Elo (the map is increasing)."""
    return Interval(elo_from_rate(rate.estimate), elo_from_rate(rate.low), elo_from_rate(rate.high))


Results = dict[tuple[int, int], list[float]]
"""Per pairing ``(i, j)`` of player indexes, i < j: player i's score in each deal."""


def bradley_terry(players: int, results: Results, anchor: int = 0, rounds: int = 200) -> list[float]:
    """Elo ratings that best explain the pairwise scores (MM algorithm), ``anchor`` at 0.

    A player's strength is unknown without a result against the others; it is left at 0.

    >>> [round(r) for r in bradley_terry(2, {(0, 1): [0.75] * 400})]
    [0, -191]
    """
    wins = [[0.0] * players for _ in range(players)]
    for (first, second), scores in results.items():
        wins[first][second] += sum(scores)
        wins[second][first] += len(scores) - sum(scores)
    strength = [1.0] * players
    prior = 0.5  # half a win and half a loss against an equal player keeps rates finite
    for _ in range(rounds):
        updated = []
        for player in range(players):
            won = prior
            expected = 2 * prior / (strength[player] + 1.0)
            for other in range(players):
                games = wins[player][other] + wins[other][player]
                if other != player and games:
                    won += wins[player][other]
                    expected += games / (strength[player] + strength[other])
            updated.append(won / expected)
        strength = updated
    base = math.log10(strength[anchor])
    return [400 * (math.log10(value) - base) for value in strength]


def bootstrap_ratings(
    players: int, results: Results, anchor: int = 0, samples: int = 200, seed: int = 0
) -> list[Interval]:
    """Bradley-Terry ratings with 95% intervals from resampling each pairing's deals.

    A pairing of a single deal says nothing of the spread (resampling one deal gives it back
    every time): then every rating but the anchor's is given the widest interval, the Elo of
    the clamped 0% and 100% either side of it, rather than a false certainty.
    """
    estimate = bradley_terry(players, results, anchor)
    if any(len(scores) == 1 for scores in results.values()):
        wide = elo_from_rate(ELO_CAP)
        return [
            Interval(value, value, value) if player == anchor else Interval(value, value - wide, value + wide)
            for player, value in enumerate(estimate)
        ]
    rng = random.Random(f"pardon-bootstrap:{seed}")
    draws: list[list[float]] = [[] for _ in range(players)]
    for _ in range(samples):
        resampled = {pairing: rng.choices(scores, k=len(scores)) for pairing, scores in results.items() if scores}
        for player, rating in enumerate(bradley_terry(players, resampled, anchor)):
            draws[player].append(rating)
    intervals = []
    for player in range(players):
        ordered = sorted(draws[player])
        low = ordered[int(0.025 * (len(ordered) - 1))] if ordered else estimate[player]
        high = ordered[math.ceil(0.975 * (len(ordered) - 1))] if ordered else estimate[player]
        intervals.append(Interval(estimate[player], low, high))
    return intervals
