"""The rules of Sorry!: pure standard library, no I/O, fully typed.

>>> from pardon.core import Game, parse_rules
>>> game = Game.new(parse_rules("classic"), seats=(0, 2), seed=1)
>>> card = game.draw()
>>> len(game.legal_moves()) >= 1
True
"""

from pardon.core.cards import SORRY, Pack, card_name, parse_card
from pardon.core.errors import AmbiguousError, IllegalError, InvalidError, PardonError
from pardon.core.game import Game, record_of, replay
from pardon.core.moves import Action, Move, apply, legal_moves
from pardon.core.notation import (
    Record,
    format_move,
    format_position,
    format_record,
    parse_move,
    parse_position,
    parse_record,
)
from pardon.core.rules import PRESETS, Rules, parse_rules
from pardon.core.state import Position, initial_position

__all__ = [
    "PRESETS",
    "SORRY",
    "Action",
    "AmbiguousError",
    "Game",
    "IllegalError",
    "InvalidError",
    "Move",
    "Pack",
    "PardonError",
    "Position",
    "Record",
    "Rules",
    "apply",
    "card_name",
    "format_move",
    "format_position",
    "format_record",
    "initial_position",
    "legal_moves",
    "parse_card",
    "parse_move",
    "parse_position",
    "parse_record",
    "parse_rules",
    "record_of",
    "replay",
]
