"""A game in progress: seeded chance, turn flow, history with push/pop, outcome.

Each turn is a chance event — :meth:`Game.draw` turns up the next card — then a
decision — :meth:`Game.play` makes one of :meth:`Game.legal_moves`.  Chance comes only
from the game's seed (see :mod:`pardon.core.cards`), so (rules, seats, seed, decisions)
replays a game exactly, and :meth:`Game.pop` restores the position *and* the pack.

>>> game = Game.new(parse_rules("classic"), seats=(0, 2), seed=7)
>>> card = game.draw()
>>> game.play(game.legal_moves()[0]).card == card
True
"""

from __future__ import annotations

from typing import Final, NamedTuple

from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import NO_CARD, Pack, a_card
from pardon.core.errors import IllegalError
from pardon.core.hands import hand_moves, with_hand
from pardon.core.moves import ACCEPT, DOUBLE, DROP, Action, Move, legal_moves
from pardon.core.notation import Record, format_move, parse_move
from pardon.core.observation import Observation, observe
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.scoring import GameResult, points_of
from pardon.core.state import Position, check_seats, initial_position, passing_over_dropped
from pardon.core.tokens import fire_moves

__all__ = ["Game", "LeaderDraw", "record_of", "replay"]


class LeaderDraw(NamedTuple):
    """The cards drawn to choose the Leader (RULES.md §3.8), round by round."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]  # ((colour, card), ...) per round
    leader: int


#: The stages of a turn: decisions before the draw (Fire's move, a double), the
#: other players' answers to a double, then the card (drawn, or chosen from a hand).
BEFORE_DRAW: Final = "before-draw"
ANSWERING: Final = "answering"
CARD: Final = "card"


class _State(NamedTuple):
    """Everything a decision changes, so that :meth:`Game.pop` can restore it."""

    position: Position
    pack: Pack
    card: int | None
    stage: str
    #: The colours still to answer a double, in turn; whether anyone has accepted.
    answering: tuple[int, ...] = ()
    accepted: bool = False
    #: Whether the player to move has doubled this turn (once a turn).
    doubled: bool = False


class _Turn(NamedTuple):
    before: _State
    colour: int
    move: Move


def draw_for_leader(seats: tuple[int, ...], pack: Pack, seed: int) -> tuple[LeaderDraw, Pack]:
    """Every player draws; the highest card leads; tied players draw again."""
    drawing = seats
    rounds = []
    while True:
        drawn = []
        for colour in drawing:
            card, pack = pack.draw(seed)
            drawn.append((colour, card))
        rounds.append(tuple(drawn))
        best = max(card for _, card in drawn)
        drawing = tuple(colour for colour, card in drawn if card == best)
        if len(drawing) == 1:
            return LeaderDraw(tuple(rounds), drawing[0]), pack.reshuffled(seed)


class Game:
    """One game of Sorry!: a position, a pack, the card to play, and the history.

    A turn goes through up to three stages (:attr:`stage`): decisions before the
    draw (:data:`BEFORE_DRAW`: the Fire pawn's move, a double, or going on), the other
    players' answers to a double (:data:`ANSWERING`), and the card (:data:`CARD`):
    drawn by :meth:`draw`, or chosen from the hand in a hand game.
    """

    def __init__(self, rules: Rules, position: Position, pack: Pack, seed: int, leader_draw: LeaderDraw | None = None):
        self.rules = rules
        self.seed = seed
        self.position = position
        self.pack = pack
        self.leader_draw = leader_draw
        #: Who was named to play first when the game was set up (None: the rules chose).
        self.first: int | None = None
        #: The card drawn and not yet played, if any (never set in a hand game).
        self.card: int | None = None
        self.stage = CARD
        self._answering: tuple[int, ...] = ()
        self._accepted = False
        self._doubled = False
        self._pack_before_draw = pack
        self._history: list[_Turn] = []
        self._begin_turn()

    @classmethod
    def new(cls, rules: Rules, seats: tuple[int, ...], seed: int, first: int | None = None) -> Game:
        """A new game: the Leader is chosen as the rules say, then the pack is shuffled
        (and, with hands, five cards dealt to each player, one at a time from the Leader).

        ``first`` names who plays first when the rules let the players choose (the
        youngest in 2013, the winner of the last game of a match); otherwise the Leader
        is drawn for.
        """
        seats = check_seats(seats, rules)
        if first is not None and first not in seats:
            raise IllegalError(f"{COLOUR_NAMES[first] if 0 <= first < 4 else first} is not playing")
        named = first
        pack = Pack.new(rules.deck, seed)
        leader_draw = None
        if rules.leader == "named" and first is None:
            first = seats[0]
        if first is None:
            leader_draw, pack = draw_for_leader(seats, pack, seed)
            first = leader_draw.leader
        position = initial_position(rules, seats, first)
        if rules.hand:
            position, pack = _deal(position, pack, seed, rules.hand)
        game = cls(rules, position, pack, seed, leader_draw)
        game.first = named
        return game

    @property
    def turn(self) -> int:
        """The colour whose turn it is."""
        return self.position.turn

    @property
    def decider(self) -> int:
        """The colour whose decision :meth:`legal_moves` lists: the player to move, or
        the player to answer a double."""
        return self._answering[0] if self.stage == ANSWERING and self._answering else self.position.turn

    @property
    def winner(self) -> int | None:
        """The colour that has won, or None."""
        return self.position.winner

    @property
    def is_over(self) -> bool:
        return self.position.winner is not None

    @property
    def awaiting_draw(self) -> bool:
        """Whether the next step is chance (:meth:`draw`) rather than a decision.

        Every player loop is the same, whatever the rules::

            while not game.is_over:
                if game.awaiting_draw:
                    game.draw()
                game.play(choose(game.observe(game.decider), game.legal_moves()))
        """
        return self.stage == CARD and self.card is None and not self.rules.hand and not self.is_over

    @property
    def points(self) -> dict[int, int] | None:
        """Each colour's points for a finished game under the rules' scoring, else None."""
        return points_of(self.rules, self.position)

    @property
    def result(self) -> GameResult | None:
        """What the finished game adds to a :class:`~pardon.core.scoring.Match`: the winner,
        the points, and the stake (a doubled game counts 2 wins)."""
        if self.position.winner is None:
            return None
        return GameResult(self.position.winner, self.points or {}, self.position.stake)

    @property
    def moves(self) -> list[Move]:
        """Every decision made so far, in order."""
        return [turn.move for turn in self._history]

    @property
    def last_decision(self) -> tuple[Position, int, Move] | None:
        """The last decision: the position it was made in, who made it and the move (None at the start)."""
        if not self._history:
            return None
        turn = self._history[-1]
        return turn.before.position, turn.colour, turn.move

    @property
    def turns(self) -> int:
        """How many decisions have been made (cards played or forfeited, and others)."""
        return len(self._history)

    def draw(self) -> int:
        """The chance step: turn up the next card for the player to move."""
        if self.is_over:
            raise IllegalError(f"the game is over: {COLOUR_NAMES[self.position.winner or 0]} has won")
        if self.rules.hand:
            raise IllegalError("in a game with hands the cards are played from the hand, not drawn")
        if self.stage != CARD:
            raise IllegalError(f"{COLOUR_NAMES[self.decider]} has a decision to make before the draw")
        if self.card is not None:
            raise IllegalError(f"{a_card(self.card)} has been drawn and must be played first")
        self._pack_before_draw = self.pack
        self.card, self.pack = self.pack.draw(self.seed)
        return self.card

    def legal_moves(self) -> list[Move]:
        """The choices of :attr:`decider` now (empty while a card is to be drawn).

        In a hand game each move's result shows the mover's own hand only, as the
        player's :meth:`observe` does.
        """
        if self.is_over:
            return []
        if self.stage == BEFORE_DRAW:
            return self._before_draw_moves()
        if self.stage == ANSWERING:
            colour = self._answering[0]
            return [Move(NO_CARD, (Action(kind, colour, -1, -1, -1),), self.position) for kind in (ACCEPT, DROP)]
        if self.rules.hand:
            return hand_moves(self.rules, self._view(self.position.turn))
        if self.card is None:
            return []
        return legal_moves(self.rules, self.position, self.card)

    def observe(self, colour: int) -> Observation:
        """What ``colour`` may know now: never the order of the pack, nor other hands."""
        return observe(self.rules, self._view(colour), colour, self.card, self.pack.discards)

    def parse(self, text: str) -> Move:
        """The decision ``text`` names now (see docs/notation.md); raise if it names none."""
        moves = self.legal_moves()
        if self.stage != CARD:
            wanted = " ".join(text.lower().split())
            for move in moves:
                if format_move(self.position, move).lower() == wanted:
                    return move
            choices = ", ".join(repr(format_move(self.position, move)) for move in moves)
            raise IllegalError(f"{text.strip()!r} is not a choice now: {choices}")
        if self.card is None and not self.rules.hand:
            raise IllegalError("draw a card before moving")
        return parse_move(self.rules, self._view(self.position.turn), self.card, text)

    def play(self, move: Move) -> Move:
        """Make ``move``, which must be one of :meth:`legal_moves`; nothing changes if not."""
        if self.stage == CARD and self.card is None and not self.rules.hand and not self.is_over:
            raise IllegalError("draw a card before moving")
        real = self._real(move)
        if real is None:
            raise IllegalError("that move is not legal here")
        self._push(real)
        return real

    def play_trusted(self, move: Move) -> None:
        """Make a move taken from :meth:`legal_moves` without checking it again (fast path)."""
        self._push(self._unmasked(move))

    def pop(self) -> Move:
        """Take back the last decision (and the draw before it: the same card will be
        drawn again)."""
        if not self._history:
            raise IllegalError("there is no move to take back")
        turn = self._history.pop()
        self._restore(turn.before)
        return turn.move

    def undraw(self) -> None:
        """Put the drawn card back on top of the pack (the pack is as before the draw)."""
        if self.card is None:
            raise IllegalError("no card has been drawn")
        self.card = None
        self.pack = self._pack_before_draw

    # --- the turn flow ------------------------------------------------------------------

    def _before_draw_moves(self) -> list[Move]:
        """Going on to the card, the Fire pawn's move, a double: each a move without a card."""
        position = self.position
        if position.winner is not None:
            return []
        found = fire_moves(position) if self.rules.tokens and not self._fired() else []
        if self.rules.doubling and not self._doubled:
            found.append(Move(NO_CARD, (Action(DOUBLE, position.turn, -1, -1, -1),), position))
        return [Move(NO_CARD, (), position), *found] if found else []

    def _fired(self) -> bool:
        """Whether the Fire pawn has moved before this turn's draw already."""
        for turn in reversed(self._history):
            if turn.before.stage != BEFORE_DRAW or turn.colour != self.position.turn:
                return False
            if turn.move.actions and turn.move.actions[0].kind not in (DOUBLE, ACCEPT, DROP):
                return True
        return False

    def _begin_turn(self) -> None:
        self.card = None
        self._doubled = False
        self.stage = BEFORE_DRAW
        if not self._before_draw_moves():
            self.stage = CARD

    def _push(self, move: Move) -> None:
        self._history.append(_Turn(self._snapshot(), self.decider, move))
        if self.stage == BEFORE_DRAW:
            self._decided_before_draw(move)
        elif self.stage == ANSWERING:
            self._answered(move)
        else:
            self._played(move)

    def _decided_before_draw(self, move: Move) -> None:
        if not move.actions:  # going on to the card
            self.stage = CARD
        elif move.actions[0].kind == DOUBLE:
            self._doubled = True
            self.stage = ANSWERING
            self._answering = _clockwise_after(self.position, self.position.turn)
            self._accepted = False
        else:  # the Fire pawn's move
            self.position = move.result
            if not self._before_draw_moves():
                self.stage = CARD

    def _answered(self, move: Move) -> None:
        colour = self._answering[0]
        self._answering = self._answering[1:]
        if move.actions[0].kind == DROP:
            self.position = self.position.with_extras(out=tuple(sorted((*self.position.out, colour))))
        else:
            self._accepted = True
        if self._answering:
            return
        if not self._accepted:  # everybody dropped out: the game ends, the doubler wins
            self.position = self.position._replace(winner=self.position.turn)
            self.stage = CARD
            return
        self.position = self.position.with_extras(stake=self.position.stake * 2)
        self.stage = BEFORE_DRAW if self._before_draw_moves() else CARD

    def _played(self, move: Move) -> None:
        mover = self.position.turn
        position = move.result
        if self.rules.hand:
            self.pack = self.pack.discard(move.card)
            position, self.pack = _refill(position, mover, self.pack, self.seed, self.rules.hand)
        self.position = passing_over_dropped(position)
        self.card = None
        if self.position.winner is None and self.position.turn != mover:
            self._begin_turn()

    def _real(self, move: Move) -> Move | None:
        """The legal move that ``move`` names (by its card and actions), as made in the
        full position; ``None`` if there is none."""
        key = (move.card, move.actions)
        for candidate in self.legal_moves():
            if (candidate.card, candidate.actions) == key:
                return self._unmasked(candidate)
        return None

    def _unmasked(self, move: Move) -> Move:
        """A move shown from the mover's view (other hands hidden), with every hand back
        in its result: only the mover's hand changes with a move."""
        hands = self.position.hands
        if not hands or self.stage != CARD:
            return move
        mover = self.position.turn
        held = tuple(move.result.hands[mover] if seat == mover else hand for seat, hand in enumerate(hands))
        return move._replace(result=move.result.with_extras(hands=held))

    def _view(self, colour: int) -> Position:
        """The position as ``colour`` sees it: the other hands hidden."""
        hands = self.position.hands
        if not hands:
            return self.position
        return self.position.with_extras(hands=tuple(hand if seat == colour else () for seat, hand in enumerate(hands)))

    def _snapshot(self) -> _State:
        """The state before the decision about to be made (before its draw, if any)."""
        pack, card = self.pack, self.card
        if card is not None:
            pack, card = self._pack_before_draw, None
        return _State(self.position, pack, card, self.stage, self._answering, self._accepted, self._doubled)

    def _restore(self, state: _State) -> None:
        self.position, self.pack, self.card, self.stage = state.position, state.pack, state.card, state.stage
        self._answering, self._accepted, self._doubled = state.answering, state.accepted, state.doubled
        self._pack_before_draw = state.pack


def _clockwise_after(position: Position, colour: int) -> tuple[int, ...]:
    """The players still in the game after ``colour``, clockwise."""
    seats = position.seats
    index = seats.index(colour)
    following = seats[index + 1 :] + seats[:index]
    return tuple(seat for seat in following if seat not in position.out)


def _deal(position: Position, pack: Pack, seed: int, size: int) -> tuple[Position, Pack]:
    """Deal ``size`` cards to each player, one at a time, from the player to move."""
    seats = position.seats
    order = _clockwise_after(position, position.turn)
    order = (position.turn, *order)
    hands: dict[int, list[int]] = {colour: [] for colour in seats}
    for _ in range(size):
        for colour in order:
            card, pack = pack.take(seed)
            hands[colour].append(card)
    for colour in seats:
        position = with_hand(position, colour, tuple(hands[colour]))
    return position, pack


def _refill(position: Position, colour: int, pack: Pack, seed: int, size: int) -> tuple[Position, Pack]:
    """Draw ``colour``'s hand back up to ``size`` cards."""
    hand = list(position.hands[colour])
    while len(hand) < size:
        card, pack = pack.take(seed)
        hand.append(card)
    return with_hand(position, colour, tuple(hand)), pack


def record_of(game: Game) -> Record:
    """The record of ``game`` so far: rules, seats, seed, who was named to play first (if
    anyone was) and every decision (going on to the card without a decision before the
    draw is left out: it is implied)."""
    moves = tuple(
        (turn.colour, format_move(turn.before.position, turn.move))
        for turn in game._history
        if turn.move.card != NO_CARD or turn.move.actions
    )
    return Record(to_text(game.rules), game.position.seats, game.seed, moves, game.winner, game.first)


def replay(record: Record) -> Game:
    """Play a record's decisions again, checking each; raise on the first bad one.

    The error names the line's number (counting decisions from 1) and what is wrong.
    """
    rules = parse_rules(record.rules)
    game = Game.new(rules, record.seats, record.seed, first=record.first)
    for number, (colour, text) in enumerate(record.moves, start=1):
        if game.is_over:
            raise IllegalError(f"decision {number} ({text!r}) comes after the game is over")
        if game.stage == BEFORE_DRAW and not _names_a_choice(game, text):
            game.play_trusted(game.legal_moves()[0])  # going on to the card is implied
        if game.awaiting_draw:
            game.draw()
        if colour != game.decider:
            raise IllegalError(
                f"decision {number}: it is {COLOUR_NAMES[game.decider]}'s turn, not {COLOUR_NAMES[colour]}'s"
            )
        try:
            move = game.parse(text)
        except ValueError as error:
            raise type(error)(f"decision {number} ({COLOUR_NAMES[colour]} {text!r}): {error}") from None
        game.play_trusted(move)
    if record.result is not None and record.result != game.winner:
        winner = COLOUR_NAMES[game.winner] if game.winner is not None else "nobody yet"
        raise IllegalError(f"the record says {COLOUR_NAMES[record.result]} won, but replaying it {winner} has won")
    return game


def _names_a_choice(game: Game, text: str) -> bool:
    wanted = " ".join(text.lower().split())
    return any(format_move(game.position, move).lower() == wanted for move in game.legal_moves())
