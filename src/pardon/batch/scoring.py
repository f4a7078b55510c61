"""Points at the end of a batch game, as the core scores them (:func:`pardon.core.scoring.points_of`;
docs/rules.md: "Points"):

* **1939 Point Scoring** (``scoring=1939``): every player scores 1 per own pawn Home; the
  winner also scores 1 per opponent pawn Home and the largest bonus that fits: 24 if no
  opponent has a pawn Home, 16 if none has more than 1, 8 if none has more than 2;
* **1992 play for points** (``scoring=1992``): 5 per own pawn Home; the winner also scores
  5 per opponent pawn not Home and the largest bonus that fits: 100, 50 or 25 likewise.

* **Partners**: the winner's partner scores as the winner, and only the other team's pawns
  count as the opponents'.

* **Doubling** (with 1939): the points times the stake; 0 for a player who dropped out; and
  when everybody else dropped out, 5 times the stake for the doubler and 0 for the others.

Play is the same under either scoring: only the end of a game gets points.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games, random_moves, step
>>> config = Config.parse("classic(scoring=1939)", 3)
>>> games = new_games(config, np.arange(4, dtype=np.uint32))
>>> points(config, games).tolist()  # no game over yet: nobody has points
[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_moves(config, games))
>>> games.winner.tolist(), points(config, games).tolist()  # by seat, then game
([0, 1, 1, 0], [[9, 0, 1, 22], [3, 21, 21, 1], [2, 1, 0, 1]])
"""

from __future__ import annotations

from typing import Final

import numpy as np

from pardon.batch.actions import SLOTS
from pardon.batch.backend import Array, column, namespace
from pardon.batch.config import Config, Games, _check_games
from pardon.core.board import HOME
from pardon.core.errors import InvalidError
from pardon.core.scoring import BONUS_1939, BONUS_1992, DROP_OUT_POINTS, largest_bonus

#: Points per pawn, and the bonus by the most pawns Home of any one opponent (0 to 4), of each scoring.
PER_PAWN: Final = {"1939": 1, "1992": 5}
BONUSES: Final = {
    scoring: np.array([largest_bonus(table, most) for most in range(SLOTS + 1)], dtype=np.int32)
    for scoring, table in (("1939", BONUS_1939), ("1992", BONUS_1992))
}


def points(config: Config, games: Games) -> Array:
    """Each seat's points in each game, ``(players, *batch)`` int32 (int64 with doubling, its
    stake a power of two up to 2**56; seat ``s`` is colour
    ``config.seats[s]``), as the core's :func:`~pardon.core.scoring.points_of` scores the
    game's final position; 0 for every seat of a game not over yet, and for every game under
    rules without points (``scoring=none``, where the core has none)."""
    xp = namespace(games.pawns, games.winner, games.turn)
    _check_games(config, games)
    rules, players = config.rules, config.players
    if rules.scoring not in PER_PAWN:
        return xp.zeros((players, *games.winner.shape), dtype=xp.int32)
    seat = xp.asarray(column(np.arange(players), games.winner.ndim, np.int32))  # (players, 1, ...)
    # pawns Home of the player q seats after the one to move (a 3-pawn game's fourth slot is no pawn)
    home_by_row = xp.sum(games.pawns[:, : rules.pawns] == HOME, axis=1, dtype=xp.int32)
    row = (seat - games.turn.astype(xp.int32)[None] + players) % players  # seat s's row
    home = xp.take_along_axis(home_by_row, row, axis=0)  # (players, *batch), by seat
    won = seat == games.winner.astype(xp.int32)[None]  # no seat where the game goes on (-1)
    if rules.partners:  # the winner's partner, 2 seats on, scores as the winner
        won = won | ((seat == (games.winner.astype(xp.int32)[None] + 2) % 4) & (games.winner >= 0)[None])
    opponents_home = home * (~won).astype(xp.int32)
    most = xp.max(opponents_home, axis=0)
    bonus = xp.take(xp.asarray(BONUSES[rules.scoring]), most)
    per_pawn = PER_PAWN[rules.scoring]
    if rules.scoring == "1939":  # the winner: 1 per opponent pawn Home
        extra = xp.sum(opponents_home, axis=0, dtype=xp.int32)
    else:  # the winner: 5 per opponent pawn not Home
        opponents = players - (2 if rules.partners else 1)
        extra = per_pawn * (xp.int32(rules.pawns * opponents) - xp.sum(opponents_home, axis=0, dtype=xp.int32))
    scores = per_pawn * home + won.astype(xp.int32) * (extra + bonus)[None]
    over = (games.winner >= 0).astype(xp.int32)[None]
    if rules.doubling:
        return _staked(config, games, scores, home, seat) * over
    return (scores * over).astype(xp.int32)


def _staked(config: Config, games: Games, scores: Array, home: Array, seat: Array) -> Array:
    """Doubling (NumPy): the points times the stake, 0 for a player who dropped out, and where
    everybody else dropped out (the winner, the doubler, has not every pawn Home) 5 times the
    stake for the doubler and 0 for the others (docs/rules.md: "Points")."""
    from pardon.batch.config import DOUBLINGS
    from pardon.batch.doubling import MOST_DOUBLINGS, dropped_out, stake

    if (games.extras[DOUBLINGS] > MOST_DOUBLINGS).any():
        raise InvalidError(
            f"the points of a stake doubled more than {MOST_DOUBLINGS} times are beyond the batch engine"
        )
    staked = stake(games)[None]
    scores = np.where(dropped_out(config, games), 0, scores.astype(np.int64) * staked)
    winner = seat == games.winner.astype(np.int32)[None]
    everybody_dropped = (games.winner >= 0) & ((home * winner).sum(axis=0) < config.rules.pawns)
    return np.where(everybody_dropped[None], np.where(winner, DROP_OUT_POINTS * staked, 0), scores)
