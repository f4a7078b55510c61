"""REST reads are limited per client address, and a finished game's record and replay are made
once and kept (issue 43, item 2): one address fetching replays in a loop cannot take the
server's time from everyone's games."""

from __future__ import annotations

import threading
from collections.abc import Callable

from fastapi.testclient import TestClient
from web_support import create, finished_game


def test_reads_past_the_burst_are_refused_429_with_retry_after(make_server: Callable[..., TestClient]) -> None:
    server = make_server(read_rate=6.0, read_burst=3)
    assert [server.get("/api/levels").status_code for _ in range(3)] == [200] * 3
    refused = server.get("/api/presets")
    assert refused.status_code == 429
    assert refused.json()["error"] == "rate_limited" and set(refused.json()) == {"error", "message"}
    assert 1 <= int(refused.headers["Retry-After"]) <= 10  # a read comes back every 10 s at 6 a minute
    assert server.head("/api/levels").status_code == 429  # HEAD is a read too
    assert server.get("/").status_code == 200  # pages and static files are not counted
    assert server.get("/healthz").status_code == 200
    made = server.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "bot"}]})
    assert made.status_code == 201  # writes have limits of their own


def test_the_default_limit_lets_a_page_poll_for_ever(server: TestClient) -> None:
    """The home page polls a game's seats every 1.5 s, the lobby every 3 s: far under the default."""
    game = create(server, [{"kind": "human"}, {"kind": "bot"}])
    assert all(server.get(f"/api/games/{game['id']}").status_code == 200 for _ in range(100))


def test_a_finished_games_record_and_replay_are_made_once(make_server: Callable[..., TestClient]) -> None:
    server = make_server()
    game_id = finished_game(server)
    kept = server.app.state.finished  # type: ignore[attr-defined]
    answers: list[tuple[int, bytes]] = []

    def read(what: str) -> None:
        answer = server.get(f"/api/games/{game_id}/{what}")
        answers.append((answer.status_code, answer.content))

    readers = [threading.Thread(target=read, args=(what,)) for what in ("replay", "record") * 4]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(60)
    assert kept.made == 2  # eight readers at once, one replay and one record made
    replays = {content for status, content in answers if content.startswith(b"{")}
    assert all(status == 200 for status, _ in answers) and len(replays) == 1
    assert server.get(f"/api/games/{game_id}/replay").json()["id"] == game_id and kept.made == 2


def test_an_unfinished_or_unknown_game_is_not_kept(make_server: Callable[..., TestClient]) -> None:
    server = make_server()
    game = create(server, [{"kind": "human"}, {"kind": "bot"}])
    for _ in range(2):
        assert server.get(f"/api/games/{game['id']}/replay").status_code == 409
        assert server.get(f"/api/games/{game['id']}/record").status_code == 409
        assert server.get("/api/games/nosuchgame/replay").status_code == 404
    assert server.app.state.finished.made == 0  # type: ignore[attr-defined]
