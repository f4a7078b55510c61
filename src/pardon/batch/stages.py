"""The decisions of a turn made without a card, beside the card's moves: doubling's
(:mod:`pardon.batch.doubling`) and the Fire pawn's before the draw (:mod:`pardon.batch.tokens`).
Each edition with such decisions numbers them after the card's actions (``base`` on) and
plays a batch where some games are at their card and others decide; :func:`play_stages`
plays each game's part: NumPy only in the games making it, JAX both in every game, selected.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pardon.batch.backend import Array, is_numpy, namespace, select
from pardon.batch.config import Games, Played, games_at


def play_stages(
    games: Games,
    index: Array,
    base: int,
    at_card: Array,
    card_played: Callable[[Games, Array], tuple[Games, Played]],
    decided: Callable[[Games, Array], tuple[Games, Played]],
) -> tuple[Games, Played]:
    """Each game's action (``index``, one axis of games) played: ``card_played(games,
    actions)`` where the game is ``at_card`` (its actions below ``base``), ``decided(games,
    decisions)`` in the other games still going on (``index - base``); the games over kept."""
    xp = namespace(games.pawns)
    playing = games.winner < 0
    at_card = at_card & playing
    if not is_numpy(xp):
        moved, what = card_played(games, select(index < base, index, 0))
        made, did = decided(games, xp.maximum(index - base, 0))
        after = Games(*(select(at_card, m, select(playing, d, g)) for m, d, g in zip(moved, made, games, strict=True)))
        nothing = Played(*(xp.zeros_like(field) for field in what))
        chosen = (select(at_card, w, select(playing, d, n)) for w, d, n in zip(what, did, nothing, strict=True))
        return after, Played(*chosen)
    after = Games(*(np.array(field, copy=True) for field in games))
    zeros = np.zeros(games.card.shape, dtype=np.int8)
    played = Played(np.zeros_like(games.card), zeros.copy(), zeros.copy(), np.zeros(games.card.shape, dtype=bool))
    rows = np.flatnonzero(at_card)
    if rows.size:
        _written(after, played, rows, *card_played(games_at(games, rows), np.where(index[rows] < base, index[rows], 0)))
    rows = np.flatnonzero(playing & ~at_card)
    if rows.size:
        _written(after, played, rows, *decided(games_at(games, rows), index[rows] - base))
    return after, played


def nothing_played(games: Games) -> Played:
    """What a decision without a card did: no card, no bump, no slide, no forfeit."""
    xp = namespace(games.pawns)
    zeros = xp.zeros(games.card.shape, dtype=xp.int8)
    return Played(xp.zeros_like(games.card), zeros, zeros, xp.zeros(games.card.shape, dtype=bool))


def _written(after: Games, played: Played, rows: Array, games: Games, what: Played) -> None:
    """NumPy: the games of ``rows`` (and what they played) written into ``after`` (and ``played``)."""
    for whole, part in zip(after, games, strict=True):
        whole[..., rows] = part
    for whole, part in zip(played, what, strict=True):
        whole[rows] = part
