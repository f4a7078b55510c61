"""Results files of long runs: one JSON object per line, appended as games finish.

A run killed while writing leaves a partial last line; readers skip it and a resumed run
cuts it off (:func:`complete_rows`), so every row on disk is a whole game.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from pardon.bots import describe_bot
from pardon.core.errors import InvalidError

#: Bytes read at a time when counting rows: a run of millions of games is never read whole.
CHUNK = 1 << 20


def complete_rows(path: Path) -> int:
    """Count the complete rows of a results file, cutting off a partial last line."""
    if not path.exists():
        return 0
    rows = cut = read = 0
    with path.open("rb+") as stream:
        while chunk := stream.read(CHUNK):
            rows += chunk.count(b"\n")
            last = chunk.rfind(b"\n")
            if last >= 0:
                cut = read + last + 1
            read += len(chunk)
        if cut < read:
            stream.truncate(cut)
    return rows


def read_jsonlines(path: Path) -> Iterator[dict[str, Any]]:
    """The complete rows of a results file, in the order they were written.  A complete
    line that is not a row (a damaged or hand-edited file) is refused, naming the line."""
    with path.open(encoding="utf-8", errors="replace") as stream:
        for number, line in enumerate(stream, start=1):
            if line.endswith("\n"):
                yield parse_row(path, number, line)


def parse_row(path: Path, number: int, line: str) -> dict[str, Any]:
    """Line ``number`` of the results file ``path`` as a row; InvalidError if it is none."""
    try:
        row = json.loads(line)
    except json.JSONDecodeError as error:
        row, problem = None, f"not JSON ({error})"
    else:
        problem = f"not a result row: {line.strip()[:60]!r}"
    if not isinstance(row, dict):
        raise InvalidError(f"{path}, line {number}: {problem}: the file is damaged; mend or remove that line")
    return row


def last_line(path: Path) -> str:
    """The last complete line of a results file ("" if it has none), read from its end."""
    with path.open("rb") as stream:
        end = stream.seek(0, 2)
        start = end
        while start > 0:
            start = max(0, start - CHUNK)
            stream.seek(start)
            tail = stream.read(end - start)
            # the line before the final newline begins after the newline before it
            found = tail.rfind(b"\n", 0, max(0, len(tail) - 1))
            if found >= 0 or start == 0:
                line = tail[found + 1 :]
                return line.decode("utf-8", errors="replace") if line.endswith(b"\n") else ""
    return ""


def row_line(row: dict[str, Any]) -> str:
    """One row as a compact line."""
    return json.dumps(row, separators=(",", ":")) + "\n"


def check_settings(path: Path, wanted: Mapping[str, Any], names: Iterable[str], kind: str, advice: str) -> bool:
    """Whether a run's settings file ``path`` exists (False: a new run).  Settings that
    cannot be read, or differ from ``wanted`` in one of ``names``, are refused: the error
    names the setting and ends with ``advice``."""
    if not path.exists():
        return False
    try:
        recorded = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as error:
        raise InvalidError(f"{path} cannot be read ({error}): {advice}") from None
    for name in names:
        if recorded.get(name) != wanted[name]:
            raise InvalidError(
                f"{path.parent} holds a {kind} with {name} {recorded.get(name)!r}, not {wanted[name]!r}: {advice}"
            )
    change = level_change(recorded.get(LEVELS) or {}, wanted.get(LEVELS) or {})
    if change:  # files written before levels were recorded are taken on trust
        raise InvalidError(f"{path.parent} holds a {kind} whose players have changed since: {change}: {advice}")
    return True


#: The settings entry with what each player plays with (:func:`pardon.bots.describe_bot`).
LEVELS = "levels"


def level_change(recorded: Mapping[str, Any], wanted: Mapping[str, Any]) -> str:
    """The first difference between the recorded and the wanted players' options, in words
    ("" if none): ``'expectimax' played with width 1, now 0``.

    An option the recorded run does not name came into being since: its default is how the
    level played before it, so it changes nothing while it stays at that default."""
    for spec, now in wanted.items():
        then = recorded.get(spec)
        if then is None or then == now:
            continue
        flat_then, flat_now = _flatten(then), _flatten(now)
        defaults = _defaults(now.get("level"))
        changed = [
            name
            for name in sorted(set(flat_then) | set(flat_now))
            if flat_then.get(name) != flat_now.get(name)
            and not (name not in flat_then and name in defaults and defaults[name] == flat_now.get(name))
        ]
        if not changed:
            continue
        parts = ", ".join(f"{name} {flat_then.get(name)!r}, now {flat_now.get(name)!r}" for name in changed)
        return f"{spec!r} played with {parts}"
    return ""


def _defaults(level: object) -> dict[str, Any]:
    """Every option of ``level`` at its default, flattened ({} for a level not known now)."""
    try:
        return _flatten(describe_bot(str(level)))
    except InvalidError:
        return {}


def _flatten(options: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for name, value in options.items():
        if isinstance(value, Mapping):
            flat.update(_flatten(value, f"{prefix}{name}."))
        else:
            flat[f"{prefix}{name}"] = value
    return flat
