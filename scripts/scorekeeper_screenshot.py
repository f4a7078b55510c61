"""Make docs/screenshots/scorekeeper.png and scorekeeper-phone.png: the scorekeeper as the site serves it
(its header and links; opened from disk it has none), with a sample match.

    python scripts/scorekeeper_screenshot.py

Uses Debian's Chromium through Playwright, as the browser tests do.
"""

from __future__ import annotations

import functools
import shutil
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "src" / "pardon" / "web" / "static" / "scorekeeper.html"
OUT = ROOT / "docs" / "screenshots" / "scorekeeper.png"
PHONE_OUT = OUT.with_name("scorekeeper-phone.png")

#: A Point Scoring Sorry! match to 100 points: (pawns Home of each player, winner, doubles accepted, dropped out).
GAMES = [
    ({"Grandma": 4, "Sam": 1, "Ann": 2}, "Grandma", "1", ()),
    ({"Grandma": 2, "Sam": 4, "Ann": 0}, "Sam", "2", ("Ann",)),
    ({"Grandma": 4, "Sam": 3, "Ann": 3}, "Grandma", "1", ()),
]


def fill_match(page: Page) -> None:
    page.get_by_label("Scoring").select_option("1939")
    for name, colour in (("Grandma", "1"), ("Sam", "2"), ("Ann", "3")):
        page.get_by_label("New player or partnership").fill(name)
        page.get_by_label("Colour").last.select_option(colour)
        page.get_by_role("button", name="Add player").click()
    page.get_by_label("Play to").select_option("points")
    page.get_by_label("Points", exact=True).fill("100")
    page.get_by_label("Points", exact=True).press("Enter")
    form = page.locator("#game-form")
    for home, winner, stake, dropped in GAMES:
        for name, count in home.items():
            form.get_by_label(f"{name}: pawns Home").fill(str(count))
        form.get_by_label(f"{winner} won").check()
        form.get_by_label("Doubles accepted").select_option(stake)
        for name in dropped:
            form.get_by_label(f"{name} dropped out of a double").check()
        form.get_by_role("button", name="Record game").click()
    form.get_by_label("Grandma: pawns Home").fill("1")
    form.get_by_label("Sam: pawns Home").fill("4")
    form.get_by_label("Ann: pawns Home").fill("2")


def main() -> None:
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(PAGE.parent))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    address = f"http://127.0.0.1:{server.server_address[1]}/{PAGE.name}"
    OUT.parent.mkdir(parents=True, exist_ok=True)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=executable, headless=True, args=["--no-sandbox"])
            views = (
                (OUT, {"viewport": {"width": 900, "height": 1100}}),
                (PHONE_OUT, {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}),
            )
            for out, view in views:
                context = browser.new_context(**view)
                page = context.new_page()
                page.goto(address)
                fill_match(page)
                page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
                page.screenshot(path=str(out))
                context.close()
                print(f"wrote {out.relative_to(ROOT)}")
            browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
