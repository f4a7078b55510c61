"""The classic move kernel: one colour's legal outcomes of a card (docs/rules.md: "The classic game").

Every variant reads the rules here: :mod:`pardon.core.partners` moves a team's pawns
with these same options, and :mod:`pardon.core.tokens` adds Fire and Ice to what
:func:`pardon.core.partners.board_moves` lists; :mod:`pardon.core.moves` is the public
face (``legal_moves``), and :mod:`pardon.core.playout` the fast random games.

Internally a pawn is a colour-relative distance to Home (:mod:`pardon.core.board`),
so forward is subtraction and "never past your own entrance" is "never below 0".

This module is the engine's hot path, and is built in stages that every caller shares:

* :func:`card_steps` lists a card's moves of one pawn by count (forward, backward, out
  of Start) from the player's own row alone — the one step lister, kept per rules in
  a table, that the playout kernel reads too;
* :func:`options` lists the distinct outcomes of a card as small *options*, cheap
  tuples that are only as resolved as telling outcomes apart requires;
* :func:`realise` turns one option into its actions, bumps and resulting pawns
  (:func:`outcome`: the pawns only).

``classic_moves`` realises every option; a random playout realises only the one it
picks.  Both therefore see the same outcomes in the same order.  The rules are read
in one place: a landing is judged by :func:`land`, a slide by the per-rules tables
of a :class:`Context` (made once per rules, seats and colour).

For speed, generation never builds a map of the board nor a position it does not
return: an occupied square is found by asking the few rows that could hold it, and
outcomes are told apart by an integer code of the change they make (``_CODE``).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from pardon.core.board import (
    COLOURS,
    DISTANCE,
    FIRST_TRACK,
    HOME,
    SLIDE_AT_TRIANGLE,
    SQUARE,
    START,
    START_EXIT,
    TRACK_LENGTH,
    next_seat,
    partner,
)
from pardon.core.cards import SORRY
from pardon.core.rules import Rules
from pardon.core.state import Position

#: What an action does.
STEP: Final = 0  # move a pawn by count (forward, backward, or out of Start)
SWITCH: Final = 1  # 11: exchange squares with an opponent's pawn
BUMP_FROM_START: Final = 2  # Sorry!: from Start onto an opponent's pawn
ICE: Final = 3  # a 1 puts the Ice token on the pawn ``colour``/``origin`` (colour -1: the centre)
FIRE: Final = 4  # a 2 puts the Fire token on the player's pawn ``colour``/``origin``
BONUS_HOME: Final = 5  # the Fire pawn is Home: another pawn goes straight Home
DOUBLE: Final = 6  # Point Scoring: double the stakes before the draw
ACCEPT: Final = 7  # accept a double
DROP: Final = 8  # drop out rather than accept a double

SPLIT_CARD: Final = 7
_LAST_TRACK: Final = START - 1
_new = tuple.__new__  # builds a NamedTuple without its Python-level __new__

Pawns = tuple[tuple[int, ...], ...]
Bumps = tuple[tuple[int, int], ...]


class Action(NamedTuple):
    """One thing done with a card: a pawn of ``colour`` leaves ``origin``.

    ``landing`` is where the count (or the switch, or the Sorry!) puts it and ``end``
    where it stands once any slide is ridden.  ``target``/``target_origin`` name the
    opponent's pawn of a switch or a Sorry! (``-1`` when there is none).
    """

    kind: int
    colour: int
    origin: int
    landing: int
    end: int
    target: int = -1
    target_origin: int = -1


class Move(NamedTuple):
    """A legal choice for a card, with its consequences computed once.

    ``actions`` is empty for a pass (forfeit or declined 11).  ``bumps`` lists every
    ``(colour, distance)`` pawn sent back to Start, by landing or by a slide sweep,
    in the order it happened.  ``result`` is the position after the move.
    """

    card: int
    actions: tuple[Action, ...]
    result: Position
    bumps: Bumps = ()

    @property
    def is_pass(self) -> bool:
        """Whether the card is not used: a forfeit, or an 11 whose switch is declined."""
        return not self.actions


class Tables(NamedTuple):
    """Per-rules lookups, built once for each Rules value."""

    #: ``rides[colour]`` maps a triangle square to (end square, swept squares).
    rides: tuple[dict[int, tuple[int, tuple[int, ...]]], ...]
    draw_again_on_2: bool
    switched_opponent_slides: bool


_TABLES: dict[Rules, Tables] = {}


def tables(rules: Rules) -> Tables:
    """The lookups for ``rules`` (made once, then shared)."""
    found = _TABLES.get(rules)
    if found is None:
        rides = tuple(
            {
                triangle: (slide.end, slide.swept)
                for triangle, slide in SLIDE_AT_TRIANGLE.items()
                if (slide.colour == colour) == (rules.slide_riders == "own")
            }
            for colour in COLOURS
        )
        found = _TABLES[rules] = Tables(rides, rules.draw_again_on_2, rules.switched_opponent_slides)
    return found


# --- lookups in distance space ---------------------------------------------------------
#
# Generation never builds a map of the board: whether a square is taken is asked of
# the few rows that could hold it, each translated to that colour's distances.

#: ``ACROSS[colour][other][distance]``: ``other``'s distance for the track square at
#: ``colour``'s ``distance``, or -1 (found in no row) when that is not a track square.
ACROSS: Final[tuple[tuple[tuple[int, ...], ...], ...]] = tuple(
    tuple(
        tuple(DISTANCE[other][SQUARE[colour][d]] if FIRST_TRACK <= d < START else -1 for d in range(START + 1))
        for other in COLOURS
    )
    for colour in COLOURS
)

#: ``_CODE[colour][distance]``: a position is coded as the sum of its pawns' codes, a
#: bit per distance 1–65 and a count of pawns Home, 80 bits per colour (Start is 0).
#: Outcomes are told apart by the *change* of code a move makes, which adds up over
#: the steps of a move, so outcomes can be compared without building them.
_CODE: Final = tuple(
    tuple(0 if d == START else 1 << (80 * colour + (70 if d == HOME else d)) for d in range(START + 1))
    for colour in COLOURS
)

#: ``_PLACE[colour][distance]``: a bit for where a pawn stands (track square, or 60 +
#: its Safety Zone distance); Home is no place, as any number of pawns fit there.
_PLACE: Final = tuple(
    tuple(
        1 << SQUARE[colour][d] if FIRST_TRACK <= d < START else 1 << (TRACK_LENGTH + d) if HOME < d < START else 0
        for d in range(START + 1)
    )
    for colour in COLOURS
)


class Ride(NamedTuple):
    """A slide as seen by one colour landing on its triangle."""

    end: int  # the rider's distance once it has slid
    swept: tuple[tuple[int, ...], ...]  # per swept square, in order: every colour's distance
    places: int  # the swept squares as ``_PLACE`` bits
    #: Per colour, its distances on the swept squares: most slides sweep nobody, which
    #: one ``isdisjoint`` per colour tells.
    spans: tuple[frozenset[int], ...]


class Context(NamedTuple):
    """What generation reads on one colour's turns, for given rules and seats."""

    colour: int
    seats: tuple[int, ...]
    #: The other colours in play, clockwise.
    rivals: tuple[int, ...]
    #: ``(other, ACROSS[colour][other])`` for each rival: where its pawns stand, in its
    #: distances, on each track square of this colour's.
    rival_views: tuple[tuple[int, tuple[int, ...]], ...]
    #: ``rides[distance]``: the slide this colour rides on landing there, if any.
    rides: tuple[Ride | None, ...]
    #: ``every_ride[colour]``: the same for every colour.
    every_ride: tuple[tuple[Ride | None, ...], ...]
    switched_opponent_slides: bool
    #: The distances where this colour rides a slide.
    ride_spots: frozenset[int]
    #: ``switch_spots[other]`` for each rival: its distances on the triangles this
    #: colour rides, and this colour's distances on the triangles ``other`` rides (where
    #: an 11 switch makes one or the other pawn slide).
    switch_spots: tuple[tuple[frozenset[int], frozenset[int]], ...]
    #: Split 7 tables by the distance of the pawn moved: its parts for counts 0–7 as
    #: if no pawn stood ahead (see ``Part``), the counts that land on a slide it
    #: rides, and every place its parts of 1–6 can touch.
    split_parts: tuple[tuple[Part | None, ...], ...]
    split_rides: tuple[tuple[int, ...], ...]
    split_reach: tuple[int, ...]
    #: Who draws after a card, and after a 2 (the same player in the classic game).
    next_turn: int
    next_turn_after_2: int
    #: ``leave_start[card]``: where that card brings a pawn out of Start (its distance
    #: from Home), or -1 where it cannot (docs/rules.md: "Leaving Start" and, for 2013, "The 2013 edition").
    leave_start: tuple[int, ...]
    #: Whether a Sorry! may instead move a pawn forward 4 (2013).
    sorry_forward_4: bool
    #: The colours a Sorry! or an 11 switch may act on: the rivals, less a partner.
    targets: tuple[int, ...]


#: A part of a split 7, resolved: (origin, landing, end, bumps, places, change).
#: ``end`` is -1 for a part judged alone that lands on an own pawn (it may still be
#: legal second, once that pawn has moved away).  ``places`` are the ``_PLACE`` bits
#: the part may read or change (its squares, and the slide's if it lands on one), and
#: ``change`` its change of code.
Part = tuple[int, int, int, Bumps, int, int]

_SplitTables = tuple[tuple[tuple[Part | None, ...], ...], tuple[tuple[int, ...], ...], tuple[int, ...]]


class _Kit(NamedTuple):
    """The tables of one Rules value, and its contexts by seats."""

    rules: Rules
    every_ride: tuple[tuple[Ride | None, ...], ...]
    #: Per colour: ``Context.split_parts``, ``split_rides`` and ``split_reach``.
    split_tables: tuple[_SplitTables, ...]
    contexts: dict[tuple[int, ...], tuple[Context | None, ...]]


def _make_kit(rules: Rules) -> _Kit:
    rides = []
    for colour in COLOURS:
        row: list[Ride | None] = [None] * (START + 1)
        for triangle, (end, swept) in tables(rules).rides[colour].items():
            across = tuple(tuple(DISTANCE[other][square] for other in COLOURS) for square in swept)
            spans = tuple(frozenset(DISTANCE[other][square] for square in swept) for other in COLOURS)
            row[DISTANCE[colour][triangle]] = Ride(DISTANCE[colour][end], across, sum(1 << s for s in swept), spans)
        rides.append(tuple(row))
    splits = tuple(_split_tables(colour, rides[colour]) for colour in COLOURS)
    return _Kit(rules, tuple(rides), splits, {})


def _split_tables(colour: int, rides: tuple[Ride | None, ...]) -> _SplitTables:
    """``Context.split_parts``, ``split_rides`` and ``split_reach`` for one colour."""
    place, code = _PLACE[colour], _CODE[colour]
    parts, slides, reach = [], [], []
    for pawn in range(START + 1):
        mine: list[Part | None] = [None] * (SPLIT_CARD + 1)
        for count in range(1, min(pawn, SPLIT_CARD) + 1) if HOME < pawn < START else ():
            landing = pawn - count
            ride = rides[landing]
            places = place[pawn] | place[landing] | (0 if ride is None else ride.places)
            mine[count] = (pawn, landing, landing, (), places, code[landing] - code[pawn])
        parts.append(tuple(mine))
        slides.append(tuple(count for count, part in enumerate(mine) if part and rides[part[1]] is not None))
        union = 0
        for part in mine[1:SPLIT_CARD]:
            union |= part[4] if part else 0
        reach.append(union)
    return tuple(parts), tuple(slides), tuple(reach)


def _make_contexts(kit: _Kit, seats: tuple[int, ...]) -> tuple[Context | None, ...]:
    rules, every_ride = kit.rules, kit.every_ride
    contexts: list[Context | None] = [None] * len(COLOURS)
    for colour in seats:
        after = next_seat(seats, colour)
        contexts[colour] = Context(
            colour,
            seats,
            tuple(other for other in seats if other != colour),
            tuple((other, ACROSS[colour][other]) for other in seats if other != colour),
            every_ride[colour],
            every_ride,
            rules.switched_opponent_slides,
            frozenset(d for d, ride in enumerate(every_ride[colour]) if ride is not None),
            tuple(_switch_spots(rules, every_ride, colour, other) for other in COLOURS),
            *kit.split_tables[colour],
            after,
            colour if rules.draw_again_on_2 else after,
            _leave_start(rules),
            rules.sorry_forward_4,
            tuple(other for other in seats if other != colour and not (rules.partners and other == partner(colour))),
        )
    return tuple(contexts)


#: The forward number cards (a 10 and an 11 forward, a 7 whole): in the 2013 edition
#: any of them brings a pawn out of Start.
FORWARD_NUMBER_CARDS: Final = (1, 2, 3, 5, 7, 8, 10, 11, 12)


def _leave_start(rules: Rules) -> tuple[int, ...]:
    """Where each card brings a pawn out of Start, by the rules' ``leave_start`` option.

    The start exit is 64 from Home; counting it as the first square (2013), a card of
    ``n`` ends ``n - 1`` squares past it.
    """
    landing = [-1] * (SORRY + 1)
    cards = (1, 2) if rules.leave_start == "circle" else FORWARD_NUMBER_CARDS
    for card in cards:
        landing[card] = START_EXIT - (card - 1) if rules.leave_start == "forward-count" else START_EXIT
    return tuple(landing)


def _switch_spots(
    rules: Rules, every_ride: tuple[tuple[Ride | None, ...], ...], colour: int, other: int
) -> tuple[frozenset[int], frozenset[int]]:
    """``Context.switch_spots[other]`` for ``colour``."""
    if other == colour:
        return frozenset(), frozenset()
    theirs = frozenset(ACROSS[colour][other][d] for d, ride in enumerate(every_ride[colour]) if ride)
    mine = frozenset(
        d
        for d in range(FIRST_TRACK, START)
        if rules.switched_opponent_slides and every_ride[other][ACROSS[colour][other][d]] is not None
    )
    return theirs, mine


_KITS_BY_VALUE: dict[Rules, _Kit] = {}
_KITS_BY_ID: dict[int, _Kit] = {}  # hashing a Rules dataclass is slow next to a lookup by id


def context(rules: Rules, seats: tuple[int, ...], colour: int) -> Context:
    """The generation context of ``colour`` in a game of ``rules`` between ``seats``."""
    kit = _KITS_BY_ID.get(id(rules))
    if kit is None or kit.rules is not rules:
        kit = _KITS_BY_VALUE.get(rules)
        if kit is None:
            kit = _KITS_BY_VALUE[rules] = _make_kit(rules)
        if len(_KITS_BY_ID) > 64:
            _KITS_BY_ID.clear()
        _KITS_BY_ID[id(rules)] = kit  # the kit holds ``rules``, so the id stays its own
    contexts = kit.contexts.get(seats)
    if contexts is None:
        contexts = kit.contexts[seats] = _make_contexts(kit, seats)
    found = contexts[colour]
    if found is None:
        raise ValueError(f"colour {colour} is not in play among seats {seats}")
    return found


# --- one pawn landing ------------------------------------------------------------------


def land(ctx: Context, pawns: Pawns, origin: int, landing: int) -> tuple[int, Bumps] | None:
    """Where a pawn moved from ``origin`` to ``landing`` ends, and whom it bumps.

    ``None`` when the move is illegal (it would end on an own pawn).  The order is
    docs/rules.md ("Slides"): bump the occupant of the landing square, then slide and sweep.
    """
    row = pawns[ctx.colour]
    if landing < FIRST_TRACK:
        if landing != HOME and landing in row:
            return None
        return landing, ()
    if landing in row:  # an own pawn's distance is its square
        return None
    bumps: Bumps = ()
    for other, view in ctx.rival_views:
        at = view[landing]
        if at in pawns[other]:
            bumps = ((other, at),)
            break
    ride = ctx.rides[landing]
    if ride is None:
        return landing, bumps
    return ride.end, bumps + swept(ride, ctx.seats, pawns, ctx.colour, origin)


def swept(ride: Ride, seats: tuple[int, ...], pawns: Pawns, colour: int, origin: int) -> Bumps:
    """The pawns a slide sends to Start, square by square; the slider has left ``origin``."""
    spans = ride.spans
    for other in seats:
        if not spans[other].isdisjoint(pawns[other]):
            break
    else:
        return ()
    bumps: Bumps = ()
    for square in ride.swept:
        for other in seats:
            at = square[other]
            if at in pawns[other] and (other != colour or at != origin):
                bumps += ((other, at),)
                break
    return bumps


def moved(pawns: Pawns, colour: int, origin: int, end: int, bumps: Bumps) -> Pawns:
    """``pawns`` once a pawn of ``colour`` went from ``origin`` to ``end``, bumping ``bumps``."""
    result = list(pawns)
    row = list(pawns[colour])
    row[row.index(origin)] = end
    if bumps:
        _bump(result, row, colour, bumps)
    row.sort()
    result[colour] = tuple(row)
    return tuple(result)


def moved_twice(pawns: Pawns, colour: int, first: Part, second: Part) -> Pawns:
    """``pawns`` after the two parts of a split 7, the second made after the first."""
    result = list(pawns)
    row = list(pawns[colour])
    for origin, _, end, bumps, _, _ in (first, second):
        row[row.index(origin)] = end
        if bumps:
            _bump(result, row, colour, bumps)
    row.sort()
    result[colour] = tuple(row)
    return tuple(result)


def _bump(result: list[tuple[int, ...]], row: list[int], colour: int, bumps: Bumps) -> None:
    """Send ``bumps`` to Start: in ``row`` (the mover's, sorted later) or in ``result``."""
    for bumped, at in bumps:
        if bumped == colour:
            row[row.index(at)] = START
        else:
            other = list(result[bumped])
            other.remove(at)
            other.append(START)  # Start sorts last
            result[bumped] = tuple(other)


def _change(before: Pawns, after: Pawns) -> int:
    """How the code of the position changes from ``before`` to ``after`` (see ``_CODE``)."""
    change = 0
    for colour, row in enumerate(after):
        if row is not before[colour]:
            code = _CODE[colour]
            for pawn in row:
                change += code[pawn]
            for pawn in before[colour]:
                change -= code[pawn]
    return change


def step_change(colour: int, origin: int, end: int, bumps: Bumps) -> int:
    """The change of code made by one resolved step."""
    code = _CODE[colour]
    change = code[end] - code[origin]
    for bumped, at in bumps:
        change -= _CODE[bumped][at]
    return change


# --- options ---------------------------------------------------------------------------
#
# An option is a 4-tuple whose first item says what it holds:

PASS: Final = 0  # (PASS, 0, 0, 0): the card is not used
ONE_STEP: Final = 1  # (ONE_STEP, origin, landing, 0): one pawn by count, known legal
SORRY_ON: Final = 2  # (SORRY_ON, target, at, 0): a Sorry! on that opponent pawn
SWITCH_WITH: Final = 3  # (SWITCH_WITH, pawn, target, at): an 11 switch
TWO_STEPS: Final = 4  # (TWO_STEPS, part, part, 0): a split 7, resolved, parts in order
MADE: Final = 5  # (MADE, actions, bumps, pawns): fully realised

Option = tuple[int, Any, Any, Any]

_PASS: Final[Option] = (PASS, 0, 0, 0)


def options(ctx: Context, pawns: Pawns, card: int) -> list[Option]:
    """The distinct outcomes of ``card`` on ``ctx.colour``'s turn, in ``legal_moves`` order.

    Never empty: a card that cannot be used gives a single ``PASS``.
    """
    row = pawns[ctx.colour]
    found = card_steps(ctx, row, card)
    if card == SORRY:
        if row[-1] == START:
            found[:0] = _sorry_options(ctx, pawns)
    elif card == SPLIT_CARD:
        if len(row) - row.count(HOME) - row.count(START) > 1:  # two pawns can move
            _add_splits(ctx, pawns, found)
    elif card == 11:
        if not found:
            found.append(_PASS)  # a switch is never compulsory
        _add_switches(ctx, pawns, found)
    elif may_end_alike(ctx, card, found):
        found = _distinct(ctx, pawns, found)
    return found or [_PASS]


def card_steps(ctx: Context, row: tuple[int, ...], card: int) -> list[Option]:
    """A card's moves of one pawn by count, read from the player's own row alone, as
    ``(ONE_STEP, origin, landing, 0)`` options in ``options`` order: each pawn forward
    by the card, out of Start (docs/rules.md: "Leaving Start"), then each pawn backward (4, or 1 with a
    10).  The one step lister: :func:`options` and the playout kernel both read it."""
    if card == SORRY:  # a Sorry! moves a pawn by count only as the 2013 forward 4
        return _forward(row, 4, []) if ctx.sorry_forward_4 else []
    if card == 4:
        return _backward(row, 4, [])
    found = _forward(row, card, [])
    out = ctx.leave_start[card]
    if out >= 0 and row[-1] == START and out not in row:
        found.append((ONE_STEP, START, out, 0))
    if card == 10:
        _backward(row, 1, found)
    return found


_BACKWARD_CARDS: Final = frozenset((4, 10))


def may_end_alike(ctx: Context, card: int, steps: list[Option]) -> bool:
    """Whether two of a 4's or a 10's ``steps`` may end alike, so that outcomes must be
    compared before they are listed.  Two steps by count can only end alike if both
    slide: one pawn moving shows in the result unless a slide carries it back to where
    it was or sweeps pawns to Start, and a step that does not slide does neither (and
    forward steps of one count never meet on one slide)."""
    if card not in _BACKWARD_CARDS:
        return False
    spots = ctx.ride_spots
    sliding = 0
    for option in steps:
        if option[2] in spots:
            sliding += 1
    return sliding > 1


def _forward(row: tuple[int, ...], count: int, found: list[Option]) -> list[Option]:
    """Each pawn moved forward ``count`` (no further than Home, never onto an own pawn)."""
    for pawn in row:
        if pawn >= count:  # rows are sorted and only Home and Start can repeat
            if pawn == START:
                break
            landing = pawn - count
            if landing == HOME or landing not in row:
                found.append((ONE_STEP, pawn, landing, 0))
    return found


def _backward(row: tuple[int, ...], count: int, found: list[Option]) -> list[Option]:
    """Each pawn moved backward ``count``, wrapping round the track."""
    for pawn in row:
        if pawn == START:
            break
        if pawn != HOME:
            landing = pawn + count
            if landing > _LAST_TRACK:
                landing -= TRACK_LENGTH
            if landing not in row:
                found.append((ONE_STEP, pawn, landing, 0))
    return found


def _distinct(ctx: Context, pawns: Pawns, found: list[Option]) -> list[Option]:
    """Steps by count with the first of each outcome kept: only steps that slide can
    end alike (see ``may_end_alike``), so only those are compared."""
    spots = ctx.ride_spots
    return _first_of_each(ctx, pawns, found, [option[2] in spots for option in found])


def _first_of_each(ctx: Context, pawns: Pawns, found: list[Option], suspects: list[bool]) -> list[Option]:
    """``found`` less the options that end like an earlier one.  Only ``suspects`` can
    end alike; they are compared by their change of code (a switch is realised for it,
    and kept realised)."""
    seen = set()
    kept = []
    for option, suspect in zip(found, suspects, strict=True):
        if suspect:
            kind = option[0]
            if kind == ONE_STEP:
                _, origin, landing, _ = option
                landed = land(ctx, pawns, origin, landing)
                assert landed is not None
                change = step_change(ctx.colour, origin, *landed)
            elif kind == PASS:
                change = 0
            else:
                actions, bumps, after = realise(ctx, pawns, option)
                change = _change(pawns, after)
                option = (MADE, actions, bumps, after)
            if change in seen:
                continue
            seen.add(change)
        kept.append(option)
    return kept


def _sorry_options(ctx: Context, pawns: Pawns) -> list[Option]:
    """A Sorry! on each opponent pawn on the track."""
    return [(SORRY_ON, other, at, 0) for other in ctx.targets for at in pawns[other] if FIRST_TRACK <= at < START]


def _add_switches(ctx: Context, pawns: Pawns, found: list[Option]) -> None:
    """Every 11 switch of an own track pawn with an opponent's (docs/rules.md: "The 11 switch")."""
    colour = ctx.colour
    own = [pawn for pawn in pawns[colour] if FIRST_TRACK <= pawn < START]
    targets = [(other, at) for other in ctx.targets for at in pawns[other] if FIRST_TRACK <= at < START]
    if not own or not targets:
        return
    before = len(found)
    found += [(SWITCH_WITH, pawn, target, at) for pawn in own for target, at in targets]
    # A switch where neither pawn slides puts an opponent pawn on a square that no other
    # option puts it on, so it cannot end like another option: only sliding switches
    # (and the moves before them) have to be told apart.
    spots = ctx.switch_spots
    for other in ctx.targets:
        theirs, mine = spots[other]
        if not theirs.isdisjoint(pawns[other]) or not mine.isdisjoint(own):
            sliding = [at in spots[target][0] or pawn in spots[target][1] for pawn in own for target, at in targets]
            found[:] = _first_of_each(ctx, pawns, found, [True] * before + sliding)
            return


def _add_splits(ctx: Context, pawns: Pawns, found: list[Option]) -> None:
    """Every split 7 (docs/rules.md: "The split 7"): two distinct pawns, parts made in order.

    Parts that touch no common place cannot affect each other: they are judged alone
    and combined directly, once.  Parts that do are made one after the other.
    Outcomes are told apart by their change of code.
    """
    movable = [pawn for pawn in pawns[ctx.colour] if HOME < pawn < START]  # distinct
    rivals = _rivals_by_distance(ctx, pawns)
    parts = [_parts(ctx, pawns, pawn, rivals) for pawn in movable]
    reach = [ctx.split_reach[pawn] for pawn in movable]
    # The whole 7 by one pawn comes first: those options are already in ``found``.
    seen = set()
    for pawn_parts in parts:
        whole = pawn_parts[SPLIT_CARD]
        if whole and whole[2] >= 0:
            seen.add(whole[5])
    add = seen.add
    append = found.append
    for first_index, first_parts in enumerate(parts):
        # (second pawn listed later, parts may touch, its parts, the pawn).  Parts of
        # pawns too far apart to touch are combined once, with the first listed first.
        others = [
            (index > first_index, reach[first_index] & reach[index] != 0, parts[index], movable[index])
            for index in range(len(parts))
            if index > first_index or (index < first_index and reach[first_index] & reach[index])
        ]
        if not others:
            continue
        for count in range(1, SPLIT_CARD):
            first = first_parts[count]
            if first is None:
                break  # larger counts pass Home too
            if first[2] < 0:
                continue  # the first part is made in the position before the card
            places = first[4]
            change = first[5]
            rest = SPLIT_CARD - count
            for later, close, second_parts, second_pawn in others:
                second = second_parts[rest]
                if second is None:
                    continue
                if close and places & second[4]:
                    then = _second_after(ctx, pawns, first, second_pawn, second[1])
                    if then is not None and (key := change + then[5]) not in seen:
                        add(key)
                        append((TWO_STEPS, first, then, 0))
                elif later and second[2] >= 0 and (key := change + second[5]) not in seen:
                    add(key)
                    append((TWO_STEPS, first, second, 0))


def _rivals_by_distance(ctx: Context, pawns: Pawns) -> dict[int, tuple[Bumps, int]]:
    """Each opponent pawn on the track by ``ctx.colour``'s distance to it: the bump of
    landing there, and its change of code."""
    colour = ctx.colour
    return {
        ACROSS[other][colour][at]: (((other, at),), _CODE[other][at])
        for other in ctx.rivals
        for at in pawns[other]
        if FIRST_TRACK <= at < START
    }


def _parts(ctx: Context, pawns: Pawns, pawn: int, rivals: dict[int, tuple[Bumps, int]]) -> list[Part | None]:
    """``parts[count]`` of a pawn for counts 1–7 (``None`` past Home), each judged alone
    as ``land`` would: the parts over empty squares, then what stands ahead."""
    parts = list(ctx.split_parts[pawn])
    lowest = pawn - SPLIT_CARD
    for landing, (bumps, bumped) in rivals.items():
        if lowest <= landing < pawn:
            part = parts[pawn - landing]
            assert part is not None
            parts[pawn - landing] = (pawn, landing, landing, bumps, part[4], part[5] - bumped)
    for count in ctx.split_rides[pawn]:
        landing = pawn - count
        landed = land(ctx, pawns, pawn, landing)
        if landed is not None:
            part = parts[count]
            assert part is not None
            end, bumps = landed
            parts[count] = (pawn, landing, end, bumps, part[4], step_change(ctx.colour, pawn, end, bumps))
    for landing in pawns[ctx.colour]:
        if lowest <= landing < pawn and landing != HOME:
            part = parts[pawn - landing]
            assert part is not None
            parts[pawn - landing] = (pawn, landing, -1, (), part[4], 0)
    return parts


def _second_after(ctx: Context, pawns: Pawns, first: Part, origin: int, landing: int) -> Part | None:
    """The second part of a split judged after the first; ``None`` if illegal."""
    first_origin, _, first_end, first_bumps, _, _ = first
    if (ctx.colour, origin) in first_bumps:
        return None  # the first part's slide swept the second pawn back to Start
    landed = land(ctx, moved(pawns, ctx.colour, first_origin, first_end, first_bumps), origin, landing)
    if landed is None:
        return None
    end, bumps = landed
    return (origin, landing, end, bumps, 0, step_change(ctx.colour, origin, end, bumps))


# --- realising an option ---------------------------------------------------------------


def outcome(ctx: Context, pawns: Pawns, option: Option) -> Pawns:
    """The pawns after one option: what a playout needs of it, without the actions."""
    kind, first, second, _ = option
    if kind == ONE_STEP:
        landed = land(ctx, pawns, first, second)
        assert landed is not None
        end, bumps = landed
        return moved(pawns, ctx.colour, first, end, bumps)
    if kind == TWO_STEPS:
        return moved_twice(pawns, ctx.colour, first, second)
    if kind == SORRY_ON:
        landed = land(ctx, pawns, START, ACROSS[first][ctx.colour][second])
        assert landed is not None
        end, bumps = landed
        return moved(pawns, ctx.colour, START, end, bumps)
    return realise(ctx, pawns, option)[2]


def realise(ctx: Context, pawns: Pawns, option: Option) -> tuple[tuple[Action, ...], Bumps, Pawns]:
    """The actions, bumps and resulting pawns of one option."""
    kind, first, second, third = option
    colour = ctx.colour
    if kind == ONE_STEP:
        landed = land(ctx, pawns, first, second)
        assert landed is not None
        end, bumps = landed
        action = _new(Action, (STEP, colour, first, second, end, -1, -1))
        return (action,), bumps, moved(pawns, colour, first, end, bumps)
    if kind == TWO_STEPS:
        actions = (
            _new(Action, (STEP, colour, first[0], first[1], first[2], -1, -1)),
            _new(Action, (STEP, colour, second[0], second[1], second[2], -1, -1)),
        )
        return actions, first[3] + second[3], moved_twice(pawns, colour, first, second)
    if kind == SORRY_ON:
        landing = ACROSS[first][colour][second]
        landed = land(ctx, pawns, START, landing)
        assert landed is not None
        end, bumps = landed
        action = _new(Action, (BUMP_FROM_START, colour, START, landing, end, first, second))
        return (action,), bumps, moved(pawns, colour, START, end, bumps)
    if kind == SWITCH_WITH:
        return _switch(ctx, pawns, first, second, third)
    if kind == MADE:
        return first, second, third
    return (), (), pawns


def _switch(ctx: Context, pawns: Pawns, pawn: int, target: int, at: int) -> tuple[tuple[Action, ...], Bumps, Pawns]:
    """An 11 switch: the two pawns exchange squares, then the player's pawn slides if it
    stands on a triangle it rides, then the opponent's (if the rules say so)."""
    colour = ctx.colour
    landing = ACROSS[target][colour][at]
    target_landing = ACROSS[colour][target][pawn]
    result = list(pawns)
    for who, old, new in ((colour, pawn, landing), (target, at, target_landing)):
        row = list(pawns[who])
        row[row.index(old)] = new
        row.sort()
        result[who] = tuple(row)
    pawns = tuple(result)
    end = landing
    bumps: Bumps = ()
    ride = ctx.rides[landing]
    if ride is not None:
        end = ride.end
        bumps = swept(ride, ctx.seats, pawns, colour, -1)
        pawns = moved(pawns, colour, landing, end, bumps)
    ride = ctx.every_ride[target][target_landing]
    if ride is not None and ctx.switched_opponent_slides and target_landing in pawns[target]:
        more = swept(ride, ctx.seats, pawns, target, -1)
        pawns = moved(pawns, target, target_landing, ride.end, more)
        bumps += more
    return (_new(Action, (SWITCH, colour, pawn, landing, end, target, at)),), bumps, pawns


def steps_result(rules: Rules, position: Position, steps: list[tuple[int, int]]) -> Pawns | None:
    """The pawns after the player's pawns move by count, one ``(origin, landing)`` step
    after the other, each judged when it is made; ``None`` if one is illegal then.

    This reads a split 7 in the order a player wrote it, which may differ from the
    order :func:`legal_moves` lists for the same outcome.
    """
    ctx = context(rules, position.seats, position.turn)
    pawns = position.pawns
    for origin, landing in steps:
        if origin not in pawns[ctx.colour] or origin in (HOME, START) or landing > origin:
            return None
        landed = land(ctx, pawns, origin, landing)
        if landed is None:
            return None
        pawns = moved(pawns, ctx.colour, origin, *landed)
    return pawns


def classic_moves(rules: Rules, position: Position, card: int) -> list[Move]:
    """Every distinct outcome of ``card`` for the player alone (no partner, no tokens)."""
    seats, pawns, colour, _, extras = position
    ctx = context(rules, seats, colour)
    turn = ctx.next_turn_after_2 if card == 2 else ctx.next_turn
    moves = []
    for option in options(ctx, pawns, card):
        if option[0] == PASS:
            moves.append(_new(Move, (card, (), _new(Position, (seats, pawns, turn, None, extras)), ())))
            continue
        actions, bumps, after = realise(ctx, pawns, option)
        if after[colour][-1] == HOME:  # sorted, so the farthest pawn is last
            result = _new(Position, (seats, after, colour, colour, extras))
        else:
            result = _new(Position, (seats, after, turn, None, extras))
        moves.append(_new(Move, (card, actions, result, bumps)))
    return moves
