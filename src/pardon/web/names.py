"""Players' names as everyone sees them: cleaned where they enter, and the names seats get
when none is given (a computer by its level, a person by their colour)."""

from __future__ import annotations

import unicodedata

from pardon.core.board import COLOUR_NAMES

#: Format characters a name keeps: the zero-width joiner and non-joiner (emoji sequences such
#: as a family, and Persian or Indic spelling) and the tag characters of subdivision flags.
#: None of them turns text round or hides it.
KEPT_FORMAT = frozenset({"\u200c", "\u200d", *map(chr, range(0xE0020, 0xE0080))})


def clean_name(text: str) -> str:
    r"""A player's name as everyone will see it: without control characters (Cc) or Unicode
    format characters (category Cf: bidirectional overrides such as U+202E, which turn the text
    after them round, zero-width spaces, soft hyphens), but those of :data:`KEPT_FORMAT`; trimmed.
    Empty, the seat is named as if no name had been given.

    >>> clean_name(" \u202eMum\u200b\t "), clean_name("\u2066\u00ad")
    ('Mum', '')
    >>> clean_name("\U0001f468\u200d\U0001f467") == "\U0001f468\u200d\U0001f467"  # a family emoji stays whole
    True
    """
    kept = (char for char in text if char in KEPT_FORMAT or unicodedata.category(char) not in ("Cc", "Cf"))
    return "".join(kept).strip()


#: The computer levels as players know them, weakest first (the browser's LEVEL_NAMES in static/site.js).
LEVEL_NAMES = {
    "random": "Beginner",
    "greedy": "Easy",
    "tactician": "Medium",
    "expectimax": "Hard",
    "mcts": "Patient",
    "expert": "Expert",
}


def computer_name(level: str) -> str:
    """The name a computer seat gets when none is given: ``Computer (Hard)``."""
    return f"Computer ({LEVEL_NAMES.get(level, level)})"


def seat_name(colour: int, level: str | None, given: str = "") -> str:
    """The name a seat is shown by: the one given (cleaned), else a computer's by its level
    (``Computer (Hard)``), else the colour's (``Red``)."""
    return clean_name(given) or (computer_name(level) if level else COLOUR_NAMES[colour].capitalize())
