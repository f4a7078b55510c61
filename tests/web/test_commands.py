"""Every kind of bad command gets its typed error, and the game is exactly as before."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from web_support import Message, Player, create, first_move, token_of


def _human_pair(server: TestClient, **options: object) -> Message:
    return create(server, [{"kind": "human"}, {"kind": "human"}], seed=21, **options)


@contextmanager
def _both_seated(server: TestClient, game: Message) -> Iterator[tuple[Player, Player]]:
    """Red and Yellow, each at their seat of ``game`` on a websocket of their own."""
    with (
        server.websocket_connect(game["websocket"]) as red_socket,
        server.websocket_connect(game["websocket"]) as yellow_socket,
    ):
        red, yellow = Player(red_socket), Player(yellow_socket)
        red.hello(token_of(game, "red"))
        yellow.hello(token_of(game, "yellow"))
        yield red, yellow


def _snapshot(server: TestClient, game: Message, player: Player) -> tuple[object, ...]:
    summary = server.get(f"/api/games/{game['id']}").json()
    player.round_trip()
    return summary["event"], summary["status"], player.state["position"], player.state["moves"], player.state["card"]


def test_bad_commands_are_refused_and_change_nothing(server: TestClient) -> None:
    game = _human_pair(server)
    with _both_seated(server, game) as (red, yellow):
        players = {"red": red, "yellow": yellow}
        for _ in range(3):  # a few decisions first, so that there are events to be stale about
            mover = players[yellow.state["decider"]]
            mover.send_move(first_move(mover.state))
            event = mover.seen + 1
            for player in players.values():
                player.until_event(event)
        mover = players[red.state["decider"]]
        waiting = yellow if mover is red else red
        before = _snapshot(server, game, mover)
        legal = first_move(mover.state)
        card = mover.state["card"]
        other_card = "12" if card != "12" else "3"
        bad: list[tuple[Callable[[], None], str]] = [
            (lambda: mover.socket.send_text("{not json"), "malformed"),
            (lambda: mover.socket.send_text("[1, 2]"), "malformed"),
            (lambda: mover.socket.send_json({"type": "dance"}), "malformed"),
            (lambda: mover.socket.send_json({"type": "move", "move": legal}), "malformed"),
            (lambda: mover.socket.send_json({"type": "move", "move": legal, "event": "3"}), "malformed"),
            (lambda: mover.socket.send_json({"type": "move", "move": legal, "event": mover.seen, "x": 1}), "malformed"),
            (lambda: mover.socket.send_json({"type": "hello", "token": "again"}), "malformed"),
            (lambda: mover.send_move("x" * 5000), "too_large"),
            (lambda: mover.send_move(legal, event=mover.seen - 1), "stale"),
            (lambda: mover.send_move(legal, event=mover.seen + 5), "bad_event"),
            (lambda: mover.send_move("hello world"), "invalid_move"),
            (lambda: mover.send_move(f"{other_card} pass"), "illegal_move"),
            (lambda: mover.send_move(legal, seat=waiting.state["viewer"]), "not_your_seat"),
        ]
        for send, code in bad:
            send()
            error = mover.expect_error(code)
            assert error["message"] and "Traceback" not in error["message"]
        waiting.send_move(legal)
        waiting.expect_error("not_your_turn")
        assert _snapshot(server, game, mover) == before
        assert _snapshot(server, game, waiting)[0] == before[0]

        mover.send_move(legal)
        made = mover.until(lambda message: message["type"] == "event")
        assert made["decision"]["move"] == legal
        mover.send_move(legal, event=made["event"] - 1)  # the same command again
        mover.expect_error("duplicate")
        assert server.get(f"/api/games/{game['id']}").json()["event"] == made["event"]


def test_a_hot_seat_move_sent_twice_without_its_seat_is_a_duplicate(server: TestClient) -> None:
    """A hot-seat screen names no seat: its move sent again was taken for the next seat's, and
    refused ``stale`` (or ``not_your_turn``) where a one-seat client is told ``duplicate``."""
    game = create(server, [{"kind": "hotseat"}, {"kind": "hotseat"}], seed=5)
    with server.websocket_connect(game["websocket"]) as socket:
        host = Player(socket)
        host.hello(game["host_token"])
        for _ in range(60):  # on to a decision that hands the turn to the other seat
            state = host.my_turn_or_over()
            move = first_move(state)
            host.send_move(move, event=state["event"])
            made = host.until(lambda message: message["type"] == "event")
            if made["state"]["decider"] != state["decider"]:
                break
        else:
            pytest.fail("the turn never passed")
        host.send_move(move, event=state["event"])  # the same command again: a double tap, a resend
        host.expect_error("duplicate")


def test_a_spectator_cannot_move(server: TestClient) -> None:
    game = _human_pair(server, public=True)
    with server.websocket_connect(game["websocket"]) as socket:
        watcher = Player(socket)
        assert watcher.hello(None)["role"] == "spectator"
        watcher.send_move("1 start-4")
        watcher.expect_error("not_your_seat")
        watcher.send_move("1 start-4", seat="red")
        watcher.expect_error("not_your_seat")


@pytest.mark.parametrize(
    ("first", "code"),
    [
        ({"type": "hello", "token": "not-a-token"}, "bad_token"),
        ({"type": "hello"}, "bad_token"),  # a private game needs a token even to watch
        ({"type": "ping"}, "malformed"),
    ],
)
def test_a_connection_without_a_valid_hello_is_closed(server: TestClient, first: Message, code: str) -> None:
    game = _human_pair(server)
    with server.websocket_connect(game["websocket"]) as socket:
        socket.send_json(first)
        error = socket.receive_json()
        assert error["type"] == "error" and error["code"] == code
        with pytest.raises(WebSocketDisconnect):
            socket.receive_json()
    assert server.get(f"/api/games/{game['id']}").json()["status"] == "waiting"


def test_an_unknown_game_is_named(server: TestClient) -> None:
    with server.websocket_connect("/ws/games/nothing-here") as socket:
        assert socket.receive_json()["code"] == "no_game"
    assert server.get("/api/games/nothing-here").json()["error"] == "no_game"


def test_a_foreign_origin_is_refused(server: TestClient) -> None:
    game = _human_pair(server)
    with (
        pytest.raises(WebSocketDisconnect),
        server.websocket_connect(game["websocket"], headers={"origin": "http://elsewhere.example"}) as socket,
    ):
        socket.receive_json()
    with server.websocket_connect(game["websocket"], headers={"origin": "http://testserver"}) as socket:
        Player(socket).hello(token_of(game, "red"))


def test_too_many_messages_are_refused(make_server: Callable[..., TestClient]) -> None:
    server = make_server(rate=1.0, burst=3)
    game = _human_pair(server)
    with server.websocket_connect(game["websocket"]) as socket:
        player = Player(socket)
        player.hello(token_of(game, "red"))
        for _ in range(6):
            socket.send_json({"type": "ping"})
        kinds = [player.until(lambda message: message["type"] in ("pong", "error"))["type"] for _ in range(6)]
        assert kinds.count("pong") <= 3 and "error" in kinds
        assert player.errors[-1]["code"] == "rate_limited"


def _place_json(action: Message, key: str) -> str:
    """A place an action names (``landing`` or ``to``), written as the ``why`` command names one."""
    return f"{action['colour']}:{action[key]}"


def test_why_a_pawn_cannot_go_somewhere_is_answered_and_changes_nothing(server: TestClient) -> None:
    game = _human_pair(server)
    with _both_seated(server, game) as (red, yellow):
        players = {"red": red, "yellow": yellow}
        for _ in range(40):  # until a card moves a pawn by count, with wrong squares to point at
            mover = players[red.state["decider"]]
            mover.my_turn_or_over()
            steps = [action for move in mover.state["moves"] for action in move["actions"] if action["kind"] == "step"]
            if steps:
                break
            mover.send_move(first_move(mover.state))
            mover.until(lambda message: message["type"] == "event")
        action = steps[0]
        waiting = yellow if mover is red else red
        before = _snapshot(server, game, mover)
        card, event = mover.state["card"], mover.seen

        def why(to: str, changes: Message | None = None) -> Message:
            asked = {"type": "why", "event": event, "card": card, "pawn": action["pawn"], "to": to}
            mover.socket.send_json(asked | (changes or {}))
            return mover.until(lambda message: message["type"] in ("why", "error"))

        for key in ("landing", "to"):  # where it lands, and where a slide takes it: both are where it goes
            answer = why(_place_json(action, key))
            assert answer["type"] == "why" and answer["reason"] is None, answer
        gone = {
            str(other[key]) for move in mover.state["moves"] for other in move["actions"] for key in ("landing", "to")
        }
        elsewhere = f"{action['colour']}:{next(square for square in range(60) if str(square) not in gone)}"
        answer = why(elsewhere)
        assert answer["type"] == "why" and answer["event"] == event and answer["pawn"] == action["pawn"]
        assert isinstance(answer["reason"], str) and answer["reason"] and "Traceback" not in answer["reason"]

        for changes, code in [
            ({"pawn": "purple:3"}, "malformed"),
            ({"pawn": "red:99"}, "malformed"),
            ({"to": "nowhere"}, "malformed"),
            ({"card": "6"}, "malformed"),  # no such card
            ({"card": "12" if card != "12" else "3"}, "malformed"),  # not the card to play
            ({"event": event + 3}, "bad_event"),
            ({"seat": waiting.state["viewer"]}, "not_your_seat"),
            ({"x": 1}, "malformed"),
        ]:
            answer = why(elsewhere, changes)
            assert answer["type"] == "error" and answer["code"] == code, (changes, answer)
        waiting.socket.send_json({"type": "why", "event": event, "card": card, "pawn": action["pawn"], "to": elsewhere})
        waiting.expect_error("not_your_turn")
        assert _snapshot(server, game, mover) == before


def test_a_spectator_is_not_told_why_a_pawn_cannot_go(server: TestClient) -> None:
    game = _human_pair(server, public=True)
    with server.websocket_connect(game["websocket"]) as socket:
        watcher = Player(socket)
        assert watcher.hello(None)["role"] == "spectator"
        socket.send_json({"type": "why", "event": 0, "card": "1", "pawn": "red:start", "to": "red:4"})
        watcher.expect_error("not_your_seat")
