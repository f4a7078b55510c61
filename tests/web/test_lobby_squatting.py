"""A seat joined from the lobby is kept for its joiner only until they come, for a grace time:
a stranger who joins seats and never opens them cannot keep a game waiting for ever.  The
host may hand such a seat to a computer; joins are limited per client address; and names are
cleaned of the characters that would turn the lobby's text round."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from web_support import Player, create, token_of

from pardon.web.app import create_app
from pardon.web.settings import Settings

Message = dict[str, Any]

#: The grace time of these tests' servers, in seconds: short, so that it runs out while they wait.
GRACE = 1.0


def _join(server: TestClient, game: Message, colour: str) -> Any:
    return server.post(f"/api/games/{game['id']}/join", json={"seat": colour})


def _listed(server: TestClient, game: Message) -> dict[str, tuple[bool, bool, bool]] | None:
    """The game's seats in the lobby, each (open, taken, joining); None if the lobby does not list it."""
    for entry in server.get("/api/lobby").json()["games"]:
        if entry["id"] == game["id"]:
            return {seat["colour"]: (seat["open"], seat["taken"], seat["joining"]) for seat in entry["seats"]}
    return None


def _refused(server: TestClient, game: Message, token: str) -> Message:
    """The answer to a hello with ``token``: the error that closes the connection."""
    with server.websocket_connect(game["websocket"]) as socket:
        socket.send_json({"type": "hello", "token": token})
        answer: Message = socket.receive_json()
    assert answer["type"] == "error", answer
    return answer


def _public_game(server: TestClient) -> Message:
    """The home page's public game: the host's seat (Red) and two left open for anyone."""
    return create(server, [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "open"}], public=True)


def _hand_over(server: TestClient, game: Message, colour: str) -> Any:
    headers = {"Authorization": f"Bearer {game['host_token']}"}
    return server.post(f"/api/games/{game['id']}/seats/{colour}/computer", headers=headers)


def test_a_seat_joined_by_someone_who_never_comes_goes_back_to_the_lobby(
    make_server: Callable[..., TestClient],
) -> None:
    server = make_server(join_grace=GRACE)
    game = _public_game(server)
    squatter = _join(server, game, "blue")
    assert squatter.status_code == 200, squatter.text
    # Kept for the joiner meanwhile: neither offered nor taken, and nobody else may join it.
    assert _listed(server, game) == {
        "red": (False, False, False),
        "blue": (False, False, True),
        "yellow": (True, False, False),
    }
    again = _join(server, game, "blue")
    assert again.status_code == 409 and again.json()["error"] == "seat_taken"

    time.sleep(GRACE + 0.3)
    listed = _listed(server, game)
    assert listed is not None and listed["blue"] == (True, False, False)  # offered again
    assert _refused(server, game, squatter.json()["token"])["code"] == "bad_token"  # the joiner's token is void

    newcomer = _join(server, game, "blue")
    assert newcomer.status_code == 200, newcomer.text
    assert _refused(server, game, squatter.json()["token"])["code"] == "bad_token"
    with server.websocket_connect(game["websocket"]) as socket:
        assert Player(socket).hello(newcomer.json()["token"])["seats"] == ["blue"]
    blue = next(seat for seat in server.get(f"/api/games/{game['id']}").json()["seats"] if seat["colour"] == "blue")
    assert (blue["open"], blue["taken"], blue["joining"]) == (False, True, False)


def test_a_joiner_who_says_hello_after_the_grace_time_only_watches(make_server: Callable[..., TestClient]) -> None:
    """The connection opened in time, its hello after: the database refuses the seat, so the
    client is told ``not_your_seat`` and plays nothing, and the seat is open again."""
    server = make_server(join_grace=GRACE)
    game = _public_game(server)
    joined = _join(server, game, "blue").json()
    with server.websocket_connect(game["websocket"]) as socket:
        time.sleep(GRACE + 0.3)
        socket.send_json({"type": "hello", "token": joined["token"]})
        late = Player(socket)
        assert late.receive()["type"] == "welcome"
        refused = late.expect_error("not_your_seat")
        assert "went back to the lobby" in refused["message"]
        late.until(lambda message: message["type"] == "sync")
        assert not late.state["seats"][1]["taken"]
        socket.send_json({"type": "hint", "event": late.seen})
        assert late.expect_error("not_your_seat")
    listed = _listed(server, game)
    assert listed is not None and listed["blue"] == (True, False, False)


def test_a_joiner_who_comes_in_time_keeps_the_seat(make_server: Callable[..., TestClient]) -> None:
    server = make_server(join_grace=GRACE)
    game = _public_game(server)
    token = _join(server, game, "blue").json()["token"]
    with server.websocket_connect(game["websocket"]) as socket:
        assert Player(socket).hello(token)["seats"] == ["blue"]
    time.sleep(GRACE + 0.3)  # gone again, but they came: the seat is theirs
    listed = _listed(server, game)
    assert listed is not None and listed["blue"] == (False, True, False)
    taken = _join(server, game, "blue")
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
    with server.websocket_connect(game["websocket"]) as socket:
        assert Player(socket).hello(token)["seats"] == ["blue"]


def test_the_host_hands_a_seat_joined_but_not_come_to_a_computer(server: TestClient) -> None:
    game = create(server, [{"kind": "human", "name": "Host"}, {"kind": "open"}], public=True)
    squatter = _join(server, game, "yellow").json()["token"]
    with server.websocket_connect(game["websocket"]) as socket:
        host = Player(socket)
        host.hello(token_of(game, "red"))
        yellow = next(seat for seat in host.state["seats"] if seat["colour"] == "yellow")
        assert not yellow["taken"]  # what the host's page offers to hand over
        handed = _hand_over(server, game, "yellow")
        assert handed.status_code == 200, handed.text
        seat = handed.json()["seats"][1]
        assert (seat["kind"], seat["taken"], seat["open"], seat["joining"]) == ("bot", True, False, False)
        host.until(lambda message: message.get("state", {}).get("status") == "playing")
    assert _refused(server, game, squatter)["code"] == "bad_token"
    assert _listed(server, game) is None


def test_a_seat_whose_joiner_has_come_is_not_handed_over(server: TestClient) -> None:
    game = create(server, [{"kind": "human", "name": "Host"}, {"kind": "open"}, {"kind": "open"}], public=True)
    token = _join(server, game, "blue").json()["token"]
    with server.websocket_connect(game["websocket"]) as socket:
        Player(socket).hello(token)
    refused = _hand_over(server, game, "blue")
    assert refused.status_code == 409 and refused.json()["error"] == "seat_taken"
    blue = server.get(f"/api/games/{game['id']}").json()["seats"][1]
    assert (blue["kind"], blue["taken"]) == ("human", True)
    with server.websocket_connect(game["websocket"]) as socket:  # still the joiner's
        assert Player(socket).hello(token)["seats"] == ["blue"]


def test_joins_are_limited_per_address(make_server: Callable[..., TestClient]) -> None:
    server = make_server(join_rate=1.0, join_burst=2, joining_per_address=10)
    games = [_public_game(server) for _ in range(3)]
    assert [_join(server, game, "blue").status_code for game in games[:2]] == [200, 200]
    refused = _join(server, games[2], "blue")
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"] == "rate_limited" and "try again in" in refused.json()["message"]
    assert int(refused.headers["Retry-After"]) >= 1
    listed = _listed(server, games[2])
    assert listed is not None and listed["blue"] == (True, False, False)  # nothing changed
    taken = _join(server, games[0], "blue")  # a seat already taken is said so, and costs nothing
    assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"


def test_an_address_holds_only_so_many_seats_joined_and_not_come_to(make_server: Callable[..., TestClient]) -> None:
    server = make_server(join_rate=600.0, join_burst=100, joining_per_address=2)
    games = [_public_game(server) for _ in range(3)]
    tokens = [_join(server, game, "blue").json()["token"] for game in games[:2]]
    refused = _join(server, games[2], "blue")
    assert refused.status_code == 429 and refused.json()["error"] == "rate_limited", refused.text
    assert "without going to them" in refused.json()["message"]
    listed = _listed(server, games[2])
    assert listed is not None and listed["blue"] == (True, False, False)
    with server.websocket_connect(games[0]["websocket"]) as socket:  # one of them has come: one seat more
        Player(socket).hello(tokens[0])
    assert _join(server, games[2], "blue").status_code == 200


def test_a_server_with_no_join_limit_limits_no_join(make_server: Callable[..., TestClient]) -> None:
    server = make_server(join_rate=0.0, join_burst=1, joining_per_address=1)
    games = [_public_game(server) for _ in range(3)]
    assert [_join(server, game, colour).status_code for game in games for colour in ("blue", "yellow")] == [200] * 6


def test_a_seat_joined_is_kept_across_a_restart(database: str) -> None:
    """The grace time is counted from the join, in the database: a server started again keeps the
    seat for its joiner until then, and offers it again after."""
    settings = Settings(database=database, bot_pace=0.0, takeover_after=3600.0, join_grace=3.0)
    with TestClient(create_app(settings)) as first:
        game = _public_game(first)
        comes = _join(first, game, "blue").json()["token"]
        never = _join(first, game, "yellow").json()["token"]
        joined = time.monotonic()
    with TestClient(create_app(settings)) as second:
        listed = _listed(second, game)
        assert listed is None  # both open seats are being joined: nothing to offer
        summary = second.get(f"/api/games/{game['id']}").json()
        assert [(seat["open"], seat["joining"]) for seat in summary["seats"]] == [
            (False, False),
            (False, True),
            (False, True),
        ]
        with second.websocket_connect(game["websocket"]) as socket:
            assert Player(socket).hello(comes)["seats"] == ["blue"]
        time.sleep(max(0.0, joined + 3.3 - time.monotonic()))
        assert _refused(second, game, never)["code"] == "bad_token"
        listed = _listed(second, game)
        assert listed == {"red": (False, False, False), "blue": (False, True, False), "yellow": (True, False, False)}


def test_names_are_cleaned_of_characters_that_turn_text_round(server: TestClient) -> None:
    seats = [
        {"kind": "human", "name": "\u202eMum\u200b \u2066 "},  # right-to-left override, zero-width space, isolate
        {"kind": "hotseat", "name": "Gran\u0007ny\u2060"},  # a control character, a word joiner
        {"kind": "human", "name": " \u200b\u202e\u200f "},  # nothing left: named as if no name were given
        {"kind": "bot", "name": "Robo\u00adt\ufeff"},  # a soft hyphen, a byte order mark
    ]
    game = create(server, seats, public=True)
    names = ["Mum", "Granny", "Yellow", "Robot"]
    assert [seat["name"] for seat in game["seats"]] == names
    assert [seat["name"] for seat in server.get(f"/api/games/{game['id']}").json()["seats"]] == names
    with server.websocket_connect(game["websocket"]) as socket:
        watcher = Player(socket)
        watcher.hello(None)
        assert [seat["name"] for seat in watcher.state["seats"]] == names
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # joined into one emoji: the joiners stay
    kept = create(server, [{"kind": "human", "name": family}, {"kind": "human", "name": "Mina\u200cjan"}])
    assert [seat["name"] for seat in kept["seats"]] == [family, "Mina\u200cjan"]
    too_long = server.post("/api/games", json={"seats": [{"kind": "human", "name": "x" * 41}]})
    assert too_long.status_code == 422, too_long.text


def test_the_game_page_is_told_which_seats_are_open_and_which_being_joined(server: TestClient) -> None:
    """The host's seat list said "invited, not joined yet" of a seat left open for the lobby and of
    one someone was joining: the state's seats now say which."""
    game = _public_game(server)
    with server.websocket_connect(game["websocket"]) as socket:
        host = Player(socket)
        host.hello(token_of(game, "red"))
        seats = {seat["colour"]: (seat["open"], seat["joining"]) for seat in host.state["seats"]}
        assert seats == {"red": (False, False), "blue": (True, False), "yellow": (True, False)}
    assert _join(server, game, "blue").status_code == 200
    with server.websocket_connect(game["websocket"]) as socket:
        host = Player(socket)
        host.hello(token_of(game, "red"))
        seats = {seat["colour"]: (seat["open"], seat["joining"]) for seat in host.state["seats"]}
        assert seats == {"red": (False, False), "blue": (False, True), "yellow": (True, False)}
