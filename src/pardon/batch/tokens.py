"""Fire and Ice in the batch engine (docs/rules.md: "The 2013 edition"; the core's
:mod:`pardon.core.tokens`), as in the ``modern`` preset.

* **Ice**: a 1 first puts the Ice on an opponent's pawn on the track (compulsory; back to the
  centre when there is none).  The iced pawn cannot move or be moved, bumped, switched, hit by
  a Sorry! or swept off by a slide, and no pawn may land on its square (a slide passing over it
  leaves it there; one that would end on it is not allowed).
* **Fire**: a 2 may first put the Fire on one of the player's pawns out of Start and not Home.
  Before drawing, the owner of the Fire pawn may move it forward to the next corner strictly
  ahead, bumping an opponent there.  When the Fire pawn comes Home its owner may send one other
  pawn of the track or the Safety Zone straight Home; the Fire returns to the centre, as it does
  when its pawn is sent to Start.

A token sits on a pawn named by its seat and slot (``Games.extras`` rows ``ICE`` and ``FIRE``;
a pawn keeps its slot all game, so a token follows its pawn).  An action is one of 1,107
(``config.actions``):

=============  ===========================================================================
0–140          the card's move (:mod:`pardon.batch.actions`), no token placed (a 1 with no
               opponent on the track: the Ice goes back to the centre)
141–200        a 1: the Ice on the pawn ``t`` (``4 (o - 1) + s``: slot s of the player o
               seats on), then ``m`` (0 the pass, 1–4 slot m - 1 forward):
               ``141 + 5 t + m``
201–220        a 2: the Fire on the player's slot ``f``, then ``m``: ``201 + 5 f + m``
221–1104       one of those 221 moves ``u`` that brings the Fire pawn Home, then the
               player's slot ``b`` straight Home: ``221 + 4 u + b`` (``u`` alone: no pawn sent)
1105, 1106     before the draw: go on to the draw; move the Fire pawn to the next corner
=============  ===========================================================================

Fire and Ice are worked out by making every candidate move with the classic rules and keeping
those the tokens allow, as the core does: NumPy makes only each game's candidates, JAX
(:class:`~pardon.batch.jax_env.SorryJax`) all 221 moves in every game.  The distinct moves
(NumPy) are found by comparing what the legal moves make, tokens included.  The card's moves
(:func:`token_card_lanes`, :func:`play_token_card`: 0–1104) are an edition of the card, which a
hand of five plays in each of its 11 blocks; the decisions before the draw come after the
card's actions (:func:`token_lanes`, :func:`play_tokens`: 1105 and 1106; with doubling the jump
is doubling's fifth decision, :mod:`pardon.batch.doubling`).

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games, random_moves, step
>>> config = Config.parse("modern", 2)
>>> games = new_games(config, np.arange(4, dtype=np.uint32))
>>> config.actions, describe_token_action(141 + 5 * 2 + 1)
(1107, 'put the Ice on slot 2 of the next player, then: move slot 0')
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_moves(config, games))
>>> games.winner.tolist(), games.drawn.tolist()  # the same seeds, the same games
([1, 1, 0, 1], [176, 124, 145, 116])
"""

from __future__ import annotations

from typing import Final

import numpy as np

from pardon.batch.actions import ACTIONS, DECODED, OPPONENTS, SLOTS, describe_action
from pardon.batch.backend import Array, is_numpy, namespace, select
from pardon.batch.config import (
    BEFORE_DRAW,
    CARD_STAGE,
    DECIDED,
    FIRE,
    FIRED,
    I8,
    I16,
    ICE,
    STAGE,
    Config,
    Games,
    Played,
    games_at,
    numpy_only,
    one_axis,
    shaped,
    tables,
    with_rows,
)
from pardon.batch.distinct import distinct_by_outcome
from pardon.batch.squares import _on_track, _relative_squares, _sides, _square, _wrapped
from pardon.batch.stages import nothing_played, play_stages
from pardon.core.board import FIRST_TRACK, HOME, START

CENTRE: Final = -1
#: A token's move: the pass, or one of the four pawns forward (a 1's and a 2's moves).
PER_TOKEN: Final = 1 + SLOTS
ICE_BLOCK: Final = ACTIONS  # 141
ICE_TARGETS: Final = OPPONENTS * SLOTS  # 12
FIRE_BLOCK: Final = ICE_BLOCK + ICE_TARGETS * PER_TOKEN  # 201
#: The moves without a pawn sent straight Home (each may have up to four with one).
MOVES: Final = FIRE_BLOCK + SLOTS * PER_TOKEN  # 221
BONUS_BLOCK: Final = MOVES
#: A card's actions: its 221 moves, then those sending a pawn straight Home.
CARD_MOVES: Final = BONUS_BLOCK + MOVES * SLOTS  # 1105
GO_ON: Final = CARD_MOVES
FIRE_JUMP: Final = GO_ON + 1
TOKEN_ACTIONS: Final = FIRE_JUMP + 1  # 1107
_KIND, _SLOT, _SECOND, _PART, _OPPONENT, _TARGET = range(6)
_MOVE_KIND, _BACK1_KIND, _SPLIT_KIND, _SWITCH_KIND, _SORRY_KIND = 1, 2, 3, 4, 5


def _decode_moves() -> np.ndarray:
    """``(3, 221)``: each move's Ice target (-1: none), Fire slot (-1: none) and card action."""
    table = np.full((3, MOVES), -1, dtype=np.int16)
    table[2, :ACTIONS] = np.arange(ACTIONS)
    for lane in range(ICE_BLOCK, FIRE_BLOCK):
        table[0, lane], table[2, lane] = divmod(lane - ICE_BLOCK, PER_TOKEN)
    for lane in range(FIRE_BLOCK, MOVES):
        table[1, lane], table[2, lane] = divmod(lane - FIRE_BLOCK, PER_TOKEN)
    return table


_MOVE_OF: Final = _decode_moves()


def describe_token_action(action: int) -> str:
    """A Fire and Ice game's action in words."""
    if not 0 <= action < TOKEN_ACTIONS:
        raise ValueError(f"no action {action}: with Fire and Ice actions are numbered 0 to {TOKEN_ACTIONS - 1}")
    if action == GO_ON:
        return "go on to the draw"
    if action == FIRE_JUMP:
        return "move the Fire pawn to the next corner"
    move, bonus = (action, -1) if action < MOVES else divmod(action - BONUS_BLOCK, SLOTS)
    target, fire, card_action = (int(value) for value in _MOVE_OF[:, move])
    said = describe_action(card_action)
    if target >= 0:
        opponent, slot = divmod(target, SLOTS)
        whose = "the next player" if opponent == 0 else f"the player {opponent + 1} seats on"
        said = f"put the Ice on slot {slot} of {whose}, then: {said}"
    elif fire >= 0:
        said = f"put the Fire on slot {fire}, then: {said}"
    return said if bonus < 0 else f"{said}; then slot {bonus} straight Home"


# --- where the tokens are ------------------------------------------------------------------


def token_pawn(config: Config, games: Games, row: int) -> tuple[Array, Array]:
    """The pawn a token (``row``: ``ICE`` or ``FIRE``) sits on, as its seat counted from the
    player to move and its slot; -1 and -1 in the centre."""
    xp = namespace(games.pawns)
    at = games.extras[row].astype(xp.int32)
    seat = xp.where(at >= 0, (at // SLOTS - games.turn) % config.players, -1)
    return seat, xp.where(at >= 0, at % SLOTS, -1)


def _marked(config: Config, seat: Array, slot: Array) -> Array:
    """``(players, 4, n)``: the one pawn of ``seat`` and ``slot`` (none where -1)."""
    xp = namespace(seat)
    seats = xp.asarray(np.arange(config.players)[:, None, None])
    slots = xp.asarray(np.arange(SLOTS)[None, :, None])
    return (seats == seat[None, None]) & (slots == slot[None, None]) & (seat >= 0)[None, None]


def _absolute(config: Config, games: Games, seat: Array, slot: Array) -> Array:
    """A pawn of ``seat`` (counted from the player to move) and ``slot`` as a token's row value."""
    xp = namespace(seat)
    return xp.where(seat >= 0, ((games.turn + seat) % config.players) * SLOTS + slot, CENTRE).astype(xp.int16)


# --- the moves ------------------------------------------------------------------------------


def _made(config: Config, games: Games, move: Array, bonus: Array) -> tuple[Games, Played, Array, Array]:
    """Each game's ``move`` (0–220) and ``bonus`` slot (-1: none) made, the turn not passed
    on: the games after it (tokens placed and followed), what it did, whether the tokens allow
    it, and ``(4, n)`` which other pawns may go straight Home (where it brings the Fire pawn Home)."""
    from pardon.batch.play import _pick, play_card

    xp = namespace(games.pawns, move)
    target, fire_slot, action = (xp.take(xp.asarray(_MOVE_OF[row]), move).astype(xp.int32) for row in range(3))
    card = games.card
    ice_seat, ice_slot = token_pawn(config, games, ICE)
    placing = card == 1
    ice_seat = xp.where(placing, xp.where(target >= 0, target // SLOTS + 1, -1), ice_seat)
    ice_slot = xp.where(placing, xp.where(target >= 0, target % SLOTS, -1), ice_slot)
    fire_seat, fire_pawn = token_pawn(config, games, FIRE)
    fire_seat = xp.where(fire_slot >= 0, 0, fire_seat)
    fire_pawn = xp.where(fire_slot >= 0, fire_slot, fire_pawn)
    iced = _marked(config, ice_seat, ice_slot)
    allowed = ~_touches(config, games, action, iced)
    after, played = play_card(config, games, action, advance=False)
    pawns: Array = after.pawns
    swept = iced & (pawns == START) & (games.pawns != START)  # a slide swept the iced pawn: it stays
    pawns = xp.where(swept, games.pawns, pawns)
    bumps = played.bumps - swept.reshape((-1, swept.shape[-1])).sum(axis=0).astype(xp.int8)
    allowed = allowed & ~_taken_twice(config, games, pawns, iced)
    fire = _marked(config, fire_seat, fire_pawn)
    fire_at = _pick(pawns.reshape((-1, pawns.shape[-1])), fire.reshape((-1, pawns.shape[-1])))
    fire_home = (fire_seat == 0) & (fire_at == HOME)
    fire_gone = (fire_seat >= 0) & ((fire_at == START) | (fire_at == HOME))
    won = (pawns[0] == HOME).all(axis=0)
    own = pawns[0]
    eligible = fire_home & ~won & (own > HOME) & (own < START) & ~iced[0]
    sent = (xp.asarray(np.arange(SLOTS)[:, None]) == bonus[None]) & eligible
    allowed = allowed & ((bonus < 0) | sent.any(axis=0))
    pawns = xp.concatenate([xp.where(sent, I8(HOME), own)[None], pawns[1:]])
    ice = _absolute(config, games, ice_seat, ice_slot)
    fire_at_now = xp.where(fire_gone, CENTRE, _absolute(config, games, fire_seat, fire_pawn))
    extras = with_rows(games.extras, {ICE: ice, FIRE: fire_at_now})
    moved = games._replace(pawns=pawns, extras=extras)
    return moved, played._replace(bumps=bumps), allowed, eligible


def _touches(config: Config, games: Games, action: Array, iced: Array) -> Array:
    """Whether ``action`` moves the iced pawn, acts on it (a switch, a Sorry!), or lands a pawn
    on its square (each part of a split 7), which is blocked even to a pawn sliding on from it."""
    from pardon.batch.legal import _main_landing
    from pardon.batch.play import _pick

    xp = namespace(games.pawns, action)
    fields = (xp.take(xp.asarray(DECODED[field]), action).astype(xp.int32) for field in range(6))
    kind, slot, second, part, opponent, target = fields
    own = games.pawns[0]
    slots = xp.asarray(np.arange(SLOTS)[:, None])
    moving = (slots == slot[None]) | ((slots == second[None]) & (kind == _SPLIT_KIND)[None])
    touched = (iced[0] & moving).any(axis=0)
    targets = (xp.asarray(np.arange(config.players)[:, None, None]) == opponent[None, None]) & (
        xp.asarray(np.arange(SLOTS)[None, :, None]) == target[None, None]
    )
    touched = touched | (((kind == _SWITCH_KIND) | (kind == _SORRY_KIND)) & (iced & targets).any(axis=(0, 1)))
    sides = _sides(config, games.turn)
    ice_square = _iced_square(games.pawns, sides, iced)
    origin = _pick(own, slots == xp.maximum(slot, 0)[None])
    landing = xp.where(
        kind == _MOVE_KIND,
        _main_landing(tables(config), origin[None], games.card)[0][0],
        xp.where(kind == _BACK1_KIND, _wrapped(origin + I8(1)), origin - part),
    )
    lands = ((kind == _MOVE_KIND) | (kind == _BACK1_KIND) | (kind == _SPLIT_KIND)) & (_square(landing) == ice_square)
    second_origin = _pick(own, slots == xp.maximum(second, 0)[None])
    second_landing = (second_origin - (7 - part)).astype(xp.int8)
    lands = lands | ((kind == _SPLIT_KIND) & (_square(second_landing) == ice_square))
    return touched | lands


def _iced_square(pawns: Array, sides: Array, iced: Array) -> Array:
    """The relative square of the iced pawn of each game (one marked in ``iced``), -1 where
    no pawn is iced."""
    xp = namespace(pawns)
    squares = _relative_squares(pawns, sides).astype(xp.int32)
    return xp.where(iced.any(axis=(0, 1)), xp.where(iced, squares, 0).sum(axis=(0, 1)), -1)


def _taken_twice(config: Config, games: Games, pawns: Array, iced: Array) -> Array:
    """Whether a pawn other than the iced one ended on its square (after a slide)."""
    sides = _sides(config, games.turn)
    squares = _relative_squares(pawns, sides)
    ice_square = _iced_square(pawns, sides, iced)
    return ((squares == ice_square[None, None]) & ~iced).any(axis=(0, 1))


def _candidates(config: Config, games: Games) -> Array:
    """``(221, n)``: the moves worth making, the card's classic lanes under each token placement
    (every pass: whether a group's pass is legal is decided once its moves are known)."""
    from pardon.batch.legal import card_lanes

    xp = namespace(games.pawns)
    card = games.card
    lanes = xp.asarray(card_lanes(config, games))
    playing = (games.winner < 0) & (card != 0)
    on_track = _on_track(games.pawns[1:]).reshape((-1, card.size))
    targets = xp.concatenate([on_track, xp.zeros((ICE_TARGETS - on_track.shape[0], card.size), dtype=bool)])
    icing = (card == 1) & targets.any(axis=0)
    blocks = [(playing & ~icing)[None], lanes[1:ACTIONS] & ~icing[None]]
    first = xp.concatenate([xp.ones((1, card.size), dtype=bool), lanes[1:PER_TOKEN]])
    for target in range(ICE_TARGETS):
        blocks.append(first & (targets[target] & (card == 1) & playing)[None])
    fire_seat, fire_slot = token_pawn(config, games, FIRE)
    own = games.pawns[0]
    for slot in range(SLOTS):
        free = (own[slot] > HOME) & (own[slot] < START) & ~((fire_seat == 0) & (fire_slot == slot))
        blocks.append(first & (free & (card == 2) & playing)[None])
    return xp.concatenate(blocks)


def _groups() -> list[tuple[int, int]]:
    """The first lane and size of each group of moves with one token placement."""
    return [(0, ACTIONS)] + [(start, PER_TOKEN) for start in range(ICE_BLOCK, MOVES, PER_TOKEN)]


def _with_passes(legal: Array, candidates: Array, card: Array) -> Array:
    """``legal`` (``(221, n)``) with each group's pass legal where the group has no other move
    (an 11: no forward move) and the pass is a candidate."""
    xp = namespace(legal)
    rows = []
    for start, size in _groups():
        group = legal[start : start + size]
        alone = ~group[1:].any(axis=0) | ((card == 11) & ~group[1 : 1 + SLOTS].any(axis=0))
        rows += [(candidates[start] & alone)[None], group[1:]]
    return xp.concatenate(rows)


def token_card_lanes(config: Config, games: Games) -> Array:
    """``(1105, *batch)``: the legal moves of each game's card (none where it has none), the
    tokens placed and followed: its 221 moves, then those sending a pawn straight Home."""
    xp = namespace(games.pawns)
    if games.card.ndim != 1:
        lanes = token_card_lanes(config, one_axis(games))
        return xp.reshape(lanes, (CARD_MOVES, *games.card.shape))
    tried = _tried_everywhere if not is_numpy(xp) else _tried_where_candidates
    legal, bonus = tried(config, games, _candidates(config, games))
    return xp.concatenate([legal, bonus])


def token_lanes(config: Config, games: Games) -> Array:
    """``(config.actions, *batch)``: the legal actions of each game's player to move: the
    card's moves (:func:`token_card_lanes`, or with hands of five the hand's) where the turn is
    at its card, then going on and the Fire pawn's move where it is before the draw."""
    from pardon.batch.editions import card_edition

    xp = namespace(games.pawns)
    playing = games.winner < 0
    at_card = (games.extras[STAGE] == CARD_STAGE) & playing
    before = (games.extras[STAGE] == BEFORE_DRAW) & playing
    # the card's lanes of the games at their card only: the others as if over (none worked out)
    at_card_only = games._replace(winner=select(at_card | ~playing, games.winner, I8(0)))
    card = card_edition(config).lanes(config, at_card_only)
    return xp.concatenate([card, before[None], before[None]])


def _tried_where_candidates(config: Config, games: Games, candidates: Array) -> tuple[Array, Array]:
    """NumPy: the legal moves (``(221, n)``) and the legal lanes sending a pawn Home (``(884,
    n)``), each game's candidates made."""
    count = games.card.size
    legal = np.zeros_like(candidates)
    bonus = np.zeros((MOVES * SLOTS, count), dtype=bool)
    moves, rows = np.nonzero(candidates)
    if not rows.size:
        return legal, bonus
    _, _, allowed, eligible = _made(config, games_at(games, rows), moves, np.full(rows.size, -1))
    legal[moves[allowed], rows[allowed]] = True
    legal = _with_passes(legal, candidates, games.card)
    slot, place = np.nonzero(eligible & legal[moves, rows][None])
    bonus[moves[place] * SLOTS + slot, rows[place]] = True
    return legal, bonus


def _tried_everywhere(config: Config, games: Games, candidates: Array) -> tuple[Array, Array]:
    """JAX: :func:`_tried_where_candidates`, every one of the 221 moves made in every game."""
    xp = namespace(games.pawns)
    count = games.card.size
    game = xp.tile(xp.arange(count, dtype=xp.int32), MOVES)
    move = xp.repeat(xp.arange(MOVES, dtype=xp.int32), count)
    tried = Games(*(xp.take(field, game, axis=-1) for field in games))
    _, _, allowed, eligible = _made(config, tried, move, xp.full(game.size, -1, dtype=xp.int32))
    legal = _with_passes(candidates & allowed.reshape((MOVES, count)), candidates, games.card)
    bonus = eligible.reshape((SLOTS, MOVES, count)) & legal[None]
    return legal, xp.transpose(bonus, (1, 0, 2)).reshape((MOVES * SLOTS, count))


def fire_jump(config: Config, games: Games) -> tuple[Array, Array, Array]:
    """Each game's Fire jump before the draw: whether its player may make it, the Fire pawn's
    slot and the corner's distance (the next corner strictly ahead, short of the Safety Zone,
    not the iced pawn's square nor one of the player's pawns')."""
    from pardon.batch.play import _pick

    xp = namespace(games.pawns)
    fire_seat, fire_slot = token_pawn(config, games, FIRE)
    own = games.pawns[0]
    at = _pick(own, xp.asarray(np.arange(SLOTS)[:, None]) == xp.maximum(fire_slot, 0)[None])
    square = _square(at).astype(xp.int32)
    ahead = 15 - square % 15  # a corner every 15 squares: strictly ahead
    corner = (at - ahead).astype(xp.int8)
    ice_seat, ice_slot = token_pawn(config, games, ICE)
    iced = _marked(config, ice_seat, ice_slot)
    sides = _sides(config, games.turn)
    ice_square = _iced_square(games.pawns, sides, iced)
    fire_iced = (ice_seat == 0) & (ice_slot == fire_slot)
    own_there = (own == corner[None]).any(axis=0)
    able = (fire_seat == 0) & _on_track(at) & (corner >= FIRST_TRACK) & ~fire_iced
    able = able & ~own_there & (_square(corner) != ice_square) & (games.winner < 0)
    return able, fire_slot, corner


def _jumped(config: Config, games: Games) -> tuple[Games, Array]:
    """The Fire pawn moved to its corner, an opponent there bumped; and how many were bumped."""
    from pardon.batch.play import _land

    xp = namespace(games.pawns)
    able, fire_slot, corner = fire_jump(config, games)
    moving = xp.asarray(np.arange(SLOTS)[:, None]) == fire_slot[None]
    sides = _sides(config, games.turn)
    pawns, bumps, _ = _land(tables(config), games.pawns, sides, moving, corner, able)
    return games._replace(pawns=pawns), bumps


# --- playing ----------------------------------------------------------------------------------


def play_token_card(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's card played with its action (0–1104, trusted: one of
    :func:`token_card_lanes`): its move, the tokens placed and followed, a pawn sent Home;
    then the turn passed on.  With ``advance=False`` only the pawns and tokens move."""
    from pardon.batch.play import _action_index, _advance

    xp = namespace(games.pawns)
    index = _action_index(xp, games.card, actions, CARD_MOVES)
    if games.card.ndim != 1:
        return shaped(*play_token_card(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    playing = games.winner < 0
    move = xp.where(index < MOVES, index, (index - BONUS_BLOCK) // SLOTS)
    bonus = xp.where(index >= BONUS_BLOCK, (index - BONUS_BLOCK) % SLOTS, -1)
    moved, played, _, _ = _made(config, games, move, bonus)
    # a card that moves no pawn but places a token, or brings the Ice back from a pawn, is used
    # (the core's move has the token's action: it is no pass)
    token_used = (index >= ACTIONS) | ((games.card == 1) & (games.extras[ICE] >= 0))
    played = played._replace(forfeit=played.forfeit & ~token_used)
    if not advance:
        return moved, played
    again = (games.card == 2) if config.rules.draw_again_on_2 else xp.zeros_like(playing)
    return _advance(config, moved, playing, again), played


def play_tokens(config: Config, games: Games, actions: Array, advance: bool = True) -> tuple[Games, Played]:
    """Each game's action played (trusted: one of :func:`token_lanes`): at its card, the card's
    (:func:`play_token_card`, or with hands of five the hand's), then the turn passed on, the
    next player's turn beginning before the draw where it may move the Fire pawn.  Before the
    draw: going on, or the Fire pawn to its corner.  With ``advance=False`` only the pawns and
    tokens move."""
    from pardon.batch.editions import card_edition
    from pardon.batch.play import _action_index

    xp = namespace(games.pawns)
    index = _action_index(xp, games.card, actions, config.actions)
    if games.card.ndim != 1:
        return shaped(*play_tokens(config, one_axis(games), index.reshape(-1), advance), games.card.shape)
    at_card = games.extras[STAGE] == CARD_STAGE

    def card_played(some: Games, chosen: Array) -> tuple[Games, Played]:
        moved, played = card_edition(config).play(config, some, chosen, advance)
        if not advance:
            return moved, played
        new_turn = (moved.turn != some.turn) & (moved.winner < 0)
        able, _, _ = fire_jump(config, moved)
        before = new_turn & able
        zero = xp.zeros_like(moved.extras[DECIDED])
        extras = with_rows(
            moved.extras,
            {STAGE: xp.where(before, BEFORE_DRAW, moved.extras[STAGE]), DECIDED: zero, FIRED: zero},
        )
        return moved._replace(extras=extras, card=xp.zeros_like(moved.card)), played

    def decided(some: Games, decision: Array) -> tuple[Games, Played]:
        jumping = decision == FIRE_JUMP - GO_ON  # else going on to the draw
        pawns, bumps = with_fire_moved(config, some, jumping)
        stage = xp.full_like(some.extras[STAGE], CARD_STAGE)
        extras = with_rows(
            some.extras,
            {STAGE: stage, DECIDED: some.extras[DECIDED] + 1, FIRED: select(jumping, I16(1), some.extras[FIRED])},
        )
        nothing = nothing_played(some)
        return some._replace(pawns=pawns, extras=extras), nothing._replace(bumps=bumps)

    return play_stages(games, index, config.card_actions, at_card, card_played, decided)


def with_fire_moved(config: Config, games: Games, moving: Array) -> tuple[Array, Array]:
    """The pawns of ``games`` with the Fire pawn moved to its corner where ``moving``, and the
    pawns bumped there (NumPy moves only those games, JAX every game and selects)."""
    xp = namespace(games.pawns)
    bumps = xp.zeros(games.card.shape, dtype=xp.int8)
    if not is_numpy(xp):
        jumped, bumped = _jumped(config, games)
        return select(moving, jumped.pawns, games.pawns), select(moving, bumped.astype(xp.int8), bumps)
    if not moving.any():
        return games.pawns, bumps
    rows = np.flatnonzero(moving)
    jumped, bumped = _jumped(config, games_at(games, rows))
    pawns = np.array(games.pawns)
    pawns[..., rows] = jumped.pawns
    bumps[rows] = bumped
    return pawns, bumps


# --- distinct moves -----------------------------------------------------------------------------


def token_card_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(1105, games)``: the card's legal lanes (or ``lanes``), only the lowest of those that
    leave the same pawns and tokens (found by making each): one lane for each of the core's
    legal moves of the card."""
    numpy_only(games, "Fire and Ice")
    if lanes is None:
        lanes = token_card_lanes(config, games)
    if games.card.ndim != 1:
        flat = np.reshape(lanes, (CARD_MOVES, -1))
        return token_card_distinct_lanes(config, one_axis(games), flat).reshape(np.shape(lanes))

    def made(tried: Games, actions: Array) -> Games:
        return play_token_card(config, tried, actions, advance=False)[0]

    def tokens(after: Games) -> list[Array]:
        return [_token_key(config, after, row).astype(np.uint64) for row in (ICE, FIRE)]

    return distinct_by_outcome(games, np.asarray(lanes, dtype=bool), made, tokens)


def token_distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(config.actions, games)``: the legal lanes (or ``lanes``), only the lowest of those
    that make the same move: the card's (:func:`token_card_distinct_lanes`, or the hand's),
    the two decisions before the draw each its own (never alike)."""
    from pardon.batch.editions import card_edition

    numpy_only(games, "Fire and Ice")
    if lanes is None:
        lanes = token_lanes(config, games)
    base = config.card_actions
    kept = np.array(lanes, dtype=bool)
    at_card = kept[:base].any(axis=0)
    if at_card.any():
        kept[:base] = card_edition(config).distinct(config, games, kept[:base])
    return kept


def _token_key(config: Config, games: Games, row: int) -> Array:
    """A token's place as an outcome tells it: its pawn's seat and distance (pawns of a seat are
    alike), 0 in the centre."""
    from pardon.batch.play import _pick

    seat, slot = token_pawn(config, games, row)
    marked = _marked(config, seat, slot).reshape((-1, seat.size))
    distance = _pick(games.pawns.reshape((-1, seat.size)), marked).astype(np.int32)
    return np.where(seat >= 0, 1 + seat * 67 + distance, 0)
