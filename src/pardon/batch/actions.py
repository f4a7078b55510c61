"""The fixed action encoding of the batch engine: 141 actions, the same for every rules
and number of players (docs/batch.md).

A pawn is named by its **slot** 0–3 in its player's row; a pawn keeps its slot for the
whole game (with 3 pawns, slot 3 is never used).  An opponent is named by how many seats
after the player to move it sits, clockwise (1 = the next player).

=========  =====================================================================
0          pass: the card cannot be used (or an 11 whose switch is declined)
1–4        MOVE slot i: the card's own move — forward by the card (a 4 backward
           4; a Sorry! forward 4 in the 2013 rules), or out of Start if the pawn
           is in Start and the card brings one out
5–8        BACK1 slot i: a 10's backward 1
9–80       SPLIT: slot i forward k (1–6), then slot j forward 7 − k;
           ``9 + 18 i + 6 jj + (k − 1)``, ``jj`` = j's place among the other slots
81–128     SWITCH: 11 switch of slot i with slot s of the opponent o seats on;
           ``81 + 12 i + 4 (o − 1) + s``
129–140    SORRY: a pawn from Start onto slot s of the opponent o seats on;
           ``129 + 4 (o − 1) + s``
=========  =====================================================================

>>> describe_action(0), describe_action(3), describe_action(9 + 18 * 1 + 6 * 0 + 2)
('pass', 'move slot 2', 'split: slot 1 forward 3, then slot 0 forward 4')
>>> ACTIONS, describe_action(81 + 12 * 2 + 4 * 0 + 3), describe_action(140)
(141, 'switch slot 2 with slot 3 of the next player', 'sorry on slot 3 of the player 3 seats on')
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

#: Pawn slots and opponents the encoding has room for (4 pawns, 4 players).
SLOTS: Final = 4
OPPONENTS: Final = 3
SPLIT_COUNTS: Final = 6  # the first part of a split 7 moves 1–6

PASS: Final = 0
MOVE: Final = 1
BACK1: Final = 5
SPLIT: Final = 9
SWITCH: Final = SPLIT + SLOTS * (SLOTS - 1) * SPLIT_COUNTS  # 81
SORRY: Final = SWITCH + SLOTS * OPPONENTS * SLOTS  # 129
ACTIONS: Final = SORRY + OPPONENTS * SLOTS  # 141

#: What an action does (``Decoded.kind``).
KIND_PASS: Final = 0
KIND_MOVE: Final = 1
KIND_BACK1: Final = 2
KIND_SPLIT: Final = 3
KIND_SWITCH: Final = 4
KIND_SORRY: Final = 5
KIND_NAMES: Final = ("pass", "move", "back1", "split", "switch", "sorry")


class Decoded(NamedTuple):
    """One action taken apart: what it does, which slots, counts and opponent pawn."""

    kind: int
    slot: int  # the pawn moved (first pawn of a split; own pawn of a switch); -1 if none
    second: int  # the second pawn of a split, else -1
    part: int  # how far the first part of a split goes (1-6), else 0
    opponent: int  # seats after the mover (1-3) of a switch's or Sorry!'s target, else 0
    target: int  # the target's slot, else -1


def decode(action: int) -> Decoded:
    """Take ``action`` (0–140) apart; raise ValueError outside the encoding."""
    if not 0 <= action < ACTIONS:
        raise ValueError(f"no action {action}: actions are numbered 0 to {ACTIONS - 1}")
    if action == PASS:
        return Decoded(KIND_PASS, -1, -1, 0, 0, -1)
    if action < BACK1:
        return Decoded(KIND_MOVE, action - MOVE, -1, 0, 0, -1)
    if action < SPLIT:
        return Decoded(KIND_BACK1, action - BACK1, -1, 0, 0, -1)
    if action < SWITCH:
        first, rest = divmod(action - SPLIT, (SLOTS - 1) * SPLIT_COUNTS)
        place, count = divmod(rest, SPLIT_COUNTS)
        second = place if place < first else place + 1
        return Decoded(KIND_SPLIT, first, second, count + 1, 0, -1)
    if action < SORRY:
        slot, rest = divmod(action - SWITCH, OPPONENTS * SLOTS)
        opponent, target = divmod(rest, SLOTS)
        return Decoded(KIND_SWITCH, slot, -1, 0, opponent + 1, target)
    opponent, target = divmod(action - SORRY, SLOTS)
    return Decoded(KIND_SORRY, -1, -1, 0, opponent + 1, target)


def split_action(first: int, count: int, second: int) -> int:
    """The action moving slot ``first`` forward ``count`` then slot ``second`` forward 7 − count."""
    place = second if second < first else second - 1
    return SPLIT + first * (SLOTS - 1) * SPLIT_COUNTS + place * SPLIT_COUNTS + count - 1


def switch_action(slot: int, opponent: int, target: int) -> int:
    """The 11 switch of own ``slot`` with ``target`` of the player ``opponent`` seats on."""
    return SWITCH + slot * OPPONENTS * SLOTS + (opponent - 1) * SLOTS + target


def sorry_action(opponent: int, target: int) -> int:
    """The Sorry! on ``target`` of the player ``opponent`` seats on."""
    return SORRY + (opponent - 1) * SLOTS + target


def describe_action(action: int) -> str:
    """The action in words (slots, not squares: the position says where they stand)."""
    kind, slot, second, part, opponent, target = decode(action)
    whose = "the next player" if opponent == 1 else f"the player {opponent} seats on"
    if kind == KIND_PASS:
        return "pass"
    if kind == KIND_MOVE:
        return f"move slot {slot}"
    if kind == KIND_BACK1:
        return f"slot {slot} backward 1"
    if kind == KIND_SPLIT:
        return f"split: slot {slot} forward {part}, then slot {second} forward {7 - part}"
    if kind == KIND_SWITCH:
        return f"switch slot {slot} with slot {target} of {whose}"
    return f"sorry on slot {target} of {whose}"


def _decode_table() -> npt.NDArray[np.int8]:
    """Every action decoded, one row per field of :class:`Decoded` (for the arrays)."""
    return np.array([decode(action) for action in range(ACTIONS)], dtype=np.int8).T.copy()


#: ``DECODED[field, action]``: :func:`decode` of every action, as a table.
DECODED: Final = _decode_table()

#: The split lanes the engine computes in (first slot, second slot, count) order, 4 × 4 × 6,
#: picked out in action order (the first slot never equals the second).
SPLIT_LANES: Final = np.array(
    [
        (first * SLOTS + second) * SPLIT_COUNTS + count - 1
        for first in range(SLOTS)
        for second in range(SLOTS)
        if second != first
        for count in range(1, SPLIT_COUNTS + 1)
    ],
    dtype=np.intp,
)
