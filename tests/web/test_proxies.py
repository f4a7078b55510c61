"""Behind a reverse proxy: a trusted proxy names its clients, links and origins follow the site
the client asked for, and nobody else can choose its own address.  Real server processes on
loopback, where the test client plays both the proxy and its clients (127.0.0.1 is trusted)."""

from __future__ import annotations

import json
import socket
import ssl
import subprocess
import sys
from contextlib import ExitStack, suppress
from pathlib import Path

import httpx
import pytest
from web_support import free_port, served
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from pardon.web.proxies import TrustedProxies

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def _create(url: str, forwarded_for: str | None = None, **headers: str) -> httpx.Response:
    if forwarded_for is not None:
        headers["X-Forwarded-For"] = forwarded_for
    return httpx.post(f"{url}/api/games", json={"seats": SEATS}, headers=headers, timeout=10)


@pytest.mark.parametrize(
    ("peer", "headers", "client"),
    [
        ("10.0.0.2", {"x-forwarded-for": "198.51.100.9, 203.0.113.5"}, "203.0.113.5"),  # the nearest, not the first
        ("10.0.0.2", {"x-forwarded-for": "203.0.113.5, 10.9.9.9"}, "203.0.113.5"),  # a proxy in the chain skipped
        ("10.0.0.2", {"x-forwarded-for": "10.0.0.7, 10.0.0.9"}, "10.0.0.7"),  # all proxies: the farthest
        ("10.0.0.2", {}, "10.0.0.2"),  # a proxy that names nobody: its own
        ("192.0.2.1", {"x-forwarded-for": "203.0.113.5"}, "192.0.2.1"),  # not trusted: ignored
        ("10.0.0.2", {"forwarded": "for=192.0.2.60;proto=https, for=10.0.0.3"}, "192.0.2.60"),
        ("10.0.0.2", {"x-forwarded-for": "[2001:db8::1]:443"}, "2001:db8::1"),
        ("::ffff:10.0.0.2", {"x-forwarded-for": "203.0.113.5:5000"}, "203.0.113.5"),
    ],
)
def test_the_client_is_the_nearest_address_that_is_not_a_trusted_proxy(
    peer: str, headers: dict[str, str], client: str
) -> None:
    assert TrustedProxies(["10.0.0.0/8"]).client_of(peer, headers) == client


def test_without_a_trusted_proxy_nobody_chooses_its_own_address(tmp_path: Path) -> None:
    """X-Forwarded-For from anyone not trusted is ignored: two 'clients' naming themselves
    differently share one creation limit."""
    port = free_port()
    with served(str(tmp_path / "games.sqlite3"), port, "--create-rate", "60", "--create-burst", "2"):
        url = f"http://127.0.0.1:{port}"
        answers = [_create(url, f"203.0.113.{n}").status_code for n in range(1, 4)]
        assert answers == [201, 201, 429]


def test_behind_a_trusted_proxy_each_client_has_its_own_limits_and_links(tmp_path: Path) -> None:
    port = free_port()
    options = ("--trusted-proxy", "127.0.0.1", "--create-rate", "60", "--create-burst", "2")
    with served(str(tmp_path / "games.sqlite3"), port, *options):
        url = f"http://127.0.0.1:{port}"
        first = [_create(url, "203.0.113.1").status_code for _ in range(3)]
        other = [_create(url, "198.51.100.1, 203.0.113.2").status_code for _ in range(2)]
        assert first == [201, 201, 429] and other == [201, 201]
        refused = _create(url, "203.0.113.1").json()
        assert refused["error"] == "rate_limited"
        site = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "games.example"}
        made = _create(url, "203.0.113.9", **site).json()
        assert made["host_link"].startswith(f"https://games.example/play/{made['id']}#token=")
        # a browser page of the site may open the game's websocket through the proxy
        origin = {"Origin": "https://games.example", "X-Forwarded-For": "203.0.113.9", **site}
        with connect(f"ws://127.0.0.1:{port}/ws/games/{made['id']}", additional_headers=origin) as socket_:
            socket_.send(json.dumps({"type": "hello", "token": made["host_token"]}))
            assert json.loads(socket_.recv(timeout=10))["type"] == "welcome"


def test_websockets_are_counted_per_client_behind_a_trusted_proxy(tmp_path: Path) -> None:
    port = free_port()
    options = ("--trusted-proxy", "127.0.0.1", "--connections-per-address", "3")
    with served(str(tmp_path / "games.sqlite3"), port, *options), ExitStack() as held:
        game = _create(f"http://127.0.0.1:{port}").json()
        address = f"ws://127.0.0.1:{port}/ws/games/{game['id']}"

        def open_as(client: str) -> dict[str, str]:
            connection = held.enter_context(connect(address, additional_headers={"X-Forwarded-For": client}))
            with suppress(ConnectionClosed):  # a refused one is told why and closed at once
                connection.send(json.dumps({"type": "hello", "token": game["spectator_token"]}))
            message: dict[str, str] = json.loads(connection.recv(timeout=10))
            return message

        opened = [open_as("203.0.113.1") for _ in range(3)] + [open_as("203.0.113.2") for _ in range(3)]
        assert [message["type"] for message in opened] == ["welcome"] * 6
        assert open_as("203.0.113.1")["code"] == "too_many_connections"
        assert open_as("203.0.113.3")["type"] == "welcome"


def test_a_trusted_proxys_http_connections_are_not_counted_as_one_client(tmp_path: Path) -> None:
    """A proxy keeps many connections open to the server for all its clients: the per-address
    cap on HTTP connections does not apply to it (without trust, the third is refused)."""
    for trusted, expected in [(False, 2), (True, 5)]:
        port = free_port()
        options = ("--http-per-address", "2", *(("--trusted-proxy", "127.0.0.1") if trusted else ()))
        with served(str(tmp_path / f"games-{trusted}.sqlite3"), port, *options):
            held = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
            try:
                answered = 0
                for connection in held:
                    connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port)
                    answered += b" 200 " in connection.recv(4096)
            finally:
                for connection in held:
                    connection.close()
        assert answered == expected, (trusted, answered)


def test_rest_answers_only_to_its_own_names(tmp_path: Path) -> None:
    """A page of another site pointed at this server's address (DNS rebinding) reads nothing:
    REST refuses a Host that is not this server's, as websockets refuse such an Origin."""
    port = free_port()
    with served(str(tmp_path / "games.sqlite3"), port):
        url = f"http://127.0.0.1:{port}"
        refused = httpx.get(f"{url}/api/lobby", headers={"Host": f"evil.example:{port}"})
        assert refused.status_code == 421 and refused.json()["error"] == "wrong_host"
        assert "--public-url" in refused.json()["message"]
        assert httpx.get(f"{url}/api/lobby", headers={"Host": f"localhost:{port}"}).status_code == 200
        assert httpx.get(f"{url}/api/lobby").status_code == 200
    port = free_port()
    with served(str(tmp_path / "games.sqlite3"), port, "--public-url", f"http://games.example:{port}"):
        named = httpx.get(f"http://127.0.0.1:{port}/api/lobby", headers={"Host": f"games.example:{port}"})
        assert named.status_code == 200


def _self_signed(folder: Path) -> tuple[Path, Path]:
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [
            *("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=localhost"),
            "-addext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost",
            "-keyout",
            str(key),
            "-out",
            str(certificate),
        ],
        check=True,
        capture_output=True,
    )
    return certificate, key


def test_https_and_wss_with_a_certificate(tmp_path: Path) -> None:
    certificate, key = _self_signed(tmp_path)
    port = free_port()
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")]
    command += ["--certfile", str(certificate), "--keyfile", str(key)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert process.stdout is not None
        said = ""
        while "pardon is running" not in said:
            said = process.stdout.readline().decode()
            assert said, "the server stopped before it said where it listens"
        assert f"open https://127.0.0.1:{port} in your browser" in said
        context = ssl.create_default_context(cafile=str(certificate))
        with httpx.Client(verify=context, timeout=10) as client:
            game = client.post(f"https://127.0.0.1:{port}/api/games", json={"seats": SEATS}).json()
        assert game["host_link"].startswith(f"https://127.0.0.1:{port}/play/")
        with connect(f"wss://127.0.0.1:{port}/ws/games/{game['id']}", ssl=context) as socket_:
            socket_.send(json.dumps({"type": "hello", "token": game["host_token"]}))
            assert json.loads(socket_.recv(timeout=10))["type"] == "welcome"
    finally:
        process.kill()
        process.wait(timeout=10)


def test_a_certificate_without_its_key_or_unreadable_is_one_line(tmp_path: Path) -> None:
    certificate, key = _self_signed(tmp_path)
    database = tmp_path / "games.sqlite3"
    base = [sys.executable, "-m", "pardon", "serve", "--port", "0", "--db", str(database)]
    cases = [
        (["--certfile", str(certificate)], "--certfile and --keyfile go together"),
        (["--certfile", str(certificate), "--keyfile", str(tmp_path / "none.pem")], "no such file"),
        (["--certfile", str(key), "--keyfile", str(key)], "are not a certificate and its key"),
    ]
    for extra, words in cases:
        result = subprocess.run([*base, *extra], check=False, capture_output=True, text=True, timeout=60)
        assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert words in result.stderr
    assert not database.exists()
