"""Write the terminal game's screenshots for the README and docs/terminal.md (SVG, from Textual).

    .venv/bin/python scripts/terminal_screenshots.py

A 4-player classic game, Red played by keys against three computer players until Red has pawns
to choose from, shown as `pardon tui` shows it, with Red's first pawn picked and its destinations
marked: at 120 x 40
(docs/screenshots/terminal.svg) and at 80 x 24 (docs/screenshots/terminal-80x24.svg).  And a
2013 game with Fire and Ice (``modern``) at 120 x 40, once a token lies on a pawn
(docs/screenshots/terminal-fire-and-ice.svg).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from pardon.core.game import Game
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.tui.app import PardonApp
from pardon.tui.local import LocalTable
from pardon.tui.picking import PAWN

OUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
SEED = 2013


async def screenshot(size: tuple[int, int], path: Path, rules: str = "classic") -> None:
    """Red plays by keys (Enter: the first choice) until, after 60 decisions (and, with Fire
    and Ice, once a token lies on a pawn), Red has a card with several pawns to choose from;
    then Red's first pawn is picked and the screen kept."""
    game = Game.new(parse_rules(rules), seats_for(4), SEED)
    app = PardonApp(LocalTable(game, {0}, "tactician", pace=0))
    async with app.run_test(size=size) as pilot:
        while not (game.turns >= 60 and _token_shown(game) and _choosing_a_pawn(app)):
            await pilot.pause(0.01)
            if app.picker is not None:
                await pilot.press("enter")
        await pilot.press("enter")
        await pilot.pause()
        path.write_text(app.export_screenshot(title="pardon tui"), encoding="utf-8")
    print(path)


def _token_shown(game: Game) -> bool:
    """Without Fire and Ice, always; with them, once the Fire or the Ice lies on a pawn."""
    return not game.rules.tokens or game.position.fire is not None or game.position.ice is not None


def _choosing_a_pawn(app: PardonApp) -> bool:
    picker = app.picker
    return picker is not None and picker.stage == PAWN and sum(option.enabled for option in picker.options()) > 1


if __name__ == "__main__":
    asyncio.run(screenshot((120, 40), OUT / "terminal.svg"))
    asyncio.run(screenshot((80, 24), OUT / "terminal-80x24.svg"))
    asyncio.run(screenshot((120, 40), OUT / "terminal-fire-and-ice.svg", "modern"))
