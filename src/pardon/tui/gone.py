"""Whether the terminal has gone away (its window closed, its pseudo-terminal deleted), with or
without a SIGHUP, and quieting what is still written to it.  Standard library only: ``pardon
play`` needs it without Textual.

A terminal that goes away is *hung up*: reading it finds nothing at once, for ever (a loop
reading keys spins), writing to it fails, and its settings can no longer be read, which is how
it is told here.
"""

from __future__ import annotations

import contextlib
import errno
import os
import sys
import termios
from typing import TextIO


def terminal_gone(stream: TextIO | None = None) -> bool:
    """Whether ``stream`` (standard input by default) was a terminal that has been hung up."""
    stream = stream if stream is not None else sys.__stdin__
    if stream is None:
        return False
    try:
        termios.tcgetattr(stream.fileno())
    except termios.error as error:
        return bool(error.args) and error.args[0] != errno.ENOTTY  # EIO once hung up; ENOTTY: no terminal
    except (OSError, ValueError):
        return True  # closed
    return False


def silence() -> None:
    """Point standard output and error at ``/dev/null``: the terminal is gone, and whatever is
    still written (the farewell, an interpreter's last flush) must not fail."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
    except OSError:
        return
    for stream in (sys.__stdout__, sys.__stderr__):
        if stream is not None:
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
            with contextlib.suppress(OSError, ValueError):
                os.dup2(null, stream.fileno())
    os.close(null)
