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
  zeros unless the observer is to play; with hands of five, the observer's hand instead,
  the cards of each kind as a fraction of the hand's five;
* ``turn`` (4): a one-hot of whose turn it is, counted clockwise from the observer;
* ``pack`` (11): the cards of each kind left to draw, as a fraction of that kind in a full
  pack (everybody can count the discards); with hands of five, the cards the observer has
  not seen, the pack and the other hands together (the others' hands are hidden).

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
from pardon.batch.config import OFF_TRACK, Config, Games, batch_of_one, games_at, splits_any, tables
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
#: With doubling, ten numbers more (:func:`features`): the stage of the turn (one-hot: the
#: card, before the draw, a double answered), whether the observer decides now, the stake
#: (its doublings, up to 8, as a share of 8), whether anybody has accepted the double being
#: answered, and who dropped out (each player counted clockwise from the observer).
DOUBLING: Final = slice(FEATURES, FEATURES + 10)


#: With Fire and Ice, 33 numbers more: the pawn the Ice sits on and the pawn the Fire sits on
#: (each a one-hot over the 4 × 4 pawns, players counted clockwise from the observer, as in
#: ``pawns``; zeros in the centre), and whether the turn is before the draw (the Fire pawn may move).
TOKENS: Final = slice(FEATURES, FEATURES + 2 * SEATS * SLOTS + 1)
#: Both (doubling's first).
DOUBLING_TOKENS: Final = slice(DOUBLING.stop, DOUBLING.stop + TOKENS.stop - TOKENS.start)


#: With the partners' split 7 among any team pawns (:mod:`pardon.batch.split_any`), 14 numbers
#: more: how much of the 7 a split being made has left to move (a one-hot of 1–6; zeros when
#: none is being made), and the pawns it has moved (the mover's 4 slots, then its partner's).
SPLIT: Final = slice(FEATURES, FEATURES + 6 + 2 * SLOTS)
#: Both (doubling's first).
DOUBLING_SPLIT: Final = slice(DOUBLING.stop, DOUBLING.stop + 6 + 2 * SLOTS)


def features(config: Config) -> int:
    """How many numbers an observation of ``config``'s games has: 1,098, or 1,108 with doubling,
    1,131 with Fire and Ice, 1,141 with both, 1,112 with the partners' split 7 among any team pawns."""
    if splits_any(config.rules):
        return DOUBLING_SPLIT.stop if config.rules.doubling else SPLIT.stop
    if config.rules.tokens:
        return DOUBLING_TOKENS.stop if config.rules.doubling else TOKENS.stop
    return DOUBLING.stop if config.rules.doubling else FEATURES


def _from(array: Array, observer: Array) -> Array:
    """``array`` (seats first) with the observer's seat first, the others after it in turn:
    ``observer`` a whole number of seats, or on JAX one for each game (one batch axis)."""
    xp = namespace(array)
    if isinstance(observer, int):
        return xp.roll(array, -observer, axis=0)
    seats = (xp.arange(array.shape[0], dtype=xp.int32)[:, None] + observer[None]) % array.shape[0]
    return xp.take_along_axis(array, seats.reshape(seats.shape[:1] + (1,) * (array.ndim - 2) + seats.shape[1:]), axis=0)


def locations(config: Config, games: Games, observer: Array = 0) -> Array:
    """``(4, 4, *batch)`` int8: each pawn's location index (module docstring), players
    counted from the observer (``observer`` seats after the player to move; on JAX a number
    for each game of one batch axis, or one for all); -1 for a player not in the game or an
    unused slot."""
    xp = namespace(games.pawns)
    players = config.players
    batch = games.card.ndim
    pawns = _from(games.pawns, observer)
    sides = _from(_sides(config, games.turn), observer)
    sides = (sides - sides[0] + xp.int8(SEATS)) % xp.int8(SEATS)
    squares = _relative_squares(pawns, sides)
    place = select(pawns == START, xp.int8(START_LOCATION), xp.int8(HOME_LOCATION) - pawns)  # Home 66, S1 65 ... S5 61
    place = select(squares != OFF_TRACK, squares + xp.int8(1), place)
    used = column(np.arange(SLOTS) < config.rules.pawns, batch, dtype=bool)
    place = select(used, place, xp.int8(-1))
    if players < SEATS:
        place = xp.concatenate([place, xp.full((SEATS - players, SLOTS, *games.card.shape), -1, dtype=xp.int8)])
    return place


def observe(config: Config, games: Games, observer: Array = 0) -> Array:
    """``(batch, 1098)`` float32 observations of a batch with one axis of games (or
    ``(1098,)`` for a single game) from ``observer`` seats after the player to move (on JAX
    also one number for each game of the batch: :func:`observe_from`) (1,108
    numbers with doubling, 1,131 with Fire and Ice: :func:`features`)."""
    xp = namespace(games.pawns)
    single = games.card.ndim == 0
    if single:
        games = batch_of_one(games)
    count = games.card.shape[0]
    if is_numpy(xp):
        table = tables(config)
        place = locations(config, games, observer)  # (4, 4, count)
        offsets = column(np.arange(SEATS * SLOTS) * LOCATIONS, 1, dtype=np.int32).reshape(SEATS, SLOTS, 1)
        kinds = np.array(CARDS)
        to_play = (games.card[None] == column(kinds, 1)) & (observer == 0)  # (11, count)
        whose = column(np.arange(SEATS), 1) == ((-observer) % config.players)  # (4, 1): the mover
        out = np.zeros((count, features(config)), dtype=np.float32)
        rows = np.broadcast_to(np.arange(count), place.shape)
        index = (offsets + place).astype(np.int64)
        keep = place >= 0
        out[rows[keep], index[keep]] = 1.0
        out[:, TURN] = np.broadcast_to(whose, (SEATS, count)).T
        if config.rules.hand:
            out[:, CARD], out[:, PACK] = _hand_planes(config, games, observer)
        else:
            out[:, CARD] = to_play.T
            out[:, PACK] = (games.pack.astype(np.float32) / column(table.deck, 1, dtype=np.float32)).T
        if config.rules.doubling:
            out[:, DOUBLING] = _doubling_planes(config, games, observer)
        if config.rules.tokens:
            out[:, DOUBLING_TOKENS if config.rules.doubling else TOKENS] = _token_planes(config, games, observer)
        if splits_any(config.rules):
            out[:, DOUBLING_SPLIT if config.rules.doubling else SPLIT] = _split_planes(games)
    else:
        ones, pack = entries(config, games, observer)
        mover = xp.broadcast_to(xp.asarray(TURN.start + (-observer) % config.players, dtype=xp.int32), (1, count))
        ones = xp.concatenate([ones, mover])
        zeros = xp.zeros((count, FEATURES), dtype=xp.float32)
        out = write(zeros, xp.zeros((0, count), dtype=xp.int32), ones, pack)
        if config.rules.hand:
            own, unseen = _hand_planes(config, games, observer)
            out = out.at[:, CARD].set(own).at[:, PACK].set(unseen)
        if config.rules.doubling:
            out = xp.concatenate([out, _doubling_planes(config, games, observer)], axis=1)
        if config.rules.tokens:
            out = xp.concatenate([out, _token_planes(config, games, observer)], axis=1)
    return out[0] if single else out


def observe_from(config: Config, games: Games, seats: Array) -> Array:
    """``(batch, features)``: each game's observation (one batch axis) as the player in its
    seat of ``seats`` sees it (with doubling, the seat deciding may not be the one to move).
    NumPy observes again only the games seen from another seat than the mover's; JAX
    observes each game once, from its own seat (the seats put in order game by game)."""
    xp = namespace(games.pawns)
    observers = (seats.astype(xp.int32) - games.turn.astype(xp.int32)) % config.players
    if not is_numpy(xp):
        return observe(config, games, observers)
    seen = observe(config, games)
    for observer in np.unique(observers[observers != 0]).tolist():
        rows = np.flatnonzero(observers == observer)
        seen[rows] = observe(config, games_at(games, rows), observer)
    return seen


def _doubling_planes(config: Config, games: Games, observer: Array) -> Array:
    """With doubling, ``(count, 10)``: the stage of the turn, whether the observer decides,
    the stake, whether anybody accepted, and who dropped out, from the observer on."""
    from pardon.batch.config import ACCEPTED, DOUBLINGS, OUT, STAGE
    from pardon.batch.doubling import decider

    xp = namespace(games.pawns)
    doubling = games.extras
    players = config.players
    stage = doubling[STAGE][None] == column(np.arange(3), 1)  # (3, count)
    observer_seat = (games.turn + observer) % players
    decides = decider(config, games) == observer_seat
    stake = xp.minimum(doubling[DOUBLINGS], 8).astype(xp.float32) / np.float32(8)
    seats = (observer_seat[None] + column(np.arange(SEATS), 1)) % players  # (4, count), from the observer
    out = ((doubling[OUT][None] >> seats) & 1).astype(bool) & (column(np.arange(SEATS), 1) < players)
    planes = [stage, decides[None], stake[None], (doubling[ACCEPTED] > 0)[None], out]
    return xp.concatenate([plane.astype(xp.float32) for plane in planes]).T


def _token_planes(config: Config, games: Games, observer: Array) -> Array:
    """With Fire and Ice, ``(count, 33)``: where the Ice and the Fire sit (one-hots over the
    pawns, players counted from the observer), and whether the turn is before the draw."""
    from pardon.batch.config import BEFORE_DRAW, FIRE, ICE, STAGE

    xp = namespace(games.pawns)
    observer_seat = (games.turn.astype(xp.int32) + observer) % config.players
    columns = xp.asarray(np.arange(2 * SEATS * SLOTS, dtype=np.int32))[None]
    planes = xp.zeros((games.card.shape[0], 2 * SEATS * SLOTS), dtype=bool)
    for plane, row in enumerate((ICE, FIRE)):
        at = games.extras[row].astype(xp.int32)
        seat = (at // SLOTS - observer_seat) % config.players
        column_of = plane * SEATS * SLOTS + seat * SLOTS + at % SLOTS
        planes = planes | ((columns == column_of[:, None]) & (at >= 0)[:, None])
    before = (games.extras[STAGE] == BEFORE_DRAW)[:, None]
    return xp.concatenate([planes, before], axis=1).astype(xp.float32)


def _split_planes(games: Games) -> np.ndarray:
    """With the split 7 among any team pawns, ``(count, 14)``: the count a split being made
    has left (one-hot of 1–6) and the pawns it has moved (bits of the mover's slots, then its
    partner's)."""
    from pardon.batch.config import LEFT, MOVED, SPLITTING, STAGE

    within = games.extras[STAGE] == SPLITTING
    left = np.where(within, games.extras[LEFT], 0)
    counts = left[:, None] == np.arange(1, 7)[None]
    moved = ((np.where(within, games.extras[MOVED], 0)[:, None] >> np.arange(2 * SLOTS)[None]) & 1).astype(bool)
    return np.concatenate([counts, moved], axis=1).astype(np.float32)


def _hand_planes(config: Config, games: Games, observer: Array) -> tuple[Array, Array]:
    """With hands of five, ``(count, 11)`` each: the observer's hand (cards of each kind, as a
    fraction of the hand's size), and the cards it has not seen, the pack and the other hands
    together (as a fraction of that kind in a full pack: the others' hands are hidden)."""
    xp = namespace(games.pawns)
    table = tables(config)
    hands = games.hands.astype(xp.float32)
    own = _from(hands, observer)[0]
    unseen = games.pack.astype(xp.float32) + hands.sum(axis=0) - own
    deck = xp.asarray(column(table.deck, 1, dtype=np.float32))
    return (own / xp.float32(config.rules.hand)).T, (unseen / deck).T


def entries(config: Config, games: Games, observer: Array = 0) -> tuple[Array, Array]:
    """The few entries of an observation that change as a game goes on, of a batch with one
    axis of games (JAX's way to observations: :func:`write` them).  Returns the columns of
    the ones of the pawns in the game (each player's in turn from the observer, slot by
    slot) and of the card, ``(players * pawns + 1, count)`` int32, the card's past the end
    of the row (``FEATURES``: a scatter drops it) when there is none to play; and the
    pack's numbers, ``(11, count)`` float32 (columns ``PACK``).  The mover's one is the
    same in every observation from ``observer``; the other entries are 0."""
    xp = namespace(games.pawns)
    table = tables(config)
    count = games.card.shape[0]
    players, pawns = config.players, config.rules.pawns
    place = locations(config, games, observer)[:players, :pawns].reshape((players * pawns, count))
    slots = (np.arange(players)[:, None] * SLOTS + np.arange(pawns)).reshape(-1, 1)
    to_play = (games.card[None] == column(np.array(CARDS), 1)) & (observer == 0)  # (11, count)
    card = xp.sum(to_play * xp.asarray(column(np.arange(len(CARDS)), 1, np.int32)), axis=0, dtype=xp.int32)
    card = xp.where(xp.any(to_play, axis=0), CARD.start + card, FEATURES)
    ones = xp.concatenate([xp.asarray((slots * LOCATIONS).astype(np.int32)) + place.astype(xp.int32), card[None]])
    pack = games.pack.astype(xp.float32) / xp.asarray(column(table.deck, 1, dtype=np.float32))
    return ones, pack


def write(out: Array, cleared: Array, ones: Array, pack: Array) -> Array:
    """JAX: observations ``out`` (``(count, 1098)``) with zeros written at the columns
    ``cleared`` and ones at the columns ``ones`` (each ``(n, count)``, none of one in the
    other; a column past the end of the row is dropped), and the pack's numbers (``(11,
    count)``) at ``PACK``: one scatter, game by game.  Into zeros, XLA runs it at nearly the
    speed of filling the array, where a one-hot of every entry by comparison (``place ==
    arange(67)``, a reshape and a concatenation) ran three times as long on a CPU; separate
    scatters of the zeros, the ones and the pack ran slower than one."""
    xp = namespace(out)
    count = out.shape[0]
    kept = xp.asarray(column(np.arange(PACK.start, PACK.stop), 1, np.int32)) + xp.zeros((1, count), dtype=xp.int32)
    where = xp.concatenate([cleared, ones, kept]).T  # each game's entries together: its row's cache lines once
    what = xp.concatenate([xp.zeros(cleared.shape, dtype=xp.float32), xp.ones(ones.shape, dtype=xp.float32), pack]).T
    return out.at[xp.arange(count, dtype=xp.int32)[:, None], where].set(what, mode="drop")
