"""The full-screen game driven by keys and clicks through Textual's pilot, headless: a split 7,
an 11's switch, a Sorry! by mouse, why not, hints, taking back, hot-seat, help, the record."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual import events
from tui_support import deciding, game_at, local_app, play_by_keys, screen_text, until

from pardon.core.board import DISTANCE, RED, START
from pardon.core.cards import SORRY
from pardon.core.game import Game, record_of, replay
from pardon.core.notation import format_record, parse_record
from pardon.core.rules import parse_rules
from pardon.textboard import pawn_cell
from pardon.tui.app import BoardView, HelpScreen, PardonApp
from pardon.tui.launch import _save_after_error
from pardon.tui.local import LocalTable
from pardon.tui.picking import DESTINATION, PAWN
from pardon.tui.table import FINISHED

SPLIT = "R:20,36,S2,start Y:40,33,start,start turn:R"


def test_a_split_7_by_keys_pawn_destination_pawn_destination() -> None:
    async def scenario() -> None:
        game = game_at("classic", SPLIT, [7, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            assert "Card: 7" in screen_text(app)
            await pilot.press("3")  # the list: Pawn on S2, Pawn on 36, Pawn on 20
            assert app.picker is not None and app.picker.stage == DESTINATION
            assert "Pawn on 20 goes where?" in screen_text(app)
            for _ in range(3):  # to 27, to 21 (1 of 7), to 22 (2 of 7), to 23 (3 of 7)
                await pilot.press("down")
            await pilot.press("enter")
            assert app.picker.stage == PAWN and "Choose the next pawn:" in screen_text(app)
            await pilot.press("1", "enter")  # the pawn on S2, then its only place: Home
            await until(pilot, lambda: game.turns >= 2)
            assert notation_of(game, 0) == "7 S2-home 20-23"

    asyncio.run(scenario())


def notation_of(game: Game, index: int) -> str:
    """The notation of decision ``index``, as the game's record writes it."""
    return record_of(game).moves[index][1]


def test_an_11_switch_by_keys() -> None:
    async def scenario() -> None:
        game = game_at("classic", "R:20,start,start,start Y:40,33,start,start turn:R", [11, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("enter")  # the pawn on 20
            text = screen_text(app)
            assert "switch with Yellow on 33" in text and "switch with Yellow on 40" in text
            assert "to 31, slide to 34, bumping" in text and "Yellow\n" not in text.split("bumping")[0]
            await pilot.press("down", "enter")
            await until(pilot, lambda: game.turns >= 1)
            assert notation_of(game, 0) == "11 20x33"

    asyncio.run(scenario())


def test_a_sorry_by_mouse_pawn_then_target() -> None:
    async def scenario() -> None:
        game = game_at("classic", "R:20,start,start,start Y:40,33,start,start turn:R", [SORRY, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            start = pawn_cell(RED, START)
            assert start is not None
            await pilot.click(BoardView, offset=(start[1] * 3 + 1, start[0]))
            assert app.picker is not None and app.picker.stage == DESTINATION
            target = pawn_cell(2, DISTANCE[2][40])
            assert target is not None
            await pilot.click(BoardView, offset=(target[1] * 3 + 1, target[0]))
            await until(pilot, lambda: game.turns >= 1)
            assert notation_of(game, 0) == "sorry start-40"

    asyncio.run(scenario())


def test_why_not_says_why_a_pawn_cannot_move() -> None:
    async def scenario() -> None:
        game = game_at("classic", "R:20,S4,home,start Y:40,start,start,start turn:R", [5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("up")  # round to the last line: the pawn in Start, which cannot move
            assert "only a 1, a 2 or a Sorry! brings a pawn out of Start" in app.info
            await pilot.press("enter")  # picking it only says why again
            assert app.picker is not None and app.picker.stage == PAWN and game.turns == 0
            await pilot.press("down", "w")  # the cursor back on the pawn on 20: every reason at once
            assert "Pawn on S4: a pawn needs the exact count to reach Home: it is 2 from Home, not 5." in app.info
            assert "Pawn in Start: only a 1, a 2 or a Sorry!" in app.info

    asyncio.run(scenario())


def test_why_not_names_the_partners_pawns_too() -> None:
    # with partners Red moves Yellow's pawns as well: why they cannot move was left unsaid
    async def scenario() -> None:
        position = "R:20,home,home,home B:40,start,start,start Y:S4,start,start,home G:10,start,start,start turn:R"
        game = game_at("partners", position, [5, 5, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("w")
            assert "Yellow's pawn on S4: a pawn needs the exact count to reach Home: it is 2 from Home, not 5." in (
                app.info
            )
            assert "Yellow's pawn in Start: only a 1, a 2 or a Sorry! brings a pawn out of Start." in app.info
            assert "Pawn on 20" not in app.info and "Green" not in app.info  # Red's 20 can move; Green is a foe

    asyncio.run(scenario())


def test_why_not_after_picking_a_pawn_still_names_the_pawns_that_cannot_move() -> None:
    async def scenario() -> None:
        game = game_at("classic", "R:20,start,start,start Y:40,start,start,start turn:R", [11, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("enter", "w")  # the pawn on 20 picked: its places listed, then why not
            assert app.picker is not None and app.picker.stage == DESTINATION
            assert app.info == "Pawn in Start: only a 1, a 2 or a Sorry! brings a pawn out of Start."

    asyncio.run(scenario())


def test_why_not_on_a_card_of_the_hand_names_the_pawns_that_card_cannot_move() -> None:
    # choosing from a hand, "w" said every pawn could move, with three pawns stuck in Start
    async def scenario() -> None:
        position = "R:20,start,start,start Y:40,start,start,start hand:R:3,5,7,11,12 hand:Y:4,4,8,10,10 turn:R"
        game = game_at("adult", position, [5] * 20)
        app = local_app(game)
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: deciding(app))
            assert "Choose a card to play:" in screen_text(app)
            await pilot.press("w")  # the cursor on the 3
            assert app.info == "Pawn in Start: only a 1, a 2 or a Sorry! brings a pawn out of Start."
            await pilot.press("down", "down", "down", "w")  # the 11: the pawn on 20 may switch with 40
            assert "Pawn in Start" in app.info and "Every pawn" not in app.info

    asyncio.run(scenario())


def test_escape_takes_back_a_pick_and_undo_takes_back_a_move() -> None:
    async def scenario() -> None:
        game = game_at("classic", "R:20,30,start,start Y:40,start,start,start turn:R", [5, 5, 8, 3, 3, 3])
        app = local_app(game, level="greedy")
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("enter")
            assert app.picker is not None and app.picker.stage == DESTINATION
            await pilot.press("escape")
            assert app.picker.stage == PAWN
            before = game.state
            await pilot.press("enter", "enter")
            await until(pilot, lambda: game.turns >= 1 and deciding(app))
            assert game.state != before
            await pilot.press("u")
            assert game.state == before  # the same card again, the pack as it was
            assert "Took back" in app.info

    asyncio.run(scenario())


def test_a_hint_ranks_the_choices_with_their_chances() -> None:
    async def scenario() -> None:
        game = game_at("classic", SPLIT, [7, 5, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("h")
            await until(pilot, lambda: app.info.startswith("Hint"))
            assert "%" in app.info
            assert app.table.hint_reason and f"Why: {app.table.hint_reason}" in app.info  # the coach's line

    asyncio.run(scenario())


def test_hot_seat_hands_stay_hidden_until_the_next_player_is_at_the_keys() -> None:
    async def scenario() -> None:
        game = Game.new(parse_rules("adult"), (0, 2), seed=4)
        app = local_app(game, people=(0, 2))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            first = app.view_now.decider
            assert first is not None and app.covered
            assert "Pass the keys to" in screen_text(app) and "Hand:" not in screen_text(app)
            await pilot.press("enter")
            assert not app.covered and "Hand:" in screen_text(app)
            while app.view_now.decider == first:
                await pilot.press("enter")
                await until(pilot, lambda: deciding(app))
            assert app.covered and "Hand:" not in screen_text(app)

    asyncio.run(scenario())


def test_help_shows_the_keys_and_the_legend() -> None:
    async def scenario() -> None:
        game = game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            text = screen_text(app)
            assert "why can't this pawn move?" in text and "the Fire pawn" in text
            await pilot.press("x")
            assert not isinstance(app.screen, HelpScreen)

    asyncio.run(scenario())


def test_keys_that_come_while_the_help_closes_leave_the_game_on_screen() -> None:
    """A held arrow or two quick keys: the second came before the help had gone and closed
    the game's own screen, which ended the program."""

    async def scenario() -> None:
        game = game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5])
        app = local_app(game)
        async with app.run_test(size=(120, 50)) as pilot:
            await until(pilot, lambda: deciding(app))
            for _ in range(3):
                await pilot.press("question_mark")
                help_screen = app.screen
                assert isinstance(help_screen, HelpScreen)
                for key in ("x", "y", "down"):  # queued together, before the first is handled
                    help_screen.post_message(events.Key(key, None))
                await pilot.pause()
                await pilot.pause()
                assert app.is_running and not isinstance(app.screen, HelpScreen)
            assert "why not" in screen_text(app).lower() or deciding(app)

    asyncio.run(scenario())


def test_a_game_not_over_is_saved_when_the_screen_stops_on_an_error(tmp_path: Path) -> None:
    async def scenario() -> PardonApp:
        record = tmp_path / "game.txt"
        game = Game.new(parse_rules("classic"), (0, 2), seed=8)
        app = local_app(game, record=record)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(2):
                await until(pilot, lambda: deciding(app))
                await pilot.press("enter")
            await until(pilot, lambda: deciding(app))
        return app

    app = asyncio.run(scenario())
    record = tmp_path / "game.txt"
    assert not record.exists()
    _save_after_error(app)  # what pardon tui does once the screen has stopped on an error
    assert app.saved == record
    assert replay(parse_record(record.read_text())).position == app.view_now.position


def test_the_record_saved_midway_replays_to_the_game_so_far(tmp_path: Path) -> None:
    async def scenario() -> None:
        record = tmp_path / "game.txt"
        game = Game.new(parse_rules("classic"), (0, 2), seed=8)
        app = local_app(game, record=record)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3):
                await until(pilot, lambda: deciding(app))
                await pilot.press("enter")
            await until(pilot, lambda: deciding(app))
            await pilot.press("s")
            await until(pilot, record.exists)
            assert replay(parse_record(record.read_text())).position == game.position

    asyncio.run(scenario())


def test_q_in_a_game_not_over_asks_first_and_brings_a_saved_record_up_to_date(tmp_path: Path) -> None:
    async def scenario() -> None:
        record = tmp_path / "game.txt"
        game = Game.new(parse_rules("classic"), (0, 2), seed=8)
        app = local_app(game, record=record)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("s")
            await until(pilot, record.exists)
            for _ in range(2):
                await until(pilot, lambda: deciding(app))
                await pilot.press("enter")
            await until(pilot, lambda: deciding(app))
            await pilot.press("q")  # a stray q: the game goes on, and the screen says how to quit
            assert app.is_running and "q again quits" in app.info and "The game is not over" in screen_text(app)
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)
        assert replay(parse_record(record.read_text())).position == game.position  # not the game at s

    asyncio.run(scenario())


def test_the_end_says_who_won_saves_the_record_and_n_starts_another_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        record = tmp_path / "end.txt"
        game = game_at("classic", "R:S4,home,home,home Y:40,start,start,start turn:R", [2, 5])
        following = Game.new(parse_rules("classic"), (0, 2), seed=9)
        app = local_app(game, record=record, new_game=lambda: (LocalTable(following, {0}, "random", 0), None))
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("enter", "enter")  # the pawn on S4, Home: every Red pawn is Home
            await until(pilot, record.exists)
            text = screen_text(app)
            assert "Red wins!" in text and "Record saved to" in text and "n new game" in text
            assert app.saved == record
            assert parse_record(record.read_text()).result == RED
            await pilot.press("n")
            await until(pilot, lambda: app.view_now.status != FINISHED and deciding(app))
            assert app.table.view().position.seats == (0, 2) and "Red wins!" not in screen_text(app)

    asyncio.run(scenario())


def test_a_win_taken_back_and_won_another_way_saves_the_new_record(tmp_path: Path) -> None:
    async def scenario() -> None:
        record = tmp_path / "end.txt"
        game = game_at("classic", "R:58,home,home,home Y:40,start,start,start turn:R", [10, 5, 1, 5, 10, 5])
        app = local_app(game, record=record)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.press("enter", "enter")  # 10: the pawn on 58 forward to Home, and Red wins
            await until(pilot, record.exists)
            await pilot.press("u")  # taken back: the same 10, now back 1 to 57
            assert app.view_now.status != FINISHED and "Took back 1 decision." in screen_text(app)
            await pilot.press("enter", "down", "enter")
            await play_by_keys(pilot, app)  # a 1 to 58, then the 10 to Home: Red wins again
            await until(pilot, lambda: "Record saved to" in app.info)
        kept = parse_record(record.read_text())
        assert kept.result == RED and len(kept.moves) == len(record_of(game).moves) == 5

    asyncio.run(scenario())


def test_the_same_decision_twice_running_is_offered_twice() -> None:
    """A 2 no pawn can use, then (drawing again) another: two decisions that look alike."""

    async def scenario() -> None:
        game = game_at("classic", "R:home,home,home,S5 Y:40,start,start,start turn:R", [2, 2, 1])
        app = local_app(game)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await play_by_keys(pilot, app) == 4  # pass, pass, then the pawn on S5 and Home
            assert [move for _, move in record_of(game).moves] == ["2 pass", "2 pass", "1 S5-home"]

    asyncio.run(scenario())


def test_a_game_taken_up_from_its_record_has_its_log_its_players_and_take_back() -> None:
    # pardon tui --resume: the game goes on where it was left, as if never left
    table = LocalTable(Game.new(parse_rules("classic"), (0, 2), seed=11), {0}, "greedy", pace=0)
    while table.game.turns < 30:
        move = table._computer_choice() if table.game.decider == 2 else table.game.legal_moves()[0]
        assert move is not None
        table._make(move)
    record = table.record()
    assert record.players == ((0, "you"), (2, "greedy"))
    again = LocalTable(replay(parse_record(format_record(record))), {0}, "greedy", pace=0)
    assert again.view().log == table.view().log and len(again.view().log) > 10
    assert again.view().position == table.view().position and again.record() == record
    assert again.take_back() == table.take_back() > 0  # taking back reaches into the moves before leaving
    assert again.game.position == table.game.position
