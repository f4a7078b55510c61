"""What is made once from a finished game and kept: a finished game never changes, so its record,
its replay and its analysis are the same whenever they are asked for.

:class:`Kept` holds the ``size`` values most recently asked for (least recently used goes first),
and makes each once: of two threads asking for one key at once, one makes it and the other waits
for it, rather than both spending the work.

>>> kept = Kept[str, int](2)
>>> kept.get_or_make("a", lambda: 1), kept.get_or_make("a", lambda: 2)
(1, 1)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

from starlette.requests import Request

Key = TypeVar("Key")
Value = TypeVar("Value")


class Kept(Generic[Key, Value]):
    """The values made for the ``size`` keys most recently asked for, each made once; safe to
    use from several threads (REST requests run in a pool)."""

    def __init__(self, size: int):
        self.size = max(1, size)
        self._values: OrderedDict[Key, Value] = OrderedDict()
        self._making: dict[Key, threading.Lock] = {}  # one lock per key being made
        self._guard = threading.Lock()
        #: How many values were made (not found kept): for tests and the curious.
        self.made = 0

    def get(self, key: Key) -> Value | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._guard:
            found = self._values.get(key)
            if found is not None:
                self._values.move_to_end(key)
            return found

    def put(self, key: Key, value: Value) -> None:
        with self._guard:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.size:
                self._values.popitem(last=False)

    def get_or_make(self, key: Key, make: Callable[[], Value]) -> Value:
        """The value kept for ``key``; else made by ``make`` (in this thread) and kept.  An error
        from ``make`` keeps nothing: the next request tries again."""
        found = self.get(key)
        if found is not None:
            return found
        with self._guard:
            making = self._making.setdefault(key, threading.Lock())
        with making:
            found = self.get(key)  # made by another thread while this one waited
            if found is not None:
                return found
            try:
                value = make()
                self.made += 1
                self.put(key, value)
            finally:
                with self._guard:
                    self._making.pop(key, None)
        return value


#: What a finished game's requests keep: (what, game id) to the answer's body (JSON or text).
Finished = Kept[tuple[str, str], bytes]


def finished_of(request: Request) -> Finished:
    """The server's kept records and replays (``Settings.finished_cache`` games of each)."""
    kept: Finished = request.app.state.finished
    return kept
