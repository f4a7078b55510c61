"""``GET /metrics``: the server's numbers in Prometheus's text format, for the addresses allowed."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from web_support import Player, create, free_port, token_of, wait_until_up

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def samples(text: str) -> Samples:
    """Every sample of a scrape, by name and labels."""
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def scrape(client: TestClient) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return samples(answer.text)


def test_metrics_count_games_connections_decisions_and_refusals(make_server: Callable[..., TestClient]) -> None:
    server = make_server(metrics_from=("testclient",))
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], seed=4)
    assert server.get("/api/games/nosuchgame").status_code == 404
    with (
        server.websocket_connect(game["websocket"]) as socket,
        server.websocket_connect(game["websocket"]) as watcher_socket,
    ):
        player, watcher = Player(socket), Player(watcher_socket)
        player.hello(token_of(game, "red"))
        watcher.hello(game["spectator_token"])
        player.send_move("not a move at all")
        player.expect_error("invalid_move")
        moves = 0
        while moves < 3:
            state = player.my_turn_or_over()
            player.send_move(state["moves"][0]["move"], event=state["event"])
            player.until_event(state["event"] + 1)
            moves += 1
        player.round_trip()
        during = scrape(server)
    assert during[("pardon_connections", (("kind", "players"),))] == 1
    assert during[("pardon_connections", (("kind", "spectators"),))] == 1
    assert during[("pardon_games", (("status", "playing"),))] == 1
    assert during[("pardon_games", (("status", "waiting"),))] == 0
    # the player's three moves and the computer's between them, each stored once
    assert during[("pardon_decisions_total", ())] >= 2 * moves - 1
    assert during[("pardon_move_latency_seconds_count", ())] == moves
    assert during[("pardon_database_write_seconds_count", ())] >= 1
    assert during[("pardon_refusals_total", (("code", "invalid_move"),))] == 1
    assert during[("pardon_refusals_total", (("code", "no_game"),))] == 1
    after = scrape(server)
    assert after[("pardon_connections", (("kind", "players"),))] == 0


def test_metrics_are_nobody_s_unless_allowed(make_server: Callable[..., TestClient]) -> None:
    closed = make_server()
    assert closed.get("/metrics").status_code == 404
    allowed = make_server(metrics_from=("testclient",))
    assert allowed.get("/metrics").status_code == 200
    # a request a proxy passed on is a client's of the proxy, whatever the proxy's own address
    assert allowed.get("/metrics", headers={"X-Forwarded-For": "127.0.0.1"}).status_code == 404
    only_a_network = make_server(metrics_from=("10.0.0.0/8",))
    assert only_a_network.get("/metrics").status_code == 404


@contextmanager
def metrics_server(database: Path, port: int, **settings: object) -> Iterator[subprocess.Popen[bytes]]:
    """A real server process (server.serve, as ``pardon serve`` runs it) with ``settings``."""
    given = ", ".join(f"{name}={value!r}" for name, value in settings.items())
    script = (
        "from pardon.web.server import serve; from pardon.web.settings import Settings, sqlite_url; "
        f"serve(Settings(database=sqlite_url({str(database)!r}), bot_pace=0, {given}), '127.0.0.1', {port})"
    )
    process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
        yield process
    finally:
        process.kill()
        process.wait(timeout=10)


def test_connections_refused_before_the_application_are_counted(tmp_path: Path) -> None:
    port = free_port()
    with metrics_server(tmp_path / "games.sqlite3", port, metrics_from=("127.0.0.1",), max_http_per_address=2):
        held = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            time.sleep(0.2)  # both counted before the third comes
            with socket.create_connection(("127.0.0.1", port)) as third:
                third.settimeout(5)
                answer = third.recv(4096)
            assert b"503" in answer.split(b"\r\n")[0] and b"too_many_connections" in answer
        finally:
            for connection in held:
                connection.close()
        time.sleep(0.2)  # their places given back
        found = samples(httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).text)
    assert found[("pardon_refusals_total", (("code", "too_many_connections"),))] == 1


@pytest.mark.parametrize("allowed", [("::1",), ()])
def test_a_scrape_from_an_address_not_allowed_is_not_found(tmp_path: Path, allowed: tuple[str, ...]) -> None:
    port = free_port()
    with metrics_server(tmp_path / "games.sqlite3", port, metrics_from=allowed):
        assert httpx.get(f"http://127.0.0.1:{port}/metrics", timeout=10).status_code == 404
