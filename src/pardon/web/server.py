"""``pardon serve``: run the application under uvicorn."""

from __future__ import annotations

import uvicorn

from pardon.web.app import create_app
from pardon.web.settings import Settings

#: The largest frame uvicorn reads at all; the protocol's own limit (Settings.max_message)
#: answers longer messages with an error, this one only bounds memory.
MAX_FRAME = 64 * 1024


def serve(settings: Settings, host: str, port: int) -> None:
    """Serve until interrupted."""
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=MAX_FRAME,
        log_level="info",
        proxy_headers=False,
    )
