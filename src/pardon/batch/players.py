"""Computer players for batch games: ``random`` and ``greedy`` (the one-ply formula of
:mod:`pardon.bots.greedy`; ``random`` chooses among distinct moves as the core's does), each
choosing one action per game from the game's own random
stream.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games
>>> config = Config.parse("classic", 2)
>>> games = new_games(config, np.arange(4, dtype=np.uint32))
>>> choose(config, games, ["greedy", "random"]).shape
(4,)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

import numpy as np

from pardon.batch.actions import ACTIONS, SLOTS
from pardon.batch.backend import Array
from pardon.batch.config import splits_any
from pardon.batch.doubling import DOUBLE, card_actions, choice_counter
from pardon.batch.engine import (
    STREAM_CHOICE,
    Config,
    Games,
    choose_uniform,
    decider,
    distinct_lanes,
    play,
    random_bits,
    random_moves,
)
from pardon.batch.outlook import doubling_actions
from pardon.core.board import FIRST_TRACK, HOME, START
from pardon.core.errors import InvalidError

PLAYERS: Final = ("random", "greedy")
#: How the batch's ``random`` chooses, recorded with a run: a run kept while it chose
#: uniformly among actions (a move weighted by how many actions make it) is not resumed.
RANDOM_CHOOSES: Final = "among distinct moves"
START_DISTANCE: Final = 65  # greedy counts a pawn in Start one step behind its start exit


def check_players(names: Sequence[str]) -> tuple[str, ...]:
    """The players' names, checked: the batch plays ``random`` and ``greedy``."""
    for name in names:
        if name not in PLAYERS:
            raise InvalidError(
                f"the batch engine plays the computer players {' and '.join(PLAYERS)}, not {name!r}: "
                "use --engine core for the others"
            )
    return tuple(names)


def scores(pawns: Array) -> Array:
    """``(players, *batch)``: apologies' RewardV1 score of each player (pardon.bots.greedy)."""
    distance = np.where(pawns == START, START_DISTANCE, pawns).astype(np.int16)
    safe = (pawns < FIRST_TRACK).sum(axis=1, dtype=np.int16)
    home = (pawns == HOME).all(axis=1)
    return START_DISTANCE * SLOTS - distance.sum(axis=1, dtype=np.int16) + 10 * safe + 100 * home


def greedy_actions(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """The legal action whose position is worth most to the mover (its score times the
    number of opponents, less theirs), ties broken at random among the distinct moves, as
    the core's greedy breaks them (``lanes``: the distinct lanes, :func:`distinct_lanes`, if
    already worked out); 0 for a game over.  Alone (the solo challenge) every move is worth 0,
    and the core's greedy breaks the tie uniformly among its moves: it chooses as
    :func:`~pardon.batch.engine.random_moves` does.

    Among actions instead, a move that several actions make (a pawn out of Start, with
    three there) won its ties as often as it had actions: 39.35 forfeits a game against the
    core's 40.22 over 6,000 games against random (2 players, seed 5), 95% intervals apart."""
    if config.players == 1:
        return random_moves(config, games)
    if splits_any(config.rules):
        return _greedy_whole_moves(config, games)
    if lanes is None:
        lanes = distinct_lanes(config, games)
    return _greedy_of_lanes(config, games, lanes)


def _worth_to_mover(config: Config, pawns: Array) -> Array:
    """What each position is worth to the mover (seat 0): its score times the number of
    opponents, less theirs."""
    worth = scores(pawns)
    return (config.players - 1) * worth[0].astype(np.int32) - worth[1:].sum(axis=0, dtype=np.int32)


def _greedy_of_lanes(config: Config, games: Games, lanes: Array) -> Array:
    """Greedy's choice among each game's distinct ``lanes`` (0 for a game without one)."""
    rows, actions = np.nonzero(np.asarray(lanes).T)  # grouped by game
    chosen = np.zeros(games.card.shape, dtype=np.int32)
    if not rows.size:
        return chosen
    after, _ = play(config, Games(*(np.asarray(field)[..., rows] for field in games)), actions, advance=False)
    value = _worth_to_mover(config, after.pawns)
    tie = random_bits(games.seed[rows], games.drawn[rows] * ACTIONS + actions, STREAM_CHOICE + 1) >> np.uint32(20)
    key = value.astype(np.int64) * 4096 + tie.astype(np.int64)
    starts = np.flatnonzero(np.r_[True, rows[1:] != rows[:-1]])
    best = np.maximum.reduceat(key, starts)
    group = np.cumsum(np.r_[False, rows[1:] != rows[:-1]])
    winners = np.flatnonzero(key == best[group])
    first = winners[np.r_[True, rows[winners][1:] != rows[winners][:-1]]]
    chosen[rows[first]] = actions[first]
    return chosen


def _greedy_whole_moves(config: Config, games: Games) -> Array:
    """Greedy with the partners' split 7 among any team pawns: a 7 is judged by the whole
    moves it makes (each split whole, not its parts), and followed part by part
    (:func:`~pardon.batch.split_any.toward_whole_move`; with hands of five among the hand's
    other moves, :func:`~pardon.batch.split_hands.hand_toward_whole_move`); other cards as
    :func:`greedy_actions`."""
    from pardon.batch.split_any import WholeMoves, lanes_but_sevens, toward_whole_move

    def best(moves: WholeMoves, rows: np.ndarray, offsets: np.ndarray, counts: np.ndarray) -> np.ndarray:
        value = _worth_to_mover(config, moves.pawns)
        game = rows[moves.row]
        nth = np.arange(moves.row.size) - offsets[moves.row]
        tie = random_bits(games.seed[game], games.drawn[game] * 4096 + nth, STREAM_CHOICE + 1) >> np.uint32(20)
        key = value.astype(np.int64) * 4096 + tie.astype(np.int64)
        top = np.full(rows.size, np.iinfo(np.int64).min)
        np.maximum.at(top, moves.row, key)
        at = np.flatnonzero(key == top[moves.row])
        first = np.full(rows.size, moves.row.size, dtype=np.int64)
        np.minimum.at(first, moves.row[at], at)
        return first

    if config.rules.hand:  # every card of the hand judged, the 7 by its whole moves
        from pardon.batch.split_hands import hand_toward_whole_move, part_actions

        others = np.zeros(games.card.shape, dtype=np.int32)  # without doubling every game is at its card
        if config.rules.doubling:
            lanes = np.array(distinct_lanes(config, games), copy=True)
            lanes[part_actions()] = False  # at the card the hand's whole moves are judged instead
            others = _greedy_of_lanes(config, games, lanes)
        return hand_toward_whole_move(config, games, others, best)
    lanes = distinct_lanes(config, games, lanes_but_sevens(config, games))
    others = _greedy_of_lanes(config, games, lanes)
    return toward_whole_move(config, games, np.asarray(others), best)


def described(levels: Mapping[str, Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
    """The players' descriptions as a run records them (:func:`pardon.bots.describe_bot`),
    with what the batch's own players do differently: how ``random`` chooses."""
    extra = {"random": {"chooses": RANDOM_CHOOSES}}
    return {spec: {**level, **extra.get(str(level.get("level")), {})} for spec, level in levels.items()}


def choose(config: Config, games: Games, players: Sequence[str]) -> Array:
    """Each game's action by the player of the seat to decide (``players[seat]``: the player
    to move, or with doubling the player answering a double).  Doubles are decided as every
    computer player of pardon decides them (:mod:`pardon.batch.outlook`)."""
    if not config.rules.doubling:
        return _card_choices(config, games, players)
    decided = np.asarray(doubling_actions(config, games))
    lanes = None
    if config.rules.tokens:  # a player not doubling chooses among the rest: the double left out
        lanes = np.array(distinct_lanes(config, games), copy=True)
        lanes[card_actions(config) + DOUBLE] = False
    actions = _card_choices(config, games, players, lanes)
    return np.where(decided >= 0, decided, np.asarray(actions)).astype(np.int32)


def _card_choices(config: Config, games: Games, players: Sequence[str], lanes: Array | None = None) -> Array:
    """Each game's action by its player: among ``lanes`` (the distinct lanes if None)."""

    def random_player(config: Config, games: Games, lanes: Array | None) -> Array:
        if lanes is None:
            return random_moves(config, games)
        return choose_uniform(lanes, random_bits(games.seed, choice_counter(config, games), STREAM_CHOICE))

    kinds = set(players)
    if kinds == {"random"}:
        return random_player(config, games, lanes)
    if kinds == {"greedy"}:
        return greedy_actions(config, games, lanes)
    greedy_seat = np.array([name == "greedy" for name in players])[decider(config, games)]
    actions = np.zeros(games.card.shape, dtype=np.int32)
    for chooser, rows in ((random_player, np.flatnonzero(~greedy_seat)), (greedy_actions, np.flatnonzero(greedy_seat))):
        if rows.size:  # each player chooses only its own games' actions (a split 7 is its own to finish)
            some = Games(*(np.asarray(field)[..., rows] for field in games))
            actions[rows] = chooser(config, some, None if lanes is None else lanes[:, rows])
    return actions
