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
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Final, NamedTuple

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
from pardon.batch.backend import Array, all0, any0, as_int8, column, cumsum0, is_numpy, namespace, select
from pardon.core.board import FIRST_TRACK, HOME, LAST_TRACK, START, START_EXIT
from pardon.core.cards import CARDS, DECKS, SORRY
from pardon.core.errors import InvalidError
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.state import seats_for

__all__ = [
    "Config",
    "Games",
    "Played",
    "draw",
    "legal_lanes",
    "new_games",
    "play",
    "random_actions",
    "random_bits",
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

#: The streams of a game's random bits (see :func:`random_bits`).
STREAM_DRAW: Final = 1
STREAM_LEADER: Final = 2
STREAM_CHOICE: Final = 3

#: The forward number cards (a 10 and an 11 forward, a 7 whole): in the 2013 rules any of
#: them brings a pawn out of Start (RULES.md §8).
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
        if self.players not in (2, 3, 4):
            raise InvalidError(f"the batch engine plays 2, 3 or 4 players, not {self.players}")

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
    #: Cards of each kind in a full pack, and each kind's card.
    deck: npt.NDArray[np.int8]
    card_of_kind: npt.NDArray[np.int8]
    first_row: npt.NDArray[np.int8]
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
        np.array(CARDS, dtype=I8),
        first_row,
        rules.draw_again_on_2,
        rules.switched_opponent_slides,
        rules.leader != "named",
    )


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
    xp = namespace(seeds)
    table = tables(config)
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


def draw(config: Config, games: Games) -> Games:
    """Each game still going on turns up its next card; an empty pack is first made of
    the discards again (the whole deck: nothing else is ever out of the pack)."""
    xp = namespace(games.pack)
    table = tables(config)
    batch = games.card.ndim
    playing = games.winner < 0
    empty = (games.left == 0) & playing
    pack = select(empty, column(table.deck, batch), games.pack)
    left = select(empty, I8(config.deck_size), games.left)
    divisor = xp.maximum(left, I8(1)).astype(xp.uint32)
    pick = as_int8(random_bits(games.seed, games.drawn, STREAM_DRAW) % divisor)
    below = cumsum0(pack) <= pick  # the kinds whose cards all come before the one picked
    kind = xp.minimum(xp.sum(below, axis=0, dtype=xp.int8), I8(len(CARDS) - 1))  # a game over picks none
    taken = (column(np.arange(len(CARDS)), batch) == kind) & playing
    card = xp.take(xp.asarray(table.card_of_kind), kind.astype(xp.int32))
    return games._replace(
        card=select(playing, card, I8(0)),
        pack=pack - as_int8(taken),
        left=left - as_int8(playing),
        drawn=games.drawn + playing.astype(xp.int32),
    )


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
    """``(players, *batch)``: each seat's side of the board relative to the mover's."""
    xp = namespace(turn)
    return xp.take(xp.asarray(tables(config).sides), turn.astype(xp.int32), axis=1)


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
) -> tuple[Array, ...]:
    """``kernel(*arrays)`` where ``needed``, ``kept`` elsewhere: on NumPy the kernel runs on
    the games needing it only, on JAX on every game (then selected)."""
    if not fast:
        return tuple(select(needed, new, old) for new, old in zip(kernel(*arrays), kept, strict=True))
    rows = np.flatnonzero(needed)
    if not rows.size:
        return kept
    results = kernel(*(array[..., rows] for array in arrays))
    merged = []
    for new, old in zip(results, kept, strict=True):
        out = old.copy()
        out[..., rows] = new
        merged.append(out)
    return tuple(merged)


# --- legal actions -----------------------------------------------------------------------


def _main_landing(table: Tables, own: Array, card: Array) -> tuple[Array, Array]:
    """The landing of each own pawn by the card's own move (MOVE), and whether the card
    allows it before looking at the other pawns."""
    xp = namespace(own)
    forward = xp.take(xp.asarray(table.forward), card.astype(xp.int32))
    out = xp.take(xp.asarray(table.out), card.astype(xp.int32))
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


def _split_lanes(table: Tables, own: Array, active: Array) -> tuple[Array]:
    """``(72, *batch)``: the legal split 7s (SPLIT lanes) where ``active``.

    The first part moves slot i forward k and is judged in the position before the card;
    the second moves slot j forward 7 - k and is judged after the first, its bumps and its
    slide (RULES.md §3.4): j must not have been swept back to Start, and must not land on
    an own pawn where it then stands (the first pawn where it ended, or a pawn the slide
    did not sweep).  NumPy works out the slides only for the games where a first part
    rides one (few do).
    """
    xp = namespace(own)
    counts = column(np.arange(1, SPLIT_COUNTS + 1), active.ndim)  # (6, 1, ...)
    movable = (own != HOME) & (own != START)
    first = own[:, None] - counts  # [i]: where the first part lands, by k
    first_ok = movable[:, None] & (first >= 0) & ~_blocked(own, first) & active
    second = own[:, None] - (I8(7) - counts)  # [j]: where the second part lands, by k
    second_ok = movable[:, None] & (second >= 0)
    occupied = _blocked(own, second)  # an own pawn stands there before the card
    index = xp.maximum(first, I8(0)).astype(xp.int32)
    length = xp.take(xp.asarray(table.ride_length), index)
    rides = (length > 0) & first_ok
    if not _is_fast(xp, active):
        return (
            _split_pairs(
                own, first, first_ok, second, second_ok, occupied, _slide_parts(table, own, first, length, second)
            ),
        )
    sliding = np.flatnonzero(any0(any0(rides)))
    plain = _split_pairs(own, first, first_ok, second, second_ok, occupied, None)
    if sliding.size:
        parts = _slide_parts(table, own[:, sliding], first[..., sliding], length[..., sliding], second[..., sliding])
        plain[:, sliding] = _split_pairs(
            own[..., sliding],
            first[..., sliding],
            first_ok[..., sliding],
            second[..., sliding],
            second_ok[..., sliding],
            occupied[..., sliding],
            parts,
        )
    return (plain,)


_SlideParts = tuple[Array, Array, Array, Array, Array]


def _slide_parts(table: Tables, own: Array, first: Array, length: Array, second: Array) -> _SlideParts:
    """What the split needs of the first part's slides: where it ends, its triangle's
    square, how far it sweeps, and the squares of the own pawns and of the second landings."""
    xp = namespace(own)
    end = xp.take(xp.asarray(table.ride_end), xp.maximum(first, I8(0)).astype(xp.int32))
    return end, _square(first), length, _square(own), _square(second)


#: The (first, second) slots of the splits, in action order.
_FIRSTS: Final = np.array([i for i in range(SLOTS) for j in range(SLOTS) if i != j], dtype=np.intp)
_SECONDS: Final = np.array([j for i in range(SLOTS) for j in range(SLOTS) if i != j], dtype=np.intp)


def _split_pairs(
    own: Array,
    first: Array,
    first_ok: Array,
    second: Array,
    second_ok: Array,
    occupied: Array,
    slides: _SlideParts | None,
) -> Array:
    """The split lanes, for all 12 pairs of slots at once, in action order (first slot,
    then the second, then k)."""
    xp = namespace(own)
    firsts, seconds = xp.asarray(_FIRSTS), xp.asarray(_SECONDS)

    def of_first(array: Array) -> Array:
        return xp.take(array, firsts, axis=0)

    def of_second(array: Array) -> Array:
        return xp.take(array, seconds, axis=0)

    landing = of_second(second)  # (pair, k, *batch)
    # an own pawn stands where the second part lands, and it is not the first pawn
    taken = of_second(occupied) & (of_first(own)[:, None] != landing)
    ok = of_first(first_ok) & of_second(second_ok)
    if slides is None:
        blocked = (landing == of_first(first)) | taken
        ok = ok & ~(blocked & (landing != HOME))
    else:
        end, triangle, length, own_square, second_square = slides
        triangle, length = of_first(triangle), of_first(length)

        def swept(square: Array) -> Array:
            behind = _behind(square, triangle)
            return (behind >= 1) & (behind <= length)

        blocked = (landing == of_first(end)) | (taken & ~swept(of_second(second_square)))
        ok = ok & ~swept(of_second(own_square)[:, None]) & ~(blocked & (landing != HOME))
    return ok.reshape((-1, *ok.shape[2:]))


#: The rare kinds of card whose lanes NumPy works out only where they are held:
#: (card, first lane, kernel's name).
_RARE: Final = ((7, SPLIT, "split"), (11, SWITCH, "switch"), (SORRY, SORRY_LANE, "sorry"))


def _rare_groups(table: Tables, pawns: Array, card: Array) -> Iterator[tuple[Array, Array, int]]:
    """NumPy's way with the rare cards: for each, the games holding it where it may have a
    lane of its own (a split needs two pawns out of Start and not Home), those lanes, and
    the first lane of its kind."""
    own = pawns[0]
    for value, first, name in _RARE:
        rows = np.flatnonzero(card == value)
        if name == "split" and rows.size:
            mine = own[:, rows]
            movable = ((mine != HOME) & (mine != START)).sum(axis=0, dtype=np.int8) >= 2
            rows = rows[movable]
        if not rows.size:
            continue
        every = np.ones(rows.size, dtype=bool)
        if name == "split":
            found = _split_lanes(table, own[:, rows], every)[0]
        else:
            found = (_switch_lanes if name == "switch" else _sorry_lanes)(pawns[..., rows], every)[0]
        yield rows, found, first


def legal_lanes(config: Config, games: Games) -> Array:
    """``(141, *batch)`` booleans: which actions each game's player to move may take with
    its card (none once the game is over).  A card that cannot be used has one lane set:
    the pass; an 11 has the pass whenever no pawn can go forward 11."""
    xp = namespace(games.pawns)
    table = tables(config)
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


def random_actions(config: Config, games: Games) -> Array:
    """One legal action per game, uniformly among its legal lanes, from the game's own random
    stream (its seed and the cards drawn so far): ``choose_uniform(legal_lanes(...), bits)``
    (0 for a game over).  NumPy makes the same choice without building all the lanes."""
    xp = namespace(games.pawns)
    bits = random_bits(games.seed, games.drawn, STREAM_CHOICE)
    if not _is_fast(xp, games.card):
        return choose_uniform(legal_lanes(config, games), bits)
    table = tables(config)
    pawns, card = games.pawns, games.card
    own = pawns[0]
    move = _move_lanes(table, own, card)
    back1 = _back1_lanes(own, card)
    simple = (move.view(np.uint8) * _BIT_WEIGHTS[:, None]).sum(axis=0, dtype=np.uint8)
    simple |= (back1.view(np.uint8) * _BIT_WEIGHTS[:, None]).sum(axis=0, dtype=np.uint8) << np.uint8(4)
    simple_count = np.bitwise_count(simple).astype(np.int16)
    rare_count = np.zeros(card.shape, dtype=np.int16)
    rare: list[tuple[Array, Array, int]] = []
    for rows, found, first in _rare_groups(table, pawns, card):
        rare_count[rows] = found.sum(axis=0, dtype=np.int16)
        rare.append((rows, found, first))
    used = simple_count + rare_count
    forfeit = np.where(card == 11, (simple & np.uint8(15)) == 0, used == 0) & (card != 0)
    total = used + forfeit
    pick = (bits % np.maximum(total, 1).astype(np.uint32)).astype(np.int16) - forfeit
    # lane 0 is the pass, then the simple lanes (MOVE, BACK1), then the rare card's
    index = simple.astype(np.int32) * 8 + np.clip(pick, 0, 7)
    actions = (MOVE_LANE + np.take(_NTH_BIT, index)) * (pick >= 0)
    for rows, found, first in rare:
        beyond = pick[rows] - simple_count[rows]
        chosen = choose_uniform(found, beyond.astype(np.uint32))
        actions[rows] = np.where(beyond >= 0, first + chosen, actions[rows])
    return actions * (card != 0)


# --- playing an action ---------------------------------------------------------------------


def _pick(values: Array, chosen: Array) -> Array:
    """The entry of ``values`` (along its first axis) where ``chosen`` (one-hot) is set."""
    xp = namespace(values, chosen)
    if not is_numpy(xp):
        return xp.sum(xp.where(chosen, values, 0), axis=0, dtype=values.dtype)
    total = values[0] * chosen[0]
    for index in range(1, values.shape[0]):
        total = total + values[index] * chosen[index]
    return total.astype(values.dtype)


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


def _land(
    table: Tables, pawns: Array, squares: Array, mover: Array, landing: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """The mover's pawn (``mover``: one-hot over seats and slots) lands on ``landing`` (a
    distance): whoever stands there goes back to Start, then the pawn rides a slide it
    lands on, sweeping every other pawn on the slide back to Start (RULES.md §3.3).

    Returns the pawns, how many pawns were sent to Start, and whether the pawn slid.
    """
    xp = namespace(pawns)
    index = xp.clip(landing, I8(0), I8(START)).astype(xp.int32)
    length = xp.take(xp.asarray(table.ride_length), index)
    end = xp.take(xp.asarray(table.ride_end), index)
    behind = _behind(squares, _square(landing))  # negative for a landing off the track
    hit = (behind >= 0) & (behind <= length) & (acting & ~mover)  # landed on, or swept
    pawns = _to_start(hit, pawns)
    pawns = select(mover & acting, end, pawns)
    bumps = xp.sum(hit.reshape((-1, *acting.shape)), axis=0, dtype=xp.int8)
    return pawns, bumps, as_int8((length > 0) & acting)


def _second_part(
    table: Tables, pawns: Array, sides: Array, second: Array, count: Array, acting: Array
) -> tuple[Array, Array, Array]:
    """A split 7's second part: slot ``second`` forward 7 - ``count``, after the first."""
    batch = acting.ndim
    slots = column(np.arange(SLOTS), batch)
    chosen = slots == second
    mover = (column(np.arange(pawns.shape[0]), batch + 1) == 0) & chosen[None]
    origin = _pick(pawns[0], chosen)
    squares = _relative_squares(pawns, sides)
    return _land(table, pawns, squares, mover, origin - (I8(7) - count), acting)


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
    not swept (RULES.md §3.5).  Returns the pawns, how many were sent to Start, slides."""
    xp = namespace(pawns)
    batch = acting.ndim
    flat = (-1, *acting.shape)
    seats = column(np.arange(pawns.shape[0]), batch + 1)
    slots = column(np.arange(SLOTS), batch)
    mover = (seats == 0) & (slots == slot)[None]
    target = (seats == opponent) & (slots == target_slot)[None]
    squares = _relative_squares(pawns, sides)
    mine = _pick(squares.reshape(flat), mover.reshape(flat))  # the mover's square
    theirs = _pick(squares.reshape(flat), target.reshape(flat))  # the target's square
    target_side = _pick(sides, column(np.arange(pawns.shape[0]), batch) == opponent)
    arrived = _distance_from(theirs, xp.zeros_like(theirs))
    index = arrived.astype(xp.int32)
    length = xp.take(xp.asarray(table.ride_length), index) * as_int8(acting)
    end = xp.take(xp.asarray(table.ride_end), index)
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
    pawns, card = games.pawns, games.card
    batch = card.ndim
    fast = _is_fast(xp, card)
    decoded = xp.take(xp.asarray(DECODED), xp.asarray(actions).astype(xp.int32), axis=1)
    kind, slot, second, count, opponent, target_slot = (decoded[field] for field in range(6))
    playing = games.winner < 0
    own = pawns[0]
    in_start = own == START
    start_slot = xp.zeros_like(card) + I8(SLOTS - 1)
    for candidate in range(SLOTS - 2, -1, -1):  # a Sorry! brings out the first pawn in Start
        start_slot = select(in_start[candidate], I8(candidate), start_slot)
    is_sorry = kind == KIND_SORRY
    slots = column(np.arange(SLOTS), batch)
    seats = column(np.arange(config.players), batch + 1)
    moving = slots == select(is_sorry, start_slot, slot)
    mover = (seats == 0) & moving[None]
    sides = _sides(config, games.turn)
    squares = _relative_squares(pawns, sides)
    origin = _pick(own, moving)
    landing = _main_landing(table, origin[None], card)[0][0]
    landing = select(kind == KIND_BACK1, _wrapped(origin + I8(1)), landing)
    landing = select(kind == KIND_SPLIT, origin - count, landing)
    target = (seats == opponent) & (slots == target_slot)[None]
    flat = (-1, *card.shape)
    target_square = _pick(squares.reshape(flat), target.reshape(flat))
    landing = select(is_sorry, _distance_from(target_square, xp.zeros_like(target_square)), landing)
    acting = ((kind == KIND_MOVE) | (kind == KIND_BACK1) | (kind == KIND_SPLIT) | is_sorry) & playing
    pawns, bumps, slides = _land(table, pawns, squares, mover, landing, acting)
    is_split = (kind == KIND_SPLIT) & playing
    pawns, bumps, slides = _on_some(
        fast,
        is_split,
        lambda *arrays: _added(_second_part(table, *arrays[:5]), arrays[5], arrays[6]),
        (pawns, sides, second, count, is_split, bumps, slides),
        (pawns, bumps, slides),
    )
    is_switch = (kind == KIND_SWITCH) & playing
    pawns, bumps, slides = _on_some(
        fast,
        is_switch,
        lambda *arrays: _added(_switch(table, *arrays[:6]), arrays[6], arrays[7]),
        (pawns, sides, slot, opponent, target_slot, is_switch, bumps, slides),
        (pawns, bumps, slides),
    )
    played = Played(card, bumps, slides, (kind == 0) & playing)
    if not advance:
        return games._replace(pawns=pawns), played
    return _advance(config, games._replace(pawns=pawns), playing), played


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
    pawns = select(passing, xp.roll(games.pawns, -1, axis=0), games.pawns)
    turn = select(passing, (games.turn + I8(1)) % I8(config.players), games.turn)
    winner = select(won, games.turn, games.winner)
    return games._replace(pawns=pawns, turn=turn, winner=winner, card=select(playing, games.card, I8(0)))


def step(config: Config, games: Games, actions: Array) -> tuple[Games, Played]:
    """:func:`play` each game's action, then :func:`draw` the next card of each game still
    going on."""
    played, what = play(config, games, actions)
    return draw(config, played), what


def reset_finished(config: Config, games: Games, seeds: Array) -> Games:
    """Games that are over replaced by new games of ``seeds`` (the others kept)."""
    fresh = new_games(config, seeds)
    over = games.winner >= 0
    return Games(*(select(over, new, old) for new, old in zip(fresh, games, strict=True)))
