"""The value of a pawn on every square, learned from who wins self-play games.

``scripts/learn.py`` fits, for each game (hands or not, number of players), one value per
distance from Home (index 0 is Home, 66 is Start and counts 0), the weights of the danger
of being bumped (``threat``, and ``later`` for the players who draw only after the pawn's
owner has had a turn) and the win chances' temperature (``scale`` at the start, shrinking
with the way left to the power ``phase``), by maximum likelihood of the winners of
``tactician`` self-play games.  The values are in squares: a square of progress along the
track is worth 1 on average.  ``expectimax`` and ``mcts`` play with them (``learned=1``);
docs/bots.md says how they were made and what they are worth.  Written by the script.
"""

from __future__ import annotations

from typing import Final, NamedTuple


class Terms(NamedTuple):
    """What a game's raw scores are made of: a value per pawn by its distance from Home,
    the danger's weights, and the win chances' temperature.  Learned here; the evaluation
    builds the same from the hand-written weights."""

    pawns: tuple[float, ...]  # by distance from Home: 0 Home, 1-5 the Safety Zone, 66 Start
    threat: float
    later: float
    scale: float
    phase: float


# fmt: off
LEARNED: Final[dict[tuple[bool, int], Terms]] = {
    (False, 2): Terms(
        pawns=(
            68.93, 60.78, 58.63, 58.39, 54.79, 57.19, 54.03, 56.32, 56.58, 53.45, 56.43, 55.61, 54.74, 52.72,
            50.95, 49.18, 49.16, 48.43, 47.21, 46.88, 46.52, 45.16, 44.3, 43.44, 41.9, 39.95, 39.23, 38.87,
            36.84, 35.93, 35.03, 34.68, 34.77, 34.67, 33, 30.29, 27.47, 25.75, 24.02, 22.1, 20.18, 20.17, 20.33,
            19.52, 18.23, 16.93, 15.85, 15.09, 13.14, 11.49, 10.36, 9.42, 8.89, 8.35, 7.53, 6.47, 6.9, 7.67,
            6.21, 5.78, 4.13, 5.26, 7.21, 7.65, 9.1, 9.63, 0,
        ),
        threat=1.2603,
        later=0.7485,
        scale=243.8,
        phase=0.75,
    ),
    (False, 3): Terms(
        pawns=(
            75.33, 64.95, 62.57, 61.76, 56.55, 59.15, 52.89, 54.67, 55.8, 54.71, 56.61, 57, 56.03, 54.68, 53.05,
            51.41, 49.63, 49, 46.52, 44.39, 42.72, 41.21, 39.36, 37.51, 36.34, 35.73, 34.38, 33.69, 32.6, 31.35,
            30.09, 28.14, 26.63, 25.08, 24.84, 24.94, 24.61, 22.95, 21.28, 20.58, 19.15, 17.67, 16.48, 15,
            14.51, 14.02, 13.69, 12.2, 11.22, 11.53, 11.84, 10.15, 8.95, 7.75, 6.89, 5.68, 6, 5.59, 4.85, 4.42,
            3.61, 4.69, 5.55, 6.59, 8.02, 8.1, 0,
        ),
        threat=0.8999,
        later=0.6068,
        scale=219.7,
        phase=0.75,
    ),
    (False, 4): Terms(
        pawns=(
            80.62, 68.94, 66.02, 64.47, 59.38, 63.45, 57.55, 57.31, 57.64, 54.18, 57.31, 58, 56.32, 53.4, 51.42,
            49.45, 47.56, 46.31, 44.14, 42.55, 41.14, 39.28, 37.86, 36.44, 35.39, 34.31, 32.03, 29.99, 29.28,
            27.31, 25.35, 25.01, 24.61, 24.47, 24.01, 22.53, 21.57, 19.42, 17.27, 17.2, 16.12, 15.45, 14.73,
            13.95, 14.01, 14.07, 12.97, 12.51, 11.56, 12.02, 9.8, 8.22, 7.06, 5.89, 5.48, 3.25, 3.01, 3.31,
            2.59, 3.25, 3.58, 5.04, 6.74, 9.01, 9.72, 10.29, 0,
        ),
        threat=0.6263,
        later=0.5507,
        scale=193.4,
        phase=0.75,
    ),
    (True, 2): Terms(
        pawns=(
            77.94, 65.03, 63.56, 63.81, 62.44, 64.47, 61.64, 63.57, 65.85, 63.85, 63.93, 63.38, 62.41, 60.99,
            59.65, 58.31, 56.97, 55.82, 54.7, 54.02, 52.93, 52.16, 51.22, 50.28, 49.16, 47.91, 47.23, 46.34,
            45.16, 44.37, 43.57, 42.72, 41.52, 40.13, 39.14, 36.78, 34.5, 32.47, 30.43, 29.15, 28, 27.15, 26.4,
            25.57, 24.71, 23.85, 22.75, 21.61, 20.07, 18.72, 17.74, 16.74, 16.08, 15.42, 14.51, 13.64, 13.33,
            13.23, 13.15, 12.96, 13.42, 14.33, 16.06, 17.74, 19.85, 20.02, 0,
        ),
        threat=2.1643,
        later=0.5146,
        scale=147.7,
        phase=0.75,
    ),
    (True, 3): Terms(
        pawns=(
            75.1, 58.46, 57.23, 58.63, 56.6, 58.17, 54.25, 56.3, 57.91, 55.67, 55.48, 55.14, 53.93, 52.21,
            50.31, 48.42, 46.12, 44.23, 42.82, 41.38, 39.98, 38.27, 36.43, 34.6, 33.2, 31.95, 30.85, 29.39,
            27.84, 26.01, 24.18, 22.71, 21.93, 21.13, 20.32, 18.77, 17.37, 16.02, 14.67, 12.75, 11.33, 10.43,
            9.39, 8.78, 8.22, 7.66, 7.07, 6.55, 6.31, 6.07, 5.04, 4.29, 3.57, 2.85, 3.09, 3, 2.76, 2.81, 3.3,
            4.01, 4.98, 6.19, 7.6, 9.44, 11.34, 11.34, 0,
        ),
        threat=1.2001,
        later=0.3995,
        scale=134.1,
        phase=0.75,
    ),
    (True, 4): Terms(
        pawns=(
            79.46, 62.09, 61.3, 61, 58.3, 60.55, 54.19, 56.8, 57.94, 55.65, 56.04, 55.25, 54.42, 52.75, 51.08,
            49.42, 47.36, 44.93, 42.32, 39.56, 36.87, 34.13, 31.98, 29.84, 28.5, 28.06, 27.12, 26.11, 25.31,
            24.12, 22.94, 21.11, 19.72, 18.41, 17.51, 16.47, 15.01, 13.87, 12.72, 12.21, 11.58, 11.29, 10.26,
            9.62, 8.75, 7.88, 7.53, 7.17, 7.05, 6.84, 5.8, 4.78, 3.98, 3.18, 2.59, 2.31, 1.95, 2, 2.23, 2.59,
            3.29, 4.44, 5.61, 7.18, 9.23, 9.24, 0,
        ),
        threat=0.8697,
        later=0.2406,
        scale=131.8,
        phase=0.75,
    ),
}
# fmt: on
