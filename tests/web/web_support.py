"""Helpers for the server tests: create games, and play them as a client would."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx
from fastapi.testclient import TestClient
from websockets.sync.client import ClientConnection

Message = dict[str, Any]
Result = TypeVar("Result")
STATE_CARRIERS = ("sync", "event", "state")


def create(client: TestClient, seats: list[Message], **options: Any) -> Message:
    response = client.post("/api/games", json={"seats": seats, **options})
    assert response.status_code == 201, response.text
    body: Message = response.json()
    return body


def token_of(game: Message, colour: str) -> str:
    return next(seat["token"] for seat in game["seats"] if seat["colour"] == colour)


class Player:
    """One websocket client: says hello, remembers the latest state it was sent."""

    def __init__(self, socket: Any):
        self.socket = socket
        self.state: Message = {}
        self.seen = 0
        self.decisions: list[tuple[int, str, str]] = []
        self.errors: list[Message] = []

    def hello(self, token: str | None, since: int = 0) -> Message:
        self.socket.send_json({"type": "hello", "token": token, "since": since} if token else {"type": "hello"})
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome
        self.until(lambda message: message["type"] == "sync")
        return welcome

    def receive(self) -> Message:
        message: Message = self.socket.receive_json()
        kind = message["type"]
        if kind == "sync":
            for item in message["events"]:
                self.decisions.append((item["event"], item["colour"], item["move"]))
        if kind == "event":
            self.decisions.append((message["event"], message["decision"]["colour"], message["decision"]["move"]))
        if kind in STATE_CARRIERS:
            self.state = message["state"]
            self.seen = self.state["event"]
        if kind == "error":
            self.errors.append(message)
        return message

    def until(self, wanted: Callable[[Message], bool]) -> Message:
        for _ in range(100_000):
            message = self.receive()
            if wanted(message):
                return message
        raise AssertionError("the awaited message never came")

    def my_turn_or_over(self) -> Message:
        """Read until this client has moves to choose from, or the game is over."""
        while not (self.state.get("moves") or self.state.get("status") == "finished"):
            self.receive()
        return self.state

    def until_event(self, event: int) -> Message:
        """Read until the broadcast of decision ``event``."""
        return self.until(lambda message: message["type"] == "event" and message["event"] == event)

    def send_move(self, move: str, event: int | None = None, **extra: Any) -> None:
        self.socket.send_json({"type": "move", "move": move, "event": self.seen if event is None else event, **extra})

    def expect_error(self, code: str) -> Message:
        message = self.until(lambda message: message["type"] == "error")
        assert message["code"] == code, message
        return message

    def round_trip(self) -> Message:
        """A ping answered: everything sent before it has been handled."""
        self.socket.send_json({"type": "ping"})
        return self.until(lambda message: message["type"] == "pong")


def first_move(state: Message) -> str:
    move: str = state["moves"][0]["move"]
    return move


def last_move(state: Message) -> str:
    move: str = state["moves"][-1]["move"]
    return move


def play_to_end(player: Player, choose: Callable[[Message], str] = first_move, stop_at: int | None = None) -> Message:
    """Play every decision of this client's seats until the game ends (or event ``stop_at``)."""
    while True:
        state = player.my_turn_or_over()
        if state["status"] == "finished" or (stop_at is not None and state["event"] >= stop_at):
            return state
        player.send_move(choose(state), event=state["event"])
        player.receive()


def finished_game(client: TestClient, seed: int = 3) -> str:
    """The id of a game played to its end: a human seat, its first legal move each turn, against ``greedy``."""
    game = create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=seed)
    with client.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        assert play_to_end(player)["status"] == "finished"
    return str(game["id"])


def post_at_once(url: str, clients: int, **request: Any) -> list[httpx.Response]:
    """``clients`` POSTs of ``url`` (``json=``, ``headers=`` as httpx takes them), sent together
    from as many threads: the requests of a race."""
    start = threading.Barrier(clients)
    answers: list[httpx.Response] = []

    def send() -> None:
        with httpx.Client(timeout=30) as client:
            start.wait()
            answers.append(client.post(url, **request))

    threads = [threading.Thread(target=send) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def run_coroutine(coroutine: Coroutine[Any, Any, Result]) -> Result:
    """``asyncio.run(coroutine)`` in a thread of its own: the browser tests' Playwright keeps an
    event loop running in the main thread of the worker they ran on, where ``asyncio.run`` is refused."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 30.0) -> None:
    """Wait until the ``pardon serve`` at ``url`` answers; fail at once if it exits."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"pardon serve exited with {process.returncode}")
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.1)
    raise RuntimeError(f"pardon serve did not answer at {url} within {seconds} s")


@contextmanager
def served(database: str, port: int, *options: str, log: Path | None = None) -> Iterator[subprocess.Popen[bytes]]:
    """A real ``pardon serve`` process on loopback (computers at once), up until the block ends;
    what it prints is kept in ``log``, if given."""
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--db", database, "--bot-pace", "0"]
    with log.open("wb") if log is not None else open(os.devnull, "wb") as sink:
        process = subprocess.Popen([*command, *options], stdout=sink, stderr=subprocess.STDOUT)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
        yield process
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(timeout=10)


class SocketClient:
    """A client over a real websocket (a server process of its own); as a player it plays the first
    legal move of each of its decisions."""

    def __init__(self, connection: ClientConnection, token: str, since: int = 0):
        self.connection = connection
        self.connection.send(json.dumps({"type": "hello", "token": token, "since": since}))
        self.events: list[tuple[int, str, str]] = []
        self.errors: list[str] = []
        self.state: Message = {}

    def receive(self) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=20))
        if message["type"] == "sync":
            self.events += [(item["event"], item["colour"], item["move"]) for item in message["events"]]
        if message["type"] == "event":
            self.events.append((message["event"], message["decision"]["colour"], message["decision"]["move"]))
        if message["type"] in ("sync", "event", "state"):
            self.state = message["state"]
        if message["type"] == "error":
            self.errors.append(message["code"])
        return message

    def play(self, until_event: int | None = None) -> None:
        while True:
            while not (self.state.get("moves") or self.state.get("status") == "finished"):
                self.receive()
            if self.state["status"] == "finished" or (until_event and self.state["event"] >= until_event):
                return
            self.send_move(self.state["moves"][0]["move"])
            answer = self.receive()
            while answer["type"] not in ("event", "error", "state", "sync"):  # presence, say: not the answer
                answer = self.receive()
            if answer.get("code") == "rate_limited":  # faster than a person: wait as asked
                time.sleep(0.2)

    def send_move(self, move: str) -> None:
        self.connection.send(json.dumps({"type": "move", "move": move, "event": self.state["event"]}))

    def until_event(self, event: int) -> None:
        while self.state.get("event", -1) < event:
            self.receive()


@dataclass
class ServedProcess:
    """A real ``pardon serve``: where it listens, and what it wrote to standard error."""

    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


Served = TypeVar("Served", bound=ServedProcess)


@contextmanager
def serving_process(kind: type[Served], command: list[str], port: int, log: Path) -> Iterator[Served]:
    """Run ``command`` (a ``pardon serve`` on ``port``), its standard error kept in ``log``,
    until the block ends."""
    with log.open("wb") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        wait_until_up(f"http://127.0.0.1:{port}", process)
        yield kind(port, log)
    finally:
        process.kill()
        process.wait(timeout=10)
