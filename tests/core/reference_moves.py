"""A slow, deliberately simple move generator written straight from docs/rules.md ("The board",
"Cards", "The classic game").

It exists only to check :mod:`pardon.core.moves`, so it shares nothing with it but the
:class:`~pardon.core.state.Position` it reads and writes: it uses the board's own square
numbers (0–59, sides at b = 0, 15, 30, 45), keeps each pawn as a place such as
``("track", 17)`` or ``("safe", 3)``, plays every move pawn by pawn on a mutable copy
of the board, tries every split 7 one part after the other in both orders, and only at
the end turns each board back into a position and drops duplicate results.

Nothing here is fast or clever on purpose: each rule is written once, the way
docs/rules.md states it, so that a disagreement with the engine is easy to judge.

The partners game (docs/rules.md: "Partners") is here too: the card moves any pawn of the team, a
Sorry! or an 11 acts on the opposing team (a Sorry! on the partner only when no
opposing pawn can be hit), a 7 is split over two or any number of team pawns, and the
player's move never lands a pawn on a pawn of the player's own colour (a slide may
still sweep it).

Fire and Ice (docs/rules.md: "The 2013 edition", with its rulings) are here too.  The board knows
which pawn each token sits on, as ``(colour, pawn index)``, so a token simply stays with
its pawn whatever the pawn does.  A 1 first puts the Ice on an opponent's pawn on the
track (or back in the centre when there is none); a 2 may first put the Fire on one of
the player's pawns out of Start and not Home; then the card is played as usual.  The iced
pawn never moves, nobody may end a move on its square (after a slide too), and a slide
leaves it where it stands.  Once the card's move is made, a Fire pawn back in Start has
lost the token, and a Fire pawn Home gives it back and may bring one other pawn of its
colour straight Home.  The Fire pawn's own move before the draw is
:func:`reference_fire_moves`.

Each outcome carries the pawns it sent back to Start, as ``(colour, distance)`` where
each stood when it went.
"""

from __future__ import annotations

from dataclasses import dataclass

from pardon.core.cards import SORRY
from pardon.core.rules import Rules
from pardon.core.state import Position

Place = tuple[str, int]  # ("start", 0), ("track", square), ("safe", k) for S(k), ("home", 0)
PawnId = tuple[int, int]  # (colour, pawn index)
Bumps = tuple[tuple[int, int], ...]  # (colour, distance) of each pawn sent back to Start
Outcome = tuple[Position, bool, Bumps]  # (result, is it a pass, the bumps sorted)

IN_START: Place = ("start", 0)
AT_HOME: Place = ("home", 0)
TRACK = 60
SAFETY = 5


class Board(dict[int, list[Place]]):
    """Colour -> its pawns, in a fixed order (pawn i stays pawn i); the pawn each token
    sits on (``None``: in the centre); and the pawns sent back to Start so far."""

    ice: PawnId | None = None
    fire: PawnId | None = None
    bumps: Bumps = ()


def side_base(colour: int) -> int:
    """b = 0 (Red), 15 (Blue), 30 (Yellow), 45 (Green)."""
    return 15 * colour


def entrance(colour: int) -> int:
    """The last track square before the colour's Safety Zone: b + 2."""
    return side_base(colour) + 2


def start_exit(colour: int) -> int:
    """The Start exit circle: b + 4."""
    return side_base(colour) + 4


@dataclass(frozen=True)
class Slide:
    """A slide of ``colour``: its triangle and the squares after it, end circle included."""

    colour: int
    triangle: int
    length: int

    @property
    def swept(self) -> list[int]:
        return [(self.triangle + k) % TRACK for k in range(1, self.length + 1)]

    @property
    def end(self) -> int:
        return (self.triangle + self.length) % TRACK


# Short slide b+1 -> b+4, long slide b+9 -> b+13, each of its side's colour (docs/rules.md: "The board").
SLIDES = [Slide(c, side_base(c) + 1, 3) for c in range(4)] + [Slide(c, side_base(c) + 9, 4) for c in range(4)]


#: The corners (the Fire spaces of 2013): the first square of each side.  No slide starts
#: on one, so a corner is never a triangle.
CORNERS = {side_base(c) for c in range(4)}


def slide_at(square: int) -> Slide | None:
    for slide in SLIDES:
        if slide.triangle == square:
            return slide
    return None


def rides(rules: Rules, colour: int, slide: Slide) -> bool:
    """Classic: a pawn slides on a slide not of its colour; option ``own``: only its own."""
    if rules.slide_riders == "own":
        return slide.colour == colour
    return slide.colour != colour


# --- counting squares (docs/rules.md: "The board", "Safety Zone and Home") -------------------------------


def forward(colour: int, place: Place, count: int) -> Place | None:
    """Where ``count`` steps forward lead, or None if that would pass Home."""
    kind, value = place
    if kind == "track":
        to_entrance = (entrance(colour) - value) % TRACK
        if count <= to_entrance:
            return ("track", (value + count) % TRACK)
        k = count - to_entrance
    elif kind == "safe":
        k = value + count
    else:
        return None  # Start and Home pawns do not move forward by count
    if k <= SAFETY:
        return ("safe", k)
    if k == SAFETY + 1:
        return AT_HOME
    return None


def backward(colour: int, place: Place, count: int) -> Place | None:
    """Where ``count`` steps backward lead (never into a Safety Zone, never out of Start)."""
    kind, value = place
    if kind == "track":
        return ("track", (value - count) % TRACK)
    if kind == "safe":
        if value - count >= 1:
            return ("safe", value - count)
        return ("track", (entrance(colour) - (count - value)) % TRACK)
    return None


# --- the board -------------------------------------------------------------------------


def frozen(board: Board, colour: int, index: int) -> bool:
    """Whether that pawn carries the Ice: it cannot move or be moved."""
    return board.ice == (colour, index)


def iced_square(board: Board) -> Place | None:
    """Where the iced pawn stands: nobody may end a move there."""
    if board.ice is None:
        return None
    colour, index = board.ice
    return board[colour][index]


def send_to_start(board: Board, colour: int, index: int) -> None:
    """A pawn bumped or swept goes back to its Start (noted where it stood)."""
    board.bumps += ((colour, to_distance(colour, board[colour][index])),)
    board[colour][index] = IN_START


def occupant(board: Board, square: int) -> tuple[int, int] | None:
    """(colour, pawn index) of the pawn on a track square."""
    for colour, places in board.items():
        for index, place in enumerate(places):
            if place == ("track", square):
                return colour, index
    return None


def sweep(board: Board, slide: Slide) -> None:
    """Every pawn on the slide's squares after its triangle goes back to Start, except
    the iced pawn, which stays where it is."""
    swept = [("track", square) for square in slide.swept]
    for colour, places in board.items():
        for index, place in enumerate(places):
            if place in swept and not frozen(board, colour, index):
                send_to_start(board, colour, index)


def ride_if_on_triangle(rules: Rules, board: Board, colour: int, index: int) -> bool:
    """A pawn standing on a triangle it rides slides to the end circle, sweeping the slide;
    False if the slide would end on the iced pawn (not allowed)."""
    kind, square = board[colour][index]
    if kind != "track":
        return True
    slide = slide_at(square)
    if slide is not None and rides(rules, colour, slide):
        if iced_square(board) == ("track", slide.end):
            return False
        sweep(board, slide)  # the slider is still on the triangle, so it is not swept
        board[colour][index] = ("track", slide.end)
    return True


def end_move(rules: Rules, board: Board, colour: int, index: int, landing: Place, player: int = -1) -> bool:
    """Put pawn ``index`` on ``landing`` (docs/rules.md: "Slides"); False if the move is illegal.

    Ending on an own pawn is illegal, and so, in the partners game, is ending on a pawn
    of the ``player``'s colour (docs/rules.md: "Partners"); ending on any other pawn bumps it; then a
    pawn on a triangle it rides slides and sweeps.  The iced pawn cannot move, and its
    square is blocked to everyone (docs/rules.md: "The 2013 edition").
    """
    if frozen(board, colour, index) or landing == iced_square(board):
        return False
    board[colour][index] = ("moving", 0)  # it has left its origin
    if landing != AT_HOME:
        for other_index, place in enumerate(board[colour]):
            if place == landing and other_index != index:
                return False
    if landing[0] == "track":
        found = occupant(board, landing[1])
        if found is not None:
            if found[0] == player:
                return False
            send_to_start(board, *found)
    board[colour][index] = landing
    return ride_if_on_triangle(rules, board, colour, index)


# --- positions <-> boards --------------------------------------------------------------


def to_place(colour: int, distance: int) -> Place:
    """The engine's distance to Home as a place (see docs/rules.md: "The board")."""
    if distance == 0:
        return AT_HOME
    if distance <= SAFETY:
        return ("safe", 6 - distance)
    if distance == 66:
        return IN_START
    return ("track", (entrance(colour) - (distance - 6)) % TRACK)


def to_distance(colour: int, place: Place) -> int:
    kind, value = place
    if kind == "home":
        return 0
    if kind == "safe":
        return 6 - value
    if kind == "start":
        return 66
    return 6 + (entrance(colour) - value) % TRACK


def board_of(position: Position) -> Board:
    board = Board({c: [to_place(c, d) for d in position.pawns[c]] for c in position.seats})
    board.ice = pawn_carrying(position, position.ice)
    board.fire = pawn_carrying(position, position.fire)
    return board


def pawn_carrying(position: Position, token: tuple[int, int] | None) -> PawnId | None:
    """The pawn index of a token's ``(colour, distance)`` (two pawns share a distance only
    in Start or Home, where no token sits)."""
    if token is None:
        return None
    colour, distance = token
    return colour, position.pawns[colour].index(distance)


def token_at(board: Board, pawn: PawnId | None) -> tuple[int, int] | None:
    """A token's ``(colour, distance)`` as a position names it."""
    if pawn is None:
        return None
    colour, index = pawn
    return colour, to_distance(colour, board[colour][index])


def copy(board: Board, **tokens: PawnId | None) -> Board:
    """A copy of ``board``, with the tokens named in ``tokens`` moved."""
    after = Board({c: list(places) for c, places in board.items()})
    after.ice = tokens.get("ice", board.ice)
    after.fire = tokens.get("fire", board.fire)
    after.bumps = board.bumps
    return after


def team_of(rules: Rules, colour: int) -> tuple[int, ...]:
    """The colours whose pawns a player moves: its own, and its partner's (docs/rules.md: "Partners")."""
    return (colour, (colour + 2) % 4) if rules.partners else (colour,)


def result_of(rules: Rules, position: Position, card: int, board: Board, before: Board) -> Position:
    """The position after a move that turned ``before`` into ``board``: the mover wins
    if all its pawns (its team's, with partners) are Home (the game then ends at once,
    so whose turn it is stays as it was); else a classic 2 lets the same player draw
    again, and otherwise play passes left."""
    mover = position.turn
    if all(place == AT_HOME for member in team_of(rules, mover) for place in board[member]):
        return position_of(rules, position, board, before, mover, mover)
    seats = position.seats
    turn = mover if card == 2 and rules.draw_again_on_2 else seats[(seats.index(mover) + 1) % len(seats)]
    return position_of(rules, position, board, before, turn, None)


def position_of(
    rules: Rules, position: Position, board: Board, before: Board, turn: int, winner: int | None
) -> Position:
    """``board`` as a position, the tokens on the pawns they sit on."""
    pawns = tuple(
        position.pawns[c] if board.get(c) == before.get(c) else tuple(sorted(to_distance(c, p) for p in board[c]))
        for c in range(4)
    )
    result = Position(position.seats, pawns, turn, winner)
    if rules.tokens:
        result = result.with_extras(ice=token_at(board, board.ice), fire=token_at(board, board.fire))
    return result


# --- the cards -------------------------------------------------------------------------


def moves_by_count(rules: Rules, board: Board, colour: int, count: int, ahead: bool, player: int = -1) -> list[Board]:
    """Every pawn moved ``count`` forward (``ahead``) or backward, one board per legal move."""
    boards = []
    for index, place in enumerate(board[colour]):
        landing = forward(colour, place, count) if ahead else backward(colour, place, count)
        if landing is None:
            continue
        after = copy(board)
        if end_move(rules, after, colour, index, landing, player):
            boards.append(after)
    return boards


def leave_start(rules: Rules, board: Board, colour: int, card: int, player: int = -1) -> list[Board]:
    """Bring a pawn out of Start (docs/rules.md: "Leaving Start"; 2013: any forward number card, "The 2013 edition")."""
    if rules.leave_start == "circle" and card not in (1, 2):
        return []
    if rules.leave_start != "circle" and card not in (1, 2, 3, 5, 7, 8, 10, 11, 12):
        return []
    past_circle = card - 1 if rules.leave_start == "forward-count" else 0
    boards = []
    for index, place in enumerate(board[colour]):
        if place == IN_START:
            after = copy(board)
            landing = ("track", (start_exit(colour) + past_circle) % TRACK)
            if end_move(rules, after, colour, index, landing, player):
                boards.append(after)
            break  # pawns in Start are alike: one is enough
    return boards


def opponents_on_track(board: Board, team: tuple[int, ...]) -> list[tuple[int, int]]:
    return [
        (other, index)
        for other, places in board.items()
        if other not in team
        for index, place in enumerate(places)
        if place[0] == "track"
    ]


def sorry(rules: Rules, board: Board, colour: int, targets: list[tuple[int, int]], player: int = -1) -> list[Board]:
    """From ``colour``'s Start onto each pawn of ``targets``."""
    if IN_START not in board[colour]:
        return []
    index = board[colour].index(IN_START)  # pawns in Start are alike: take the first
    boards = []
    for other, other_index in targets:
        after = copy(board)
        if end_move(rules, after, colour, index, board[other][other_index], player):
            boards.append(after)
    return boards


def switches(rules: Rules, board: Board, colour: int, team: tuple[int, ...]) -> list[Board]:
    """11: exchange an own track pawn with an opponent's (docs/rules.md: "The 11 switch"); neither may be
    the iced pawn, nor may a slide after the exchange end on it."""
    boards = []
    for index, place in enumerate(board[colour]):
        if place[0] != "track" or frozen(board, colour, index):
            continue
        for other, other_index in opponents_on_track(board, team):
            if frozen(board, other, other_index):
                continue
            after = copy(board)
            after[colour][index], after[other][other_index] = board[other][other_index], place
            if not ride_if_on_triangle(rules, after, colour, index):
                continue
            opponent_slides = rules.switched_opponent_slides and after[other][other_index] == place
            if opponent_slides and not ride_if_on_triangle(rules, after, other, other_index):
                continue
            boards.append(after)
    return boards


def splits(rules: Rules, board: Board, colour: int) -> list[Board]:
    """Every split 7 (docs/rules.md: "The split 7"), each part made in turn, for both orders."""
    boards = []
    pawns = [index for index, place in enumerate(board[colour]) if place[0] in ("track", "safe")]
    for first in pawns:
        for second in pawns:
            if first == second:
                continue
            for part in range(1, 7):
                after = copy(board)
                if split_part(rules, after, colour, first, part) and split_part(rules, after, colour, second, 7 - part):
                    boards.append(after)
    return boards


def split_part(rules: Rules, board: Board, colour: int, index: int, count: int) -> bool:
    """One part of a split: forward only, never out of Start (nor from Home)."""
    place = board[colour][index]
    if place[0] not in ("track", "safe"):
        return False
    landing = forward(colour, place, count)
    return landing is not None and end_move(rules, board, colour, index, landing)


def team_splits(rules: Rules, board: Board, team: tuple[int, ...], player: int) -> list[Board]:
    """Every split 7 of the partners game over team pawns, parts made in turn: two parts
    (``partner_split=two``) or any number of them (``any``), each pawn moved once."""
    most = 2 if rules.partner_split == "two" else 7
    boards: list[Board] = []

    def extend(board: Board, left: int, moved: set[tuple[int, int]]) -> None:
        if left == 0:
            boards.append(board)
            return
        if len(moved) == most:
            return
        for colour in team:
            for index, place in enumerate(board[colour]):
                if (colour, index) in moved or place[0] not in ("track", "safe"):
                    continue
                for count in range(1, left + 1):
                    if count == 7:
                        continue  # the whole 7 by one pawn is no split
                    landing = forward(colour, place, count)
                    after = copy(board)
                    if landing is not None and end_move(rules, after, colour, index, landing, player):
                        extend(after, left - count, moved | {(colour, index)})

    extend(board, 7, set())
    return boards


def card_boards(rules: Rules, board: Board, player: int, card: int) -> tuple[list[Board], bool]:
    """Every board after playing ``card``, and whether the player may (or must) pass."""
    team = team_of(rules, player)
    boards: list[Board] = []
    passing = False
    for colour in team:
        if card == SORRY:
            boards += sorry(rules, board, colour, opponents_on_track(board, team), player)
        elif card == 4:
            boards += moves_by_count(rules, board, colour, 4, False, player)
        elif card == 10:
            boards += moves_by_count(rules, board, colour, 10, True, player)
            boards += leave_start(rules, board, colour, 10, player)
            boards += moves_by_count(rules, board, colour, 1, False, player)
        else:
            boards += moves_by_count(rules, board, colour, card, True, player)
            boards += leave_start(rules, board, colour, card, player)
    if card == SORRY and not boards and rules.partners:  # nobody else to pick on (P92)
        partner_pawns = [(team[1], index) for index, place in enumerate(board[team[1]]) if place[0] == "track"]
        boards += sorry(rules, board, player, partner_pawns, player)
    if card == SORRY and rules.sorry_forward_4:
        for colour in team:
            boards += moves_by_count(rules, board, colour, 4, True, player)
    if card == 11:
        passing = not boards  # the switch is never compulsory
        for colour in team:
            boards += switches(rules, board, colour, team)
    if card == 7:
        if rules.partners:
            boards += team_splits(rules, board, team, player)
        else:
            boards += splits(rules, board, player)
    if not boards:
        passing = True  # must move: a pass only when the card cannot be used
    return boards, passing


# --- Fire and Ice (docs/rules.md: "The 2013 edition") ----------------------------------------------------------


def token_placements(rules: Rules, board: Board, player: int, card: int) -> list[tuple[Board, bool]]:
    """The boards the card is played on once the token is placed, each with whether a
    token was placed.  A 1 must put the Ice on an opponent's pawn on the track (it may
    stay on the pawn it holds), or back in the centre when there is none; a 2 may put
    the Fire on one of the player's pawns out of Start and not Home."""
    if not rules.tokens or card not in (1, 2):
        return [(board, False)]
    if card == 1:
        targets = opponents_on_track(board, team_of(rules, player))
        if targets:
            return [(copy(board, ice=target), True) for target in targets]
        if board.ice is None:
            return [(board, False)]
        return [(copy(board, ice=None), True)]
    placements = [(board, False)]
    for index, place in enumerate(board[player]):
        if place[0] in ("track", "safe") and board.fire != (player, index):  # where it is, it is not moved
            placements.append((copy(board, fire=(player, index)), True))
    return placements


def fire_settled(board: Board) -> list[Board]:
    """The boards once the card's move is made: a Fire pawn sent back to Start loses the
    Fire; a Fire pawn Home gives it back to the centre, and its owner may bring one other
    pawn of the track or the Safety Zone straight Home (not the iced one, which cannot
    move)."""
    if board.fire is None:
        return [board]
    colour, index = board.fire
    if board[colour][index] == IN_START:
        return [copy(board, fire=None)]
    if board[colour][index] != AT_HOME:
        return [board]
    home = copy(board, fire=None)
    boards = [home]
    for other, place in enumerate(home[colour]):
        if place[0] in ("track", "safe") and not frozen(home, colour, other):
            bonus = copy(home)
            bonus[colour][other] = AT_HOME
            boards.append(bonus)
    return boards


def next_corner_ahead(colour: int, place: Place) -> Place | None:
    """The first corner strictly ahead of a track pawn, or None if it would have to pass
    its own entrance (into the Safety Zone) to get there."""
    if place[0] != "track":
        return None
    for steps in range(1, 16):
        landing = forward(colour, place, steps)
        if landing is None or landing[0] != "track":
            return None
        if landing[1] in CORNERS:
            return landing
    return None


def reference_fire_moves(rules: Rules, position: Position) -> set[tuple[Position, Bumps]]:
    """Each ``(result, bumps)`` of the Fire pawn's move before the draw: its owner, if it
    is to play, may move it to the next corner strictly ahead as an ordinary forward move
    (bumping an opponent there, never onto an own pawn or the iced pawn; an iced Fire
    pawn does not move).  The same player then draws."""
    if not rules.tokens or position.winner is not None or position.fire is None:
        return set()
    board = board_of(position)
    assert board.fire is not None
    colour, index = board.fire
    if colour != position.turn:
        return set()
    corner = next_corner_ahead(colour, board[colour][index])
    after = copy(board)
    if corner is None or not end_move(rules, after, colour, index, corner):
        return set()
    return {(position_of(rules, position, after, board, position.turn, None), tuple(sorted(after.bumps)))}


def reference_results(rules: Rules, position: Position, card: int) -> set[Outcome]:
    """Each distinct ``(result, is_pass, bumps)`` of playing ``card`` in ``position``.

    A pass is a card not used at all: no token placed and no pawn moved (a 1 that puts
    the Ice back on the pawn it holds has placed it).  Two ways to one result may bump
    different pawns, so a result can come with more than one ``bumps``.
    """
    if position.winner is not None:
        return set()
    board = board_of(position)
    player = position.turn
    results: set[Outcome] = set()
    for placed, token_placed in token_placements(rules, board, player, card):
        boards, passing = card_boards(rules, placed, player, card)
        ends = [(after, False) for after in boards]
        if passing:
            ends.append((placed, not token_placed))
        for after, is_pass in ends:
            for settled in fire_settled(after):
                result = result_of(rules, position, card, settled, board)
                results.add((result, is_pass, tuple(sorted(settled.bumps))))
    return results
