"""Many games of Sorry! at once as arrays: the batch engine (docs/batch.md).

Every array has the games on its **last** axes (``(..., *batch)``): a small leading axis
(seats, pawn slots, actions, kinds of card) and then one entry per game.  NumPy then
runs each operation as a few long loops over the games, and the same functions run on
one game (no batch axes), on a batch, under ``jax.jit`` and under ``jax.vmap``: nothing
here writes into an array, branches on a value, or depends on the batch's size
(:mod:`pardon.batch.backend`).

A game's state (:class:`Games`) keeps its pawns as distances to Home (the encoding of
:mod:`pardon.core.board`), its seats rotated so that seat 0 is always the player to move,
and its pack as the number of each kind of card left to draw.  Each draw picks one of
the cards left, uniformly, by a hash of the game's seed and the number of cards drawn:
drawing so is dealing from a shuffled pack, and a game's cards are a function of its
seed alone, whatever is played.  When the pack is empty the discards become the pack,
as in :meth:`pardon.core.cards.Pack.draw`.

A step (:func:`step`) plays each game's chosen action, ends the game if the mover has
every pawn Home, passes the turn (not after a classic 2) and draws the next card;
:func:`legal_lanes` gives each game's legal actions (:mod:`pardon.batch.actions`).

>>> import numpy as np
>>> config = Config(parse_rules("classic"), 2)
>>> games = new_games(config, np.arange(3, dtype=np.uint32))
>>> games.pawns.shape, games.card.shape
((2, 4, 3), (3,))
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_actions(config, games))
>>> games.winner.tolist(), games.drawn.tolist()
([1, 1, 1], [166, 168, 173])
"""

from __future__ import annotations

import functools
import math
import reprlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import ModuleType
from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

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
    SPLIT,
    SPLIT_COUNTS,
    SWITCH,
    describe_action,
)
from pardon.batch.actions import (
    BACK1 as BACK1_LANE,
)
from pardon.batch.actions import (
    MOVE as MOVE_LANE,
)
from pardon.batch.actions import (
    SORRY as SORRY_LANE,
)
from pardon.batch.backend import (
    Array,
    all0,
    any0,
    as_int8,
    as_uint8,
    column,
    cumsum0,
    is_numpy,
    namespace,
    select,
)
from pardon.core.board import FIRST_TRACK, HOME, LAST_TRACK, START, START_EXIT
from pardon.core.cards import CARDS, DECKS, SORRY
from pardon.core.errors import IllegalError, InvalidError, whole_number
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.state import seats_for

__all__ = [
    "Config",
    "Games",
    "Played",
    "distinct_lanes",
    "draw",
    "legal_lanes",
    "new_games",
    "play",
    "random_actions",
    "random_bits",
    "random_moves",
    "reset_finished",
    "step",
]

I8 = np.int8
I16 = np.int16
U32 = np.uint32

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

    The batch plays the classic game and its variants without decisions besides a drawn
    card's move: any deck (44, 45, 55), 3 or 4 pawns, one pawn out, the 2013 rules
    without Fire and Ice (``modern-no-tokens``).  Not partners, hands, tokens, doubling,
    points or the solo challenge.
    """

    rules: Rules
    players: int

    def __post_init__(self) -> None:
        check_rules(self.rules)
        try:
            players: int | None = whole_number(self.players, "players")  # a NumPy integer too
        except InvalidError:  # a bool, a float, text
            players = None
        if players not in (2, 3, 4):
            raise InvalidError(f"the batch engine plays 2, 3 or 4 players, not {players or reprlib.repr(self.players)}")
        object.__setattr__(self, "players", players)  # a plain int: equal, and hashed, as one

    @property
    def seats(self) -> tuple[int, ...]:
        """The colours in play, clockwise (seat ``s`` of a game is colour ``seats[s]``)."""
        return seats_for(self.players)

    @property
    def deck_size(self) -> int:
        return self.rules.deck

    @classmethod
    def parse(cls, rules: str, players: int = 2) -> Config:
        """A config from rules text: ``Config.parse("classic(pawns=3)", 4)``."""
        return cls(parse_rules(rules), players)


def check_rules(rules: Rules) -> Rules:
    """Raise InvalidError unless the batch engine plays ``rules``; return them."""
    if not isinstance(rules, Rules):  # rules text read its .partners: an AttributeError
        text = reprlib.repr(rules) if isinstance(rules, str) else "'classic'"
        raise InvalidError(
            f"Config takes a Rules value, not {reprlib.repr(rules)}: Config.parse({text}, players) reads rules text"
        )
    unplayed = [
        (rules.partners, "partners"),
        (rules.hand != 0, "hands of cards"),
        (rules.tokens, "Fire and Ice"),
        (rules.doubling, "doubling"),
        (rules.scoring != "none", "points"),
        (rules.solo, "the solo challenge"),
    ]
    for present, what in unplayed:
        if present:
            raise InvalidError(
                f"the batch engine does not play {what} (rules {to_text(rules)}): it plays classic and "
                "modern-no-tokens with any deck, pawns and leaving-Start options"
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


class Played(NamedTuple):
    """What each game's action did (for statistics)."""

    card: Array  # the card played (0 for a game already over)
    bumps: Array  # pawns sent back to Start, by landing or by a slide
    slides: Array  # pawns that slid
    forfeit: Array  # the card was not used


# --- random bits ------------------------------------------------------------------------


def _mix(x: Array) -> Array:
    """A 32-bit integer hash (lowbias32): every bit of the input reaches every bit."""
    with np.errstate(over="ignore"):  # it wraps round on purpose (NumPy warns for one game's scalars)
        x = x ^ (x >> U32(16))
        x = x * U32(0x21F0AAAD)
        x = x ^ (x >> U32(15))
        x = x * U32(0x735A2D97)
        return x ^ (x >> U32(15))


def random_bits(seed: Array, counter: Array, stream: int) -> Array:
    """32 random bits of a game: a hash of its seed, a counter and the stream (draws,
    the leader, random players' choices), the same on NumPy and on JAX."""
    xp = namespace(seed, counter)
    key = _mix(seed ^ U32((stream * 0x9E3779B9) & 0xFFFFFFFF))
    return _mix(key + xp.asarray(counter).astype(xp.uint32))


# --- new games and the draw --------------------------------------------------------------


def new_games(config: Config, seeds: Array) -> Games:
    """One game per seed, its first card drawn: all pawns in Start (or one out), and the
    first player to move chosen by the rules (``leader="named"``: the first seat;
    otherwise each seat is equally likely, as the draw for the Leader makes it, from the
    game's seed)."""
    seeds = _seed_array(seeds)
    xp = namespace(seeds)
    table = tables(config)
    _check_seeds(seeds)
    seeds = xp.asarray(seeds).astype(xp.uint32)
    shape = seeds.shape
    batch = len(shape)
    zero8 = xp.zeros(shape, dtype=xp.int8)
    pawns = xp.zeros((config.players, SLOTS, *shape), dtype=xp.int8) + column(table.first_row, batch)
    if table.random_leader:
        turn = (random_bits(seeds, xp.zeros(shape, dtype=xp.int32), STREAM_LEADER) % U32(config.players)).astype(
            xp.int8
        )
    else:
        turn = zero8
    pack = xp.zeros((len(CARDS), *shape), dtype=xp.int8) + column(table.deck, batch)
    left = zero8 + I8(config.deck_size)
    games = Games(pawns, turn, zero8, pack, left, seeds, xp.zeros(shape, dtype=xp.int32), zero8 - I8(1), turn)
    return draw(config, games)


def _seed_array(seeds: Any) -> Array:
    """``seeds`` as an array: a list or a number read as NumPy's (reading a list's dtype was
    an AttributeError), an array (NumPy's or JAX's) as it is."""
    if hasattr(seeds, "dtype"):
        return seeds
    try:
        return np.asarray(seeds)
    except ValueError:  # a ragged list
        raise InvalidError(f"seeds are whole numbers from 0 to {SEEDS - 1}, not {reprlib.repr(seeds)}") from None


def _check_seeds(seeds: Array) -> None:
    """InvalidError unless ``seeds`` are whole numbers from 0 to ``SEEDS - 1``: cast to 32 bits,
    -1 or 2**32 would silently be another seed's game, 1.5 seed 1's.  (Under JAX's ``jit``
    the values cannot be looked at; their type is.)"""
    dtype = np.dtype(seeds.dtype)
    if dtype.kind not in "iu":
        raise InvalidError(f"seeds are whole numbers from 0 to {SEEDS - 1}, not {dtype} values")
    fits = dtype.kind == "u" and dtype.itemsize <= 4  # uint32 and narrower: nothing to look at
    if not fits and isinstance(seeds, np.ndarray | np.generic):
        values = np.asarray(seeds)
        outside = (values < 0) | (values >= SEEDS)
        if outside.any():
            raise InvalidError(f"a seed is a whole number from 0 to {SEEDS - 1}, not {values[outside][0]}")


def draw(config: Config, games: Games) -> Games:
    """Each game still going on turns up its next card; an empty pack is first made of
    the discards again (the whole deck: nothing else is ever out of the pack)."""
    xp = namespace(games.pack)
    table = tables(config)
    playing = games.winner < 0
    empty = (games.left == 0) & playing
    pack = _refilled(table, games.pack, empty)
    left = select(empty, I8(config.deck_size), games.left)
    divisor = xp.maximum(left, I8(1)).astype(xp.uint32)
    pick = as_int8(random_bits(games.seed, games.drawn, STREAM_DRAW) % divisor)
    # the kind picked: how many kinds' cards all come before it (row by row: small
    # temporaries), and its card: as many ranks on, and one more past each missing rank
    kind = xp.zeros(pick.shape, dtype=xp.int8)
    before, skipped = kind, kind
    for row in range(len(CARDS) - 1):
        before = before + pack[row]
        passed = as_int8(before <= pick)
        kind = kind + passed
        if CARDS[row + 1] - CARDS[row] > 1:
            skipped = skipped + passed * I8(CARDS[row + 1] - CARDS[row] - 1)
    taken = select(playing, kind, I8(-1))  # a game over takes none
    return games._replace(
        card=select(playing, kind + skipped + I8(CARDS[0]), I8(0)),
        pack=xp.stack([pack[row] - as_int8(taken == row) for row in range(len(CARDS))]),
        left=left - as_int8(playing),
        drawn=games.drawn + playing.astype(xp.int32),
    )


def _refilled(table: Tables, pack: Array, empty: Array) -> Array:
    """The packs, the whole deck again where ``empty`` (on NumPy only those games are written)."""
    if not _is_fast(namespace(pack), empty):
        return select(empty, column(table.deck, empty.ndim), pack)
    rows = np.flatnonzero(empty)
    if not rows.size:
        return pack
    pack = pack.copy()
    _scatter(pack, rows, table.deck[:, None])
    return pack


# --- legal actions -----------------------------------------------------------------------


def _on_track(distance: Array) -> Array:
    return (distance >= FIRST_TRACK) & (distance <= LAST_TRACK)


def _wrapped(distance: Array) -> Array:
    """A distance moved backward past the last track square, round to the first ones."""
    return distance - as_int8(distance > LAST_TRACK) * I8(TRACK_SQUARES)


def _blocked(own: Array, landing: Array) -> Array:
    """Whether ``landing`` (any shape ending in the batch) is a square or Safety Zone square
    where one of the ``own`` pawns stands (Home holds any number)."""
    found = landing == own[0]
    for slot in range(1, SLOTS):
        found = found | (landing == own[slot])
    return found & (landing != HOME)


def _square(distance: Array) -> Array:
    """The mover's relative square of one of its own track distances (else NOWHERE)."""
    square = I8(SQUARE_OF_HOME) - distance
    square = square + as_int8(square < 0) * I8(TRACK_SQUARES)
    return select(_on_track(distance), square, NOWHERE)


def _relative_squares(pawns: Array, sides: Array) -> Array:
    """Every pawn's square counted clockwise from the mover's side's first square
    (OFF_TRACK for a pawn in Start, a Safety Zone or Home)."""
    base = (sides * I8(SIDE) + I8(SQUARE_OF_HOME))[:, None]
    square = base - pawns
    square = square + as_int8(square < 0) * I8(TRACK_SQUARES)
    return select(_on_track(pawns), square, OFF_TRACK)


def _sides(config: Config, turn: Array) -> Array:
    """``(players, *batch)``: each seat's side of the board relative to the mover's (with
    2 or 4 players the same whoever moves: then no lookup, a constant broadcast)."""
    xp = namespace(turn)
    sides = tables(config).sides
    if (sides == sides[:, :1]).all():
        return xp.broadcast_to(xp.asarray(column(sides[:, 0], turn.ndim)), (config.players, *turn.shape))
    return xp.take(xp.asarray(sides), turn.astype(xp.int32), axis=1)


def _is_fast(xp: object, card: Array) -> bool:
    """Whether to work on NumPy's way: each rare kind of card's lanes and moves worked out
    only for the games that hold it (JAX works them out for every game and selects)."""
    return is_numpy(xp) and card.ndim == 1  # type: ignore[arg-type]


def _on_some(
    fast: bool,
    needed: Array,
    kernel: Callable[..., tuple[Array, ...]],
    arrays: tuple[Array, ...],
    kept: tuple[Array, ...],
    rows: Array | None = None,
) -> tuple[Array, ...]:
    """``kernel(*arrays)`` where ``needed``, ``kept`` elsewhere: on NumPy the kernel runs on
    the games needing it only (``rows`` if given), its results written into ``kept`` (the
    caller's own new arrays), on JAX on every game (then selected)."""
    if not fast:
        return tuple(select(needed, new, old) for new, old in zip(kernel(*arrays), kept, strict=True))
    if rows is None:
        rows = np.flatnonzero(needed)
    if not rows.size:
        return kept
    results = kernel(*(np.take(array, rows, axis=-1) for array in arrays))
    for new, old in zip(results, kept, strict=True):
        _scatter(old, rows, new)
    return kept


def _rows_of(values: Array, wanted: tuple[int, ...], among: Array | None = None) -> list[Array]:
    """NumPy: for each of ``wanted``, where ``values`` (one axis) equals it (and ``among``
    holds), found among the games holding any of them: NumPy's nonzero runs several times
    slower through a mask set one time in ten (its branches mispredict) than through a
    denser one."""
    union = values == wanted[0]
    for value in wanted[1:]:
        union = union | (values == value)
    rows = np.flatnonzero(union if among is None else union & among)
    held = np.take(values, rows)
    return [np.take(rows, np.flatnonzero(held == value)) for value in wanted]


def _scatter(array: Array, rows: Array, values: Array) -> None:
    """``array[..., rows] = values`` on NumPy, one leading row at a time (several times
    faster than NumPy's assignment through one index array and leading axes)."""
    if not array.flags.c_contiguous:
        array[..., rows] = values
        return
    flat = array.reshape((-1, array.shape[-1]))
    new = np.broadcast_to(values, (*array.shape[:-1], rows.size)).reshape((-1, rows.size))
    for row in range(flat.shape[0]):
        flat[row][rows] = new[row]


# --- legal actions -----------------------------------------------------------------------


def _main_landing(table: Tables, own: Array, card: Array) -> tuple[Array, Array]:
    """The landing of each own pawn by the card's own move (MOVE), and whether the card
    allows it before looking at the other pawns."""
    forward, out = _lookup_pair(table.card_moves, card)
    in_start = own == START
    on_board = (own != HOME) & ~in_start
    landing = select(in_start, out, _wrapped(own - forward))
    able = select(in_start, out >= 0, on_board & (landing >= 0) & (forward != 0))
    return landing, able


def _move_lanes(table: Tables, own: Array, card: Array) -> Array:
    """``(4, *batch)``: MOVE lanes."""
    landing, able = _main_landing(table, own, card)
    return able & ~_blocked(own, landing)


def _back1_lanes(own: Array, card: Array) -> Array:
    """``(4, *batch)``: a 10's backward 1 (BACK1 lanes)."""
    on_board = (own != HOME) & (own != START)
    return on_board & (card == 10) & ~_blocked(own, _wrapped(own + I8(1)))


def _padded(lanes: Array, axis: int, players: int) -> Array:
    """Lanes over the opponents padded to the encoding's 3 opponents."""
    xp = namespace(lanes)
    missing = OPPONENTS - (players - 1)
    if not missing:
        return lanes
    shape = list(lanes.shape)
    shape[axis] = missing
    return xp.concatenate([lanes, xp.zeros(tuple(shape), dtype=bool)], axis=axis)


def _sorry_lanes(pawns: Array, active: Array) -> tuple[Array]:
    """``(12, *batch)``: a Sorry! from Start onto each opponent pawn on the track."""
    targets = _on_track(pawns[1:])
    lanes = _padded(targets & (any0(pawns[0] == START) & active), 0, pawns.shape[0])
    return (lanes.reshape((OPPONENTS * SLOTS, *active.shape)),)


def _switch_lanes(pawns: Array, active: Array) -> tuple[Array]:
    """``(48, *batch)``: an 11 switch of each own pawn on the track with each opponent's."""
    lanes = _on_track(pawns[0])[:, None, None] & _on_track(pawns[1:])[None] & active
    lanes = _padded(lanes, 1, pawns.shape[0])
    return (lanes.reshape((SLOTS * OPPONENTS * SLOTS, *active.shape)),)


#: The (first, second) slots of the splits, in action order, and for each the place of
#: the pair (second, first).
_PAIRS: Final = [(i, j) for i in range(SLOTS) for j in range(SLOTS) if i != j]
_FIRSTS: Final = np.array([i for i, _ in _PAIRS], dtype=np.intp)
_SECONDS: Final = np.array([j for _, j in _PAIRS], dtype=np.intp)
_SWAPPED: Final = np.array([_PAIRS.index((j, i)) for i, j in _PAIRS], dtype=np.intp)
#: ``_K_SHIFTS``: bit k - 1 of a split mask is the lane of a first part of k.
_K_SHIFTS: Final = np.arange(SPLIT_COUNTS, dtype=np.uint8)


def _split_masks(table: Tables, own: Array) -> Array:
    """``(12, *batch)`` uint8: for each pair of slots (i, j) in action order, bit k - 1 set
    where "slot i forward k, then slot j forward 7 - k" is legal (docs/rules.md: "The split 7").

    Slot i's first parts (not past Home), less those landing on another own pawn; those of
    the pair itself (``split_pair``, :func:`_split_tables`); and the own pawns standing
    where j's second part lands, each its own bit (two own pawns never share a square)."""
    xp = namespace(own)
    batch = own.shape[1:]
    firsts, seconds = xp.asarray(_FIRSTS), xp.asarray(_SECONDS)
    first_at, second_at = xp.take(own, firsts, axis=0), xp.take(own, seconds, axis=0)
    # how many squares the second pawn of each pair stands ahead of the first, less one
    gap = as_uint8(first_at - second_at) - np.uint8(1)  # 0-5: a part of gap + 1 reaches it
    near = (gap < np.uint8(SPLIT_COUNTS)) & (second_at != HOME)
    reaching = xp.left_shift(np.uint8(1), xp.minimum(gap, np.uint8(7)))  # a first part of gap + 1
    second_reaching = xp.left_shift(np.uint8(1), np.uint8(5) - xp.minimum(gap, np.uint8(5)))  # 7 - (gap + 1)
    blocks = select(near, reaching, np.uint8(0)).reshape((SLOTS, SLOTS - 1, *batch))
    occupied = select(near, second_reaching, np.uint8(0))
    movable = (own != HOME) & (own != START)
    below_home = xp.left_shift(np.uint8(1), xp.minimum(as_uint8(own), np.uint8(SPLIT_COUNTS))) - np.uint8(1)
    start = select(movable, below_home, np.uint8(0))  # first parts that do not pass Home
    first_ok = start & ~(blocks[:, 0] | blocks[:, 1] | blocks[:, 2])
    by_second = occupied.reshape((SLOTS, SLOTS - 1, *batch))
    in_way = by_second[:, 0] | by_second[:, 1] | by_second[:, 2]  # any other own pawn, by slot j
    # the first pawn has moved away: only the pawns besides i and j stand in j's way
    in_way = xp.take(in_way, seconds, axis=0) & ~xp.take(occupied, xp.asarray(_SWAPPED), axis=0)
    pair = xp.take(xp.asarray(table.split_pair), first_at.astype(xp.int32) * DISTANCES + second_at)
    free = (pair & np.uint16(0xFF)).astype(xp.uint8)
    crowded = (pair >> np.uint16(8)).astype(xp.uint8)
    return xp.take(first_ok, firsts, axis=0) & free & ~(in_way & crowded)


def _split_lanes(table: Tables, own: Array, active: Array) -> tuple[Array]:
    """``(72, *batch)``: the legal split 7s (SPLIT lanes) where ``active``."""
    masks = _split_masks(table, own)
    batch = active.ndim
    lanes = (masks[:, None] >> column(_K_SHIFTS, batch, np.uint8)) & np.uint8(1)
    return ((lanes.reshape((-1, *active.shape)) != 0) & active,)


#: The rare kinds of card whose lanes NumPy works out only where they are held:
#: (card, first lane, kernel's name).
_RARE: Final = ((7, SPLIT, "split"), (11, SWITCH, "switch"), (SORRY, SORRY_LANE, "sorry"))
_RARE_CARDS: Final = tuple(card for card, _, _ in _RARE)


def _rare_groups(table: Tables, pawns: Array, card: Array) -> Iterator[tuple[Array, Array, int]]:
    """NumPy's way with the rare cards: for each, the games holding it, those lanes, and
    the first lane of its kind."""
    for (_, first, name), rows in zip(_RARE, _rows_of(card, _RARE_CARDS), strict=True):
        if not rows.size:
            continue
        every = np.ones(rows.size, dtype=bool)
        if name == "split":
            found = _split_lanes(table, np.take(pawns[0], rows, axis=1), every)[0]
        else:
            found = (_switch_lanes if name == "switch" else _sorry_lanes)(np.take(pawns, rows, axis=-1), every)[0]
        yield rows, found, first


class _RareChoice(NamedTuple):
    """NumPy's random player with a rare card: the games holding it, how many lanes of the
    card's own kind each has, and the lane numbered ``pick`` (0 <= pick < count) of each
    (any lane where pick is out of range: it is not used)."""

    rows: Array
    count: Array
    lane: Callable[[Array], Array]


def _rare_choices(
    config: Config, games: Games, held_by: list[Array], simple: Array, distinct: bool = True
) -> list[_RareChoice]:
    """The rare cards' lanes (``held_by``: the games holding each) as bit masks, counted
    and numbered without building them; with ``distinct``, the lowest lane of each outcome
    only: the lanes of a 7 or an 11 that end as a lower one does are left out, its MOVE
    lanes' bits cleared from ``simple`` (:func:`distinct_lanes`)."""
    table = tables(config)
    choices = []
    for (_, _, name), rows in zip(_RARE, held_by, strict=True):
        if not rows.size:
            continue
        held = np.take(games.pawns, rows, axis=-1)
        if name == "sorry":
            theirs = _bit_mask(_on_track(held[1:]).reshape((-1, rows.size)))  # bit 4 (o - 1) + s
            targets = np.bitwise_count(theirs).astype(np.int16)
            choices.append(_RareChoice(rows, targets * any0(held[0] == START), functools.partial(_sorry_lane, theirs)))
            continue
        sides = _sides(config, games.turn.take(rows)) if distinct else None
        if name == "split":
            masks = _split_masks(table, held[0])
            some = np.flatnonzero(masks.any(axis=0)) if distinct else rows[:0]  # games with a split
            if some.size and sides is not None:
                move = _unpacked(simple.take(rows[some]))
                pawns, card = held[..., some], games.card.take(rows[some])
                found = _seven_repeats(table, pawns, sides[:, some], card, move, masks[:, some])
                masks[:, some] &= ~_split_masks_of(found[SLOTS:])
                simple[rows[some]] &= ~_lane_bits(found[:SLOTS])
            choices.append(_masks_choice(masks, rows, SPLIT, SPLIT_COUNTS, _nth_bit_8))
            continue
        targets = _padded(_on_track(held[1:]), 0, config.players).reshape((-1, rows.size))
        switch = (_on_track(held[0])[:, None] & targets[None]).reshape((-1, rows.size))
        some = np.flatnonzero(_sliding_switches(config, held, sides, switch)) if sides is not None else rows[:0]
        if some.size and sides is not None:
            move = _unpacked(simple.take(rows[some]))
            pawns, card = held[..., some], games.card.take(rows[some])
            found = _eleven_duplicates(table, pawns, sides[:, some], card, ~any0(move)[None], move, switch[:, some])
            switch[:, some] &= ~found[BACK1_LANE:]
            simple[rows[some]] &= ~_lane_bits(found[MOVE_LANE:BACK1_LANE])
        kept = switch.reshape((SLOTS, OPPONENTS * SLOTS, rows.size))
        masks = np.stack([_bit_mask(kept[slot]) for slot in range(SLOTS)])
        choices.append(_masks_choice(masks, rows, SWITCH, OPPONENTS * SLOTS, _nth_bit))
    return choices


def _sorry_lane(targets: Array, pick: Array) -> Array:
    """A Sorry!'s lane onto its target number ``pick`` (``targets``: their bits)."""
    return SORRY_LANE + _nth_bit(targets, pick)


def _bit_mask(flags: Array) -> Array:
    """``(n, *batch)`` booleans (n <= 16) as the bits of one uint16 per game."""
    weights = column(1 << np.arange(flags.shape[0]), flags.ndim - 1, np.uint16)
    return (flags.view(np.uint8) * weights).sum(axis=0, dtype=np.uint16)


#: ``_NTH_BIT_12[bits * 12 + n]``: the position of set bit number n (from the lowest) of
#: 12-bit ``bits`` (0 if none).
_NTH_BIT_12: Final = np.array(
    [([bit for bit in range(12) if bits >> bit & 1] + [0] * 12)[n] for bits in range(1 << 12) for n in range(12)],
    dtype=np.int8,
)


def _nth_bit(bits: Array, nth: Array) -> Array:
    """The position of set bit number ``nth`` (from 0, from the lowest) of 12-bit ``bits``."""
    index = bits.astype(np.intp) * 12 + np.clip(nth, 0, 11)
    return _NTH_BIT_12.take(index).astype(np.int32)


def _nth_bit_8(bits: Array, nth: Array) -> Array:
    """The position of set bit number ``nth`` of 8-bit ``bits``."""
    return _NTH_BIT.take(bits.astype(np.int32) * 8 + np.clip(nth, 0, 7))


def _split_lanes_of(masks: Array) -> Array:
    """``(72, n)``: the split lanes of :func:`_split_masks`' ``(12, n)`` masks."""
    return ((masks[:, None] >> _K_SHIFTS[:, None]) & np.uint8(1)).reshape((-1, masks.shape[-1])) != 0


def _split_masks_of(lanes: Array) -> Array:
    """``(12, n)``: split lanes ``(72, n)`` as masks (bit k - 1: the first part k)."""
    by_pair = lanes.reshape((len(_PAIRS), SPLIT_COUNTS, lanes.shape[-1])).view(np.uint8)
    return (by_pair << _K_SHIFTS[:, None]).sum(axis=1, dtype=np.uint8)


def _unpacked(bits: Array) -> Array:
    """``(4, n)``: the low four bits of ``bits`` (uint8: MOVE lanes, or BACK1 lanes shifted down)."""
    return ((bits[None] >> column(np.arange(SLOTS), 1, np.uint8)) & np.uint8(1)) != 0


def _masks_choice(
    masks: Array, rows: Array, first: int, width: int, nth: Callable[[Array, Array], Array]
) -> _RareChoice:
    """A rare card's lanes from their masks, group by group in action order: bit b of
    ``masks[g]`` is lane ``first + width g + b`` (``nth``: the position of a mask's set bit
    of a rank)."""
    counts = np.bitwise_count(masks).astype(np.int16)
    running = cumsum0(counts)  # lanes up to each group's, included

    def lane(pick: Array) -> Array:
        group = np.minimum(np.sum(running <= pick, axis=0, dtype=np.int16), I16(masks.shape[0] - 1))
        at = group.astype(np.intp) * rows.size + np.arange(rows.size)  # (group, game) in the masks
        rank = pick - running.ravel().take(at) + counts.ravel().take(at)
        return first + width * group.astype(np.int32) + nth(masks.ravel().take(at), rank)

    return _RareChoice(rows, running[-1], lane)


def legal_lanes(config: Config, games: Games) -> Array:
    """``(141, *batch)`` booleans: which actions each game's player to move may take with
    its card (none once the game is over).  A card that cannot be used has one lane set:
    the pass; an 11 has the pass whenever no pawn can go forward 11."""
    xp = namespace(games.pawns)
    table = tables(config)
    _check_games(config, games)
    pawns, card = games.pawns, games.card
    own = pawns[0]
    move = _move_lanes(table, own, card)
    back1 = _back1_lanes(own, card)
    if _is_fast(xp, card):
        lanes = np.zeros((ACTIONS, *card.shape), dtype=bool)
        lanes[MOVE_LANE:BACK1_LANE] = move
        lanes[BACK1_LANE:SPLIT] = back1
        for rows, found, first in _rare_groups(table, pawns, card):
            lanes[first : first + found.shape[0], rows] = found
        used = np.any(lanes[1:], axis=0)
    else:
        split = _split_lanes(table, own, card == 7)[0]
        switch = _switch_lanes(pawns, card == 11)[0]
        sorry = _sorry_lanes(pawns, card == SORRY)[0]
        lanes = xp.concatenate([xp.zeros((1, *card.shape), dtype=bool), move, back1, split, switch, sorry], axis=0)
        used = any0(lanes[1:])
    forfeit = select(card == 11, ~any0(move), ~used) & (card != 0)
    if _is_fast(xp, card):
        lanes[0] = forfeit
        return lanes
    return xp.concatenate([forfeit[None], lanes[1:]], axis=0)


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


def _subset(games: Games, rows: Array) -> Games:
    return Games(*(np.take(field, rows, axis=-1) for field in games))


def distinct_lanes(config: Config, games: Games, lanes: Array | None = None) -> Array:
    """``(141, *batch)`` booleans: the legal lanes (:func:`legal_lanes`, or ``lanes``), only
    the lowest of those that make the same position: one lane for each of the core's
    :func:`~pardon.core.moves.legal_moves`, as many as it lists."""
    xp = namespace(games.pawns)
    if lanes is None:
        lanes = legal_lanes(config, games)
    card = games.card
    if not _is_fast(xp, card):
        return lanes & ~_group_duplicates(config, games, lanes)
    table = tables(config)
    kept = np.array(lanes, dtype=bool)
    kept[MOVE_LANE:BACK1_LANE] &= ~_start_duplicates(games.pawns[0])
    fours, tens, sevens, elevens = _rows_of(card, _COMPARED)
    steps = np.concatenate([fours, tens])
    if steps.size:
        some, legal = _subset(games, steps), lanes[:, steps]
        move, back1 = legal[MOVE_LANE:BACK1_LANE], legal[BACK1_LANE:SPLIT]
        steps = steps[_steps_compared(table, some.pawns[0], some.card, move, back1)]
    if steps.size:
        some, legal = _subset(games, steps), lanes[:, steps]
        sides = _sides(config, some.turn)
        move, back1 = legal[MOVE_LANE:BACK1_LANE], legal[BACK1_LANE:SPLIT]
        kept[MOVE_LANE:SPLIT, steps] &= ~_step_duplicates(table, some.pawns, sides, some.card, move, back1)
    sevens = sevens[lanes[SPLIT:SWITCH, sevens].any(axis=0)]
    if sevens.size:
        some, legal = _subset(games, sevens), lanes[:, sevens]
        sides = _sides(config, some.turn)
        masks = _split_masks_of(legal[SPLIT:SWITCH])
        found = _seven_repeats(table, some.pawns, sides, some.card, legal[MOVE_LANE:BACK1_LANE], masks)
        kept[MOVE_LANE:BACK1_LANE, sevens] &= ~found[:SLOTS]
        kept[SPLIT:SWITCH, sevens] &= ~found[SLOTS:]
    if elevens.size:
        some = _subset(games, elevens)
        elevens = elevens[
            _sliding_switches(config, some.pawns, _sides(config, some.turn), lanes[SWITCH:SORRY_LANE, elevens])
        ]
    if elevens.size:
        some, legal = _subset(games, elevens), lanes[:, elevens]
        sides = _sides(config, some.turn)
        found = _eleven_duplicates(
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


# --- random players --------------------------------------------------------------------------


def choose_uniform(lanes: Array, bits: Array) -> Array:
    """The legal lane numbered ``bits`` modulo the game's number of legal lanes, in lane
    order: with random ``bits``, a uniform choice among the legal actions."""
    xp = namespace(lanes)
    counts = xp.sum(lanes, axis=0, dtype=xp.int16)
    pick = (bits % xp.maximum(counts, I16(1)).astype(xp.uint32)).astype(xp.int16)
    before = cumsum0(lanes.astype(xp.int16)) <= pick
    return xp.sum(before, axis=0, dtype=xp.int16).astype(xp.int32) % ACTIONS


#: ``_NTH_BIT[byte * 8 + n]``: the position of the n-th set bit of ``byte`` (0 if none).
_NTH_BIT: Final = np.array(
    [([bit for bit in range(8) if byte >> bit & 1] + [0] * 8)[n] for byte in range(256) for n in range(8)],
    dtype=np.int32,
)
_BIT_WEIGHTS: Final = np.array([1, 2, 4, 8], dtype=np.uint8)


def _lane_bits(lanes: Array) -> Array:
    """``(4, n)`` lanes (one per slot) as the bits of a uint8."""
    return (lanes.view(np.uint8) * _BIT_WEIGHTS[:, None]).sum(axis=0, dtype=np.uint8)


def random_actions(config: Config, games: Games) -> Array:
    """One legal action per game, uniformly among its legal lanes (the mask an agent sees),
    from the game's own random stream (its seed and the cards drawn so far):
    ``choose_uniform(legal_lanes(...), bits)`` (0 for a game over).  A move that several
    actions make (leaving Start with any of the pawns there, a split 7 in either order) is
    chosen as often as it has actions: :func:`random_moves` chooses as the core's ``random``
    player does.  NumPy makes the same choice without building all the lanes."""
    return _random_choice(config, games, distinct=False)


def random_moves(config: Config, games: Games) -> Array:
    """One legal action per game, uniformly among its distinct moves (one lane for each
    position its legal actions can make: :func:`distinct_lanes`, as the core's ``random``
    player chooses among its legal moves), from the game's own random stream:
    ``choose_uniform(distinct_lanes(...), bits)`` (0 for a game over).  Working out which
    actions make the same move costs time: NumPy's choice takes about 2.5 times as long per
    card as :func:`random_actions`'s, without building all the lanes either."""
    return _random_choice(config, games, distinct=True)


def _random_choice(config: Config, games: Games, distinct: bool) -> Array:
    """:func:`random_moves` (``distinct``) or :func:`random_actions`."""
    xp = namespace(games.pawns)
    bits = random_bits(games.seed, games.drawn, STREAM_CHOICE)
    if not _is_fast(xp, games.card):
        lanes = distinct_lanes(config, games) if distinct else legal_lanes(config, games)
        return choose_uniform(lanes, bits)
    table = tables(config)
    pawns, card = games.pawns, games.card
    own = pawns[0]
    tens, fours, *held_by = _rows_of(card, (10, 4, *_RARE_CARDS))
    moves = _move_lanes(table, own, card)
    simple = _lane_bits(moves & ~_start_duplicates(own) if distinct else moves)
    if tens.size:  # a 10's backward 1, worked out where a 10 is held
        ten_own = own.take(tens, axis=1)
        simple[tens] |= _lane_bits(_back1_lanes(ten_own, card.take(tens))) << np.uint8(4)
    steps = np.concatenate([fours, tens]) if distinct else fours[:0]
    if steps.size:  # steps of a 4 or a 10, compared where two or more of them slide
        legal = simple.take(steps)
        move, back1 = _unpacked(legal), _unpacked(legal >> np.uint8(4))
        compared = _steps_compared(table, own.take(steps, axis=1), card.take(steps), move, back1)
        steps, legal, move, back1 = steps[compared], legal[compared], move[:, compared], back1[:, compared]
    if steps.size:
        held, sides = np.take(pawns, steps, axis=-1), _sides(config, games.turn.take(steps))
        found = _step_duplicates(table, held, sides, card.take(steps), move, back1)
        simple[steps] = legal & ~(_lane_bits(found[:SLOTS]) | (_lane_bits(found[SLOTS:]) << np.uint8(4)))
    rare = _rare_choices(config, games, held_by, simple, distinct)
    simple_count = np.bitwise_count(simple).astype(np.int16)
    rare_count = np.zeros(card.shape, dtype=np.int16)
    for choice in rare:
        rare_count[choice.rows] = choice.count
    used = simple_count + rare_count
    forfeit = select(card == 11, (simple & np.uint8(15)) == 0, used == 0) & (card != 0)
    total = used + forfeit
    pick = (bits % np.maximum(total, 1).astype(np.uint32)).astype(np.int16) - forfeit
    # lane 0 is the pass, then the simple lanes (MOVE, BACK1), then the rare card's
    index = simple.astype(np.int32) * 8 + np.clip(pick, 0, 7)
    actions = (MOVE_LANE + np.take(_NTH_BIT, index)) * (pick >= 0)
    for choice in rare:
        beyond = pick.take(choice.rows) - simple_count.take(choice.rows)
        chosen = choice.lane(beyond)
        actions[choice.rows] = select(beyond >= 0, chosen, actions.take(choice.rows))
    return actions * (card != 0)


# --- playing an action ---------------------------------------------------------------------


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


def _behind(squares: Array, square: Array) -> Array:
    """How many squares each of ``squares`` lies clockwise past ``square`` (0–59)."""
    behind = squares - square
    return behind + as_int8(behind < 0) * I8(TRACK_SQUARES)


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


def _distance_from(square: Array, side: Array) -> Array:
    """The distance to Home of a pawn of relative ``side`` standing on relative ``square``."""
    distance = I8(2) + side * I8(SIDE) - square
    distance = distance + as_int8(distance < 0) * I8(TRACK_SQUARES)
    return distance + I8(FIRST_TRACK)


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
    return _advance(config, games._replace(pawns=pawns), playing), played


def _action_index(xp: ModuleType, card: Array, actions: Array) -> Array:
    """``actions`` as int32, one per game (``card``: the games' cards); on NumPy each one
    checked to be in the encoding (under JAX's ``jit`` the values cannot be looked at)."""
    given = xp.asarray(actions)
    if tuple(given.shape) != tuple(card.shape):  # one action would be broadcast to every game
        wanted, found = _shape_words(tuple(card.shape)), _shape_words(tuple(given.shape))
        raise InvalidError(f"give one action per game, an array of {wanted}, not {found}")
    index = given.astype(xp.int32)
    if is_numpy(xp) and (given.dtype.kind not in "iu" or (index.view(np.uint32) >= ACTIONS).any()):
        # a gather would wrap -1 round to action 140, and fail inside on 141
        raise InvalidError(f"actions are whole numbers from 0 to {ACTIONS - 1}, one per game")
    return index


def _check_opponents(config: Config, index: Array, kind: Array, rows: tuple[Array, Array] | None) -> None:
    """NumPy: IllegalError for a switch or a Sorry! on an opponent the games do not have
    (the player 3 seats on, with 2 players), whose pawns would be read past the game's own
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
            others = "the other sits 1 seat on" if config.players == 2 else "the others sit 1 or 2 seats on"
            raise IllegalError(
                f"action {action} of {_game_words(index.shape, at)} ({describe_action(action)}) is never legal "
                f"with {config.players} players: {others}"
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


def _advance(config: Config, games: Games, playing: Array) -> Games:
    """End the game of a mover with every pawn Home; else pass the turn, unless a 2 lets
    the player draw again."""
    xp = namespace(games.pawns)
    table = tables(config)
    won = all0(games.pawns[0] == HOME) & playing
    again = (games.card == 2) if table.draw_again_on_2 else xp.zeros_like(won)
    passing = playing & ~won & ~again
    seats = games.pawns.shape[0]  # seat by seat: NumPy's temporaries stay small
    pawns = xp.stack([select(passing, games.pawns[(seat + 1) % seats], games.pawns[seat]) for seat in range(seats)])
    following = games.turn + I8(1)
    following = following - as_int8(following == config.players) * I8(config.players)
    turn = select(passing, following, games.turn)
    winner = select(won, games.turn, games.winner)
    return games._replace(pawns=pawns, turn=turn, winner=winner, card=select(playing, games.card, I8(0)))


def _shape_words(shape: tuple[int, ...]) -> str:
    """An array's shape as a message says it: "a single number", "shape 3", "shape 3×2"."""
    return "a single number" if not shape else f"shape {'×'.join(map(str, shape))}"


def _check_games(config: Config, games: Games) -> None:
    """InvalidError for games made for another number of players than ``config``'s (their
    rows of pawns say it): the seats would be read wrong, not refused."""
    made_for = games.pawns.shape[0]
    if made_for != config.players:
        raise InvalidError(f"these games are of {made_for} players, and the config plays {config.players}")


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
    index = _action_index(np, card, np.asarray(actions)).astype(np.intp)
    lanes = np.asarray(legal_lanes(config, games))
    legal = np.take_along_axis(lanes, index[None], axis=0)[0] | (np.asarray(games.winner) >= 0)
    if not legal.all():
        at = int(np.flatnonzero(~legal)[0])
        allowed = np.flatnonzero(lanes.reshape((ACTIONS, -1))[:, at]).tolist()
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
    fresh = new_games(config, seeds)
    over = games.winner >= 0
    return Games(*(select(over, new, old) for new, old in zip(fresh, games, strict=True)))
