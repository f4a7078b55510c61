"""A seat of a game on a pardon server, joined with its invite link (docs/protocol.md).

The server is authoritative: it deals, runs the computer players and sends this seat what it
may see with its legal moves; the table only turns those messages into a :class:`View` and sends
back the player's choice in move notation.  A dropped connection is opened again with the last
event seen, as the browser does.
"""

from __future__ import annotations

import asyncio
import json
import math
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final, NamedTuple
from urllib.parse import parse_qs, urlsplit

from pardon.core.board import COLOUR_NAMES, COLOURS
from pardon.core.errors import InvalidError
from pardon.core.notation import location_from_json, parse_card_word, parse_colour
from pardon.core.rules import parse_rules
from pardon.core.state import Extras, Position, initial_position
from pardon.tui.choices import Choice, choice_of_json
from pardon.tui.table import FINISHED, WAITING, Seat, View

#: The largest message read from the server: a state can be large (a partners' 7 split among
#: any pawns offers a thousand moves, over a megabyte).
MAX_MESSAGE: Final = 16 * 2**20

#: Close codes after which opening the connection again cannot help (docs/protocol.md).
FINAL_CLOSE_CODES: Final = frozenset((1008, 1009, 1011, 4401, 4404))
#: How long apart at most a lost connection is tried again (for as long as the screen is open:
#: a server restarted, or a network back, finds the game going on).
RECONNECT_LONGEST: Final = 8.0


class Invite(NamedTuple):
    """An invite link taken apart: the server's address, the game and the seat's token."""

    server: str
    game: str
    token: str

    @property
    def link(self) -> str:
        """The invite link again, as a browser or ``pardon tui --join`` takes it."""
        return f"{self.server}/play/{self.game}#token={self.token}"

    @property
    def websocket(self) -> str:
        scheme = "wss" if self.server.startswith("https:") else "ws"
        return f"{scheme}{self.server.removeprefix('https').removeprefix('http')}/ws/games/{self.game}"


def parse_invite(link: str) -> Invite:
    """Read ``http://HOST/play/GAME#token=TOKEN``; raise InvalidError saying what is wrong.

    >>> parse_invite("http://127.0.0.1:8000/play/k3Jd9aQ2x1Zp#token=Qm9x").websocket
    'ws://127.0.0.1:8000/ws/games/k3Jd9aQ2x1Zp'
    """
    expected = "expected an invite link such as http://HOST/play/GAME#token=TOKEN"
    try:
        parts = urlsplit(link.strip())
    except ValueError as error:  # "Invalid IPv6 URL", say
        raise InvalidError(f"cannot join {link!r}: {error} ({expected})") from None
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise InvalidError(f"cannot join {link!r}: {expected}")
    path = parts.path.rstrip("/").split("/")
    if len(path) < 2 or path[-2] != "play" or not path[-1]:
        raise InvalidError(f"cannot join {link!r}: the address has no /play/GAME ({expected})")
    tokens = parse_qs(parts.fragment).get("token", [])
    if not tokens or not tokens[0]:
        raise InvalidError(f"cannot join {link!r}: the link has no #token=... ({expected})")
    prefix = "/".join(path[:-2])
    return Invite(f"{parts.scheme}://{parts.netloc}{prefix}", path[-1], tokens[0])


class OnlineTable:
    """This screen's seats of the game an invite link opens."""

    can_take_back = False
    hint_reason: str | None = None

    def __init__(self, invite: Invite, hints: bool = True) -> None:
        self.invite = invite
        #: Whether the game was created with hints (the server's summary says): none asked otherwise.
        self.can_hint = hints
        self.state: dict[str, Any] = {}
        self.seats: tuple[int, ...] = ()  # the colours this screen plays
        self.role = ""
        self.note = "Connecting to " + invite.server
        #: The connection as the title shows it, and what it says while lost (in view whoever moves).
        self.connection = "connecting"
        self.lost = ""
        self._log: list[str] = []
        self._socket: Any = None
        self._hint: asyncio.Future[list[tuple[Choice, float]]] | None = None
        self._closed = False
        self.finished = asyncio.Event()

    @property
    def event(self) -> int:
        """The last event this screen has seen (0 before the first)."""
        event: int = self.state.get("event", 0)
        return event

    # --- the connection ---------------------------------------------------------------------

    async def run(self, changed: Callable[[], None]) -> None:
        """Keep a connection to the game open until it is over, reading the server's messages."""
        from websockets.asyncio.client import connect
        from websockets.exceptions import ConnectionClosed

        tries = 0
        while not self._closed and not self.finished.is_set():
            try:
                async with connect(
                    self.invite.websocket, open_timeout=10, close_timeout=2, max_size=MAX_MESSAGE
                ) as socket:
                    self._socket = socket
                    self.connection, self.lost = "online", ""
                    await socket.send(json.dumps({"type": "hello", "token": self.invite.token, "since": self.event}))
                    async for text in socket:
                        tries = 0
                        self._receive(json.loads(text))
                        changed()
                        if self.state.get("status") == FINISHED:
                            self.finished.set()
                            return
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd is not None else None
                if code in FINAL_CLOSE_CODES:
                    self.note = self.note or f"the server closed the connection ({code})"
                    self.connection, self.lost = "closed", self.note
                    changed()
                    return
            except (OSError, TimeoutError):
                pass  # said below, as any connection lost
            finally:
                self._socket = None
            tries += 1
            if self._closed:
                return
            await self._wait_to_retry(min(RECONNECT_LONGEST, 0.25 * 2**tries), changed)

    async def _wait_to_retry(self, wait: float, changed: Callable[[], None]) -> None:
        """Say the connection is lost, counting down to the next try, whoever is to move."""
        self.connection = "offline"
        left = wait
        while left > 0 and not self._closed:
            self.lost = f"Connection to {self.invite.server} lost: trying again in {math.ceil(left):g} s (q quits)"
            changed()
            step = min(1.0, left)
            await asyncio.sleep(step)
            left -= step
        self.connection = "connecting"

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "welcome":
            self.role = message["role"]
            self.seats = tuple(parse_colour(colour) for colour in message["seats"])
            self.note = ""
            drawn = message.get("leader_draw")
            if isinstance(drawn, str) and drawn and drawn not in self._log:  # said once, first
                self._log.insert(0, drawn)
        elif kind == "sync":
            for event in message["events"]:
                if event["move"] != "continue":  # in words, as the log said them live
                    words = str(event.get("text") or f"{event['colour'].capitalize()}: {event['move']}")
                    self._log.append(words + self._away_mark(event["colour"], caught_up=True))
            self._set_state(message["state"], said=bool(message["events"]))
        elif kind == "event":
            mark = self._away_mark(message["decision"]["colour"])
            self._set_state(message["state"], said=message["decision"]["move"] != "continue", new=True, mark=mark)
        elif kind == "state":
            self._set_state(message["state"])
        elif kind == "presence" and self.state:  # who is here now: "not here", "away" kept true
            self.state = {**self.state, "seats": message["seats"]}
        elif kind == "hint" and self._hint is not None and not self._hint.done():
            by_notation = {choice.notation: choice for choice in self._choices()}
            ranked = [(by_notation.get(item["move"]), float(item["chance"])) for item in message["moves"]]
            reason = message.get("reason")
            self.hint_reason = reason if isinstance(reason, str) and reason else None
            self._hint.set_result([(choice, chance) for choice, chance in ranked if choice is not None])
        elif kind == "error":
            self.note = str(message.get("message", message.get("code")))
            if self._hint is not None and not self._hint.done():
                self._hint.set_result([])

    def _set_state(self, state: dict[str, Any], said: bool = False, new: bool = False, mark: str = "") -> None:
        """Take the server's state; a new decision goes in the log in words (``state.last``)."""
        last = state.get("last")
        if new and said and last:
            self._log.append(str(last["text"]) + mark)
        elif said and last and self._log:  # the last of a sync's decisions, in words
            self._log[-1] = str(last["text"]) + self._away_mark(str(last["colour"]), caught_up=True)
        self.state = state
        self.note = ""

    def _away_mark(self, colour: str, caught_up: bool = False) -> str:
        """The mark of a person's decision the computer made for them while they were away: one
        of this screen's own seats caught up after a reconnect, or a seat the server says a
        computer plays now."""
        seat = next((seat for seat in self.state.get("seats", ()) if seat["colour"] == colour), None)
        if seat is None or seat["kind"] == "bot":
            return ""
        if parse_colour(colour) in self.seats:
            return " (the computer, while you were away)" if caught_up and self.state else ""
        return " (the computer, while they are away)" if seat.get("computer_playing") else ""

    # --- what the screen shows ---------------------------------------------------------------

    def view(self) -> View:
        state = self.state
        if not state:
            return _empty_view(self.note)._replace(connection=self._connection_words(), banner=self.lost)
        position = position_of_json(state["position"])
        rules = parse_rules(state["rules"])
        viewer = None if state.get("viewer") is None else parse_colour(state["viewer"])
        decider = None if state.get("decider") is None else parse_colour(state["decider"])
        return View(
            rules=rules,
            position=position,
            seats=tuple(self._seat(seat) for seat in state["seats"]),
            status=state["status"],
            stage=state["stage"],
            decider=decider,
            card=None if state.get("card") is None else parse_card_word(state["card"]),
            choices=tuple(self._choices()),
            why_not=_why_not_of_json(state.get("why_not") or {}),
            hand=position.hands[viewer] if viewer is not None and position.hands else (),
            log=tuple(self._log),
            pack=int(state.get("pack", 0)),
            discards=int(state.get("discards", {}).get("count", 0)),
            points=_points_of_json(state["position"].get("scores")),
            note=self.note if self.note else _waiting_note(state),
            event=self.event,
            cards_drawn=int(state["cards_drawn"]) if state.get("cards_drawn") is not None else None,
            connection=self._connection_words(),
            banner=self.lost or self._watching_words(),
        )

    def _connection_words(self) -> str:
        watching = "watching " if self.role == "spectator" else ""
        return f"{watching}{self.connection}"

    def _watching_words(self) -> str:
        if self.role != "spectator":
            return ""
        return "You are watching: this link plays no seat (a seat's own invite link plays it)."

    def _seat(self, seat: dict[str, Any]) -> Seat:
        colour = parse_colour(seat["colour"])
        if colour in self.seats:  # by name on a hot-seat screen, where several play
            return Seat(colour, str(seat.get("name") or "you") if len(self.seats) > 1 else "you", True)
        if seat["kind"] == "bot":
            return Seat(colour, str(seat.get("level") or "computer"), False)
        name = str(seat.get("name") or "player")
        if name.casefold() == COLOUR_NAMES[colour]:  # the colour is shown already: not "Red  Red"
            name = "player"
        if seat.get("computer_playing"):
            name += ", away"
        elif not seat.get("connected"):
            name += ", not here"
        return Seat(colour, name, False)

    def _choices(self) -> list[Choice]:
        return [choice_of_json(entry) for entry in self.state.get("moves", [])]

    # --- acting ----------------------------------------------------------------------------

    async def choose(self, choice: Choice) -> None:
        await self._send({"type": "move", "move": choice.notation, "event": self.event, **self._seat_field()})

    def take_back(self) -> int:
        return 0

    async def hint(self) -> list[tuple[Choice, float]]:
        self.hint_reason = None
        self._hint = asyncio.get_running_loop().create_future()
        await self._send({"type": "hint", "event": self.event, **self._seat_field()})
        try:
            return await asyncio.wait_for(self._hint, timeout=30)
        except TimeoutError:
            return []

    def _seat_field(self) -> dict[str, str]:
        """A hot-seat screen names the seat it decides for."""
        decider = self.state.get("decider")
        return {"seat": decider} if len(self.seats) > 1 and decider else {}

    async def _send(self, message: dict[str, Any]) -> None:
        if self._socket is None:
            raise ConnectionError("not connected to the server: wait a moment")
        await self._socket.send(json.dumps(message))

    async def save_record(self, path: Path) -> None:
        url = f"{self.invite.server}/api/games/{self.invite.game}/record"
        text = await asyncio.to_thread(_fetch_text, url)
        if path.exists():  # a finished game opened again: the same record is kept, another never written over
            if path.read_text(encoding="utf-8") == text:
                return
            raise FileExistsError(f"{path} holds another record: it is left as it is")
        path.write_text(text, encoding="utf-8")

    async def close(self) -> None:
        self._closed = True
        if self._socket is not None:
            await self._socket.close()


def _fetch_text(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=10) as answer:
            text: str = answer.read().decode("utf-8")
            return text
    except urllib.error.HTTPError as error:
        raise ConnectionError(f"the server would not give the record: {error.code} {error.reason}") from None


# --- the protocol's JSON, read for showing ------------------------------------------------------


def position_of_json(data: dict[str, Any]) -> Position:
    """The position object of a state (docs/json.md), as this seat sees it.

    Read for showing only, so without :func:`~pardon.core.jsonio.position_from_json`'s checks:
    those ask for the hand of the player to move, which a seat sees only on its own turn.
    """
    seats = tuple(sorted(parse_colour(colour) for colour in data["seats"]))
    written = {
        colour: [location_from_json(colour, place) for place in data["pawns"].get(COLOUR_NAMES[colour], [])]
        for colour in seats
    }
    pawns = tuple(tuple(sorted(written.get(colour, ()))) for colour in COLOURS)
    hands = data.get("hands") or {}
    held = tuple(tuple(sorted(parse_card_word(str(card)) for card in hands.get(name, []))) for name in COLOUR_NAMES)
    tokens = data.get("tokens") or {}
    doubling = data.get("doubling") or {}
    extras = Extras(
        held if any(held) else (),
        _token(tokens.get("fire"), written),
        _token(tokens.get("ice"), written),
        int(doubling.get("stake", 1)),
        tuple(sorted(parse_colour(colour) for colour in doubling.get("out", []))),
    )
    winner = None if data.get("winner") is None else parse_colour(data["winner"])
    position = Position(seats, pawns, parse_colour(data["turn"]), winner)
    return position._replace(extras=None if extras == Extras() else extras)


def _token(value: dict[str, Any] | None, written: dict[int, list[int]]) -> tuple[int, int] | None:
    if not value:
        return None
    colour = parse_colour(value["colour"])
    return colour, written[colour][int(value["pawn"])]


def _why_not_of_json(data: dict[str, dict[str, str]]) -> dict[int, dict[tuple[int, int], str]]:
    """``{CARD: {PAWN: REASON}}`` with the pawns named as ``"red:S2"`` (a partner's pawn too)."""
    reasons: dict[int, dict[tuple[int, int], str]] = {}
    for card, pawns in data.items():
        found = reasons.setdefault(parse_card_word(card), {})
        for key, reason in pawns.items():
            name, _, place = key.partition(":")
            colour = parse_colour(name)
            found[colour, location_from_json(colour, int(place) if place.isdigit() else place)] = reason
    return reasons


def _points_of_json(scores: dict[str, int] | None) -> dict[int, int] | None:
    return None if not scores else {parse_colour(colour): int(points) for colour, points in scores.items()}


def _waiting_note(state: dict[str, Any]) -> str:
    if state.get("status") != WAITING:
        return ""
    missing = [
        seat["colour"].capitalize() for seat in state["seats"] if seat["kind"] != "bot" and not seat["connected"]
    ]
    return f"Waiting for {', '.join(missing)} to join" if missing else "Waiting for the players"


def _empty_view(note: str) -> View:
    rules = parse_rules("classic")
    position = initial_position(rules, (0, 2))
    return View(rules, position, (), WAITING, "card", None, None, (), {}, (), (), 0, 0, None, note)
