"""The lobby offers only seats left open on purpose, and of simultaneous joins of one seat
exactly one wins (the database decides), on SQLite and on PostgreSQL."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import text
from web_support import Player, create, free_port, post_at_once, served, token_of
from websockets.sync.client import connect

Message = dict[str, Any]


def _lobby_ids(server: TestClient) -> list[str]:
    return [game["id"] for game in server.get("/api/lobby").json()["games"]]


def test_a_seat_made_for_someone_is_never_offered_in_the_lobby(server: TestClient) -> None:
    # A public game whose other seats are invitations (not open): nothing for strangers.
    invited = create(server, [{"kind": "human", "name": "Host"}, {"kind": "human"}], public=True)
    assert invited["id"] not in _lobby_ids(server)
    for colour in ("red", "yellow"):
        taken = server.post(f"/api/games/{invited['id']}/join", json={"seat": colour})
        assert taken.status_code == 409 and taken.json()["error"] == "seat_not_open", taken.text
    with server.websocket_connect(invited["websocket"]) as socket:  # the host's link still opens the host's seat
        assert Player(socket).hello(token_of(invited, "red"))["seats"] == ["red"]

    # As the home page makes it: the host's seat, and one left open for anyone.
    game = create(server, [{"kind": "human", "name": "Host"}, {"kind": "open"}], public=True)
    assert [seat["open"] for seat in game["seats"]] == [False, True]
    assert game["seats"][1]["token"] is None and game["seats"][1]["link"] is None
    listed = next(entry for entry in server.get("/api/lobby").json()["games"] if entry["id"] == game["id"])
    assert [(seat["colour"], seat["open"], seat["taken"]) for seat in listed["seats"]] == [
        ("red", False, False),
        ("yellow", True, False),
    ]
    stolen = server.post(f"/api/games/{game['id']}/join", json={"seat": "red"})
    assert stolen.status_code == 409 and stolen.json()["error"] == "seat_not_open"
    joined = server.post(f"/api/games/{game['id']}/join", json={"seat": "yellow"})
    assert joined.status_code == 200, joined.text
    assert game["id"] not in _lobby_ids(server)  # nothing open any more
    with server.websocket_connect(game["websocket"]) as socket:  # the host still plays Red
        host = Player(socket)
        assert host.hello(token_of(game, "red"))["seats"] == ["red"]
    summary = server.get(f"/api/games/{game['id']}").json()  # Yellow's is kept for its joiner, who has not come yet
    assert [(seat["open"], seat["taken"], seat["joining"]) for seat in summary["seats"]] == [
        (False, True, False),
        (False, False, True),
    ]


def test_an_open_seat_needs_a_public_game(server: TestClient) -> None:
    refused = server.post("/api/games", json={"seats": [{"kind": "human"}, {"kind": "open"}]})
    assert refused.status_code == 422 and refused.json()["error"] == "invalid_seats"
    assert "public" in refused.json()["message"]


@pytest.mark.slow
def test_of_simultaneous_joins_of_a_seat_exactly_one_wins(database: str) -> None:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    with served(database, port, "--create-rate", "0", "--join-rate", "0"):
        for _ in range(8):
            body = {"public": True, "seats": [{"kind": "human"}, {"kind": "open"}, {"kind": "open"}]}
            game: Message = httpx.post(f"{url}/api/games", json=body, timeout=10).json()
            answers = post_at_once(f"{url}/api/games/{game['id']}/join", 16, json={"seat": "blue"})
            winners = [answer for answer in answers if answer.status_code == 200]
            assert len(winners) == 1, [answer.text for answer in answers]
            losers = [answer.json() for answer in answers if answer.status_code != 200]
            assert {loser["error"] for loser in losers} == {"seat_taken"}
            with connect(f"ws://127.0.0.1:{port}{game['websocket']}") as socket:  # the winner's token is the seat's
                player = Player(_Socket(socket))
                assert player.hello(winners[0].json()["token"])["seats"] == ["blue"]
            summary = httpx.get(f"{url}/api/games/{game['id']}").json()
            assert [(seat["colour"], seat["open"]) for seat in summary["seats"]] == [
                ("red", False),
                ("blue", False),
                ("yellow", True),
            ]


class _Socket:
    """A real websocket with the two calls :class:`Player` makes."""

    def __init__(self, connection: Any):
        self.connection = connection

    def send_json(self, message: Message) -> None:
        self.connection.send(json.dumps(message))

    def receive_json(self) -> Message:
        message: Message = json.loads(self.connection.recv(timeout=20))
        return message


# --- a friend who never comes ---------------------------------------------------------------------


def _hand_over(server: TestClient, game: Message, colour: str, token: str | None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return server.post(f"/api/games/{game['id']}/seats/{colour}/computer", json=body or None, headers=headers)


def test_the_host_hands_the_seat_of_a_friend_who_never_comes_to_a_computer(server: TestClient) -> None:
    game = create(
        server,
        [{"kind": "human", "name": "Mum"}, {"kind": "human", "name": "Cleo"}, {"kind": "bot", "level": "tactician"}],
    )
    assert [seat["colour"] for seat in game["seats"]] == ["red", "blue", "yellow"]
    with server.websocket_connect(game["websocket"]) as socket:
        mum = Player(socket)
        mum.hello(token_of(game, "red"))
        assert mum.state["status"] == "waiting"
        handed = _hand_over(server, game, "blue", game["host_token"])
        assert handed.status_code == 200, handed.text
        blue = next(seat for seat in handed.json()["seats"] if seat["colour"] == "blue")
        assert (blue["kind"], blue["level"], blue["taken"]) == ("bot", "tactician", True)  # the game's own level
        started = mum.until(lambda message: message.get("state", {}).get("status") == "playing")
        seat = next(seat for seat in started["state"]["seats"] if seat["colour"] == "blue")
        assert seat["kind"] == "bot" and seat["computer_playing"]
        again = _hand_over(server, game, "blue", game["host_token"])
        assert again.status_code == 409 and again.json()["error"] == "not_waiting"
    with server.websocket_connect(game["websocket"]) as socket:  # Cleo's link opens no seat any more
        socket.send_json({"type": "hello", "token": token_of(game, "blue")})
        assert socket.receive_json()["code"] == "bad_token"


def test_a_join_whose_news_comes_after_the_hosts_hand_over_leaves_the_computer(server: TestClient) -> None:
    """The join was stored first and the host's hand-over second, but the room heard of them the
    other way round (each request tells the room once stored): it took the seat back for the
    joiner, while the database gave it to a computer."""
    game = create(server, [{"kind": "human"}, {"kind": "open"}, {"kind": "bot", "level": "greedy"}], public=True)
    room = server.app.state.rooms.rooms[game["id"]]  # type: ignore[attr-defined]
    joined = server.post(f"/api/games/{game['id']}/join", json={"seat": "blue"})
    assert joined.status_code == 200, joined.text
    handed = _hand_over(server, game, "blue", game["host_token"])
    assert handed.status_code == 200, handed.text
    seat = room.seats[1].row
    late = replace(seat, kind="human", level=None, token_hash="joiner", claimed=False, open=True)
    room.seat_joined(late)  # the join's news, heard last
    assert room.seats[1].is_machine and room.seats[1].row.kind == "bot"


def test_only_the_host_hands_over_only_an_untaken_persons_seat(server: TestClient) -> None:
    game = create(server, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}, {"kind": "human"}])
    host = game["host_token"]
    before = server.get(f"/api/games/{game['id']}").json()
    refusals = [
        (_hand_over(server, game, "green", None), 401, "bad_token"),
        (_hand_over(server, game, "green", token_of(game, "red")), 403, "bad_token"),  # a player is not the host
        (_hand_over(server, game, "yellow", host), 409, "not_a_person"),  # a computer's seat already
        (_hand_over(server, game, "green", host, level="grandmaster"), 422, None),
        (
            server.post("/api/games/nosuchgame/seats/green/computer", headers={"Authorization": f"Bearer {host}"}),
            404,
            "no_game",
        ),
    ]
    for answer, status, code in refusals:
        assert answer.status_code == status, answer.text
        if code:
            assert answer.json()["error"] == code
    with server.websocket_connect(game["websocket"]) as socket:  # Red has come: the seat is Red's
        Player(socket).hello(token_of(game, "red"))
        taken = _hand_over(server, game, "red", host)
        assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    two = create(server, [{"kind": "human"}, {"kind": "human"}])
    missing = _hand_over(server, two, "green", two["host_token"])
    assert missing.status_code == 409 and missing.json()["error"] == "no_seat"
    after = server.get(f"/api/games/{game['id']}").json()
    assert [(s["kind"], s["level"]) for s in after["seats"]] == [(s["kind"], s["level"]) for s in before["seats"]]
    given = _hand_over(server, game, "green", host, level="random")  # a level of the host's choosing
    assert given.status_code == 200 and given.json()["seats"][3]["level"] == "random"


def test_a_link_opened_just_as_its_seat_is_handed_over_cannot_play_it(server: TestClient) -> None:
    """Of the friend's link and the host's hand-over at the same moment, the database lets one
    through; should the room hear of the link just before it hears of the hand-over, the seat is
    still the computer's: the link's commands are refused."""
    game = create(server, [{"kind": "human"}, {"kind": "human"}], seed=3)
    rooms = server.app.state.rooms  # type: ignore[attr-defined]
    with server.websocket_connect(game["websocket"]) as socket:
        friend = Player(socket)
        friend.hello(token_of(game, "yellow"))
        room = rooms.rooms[game["id"]]
        seat = next(seat for seat in room.row.seats if seat.colour == 2)
        given = replace(seat, kind="bot", level="random", name="Computer (Beginner)", token_hash=None, claimed=True)
        # the database says so too: with PostgreSQL the room hears of every change of the game
        # from it, and would take the seat back for the link (as the database had it) otherwise
        with rooms.store.engine.begin() as connection:
            hand_over = "UPDATE seats SET kind = 'bot', level = 'random', name = 'Computer', token_hash = NULL"
            connection.execute(text(f"{hand_over} WHERE game_id = :id AND colour = 2"), {"id": game["id"]})
        rooms.on_loop(room.seat_to_computer, given)
        friend.round_trip()
        socket.send_json({"type": "hint", "event": friend.seen})
        error = friend.expect_error("not_your_seat")
        assert "a computer plays yellow now" in error["message"]
