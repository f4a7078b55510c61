"""Between the batch engine and the core: one game of a batch as a core position or
state, and the batch action that makes a core move.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games
>>> config = Config.parse("classic", 2)
>>> games = new_games(config, np.array([7], dtype=np.uint32))
>>> state = core_state(config, games, 0)
>>> state.card, len(state.pack.draw_pile), state.position.pawns[0]
(12, 44, (66, 66, 66, 66))
>>> state.pack.discards  # the card drawn is on top
(12,)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from pardon.batch.actions import ACTIONS
from pardon.batch.config import (
    ACCEPTED,
    ANSWERER,
    ANSWERING,
    BEFORE_DRAW,
    DOUBLINGS,
    FIRE,
    FIRED,
    ICE,
    OUT,
    STAGE,
    games_at,
    splits_any,
)
from pardon.batch.doubling import ACCEPT as ACCEPT_LANE
from pardon.batch.doubling import DECISION_NAMES, FIRE_MOVE, GO_ON
from pardon.batch.doubling import DOUBLE as DOUBLE_LANE
from pardon.batch.doubling import DROP as DROP_LANE
from pardon.batch.engine import Config, Games, legal_lanes, play
from pardon.batch.hands import card_moves
from pardon.batch.split_any import ANY_ACTIONS, FIRST_PART
from pardon.core import turn as core_turn
from pardon.core.cards import CARDS, DECKS, NO_CARD, Pack
from pardon.core.hands import with_hand
from pardon.core.moves import ACCEPT, DOUBLE, DROP, STEP, Move
from pardon.core.state import Position
from pardon.core.turn import GameState

#: A position as the cross-check compares it: every colour's pawns (sorted), the colour to
#: move and the winner.
PositionKey = tuple[tuple[tuple[int, ...], ...], int, int | None]


def game(games: Games, index: int) -> Games:
    """Game ``index`` of a batch with one axis of games, as a batch of one."""
    return Games(*(np.asarray(field)[..., index : index + 1] for field in games))


def put_games(games: Games, rows: Any, part: Games) -> Games:
    """``games`` with the games of ``rows`` replaced by ``part`` (a copy)."""
    fields = []
    for whole, new in zip(games, part, strict=True):
        whole = np.array(whole, copy=True)
        whole[..., rows] = new
        fields.append(whole)
    return Games(*fields)


def core_pawns(config: Config, pawns: Any, turn: int) -> tuple[tuple[int, ...], ...]:
    """The pawns of one game (``(players, 4)``, seat 0 to move) by colour, as the core keeps
    them: sorted distances, the unused fourth slot of a 3-pawn game left out."""
    players, kept = config.players, config.rules.pawns
    rows: list[tuple[int, ...]] = [(), (), (), ()]
    for relative in range(players):
        colour = config.seats[(turn + relative) % players]
        row = sorted(int(distance) for distance in pawns[relative])
        rows[colour] = tuple(row[len(row) - kept :])  # a pad pawn is Home, so sorts first
    return tuple(rows)


def core_position(config: Config, games: Games, index: int, so_far: bool = False) -> Position:
    """Game ``index`` as a core :class:`~pardon.core.state.Position` (with hands of five,
    every seat's hand; with a split 7 being made part by part, the position it began from,
    the core's, or with ``so_far`` the pawns as its parts have left them, for showing)."""
    turn = int(games.turn[index])
    winner = int(games.winner[index])
    pawns = core_pawns(config, (np.asarray(games.pawns) if so_far else _pawns_of(config, games))[..., index], turn)
    seats = config.seats
    position = Position(seats, pawns, seats[turn], None if winner < 0 else seats[winner])
    for colour, hand in core_hands(config, games, index).items():
        position = with_hand(position, colour, hand)
    if config.rules.doubling:
        doubling = np.asarray(games.extras)[:, index]
        out = tuple(sorted(seats[seat] for seat in range(config.players) if int(doubling[OUT]) >> seat & 1))
        position = position.with_extras(stake=2 ** int(doubling[DOUBLINGS]), out=out)
    if config.rules.tokens:
        extras = np.asarray(games.extras)[:, index]
        ice, fire = (_token(config, games, index, int(extras[row])) for row in (ICE, FIRE))
        position = position.with_extras(ice=ice, fire=fire)
    return position


def _pawns_of(config: Config, games: Games) -> Any:
    """The games' pawns as the core has them: with a split 7 being made part by part
    (:mod:`pardon.batch.split_any`), as they stood when it began (the core's move is the whole split)."""
    if splits_any(config.rules):
        from pardon.batch.split_any import before_split

        return before_split(games)
    return np.asarray(games.pawns)


def _token(config: Config, games: Games, index: int, at: int) -> tuple[int, int] | None:
    """A token's pawn (``4 * seat + slot``, -1 for the centre) as the core names it: its colour
    and its distance."""
    if at < 0:
        return None
    seat, slot = divmod(at, 4)
    relative = (seat - int(games.turn[index])) % config.players
    return config.seats[seat], int(np.asarray(games.pawns)[relative, slot, index])


def core_hands(config: Config, games: Games, index: int) -> dict[int, tuple[int, ...]]:
    """Game ``index``'s hands by colour, each in rank order (none without hands)."""
    if not config.rules.hand:
        return {}
    turn, players = int(games.turn[index]), config.players
    held = np.asarray(games.hands)[..., index]
    return {config.seats[(turn + relative) % players]: _cards_of(held[relative]) for relative in range(players)}


def _cards_of(counts: Any) -> tuple[int, ...]:
    """Counts of each kind (``CARDS`` order) as the cards, in rank order."""
    return tuple(card for card, count in zip(CARDS, counts, strict=True) for _ in range(int(count)))


def position_key(position: Position) -> PositionKey:
    return position.pawns, position.turn, position.winner


def core_state(config: Config, games: Games, index: int) -> GameState:
    """Game ``index`` as a core :class:`~pardon.core.turn.GameState`, its card drawn.

    The pack has the batch's composition; the order of the cards left is not kept by the
    batch (it is drawn as it goes), so they are listed in rank order, and the discards are
    the rest of the deck, also in rank order but for the card drawn, last (on top, as the
    core keeps it: the searching computer players read it there)."""
    position = core_position(config, games, index)
    pile = _cards_of(np.asarray(games.pack)[:, index])
    card = int(games.card[index])
    held = [card for hand in core_hands(config, games, index).values() for card in hand]
    pack = Pack(pile, _discards(config, (*pile, *held), card), 1)
    state = GameState(position, pack, int(games.seed[index]), card if card else None)
    return _doubling_stage(config, games, index, state) if np.asarray(games.extras).shape[0] else state


def _doubling_stage(config: Config, games: Games, index: int, state: GameState) -> GameState:
    """``state`` at the batch game's stage of the turn: before the draw, or a double being
    answered (by the player answering and those after it still in, whether one has accepted)."""
    doubling = np.asarray(games.extras)[:, index]
    stage, accepted = int(doubling[STAGE]), bool(doubling[ACCEPTED])
    state = state._replace(fired=bool(doubling[FIRED]))  # the Fire pawn moved before this draw
    if not config.rules.doubling:  # Fire and Ice alone: before the draw, or at the card
        return state._replace(stage=core_turn.BEFORE_DRAW) if stage == BEFORE_DRAW else state
    if stage != ANSWERING:  # a double accepted this turn is remembered (then, with Fire and Ice,
        # the turn may be before the draw again, for the Fire pawn's move)
        state = state._replace(accepted=accepted, doubled=accepted)
        return state._replace(stage=core_turn.BEFORE_DRAW) if stage == BEFORE_DRAW else state
    turn, players, out = int(games.turn[index]), config.players, int(doubling[OUT])
    answering = tuple(
        config.seats[(turn + ahead) % players]
        for ahead in range(int(doubling[ANSWERER]), players)
        if not out >> ((turn + ahead) % players) & 1
    )
    return state._replace(stage=core_turn.ANSWERING, answering=answering, accepted=accepted, doubled=True)


def _discards(config: Config, out: tuple[int, ...], card: int) -> tuple[int, ...]:
    """The deck less the cards ``out`` of the discards (the pile, the hands) in rank order, the
    card drawn (0: none) moved to the end."""
    rest = Counter(DECKS[config.rules.deck])
    rest.subtract(out)
    ranked = sorted(rest.elements())
    if card in ranked:  # a drawn card has left the pile (unless a game made by hand swapped it in)
        ranked.remove(card)
    return (*ranked, card) if card else tuple(ranked)


def outcomes(config: Config, games: Games, lanes: Any | None = None) -> dict[tuple[int, int], Any]:
    """The position each legal action of each game leads to: ``{(game, action): key}``
    (:func:`move_key`: with hands of five, the card played and the position; a decision
    without a card, its name).  A part of a split 7 made part by part is not a move and is
    left out (:func:`whole_keys` gives the splits' positions)."""
    if lanes is None:
        lanes = legal_lanes(config, games)
    lanes = np.asarray(lanes)
    if part_actions(config).stop:  # a part of a split 7 is not a move
        lanes = np.array(lanes, copy=True)
        lanes[part_actions(config)] = False
    actions, rows = np.nonzero(lanes)
    if not len(rows):
        return {}
    after, _ = play(config, games_at(games, rows), actions.astype(np.int32))
    block = card_moves(config).actions if config.rules.hand else ACTIONS  # a card's actions in the hand
    found: dict[tuple[int, int], Any] = {}
    for place, (row, action) in enumerate(zip(rows.tolist(), actions.tolist(), strict=True)):
        named = _decision_name(config, action)
        if named is not None:  # a decision without a card: named
            found[row, action] = named
            continue
        position = core_position(config, after, place)
        key: Any = position_key(position)
        if config.rules.tokens:
            key = (key, position.ice, position.fire)
        found[row, action] = (CARDS[action // block], key) if config.rules.hand else key
    return found


#: The Fire pawn's move before the draw, as a decision is named.
FIRE_JUMP_NAME = DECISION_NAMES[FIRE_MOVE]


def _decision_name(config: Config, action: int) -> str | None:
    """The name of a decision without a card (doubling's, the Fire pawn's before the draw),
    else None."""
    base = config.card_actions
    if action < base:
        return None
    if config.rules.tokens and not config.rules.doubling:  # going on, or the Fire pawn's move
        return (DECISION_NAMES[GO_ON], FIRE_JUMP_NAME)[action - base]
    return DECISION_NAMES[action - base]


def move_key(config: Config, move: Move) -> Any:
    """What a core move is compared by: its result's :func:`position_key`, and with hands of
    five the card played from the hand (each card leaves a different hand), with Fire and
    Ice where the tokens are; a decision without a card (doubling's, the Fire pawn's before
    the draw) by its name."""
    if move.card == NO_CARD:
        kind = move.actions[0].kind if move.actions else None
        if kind == STEP:  # the Fire pawn's move before the draw
            return FIRE_JUMP_NAME
        return DECISION_NAMES[{None: GO_ON, DOUBLE: DOUBLE_LANE, ACCEPT: ACCEPT_LANE, DROP: DROP_LANE}[kind]]
    key: Any = position_key(move.result)
    if config.rules.tokens:
        key = (key, move.result.ice, move.result.fire)
    return (move.card, key) if config.rules.hand else key


def action_of(config: Config, games: Games, index: int, move: Move) -> int:
    """The first legal batch action of game ``index`` whose outcome is ``move``'s result;
    with a split 7 made part by part, its next part (the lowest that can still make it)."""
    one = game(games, index)
    wanted = move_key(config, move)
    for (_, action), key in sorted(outcomes(config, one).items()):
        if key == wanted:
            return action
    if part_actions(config).stop:
        from pardon.batch.split_any import part_toward

        first = int(part_actions(config).start) - FIRST_PART  # the 7's block (with hands of five)
        pawns = batch_pawns(config, move.result.pawns, int(one.turn[0]))
        found = part_toward(config, _holding_seven(config, one), 0, pawns)
        if found is not None:
            return first + found
    raise ValueError("no batch action makes this move")


def part_actions(config: Config) -> slice:
    """The actions that are parts of a split 7 (:mod:`pardon.batch.split_any`): 474–521 (with
    hands of five those of the 7's block, :mod:`pardon.batch.split_hands`), or none (an empty
    slice at 0)."""
    if splits_any(config.rules):
        if config.rules.hand:
            from pardon.batch.split_hands import part_actions as hand_parts

            return hand_parts()
        return slice(FIRST_PART, ANY_ACTIONS)
    return slice(0, 0)


def _holding_seven(config: Config, games: Games) -> Games:
    """The games with the 7 as their card where a hand game's card is 0 (its 7 is in the hand)."""
    if not config.rules.hand:
        return games
    from pardon.batch.split_any import with_seven

    return with_seven(games)


def batch_pawns(config: Config, pawns: tuple[tuple[int, ...], ...], turn: int) -> np.ndarray:
    """A core position's pawns (by colour) as a batch game's, ``(players, 4)`` from seat
    ``turn`` on (a seat's pawns in any order: the batch compares them as a set; with 3
    pawns the fourth slot Home)."""
    rows = np.zeros((config.players, 4), dtype=np.int8)
    for relative in range(config.players):
        row = pawns[config.seats[(turn + relative) % config.players]]
        rows[relative, : len(row)] = row
    return rows


def whole_keys(config: Config, games: Games, index: int) -> set[tuple[tuple[int, ...], ...]]:
    """The pawns (by colour, as the core keeps them) of every whole split game ``index``
    (holding a 7) can still make, part by part (:mod:`pardon.batch.split_any`)."""
    from pardon.batch.split_any import whole_moves

    moves = whole_moves(config, _holding_seven(config, games), np.array([index]))
    turn = int(games.turn[index])
    splits = moves.first >= FIRST_PART
    return {core_pawns(config, moves.pawns[..., at], turn) for at in np.flatnonzero(splits).tolist()}
