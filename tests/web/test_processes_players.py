"""Several ``pardon serve`` processes on one PostgreSQL database, as a load balancer spreads
people over them: the process that created a game (its owner) need not be the one its players'
links reach.  Players play through whichever process serves them, a player connected to
another process counts as present, one who leaves is played by a computer after the takeover
time, and a computers-only game watched through another process starts."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import psycopg
import pytest
from web_support import SocketClient, free_port, served, wait_until_up
from websockets.sync.client import ClientConnection, connect

from pardon.core.game import replay
from pardon.core.notation import parse_record

pytestmark = pytest.mark.slow

Message = dict[str, Any]
TAKEOVER = "2"  # seconds away before a computer plays


def _create(port: int, seats: list[Message], seed: int) -> Message:
    game: Message = httpx.post(
        f"http://127.0.0.1:{port}/api/games", json={"seats": seats, "seed": seed}, timeout=10
    ).json()
    return game


def _socket(port: int, game: Message) -> ClientConnection:
    return connect(f"ws://127.0.0.1:{port}{game['websocket']}")


def _token(game: Message, colour: str) -> str:
    token: str = next(seat["token"] for seat in game["seats"] if seat["colour"] == colour)
    return token


def _stored(database: str, game_id: str) -> list[tuple[int, str]]:
    plain = database.replace("postgresql+psycopg://", "postgresql://", 1)
    with psycopg.connect(plain) as connection:
        query = "SELECT colour, move FROM decisions WHERE game_id = %s ORDER BY number"
        return [(int(colour), str(move)) for colour, move in connection.execute(query, (game_id,)).fetchall()]


def _until(done: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        assert time.monotonic() < deadline, "it never happened"
        time.sleep(0.05)


def _play_together(clients: list[SocketClient]) -> None:
    """Each client plays its own decisions, all at once, to the game's end."""
    failures: list[BaseException] = []

    def play(client: SocketClient) -> None:
        try:
            client.play()
        except BaseException as error:  # reported by the test, not lost in the thread
            failures.append(error)

    threads = [threading.Thread(target=play, args=(client,)) for client in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not failures, failures


def test_players_play_through_any_process_and_count_as_present_there(postgres: str) -> None:
    owner, other = free_port(), free_port()
    with served(postgres, owner, "--takeover-after", TAKEOVER), served(postgres, other, "--takeover-after", TAKEOVER):
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "greedy"}]
        game = _create(owner, seats, seed=43)  # owned by the process that created it
        colours = [seat["colour"] for seat in game["seats"]]
        with _socket(other, game) as first_link, _socket(owner, game) as second_link:
            first = SocketClient(first_link, _token(game, colours[0]))  # through the process that does not own it
            second = SocketClient(second_link, _token(game, colours[1]))
            while not first.state.get("moves"):
                first.receive()
            thinking_at = first.state["event"]
            time.sleep(2 * float(TAKEOVER))  # thinking long: connected elsewhere, so no computer plays for it
            assert len(_stored(postgres, game["id"])) == thinking_at
            _play_together([first, second])
            assert first.state["status"] == second.state["status"] == "finished"
            refused = {code for code in first.errors + second.errors if code != "rate_limited"}  # faster than people
            assert not refused
            assert first.events == second.events
            assert [event for event, _, _ in first.events] == list(range(1, len(first.events) + 1))
            movers = {colour for _, colour, _ in first.events}
            assert movers == set(colours)
        record = httpx.get(f"http://127.0.0.1:{other}/api/games/{game['id']}/record", timeout=10).text
        assert replay(parse_record(record)).is_over


def test_a_player_gone_from_another_process_is_played_by_the_owners_computer(postgres: str) -> None:
    """Red leaves the other process while Yellow, at the owner's, waits for them: the owner's
    computer plays Red's turns (with nobody waiting, the game would wait for Red)."""
    owner, other = free_port(), free_port()
    with served(postgres, owner, "--takeover-after", TAKEOVER), served(postgres, other, "--takeover-after", TAKEOVER):
        game = _create(owner, [{"kind": "human"}, {"kind": "human"}], seed=47)
        with _socket(owner, game) as waiting_link:
            waiting = SocketClient(waiting_link, _token(game, "yellow"))
            yellow = threading.Thread(target=waiting.play, kwargs={"until_event": 40}, daemon=True)
            yellow.start()
            with _socket(other, game) as link:
                player = SocketClient(link, _token(game, "red"))
                player.play(until_event=6)
                left_at = player.state["event"]  # the player's own decision, left to the computer
            _until(lambda: len(_stored(postgres, game["id"])) > left_at + 2, seconds=20)
            assert _stored(postgres, game["id"])[left_at][0] == 0  # Red's seat, played by the owner's computer
            yellow.join(timeout=60)


def test_a_computers_only_game_watched_through_another_process_starts(postgres: str) -> None:
    owner, other = free_port(), free_port()
    with served(postgres, owner), served(postgres, other):
        seats = [{"kind": "bot", "level": "greedy"}, {"kind": "bot", "level": "random"}]
        game = _create(owner, seats, seed=53)
        with _socket(other, game) as link:
            watcher = SocketClient(link, game["spectator_token"])
            while watcher.state.get("status") != "finished":
                watcher.receive()
        assert [event for event, _, _ in watcher.events] == list(range(1, len(watcher.events) + 1))
        assert len(_stored(postgres, game["id"])) == len(watcher.events)


def test_two_processes_started_together_on_an_empty_database_both_serve(postgres: str) -> None:
    """Both created the tables at once, and one failed to start (1 time in 3): now one migrates
    while the other waits, then finds the schema made."""
    ports = [free_port(), free_port()]
    command = [sys.executable, "-m", "pardon", "serve", "--db", postgres, "--port"]
    processes = [subprocess.Popen([*command, str(port)], stderr=subprocess.PIPE) for port in ports]
    try:
        for port, process in zip(ports, processes, strict=True):
            wait_until_up(f"http://127.0.0.1:{port}", process)
    finally:
        for process in processes:
            process.kill()
            process.wait(timeout=10)


def test_a_process_opening_a_game_hears_at_once_who_is_connected_to_the_others(postgres: str) -> None:
    """A process that opens a game (a new owner, after the last died) knew of the players
    connected to other processes only at their next reminder, 15 s on: meanwhile its computer
    could stand in for a player who was there.  Now it asks, and they answer at once."""
    owner, player_side, watcher_side = free_port(), free_port(), free_port()
    with served(postgres, owner), served(postgres, player_side), served(postgres, watcher_side):
        time.sleep(2)  # every process has made its first reminder: the next is 15 s away
        game = _create(owner, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=59)
        colour = game["seats"][0]["colour"]
        with _socket(player_side, game) as link, _socket(watcher_side, game) as watching:
            SocketClient(link, _token(game, colour)).until_event(0)
            time.sleep(0.5)  # the player's process has said so, before the watcher's opens the game
            watcher = SocketClient(watching, game["spectator_token"])
            deadline = time.monotonic() + 3  # well before the next reminder
            seats: list[Message] = []
            while not any(seat["colour"] == colour and seat["connected"] for seat in seats):
                assert time.monotonic() < deadline, "the watcher's process never heard the player was there"
                message = watcher.receive()  # its sync, then any presence: who is here, as its process knows
                seats = message.get("seats", []) if message["type"] == "presence" else watcher.state.get("seats", [])
