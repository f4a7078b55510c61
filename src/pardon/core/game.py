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

import reprlib
from collections.abc import Iterator
from typing import NamedTuple

from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import NO_CARD, Pack
from pardon.core.errors import IllegalError, InvalidError, whole_number
from pardon.core.moves import Move
from pardon.core.notation import (
    Record,
    check_record,
    check_text,
    format_move,
    format_pack,
    format_position,
    parse_move,
    parse_pack,
    parse_position,
    start_of,
)
from pardon.core.observation import Observation
from pardon.core.rules import Rules, check_rules, parse_rules, to_text
from pardon.core.scoring import GameResult, points_of
from pardon.core.state import Position, check_position_value
from pardon.core.turn import (
    ANSWERING,
    BEFORE_DRAW,
    CARD,
    GameState,
    LeaderDraw,
    apply,
    as_made,
    awaiting_draw,
    begin_turn,
    decider,
    draw,
    draw_next,
    legal_moves,
    observe_state,
    start,
    view,
)

__all__ = ["ANSWERING", "BEFORE_DRAW", "CARD", "Game", "LeaderDraw", "record_of", "replay", "replay_steps"]


class _Turn(NamedTuple):
    """One decision of the history: the state before it (before its draw, if a card was
    drawn for it), who made it and the move."""

    before: GameState
    colour: int
    move: Move


class Game:
    """One game of Sorry!: its rules, its current :class:`~pardon.core.turn.GameState`, and the
    history of decisions that led there.  Every step is one of :mod:`pardon.core.turn`'s pure
    functions; a game only remembers the states, so :meth:`pop` takes a decision back by
    returning to the state before it, pack included.
    """

    def __init__(self, rules: Rules, state: GameState, leader_draw: LeaderDraw | None = None, first: int | None = None):
        self.rules = rules
        self.state = state
        self.leader_draw = leader_draw
        #: Who was named to play first when the game was set up (None: the rules chose).
        self.first = first
        #: The position and the pack of a game begun with :meth:`at` (None for :meth:`new`):
        #: its record starts there, since the seed alone does not lead to them.
        self.began_at: tuple[Position, Pack] | None = None
        #: The state before the last draw (what :meth:`pop` and :meth:`undraw` return to).
        self._before_draw = state
        self._history: list[_Turn] = []

    @classmethod
    def new(cls, rules: Rules, seats: tuple[int, ...], seed: int, first: int | None = None) -> Game:
        """A new game (:func:`pardon.core.turn.start`): the Leader is chosen as the rules say,
        then the pack is shuffled (and, with hands, five cards dealt to each player).

        ``first`` names who plays first when the rules let the players choose (the
        youngest in 2013, the winner of the last game of a match); otherwise the Leader
        is drawn for.
        """
        state, leader_draw = start(rules, seats, seed, first)
        return cls(rules, state, leader_draw, first)

    @classmethod
    def at(cls, rules: Rules, position: Position, pack: Pack, seed: int) -> Game:
        """A game that starts from ``position`` with ``pack`` (a puzzle, a search's model, a test).

        The arguments' types are checked (text for the position, or a float seed, is an
        InvalidError); whether the position could arise is not: see
        :func:`pardon.core.state.check_position`."""
        check_rules(rules)
        check_position_value(position)
        if not isinstance(pack, Pack):
            raise InvalidError(f"pack must be a Pack (Pack.new(45, seed)), not {reprlib.repr(pack)}")
        seed = whole_number(seed, "the seed")
        game = cls(rules, begin_turn(rules, GameState(position, pack, seed)))
        game.began_at = (position, pack)
        return game

    # --- the state, read ------------------------------------------------------------------

    @property
    def position(self) -> Position:
        return self.state.position

    @property
    def pack(self) -> Pack:
        return self.state.pack

    @property
    def seed(self) -> int:
        return self.state.seed

    @property
    def card(self) -> int | None:
        """The card drawn and not yet played, if any (never set in a hand game)."""
        return self.state.card

    @property
    def stage(self) -> str:
        """The stage of the turn: :data:`BEFORE_DRAW`, :data:`ANSWERING` or :data:`CARD`."""
        return self.state.stage

    @property
    def turn(self) -> int:
        """The colour whose turn it is."""
        return self.state.position.turn

    @property
    def decider(self) -> int:
        """The colour whose decision :meth:`legal_moves` lists: the player to move, or
        the player to answer a double."""
        return decider(self.state)

    @property
    def winner(self) -> int | None:
        """The colour that has won, or None."""
        return self.state.position.winner

    @property
    def is_over(self) -> bool:
        return self.state.position.winner is not None

    @property
    def awaiting_draw(self) -> bool:
        """Whether the next step is chance (:meth:`draw`) rather than a decision.

        Every player loop is the same, whatever the rules::

            while not game.is_over:
                if game.awaiting_draw:
                    game.draw()
                game.play(choose(game.observe(game.decider), game.legal_moves()))
        """
        return awaiting_draw(self.rules, self.state)

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
    def decisions(self) -> list[tuple[Position, int, Move]]:
        """Every decision so far, in order: the position it was made in, who made it and the move."""
        return [(turn.before.position, turn.colour, turn.move) for turn in self._history]

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

    # --- steps --------------------------------------------------------------------------

    @property
    def before_draw(self) -> GameState:
        """The state before the card in hand was drawn (the state now if none is): what
        :meth:`undraw` returns to, and where a search that knows the pack starts from."""
        return self._before_draw if self.state.card is not None else self.state

    def draw(self) -> int:
        """The chance step: turn up the next card for the player to move."""
        card, drawn = draw_next(self.rules, self.state)
        self._before_draw, self.state = self.state, drawn
        return card

    def draw_card(self, card: int) -> None:
        """A chance step with a given outcome (a search's chance node: :func:`pardon.core.turn.draw`);
        :meth:`undraw` puts the card back, the pack's order as before."""
        drawn = draw(self.rules, self.state, card)
        self._before_draw, self.state = self.state, drawn

    def legal_moves(self) -> list[Move]:
        """The choices of :attr:`decider` now (empty while a card is to be drawn).

        In a hand game each move's result shows the mover's own hand only, as the
        player's :meth:`observe` does.
        """
        return legal_moves(self.rules, self.state)

    def observe(self, colour: int) -> Observation:
        """What ``colour``, a seat in play, may know now: never the order of the pack, nor other hands."""
        return observe_state(self.rules, self.state, colour)

    def parse(self, text: str) -> Move:
        """The decision ``text`` names now (see docs/notation.md); raise if it names none."""
        check_text(text, "a move")
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
        return parse_move(self.rules, view(self.state, self.position.turn), self.card, text)

    def play(self, move: Move) -> Move:
        """Make ``move``, which must be one of :meth:`legal_moves`; nothing changes if not.
        Returns the move as made (in a hand game, with every hand in its result)."""
        if not isinstance(move, Move):
            raise InvalidError(f"play takes a Move from legal_moves() (or parse() for text), not {reprlib.repr(move)}")
        if self.awaiting_draw:
            raise IllegalError("draw a card before moving")
        real = self._real(move)
        if real is None:
            raise IllegalError("that move is not legal here")
        self.play_trusted(real)
        return real

    def play_trusted(self, move: Move) -> None:
        """Make a move taken from :meth:`legal_moves` without checking it again (fast path)."""
        self.push(move, apply(self.rules, self.state, move))

    def push(self, move: Move, after: GameState) -> None:
        """Record ``move`` and step to ``after``, the state :func:`pardon.core.turn.apply` gives
        for it: for a caller that has computed the next state already (the server stores the
        decision before it makes it), so that it is not computed twice."""
        self._history.append(_Turn(self.before_draw, self.decider, move))
        self.state = self._before_draw = after

    def pop(self) -> Move:
        """Take back the last decision (and the draw before it: the same card will be
        drawn again)."""
        if not self._history:
            raise IllegalError("there is no move to take back")
        turn = self._history.pop()
        self.state = self._before_draw = turn.before
        return turn.move

    def undraw(self) -> None:
        """Put the drawn card back on top of the pack (the pack is as before the draw)."""
        if self.card is None:
            raise IllegalError("no card has been drawn")
        self.state = self._before_draw

    def _real(self, move: Move) -> Move | None:
        """The legal move that ``move`` names (by its card and actions); ``None`` if there is none."""
        key = (move.card, move.actions)
        for candidate in self.legal_moves():
            if (candidate.card, candidate.actions) == key:
                return as_made(self.state, candidate)
        return None


def record_of(game: Game) -> Record:
    """The record of ``game`` so far: rules, seats, seed, who was named to play first (if
    anyone was) and every decision (going on to the card without a decision before the
    draw is left out: it is implied).

    A game begun at a position of its own (:meth:`Game.at`) has a record that starts there:
    its ``position`` and ``pack`` are written as the ``Position`` and ``Pack`` tags (a game
    begun with :meth:`Game.new` has neither, and replays from the seed's opening).  A start
    that the text cannot carry exactly (a position that is not in normal form: seats out of
    order, unsorted pawns) is an InvalidError rather than a record that replays another game."""
    moves = tuple(
        (turn.colour, format_move(turn.before.position, turn.move))
        for turn in game._history
        if turn.move.card != NO_CARD or turn.move.actions
    )
    record = Record(to_text(game.rules), game.position.seats, game.seed, moves, game.winner, game.first)
    if game.began_at is None:
        return record
    position, pack = _start_texts(*game.began_at)
    return record._replace(position=position, pack=pack)


def _start_texts(position: Position, pack: Pack) -> tuple[str, str]:
    """The texts of a game's start, once they are sure to read back as that position and pack."""
    texts = format_position(position), format_pack(pack)
    if parse_position(texts[0]) != position:
        raise InvalidError(
            f"this game began at a position that its text {texts[0]!r} does not give back exactly "
            "(use parse_position or the JSON reader to make one), so it has no record"
        )
    try:
        exact = parse_pack(texts[1]) == pack
    except InvalidError:  # a negative count of shuffles is written but not read
        exact = False
    if not exact:
        raise InvalidError(f"this game began with a pack that its text does not give back exactly: {pack!r}")
    return texts


def replay(record: Record) -> Game:
    """Play a record's decisions again, checking each; raise on the first bad one.

    The error names the line's number (counting decisions from 1) and what is wrong.
    """
    check_record(record)
    game = None
    for _, game, move in replay_steps(record):
        game.play_trusted(move)
    if game is None:  # a record without decisions
        game = _opening(record)
    if record.result is not None and record.result != game.winner:
        winner = COLOUR_NAMES[game.winner] if game.winner is not None else "nobody yet"
        raise IllegalError(f"the record says {COLOUR_NAMES[record.result]} won, but replaying it {winner} has won")
    return game


def replay_steps(record: Record) -> Iterator[tuple[int, Game, Move]]:
    """Each decision of a record, checked, with the game as it stands when it is made (its
    card drawn): the decision's number (from 1), the game and the move.  The caller plays the
    move (``game.play_trusted(move)``) before asking for the next: a coach can look at every
    position of a game on the way.  Raises on the first bad decision, as :func:`replay` does."""
    game = _opening(check_record(record))
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
        turns = game.turns
        yield number, game, move
        if game.turns != turns + 1:
            raise RuntimeError("replay_steps: play each move before asking for the next decision")


def _opening(record: Record) -> Game:
    """The game before a record's first decision: from the seed's opening, or at the
    record's start (as :meth:`Game.at` began it: the position is taken as given)."""
    rules = parse_rules(record.rules)
    start = start_of(record)
    if start is None:
        return Game.new(rules, record.seats, record.seed, first=record.first)
    position, pack = start
    if tuple(record.seats) != position.seats:
        seats, seated = (" ".join(COLOUR_NAMES[colour] for colour in row) for row in (record.seats, position.seats))
        raise InvalidError(f"the [Seats ...] tag names {seats}, but the [Position ...] tag seats {seated}")
    if record.first is not None:
        raise InvalidError("a record that starts at a position says whose turn it is there: leave out [First ...]")
    return Game.at(rules, position, pack, record.seed)


def _names_a_choice(game: Game, text: str) -> bool:
    wanted = " ".join(text.lower().split())
    return any(format_move(game.position, move).lower() == wanted for move in game.legal_moves())
