"""The terminal game's tests need Textual (the tui extra); helpers live in tui_support beside this file."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("textual")
sys.path.insert(0, str(Path(__file__).resolve().parent))  # tests are not a package: tui_support beside this file


@pytest.fixture(autouse=True)
def _stop_terminals() -> Iterator[None]:
    """Stop every command a test started in a pseudo-terminal, whether or not the test passed."""
    from tui_support import STARTED

    yield
    while STARTED:
        STARTED.pop().stop()
