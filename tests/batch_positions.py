"""Batch positions made for tests: one position copied, or positions of no particular game
(tests are not a package: imported from beside conftest.py)."""

from __future__ import annotations

import numpy as np

from pardon.batch.engine import Config, Games, new_games
from pardon.core.cards import CARDS


def positions(config: Config, rows: list[list[int]], card: int, copies: int, turn: int = 0) -> Games:
    """``copies`` games of one position (``rows``: each seat's four slots, seat 0 to move),
    each with its own seed, so with its own random bits."""
    games = new_games(config, np.arange(copies, dtype=np.uint32))
    pawns = np.repeat(np.array(rows, dtype=np.int8)[..., None], copies, axis=-1)
    return games._replace(
        pawns=pawns,
        card=np.full(copies, card, dtype=np.int8),
        turn=np.full(copies, turn, dtype=np.int8),
    )


def random_positions(config: Config, count: int, seed: int) -> Games:
    """Positions of no particular game: pawns anywhere (often crowded about a few slides),
    mostly cards whose lanes may end alike."""
    rng = np.random.default_rng(seed)
    games = new_games(config, np.arange(count, dtype=np.uint32))
    players, kept = config.players, config.rules.pawns
    turn = rng.integers(0, players, count).astype(np.int8)
    sides = np.array(
        [(config.seats[(int(t) + q) % players] - config.seats[int(t)]) % 4 for t in turn for q in range(players)]
    )
    sides = sides.reshape(count, players)
    pawns = np.zeros((players, 4, count), dtype=np.int8)
    for game in range(count):
        start, width = int(rng.integers(0, 60)), int(rng.choice([17, 24, 30, 60]))
        taken: set[int] = set()
        for seat in range(players):
            safe: set[int] = set()
            for slot in range(kept):
                draw = rng.random()
                if draw < 0.15:
                    distance = 66
                elif draw < 0.22:
                    distance = 0
                elif draw < 0.3:
                    distance = int(rng.choice(sorted({1, 2, 3, 4, 5} - safe)))
                    safe.add(distance)
                else:
                    square = int((start + rng.integers(0, width)) % 60)
                    while square in taken:
                        square = (square + 1) % 60
                    taken.add(square)
                    distance = (2 + 15 * int(sides[game, seat]) - square) % 60 + 6
                pawns[seat, slot, game] = distance
            if (pawns[seat, :kept, game] == 0).all():
                pawns[seat, 0, game] = 66  # every pawn Home: that game would be over
    card = rng.choice(np.array(CARDS + (4, 7, 10, 11) * 3), count).astype(np.int8)
    return games._replace(pawns=pawns, turn=turn, card=card)


def holding(config: Config, games: Games, seat: int, cards: list[int]) -> Games:
    """``games`` (a batch of one) with ``seat`` holding ``cards``, the pack made up so that
    the deck still adds up (the cards come out of the pack or another hand's place)."""
    hands = np.array(games.hands, copy=True)
    pack = np.array(games.pack, copy=True)
    pack[:, 0] += hands[seat, :, 0]
    hands[seat, :, 0] = 0
    for card in cards:
        kind = CARDS.index(card)
        hands[seat, kind, 0] += 1
        pack[kind, 0] -= 1
        if pack[kind, 0] < 0:  # another seat holds it: that seat takes a card of another kind instead
            other = next(row for row in range(hands.shape[0]) if row != seat and hands[row, kind, 0])
            spare = next(row for row in range(len(CARDS)) if pack[row, 0] > 0 and CARDS[row] not in cards)
            hands[other, kind, 0] -= 1
            hands[other, spare, 0] += 1
            pack[kind, 0] += 1
            pack[spare, 0] -= 1
    assert (pack >= 0).all()
    return games._replace(hands=hands, pack=pack, left=pack.sum(axis=0).astype(np.int8))
