"""Screenshots of the other editions and the home page for the docs: docs/screenshots/game-partners.png,
game-modern.png, each with its -phone.png, home.png, lobby.png and lobby-phone.png (scripts/screenshots.py
makes game-desktop.png and game-phone.png).

Starts a ``pardon serve`` of its own on loopback (a throw-away SQLite file) and, with Debian's
Chromium at 1280x900:

- partners: Red (with Yellow) against two computers, played until the log names a partner's
  pawn, with a pawn chosen so its destinations show;
- modern (2013, Fire and Ice): Red against a computer, played until a 1 puts the Ice on one of
  two pawns, the choice shown on the board with its explanation;
- home: the first page.

Rerunnable: ``.venv/bin/python scripts/variant_screenshots.py [--out docs/screenshots]``
"""

from __future__ import annotations

import argparse
import json
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright
from screenshots import MY_TURN, READY, start_server

SIZE = {"width": 1280, "height": 900}


def create_game(url: str, rules: str, seed: int, seats: list[dict[str, Any]], public: bool = False) -> dict[str, Any]:
    body = {"rules": rules, "seed": seed, "seats": seats, "public": public}
    request = urllib.request.Request(
        f"{url}/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request) as answer:
        created: dict[str, Any] = json.load(answer)
        return created


def play_one(page: Page) -> None:
    """Red's furthest-reaching move, sent as the page would send it."""
    page.evaluate(
        """() => { const g = window.pardonGame; const moves = g.state.moves;
        const playing = moves.filter(m => !m.pass); const bump = playing.filter(m => m.bumps.length);
        const move = (bump[0] || playing[0] || moves[0]);
        g.pending = true; g.socket.send(JSON.stringify({type: 'move', move: move.move, event: g.state.event})); }"""
    )


def turn_until(page: Page, wanted: str, turns: int = 80) -> Any:
    """Play Red's turns until the JavaScript expression ``wanted`` (of ``g``, the page's game) is truthy."""
    for _ in range(turns):
        page.wait_for_function(MY_TURN, timeout=20_000)
        found = page.evaluate(f"() => {{ const g = window.pardonGame; return {wanted}; }}")
        if found:
            return found
        play_one(page)
    raise SystemExit(f"never came: {wanted}")


def partners(page: Page, url: str, seed: int) -> None:
    bots = [{"kind": "bot", "level": "expectimax"}] * 3
    game = create_game(url, "partners", seed, [{"kind": "human"}, *bots])
    page.goto(game["seats"][0]["link"])
    page.wait_for_function(READY, timeout=15_000)
    pawn = turn_until(
        page,
        "document.getElementById('log').textContent.includes(\"'s pawn\") && (() => {"
        " const counts = {}; for (const m of g.state.moves) for (const a of m.actions)"
        " if (a.pawn) counts[a.pawn] = (counts[a.pawn] || 0) + 1;"
        " const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];"
        " return best && best[1] > 1 ? best[0] : null; })()",
    )
    page.locator(f'.pawn[data-key="{pawn}"]').first.click(force=True)
    page.wait_for_timeout(300)


def modern(page: Page, url: str, seed: int) -> None:
    game = create_game(url, "modern", seed, [{"kind": "human"}, {"kind": "bot", "level": "expectimax"}])
    page.goto(game["seats"][0]["link"])
    page.wait_for_function(READY, timeout=15_000)
    step = turn_until(
        page,
        "g.state.card === '1' && new Set(g.state.moves.flatMap(m => m.actions)"
        ".filter(a => a.kind === 'ice' && a.pawn).map(a => a.pawn)).size >= 2"
        " && g.state.moves.find(m => m.actions.some(a => a.kind === 'ice')).actions.find(a => a.kind === 'step')",
    )
    page.locator(f'.pawn[data-key="{step["pawn"]}"]').first.click(force=True)
    landing = step["landing"]
    place = f"sq:{landing}" if isinstance(landing, int) else f"{step['colour']}:{landing}"
    page.locator(f'.mark[data-place="{place}"]').click(force=True)
    page.wait_for_selector(".token-mark")
    page.wait_for_timeout(300)


PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def lobby(browser: Any, url: str, out: Path) -> None:
    """The lobby with public games waiting and one being played, at desktop and phone sizes."""
    for seats in ([{"kind": "human", "name": "Grandma"}, {"kind": "open"}], [{"kind": "open"}] * 3 + [{"kind": "bot"}]):
        create_game(url, "classic", 1, seats, public=True)
    create_game(url, "partners", 2, [{"kind": "bot"}] * 4, public=True)
    for suffix, view in (("", {"viewport": SIZE}), ("-phone", PHONE)):
        page = browser.new_page(**view)
        page.goto(f"{url}/lobby")
        page.wait_for_selector(".game-card")
        page.wait_for_timeout(500)
        page.screenshot(path=str(out / f"lobby{suffix}.png"))
        print(out / f"lobby{suffix}.png")
        page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--seed", type=int, default=4)
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "games.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for name, stage in (("game-partners", partners), ("game-modern", modern)):
                    for suffix, view in (("", {"viewport": SIZE}), ("-phone", PHONE)):
                        page = browser.new_page(**view)
                        page.emulate_media(reduced_motion="reduce")
                        stage(page, url, options.seed)
                        page.screenshot(path=str(options.out / f"{name}{suffix}.png"))
                        print(options.out / f"{name}{suffix}.png")
                        page.close()
                page = browser.new_page(viewport=SIZE)
                page.goto(f"{url}/")
                page.wait_for_selector("body[data-ready=true]")
                page.screenshot(path=str(options.out / "home.png"))
                print(options.out / "home.png")
                page.close()
                lobby(browser, url, options.out)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
