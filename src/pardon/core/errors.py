"""The three ways an input can be refused (each a ValueError).

* ``InvalidError`` — malformed: it cannot be read at all.
* ``IllegalError`` — well formed, but the rules do not allow it here.
* ``AmbiguousError`` — well formed and allowed, but it names more than one move.

A refused input never changes a game.
"""

from __future__ import annotations

import json
import operator
import reprlib


class PardonError(ValueError):
    """Base class of the errors a user's input can cause."""


class InvalidError(PardonError):
    """The input is malformed."""


class IllegalError(PardonError):
    """The input is well formed but breaks a rule in this position."""


class AmbiguousError(PardonError):
    """The input matches more than one legal move."""


def whole_number(value: object, what: str, kind: str = "a whole number") -> int:
    """``value`` as a plain int (a NumPy integer too), else InvalidError saying ``what`` must
    be ``kind``: a bool, a float or text would quietly name something else (a seed's text
    picks other shuffles, ``True`` is 1)."""
    if not isinstance(value, bool):
        try:
            return operator.index(value)  # type: ignore[arg-type]
        except TypeError:
            pass
    raise InvalidError(f"{what} must be {kind}, not {reprlib.repr(value)}")


_SHOWN = reprlib.Repr()  # a value that is not JSON (given from Python) in a message
_SHOWN.maxstring = _SHOWN.maxother = 40
#: The most characters of a value a message shows.
SHOWN_LENGTH = 60


def shown_json(value: object) -> str:
    """``value`` as JSON writes it (null, true, an object in double quotes), cut short for an
    error message; a value JSON cannot write (given from Python) as Python shows it."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):  # not JSON, a loop, or nested too deeply
        return _SHOWN.repr(value)
    return text if len(text) <= SHOWN_LENGTH else text[: SHOWN_LENGTH - 3] + "..."
