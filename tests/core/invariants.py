"""What must hold after every decision of every game, whatever the rules: the checks
shared by the invariant tests (``test_invariants.py``, ``test_all_options.py``).

Tests are not a package: load this file with ``module_loader.load_module``.
"""

from __future__ import annotations

from collections import Counter

from pardon.core import Game, Move, Rules
from pardon.core.board import DISTANCE, FIRST_TRACK, HOME, SLIDE_AT_TRIANGLE, SQUARE, START
from pardon.core.cards import DECKS, NO_CARD
from pardon.core.moves import BUMP_FROM_START, STEP, SWITCH
from pardon.core.state import Position, check_position


def check_invariants(before: Position, after: Position, pawns_each: int) -> None:
    """The board stays a board: every pawn somewhere, one pawn a square, Home for good."""
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


def check_own_pawns_only_swept(mover: int, move: Move) -> None:
    """A player's own move sends the player's own pawns back to Start only by a slide
    (docs/rules.md: "Slides" and, moving a partner's pawn, "Partners"): each of them stood on a slide that
    one of the move's pawns rode."""
    swept: set[int] = set()
    for action in move.actions:
        if action.kind not in (STEP, SWITCH, BUMP_FROM_START) or not FIRST_TRACK <= action.landing < START:
            continue
        landings = [SQUARE[action.colour][action.landing]]
        if action.kind == SWITCH:  # the switched opponent lands where the pawn stood
            landings.append(SQUARE[action.colour][action.origin])
        for square in landings:
            slide = SLIDE_AT_TRIANGLE.get(square)
            if slide is not None:
                swept.update(slide.swept)
    for colour, at in move.bumps:
        if colour == mover:
            assert SQUARE[colour][at] in swept, f"the player's own move bumped its own pawn: {move}"
