"""Screenshots of a game in progress for the docs: docs/screenshots/game-desktop.png and game-phone.png.

Starts a ``pardon serve`` of its own on loopback (a throw-away SQLite file), creates a seeded
game of Red against three computer players, plays Red's turns until the board is lively,
selects a pawn so its destinations show, and captures the page at desktop (1280x900) and
phone portrait (390x844) sizes with Debian's Chromium.  ``--coach`` instead plays a game of Red
against one computer to the end and captures how it went (docs/screenshots/game-coach.png and game-coach-phone.png):
the win-chance graph, Red's biggest mistakes, and the first shown on the board.  Rerunnable:

    .venv/bin/python scripts/screenshots.py [--out docs/screenshots] [--seed 11] [--turns 24] [--coach]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

READY = "() => { const g = window.pardonGame; return g && g.ready && !g.pending && g.state; }"
MY_TURN = (
    "() => { const g = window.pardonGame; return g && g.ready && !g.pending && g.state"
    " && g.state.moves.length > 0 && g.seats.includes(g.state.decider); }"
)
VIEWS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start_server(database: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "pardon", "serve", "--port", str(port), "--db", str(database), "--bot-pace", "0"]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=os.environ)
    for _ in range(300):
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=1):
                return process, url
        except OSError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("pardon serve did not start")


def create_game(url: str, seed: int, computers: int = 3) -> dict[str, Any]:
    body = {"rules": "classic", "seed": seed, "seats": [{"kind": "human"}] + [{"kind": "bot"}] * computers}
    request = urllib.request.Request(
        f"{url}/api/games", json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request) as answer:
        created: dict[str, Any] = json.load(answer)
        return created


def play_turns(page: Page, turns: int) -> None:
    """Red plays its furthest-reaching move each turn (sent as the page would send it)."""
    for _ in range(turns):
        page.wait_for_function(MY_TURN, timeout=20_000)
        page.evaluate(
            """() => { const g = window.pardonGame; const moves = g.state.moves;
            const playing = moves.filter(m => !m.pass); const bump = playing.filter(m => m.bumps.length);
            const move = (bump[0] || playing[0] || moves[0]);
            g.pending = true; g.socket.send(JSON.stringify({type: 'move', move: move.move, event: g.state.event})); }"""
        )


def select_a_pawn(page: Page, turns_left: int = 30) -> None:
    """Wait for a turn where a pawn has a choice of squares, and click it."""
    for _ in range(turns_left):
        page.wait_for_function(MY_TURN, timeout=20_000)
        pawn = page.evaluate(
            """() => { const counts = {};
            for (const m of window.pardonGame.state.moves)
              for (const a of m.actions) if (a.pawn) counts[a.pawn] = (counts[a.pawn] || 0) + 1;
            const best = Object.entries(counts).sort((a, b) => b[1] - a[1])[0];
            return best && best[1] > 1 ? best[0] : null; }"""
        )
        if pawn:
            page.locator(f'.pawn[data-key="{pawn}"]').first.click(force=True)
            page.wait_for_timeout(300)
            return
        play_turns(page, 1)


FINISHED = "() => { const g = window.pardonGame; return g && g.state && g.state.status === 'finished'; }"


def coach(browser: Any, url: str, out: Path) -> None:
    """Red (always the first legal move) against a computer to the end, then how the game went,
    at desktop and phone sizes."""
    for view, name in (("desktop", "game-coach.png"), ("phone", "game-coach-phone.png")):
        coach_at(browser, url, out / name, VIEWS[view])


def coach_at(browser: Any, url: str, path: Path, viewport: dict[str, int]) -> None:
    game = create_game(url, 3, computers=1)
    page = browser.new_page(viewport=viewport)
    page.emulate_media(reduced_motion="reduce")
    page.goto(game["seats"][0]["link"])
    while not page.evaluate(FINISHED):
        page.wait_for_function(f"() => ({MY_TURN})() || ({FINISHED})()", timeout=20_000)
        page.evaluate(
            """() => { const g = window.pardonGame; if (g.state.status === 'finished') return;
            g.pending = true;
            g.socket.send(JSON.stringify({type: 'move', move: g.state.moves[0].move, event: g.state.event})); }"""
        )
        page.wait_for_timeout(60)  # within the messages a connection may send a second
    page.get_by_role("button", name="How the game went").click()
    page.locator("#coach[data-state=ready]").wait_for(timeout=30_000)
    page.locator(".show-mistake").first.click()
    page.wait_for_timeout(300)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    print(path)
    page.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=Path("docs/screenshots"))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--turns", type=int, default=24)
    parser.add_argument("--coach", action="store_true", help="only the end of a game: how it went")
    options = parser.parse_args()
    options.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        process, url = start_server(Path(folder) / "games.sqlite3")
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
                for view, size in ({} if options.coach else VIEWS).items():
                    game = create_game(url, options.seed)
                    phone = view == "phone"  # a touch screen: the page says "Tap"
                    page = browser.new_page(
                        viewport=size, device_scale_factor=2 if phone else 1, has_touch=phone, is_mobile=phone
                    )
                    page.emulate_media(reduced_motion="reduce")
                    page.goto(game["seats"][0]["link"])
                    page.wait_for_function(READY, timeout=15_000)
                    play_turns(page, options.turns)
                    select_a_pawn(page)
                    path = options.out / f"game-{view}.png"
                    page.screenshot(path=str(path))
                    print(path)
                    page.close()
                if options.coach:
                    coach(browser, url, options.out)
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
