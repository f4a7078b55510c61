"""Fixtures shared by every test folder: a real headless Chromium (Debian's, never a downloaded one).

Browser tests take ``browser`` (one Chromium for the whole run) or ``page`` (a fresh context and
page per test, closed after it).  Screenshots worth keeping go to ``artefacts`` (the folder
``test-artefacts/`` at the repository root, kept out of git), so CI can show what the tests saw.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests are not a package: module_loader beside this file
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser")


@contextmanager
def launched_chromium() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright, until the block ends (and with it
    Playwright's event loop in this thread)."""
    playwright_api = pytest.importorskip("playwright.sync_api")
    # expect() waits as long as a page's own calls do: on a busy machine 5 s (its default) is short
    playwright_api.expect.set_options(timeout=15_000)
    executable = chromium_path()
    if executable is None:
        pytest.skip("Chromium is not installed (.ci/run installs Debian's chromium)")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=executable, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright."""
    with launched_chromium() as chromium:
        yield chromium


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh browser context (its own storage and cookies) with one page, desktop size."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture(scope="session")
def artefacts() -> Path:
    """Where browser tests keep their screenshots (``test-artefacts/``, ignored by git)."""
    folder = ROOT / "test-artefacts"
    folder.mkdir(exist_ok=True)
    return folder
