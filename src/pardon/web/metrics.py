"""The server's numbers for Prometheus: ``GET /metrics`` (docs/operations.md).

Each application has a registry of its own (tests make many in one process; a process serves
one).  What is counted where it happens:

- refusals: every REST answer of 400 or more (:class:`CountRefusals`, from the ``error`` code of
  its body), every websocket ``error`` (:func:`refused`, called by ``protocol.error_message``)
  and the connections the server turns away before the application (``server._http_error``);
- decisions and database write time: each commit of the decisions writer (``Writer.on_commit``);
- move latency: a player's move, from its command to its event queued for the player
  (:func:`timed_move`, in ``protocol._handle``).

Code that runs for the application finds its metrics in :data:`CURRENT`, set for each request,
websocket and lifespan by :class:`CountRefusals` (and for the whole server by ``server.serve``):
so that the protocol's functions need no metrics passed to them.  Games by status and open
connections are read when scraped.  Each server process serves its own numbers.
"""

from __future__ import annotations

import asyncio
import ipaddress
import json
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Histogram,
    disable_created_metrics,
    generate_latest,
)
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pardon.web.storage import FINISHED, PLAYING, WAITING, games

if TYPE_CHECKING:
    from fastapi import FastAPI

    from pardon.web.registry import Rooms

#: Seconds, from a millisecond to ten: a move on a loaded server, a commit on a slow disk.
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: The statuses a game has (storage.py), each reported even when no game has it.
STATUSES = (WAITING, PLAYING, FINISHED)

#: The longest error body read for its code (the API's are a line).
LONGEST_ERROR = 4096


class Metrics:
    """One application's numbers, in a registry of its own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.decisions = Counter(
            "pardon_decisions", "Decisions stored by this process (players' and computers').", registry=self.registry
        )
        self.refusals = Counter(
            "pardon_refusals",
            "Refusals given to clients, by error code: websocket errors, REST answers of 400 and more, "
            "connections turned away.",
            ["code"],
            registry=self.registry,
        )
        self.move_latency = Histogram(
            "pardon_move_latency_seconds",
            "A player's move, from its command read on the websocket to its event queued for sending.",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.database_writes = Histogram(
            "pardon_database_write_seconds",
            "Commits of the decisions writer (one or more decisions each), successful ones.",
            buckets=BUCKETS,
            registry=self.registry,
        )
        self.now = _Now()
        self.registry.register(self.now)
        #: The games and their clients, once the application has started.
        self.rooms: Rooms | None = None

    def watch(self, rooms: Rooms) -> None:
        """Count what ``rooms`` store, and read its games and connections when scraped."""
        self.rooms = rooms
        rooms.writer.on_commit = self.committed

    def committed(self, decisions: int, seconds: float) -> None:
        """The writer has committed ``decisions`` in ``seconds`` (from its thread)."""
        self.decisions.inc(decisions)
        self.database_writes.observe(seconds)

    async def exposition(self) -> bytes:
        """The text to scrape: the live numbers read first (the database from a thread)."""
        rooms = self.rooms
        if rooms is not None:
            self.now.connections = _connections(rooms)
            self.now.games = await asyncio.to_thread(_games_by_status, rooms)
        return generate_latest(self.registry)


class _Now(Collector):
    """The gauges read at each scrape: games by status, and open websockets by kind."""

    def __init__(self) -> None:
        self.games: dict[str, int] | None = None
        self.connections: dict[str, int] = {"players": 0, "spectators": 0}

    def collect(self) -> Iterable[GaugeMetricFamily]:
        connections = GaugeMetricFamily(
            "pardon_connections", "Websockets open to this process, by kind.", labels=["kind"]
        )
        for kind, count in self.connections.items():
            connections.add_metric([kind], count)
        yield connections
        if self.games is not None:  # the database did not answer: no number rather than a wrong one
            found = GaugeMetricFamily("pardon_games", "Games in the database, by status.", labels=["status"])
            for status, count in self.games.items():
                found.add_metric([status], count)
            yield found


def _connections(rooms: Rooms) -> dict[str, int]:
    """Websockets in the rooms (on the event loop): players (a seat or more) and spectators."""
    counts = {"players": 0, "spectators": 0}
    for room in list(rooms.rooms.values()):
        for listener in room.listeners:
            counts["players" if listener.controls else "spectators"] += 1
    return counts


def _games_by_status(rooms: Rooms) -> dict[str, int] | None:
    """How many games of each status the database holds: one COUNT (the games are indexed by status)."""
    counts = dict.fromkeys(STATUSES, 0)
    try:
        with rooms.store.engine.connect() as connection:
            for status, count in connection.execute(select(games.c.status, func.count()).group_by(games.c.status)):
                counts[status] = count
    except SQLAlchemyError:
        return None
    return counts


#: The metrics of the application the running code serves (None outside one: nothing counted).
CURRENT: ContextVar[Metrics | None] = ContextVar("pardon_metrics", default=None)


def refused(code: str) -> None:
    """Count a refusal given to a client, by its error code."""
    metrics = CURRENT.get()
    if metrics is not None:
        metrics.refusals.labels(code).inc()


@contextmanager
def timed_move() -> Iterator[None]:
    """Time a player's move: counted once it is made (a refused one is a refusal instead)."""
    started = time.perf_counter()
    yield
    metrics = CURRENT.get()
    if metrics is not None:
        metrics.move_latency.observe(time.perf_counter() - started)


class CountRefusals:
    """ASGI middleware: sets :data:`CURRENT` for everything the application runs, and counts
    each HTTP answer of 400 or more as a refusal, by the ``error`` of its JSON body (the API's
    form); an answer of another form (a page, say) by its status."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app = app
        self.metrics = metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        token = CURRENT.set(self.metrics)
        try:
            if scope["type"] == "http":
                await self.app(scope, receive, self._counting(send))
            else:
                await self.app(scope, receive, send)
        finally:
            CURRENT.reset(token)

    def _counting(self, send: Send) -> Send:
        status = 0
        body = bytearray()

        async def counting(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            elif message["type"] == "http.response.body" and status >= 400:
                if len(body) < LONGEST_ERROR:
                    body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    self.metrics.refusals.labels(_code_of(status, bytes(body))).inc()
            await send(message)

        return counting


def _code_of(status: int, body: bytes) -> str:
    """The error code of a refusal's body, or its status for one that names none.

    >>> _code_of(429, b'{"error":"rate_limited","message":"slow down"}'), _code_of(404, b"<html>")
    ('rate_limited', 'http_404')
    """
    try:
        code = json.loads(body).get("error")
    except (ValueError, AttributeError):
        code = None
    return code if isinstance(code, str) and len(code) <= 40 else f"http_{status}"


def allowed(address: str | None, allowed_from: tuple[str, ...]) -> bool:
    """Whether a scrape from ``address`` is allowed: one of ``allowed_from`` (addresses or
    networks such as ``10.0.0.0/8``).

    >>> allowed("10.1.2.3", ("127.0.0.1", "10.0.0.0/8")), allowed("192.0.2.1", ("127.0.0.1",)), allowed(None, ("::1",))
    (True, False, False)
    """
    if address is None:
        return False
    try:
        found = ipaddress.ip_address(address)
    except ValueError:  # not an address (a test client's name): only if named as it is
        return address in allowed_from
    if isinstance(found, ipaddress.IPv6Address) and found.ipv4_mapped is not None:
        found = found.ipv4_mapped
    for entry in allowed_from:
        try:
            if found in ipaddress.ip_network(entry, strict=False):
                return True
        except ValueError:
            continue
    return False


#: Headers a proxy adds: a request that went through one is some other client's, refused.
FORWARDED = ("forwarded", "x-forwarded-for", "x-real-ip")


def install(app: FastAPI, allowed_from: tuple[str, ...]) -> Metrics:
    """Give ``app`` its metrics: the middleware that counts refusals, and ``GET /metrics`` for
    the addresses of ``allowed_from`` (nobody's when empty: it answers 404, as a path that is none).
    The address is the connection's own, and a request carrying a proxy's headers is refused: a
    proxy in front passes on the public's requests from its own address."""
    disable_created_metrics()  # type: ignore[no-untyped-call]  # the process's start says as much
    metrics = Metrics()
    app.state.metrics = metrics

    @app.get("/metrics", include_in_schema=False)
    async def scrape(request: Request) -> Response:
        client = request.client.host if request.client else None
        if not allowed(client, allowed_from) or any(name in request.headers for name in FORWARDED):
            return _not_found()
        return Response(await metrics.exposition(), media_type=CONTENT_TYPE_LATEST)

    app.add_middleware(CountRefusals, metrics=metrics)
    return metrics


def _not_found() -> Response:
    body: dict[str, Any] = {"error": "not_found", "message": "Not Found"}
    return Response(json.dumps(body), status_code=404, media_type="application/json")
