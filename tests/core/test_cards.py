"""Cards, packs and shuffles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pardon.core import Game, parse_position, parse_rules
from pardon.core.cards import DECKS, SORRY, Pack, a_card, card_name, deck, parse_card, shuffled
from pardon.core.errors import IllegalError, InvalidError
from pardon.core.turn import chance_outcomes


@pytest.mark.parametrize("size", [44, 45, 55])
def test_decks_have_their_size_and_no_6_or_9(size: int) -> None:
    cards = deck(size)
    assert len(cards) == size
    assert 6 not in cards and 9 not in cards
    assert sum(DECKS[size].values()) == size


def test_the_shuffle_is_fisher_yates_from_the_games_own_random_source() -> None:
    for seed in range(50):
        order = list(deck(45))
        random.Random(f"pardon:{seed}:0").shuffle(order)
        assert shuffled(deck(45), seed, 0) == tuple(order)
    assert shuffled(deck(45), 1, 0) != shuffled(deck(45), 1, 1)
    assert sorted(shuffled(deck(55), 9, 4)) == sorted(deck(55))


def test_an_empty_pack_is_made_again_from_the_discards() -> None:
    pack = Pack.new(45, seed=3)
    drawn = []
    for _ in range(45):
        card, pack = pack.draw(3)
        drawn.append(card)
    assert not pack.draw_pile and sorted(pack.discards) == sorted(deck(45))
    card, pack = pack.draw(3)
    assert pack.shuffles == 2 and pack.discards == (card,) and len(pack.draw_pile) == 44
    assert dict(pack.chances()) == pytest.approx(
        {value: count / 44 for value, count in Counter(pack.draw_pile).items()}
    )


def test_card_names() -> None:
    assert parse_card("Sorry!") == SORRY
    assert a_card(8) == "an 8" and a_card(SORRY) == "a Sorry!"
    with pytest.raises(ValueError, match="unknown card"):
        parse_card("6")


@pytest.mark.parametrize("text", [None, 7, ["7"]])
def test_parse_card_of_something_that_is_not_text_is_an_invalid_error(text: object) -> None:
    # was an AttributeError ('int' object has no attribute 'strip')
    with pytest.raises(InvalidError, match="a card is written as text"):
        parse_card(text)  # type: ignore[arg-type]


def test_parse_card_of_an_unknown_card_is_an_invalid_error() -> None:
    # was a plain ValueError, outside the errors contract
    with pytest.raises(InvalidError, match="unknown card '6'"):
        parse_card("6")


@pytest.mark.parametrize("card", [6, 0, None, "7", [7]])
def test_card_name_of_something_that_is_no_card_is_an_invalid_error(card: object) -> None:
    # was a KeyError (or a TypeError for a list) from inside
    with pytest.raises(InvalidError, match="is not a card"):
        card_name(card)  # type: ignore[arg-type]


def test_a_deck_of_an_unknown_size_is_an_invalid_error() -> None:
    with pytest.raises(InvalidError, match="no deck of 46 cards"):
        Pack.new(46, 1)


def test_an_empty_pack_says_so() -> None:
    # chance_outcomes of a pack made by hand with no cards was a ZeroDivisionError, and its
    # draw a plain ValueError
    empty = Pack((), (), 1)
    with pytest.raises(IllegalError, match="no cards left to draw"):
        empty.chances()
    with pytest.raises(IllegalError, match="no cards left to draw"):
        empty.draw(1)
    game = Game.at(parse_rules("classic"), parse_position("R:20 Y:25 turn:R"), empty, 1)
    before = game.state
    with pytest.raises(IllegalError, match="no cards left to draw"):
        chance_outcomes(game.rules, game.state)
    with pytest.raises(IllegalError, match="no cards left to draw"):
        game.draw()
    assert game.state == before
