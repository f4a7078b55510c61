"""Doubling in the batch engine (docs/rules.md: "Points"; the core's :mod:`pardon.core.turn`):
with Point Scoring (``scoring=1939``) and ``doubling=true``, each turn begins before the draw,
where the player to move may double the stake; each other player still in the game then, in
turn clockwise, accepts or drops out.  If everybody drops out, the game ends and the doubler
wins (scoring 5 times the stake); otherwise the stake doubles and the player draws.  A player
who dropped out takes no more turns and scores 0; its pawns stay on the board.

The decisions without a card are four actions after the card's own (``config.actions``: 141 +
4, or with hands of five or partners their actions + 4):

==========  =================================================
``base``    go on to the draw (no double this turn)
``base+1``  double
``base+2``  accept the double (the player answering)
``base+3``  drop out
==========  =================================================

``Games.extras`` holds, per game, the stage of the turn (the card; before the draw; a
double being answered), the player answering (seats after the mover), whether anybody has
accepted, how many times the stake has doubled (the stake is 2 to that power) and the seats
that dropped out.  While a double is answered the decider is not the player to move:
:func:`decider` names it.  After a 2 the same player draws again without a new decision
before the draw, as the core plays it.  NumPy plays a card or a decision only in the games
making it; JAX (:class:`~pardon.batch.jax_env.SorryJax`) plays both in every game and selects.

>>> import numpy as np
>>> from pardon.batch.engine import Config, legal_lanes, new_games, step
>>> config = Config.parse("classic-1939(scoring=1939,doubling=true)", 2)
>>> games = new_games(config, np.array([5], dtype=np.uint32))
>>> config.actions, np.flatnonzero(legal_lanes(config, games)[:, 0]).tolist(), int(games.card[0])
(145, [141, 142], 0)
>>> games, _ = step(config, games, np.array([142], dtype=np.int32))  # double: the other answers
>>> [describe_decision(config, int(a)) for a in np.flatnonzero(legal_lanes(config, games)[:, 0])]
['accept', 'drop out']
>>> games, _ = step(config, games, np.array([143], dtype=np.int32))  # accepted: the stake is 2, the card drawn
>>> stake(games).tolist(), int(games.card[0]) > 0
([2], True)
"""

from __future__ import annotations

from typing import Final

import numpy as np

from pardon.batch.backend import Array, is_numpy, namespace, select
from pardon.batch.config import (
    ACCEPTED,
    ANSWERER,
    ANSWERING,
    BEFORE_DRAW,
    CARD_STAGE,
    DECIDED,
    DECISIONS,
    DOUBLINGS,
    I8,
    I16,
    OUT,
    SPLITTING,
    STAGE,
    Config,
    Games,
    Played,
    games_at,
    one_axis,
    shaped,
    with_rows,
)
from pardon.batch.editions import card_edition

#: The decisions without a card, as offsets after the card's actions.
GO_ON, DOUBLE, ACCEPT, DROP = range(DECISIONS)
DECISION_NAMES: Final = ("go on to the draw", "double", "accept", "drop out")
#: The most doublings of a stake whose points the batch gives (int64): beyond, :func:`points
#: <pardon.batch.scoring.points>` refuses (the game plays on: a stake's doublings are counted up
#: to 32,767, more than a game has turns).
MOST_DOUBLINGS: Final = 56


def card_actions(config: Config) -> int:
    """The actions of the card, before the decisions (141, or with hands or partners theirs)."""
    return config.actions - DECISIONS


def describe_decision(config: Config, action: int) -> str:
    """A doubling game's action in words: a decision, or the card's move
    (:func:`~pardon.batch.hands.describe_move`)."""
    from pardon.batch.hands import describe_move

    return describe_move(config, action)


def stake(games: Games) -> Array:
    """Each game's stake: the points are multiplied by it (2 to the power of its doublings)."""
    return np.left_shift(np.int64(1), games.extras[DOUBLINGS].astype(np.int64))


def decider(config: Config, games: Games) -> Array:
    """Each game's seat to decide: the player to move, or the player answering a double."""
    if not config.rules.doubling:
        return games.turn
    xp = namespace(games.pawns)
    answering = (games.extras[STAGE] == ANSWERING) * games.extras[ANSWERER]
    return ((games.turn + answering) % config.players).astype(xp.int8)


def dropped_out(config: Config, games: Games) -> Array:
    """``(players, *batch)`` booleans: the seats (by seat, not from the mover) that dropped out."""
    seats = np.arange(config.players, dtype=np.int8).reshape((-1,) + (1,) * games.card.ndim)
    return ((games.extras[OUT][None] >> seats) & 1).astype(bool)


def choice_counter(config: Config, games: Games) -> Array:
    """The counter of each game's random choice (:func:`~pardon.batch.deal.random_bits`): the
    cards drawn, and with doubling or Fire and Ice also the decisions made since the last card was played
    (several are made between two draws: each gets its own bits)."""
    if not games.extras.shape[0]:
        return games.drawn
    return games.drawn * 8 + games.extras[DECIDED].astype(np.int32)


def doubling_lanes(config: Config, games: Games, card_lanes: Array | None = None) -> Array:
    """``(config.actions, *batch)``: the card's legal lanes (or ``card_lanes``) where the turn is
    at its card, and the decisions before the draw (go on, double) and of the player answering
    (accept, drop out)."""
    xp = namespace(games.pawns)
    stage = games.extras[STAGE]
    playing = games.winner < 0
    if card_lanes is None:
        card_lanes = card_edition(config).lanes(config, games)
    lanes = card_lanes & _at_card(stage)[None]
    return xp.concatenate([lanes, _decision_lanes(stage, playing)])


def _at_card(stage: Array) -> Array:
    """Whether the turn is at its card: drawn, or a split 7 being made part by part
    (:mod:`pardon.batch.split_any`)."""
    return (stage == CARD_STAGE) | (stage == SPLITTING)


def _decision_lanes(stage: Array, playing: Array) -> Array:
    xp = namespace(stage)
    before, answering = (stage == BEFORE_DRAW) & playing, (stage == ANSWERING) & playing
    return xp.stack([before, before, answering, answering])


def doubling_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """The legal lanes (or ``lanes``), only the lowest of those that make the same move: the
    card's (:func:`~pardon.batch.editions.card_edition`), and each decision its own."""
    xp = namespace(games.pawns)
    if lanes is None:
        lanes = doubling_lanes(config, games)
    base = card_actions(config)
    played = card_edition(config).distinct(config, games, lanes[:base])
    return xp.concatenate([played & _at_card(games.extras[STAGE])[None], lanes[base:]])


def play_doubling(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action played: its card's (:func:`~pardon.batch.editions.card_edition`, then the
    next player's turn begins before the draw, passing over those who dropped out), or its
    decision (trusted: one of :func:`doubling_lanes`).  With ``advance=False`` a card moves
    the pawns only, and a decision is made as it is.  NumPy plays each only in the games
    making it; JAX plays both in every game and selects."""
    from pardon.batch.play import _action_index

    xp = namespace(games.pawns)
    index = _action_index(xp, games.card, actions, config.actions)
    base = card_actions(config)
    playing = games.winner < 0
    at_card = playing & _at_card(games.extras[STAGE])
    if not is_numpy(xp):
        moved, what = _card_played(config, games, select(index < base, index, 0), advance)
        decided = _decided(config, games, index - base)
        after = Games(
            *(select(at_card, m, select(playing, d, g)) for m, d, g in zip(moved, decided, games, strict=True))
        )
        nothing = Played(*(xp.zeros_like(field) for field in what))
        return after, Played(*(select(at_card, w, n) for w, n in zip(what, nothing, strict=True)))
    if games.card.ndim != 1:
        return shaped(*play_doubling(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    after = Games(*(np.array(field, copy=True) for field in games))
    zeros = np.zeros(games.card.shape, dtype=np.int8)
    played = Played(np.zeros_like(games.card), zeros.copy(), zeros.copy(), np.zeros(games.card.shape, dtype=bool))
    rows = np.flatnonzero(at_card)
    if rows.size:
        actions_there = np.where(index[rows] < base, index[rows], 0)
        _written(after, played, rows, *_card_played(config, games_at(games, rows), actions_there, advance))
    rows = np.flatnonzero(playing & ~at_card)
    if rows.size:
        _written(after, None, rows, _decided(config, games_at(games, rows), index[rows] - base), None)
    return after, played


def _written(after: Games, played: Played | None, rows: Array, games: Games, what: Played | None) -> None:
    """NumPy: the games of ``rows`` (and what they played) written into ``after`` (and ``played``)."""
    for whole, part in zip(after, games, strict=True):
        whole[..., rows] = part
    if played is not None and what is not None:
        for whole, part in zip(played, what, strict=True):
            whole[rows] = part


def _card_played(config: Config, games: Games, actions: Array, advance: bool) -> tuple[Games, Played]:
    """The games play their card (``actions``); a new turn begins before the draw, the players
    who dropped out passed over."""
    from pardon.batch.play import _passed_on

    xp = namespace(games.pawns)
    moved, what = card_edition(config).play(config, games, actions, advance)
    if not advance:
        return moved, what
    mover = games.turn
    for _ in range(config.players - 1):  # pass over the seats that dropped out
        out = ((moved.extras[OUT] >> moved.turn) & 1).astype(bool) & (moved.winner < 0)
        if is_numpy(xp) and not out.any():
            break
        moved = _passed_on(config, moved, out)
    new_turn = (moved.turn != mover) & (moved.winner < 0)
    stage = select(new_turn, I16(BEFORE_DRAW), moved.extras[STAGE])
    zero = xp.zeros_like(moved.extras[DECIDED])
    extras = with_rows(moved.extras, {STAGE: stage, DECIDED: zero, ACCEPTED: zero})
    return moved._replace(extras=extras, card=select(new_turn, I8(0), moved.card)), what


def _decided(config: Config, games: Games, decision: Array) -> Games:
    """The games make their decision (one of the four, trusted)."""
    xp = namespace(games.pawns)
    doubling = games.extras
    stage, answerer = doubling[STAGE], doubling[ANSWERER]
    turn = games.turn.astype(xp.int16)
    out = doubling[OUT]
    going_on = decision == GO_ON
    doubles = decision == DOUBLE
    answering = (decision == ACCEPT) | (decision == DROP)
    answering_seat = (turn + answerer) % I16(config.players)
    out = select(decision == DROP, out | xp.left_shift(I16(1), answering_seat), out)
    accepted = select(decision == ACCEPT, I16(1), doubling[ACCEPTED])
    # the next to answer: the first seat still in after the one who answered (or the mover)
    start = select(doubles, I16(0), answerer)
    following = xp.zeros(turn.shape, dtype=xp.int16)
    for ahead in range(config.players - 1, 0, -1):  # the nearest found last
        seat = (turn + I16(ahead)) % I16(config.players)
        still_in = ((out >> seat) & I16(1)) == 0
        following = select((start < ahead) & still_in, I16(ahead), following)
    asking = (doubles | answering) & (following > 0)
    done = (doubles | answering) & (following == 0)  # every player has answered
    taken = done & (accepted == 1)
    extras = with_rows(
        doubling,
        {
            STAGE: select(going_on | done, I16(CARD_STAGE), select(asking, I16(ANSWERING), stage)),
            ANSWERER: select(asking, following, I16(0)),
            ACCEPTED: select(doubles, I16(0), accepted),  # kept until a card is played, as the core keeps it
            DOUBLINGS: doubling[DOUBLINGS] + taken.astype(xp.int16),
            OUT: out,
            DECIDED: doubling[DECIDED] + I16(1),
        },
    )
    nobody = done & (accepted == 0)  # everybody dropped out: the doubler wins
    return games._replace(extras=extras, winner=select(nobody, games.turn, games.winner))
