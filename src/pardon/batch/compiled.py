"""The distinct moves of a 7 and of an 11, game by game in compiled loops (Numba), for the
NumPy engine: the same lanes as :func:`pardon.batch.distinct._seven_repeats` and
:func:`~pardon.batch.distinct._eleven_duplicates` find, at a fraction of their cost.

Array code must work out every lane of every game holding the card, legal or not, and
compare them all; a loop works out only the legal lanes of each game and compares each with
the few legal ones before it.  Each outcome is coded exactly as the array code codes it (the
mover's pawns as the rank of their multiset, the opponents' pawns sent to Start as bits),
so the two agree lane for lane (tests/batch/test_compiled.py compares them on many
positions).  Without Numba installed (``pip install numba``, in the ``rl`` extra),
:data:`AVAILABLE` is false and the array code runs: the same lanes, more slowly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeVar, cast

import numpy as np

from pardon.batch.backend import Array
from pardon.batch.config import Tables

try:
    import numba
except ImportError:  # the array code runs instead
    numba = None  # type: ignore[assignment]

#: Whether the compiled loops run (Numba is installed).
AVAILABLE: Final = numba is not None

F = TypeVar("F", bound=Callable[..., Any])


def _compiled(function: F) -> F:
    """``function`` compiled (cached on disk beside this file where it can be written)."""
    if numba is None:
        return function
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def _inlined(function: F) -> F:
    """A small helper of the loops, compiled into each of them (a call costs more than it)."""
    if numba is None:
        return function
    return cast(F, numba.njit(inline="always")(function))


# The constants as plain ints (Numba reads module globals of these types as constants).
_SLOTS = 4
_START = 66
_FIRST_TRACK = 6
_LAST_TRACK = 65
_SQUARE_OF_HOME = 8
_TRACK = 60
_NOWHERE = 126
_OFF_TRACK = 127
_OPPONENT_BITS = 12
_SPLIT_COUNTS = 6

# The loops' helpers take and give plain numbers only: an array handed to a helper costs
# reference counting at every call, which made the first loops several times slower.


@_inlined
def _behind(square: int, origin: int) -> int:
    """How many squares ``square`` lies clockwise past ``origin`` (one wrap, as the arrays do)."""
    behind = square - origin
    return behind + _TRACK if behind < 0 else behind


@_inlined
def _swept(square: int, origin: int, length: int, low: int) -> bool:
    behind = _behind(square, origin)
    return low <= behind <= length


@_inlined
def _own_square(distance: int) -> int:
    """The mover's relative square of one of its distances (NOWHERE off the track)."""
    if distance < _FIRST_TRACK or distance > _LAST_TRACK:
        return _NOWHERE
    square = _SQUARE_OF_HOME - distance
    return square + _TRACK if square < 0 else square


@_inlined
def _wrapped_square(square: int) -> int:
    return square - _TRACK if square >= _TRACK else square


@_inlined
def _main_landing(distance: int, forward: int, out: int) -> int:
    """Where the card's own move (MOVE) lands a pawn at ``distance`` (as legal._main_landing)."""
    if distance == _START:
        return out
    landing = distance - forward
    return landing - _TRACK if landing > _LAST_TRACK else landing


@_inlined
def _pawn(squares: int, pawn: int) -> int:
    """Pawn ``pawn``'s relative square, of the eight packed a byte each in ``squares``."""
    return (squares >> (8 * pawn)) & 0xFF


@_inlined
def _hits(low: int, high: int, count: int, square: int, length: int, least: int) -> int:
    """The bits of the pawns (packed in ``low`` and ``high``, eight each; ``count`` in all)
    standing ``least`` to ``length`` squares clockwise past ``square``."""
    found = 0
    for pawn in range(count):
        where = _pawn(low, pawn) if pawn < 8 else _pawn(high, pawn - 8)
        if _swept(where, square, length, least):
            found |= 1 << pawn
    return found


@_inlined
def _rank(a: int, b: int, c: int, d: int) -> int:
    """The rank of the multiset of four distances, as distinct._rank ranks it: the sum of
    C(v_r + r, r + 1) over the sorted values, here in closed form."""
    a, b = min(a, b), max(a, b)
    c, d = min(c, d), max(c, d)
    a, c = min(a, c), max(a, c)
    b, d = min(b, d), max(b, d)
    b, c = min(b, c), max(b, c)
    return a + (b + 1) * b // 2 + (c + 2) * (c + 1) * c // 6 + (d + 3) * (d + 2) * (d + 1) * d // 24


@_inlined
def _final(slot: int, stood: int, swept: int, first: int, first_end: int, second: int, second_end: int) -> int:
    """Where own pawn ``slot`` ends: moved (``first``, ``second``: the slots moved, -1 for
    none), else in Start if swept, else where it stood."""
    if slot == first:
        return first_end
    if slot == second:
        return second_end
    return _START if swept >> slot & 1 else stood


@_inlined
def _key(
    own0: int, own1: int, own2: int, own3: int, swept: int, first: int, first_end: int, second: int, second_end: int
) -> int:
    """An outcome's key: the rank of the mover's pawns (``own0``–``own3`` where they stood;
    ``first`` and ``second`` moved, to ``first_end`` and ``second_end``), then the bits of
    the opponents' pawns sent to Start."""
    a = _final(0, own0, swept, first, first_end, second, second_end)
    b = _final(1, own1, swept, first, first_end, second, second_end)
    c = _final(2, own2, swept, first, first_end, second, second_end)
    d = _final(3, own3, swept, first, first_end, second, second_end)
    return (_rank(a, b, c, d) << _OPPONENT_BITS) | (swept >> _SLOTS)


@_compiled
def _packed(pawns: Any, sides: Any, game: int, squares: Any) -> int:
    """Every pawn's relative square (OFF_TRACK off the track; the mover's four first) packed
    a byte each into ``squares[0]`` and ``squares[1]``; their count."""
    squares[0] = 0
    squares[1] = 0
    count = 0
    for seat in range(pawns.shape[0]):
        base = int(sides[seat, game]) * 15 + _SQUARE_OF_HOME
        for slot in range(_SLOTS):
            distance = int(pawns[seat, slot, game])
            square = _OFF_TRACK
            if _FIRST_TRACK <= distance <= _LAST_TRACK:
                square = base - distance
                square = square + _TRACK if square < 0 else square
            squares[count // 8] |= square << (8 * (count % 8))
            count += 1
    return count


@_compiled
def _mark_repeats(keys: Any, theirs: Any, lanes: Any, count: int, found: Any, game: int) -> None:
    """Mark each of ``count`` lanes (in lane order) whose keys an earlier one has."""
    for later in range(1, count):
        for earlier in range(later):
            if keys[earlier] == keys[later] and theirs[earlier] == theirs[later]:
                found[lanes[later], game] = True
                break


@_compiled
def _seven_loop(
    pawns: Any, sides: Any, move: Any, masks: Any, forward: int, out: int, ride_end: Any, ride_length: Any, found: Any
) -> None:
    packed = np.zeros(2, dtype=np.int64)
    rows = _SLOTS * (_SPLIT_COUNTS + 1)  # slot s forward k: row 7 s + k - 1 (k = 7: MOVE)
    ends = np.empty(rows, dtype=np.int64)
    squares = np.empty(rows, dtype=np.int64)
    lengths = np.empty(rows, dtype=np.int64)
    hits = np.empty(rows, dtype=np.int64)
    keys = np.empty(76, dtype=np.int64)
    theirs = np.zeros(76, dtype=np.int64)
    lanes = np.empty(76, dtype=np.int64)
    for game in range(pawns.shape[2]):
        count = _packed(pawns, sides, game, packed)
        low, high = packed[0], packed[1]
        own0, own1, own2, own3 = pawns[0, 0, game], pawns[0, 1, game], pawns[0, 2, game], pawns[0, 3, game]
        for row in range(rows):  # every landing of every own pawn that a legal lane may read
            stood = int(pawns[0, row // 7, game])
            k = row % 7 + 1
            if (not move[row // 7, game]) if k == 7 else (stood == _START or stood < k):  # Home is 0 < k
                continue
            distance = _main_landing(stood, forward, out) if k == 7 else stood - k
            index = min(max(distance, 0), _START)
            length = int(ride_length[index])
            square = _own_square(distance)
            ends[row], squares[row], lengths[row] = ride_end[index], square, length
            hits[row] = _hits(low, high, count, square, length, 0) if square != _NOWHERE else 0
        legal = 0
        for slot in range(_SLOTS):  # MOVE: the pawn's whole 7
            if move[slot, game]:
                row = 7 * slot + 6
                keys[legal] = _key(own0, own1, own2, own3, hits[row], slot, ends[row], -1, 0)
                lanes[legal] = slot
                legal += 1
        for pair in range(12):
            mask = int(masks[pair, game])
            i, j = pair // 3, pair % 3  # the pairs in action order: j counts the slots besides i
            j += j >= i
            for k in range(1, _SPLIT_COUNTS + 1):
                if not mask >> (k - 1) & 1:
                    continue
                first, second = 7 * i + k - 1, 7 * j + 6 - k
                swept = hits[first] | hits[second]
                square, length = squares[second], lengths[second]
                gone = square != _NOWHERE and _swept(_own_square(ends[first]), square, length, 0)
                first_end = _START if gone else ends[first]
                keys[legal] = _key(own0, own1, own2, own3, swept, i, first_end, j, ends[second])
                lanes[legal] = _SLOTS + 6 * pair + k - 1
                legal += 1
        _mark_repeats(keys, theirs, lanes, legal, found, game)


@_compiled
def _steps_loop(
    pawns: Any,
    sides: Any,
    card: Any,
    simple: Any,
    forward: Any,
    out: Any,
    ride_end: Any,
    ride_length: Any,
    found: Any,
) -> None:
    """A 4's or a 10's MOVE and BACK1 lanes (``simple``: their bits, BACK1 from bit 4) that
    end as a lower one does, where two or more of them land on a slide (as
    :func:`pardon.batch.distinct._steps_compared` and ``_step_duplicates``)."""
    packed = np.zeros(2, dtype=np.int64)
    distances = np.empty(8, dtype=np.int64)
    keys = np.empty(8, dtype=np.int64)
    theirs = np.zeros(8, dtype=np.int64)
    lanes = np.empty(8, dtype=np.int64)
    for game in range(pawns.shape[2]):
        bits = int(simple[game])
        held = int(card[game])
        sliding = 0
        for lane in range(8):
            distance = int(pawns[0, lane % _SLOTS, game])
            if lane < _SLOTS:
                distance = _main_landing(distance, int(forward[held]), int(out[held]))
            else:
                distance += 1
                if distance > _LAST_TRACK:
                    distance -= _TRACK
            distances[lane] = distance
            on_track = _FIRST_TRACK <= distance <= _LAST_TRACK
            if bits >> lane & 1 and on_track and ride_length[min(max(distance, 0), _START)] > 0:
                sliding += 1
        if sliding < 2:
            continue
        count = _packed(pawns, sides, game, packed)
        low, high = packed[0], packed[1]
        own0, own1, own2, own3 = pawns[0, 0, game], pawns[0, 1, game], pawns[0, 2, game], pawns[0, 3, game]
        legal = 0
        for lane in range(8):
            if not bits >> lane & 1:
                continue
            distance = distances[lane]
            index = min(max(distance, 0), _START)
            length = int(ride_length[index])
            square = _own_square(distance)
            swept = _hits(low, high, count, square, length, 0) if square != _NOWHERE else 0
            keys[legal] = _key(own0, own1, own2, own3, swept, lane % _SLOTS, ride_end[index], -1, 0)
            lanes[legal] = lane
            legal += 1
        _mark_repeats(keys, theirs, lanes, legal, found, game)


@_compiled
def _eleven_loop(
    pawns: Any,
    sides: Any,
    forfeit: Any,
    move: Any,
    switch: Any,
    forward: int,
    out: int,
    ride_end: Any,
    ride_length: Any,
    opponent_ride: Any,
    switched_slides: bool,
    found: Any,
) -> None:
    targets = (pawns.shape[0] - 1) * _SLOTS
    packed = np.zeros(2, dtype=np.int64)
    everyone = np.empty(16, dtype=np.int64)
    keys = np.empty(53, dtype=np.int64)
    theirs = np.empty(53, dtype=np.int64)
    lanes = np.empty(53, dtype=np.int64)
    p_end = np.empty(12, dtype=np.int64)
    p_length = np.empty(12, dtype=np.int64)
    for game in range(pawns.shape[2]):
        count = _packed(pawns, sides, game, packed)
        low, high = packed[0], packed[1]
        for pawn in range(count):
            everyone[pawn] = _pawn(low, pawn) if pawn < 8 else _pawn(high, pawn - 8)
        for target in range(targets):  # the mover's slide where each opponent pawn stands
            p = everyone[_SLOTS + target]
            index = min(max(_behind(2, p) + _FIRST_TRACK, 0), _START)
            p_end[target] = ride_end[index]
            p_length[target] = ride_length[index] if p != _OFF_TRACK else 0
        sliding = False
        for slot in range(_SLOTS):
            for target in range(targets):
                if switch[slot * 12 + target, game]:
                    side = int(sides[1 + target // _SLOTS, game])
                    a_length = int(opponent_ride[side, everyone[slot]]) if switched_slides else 0
                    sliding = sliding or p_length[target] > 0 or a_length > 0
        if not sliding:
            continue
        own0, own1, own2, own3 = pawns[0, 0, game], pawns[0, 1, game], pawns[0, 2, game], pawns[0, 3, game]
        legal = 0
        if forfeit[game]:  # the pass: the position as it is
            keys[legal] = _key(own0, own1, own2, own3, 0, -1, 0, -1, 0) >> _OPPONENT_BITS
            theirs[legal] = 0
            lanes[legal] = 0
            legal += 1
        for slot in range(_SLOTS):
            if move[slot, game]:
                distance = _main_landing(int(pawns[0, slot, game]), forward, out)
                index = min(max(distance, 0), _START)
                length = int(ride_length[index])
                square = _own_square(distance)
                swept = _hits(low, high, count, square, length, 0) if square != _NOWHERE else 0
                key = _key(own0, own1, own2, own3, swept, slot, ride_end[index], -1, 0)
                keys[legal] = key >> _OPPONENT_BITS
                theirs[legal] = key & ((1 << _OPPONENT_BITS) - 1)
                lanes[legal] = 1 + slot
                legal += 1
        for slot in range(_SLOTS):
            a = everyone[slot]
            for target in range(targets):
                if not switch[slot * 12 + target, game]:
                    continue
                seat = target // _SLOTS
                a_length = int(opponent_ride[int(sides[1 + seat, game]), a]) if switched_slides else 0
                reach = p_length[target]
                if not (reach > 0 or a_length > 0):
                    continue  # a switch without a slide ends as no other lane
                p = everyone[_SLOTS + target]
                target_swept = _swept(a, p, reach, 1)
                length = 0 if target_swept else a_length
                target_bit = 1 << (_SLOTS + target)
                swept = _hits(low, high, count, p, reach, 1) & ~(1 << slot)
                if length > 0:
                    swept |= _hits(low, high, count, a, a_length, 1) & ~target_bit
                mover_gone = length > 0 and _swept(_wrapped_square(p + reach), a, length, 1)
                mover_end = _START if mover_gone else p_end[target]
                rank = _key(own0, own1, own2, own3, swept, slot, mover_end, -1, 0) >> _OPPONENT_BITS
                ends = _wrapped_square(a + length)
                same_place = 0
                if not target_swept:
                    for mate in range(_SLOTS):
                        index = seat * _SLOTS + mate
                        if ends == everyone[_SLOTS + index]:
                            same_place |= 1 << index
                opponents = ((swept | target_bit) >> _SLOTS) & ~same_place
                if not target_swept and same_place == 0:
                    opponents |= ((seat + 1) * 64 + ends) << _OPPONENT_BITS
                keys[legal] = rank
                theirs[legal] = opponents
                lanes[legal] = 5 + slot * 12 + target
                legal += 1
        _mark_repeats(keys, theirs, lanes, legal, found, game)


def seven_repeats(table: Tables, pawns: Array, sides: Array, move: Array, masks: Array) -> Array:
    """:func:`pardon.batch.distinct._seven_repeats`'s lanes (``(76, n)``: MOVE, then SPLIT),
    for games holding a 7 with a split (``masks``: their splits as
    :func:`~pardon.batch.legal._split_masks`)."""
    found = np.zeros((76, pawns.shape[2]), dtype=bool)
    forward, out = int(table.forward[7]), int(table.out[7])
    _seven_loop(pawns, sides, move, masks, forward, out, table.ride_end, table.ride_length, found)
    return found


def step_repeats(table: Tables, pawns: Array, sides: Array, card: Array, simple: Array) -> Array:
    """The MOVE and BACK1 lanes of games holding a 4 or a 10 (``simple``: their bits, uint8,
    BACK1 from bit 4) that end as a lower one does, as the same bits: the lanes
    :func:`pardon.batch.distinct._step_duplicates` finds where ``_steps_compared``."""
    found = np.zeros((8, pawns.shape[2]), dtype=bool)
    _steps_loop(pawns, sides, card, simple, table.forward, table.out, table.ride_end, table.ride_length, found)
    return (found.view(np.uint8) << np.arange(8, dtype=np.uint8)[:, None]).sum(axis=0, dtype=np.uint8)


def eleven_duplicates(table: Tables, pawns: Array, sides: Array, forfeit: Array, move: Array, switch: Array) -> Array:
    """:func:`pardon.batch.distinct._eleven_duplicates`'s lanes (``(53, n)``: the pass,
    MOVE, SWITCH) for games holding an 11."""
    found = np.zeros((53, pawns.shape[2]), dtype=bool)
    forward, out = int(table.forward[11]), int(table.out[11])
    slides = bool(table.switched_opponent_slides)
    rides = (table.ride_end, table.ride_length, table.opponent_ride)
    _eleven_loop(pawns, sides, np.asarray(forfeit).reshape(-1), move, switch, forward, out, *rides, slides, found)
    return found
