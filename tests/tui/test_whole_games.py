"""Whole games played by keys against the computer, headless through Textual's pilot: the classic
game, a hand game (hands of five) and a Fire and Ice game; each ends with its record saved, and the
record replays to the very game the screen showed."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from tui_support import local_app, play_by_keys, screen_text, until

from pardon.core.board import COLOUR_NAMES
from pardon.core.game import Game, record_of, replay
from pardon.core.notation import parse_record
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.tui.table import FINISHED

#: (rules, computer level, keys pressed in turn at each of the person's decisions)
GAMES = [
    ("classic", "greedy", ("enter",)),
    ("adult", "tactician", ("down", "enter")),  # not always the first card of the hand
    ("modern", "greedy", ("enter", "up", "enter")),
]


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "level", "keys"), GAMES, ids=[game[0] for game in GAMES])
def test_a_whole_game_by_keys_against_the_computer(
    rules: str, level: str, keys: tuple[str, ...], tmp_path: Path
) -> None:
    record = tmp_path / "game.txt"

    async def scenario() -> Game:
        game = Game.new(parse_rules(rules), seats_for(2), seed=21)
        app = local_app(game, level=level, record=record)
        async with app.run_test(size=(80, 24)) as pilot:
            pressed = await play_by_keys(pilot, app, keys)
            await until(pilot, record.exists)
            assert app.view_now.status == FINISHED
            winner = game.winner
            assert winner is not None
            text = screen_text(app)
            assert f"{COLOUR_NAMES[winner].capitalize()} wins!" in text and "Record saved to" in text
            reds = [move for colour, move in record_of(game).moves if colour == 0]
            assert pressed >= len(reds) > 10
            if rules == "modern":  # the person put the Ice and moved the Fire pawn too
                assert any("ice:" in move for move in reds) and any(move.startswith("fire ") for move in reds)
        return game

    game = asyncio.run(scenario())
    replayed = replay(parse_record(record.read_text()))
    assert replayed.position == game.position and replayed.winner == game.winner
