"""Whole games over real websockets: a human against computers, two humans, hot-seat."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_support import Player, create, last_move, play_to_end, token_of

from pardon.core.game import replay
from pardon.core.notation import parse_record


def test_human_against_computers_to_the_end(server: TestClient) -> None:
    game = create(
        server,
        [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "greedy"}],
        seed=11,
    )
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        welcome = player.hello(token_of(game, "red"))
        assert welcome["role"] == "player" and welcome["seats"] == ["red"]
        final = play_to_end(player)
    assert final["status"] == "finished" and final["winner"] in ("red", "blue", "yellow")
    assert [number for number, _, _ in player.decisions] == list(range(1, final["event"] + 1))
    record = server.get(f"/api/games/{game['id']}/record")
    assert record.status_code == 200
    replayed = replay(parse_record(record.text))
    assert replayed.is_over and ("red", "blue", "yellow")[(0, 1, 2).index(replayed.winner or 0)] == final["winner"]
