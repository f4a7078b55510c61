"""Playing an action: :func:`play` plays each game's chosen action and passes the turn,
:func:`step` then draws the next card, and :func:`reset_finished` puts new games in place of
those that are over."""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Final

import numpy as np

from pardon.batch.actions import (
    ACTIONS,
    DECODED,
    KIND_BACK1,
    KIND_MOVE,
    KIND_SORRY,
    KIND_SPLIT,
    KIND_SWITCH,
    OPPONENTS,
    SLOTS,
    describe_action,
)
from pardon.batch.backend import Array, all0, any0, as_int8, as_uint8, column, is_numpy, namespace, select
from pardon.batch.config import (
    I8,
    OFF_TRACK,
    TRACK_SQUARES,
    Config,
    Games,
    Played,
    Tables,
    _check_games,
    _lookup_pair,
    _paired,
    tables,
)
from pardon.batch.deal import _seed_array, draw, new_games
from pardon.batch.fast_path import _is_fast, _on_some, _rows_of, _scatter
from pardon.batch.legal import _main_landing, legal_lanes
from pardon.batch.squares import _behind, _distance_from, _on_track, _relative_squares, _sides, _square, _wrapped
from pardon.core.board import FIRST_TRACK, HOME, LAST_TRACK, START
from pardon.core.errors import IllegalError, InvalidError


def _pick(values: Array, chosen: Array) -> Array:
    """The entry of ``values`` (along its short first axis) where ``chosen`` (one-hot) is set."""
    xp = namespace(values, chosen)
    if not is_numpy(xp):
        return xp.sum(xp.where(chosen, values, 0), axis=0, dtype=values.dtype)
    total = values[0] * chosen[0]
    for index in range(1, values.shape[0]):
        total = total + values[index] * chosen[index]
    return total.astype(values.dtype)


def _at(values: Array, index: Array) -> Array:
    """Each game's entry of ``values`` (along its first axis) at its own ``index``: on
    NumPy one gather, rather than :func:`_pick`'s sum over every entry (for the few games of
    a rare kernel, with many entries)."""
    xp = namespace(values, index)
    if not (is_numpy(xp) and index.ndim == 1):
        return xp.take_along_axis(values, xp.asarray(index).astype(xp.int32)[None], axis=0)[0]
    games = index.shape[0]
    flat = np.ascontiguousarray(values).reshape(-1)
    return flat.take(index.astype(np.intp) * games + np.arange(games))


def _to_start(hit: Array, pawns: Array) -> Array:
    """``pawns`` with those where ``hit`` sent back to Start (the largest distance)."""
    xp = namespace(pawns)
    if is_numpy(xp):
        return np.maximum(pawns, as_int8(hit) * I8(START))
    return xp.where(hit, I8(START), pawns)


#: The low end of a range of distances that holds no pawn (its width is 0).
NO_RANGE: Final = 100


def _hit_ranges(sides: Array, landing: Array, length: Array, acting: Array) -> tuple[Array, ...]:
    """For each seat, ``(players, *batch)``: the squares a pawn hits by landing on ``landing``
    (a mover's distance) and riding ``length`` squares of slide, as that seat's distances:
    two ranges ``[low, low + width]`` of track distances (the second where they cross the
    seat's entrance, round the end of its lap; else empty), so that a pawn is hit by two
    subtractions and comparisons whatever its seat (:func:`_in_ranges`).  By arithmetic:
    NumPy gathers from a table an order of magnitude slower."""
    xp = namespace(sides)
    near = _distance_from(_square(landing)[None], sides)  # the landing square
    far = near - length  # the last square swept, maybe past the end of the seat's lap
    valid = acting & _on_track(landing)
    wraps = valid & (far < FIRST_TRACK)
    low = select(valid, xp.maximum(far, I8(FIRST_TRACK)), I8(NO_RANGE))
    width = select(valid, near - low, I8(0))
    round_low = select(wraps, far + I8(TRACK_SQUARES), I8(NO_RANGE))
    round_width = select(wraps, I8(LAST_TRACK) - round_low, I8(0))
    return tuple(as_uint8(bound) for bound in (low, width, round_low, round_width))


def _in_ranges(pawns: Array, ranges: tuple[Array, ...]) -> Array:
    """Which of a seat's pawns stand in its ranges (uint8 wraps round: below ``low`` is
    far above it)."""
    low, width, round_low, round_width = (bound[None] for bound in ranges)
    distance = as_uint8(pawns)
    return ((distance - low) <= width) | ((distance - round_low) <= round_width)


def _land(
    table: Tables, pawns: Array, sides: Array, moving: Array, landing: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """The mover's pawn (``moving``: one-hot over its slots) lands on ``landing`` (a
    distance): whoever stands there goes back to Start, then the pawn rides a slide it
    lands on, sweeping every other pawn on the slide back to Start (docs/rules.md: "Slides").

    Returns the pawns, how many pawns were sent to Start, and whether the pawn slid.
    Seat by seat: NumPy's temporaries stay a quarter of the size (and in the cache).
    """
    xp = namespace(pawns)
    index = xp.clip(landing, I8(0), I8(START)).astype(xp.int32)
    end, length = _lookup_pair(table.rides, index)
    ranges = _hit_ranges(sides, landing, length, acting)
    moved = moving & acting
    rows = []
    bumps = xp.zeros(acting.shape, dtype=xp.int8)
    for seat in range(pawns.shape[0]):
        hit = _in_ranges(pawns[seat], tuple(bound[seat] for bound in ranges))  # landed on, or swept
        if seat == 0:
            hit = hit & ~moved  # a pawn moved backward onto a slide sweeps its own square
        bumps = bumps + xp.sum(hit, axis=0, dtype=xp.int8)
        row = _to_start(hit, pawns[seat])
        rows.append(select(moved, end, row) if seat == 0 else row)
    return xp.stack(rows), bumps, as_int8((length > 0) & acting)


def _second_part(
    table: Tables, pawns: Array, sides: Array, second: Array, count: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """A split 7's second part: slot ``second`` forward 7 - ``count``, after the first."""
    moving = column(np.arange(SLOTS), acting.ndim) == second
    origin = _pick(pawns[0], moving)
    return _land(table, pawns, sides, moving, origin - (I8(7) - count), acting)


def _switch(
    table: Tables, pawns: Array, sides: Array, slot: Array, opponent: Array, target_slot: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """An 11 switch: the two pawns exchange squares; the mover's pawn rides a slide it now
    stands on, then the opponent's rides one it stands on, if the rules say so and it was
    not swept (docs/rules.md: "The 11 switch").  Returns the pawns, how many were sent to Start, slides."""
    xp = namespace(pawns)
    batch = acting.ndim
    flat = (-1, *acting.shape)
    seats = column(np.arange(pawns.shape[0]), batch + 1)
    slots = column(np.arange(SLOTS), batch)
    mover = (seats == 0) & (slots == slot)[None]
    target = (seats == opponent) & (slots == target_slot)[None]
    squares = _relative_squares(pawns, sides)
    mine = _at(squares.reshape(flat), slot)  # the mover's square
    theirs = _at(squares.reshape(flat), opponent * I8(SLOTS) + target_slot)  # the target's square
    target_side = _at(sides, opponent)
    arrived = _distance_from(theirs, xp.zeros_like(theirs))
    index = arrived.astype(xp.int32)
    end, length = _lookup_pair(table.rides, index)
    length = length * as_int8(acting)
    pawns = select(mover & acting, end, pawns)
    pawns = select(target & acting, _distance_from(mine, target_side), pawns)
    squares = select(mover & acting, theirs, squares)
    squares = select(target & acting, mine, squares)
    behind = _behind(squares, theirs)
    swept = (behind >= 1) & (behind <= length) & ~mover
    pawns = _to_start(swept, pawns)
    squares = select(swept, OFF_TRACK, squares)
    mover_square = theirs + length
    mover_square = mover_square - as_int8(mover_square >= TRACK_SQUARES) * I8(TRACK_SQUARES)
    squares = select(mover & acting, mover_square, squares)
    still_there = ~any0(swept.reshape(flat) & target.reshape(flat))
    ride_index = target_side.astype(xp.int32) * 128 + mine.astype(xp.int32)
    their_length = xp.take(xp.asarray(table.opponent_ride).reshape(-1), ride_index)
    their_length = their_length * as_int8(acting & still_there) * I8(table.switched_opponent_slides)
    behind = _behind(squares, mine)
    swept_too = (behind >= 1) & (behind <= their_length) & ~target
    pawns = _to_start(swept_too, pawns)
    their_end = mine + their_length
    their_end = their_end - as_int8(their_end >= TRACK_SQUARES) * I8(TRACK_SQUARES)
    pawns = select(target & (their_length > 0), _distance_from(their_end, target_side), pawns)
    bumps = xp.sum((swept | swept_too).reshape(flat), axis=0, dtype=xp.int8)
    return pawns, bumps, as_int8(length > 0) + as_int8(their_length > 0)


def play(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action played, as its edition says (:func:`pardon.batch.editions.edition`:
    the card in hand's :func:`play_card`, a hand's, the partners', doubling's, Fire and Ice's)."""
    from pardon.batch.editions import edition

    return edition(config).play(config, games, actions, advance)


def play_card(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action played with its card (trusted: one of :func:`legal_lanes`), the
    game ended if the mover has every pawn Home, and the turn passed on (the same player
    again after a 2 with ``draw_again_on_2``).  The next card is not drawn yet.

    With ``advance=False`` only the pawns move: the mover stays seat 0 with its card (the
    position a player judges its move by, an *afterstate*)."""
    xp = namespace(games.pawns)
    table = tables(config)
    _check_games(config, games)
    pawns, card = games.pawns, games.card
    slots = column(np.arange(SLOTS), card.ndim)
    fast = _is_fast(xp, card)
    index = _action_index(xp, card, actions)
    kind, slot = _lookup_pair(_KIND_SLOT, index)
    playing = games.winner < 0
    split_rows, switch_rows, sorry_rows = (
        _rows_of(kind, (KIND_SPLIT, KIND_SWITCH, KIND_SORRY), playing) if fast else (None, None, None)
    )
    if is_numpy(xp):
        _check_opponents(config, index, kind, (switch_rows, sorry_rows) if fast else None)
    sides = _sides(config, games.turn)
    origin = _pick(pawns[0], slots == slot)
    landing = _main_landing(table, origin[None], card)[0][0]
    landing = select(kind == KIND_BACK1, _wrapped(origin + I8(1)), landing)
    is_split = (kind == KIND_SPLIT) & playing
    (landing,) = _on_some(fast, is_split, _split_landing, (index, origin), (landing,), split_rows)
    is_sorry = (kind == KIND_SORRY) & playing
    slot, landing = _on_some(fast, is_sorry, _sorry_landing, (pawns, sides, index), (slot, landing), sorry_rows)
    acting = ((kind == KIND_MOVE) | (kind == KIND_BACK1) | is_split | is_sorry) & playing
    pawns, bumps, slides = _land(table, pawns, sides, slots == slot, landing, acting)
    moved = (pawns, bumps, slides)
    second_part = functools.partial(_split_second_part, table)
    moved = _on_some(fast, is_split, second_part, (*moved, sides, index, is_split), moved, split_rows)
    is_switch = (kind == KIND_SWITCH) & playing
    switch = functools.partial(_switch_action, table)
    pawns, bumps, slides = _on_some(fast, is_switch, switch, (*moved, sides, index, is_switch), moved, switch_rows)
    played = Played(card, bumps, slides, (kind == 0) & playing)
    if not advance:
        return games._replace(pawns=pawns), played
    again = (card == 2) if table.draw_again_on_2 else xp.zeros_like(playing)
    return _advance(config, games._replace(pawns=pawns), playing, again), played


def _action_index(xp: ModuleType, card: Array, actions: Array, numbered: int = ACTIONS) -> Array:
    """``actions`` as int32, one per game (``card``: the games' cards); on NumPy each one
    checked to be in the encoding, of ``numbered`` actions (``config.actions``: 1,551 with
    hands of five; under JAX's ``jit`` the values cannot be looked at)."""
    given = xp.asarray(actions)
    if tuple(given.shape) != tuple(card.shape):  # one action would be broadcast to every game
        wanted, found = _shape_words(tuple(card.shape)), _shape_words(tuple(given.shape))
        raise InvalidError(f"give one action per game, an array of {wanted}, not {found}")
    index = given.astype(xp.int32)
    if is_numpy(xp) and (given.dtype.kind not in "iu" or (index.view(np.uint32) >= numbered).any()):
        # a gather would wrap -1 round to action 140, and fail inside on 141
        raise InvalidError(f"actions are whole numbers from 0 to {numbered - 1} under these rules, one per game")
    return index


def _check_opponents(config: Config, index: Array, kind: Array, rows: tuple[Array, Array] | None) -> None:
    """NumPy: IllegalError for a switch or a Sorry! on an opponent the games do not have
    (the player 3 seats on, with 2 players; any, in the solo challenge), whose pawns would be read past the game's own
    (an IndexError from inside).  ``rows``: the games playing a switch and a Sorry!, or
    None to look at every game; only those few are looked at, so a step stays as fast."""
    if config.players > OPPONENTS:  # 4 players: every opponent the encoding names is there
        return
    flat = np.ravel(index)
    if rows is None:
        flat_kind = np.ravel(kind)
        rows = (np.flatnonzero(flat_kind == KIND_SWITCH), np.flatnonzero(flat_kind == KIND_SORRY))
    for some in rows:
        beyond = np.take(DECODED[_OPPONENT], np.take(flat, some)) >= config.players
        if beyond.any():
            at = int(some[np.flatnonzero(beyond)[0]])
            action = int(flat[at])
            others = {1: "1 player: the solo challenge has no other", 2: "2 players: the other sits 1 seat on"}.get(
                config.players, f"{config.players} players: the others sit 1 or 2 seats on"
            )
            raise IllegalError(
                f"action {action} of {_game_words(index.shape, at)} ({describe_action(action)}) is never legal "
                f"with {others}"
            )


def _game_words(shape: tuple[int, ...], flat: int) -> str:
    """A game of a batch as a message names it: "game 3", "game (1, 2)", or "the game"."""
    if not shape:
        return "the game"
    place = np.unravel_index(flat, shape)
    return f"game {int(place[0])}" if len(shape) == 1 else f"game {tuple(int(axis) for axis in place)}"


#: The fields of :data:`DECODED` (as :class:`pardon.batch.actions.Decoded` orders them).
_KIND, _SLOT, _SECOND, _PART, _OPPONENT, _TARGET = range(6)


#: Each action's kind and slot (its first slot; 0 for none), for one gather.
_KIND_SLOT: Final = _paired(DECODED[_KIND], np.maximum(DECODED[_SLOT], 0))


def _decoded(index: Array, field: int) -> Array:
    """One field of each action (``index``: int32 actions)."""
    xp = namespace(index)
    return xp.take(xp.asarray(DECODED[field]), index)


def _split_landing(index: Array, origin: Array) -> tuple[Array]:
    """A split 7's first part: where its pawn (at ``origin``) lands."""
    return (origin - _decoded(index, _PART),)


def _split_second_part(
    table: Tables, pawns: Array, bumps: Array, slides: Array, sides: Array, index: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """A split 7's second part, after its first (the pawns, bumps and slides so far)."""
    second, part = _decoded(index, _SECOND), _decoded(index, _PART)
    return _added(_second_part(table, pawns, sides, second, part, acting), bumps, slides)


def _switch_action(
    table: Tables, pawns: Array, bumps: Array, slides: Array, sides: Array, index: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """An 11's switch (:func:`_switch`), with the bumps and slides so far."""
    slot, opponent, target = (_decoded(index, field) for field in (_SLOT, _OPPONENT, _TARGET))
    return _added(_switch(table, pawns, sides, slot, opponent, target, acting), bumps, slides)


def _sorry_landing(pawns: Array, sides: Array, index: Array) -> tuple[Array, Array]:
    """A Sorry!: the slot of the pawn it brings out of Start (the first there), and the
    distance (the mover's) of the opponent's pawn it lands on."""
    xp = namespace(pawns)
    batch = index.shape
    in_start = pawns[0] == START
    start_slot = xp.zeros(batch, dtype=xp.int8) + I8(SLOTS - 1)
    for candidate in range(SLOTS - 2, -1, -1):
        start_slot = select(in_start[candidate], I8(candidate), start_slot)
    opponent = _decoded(index, _OPPONENT)
    target = _at(pawns.reshape((-1, *batch)), opponent * I8(SLOTS) + _decoded(index, _TARGET))
    side = _at(sides, opponent)
    square = _relative_squares(target[None, None], side[None])[0, 0]
    return start_slot, _distance_from(square, xp.zeros_like(square))


def _added(result: tuple[Array, Array, Array], bumps: Array, slides: Array) -> tuple[Array, Array, Array]:
    """A kernel's pawns, with its bumps and slides added to those counted before it."""
    pawns, more_bumps, more_slides = result
    return pawns, bumps + more_bumps, slides + more_slides


def _advance(config: Config, games: Games, playing: Array, again: Array) -> Games:
    """End the game of a mover with every pawn Home (with partners, every pawn of the team);
    else pass the turn, unless ``again`` (a 2 played) lets the player play again."""
    won = all0(games.pawns[0] == HOME) & playing
    if config.rules.partners:
        won = won & all0(games.pawns[2] == HOME)
    passing = playing & ~won & ~again
    winner = select(won, games.turn, games.winner)
    card = select(playing, games.card, I8(0))
    return _passed_on(config, games, passing)._replace(winner=winner, card=card)


def _passed_on(config: Config, games: Games, passing: Array) -> Games:
    """The turn passed on to the next seat where ``passing``: the pawns (and hands) turned
    round so that its player's are first."""
    xp = namespace(games.pawns)
    seats = games.pawns.shape[0]  # seat by seat: NumPy's temporaries stay small
    pawns = xp.stack([select(passing, games.pawns[(seat + 1) % seats], games.pawns[seat]) for seat in range(seats)])
    hands = games.hands
    if hands.shape[0]:  # hands of five: each hand goes round with its seat
        hands = xp.stack([select(passing, hands[(seat + 1) % seats], hands[seat]) for seat in range(seats)])
    following = games.turn + I8(1)
    following = following - as_int8(following == config.players) * I8(config.players)
    turn = select(passing, following, games.turn)
    return games._replace(pawns=pawns, turn=turn, hands=hands)


def _shape_words(shape: tuple[int, ...]) -> str:
    """An array's shape as a message says it: "a single number", "shape 3", "shape 3×2"."""
    return "a single number" if not shape else f"shape {'×'.join(map(str, shape))}"


def step(config: Config, games: Games, actions: Array, check: bool = False) -> tuple[Games, Played]:
    """:func:`play` each game's action, then :func:`draw` the next card of each game still
    going on.

    The actions are trusted to be legal: an illegal one may be played anyway, making a
    position the rules never reach.  ``check=True`` first compares them with the legal
    actions (one :func:`legal_lanes`, not under ``jit``): IllegalError for one that is not."""
    if check:
        _check_legal(config, games, actions)
    played, what = play(config, games, actions)
    return draw(config, played), what


def _check_legal(config: Config, games: Games, actions: Array) -> None:
    """IllegalError naming the first game whose action is not one of its legal actions (a
    finished game takes any action, and ignores it)."""
    card = np.asarray(games.card)  # JAX's arrays too, outside jit
    index = _action_index(np, card, np.asarray(actions), config.actions).astype(np.intp)
    lanes = np.asarray(legal_lanes(config, games))
    legal = np.take_along_axis(lanes, index[None], axis=0)[0] | (np.asarray(games.winner) >= 0)
    if not legal.all():
        at = int(np.flatnonzero(~legal)[0])
        allowed = np.flatnonzero(lanes.reshape((config.actions, -1))[:, at]).tolist()
        raise IllegalError(
            f"action {int(index.reshape(-1)[at])} is not legal in {_game_words(card.shape, at)}: "
            f"its legal actions are {allowed}"
        )


def reset_finished(config: Config, games: Games, seeds: Array) -> Games:
    """Games that are over replaced by new games of ``seeds``, one seed per game (the
    others kept)."""
    _check_games(config, games)
    seeds = _seed_array(seeds)
    if tuple(seeds.shape) != tuple(games.card.shape):  # NumPy's broadcasting error, or a seed for all
        wanted, found = _shape_words(tuple(games.card.shape)), _shape_words(tuple(seeds.shape))
        raise InvalidError(f"give one seed per game, an array of {wanted}, not {found}")
    over = games.winner >= 0
    if _is_fast(namespace(games.pawns), games.card):  # NumPy: only the games that are over, dealt and written
        rows = np.flatnonzero(over)
        fresh = new_games(config, np.take(seeds, rows))
        fields = []
        for new, old in zip(fresh, games, strict=True):
            old = np.array(old, copy=True)
            if rows.size:
                _scatter(old, rows, new)
            fields.append(old)
        return Games(*fields)
    fresh = new_games(config, seeds)
    return Games(*(select(over, new, old) for new, old in zip(fresh, games, strict=True)))
