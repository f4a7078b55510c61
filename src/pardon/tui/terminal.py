"""Leaving cleanly when the terminal goes away: its window closed, its pseudo-terminal deleted.

A terminal that goes away is *hung up*: a read of it finds nothing at once (Textual's input
thread would read nothing in a loop, a core's worth), a write fails (Textual's output thread
died of it, and the screen's next writes waited for ever on its full queue), and its settings
can no longer be read.  A hang-up may come with SIGHUP or, where the terminal was not the
controlling one, without: :func:`~pardon.tui.gone.terminal_gone` tells both, and the screen
then saves, as for SIGHUP, and ends.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from textual.drivers.linux_driver import LinuxDriver


class _GuardedOutput:
    """The terminal as Textual's output thread writes to it: a write that fails (the terminal
    gone) is dropped, and said once, rather than killing the thread."""

    def __init__(self, stream: TextIO, failed: Callable[[], None]) -> None:
        self._stream = stream
        self._failed = failed
        self.broken = False

    def _guard(self, action: Callable[[], Any]) -> None:
        if self.broken:
            return
        try:
            action()
        except (OSError, ValueError):
            self.broken = True
            self._failed()

    def write(self, text: str) -> None:
        self._guard(lambda: self._stream.write(text))

    def flush(self) -> None:
        self._guard(self._stream.flush)

    def fileno(self) -> int:
        return self._stream.fileno()

    def isatty(self) -> bool:
        return True

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class SteadyDriver(LinuxDriver):
    """Textual's driver, whose output survives the terminal going away (see the module)."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, **options)
        self._file = _GuardedOutput(self._file, self._output_failed)  # type: ignore[assignment,arg-type]

    def _output_failed(self) -> None:
        hung_up = getattr(self._app, "terminal_hung_up", None)
        if hung_up is not None and not self._loop.is_closed():  # the app's loop: told from the output thread
            self._loop.call_soon_threadsafe(hung_up)
