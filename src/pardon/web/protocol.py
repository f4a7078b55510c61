"""The websocket protocol (docs/protocol.md): one connection per client, typed JSON messages.

A connection opens with ``hello`` (its token, and the last event it has seen); the server
answers ``welcome`` then ``sync``.  After that the client sends ``move``, ``hint`` and
``ping``; the server sends ``event`` for each decision, ``state``, ``presence``, ``hint``,
``pong`` and ``error``.  Each incoming message is checked for size, rate and form before
it reaches the room; a refused one is answered with an ``error`` and changes nothing.
Connections are counted per client address and, for spectators, per game: past a cap a new
one is told ``too_many_connections`` and closed before it costs a room anything.  Whenever
the server closes a connection it sends the ``error`` that says why first.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import logging
import time
from collections.abc import Callable
from typing import Annotated, Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from sqlalchemy.exc import SQLAlchemyError
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from pardon.core.board import COLOUR_NAMES
from pardon.core.describe import leader_draw_words
from pardon.web import errors, metrics
from pardon.web.errors import CommandError
from pardon.web.registry import Rooms
from pardon.web.rooms import Room
from pardon.web.seating import HOTSEAT
from pardon.web.settings import Settings
from pardon.web.storage import error_reason
from pardon.web.tokens import token_matches

log = logging.getLogger("pardon.web")

Colour = Literal["red", "blue", "yellow", "green"]
COLOUR_NUMBERS = {name: number for number, name in enumerate(COLOUR_NAMES)}

#: Refused-for-rate messages in a row before the connection is closed.
RATE_STRIKES = 50

CLOSE_POLICY = 1008  # a rule of the protocol broken: no hello in time, a bad one, too many messages
CLOSE_TRY_LATER = 1013  # too many connections (from one address, or watching one game), or a client too slow to read
CLOSE_SERVER_ERROR = 1011  # the game cannot be loaded (its stored decisions do not replay)
CLOSE_BAD_TOKEN = 4401
#: The scope extension by which a server says it has counted a connection against its client address.
COUNTED = "pardon.address_counted"
#: The scope extension by which a server offers to write a text message at once (:class:`Client`).
WRITE_NOW = "pardon.write_now"
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


class WhyCommand(_Message):
    type: Literal["why"]
    event: int = Field(ge=0)
    seat: Colour | None = None
    #: The card, as the state names it ("5", "sorry"); the pawn and where it was asked to go,
    #: as pawn keys name them ("red:23", "red:S2", "blue:home"; a track square by any colour).
    card: str = Field(min_length=1, max_length=10)
    pawn: str = Field(min_length=1, max_length=20)
    to: str = Field(min_length=1, max_length=20)


class Ping(_Message):
    type: Literal["ping"]


AnyCommand = Hello | MoveCommand | HintCommand | WhyCommand | Ping
Command = Annotated[AnyCommand, Field(discriminator="type")]
COMMAND = TypeAdapter[AnyCommand](Command)


def read_command(text: str) -> AnyCommand:
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


class OpenLimit:
    """Websockets opened per client address: a token bucket of ``rate`` a second and ``burst``
    at once each (0 a second: no limit).  A crowd of connections opened at once costs the event
    loop a room, a welcome and a sync each; past its share an address is refused before any."""

    #: Addresses remembered at most; those whose bucket is full again are forgotten first.
    MOST = 10_000

    def __init__(self, rate: float, burst: int):
        self.rate, self.burst = rate, max(1, burst)
        self.buckets: dict[str, RateLimit] = {}

    def allow(self, address: str) -> bool:
        """Whether ``address`` may open one more websocket now (counted if so)."""
        if self.rate <= 0:
            return True
        bucket = self.buckets.get(address)
        if bucket is None:
            if len(self.buckets) >= self.MOST:
                self._forget_full()
            bucket = self.buckets[address] = RateLimit(self.rate, self.burst)
        return bucket.allow()

    def _forget_full(self) -> None:
        since = time.monotonic() - self.burst / self.rate
        self.buckets = {address: bucket for address, bucket in self.buckets.items() if bucket.stamp > since}


class Encoder:
    """The JSON text of outgoing messages, each distinct message encoded once per broadcast.

    A room sends every client of a broadcast a message made of the same parts (the state for
    each kind of viewer is built once: :meth:`Room.state_for`), so texts are kept by the
    identity of those parts, only until the broadcast is over (the event loop's next turn),
    and the parts are held meanwhile so that no identity can be reused.  A thousand spectators
    thus cost one ``json.dumps`` of their state, not a thousand.
    """

    def __init__(self) -> None:
        self._texts: dict[tuple[Any, ...], tuple[str, tuple[Any, ...]]] = {}

    def encode(self, message: dict[str, Any]) -> str:
        parts = tuple(message.values())
        key = (*message.keys(), *map(id, parts))
        known = self._texts.get(key)
        if known is not None:
            return known[0]
        text = json.dumps(message, separators=(",", ":"))
        if not self._texts:
            try:
                asyncio.get_running_loop().call_soon(self._texts.clear)
            except RuntimeError:  # not on the event loop: no broadcast to share it with
                return text
        self._texts[key] = (text, parts)
        return text


def client_key(host: str) -> str:
    """What the per-address limits count as one client: an IPv4 address, or the /64 network of an
    IPv6 address (one machine is commonly given a whole /64, and may pick any address in it).

    >>> client_key("192.0.2.7"), client_key("2001:db8:1:2:a:b:c:d"), client_key("::ffff:192.0.2.7")
    ('192.0.2.7', '2001:db8:1:2::/64', '192.0.2.7')
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:  # not an address (a test client, a Unix socket): as it is
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return host


class Quota:
    """How many of something each key holds at once, at most ``limit``."""

    def __init__(self, limit: int):
        self.limit = limit
        self.held: dict[str, int] = {}

    def take(self, key: str) -> bool:
        if self.full(key):
            return False
        self.held[key] = self.held.get(key, 0) + 1
        return True

    def full(self, key: str) -> bool:
        return self.held.get(key, 0) >= self.limit

    def give_back(self, key: str) -> None:
        held = self.held[key] - 1
        if held:
            self.held[key] = held
        else:
            del self.held[key]


class Knocks:
    """How many connections each address was refused in the current second: past
    :data:`ANSWERED_REFUSALS` a second, an address that holds its whole share is flooding,
    and its further connections are dropped before a word is read (:mod:`pardon.web.server`)."""

    def __init__(self) -> None:
        self.second = 0
        self.counts: dict[str, int] = {}

    def knock(self, address: str) -> None:
        self._roll()
        self.counts[address] = self.counts.get(address, 0) + 1

    def flooding(self, address: str) -> bool:
        self._roll()
        return self.counts.get(address, 0) >= ANSWERED_REFUSALS

    def _roll(self) -> None:
        second = int(time.monotonic())
        if second != self.second:
            self.second, self.counts = second, {}


#: Connections refused with ``too_many_connections`` per address and second; past it, dropped unanswered.
ANSWERED_REFUSALS = 16


class Connections:
    """What the server's websockets share: how many each client address has open, how many
    watch each game, the refusals of each address, and the encoder of what they are sent."""

    def __init__(self, settings: Settings):
        self.per_address = Quota(settings.max_connections_per_address)
        self.spectators = Quota(settings.max_spectators_per_game)
        self.knocks = Knocks()
        self.encoder = Encoder()
        self.opens = OpenLimit(settings.connect_rate, settings.connect_burst)

    def is_flooding(self, address: str) -> bool:
        """An address with its whole share open that was refused many times this second."""
        return self.per_address.full(address) and self.knocks.flooding(address)

    def too_many_from_one_address(self) -> CommandError:
        limit = self.per_address.limit
        return CommandError(
            errors.TOO_MANY_CONNECTIONS, f"at most {limit} connections from one address: try again later"
        )

    def opened_too_fast(self) -> CommandError:
        message = "too many connections opened from this address: try again in a few seconds"
        return CommandError(errors.RATE_LIMITED, message)

    def too_many_watching(self) -> CommandError:
        limit = self.spectators.limit
        return CommandError(errors.TOO_MANY_CONNECTIONS, f"at most {limit} connections watch one game: try again later")


class Client:
    """One websocket: who it speaks for, and an outbox of encoded messages drained by its own
    task so that a slow client never holds up a room.

    The outbox is bounded in messages and in bytes: a client that falls that far behind is
    too slow to read, and is closed at once (1013) with what waited for it dropped, so a
    reader that never reads holds no more memory than the bound, whether or not it sends.
    """

    def __init__(
        self, socket: WebSocket, controls: frozenset[int], role: str, encoder: Encoder, settings: Settings
    ) -> None:
        self.socket = socket
        self._controls = controls
        self.role = role
        self.encoder = encoder
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.queued_bytes = 0
        self._limits = (settings.outbox_messages, settings.outbox_bytes)
        self.overflowed = False
        #: Whether the command loop is waiting for the client's next message (and so may be
        #: stopped there: never in the middle of a command, which may be writing a decision).
        self.waiting = False
        #: Called once when the outbox overflows: ends the command loop if it is waiting.
        self.on_overflow: Callable[[], object] | None = None
        #: The server's way to write a message at once (pardon.web.server), where it offers one.
        offered = getattr(socket, "scope", {}).get("extensions", {}).get(WRITE_NOW, {})
        self._write_now: Callable[[str], bool] | None = offered.get("write")
        #: Whether the writer task is sending a message (a message written at once would pass it).
        self._sending = False

    @property
    def controls(self) -> frozenset[int]:
        return self._controls

    def deliver(self, message: dict[str, Any]) -> None:
        if self.overflowed:
            return
        text = self.encoder.encode(message)
        if self._write_now is not None and not self._sending and self.outbox.empty() and self._write_now(text):
            return  # nothing waits before it: written now, the same frame for all of a broadcast
        messages, size = self._limits
        if self.outbox.qsize() >= messages or self.queued_bytes + len(text) > size:
            self._overflow()
            return
        self.queued_bytes += len(text)
        self.outbox.put_nowait(text)

    def _overflow(self) -> None:
        """Too slow to read: drop what waits, stop the writer, and close (it reconnects and resyncs)."""
        self.overflowed = True
        while not self.outbox.empty():
            self.outbox.get_nowait()
        self.queued_bytes = 0
        self.outbox.put_nowait(None)
        if self.on_overflow is not None:
            self.on_overflow()

    async def write_all(self) -> None:
        while (text := await self.outbox.get()) is not None:
            self.queued_bytes -= len(text)
            self._sending = True
            try:
                await self.socket.send_text(text)
            finally:
                self._sending = False

    async def finish(self, writer: asyncio.Task[None]) -> None:
        """Send what is queued (a few seconds at most), then stop writing."""
        if self.overflowed:
            writer.cancel()  # it may be stuck sending to a client that does not read
        else:
            self.outbox.put_nowait(None)
        with contextlib.suppress(Exception, asyncio.CancelledError):
            await asyncio.wait_for(writer, timeout=5)


#: Host names a browser on the server's own machine may use for a loopback address.
LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})

Origin = tuple[str, str, int]


def origin_allowed(socket: WebSocket, settings: Settings) -> bool:
    """Browsers send Origin: allow the server's own and those configured (others carry no
    Origin, and no ambient credentials either: they must hold a token).  The Host header is
    not trusted: a page of any site can name this server in it (DNS rebinding)."""
    origin = socket.headers.get("origin")
    if origin is None:
        return True
    return origin_key(origin) in own_origins(socket.scope.get("server"), settings)


def own_origins(server: tuple[str, int] | None, settings: Settings) -> set[Origin]:
    """The origins whose pages may open websockets: ``--public-url``, each ``--allow-origin``,
    and the server's address as this connection reached it (for a loopback address, also
    ``localhost``).

    >>> sorted(own_origins(("127.0.0.1", 8000), Settings(database="")))[:3]
    [('http', '127.0.0.1', 8000), ('http', '::1', 8000), ('http', 'localhost', 8000)]
    >>> ("https", "games.example", 443) in own_origins(None, Settings(database="", public_url="https://games.example/"))
    True
    """
    configured = (*settings.allowed_origins, settings.public_url or "")
    origins = {key for key in map(origin_key, configured) if key is not None}
    if server is not None:
        host, port = server[0], server[1]
        origins |= {(scheme, name, port) for scheme in ("http", "https") for name in _names_for(host)}
    return origins


def origin_key(url: str) -> Origin | None:
    """An origin (or a URL) as scheme, host and port, the default port written out; None if it is not one.

    >>> origin_key("HTTP://LocalHost"), origin_key("https://[::1]:8443/x"), origin_key("null")
    (('http', 'localhost', 80), ('https', '::1', 8443), None)
    """
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError:
        return None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return None
    return parts.scheme, parts.hostname.lower(), port or (443 if parts.scheme == "https" else 80)


def _names_for(host: str) -> set[str]:
    """The names a browser may give the address a connection arrived at."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return {host.lower()}
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return {str(address), *LOOPBACK_NAMES} if address.is_loopback else {str(address)}


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
    metrics.refused(error.code)  # every refusal a websocket is sent is made here
    return {"type": "error", "code": error.code, "message": error.message, "event": event}


async def serve_connection(
    socket: WebSocket, game_id: str, rooms: Rooms, settings: Settings, connections: Connections
) -> None:
    """The whole life of one websocket.  The checks that cost least come first, so that a
    flood of connections is turned away before it costs a room anything."""
    if not origin_allowed(socket, settings):
        await socket.close(code=CLOSE_POLICY, reason="origin not allowed")  # before the handshake: HTTP 403
        return
    if COUNTED in socket.scope.get("extensions", {}):  # the server has counted it (pardon.web.server)
        await _serve(socket, game_id, rooms, settings, connections)
        return
    address = client_key(socket.client.host) if socket.client else ""
    if not connections.opens.allow(address):
        await _refuse(socket, connections.opened_too_fast(), CLOSE_TRY_LATER)
        return
    if not connections.per_address.take(address):
        await _refuse(socket, connections.too_many_from_one_address(), CLOSE_TRY_LATER)
        return
    try:
        await _serve(socket, game_id, rooms, settings, connections)
    finally:
        connections.per_address.give_back(address)


async def _serve(socket: WebSocket, game_id: str, rooms: Rooms, settings: Settings, connections: Connections) -> None:
    await socket.accept()
    try:
        room = rooms.watch(game_id)
    except CommandError as error:  # a game the server cannot load (rooms.GameBrokenError): said, and closed
        await _refuse(socket, error, CLOSE_SERVER_ERROR)
        return
    if room is None:
        await _refuse(socket, CommandError(errors.NO_GAME, f"there is no game {game_id!r}"), CLOSE_NO_GAME)
        return
    try:
        hello = await _receive_hello(socket, settings)
    except CommandError as error:
        rooms.release(room)  # a finished game is not kept for a client that never said hello
        await _refuse(socket, error, CLOSE_POLICY)
        return
    except WebSocketDisconnect:
        rooms.release(room)
        return
    role = resolve_role(room, hello.token)
    if role is None:
        rooms.release(room)  # a finished game nobody watches is not kept for a refused client
        await _refuse(socket, CommandError(errors.BAD_TOKEN, "that token opens no seat of this game"), CLOSE_BAD_TOKEN)
        return
    client = Client(socket, *role, connections.encoder, settings)
    watching = not client.controls
    if watching and not connections.spectators.take(room.row.id):
        rooms.release(room)
        await _refuse(socket, connections.too_many_watching(), CLOSE_TRY_LATER)
        return
    try:
        await _attend(client, room, rooms, hello.since, settings)
    finally:
        if watching:
            connections.spectators.give_back(room.row.id)


async def _attend(client: Client, room: Room, rooms: Rooms, since: int, settings: Settings) -> None:
    """A client in the room, from its welcome to its leaving; closed by the server if it must be."""
    writer = asyncio.create_task(client.write_all())
    client.deliver(_welcome(room, client))
    try:
        room.attach(client)
    except SQLAlchemyError as error:  # a full disk, a read-only file: said, closed, nothing changed
        log.warning("game %s: a client could not come: the database refused it: %s", room.row.id, error_reason(error))
        message = "the database cannot be used just now; nothing changed: try again in a moment"
        client.deliver(error_message(CommandError(errors.DATABASE_UNAVAILABLE, message), room.event))
        rooms.release(room)
        await client.finish(writer)
        with contextlib.suppress(Exception, TimeoutError):
            await asyncio.wait_for(client.socket.close(CLOSE_TRY_LATER, errors.DATABASE_UNAVAILABLE), timeout=5)
        return
    if since > room.event:
        client.deliver(error_message(CommandError(errors.BAD_EVENT, f"event {since} has not happened"), room.event))
        since = 0
    room.sync(client, since)
    closing: tuple[int, str] | None = None
    commands = asyncio.create_task(_serve_commands(client, room, settings))

    def stop_waiting() -> None:  # a client too slow to read is closed now, not when it next sends
        if client.waiting:
            commands.cancel()

    client.on_overflow = stop_waiting
    try:
        closing = await commands
    except asyncio.CancelledError:
        if not client.overflowed:
            raise
        closing = (CLOSE_TRY_LATER, "too slow: reconnect")
    finally:
        room.detach(client)
        rooms.release(room)
        await client.finish(writer)  # what is queued goes out before the close: the error that explains it
    socket = client.socket
    if closing is not None and socket.application_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception, TimeoutError):
            await asyncio.wait_for(socket.close(*closing), timeout=5)


def _welcome(room: Room, client: Client) -> dict[str, Any]:
    return {
        "type": "welcome",
        "game": room.row.id,
        "role": client.role,
        "seats": [COLOUR_NAMES[colour] for colour in sorted(client.controls)],
        "protocol": 1,
        # how the Leader was drawn for, in words (None where the rules named who plays first)
        "leader_draw": leader_draw_words(room.game.leader_draw) if room.game.leader_draw is not None else None,
    }


async def _receive_hello(socket: WebSocket, settings: Settings) -> Hello:
    try:
        message = await asyncio.wait_for(_receive(socket), settings.hello_timeout)
    except TimeoutError:
        raise CommandError(errors.MALFORMED, f'say "hello" within {settings.hello_timeout:g} seconds') from None
    command = read_command(_text_of(message, settings))
    if not isinstance(command, Hello):
        raise CommandError(errors.MALFORMED, 'the first message is "hello"')
    return command


async def _receive(socket: WebSocket) -> Message:
    message = await socket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    return message


def _text_of(message: Message, settings: Settings) -> str:
    """A received frame's text: a message is one text frame (UTF-8) of at most ``max_message`` bytes.
    (The server hands over a text frame that is not UTF-8 as bytes: pardon.web.server.)"""
    text = message.get("text")
    if text is None:
        raise CommandError(errors.MALFORMED, "a message is JSON text in a UTF-8 text frame")
    try:
        size = len(text.encode())
    except UnicodeEncodeError:
        raise CommandError(errors.MALFORMED, "a message is JSON text in a UTF-8 text frame") from None
    if size > settings.max_message:
        raise CommandError(errors.TOO_LARGE, f"messages are at most {settings.max_message} bytes")
    return str(text)


async def _serve_commands(client: Client, room: Room, settings: Settings) -> tuple[int, str] | None:
    """Answer the client's messages until it leaves (None) or must be closed (the code and reason)."""
    limit = RateLimit(settings.rate, settings.burst)
    strikes = 0
    while not client.overflowed:
        client.waiting = True
        try:
            message = await _receive(client.socket)
        except WebSocketDisconnect:
            return None
        finally:
            client.waiting = False
        if not limit.allow():
            strikes += 1
            client.deliver(error_message(CommandError(errors.RATE_LIMITED, "too many messages: slow down"), None))
            if strikes >= RATE_STRIKES:
                return CLOSE_POLICY, errors.RATE_LIMITED
            continue
        strikes = 0
        try:
            await _handle(_text_of(message, settings), client, room)
        except CommandError as error:
            client.deliver(error_message(error, room.event))
        except Exception:  # never a stack trace to a client: log it, say so, change nothing
            log.exception("command failed in game %s", room.row.id)
            client.deliver(error_message(CommandError(errors.SERVER_ERROR, "something went wrong"), room.event))
    return CLOSE_TRY_LATER, "too slow: reconnect"


async def _handle(text: str, client: Client, room: Room) -> None:
    command = read_command(text)
    if isinstance(command, MoveCommand):
        with metrics.timed_move():
            await room.decide(client, _seat(command.seat), command.move, command.event)
    elif isinstance(command, HintCommand):
        await room.hint(client, _seat(command.seat), command.event)
    elif isinstance(command, WhyCommand):
        room.why(client, _seat(command.seat), command.event, (command.card, command.pawn, command.to))
    elif isinstance(command, Ping):
        client.deliver({"type": "pong", "event": room.event})
    else:
        raise CommandError(errors.MALFORMED, '"hello" is sent once, first')


def _seat(colour: str | None) -> int | None:
    return COLOUR_NUMBERS[colour] if colour is not None else None


async def _refuse(socket: WebSocket, error: CommandError, code: int) -> None:
    """Say why, then close (accepting first if need be: a browser reads nothing from a refused handshake)."""
    with contextlib.suppress(Exception):
        if socket.application_state == WebSocketState.CONNECTING:
            await socket.accept()
        await socket.send_text(json.dumps(error_message(error, None), separators=(",", ":")))
        await socket.close(code=code, reason=error.code)
