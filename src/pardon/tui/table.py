"""What the screen shows of a game, wherever the game is played: a :class:`View`.

A game is played at a *table*: :class:`~pardon.tui.local.LocalTable` (a game on this machine,
with computer players) or :class:`~pardon.tui.online.OnlineTable` (a seat of a game on a pardon
server).  The screen reads the table's :class:`View`, hands back the player's :class:`Choice`,
and leaves the rest (drawing cards, computer players, the server's messages) to the table's
:meth:`Table.run`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Final, NamedTuple, Protocol

from pardon.core.board import COLOUR_NAMES
from pardon.core.rules import Rules
from pardon.core.state import Position
from pardon.tui.choices import Choice

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"


class Seat(NamedTuple):
    """A colour at the table: who plays it, and whether they play at this screen."""

    colour: int
    name: str
    here: bool


class View(NamedTuple):
    """Everything the screen shows, as this screen may see it (no other player's hand)."""

    rules: Rules
    position: Position
    seats: tuple[Seat, ...]
    status: str
    #: ``before-draw``, ``answering``, ``card`` or ``over`` (docs/protocol.md).
    stage: str
    decider: int | None
    #: The card drawn and not yet played (never in a hand game).
    card: int | None
    #: The decision of a person at this screen, if it is theirs: its choices, why each pawn they
    #: move (their own, with partners their partner's too) cannot use each card (card ->
    #: (colour, distance) -> reason), and their hand.
    choices: tuple[Choice, ...]
    why_not: Mapping[int, Mapping[tuple[int, int], str]]
    hand: tuple[int, ...]
    #: Every decision so far in words, oldest first.
    log: tuple[str, ...]
    #: Cards face down, and on the discard pile.
    pack: int
    discards: int
    points: Mapping[int, int] | None
    #: Something to tell the player: the server's refusal, a lost connection.
    note: str = ""
    #: How many decisions have been made: each new decision is offered afresh.
    event: int = 0
    #: The solo challenge's count: the cards drawn so far (lower is better); None in any other game.
    cards_drawn: int | None = None
    #: Online, the connection in a word or two for the title's corner ("online", "offline"); ""
    #: for a game on this machine.
    connection: str = ""
    #: What must stay in view whoever is to move: a lost connection, that this screen only watches.
    banner: str = ""

    def seat(self, colour: int) -> Seat:
        return next(seat for seat in self.seats if seat.colour == colour)

    @property
    def people(self) -> tuple[int, ...]:
        """The colours played at this screen."""
        return tuple(seat.colour for seat in self.seats if seat.here)

    @property
    def title(self) -> str:
        """Who plays whom: "Red (you), Yellow (expectimax)"."""
        return ", ".join(f"{COLOUR_NAMES[seat.colour].capitalize()} ({seat.name})" for seat in self.seats)


class Table(Protocol):
    """Where a game is played; the screen only reads it and hands it the player's choices."""

    #: Whether moves can be taken back (a game against the computer on this machine).
    can_take_back: bool
    #: Why the best choice of the last hint is best, in one line (None: no reason to give).
    hint_reason: str | None
    #: Whether ``h`` may ask for a hint (an online game created without hints: no).
    can_hint: bool

    def view(self) -> View: ...

    async def run(self, changed: Callable[[], None]) -> None:
        """Play the game on (computer players, a server's messages), calling ``changed`` after
        each change; returns when the game is over or the table closes."""

    async def choose(self, choice: Choice) -> None:
        """Make the choice of the person whose decision it is."""

    def take_back(self) -> int:
        """Take back the last decision of a person here and the computers' since; how many."""

    async def hint(self) -> list[tuple[Choice, float]]:
        """The choices now ranked by a computer player, each with its chance of winning."""

    async def save_record(self, path: Path) -> None:
        """Write the game's record (docs/notation.md §4) to ``path``."""

    async def close(self) -> None: ...
