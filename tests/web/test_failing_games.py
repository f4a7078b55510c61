"""A failure in one game's decision path stays in that game: a stored decision that does not
replay (written straight into the database), a computer player that raises, a database that
refuses a computer's moves.  The game is logged with its id and answered ``server_error``,
or goes on; the server and every other game go on."""

from __future__ import annotations

import logging
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from web_support import Player, create, first_move, play_to_end, token_of

from pardon.web.app import create_app
from pardon.web.settings import Settings
from pardon.web.storage import make_engine

Message = dict[str, Any]


@contextmanager
def running(database: str, **options: Any) -> Iterator[TestClient]:
    """The app on ``database`` from start to stop (computers at once)."""
    settings = Settings(database=database, bot_pace=0.0, takeover_after=3600.0, rate=10_000.0, burst=10_000, **options)
    with TestClient(create_app(settings)) as client:
        yield client


def sql(database: str, statement: str, **values: Any) -> None:
    """Change the database behind the server's back."""
    engine = make_engine(database)
    try:
        with engine.begin() as connection:
            connection.execute(text(statement), values)
    finally:
        engine.dispose()


def _human_against_computer(server: TestClient, seed: int) -> Message:
    return create(server, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=seed)


def _plays_to_the_end(server: TestClient, game: Message) -> None:
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        assert play_to_end(player)["status"] == "finished"


def test_a_stored_game_that_does_not_replay_is_set_aside_when_loaded(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    with running(database) as server:
        broken, healthy = _human_against_computer(server, 3), _human_against_computer(server, 4)
        with server.websocket_connect(broken["websocket"]) as socket:
            player = Player(socket)
            player.hello(token_of(broken, "red"))
            play_to_end(player, stop_at=6)
            event = player.state["event"]
    sql(
        database,
        "INSERT INTO decisions (game_id, number, colour, move) VALUES (:game, :number, 0, 'not a move')",
        game=broken["id"],
        number=event + 1,
    )
    with caplog.at_level(logging.ERROR, logger="pardon.web"), running(database) as server:  # it starts all the same
        assert any(broken["id"] in record.getMessage() for record in caplog.records)
        summary = server.get(f"/api/games/{broken['id']}")  # described from the database
        assert summary.status_code == 200 and summary.json()["event"] == event + 1
        record = server.get(f"/api/games/{broken['id']}/record")
        assert record.status_code == 500 and record.json()["error"] == "server_error"
        with server.websocket_connect(broken["websocket"]) as socket:  # a clear error, then closed
            refusal = socket.receive_json()
            assert refusal["type"] == "error" and refusal["code"] == "server_error"
            assert "cannot be loaded" in refusal["message"]
            assert socket.receive()["code"] == 1011
        _plays_to_the_end(server, healthy)  # every other game goes on


def test_a_decision_that_does_not_replay_stops_only_its_game(database: str, caplog: pytest.LogCaptureFixture) -> None:
    with running(database) as server:
        broken, healthy = _human_against_computer(server, 5), _human_against_computer(server, 6)
        with server.websocket_connect(broken["websocket"]) as socket:
            player = Player(socket)
            player.hello(token_of(broken, "red"))
            state = play_to_end(player, stop_at=4)
            sql(  # another writer has stored Red's decision: one that does not replay
                database,
                "INSERT INTO decisions (game_id, number, colour, move) VALUES (:game, :number, 0, 'not a move')",
                game=broken["id"],
                number=state["event"] + 1,
            )
            with caplog.at_level(logging.ERROR, logger="pardon.web"):
                player.send_move(first_move(state), event=state["event"])
                told = player.until(lambda message: message["type"] == "error")
            assert told["code"] == "server_error" and "cannot go on" in told["message"]
            assert any(broken["id"] in record.getMessage() for record in caplog.records)
            player.send_move(first_move(state), event=state["event"])  # every later command: the same answer
            assert player.until(lambda message: message["type"] == "error")["code"] == "server_error"
        with server.websocket_connect(broken["websocket"]) as socket:
            refusal = socket.receive_json()
            assert refusal["code"] == "server_error" and socket.receive()["code"] == 1011
        assert server.get(f"/api/games/{broken['id']}").status_code == 200
        _plays_to_the_end(server, healthy)


def test_a_failing_computer_player_plays_the_first_move_and_the_game_goes_on(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    with running(database) as server:
        game = _human_against_computer(server, 7)
    sql(database, "UPDATE seats SET level = 'grandmaster' WHERE game_id = :game AND colour = 2", game=game["id"])
    with caplog.at_level(logging.ERROR, logger="pardon.web"), running(database) as server:
        _plays_to_the_end(server, game)
    failures = [record for record in caplog.records if "'grandmaster' failed" in record.getMessage()]
    assert failures and all(game["id"] in record.getMessage() for record in failures)


def _refuse_decisions(database: str, game_id: str) -> None:
    """A database that refuses to store this game's decisions (a trigger)."""
    if database.startswith("sqlite"):
        sql(
            database,
            f"CREATE TRIGGER refuse BEFORE INSERT ON decisions WHEN NEW.game_id = '{game_id}' "
            "BEGIN SELECT RAISE(FAIL, 'refused'); END",
        )
        return
    sql(database, "CREATE FUNCTION refuse() RETURNS trigger AS $$ BEGIN RAISE 'refused'; END $$ LANGUAGE plpgsql")
    sql(
        database,
        f"CREATE TRIGGER refuse BEFORE INSERT ON decisions FOR EACH ROW WHEN (NEW.game_id = '{game_id}') "
        "EXECUTE FUNCTION refuse()",
    )


def _accept_decisions(database: str) -> None:
    sql(database, "DROP TRIGGER refuse" if database.startswith("sqlite") else "DROP TRIGGER refuse ON decisions")


def test_a_refused_computer_move_is_tried_again_later_and_later(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    with running(database) as server:
        game = create(server, [{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}], seed=8)
        _refuse_decisions(database, game["id"])
        with (
            caplog.at_level(logging.WARNING, logger="pardon.web"),
            server.websocket_connect(game["websocket"]) as socket,
        ):
            watcher = Player(socket)
            watcher.hello(game["spectator_token"])  # the game starts: its computers try, and are refused
            time.sleep(2.0)
            refused = [record for record in caplog.records if "computer move refused" in record.getMessage()]
            assert 2 <= len(refused) <= 6, len(refused)  # 0.1, 0.2, 0.4, 0.8 s apart: not at once, again and again
            assert all(game["id"] in record.getMessage() for record in refused)
            _accept_decisions(database)
            final = watcher.until(lambda message: message.get("state", {}).get("status") == "finished")
    assert final["state"]["winner"] in ("red", "yellow")


def test_an_unexpected_error_is_answered_and_its_traceback_logged_once(
    database: str, caplog: pytest.LogCaptureFixture
) -> None:
    """uvicorn logs the traceback of an error Starlette raises again after the answer; the app's own
    line names the request only (the traceback was printed twice)."""
    app = create_app(Settings(database=database))

    def broken() -> None:
        raise ZeroDivisionError("a bug")

    app.add_api_route("/api/broken", broken)
    with caplog.at_level(logging.ERROR, logger="pardon.web"), TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/api/broken")
    assert answer.status_code == 500
    assert answer.json() == {"error": "server_error", "message": "something went wrong"}
    [line] = [record for record in caplog.records if record.name.startswith("pardon")]
    assert line.getMessage() == "GET /api/broken failed: ZeroDivisionError" and line.exc_info is None


def test_a_database_file_deleted_under_the_server_fails_the_health_check(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The server goes on writing to a SQLite file deleted under it, and a restart makes a new empty
    one: every game since is lost. An uptime check now hears of it (it was told "ok")."""
    path = tmp_path / "games.sqlite3"
    app = create_app(Settings(database=f"sqlite:///{path}"))
    with caplog.at_level(logging.ERROR, logger="pardon.web"), TestClient(app) as client:
        assert client.get("/healthz").json() == {"status": "ok"}
        path.unlink()
        for _ in range(3):
            answer = client.get("/healthz")
            assert answer.status_code == 503 and answer.json()["status"] == "failing"
            assert f"the database file {path} is gone" in answer.json()["problem"]
            assert client.head("/healthz").status_code == 503
        said = [record.getMessage() for record in caplog.records if "is gone" in record.getMessage()]
        assert len(said) == 1  # logged once, not at every check
        path.write_bytes(b"")  # another file in its place is not the server's database either
        assert "was replaced" in client.get("/healthz").json()["problem"]


def test_a_request_the_database_refuses_is_answered_503_and_logged_in_one_line(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Another program holding the SQLite file's write lock (or a full disk): the game's creation
    was answered 500 "something went wrong", with a traceback per request and nothing that said why."""
    path = tmp_path / "games.sqlite3"
    seats = [{"kind": "human"}, {"kind": "bot"}]
    with running(f"sqlite:///{path}") as client:
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # as a program writing to the file would
        try:
            answer = client.post("/api/games", json={"seats": seats})
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
        assert answer.json() == {
            "error": "database_unavailable",
            "message": "the database cannot be used just now; nothing changed: try again in a moment",
        }
        said = [record for record in caplog.records if "the database refused it" in record.getMessage()]
        assert len(said) == 1 and said[0].exc_info is None
        assert "POST /api/games: the database refused it: database is locked" in said[0].getMessage()
        assert client.get("/api/lobby").status_code == 200
        assert client.post("/api/games", json={"seats": seats}).status_code == 201  # the lock gone, as ever


def test_the_health_check_hears_of_moves_the_database_refuses_to_store(tmp_path: Path) -> None:
    """Reads still answered while every write failed (a locked file, a full disk): the health
    check said ok, so an uptime check never heard of it."""
    path = tmp_path / "games.sqlite3"
    with running(f"sqlite:///{path}") as client:
        game = create(client, [{"kind": "hotseat"}, {"kind": "hotseat"}], seed=3)
        with client.websocket_connect(game["websocket"]) as socket:
            player = Player(socket)
            player.hello(game["host_token"])
            state = player.my_turn_or_over()
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")  # another program writing to the file
            try:
                player.send_move(first_move(state), event=state["event"], seat=state["decider"])
                refused = player.until(lambda message: message["type"] == "error")
                assert refused["code"] == "server_error"
                health = client.get("/healthz")
                assert health.status_code == 503
                assert health.json()["problem"] == "the database refuses to store moves: database is locked"
            finally:
                holder.execute("ROLLBACK")
                holder.close()
            player.send_move(first_move(state), event=state["event"], seat=state["decider"])
            player.until(lambda message: message["type"] == "event")
            assert client.get("/healthz").json() == {"status": "ok"}  # a move stored again: all well
