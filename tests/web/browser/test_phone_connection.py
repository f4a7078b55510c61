"""A phone's connection that dies without a word: the phone slept, or went from Wi-Fi to mobile
data, and its websocket never fires its close event.  The page must find out by itself (a move
with no answer, a ping with no pong, the page coming back into sight, the network coming back),
say so, connect again and catch up, keeping what the player had half chosen.

The dead connection is made by routing the page's websocket through the test and then dropping
every frame both ways, without closing it; every connection opened after that goes through.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright")

from tests.web.browser.conftest import Server
from tests.web.browser.test_game_page import (
    READY,
    create_game,
    furthest,
    open_game,
    pawn_actions,
    play_until_hint_offered,
    vs_computers,
    wait_my_turn,
)
from tests.web.browser.test_phone import tap, tap_move
from tests.web.web_support import SocketClient, token_of
from websockets.sync.client import connect

SOCKETS = re.compile(r".*/ws/games/.*")
NO_ANSWER = "No answer from the server: reconnecting…"
MAKE_IT_AGAIN = "Connected again. Your move was not made: make it again."
#: What the page says in its message line, each time it changes (kept across the test).
LISTEN = """() => {
    window.said = [];
    new MutationObserver(() => window.said.push(document.getElementById("message").textContent))
        .observe(document.getElementById("message"), { childList: true, characterData: true, subtree: true });
}"""


class Line:
    """The page's websockets, each passed through to the server until it is cut: then every frame
    is dropped both ways and nothing closes, as for a phone that wakes on a network that is gone."""

    def __init__(self, page: Any) -> None:
        self.alive: list[dict[str, bool]] = []
        self.synced = 0  # the syncs the page has been sent: one a connection
        page.route_web_socket(SOCKETS, self.route)

    def route(self, socket: Any) -> None:
        server = socket.connect_to_server()
        alive = {"on": True}
        socket.on_message(lambda message: alive["on"] and server.send(message))
        server.on_message(lambda message: alive["on"] and self.forward(socket, message))
        self.alive.append(alive)

    def forward(self, socket: Any, message: str | bytes) -> None:
        self.synced += isinstance(message, str) and message.startswith('{"type":"sync"')
        socket.send(message)

    def cut(self) -> None:
        for alive in self.alive:
            alive["on"] = False

    @property
    def opened(self) -> int:
        return len(self.alive)


def shorter_waits(page: Any, **waits: int) -> None:
    """The page's waits for the server, in ms, shortened for a test (window.pardonTimeouts)."""
    page.add_init_script(f"window.pardonTimeouts = {json.dumps(waits)}")


def moved_on(page: Any, event: int) -> None:
    page.wait_for_function(f"() => window.pardonGame.state.event > {event}")


def connected_again(page: Any, line: Line, sockets: int, timeout: float = 15_000) -> None:
    """Wait until the page has opened connection number ``sockets`` and drawn the sync it was sent."""
    waited = 0
    while line.synced < sockets:
        assert waited < timeout, f"no sync on a new connection in {timeout} ms"
        page.wait_for_timeout(50)  # the routes' callbacks run meanwhile
        waited += 50
    assert line.opened == sockets
    page.wait_for_function("() => document.getElementById('connection').textContent === 'Connected'")
    page.wait_for_function(READY)


def test_a_move_with_no_answer_says_so_connects_again_and_can_be_made_again(live_server: Server, phone: Any) -> None:
    shorter_waits(phone, move=3000)
    line = Line(phone)
    game = vs_computers(live_server, seed=11, players=2)
    open_game(phone, game["seats"][0]["link"])
    phone.evaluate(LISTEN)
    now = wait_my_turn(phone)
    move = furthest(now["moves"])
    line.cut()  # the phone slept: its connection is gone, and nothing says so
    tap_move(phone, move)
    assert phone.evaluate("() => window.pardonGame.pending")
    phone.wait_for_function(f"() => document.getElementById('message').textContent === {MAKE_IT_AGAIN!r}")
    assert NO_ANSWER in phone.evaluate("() => window.said"), "it said it had no answer while it connected again"
    connected_again(phone, line, 2)
    assert phone.evaluate("() => window.pardonGame.state.event") == now["event"], "the move never arrived"
    tap_move(phone, move)  # and now it goes
    moved_on(phone, now["event"])
    phone.wait_for_function("() => document.getElementById('message').textContent === ''")


def test_a_hint_with_no_answer_says_so_and_can_be_asked_again(live_server: Server, phone: Any) -> None:
    shorter_waits(phone, hint=2000)
    line = Line(phone)
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"seed": 11, "hints": True, "seats": seats})
    open_game(phone, game["seats"][0]["link"])
    phone.evaluate(LISTEN)
    play_until_hint_offered(phone)
    line.cut()
    tap(phone, "#hint")
    assert phone.locator("#hint").inner_text() == "Hint: thinking…"
    connected_again(phone, line, 2)
    assert NO_ANSWER in phone.evaluate("() => window.said")
    assert phone.locator("#hint").inner_text() == "Hint"  # not thinking for ever
    tap(phone, "#hint")
    phone.wait_for_function("() => document.getElementById('message').textContent.startsWith('Hint: ')")


WAKINGS = {
    "in-sight-again": """async () => {
        for (const state of ["hidden", "visible"]) {
            Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
            await new Promise((done) => setTimeout(done, 300));  // put down longer than the wake time
        }
    }""",
    "a-glance-away": """() => {
        for (const state of ["hidden", "visible"]) {
            Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
            document.dispatchEvent(new Event("visibilitychange"));
        }
    }""",
    "back-from-the-cache": """() => window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }))""",
}


@pytest.mark.parametrize("waking", ["in-sight-again", "a-glance-away", "back-from-the-cache", "network-back"])
def test_a_phone_waking_connects_again_and_keeps_the_card_chosen(live_server: Server, phone: Any, waking: str) -> None:
    """Put down a while, the page connects again at once; back from a glance at another tab, it
    pings first (the others do not see its seat leave), and connects again when nothing answers."""
    shorter_waits(phone, wake=200, pong=1000)
    line = Line(phone)
    game = vs_computers(live_server, seed=4, players=2, rules="adult")  # a hand of cards
    open_game(phone, game["seats"][0]["link"])
    now = wait_my_turn(phone)
    cards = sorted({move["card"] for move in now["moves"] if pawn_actions(move)})
    assert cards, "a card that moves a pawn"
    tap(phone, f'#hand button[data-card="{cards[0]}"]')  # half chosen: the card, not yet its pawn
    line.cut()
    if waking == "network-back":
        phone.context.set_offline(True)  # the browser's own offline and online events
        phone.context.set_offline(False)
    else:
        phone.evaluate(WAKINGS[waking])
    connected_again(phone, line, 2, timeout=5000)  # at once: long before a ping would find the line dead
    assert phone.evaluate("() => window.pardonGame.card") == cards[0]
    assert phone.locator(f'#hand button[data-card="{cards[0]}"]').first.get_attribute("aria-pressed") == "true"
    move = next(move for move in now["moves"] if move["card"] == cards[0] and pawn_actions(move))
    tap_move(phone, move)
    moved_on(phone, now["event"])


def test_a_dead_connection_is_found_by_its_ping_and_the_page_catches_up(live_server: Server, phone: Any) -> None:
    shorter_waits(phone, ping=1000, pong=1500)
    line = Line(phone)
    game = vs_computers(live_server, seed=11, players=2)
    open_game(phone, game["seats"][0]["link"])
    now = wait_my_turn(phone)
    line.cut()
    other = live_server.url.replace("http", "ws") + game["websocket"]
    with connect(other) as connection:  # the player's other tab plays the turn meanwhile
        elsewhere = SocketClient(connection, token_of(game, "red"))
        elsewhere.until_event(now["event"])
        elsewhere.send_move(now["moves"][0]["move"])
        elsewhere.until_event(now["event"] + 1)
    moved_on(phone, now["event"])  # no move, no tap: the ping found the dead line, the sync caught up
    assert line.opened >= 2
    phone.wait_for_function(READY)
    assert len(phone.locator("#log li").all_inner_texts()) >= now["event"] + 1
