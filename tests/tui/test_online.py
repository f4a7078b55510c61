"""Joining a real ``pardon serve`` on loopback with an invite link and playing one seat of an online
game by keys, through the same websocket protocol as the browser (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tui_support import Terminal, play_by_keys, screen_text, until

from pardon.core.errors import InvalidError
from pardon.core.game import replay
from pardon.core.notation import parse_record
from pardon.tui.app import PardonApp
from pardon.tui.online import OnlineTable, parse_invite
from pardon.tui.table import FINISHED

pytest.importorskip("websockets")
pytest.importorskip("fastapi")  # pardon serve needs the web extra


class Server:
    """A ``pardon serve`` process on a free loopback port, with its own SQLite file."""

    def __init__(self, database: Path) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = str(probe.getsockname()[1])
        self.url = f"http://127.0.0.1:{port}"
        command = [sys.executable, "-m", "pardon", "serve", "--port", port, "--db", str(database)]
        command += ["--bot-pace", "0", "--create-rate", "0", "--join-rate", "0"]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ)
        self._wait_until_up()

    def _wait_until_up(self, seconds: float = 30.0) -> None:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"pardon serve exited with {self.process.returncode}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"pardon serve did not answer at {self.url} within {seconds} s")

    def rest(self, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            text = answer.read().decode()
            return json.loads(text) if answer.headers.get_content_type() == "application/json" else text

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("serve") / "games.sqlite3")
    yield running
    running.stop()


#: rules, the seats, and whose link this screen joins with: the first seat's, or the host's
GAMES = [
    ("classic", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seat"),
    ("adult", [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], "seat"),
    ("classic(pawns=3)", [{"kind": "hotseat", "name": "Ann"}, {"kind": "hotseat", "name": "Bob"}], "host"),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "seats", "link"), GAMES, ids=["classic", "hands-of-five", "hot-seat"])
def test_one_seat_of_an_online_game_played_by_keys_to_the_end(
    server: Server, rules: str, seats: list[dict[str, str]], link: str, tmp_path: Path
) -> None:
    created = server.rest("/api/games", {"rules": rules, "seed": 5, "hints": True, "seats": seats})
    link = created["seats"][0]["link"] if link == "seat" else created["host_link"]
    record = tmp_path / "online.txt"

    async def scenario() -> None:
        app = PardonApp(OnlineTable(parse_invite(link)), record)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.picker is not None)
            assert ": your turn" in screen_text(app) or ": to play" in screen_text(app)
            await pilot.press("h")  # a hint, ranked by the server, with its reason when it has one
            await until(pilot, lambda: app.info.startswith("Hint"))
            assert ("Why: " in app.info) == bool(app.table.hint_reason)
            pressed = await play_by_keys(pilot, app)
            assert pressed > 10
            await until(pilot, record.exists)
            assert app.view_now.status == FINISHED and "wins!" in screen_text(app)

    asyncio.run(scenario())
    game = server.rest(f"/api/games/{created['id']}")
    assert game["status"] == "finished"
    kept = server.rest(f"/api/games/{created['id']}/record")
    assert record.read_text() == kept
    assert replay(parse_record(kept)).winner is not None


def test_pardon_tui_join_opens_the_seat_in_a_terminal(server: Server, tmp_path: Path) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    created = server.rest("/api/games", {"rules": "classic", "seats": seats})
    terminal = Terminal(["tui", "--join", created["seats"][0]["link"]], cwd=tmp_path)
    terminal.read_until(b"your turn")  # the server's state has come: Red's decision
    terminal.type("q")  # left by mistake, it left at once and said nothing at all
    terminal.read_until(b"not over")
    terminal.type("q")
    said = terminal.read_until(b"pardon tui --join")  # the game goes on, and how to come back
    assert b"You left the game" in said
    assert terminal.finish() == 0


def test_pardon_tui_join_with_a_token_that_opens_nothing_is_one_line(server: Server) -> None:
    """It opened a screen with a made-up empty board, and q left it with status 0."""
    created = server.rest("/api/games", {"rules": "classic", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    link = created["seats"][0]["link"].split("#")[0] + "#token=not-a-token"
    result = subprocess.run(
        [sys.executable, "-m", "pardon", "tui", "--join", link], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 2, result
    assert result.stderr.startswith(f"pardon tui: the link does not open game {created['id']}: ")
    assert result.stderr.count("\n") == 1


def test_the_moves_caught_up_after_a_reconnect_are_logged_in_words(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = server.rest("/api/games", {"rules": "classic", "seed": 3, "seats": seats})
    red, yellow = (parse_invite(seat["link"]) for seat in created["seats"])

    async def scenario() -> None:
        tables = {colour: OnlineTable(invite) for colour, invite in (("red", red), ("yellow", yellow))}
        tasks = [asyncio.create_task(table.run(lambda: None)) for table in tables.values()]
        for _ in range(6):  # six decisions, whoever's they are
            deciding = await asyncio.wait_for(_first_to_decide(list(tables.values())), 30)
            await deciding.choose(deciding.view().choices[0])
            await asyncio.sleep(0.1)
        caught_up = OnlineTable(red)  # Red back: everything so far comes in one sync
        tasks.append(asyncio.create_task(caught_up.run(lambda: None)))
        while caught_up.event < 6:
            await asyncio.sleep(0.02)
        log = caught_up.view().log
        assert log[0].startswith("Leader draw: "), log  # as a local game's log begins
        log = log[1:]
        assert len(log) >= 6 and all(line.startswith(("Red ", "Yellow ")) for line in log), log
        assert not any(line.startswith(("Red: ", "Yellow: ")) for line in log), log  # not in notation
        for table in [*tables.values(), caught_up]:
            await table.close()
        for task in tasks:
            task.cancel()

    asyncio.run(scenario())


async def _first_to_decide(tables: list[OnlineTable]) -> OnlineTable:
    while True:
        for table in tables:
            if table.view().choices:
                return table
        await asyncio.sleep(0.02)


def test_a_player_named_only_by_colour_is_not_named_twice(server: Server) -> None:
    # the server names a seat without a name by its colour: the screen said "Blue  Blue"
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = server.rest("/api/games", {"rules": "classic", "seed": 3, "seats": seats})

    async def scenario() -> None:
        app = PardonApp(OnlineTable(parse_invite(created["seats"][1]["link"])), None)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: "player" in screen_text(app).splitlines()[0])
            title = screen_text(app).splitlines()[0]
            assert " Red  player, not here " in title and "Red  Red" not in title

    asyncio.run(scenario())


def test_pardon_tui_join_says_when_the_game_is_not_there(server: Server) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "pardon", "tui", "--join", f"{server.url}/play/nosuchgame#token=x"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2 and result.stderr == f"pardon tui: there is no game nosuchgame at {server.url}\n"


def test_a_token_that_opens_no_seat_is_told_and_nothing_is_played(server: Server) -> None:
    created = server.rest("/api/games", {"rules": "classic", "seats": [{"kind": "human"}, {"kind": "bot"}]})
    link = created["seats"][0]["link"].split("#")[0] + "#token=not-a-token"

    async def scenario() -> None:
        app = PardonApp(OnlineTable(parse_invite(link)))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "token" in app.view_now.note)
            assert app.picker is None

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("link", "says"),
    [
        ("pardon.example/play/abc#token=x", "expected an invite link"),
        ("http://127.0.0.1:8000/lobby", "no /play/GAME"),
        ("http://127.0.0.1:8000/play/abc", "no #token="),
    ],
)
def test_a_link_that_is_not_an_invite_is_refused_saying_why(link: str, says: str) -> None:
    with pytest.raises(InvalidError, match=says):
        parse_invite(link)


def test_an_invite_names_the_websocket_of_its_game() -> None:
    invite = parse_invite("https://games.example/pardon/play/k3Jd9aQ2x1Zp#token=Qm9x")
    assert invite.websocket == "wss://games.example/pardon/ws/games/k3Jd9aQ2x1Zp"
    assert (invite.game, invite.token) == ("k3Jd9aQ2x1Zp", "Qm9x")


def test_a_player_who_leaves_is_shown_not_here_at_once(server: Server) -> None:
    """The screen ignored the server's presence messages: "not here" was stale until the next move."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = server.rest("/api/games", {"rules": "classic", "seed": 3, "seats": seats})
    red = OnlineTable(parse_invite(created["seats"][0]["link"]))

    async def scenario() -> None:
        app = PardonApp(OnlineTable(parse_invite(created["seats"][1]["link"])), None)
        async with app.run_test(size=(100, 30)) as pilot:
            task = asyncio.create_task(red.run(lambda: None))
            await until(pilot, lambda: app.view_now.status == "playing")
            event = app.view_now.event
            assert "not here" not in screen_text(app).splitlines()[0]
            await red.close()  # Red's window closed: only a presence message says so
            await until(pilot, lambda: "Red  player, not here" in screen_text(app).splitlines()[0], seconds=10)
            assert app.view_now.event == event  # no move came meanwhile
            task.cancel()

    asyncio.run(scenario())


def test_a_lost_connection_is_in_view_while_another_player_moves(tmp_path: Path) -> None:
    """Only the player with choices saw the retry note: for 13 s it read "Blue (player) is playing…"."""
    own = Server(tmp_path / "games.sqlite3")
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = own.rest("/api/games", {"rules": "classic", "seed": 3, "seats": seats})
    other = OnlineTable(parse_invite(created["seats"][1]["link"]))

    async def scenario() -> None:
        app = PardonApp(OnlineTable(parse_invite(created["seats"][0]["link"])), None)
        async with app.run_test(size=(80, 24)) as pilot:
            task = asyncio.create_task(other.run(lambda: None))
            await until(pilot, lambda: app.view_now.status == "playing")
            if app.picker is not None:  # Red's turn first: Red plays, so that Yellow is to move
                await pilot.press("1")
                await until(pilot, lambda: app.view_now.decider != 0 or app.view_now.choices == (), seconds=10)
            assert " online " in screen_text(app).splitlines()[0]
            await asyncio.to_thread(own.stop)
            await until(pilot, lambda: "Connection to" in screen_text(app), seconds=10)
            screen = screen_text(app)
            assert " offline " in screen.splitlines()[0] and "is playing" in screen
            await other.close()
            task.cancel()

    try:
        asyncio.run(scenario())
    finally:
        own.stop()


def test_a_spectator_is_told_and_a_game_without_hints_offers_none(server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    created = server.rest("/api/games", {"rules": "classic", "seed": 3, "hints": False, "seats": seats})

    async def scenario() -> None:
        watching = PardonApp(OnlineTable(parse_invite(created["spectator_link"])), None)
        async with watching.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: watching.table.role == "spectator")  # type: ignore[attr-defined]
            await until(pilot, lambda: "You are watching" in screen_text(watching))
            assert " watching online " in screen_text(watching).splitlines()[0]
        playing = PardonApp(OnlineTable(parse_invite(created["seats"][0]["link"]), hints=False), None)
        async with playing.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: playing.picker is not None)
            assert "h hint" not in screen_text(playing).splitlines()[-1]
            await pilot.press("h")
            assert "without hints" in playing.info

    asyncio.run(scenario())


def test_a_finished_game_opened_again_keeps_its_one_record(server: Server, tmp_path: Path) -> None:
    """Each time it was opened again it wrote pardon-GAME-2.txt, -3, ..."""
    seats = [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    created = server.rest("/api/games", {"rules": "classic", "seed": 3, "seats": seats})
    link = created["spectator_link"]
    for _ in range(2):
        terminal = Terminal(["tui", "--join", link], cwd=tmp_path)
        terminal.read_until(b"Record saved", seconds=60)
        terminal.type("q")
        assert terminal.finish() == 0
    assert [path.name for path in tmp_path.iterdir()] == [f"pardon-{created['id']}.txt"]


def test_moves_the_computer_made_for_an_absent_player_are_marked() -> None:
    table = OnlineTable(parse_invite("http://127.0.0.1:1/play/g#token=t"))
    seats = [
        {"colour": "red", "kind": "human", "computer_playing": False},
        {"colour": "blue", "kind": "human", "computer_playing": True},
    ]

    def state(event: int, colour: str, text: str) -> dict[str, Any]:
        return {"event": event, "seats": seats, "last": {"colour": colour, "text": text}}

    table._receive({"type": "welcome", "role": "player", "seats": ["red"]})
    table._receive({"type": "sync", "events": [], "state": state(0, "red", "")})
    table._receive({"type": "event", "decision": {"colour": "blue", "move": "1 S1-4"}, "state": state(1, "blue", "B")})
    assert table._log[-1] == "B (the computer, while they are away)"
    missed = [{"event": 2, "colour": "red", "move": "2 S1-5", "text": "R"}]  # Red's screen was away
    table._receive({"type": "sync", "events": missed, "state": state(2, "red", "R")})
    assert table._log[-1] == "R (the computer, while you were away)"
