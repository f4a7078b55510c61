"""Soak: every preset played through a real ``pardon serve`` by random clients that also send
hostile input, while the server is killed with SIGKILL and restarted.

Each game has its own thread and its own random stream.  Its clients choose among the legal
moves the server sends (a double, an acceptance and a drop included), and now and then send
what a broken or hostile client would: a stale or future event, a move for another seat,
garbage, a frame over the size limit, binary frames, a token of another game.  Meanwhile the
server process is killed a few times and started again on the same database.  Every game
must finish; the events each client heard must be exactly the stored record's decisions;
every record must replay with ``pardon replay``; and the server must log no traceback and
answer no ``server_error``.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_support import free_port, wait_until_up
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from pardon.core.notation import parse_record

pytestmark = pytest.mark.slow

Message = dict[str, Any]

#: (rules, seats): every preset, doubling, and the options the home page offers.
GAMES: list[tuple[str, list[Message]]] = [
    ("classic", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]),
    ("classic", [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "bot", "level": "random"}, {"kind": "hotseat"}]),
    ("classic(pawns=3,deck=55,pawns_out=1)", [{"kind": "human"}, {"kind": "hotseat"}]),
    ("classic-1939", [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "bot", "level": "tactician"}]),
    ("classic-1939(scoring=1939,doubling=true)", [{"kind": "human"}, {"kind": "hotseat"}]),
    ("classic-1939(scoring=1939,doubling=true)", [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "hotseat"}]),
    (
        "classic-1939(scoring=1939,doubling=true)",
        [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "bot", "level": "greedy"}, {"kind": "hotseat"}],
    ),
    ("partners", [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "bot", "level": "greedy"}, {"kind": "hotseat"}]),
    ("partners(partner_split=any)", [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "hotseat"}, {"kind": "hotseat"}]),
    ("adult", [{"kind": "human"}, {"kind": "hotseat"}]),
    ("adult", [{"kind": "human"}, {"kind": "bot", "level": "tactician"}, {"kind": "hotseat"}]),
    ("modern", [{"kind": "human"}, {"kind": "hotseat"}, {"kind": "bot", "level": "greedy"}]),
    ("modern-no-tokens", [{"kind": "human"}, {"kind": "hotseat"}]),
    ("solo", [{"kind": "human"}]),
]

#: The largest message a client reads, as the terminal client does (pardon.tui.online).
MAX_MESSAGE = 16 * 2**20
#: How often a client misbehaves instead of (before) making its move.
MISCHIEF = 0.08
#: Kills of the server during the run, and the seconds between them.
KILLS = 3
BETWEEN_KILLS = (1.5, 3.0)
#: The longest a whole soak may take before it counts as stuck.
DEADLINE = 240.0
#: Error codes a misbehaving client may hear; anything else (server_error above all) fails.
EXPECTED_ERRORS = {
    "malformed",
    "too_large",
    "stale",
    "duplicate",
    "bad_event",
    "not_your_seat",
    "not_your_turn",
    "not_started",
    "game_over",
    "bad_token",
    "rate_limited",
    "invalid_move",
    "illegal_move",
    "ambiguous_move",
}


class Server:
    """A real ``pardon serve`` on one port and database, killed and started again at will;
    everything it prints goes to one log file."""

    def __init__(self, database: str, log: Path):
        self.database = database
        self.port = free_port()
        self.log = log
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "pardon", "serve", "--port", str(self.port), "--db", self.database]
        options = ["--bot-pace", "0", "--takeover-after", "3600"]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen([*command, *options], stdout=log, stderr=subprocess.STDOUT)
        wait_until_up(self.url, self.process)
        self.starts += 1

    def kill(self) -> None:
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def _not_too_large(error: BaseException) -> None:
    """A connection the client closed for a message over its limit would close again on every
    reconnection, for ever: that is a failure, not the server going."""
    sent, received = getattr(error, "sent", None), getattr(error, "rcvd", None)
    too_large = received is None and sent is not None and sent.code == 1009  # closed by the client, not the server
    assert not too_large, f"the server sent a message over {MAX_MESSAGE} bytes: {error}"


class Connection:
    """One client's websocket, opened again (with the last event heard) whenever the server goes."""

    def __init__(self, server: Server, game: Message, token: str):
        self.server, self.game, self.token = server, game, token
        self.socket: ClientConnection | None = None
        self.state: Message = {}
        self.events: list[tuple[int, str, str]] = []
        self.errors: list[str] = []

    @property
    def seen(self) -> int:
        return int(self.state.get("event", 0))

    def open(self, deadline: float) -> None:
        while True:
            try:
                address = f"ws://127.0.0.1:{self.server.port}{self.game['websocket']}"
                # a state may be large: a partners' 7 split among any pawns has a thousand outcomes
                self.socket = connect(address, open_timeout=5, max_size=MAX_MESSAGE).__enter__()  # closed by close()
                self.socket.send(json.dumps({"type": "hello", "token": self.token, "since": self.seen}))
                while self._read(timeout=10)["type"] != "sync":
                    pass
                return
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError) as error:
                _not_too_large(error)
                self.close()
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def close(self) -> None:
        if self.socket is not None:
            with contextlib.suppress(Exception):  # a socket the server has already dropped
                self.socket.close()
            self.socket = None

    def drain(self, timeout: float = 0.0) -> None:
        """Read what has arrived (waiting up to ``timeout`` for the first message)."""
        try:
            self._read(timeout)
            while True:
                self._read(0.0)
        except TimeoutError:
            return

    def _read(self, timeout: float) -> Message:
        assert self.socket is not None
        message: Message = json.loads(self.socket.recv(timeout=timeout))
        kind = message["type"]
        if kind == "sync":
            self.events += [(item["event"], item["colour"], item["move"]) for item in message["events"]]
        if kind == "event":
            self.events.append((message["event"], message["decision"]["colour"], message["decision"]["move"]))
        if kind in ("sync", "event", "state"):
            self.state = message["state"]
        if kind == "error":
            self.errors.append(message["code"])
        return message

    def send(self, data: str | bytes) -> None:
        assert self.socket is not None
        self.socket.send(data)


class Table:
    """The clients of one game: its invited player and the host's screen (the hot-seat seats)."""

    def __init__(self, server: Server, game: Message, rng: random.Random, stranger: str):
        self.server, self.game, self.rng, self.stranger = server, game, rng, stranger
        player = next(seat["token"] for seat in game["seats"] if seat["token"])
        self.connections = [Connection(server, game, player), Connection(server, game, game["host_token"])]
        self.mischief: list[str] = []

    def play(self, deadline: float) -> None:
        for connection in self.connections:
            connection.open(deadline)
        while time.monotonic() < deadline:
            try:
                if self._step():
                    return
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as error:
                _not_too_large(error)
                self._reconnect(deadline)
        raise AssertionError(f"game {self.game['id']} ({self.game['rules']}) did not finish in time")

    def _reconnect(self, deadline: float) -> None:
        for connection in self.connections:  # the server went (or a connection was closed on us)
            connection.close()
            connection.open(deadline)

    def report(self) -> str:
        """Where a game that did not finish stands, as each of its clients last saw it."""
        seen = [
            {key: c.state.get(key) for key in ("event", "status", "decider", "stage", "card", "viewer")}
            | {"moves": len(c.state.get("moves") or []), "errors": c.errors[-3:]}
            for c in self.connections
        ]
        return f"{self.game['id']} ({self.game['rules']}): {seen}; mischief {self.mischief[-3:]}"

    def _step(self) -> bool:
        """One look at the game and one decision, if ours; True once the game is over."""
        for connection in self.connections:
            connection.drain()
        latest = max(self.connections, key=lambda connection: connection.seen)
        if latest.state.get("status") == "finished":
            for connection in self.connections:  # every client hears the end, resynchronising if it must
                connection.drain(timeout=5 if connection.state.get("status") != "finished" else 0.0)
                if connection.state.get("status") != "finished":
                    connection.close()
                    connection.open(time.monotonic() + 30)
                assert connection.state.get("status") == "finished", (self.game["rules"], connection.state)
            return True
        deciding = [c for c in self.connections if c.state.get("moves") and c.seen == latest.seen]
        if not deciding:
            self.connections[0].drain(timeout=0.05)  # a computer's turn, or a broadcast on its way
            return False
        connection = deciding[0]
        if self.rng.random() < MISCHIEF:
            self._misbehave(connection)
        move = self.rng.choice(connection.state["moves"])["move"]
        connection.send(json.dumps({"type": "move", "move": move, "event": connection.seen}))
        connection.drain(timeout=2)
        return False

    def _misbehave(self, connection: Connection) -> None:
        seen = connection.seen
        others = [seat["colour"] for seat in self.game["seats"] if seat["colour"] != connection.state["viewer"]]
        acts: dict[str, Any] = {
            "stale": lambda: connection.send(json.dumps({"type": "move", "move": "pass", "event": max(0, seen - 1)})),
            "future": lambda: connection.send(json.dumps({"type": "move", "move": "pass", "event": seen + 3})),
            "garbage": lambda: connection.send('{"type": "move", "move": '),
            "not json": lambda: connection.send("\u00a1Sorry! \x00"),
            "unknown": lambda: connection.send(json.dumps({"type": "undo", "event": seen})),
            "oversized": lambda: connection.send(json.dumps({"type": "ping", "pad": "x" * 5000})),
            "huge": lambda: connection.send("[" * 70_000),
            "binary": lambda: connection.send(b"\xff\xfe\x00 not text"),
            "other seat": lambda: (
                connection.send(
                    json.dumps({"type": "move", "move": "pass", "event": seen, "seat": self.rng.choice(others)})
                )
                if others
                else None
            ),
            "hello again": lambda: connection.send(json.dumps({"type": "hello", "token": connection.token})),
            "stranger": self._stranger_knocks,
        }
        name = self.rng.choice(sorted(acts))
        self.mischief.append(name)
        acts[name]()

    def _stranger_knocks(self) -> None:
        """A token of another game, or none at all for a private game: refused, and closed."""
        address = f"ws://127.0.0.1:{self.server.port}{self.game['websocket']}"
        with connect(address, open_timeout=5) as socket:
            token = self.rng.choice([self.stranger, None, "x" * 40])
            socket.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
            answer = json.loads(socket.recv(timeout=10))
            assert answer["type"] == "error" and answer["code"] == "bad_token", answer


@contextmanager
def running(database: str, log: Path) -> Iterator[Server]:
    server = Server(database, log)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _create(server: Server, rules: str, seats: list[Message], seed: int) -> Message:
    response = httpx.post(f"{server.url}/api/games", json={"rules": rules, "seats": seats, "seed": seed}, timeout=10)
    assert response.status_code == 201, response.text
    game: Message = response.json()
    return game


def _replays(record: str, folder: Path, name: str) -> None:
    path = folder / f"{name}.txt"
    path.write_text(record)
    done = subprocess.run(
        [sys.executable, "-m", "pardon", "replay", str(path)], check=False, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr


def test_every_preset_survives_hostile_clients_and_kills(database: str, tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    deadline = time.monotonic() + DEADLINE
    kills = random.Random(2024)
    with running(database, log) as server:
        games = [_create(server, rules, seats, seed=400 + number) for number, (rules, seats) in enumerate(GAMES)]
        for game, (rules, _) in zip(games, GAMES, strict=True):
            game["rules"] = rules
        tables = [
            Table(server, game, random.Random(number), stranger=games[number - 1]["host_token"])
            for number, game in enumerate(games)
        ]
        failures: list[str] = []

        def play(table: Table) -> None:
            try:
                table.play(deadline)
            except BaseException:  # reported by the test's own thread
                failures.append(f"{table.game['rules']}: {traceback.format_exc()}")

        threads = [threading.Thread(target=play, args=(table,), daemon=True) for table in tables]
        for thread in threads:
            thread.start()
        for _ in range(KILLS):
            time.sleep(kills.uniform(*BETWEEN_KILLS))
            if not any(thread.is_alive() for thread in threads):
                break
            server.kill()
            server.start()
        for thread in threads:
            thread.join(timeout=max(1.0, deadline - time.monotonic()))
        assert not failures, "\n".join(failures)
        stuck = [table.report() for table, thread in zip(tables, threads, strict=True) if thread.is_alive()]
        assert not stuck, "stuck:\n" + "\n".join(stuck)
        for table in tables:
            _check_table(server, table, tmp_path)
    assert sum(len(table.mischief) for table in tables) >= 20, "too little hostile input to mean anything"
    assert server.starts >= 2, "the server was never killed: the games finished too soon to test a restart"
    text = log.read_text(errors="replace")
    assert "Traceback" not in text, text[text.index("Traceback") - 2000 :][:6000]


def _check_table(server: Server, table: Table, folder: Path) -> None:
    game = table.game
    response = httpx.get(f"{server.url}/api/games/{game['id']}/record", timeout=10)
    assert response.status_code == 200, response.text
    _replays(response.text, folder, game["id"])
    stored = [move for _, move in parse_record(response.text).moves]
    for connection in table.connections:
        numbers = [event for event, _, _ in connection.events]
        assert numbers == list(range(1, connection.seen + 1)), (game["rules"], numbers)
        heard = [move for _, _, move in connection.events if move != "continue"]  # a record leaves out "continue"
        assert heard == stored, (game["rules"], heard, stored)
        unexpected = set(connection.errors) - EXPECTED_ERRORS
        assert not unexpected, (game["rules"], unexpected, table.mischief)
