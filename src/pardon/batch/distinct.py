"""Distinct outcomes: :func:`distinct_lanes` keeps, of the legal lanes that make the same
position, only the lowest: one lane for each of the core's legal moves."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Final

import numpy as np

from pardon.batch import compiled
from pardon.batch.actions import ACTIONS, DECODED, OPPONENTS, SLOTS, SPLIT, SPLIT_COUNTS, SWITCH
from pardon.batch.actions import (
    BACK1 as BACK1_LANE,
)
from pardon.batch.actions import (
    MOVE as MOVE_LANE,
)
from pardon.batch.actions import (
    SORRY as SORRY_LANE,
)
from pardon.batch.backend import Array, any0, as_int8, column, is_numpy, namespace, select
from pardon.batch.config import (
    DISTANCES,
    I8,
    NOWHERE,
    OFF_TRACK,
    TRACK_SQUARES,
    U32,
    Config,
    Games,
    Tables,
    _lookup_pair,
    games_at,
    tables,
)
from pardon.batch.fast_path import _is_fast, _rows_of
from pardon.batch.legal import (
    _FIRSTS,
    _K_SHIFTS,
    _PAIRS,
    _SECONDS,
    _SWAPPED,
    _main_landing,
    _padded,
    _split_lanes_of,
    _split_masks_of,
    card_lanes,
)
from pardon.batch.squares import _behind, _distance_from, _on_track, _relative_squares, _sides, _square, _wrapped
from pardon.core.board import START

# --- distinct outcomes ---------------------------------------------------------------------
#
# Several lanes may make one position.  Pawns in Start are alike, so leaving Start is one
# move whichever of them leaves.  A split 7 often ends as its parts in the other order do,
# or as its two pawns' counts exchanged do, and one whose second pawn lands where the first
# stood is the first pawn's whole 7.  Two pawns taken back 4 onto long slides that carry
# each back where it stood both leave the position as it was; an 11 switch with a pawn on
# a triangle whose slide holds two of the mover's pawns sends both to Start whichever
# switches.  The core lists each outcome once (pardon.core.moves); :func:`distinct_lanes`
# keeps the lowest lane of each, so that a uniform choice among them is the core's.
#
# The lanes of pawns in Start all make one move: only the first is kept.  Where the core
# compares moves (a 4's or a 10's steps when two or more land on slides; a 7's whole moves
# and splits when it has splits; an 11's pass, moves and sliding switches when a switch
# slides), each lane's outcome is coded as play() would make it, without playing it: the
# mover's pawns as a multiset (the rank of their sorted distances) and the opponents' pawns
# sent to Start (bits; for a switch, also where the switched pawn ends): equal codes, equal
# positions, and the reverse; a lane whose code a lower legal lane has is left out.  No
# other moves can end alike (the core compares none of them: its list and this one agree,
# which pardon.batch.verify checks), so their lanes are all kept.

#: ``_RANKS[r * 67 + v]`` = C(v + r, r + 1): the rank of four distances sorted (``v0 <= v1 <=
#: v2 <= v3``) is the sum of ``_RANKS[r * 67 + v_r]``, the combinatorial number system's rank
#: of the set ``{v_r + r}``: distinct multisets, distinct ranks, all below C(70, 4) < 2**20.
_RANKS: Final = np.array(
    [math.comb(distance + place, place + 1) for place in range(SLOTS) for distance in range(DISTANCES)],
    dtype=np.uint32,
)
#: A step's or a split's outcome key: its rank above the bits of the opponents' pawns.
_OPPONENT_BITS: Final = OPPONENTS * SLOTS

#: Each split lane, in action order: its first slot, its second, and the landings of its two
#: parts among the 24 of :func:`_split_keys` (slot s forward k is landing ``6 s + k - 1``).
_SPLIT_FIRST: Final = DECODED[1, SPLIT:SWITCH].copy()
_SPLIT_SECOND: Final = DECODED[2, SPLIT:SWITCH].copy()
_FIRST_LANDING: Final = _SPLIT_FIRST.astype(np.intp) * SPLIT_COUNTS + DECODED[3, SPLIT:SWITCH] - 1
_SECOND_LANDING: Final = _SPLIT_SECOND.astype(np.intp) * SPLIT_COUNTS + (SPLIT_COUNTS - DECODED[3, SPLIT:SWITCH])
_PART_COUNTS: Final = np.arange(1, SPLIT_COUNTS + 1, dtype=np.int8)


def _start_duplicates(own: Array) -> Array:
    """``(4, *batch)``: the MOVE lanes of the pawns in Start after the first one there."""
    xp = namespace(own)
    in_start = own == START
    earlier = in_start[0]
    found = [xp.zeros_like(earlier)]
    for slot in range(1, SLOTS):
        found.append(in_start[slot] & earlier)
        earlier = earlier | in_start[slot]
    return xp.stack(found)


def _rank(finals: list[Array]) -> Array:
    """The rank (uint32, below 2**20) of each multiset of four distances ``finals``."""
    xp = namespace(*finals)
    a, b, c, d = finals
    a, b = xp.minimum(a, b), xp.maximum(a, b)  # a sorting network of four
    c, d = xp.minimum(c, d), xp.maximum(c, d)
    a, c = xp.minimum(a, c), xp.maximum(a, c)
    b, d = xp.minimum(b, d), xp.maximum(b, d)
    b, c = xp.minimum(b, c), xp.maximum(b, c)
    ranks = xp.asarray(_RANKS)
    total = xp.take(ranks, a.astype(xp.int32))
    for place, value in ((1, b), (2, c), (3, d)):
        total = total + xp.take(ranks, value.astype(xp.int32) + place * DISTANCES)
    return total


def _bits(flags: Array) -> Array:
    """``(n, *rest)`` booleans (n <= 32) as the bits of one uint32."""
    xp = namespace(flags)
    total = xp.zeros(flags.shape[1:], dtype=xp.uint32)
    for bit in range(flags.shape[0]):
        total = total | (flags[bit].astype(xp.uint32) << U32(bit))
    return total


def _has_bit(bits: Array, bit: int) -> Array:
    xp = namespace(bits)
    return ((bits >> U32(bit)) & U32(1)).astype(xp.bool_)


def _swept(squares: Array, start: Array, length: Array, low: int) -> Array:
    """Whether each of ``squares`` lies ``low`` to ``length`` squares clockwise past ``start``."""
    behind = _behind(squares, start)
    return (behind >= low) & (behind <= length)


def _wrapped_square(square: Array) -> Array:
    return square - as_int8(square >= TRACK_SQUARES) * I8(TRACK_SQUARES)


def _everyone(pawns: Array, sides: Array) -> Array:
    """``(players * 4, *batch)``: every pawn's relative square (OFF_TRACK off the track),
    the mover's four first: bit ``4 q + s`` of an outcome's pawns is slot s of seat q."""
    squares = _relative_squares(pawns, sides)
    return squares.reshape((-1, *squares.shape[2:]))


def _landings(table: Tables, everyone: Array, landing: Array) -> tuple[Array, Array, Array, Array]:
    """For landings of the mover's pawns (distances, ``(n, *batch)``): where each pawn ends
    (after its slide), the square it lands on (NOWHERE off the track), its slide's length,
    and the pawns it sends to Start (bits over ``everyone``; the moving pawn's own bit, for
    a pawn on the slide it rides from behind, means nothing)."""
    xp = namespace(landing)
    end, length = _lookup_pair(table.rides, xp.clip(landing, I8(0), I8(START)))
    square = _square(landing)
    hit = _swept(everyone[:, None], square[None], length[None], 0) & _on_track(landing)[None]
    return end, square, length, _bits(hit)


def _kept_or_start(own: Array, swept: Array, slot: int, lanes: int) -> Array:
    """Own slot ``slot`` after each lane (``lanes`` leading axes of ``swept``): where it
    stood, or Start if its bit is swept."""
    return select(_has_bit(swept, slot), I8(START), own[slot][(None,) * lanes])


def _step_keys(own: Array, end: Array, hits: Array) -> Array:
    """The outcome keys (uint32) of the four lanes moving slot 0, 1, 2, 3 to ``end``
    (``(4, *batch)``), sending ``hits`` to Start: the rank of the mover's pawns, then the
    bits of the opponents' pawns sent to Start."""
    batch = own.ndim - 1
    finals = []
    for slot in range(SLOTS):
        moving = column(np.arange(SLOTS) == slot, batch, bool)
        finals.append(select(moving, end, _kept_or_start(own, hits, slot, 1)))
    return (_rank(finals) << U32(_OPPONENT_BITS)) | (hits >> U32(SLOTS))


def _move_keys(table: Tables, everyone: Array, own: Array, card: Array) -> Array:
    """``(4, *batch)``: the outcome keys of the MOVE lanes (where legal)."""
    end, _, _, hits = _landings(table, everyone, _main_landing(table, own, card)[0])
    return _step_keys(own, end, hits)


def _back1_keys(table: Tables, everyone: Array, own: Array) -> Array:
    """``(4, *batch)``: the outcome keys of a 10's BACK1 lanes (where legal)."""
    end, _, _, hits = _landings(table, everyone, _wrapped(own + I8(1)))
    return _step_keys(own, end, hits)


def _split_keys(table: Tables, everyone: Array, own: Array) -> Array:
    """``(72, *batch)``: the outcome keys of the split lanes (where legal).  Each part lands
    and sweeps; an opponent or a third pawn it sends to Start is there at the end, and the
    second part also sends the first pawn there if it lands or slides where that one ended."""
    xp = namespace(own)
    batch = own.ndim - 1
    landing = (own[:, None] - column(_PART_COUNTS, batch)).reshape((-1, *own.shape[1:]))
    end, square, length, hits = _landings(table, everyone, landing)
    first, second = xp.asarray(_FIRST_LANDING), xp.asarray(_SECOND_LANDING)
    first_end, second_end = xp.take(end, first, axis=0), xp.take(end, second, axis=0)
    second_square, second_length = xp.take(square, second, axis=0), xp.take(length, second, axis=0)
    swept = xp.take(hits, first, axis=0) | xp.take(hits, second, axis=0)
    first_gone = _swept(_square(first_end), second_square, second_length, 0) & (second_square != NOWHERE)
    first_final = select(first_gone, I8(START), first_end)
    finals = []
    for slot in range(SLOTS):
        kept = _kept_or_start(own, swept, slot, 1)
        moved = select(column(slot == _SPLIT_SECOND, batch, bool), second_end, kept)
        finals.append(select(column(slot == _SPLIT_FIRST, batch, bool), first_final, moved))
    return (_rank(finals) << U32(_OPPONENT_BITS)) | (swept >> U32(SLOTS))


def _switch_keys(table: Tables, everyone: Array, own: Array, sides: Array) -> tuple[Array, Array]:
    """``(4, Q, *batch)`` twice, by own slot and opponent pawn (``Q = 4 (players - 1)``):
    the outcome keys of the switch lanes (where legal): the rank of the mover's pawns, and
    the opponents' part: the bits of their pawns no longer where they stood, and from bit
    12 where the switched pawn ends (``64 seat + square``; 0 if where a pawn of its colour
    stood, whose bit is then cleared: the same position).

    As :func:`_switch` plays it: the mover's pawn A takes the square p of the opponent's P,
    which takes A's square a; A rides a slide at p, sweeping the pawns on it (P too, if a
    is on it); then P, if still there, rides a slide at a, sweeping (A too, maybe)."""
    xp = namespace(own)
    batch = own.ndim - 1
    seats = sides.shape[0] - 1
    mine, theirs = everyone[:SLOTS], everyone[SLOTS:]  # the squares a and p
    targets = theirs.shape[0]
    seat_of = np.repeat(np.arange(seats), SLOTS)  # each opponent pawn's seat, less one
    # A's slide at p, and whom it sweeps where they stand (by target)
    at_p = _distance_from(theirs, xp.zeros_like(theirs))
    p_end, p_length = _lookup_pair(table.rides, xp.clip(at_p, I8(0), I8(START)))
    p_length = p_length * as_int8(theirs != OFF_TRACK)
    first_bits = _bits(_swept(everyone[:, None], theirs[None], p_length[None], 1))  # (Q, *batch)
    # P's slide at a, and whom it sweeps where they stand (by own pawn and seat)
    ride_index = sides[1:].astype(xp.int32)[None] * 128 + mine.astype(xp.int32)[:, None]  # (4, seats, *batch)
    a_length = xp.take(xp.asarray(table.opponent_ride).reshape(-1), ride_index) * I8(table.switched_opponent_slides)
    second_bits = _bits(_swept(everyone[:, None, None], mine[None, :, None], a_length[None], 1))
    by_target = xp.asarray(seat_of)
    a_length = xp.take(a_length, by_target, axis=1)  # (4, Q, *batch)
    second_bits = xp.take(second_bits, by_target, axis=1)
    # lane by lane
    a, p = mine[:, None], theirs[None]
    target_swept = _swept(a, p, p_length[None], 1)
    length = a_length * as_int8(~target_swept)
    own_bit = column(1 << np.arange(SLOTS), batch + 1, np.uint32)
    target_bit = column(1 << (SLOTS + np.arange(targets)), batch, np.uint32)[None]
    swept = (first_bits[None] & ~own_bit) | select(length > 0, second_bits & ~target_bit, U32(0))
    arrived = _wrapped_square(p + p_length[None])  # A's square after its slide
    mover_gone = _swept(arrived, a, length, 1) & (length > 0)
    mover_final = select(mover_gone, I8(START), p_end[None])
    finals = []
    for slot in range(SLOTS):
        moving = column(np.arange(SLOTS) == slot, batch + 1, bool)
        finals.append(select(moving, mover_final, _kept_or_start(own, swept, slot, 2)))
    gone = (swept | target_bit) >> U32(SLOTS)
    ends = _wrapped_square(a + length)  # P's square at the end, unless swept
    same_place = xp.zeros(gone.shape, dtype=xp.uint32)
    for mate in range(SLOTS):  # the pawn of P's colour in this slot
        index = seat_of * SLOTS + mate
        stood = xp.take(theirs, xp.asarray(index), axis=0)[None]
        there = (ends == stood) & ~target_swept
        same_place = same_place | (there.astype(xp.uint32) << column(index, batch, np.uint32)[None])
    added = ~target_swept & (same_place == 0)
    code = column(seat_of + 1, batch, np.uint32)[None] * U32(64) + ends.astype(xp.uint32)
    opponents = (gone & ~same_place) | select(added, code << U32(_OPPONENT_BITS), U32(0))
    return _rank(finals), opponents


def _pass_keys(own: Array) -> tuple[Array, Array]:
    """``(1, *batch)`` twice: the outcome keys of the pass (the position as it is), as
    :func:`_switch_keys` has them."""
    xp = namespace(own)
    return _rank([own[slot] for slot in range(SLOTS)])[None], xp.zeros((1, *own.shape[1:]), dtype=xp.uint32)


def _repeated(legal: Array, *keys: Array) -> Array:
    """``(n, *batch)``: the legal entries (along the first axis) whose keys (one or more
    words each) a lower legal entry has too: each compared with those below it (on JAX
    several times faster than a sort of each game's keys)."""
    xp = namespace(legal, *keys)
    keys = tuple(select(legal, word, U32(0xFFFFFFFF)) for word in keys)
    if is_numpy(xp):  # only the lanes legal somewhere
        some = np.flatnonzero(legal.reshape((legal.shape[0], -1)).any(axis=1))
        found = np.zeros(legal.shape, dtype=bool)
        for place in range(1, some.size):
            earlier, later = some[:place], some[place]
            alike = legal[earlier]
            for word in keys:
                alike = alike & (word[earlier] == word[later][None])
            found[later] = alike.any(axis=0) & legal[later]
        return found
    repeats = [xp.zeros_like(legal[0])]
    for later in range(1, legal.shape[0]):
        alike = legal[:later]
        for word in keys:
            alike = alike & (word[:later] == word[later][None])
        repeats.append(any0(alike))
    return xp.stack(repeats) & legal


def _steps_compared(table: Tables, own: Array, card: Array, move: Array, back1: Array) -> Array:
    """Whether the core compares a 4's or a 10's steps (``move``, ``back1``: the legal
    ones): two or more of them land on a slide the mover rides (no others can end alike)."""
    xp = namespace(own)
    landing = xp.concatenate([_main_landing(table, own, card)[0], _wrapped(own + I8(1))], axis=0)
    _, length = _lookup_pair(table.rides, xp.clip(landing, I8(0), I8(START)))
    sliding = (length > 0) & _on_track(landing) & xp.concatenate([move, back1], axis=0)
    return xp.sum(sliding, axis=0, dtype=xp.int8) >= 2


def _step_duplicates(table: Tables, pawns: Array, sides: Array, card: Array, move: Array, back1: Array) -> Array:
    """``(8, *batch)``: the MOVE and BACK1 lanes (``move``, ``back1``: the legal ones) of a 4
    or a 10 that end as a lower one does (where the core compares them)."""
    xp = namespace(pawns)
    own, everyone = pawns[0], _everyone(pawns, sides)
    keys = xp.concatenate([_move_keys(table, everyone, own, card), _back1_keys(table, everyone, own)], axis=0)
    found = _repeated(xp.concatenate([move, back1], axis=0), keys)
    return found & _steps_compared(table, own, card, move, back1)[None]


def _seven_duplicates(table: Tables, pawns: Array, sides: Array, card: Array, move: Array, split: Array) -> Array:
    """``(76, *batch)``: the MOVE and SPLIT lanes (the legal ones given) of a 7 that end as
    a lower one does (where there are splits: the core compares them)."""
    xp = namespace(pawns)
    own, everyone = pawns[0], _everyone(pawns, sides)
    keys = xp.concatenate([_move_keys(table, everyone, own, card), _split_keys(table, everyone, own)], axis=0)
    return _repeated(xp.concatenate([move, split], axis=0), keys) & any0(split)[None]


#: For NumPy's way with a 7 (:func:`_seven_repeats`), each of the 76 MOVE and SPLIT lanes:
#: its first landing (24 + s: MOVE slot s), its second (for a MOVE lane, none: masked),
#: its first slot and its second (-1 for a MOVE lane).
_SEVEN_FIRST: Final = np.concatenate([np.arange(24, 28), _FIRST_LANDING]).astype(np.intp)
_SEVEN_SECOND: Final = np.concatenate([np.arange(24, 28), _SECOND_LANDING]).astype(np.intp)
_SEVEN_FIRST_SLOT: Final = np.concatenate([np.arange(SLOTS), _SPLIT_FIRST]).astype(np.int8)
_SEVEN_SECOND_SLOT: Final = np.concatenate([np.full(SLOTS, -1), _SPLIT_SECOND]).astype(np.int8)


#: ``_REVERSED6[bits]``: 6-bit ``bits`` in the other order (bit k - 1 to bit 6 - k).
_REVERSED6: Final = np.array([int(f"{bits:06b}"[::-1], 2) for bits in range(64)], dtype=np.uint8)
#: The pairs (i, j) with i > j (a split of such a pair comes after those of (j, i)), and
#: for each the place of the pair (j, i).
_LATER_PAIRS: Final = np.array([place for place, (i, j) in enumerate(_PAIRS) if i > j], dtype=np.intp)
_EARLIER_PAIRS: Final = _SWAPPED.take(_LATER_PAIRS)


def _seven_repeats(table: Tables, pawns: Array, sides: Array, card: Array, move: Array, masks: Array) -> Array:
    """:func:`_seven_duplicates` on NumPy with one batch axis (games with a split; their
    splits as :func:`_split_masks`): the same lanes, as ``(76, n)`` booleans.

    Two kinds of split are known to end as a lower one does without coding them: the same
    two landings made in the same order by the pawns the other way round (slot j lands
    first where slot i would: the outcome is the same), and the two parts in the other
    order where neither lands on a slide (nothing then depends on the order).  The other
    legal lanes have their keys worked out, and are compared in one sort."""
    own = pawns[0]
    games = own.shape[1]
    landing = (own[:, None] - _PART_COUNTS[:, None]).reshape((-1, games))
    landing = np.concatenate([landing, _main_landing(table, own, card)[0]])
    end, square, length, hits = _landings(table, _everyone(pawns, sides), landing)
    # slides[s]: bit k - 1 where slot s forward k lands on a slide
    sliding = (length[: SLOTS * SPLIT_COUNTS] > 0) & (square[: SLOTS * SPLIT_COUNTS] != NOWHERE)
    slides = (sliding.reshape((SLOTS, SPLIT_COUNTS, games)).view(np.uint8) << _K_SHIFTS[:, None]).sum(1, dtype=np.uint8)
    later, earlier = masks.take(_LATER_PAIRS, axis=0), masks.take(_EARLIER_PAIRS, axis=0)
    first, second = _FIRSTS.take(_LATER_PAIRS), _SECONDS.take(_LATER_PAIRS)
    # (i, k, j) and (j, k + b - a, i): both land first on a - k, then on b - 7 + k
    offset = own.take(second, axis=0).astype(np.int16) - own.take(first, axis=0)
    shift = np.minimum(np.abs(offset), 7).astype(np.uint8)
    swapped = np.where(offset >= 0, earlier >> shift, earlier << shift) & np.uint8(63)
    # (i, k, j) and (j, 7 - k, i), neither landing on a slide
    plain = ~(slides.take(first, axis=0) | _REVERSED6.take(slides.take(second, axis=0))) & np.uint8(63)
    known = later & (swapped | (_REVERSED6.take(earlier) & plain))
    found_masks = np.zeros_like(masks)
    found_masks[_LATER_PAIRS] = known
    rest = _split_lanes_of(masks & ~found_masks)
    end, square, length, hits = (np.ravel(array) for array in (end, square, length, hits))
    lane, row = np.nonzero(np.concatenate([move, rest]))
    first, second = _SEVEN_FIRST.take(lane) * games + row, _SEVEN_SECOND.take(lane) * games + row
    is_split = lane >= SLOTS
    first_end, second_end = end.take(first), end.take(second)
    second_square, second_length = square.take(second), length.take(second)
    swept = hits.take(first) | (hits.take(second) * is_split.astype(np.uint32))
    first_gone = _swept(_square(first_end), second_square, second_length, 0) & (second_square != NOWHERE) & is_split
    first_final = select(first_gone, I8(START), first_end)
    first_slot, second_slot = _SEVEN_FIRST_SLOT.take(lane), _SEVEN_SECOND_SLOT.take(lane)
    finals = []
    for slot in range(SLOTS):
        kept = select(_has_bit(swept, slot), I8(START), own[slot].take(row))
        moved = select(second_slot == slot, second_end, kept)
        finals.append(select(first_slot == slot, first_final, moved))
    outcome = (_rank(finals).astype(np.uint64) << np.uint64(_OPPONENT_BITS)) | (swept >> U32(SLOTS)).astype(np.uint64)
    # by game, then outcome, then lane: a lane repeats the outcome of the one sorted before it
    order = np.sort((row.astype(np.uint64) << np.uint64(39)) | (outcome << np.uint64(7)) | lane.astype(np.uint64))
    found = np.concatenate([np.zeros((SLOTS, games), dtype=bool), _split_lanes_of(found_masks)])
    repeats = order[1:][(order[1:] >> np.uint64(7)) == (order[:-1] >> np.uint64(7))]
    found[(repeats & np.uint64(127)).astype(np.intp), (repeats >> np.uint64(39)).astype(np.intp)] = True
    return found


def _seven_found(table: Tables, pawns: Array, sides: Array, card: Array, move: Array, masks: Array) -> Array:
    """:func:`_seven_repeats`, in compiled loops where Numba is installed (the same lanes)."""
    if compiled.AVAILABLE:
        return compiled.seven_repeats(table, pawns, sides, move, masks)
    return _seven_repeats(table, pawns, sides, card, move, masks)


def _eleven_found(
    table: Tables, pawns: Array, sides: Array, card: Array, forfeit: Array, move: Array, switch: Array
) -> Array:
    """:func:`_eleven_duplicates` on NumPy, in compiled loops where Numba is installed."""
    if compiled.AVAILABLE:
        return compiled.eleven_duplicates(table, pawns, sides, forfeit, move, switch)
    return _eleven_duplicates(table, pawns, sides, card, forfeit, move, switch)


def _switch_slides(table: Tables, everyone: Array, sides: Array) -> Array:
    """``(4, Q, *batch)``, by own slot and opponent pawn: whether the switch makes a pawn
    slide (the core compares those switches, and the moves before them, alone)."""
    xp = namespace(everyone)
    mine, theirs = everyone[:SLOTS], everyone[SLOTS:]
    seats = sides.shape[0] - 1
    _, p_length = _lookup_pair(table.rides, xp.clip(_distance_from(theirs, xp.zeros_like(theirs)), I8(0), I8(START)))
    ride_index = sides[1:].astype(xp.int32)[None] * 128 + mine.astype(xp.int32)[:, None]  # (4, seats, *batch)
    a_length = xp.take(xp.asarray(table.opponent_ride).reshape(-1), ride_index) * I8(table.switched_opponent_slides)
    a_length = xp.take(a_length, xp.asarray(np.repeat(np.arange(seats), SLOTS)), axis=1)
    return ((p_length > 0) & (theirs != OFF_TRACK))[None] | (a_length > 0)


def _eleven_duplicates(
    table: Tables, pawns: Array, sides: Array, card: Array, forfeit: Array, move: Array, switch: Array
) -> Array:
    """``(53, *batch)``: the pass, MOVE and SWITCH lanes (the legal ones given) of an 11 that
    end as a lower one does, where the core compares them: where a switch makes a pawn
    slide, the pass, the MOVE lanes and such switches (the others end as no other lane)."""
    xp = namespace(pawns)
    own, everyone = pawns[0], _everyone(pawns, sides)
    shape = own.shape[1:]
    moves = _move_keys(table, everyone, own, card)
    ranks, opponents = _switch_keys(table, everyone, own, sides)
    targets = ranks.shape[1]  # the opponents' pawns in play: the other lanes are never legal
    real = switch.reshape((SLOTS, OPPONENTS * SLOTS, *shape))[:, :targets]
    sliding = real & _switch_slides(table, everyone, sides)
    pass_rank, pass_opponents = _pass_keys(own)
    rank = xp.concatenate([pass_rank, moves >> U32(_OPPONENT_BITS), ranks.reshape((-1, *shape))], axis=0)
    low = U32((1 << _OPPONENT_BITS) - 1)
    theirs = xp.concatenate([pass_opponents, moves & low, opponents.reshape((-1, *shape))], axis=0)
    legal = xp.concatenate([forfeit, move, sliding.reshape((-1, *shape))], axis=0)
    found = _repeated(legal, rank, theirs)
    missing = OPPONENTS * SLOTS - targets
    switches = found[MOVE_LANE + SLOTS :].reshape((SLOTS, targets, *shape))
    if missing:
        switches = xp.concatenate([switches, xp.zeros((SLOTS, missing, *shape), dtype=bool)], axis=1)
    found = xp.concatenate([found[: MOVE_LANE + SLOTS], switches.reshape((-1, *shape))], axis=0)
    return found & any0(legal[MOVE_LANE + SLOTS :])[None]


def _sliding_switches(config: Config, pawns: Array, sides: Array, switch: Array) -> Array:
    """Whether any of the legal switches ``switch`` (48 lanes) makes a pawn slide."""
    slides = _switch_slides(tables(config), _everyone(pawns, sides), sides)
    slides = _padded(slides.reshape((SLOTS, config.players - 1, SLOTS, *pawns.shape[2:])), 1, config.players)
    return any0(switch & slides.reshape((-1, *pawns.shape[2:])))


#: The cards whose lanes are compared by outcome (the others' lanes never end alike).
_COMPARED: Final = (4, 10, 7, 11)


def _group_duplicates(config: Config, games: Games, lanes: Array) -> Array:
    """``(141, *batch)``: the legal lanes that end as a lower legal lane does (where the core
    compares them), every game worked out (as JAX works)."""
    xp = namespace(games.pawns)
    table = tables(config)
    pawns, card = games.pawns, games.card
    shape = card.shape
    sides = _sides(config, games.turn)
    move, back1 = lanes[MOVE_LANE:BACK1_LANE], lanes[BACK1_LANE:SPLIT]
    steps = _step_duplicates(table, pawns, sides, card, move, back1) & ((card == 4) | (card == 10))
    seven = _seven_duplicates(table, pawns, sides, card, move, lanes[SPLIT:SWITCH]) & (card == 7)
    eleven = _eleven_duplicates(table, pawns, sides, card, lanes[:MOVE_LANE], move, lanes[SWITCH:SORRY_LANE])
    eleven = eleven & (card == 11)
    move_found = steps[:SLOTS] | seven[:SLOTS] | eleven[MOVE_LANE:BACK1_LANE] | _start_duplicates(pawns[0])
    tail = xp.zeros((ACTIONS - SORRY_LANE, *shape), dtype=bool)
    parts = [eleven[:MOVE_LANE], move_found, steps[SLOTS:], seven[SLOTS:], eleven[BACK1_LANE:], tail]
    return xp.concatenate(parts, axis=0)


def distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(config.actions, *batch)`` booleans: the legal lanes (:func:`legal_lanes`, or
    ``lanes``), only the lowest of those that make the same move, as its edition says
    (:func:`pardon.batch.editions.edition`: the card in hand's :func:`card_distinct_lanes`, a hand's,
    the partners', doubling's, Fire and Ice's)."""
    from pardon.batch.editions import edition

    return edition(config).distinct(config, games, lanes)


def card_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(141, *batch)`` booleans: the legal lanes (:func:`legal_lanes`, or ``lanes``), only
    the lowest of those that make the same position: one lane for each of the core's
    :func:`~pardon.core.moves.legal_moves`, as many as it lists."""
    xp = namespace(games.pawns)
    if lanes is None:
        lanes = card_lanes(config, games)
    card = games.card
    if not _is_fast(xp, card):
        return lanes & ~_group_duplicates(config, games, lanes)
    table = tables(config)
    kept = np.array(lanes, dtype=bool)
    kept[MOVE_LANE:BACK1_LANE] &= ~_start_duplicates(games.pawns[0])
    fours, tens, sevens, elevens = _rows_of(card, _COMPARED)
    steps = np.concatenate([fours, tens])
    if steps.size:
        some, legal = games_at(games, steps), lanes[:, steps]
        move, back1 = legal[MOVE_LANE:BACK1_LANE], legal[BACK1_LANE:SPLIT]
        steps = steps[_steps_compared(table, some.pawns[0], some.card, move, back1)]
    if steps.size:
        some, legal = games_at(games, steps), lanes[:, steps]
        sides = _sides(config, some.turn)
        move, back1 = legal[MOVE_LANE:BACK1_LANE], legal[BACK1_LANE:SPLIT]
        kept[MOVE_LANE:SPLIT, steps] &= ~_step_duplicates(table, some.pawns, sides, some.card, move, back1)
    sevens = sevens[lanes[SPLIT:SWITCH, sevens].any(axis=0)]
    if sevens.size:
        some, legal = games_at(games, sevens), lanes[:, sevens]
        sides = _sides(config, some.turn)
        masks = _split_masks_of(legal[SPLIT:SWITCH])
        found = _seven_found(table, some.pawns, sides, some.card, legal[MOVE_LANE:BACK1_LANE], masks)
        kept[MOVE_LANE:BACK1_LANE, sevens] &= ~found[:SLOTS]
        kept[SPLIT:SWITCH, sevens] &= ~found[SLOTS:]
    if elevens.size:
        some = games_at(games, elevens)
        elevens = elevens[
            _sliding_switches(config, some.pawns, _sides(config, some.turn), lanes[SWITCH:SORRY_LANE, elevens])
        ]
    if elevens.size:
        some, legal = games_at(games, elevens), lanes[:, elevens]
        sides = _sides(config, some.turn)
        found = _eleven_found(
            table,
            some.pawns,
            sides,
            some.card,
            legal[:MOVE_LANE],
            legal[MOVE_LANE:BACK1_LANE],
            legal[SWITCH:SORRY_LANE],
        )
        kept[MOVE_LANE:BACK1_LANE, elevens] &= ~found[MOVE_LANE:BACK1_LANE]
        kept[SWITCH:SORRY_LANE, elevens] &= ~found[BACK1_LANE:]
    return kept


def position_keys(pawns: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two uint64 keys of each position (``(players, 4, n)`` pawns), equal where the positions
    are: a seat's pawns compared as a set (they are alike), each seat's rank below 2**20."""
    ranks = [_rank(list(pawns[seat])).astype(np.uint64) for seat in range(pawns.shape[0])]
    ranks += [np.zeros(pawns.shape[-1], dtype=np.uint64)] * (SLOTS - len(ranks))
    twenty = np.uint64(20)
    return (ranks[0] << twenty) | ranks[1], (ranks[2] << twenty) | ranks[3]


def distinct_by_outcome(
    games: Games,
    lanes: Array,
    made: Callable[[Games, Array], Games],
    keys: Callable[[Games], list[Array]] | None = None,
) -> Array:
    """``lanes`` (one axis of games) less each lane whose outcome a lower lane of its game
    has, for the editions worked out by making their moves (partners, Fire and Ice): every
    lane of a game with two or more made (``made(games, actions)``: the games after them, the
    turn not passed on), and compared by the pawns (a seat's as a set: they are alike) and
    ``keys(after)`` (the rest of an outcome, as uint64 arrays)."""
    kept = np.array(lanes, dtype=bool)
    several = np.flatnonzero(kept.sum(axis=0) > 1)
    actions, place = np.nonzero(kept[:, several])  # by action: the lowest of a game's first
    if not actions.size:
        return kept
    rows = several[place]
    after = made(games_at(games, rows), actions.astype(np.int32))
    columns = [place.astype(np.uint64), *position_keys(np.asarray(after.pawns))]
    columns += keys(after) if keys is not None else []
    order = np.lexsort(columns[::-1])  # the game first; stable: a lower action before a higher one alike
    same = np.ones(order.size - 1, dtype=bool)
    for key in columns:
        ordered = key[order]
        same &= ordered[1:] == ordered[:-1]
    dropped = order[np.r_[False, same]]
    kept[actions[dropped], rows[dropped]] = False
    return kept
