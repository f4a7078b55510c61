"""What the screen says, said whole: the end's points, the stake, hints, every option, the help,
at 80 x 24 and at the smallest size, 69 x 19; and the keys that quit, as a player expects them."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from tui_support import deciding, game_at, local_app, play_by_keys, screen_text, until

from pardon.core.board import DISTANCE, YELLOW
from pardon.core.game import Game, record_of
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.textboard import pawn_cell
from pardon.tui.app import LARGE_FROM, SMALLEST, BoardView, HelpScreen, PardonApp
from pardon.tui.boardview import LARGE, SMALL
from pardon.tui.launch import _farewell
from pardon.tui.local import LocalTable

SIZES = [(80, 24), SMALLEST]
DOUBLING = "classic-1939(scoring=1939,doubling=true)"
#: Adult, 4 players: Red's 1 takes its last pawn Home, with points for all.
ADULT_END = (
    "R:S5,home,home,home B:20,home,start,start Y:home,S3,home,start G:40,30,home,start "
    "hand:R:1,5,5,5,5 hand:B:5,5,5,5,5 hand:Y:5,5,5,5,5 hand:G:5,5,5,5,5 turn:R"
)


def screen_lines(app: PardonApp) -> list[str]:
    return screen_text(app).split("\n")[: app.size[1]]


def panel(app: PardonApp, raw: bool = False) -> list[str]:
    """The panel's lines, beside the board (``raw``: as drawn, else without the spaces round them)."""
    width, height = app.size
    cell = LARGE if width >= LARGE_FROM[0] and height >= LARGE_FROM[1] else SMALL
    lines = [line[16 * cell[0] + 1 :] for line in screen_lines(app)[1 : 1 + 16 * cell[1]]]
    return lines if raw else [line.strip() for line in lines]


def panel_words(app: PardonApp) -> str:
    return " ".join(" ".join(panel(app)).split())


def options_accounted(app: PardonApp) -> int:
    """How many options the panel shows (each block's first line) or counts ("... 2 more below")."""
    shown = sum(1 for line in panel(app, raw=True) if re.match(r"^[> ][0-9x] ", line))
    counted = sum(int(number) for number in re.findall(r"\.\.\. (\d+) more (?:above|below)", "\n".join(panel(app))))
    return shown + counted


# --- 1. the end's points, whole ------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "69x19"])
def test_the_end_shows_every_players_points_whole_and_the_farewell_gives_them(
    size: tuple[int, int], capsys: pytest.CaptureFixture[str]
) -> None:
    # "Yellow wins!  Red 10, Yellow 5" for 55, and "Blue wins!  Red 0, Blue 90, Ye": cut at the panel's edge
    async def scenario() -> PardonApp:
        app = local_app(game_at("adult", ADULT_END, [5] * 30))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("1")  # the 1 of the hand, then the pawn on S5 Home
            await play_by_keys(pilot, app)
            await pilot.pause()
            assert app.view_now.points == {0: 85, 1: 5, 2: 10, 3: 5}
            lines = panel(app)
            assert lines[0] == "Red wins!"
            for name, points in [("Red", 85), ("Blue", 5), ("Yellow", 10), ("Green", 5)]:
                assert f"{name} {points}" in lines, (name, lines)
        return app

    app = asyncio.run(scenario())
    _farewell(app)
    assert capsys.readouterr().out == "Red won. Points: Red 85, Blue 5, Yellow 10, Green 5.\n"


# --- 2. the stake in the title, the double at issue ----------------------------------------------


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "69x19"])
@pytest.mark.parametrize("players", [2, 4])
def test_with_doubling_the_title_keeps_the_stake_and_the_pack_apart(size: tuple[int, int], players: int) -> None:
    # "R  you  Y  youstake x1024  p": the stake and the pack lost, the words run together
    async def scenario() -> None:
        game = Game.new(parse_rules(DOUBLING), seats_for(players), seed=3)
        app = local_app(game, people=(0, 2), level="expectimax")
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: deciding(app))
            title = screen_lines(app)[0]
            assert re.search(r" stake x1  pack \d+ $", title), title
            assert re.search(r"\S(stake|pack)", title) is None
            if players == 4:  # Blue's computer is named, or left out as a whole
                assert " B  expectimax " in title or re.search(r" B  {2}Y ", title), title

    asyncio.run(scenario())


def test_at_80_columns_computers_of_one_level_are_named_once() -> None:
    """Three computers' names do not fit beside the stake and the pack: they were all left out."""

    async def scenario() -> None:
        game = Game.new(parse_rules("classic(scoring=1939,doubling=true)"), seats_for(4), seed=3, first=0)
        app = local_app(game, people=(0,), level="expectimax")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            title = screen_lines(app)[0]
            assert re.search(r" R  you  B   Y   G   others: expectimax +stake x1  pack \d+ $", title), title

    asyncio.run(scenario())


def test_a_computers_name_and_the_pack_do_not_run_together() -> None:
    # "Green  greedypack 43"
    async def scenario() -> None:
        app = local_app(Game.new(parse_rules("classic"), seats_for(4), seed=3), level="greedy")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            title = screen_lines(app)[0]
            assert "greedy " in title and re.search(r" pack \d+ $", title), title

    asyncio.run(scenario())


def test_a_double_offered_says_the_stake_at_issue() -> None:
    async def scenario() -> None:
        game = game_at(DOUBLING, "R:20,start,start,start Y:40,start,start,start turn:R", [5, 5, 5])
        app = local_app(game, people=(0, 2))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            assert "Double the stakes (x1 -> x2)" in panel_words(app)
            await pilot.press("2")
            await until(pilot, lambda: deciding(app) and app.view_now.stage == "answering")
            words = panel_words(app)
            assert "Red doubled the stakes (x1 -> x2): accept, or drop out (score nothing)?" in words, words
            await pilot.press("1")  # Yellow accepts: the stake is 2
            await until(pilot, lambda: app.view_now.position.stake == 2)
            await pilot.pause()
            assert "stake x2  pack" in screen_lines(app)[0]

    asyncio.run(scenario())


# --- 3, 4 and 8. hints shown whole, every option shown or counted, the hint's cards ------------------


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_a_hint_uses_the_room_the_panel_has(size: tuple[int, int]) -> None:
    # cut to 4 lines: the second choice and the "Why:" never appeared
    async def scenario() -> None:
        game = game_at("classic", "R:20,36,S2,start Y:40,33,start,start turn:R", [7, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("h")
            await until(pilot, lambda: app.info.startswith("Hint"))
            await pilot.pause()
            shown = panel_words(app)
            reason = app.table.hint_reason
            assert reason and f"Why: {reason}" in shown, shown
            for line in app.info.split("\n")[1:3]:  # the best two, each with its chance
                assert line in shown, line
            assert "…" not in shown
            assert options_accounted(app) == len(app.options())

    asyncio.run(scenario())


@pytest.mark.parametrize("size", SIZES, ids=["80x24", "69x19"])
def test_every_option_is_shown_or_counted_under_a_hint(size: tuple[int, int]) -> None:
    # adult, seed 5, h at "Choose a card to play": 1-4 shown, "5 Play 10" gone without "1 more below"
    async def scenario() -> None:
        app = local_app(Game.new(parse_rules("adult"), seats_for(2), seed=5))
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("h")
            await until(pilot, lambda: app.info.startswith("Hint"))
            await pilot.pause()
            assert len(app.options()) == 5 and options_accounted(app) == 5, panel(app)
            for _ in range(5):  # the cursor down the list: each window counts the rest
                await pilot.press("down")
                assert options_accounted(app) == 5, panel(app)

    asyncio.run(scenario())


def test_a_hint_in_a_hand_game_names_each_choices_card_and_keeps_to_the_card_picked() -> None:
    # "50% 4 to 14; 49% 4 to 11": which card? And after picking the 3, the 10 and the 7 still ranked.
    async def scenario() -> None:
        app = local_app(Game.new(parse_rules("adult"), seats_for(2), seed=5))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("h")
            await until(pilot, lambda: app.info.startswith("Hint"))
            ranked = app.info.split("\n")[1:3]
            assert ranked == ["50% 10: 4 to 14", "49% 7: 4 to 11"], app.info
            await pilot.press("2")  # Play 3
            assert app.picker is not None and app.picker.card == 3
            await pilot.press("h")
            await until(pilot, lambda: app.info.startswith("Hint"))
            lines = app.info.split("\n")
            assert lines[0] == "Hint for the 3, chance to win:" and lines[1] == "48% 4 to 7", app.info
            assert "(best of the hand: 50% 10: 4 to 14)" in lines  # said, not ranked with the 3's
            assert not any(line.startswith("49%") for line in lines)

    asyncio.run(scenario())


# --- 5 and 6. the solo challenge's count, the partners -------------------------------------------


def test_the_solo_challenge_ends_with_its_count(capsys: pytest.CaptureFixture[str]) -> None:
    # "Red wins!" and "Red won.": the count of cards, the challenge's score, was never said
    async def scenario() -> PardonApp:
        app = local_app(game_at("solo", "R:S4,home,home,home turn:R", [1, 1, 5]))
        async with app.run_test(size=SMALLEST) as pilot:
            await play_by_keys(pilot, app)
            await pilot.pause()
            assert "All Home in 2 cards!" in panel_words(app)
        return app

    app = asyncio.run(scenario())
    _farewell(app)
    assert capsys.readouterr().out == "Red brought every pawn Home in 2 cards (fewer is better).\n"


PARTNERS_END = "R:S5,home,home,home B:20,start,start,start Y:home,home,home,home G:40,start,start,start turn:R"


def test_partners_are_named_and_win_together(capsys: pytest.CaptureFixture[str]) -> None:
    # "Red wins!" for a team's win, and nothing said of who plays with whom
    async def scenario() -> PardonApp:
        app = local_app(game_at("partners", PARTNERS_END, [1, 5, 5]))
        async with app.run_test(size=SMALLEST) as pilot:
            await until(pilot, lambda: deciding(app))
            assert "You (Red) play with Yellow" in panel_words(app)
            await pilot.press("question_mark")
            help_text = " ".join(screen_text(app).split())
            assert "Partners: Red and Yellow against Blue and Green." in help_text
            await pilot.press("x")
            await play_by_keys(pilot, app)
            await pilot.pause()
            assert panel(app)[0] == "Red and Yellow win!"
        return app

    app = asyncio.run(scenario())
    _farewell(app)
    assert capsys.readouterr().out == "Red and Yellow won.\n"


def test_watching_partners_names_both_teams() -> None:
    async def scenario() -> None:
        app = PardonApp(LocalTable(game_at("partners", PARTNERS_END, [5, 5, 5, 5, 5]), (), "random", pace=5))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert "Teams: Red+Yellow v Blue+Green" in panel_words(app)

    asyncio.run(scenario())


# --- 7. the help ---------------------------------------------------------------------------------


def test_the_help_shows_the_legend_as_written_and_every_key() -> None:
    # "[R]" was eaten as markup ("a pawn: R B Y G by colour"); n, the numbers and the mouse unlisted
    async def scenario() -> None:
        app = local_app(game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5]))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("question_mark")
            text = screen_text(app)
            assert "[R] a pawn: R B Y G by colour" in text and "#R# a pawn frozen by the Ice" in text
            for key, what in [("n", "a new game"), ("1 ... 0", "pick that line at once"), ("a click", "pick the pawn")]:
                assert re.search(rf"│ {re.escape(key)} +{what}", text), key
            assert "any key goes back" in text

    asyncio.run(scenario())


def test_the_help_made_smaller_says_that_it_scrolls_and_larger_that_it_does_not() -> None:
    async def scenario() -> None:
        app = local_app(game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5]))
        async with app.run_test(size=(100, 50)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("question_mark")
            await pilot.pause()
            assert "any key goes back" in screen_text(app)
            await pilot.resize_terminal(*SMALLEST)
            await until(pilot, lambda: "any other key goes back" in screen_text(app))
            await pilot.resize_terminal(100, 50)
            await until(pilot, lambda: "any key goes back" in screen_text(app))
            assert isinstance(app.screen, HelpScreen)

    asyncio.run(scenario())


def test_the_help_at_the_smallest_size_scrolls_and_says_how_to_go_back() -> None:
    async def scenario() -> None:
        app = local_app(game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5]))
        async with app.run_test(size=SMALLEST) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("question_mark")
            await pilot.pause()
            text = screen_text(app)
            assert "any other key goes back" in text and "╰" in text  # the frame's foot, in view
            assert "the pawn you picked" not in text  # the last line of the help, below
            await pilot.press("end")
            await pilot.pause()
            assert isinstance(app.screen, HelpScreen) and "the pawn you picked" in screen_text(app)
            await pilot.press("x")
            assert not isinstance(app.screen, HelpScreen)

    asyncio.run(scenario())


# --- 9. the smallest size ------------------------------------------------------------------------


def test_at_the_smallest_size_the_title_the_keys_and_the_quit_warning_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    record = Path("pardon-123456.txt")  # as the command names it

    async def scenario() -> None:
        app = local_app(Game.new(parse_rules("classic"), seats_for(4), seed=3), level="expectimax", record=record)
        async with app.run_test(size=SMALLEST) as pilot:
            await until(pilot, lambda: deciding(app))
            lines = screen_lines(app)
            assert re.search(r"\bR  you .* pack \d+ $", lines[0]), lines[0]
            assert lines[-1].rstrip().endswith("? help  q quit") and "pick" in lines[-1], lines[-1]
            await pilot.press("q")
            assert app.info in panel_words(app), panel(app)  # whole, the file's name and all
            assert "pardon-123456.txt" in app.info

    asyncio.run(scenario())


# --- 10. the log's and the choices' words --------------------------------------------------------


def test_the_leader_draw_names_the_sorry_card_as_players_do() -> None:
    table = LocalTable(Game.new(parse_rules("adult"), (0, 1, 2), seed=12), {0}, "random", pace=0)
    assert table.view().log[0] == "Leader draw: Red 5, Blue Sorry!, Yellow 1. Blue plays first."


def test_the_fire_left_off_is_said_in_words() -> None:
    # "no token"
    async def scenario() -> None:
        app = local_app(game_at("modern", "R:5,start,start Y:40,33,start turn:R", [2, 5, 5]))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("1", "1")  # the pawn on 5, forward 2
            labels = [option.label for option in app.options()]
            assert "No Fire this time" in labels and "no token" not in labels, labels

    asyncio.run(scenario())


# --- 11, 12 and 13. quitting, and undo where it can be --------------------------------------------


def test_ctrl_c_quits_as_q_does_asking_first() -> None:
    # Textual's own "Do you want to quit? Press ctrl+q to quit the app"
    async def scenario() -> None:
        app = local_app(Game.new(parse_rules("classic"), seats_for(2), seed=8))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("ctrl+c")
            assert app.is_running and "q again quits" in app.info
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(scenario())


def test_q_asks_again_once_the_player_has_gone_on() -> None:
    # after one q and playing on, a later q quit at once
    async def scenario() -> None:
        game = Game.new(parse_rules("classic"), seats_for(2), seed=8)
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("q")
            assert "q again quits" in app.info
            await pilot.press("enter")  # the game goes on
            assert "q again quits" not in app.info
            await until(pilot, lambda: deciding(app) and game.turns > 0)
            await pilot.press("q")
            await pilot.pause()
            assert app.is_running and "q again quits" in app.info
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(scenario())


def test_watching_offers_no_undo() -> None:
    async def scenario() -> None:
        game = Game.new(parse_rules("classic"), seats_for(2), seed=8)
        app = PardonApp(LocalTable(game, frozenset(), "random", pace=5))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            keys = screen_lines(app)[-1]
            assert "q quit" in keys and "undo" not in keys, keys

    asyncio.run(scenario())


def test_the_log_wraps_every_move_whole_and_scrolls_back() -> None:
    """Lines were cut at 80 columns ("...Yellow Sorry!. Yello"), and only the last few kept."""

    async def scenario() -> None:
        game = Game.new(parse_rules("classic"), seats_for(4), 7)
        app = local_app(game, people=())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.view_now.status == "finished", seconds=120)
            await pilot.pause(0.2)
            log = app.query_one("#log")
            shown = "\n".join(screen_lines(app)[17:23])
            last = app.view_now.log[-1]
            assert " ".join(shown.split()).endswith(" ".join(last.split())), shown  # whole, wrapped, in view
            assert "…" not in shown
            bottom = log.scroll_y
            await pilot.press("pageup", "pageup")
            assert log.scroll_y < bottom and last.split()[-1] not in "\n".join(screen_lines(app)[17:23])
            await pilot.press("pagedown", "pagedown", "pagedown")
            assert log.scroll_y == bottom

    asyncio.run(scenario())


def test_a_partners_move_names_whose_pawn_it_moved() -> None:
    from pardon.core.describe import describe_move

    position = "R:home,home,home,S4 B:start,start,start,start Y:20,home,home,home G:start,start,start,start turn:R"
    game = game_at("partners", position, [2, 5, 5])
    if game.awaiting_draw:
        game.draw()
    moves = game.legal_moves()
    words = [describe_move(game.rules, game.position, move) for move in moves]
    assert any(text.startswith("Red plays a 2: Yellow's pawn from 20 to 22") for text in words), words


def test_a_leader_draw_ending_in_a_sorry_has_no_stray_full_stop() -> None:
    from pardon.core.cards import SORRY
    from pardon.core.describe import leader_draw_words
    from pardon.core.turn import LeaderDraw

    words = leader_draw_words(LeaderDraw((((0, 5), (2, SORRY)),), 2))
    assert words == "Leader draw: Red 5, Yellow Sorry! Yellow plays first."


# --- round two: 6. the Fire and the Ice on the board ---------------------------------------------


def board_cell(app: PardonApp, cell: tuple[int, int] | None) -> str:
    """What a cell of the small board shows (the title is the screen's first line)."""
    assert cell is not None
    row, column = cell
    return screen_lines(app)[1 + row][3 * column : 3 * column + 3]


def test_the_pawns_the_ice_may_go_on_are_marked_on_the_board_and_a_click_puts_it_there() -> None:
    # "Ice on Yellow 40", "Ice on Yellow 33" listed, the two Yellow pawns unmarked: which is which?
    async def scenario() -> None:
        game = game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("1", "1")  # the pawn on 5, to 6
            assert [option.label for option in app.options()] == ["Ice on Yellow 40", "Ice on Yellow 33"]
            cells = [pawn_cell(YELLOW, DISTANCE[YELLOW][square]) for square in (40, 33)]
            assert [board_cell(app, cell) for cell in cells] == ["Y1 ", "Y2 "]  # numbered as in the list
            row, column = cells[1] or (0, 0)
            await pilot.click(BoardView, offset=(3 * column + 1, row))
            await until(pilot, lambda: game.turns >= 1)
            assert record_of(game).moves[0][1] == "1 ice:33 5-6"
            assert game.position.ice == (YELLOW, DISTANCE[YELLOW][33])

    asyncio.run(scenario())


def test_the_fire_bumped_off_its_pawn_shows_in_the_centre_with_the_card_that_places_it() -> None:
    # the Fire pawn sent to Start: the "*Y*" gone, and nothing said of where the Fire went
    async def scenario() -> None:
        game = game_at("modern", "R:28,start,start Y:40,33,start turn:R fire:Y33", [5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            fire_pawn = pawn_cell(YELLOW, DISTANCE[YELLOW][33])
            assert board_cell(app, fire_pawn) == "*Y*"
            text = screen_text(app)
            assert "Fire: centre" not in text and "Ice: centre, for a 1" in text  # the Ice is in the centre
            await pilot.press("1", "1")  # the pawn on 28, to 33: bumping the Fire pawn
            await until(pilot, lambda: game.turns >= 2 and deciding(app))
            assert game.position.fire is None
            text = screen_text(app)
            assert "*Y*" not in text and "Fire: centre, for a 2" in text and "Ice: centre, for a 1" in text

    asyncio.run(scenario())


# --- round two: 13. the hand of five ---------------------------------------------------------------

DEAD_HAND = "R:start,start,start,start Y:20,start,start,start turn:R hand:R:3,4,5,7,8 hand:Y:3,4,5,7,8"


def test_a_dead_hand_discards_the_card_picked_at_once() -> None:
    # "Discard 5" picked, then "Discard 5" again in a list of one: two steps for one decision
    async def scenario() -> None:
        game = game_at("adult", DEAD_HAND, [5, 5, 5, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            assert "No card can be used: discard one." in panel_words(app)
            labels = [option.label for option in app.options()]
            assert labels == ["Discard 3", "Discard 4", "Discard 5", "Discard 7", "Discard 8"], labels
            await pilot.press("3")
            await until(pilot, lambda: game.turns >= 1, seconds=5)
            assert record_of(game).moves[0] == (0, "5 pass")  # the 5 picked, discarded

    asyncio.run(scenario())


def test_a_hint_at_80x24_leaves_the_whole_hand_listed() -> None:
    # the hint under the list took its room: "... 2 more above", "> 3 Play 10", the other cards unseen
    async def scenario() -> None:
        app = local_app(Game.new(parse_rules("adult"), (0, 1, 2), seed=12))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("down", "down", "h")
            await until(pilot, lambda: app.info.startswith("Hint"))
            shown = panel(app)
            for label in ("1 Play 2", "2 Play 3", ">3 Play 10", "4 Play 11"):
                assert label in shown, shown
            assert not any("more above" in line or "more below" in line for line in shown), shown
            hint = " ".join(" ".join(shown[shown.index("Hint, chance to win:") :]).split())
            assert hint.endswith("nearer Home") and "…" not in hint, hint  # the hint whole too

    asyncio.run(scenario())
