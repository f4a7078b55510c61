"""Which functions play an edition in the batch engine: each edition with more to decide than
the card in hand has a module of its own, and :func:`edition` names its legal lanes, its
distinct lanes and its play, so that :func:`~pardon.batch.legal.legal_lanes`,
:func:`~pardon.batch.distinct.distinct_lanes` and :func:`~pardon.batch.play.play` serve every
edition alike.

* The turn (:func:`edition`): doubling's decisions before the draw and the answers to a double
  (:mod:`pardon.batch.doubling`), or the Fire pawn's move before the draw
  (:mod:`pardon.batch.tokens`), each around the card's moves (:mod:`pardon.batch.stages`);
  else the card's moves alone.
* The card's moves (:func:`card_edition`): a card of a hand of five (:mod:`pardon.batch.hands`,
  each card's moves as below), the partners' team (:mod:`pardon.batch.partners`; its split 7
  among any team pawns part by part, :mod:`pardon.batch.split_any`), a card with Fire and Ice
  (:mod:`pardon.batch.tokens`), or the card in hand
  (:func:`~pardon.batch.legal.card_lanes`, :func:`~pardon.batch.distinct.card_distinct_lanes`,
  :func:`~pardon.batch.play.play_card`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from pardon.batch.backend import Array
from pardon.batch.config import Config, Games, Played, splits_any


class Edition(NamedTuple):
    """An edition's legal lanes, distinct lanes (the legal lanes given, or worked out) and play."""

    lanes: Callable[[Config, Games], Array]
    distinct: Callable[[Config, Games, Array | None], Array]
    play: Callable[[Config, Games, Array, bool], tuple[Games, Played]]


def edition(config: Config) -> Edition:
    """The functions of a whole turn of ``config``'s games."""
    if config.rules.doubling:
        from pardon.batch import doubling

        return Edition(doubling.doubling_lanes, doubling.doubling_distinct_lanes, doubling.play_doubling)
    if config.rules.tokens:
        from pardon.batch import tokens

        return Edition(tokens.token_lanes, tokens.token_distinct_lanes, tokens.play_tokens)
    return card_edition(config)


def card_edition(config: Config) -> Edition:
    """The functions of the card played (what doubling's decisions wrap)."""
    if config.rules.hand:
        from pardon.batch import hands

        return Edition(hands.hand_lanes, hands.hand_distinct_lanes, hands.play_from_hand)
    if splits_any(config.rules):
        from pardon.batch import split_any

        return Edition(split_any.any_lanes, split_any.any_distinct_lanes, split_any.play_any)
    if config.rules.partners:
        from pardon.batch import partners

        return Edition(partners.team_lanes, partners.team_distinct_lanes, partners.play_team)
    if config.rules.tokens:
        from pardon.batch import tokens

        return Edition(tokens.token_card_lanes, tokens.token_card_distinct_lanes, tokens.play_token_card)
    from pardon.batch.distinct import card_distinct_lanes
    from pardon.batch.legal import card_lanes
    from pardon.batch.play import play_card

    return Edition(card_lanes, card_distinct_lanes, play_card)
