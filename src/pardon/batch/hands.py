"""Hands of five in the batch engine (docs/rules.md: "Hand of five"; the core's
:mod:`pardon.core.hands`): each seat holds five cards (``Games.hands``, counts of each kind),
and a turn is the choice of a card and of its move, one action among 11 × 141 (with partners
11 × 474: :mod:`pardon.batch.partners`).

Action ``k * 141 + a`` plays the card of kind ``k`` (its index in ``CARDS``: 0 is the 1, 10
the Sorry!) with the card's action ``a`` of :mod:`pardon.batch.actions` (with partners
``k * 474 + a``, ``a`` the team's action); ``a = 0``, the
card's pass, is then its **discard** from a dead hand.  A card is *usable* when it has a
lane other than its pass, and a player holding a card whose use is compulsory (it has a
use and no pass) must play a card: then no card's pass is legal.  Otherwise the hand may
be treated as dead (an 11 that can only switch may be declined): beside the moves, each
card held may be discarded.  The card played leaves the hand and one is taken from the
pack in its place; after a 2 the same player plays again (``draw_again_on_2``), but not
after a 2 discarded.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games, random_moves, step
>>> config = Config.parse("adult", 2)
>>> games = new_games(config, np.arange(3, dtype=np.uint32))
>>> games.hands.sum(axis=1).tolist(), config.actions  # five cards a seat, 11 blocks of 141
([[5, 5, 5], [5, 5, 5]], 1551)
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_moves(config, games))
>>> games.winner.tolist(), games.hands.sum(axis=1)[0].tolist()  # the winner draws no card after its last
([0, 1, 0], [4, 4, 4])
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Final, NamedTuple

import numpy as np

from pardon.batch.actions import ACTIONS, PASS, describe_action
from pardon.batch.backend import Array, all0, any0, is_numpy, namespace, select
from pardon.batch.config import I8, SPLITTING, STAGE, Config, Games, Played, games_at, splits_any, tables
from pardon.batch.fast_path import _is_fast
from pardon.core.board import HOME
from pardon.core.cards import CARDS, SORRY

#: The actions of a game with hands: a block of 141 for each kind of card.
HAND_ACTIONS: Final = len(CARDS) * ACTIONS

#: Each kind's card (``CARDS`` as int8, for a gather).
_CARD_OF_KIND: Final = np.array(CARDS, dtype=np.int8)


class CardMoves(NamedTuple):
    """What a card of the hand does: its legal lanes, distinct lanes and play as the card in
    hand's edition has them (the classic card's, or the partners' team's), and how many
    actions each card's block has."""

    lanes: Callable[[Config, Games], Array]
    distinct: Callable[[Config, Games, Array | None], Array]
    play: Callable[..., tuple[Games, Played]]
    actions: int


def card_moves(config: Config) -> CardMoves:
    """The moves of a card played from the hand in ``config``'s games."""
    if splits_any(config.rules):
        from pardon.batch import split_any

        return CardMoves(split_any.any_lanes, split_any.any_distinct_lanes, split_any.play_any, split_any.ANY_ACTIONS)
    if config.rules.partners:
        from pardon.batch import partners

        return CardMoves(partners.team_lanes, partners.team_distinct_lanes, partners.play_team, partners.TEAM_ACTIONS)
    if config.rules.tokens:
        from pardon.batch import tokens

        return CardMoves(
            tokens.token_card_lanes, tokens.token_card_distinct_lanes, tokens.play_token_card, tokens.CARD_MOVES
        )
    from pardon.batch.distinct import card_distinct_lanes
    from pardon.batch.legal import card_lanes
    from pardon.batch.play import play_card

    return CardMoves(card_lanes, card_distinct_lanes, play_card, ACTIONS)


def hand_action(card: int, action: int, block: int = ACTIONS) -> int:
    """The action playing ``card`` (1–12, 13 the Sorry!) from the hand with its ``action``
    (0–140; with partners 0–473, and ``block`` 474)."""
    return CARDS.index(card) * block + action


def describe_hand_action(action: int, partners: bool = False, tokens: bool = False, any_split: bool = False) -> str:
    """A hand game's action in words: the card, then what it does (with ``partners``, for the
    team, and with ``any_split`` a part of the split 7 among any team pawns; with Fire and Ice,
    ``tokens``, the tokens placed too)."""
    block = _block(partners, tokens, any_split)
    if not 0 <= action < len(CARDS) * block:
        raise ValueError(f"no action {action}: with hands of five actions are numbered 0 to {len(CARDS) * block - 1}")
    kind, move = divmod(action, block)
    card = CARDS[kind]
    name = "a Sorry!" if card == SORRY else f"an {card}" if card in (8, 11) else f"a {card}"
    if move == PASS:
        return f"discard {name}"
    if partners:
        from pardon.batch.partners import describe_team_action
        from pardon.batch.split_any import FIRST_PART, describe_part

        return f"play {name}: {describe_part(move) if move >= FIRST_PART else describe_team_action(move)}"
    if tokens:
        from pardon.batch.tokens import describe_token_action

        return f"play {name}: {describe_token_action(move)}"
    return f"play {name}: {describe_action(move)}"


def _block(partners: bool, tokens: bool, any_split: bool) -> int:
    """How many actions a card of the hand has."""
    if any_split:
        from pardon.batch.split_any import ANY_ACTIONS

        return ANY_ACTIONS
    if partners:
        from pardon.batch.partners import TEAM_ACTIONS

        return TEAM_ACTIONS
    if tokens:
        from pardon.batch.tokens import CARD_MOVES

        return CARD_MOVES
    return ACTIONS


def describe_move(config: Config, action: int) -> str:
    """An action of ``config``'s games in words (:func:`~pardon.batch.actions.describe_action`,
    with hands of five :func:`describe_hand_action`, with partners
    :func:`~pardon.batch.partners.describe_team_action` and a part of a split 7
    :func:`~pardon.batch.split_any.describe_part`, with Fire and Ice
    :func:`~pardon.batch.tokens.describe_token_action`; a decision without a card by its name)."""
    if not 0 <= action < config.actions:
        raise ValueError(f"no action {action}: under these rules actions are numbered 0 to {config.actions - 1}")
    if action >= config.card_actions:
        from pardon.batch.doubling import DECISION_NAMES, FIRE_MOVE, GO_ON

        decision = action - config.card_actions
        if config.rules.tokens and (decision == FIRE_MOVE or (not config.rules.doubling and decision == 1)):
            return "move the Fire pawn to the next corner"
        return DECISION_NAMES[decision if config.rules.doubling else GO_ON]
    if config.rules.hand:
        return describe_hand_action(action, config.rules.partners, config.rules.tokens, splits_any(config.rules))
    if config.rules.tokens:
        from pardon.batch.tokens import describe_token_action

        return describe_token_action(action)
    if config.rules.partners:
        from pardon.batch.partners import describe_team_action
        from pardon.batch.split_any import FIRST_PART, describe_part

        return describe_part(action) if action >= FIRST_PART else describe_team_action(action)
    return describe_action(action)


def _card_held(games: Games, kind: int) -> Array:
    """Each game's card of ``kind`` where its player to move holds one (and plays on), else 0."""
    held = (games.hands[0, kind] > 0) & (games.winner < 0)
    return select(held, I8(CARDS[kind]), I8(0))


def hand_lanes(config: Config, games: Games) -> Array:
    """``(1551, *batch)`` booleans (with partners 5,214): the legal actions of each game's
    player to move, card by card (the lanes of each card held, :func:`card_moves`), the passes
    (discards) only where no card's use is compulsory."""
    xp = namespace(games.pawns)
    moves = card_moves(config)
    lanes = _by_kind(xp, games, moves.actions, lambda kind: lambda some, _: moves.lanes(config, some))
    return _discards_if_dead(xp, lanes, moves.actions)


def _by_kind(
    xp: ModuleType, games: Games, actions: int, lanes: Callable[[int], Callable[[Games, Array | None], Array]]
) -> Array:
    """``(11 * actions, *batch)``: each kind's block, ``lanes(kind)(games, rows)`` of each game
    with its card of that kind in hand as its card (none for a game whose player does not hold
    one); on NumPy worked out for the games holding it only, ``rows`` (most games hold 4 or 5
    of the 11 kinds) and written into one array, on JAX for every game (``rows`` None)."""
    if not _is_fast(xp, games.card):
        blocks = []
        for kind in range(len(CARDS)):
            held = _card_held(games, kind)
            blocks.append(lanes(kind)(games._replace(card=held), None))
        return xp.concatenate(blocks, axis=0)
    out = np.zeros((len(CARDS) * actions, *games.card.shape), dtype=bool)
    for kind in range(len(CARDS)):
        held = _card_held(games, kind)
        rows = np.flatnonzero(held)
        if rows.size:
            found = lanes(kind)(games_at(games, rows)._replace(card=held[rows]), rows)
            out[kind * actions : (kind + 1) * actions, rows] = found
    return out


def _discards_if_dead(xp: ModuleType, lanes: Array, actions: int) -> Array:
    """The lanes of the 11 blocks, each card's pass cleared where another card (or it) has a
    use and no pass: a card in hand that must be played.  (With Fire and Ice a token placed is
    a use, in its own lanes; a 1 bringing the Ice back to the centre frees the mover's own
    pawn, which then has a move: its pass is never legal.)"""
    blocks = xp.reshape(lanes, (len(CARDS), actions, *lanes.shape[1:]))
    passes = blocks[:, PASS]
    compulsory = any0(xp.any(blocks[:, 1:], axis=1) & ~passes)
    if is_numpy(xp):  # in place: no copy of every lane
        passes &= ~compulsory[None]
        return lanes
    cleared = xp.concatenate([(passes & ~compulsory[None])[:, None], blocks[:, 1:]], axis=1)
    return xp.reshape(cleared, lanes.shape)


def hand_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(1551, *batch)``: the legal lanes (or ``lanes``), only the lowest of those that play the
    same card to the same position (cards of different kinds leave different hands: each is
    its own move, as in the core's :func:`~pardon.core.hands.hand_moves`)."""
    xp = namespace(games.pawns)
    if lanes is None:
        lanes = hand_lanes(config, games)
    moves = card_moves(config)

    def distinct(kind: int) -> Callable[[Games, Array | None], Array]:
        block = lanes[kind * moves.actions : (kind + 1) * moves.actions]
        return lambda some, rows: moves.distinct(config, some, block if rows is None else block[:, rows])

    return _by_kind(xp, games, moves.actions, distinct)


def play_from_hand(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action (0–1550, with partners 0–5,213) played: the card leaves the hand and
    moves as its action says (:func:`card_moves`), the hand is drawn back up, and the turn
    passes on (the same player again after a 2 played with ``draw_again_on_2``).  With
    ``advance=False`` only the card leaves the hand and the pawns move (an afterstate)."""
    from pardon.batch.deal import into_hand, take
    from pardon.batch.play import _action_index, _advance

    xp = namespace(games.pawns)
    moves = card_moves(config)
    index = _action_index(xp, games.card, actions, len(CARDS) * moves.actions)
    kind = (index // moves.actions).astype(xp.int8)
    playing = games.winner < 0
    card = select(playing, xp.take(xp.asarray(_CARD_OF_KIND), kind.astype(xp.int32)), I8(0))
    moved, played = moves.play(config, games._replace(card=card), index % moves.actions, advance=False)
    if splits_any(config.rules):  # a split 7 being made part by part: its 7 leaves the hand once whole
        playing = playing & (moved.extras[STAGE] != SPLITTING)
    moved = moved._replace(hands=into_hand(moved.hands, 0, select(playing, kind, I8(-1)), -1))  # out of it
    if not advance:
        return moved, played
    won = all0(moved.pawns[0] == HOME) & playing
    if config.rules.partners:  # the team wins
        won = won & all0(moved.pawns[2] == HOME)
    taken, _, moved = take(config, moved, playing & ~won)
    moved = moved._replace(hands=into_hand(moved.hands, 0, taken))
    again = (card == 2) & ~played.forfeit if tables(config).draw_again_on_2 else xp.zeros_like(won)
    after = _advance(config, moved, playing, again)
    return after._replace(card=xp.zeros_like(after.card)), played
