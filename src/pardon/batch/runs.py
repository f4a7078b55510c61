"""Which engine played a simulation run: a run is resumed only by the engine that began it.

Kept free of NumPy, so ``pardon sim`` with the core engine does not need the ``rl`` extra.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from pardon.core.errors import InvalidError

ENGINE: Final = "engine"
SETTINGS: Final = "run.json"


def engine_of(directory: Path) -> str:
    """The engine that played the run in ``directory`` ("core" for a run without a note, ""
    for no run there)."""
    path = directory / SETTINGS
    if not path.exists():
        return ""
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return ""  # the simulation's own check reports a settings file it cannot read
    return str(recorded.get(ENGINE, "core")) if isinstance(recorded, dict) else ""


def check_engine(directory: Path, engine: str) -> None:
    """Refuse to resume in ``directory`` a run begun by the other engine."""
    begun = engine_of(directory)
    if begun and begun != engine:
        raise InvalidError(
            f"{directory} holds a run played by the {begun} engine, not the {engine} engine: "
            "use another --out directory to start a new run"
        )
