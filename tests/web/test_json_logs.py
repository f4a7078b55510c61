"""``pardon serve --log-format json``: the whole log on standard error, one JSON object a line."""

from __future__ import annotations

import json
import logging
import socket
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
from web_support import ServedProcess, free_port, serving_process, token_of
from websockets.sync.client import connect

from pardon.web.logs import JsonFormatter, uvicorn_log_config


def lines_of(log: Path) -> list[dict[str, Any]]:
    """Every line of the log, each read as JSON (a line that is not fails the test)."""
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def wait_for(log: Path, wanted: Any, seconds: float = 10.0) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = [line for line in lines_of(log) if wanted(line)]
        if found:
            return found[0]
        time.sleep(0.1)
    raise AssertionError(f"no such line in {log.read_text()}")


def test_the_server_logs_json_lines_about_games_and_clients(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--bot-pace", "0"]
    command += ["--db", str(tmp_path / "games.sqlite3"), "--log-format", "json", "--http-per-address", "2"]
    with serving_process(ServedProcess, command, port, tmp_path / "serve.log") as server:
        body = {"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}], "seed": 3}
        game = httpx.post(f"{server.url}/api/games", json=body, timeout=10).json()
        with connect(f"ws://127.0.0.1:{port}{game['websocket']}") as connection:
            connection.send(json.dumps({"type": "hello", "token": token_of(game, "red")}))
            connection.recv(timeout=10)
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            time.sleep(0.2)
            with socket.create_connection(("127.0.0.1", port)) as refused:
                refused.settimeout(5)
                assert b"too_many_connections" in refused.recv(4096)
        finally:
            for held_open in held:
                held_open.close()
        created = wait_for(server.log, lambda line: line["message"].endswith("created by 127.0.0.1"))
        access = wait_for(server.log, lambda line: line["logger"] == "uvicorn.access" and line["method"] == "POST")
        opened = wait_for(server.log, lambda line: "WebSocket" in line["message"])
        refusal = wait_for(server.log, lambda line: line["message"].startswith("refusing connections"))
        every = lines_of(server.log)
    assert created["game"] == game["id"] and created["client"] == "127.0.0.1" and created["level"] == "INFO"
    assert access["path"] == "/api/games" and access["status"] == 201 and access["client"] == "127.0.0.1"
    assert opened["game"] == game["id"] and opened["client"] == "127.0.0.1"
    assert refusal["client"] == "127.0.0.1" and refusal["level"] == "WARNING"
    assert any(line["message"].startswith("pardon serve: 0 unfinished games resumed") for line in every)
    for line in every:
        assert {"time", "level", "logger", "message"} <= line.keys(), line
        assert datetime.fromisoformat(line["time"]).utcoffset() is not None and line["time"].endswith("Z")


def test_a_traceback_stays_in_its_line() -> None:
    try:
        raise RuntimeError("broken")
    except RuntimeError:
        record = logging.LogRecord("pardon.web", logging.ERROR, __file__, 1, "game %s failed", ("g1",), sys.exc_info())
    record.game = "g1"
    text = JsonFormatter().format(record)
    assert "\n" not in text
    entry = json.loads(text)
    assert entry["message"] == "game g1 failed" and entry["game"] == "g1" and "RuntimeError: broken" in entry["error"]


def test_the_text_format_is_uvicorn_s_own() -> None:
    from uvicorn.config import LOGGING_CONFIG

    assert uvicorn_log_config("text") == LOGGING_CONFIG
    assert uvicorn_log_config("json")["handlers"]["access"]["stream"] == "ext://sys.stderr"
