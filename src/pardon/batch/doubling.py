"""Doubling in the batch engine (docs/rules.md: "Points"; the core's :mod:`pardon.core.turn`):
with Point Scoring (``scoring=1939``) and ``doubling=true``, each turn begins before the draw,
where the player to move may double the stake; each other player still in the game then, in
turn clockwise, accepts or drops out.  If everybody drops out, the game ends and the doubler
wins (scoring 5 times the stake); otherwise the stake doubles and the player draws.  A player
who dropped out takes no more turns and scores 0; its pawns stay on the board.

The decisions without a card are four actions after the card's own (``config.actions``: 141 +
4, or with hands of five, partners or Fire and Ice their actions + 4; with Fire and Ice a fifth,
``base+4``, moves the Fire pawn before the draw, before or after a double, once a turn):

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
    FIRED,
    I8,
    I16,
    OUT,
    SPLITTING,
    STAGE,
    Config,
    Games,
    Played,
    one_axis,
    shaped,
    with_rows,
)
from pardon.batch.editions import card_edition
from pardon.batch.stages import nothing_played, play_stages

#: The decisions without a card, as offsets after the card's actions; with Fire and Ice the
#: Fire pawn's move before the draw after them.
GO_ON, DOUBLE, ACCEPT, DROP, FIRE_MOVE = range(DECISIONS + 1)
DECISION_NAMES: Final = ("go on to the draw", "double", "accept", "drop out", "move the Fire pawn")
#: The most doublings of a stake whose points the batch gives (int64): beyond, :func:`points
#: <pardon.batch.scoring.points>` refuses (the game plays on: a stake's doublings are counted up
#: to 32,767, more than a game has turns).
MOST_DOUBLINGS: Final = 56


def card_actions(config: Config) -> int:
    """The actions of the card, before the decisions (141, or with hands, partners or Fire and
    Ice theirs)."""
    return config.card_actions


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
    if card_lanes is None:
        card_lanes = card_edition(config).lanes(config, games)
    lanes = card_lanes & _at_card(stage)[None]
    return xp.concatenate([lanes, _decision_lanes(config, games)])


def _at_card(stage: Array) -> Array:
    """Whether the turn is at its card: drawn, or a split 7 being made part by part
    (:mod:`pardon.batch.split_any`)."""
    return (stage == CARD_STAGE) | (stage == SPLITTING)


def _decision_lanes(config: Config, games: Games) -> Array:
    """Going on and the double before the draw (not once a double is accepted this turn: with
    Fire and Ice the turn is before the draw again, for the Fire pawn's move), the answers,
    and with Fire and Ice the Fire pawn's move (:func:`may_move_fire`)."""
    xp = namespace(games.pawns)
    stage, playing = games.extras[STAGE], games.winner < 0
    before, answering = (stage == BEFORE_DRAW) & playing, (stage == ANSWERING) & playing
    rows = [before, before & (games.extras[ACCEPTED] == 0), answering, answering]
    if config.rules.tokens:
        rows.append(before & may_move_fire(config, games))
    return xp.stack(rows)


def may_move_fire(config: Config, games: Games) -> Array:
    """With Fire and Ice, whether the player to move may move the Fire pawn before the draw:
    it can (:func:`~pardon.batch.tokens.fire_jump`) and has not this turn."""
    from pardon.batch.tokens import fire_jump

    return fire_jump(config, games)[0] & (games.extras[FIRED] == 0)


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
    if is_numpy(xp) and games.card.ndim != 1:
        return shaped(*play_doubling(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    at_card = _at_card(games.extras[STAGE])

    def card_played(some: Games, chosen: Array) -> tuple[Games, Played]:
        return _card_played(config, some, chosen, advance)

    def decided(some: Games, decision: Array) -> tuple[Games, Played]:
        made = _decided(config, some, decision)
        if config.rules.tokens:
            return _fire_moved(config, made, decision == FIRE_MOVE)
        return made, nothing_played(some)

    return play_stages(games, index, card_actions(config), at_card, card_played, decided)


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
    extras = with_rows(moved.extras, {STAGE: stage, DECIDED: zero, ACCEPTED: zero, FIRED: zero})
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
    answered = I16(CARD_STAGE)
    if config.rules.tokens:  # accepted: the Fire pawn may still move before the draw
        answered = select(taken & may_move_fire(config, games), I16(BEFORE_DRAW), answered)
    stage = select(going_on, I16(CARD_STAGE), select(done, answered, select(asking, I16(ANSWERING), stage)))
    extras = with_rows(
        doubling,
        {
            STAGE: stage,
            ANSWERER: select(asking, following, I16(0)),
            ACCEPTED: select(doubles, I16(0), accepted),  # kept until a card is played, as the core keeps it
            DOUBLINGS: doubling[DOUBLINGS] + taken.astype(xp.int16),
            OUT: out,
            DECIDED: doubling[DECIDED] + I16(1),
        },
    )
    nobody = done & (accepted == 0)  # everybody dropped out: the doubler wins
    return games._replace(extras=extras, winner=select(nobody, games.turn, games.winner))


def _fire_moved(config: Config, games: Games, moving: Array) -> tuple[Games, Played]:
    """With Fire and Ice, the games whose decision (``moving``) moved the Fire pawn (any
    opponent on its corner bumped): then before the draw again while the double is still to
    be made (none accepted this turn), else at the card."""
    from pardon.batch.tokens import with_fire_moved

    xp = namespace(games.pawns)
    pawns, bumps = with_fire_moved(config, games, moving)
    extras = games.extras
    stage = select(moving & (extras[ACCEPTED] != 0), I16(CARD_STAGE), extras[STAGE])
    fired = select(moving, I16(1), extras[FIRED])
    played = nothing_played(games)._replace(bumps=bumps.astype(xp.int8))
    return games._replace(pawns=pawns, extras=with_rows(extras, {STAGE: stage, FIRED: fired})), played
