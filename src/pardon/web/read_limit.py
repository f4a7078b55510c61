"""The limit on REST reads: each client address may make ``Settings.read_rate`` reads a minute
on average (``GET`` and ``HEAD`` of ``/api/...``), ``Settings.read_burst`` at once; past them a
read is answered ``429 rate_limited`` with ``Retry-After``, in the API's error form, before any
route runs.  So one address fetching replays or lobby pages in a loop cannot take the server's
time from everyone's games.  Pages and static files are not counted (a page loads many files,
each cheap); writes have limits of their own (creating a game, joining a seat).

It reads the client's address from the ASGI scope, so it must run inside whatever names a
trusted proxy's client there.
"""

from __future__ import annotations

import math

from starlette.types import ASGIApp, Receive, Scope, Send

from pardon.web.api import CreationLimit, come_back
from pardon.web.protocol import client_key

#: The methods that read.
READS = frozenset({"GET", "HEAD"})


class ReadLimit:
    """ASGI middleware: a token bucket per client address for the API's reads (0 a minute: none)."""

    def __init__(self, app: ASGIApp, per_minute: float, burst: int):
        self.app = app
        self.buckets = CreationLimit(per_minute, burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in READS and scope["path"].startswith("/api/"):
            client = scope.get("client")
            wait = self.buckets.wait(client_key(client[0]) if client else "")
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                message = f"too many requests from this address: try again in {seconds} s"
                await come_back(429, "rate_limited", message, seconds)(scope, receive, send)
                return
        await self.app(scope, receive, send)
