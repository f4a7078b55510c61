"""``pardon serve``: run the application under uvicorn, and say where to point a browser."""

from __future__ import annotations

import sys
from typing import Any

import uvicorn

from pardon.web.app import create_app
from pardon.web.settings import Settings

#: The largest frame uvicorn reads at all; the protocol's own limit (Settings.max_message)
#: answers longer messages with an error, this one only bounds memory.
MAX_FRAME = 64 * 1024

#: Addresses that mean "every interface": a browser on this machine reaches them as localhost.
ANY_ADDRESS = ("0.0.0.0", "::", "")


def browser_address(host: str, port: int) -> str:
    """The address to open in a browser for a server listening on ``host``:``port``.

    >>> browser_address("127.0.0.1", 8000)
    'http://127.0.0.1:8000'
    >>> browser_address("0.0.0.0", 8080)
    'http://localhost:8080'
    >>> browser_address("::1", 8000)
    'http://[::1]:8000'
    """
    if host in ANY_ADDRESS:
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


class _Server(uvicorn.Server):
    """uvicorn's server, which prints the address once it is listening (the port may be 0)."""

    async def startup(self, sockets: Any = None) -> None:
        await super().startup(sockets)
        if self.started and self.servers:
            port = self.servers[0].sockets[0].getsockname()[1]
            address = browser_address(self.config.host, port)
            print(f"pardon is running: open {address} in your browser (Ctrl+C stops it)", flush=True)


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve until interrupted."""
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=MAX_FRAME,
        log_level="info",
        proxy_headers=False,
    )
    server = _Server(config)
    try:
        server.run()
    except SystemExit:
        if server.started:
            raise
        message = f"pardon serve: cannot listen on {host}:{port}; is another server using it? Try --port {port + 1}"
        print(message, file=sys.stderr)
        raise SystemExit(2) from None
