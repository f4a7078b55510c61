"""Whole games over real websockets: a human against computers, two humans, hot-seat."""

from __future__ import annotations

from fastapi.testclient import TestClient
from web_support import Player, create, last_move, play_to_end, token_of

from pardon.core.game import replay
from pardon.core.notation import parse_record


def test_human_against_computers_to_the_end(server: TestClient) -> None:
    game = create(
        server,
        [{"kind": "human", "name": 'Mum "the boss" #1'}, {"kind": "bot", "level": "random"}, {"kind": "bot"}],
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
    # the players named as the game named them, in what a record's tag can hold; computers by level
    assert parse_record(record.text).players == ((0, "Mum the boss 1"), (1, "random"), (2, "greedy"))


def test_two_humans_each_see_only_their_own_moves(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=5)
    with (
        server.websocket_connect(game["websocket"]) as red_socket,
        server.websocket_connect(game["websocket"]) as yellow_socket,
    ):
        red, yellow = Player(red_socket), Player(yellow_socket)
        red.hello(token_of(game, "red"))
        assert red.state["status"] == "waiting" and not red.state["moves"]
        yellow.hello(token_of(game, "yellow"))
        players = {"red": red, "yellow": yellow}
        red.until(lambda message: message.get("state", {}).get("status") == "playing")
        assert yellow.state["status"] == "playing"
        while red.state["status"] != "finished":
            mover = players[red.state["decider"]]
            other = yellow if mover is red else red
            assert mover.state["moves"] and not other.state["moves"]
            mover.send_move(last_move(mover.state))
            event = red.seen + 1
            for player in players.values():
                player.until_event(event)
        assert red.decisions == yellow.decisions
        assert yellow.state["winner"] == red.state["winner"]


def test_a_game_waiting_for_players_shows_nobody_its_first_card(server: TestClient) -> None:
    """The server draws the Leader's first card at once, but until everyone is there it stays
    face down: not sent, not on the discard pile, still in the pack (the host once saw "1
    discarded", and the card itself was in the state of anyone watching)."""
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=9)
    with (
        server.websocket_connect(game["websocket"]) as red_socket,
        server.websocket_connect(game["websocket"]) as watch_socket,
    ):
        red, watcher = Player(red_socket), Player(watch_socket)
        red.hello(token_of(game, "red"))
        watcher.hello(game["spectator_token"])
        for waiting in (red.state, watcher.state):
            assert waiting["status"] == "waiting"
            assert waiting["card"] is None and waiting["card_text"] is None
            assert waiting["discards"] == {"count": 0, "cards": {}} and waiting["pack"] == 45
        with server.websocket_connect(game["websocket"]) as yellow_socket:
            Player(yellow_socket).hello(token_of(game, "yellow"))
            started = red.until(lambda message: message.get("state", {}).get("status") == "playing")["state"]
        assert started["card"] is not None and started["card_text"]
        assert started["discards"] == {"count": 1, "cards": {started["card"]: 1}} and started["pack"] == 44


def test_hot_seat_plays_every_seat_from_one_connection(server: TestClient) -> None:
    game = create(server, [{"kind": "hotseat"}, {"kind": "hotseat"}, {"kind": "bot", "level": "random"}], seed=3)
    assert all(seat["token"] is None for seat in game["seats"])
    with server.websocket_connect(game["websocket"]) as socket:
        host = Player(socket)
        welcome = host.hello(game["host_token"])
        assert welcome["role"] == "host" and welcome["seats"] == ["red", "blue"]
        final = play_to_end(host, last_move)
    assert final["status"] == "finished"
    movers = {colour for _, colour, _ in host.decisions}
    assert movers == {"red", "blue", "yellow"}


def test_a_spectator_sees_no_hand_and_no_moves(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], rules="adult", seed=2)
    with (
        server.websocket_connect(game["websocket"]) as red_socket,
        server.websocket_connect(game["websocket"]) as watch_socket,
    ):
        red, watcher = Player(red_socket), Player(watch_socket)
        red.hello(token_of(game, "red"))
        assert watcher.hello(game["spectator_token"])["role"] == "spectator"
        assert list(red.state["position"]["hands"]) == ["red"] and len(red.state["position"]["hands"]["red"]) == 5
        assert watcher.state["position"]["hands"] == {} and watcher.state["moves"] == []
        play_to_end(red, stop_at=6)
        watcher.until(lambda message: message.get("event") == red.seen)
        assert watcher.state["position"]["hands"] == {}
        assert "seed" not in str(watcher.state) and "draw_pile" not in str(watcher.state)


def test_a_games_rules_are_named_in_words_for_people(server: TestClient) -> None:
    """The page's title and the lobby read "Classic-1939 with Point Scoring, doubles", not the
    rules' text form, which only a program or the command line should have to read."""
    rules = {"preset": "classic-1939", "scoring": "1939", "doubling": True}
    game = create(server, [{"kind": "human"}, {"kind": "open"}], rules=rules, public=True)
    summary = server.get(f"/api/games/{game['id']}").json()
    assert summary["rules"] == "classic-1939(scoring=1939,doubling=true)"
    assert summary["rules_name"] == "Classic-1939 with Point Scoring, doubles"
    listed = [entry for entry in server.get("/api/lobby").json()["games"] if entry["id"] == game["id"]]
    assert listed and listed[0]["rules_name"] == summary["rules_name"]
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        assert player.state["rules_name"] == summary["rules_name"]
