"""Connections that never finish a request, and too many from one address, against a real
``pardon serve``: closed when their time is up, or refused at once, while honest clients (slow
ones, a page's parallel requests, a long-lived websocket) are served as ever.

The servers here run with small limits: a short :data:`~pardon.web.server.REQUEST_TIMEOUT`
set in the process before ``pardon serve`` starts (:data:`LAUNCH`), and a small
``--http-per-address``, with uvicorn's HTTP protocol of httptools or of h11.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from pathlib import Path

import httpx
import pytest
from web_support import ServedProcess, free_port, serving_process, token_of
from websockets.sync.client import connect

from pardon.web.server import RESERVED_FILES

#: ``pardon serve`` with the limits of a test: python -c LAUNCH TIMEOUT CAP PROTOCOL FILES
#: ARGUMENTS..., FILES the process's open-file limit (0: as it is).
LAUNCH = """
import resource
import sys
import pardon.web.server as server
server.REQUEST_TIMEOUT = float(sys.argv[1])
if sys.argv[3] == "h11":
    server.HttpToolsProtocol = None
if int(sys.argv[4]):
    resource.setrlimit(resource.RLIMIT_NOFILE, (int(sys.argv[4]),) * 2)
from pardon.cli import main
sys.exit(main(sys.argv[5:]))
"""

#: The request clock of the servers that test it (seconds), and how late a close may come on a
#: busy machine.
CLOCK = 2.0
LATE = 3.0

#: The cap of the server that tests it, and the client address it is tested from (an address
#: of this test's alone: no other test's connections count against it).
CAP = 8
CAPPED = "127.0.0.9"

PROTOCOLS = ["httptools", "h11"]


class Served(ServedProcess):
    """A real ``pardon serve`` with a clock and a cap of its own."""

    def connect(self, address: str = "127.0.0.1") -> socket.socket:
        """A plain TCP connection to the server, from a loopback ``address`` of the client's choosing."""
        return socket.create_connection(("127.0.0.1", self.port), timeout=10, source_address=(address, 0))


@contextmanager
def serving(folder: Path, timeout: float, cap: int, protocol: str, files: int = 0) -> Iterator[Served]:
    if protocol == "httptools":
        pytest.importorskip("httptools")
    port, log = free_port(), folder / "stderr.txt"
    arguments = ["serve", "--port", str(port), "--bot-pace", "0", "--create-rate", "0", "--http-per-address", str(cap)]
    arguments += ["--db", str(folder / "games.sqlite3")]
    command = [sys.executable, "-c", LAUNCH, str(timeout), str(cap), protocol, str(files), *arguments]
    with serving_process(Served, command, port, log) as served:
        yield served


@pytest.fixture(scope="module", params=PROTOCOLS)
def clocked(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose connections have :data:`CLOCK` seconds to send a request."""
    with serving(tmp_path_factory.mktemp("clocked"), CLOCK, 64, request.param) as served:
        yield served


@pytest.fixture(scope="module", params=PROTOCOLS)
def capped(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server taking :data:`CAP` HTTP connections at once from one address (and the default clock)."""
    with serving(tmp_path_factory.mktemp("capped"), 20.0, CAP, request.param) as served:
        yield served


def until_closed(connection: socket.socket, seconds: float) -> bytes:
    """All the server sends until it closes the connection (or resets it); fails if it is
    still open after ``seconds``."""
    connection.settimeout(seconds)
    received = b""
    try:
        while chunk := connection.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    except TimeoutError:
        pytest.fail(f"still open after {seconds} s, having sent {received!r}")
    return received


def answer(connection: socket.socket) -> tuple[int, bytes]:
    """The status and body of one answer (``content-length`` framed) read from ``connection``."""
    connection.settimeout(10)
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = connection.recv(65536)
        assert chunk, f"closed before an answer came: {data!r}"
        data += chunk
    head, body = data.split(b"\r\n\r\n", 1)
    lines = head.split(b"\r\n")
    length = next(int(line.split(b":")[1]) for line in lines if line.lower().startswith(b"content-length"))
    while len(body) < length:
        chunk = connection.recv(65536)
        assert chunk, f"closed in the middle of an answer: {data!r}"
        body += chunk
    return int(head.split(b" ")[1]), body


def error_of(data: bytes) -> dict[str, str]:
    error: dict[str, str] = json.loads(data.split(b"\r\n\r\n", 1)[1])
    return error


def get(path: str) -> bytes:
    return f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()


# --- the request clock ------------------------------------------------------------------


def test_a_connection_that_sends_nothing_is_closed_in_time(clocked: Served) -> None:
    with clocked.connect() as silent:
        start = time.monotonic()
        assert until_closed(silent, CLOCK + LATE) == b""  # nothing begun: closed without a word
        assert time.monotonic() - start >= CLOCK * 0.9


def test_a_request_begun_and_never_finished_is_told_too_slow(clocked: Served) -> None:
    with clocked.connect() as stalled:
        start = time.monotonic()
        stalled.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127")
        told = until_closed(stalled, CLOCK + LATE)
        assert time.monotonic() - start >= CLOCK * 0.9
    assert told.startswith(b"HTTP/1.1 408 "), told
    assert error_of(told) == {"error": "too_slow", "message": f"the request did not arrive within {CLOCK:g} seconds"}


def test_a_slowloris_is_closed_in_time_however_often_it_sends(clocked: Served) -> None:
    """Headers a byte at a time, a byte every eighth of the clock: each byte is news, yet the
    request never comes, and the connection goes when the clock runs out."""
    headers = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n" + b"X-Padding: " + b"a" * 1000
    stop = threading.Event()

    def trickle(connection: socket.socket) -> None:
        for byte in headers:
            if stop.wait(CLOCK / 8):
                return
            try:
                connection.send(bytes([byte]))
            except OSError:
                return

    with clocked.connect() as slowloris:
        start = time.monotonic()
        sender = threading.Thread(target=trickle, args=(slowloris,))
        sender.start()
        try:
            told = until_closed(slowloris, CLOCK + LATE)
        finally:
            stop.set()
            sender.join()
        assert time.monotonic() - start >= CLOCK * 0.9
    assert told == b"" or told.startswith(b"HTTP/1.1 408 "), told  # a byte sent as it closed may reset it


def test_a_request_whose_body_stops_coming_is_closed_in_time(clocked: Served) -> None:
    """The clock runs until the whole request is in: headers, then all of the body they announce."""
    body = json.dumps({"seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}]}).encode()
    head = "POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {len(body)}"
    with clocked.connect() as slow:
        start = time.monotonic()
        slow.sendall(head.encode() + b"\r\n\r\n" + body[:5])
        told = until_closed(slow, CLOCK + LATE)
        assert time.monotonic() - start >= CLOCK * 0.9
    assert told.startswith(b"HTTP/1.1 408 "), told
    assert httpx.get(f"{clocked.url}/api/lobby", timeout=10).status_code == 200  # the server is unmoved


def test_an_honest_slow_client_is_answered_and_its_clock_starts_again_after_each_answer(clocked: Served) -> None:
    request = get("/healthz")
    with clocked.connect() as slow:
        for _ in range(2):  # two requests on one connection, each taking most of the clock to send
            for piece in (request[:10], request[10:20], request[20:]):
                slow.sendall(piece)
                time.sleep(CLOCK / 4)
            assert answer(slow) == (200, b'{"status":"ok"}')
        time.sleep(CLOCK / 2)
        slow.sendall(b"GET /hea")  # uvicorn's keep-alive timer stops at the first byte: this clock does not
        start = time.monotonic()
        told = until_closed(slow, CLOCK + LATE)
        assert time.monotonic() - start <= CLOCK + LATE
    assert told.startswith(b"HTTP/1.1 408 "), told


def test_an_idle_connection_is_closed_after_its_answer(clocked: Served) -> None:
    with clocked.connect() as idle:
        idle.sendall(get("/healthz"))
        assert answer(idle)[0] == 200
        assert until_closed(idle, CLOCK + LATE) == b""


def test_a_websocket_outlives_the_clock(clocked: Served) -> None:
    """Upgraded, a connection is a websocket: the HTTP clock stopped with the handshake, and a
    websocket quiet for longer than it (before its hello, and after) plays on."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    game = httpx.post(f"{clocked.url}/api/games", json={"seats": seats, "public": True}, timeout=10).json()
    with connect(f"ws://127.0.0.1:{clocked.port}{game['websocket']}", open_timeout=10) as websocket:
        time.sleep(CLOCK * 1.5)
        websocket.send(json.dumps({"type": "hello"}))
        assert json.loads(websocket.recv(timeout=10))["type"] == "welcome"
        time.sleep(CLOCK * 0.75)
        websocket.send(json.dumps({"type": "ping"}))
        while (message := json.loads(websocket.recv(timeout=10)))["type"] != "pong":
            assert message["type"] in ("sync", "event", "state", "presence"), message


def test_a_page_load_of_parallel_requests_is_served(clocked: Served) -> None:
    """A browser opens several connections at once (a family behind one address, more)."""
    paths = ["/", "/healthz", "/api/lobby", "/openapi.json"] * 6

    def fetch(path: str) -> int:
        return httpx.get(f"{clocked.url}{path}", timeout=20).status_code

    with ThreadPoolExecutor(len(paths)) as pool:
        assert list(pool.map(fetch, paths)) == [200] * len(paths)


# --- the cap on HTTP connections from one address ------------------------------------------


def test_connections_past_the_cap_are_refused_at_once_and_the_others_go_on(capped: Served) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    game = httpx.post(f"{capped.url}/api/games", json={"seats": seats, "public": True}, timeout=10).json()
    with ExitStack() as stack:
        for _ in range(3):  # websockets count apart: upgraded, they hold no HTTP place
            bound = capped.connect(CAPPED)
            websocket = stack.enter_context(connect(f"ws://127.0.0.1:{capped.port}{game['websocket']}", sock=bound))
            websocket.send(json.dumps({"type": "hello"}))
            assert json.loads(websocket.recv(timeout=10))["type"] == "welcome"
        held = [stack.enter_context(capped.connect(CAPPED)) for _ in range(CAP)]
        for _ in range(3):
            with capped.connect(CAPPED) as refused:
                start = time.monotonic()
                told = until_closed(refused, 5)
                assert time.monotonic() - start < 2  # at once, not when a clock runs out
            assert told == b"" or told.startswith(b"HTTP/1.1 503 "), told  # the answer is not waited for
            if told:
                assert error_of(told) == {
                    "error": "too_many_connections",
                    "message": f"at most {CAP} connections at once from one address: try again later",
                }
        for connection in held:  # those open go on
            connection.sendall(get("/healthz"))
            assert answer(connection) == (200, b'{"status":"ok"}')
        other = httpx.HTTPTransport(local_address="127.0.0.10")
        with httpx.Client(transport=other, timeout=10) as client:  # another address is not held back
            assert client.get(f"{capped.url}/healthz").status_code == 200
        held.pop().close()
        deadline = time.monotonic() + 5
        while True:  # its place is free once the server has seen it go
            with capped.connect(CAPPED) as again:
                again.sendall(get("/healthz"))
                try:
                    if answer(again)[0] == 200:
                        break
                except (AssertionError, ConnectionResetError):
                    pass
            assert time.monotonic() < deadline, "the closed connection's place was never given back"
            time.sleep(0.05)
    log = capped.log.read_text()
    refusals = [line for line in log.splitlines() if f"refusing connections from {CAPPED}" in line]
    assert len(refusals) == 1, log  # one line however many are refused (once a minute at most)
    assert f"more than {CAP} connections open at once from one address" in refusals[0]


# --- the cap on connections from everyone --------------------------------------------------

#: The open-file limit of the server that tests it: it holds this less RESERVED_FILES
#: connections at once.
FILES = 160


@pytest.fixture(scope="module", params=PROTOCOLS)
def full(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server whose open-file limit is :data:`FILES`, which it cannot raise."""
    with serving(tmp_path_factory.mktemp("full"), 60.0, 64, request.param, files=FILES) as served:
        yield served


def test_past_what_the_server_can_hold_connections_from_everyone_are_refused_and_a_game_goes_on(full: Served) -> None:
    """Many addresses, each under its own cap, together hold as many connections as the files
    allow: then one more is answered 503 at once, where the server would have run out of files
    (and its database with it), and a game already playing goes on."""
    most = FILES - RESERVED_FILES
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    game = httpx.post(f"{full.url}/api/games", json={"seats": seats, "public": True}, timeout=10).json()
    with ExitStack() as stack:
        websocket = stack.enter_context(connect(f"ws://127.0.0.1:{full.port}{game['websocket']}", open_timeout=10))
        websocket.send(json.dumps({"type": "hello", "token": token_of(game, "red")}))
        assert json.loads(websocket.recv(timeout=10))["type"] == "welcome"
        crowd = [f"127.0.1.{number}" for number in range(1, 5)]  # under the cap of each address
        held = [stack.enter_context(full.connect(crowd[n % 4])) for n in range(most)]
        for address in crowd:
            with full.connect(address) as refused:
                told = until_closed(refused, 5)
            assert told == b"" or told.startswith(b"HTTP/1.1 503 "), told
            if told:
                assert error_of(told) == {
                    "error": "server_full",
                    "message": "the server has as many connections as it can hold: try again in a minute",
                }
        websocket.send(json.dumps({"type": "ping"}))  # the game plays on
        while (message := json.loads(websocket.recv(timeout=10)))["type"] != "pong":
            assert message["type"] != "error", message
        for connection in held[: len(held) // 2]:
            connection.close()
        deadline = time.monotonic() + 5
        while httpx.get(f"{full.url}/healthz", timeout=10).status_code != 200:  # room again
            assert time.monotonic() < deadline, "the closed connections' room was never given back"
            time.sleep(0.05)
    log = full.log.read_text()
    assert "out of system resource" not in log and "Too many open files" not in log, log
    refusals = [line for line in log.splitlines() if "refusing connections from any address" in line]
    assert len(refusals) == 1, log
    assert f"{most} connections open at once, as many as it can hold" in refusals[0]
