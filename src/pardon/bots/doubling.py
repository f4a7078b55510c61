"""How every computer player decides a double (docs/bots.md, "Doubling"), whatever its level:
by the points it expects, from its chance of winning as the searches' evaluation judges the
position.

A double leaves every pawn where it is, so a player that judges moves by the position they
lead to found doubling, drawing, accepting and dropping out all worth the same, and chose
among them at random: stakes of x512 in a game against the recommended level, and of 2^40
against the easy one.

Under 1939 Point Scoring a game is worth much more than the 5 points of a double nobody
accepts: the winner scores the pawns and a bonus of up to 24.  So with two sides (two
players, or two teams of partners) a player weighs a double by its expected margin ``M``,
its points less the other side's, for each point of the stake:

- it **accepts** a double unless doing so loses more than dropping out: accepted, the margin
  is ``2M``; dropped, ``-5``;
- it **doubles** when the other side, judging the same way, would accept and the lead is
  worth doubling (``M`` of :data:`LEAD` times the stake or more), or when the other side would drop out and
  the 5 points are worth more than playing on (``M`` under 5: further ahead, it plays on);
- it doubles no more once the stake is :data:`MOST_STAKE`: the rules let a player double on
  every one of its turns, and a player that stays ahead would double the stake turn after
  turn (it still accepts the others' doubles).

With three or four players it doubles when its chance of winning is :data:`DOUBLE_AT` or
more and accepts when its chance is at least :data:`TAKE_SHARE` of an even one.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any, NamedTuple

from pardon.bots.evaluation import SEARCHED, Evaluator, card_chances
from pardon.core.moves import ACCEPT, DOUBLE, DROP, Move
from pardon.core.observation import Observation
from pardon.core.scoring import BONUS_1939, DROP_OUT_POINTS, largest_bonus, pawns_home

Choose = Callable[[Any, Observation, list[Move], random.Random], Move]

#: The expected margin per point of the stake from which a player doubles a game the other
#: side would accept, times the stake: a slight lead is not worth staking more on, and a
#: higher stake asks for a larger lead (as a family would), so that doubles stop.
LEAD = 1.0
#: The stake from which a computer doubles no more.
MOST_STAKE = 8
#: With three or four players: the chance of winning from which a computer doubles...
DOUBLE_AT = 0.75
#: ...and the share of an even chance (1 in the players left) from which it accepts.
TAKE_SHARE = 0.5


def doubling_move(observation: Observation, moves: list[Move]) -> Move | None:
    """The answer to a double (accept or drop out), or the double itself where this player
    doubles now; None where the decision is another (the player then chooses among
    :func:`without_double` of the moves: its card, the Fire's jump, or going on to draw)."""
    kinds = {move.actions[0].kind: move for move in moves if move.actions}
    if ACCEPT in kinds and DROP in kinds:
        return kinds[ACCEPT] if Outlook.of(observation).accepts() else kinds[DROP]
    double, stake = kinds.get(DOUBLE), observation.position.stake
    if double is not None and stake < MOST_STAKE and Outlook.of(observation).doubles(stake):
        return double
    return None


def without_double(moves: list[Move]) -> list[Move]:
    """``moves`` less the double (the decision before the draw once this player has chosen
    not to double)."""
    return [move for move in moves if not (move.actions and move.actions[0].kind == DOUBLE)]


class Outlook(NamedTuple):
    """A player's view of how the game may end: each side's chance of winning (sides still
    playing: players who have not dropped out, or the two teams), and the margin its win
    would give it over the others, per point of the stake."""

    me: int
    chances: dict[int, float]
    win_margins: dict[int, int]

    @classmethod
    def of(cls, observation: Observation) -> Outlook:
        rules, position = observation.rules, observation.position
        evaluator = Evaluator(rules, SEARCHED)
        raw = evaluator.win_chances(position, card_chances(observation.remaining(), rules))
        playing = [colour for colour in position.seats if colour not in position.out]
        chances = {_side(observation, colour): raw[colour] for colour in playing}  # partners share theirs
        total = sum(chances.values())
        chances = {side: chance / total for side, chance in chances.items()} if total > 0 else chances
        home = {_side(observation, colour): 0 for colour in position.seats}
        for colour in position.seats:
            side = _side(observation, colour)
            home[side] = max(home[side], pawns_home(position.pawns[colour]))
        margins = {
            side: rules.pawns + largest_bonus(BONUS_1939, max(count for other, count in home.items() if other != side))
            for side in chances
        }
        return cls(_side(observation, observation.seat), chances, margins)

    def margin(self, side: int) -> float:
        """The expected margin of ``side`` over the other (two sides), per point of the stake."""
        other = next(each for each in self.chances if each != side)
        chance = self.chances[side]
        return chance * self.win_margins[side] - (1 - chance) * self.win_margins[other]

    def accepts(self) -> bool:
        if len(self.chances) != 2:
            return self.chances.get(self.me, 0.0) >= TAKE_SHARE / len(self.chances)
        return 2 * self.margin(self.me) >= -DROP_OUT_POINTS

    def doubles(self, stake: int) -> bool:
        if len(self.chances) != 2:
            return self.chances[self.me] >= DOUBLE_AT
        lead = self.margin(self.me)
        answered = -2 * lead >= -DROP_OUT_POINTS  # the other side accepts, judging as this one
        return lead >= LEAD * stake if answered else lead < DROP_OUT_POINTS


def _side(observation: Observation, colour: int) -> int:
    return colour % 2 if observation.rules.partners else colour  # Red and Yellow, Blue and Green


def doubles_by_chance(choose: Choose) -> Choose:
    """A player's ``choose`` that leaves the doubling decisions to :func:`doubling_move`, and
    is given the other decisions without the double."""

    @functools.wraps(choose)
    def choosing(player: Any, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        if observation.rules.doubling and len(moves) > 1:
            decided = doubling_move(observation, moves)
            if decided is not None:
                return decided
            moves = without_double(moves)
        return choose(player, observation, moves, rng)

    return choosing
