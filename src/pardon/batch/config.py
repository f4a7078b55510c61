"""What the games of a batch share, and what a batch holds: the batch engine's constants,
its :class:`Config` (the rules and the number of players) and the tables made from one
(:func:`tables`), a batch of games (:class:`Games`) and what an action did (:class:`Played`).
The engine's functions are gathered in :mod:`pardon.batch.engine`."""

from __future__ import annotations

import functools
import reprlib
from dataclasses import dataclass
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from pardon.batch.actions import ACTIONS, SLOTS, SPLIT_COUNTS
from pardon.batch.backend import Array, is_numpy, namespace
from pardon.core.board import FIRST_TRACK, HOME, LAST_TRACK, START, START_EXIT
from pardon.core.cards import CARDS, DECKS, SORRY
from pardon.core.errors import InvalidError, whole_number
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import seats_for

I8 = np.int8
I16 = np.int16
U32 = np.uint32

#: The rows of ``Games.extras``: the stage of the turn; the decisions without a card made since
#: the last card was played (for the random player's stream: each decision its own bits); with
#: doubling (:mod:`pardon.batch.doubling`) the player answering a double (seats after the
#: mover, 1–3; 0 for none), whether a player has accepted it, how many times the stake has
#: doubled, the seats that dropped out (bit ``s`` for seat ``s``); with Fire and Ice
#: (:mod:`pardon.batch.tokens`) the pawns the Ice and the Fire sit on (``4 * seat + slot``, by
#: seat, not from the mover; -1 in the centre) and whether the Fire pawn has moved before the
#: draw this turn (with doubling too, a double may come after it).
STAGE, DECIDED, ANSWERER, ACCEPTED, DOUBLINGS, OUT, ICE, FIRE, FIRED = range(9)
EXTRA_ROWS: Final = 9
#: With the partners' split 7 among any team pawns (:mod:`pardon.batch.split_any`), 10 rows
#: more: the count of the 7 left to move in a split being made, the pawns it moved (bit
#: ``4 m + i``: member m, 0 the player and 1 the partner, slot i), and from ``BEFORE`` on the
#: pawns as it began (two to a row: ``a + 128 b``).
LEFT, MOVED, BEFORE = EXTRA_ROWS, EXTRA_ROWS + 1, EXTRA_ROWS + 2
SPLIT_ROWS: Final = EXTRA_ROWS + 10
#: The stages of a turn: the card (drawn, or to be drawn), before the draw (a double, or going
#: on to the draw), a double being answered, a split 7 being made part by part.
CARD_STAGE, BEFORE_DRAW, ANSWERING, SPLITTING = range(4)

#: The decisions of doubling, after the card's actions: go on to the draw, double, accept,
#: drop out (:mod:`pardon.batch.doubling`; with Fire and Ice the Fire pawn's move after them:
#: :func:`decisions`).
DECISIONS: Final = 4

#: The relative square of a pawn that is not on the track, and of a landing that is not:
#: two values no track square has (0–59), so neither is ever found on a square.
OFF_TRACK: Final = I8(127)
NOWHERE: Final = I8(126)
TRACK_SQUARES: Final = 60
SIDE: Final = 15
#: A track distance d is the relative square (8 - d) mod 60 of its own colour: the
#: entrance (distance 6) is square 2 of the colour's side.
SQUARE_OF_HOME: Final = FIRST_TRACK + 2

#: How many seeds there are: a game's seed is a whole number from 0 to ``SEEDS - 1`` (32 bits).
SEEDS: Final = 2**32

#: The streams of a game's random bits (see :func:`random_bits`).
STREAM_DRAW: Final = 1
STREAM_LEADER: Final = 2
STREAM_CHOICE: Final = 3

#: The forward number cards (a 10 and an 11 forward, a 7 whole): in the 2013 rules any of
#: them brings a pawn out of Start (docs/rules.md: "The 2013 edition").
FORWARD_NUMBER_CARDS: Final = (1, 2, 3, 5, 7, 8, 10, 11, 12)


@dataclass(frozen=True)
class Config:
    """What every game of a batch shares: the rules and the number of players.

    The batch plays the classic game and its variants without decisions besides the card
    to play and its move: any deck (44, 45, 55), 3 or 4 pawns, one pawn out, the 2013 rules
    without Fire and Ice (``modern-no-tokens``), hands of five (``hand=5``, as in ``adult``),
    and either scoring, Point Scoring
    (``scoring=1939``, without doubling) or 1992 play for points (``scoring=1992``), whose
    points :func:`~pardon.batch.scoring.points` gives; the partners game (``partners``, its
    split 7 between two pawns: :mod:`pardon.batch.partners`); and the solo challenge
    (``solo``: one player, the core's solo colour, red, alone on the board: its games'
    ``drawn`` is the challenge's count); doubling with Point Scoring (``doubling=true``:
    :mod:`pardon.batch.doubling`); Fire and Ice (``modern``: :mod:`pardon.batch.tokens`).
    """

    rules: Rules
    players: int

    def __post_init__(self) -> None:
        check_rules(self.rules)
        try:
            players: int | None = whole_number(self.players, "players")  # a NumPy integer too
        except InvalidError:  # a bool, a float, text
            players = None
        if self.rules.solo and players != 1:  # as the core's check_seats says it
            raise InvalidError(f"the solo challenge is played by 1 player, not {_said(players, self.players)}")
        if not self.rules.solo and players not in (2, 3, 4):
            alone = ": one player alone plays the solo challenge (rules solo)" if players == 1 else ""
            raise InvalidError(f"the batch engine plays 2, 3 or 4 players, not {_said(players, self.players)}{alone}")
        if self.rules.partners and players != 4:  # as the core's check_seats says it
            raise InvalidError(f"the partners game is played by 4 players, not {_said(players, self.players)}")
        object.__setattr__(self, "players", players)  # a plain int: equal, and hashed, as one

    @property
    def seats(self) -> tuple[int, ...]:
        """The colours in play, clockwise (seat ``s`` of a game is colour ``seats[s]``)."""
        return seats_for(self.players)

    @property
    def deck_size(self) -> int:
        return self.rules.deck

    @property
    def actions(self) -> int:
        """How many actions the games' moves are numbered among: 141 (:mod:`pardon.batch.actions`),
        with hands of five 11 × 141, one block of 141 per kind of card played from the hand
        (:mod:`pardon.batch.hands`), with partners 474 (:mod:`pardon.batch.partners`), both
        11 × 474; with Fire and Ice 1,105 (:mod:`pardon.batch.tokens`), with hands of five as
        well 11 × 1,105; then the decisions without a card (:func:`decisions`): with doubling 4
        more (:mod:`pardon.batch.doubling`), 5 with Fire and Ice too, with Fire and Ice alone 2."""
        return self.card_actions + decisions(self.rules)

    @property
    def card_actions(self) -> int:
        """How many of the actions play a card (the decisions without a card come after them)."""
        if self.rules.tokens:
            from pardon.batch.tokens import CARD_MOVES

            return CARD_MOVES * (len(CARDS) if self.rules.hand else 1)
        card_actions = ACTIONS
        if self.rules.partners:
            from pardon.batch.partners import TEAM_ACTIONS

            card_actions = TEAM_ACTIONS
            if splits_any(self.rules):
                from pardon.batch.split_any import ANY_ACTIONS

                card_actions = ANY_ACTIONS
        if self.rules.hand:
            card_actions *= len(CARDS)
        return card_actions

    @classmethod
    def parse(cls, rules: str, players: int | None = None) -> Config:
        """A config from rules text: ``Config.parse("classic(pawns=3)", 4)``; without
        ``players``, 2 (1 for the solo challenge, ``Config.parse("solo")``; 4 for partners)."""
        parsed = parse_rules(rules)
        return cls(parsed, default_players(parsed) if players is None else players)


def decisions(rules: Rules) -> int:
    """How many decisions without a card are numbered after the card's actions: doubling's 4
    (go on to the draw, double, accept, drop out), with Fire and Ice a 5th, the Fire pawn's
    move before the draw; Fire and Ice alone 2 (go on, the Fire pawn's move); else none."""
    if rules.doubling:
        return DECISIONS + (1 if rules.tokens else 0)
    return 2 if rules.tokens else 0


def splits_any(rules: Rules) -> bool:
    """Whether ``rules`` split a partners' 7 among any team pawns, which the batch makes part
    by part (:mod:`pardon.batch.split_any`)."""
    return bool(rules.partners and rules.partner_split == "any")


def extra_rows(rules: Rules) -> int:
    """How many rows ``Games.extras`` has under ``rules``: 9 with doubling or Fire and Ice,
    19 with the partners' split 7 among any team pawns, else none."""
    if splits_any(rules):
        return SPLIT_ROWS
    return EXTRA_ROWS if rules.doubling or rules.tokens else 0


def default_players(rules: Rules) -> int:
    """The players of a batch of ``rules`` when none are named: 1 for the solo challenge, 4
    for partners, else 2."""
    return 1 if rules.solo else 4 if rules.partners else 2


def _said(players: int | None, given: object) -> str:
    """A number of players as a message says it: the number, or what was given instead."""
    return str(players) if players is not None else reprlib.repr(given)


def check_rules(rules: Rules) -> Rules:
    """Raise InvalidError unless the batch engine plays ``rules``; return them."""
    if not isinstance(rules, Rules):  # rules text read its .partners: an AttributeError
        text = reprlib.repr(rules) if isinstance(rules, str) else "'classic'"
        raise InvalidError(
            f"Config takes a Rules value, not {reprlib.repr(rules)}: Config.parse({text}, players) reads rules text"
        )
    return rules


class Tables(NamedTuple):
    """The constants of a config, as small NumPy arrays indexed by card, distance or square."""

    #: ``sides[q, turn]``: the side of the board (0–3, counted clockwise from the mover's
    #: own) of the player ``q`` seats after the player to move, when seat ``turn`` moves.
    sides: npt.NDArray[np.int8]
    #: ``forward[card]``: how far the card's own move takes a pawn (-4 for a 4, 0 for none).
    forward: npt.NDArray[np.int8]
    #: ``out[card]``: the distance a pawn leaving Start with the card lands on, else -1.
    out: npt.NDArray[np.int8]
    #: By the mover's distance after a count: where its slide ends (itself if none) and
    #: how many squares it sweeps (0 if none).
    ride_end: npt.NDArray[np.int8]
    ride_length: npt.NDArray[np.int8]
    #: ``opponent_ride[side, square]``: the squares swept by the slide a pawn of that side
    #: rides from a relative square (0 if none; 128 squares so OFF_TRACK reads 0).
    opponent_ride: npt.NDArray[np.int8]
    #: Cards of each kind in a full pack.
    deck: npt.NDArray[np.int8]
    first_row: npt.NDArray[np.int8]
    #: The split 7 for each pair of distances (:func:`_split_tables`).
    split_pair: npt.NDArray[np.uint16]
    #: ``forward`` and ``out``, and ``ride_end`` and ``ride_length``, two by two
    #: (:func:`_paired`: one gather for both).
    card_moves: npt.NDArray[np.int16]
    rides: npt.NDArray[np.int16]
    draw_again_on_2: bool
    switched_opponent_slides: bool
    random_leader: bool


@functools.cache
def tables(config: Config) -> Tables:
    """The constants of ``config`` (made once)."""
    rules, seats, players = config.rules, config.seats, config.players
    sides = np.array(
        [[(seats[(turn + q) % players] - seats[turn]) % 4 for turn in range(players)] for q in range(players)],
        dtype=I8,
    )
    forward = np.zeros(SORRY + 1, dtype=I8)
    for card in CARDS:
        forward[card] = -4 if card == 4 else 4 if card == SORRY and rules.sorry_forward_4 else card % SORRY
    out = np.full(SORRY + 1, -1, dtype=I8)
    bringing_out = (1, 2) if rules.leave_start == "circle" else FORWARD_NUMBER_CARDS
    for card in bringing_out:
        out[card] = START_EXIT - (card - 1) if rules.leave_start == "forward-count" else START_EXIT
    own_rides = rules.slide_riders == "own"
    ride_end = np.arange(START + 1, dtype=I8)
    ride_length = np.zeros(START + 1, dtype=I8)
    for distance in range(FIRST_TRACK, LAST_TRACK + 1):
        square = (SQUARE_OF_HOME - distance) % TRACK_SQUARES
        length = _slide_length(square, side=0, own_rides=own_rides)
        if length:
            ride_length[distance] = length
            ride_end[distance] = FIRST_TRACK + (2 - square - length) % TRACK_SQUARES
    opponent_ride = np.zeros((4, 128), dtype=I8)
    for side in range(4):
        for square in range(TRACK_SQUARES):
            opponent_ride[side, square] = _slide_length(square, side, own_rides)
    counts = DECKS[rules.deck]
    deck = np.array([counts[card] for card in CARDS], dtype=I8)
    first_row = np.array(
        [START_EXIT] * rules.pawns_out + [START] * (rules.pawns - rules.pawns_out) + [HOME] * (SLOTS - rules.pawns),
        dtype=I8,
    )
    return Tables(
        sides,
        forward,
        out,
        ride_end,
        ride_length,
        opponent_ride,
        deck,
        first_row,
        _split_tables(ride_end, ride_length),
        _paired(forward, out),
        _paired(ride_end, ride_length),
        rules.draw_again_on_2,
        rules.switched_opponent_slides,
        rules.leader != "named",
    )


def _paired(low: npt.NDArray[np.int8], high: npt.NDArray[np.int8]) -> npt.NDArray[np.int16]:
    """Two int8 tables as one of int16, for :func:`_lookup_pair`."""
    return (low.astype(np.int16) & 0xFF) | (high.astype(np.int16) << 8)


def _lookup_pair(paired: npt.NDArray[np.int16], index: Array) -> tuple[Array, Array]:
    """The entries of two int8 tables (:func:`_paired`) at ``index``: one gather (NumPy's
    gathers cost more than the arithmetic that takes the two apart)."""
    xp = namespace(index)
    both = xp.take(xp.asarray(paired), index.astype(xp.int32))
    low = ((both & I16(0xFF)) ^ I16(0x80)) - I16(0x80)
    return low.astype(xp.int8), (both >> I16(8)).astype(xp.int8)


#: Distances a pawn may have (Home 0 to Start 66): the stride of the split's pair table.
DISTANCES: Final = START + 1


def _split_tables(ride_end: npt.NDArray[np.int8], ride_length: npt.NDArray[np.int8]) -> npt.NDArray[np.uint16]:
    """The split 7's rules (docs/rules.md: "The split 7") for every pair of distances, as bit masks over
    the first part k (bit k - 1), so that a game's splits are a lookup and a few bit
    operations (:func:`_split_masks`): ``split_pair[a * 67 + b]``, for a first pawn at
    ``a`` and a second at ``b``, low byte: the first parts after which the second part is
    legal if no third own pawn is in the way; high byte: those where an own pawn standing
    where the second part lands would still stand there (not swept: it is in the way).

    The first part moves a pawn from ``a`` to ``a - k`` and rides a slide there; the second
    moves a pawn from ``b`` to ``b - (7 - k)`` (not past Home), which must not have been
    swept to Start, and must not land where the first pawn ended."""
    free = np.zeros(DISTANCES * DISTANCES, dtype=np.uint16)
    crowded = np.zeros(DISTANCES * DISTANCES, dtype=np.uint16)

    def square(distance: int) -> int | None:
        on_track = FIRST_TRACK <= distance <= LAST_TRACK
        return (SQUARE_OF_HOME - distance) % TRACK_SQUARES if on_track else None

    def swept(distance: int, landing: int) -> bool:
        """Whether the slide ridden from ``landing`` sweeps a pawn at ``distance``."""
        where, triangle, length = square(distance), square(landing), int(ride_length[landing])
        if where is None or triangle is None or not length:
            return False
        return 1 <= (where - triangle) % TRACK_SQUARES <= length

    for a in range(DISTANCES):
        for b in range(DISTANCES):
            for k in range(1, SPLIT_COUNTS + 1):
                first, second = a - k, b - (7 - k)
                if first < HOME or b in (HOME, START) or second < HOME or swept(b, first):
                    continue
                if second != HOME and second == ride_end[first]:
                    continue
                free[a * DISTANCES + b] |= 1 << (k - 1)
                if not swept(second, first):
                    crowded[a * DISTANCES + b] |= 1 << (k - 1)
    paired: npt.NDArray[np.uint16] = free | (crowded << np.uint16(8))
    return paired


def _slide_length(square: int, side: int, own_rides: bool) -> int:
    """The squares swept by a slide whose triangle is relative ``square``, for a pawn of
    relative ``side`` (0 if it is no triangle or the pawn does not ride it)."""
    offset = square % SIDE
    length = 3 if offset == 1 else 4 if offset == 9 else 0
    if not length or (square // SIDE == side) != own_rides:
        return 0
    return length


class Games(NamedTuple):
    """A batch of games (each field has the games on its last axes).

    ``pawns[q, slot]`` is the distance to Home of a pawn of the player ``q`` seats after
    the player to move (with 3 pawns, slot 3 stays Home and is never played).
    """

    pawns: Array  # (players, 4, *batch) int8
    turn: Array  # (*batch) int8: the seat to move (colour ``config.seats[turn]``)
    card: Array  # (*batch) int8: the card drawn and not yet played (0 once the game is over)
    pack: Array  # (11, *batch) int8: cards of each kind (``CARDS`` order) left to draw
    left: Array  # (*batch) int8: cards left to draw
    seed: Array  # (*batch) uint32
    drawn: Array  # (*batch) int32: cards drawn so far in this game
    winner: Array  # (*batch) int8: the winning seat, -1 while the game goes on
    leader: Array  # (*batch) int8: the seat that played first
    #: With hands of five, ``(players, 11, *batch)`` int8: how many cards of each kind (``CARDS``
    #: order) each seat holds, seat 0 the player to move, as ``pawns``; else ``(0, *batch)``.
    hands: Array
    #: With doubling or Fire and Ice, ``(9, *batch)`` int16 (rows :data:`STAGE` to :data:`FIRED`):
    #: the stage of the turn, the decisions made since the last card, who answers a double,
    #: whether one has accepted, the doublings of the stake, the seats that dropped out,
    #: where the Ice and the Fire are, and whether the Fire pawn has moved before this draw;
    #: with the partners' split 7 among any team pawns ``(19, *batch)``, the split being made
    #: too (:data:`LEFT`, :data:`MOVED`, :data:`BEFORE`); else ``(0, *batch)``.
    extras: Array


class Played(NamedTuple):
    """What each game's action did (for statistics)."""

    card: Array  # the card played (0 for a game already over)
    bumps: Array  # pawns sent back to Start, by landing or by a slide
    slides: Array  # pawns that slid
    forfeit: Array  # the card was not used


def on_winning_side(config: Config, seat: Any, winner: Any) -> Any:
    """Whether ``seat`` (a number or an array of them) won a game whose winning seat is
    ``winner`` (-1 while it goes on): it is the winner, or with partners the winner's
    partner, 2 seats on."""
    won = seat == winner
    if config.rules.partners:
        won = won | ((winner >= 0) & ((seat - winner) % 4 == 2))
    return won


def _check_games(config: Config, games: Games) -> None:
    """InvalidError for games made for another number of players than ``config``'s (their
    rows of pawns say it): the seats would be read wrong, not refused."""
    made_for = games.pawns.shape[0]
    if made_for != config.players:
        raise InvalidError(f"these games are of {made_for} players, and the config plays {config.players}")


def batch_of_one(games: Games) -> Games:
    """One game as a batch of one (a last axis of 1), as the engine's functions take it."""
    return Games(*(field[..., None] for field in games))


def games_at(games: Games, rows: Any) -> Games:
    """The games of ``rows`` (indices into the batch's one axis), in that order (NumPy)."""
    return Games(*(np.take(np.asarray(field), rows, axis=-1) for field in games))


def one_axis(games: Games) -> Games:
    """The games of a batch of any shape on one axis (NumPy), as the editions worked out game
    by game take them (:func:`shaped` puts their results back)."""
    size = games.card.size
    return Games(*(np.reshape(field, (*field.shape[: field.ndim - games.card.ndim], size)) for field in games))


def shaped(games: Games, played: Played, shape: tuple[int, ...]) -> tuple[Games, Played]:
    """Games and what was played on one axis (:func:`one_axis`), back in a batch of ``shape``."""
    return (
        Games(*(np.reshape(field, (*field.shape[:-1], *shape)) for field in games)),
        Played(*(np.reshape(field, shape) for field in played)),
    )


def with_rows(extras: Array, rows: dict[int, Array]) -> Array:
    """``extras`` with the rows named in ``rows`` replaced (no array written into: JAX's way)."""
    xp = namespace(extras)
    return xp.stack(
        [xp.asarray(rows[row], dtype=xp.int16) if row in rows else extras[row] for row in range(extras.shape[0])]
    )


def numpy_only(games: Games, what: str) -> None:
    """InvalidError unless ``games`` are NumPy's: ``what`` (an edition) is not played on JAX."""
    if not is_numpy(namespace(games.pawns)):
        raise InvalidError(f"the batch engine plays {what} with NumPy arrays, not JAX's")
