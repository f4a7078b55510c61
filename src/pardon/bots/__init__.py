"""Computer players.  Every player has one method, ``choose(observation, moves, rng)``.

Levels, weakest first: ``random``, ``greedy``, ``tactician``, ``expectimax``, ``mcts``
(as strong as ``expectimax``, slower) and ``expert`` (docs/bots.md says how each plays).
:func:`make_bot` takes a level's name, optionally with its budget: ``"mcts(iterations=200)"``,
``"expectimax(depth=2)"``.
"""

from __future__ import annotations

import dataclasses
import inspect
import json
import math
import random
import re
from collections.abc import Callable
from typing import Any, Protocol

from pardon.bots.doubling import doubles_by_chance
from pardon.core.errors import IllegalError, InvalidError
from pardon.core.moves import Move
from pardon.core.observation import Observation


class Bot(Protocol):
    """A computer player: picks one of the legal moves it is given."""

    name: str

    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move: ...


class RandomBot:
    """Uniform over the legal moves (one per distinct outcome, so no outcome is favoured)."""

    name = "random"

    @doubles_by_chance
    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))] if len(moves) > 1 else only_move(moves)


def only_move(moves: list[Move]) -> Move:
    """The one move of ``moves`` (what every player plays without thinking), else an error
    that says what went wrong: an empty list is what ``legal_moves()`` gives while a card
    is to be drawn, or once the game is over."""
    if not isinstance(moves, list | tuple):
        raise InvalidError(f"a computer player chooses from a list of moves (legal_moves()), not {moves!r:.80}")
    if not moves:
        raise IllegalError(
            "there is no move to choose from: legal_moves() is empty until a card is drawn, and once the game is over"
        )
    return moves[0]


BOTS = ("random", "greedy", "tactician", "expectimax", "mcts", "expert")
#: The level ``pardon play`` and the user interfaces use unless told otherwise.
DEFAULT_BOT = "expectimax"
#: The level that judges a finished game for the coach (``pardon analyse``, the browser's
#: "How the game went"): the strongest; where it has no network for a game it judges as ``expectimax``.
DEFAULT_COACH = "expert"

_SPEC = re.compile(r"^\s*([a-z]+)\s*(?:\((.*)\))?\s*$")


def _factories() -> dict[str, Callable[..., Bot]]:
    from pardon.bots.expectimax import ExpectimaxBot
    from pardon.bots.expert import ExpertBot
    from pardon.bots.greedy import GreedyBot
    from pardon.bots.mcts import MctsBot
    from pardon.bots.tactician import TacticianBot

    return {
        "random": RandomBot,
        "greedy": GreedyBot,
        "tactician": TacticianBot,
        "expectimax": ExpectimaxBot,
        "mcts": MctsBot,
        "expert": ExpertBot,
    }


def parse_bot_spec(text: str) -> tuple[str, dict[str, Any]]:
    """Read ``"mcts"`` or ``"mcts(iterations=200,rollout=random)"`` into a name and options.

    >>> parse_bot_spec("mcts(iterations=200, seconds=0.5)")
    ('mcts', {'iterations': 200, 'seconds': 0.5})
    """
    match = _SPEC.match(text)
    if match is None:
        raise InvalidError(f"cannot read computer player {text!r}: expected LEVEL or LEVEL(option=value,...)")
    options: dict[str, Any] = {}
    for item in (match.group(2) or "").split(","):
        if not item.strip():
            continue
        key, equals, value = item.partition("=")
        if not equals or not key.strip().isidentifier():
            raise InvalidError(f"cannot read option {item.strip()!r} of {text!r}: expected option=value")
        if key.strip() in options:
            raise InvalidError(f"option {key.strip()!r} is given twice in {text!r}")
        options[key.strip()] = _option_value(value.strip())
    return match.group(1), options


def _option_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_bot(spec: str) -> Bot:
    """A computer player by its level's name, optionally with options: ``"mcts(iterations=200)"``.

    Each option is checked against the level's own: an unknown option, or a value of the
    wrong kind (``depth=2.5``, ``learned=abc``, ``iterations=inf``), is an InvalidError.
    """
    if not isinstance(spec, str):
        raise InvalidError(f"a computer player is named by text such as 'expectimax', not {spec!r}")
    name, options = parse_bot_spec(spec)
    factories = _factories()
    if name not in factories:
        raise InvalidError(f"unknown computer player {name!r}: choose {', '.join(BOTS)}")
    kinds = _option_kinds(factories[name])
    for option, value in options.items():
        if option not in kinds:
            choose = f"its options are {', '.join(sorted(kinds))}" if kinds else "it takes none"
            raise InvalidError(
                f"computer player {name!r} does not take the options {spec!r} gives ({option!r}): {choose}"
            )
        options[option] = _checked(name, option, kinds[option], value)
    return factories[name](**options)


def _option_kinds(factory: Callable[..., Bot]) -> dict[str, str]:
    """The options a level takes by text, each with its kind (``int``, ``float``, ``bool``
    or ``str``): its constructor's parameters, those of the class it passes ``**options``
    on to, and the evaluation's weights where it takes ``**changes``."""
    from pardon.bots.evaluation import Weights

    kinds: dict[str, str] = {}
    classes = factory.__mro__ if isinstance(factory, type) else (factory,)
    for cls in classes:
        init = vars(cls).get("__init__") if isinstance(cls, type) else cls
        if init is None:
            continue
        more = False
        for parameter in inspect.signature(init).parameters.values():
            if parameter.kind is inspect.Parameter.VAR_KEYWORD:
                more = True
                if parameter.name == "changes":  # the evaluation's weights, by name
                    kinds.update(dict.fromkeys(Weights.names(), "float"))
                    more = False
            elif parameter.name != "self" and parameter.kind is not inspect.Parameter.VAR_POSITIONAL:
                annotation = str(parameter.annotation).split("|")[0].strip()
                if annotation in ("int", "float", "bool", "str"):
                    kinds.setdefault(parameter.name, annotation)
        if not more:
            break
    return kinds


def _checked(name: str, option: str, kind: str, value: Any) -> Any:
    """``value`` (as :func:`parse_bot_spec` read it) if it is of ``kind``; raise if not."""
    if kind == "bool":
        words = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}
        if isinstance(value, str) and value.lower() in words:
            return words[value.lower()]
        if value in (0, 1) and isinstance(value, int):
            return value
        wanted = "true or false"
    elif kind == "int":
        if isinstance(value, int):
            return value
        wanted = "a whole number"
    elif kind == "float":
        if isinstance(value, int | float) and math.isfinite(value):
            return value
        wanted = "a number"
    else:
        if isinstance(value, str):
            return value
        wanted = "a word"
    raise InvalidError(f"option {option} of computer player {name!r} takes {wanted}, not {value!r}")


def describe_bot(spec: str) -> dict[str, Any]:
    """What the player ``spec`` names plays with: its level and every option, defaults
    included, as JSON.  Kept with a run's games, so that a run resumed after a level's
    defaults changed is refused instead of mixing the games of two different players.

    >>> describe_bot("mcts(iterations=50)")["iterations"], describe_bot("random")
    (50, {'level': 'random'})
    """
    bot = make_bot(spec)
    options: dict[str, Any] = {"level": bot.name}
    for name, value in sorted(vars(bot).items()):
        if not name.startswith("_"):
            options[name] = dataclasses.asdict(value) if dataclasses.is_dataclass(value) else value  # type: ignore[arg-type]
    loaded: dict[str, Any] = json.loads(json.dumps(options))  # tuples as lists, as a settings file reads back
    return loaded


def split_bot_specs(text: str) -> list[str]:
    """Split a comma-separated list of player specs, keeping the commas inside parentheses.

    >>> split_bot_specs("greedy,mcts(iterations=50,rollout=random),tactician")
    ['greedy', 'mcts(iterations=50,rollout=random)', 'tactician']
    """
    specs, depth, current = [], 0, ""
    for character in text:
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "," and depth == 0:
            specs.append(current.strip())
            current = ""
        else:
            current += character
    specs.append(current.strip())
    return [spec for spec in specs if spec]
