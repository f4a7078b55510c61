"""What the server refuses, and how: over real websockets and HTTP to a real ``pardon serve``
on loopback (frames, bodies, origins, the per-address cap, a database it cannot open), and
through the application itself where a setting is lowered for the test (the hello timeout,
the rate limit's close, the spectators' cap, presence).  docs/protocol.md says the same."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import (
    Message,
    Player,
    ServedProcess,
    create,
    free_port,
    run_coroutine,
    serving_process,
    token_of,
    wait_until_up,
)
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import ClientConnection, connect

from pardon.web.protocol import ANSWERED_REFUSALS, RATE_STRIKES, Client, Encoder
from pardon.web.rooms import Room
from pardon.web.settings import Settings, sqlite_url


class Served(ServedProcess):
    """A real ``pardon serve`` with the default limits."""

    def game(self, public: bool = True) -> Message:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        response = httpx.post(f"{self.url}/api/games", json={"seats": seats, "public": public, "seed": 3}, timeout=10)
        assert response.status_code == 201, response.text
        game: Message = response.json()
        return game

    def socket(self, game: Message, address: str = "127.0.0.1") -> ClientConnection:
        """A websocket to ``game`` (from a loopback ``address`` of the client's choosing)."""
        bound = socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(address, 0))
        return connect(f"ws://127.0.0.1:{self.port}{game['websocket']}", sock=bound, open_timeout=10)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """One server with the default limits, its stderr kept (to see what it logs)."""
    folder = tmp_path_factory.mktemp("limits")
    port, log = free_port(), folder / "stderr.txt"
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--bot-pace", "0"]
    command += ["--db", str(folder / "games.sqlite3"), "--create-rate", "0"]
    with serving_process(Served, command, port, log) as served:
        yield served


def watch(connection: ClientConnection) -> Message:
    """Say hello as a spectator; the welcome."""
    connection.send(json.dumps({"type": "hello"}))
    welcome: Message = json.loads(connection.recv(timeout=10))
    assert welcome["type"] == "welcome", welcome
    assert json.loads(connection.recv(timeout=10))["type"] == "sync"
    return welcome


def answer(connection: ClientConnection) -> Message:
    """The next message that is not news of the game."""
    while True:
        message: Message = json.loads(connection.recv(timeout=10))
        if message["type"] not in ("event", "state", "presence"):
            return message


def closed_code(connection: ClientConnection) -> int | None:
    with pytest.raises(ConnectionClosed):
        while True:
            connection.recv(timeout=10)
    return connection.close_code


# --- frames ---------------------------------------------------------------------------


def test_a_message_over_the_limit_is_refused_and_the_connection_kept(served: Served) -> None:
    with served.socket(served.game()) as connection:
        watch(connection)
        connection.send(json.dumps({"type": "ping", "padding": "x" * 10_000}))
        assert answer(connection)["code"] == "too_large"
        connection.send(json.dumps({"type": "ping"}))
        assert answer(connection)["type"] == "pong"


def test_a_frame_over_the_hard_cap_is_answered_too_large_then_closed(served: Served) -> None:
    with served.socket(served.game()) as connection:
        watch(connection)
        connection.send(json.dumps({"type": "ping", "padding": "x" * 100_000}))
        error = answer(connection)
        assert error["code"] == "too_large" and "65536" in error["message"]
        assert closed_code(connection) == 1009


def test_binary_and_invalid_utf8_frames_are_malformed_and_log_nothing(served: Served) -> None:
    before = served.log.read_bytes()
    with served.socket(served.game()) as connection:
        watch(connection)
        connection.send(b'{"type": "ping"}')  # the right JSON, in a binary frame
        assert answer(connection)["code"] == "malformed"
        for _ in range(3):
            connection.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)
            error = answer(connection)
            assert error["code"] == "malformed" and "UTF-8" in error["message"]
        connection.send(json.dumps({"type": "ping"}))
        assert answer(connection)["type"] == "pong"
    time.sleep(0.2)
    logged = served.log.read_bytes()[len(before) :].decode(errors="replace")
    assert "Traceback" not in logged and "UTF-8" not in logged, logged


# --- request bodies -------------------------------------------------------------------


def _request(port: int, head: str, body: bytes = b"") -> tuple[int, Message]:
    """Send a request's head (and a first part of its body) and read the answer, whatever else the
    client would have sent: the server must answer without reading the rest."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(head.encode() + body)
        received = b""
        while b"\r\n\r\n" not in received or len(received.split(b"\r\n\r\n", 1)[1]) < _length(received):
            chunk = raw.recv(65536)
            if not chunk:
                break
            received += chunk
    status = int(received.split(b" ", 2)[1])
    content: Message = json.loads(received.split(b"\r\n\r\n", 1)[1])
    return status, content


def _length(received: bytes) -> int:
    for line in received.split(b"\r\n\r\n", 1)[0].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            return int(value)
    return 1


def test_a_body_over_the_limit_is_refused_before_it_is_read(served: Served) -> None:
    head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    started = time.monotonic()
    status, content = _request(served.port, head + "Content-Length: 300000000\r\n\r\n", b'{"seats": [')
    assert (status, content["error"]) == (413, "too_large"), content
    assert time.monotonic() - started < 5  # answered at once: 300 MB were never awaited
    chunk = b"8000\r\n" + b" " * 0x8000 + b"\r\n"  # 32 KiB chunks, no end: refused once past 64 KiB
    status, content = _request(served.port, head + "Transfer-Encoding: chunked\r\n\r\n", chunk * 3)
    assert (status, content["error"]) == (413, "too_large"), content
    small = {"seats": [{"kind": "human"}], "padding": "x" * 1000}
    assert httpx.post(f"{served.url}/api/games", json=small).json()["error"] == "invalid_request"  # read, and judged


# --- origins --------------------------------------------------------------------------


def _handshake(port: int, path: str, host: str, origin: str | None) -> int:
    """The status of a websocket handshake with these Host and Origin headers."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [f"GET {path} HTTP/1.1", f"Host: {host}", "Upgrade: websocket", "Connection: Upgrade"]
    lines += [f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
    if origin is not None:
        lines.append(f"Origin: {origin}")
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        return int(raw.recv(4096).split(b" ", 2)[1])


def test_the_origin_is_checked_against_the_servers_own_address_not_the_host_header(served: Served) -> None:
    path, port = served.game()["websocket"], served.port
    assert _handshake(port, path, "evil.example", "http://evil.example") == 403  # DNS rebinding
    assert _handshake(port, path, f"evil.example:{port}", f"http://evil.example:{port}") == 403
    assert _handshake(port, path, f"127.0.0.1:{port}", "http://elsewhere.example") == 403
    assert _handshake(port, path, f"127.0.0.1:{port}", f"http://127.0.0.1:{port}") == 101
    assert _handshake(port, path, f"localhost:{port}", f"http://localhost:{port}") == 101
    assert _handshake(port, path, f"127.0.0.1:{port}", None) == 101  # a program: no Origin, a token needed


def test_allowed_origins_and_the_public_url_may_connect(tmp_path: Path) -> None:
    port = free_port()
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")]
    command += ["--allow-origin", "https://friends.example", "--public-url", "https://games.example/"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
        path = Served(port, tmp_path).game()["websocket"]
        assert _handshake(port, path, "games.example", "https://friends.example") == 101
        assert _handshake(port, path, "games.example", "https://games.example") == 101
        assert _handshake(port, path, "games.example", "http://games.example") == 403  # not the scheme configured
        assert _handshake(port, path, f"127.0.0.1:{port}", f"http://127.0.0.1:{port}") == 101
    finally:
        process.kill()
        process.wait(timeout=10)


def test_a_foreign_host_and_origin_are_refused_by_the_application(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "human"}])
    headers = {"host": "evil.example", "origin": "http://evil.example"}
    with pytest.raises(WebSocketDisconnect), server.websocket_connect(game["websocket"], headers=headers) as socket:
        socket.send_json({"type": "hello", "token": token_of(game, "red")})
        socket.receive_json()


# --- connection caps ------------------------------------------------------------------


#: A client address of the cap's test alone (the other tests' connections may not be gone yet).
CAPPED = "127.0.0.3"


def test_one_address_is_capped_and_the_rest_refused_at_once(served: Served) -> None:
    game = served.game()
    with ExitStack() as stack:
        held = [stack.enter_context(served.socket(game, CAPPED)) for _ in range(64)]
        for connection in held[:3]:
            watch(connection)
        with served.socket(game, CAPPED) as refused:  # the 65th: refused before any hello
            error = json.loads(refused.recv(timeout=10))
            assert error["code"] == "too_many_connections" and "64" in error["message"]
            assert closed_code(refused) == 1013
        with served.socket(game, address="127.0.0.2") as other:  # another client is not held back
            assert watch(other)["role"] == "spectator"
        held.pop().close()
        deadline = time.monotonic() + 5
        while True:  # its place is free once the server has seen it go
            with served.socket(game, CAPPED) as again:
                again.send(json.dumps({"type": "hello"}))
                if json.loads(again.recv(timeout=10))["type"] == "welcome":
                    break
            assert time.monotonic() < deadline, "the closed connection's place was never given back"
            time.sleep(0.05)


def test_an_address_that_floods_past_its_cap_is_dropped_unanswered(served: Served) -> None:
    """Past its share, an address is answered ``too_many_connections`` so many times a second;
    after that its connections are dropped as soon as they are made, without a handshake."""
    flooding, game = "127.0.0.4", served.game()
    with ExitStack() as stack:
        for _ in range(64):
            stack.enter_context(served.socket(game, flooding))
        answered = dropped = 0
        for _ in range(ANSWERED_REFUSALS * 3):
            try:
                with served.socket(game, flooding) as refused:
                    assert json.loads(refused.recv(timeout=10))["code"] == "too_many_connections"
                    answered += 1
            except (OSError, InvalidHandshake, ConnectionClosed):
                dropped += 1
        assert answered >= ANSWERED_REFUSALS and dropped, (answered, dropped)
        with served.socket(game, address="127.0.0.5") as other:  # nobody else is held back
            assert watch(other)["role"] == "spectator"
        assert httpx.get(f"http://127.0.0.1:{served.port}/healthz", timeout=10).status_code == 200


def test_too_many_connections_from_one_address_are_refused_by_the_application(
    make_server: Callable[..., TestClient],
) -> None:
    server = make_server(max_connections_per_address=2)
    game = create(server, [{"kind": "human"}, {"kind": "human"}], public=True)
    with server.websocket_connect(game["websocket"]) as first, server.websocket_connect(game["websocket"]) as second:
        Player(first).hello(None)
        Player(second).hello(None)
        with server.websocket_connect(game["websocket"]) as third:
            assert third.receive_json()["code"] == "too_many_connections"
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1013
    with server.websocket_connect(game["websocket"]) as again:
        assert Player(again).hello(None)["role"] == "spectator"


def test_a_game_has_room_for_so_many_spectators_and_its_players_always(
    make_server: Callable[..., TestClient],
) -> None:
    server = make_server(max_spectators_per_game=2)
    game = create(server, [{"kind": "human"}, {"kind": "human"}], public=True)
    with ExitStack() as stack:
        for _ in range(2):
            Player(stack.enter_context(server.websocket_connect(game["websocket"]))).hello(game["spectator_token"])
        with server.websocket_connect(game["websocket"]) as third:
            third.send_json({"type": "hello"})
            error = third.receive_json()
            assert error["code"] == "too_many_connections" and "watch one game" in error["message"]
            with pytest.raises(WebSocketDisconnect) as closed:
                third.receive_json()
            assert closed.value.code == 1013
        red = Player(stack.enter_context(server.websocket_connect(game["websocket"])))
        assert red.hello(token_of(game, "red"))["role"] == "player"
    with server.websocket_connect(game["websocket"]) as later:
        assert Player(later).hello(None)["role"] == "spectator"


# --- the server closes, saying why ----------------------------------------------------


def test_a_client_that_never_says_hello_is_told_and_closed(make_server: Callable[..., TestClient]) -> None:
    server = make_server(hello_timeout=0.2)
    game = create(server, [{"kind": "human"}, {"kind": "human"}])
    with server.websocket_connect(game["websocket"]) as socket:
        error = socket.receive_json()
        assert error["code"] == "malformed" and "hello" in error["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 1008


def test_a_rate_limit_close_sends_its_errors_first(make_server: Callable[..., TestClient]) -> None:
    server = make_server(rate=0.001, burst=1)
    game = create(server, [{"kind": "human"}, {"kind": "human"}])
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        for _ in range(RATE_STRIKES + 5):
            socket.send_json({"type": "ping"})
        codes = []
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                codes.append(player.receive().get("code"))
        assert closed.value.code == 1008
    assert codes.count("rate_limited") == RATE_STRIKES, codes


def test_a_client_too_slow_to_read_is_closed_without_sending_anything(
    make_server: Callable[..., TestClient],
) -> None:
    server = make_server(outbox_messages=1)  # its welcome and sync already fill it
    game = create(server, [{"kind": "human"}, {"kind": "human"}], public=True)
    with server.websocket_connect(game["websocket"]) as socket:
        socket.send_json({"type": "hello"})
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                socket.receive_json()
        assert closed.value.code == 1013
    with server.websocket_connect(game["websocket"]) as again:  # the game is still there for others
        again.send_json({"type": "hello"})
        with pytest.raises(WebSocketDisconnect):
            while True:
                again.receive_json()


class _NeverRead:
    """A websocket whose peer never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_text(self, text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()


def test_an_outbox_is_bounded_in_bytes_and_dropped_when_it_overflows() -> None:
    async def scenario() -> tuple[int, int, int, bool, list[str]]:
        settings = Settings(database="", outbox_messages=10_000, outbox_bytes=64 * 1024)
        client = Client(_NeverRead(), frozenset(), "spectator", Encoder(), settings)  # type: ignore[arg-type]
        stopped: list[str] = []
        client.on_overflow = lambda: stopped.append("stopped")
        writer = asyncio.create_task(client.write_all())
        await asyncio.sleep(0)
        big = {"type": "state", "padding": "x" * 10_000}
        delivered = 0
        while not client.overflowed:
            client.deliver(big)
            delivered += 1
        queued = client.queued_bytes, client.outbox.qsize()
        client.deliver(big)  # after the overflow nothing more is kept
        await client.finish(writer)
        return delivered, *queued, writer.cancelled(), stopped

    delivered, queued_bytes, queued, cancelled, stopped = run_coroutine(scenario())
    assert 6 <= delivered <= 8  # 64 KiB of 10 KB messages, one of them in the stuck send
    assert (queued_bytes, queued) == (0, 1)  # only the writer's stop is left
    assert cancelled and stopped == ["stopped"]


# --- presence -------------------------------------------------------------------------


def _presences(player: Player, wait: float) -> list[Message]:
    """The presence messages ``player`` is sent over the next ``wait`` seconds."""
    time.sleep(wait)
    player.round_trip()
    return [message for message in player.seen_messages if message["type"] == "presence"]


class Listening(Player):
    """A player that keeps every message it reads."""

    def __init__(self, socket: object):
        super().__init__(socket)
        self.seen_messages: list[Message] = []

    def receive(self) -> Message:
        message = super().receive()
        self.seen_messages.append(message)
        return message


def test_spectators_coming_and_going_tell_nobody(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "human"}], public=True)
    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Listening(red_socket)
        red.hello(token_of(game, "red"))
        _presences(red, 2 * Room.PRESENCE_EVERY)  # red's own arrival, told
        red.seen_messages.clear()
        for _ in range(5):
            with server.websocket_connect(game["websocket"]) as socket:
                Player(socket).hello(None)
        red.seen_messages.clear()
        assert _presences(red, 2 * Room.PRESENCE_EVERY) == []


def test_seats_coming_and_going_at_once_are_told_in_one_presence(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(Room, "PRESENCE_EVERY", 1.0)  # the comings and goings below fall in one window
    game = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}], public=True)
    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Listening(red_socket)
        red.hello(token_of(game, "red"))
        red.seen_messages.clear()
        for colour in ("blue", "yellow", "blue"):
            with server.websocket_connect(game["websocket"]) as socket:
                Player(socket).hello(token_of(game, colour))
        presences = _presences(red, 1.5)
    assert len(presences) == 1, presences
    seats = {seat["colour"]: seat["connected"] for seat in presences[0]["seats"]}
    assert seats == {"red": True, "blue": False, "yellow": False}


def test_one_message_to_many_clients_is_encoded_once() -> None:
    async def encode_twice() -> None:
        encoder = Encoder()
        state = {"event": 3, "seats": [{"colour": "red", "connected": True}]}
        first = encoder.encode({"type": "event", "event": 3, "state": state})
        again = encoder.encode({"type": "event", "event": 3, "state": state})  # another client, the same parts
        assert again is first and json.loads(first)["state"] == state
        other = encoder.encode({"type": "event", "event": 3, "state": {**state, "event": 4}})
        assert json.loads(other)["state"]["event"] == 4
        await asyncio.sleep(0)  # the broadcast is over: nothing is kept
        later = encoder.encode({"type": "event", "event": 3, "state": state})
        assert later == first and later is not first

    # A loop of its own, in a thread of its own: the browser tests' driver may hold this thread's loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, encode_twice()).result()


# --- starting -------------------------------------------------------------------------


def _serve_and_fail(database: Path, *prefix: str) -> subprocess.CompletedProcess[str]:
    command = [*prefix, sys.executable, "-m", "pardon", "serve", "--port", str(free_port()), "--db", str(database)]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, check=False, cwd="/")


def test_a_database_in_a_file_not_a_folder_is_named(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("not a folder")
    database = tmp_path / "notes.txt" / "games.sqlite3"
    finished = _serve_and_fail(database)
    assert finished.returncode == 2, finished.stderr
    assert f"cannot open the database at {database}" in finished.stderr
    assert "not a directory" in finished.stderr and "cannot listen" not in finished.stderr


def test_an_unwritable_database_folder_is_named_not_the_port() -> None:
    prefix: tuple[str, ...] = ()
    if os.geteuid() == 0:  # root writes anywhere: run the server as root without that power
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: no way to be refused a folder")
        # Still root, so it reads the checkout wherever it lives (another user may not enter it).
        prefix = (setpriv, "--bounding-set=-dac_override,-dac_read_search")
    base = Path(tempfile.mkdtemp())  # beside pytest's own folders, which nobody else may enter
    base.chmod(0o755)
    locked = base / "locked"
    locked.mkdir(mode=0o555)
    try:
        finished = _serve_and_fail(locked / "games.sqlite3", *prefix)
    finally:
        shutil.rmtree(base)
    assert finished.returncode == 2, finished.stderr
    assert f"cannot open the database at {locked / 'games.sqlite3'}: permission denied" in finished.stderr
    assert "cannot listen" not in finished.stderr


def test_a_busy_port_is_still_named(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        command = [sys.executable, "-m", "pardon", "serve", "--port", str(port)]
        command += ["--db", sqlite_url(tmp_path / "games.sqlite3")]
        finished = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert finished.returncode == 2, finished.stderr
    assert f"cannot listen on 127.0.0.1:{port}" in finished.stderr


def test_an_address_that_is_not_this_machines_is_named_not_taken_for_a_busy_port(tmp_path: Path) -> None:
    for host, why in (("999.1.1.1", "there is no such address"), ("192.0.2.1", "this machine has no such address")):
        command = [sys.executable, "-m", "pardon", "serve", "--host", host, "--port", "0"]
        command += ["--db", sqlite_url(tmp_path / "games.sqlite3")]
        finished = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        assert finished.returncode == 2, finished.stderr
        assert f"cannot listen on {host}:0: {why}" in finished.stderr
        assert "Try --port" not in finished.stderr
