"""The server's log (``pardon serve --log-format``): lines for a person, or one JSON object a line.

``text`` is the log as it has always been: uvicorn's lines, and pardon's in their manner.
``json`` writes every line — pardon's own (the logger ``pardon`` and its children), uvicorn's,
its access log too — as one object: ``time`` (ISO 8601, UTC), ``level``, ``logger``,
``message``, and where known ``game`` (its id), ``client`` (an address), ``event``; an access
line also ``method``, ``path`` and ``status``; an error its traceback as ``error``.  pardon's
lines name their game and client with ``extra={"game": ..., "client": ...}``.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from uvicorn.config import LOGGING_CONFIG

#: The formats of ``--log-format``.
LOG_FORMATS = ("text", "json")

#: pardon's lines in the text format, beside uvicorn's ``INFO:     ...``.
TEXT = "%(levelname)s:     %(message)s"

#: What a line may say it is about, given by ``extra=`` (and found in uvicorn's lines).
CONTEXT = ("game", "client", "event")

#: A game's id in a path of the API or of a websocket.
GAME_IN_PATH = re.compile(r"^/(?:api|ws)/games/([A-Za-z0-9_-]+)")

#: The handler :func:`set_up_logging` gives the logger ``pardon`` (replaced if set up again).
HANDLER_NAME = "pardon-operator"

log = logging.getLogger("pardon.web.games")


class JsonFormatter(logging.Formatter):
    """One JSON object a line (no newline inside: a traceback is a string in it)."""

    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": _utc(record.created),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        entry.update(_uvicorn_fields(record))
        for key in CONTEXT:
            value = record.__dict__.get(key)
            if value is not None:
                entry[key] = value
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        elif record.exc_text:
            entry["error"] = record.exc_text
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, default=str)


def _utc(created: float) -> str:
    """A record's time in ISO 8601, UTC, to the millisecond.

    >>> _utc(0.25)
    '1970-01-01T00:00:00.250Z'
    """
    return datetime.fromtimestamp(created, UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _uvicorn_fields(record: logging.LogRecord) -> dict[str, Any]:
    """What uvicorn's access and websocket lines are about, read from their arguments."""
    arguments = record.args if isinstance(record.args, tuple) else ()
    fields: dict[str, Any] = {}
    if record.name == "uvicorn.access" and len(arguments) == 5:
        client, method, path, _, status = arguments
        fields = {"client": _address(client), "method": method, "path": path, "status": status}
    elif record.name.startswith("uvicorn") and '"WebSocket %s"' in str(record.msg) and len(arguments) >= 2:
        fields = {"client": _address(arguments[0]), "path": arguments[1]}
    found = GAME_IN_PATH.match(str(fields.get("path", "")))
    if found is not None:
        fields["game"] = found.group(1)
    return {key: value for key, value in fields.items() if value not in (None, "")}


def _address(client: Any) -> str:
    """uvicorn's ``host:port`` as the address alone, as pardon's lines name a client.

    >>> _address("192.0.2.7:51234"), _address("::1:51234"), _address("")
    ('192.0.2.7', '::1', '')
    """
    text = str(client)
    return text.rsplit(":", 1)[0] if ":" in text else text


def _formatter(format: str) -> logging.Formatter:
    if format not in LOG_FORMATS:
        raise ValueError(f"the log format is {' or '.join(LOG_FORMATS)}, not {format!r}")
    return JsonFormatter() if format == "json" else logging.Formatter(TEXT)


def set_up_logging(format: str = "text") -> None:
    """pardon's own lines (games resumed at a restart, a game set aside and why, refusals) on
    standard error beside uvicorn's, in ``format``; Python alone would print warnings only.
    A ``format`` that is none of :data:`LOG_FORMATS` is a ValueError."""
    formatter = _formatter(format)
    server_log = logging.getLogger("pardon")
    for handler in list(server_log.handlers):
        if handler.name == HANDLER_NAME:
            server_log.removeHandler(handler)
    handler = logging.StreamHandler()
    handler.name = HANDLER_NAME
    handler.setFormatter(formatter)
    server_log.addHandler(handler)
    server_log.setLevel(logging.INFO)


def uvicorn_log_config(format: str = "text") -> dict[str, Any]:
    """uvicorn's ``log_config``: its own in the text format (the access log on standard output,
    the rest on standard error); in ``json``, the same loggers as JSON lines, all on standard
    error, so that it is the whole log and standard output only what is said to a person."""
    _formatter(format)
    config = copy.deepcopy(LOGGING_CONFIG)
    if format == "json":
        config["formatters"] = {name: {"()": f"{__name__}.JsonFormatter"} for name in ("default", "access")}
        config["handlers"]["access"]["stream"] = "ext://sys.stderr"
    return config


def game_created(game_id: str, client: str) -> None:
    """Log a game made by a client (an address)."""
    log.info("game %s created by %s", game_id, client, extra={"game": game_id, "client": client})
