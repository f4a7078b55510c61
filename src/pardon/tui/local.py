"""A game on this machine: the people at the screen and computer players around one
:class:`~pardon.core.game.Game`.

The table draws the cards itself (as a server does), lets each computer player choose from its
observation after a pause a person can follow, takes moves back against the computer, ranks the
choices for a hint, and writes the game's record.  Chance comes only from the game's seed and,
for the computer players, from a stream seeded by it: the same seed and the same decisions
play the same game.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Collection
from pathlib import Path

from pardon.bots import Bot, make_bot
from pardon.bots.coach import best_reason
from pardon.bots.hint import rank_observed
from pardon.core.board import COLOUR_NAMES, partner
from pardon.core.describe import describe_move, leader_draw_words
from pardon.core.game import CARD, Game, record_of
from pardon.core.moves import Move
from pardon.core.notation import Record, format_move, format_record
from pardon.core.state import Position
from pardon.core.why import why_pawns_cannot_move
from pardon.tui.choices import Choice, choice_of_move
from pardon.tui.table import FINISHED, PLAYING, Seat, View
from pardon.web.views import cards_drawn

#: How a record names a colour played at this screen (the others are named by their level).
YOU = "you"

#: The level that ranks the choices for a hint, as the server's hints do: quick, and a fair judge.
HINT_LEVEL = "tactician"


class LocalTable:
    """``game`` played by the ``people`` at this screen and, in every other seat, a computer
    player of ``level``, which waits ``pace`` seconds before each of its decisions."""

    can_take_back = True
    can_hint = True
    hint_reason: str | None = None

    def __init__(self, game: Game, people: Collection[int], level: str, pace: float = 0.6) -> None:
        self.game = game
        self.people = frozenset(people)
        self.level = level
        self.pace = pace
        self.bots: dict[int, Bot] = {
            colour: make_bot(level) for colour in game.position.seats if colour not in self.people
        }
        self.rng = random.Random(f"pardon-bots:{game.seed}")
        #: Per decision: who made it, and what it did in words (None for going on to the draw);
        #: a game taken up again from its record has said its decisions so far.
        self._said = [(colour, self._words(before, move)) for before, colour, move in game.decisions]
        #: Counts the moves taken back, so that a computer's choice for a position since
        #: taken back is dropped.
        self._taken_back = 0
        self._opening = _leader_draw_words(game)
        self._moved = asyncio.Event()
        self._closed = False
        self._draw()

    # --- what the screen shows ----------------------------------------------------------------

    def view(self) -> View:
        game = self.game
        over = game.is_over
        decider = None if over else game.decider
        viewer = decider if decider in self.people else self._only_person()
        position = game.observe(viewer).position if viewer is not None else _hands_hidden(game)
        person_decides = decider is not None and decider in self.people
        moves = game.legal_moves() if person_decides else []
        choices = tuple(choice_of_move(game.rules, game.position, move) for move in moves)
        seats = tuple(
            Seat(colour, YOU if colour in self.people else self.level, colour in self.people)
            for colour in game.position.seats
        )
        return View(
            rules=game.rules,
            position=position,
            seats=seats,
            status=FINISHED if over else PLAYING,
            stage="over" if over else game.stage,
            decider=decider,
            card=game.card,
            choices=choices,
            why_not=self._why_not(decider) if person_decides and decider is not None else {},
            hand=position.hands[viewer] if viewer is not None and position.hands else (),
            log=(*self._opening, *(said for _, said in self._said if said)),
            pack=len(game.pack.draw_pile),
            discards=len(game.pack.discards),
            points=game.points,
            event=game.turns,
            cards_drawn=cards_drawn(game) if game.rules.solo else None,
        )

    def _only_person(self) -> int | None:
        """The one person at the screen, whose hand stays in view (None for a hot-seat game)."""
        return next(iter(self.people)) if len(self.people) == 1 else None

    def _why_not(self, colour: int) -> dict[int, dict[tuple[int, int], str]]:
        """Why each pawn ``colour`` moves (with partners, the partner's too) cannot use each
        card it may play now, by ``(colour, distance)``."""
        game = self.game
        if game.stage != CARD:
            return {}
        seen = game.observe(colour).position
        cards = [game.card] if game.card is not None else sorted(set(seen.hands[colour])) if seen.hands else []
        team = (seen.turn, partner(seen.turn)) if game.rules.partners else (seen.turn,)
        return {card: why_pawns_cannot_move(game.rules, seen, card, team) for card in cards}

    # --- playing ------------------------------------------------------------------------------

    async def run(self, changed: Callable[[], None]) -> None:
        """Let the computer players play their turns, each after ``pace`` seconds; a person's
        decision wakes the table up again."""
        while not self._closed and not self.game.is_over:
            if self.game.decider in self.people:
                self._moved.clear()
                await self._moved.wait()
                continue
            taken_back = self._taken_back
            if self.pace:
                await asyncio.sleep(self.pace)
            move = await asyncio.to_thread(self._computer_choice)
            if self._closed or move is None or taken_back != self._taken_back:
                continue
            self._make(move)
            changed()

    def _computer_choice(self) -> Move | None:
        game = self.game
        colour = game.decider
        if colour in self.people or game.is_over:  # a move was taken back meanwhile
            return None
        return self.bots[colour].choose(game.observe(colour), game.legal_moves(), self.rng)

    async def choose(self, choice: Choice) -> None:
        if self.game.decider not in self.people:
            raise ValueError("it is not your decision")
        moves = self.game.legal_moves()
        move = next((move for move in moves if format_move(self.game.position, move) == choice.notation), None)
        if move is None:
            raise ValueError(f"{choice.notation!r} is not a choice now")
        self._make(move)
        self._moved.set()

    def _make(self, move: Move) -> None:
        before, colour = self.game.position, self.game.decider
        made = self.game.play(move)
        self._said.append((colour, self._words(before, made)))
        self._draw()

    def _words(self, before: Position, move: Move) -> str | None:
        """A decision in words for the log; None for going on to the draw, which goes without saying."""
        if not (move.card or move.actions):
            return None
        return describe_move(self.game.rules, before, move).split("  [")[0]

    def _draw(self) -> None:
        if self.game.awaiting_draw:
            self.game.draw()

    def take_back(self) -> int:
        """Take back the computers' decisions since the last decision of a person here, and that
        one: it is that person's decision again, with the same card."""
        if not any(colour in self.people for colour, _ in self._said):
            return 0
        taken = 0
        while True:
            self.game.pop()
            colour, _ = self._said.pop()
            taken += 1
            if colour in self.people:
                break
        self._taken_back += 1
        self._draw()
        self._moved.set()
        return taken

    async def hint(self) -> list[tuple[Choice, float]]:
        game = self.game
        colour = game.decider
        self.hint_reason = None
        if game.is_over or colour not in self.people or game.stage != CARD:
            return []
        moves = game.legal_moves()
        seen = game.observe(colour)
        ranked = await asyncio.to_thread(rank_observed, seen, moves, HINT_LEVEL, random.Random(0))
        self.hint_reason = best_reason(seen.rules, seen.position, ranked)  # as the coach says it
        return [(choice_of_move(game.rules, game.position, move), chance) for move, chance in ranked]

    async def save_record(self, path: Path) -> None:
        path.write_text(format_record(self.record()), encoding="utf-8")

    def record(self) -> Record:
        """The game's record, naming who plays each colour ("you" here, else the computers' level),
        so that ``pardon tui --resume`` seats them again."""
        players = tuple((colour, YOU if colour in self.people else self.level) for colour in self.game.position.seats)
        return record_of(self.game)._replace(players=players)

    async def close(self) -> None:
        self._closed = True
        self._moved.set()


def _leader_draw_words(game: Game) -> tuple[str, ...]:
    draw = game.leader_draw
    if draw is None:
        return (f"{COLOUR_NAMES[game.turn].capitalize()} plays first.",)
    return (leader_draw_words(draw),)


def _hands_hidden(game: Game) -> Position:
    position = game.position
    if not position.hands:
        return position
    return position.with_extras(hands=tuple(() for _ in position.hands))
