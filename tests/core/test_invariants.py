"""Invariants checked after every move of thousands of seeded random games."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from pardon.core import Game, Move, Rules, parse_rules
from pardon.core.board import DISTANCE, FIRST_TRACK, HOME, SQUARE, START
from pardon.core.cards import DECKS, NO_CARD
from pardon.core.state import Position, check_position, seats_for

GAMES_PER_PLAYER_COUNT = 2000
GAMES_PER_VARIANT = 500
#: (preset, players, games): the classic game in full, every other preset at least 500.
RUNS = [
    ("classic", 2, GAMES_PER_PLAYER_COUNT),
    ("classic", 3, GAMES_PER_PLAYER_COUNT),
    ("classic", 4, GAMES_PER_PLAYER_COUNT),
    ("classic-1939", 3, GAMES_PER_VARIANT),
    ("modern-no-tokens", 2, GAMES_PER_VARIANT),
    ("modern-no-tokens", 4, GAMES_PER_VARIANT),
    ("solo", 1, GAMES_PER_VARIANT),
    ("partners", 4, GAMES_PER_VARIANT),
    ("partners(partner_split=any)", 4, 200),
    ("classic(pawns=3,pawns_out=1,deck=55)", 3, GAMES_PER_VARIANT),
    ("modern", 2, GAMES_PER_VARIANT),
    ("modern", 4, GAMES_PER_VARIANT),
    ("adult", 2, GAMES_PER_VARIANT),
    ("adult", 4, GAMES_PER_VARIANT),
    ("classic-1939(scoring=1939,doubling=true)", 3, GAMES_PER_VARIANT),
    ("adult(tokens=true,deck=55)", 3, 100),
]
TURN_LIMIT = 5000  # far beyond any real game: reaching it means a game never ends


def check_invariants(before: Position, after: Position, pawns_each: int) -> None:
    squares: set[int] = set()
    for colour in after.seats:
        row = after.pawns[colour]
        assert len(row) == pawns_each, "pawn count changed"
        assert list(row) == sorted(row)
        track = [SQUARE[colour][pawn] for pawn in row if FIRST_TRACK <= pawn < START]
        assert not squares & set(track), "two pawns on one track square"
        squares.update(track)
        assert len(set(track)) == len(track)
        safety = [pawn for pawn in row if HOME < pawn < FIRST_TRACK]
        assert len(set(safety)) == len(safety), "two pawns on one Safety Zone square"
        # Home pawns never move: a colour's count at Home never falls.
        assert row.count(HOME) >= before.pawns[colour].count(HOME)
        for pawn in track:
            assert DISTANCE[colour][pawn] >= FIRST_TRACK


def check_variant_invariants(rules: Rules, game: Game, before: Position, move: Move) -> None:
    """What hands, tokens and doubling add: five cards a hand, no card lost or made,
    an iced pawn that stays put, tokens on pawns that are there."""
    after = game.position
    if rules.hand and not game.is_over:
        assert all(len(after.hands[colour]) == rules.hand for colour in after.seats), "a hand is not full"
        cards = Counter(game.pack.draw_pile) + Counter(game.pack.discards)
        for hand in after.hands:
            cards.update(hand)
        assert cards == Counter(DECKS[rules.deck]), "cards were lost or made"
    if before.ice is not None and move.card not in (NO_CARD, 1):
        assert after.ice == before.ice, "only a 1 moves the Ice"
        colour, pawn = before.ice
        assert pawn in after.pawns[colour], "an iced pawn moved"
    if rules.tokens or rules.hand or rules.doubling:
        check_position(rules, after)  # tokens on pawns that are there, the stake a power of 2


@pytest.mark.parametrize(("preset", "players", "games"), RUNS, ids=[f"{name}-{n}p" for name, n, _ in RUNS])
def test_invariants_hold_after_every_move(preset: str, players: int, games: int) -> None:
    rules = parse_rules(preset)
    seats = seats_for(players)
    winners = dict.fromkeys(seats, 0)
    for seed in range(games):
        game = Game.new(rules, seats, seed)
        rng = random.Random(seed)
        while not game.is_over:
            assert game.turns < TURN_LIMIT, f"game {seed} does not end"
            if game.awaiting_draw:
                game.draw()
            moves = game.legal_moves()
            assert moves, "a turn always has a move, if only a pass"
            before = game.position
            move = moves[rng.randrange(len(moves))]
            game.play_trusted(move)
            check_invariants(before, game.position, rules.pawns)
            check_variant_invariants(rules, game, before, move)
        check_position(rules, game.position)
        assert game.winner is not None
        if rules.doubling and game.position.out:
            winners[game.winner] += 1
            continue  # the last player in wins without every pawn Home
        winners_team = (game.winner, (game.winner + 2) % 4) if rules.partners else (game.winner,)
        for member in winners_team:  # a team wins only with all its pawns Home
            assert all(pawn == HOME for pawn in game.position.pawns[member])
        winners[game.winner] += 1
    assert all(count > 0 for count in winners.values()), "every seat wins some games"
