"""The screen as a person sees it, at 80 x 24 and at 120 x 40: kept as text snapshots (what a
terminal without colour shows) in tests/tui/snapshots/, compared character for character.

After a deliberate change to the screen, write them again and read the difference before keeping
it::

    PARDON_UPDATE_SNAPSHOTS=1 .venv/bin/python -m pytest tests/tui/test_screens.py
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from tui_support import deciding, game_at, local_app, screen_text, until

from pardon.core.game import Game
from pardon.core.rules import parse_rules
from pardon.tui.app import PardonApp

SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
SPLIT = "R:20,36,S2,start Y:40,33,start,start turn:R"


def split_seven() -> Game:
    """A classic game where Red has drawn a 7: three pawns can use it, one cannot."""
    return game_at("classic", SPLIT, [7, 5, 5, 5])


def hand_game() -> Game:
    """Hands of five, Red to play (the 1992 adult game)."""
    return Game.new(parse_rules("adult"), (0, 1, 2), seed=12)


def fire_and_ice() -> Game:
    """The 2013 game with Fire and Ice, a 1 drawn: after the pawn, where the Ice goes."""
    return game_at("modern", "R:5,start,start Y:40,33,start turn:R", [1, 5, 5])


#: name, game, terminal size, keys pressed once Red is to decide
SCREENS = [
    ("split-seven-80x24", split_seven, (80, 24), ["3"]),
    ("split-seven-120x40", split_seven, (120, 40), ["3", "down", "down"]),
    ("hand-80x24", hand_game, (80, 24), []),
    ("hand-120x40", hand_game, (120, 40), ["down"]),
    ("fire-and-ice-80x24", fire_and_ice, (80, 24), ["enter", "enter"]),
]


def shown(make: object, size: tuple[int, int], keys: list[str]) -> tuple[str, PardonApp]:
    async def scenario() -> tuple[str, PardonApp]:
        app = local_app(make())  # type: ignore[operator]
        async with app.run_test(size=size) as pilot:
            await until(pilot, lambda: deciding(app))
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            return screen_text(app), app

    return asyncio.run(scenario())


@pytest.mark.parametrize(("name", "make", "size", "keys"), SCREENS, ids=[screen[0] for screen in SCREENS])
def test_the_screen_matches_its_snapshot(name: str, make: object, size: tuple[int, int], keys: list[str]) -> None:
    text, _ = shown(make, size, keys)
    lines = text.split("\n")
    assert len(lines[: size[1]]) == size[1] and all(len(line) <= size[0] for line in lines)
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("PARDON_UPDATE_SNAPSHOTS") or not path.exists():
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"the screen differs from {path.name}"


def test_without_colour_every_pawn_still_reads_by_its_letter() -> None:
    text, _ = shown(split_seven, (80, 24), [])
    board = [line[:48] for line in text.split("\n")[1:17]]
    assert sum(line.count("[Y]") for line in board) == 2  # Yellow's two pawns out, by letter
    assert sum(line.count("R1") + line.count("R2") + line.count("R3") for line in board) == 3  # Red's, numbered
    assert any("s2y" in line for line in board)  # two Yellow pawns in Start


def test_in_colour_the_pawns_wear_their_colours() -> None:
    async def scenario() -> str:
        app = local_app(split_seven())
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: deciding(app))
            return app.export_screenshot()

    svg = asyncio.run(scenario())
    assert "#e0a800" in svg and "#c62828" in svg  # Yellow's pawns and Red's, on the cream board


def test_a_resized_terminal_is_drawn_at_its_new_size_at_once() -> None:
    """The screen follows the terminal without waiting for a key: smaller, the board small and
    the pack in the title's corner; larger, the board large again."""
    small, _ = shown(split_seven, (80, 24), [])

    async def scenario() -> None:
        app = local_app(split_seven())
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: deciding(app))
            before = screen_text(app)
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert screen_text(app) == small
            await pilot.resize_terminal(120, 40)
            await pilot.pause()
            assert screen_text(app) == before

    asyncio.run(scenario())


def test_a_terminal_too_small_for_the_game_says_so_and_plays_nothing() -> None:
    """At 40 x 12 neither the card nor the choices could be seen: the screen says how large it
    must be, the keys play nothing blindly, and at 80 x 24 the game is there again."""
    small, _ = shown(split_seven, (80, 24), [])

    async def scenario() -> None:
        app = local_app(split_seven())
        async with app.run_test(size=(40, 12)) as pilot:
            await until(pilot, lambda: deciding(app))
            await pilot.pause()
            text = screen_text(app)
            assert "This terminal is 40 x 12: the game needs 69 x 19." in " ".join(text.split())
            await pilot.press("1", "enter")  # nothing is picked unseen
            assert app.picker is not None and app.picker.pawn is None
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert screen_text(app) == small
            await pilot.resize_terminal(40, 12)
            await pilot.pause()
            await pilot.press("q")  # quitting works at any size, and asks first as it does at any size
            assert "q again quits" in " ".join(screen_text(app).split())
            await pilot.press("q")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(scenario())
