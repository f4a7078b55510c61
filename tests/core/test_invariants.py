"""Invariants checked after every move of thousands of seeded random games
(``PARDON_INVARIANT_GAMES`` sets the games per player count of the classic game, 300 by
default, for a deeper run; every other preset plays a quarter of it)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from module_loader import load_module
from pardon.core import Game, parse_rules
from pardon.core.board import HOME
from pardon.core.state import check_position, seats_for

invariants = load_module(Path(__file__).resolve().parent / "invariants.py")  # tests are not a package

GAMES_PER_PLAYER_COUNT = int(os.environ.get("PARDON_INVARIANT_GAMES", "300"))
GAMES_PER_VARIANT = GAMES_PER_PLAYER_COUNT // 4
#: (preset, players, games): the classic game in full, every other preset at least a quarter.
RUNS = [
    ("classic", 2, GAMES_PER_PLAYER_COUNT),
    ("classic", 3, GAMES_PER_PLAYER_COUNT),
    ("classic", 4, GAMES_PER_PLAYER_COUNT),
    ("classic-1939", 3, GAMES_PER_VARIANT),
    ("modern-no-tokens", 2, GAMES_PER_VARIANT),
    ("modern-no-tokens", 4, GAMES_PER_VARIANT),
    ("solo", 1, GAMES_PER_VARIANT),
    ("partners", 4, GAMES_PER_VARIANT),
    ("partners(partner_split=any)", 4, GAMES_PER_VARIANT // 2),
    ("classic(pawns=3,pawns_out=1,deck=55)", 3, GAMES_PER_VARIANT),
    ("modern", 2, GAMES_PER_VARIANT),
    ("modern", 4, GAMES_PER_VARIANT),
    ("adult", 2, GAMES_PER_VARIANT),
    ("adult", 4, GAMES_PER_VARIANT),
    ("classic-1939(scoring=1939,doubling=true)", 3, GAMES_PER_VARIANT),
    ("adult(tokens=true,deck=55)", 3, GAMES_PER_VARIANT // 2),
]
TURN_LIMIT = 5000  # far beyond any real game: reaching it means a game never ends


#: Every run in full (CI), and a few games of each for the quick loop (``make check``: the
#: quick runs play the first games of the full ones, so a run with the full ones skips them).
QUICK_GAMES = 24
CASES = [pytest.param(*run, marks=pytest.mark.slow, id=f"{run[0]}-{run[1]}p") for run in RUNS] + [
    pytest.param(name, players, QUICK_GAMES, id=f"{name}-{players}p-quick") for name, players, _ in RUNS
]


@pytest.mark.parametrize(("preset", "players", "games"), CASES)
def test_invariants_hold_after_every_move(
    preset: str, players: int, games: int, request: pytest.FixtureRequest
) -> None:
    if request.node.callspec.id.endswith("-quick") and "not slow" not in str(request.config.getoption("-m")):
        pytest.skip("the full case plays these games too")
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
            mover = game.decider
            game.play_trusted(move)
            invariants.check_invariants(before, game.position, rules.pawns)
            invariants.check_variant_invariants(rules, game, before, move)
            invariants.check_own_pawns_only_swept(mover, move)
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
