"""Rules: one frozen dataclass of options, named presets, and their text form.

A variant is data: each option is read at the one place its rule lives.  Any preset
can be adjusted in text, ``"classic(pawns=3,deck=44)"``, which is also how rules are
written in game records and accepted by the command line.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import reprlib
from dataclasses import dataclass
from typing import Any, Final

from pardon.core.errors import InvalidError

LEADER_CHOICES: Final = ("draw", "named", "last-winner")
SLIDE_RIDERS: Final = ("others", "own")
LEAVE_START_CHOICES: Final = ("circle", "forward-count", "forward-circle")
PARTNER_SPLIT_CHOICES: Final = ("two", "any")
SCORING_CHOICES: Final = ("none", "1939", "1992")
BOARD_CHOICES: Final = ("plain", "diamonds")


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rules option of the game; the defaults are the classic game (docs/rules.md: "The classic game")."""

    #: Cards in the pack: 44 (1939), 45 (five 1s) or 55 (five of each), docs/rules.md: "Cards".
    deck: int = 45
    #: Pawns per colour: 4, or 3 for the faster game (docs/rules.md: "Presets and options").
    pawns: int = 4
    #: Pawns that begin on their start exit circle instead of in Start: 0, or 1 (H05);
    #: only one pawn fits on the circle.
    pawns_out: int = 0
    #: Whether a 2 gives another draw, even when it could not be used (classic).
    draw_again_on_2: bool = True
    #: Who rides a slide: pawns of the ``others`` colours (classic) or its ``own`` colour.
    slide_riders: str = "others"
    #: Whether the opponent moved by an 11 switch slides when it lands on a triangle.
    switched_opponent_slides: bool = True
    #: Who plays first: the highest card ``draw``n (§3.8), a ``named`` player (the
    #: youngest, in 2013), or the ``last-winner`` of a match (the first game by draw).
    leader: str = "draw"
    #: Which cards bring a pawn out of Start (docs/rules.md: "The 2013 edition"): ``circle`` (1, 2, Sorry!),
    #: ``forward-count`` (any forward number card, the circle counting as the first
    #: square) or ``forward-circle`` (any forward number card, onto the circle only).
    leave_start: str = "circle"
    #: Whether a Sorry! may instead move one of your pawns forward 4 (2013).
    sorry_forward_4: bool = False
    #: Partners (docs/rules.md: "Partners"): Red+Yellow against Blue+Green, 4 players.
    partners: bool = False
    #: A partners split 7: between ``two`` pawns (1939, WP) or ``any`` number of team pawns (P92).
    partner_split: str = "two"
    #: Points: ``none``, ``1939`` (Point Scoring Sorry) or ``1992`` (play for points), §6.
    scoring: str = "none"
    #: One player alone, counting the cards drawn until every pawn is Home (docs/rules.md: "The solo challenge").
    solo: bool = False
    #: Cards in each hand: 0 (draw a card a turn) or 5 (hands of five, 1992; docs/rules.md: "Hands of five").
    hand: int = 0
    #: The Fire and Ice tokens of the 2013 edition (docs/rules.md: "The 2013 edition").
    tokens: bool = False
    #: Doubling in Point Scoring Sorry (docs/rules.md: "Points"): a double before the draw.
    doubling: bool = False
    #: How the board is drawn: ``plain``, or with the ``diamonds`` of the older boards on the
    #: short slides (the 1939 game's).  It marks what the slide's body marks: play is the same (§4).
    board: str = "plain"

    def __post_init__(self) -> None:
        _check_choice("deck", self.deck, (44, 45, 55))
        _check_choice("pawns", self.pawns, (3, 4))
        _check_choice("pawns_out", self.pawns_out, (0, 1))  # two pawns never share the circle
        _check_choice("slide_riders", self.slide_riders, SLIDE_RIDERS)
        _check_choice("leader", self.leader, LEADER_CHOICES)
        _check_choice("leave_start", self.leave_start, LEAVE_START_CHOICES)
        _check_choice("partner_split", self.partner_split, PARTNER_SPLIT_CHOICES)
        _check_choice("board", self.board, BOARD_CHOICES)
        if self.solo and self.partners:
            raise InvalidError("the solo challenge is played alone, not with partners")
        _check_choice("scoring", self.scoring, SCORING_CHOICES)
        _check_choice("hand", self.hand, (0, 5))
        if self.tokens and self.partners:
            raise InvalidError("Fire and Ice are not played with partners")
        if self.doubling and self.scoring != "1939":
            raise InvalidError("doubling belongs to Point Scoring Sorry: set scoring=1939 too")
        if self.doubling and self.solo:
            raise InvalidError("there is nobody to double against in the solo challenge")

    @property
    def name(self) -> str:
        """The shortest text that names these rules: a preset, adjusted if need be."""
        return to_text(self)

    @property
    def players(self) -> tuple[int, ...]:
        """How many players these rules allow."""
        if self.solo:
            return (1,)
        if self.partners:
            return (4,)
        return (2, 3, 4)


def _check_choice(option: str, value: object, choices: tuple[object, ...]) -> None:
    if value not in choices:
        allowed = ", ".join(str(choice) for choice in choices)
        raise InvalidError(f"rules option {option} cannot be {value!r}: choose {allowed}")


#: One-line descriptions of the options, for ``pardon rules`` and the docs.
OPTION_HELP: Final[dict[str, str]] = {
    "deck": "cards in the pack: 44 (1939: four of each), 45 (a fifth 1), 55 (five of each)",
    "pawns": "pawns per colour: 4, or 3 for a faster game",
    "pawns_out": "pawns that begin on their start exit circle: 0, or 1 (the faster 2005 start)",
    "draw_again_on_2": "a 2 gives another draw, even when it could not be used",
    "slide_riders": "who rides a slide: 'others' (classic: other colours) or 'own' colour (2013)",
    "switched_opponent_slides": "the opponent moved by an 11 switch slides if it lands on a triangle",
    "leader": "who plays first: 'draw' (highest card), 'named' (e.g. the youngest), 'last-winner'",
    "leave_start": "cards that bring a pawn out: 'circle' (1, 2, Sorry!), 'forward-count', 'forward-circle'",
    "sorry_forward_4": "a Sorry! may instead move one of your pawns forward 4 (2013)",
    "partners": "Red+Yellow against Blue+Green; play either partner's pawns (4 players)",
    "partner_split": "partners' split 7: between 'two' pawns (1939) or 'any' number of team pawns (1992)",
    "scoring": "points: 'none', '1939' (Point Scoring Sorry) or '1992' (play for points)",
    "solo": "one player alone: count the cards drawn until every pawn is Home",
    "hand": "cards in each hand: 0 (draw one a turn) or 5 (hands of five, 1992)",
    "tokens": "the Fire and Ice tokens of the 2013 edition",
    "doubling": "a player may double before drawing; the others accept or drop out (needs scoring=1939)",
}

_MODERN = Rules(
    pawns=3,
    leader="named",
    draw_again_on_2=False,
    leave_start="forward-count",
    sorry_forward_4=True,
    slide_riders="own",
)

PRESETS: Final[dict[str, Rules]] = {
    "classic": Rules(),
    "classic-1939": Rules(deck=44, board="diamonds"),
    "partners": Rules(partners=True),
    "adult": Rules(pawns_out=1, hand=5, scoring="1992"),
    "modern": dataclasses.replace(_MODERN, tokens=True),
    "modern-no-tokens": _MODERN,
    "solo": Rules(solo=True, leader="named"),
}

PRESET_HELP: Final[dict[str, str]] = {
    "classic": "the classic game: 45 cards, 4 pawns, a 2 draws again (1939, Parker Brothers 1992)",
    "classic-1939": "the 1939 game: 44 cards, the older board's diamonds, with Point Scoring Sorry as an option",
    "partners": "4 players in teams, Red+Yellow against Blue+Green, either partner's pawns (Parker Brothers 1992)",
    "adult": "1992 play for points: one pawn out, hands of five cards, 1992 points",
    "modern": "2013 Hasbro with Fire and Ice: 3 pawns, any forward card leaves Start, own-colour slides",
    "modern-no-tokens": "2013 Hasbro without Fire and Ice: 3 pawns, any forward card leaves Start, own-colour slides",
    "solo": "solo challenge: one colour, count the cards drawn until every pawn is Home",
}

_SPEC = re.compile(r"^\s*([a-z0-9-]+)\s*(?:\((.*)\))?\s*$")


def parse_rules(text: str) -> Rules:
    """Read ``"classic"`` or ``"classic(pawns=3,deck=44)"``.

    >>> parse_rules("classic(pawns=3)").pawns
    3
    """
    if not isinstance(text, str):
        raise InvalidError(f"rules are text such as 'classic' or 'classic(pawns=3)', not {reprlib.repr(text)}")
    match = _SPEC.match(text)
    if match is None:
        raise InvalidError(f"cannot read rules {text!r}: expected PRESET or PRESET(option=value,...)")
    preset_name, arguments = match.group(1), match.group(2)
    if preset_name not in PRESETS:
        raise InvalidError(f"unknown rules preset {preset_name!r}: choose {', '.join(PRESETS)}")
    changes: dict[str, Any] = {}
    for item in (arguments or "").split(","):
        if not item.strip():
            continue
        option, equals, value = item.partition("=")
        option = option.strip().replace("-", "_")
        if not equals:
            raise InvalidError(f"cannot read rules option {item.strip()!r}: expected option=value")
        if option in changes:
            raise InvalidError(f"rules option {option} is given twice")
        changes[option] = _parse_value(option, value.strip())
    return adjust(PRESETS[preset_name], **changes)


def adjust(rules: Rules, /, **changes: Any) -> Rules:
    """``rules`` with some options changed, each checked."""
    fields = {field.name: field for field in dataclasses.fields(Rules)}
    for option, value in changes.items():
        if option not in fields:
            raise InvalidError(f"unknown rules option {option!r}: choose {', '.join(fields)}")
        default = getattr(Rules(), option)
        if type(value) is not type(default):
            kind = {bool: "true or false", int: "a whole number", str: "a word"}[type(default)]
            raise InvalidError(f"rules option {option} takes {kind}, not {reprlib.repr(value)}")
    return dataclasses.replace(rules, **changes)


def _parse_value(option: str, text: str) -> Any:
    fields = {field.name for field in dataclasses.fields(Rules)}
    if option not in fields:
        raise InvalidError(f"unknown rules option {option!r}: choose {', '.join(sorted(fields))}")
    default = getattr(Rules(), option)
    if isinstance(default, bool):
        lowered = text.lower()
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        raise InvalidError(f"rules option {option} takes true or false, not {text!r}")
    if isinstance(default, int):
        try:
            return int(text)
        except ValueError:
            raise InvalidError(f"rules option {option} takes a number, not {text!r}") from None
    return text


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def nearest_preset(rules: Rules) -> tuple[str, dict[str, Any]]:
    """The preset whose options differ least from ``rules``, and the differing options."""
    name, changes = _nearest_preset(rules)
    return name, dict(changes)


@functools.lru_cache(maxsize=256)
def _nearest_preset(rules: Rules) -> tuple[str, tuple[tuple[str, Any], ...]]:
    # Cached: every position written as JSON (the server sends many) names its rules.
    options = to_dict(rules)
    best_name, best_changes = "", dict[str, Any]()
    for preset_name, preset in PRESETS.items():
        preset_options = to_dict(preset)
        changes = {key: value for key, value in options.items() if preset_options[key] != value}
        if not best_name or len(changes) < len(best_changes):
            best_name, best_changes = preset_name, changes
    return best_name, tuple(best_changes.items())


def to_text(rules: Rules) -> str:
    """The nearest preset, with the differences: ``"classic-1939(pawns=3)"``."""
    name, changes = nearest_preset(rules)
    if not changes:
        return name
    return f"{name}({','.join(f'{key}={_format_value(value)}' for key, value in changes.items())})"


#: Each option's values in a player's words, for the name of an adjusted preset.
_OPTION_WORDS: Final[dict[str, dict[Any, str]]] = {
    "deck": {44: "a 44-card pack", 45: "a 45-card pack", 55: "a 55-card pack"},
    "pawns": {3: "3 pawns", 4: "4 pawns"},
    "pawns_out": {0: "every pawn in Start", 1: "one pawn out"},
    "draw_again_on_2": {True: "a 2 draws again", False: "no draw again on a 2"},
    "slide_riders": {"others": "slides for other colours", "own": "own-colour slides"},
    "switched_opponent_slides": {True: "a switched pawn slides", False: "no slide after a switch"},
    "leader": {
        "draw": "the highest card leads",
        "named": "a named player leads",
        "last-winner": "the last winner leads",
    },
    "leave_start": {
        "circle": "only a 1, a 2 or a Sorry! leaves Start",
        "forward-count": "any forward card leaves Start",
        "forward-circle": "any forward card leaves Start, onto the circle",
    },
    "sorry_forward_4": {True: "Sorry! or forward 4", False: "no forward 4 with a Sorry!"},
    "partners": {True: "partners", False: "no partners"},
    "partner_split": {"two": "7s split between two pawns", "any": "7s split among any team pawns"},
    "scoring": {"none": "no points", "1939": "Point Scoring", "1992": "1992 points"},
    "solo": {True: "solo", False: "no solo"},
    "hand": {0: "a card a turn", 5: "hands of five"},
    "tokens": {True: "Fire and Ice", False: "no Fire and Ice"},
    "doubling": {True: "doubles", False: "no doubles"},
    "board": {"plain": "the plain board", "diamonds": "the older board's diamonds"},
}


def check_rules(value: object) -> Rules:
    """``value`` if it is a :class:`Rules`, else InvalidError: the public entry points take
    ``parse_rules(text)``, not the text itself."""
    if not isinstance(value, Rules):
        raise InvalidError(f"rules must be a Rules value (parse_rules('classic')), not {reprlib.repr(value)}")
    return value


def in_words(rules: Rules) -> str:
    """The rules' name for people: the nearest preset and, in words, what differs from it.

    >>> in_words(parse_rules("classic-1939(scoring=1939,doubling=true)"))
    'Classic-1939 with Point Scoring, doubles'
    >>> in_words(parse_rules("modern"))
    'Modern'
    """
    name, changes = nearest_preset(rules)
    title = name[0].upper() + name[1:]
    if not changes:
        return title
    return f"{title} with {', '.join(_OPTION_WORDS[option][value] for option, value in changes.items())}"


def to_dict(rules: Rules) -> dict[str, Any]:
    """Every option with its value."""
    return {field.name: getattr(rules, field.name) for field in dataclasses.fields(Rules)}


def from_dict(data: dict[str, Any]) -> Rules:
    """Rules from a JSON object: ``{"preset": NAME, option: value, ...}``, preset optional."""
    changes = dict(data)
    preset_name = changes.pop("preset", "classic")
    if not isinstance(preset_name, str) or preset_name not in PRESETS:
        raise InvalidError(f"unknown rules preset {reprlib.repr(preset_name)}: choose {', '.join(PRESETS)}")
    return adjust(PRESETS[preset_name], **changes)
