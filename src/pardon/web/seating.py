"""Who sits at a game in progress: the kinds of seat, a seat and who is at it now (with the
takeover clock of an absent player), a connected client as a room sees it, and how long a
seat joined from the lobby is kept for its joiner.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from pardon.web.settings import Settings
from pardon.web.storage import SeatRow

HUMAN = "human"
BOT = "bot"
HOTSEAT = "hotseat"


class Listener(Protocol):
    """A connected client as a room sees it: the seats it decides for, and a mailbox."""

    @property
    def controls(self) -> frozenset[int]: ...

    def deliver(self, message: dict[str, Any]) -> None: ...


@dataclass
class Seat:
    """A seat and who is at it now."""

    row: SeatRow
    connections: int = 0
    #: When the last connection for this seat closed (monotonic clock); None while connected.
    away_since: float | None = field(default_factory=time.monotonic)
    #: When its player came (monotonic clock); None while away.
    present_since: float | None = None
    #: The takeover clock of this absence: the seconds someone else has waited for the seat, up to
    #: ``waited_from`` (when it last started running; None while paused: nobody waits).
    waited: float = 0.0
    waited_from: float | None = None

    def came(self, now: float) -> None:
        if self.away_since is not None:
            self.away_since, self.present_since = None, now
            self.waited, self.waited_from = 0.0, None

    def left(self, now: float) -> None:
        if self.away_since is None:
            self.away_since, self.present_since = now, None
            self.waited, self.waited_from = 0.0, None

    def run_clock(self, waited_for: bool, now: float) -> None:
        """Run the takeover clock while the seat's player is away and someone waits for them, and
        pause it while nobody does: a waiting player who comes and goes does not restart it."""
        if self.away_since is None:
            return
        if waited_for and self.waited_from is None:
            self.waited_from = now
        elif not waited_for and self.waited_from is not None:
            self.waited, self.waited_from = self.waited + now - self.waited_from, None

    def waited_until(self, now: float) -> float:
        """The seconds someone has waited for the seat's absent player, up to ``now``."""
        return self.waited + (now - self.waited_from if self.waited_from is not None else 0.0)

    @property
    def colour(self) -> int:
        return self.row.colour

    @property
    def is_machine(self) -> bool:
        return self.row.kind == BOT


def join_cutoff(settings: Settings) -> datetime:
    """The earliest a seat may have been joined from the lobby and still be kept for its joiner
    (``Settings.join_grace`` ago): one joined before it, its player not come, is open again."""
    return datetime.now(UTC) - timedelta(seconds=settings.join_grace)
