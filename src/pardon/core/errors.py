"""The three ways an input can be refused (each a ValueError).

* ``InvalidError`` — malformed: it cannot be read at all.
* ``IllegalError`` — well formed, but the rules do not allow it here.
* ``AmbiguousError`` — well formed and allowed, but it names more than one move.

A refused input never changes a game.
"""

from __future__ import annotations

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
