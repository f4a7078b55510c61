"""Observations of batch games as arrays, for learning agents (docs/batch.md).

One observation is a flat ``float32`` vector of :data:`FEATURES` = 1,098 numbers, seen
from one seat (the *observer*, usually the player to move), in four planes:

* ``pawns`` (4 × 4 × 67 = 1,072): for each player counted clockwise from the observer
  (0 = the observer; a player not in the game is all zeros), for each pawn slot 0–3, a
  one-hot of where the pawn stands: 0 = Start, 1–60 = the track squares counted
  clockwise from the first square of the observer's side of the board (so square 1 + 2 is
  the observer's Safety Zone entrance), 61–65 = S1–S5 of the pawn's own Safety Zone,
  66 = Home.  Slots match the action encoding; an unused slot (3 pawns) is all zeros.
* ``card`` (11): a one-hot of the card to play (1, 2, 3, 4, 5, 7, 8, 10, 11, 12, Sorry!),
  zeros unless the observer is to play;
* ``turn`` (4): a one-hot of whose turn it is, counted clockwise from the observer;
* ``pack`` (11): the cards of each kind left to draw, as a fraction of that kind in a full
  pack (everybody can count the discards).

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games
>>> config = Config.parse("classic", 2)
>>> planes = observe(config, new_games(config, np.array([7], dtype=np.uint32)))
>>> planes.shape, planes[0, PAWNS].reshape(4, 4, 67)[0, :, 0].tolist()
((1, 1098), [1.0, 1.0, 1.0, 1.0])
"""

from __future__ import annotations

from typing import Final

import numpy as np

from pardon.batch.actions import SLOTS
from pardon.batch.backend import Array, column, is_numpy, namespace, select
from pardon.batch.config import OFF_TRACK, Config, Games, batch_of_one, tables
from pardon.batch.squares import _relative_squares, _sides
from pardon.core.board import START
from pardon.core.cards import CARDS

SEATS: Final = 4
LOCATIONS: Final = 67
START_LOCATION: Final = 0
HOME_LOCATION: Final = 66
PAWNS: Final = slice(0, SEATS * SLOTS * LOCATIONS)
CARD: Final = slice(PAWNS.stop, PAWNS.stop + len(CARDS))
TURN: Final = slice(CARD.stop, CARD.stop + SEATS)
PACK: Final = slice(TURN.stop, TURN.stop + len(CARDS))
FEATURES: Final = PACK.stop


def locations(config: Config, games: Games, observer: int = 0) -> Array:
    """``(4, 4, *batch)`` int8: each pawn's location index (module docstring), players
    counted from the observer (``observer`` seats after the player to move); -1 for a
    player not in the game or an unused slot."""
    xp = namespace(games.pawns)
    players = config.players
    batch = games.card.ndim
    pawns = xp.roll(games.pawns, -observer, axis=0)
    sides = _sides(config, games.turn)
    sides = (xp.roll(sides, -observer, axis=0) - sides[observer] + xp.int8(SEATS)) % xp.int8(SEATS)
    squares = _relative_squares(pawns, sides)
    place = select(pawns == START, xp.int8(START_LOCATION), xp.int8(HOME_LOCATION) - pawns)  # Home 66, S1 65 ... S5 61
    place = select(squares != OFF_TRACK, squares + xp.int8(1), place)
    used = column(np.arange(SLOTS) < config.rules.pawns, batch, dtype=bool)
    place = select(used, place, xp.int8(-1))
    if players < SEATS:
        place = xp.concatenate([place, xp.full((SEATS - players, SLOTS, *games.card.shape), -1, dtype=xp.int8)])
    return place


def observe(config: Config, games: Games, observer: int = 0) -> Array:
    """``(batch, 1098)`` float32 observations of a batch with one axis of games (or
    ``(1098,)`` for a single game) from ``observer`` seats after the player to move."""
    xp = namespace(games.pawns)
    table = tables(config)
    single = games.card.ndim == 0
    if single:
        games = batch_of_one(games)
    count = games.card.shape[0]
    place = locations(config, games, observer)  # (4, 4, count)
    offsets = column(np.arange(SEATS * SLOTS) * LOCATIONS, 1, dtype=np.int32).reshape(SEATS, SLOTS, 1)
    kinds = np.array(CARDS)
    to_play = (games.card[None] == column(kinds, 1)) & (observer == 0)  # (11, count)
    whose = column(np.arange(SEATS), 1) == ((-observer) % config.players)  # (4, 1): the mover
    pack = games.pack.astype(xp.float32) / column(table.deck, 1, dtype=np.float32)
    if is_numpy(xp):
        out = np.zeros((count, FEATURES), dtype=np.float32)
        rows = np.broadcast_to(np.arange(count), place.shape)
        index = (offsets + place).astype(np.int64)
        keep = place >= 0
        out[rows[keep], index[keep]] = 1.0
        out[:, CARD] = to_play.T
        out[:, TURN] = np.broadcast_to(whose, (SEATS, count)).T
        out[:, PACK] = pack.T
    else:
        one_hot = place[..., None] == xp.arange(LOCATIONS, dtype=xp.int8)  # (4, 4, count, 67)
        pawns = xp.moveaxis(one_hot, 2, 0).reshape(count, -1).astype(xp.float32)
        turn = xp.broadcast_to(xp.asarray(whose), (SEATS, count)).T.astype(xp.float32)
        out = xp.concatenate([pawns, to_play.T.astype(xp.float32), turn, pack.T], axis=1)
    return out[0] if single else out
