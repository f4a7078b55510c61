"""How the batch's computer players decide a double: the core's rule (:mod:`pardon.bots.doubling`,
docs/bots.md: "Doubling") over a batch of games, deciding as the core does in every game.

Every computer player of pardon, ``random`` included, doubles and answers doubles by the
points it expects, from each side's chance of winning as the searches' evaluation judges
the position (:class:`~pardon.bots.evaluation.Evaluator` with its ``SEARCHED`` weights, and
the cards the player has not seen).  Here that evaluation is worked out with arrays, adding
its terms in the order the core adds them, so that each chance is the same float: the
learned value of each pawn, less the danger of being bumped by each opponent's next card
(the squares each opponent's pawns can hit, as masks of cards, from the core's own tables),
turned into chances at the position's temperature.  The exponentials and powers are
Python's own (``math.exp``, ``math.pow``), as the core's, to the last bit.

>>> import numpy as np
>>> from pardon.batch.engine import Config, new_games
>>> config = Config.parse("classic-1939(scoring=1939,doubling=true)", 2)
>>> games = new_games(config, np.arange(3, dtype=np.uint32))
>>> win_chances(config, games, games.turn).tolist()  # by seat: even at the start
[[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]
>>> doubling_actions(config, games).tolist()  # nobody doubles an even game: on to the draw
[141, 141, 141]
"""

from __future__ import annotations

import functools
import math
from typing import Final

import numpy as np
import numpy.typing as npt

from pardon.batch.backend import Array
from pardon.batch.config import ACCEPTED, ANSWERING, BEFORE_DRAW, DOUBLINGS, OUT, STAGE, Config, Games, games_at
from pardon.batch.doubling import ACCEPT, DOUBLE, DROP, GO_ON, card_actions, decider, may_move_fire
from pardon.bots.doubling import DOUBLE_AT, LEAD, MOST_STAKE, TAKE_SHARE
from pardon.bots.evaluation import MIN_REMAINING, SEARCHED, Evaluator
from pardon.core.board import COLOURS, FIRST_TRACK, HOME, LAST_TRACK, SQUARE, START, partner
from pardon.core.cards import CARDS, DECKS, SORRY
from pardon.core.rules import Rules
from pardon.core.scoring import BONUS_1939, DROP_OUT_POINTS, largest_bonus

#: Each kind of card's bit in a mask of cards (bit ``card``, as the core's evaluation keeps them).
_CARD_BITS: Final = tuple(1 << card for card in CARDS)
_SORRY_BIT: Final = 1 << SORRY
#: A track square for every distance (0 where the distance is off the track: never used there).
_SQUARES: Final = np.array([[max(square, 0) for square in row] for row in SQUARE], dtype=np.int64)
#: The 1939 bonus by the most pawns Home of an opponent.
_BONUS: Final = np.array([largest_bonus(BONUS_1939, home) for home in range(5)], dtype=np.int64)
_exp = np.frompyfunc(math.exp, 1, 1)


@functools.cache
def _hit_tables(rules: Rules) -> npt.NDArray[np.uint16]:
    """``[colour, split, distance, square]``: the cards (a mask) with which a pawn of ``colour``
    ``distance`` from Home hits a track square, with the parts of a split 7 where ``split``
    (another of its pawns can take the rest): the core evaluation's own reach tables."""
    found = np.zeros((len(COLOURS), 2, START + 1, int(_SQUARES.max()) + 1), dtype=np.uint16)
    for colour, reach in enumerate(Evaluator(rules, SEARCHED).reaches):
        for split, table in enumerate((reach.plain, reach.split)):
            for distance, hits in enumerate(table):
                for square, mask in hits.items():
                    found[colour, split, distance, square] = mask
    return found


def by_seat(config: Config, games: Games) -> Array:
    """``(players, pawns, games)``: each seat's pawns in seat order (not counted from the
    mover), nearest Home first as the core keeps them, without a 3-pawn game's pad pawn."""
    players = config.players
    seats = (np.arange(players)[:, None] - games.turn[None].astype(np.int64)) % players
    rows = np.sort(np.take_along_axis(np.asarray(games.pawns), seats[:, None, :], axis=0), axis=1)
    return rows[:, rows.shape[1] - config.rules.pawns :].astype(np.int64)  # the pad pawn (Home) sorts first


def card_chances(config: Config, games: Games, seat: Array) -> Array:
    """``(11, games)``: the chance of each kind of card on the next draw as ``seat`` counts the
    cards it has not seen (the pack, and in a hand game the other hands), or the whole deck
    where none are left, as :func:`pardon.bots.evaluation.card_chances` does."""
    left = np.asarray(games.pack).astype(np.int64)
    if config.rules.hand:
        hands = np.asarray(games.hands).astype(np.int64)
        own = (seat.astype(np.int64) - games.turn.astype(np.int64)) % config.players
        left = left + hands.sum(axis=0) - np.take_along_axis(hands, own[None, None, :], axis=0)[0]
    deck = np.array([DECKS[config.rules.deck][card] for card in CARDS], dtype=np.int64)
    left = np.where(left.sum(axis=0) > 0, left, deck[:, None])
    return left / left.sum(axis=0)


def _chance(mask: Array, chances: Array) -> Array:
    """The chance that the next card is one of ``mask``'s, added card by card as the core adds it."""
    found = np.zeros(mask.shape, dtype=np.float64)
    for kind, bit in enumerate(_CARD_BITS):
        found += (mask & bit != 0) * chances[kind]  # adding 0.0 leaves a sum as it is
    return found


def _hits(config: Config, pawns: Array, colour: int, squares: Array) -> Array:
    """``(targets, games)``: the cards with which ``colour``'s ``pawns`` hit each of ``squares``,
    as the core's ``Evaluator._find_hits`` finds them: a 7's parts only with another pawn to
    take the rest, a Sorry! anywhere while a pawn waits in Start."""
    table = _hit_tables(config.rules)[colour]
    split = (((pawns > HOME) & (pawns < START)).sum(axis=0) > 1).astype(np.int64)
    mask = np.zeros(squares.shape, dtype=np.uint16)
    for pawn in pawns:
        hitting = (pawn == START) | ((pawn >= FIRST_TRACK) & (pawn <= LAST_TRACK))
        mask |= np.where(hitting, table[split, pawn, squares], 0).astype(np.uint16)
    return mask | np.where((pawns == START).any(axis=0), _SORRY_BIT, 0).astype(np.uint16)


def _danger(config: Config, rows: Array, seat: int, turn: Array, chances: Array, later: float) -> Array:
    """``Evaluator.danger`` of seat ``seat``'s track pawns: for each opponent in seat order,
    each pawn's chance of being hit times what it has gained; ``later`` weighs the opponents
    who draw only after ``seat``."""
    players, colour, own = config.players, config.seats[seat], rows[seat]
    team = {colour, partner(colour)} if config.rules.partners else {colour}
    place = (seat - turn) % players
    on_track = (own >= FIRST_TRACK) & (own <= LAST_TRACK)
    gained = (START - own) + SEARCHED.out
    danger = np.zeros(own.shape[-1], dtype=np.float64)
    for attacker in range(players):
        if config.seats[attacker] in team:
            continue
        weight = np.where((attacker - turn) % players < place, 1.0, later)
        masks = _hits(config, rows[attacker], config.seats[attacker], _SQUARES[colour][own])
        lost = weight * _chance(masks, chances) * gained
        for slot in range(own.shape[0]):  # added pawn by pawn, as the core adds them
            danger = np.where(on_track[slot] & (masks[slot] != 0), danger + lost[slot], danger)
    return danger


def _raws(config: Config, games: Games, rows: Array, chances: Array) -> Array:
    """``(players, games)``: each seat's raw score as ``Evaluator.raws`` adds it (``SEARCHED``):
    its pawns' values (``rows``: :func:`by_seat`), nearest Home first, less the threat times
    the danger."""
    terms = Evaluator(config.rules, SEARCHED).terms(config.players)
    values = np.array(terms.pawns, dtype=np.float64)
    turn = games.turn.astype(np.int64)
    found = np.zeros((config.players, games.turn.shape[0]), dtype=np.float64)
    for seat in range(config.players):
        raw = np.zeros(games.turn.shape[0], dtype=np.float64)
        for pawn in rows[seat]:
            raw = raw + values[pawn]
        if terms.threat:
            raw = raw - terms.threat * _danger(config, rows, seat, turn, chances, terms.later)
        found[seat] = raw
    return found


def win_chances(config: Config, games: Games, seat: Array) -> Array:
    """``(players, games)``: each seat's chance of winning (its side's, with partners) as
    ``Evaluator(rules, SEARCHED).win_chances`` gives it, the cards counted as ``seat`` sees
    them, for games still going on."""
    return _win_chances(config, games, by_seat(config, games), seat)


def _win_chances(config: Config, games: Games, rows: Array, seat: Array) -> Array:
    """:func:`win_chances`, the seats' pawns given (``rows``: :func:`by_seat`)."""
    scale, phase = Evaluator(config.rules, SEARCHED).temperature(config.players)
    sides = _raws(config, games, rows, card_chances(config, games, seat))
    if config.rules.partners:
        sides = sides + sides[[2, 3, 0, 1]]
    scales = np.full(games.turn.shape, scale, dtype=np.float64)
    if phase:  # the way left: few distinct values, each raised to the phase by Python's pow
        shares, which = np.unique(rows.sum(axis=(0, 1)), return_inverse=True)
        powers = [
            math.pow(max(share / (START * config.rules.pawns * config.players), MIN_REMAINING), phase)
            for share in shares.tolist()
        ]
        scales = scale * np.array(powers, dtype=np.float64)[which.reshape(-1)]
    weights = _exp((sides - sides.max(axis=0)) / scales).astype(np.float64)
    if config.rules.partners:
        total = weights[0] + weights[1]
    else:
        total = np.zeros(games.turn.shape, dtype=np.float64)
        for row in weights:
            total = total + row
    return weights / total


def doubling_actions(config: Config, games: Games) -> Array:
    """Each game's decision where the turn is before the draw (double, or go on to the draw)
    or a double is being answered (accept, or drop out), as every computer player of pardon
    makes it (:func:`pardon.bots.doubling.doubling_move`); -1 for the others, and with Fire and
    Ice where the player does not double but may move the Fire pawn: its own choice then,
    between going on and the Fire pawn's move (the double left out)."""
    stage = np.asarray(games.extras[STAGE])
    rows = np.flatnonzero((games.winner < 0) & ((stage == BEFORE_DRAW) | (stage == ANSWERING)))
    actions = np.full(games.turn.shape, -1, dtype=np.int32)
    if rows.size:
        some = games_at(games, rows)
        seat, pawns = decider(config, some), by_seat(config, some)
        playing = ~((some.extras[OUT][None] >> np.arange(config.players)[:, None]) & 1).astype(bool)
        outlook = _outlook(config, pawns, seat, _win_chances(config, some, pawns, seat), playing)
        doubles = _doubles(*outlook, some.extras[DOUBLINGS]) & (some.extras[ACCEPTED] == 0)  # once a turn
        decided = np.where(
            some.extras[STAGE] == ANSWERING,
            np.where(_accepts(*outlook), ACCEPT, DROP),
            np.where(doubles, DOUBLE, GO_ON),
        )
        actions[rows] = card_actions(config) + decided
        if config.rules.tokens:  # not doubling, the Fire pawn movable: the player's own choice
            fire = (some.extras[STAGE] == BEFORE_DRAW) & ~doubles & may_move_fire(config, some)
            actions[rows[fire]] = -1
    return actions


def _outlook(config: Config, rows: Array, seat: Array, chances: Array, playing: Array) -> tuple[Array, Array, Array]:
    """As the core's ``Outlook`` of the player ``seat`` (``rows``: the seats' pawns,
    :func:`by_seat`): how many sides still play, its side's chance among theirs, and (with
    two sides) its expected margin per point of the stake."""
    games_count = seat.shape[0]
    side = np.arange(config.players) % 2 if config.rules.partners else np.arange(config.players)
    sides = int(side.max()) + 1
    home = (rows == HOME).sum(axis=1)
    side_home = np.zeros((sides, games_count), dtype=np.int64)
    side_chance = np.zeros((sides, games_count), dtype=np.float64)
    side_playing = np.zeros((sides, games_count), dtype=bool)
    for each in range(config.players):  # a side's chance is its colours' own, one value
        side_home[side[each]] = np.maximum(side_home[side[each]], home[each])
        side_chance[side[each]] = np.where(playing[each], chances[each], side_chance[side[each]])
        side_playing[side[each]] |= playing[each]
    total = np.zeros(games_count, dtype=np.float64)
    for each in range(sides):
        total = np.where(side_playing[each], total + side_chance[each], total)
    side_chance = np.where(total > 0, side_chance / np.where(total > 0, total, 1.0), side_chance)
    margins = np.zeros((sides, games_count), dtype=np.int64)
    for each in range(sides):
        others = np.delete(side_home, each, axis=0).max(axis=0)
        margins[each] = config.rules.pawns + _BONUS[others]
    me = side[seat]
    columns = np.arange(games_count)
    chance = side_chance[me, columns]
    other = np.argmax(side_playing & (np.arange(sides)[:, None] != me[None]), axis=0)  # with two sides
    margin = chance * margins[me, columns] - (1 - chance) * margins[other, columns]
    return side_playing.sum(axis=0), chance, margin


def _accepts(count: Array, chance: Array, margin: Array) -> Array:
    """Whether the player answering accepts the double (``Outlook.accepts``), from its :func:`_outlook`."""
    return np.where(count != 2, chance >= TAKE_SHARE / count, 2 * margin >= -DROP_OUT_POINTS)


def _doubles(count: Array, chance: Array, lead: Array, doublings: Array) -> Array:
    """Whether the player to move doubles now (``Outlook.doubles``, from its :func:`_outlook`,
    below the stake of ``MOST_STAKE``; the stake doubled ``doublings`` times)."""
    stake = np.ldexp(1.0, doublings.astype(np.int32))  # exact, and never wrapped round
    answered = -2 * lead >= -DROP_OUT_POINTS  # the other side accepts, judging as this one
    two = np.where(answered, lead >= LEAD * stake, lead < DROP_OUT_POINTS)
    return (stake < MOST_STAKE) & np.where(count != 2, chance >= DOUBLE_AT, two)
