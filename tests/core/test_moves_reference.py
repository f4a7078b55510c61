"""``legal_moves`` against a simple reference generator, and the playout kernel
against the loop it replaces.

* At every position of seeded random games (and of random crowded positions), for
  every card, the set of results of ``legal_moves`` (pass or not) must be the one the
  reference generator of ``reference_moves.py`` finds straight from docs/rules.md, with no
  result twice, and each move must bump the pawns the reference bumps on the way to
  that result.  With Fire and Ice the results carry the tokens, and the Fire pawn's
  move before the draw (``fire_moves``) is checked the same way.
* The moves themselves, in order, are pinned by a digest taken from the engine before
  it was optimised, so a faster generator cannot quietly reorder or change them.
* ``random_playout`` must play exactly the games of "draw a card, ``rng.choice`` among
  ``legal_moves``": same positions, same winner, same number of draws.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from module_loader import load_module
from pardon.core.board import FIRST_TRACK, HOME, SQUARE, START
from pardon.core.cards import CARDS, Pack
from pardon.core.moves import Move, legal_moves
from pardon.core.notation import format_position
from pardon.core.playout import play_random_game, random_playout
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import Position, check_position, initial_position, seats_for
from pardon.core.tokens import fire_moves

reference = load_module(Path(__file__).resolve().parent / "reference_moves.py")  # tests are not a package

CLASSIC = Rules()
OWN_RIDERS = Rules(slide_riders="own")
STILL_OPPONENT = Rules(switched_opponent_slides=False)
VARIED = Rules(slide_riders="own", switched_opponent_slides=False, draw_again_on_2=False)
THREE_OUT = Rules(pawns=3, pawns_out=1, draw_again_on_2=False)
MODERN = parse_rules("modern-no-tokens")
MODERN_CIRCLE = parse_rules("modern-no-tokens(leave_start=forward-circle,slide_riders=others)")
PARTNERS = parse_rules("partners")
PARTNERS_ANY = parse_rules("partners(partner_split=any)")
PARTNERS_MODERN = parse_rules("partners(slide_riders=own,leave_start=forward-count,sorry_forward_4=true)")
TOKENS = parse_rules("modern")
#: Fire and Ice with 4 pawns, classic slides and a switched opponent who stays put: more
#: pawns on the slides and on the corners.
TOKENS_VARIED = parse_rules(
    "modern(pawns=4,leave_start=forward-circle,slide_riders=others,switched_opponent_slides=false)"
)

#: (rules, players, games): 116 games, about 31 000 positions, each tried with all 11 cards.
GAMES = [
    (CLASSIC, 2, 25),
    (CLASSIC, 3, 10),
    (CLASSIC, 4, 7),
    (OWN_RIDERS, 2, 12),
    (OWN_RIDERS, 4, 5),
    (STILL_OPPONENT, 4, 5),
    (VARIED, 3, 7),
    (THREE_OUT, 4, 12),
    (MODERN, 2, 12),
    (MODERN, 4, 5),
    (MODERN_CIRCLE, 3, 6),
    (PARTNERS, 4, 5),
    (PARTNERS_ANY, 4, 2),  # the reference tries every order of up to 7 parts: slow
    (PARTNERS_MODERN, 4, 3),
]


def _name(rules: Rules) -> str:
    return rules.name.replace(" ", "")


def game_positions(
    rules: Rules, players: int, seed: int, generate: Callable[[Rules, Position, int], list[Move]] = legal_moves
) -> Iterator[Position]:
    """Every position of the random game ``seed``, the last (won) one included."""
    position = initial_position(rules, seats_for(players))
    pack = Pack.new(rules.deck, seed)
    rng = random.Random(seed)
    while position.winner is None:
        yield position
        card, pack = pack.draw(seed)
        position = rng.choice(generate(rules, position, card)).result
    yield position


def check_against_reference(rules: Rules, position: Position) -> None:
    for card in CARDS:
        moves = legal_moves(rules, position, card)
        results = {(move.result, move.is_pass) for move in moves}
        assert len(results) == len(moves), f"two moves with one result: card {card} in {_shown(position)}"
        outcomes = reference.reference_results(rules, position, card)
        expected = {(result, is_pass) for result, is_pass, _ in outcomes}
        assert results == expected, (
            f"card {card} in {_shown(position)} under {rules.name}:\n"
            f"  only the engine: {_listed(results - expected)}\n"
            f"  only the reference: {_listed(expected - results)}"
        )
        for move in moves:
            bumps = tuple(sorted(move.bumps))
            assert (move.result, move.is_pass, bumps) in outcomes, (
                f"card {card} in {_shown(position)} under {rules.name}: the move to {_shown(move.result)} "
                f"bumps {bumps}, the reference {[b for r, p, b in outcomes if (r, p) == (move.result, move.is_pass)]}"
            )
    if rules.tokens:
        fire = {(move.result, tuple(sorted(move.bumps))) for move in fire_moves(position)}
        assert fire == reference.reference_fire_moves(rules, position), (
            f"the Fire move in {_shown(position)} under {rules.name}: engine {fire}, "
            f"reference {reference.reference_fire_moves(rules, position)}"
        )


def _shown(position: Position) -> str:
    return format_position(position)


def _listed(results: set[tuple[Position, bool]]) -> list[str]:
    return sorted(f"{_shown(result)}{' (pass)' if is_pass else ''}" for result, is_pass in results)


@pytest.mark.slow
@pytest.mark.parametrize(("rules", "players", "games"), GAMES, ids=[f"{_name(r)}-{p}p" for r, p, _ in GAMES])
def test_legal_moves_match_the_reference_in_random_games(rules: Rules, players: int, games: int) -> None:
    for seed in range(games):
        for position in game_positions(rules, players, seed):
            check_against_reference(rules, position)


#: (rules, players, games) with Fire and Ice: about 5 700 positions.
TOKEN_GAMES = [(TOKENS, 2, 12), (TOKENS, 3, 7), (TOKENS, 4, 6), (TOKENS_VARIED, 2, 3), (TOKENS_VARIED, 4, 3)]


def token_game_positions(rules: Rules, players: int, seed: int) -> Iterator[Position]:
    """Every position of the random game ``seed`` with Fire and Ice: before a draw the
    Fire pawn's move, when there is one, is made or not at random, and the position
    after it is yielded too."""
    position = initial_position(rules, seats_for(players))
    pack = Pack.new(rules.deck, seed)
    rng = random.Random(seed)
    while position.winner is None:
        yield position
        fire = fire_moves(position)
        if fire and rng.random() < 0.5:
            position = fire[0].result
            yield position
        card, pack = pack.draw(seed)
        position = rng.choice(legal_moves(rules, position, card)).result
    yield position


@pytest.mark.parametrize(
    ("rules", "players", "games"), TOKEN_GAMES, ids=[f"{_name(r)}-{p}p" for r, p, _ in TOKEN_GAMES]
)
def test_fire_and_ice_moves_match_the_reference_in_random_games(rules: Rules, players: int, games: int) -> None:
    tokens_seen = set()
    for seed in range(games):
        for position in token_game_positions(rules, players, seed):
            check_against_reference(rules, position)
            tokens_seen.add((position.fire is not None, position.ice is not None))
    assert tokens_seen == {(False, False), (True, False), (False, True), (True, True)}


def crowded_position(rules: Rules, players: int, rng: random.Random) -> Position:
    """A random legal position with pawns packed near the slides and Safety Zones."""
    crowded = [7, 8, 9, 10, 11, 15, 16, 17, 18, 19, 20, 21, 22, 23, 36, 37, 38, 39, 52, 53, 54, 55, 56, 57, 58, 59]
    crowded += list(range(60, 66))
    while True:
        seats = seats_for(players)
        taken: set[tuple[int, int]] = set()
        pawns: list[tuple[int, ...]] = [(), (), (), ()]
        for colour in seats:
            row = []
            for _ in range(rules.pawns):
                while True:
                    distance = rng.choice([0, 66, 66, *range(1, 66), *[rng.choice(crowded)] * 40])
                    place = (colour, distance) if distance < 6 else (-1, SQUARE[colour][distance])
                    if distance in (0, 66) or place not in taken:
                        break
                taken.add(place)
                row.append(distance)
            pawns[colour] = tuple(sorted(row))
        if all(any(distance != 0 for distance in pawns[colour]) for colour in seats):
            return check_position(rules, Position(seats, tuple(pawns), rng.choice(seats)))


@pytest.mark.parametrize(
    "rules",
    [CLASSIC, OWN_RIDERS, STILL_OPPONENT, VARIED, THREE_OUT, MODERN, MODERN_CIRCLE, PARTNERS, PARTNERS_MODERN],
    ids=_name,
)
def test_legal_moves_match_the_reference_in_crowded_positions(rules: Rules) -> None:
    # (Not partner_split=any: the reference tries every order of up to 7 parts, too many
    # in a crowded position; the random games above check it.)
    rng = random.Random(f"crowded:{rules.name}")
    for index in range(300):
        check_against_reference(rules, crowded_position(rules, 4 if rules.partners else 2 + index % 3, rng))


def with_tokens_placed(rules: Rules, position: Position, rng: random.Random) -> Position:
    """``position`` with the Ice on a random pawn on the track and the Fire on a random pawn
    out of Start and not Home (often the player's, for its move before the draw, and now
    and then the iced one), or either token in the centre."""
    pawns = [(colour, pawn) for colour in position.seats for pawn in dict.fromkeys(position.pawns[colour])]
    on_track = [(colour, pawn) for colour, pawn in pawns if FIRST_TRACK <= pawn < START]
    out = [(colour, pawn) for colour, pawn in pawns if HOME < pawn < START]
    own = [(colour, pawn) for colour, pawn in out if colour == position.turn]
    ice = rng.choice(on_track) if on_track and rng.random() < 0.8 else None
    fire = rng.choice(rng.choice([own or out, out, [ice] if ice else out])) if out and rng.random() < 0.8 else None
    return check_position(rules, position.with_extras(fire=fire, ice=ice))


@pytest.mark.parametrize("rules", [TOKENS, TOKENS_VARIED], ids=_name)
def test_fire_and_ice_moves_match_the_reference_in_crowded_positions(rules: Rules) -> None:
    rng = random.Random(f"crowded:{rules.name}")
    for index in range(1200):
        check_against_reference(rules, with_tokens_placed(rules, crowded_position(rules, 2 + index % 3, rng), rng))


def moves_digest(generate: Callable[[Rules, Position, int], list[Move]]) -> str:
    """A digest of every move, in order, of every card at every position of some games."""
    digest = hashlib.sha256()
    for rules, players, games in [(CLASSIC, 2, 8), (CLASSIC, 4, 4), (OWN_RIDERS, 3, 4), (VARIED, 4, 4)]:
        for seed in range(games):
            for position in game_positions(rules, players, seed, generate):
                for card in CARDS:
                    digest.update(repr([_plain(move) for move in generate(rules, position, card)]).encode())
    return digest.hexdigest()


def _plain(move: Move) -> tuple[object, ...]:
    """A move as plain tuples, so the digest does not hang on how classes print."""
    result = move.result
    actions = [tuple(action) for action in move.actions]
    return move.card, actions, result.seats, result.pawns, result.turn, result.winner, move.bumps


#: ``moves_digest(legal_moves)`` of the engine before it was optimised.
PINNED_DIGEST = "1bb6015d301c057e333d936ca3e3186fb59c53db36a72d29d7ead79395b044f1"


def test_moves_and_their_order_are_unchanged() -> None:
    assert moves_digest(legal_moves) == PINNED_DIGEST


PLAYOUTS = [(CLASSIC, 2), (CLASSIC, 3), (CLASSIC, 4), (OWN_RIDERS, 4), (VARIED, 3), (THREE_OUT, 2)]


@pytest.mark.parametrize(("rules", "players"), PLAYOUTS, ids=[f"{_name(r)}-{p}p" for r, p in PLAYOUTS])
def test_playout_plays_the_games_of_the_public_loop(rules: Rules, players: int) -> None:
    for seed in range(40):
        expected = list(game_positions(rules, players, seed))
        record: list[Position] = []
        start = initial_position(rules, seats_for(players))
        winner, draws = random_playout(
            rules, start, Pack.new(rules.deck, seed), seed, random.Random(seed), record=record
        )
        assert [start, *record] == expected
        assert (winner, draws) == (expected[-1].winner, len(expected) - 1)
        assert play_random_game(rules, seats_for(players), seed) == (winner, draws)


class _OwnChoice(random.Random):
    """A generator whose ``choice`` is its own: the playout must call it."""

    def choice(self, seq: Any) -> Any:
        return seq[-1 - self.randrange(len(seq))]


def test_playout_uses_a_generator_s_own_choice() -> None:
    rules = CLASSIC
    for seed in range(5):
        position = initial_position(rules, seats_for(4))
        pack = Pack.new(rules.deck, seed)
        rng = _OwnChoice(seed)
        draws = 0
        while position.winner is None:
            card, pack = pack.draw(seed)
            position = rng.choice(legal_moves(rules, position, card)).result
            draws += 1
        start = initial_position(rules, seats_for(4))
        assert random_playout(rules, start, Pack.new(rules.deck, seed), seed, _OwnChoice(seed)) == (
            position.winner,
            draws,
        )


def test_playout_goes_on_from_any_position_and_pack() -> None:
    rules = CLASSIC
    positions = list(game_positions(rules, 3, 11))
    middle = positions[len(positions) // 2]
    pack = Pack.new(rules.deck, 11)
    for _ in range(50):  # a pack part drawn, with discards, as in a game
        _, pack = pack.draw(11)
    record: list[Position] = []
    winner, draws = random_playout(rules, middle, pack, 11, random.Random(5), record=record)
    position, rng = middle, random.Random(5)
    for expected in record:
        card, pack = pack.draw(11)
        position = rng.choice(legal_moves(rules, position, card)).result
        assert position == expected
    assert position.winner == winner and len(record) == draws


def test_playout_stops_after_max_draws() -> None:
    rules = CLASSIC
    start = initial_position(rules, seats_for(2))
    record: list[Position] = []
    assert random_playout(rules, start, Pack.new(45, 3), 3, random.Random(3), max_draws=30, record=record) == (None, 30)
    assert record == list(game_positions(rules, 2, 3))[1:31]
    assert random_playout(rules, start, Pack.new(45, 3), 3, random.Random(3), max_draws=0) == (None, 0)


@pytest.mark.parametrize("name", ["modern", "adult", "classic-1939(scoring=1939,doubling=true)"])
def test_playout_of_rules_with_more_decisions_plays_the_game_loop(name: str) -> None:
    from pardon.core import Game, parse_rules

    rules = parse_rules(name)
    seats = seats_for(2)
    for seed in range(10):
        game = Game.new(rules, seats, seed, first=seats[0])
        rng = random.Random(seed)
        cards = 0
        while not game.is_over:
            if game.awaiting_draw:
                game.draw()
            move = rng.choice(game.legal_moves())
            game.play_trusted(move)
            cards += 1 if move.card else 0
        assert play_random_game(rules, seats, seed) == (game.winner, cards)
