"""The forward model of the search players: the one place that turns what a seat may
know into a game it can play forward.

A seat sees the board, the card it drew and the discard pile, never the order of the
pack (:mod:`pardon.core.observation`).  :func:`sample_game` *determinizes*: it deals the
cards the seat knows are left, in an order drawn from the bot's own random source, into
a real :class:`~pardon.core.game.Game`, so search runs on the engine's own decision loop
(``awaiting_draw``, ``draw``, ``decider``, ``legal_moves``, ``play_trusted``, ``pop``)
and every kind of decision the engine offers (a card to play, a decision before the
draw, a card from a hand) is searched the same way: :func:`advance` and
:func:`take_back` make and undo a decision, :func:`next_key` steps to the next one.  Chance nodes
are enumerated with :func:`draw_chances` and :func:`draw_given`, which only read and
rearrange the *sampled* pack: its composition is the true one (card counting), its
order is the bot's guess.

>>> import random
>>> from pardon.core import Game, parse_rules
>>> real = Game.new(parse_rules("classic"), seats=(0, 2), seed=4)
>>> card = real.draw()
>>> model = sample_game(real.observe(real.decider), random.Random(1))
>>> model.card == card and model.legal_moves() == real.legal_moves()
True
"""

from __future__ import annotations

import random
from collections import Counter

from pardon.core.board import partner
from pardon.core.cards import Pack
from pardon.core.game import CARD, Game
from pardon.core.moves import Move
from pardon.core.observation import Observation
from pardon.core.state import Position
from pardon.core.turn import GameState, chance_outcomes

__all__ = [
    "advance",
    "draw_chances",
    "draw_given",
    "matches",
    "next_key",
    "outcome",
    "sample_game",
    "take_back",
    "undraw_given",
]


def sample_game(observation: Observation, rng: random.Random) -> Game:
    """A game consistent with ``observation``: the unseen cards in a random order.

    The game is at the same step as the observed one: if the seat has drawn, its card is
    drawn in the model too.  With hands, the other players' hidden hands are dealt from
    the unseen cards first.  Reshuffles of the model's pack use a seed drawn from ``rng``.
    """
    rules, card, discards = observation.rules, observation.card, observation.discards
    unseen = list(observation.remaining().elements())
    rng.shuffle(unseen)
    seed = rng.getrandbits(32)
    position = observation.position
    if rules.hand:
        position, unseen = _deal_hidden_hands(observation, unseen)
    if card is None:
        return Game.at(rules, position, Pack(tuple(unseen), discards, 1), seed)
    if not discards or discards[-1] != card:
        raise ValueError("the card drawn must be the last card on the discard pile")
    # The decisions before the draw, if any, were made: the model stands at the draw, then draws.
    game = Game(rules, GameState(position, Pack((card, *unseen), discards[:-1], 1), seed, stage=CARD))
    game.draw()
    return game


def _deal_hidden_hands(observation: Observation, unseen: list[int]) -> tuple[Position, list[int]]:
    """The other players' hands, full, from the shuffled unseen cards; the rest is the pack."""
    position = observation.position
    hands: list[tuple[int, ...]] = list(position.hands) if position.hands else [() for _ in range(4)]
    for colour in position.seats:
        if colour != observation.seat:
            hands[colour], unseen = tuple(sorted(unseen[: observation.rules.hand])), unseen[observation.rules.hand :]
    return position.with_extras(hands=tuple(hands)), unseen


def matches(game: Game, observation: Observation, moves: list[Move]) -> bool:
    """Whether the model stands at the observed decision (a search falls back to the
    evaluation of each move's result where it cannot rebuild the decision, such as
    an answer to a double)."""
    return game.decider == observation.seat and len(game.legal_moves()) == len(moves)


def draw_chances(game: Game) -> list[tuple[int, float]]:
    """Each card the next draw can turn up, with its chance (from the pack's composition)."""
    return chance_outcomes(game.rules, game.state)


def draw_given(game: Game, card: int) -> None:
    """Draw ``card`` next (it must be one :func:`draw_chances` offers); :func:`undraw_given`
    puts it back.  Only the model's order of the unseen cards changes, which the bot chose anyway.
    """
    game.draw_card(card)


def undraw_given(game: Game) -> None:
    """Undo :func:`draw_given`: the pack as it was before the draw, order included."""
    game.undraw()


def advance(game: Game, move: Move) -> int | None:
    """Make ``move`` (one of ``game.legal_moves()``); returns what :func:`take_back` needs."""
    card = game.card
    game.play_trusted(move)
    return card


def take_back(game: Game, card: int | None) -> None:
    """Undo :func:`advance`: back at the decision, its card (if one was drawn) drawn again."""
    game.pop()
    if card is not None:
        game.draw()


def next_key(game: Game) -> object:
    """After a decision: draw if chance is next, and name the step reached.

    The key is the card drawn (``None`` without a draw); in a hand game, where the model
    holds hidden hands, the position is part of it, so a search tree never mixes decisions
    of different deals.
    """
    card = game.draw() if game.awaiting_draw else None
    return (card, game.position) if game.rules.hand else card


def outcome(game: Game) -> list[float]:
    """Each colour's result of a finished game: 1 for the winner (and its partner), else 0."""
    winner = game.winner
    if winner is None:
        raise ValueError("the game is not over")
    return outcome_for(game.rules.partners, winner)


def outcome_for(partners: bool, winner: int) -> list[float]:
    """Each colour's result of a game ``winner`` has won (with its partner, in a partners game)."""
    winners = {winner, partner(winner)} if partners else {winner}
    return [1.0 if colour in winners else 0.0 for colour in range(4)]


def remaining_counts(game: Game) -> Counter[int]:
    """The cards left in the model's pack (what a seat would count)."""
    return Counter(game.pack.draw_pile)
