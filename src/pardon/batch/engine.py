"""Many games of Sorry! at once as arrays: the batch engine (docs/batch.md).

Every array has the games on its **last** axes (``(..., *batch)``): a small leading axis
(seats, pawn slots, actions, kinds of card) and then one entry per game.  NumPy then
runs each operation as a few long loops over the games, and the same functions run on
one game (no batch axes), on a batch, under ``jax.jit`` and under ``jax.vmap``: nothing
here writes into an array, branches on a value, or depends on the batch's size
(:mod:`pardon.batch.backend`).

A game's state (:class:`Games`) keeps its pawns as distances to Home (the encoding of
:mod:`pardon.core.board`), its seats rotated so that seat 0 is always the player to move,
and its pack as the number of each kind of card left to draw.  Each draw picks one of
the cards left, uniformly, by a hash of the game's seed and the number of cards drawn:
drawing so is dealing from a shuffled pack, and a game's cards are a function of its
seed alone, whatever is played.  When the pack is empty the discards become the pack,
as in :meth:`pardon.core.cards.Pack.draw`.

A step (:func:`step`) plays each game's chosen action, ends the game if the mover has
every pawn Home, passes the turn (not after a classic 2) and draws the next card;
:func:`legal_lanes` gives each game's legal actions (:mod:`pardon.batch.actions`).

This module gathers the engine's functions, each written in a module of its own:
:mod:`~pardon.batch.config` (:class:`Config`, :class:`Games`, the constants and tables),
:mod:`~pardon.batch.deal` (random bits, new games, the draw), :mod:`~pardon.batch.legal`
(the legal actions), :mod:`~pardon.batch.distinct` (the lanes of distinct moves),
:mod:`~pardon.batch.random_play` (the random players), :mod:`~pardon.batch.play` (playing
an action, the step) and :mod:`~pardon.batch.scoring` (a finished game's points), over
:mod:`~pardon.batch.squares` (where pawns stand) and :mod:`~pardon.batch.fast_path` (NumPy's
way with the rare cards); the editions with more to decide each have theirs:
:mod:`~pardon.batch.hands` (hands of five), :mod:`~pardon.batch.partners` (the partners
game), :mod:`~pardon.batch.doubling` (doubling, where :func:`decider` names the player
answering a double) and :mod:`~pardon.batch.tokens` (Fire and Ice), which
:mod:`~pardon.batch.editions` names for each config.

>>> import numpy as np
>>> config = Config(parse_rules("classic"), 2)
>>> games = new_games(config, np.arange(3, dtype=np.uint32))
>>> games.pawns.shape, games.card.shape
((2, 4, 3), (3,))
>>> while (games.winner < 0).any():
...     games, _ = step(config, games, random_actions(config, games))
>>> games.winner.tolist(), games.drawn.tolist()
([1, 1, 1], [166, 168, 173])
"""

from __future__ import annotations

from pardon.batch.config import OFF_TRACK, SEEDS, STREAM_CHOICE, Config, Games, Played, tables
from pardon.batch.deal import draw, new_games, random_bits
from pardon.batch.distinct import distinct_lanes
from pardon.batch.doubling import decider
from pardon.batch.legal import legal_lanes
from pardon.batch.play import play, reset_finished, step
from pardon.batch.random_play import choose_uniform, random_actions, random_moves
from pardon.batch.scoring import points

# Two private helpers other code imported from this module before the split: still importable here.
from pardon.batch.squares import _relative_squares as _relative_squares  # noqa: PLC0414
from pardon.batch.squares import _sides as _sides  # noqa: PLC0414
from pardon.core.rules import parse_rules  # noqa: F401 (the module docstring's example uses it)

__all__ = [
    "OFF_TRACK",
    "SEEDS",
    "STREAM_CHOICE",
    "Config",
    "Games",
    "Played",
    "choose_uniform",
    "decider",
    "distinct_lanes",
    "draw",
    "legal_lanes",
    "new_games",
    "play",
    "points",
    "random_actions",
    "random_bits",
    "random_moves",
    "reset_finished",
    "step",
    "tables",
]
