"""Computer players.  Every player has one method, ``choose(observation, moves, rng)``.

Levels, weakest first: ``random``, ``greedy``, ``tactician``, ``expectimax``, ``mcts``
(docs/bots.md says how each plays).  :func:`make_bot` takes a level's name, optionally
with its budget: ``"mcts(iterations=200)"``, ``"expectimax(depth=2)"``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from typing import Any, Protocol

from pardon.core.moves import Move
from pardon.core.observation import Observation


class Bot(Protocol):
    """A computer player: picks one of the legal moves it is given."""

    name: str

    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move: ...


class RandomBot:
    """Uniform over the legal moves (one per distinct outcome, so no outcome is favoured)."""

    name = "random"

    def choose(self, observation: Observation, moves: list[Move], rng: random.Random) -> Move:
        return moves[rng.randrange(len(moves))] if len(moves) > 1 else moves[0]


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
        raise ValueError(f"cannot read computer player {text!r}: expected LEVEL or LEVEL(option=value,...)")
    options: dict[str, Any] = {}
    for item in (match.group(2) or "").split(","):
        if not item.strip():
            continue
        key, equals, value = item.partition("=")
        if not equals or not key.strip().isidentifier():
            raise ValueError(f"cannot read option {item.strip()!r} of {text!r}: expected option=value")
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
    """A computer player by its level's name, optionally with options: ``"mcts(iterations=200)"``."""
    name, options = parse_bot_spec(spec)
    factories = _factories()
    if name not in factories:
        raise ValueError(f"unknown computer player {name!r}: choose {', '.join(BOTS)}")
    try:
        return factories[name](**options)
    except TypeError:
        raise ValueError(f"computer player {name!r} does not take the options {spec!r} gives") from None


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
