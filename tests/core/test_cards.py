"""Cards, packs and shuffles."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pardon.core.cards import DECKS, SORRY, Pack, a_card, deck, parse_card, shuffled


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
