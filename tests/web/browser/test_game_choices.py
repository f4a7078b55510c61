"""The game page's other decisions: a hint on request, and a double offered and answered."""

from __future__ import annotations

from typing import Any

from tests.web.browser.test_game_page import (
    READY,
    create_game,
    furthest,
    open_game,
    play_by_clicks,
    play_until_hint_offered,
    wait_my_turn,
)


def test_a_hint_names_a_legal_move_with_its_chance(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "classic", "seed": 4, "hints": True, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    now = play_until_hint_offered(page)
    page.locator("#hint").click()
    page.wait_for_function("() => window.pardonGame.hinted !== null")
    chances = page.evaluate("() => window.pardonGame.hinted.chances")
    legal = {move["move"] for move in now["moves"]}
    assert set(chances) <= legal and chances
    assert all(0.0 <= chance <= 1.0 for chance in chances.values())
    assert "Hint:" in page.locator("#message").inner_text()  # role=alert: read out at once
    assert page.evaluate("() => window.pardonGame.state.event") == now["event"]  # a hint is not a move


def test_a_hint_in_a_hand_game_weighs_every_card_of_the_hand(live_server: Any, page: Any) -> None:
    """The server ranked every card of a hand, but the page offered no Hint button in hand games
    (it waited for a card drawn, which a hand game never has)."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "adult", "seed": 6, "hints": True, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    now = wait_my_turn(page)
    assert now["card"] is None and len({move["card"] for move in now["moves"]}) > 1  # a hand, no card chosen
    # the list of all legal moves holds every card's (it said "All legal moves (0)")
    assert page.locator("#move-count").inner_text() == str(len(now["moves"]))
    page.locator("#hint").click()
    page.wait_for_function("() => window.pardonGame.hinted !== null")
    chances = page.evaluate("() => window.pardonGame.hinted.chances")
    assert set(chances) == {move["move"] for move in now["moves"]}  # every card's moves
    best = max(chances, key=chances.get)
    text = next(move["text"] for move in now["moves"] if move["move"] == best)
    assert page.locator("#message").inner_text().startswith(f"Hint: {text}")
    assert page.evaluate("() => window.pardonGame.state.event") == now["event"]


def test_a_double_is_offered_before_the_draw_and_answered_by_the_computer(live_server: Any, page: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    rules = "classic-1939(scoring=1939,doubling=true)"
    game = create_game(live_server, {"rules": rules, "seed": 3, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    for _ in range(60):
        now = wait_my_turn(page)
        if any(move["move"] == "double" for move in now["moves"]):
            break
        play_by_clicks(page, furthest(now["moves"]))
    else:
        raise AssertionError("Red was never offered a double")
    said = page.locator("#log").inner_text()  # a turn begun without doubling says so: "goes on" said nothing
    assert "goes on" not in said and "Yellow does not double" in said, said
    button = page.locator('#choices button[data-move="double"]')
    assert "Double" in button.inner_text()
    play_by_clicks(page, next(move for move in now["moves"] if move["move"] == "double"))
    page.wait_for_function(
        "() => { const s = window.pardonGame.state;"
        " return s.status === 'finished' || (s.position.doubling && s.position.doubling.stake === 2); }"
    )
    page.wait_for_function(READY)
    after = page.evaluate("() => window.pardonGame.state")
    if after["status"] == "finished":  # Yellow dropped out: Red wins the game and the doubler's 5
        assert after["winner"] == "red"
        assert page.locator("#final-scores").is_visible()
    else:
        assert "Stake ×2" in page.locator("#stake").inner_text()


def test_one_reason_for_several_pawns_is_said_once(live_server: Any, page: Any) -> None:
    """ "a pawn needs the exact count … 1 from Home …; a pawn needs the exact count … 2 from Home …"
    was one prompt: reasons that differ only in a number are said once, the numbers together."""
    game = create_game(live_server, {"seed": 4, "seats": [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]})
    open_game(page, game["seats"][0]["link"])
    merged = page.evaluate(
        """async () => (await import('/static/game/choices.js')).alikeMerged([
            'a pawn needs the exact count to reach Home: it is 1 from Home, not 3',
            'a pawn needs the exact count to reach Home: it is 2 from Home, not 3',
            'a pawn needs the exact count to reach Home: it is 4 from Home, not 5',
            'you have no pawn at 12',
        ])"""
    )
    assert merged == [
        "pawns need the exact count to reach Home: they are 1 and 2 from Home, not 3",
        "a pawn needs the exact count to reach Home: it is 4 from Home, not 5",
        "you have no pawn at 12",
    ]


def test_a_hint_between_moves_as_good_as_each_other_says_so(live_server: Any, page: Any) -> None:
    """Two moves both at 49%: the hint called one of them best, and gave the coach's reason for it."""
    seats = [{"kind": "human"}, {"kind": "bot", "level": "greedy"}]
    game = create_game(live_server, {"rules": "classic", "seed": 4, "hints": True, "seats": seats})
    open_game(page, game["seats"][0]["link"])
    now = play_until_hint_offered(page)
    while len(now["moves"]) < 2:  # a decision with two moves to weigh
        play_by_clicks(page, now["moves"][0])
        now = play_until_hint_offered(page)
    words = page.evaluate(
        """async () => {
            const { hintWords } = await import('/static/game/play.js');
            const [first, second] = window.pardonGame.state.moves;
            const said = (chances) => hintWords(first, { move: first.move, chance: chances[0] }, {
                moves: [{ move: first.move, chance: chances[0] }, { move: second.move, chance: chances[1] }],
                reason: 'Bump Blue',
            });
            return [said([0.491, 0.489]), said([0.62, 0.41]), second.text];
        }"""
    )
    tie, clear, second = words
    assert "just as good" in tie and second in tie and "49%" in tie and "Bump Blue" not in tie, tie
    assert "just as good" not in clear and "62% to win" in clear and "Bump Blue" in clear, clear
