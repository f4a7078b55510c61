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

Its lanes are the classic ones seen from each partner's seat and its splits are found by
making them (NumPy makes only the games holding a 7 and the splits whose pawns are out; JAX,
in :class:`~pardon.batch.jax_env.SorryJax`, every split in every game); its distinct moves
(NumPy) by playing every legal lane and comparing what they make.

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
from pardon.batch.backend import Array, is_numpy, namespace, select
from pardon.batch.config import I8, Config, Games, Played, Tables, games_at, numpy_only, one_axis, shaped, tables
from pardon.batch.distinct import distinct_by_outcome
from pardon.batch.squares import _relative_squares, _sides, _square, _wrapped
from pardon.core.board import HOME, START
from pardon.core.cards import SORRY as SORRY_CARD

#: The first lane of each block: the player's own 141, the partner's 141, the mixed splits.
OWN: Final = 0
PARTNERS: Final = ACTIONS  # 141
MIXED: Final = 2 * ACTIONS  # 282
#: A mixed split's lanes: (first member, its slot i, second slot j, first part k).
MIXED_SPLITS: Final = 2 * SLOTS * SLOTS * SPLIT_COUNTS  # 192
TEAM_ACTIONS: Final = MIXED + MIXED_SPLITS  # 474
#: The partner sits 2 seats on.
PARTNER_SEAT: Final = 2
#: Where a block's lanes aimed at the partner's pawns begin, among the opponents (counted
#: from the mover) that a switch or a Sorry! names.
_PARTNERS_PAWNS: Final = (PARTNER_SEAT - 1) * SLOTS


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


def turned(games: Games) -> Games:
    """The games seen from the partner's seat: its pawns first (seats 2 on), its turn."""
    xp = namespace(games.pawns)
    pawns = xp.concatenate([games.pawns[PARTNER_SEAT:], games.pawns[:PARTNER_SEAT]])
    return games._replace(pawns=pawns, turn=((games.turn + I8(PARTNER_SEAT)) % I8(4)).astype(xp.int8))


def _roll(pawns: Array, member: Array) -> Array:
    """Each game's pawns seen from its ``member`` (0: the player; 1: the partner)."""
    xp = namespace(pawns)
    rolled = xp.concatenate([pawns[PARTNER_SEAT:], pawns[:PARTNER_SEAT]])
    return xp.where(xp.asarray(member).astype(bool)[None, None], rolled, pawns)


def _on_player(pawns: Array, sides: Array, landing: Array) -> Array:
    """Whether ``landing`` (any shape ending in the batch), a distance of the partner's seen
    from its seat (``pawns`` too), is a track square where one of the player's pawns stands."""
    player = _relative_squares(pawns[PARTNER_SEAT : PARTNER_SEAT + 1], sides[PARTNER_SEAT : PARTNER_SEAT + 1])[0]
    squares = _square(landing)
    found = squares == player[0]
    for slot in range(1, SLOTS):
        found = found | (squares == player[slot])
    return found


def _kept_lanes() -> npt.NDArray[np.bool_]:
    """``(474,)``: the lanes of the two pawn blocks a team may play as the classic ones say,
    before the splits and the pass are worked out: no pass, no split of one member's two
    pawns (a team split is made), no switch or Sorry! onto the partner (2 seats on)."""
    kept = np.ones(TEAM_ACTIONS, dtype=bool)
    for block in (OWN, PARTNERS):
        kept[block + PASS] = False
        kept[block + SPLIT : block + SWITCH] = False
        for slot in range(SLOTS):
            first = block + SWITCH + slot * OPPONENTS * SLOTS + _PARTNERS_PAWNS
            kept[first : first + SLOTS] = False
        first = block + SORRY + _PARTNERS_PAWNS
        kept[first : first + SLOTS] = False
    kept[MIXED:] = False
    return kept


_KEPT: Final = _kept_lanes()
#: Of the opponents' pawns a Sorry! names (counted from the mover), those not the partner's.
_RIVALS_PAWNS: Final = ~np.isin(np.arange(OPPONENTS * SLOTS), np.arange(_PARTNERS_PAWNS, _PARTNERS_PAWNS + SLOTS))


def team_lanes(config: Config, games: Games) -> Array:
    """``(474, games)`` booleans: the legal actions of each game's player to move, for the
    pawns of its team."""
    from pardon.batch.legal import _main_landing, card_lanes

    xp = namespace(games.pawns)
    if games.card.ndim != 1:
        return team_lanes(config, one_axis(games)).reshape((TEAM_ACTIONS, *games.card.shape))
    table = tables(config)
    card = games.card
    mate_games = turned(games)
    own, mate = card_lanes(config, games), card_lanes(config, mate_games)
    sides = _sides(config, games.turn)
    mate_own = mate_games.pawns[0]
    landing = _main_landing(table, mate_own, card)[0]
    moves = mate[MOVE:BACK1] & ~_on_player(mate_games.pawns, sides, landing)
    back1 = mate[BACK1:SPLIT] & ~_on_player(mate_games.pawns, sides, _wrapped(mate_own + I8(1)))
    mate = xp.concatenate([mate[:MOVE], moves, back1, mate[SPLIT:]])
    sorry = _sorry_on_partner(own, mate, games.pawns, card)
    lanes = xp.concatenate([own, mate, xp.zeros((MIXED_SPLITS, card.size), dtype=bool)])
    lanes = (lanes & _KEPT[:, None]) | _split_lanes(config, table, games)
    first = SORRY + _PARTNERS_PAWNS
    lanes = xp.concatenate([lanes[:first], sorry, lanes[first + SLOTS :]])
    forwards = lanes[MOVE:BACK1].any(axis=0) | lanes[PARTNERS + MOVE : PARTNERS + BACK1].any(axis=0)
    used = lanes.any(axis=0)
    passing = select(card == 11, ~forwards, ~used) & (card != 0)
    return xp.concatenate([passing[None], lanes[PASS + 1 :]])


def _sorry_on_partner(own: Array, mate: Array, pawns: Array, card: Array) -> Array:
    """``(4, games)``: a Sorry! from the player's Start onto each of the partner's pawns on the
    track, where no Sorry! can hit an opposing pawn (P92: "if there's no one else to pick
    on"); ``own`` and ``mate``: the classic lanes of the player and of the partner."""
    from pardon.batch.squares import _on_track

    rivals = _RIVALS_PAWNS[:, None]
    opposing = (own[SORRY : SORRY + OPPONENTS * SLOTS] & rivals).any(axis=0)
    opposing = opposing | (mate[SORRY : SORRY + OPPONENTS * SLOTS] & rivals).any(axis=0)
    able = (card == SORRY_CARD) & (pawns[0] == START).any(axis=0) & ~opposing
    return _on_track(pawns[PARTNER_SEAT]) & able


def _split_lanes(config: Config, table: Tables, games: Games) -> Array:
    """``(474, games)``: the legal splits of two team pawns of the games holding a 7, found
    by making each one's parts: on NumPy only the games holding a 7 and the splits whose
    pawns are both out, on JAX every split of every game."""
    xp = namespace(games.pawns)
    count = games.card.size
    if not is_numpy(xp):
        legal = _every_split(config, table, games) & (games.card == 7)[None]
        return xp.concatenate([legal, xp.zeros((1, count), dtype=bool)])[_SPLIT_OF_LANE]  # -1: the row of none
    lanes = np.zeros((TEAM_ACTIONS, count), dtype=bool)
    rows = np.flatnonzero(games.card == 7)
    if not rows.size:
        return lanes
    pawns = games.pawns[..., rows]
    first_member, first, count_of, second_member, second = (TEAM_SPLITS[:, field] for field in range(1, 6))
    # only the splits whose pawns are both out on the board, and the first part not past Home
    seen = np.stack([pawns[0], pawns[PARTNER_SEAT]])  # (member, slot, game)
    start_at = seen[first_member, first]  # (splits, games)
    out = (start_at != HOME) & (start_at != START) & (start_at >= count_of[:, None])
    second_at = seen[second_member, second]
    out &= (second_at != HOME) & (second_at != START)
    split_at, game_at = np.nonzero(out)
    if not split_at.size:
        return lanes
    tried = pawns[..., game_at]
    sides = _sides(config, games.turn[rows][game_at])
    _, _, _, legal = team_split(table, tried, sides, TEAM_SPLITS[split_at, 1:], np.ones(split_at.size, dtype=bool))
    lanes[TEAM_SPLITS[split_at[legal], 0], rows[game_at[legal]]] = True
    return lanes


def _every_split(config: Config, table: Tables, games: Games) -> Array:
    """JAX: ``(336, games)``, whether each split of two team pawns is legal in each game, made
    as :func:`team_split` makes them, the splits on an axis of their own before the games'
    (the games' pawns broadcast, not gathered)."""
    xp = namespace(games.pawns)
    shape = (len(TEAM_SPLITS), games.card.size)
    pawns = xp.broadcast_to(games.pawns[:, :, None, :], games.pawns.shape[:2] + shape)
    sides = _sides(config, xp.broadcast_to(games.turn[None], shape))
    split = TEAM_SPLITS[:, 1:, None]  # (336, 5, 1): each field broadcast along the games
    _, _, _, legal = team_split(table, pawns, sides, split, xp.ones(shape, dtype=bool))
    return legal


def _part(
    table: Tables, pawns: Array, sides: Array, member: Array, slot: Array, count: Array, acting: Array
) -> tuple[Array, Array, Array, Array]:
    """One part of a split: ``member``'s pawn in ``slot`` forward ``count`` where it is
    legal now (and ``acting``).  Returns the pawns, bumps, slides, and whether it was legal."""
    from pardon.batch.legal import _blocked
    from pardon.batch.play import _land, _pick

    xp = namespace(slot)
    frame = _roll(pawns, member)
    moving = xp.asarray(np.arange(SLOTS, dtype=np.int8)).reshape((SLOTS,) + (1,) * slot.ndim) == slot[None]
    origin = _pick(frame[0], moving)
    landing = (origin - count).astype(np.int8)
    legal = (origin != HOME) & (origin != START) & (landing >= HOME)
    legal = legal & ~_blocked(frame[0], landing)
    legal = legal & ~((member == 1) & _on_player(frame, sides, landing))
    frame, bumps, slides = _land(table, frame, sides, moving, landing, acting & legal)
    return _roll(frame, member), bumps, slides, legal


def team_split(
    table: Tables, pawns: Array, sides: Array, split: Array, acting: Array
) -> tuple[Array, Array, Array, Array]:
    """Each game's split 7 (``split``: rows of first member, slot, count, second member,
    slot) made part after part: the pawns, bumps, slides, and whether both parts were legal
    when made (the pawns are the games' own where not ``acting`` or not legal)."""
    xp = namespace(pawns, split)
    first_member, first, count, second_member, second = (split[:, field] for field in range(5))
    after, bumps, slides, legal = _part(table, pawns, sides, first_member, first, count, acting)
    after, more_bumps, more_slides, second_legal = _part(
        table, after, sides, second_member, second, 7 - count, acting & legal
    )
    legal = legal & second_legal
    made = acting & legal
    return (
        xp.where(made[None, None], after, pawns),
        xp.where(made, bumps + more_bumps, 0).astype(xp.int8),
        xp.where(made, slides + more_slides, 0).astype(xp.int8),
        legal,
    )


def play_team(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action (0–473) played for its team (trusted: one of :func:`team_lanes`),
    the game ended if the team has every pawn Home, and the turn passed on (the same player
    again after a 2 with ``draw_again_on_2``).  With ``advance=False`` only the pawns move.
    NumPy plays each kind of action only in the games making it; JAX plays each in every
    game and selects."""
    from pardon.batch.play import _action_index, _advance

    xp = namespace(games.pawns)
    index = _action_index(xp, games.card, actions, TEAM_ACTIONS)
    if games.card.ndim != 1:
        return shaped(*play_team(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    playing = games.winner < 0
    split_of = xp.take(xp.asarray(_SPLIT_OF_LANE), index)
    block = select(split_of >= 0, np.int32(2), xp.minimum(index // PARTNERS, 2).astype(xp.int32))
    moves = (block == 0) & (index != PASS) & playing, (block == 1) & (index != PARTNERS) & playing
    splits = (block == 2) & playing
    made = _played_everywhere if not is_numpy(xp) else _played_where_made
    pawns, bumps, slides = made(config, games, index, split_of, moves, splits)
    played = Played(games.card, bumps, slides, (index == PASS) & playing)
    moved = games._replace(pawns=pawns)
    if not advance:
        return moved, played
    again = (games.card == 2) if tables(config).draw_again_on_2 else xp.zeros_like(playing)
    return _advance(config, moved, playing, again), played


def _played_where_made(
    config: Config, games: Games, index: Array, split_of: Array, moves: tuple[Array, Array], splits: Array
) -> tuple[Array, Array, Array]:
    """NumPy: the pawns, bumps and slides after each game's action, each kind played only in
    the games making it (``moves``: a pawn of the player, of the partner; ``splits``)."""
    pawns = np.array(games.pawns)
    bumps = np.zeros(index.shape, dtype=np.int8)
    slides = np.zeros(index.shape, dtype=np.int8)
    for member in (0, 1):  # the moves of one pawn, as the member would make them
        rows = np.flatnonzero(moves[member])
        if rows.size:
            _play_member(config, games, rows, index[rows] - member * PARTNERS, member, (pawns, bumps, slides))
    rows = np.flatnonzero(splits)
    if rows.size:
        sides = _sides(config, games.turn[rows])
        split = TEAM_SPLITS[split_of[rows], 1:]
        made = team_split(tables(config), pawns[..., rows], sides, split, np.ones(rows.size, bool))
        pawns[..., rows], bumps[rows], slides[rows] = made[:3]
    return pawns, bumps, slides


def _played_everywhere(
    config: Config, games: Games, index: Array, split_of: Array, moves: tuple[Array, Array], splits: Array
) -> tuple[Array, Array, Array]:
    """JAX: :func:`_played_where_made`, each kind played in every game (a pass where the game
    makes another) and the one it makes kept."""
    from pardon.batch.play import play_card

    xp = namespace(games.pawns)
    pawns, bumps, slides = games.pawns, xp.zeros(index.shape, xp.int8), xp.zeros(index.shape, xp.int8)
    for member in (0, 1):
        seen = turned(games) if member else games
        after, played = play_card(
            config, seen, select(moves[member], index - member * PARTNERS, np.int32(0)), advance=False
        )
        after_pawns = turned(after).pawns if member else after.pawns
        pawns = select(moves[member], after_pawns, pawns)
        bumps, slides = select(moves[member], played.bumps, bumps), select(moves[member], played.slides, slides)
    split = xp.take(xp.asarray(TEAM_SPLITS[:, 1:]), xp.maximum(split_of, 0), axis=0)
    made = team_split(tables(config), games.pawns, _sides(config, games.turn), split, splits)
    return (
        select(splits, made[0], pawns),
        select(splits, made[1], bumps),
        select(splits, made[2], slides),
    )


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
    numpy_only(games, "the partners game's distinct moves")
    if lanes is None:
        lanes = team_lanes(config, games)
    if games.card.ndim != 1:
        flat = np.reshape(lanes, (TEAM_ACTIONS, -1))
        return team_distinct_lanes(config, one_axis(games), flat).reshape(np.shape(lanes))
    return distinct_by_outcome(games, lanes, lambda tried, actions: play_team(config, tried, actions, advance=False)[0])
