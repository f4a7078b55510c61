"""The typed errors a client can cause: a code for programs, a message for people.

Every one of them leaves the game exactly as it was.
"""

from __future__ import annotations

from typing import Final

MALFORMED: Final = "malformed"  # not JSON, or not a message of the protocol
TOO_LARGE: Final = "too_large"  # longer than the server accepts
RATE_LIMITED: Final = "rate_limited"  # too many messages too fast
TOO_MANY_CONNECTIONS: Final = "too_many_connections"  # too many websockets or HTTP connections open at once
SERVER_FULL: Final = "server_full"  # as many connections open as the server can hold, from everyone
DATABASE_UNAVAILABLE: Final = "database_unavailable"  # a REST request the database refused: nothing changed
TOO_SLOW: Final = "too_slow"  # an HTTP request that did not arrive in time
WRONG_HOST: Final = "wrong_host"  # an HTTP request naming another site in its Host header
BAD_TOKEN: Final = "bad_token"  # the token opens no seat of this game
NO_GAME: Final = "no_game"  # there is no game by that id
NOT_YOUR_SEAT: Final = "not_your_seat"  # acting for a seat the connection does not hold
NOT_YOUR_TURN: Final = "not_your_turn"  # the decision belongs to another seat
NOT_STARTED: Final = "not_started"  # players are still to join
GAME_OVER: Final = "game_over"
STALE: Final = "stale"  # the client has not seen the latest event
DUPLICATE: Final = "duplicate"  # that very decision was already made
BAD_EVENT: Final = "bad_event"  # an event number the game has not reached
INVALID_MOVE: Final = "invalid_move"  # not move notation
ILLEGAL_MOVE: Final = "illegal_move"  # notation, but not a legal move now
AMBIGUOUS_MOVE: Final = "ambiguous_move"  # names more than one legal move
HINTS_OFF: Final = "hints_off"
NO_HINT: Final = "no_hint"  # nothing to rank now
NOT_OWNER: Final = "not_owner"  # another server process runs this game
SERVER_ERROR: Final = "server_error"  # our fault; nothing changed


class CommandError(Exception):
    """A refused command: ``code`` is one of the constants above."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message
