"""Results files of long runs: one JSON object per line, appended as games finish.

A run killed while writing leaves a partial last line; readers skip it and a resumed run
cuts it off (:func:`complete_rows`), so every row on disk is a whole game.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def complete_rows(path: Path) -> int:
    """Count the complete rows of a results file, cutting off a partial last line."""
    if not path.exists():
        return 0
    with path.open("rb+") as stream:
        data = stream.read()
        cut = data.rfind(b"\n") + 1
        if cut < len(data):
            stream.truncate(cut)
    return data[:cut].count(b"\n")


def read_jsonlines(path: Path) -> Iterator[dict[str, Any]]:
    """The complete rows of a results file, in the order they were written."""
    with path.open(encoding="utf-8") as stream:
        for line in stream:
            if line.endswith("\n"):
                yield json.loads(line)


def row_line(row: dict[str, Any]) -> str:
    """One row as a compact line."""
    return json.dumps(row, separators=(",", ":")) + "\n"
