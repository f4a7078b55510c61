"""Points and matches (docs/rules.md: "Points").

* **1939 Point Scoring** (``scoring="1939"``): every player scores 1 per own pawn Home;
  the winner also scores 1 per opponent pawn Home and one bonus, the largest that
  fits — 24 if no opponent has a pawn Home, 16 if none has more than 1, 8 if none has
  more than 2.  Each accepted double multiplies the game's scores by 2; a player who
  drops out scores 0; if every other player drops out the doubler scores 5.  (The
  doubling decisions themselves are part of :class:`~pardon.core.game.Game`'s turn.)
* **1992 play for points** (``scoring="1992"``): 5 per own pawn Home; the winner also
  scores 5 per opponent pawn not Home and the largest bonus that fits: 100 if no
  opponent pawn is Home, 50 if none has more than 1, 25 if none has more than 2.
* **Partners**: the winning team wins; both partners score as the winner, and only the other
  team's pawns count as the opponents' (the published rules are silent on points with partners).
* **Matches**: a series of games; the winner of each leads the next; wins are counted
  (a doubled game counts 2) and points are totalled toward an agreed target.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

from pardon.core.board import HOME, partner
from pardon.core.errors import IllegalError, InvalidError
from pardon.core.rules import Rules
from pardon.core.state import Position

BONUS_1939: Final = ((0, 24), (1, 16), (2, 8))
BONUS_1992: Final = ((0, 100), (1, 50), (2, 25))
DROP_OUT_POINTS: Final = 5


def largest_bonus(table: tuple[tuple[int, int], ...], most_home_by_an_opponent: int) -> int:
    """The largest bonus whose condition holds (tables are largest first)."""
    for limit, bonus in table:
        if most_home_by_an_opponent <= limit:
            return bonus
    return 0


def pawns_home(pawns: tuple[int, ...]) -> int:
    return sum(1 for pawn in pawns if pawn == HOME)


def score_1939(
    home: Mapping[int, int],
    winner: int,
    multiplier: int = 1,
    dropped: frozenset[int] = frozenset(),
    team: tuple[int, ...] = (),
) -> dict[int, int]:
    """1939 Point Scoring of a finished game, from each colour's number of pawns Home.
    ``team`` names the winner's partners, who score as the winner (none by default).

    >>> score_1939({0: 4, 2: 1}, winner=0)
    {0: 21, 2: 1}
    >>> score_1939({0: 4, 1: 1, 2: 4, 3: 0}, winner=0, team=(2,))
    {0: 21, 1: 1, 2: 21, 3: 0}
    """
    winners = (winner, *team)
    opponents = [colour for colour in home if colour not in winners]
    most = max((home[colour] for colour in opponents), default=0)
    scores = {colour: 0 if colour in dropped else home[colour] * multiplier for colour in home}
    opponent_pawns_home = sum(home[colour] for colour in opponents)
    for colour in winners:
        if colour not in dropped:  # a partner may have dropped out of a double
            scores[colour] = (home[colour] + opponent_pawns_home + largest_bonus(BONUS_1939, most)) * multiplier
    return scores


def score_1939_all_dropped(players: tuple[int, ...], doubler: int) -> dict[int, int]:
    """Every other player dropped out of a double: the game ends, the doubler scores 5."""
    return {colour: DROP_OUT_POINTS if colour == doubler else 0 for colour in players}


def score_1992(home: Mapping[int, int], winner: int, pawns_each: int, team: tuple[int, ...] = ()) -> dict[int, int]:
    """1992 "play for points" scores of a finished game (``team``: the winner's partners,
    who score as the winner).

    >>> score_1992({0: 4, 1: 0, 2: 2, 3: 1}, winner=0, pawns_each=4)
    {0: 90, 1: 0, 2: 10, 3: 5}
    """
    winners = (winner, *team)
    opponents = [colour for colour in home if colour not in winners]
    most = max((home[colour] for colour in opponents), default=0)
    scores = {colour: 5 * home[colour] for colour in home}
    not_home = sum(pawns_each - home[colour] for colour in opponents)
    for colour in winners:
        scores[colour] += 5 * not_home + largest_bonus(BONUS_1992, most)
    return scores


def points_of(rules: Rules, position: Position) -> dict[int, int] | None:
    """Each colour's points in a finished game under the rules' scoring, else None."""
    winner = position.winner
    if winner is None or rules.scoring == "none":
        return None
    home = {colour: pawns_home(position.pawns[colour]) for colour in position.seats}
    team = (partner(winner),) if rules.partners else ()
    if rules.scoring == "1992":
        return score_1992(home, winner, rules.pawns, team)
    if home[winner] < rules.pawns:  # everybody else dropped out of a double
        dropped = score_1939_all_dropped(position.seats, winner)
        return {colour: points * position.stake for colour, points in dropped.items()}
    return score_1939(home, winner, position.stake, frozenset(position.out), team)


@dataclass(frozen=True)
class GameResult:
    """What a finished game adds to a match: who won, the points, whether it was doubled."""

    winner: int
    points: Mapping[int, int] = field(default_factory=dict)
    multiplier: int = 1

    @property
    def wins(self) -> int:
        """A doubled game counts 2 wins (docs/rules.md: "Points")."""
        return 2 if self.multiplier > 1 else 1


@dataclass
class Match:
    """A series of games between the same players, to a number of games or a points target."""

    players: tuple[int, ...]
    games: int | None = None
    target: int | None = None
    results: list[GameResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.games is None and self.target is None:
            raise InvalidError("agree on a number of games or a points total to play to")
        if self.games is not None and self.games < 1:
            raise InvalidError("a match has at least one game")
        if self.target is not None and self.target < 1:
            raise InvalidError("a points target must be positive")

    def record(self, result: GameResult) -> None:
        if self.is_over:
            raise IllegalError("the match is over")
        if result.winner not in self.players:
            raise InvalidError("the winner is not a player of this match")
        self.results.append(result)

    def undo(self) -> GameResult:
        if not self.results:
            raise IllegalError("no game to take back")
        return self.results.pop()

    def wins(self) -> dict[int, int]:
        totals = dict.fromkeys(self.players, 0)
        for result in self.results:
            totals[result.winner] += result.wins
        return totals

    def points(self) -> dict[int, int]:
        totals = dict.fromkeys(self.players, 0)
        for result in self.results:
            for colour, points in result.points.items():
                totals[colour] += points
        return totals

    def leaders(self) -> list[int]:
        """The players ahead: on points in a points match, else on wins."""
        totals = self.points() if self.target is not None else self.wins()
        best = max(totals.values())
        return [colour for colour, total in totals.items() if total == best]

    @property
    def next_leader(self) -> int | None:
        """The winner of the last game leads the next one."""
        return self.results[-1].winner if self.results else None

    @property
    def is_over(self) -> bool:
        if self.target is not None and max(self.points().values()) >= self.target:
            return True
        return self.games is not None and len(self.results) >= self.games
