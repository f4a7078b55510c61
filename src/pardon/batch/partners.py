"""The partners game in the batch engine (docs/rules.md: "Partners"; the core's
:mod:`pardon.core.partners`): 4 players, Red+Yellow against Blue+Green, and on a turn the
card may move any pawn of the team, the partner's (2 seats on) included.

An action is one of 474 (``config.actions``):

=========  =====================================================================
0–140      the player's own pawns: the 141 actions of :mod:`pardon.batch.actions`
           (opponents counted from the player; a Sorry! on the partner, 2 seats on,
           only where no opposing pawn can be hit; a split 7 of two own pawns)
141–281    the partner's pawns: ``141 + a``, ``a`` as the partner would name it (its
           slots, opponents counted from the partner, a split of two of its pawns);
           ``141`` (its pass) is never legal: the player passes with 0
282–377    split 7: the player's slot i forward k, then the partner's slot j forward
           7 − k: ``282 + 24 i + 6 j + (k − 1)``
378–473    split 7: the partner's slot i forward k, then the player's slot j forward
           7 − k: ``378 + 24 i + 6 j + (k − 1)``
=========  =====================================================================

Each pawn keeps its own colour's rules (its Safety Zone, its slides).  No pawn lands on a
pawn of its own colour, and (**ruling**) the player's move never lands the partner's pawn
on one of the player's: only a slide sends the player's own pawns to Start.  Landing on the
partner's pawn bumps it.  A Sorry! or a switch acts on an opposing pawn; a Sorry! from the
player's own Start lands on the partner's pawn only when no opposing pawn can be hit.  The
split 7 is between two team pawns (``partner_split="two"``), each part legal when it is
made.  The first team with every pawn Home wins; a player whose own pawns are all Home
plays on for the team.

The partners game is worked out with NumPy (not JAX): its lanes by the classic ones seen
from each partner's seat, its splits by making them, and its distinct moves by playing every
legal lane and comparing what they make.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games, random_moves, step
>>> config = Config.parse("partners", 4)
>>> games = new_games(config, np.arange(3, dtype=np.uint32))
>>> config.actions, describe_team_action(141 + 1), describe_team_action(282 + 24 * 1 + 6 * 2 + 3)
(474, "partner's: move slot 0", "split: slot 1 forward 4, then partner's slot 2 forward 3")
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_moves(config, games))
>>> [bool((games.pawns[[0, 2], :, game] == 0).all()) for game in range(3)]  # the winning team is Home
[True, True, True]
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from pardon.batch.actions import (
    ACTIONS,
    BACK1,
    MOVE,
    OPPONENTS,
    PASS,
    SLOTS,
    SORRY,
    SPLIT,
    SPLIT_COUNTS,
    SWITCH,
    describe_action,
    split_action,
)
from pardon.batch.backend import Array
from pardon.batch.config import I8, Config, Games, Played, Tables, games_at, numpy_only, one_axis, shaped, tables
from pardon.batch.distinct import distinct_by_outcome
from pardon.batch.squares import _relative_squares, _sides, _square, _wrapped
from pardon.core.board import HOME, START
from pardon.core.cards import SORRY as SORRY_CARD
from pardon.core.errors import InvalidError
from pardon.core.rules import Rules

#: The first lane of each block: the player's own 141, the partner's 141, the mixed splits.
OWN: Final = 0
PARTNERS: Final = ACTIONS  # 141
MIXED: Final = 2 * ACTIONS  # 282
#: A mixed split's lanes: (first member, its slot i, second slot j, first part k).
MIXED_SPLITS: Final = 2 * SLOTS * SLOTS * SPLIT_COUNTS  # 192
TEAM_ACTIONS: Final = MIXED + MIXED_SPLITS  # 474
#: The partner sits 2 seats on.
PARTNER_SEAT: Final = 2


def mixed_split_action(first_member: int, first: int, count: int, second: int) -> int:
    """The split moving slot ``first`` of ``first_member`` (0: the player, 1: the partner)
    forward ``count``, then slot ``second`` of the other forward 7 − count."""
    return MIXED + ((first_member * SLOTS + first) * SLOTS + second) * SPLIT_COUNTS + count - 1


def describe_team_action(action: int) -> str:
    """A partners game's action in words (slots, not squares)."""
    if not 0 <= action < TEAM_ACTIONS:
        raise ValueError(f"no action {action}: in the partners game actions are numbered 0 to {TEAM_ACTIONS - 1}")
    if action < PARTNERS:
        return describe_action(action)
    if action < MIXED:
        return f"partner's: {describe_action(action - PARTNERS)}"
    first_member, rest = divmod(action - MIXED, SLOTS * SLOTS * SPLIT_COUNTS)
    first, rest = divmod(rest, SLOTS * SPLIT_COUNTS)
    second, count = divmod(rest, SPLIT_COUNTS)
    whose = ("", "partner's ")
    return (
        f"split: {whose[first_member]}slot {first} forward {count + 1}, "
        f"then {whose[1 - first_member]}slot {second} forward {SPLIT_COUNTS - count}"
    )


def _team_splits() -> np.ndarray:
    """Every split 7 of two team pawns: rows of (lane, first member, first slot, count,
    second member, second slot)."""
    rows = []
    for first_member in (0, 1):
        for second_member in (0, 1):
            for first in range(SLOTS):
                for second in range(SLOTS):
                    if first_member == second_member and first == second:
                        continue
                    for count in range(1, SPLIT_COUNTS + 1):
                        if first_member == second_member:
                            lane = first_member * PARTNERS + split_action(first, count, second)
                        else:
                            lane = mixed_split_action(first_member, first, count, second)
                        rows.append((lane, first_member, first, count, second_member, second))
    return np.array(sorted(rows), dtype=np.int32)


#: ``TEAM_SPLITS[n]``: the n-th split of two team pawns, in lane order (:func:`_team_splits`).
TEAM_SPLITS: Final = _team_splits()
_SPLIT_OF_LANE: Final = np.full(TEAM_ACTIONS, -1, dtype=np.int32)
_SPLIT_OF_LANE[TEAM_SPLITS[:, 0]] = np.arange(len(TEAM_SPLITS), dtype=np.int32)


def check_team_rules(rules: Rules) -> None:
    """InvalidError for what the batch's partners game does not play."""
    if rules.partner_split != "two":
        raise InvalidError(
            "the batch engine plays the partners' split 7 between two pawns (partner_split=two), not "
            "between any number of team pawns: a split of up to seven parts has no fixed set of actions"
        )


def turned(games: Games) -> Games:
    """The games seen from the partner's seat: its pawns first (seats 2 on), its turn."""
    pawns = np.concatenate([games.pawns[PARTNER_SEAT:], games.pawns[:PARTNER_SEAT]])
    return games._replace(pawns=pawns, turn=((games.turn + I8(PARTNER_SEAT)) % I8(4)).astype(np.int8))


def _roll(pawns: Array, member: Array) -> Array:
    """Each game's pawns seen from its ``member`` (0: the player; 1: the partner)."""
    rolled = np.concatenate([pawns[PARTNER_SEAT:], pawns[:PARTNER_SEAT]])
    return np.where(member.astype(bool)[None, None], rolled, pawns)


def _on_player(pawns: Array, sides: Array, landing: Array) -> Array:
    """Whether ``landing`` (any shape ending in the batch), a distance of the partner's seen
    from its seat (``pawns`` too), is a track square where one of the player's pawns stands."""
    player = _relative_squares(pawns[PARTNER_SEAT : PARTNER_SEAT + 1], sides[PARTNER_SEAT : PARTNER_SEAT + 1])[0]
    squares = _square(landing)
    found = np.zeros(landing.shape, dtype=bool)
    for slot in range(SLOTS):
        found |= squares == player[slot]
    return found


def team_lanes(config: Config, games: Games) -> Array:
    """``(474, games)`` booleans: the legal actions of each game's player to move, for the
    pawns of its team."""
    from pardon.batch.legal import _main_landing, card_lanes

    numpy_only(games, "the partners game")
    if games.card.ndim != 1:
        return team_lanes(config, one_axis(games)).reshape((TEAM_ACTIONS, *games.card.shape))
    table = tables(config)
    card = games.card
    own = card_lanes(config, games)
    mate_games = turned(games)
    mate = card_lanes(config, mate_games)
    sides = _sides(config, games.turn)
    _rivals_only(own)
    _rivals_only(mate)
    mate_own = mate_games.pawns[0]
    landing = _main_landing(table, mate_own, card)[0]
    mate[MOVE:BACK1] &= ~_on_player(mate_games.pawns, sides, landing)
    mate[BACK1:SPLIT] &= ~_on_player(mate_games.pawns, sides, _wrapped(mate_own + I8(1)))
    lanes = np.concatenate([own, mate, np.zeros((MIXED_SPLITS, card.size), dtype=bool)])
    lanes[PASS] = lanes[PARTNERS + PASS] = False
    lanes[SPLIT:SWITCH] = lanes[PARTNERS + SPLIT : PARTNERS + SWITCH] = False
    sevens = np.flatnonzero(card == 7)
    if sevens.size:
        lanes[:, sevens] |= _split_lanes(config, table, games, sevens)
    if (card == SORRY_CARD).any():
        _sorry_on_partner(lanes, games.pawns, card)
    forwards = lanes[MOVE:BACK1].any(axis=0) | lanes[PARTNERS + MOVE : PARTNERS + BACK1].any(axis=0)
    used = lanes.any(axis=0)
    lanes[PASS] = np.where(card == 11, ~forwards, ~used) & (card != 0)
    return lanes


def _rivals_only(lanes: Array) -> None:
    """Clear a block's switches and Sorry!s onto the seat 2 on: the mover's partner."""
    opponent = PARTNER_SEAT - 1
    for slot in range(SLOTS):
        first = SWITCH + slot * OPPONENTS * SLOTS + opponent * SLOTS
        lanes[first : first + SLOTS] = False
    first = SORRY + opponent * SLOTS
    lanes[first : first + SLOTS] = False


def _sorry_on_partner(lanes: Array, pawns: Array, card: Array) -> None:
    """A Sorry! from the player's Start onto the partner's pawn on the track, where no Sorry!
    can hit an opposing pawn (P92: "if there's no one else to pick on")."""
    from pardon.batch.squares import _on_track

    opposing = lanes[SORRY : SORRY + OPPONENTS * SLOTS].any(axis=0)
    opposing |= lanes[PARTNERS + SORRY : PARTNERS + SORRY + OPPONENTS * SLOTS].any(axis=0)
    able = (card == SORRY_CARD) & (pawns[0] == START).any(axis=0) & ~opposing
    first = SORRY + (PARTNER_SEAT - 1) * SLOTS
    lanes[first : first + SLOTS] = _on_track(pawns[PARTNER_SEAT]) & able


def _split_lanes(config: Config, table: Tables, games: Games, rows: Array) -> Array:
    """``(474, rows)``: the legal splits of two team pawns of the games of ``rows`` (each
    holding a 7), found by making each one's parts."""
    lanes = np.zeros((TEAM_ACTIONS, rows.size), dtype=bool)
    pawns = games.pawns[..., rows]
    first_member, first, count, second_member, second = (TEAM_SPLITS[:, field] for field in range(1, 6))
    # only the splits whose pawns are both out on the board, and the first part not past Home
    seen = np.stack([pawns[0], pawns[PARTNER_SEAT]])  # (member, slot, game)
    start_at = seen[first_member, first]  # (splits, games)
    out = (start_at != HOME) & (start_at != START) & (start_at >= count[:, None])
    second_at = seen[second_member, second]
    out &= (second_at != HOME) & (second_at != START)
    split, game = np.nonzero(out)
    if not split.size:
        return lanes
    tried = pawns[..., game]
    sides = _sides(config, games.turn[rows][game])
    _, _, _, legal = team_split(table, tried, sides, TEAM_SPLITS[split, 1:], np.ones(split.size, dtype=bool))
    lanes[TEAM_SPLITS[split[legal], 0], game[legal]] = True
    return lanes


def _part(
    table: Tables, pawns: Array, sides: Array, member: Array, slot: Array, count: Array, acting: Array
) -> tuple[Array, Array, Array, Array]:
    """One part of a split: ``member``'s pawn in ``slot`` forward ``count`` where it is
    legal now (and ``acting``).  Returns the pawns, bumps, slides, and whether it was legal."""
    from pardon.batch.legal import _blocked
    from pardon.batch.play import _land, _pick

    frame = _roll(pawns, member)
    moving = np.arange(SLOTS, dtype=np.int8)[:, None] == slot[None]
    origin = _pick(frame[0], moving)
    landing = (origin - count).astype(np.int8)
    legal = (origin != HOME) & (origin != START) & (landing >= HOME)
    legal &= ~_blocked(frame[0], landing)
    legal &= ~((member == 1) & _on_player(frame, sides, landing))
    frame, bumps, slides = _land(table, frame, sides, moving, landing, acting & legal)
    return _roll(frame, member), bumps, slides, legal


def team_split(
    table: Tables, pawns: Array, sides: Array, split: Array, acting: Array
) -> tuple[Array, Array, Array, Array]:
    """Each game's split 7 (``split``: rows of first member, slot, count, second member,
    slot) made part after part: the pawns, bumps, slides, and whether both parts were legal
    when made (the pawns are the games' own where not ``acting`` or not legal)."""
    first_member, first, count, second_member, second = (split[:, field] for field in range(5))
    seven = np.full(count.shape, 7, dtype=np.int32)
    after, bumps, slides, legal = _part(table, pawns, sides, first_member, first, count, acting)
    after, more_bumps, more_slides, second_legal = _part(
        table, after, sides, second_member, second, seven - count, acting & legal
    )
    legal &= second_legal
    made = acting & legal
    return (
        np.where(made[None, None], after, pawns),
        np.where(made, bumps + more_bumps, 0).astype(np.int8),
        np.where(made, slides + more_slides, 0).astype(np.int8),
        legal,
    )


def play_team(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action (0–473) played for its team (trusted: one of :func:`team_lanes`),
    the game ended if the team has every pawn Home, and the turn passed on (the same player
    again after a 2 with ``draw_again_on_2``).  With ``advance=False`` only the pawns move."""
    from pardon.batch.play import _action_index, _advance

    numpy_only(games, "the partners game")
    index = _action_index(np, games.card, actions, TEAM_ACTIONS)
    if games.card.ndim != 1:
        return shaped(*play_team(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    table = tables(config)
    playing = games.winner < 0
    pawns = np.array(games.pawns)
    bumps = np.zeros(index.shape, dtype=np.int8)
    slides = np.zeros(index.shape, dtype=np.int8)
    split_of: npt.NDArray[np.int32] = np.asarray(np.take(_SPLIT_OF_LANE, index))
    block = np.where(split_of >= 0, 2, np.minimum(index // PARTNERS, 2))
    for member in (0, 1):  # the moves of one pawn, as the member would make them
        rows = np.flatnonzero((block == member) & (index != member * PARTNERS) & playing)
        if rows.size:
            _play_member(config, games, rows, index[rows] - member * PARTNERS, member, (pawns, bumps, slides))
    rows = np.flatnonzero((block == 2) & playing)
    if rows.size:
        sides = _sides(config, games.turn[rows])
        split = TEAM_SPLITS[split_of[rows], 1:]
        made, split_bumps, split_slides, _ = team_split(table, pawns[..., rows], sides, split, np.ones(rows.size, bool))
        pawns[..., rows], bumps[rows], slides[rows] = made, split_bumps, split_slides
    played = Played(games.card, bumps, slides, (index == PASS) & playing)
    moved = games._replace(pawns=pawns)
    if not advance:
        return moved, played
    again = (games.card == 2) if table.draw_again_on_2 else np.zeros_like(playing)
    return _advance(config, moved, playing, again), played


def _play_member(
    config: Config, games: Games, rows: Array, actions: Array, member: int, into: tuple[Array, Array, Array]
) -> None:
    """The games of ``rows`` play ``actions`` (141-encoding) with a pawn of ``member`` (0:
    the player, 1: the partner), written into ``into``'s pawns, bumps and slides."""
    from pardon.batch.play import play_card

    some = games_at(games, rows)
    seen = turned(some) if member else some
    after, played = play_card(config, seen, actions, advance=False)
    pawns, bumps, slides = into
    pawns[..., rows] = turned(after).pawns if member else after.pawns
    bumps[rows] = played.bumps
    slides[rows] = played.slides


def team_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(474, games)``: the legal lanes (or ``lanes``), only the lowest of those that make the
    same position, found by playing each: one lane for each of the core's legal moves."""
    if lanes is None:
        lanes = team_lanes(config, games)
    if games.card.ndim != 1:
        flat = np.reshape(lanes, (TEAM_ACTIONS, -1))
        return team_distinct_lanes(config, one_axis(games), flat).reshape(np.shape(lanes))
    return distinct_by_outcome(games, lanes, lambda tried, actions: play_team(config, tried, actions, advance=False)[0])
