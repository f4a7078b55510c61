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

from typing import NamedTuple

from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import Pack, a_card
from pardon.core.errors import IllegalError
from pardon.core.moves import Move, legal_moves
from pardon.core.notation import Record, format_move, parse_move
from pardon.core.observation import Observation, observe
from pardon.core.rules import Rules, parse_rules, to_text
from pardon.core.scoring import pawns_home, score_1939, score_1992
from pardon.core.state import Position, check_seats, initial_position

__all__ = ["Game", "LeaderDraw", "record_of", "replay"]


class LeaderDraw(NamedTuple):
    """The cards drawn to choose the Leader (RULES.md §3.8), round by round."""

    rounds: tuple[tuple[tuple[int, int], ...], ...]  # ((colour, card), ...) per round
    leader: int


class _Turn(NamedTuple):
    position: Position
    pack: Pack
    card: int
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
    """One game of Sorry!: a position, a pack, a card in hand, and the history."""

    def __init__(self, rules: Rules, position: Position, pack: Pack, seed: int, leader_draw: LeaderDraw | None = None):
        self.rules = rules
        self.seed = seed
        self.position = position
        self.pack = pack
        self.leader_draw = leader_draw
        #: The card drawn and not yet played, if any.
        self.card: int | None = None
        self._pack_before_draw = pack
        self._history: list[_Turn] = []

    @classmethod
    def new(cls, rules: Rules, seats: tuple[int, ...], seed: int, first: int | None = None) -> Game:
        """A new game: the Leader is chosen as the rules say, then the pack is shuffled.

        ``first`` names who plays first when the rules let the players choose (the
        youngest in 2013, the winner of the last game of a match); otherwise the Leader
        is drawn for.
        """
        seats = check_seats(seats, rules)
        if first is not None and first not in seats:
            raise IllegalError(f"{COLOUR_NAMES[first] if 0 <= first < 4 else first} is not playing")
        pack = Pack.new(rules.deck, seed)
        leader_draw = None
        if rules.leader == "named" and first is None:
            first = seats[0]
        if first is None:
            leader_draw, pack = draw_for_leader(seats, pack, seed)
            first = leader_draw.leader
        return cls(rules, initial_position(rules, seats, first), pack, seed, leader_draw)

    @property
    def turn(self) -> int:
        """The colour to draw or to move."""
        return self.position.turn

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
        return self.card is None and not self.is_over

    @property
    def decider(self) -> int:
        """The colour whose decision :meth:`legal_moves` lists."""
        return self.position.turn

    def observe(self, colour: int) -> Observation:
        """What ``colour`` may know now (never the order of the pack)."""
        return observe(self.rules, self.position, colour, self.card, self.pack.discards)

    @property
    def points(self) -> dict[int, int] | None:
        """Each colour's points for a finished game under the rules' scoring, else None."""
        winner = self.position.winner
        if winner is None or self.rules.scoring == "none":
            return None
        home = {colour: pawns_home(self.position.pawns[colour]) for colour in self.position.seats}
        if self.rules.scoring == "1939":
            return score_1939(home, winner)
        return score_1992(home, winner, self.rules.pawns)

    @property
    def moves(self) -> list[Move]:
        """Every move made so far, in order."""
        return [turn.move for turn in self._history]

    @property
    def turns(self) -> int:
        """How many cards have been played or forfeited."""
        return len(self._history)

    def draw(self) -> int:
        """The chance step: turn up the next card for the player to move."""
        if self.is_over:
            raise IllegalError(f"the game is over: {COLOUR_NAMES[self.position.winner or 0]} has won")
        if self.card is not None:
            raise IllegalError(f"{a_card(self.card)} has been drawn and must be played first")
        self._pack_before_draw = self.pack
        self.card, self.pack = self.pack.draw(self.seed)
        return self.card

    def legal_moves(self) -> list[Move]:
        """The choices for the card drawn (empty before the draw)."""
        if self.card is None:
            return []
        return legal_moves(self.rules, self.position, self.card)

    def play(self, move: Move) -> Move:
        """Make ``move``, which must be one of :meth:`legal_moves`; nothing changes if not."""
        if self.card is None:
            raise IllegalError("draw a card before moving")
        if move not in self.legal_moves():
            raise IllegalError("that move is not legal here")
        self._push(move)
        return move

    def play_trusted(self, move: Move) -> None:
        """Make a move taken from :meth:`legal_moves` without checking it again (fast path)."""
        self._push(move)

    def _push(self, move: Move) -> None:
        assert self.card is not None
        self._history.append(_Turn(self.position, self._pack_before_draw, self.card, move))
        self.position = move.result
        self.card = None

    def pop(self) -> Move:
        """Take back the last move and its draw; the same card will be drawn again."""
        if not self._history:
            raise IllegalError("there is no move to take back")
        self.card = None
        turn = self._history.pop()
        self.position, self.pack = turn.position, turn.pack
        return turn.move

    def undraw(self) -> None:
        """Put the drawn card back on top of the pack (the pack is as before the draw)."""
        if self.card is None:
            raise IllegalError("no card has been drawn")
        self.card = None
        self.pack = self._pack_before_draw


def record_of(game: Game) -> Record:
    """The record of ``game`` so far: rules, seats, seed and every decision."""
    moves = tuple((turn.position.turn, format_move(turn.position, turn.move)) for turn in game._history)
    return Record(to_text(game.rules), game.position.seats, game.seed, moves, game.winner)


def replay(record: Record) -> Game:
    """Play a record's decisions again, checking each; raise on the first bad one.

    The error names the line's number (counting decisions from 1) and what is wrong.
    """
    rules = parse_rules(record.rules)
    game = Game.new(rules, record.seats, record.seed)
    for number, (colour, text) in enumerate(record.moves, start=1):
        if game.is_over:
            raise IllegalError(f"decision {number} ({text!r}) comes after the game is over")
        if colour != game.turn:
            raise IllegalError(
                f"decision {number}: it is {COLOUR_NAMES[game.turn]}'s turn, not {COLOUR_NAMES[colour]}'s"
            )
        card = game.draw()
        try:
            move = parse_move(rules, game.position, card, text)
        except ValueError as error:
            raise type(error)(f"decision {number} ({COLOUR_NAMES[colour]} {text!r}): {error}") from None
        game.play_trusted(move)
    if record.result is not None and record.result != game.winner:
        winner = COLOUR_NAMES[game.winner] if game.winner is not None else "nobody yet"
        raise IllegalError(f"the record says {COLOUR_NAMES[record.result]} won, but replaying it {winner} has won")
    return game
