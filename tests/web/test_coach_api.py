"""The coach for a finished game: ``GET /api/games/{id}/analysis``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_support import Player, create, play_to_end, token_of

from pardon.bots.coach import analyse
from pardon.core.notation import parse_record
from pardon.web.coach_api import ANALYSES_WAITING, AnalysisCache, GameAnalysis

COLOURS = {"red", "blue", "yellow", "green"}
HAND_SEED = 1  # a deal where a better move plays another card of the hand


def human_against_a_computer(server: TestClient, seed: int = 3) -> dict[str, Any]:
    """Red a human who always plays the first legal move, Yellow a computer; played to the end."""
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=seed)
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        assert play_to_end(player)["status"] == "finished"
    return game


def analysis_of(server: TestClient, game_id: str) -> dict[str, Any]:
    answer = server.get(f"/api/games/{game_id}/analysis")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    GameAnalysis.model_validate(body)  # as the schema says
    return body


def test_a_finished_game_is_analysed_for_its_human_seat_only(server: TestClient) -> None:
    game = human_against_a_computer(server)
    body = analysis_of(server, game["id"])
    assert body["id"] == game["id"] and body["rules"] == "classic"
    assert body["seats"] == ["red", "yellow"] and body["coached"] == ["red"] and body["level"] == "expert"
    assert body["winner"] in ("red", "yellow")
    decisions = body["decisions"]
    record = parse_record(server.get(f"/api/games/{game['id']}/record").text)
    assert len(decisions) == len(record.moves)
    assert [decision["decision"] for decision in decisions] == list(range(1, len(decisions) + 1))
    turns = [decision["turn"] for decision in decisions]
    assert turns[0] == 1 and turns == sorted(turns)
    for decision in decisions:
        assert set(decision["chances"]) == {"red", "yellow"}
        assert all(0 <= chance <= 1 for chance in decision["chances"].values())
        assert abs(sum(decision["chances"].values()) - 1) < 0.01
        if decision["best_chance"] is not None:  # judged: the human's decisions with a choice only
            assert decision["colour"] == "red" and decision["choices"] > 1
            assert 0 <= decision["played_chance"] <= 1 and 0 <= decision["best_chance"] <= 1
            assert decision["loss"] >= 0
    assert any(decision["best_chance"] is not None for decision in decisions)
    assert not any(decision["colour"] == "yellow" and decision["best"] for decision in decisions)
    mistakes = body["mistakes"]
    assert 1 <= len(mistakes) <= 3, "always the first legal move: some cost the game"
    assert [mistake["loss"] for mistake in mistakes] == sorted((mistake["loss"] for mistake in mistakes), reverse=True)
    for mistake in mistakes:
        assert mistake["colour"] == "red" and mistake["loss"] > 0 and mistake["played"] != mistake["better"]
        assert mistake["reason"] and mistake["better_text"].startswith("Red plays")
        assert mistake["position"]["turn"] == "red"
        assert mistake["better_move"]["actions"] and "text" in mistake["played_move"]
        judged = decisions[mistake["decision"] - 1]
        assert (judged["move"], judged["best"]) == (mistake["played"], mistake["better"])
    # the same as the coach in the terminal, coaching Red
    assert [mistake.better for mistake in analyse(record, seats=(0,)).top(3)] == [m["better"] for m in mistakes]


def test_the_analysis_is_made_once_and_kept(server: TestClient) -> None:
    game = human_against_a_computer(server, seed=5)
    cache = server.app.state.analyses  # type: ignore[attr-defined]
    assert cache.get(game["id"]) is None
    first = analysis_of(server, game["id"])
    kept = cache.get(game["id"])
    assert kept is not None
    started = time.perf_counter()
    again = analysis_of(server, game["id"])
    assert time.perf_counter() - started < 0.5
    assert again == first and cache.get(game["id"]) is kept


def test_the_cache_keeps_the_latest_games_only(make_server: Callable[..., TestClient]) -> None:
    server = make_server(analysis_cache=1)
    one, two = human_against_a_computer(server, seed=5), human_against_a_computer(server, seed=6)
    cache = server.app.state.analyses  # type: ignore[attr-defined]
    analysis_of(server, one["id"])
    analysis_of(server, two["id"])
    assert cache.get(one["id"]) is None and cache.get(two["id"]) is not None


def test_a_game_of_computers_has_nobody_to_coach(server: TestClient) -> None:
    game = create(server, [{"kind": "bot", "level": "greedy"}] * 2, seed=4)
    assert server.get(f"/api/games/{game['id']}").json()["status"] == "waiting"  # until someone watches
    with server.websocket_connect(game["websocket"]) as socket:
        watcher = Player(socket)
        watcher.hello(game["spectator_token"])
        watcher.until(lambda message: message.get("state", {}).get("status") == "finished")
    body = analysis_of(server, game["id"])
    assert body["coached"] == [] and body["mistakes"] == []
    assert all(decision["best"] is None for decision in body["decisions"]) and body["decisions"]


def test_hot_seat_players_are_coached(server: TestClient) -> None:
    game = create(server, [{"kind": "hotseat"}, {"kind": "bot"}, {"kind": "hotseat"}], seed=2)
    with server.websocket_connect(game["websocket"]) as socket:
        host = Player(socket)
        host.hello(game["host_token"])
        play_to_end(host, choose=lambda state: state["moves"][-1]["move"])
    body = analysis_of(server, game["id"])
    assert body["seats"] == ["red", "blue", "yellow"] and body["coached"] == ["red", "yellow"]
    assert {mistake["colour"] for mistake in body["mistakes"]} <= {"red", "yellow"}


def test_a_game_still_going_or_unknown_is_not_analysed(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot"}], seed=1)
    waiting = server.get(f"/api/games/{game['id']}/analysis")
    assert waiting.status_code == 409 and waiting.json()["error"] == "not_finished"
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        player.my_turn_or_over()
        playing = server.get(f"/api/games/{game['id']}/analysis")
        assert playing.status_code == 409 and set(playing.json()) == {"error", "message"}
    unknown = server.get("/api/games/nosuchgame/analysis")
    assert unknown.status_code == 404 and unknown.json()["error"] == "no_game"
    assert server.get(f"/api/games/{'x' * 40}/analysis").status_code == 404


def test_two_requests_at_once_make_one_analysis() -> None:
    cache, made, started = AnalysisCache(4), [], threading.Event()

    def make() -> dict[str, Any]:
        made.append(1)
        started.set()
        time.sleep(0.2)  # the other request comes meanwhile
        return {"made": len(made)}

    answers: list[dict[str, Any]] = []
    first = threading.Thread(target=lambda: answers.append(cache.get_or_make("game", make)))
    first.start()
    started.wait(5)
    answers.append(cache.get_or_make("game", make))
    first.join(5)
    assert made == [1] and answers[0] is answers[1]


def test_analyses_wait_their_turn_and_a_crowd_of_them_is_told_to_come_back(
    make_server: Callable[..., TestClient],
) -> None:
    server = make_server(analyses_per_address=ANALYSES_WAITING + 1)  # the crowd is all one address here
    game = human_against_a_computer(server, seed=7)
    cache = server.app.state.analyses  # type: ignore[attr-defined]
    release = threading.Event()
    cache.worker.submit(release.wait)  # the one analysis thread is busy
    answers: list[int] = []

    def ask() -> None:
        answers.append(server.get(f"/api/games/{game['id']}/analysis").status_code)

    waiting = [threading.Thread(target=ask) for _ in range(ANALYSES_WAITING)]
    for thread in waiting:
        thread.start()
    deadline = time.monotonic() + 10
    while cache.waiting < ANALYSES_WAITING and time.monotonic() < deadline:
        time.sleep(0.01)
    refused = server.get(f"/api/games/{game['id']}/analysis")
    assert refused.status_code == 503 and refused.json()["error"] == "busy"
    assert refused.headers["Retry-After"] == "5"
    hint_free = server.get(f"/api/games/{game['id']}/record")  # other requests are not held up
    assert hint_free.status_code == 200
    release.set()
    for thread in waiting:
        thread.join(timeout=30)
    assert answers == [200] * ANALYSES_WAITING
    assert analysis_of(server, game["id"])["id"] == game["id"]


def test_a_hand_games_better_move_shows_the_card_it_plays(server: TestClient) -> None:
    # In a hand game the better move may play another card of the hand: the board shows that card.
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}], seed=HAND_SEED, rules="adult")
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        assert play_to_end(player)["status"] == "finished"
    mistakes = analysis_of(server, game["id"])["mistakes"]
    assert mistakes
    for mistake in mistakes:
        assert mistake["card"] == mistake["played"].split()[0]  # the card played, first in its notation
        assert mistake["better_card"] == mistake["better"].split()[0]
        assert mistake["better_card_text"] and mistake["card_text"]
    other = [mistake for mistake in mistakes if mistake["better_card"] != mistake["card"]]
    assert other, "this deal has a better move with another card"
    assert other[0]["better_card_text"] != other[0]["card_text"]
