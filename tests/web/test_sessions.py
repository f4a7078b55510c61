"""Reconnecting, computers standing in for absent players, hints, the lobby, rematches, and the REST checks."""

from __future__ import annotations

import time
from collections.abc import Callable

from fastapi.testclient import TestClient
from web_support import Player, create, first_move, play_to_end, token_of

from pardon.core.game import replay
from pardon.core.notation import parse_record


def test_a_client_that_reconnects_catches_up_from_its_last_event(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=8)
    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Player(red_socket)
        red.hello(token_of(game, "red"))
        with server.websocket_connect(game["websocket"]) as yellow_socket:
            yellow = Player(yellow_socket)
            yellow.hello(token_of(game, "yellow"))
            red.until(lambda message: message.get("state", {}).get("status") == "playing")
            players = {"red": red, "yellow": yellow}
            for _ in range(4):
                mover = players[yellow.state["decider"]]
                mover.send_move(first_move(mover.state))
                event = mover.seen + 1
                for player in players.values():
                    player.until_event(event)
            left_at = yellow.seen
        for _ in range(4):  # red plays on while yellow is away
            if red.state["decider"] != "red":
                break
            red.send_move(first_move(red.state))
            red.until(lambda message: message["type"] == "event")
    with server.websocket_connect(game["websocket"]) as yellow_socket:
        back = Player(yellow_socket)
        back.hello(token_of(game, "yellow"), since=left_at)
        assert [number for number, _, _ in back.decisions] == list(range(left_at + 1, red.seen + 1))
        assert back.decisions == [decision for decision in red.decisions if decision[0] > left_at]
        assert back.state["event"] == red.seen and back.state["position"] == red.state["position"]


def test_an_absent_player_is_played_by_a_computer_until_back(make_server: Callable[..., TestClient]) -> None:
    server = make_server(takeover_after=0.05)
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=4)
    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Player(red_socket)
        red.hello(token_of(game, "red"))
        with server.websocket_connect(game["websocket"]) as yellow_socket:
            Player(yellow_socket).hello(token_of(game, "yellow"))
        red.until(lambda message: message["type"] == "presence")
        final = play_to_end(red)  # yellow is away: a computer plays for it, so the game ends
    assert final["status"] == "finished"
    assert {colour for _, colour, _ in red.decisions} == {"red", "yellow"}


def test_a_player_back_after_the_computer_played_their_turn_is_told_it_came_too_late(
    make_server: Callable[..., TestClient],
) -> None:
    """The computer standing in for an absent player may make the very move the player sends on
    coming back: it was refused ``duplicate`` ("already played"), though the player never sent it."""
    server = make_server(takeover_after=0.05)
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=4)
    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Player(red_socket)
        red.hello(token_of(game, "red"))
        with server.websocket_connect(game["websocket"]) as yellow_socket:
            yellow = Player(yellow_socket)
            yellow.hello(token_of(game, "yellow"))
            red.until(lambda message: message.get("state", {}).get("status") == "playing")
            while red.state["decider"] != "yellow":
                event = red.seen + 1
                red.send_move(first_move(red.state))
                red.until_event(event)
                yellow.until_event(event)
            left_at = red.state["event"]
        stood_in = red.until(lambda message: message["type"] == "event" and message["event"] == left_at + 1)
    assert stood_in["decision"]["colour"] == "yellow"
    with server.websocket_connect(game["websocket"]) as yellow_socket:
        back = Player(yellow_socket)
        back.hello(token_of(game, "yellow"), since=left_at)
        back.send_move(stood_in["decision"]["move"], event=left_at)
        refused = back.expect_error("stale")
        assert "computer played yellow's turn" in refused["message"]


def test_hints_rank_the_moves_of_the_drawn_card(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], seed=1)
    with server.websocket_connect(game["websocket"]) as socket:
        red = Player(socket)
        red.hello(token_of(game, "red"))
        state = red.my_turn_or_over()
        socket.send_json({"type": "hint", "event": state["event"]})
        hint = red.until(lambda message: message["type"] in ("hint", "error"))
        assert hint["type"] == "hint", hint
        assert sorted(move["move"] for move in hint["moves"]) == sorted(move["move"] for move in state["moves"])
        assert all(0 <= move["chance"] <= 1 for move in hint["moves"])
        if len(hint["moves"]) > 1:  # the coach's line on what the best move does that the next does not
            assert isinstance(hint["reason"], str) and hint["reason"]
    quiet = create(server, [{"kind": "human"}, {"kind": "bot"}], hints=False)
    with server.websocket_connect(quiet["websocket"]) as socket:
        red = Player(socket)
        red.hello(token_of(quiet, "red"))
        socket.send_json({"type": "hint", "event": red.seen})
        red.expect_error("hints_off")


def test_hints_in_a_hand_game_rank_every_card_of_the_hand(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], rules="adult", seed=6)
    with server.websocket_connect(game["websocket"]) as socket:
        red = Player(socket)
        red.hello(token_of(game, "red"))
        for _ in range(3):  # a few turns in, so that hands have changed since the deal
            state = red.my_turn_or_over()
            assert state["card"] is None and len(state["position"]["hands"]["red"]) == 5
            socket.send_json({"type": "hint", "event": state["event"]})
            hint = red.until(lambda message: message["type"] in ("hint", "error"))
            assert hint["type"] == "hint", hint
            ranked = [move["move"] for move in hint["moves"]]
            assert sorted(ranked) == sorted(move["move"] for move in state["moves"])
            assert {move.split()[0] for move in ranked} <= set(state["position"]["hands"]["red"])
            chances = [move["chance"] for move in hint["moves"]]
            assert chances == sorted(chances, reverse=True)
            assert len(ranked) == 1 or isinstance(hint["reason"], str)
            red.send_move(ranked[0])
            red.until(lambda message: message["type"] == "event")


def test_the_lobby_lists_open_public_games_and_a_seat_can_be_joined(server: TestClient) -> None:
    public = create(server, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot"}], public=True)
    private = create(server, [{"kind": "human"}, {"kind": "human"}])
    listed = [entry["id"] for entry in server.get("/api/lobby").json()["games"]]
    assert public["id"] in listed and private["id"] not in listed
    assert token_of(public, "blue") is None  # an open seat has no invite
    joined = server.post(f"/api/games/{public['id']}/join", json={"seat": "blue"}).json()
    assert joined["colour"] == "blue"
    again = server.post(f"/api/games/{public['id']}/join", json={"seat": "blue"})
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"
    invited = server.post(f"/api/games/{public['id']}/join", json={"seat": "red"})  # kept for its invitee
    assert invited.status_code == 409 and invited.json()["error"] == "seat_not_open"
    refused = server.post(f"/api/games/{private['id']}/join", json={"seat": "red"})
    assert refused.status_code == 403 and refused.json()["error"] == "not_public"
    with server.websocket_connect(public["websocket"]) as socket:
        assert Player(socket).hello(joined["token"])["seats"] == ["blue"]
    with server.websocket_connect(public["websocket"]) as socket:
        assert Player(socket).hello(token_of(public, "red"))["seats"] == ["red"]


def test_a_rematch_keeps_the_players_and_the_winner_leads(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "bot", "level": "random"}], seed=2)
    with server.websocket_connect(game["websocket"]) as socket:
        red = Player(socket)
        red.hello(token_of(game, "red"))
        final = play_to_end(red)
    assert server.post(f"/api/games/{game['id']}/rematch").status_code == 401
    bad = server.post(f"/api/games/{game['id']}/rematch", headers={"Authorization": "Bearer nope"})
    assert bad.status_code == 403
    headers = {"Authorization": f"Bearer {token_of(game, 'red')}"}
    rematch = server.post(f"/api/games/{game['id']}/rematch", headers=headers).json()
    assert rematch["first"] == final["winner"]
    assert server.post(f"/api/games/{game['id']}/rematch", headers=headers).json()["id"] == rematch["id"]
    with server.websocket_connect(rematch["websocket"]) as socket:
        red = Player(socket)
        red.hello(token_of(game, "red"))
        assert red.state["position"]["turn"] == final["winner"]
        play_to_end(red)
    record = parse_record(server.get(f"/api/games/{rematch['id']}/record").text)
    assert record.first is not None and replay(record).is_over


def test_creating_a_game_checks_everything(server: TestClient) -> None:
    cases = [
        ({"seats": [{"kind": "human"}], "rules": "classic"}, "invalid_seats"),
        ({"seats": [{"kind": "human"}, {"kind": "human"}], "rules": "chess"}, "invalid_rules"),
        ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "grandmaster"}]}, "invalid_request"),
        ({"seats": [{"kind": "human", "level": "greedy"}, {"kind": "bot"}]}, "invalid_seats"),
        ({"seats": [{"kind": "human", "colour": "red"}, {"kind": "bot", "colour": "red"}]}, "invalid_seats"),
        ({"seats": [{"kind": "human", "colour": "red"}, {"kind": "bot"}]}, "invalid_seats"),
        ({"seats": [{"kind": "human"}] * 5}, "invalid_request"),
        ({"seats": [{"kind": "human"}, {"kind": "bot"}], "extra": 1}, "invalid_request"),
        ({"seats": [{"kind": "human", "name": "x" * 41}, {"kind": "bot"}]}, "invalid_request"),
    ]
    for body, code in cases:
        response = server.post("/api/games", json=body)
        assert response.status_code == 422 and response.json()["error"] == code, (body, response.text)
    assert server.post("/api/games", content=b"{oops", headers={"content-type": "application/json"}).status_code == 422
    game = create(server, [{"kind": "human"}, {"kind": "bot"}], rules={"preset": "classic", "pawns": 3})
    assert game["rules"] == "classic(pawns=3)"
    unfinished = server.get(f"/api/games/{game['id']}/record")
    assert unfinished.status_code == 409 and unfinished.json()["error"] == "not_finished"
    assert "/api/games" in server.get("/openapi.json").json()["paths"]
    time.sleep(0)


def test_every_one_sees_how_many_windows_a_seat_is_open_in(server: TestClient) -> None:
    """A link passed on by mistake gives a second person the same seat: both (and the others)
    see that it is open twice, rather than moves crossing without a word."""
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=5)

    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Player(red_socket)
        red.hello(token_of(game, "red"))
        with server.websocket_connect(game["websocket"]) as yellow_socket:
            Player(yellow_socket).hello(token_of(game, "yellow"))
            with server.websocket_connect(game["websocket"]) as again:
                Player(again).hello(token_of(game, "yellow"))
                presence = red.until(
                    lambda message: (
                        message["type"] == "presence"
                        and {seat["colour"]: seat["windows"] for seat in message["seats"]} == {"red": 1, "yellow": 2}
                    )
                )
                assert presence["seats"]
            red.until(
                lambda message: (
                    message["type"] == "presence"
                    and {seat["colour"]: seat["windows"] for seat in message["seats"]} == {"red": 1, "yellow": 1}
                )
            )
    computer = create(server, [{"kind": "human"}, {"kind": "bot"}])
    with server.websocket_connect(computer["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(computer, "red"))
        assert {seat["colour"]: seat["windows"] for seat in player.state["seats"]}["yellow"] == 0


def test_a_hot_seat_screen_put_down_keeps_its_familys_game(make_server: Callable[..., TestClient]) -> None:
    """A tablet locked, or its tab closed, once had the computer play every seat of the family
    after the takeover time: the game went on, and could end, without them.  Now it waits; a
    hot-seat seat is taken over only while someone at another screen waits for it."""
    server = make_server(takeover_after=0.05)
    family = create(server, [{"kind": "hotseat"}, {"kind": "hotseat"}, {"kind": "bot", "level": "random"}], seed=3)
    with server.websocket_connect(family["websocket"]) as socket:
        host = Player(socket)
        host.hello(family["host_token"])
        host.until(lambda message: message.get("state", {}).get("status") == "playing")
        left_at = host.state["event"]
    time.sleep(0.6)  # many takeover times
    summary = server.get(f"/api/games/{family['id']}").json()
    # the computer's own turn at most (a 2 draws again), not the family's
    assert summary["status"] == "playing" and summary["event"] <= left_at + 4
    with server.websocket_connect(family["websocket"]) as socket:
        back = Player(socket)
        back.hello(family["host_token"], since=left_at)
        assert not any(seat["computer_playing"] for seat in back.state["seats"] if seat["kind"] == "hotseat")

    mixed = create(server, [{"kind": "hotseat"}, {"kind": "human"}], seed=4)  # a friend online waits for the screen
    with server.websocket_connect(mixed["websocket"]) as host_socket:
        Player(host_socket).hello(mixed["host_token"])
        with server.websocket_connect(mixed["websocket"]) as friend_socket:
            friend = Player(friend_socket)
            friend.hello(token_of(mixed, "yellow"))
            host_socket.close()
            taken = friend.until(
                lambda message: (
                    message["type"] == "presence"
                    and any(seat["colour"] == "red" and seat["computer_playing"] for seat in message["seats"])
                )
            )
            assert taken


def test_a_player_alone_against_the_computer_who_leaves_finds_the_game_waiting(
    make_server: Callable[..., TestClient],
) -> None:
    """A phone locked or a tab closed in a game against the computer once had the computer play
    the person's seat to the end after the takeover time, though nobody waited for them.  A
    spectator watching is not a player waiting."""
    server = make_server(takeover_after=0.05)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]
    game = create(server, seats, seed=5, public=True)
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        player.my_turn_or_over()
        left_at = player.state["event"]
    with server.websocket_connect(game["websocket"]) as watching:
        Player(watching).hello(None)
        time.sleep(0.6)  # many takeover times
    summary = server.get(f"/api/games/{game['id']}").json()
    assert summary["status"] == "playing"
    with server.websocket_connect(game["websocket"]) as socket:
        back = Player(socket)
        back.hello(token_of(game, "red"), since=left_at)
        assert back.state["decider"] == "red" and back.state["event"] == summary["event"]
        assert all(decision[1] != "red" for decision in back.decisions)
        assert not any(seat["computer_playing"] for seat in back.state["seats"] if seat["kind"] == "human")


def test_the_takeover_time_counts_only_while_someone_waits(make_server: Callable[..., TestClient]) -> None:
    """Both friends gone, then one back: the computer played the other's turn at once, its
    time having run while nobody waited.  Now the one back waits the takeover time out."""
    server = make_server(takeover_after=0.5)
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=4)
    with server.websocket_connect(game["websocket"]) as red_socket:
        red = Player(red_socket)
        red.hello(token_of(game, "red"))
        with server.websocket_connect(game["websocket"]) as yellow_socket:
            Player(yellow_socket).hello(token_of(game, "yellow"))
            red.until(lambda message: message.get("state", {}).get("status") == "playing")
            while red.state["decider"] != "yellow":
                event = red.seen + 1
                red.send_move(first_move(red.state))
                red.until_event(event)
            left_at = red.state["event"]
            yellow_leaving = time.monotonic()
    # the clock ran while Red waited for Yellow, from Yellow's leaving to Red's (short, but
    # longer on a loaded machine): the rest of the takeover time runs once Red is back
    waited = time.monotonic() - yellow_leaving
    time.sleep(1.0)  # both away for twice the takeover time
    with server.websocket_connect(game["websocket"]) as red_socket:
        back = Player(red_socket)
        came = time.monotonic()
        back.hello(token_of(game, "red"), since=left_at)
        assert back.state["event"] == left_at  # nobody played while nobody waited
        stood_in = back.until(lambda message: message["type"] == "event")
        assert time.monotonic() - came >= 0.45 - waited  # the rest of the takeover time, from Red's coming back
        assert stood_in["decision"]["colour"] == "yellow"


def test_the_player_whose_coming_starts_the_game_is_sent_its_sync_straight_after_welcome(server: TestClient) -> None:
    """It was sent the game's start as a ``state`` before its ``sync``: a client acting on both
    sent its first move twice (the second refused as ``duplicate``)."""
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=4)
    with server.websocket_connect(game["websocket"]) as first, server.websocket_connect(game["websocket"]) as second:
        red = Player(first)
        red.hello(token_of(game, "red"))
        assert red.state["status"] == "waiting"
        second.send_json({"type": "hello", "token": token_of(game, "yellow"), "since": 0})
        assert second.receive_json()["type"] == "welcome"
        synced = second.receive_json()
        assert synced["type"] == "sync" and synced["state"]["status"] == "playing", synced
        started = red.until(lambda message: message["type"] == "state")  # those there before are told
        assert started["state"]["status"] == "playing"
