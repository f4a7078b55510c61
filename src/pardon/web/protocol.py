"""The websocket protocol (docs/protocol.md): one connection per client, typed JSON messages.

A connection opens with ``hello`` (its token, and the last event it has seen); the server
answers ``welcome`` then ``sync``.  After that the client sends ``move``, ``hint`` and
``ping``; the server sends ``event`` for each decision, ``state``, ``presence``, ``hint``,
``pong`` and ``error``.  Each incoming message is checked for size, rate and form before
it reaches the room; a refused one is answered with an ``error`` and changes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pardon.core.board import COLOUR_NAMES
from pardon.web import errors
from pardon.web.errors import CommandError
from pardon.web.rooms import HOTSEAT, Room, Rooms
from pardon.web.settings import Settings
from pardon.web.tokens import token_matches

log = logging.getLogger("pardon.web")

Colour = Literal["red", "blue", "yellow", "green"]
COLOUR_NUMBERS = {name: number for number, name in enumerate(COLOUR_NAMES)}

#: Seconds a new connection has to say hello.
HELLO_TIMEOUT = 10.0
#: Messages waiting to be sent to one client before it counts as gone.
OUTBOX_SIZE = 512
#: Refused-for-rate messages in a row before the connection is closed.
RATE_STRIKES = 50

CLOSE_POLICY = 1008
CLOSE_BAD_TOKEN = 4401
CLOSE_NO_GAME = 4404


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class Hello(_Message):
    type: Literal["hello"]
    token: str | None = Field(default=None, min_length=1, max_length=200)
    #: The last event the client has seen (0: none).
    since: int = Field(default=0, ge=0)


class MoveCommand(_Message):
    type: Literal["move"]
    move: str = Field(min_length=1, max_length=200)
    event: int = Field(ge=0)
    seat: Colour | None = None


class HintCommand(_Message):
    type: Literal["hint"]
    event: int = Field(ge=0)
    seat: Colour | None = None


class Ping(_Message):
    type: Literal["ping"]


Command = Annotated[Hello | MoveCommand | HintCommand | Ping, Field(discriminator="type")]
COMMAND = TypeAdapter[Hello | MoveCommand | HintCommand | Ping](Command)


def read_command(text: str) -> Hello | MoveCommand | HintCommand | Ping:
    """A client's message, or a :class:`CommandError` saying what is wrong with it."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        raise CommandError(errors.MALFORMED, "a message is one JSON object") from None
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise CommandError(errors.MALFORMED, 'a message is a JSON object with a "type"')
    try:
        return COMMAND.validate_python(data)
    except ValidationError as error:
        raise CommandError(errors.MALFORMED, _first_problem(error)) from None


def _first_problem(error: ValidationError) -> str:
    problem = error.errors(include_url=False, include_input=False)[0]
    where = ".".join(str(part) for part in problem["loc"])
    return f"{where}: {problem['msg']}" if where else str(problem["msg"])


class RateLimit:
    """A token bucket: ``rate`` messages a second on average, ``burst`` at once."""

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, float(burst)
        self.tokens, self.stamp = float(burst), time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class Client:
    """One websocket: who it speaks for, and an outbox drained by its own task so that a
    slow client never holds up a room."""

    def __init__(self, socket: WebSocket, controls: frozenset[int], role: str):
        self.socket = socket
        self._controls = controls
        self.role = role
        self.outbox: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(OUTBOX_SIZE)
        self.overflowed = False

    @property
    def controls(self) -> frozenset[int]:
        return self._controls

    def deliver(self, message: dict[str, Any]) -> None:
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # the client reads too slowly: let it reconnect and resync
            self.overflowed = True

    async def write_all(self) -> None:
        while (message := await self.outbox.get()) is not None:
            await self.socket.send_text(json.dumps(message, separators=(",", ":")))


def origin_allowed(socket: WebSocket, settings: Settings) -> bool:
    """Browsers send Origin: allow the server's own and those configured (others carry
    no Origin, and no ambient credentials either: they must hold a token)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    host = socket.headers.get("host", "")
    own = {f"http://{host}", f"https://{host}"}
    return origin in own or origin in settings.allowed_origins


def resolve_role(room: Room, token: str | None) -> tuple[frozenset[int], str] | None:
    """The seats a token opens and the role's name; None if it opens nothing."""
    row = room.row
    if token is None:
        return (frozenset(), "spectator") if row.public else None
    for seat in row.seats:  # every hash is compared, whichever matches, so timing tells nothing
        if token_matches(token, seat.token_hash):
            return frozenset({seat.colour}), "player"
    if token_matches(token, row.host_hash):
        return frozenset(seat.colour for seat in row.seats if seat.kind == HOTSEAT), "host"
    if token_matches(token, row.watch_hash):
        return frozenset(), "spectator"
    return None


def error_message(error: CommandError, event: int | None) -> dict[str, Any]:
    return {"type": "error", "code": error.code, "message": error.message, "event": event}


async def serve_connection(socket: WebSocket, game_id: str, rooms: Rooms, settings: Settings) -> None:
    """The whole life of one websocket."""
    if not origin_allowed(socket, settings):
        await socket.close(code=CLOSE_POLICY, reason="origin not allowed")
        return
    await socket.accept()
    room = rooms.get(game_id)
    if room is None:
        await _refuse(socket, CommandError(errors.NO_GAME, f"there is no game {game_id!r}"), CLOSE_NO_GAME)
        return
    try:
        hello = await _receive_hello(socket, settings)
    except CommandError as error:
        await _refuse(socket, error, CLOSE_POLICY)
        return
    except (WebSocketDisconnect, TimeoutError):
        return
    role = resolve_role(room, hello.token)
    if role is None:
        await _refuse(socket, CommandError(errors.BAD_TOKEN, "that token opens no seat of this game"), CLOSE_BAD_TOKEN)
        return
    client = Client(socket, *role)
    writer = asyncio.create_task(client.write_all())
    client.deliver(_welcome(room, client))
    room.attach(client)
    since = hello.since
    if since > room.event:
        client.deliver(error_message(CommandError(errors.BAD_EVENT, f"event {since} has not happened"), room.event))
        since = 0
    room.sync(client, since)
    try:
        await _serve_commands(socket, client, room, settings)
    finally:
        room.detach(client)
        rooms.release(room)
        if client.outbox.full():
            writer.cancel()
        else:
            client.outbox.put_nowait(None)  # let the writer send what is queued, then stop
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(writer, timeout=5)


def _welcome(room: Room, client: Client) -> dict[str, Any]:
    return {
        "type": "welcome",
        "game": room.row.id,
        "role": client.role,
        "seats": [COLOUR_NAMES[colour] for colour in sorted(client.controls)],
        "protocol": 1,
    }


async def _receive_hello(socket: WebSocket, settings: Settings) -> Hello:
    text = await asyncio.wait_for(_receive_text(socket), HELLO_TIMEOUT)
    if len(text.encode()) > settings.max_message:
        raise CommandError(errors.TOO_LARGE, f"messages are at most {settings.max_message} bytes")
    command = read_command(text)
    if not isinstance(command, Hello):
        raise CommandError(errors.MALFORMED, 'the first message is "hello"')
    return command


async def _receive_text(socket: WebSocket) -> str:
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    return data.decode("utf-8", "replace")


async def _serve_commands(socket: WebSocket, client: Client, room: Room, settings: Settings) -> None:
    limit = RateLimit(settings.rate, settings.burst)
    strikes = 0
    while not client.overflowed:
        try:
            text = await _receive_text(socket)
        except WebSocketDisconnect:
            return
        if not limit.allow():
            strikes += 1
            client.deliver(error_message(CommandError(errors.RATE_LIMITED, "too many messages: slow down"), None))
            if strikes >= RATE_STRIKES:
                break
            continue
        strikes = 0
        try:
            await _handle(text, client, room, settings)
        except CommandError as error:
            client.deliver(error_message(error, room.event))
        except Exception:  # never a stack trace to a client: log it, say so, change nothing
            log.exception("command failed in game %s", room.row.id)
            client.deliver(error_message(CommandError(errors.SERVER_ERROR, "something went wrong"), room.event))
    if socket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await socket.close(code=CLOSE_POLICY)


async def _handle(text: str, client: Client, room: Room, settings: Settings) -> None:
    if len(text.encode()) > settings.max_message:
        raise CommandError(errors.TOO_LARGE, f"messages are at most {settings.max_message} bytes")
    command = read_command(text)
    if isinstance(command, MoveCommand):
        await room.decide(client, _seat(command.seat), command.move, command.event)
    elif isinstance(command, HintCommand):
        await room.hint(client, _seat(command.seat), command.event)
    elif isinstance(command, Ping):
        client.deliver({"type": "pong", "event": room.event})
    else:
        raise CommandError(errors.MALFORMED, '"hello" is sent once, first')


def _seat(colour: str | None) -> int | None:
    return COLOUR_NUMBERS[colour] if colour is not None else None


async def _refuse(socket: WebSocket, error: CommandError, code: int) -> None:
    with contextlib.suppress(Exception):
        await socket.send_text(json.dumps(error_message(error, None)))
        await socket.close(code=code)
