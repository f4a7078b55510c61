"""How many slides a game the switched opponent's slide adds (docs/numbers.md, "Every preset").

    python scripts/switched_slides.py --games 300

Plays ``--games`` seeded classic games between ``greedy`` players, with 2 and with 4 players,
and counts each game's slides twice: every pawn moved that slid (the count before pardon
counted the switched opponent's slide), and :func:`pardon.core.moves.slides_ridden` (the count
now).  Prints the mean difference a game with its 95% interval; progress on stderr.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys

from pardon.bots import make_bot
from pardon.core.game import Game
from pardon.core.moves import BUMP_FROM_START, Move, slides_ridden
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for

RULES = parse_rules("classic")


def moved_pawns_that_slid(move: Move) -> int:
    return sum(1 for action in move.actions if action.kind <= BUMP_FROM_START and action.end != action.landing)


def difference(players: int, seed: int) -> int:
    """The slides of one game counted now, less those counted before."""
    game = Game.new(RULES, seats_for(players), seed)
    rng, bot, more = random.Random(seed), make_bot("greedy"), 0
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        move = moves[0] if len(moves) == 1 else bot.choose(game.observe(game.decider), moves, rng)
        game.play_trusted(move)
        more += slides_ridden(RULES, move) - moved_pawns_that_slid(move)
    return more


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=300, help="games for each player count (default 300)")
    games = parser.parse_args().games
    for players in (2, 4):
        differences = []
        for seed in range(games):
            differences.append(difference(players, seed))
            print(f"\r{players} players: {seed + 1}/{games} games", end="", file=sys.stderr)
        print(file=sys.stderr)
        mean = statistics.mean(differences)
        half = 1.96 * statistics.stdev(differences) / math.sqrt(games) if games > 1 else float("nan")
        print(f"{players} players: +{mean:.2f} slides a game ({mean - half:.2f}–{mean + half:.2f}), {games} games")


if __name__ == "__main__":
    main()
