"""The game page with other rules: Fire and Ice (2013), hands of five, a hot-seat screen, a spectator.

Each plays a few turns by clicks only; the page must offer every decision these rules add
(a card from the hand, Fire and Ice choices) without knowing the rules itself.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from tests.web.browser.play_support import play_to_the_end
from tests.web.browser.test_game_page import (
    READY,
    create_game,
    furthest,
    open_game,
    play_by_clicks,
    state,
    vs_computers,
    wait_my_turn,
)


def test_fire_and_ice_board_and_turns(live_server: Any, page: Any, artefacts: Path) -> None:
    game = vs_computers(live_server, seed=2, players=2, rules="modern")
    open_game(page, game["seats"][0]["link"])
    assert page.locator(".fire-space").count() == 4
    assert page.locator(".token").count() == 2
    assert page.locator(".pawn").count() == 6
    for _ in range(8):
        now = wait_my_turn(page)
        play_by_clicks(page, furthest(now["moves"]))
    page.screenshot(path=str(artefacts / "game-modern.png"))


def test_a_hand_of_five_is_played_by_choosing_a_card(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=6, players=2, rules="adult")
    open_game(page, game["seats"][0]["link"])
    for _ in range(5):
        now = wait_my_turn(page)
        hand = now["position"]["hands"]["red"]
        assert page.locator("#hand button").count() == len(hand) == 5
        assert "yellow" not in now["position"]["hands"] or not now["position"]["hands"]["yellow"]
        move = furthest(now["moves"])
        if move["card"] != page.evaluate("() => window.pardonGame.card"):
            page.locator(f'#hand button[data-card="{move["card"]}"]').first.click()
        play_by_clicks(page, move)


def test_hot_seat_screen_plays_both_seats_and_a_spectator_only_watches(live_server: Any, browser: Any) -> None:
    game = create_game(live_server, {"seed": 9, "seats": [{"kind": "hotseat"}, {"kind": "hotseat"}]})
    host = browser.new_context(viewport={"width": 1280, "height": 900})
    host.add_init_script("localStorage.setItem('pardon.autoPass', 'off')")  # each turn waits for its player
    watcher = browser.new_context(viewport={"width": 390, "height": 844})
    try:
        screen, spectator = host.new_page(), watcher.new_page()
        open_game(screen, game["host_link"])
        open_game(spectator, game["spectator_link"])
        deciders: list[str] = []
        for _ in range(6):
            now = wait_my_turn(screen)
            if not deciders or deciders[-1] != now["decider"]:  # a new player: hand the screen over
                banner = screen.locator("#pass-device").inner_text()
                assert banner == f"Pass the device to {now['decider'].capitalize()}"
            deciders.append(now["decider"])
            play_by_clicks(screen, furthest(now["moves"]))
        assert set(deciders) == {"red", "yellow"}
        event = state(screen)["event"]
        spectator.wait_for_function(f"() => window.pardonGame.state.event === {event}")
        spectator.wait_for_function(READY)
        assert state(spectator)["moves"] == []
        assert spectator.locator(".pawn.movable").count() == 0
        assert spectator.locator("#choices button").count() == 0
    finally:
        host.close()
        watcher.close()


def test_a_dead_hand_asks_which_card_to_discard_and_waits_for_it(live_server: Any, page: Any) -> None:
    game = vs_computers(live_server, seed=6, players=2, rules="adult")
    open_game(page, game["seats"][0]["link"])
    for _ in range(80):  # play on until no card of Red's hand can be used
        now = wait_my_turn(page)
        if all(move["pass"] for move in now["moves"]) and len({move["card"] for move in now["moves"]}) > 1:
            break
        move = furthest(now["moves"])
        if move["card"] != page.evaluate("() => window.pardonGame.card"):
            page.locator(f'#hand button[data-card="{move["card"]}"]').first.click()
        if move["pass"] and not page.locator(f'#choices button[data-move="{move["move"]}"]').count():
            page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")
            continue
        play_by_clicks(page, move)
    else:
        raise AssertionError("Red never held a dead hand")
    assert "choose one to discard" in page.locator("#prompt").inner_text()
    card = now["moves"][-1]["card"]
    page.locator(f'#hand button[data-card="{card}"]').first.click()
    page.wait_for_timeout(1500)  # longer than a pass by itself takes: the discard is the player's choice
    assert state(page)["event"] == now["event"]
    assert f"discard the {card}" in page.locator("#prompt").inner_text().replace("Sorry!", "sorry")
    # the card panel shows the card to discard
    assert page.locator("#card-name").inner_text() == f"Card: {'Sorry!' if card == 'sorry' else card}"
    page.locator(f'#choices button[data-move="{card} pass"]').click()
    page.wait_for_function(f"() => window.pardonGame.state.event > {now['event']}")


def test_the_solo_challenge_ends_with_its_count_of_cards(quick_server: Any, page: Any) -> None:
    game = create_game(quick_server, {"rules": "solo", "seed": 4, "seats": [{"kind": "human"}]})
    final = play_to_the_end(quick_server, game, game["seats"][0]["token"], furthest)
    open_game(page, game["seats"][0]["link"])
    page.locator("#game-over").wait_for(state="visible")
    count = state(page)["cards_drawn"]
    assert count == page.locator("#log li").count() and final["winner"] == "red"
    assert page.locator("#winner").inner_text().strip() == f"All Home in {count} cards!"
    assert f"every pawn Home in {count} cards" in page.locator("#result-note").inner_text()
