"""Regenerate the move-count fixtures and golden game records in tests/fixtures/.

Run only when the rules themselves change on purpose, and review the diff:

    python scripts/make_fixtures.py

The positions come from seeded random games (so they are reachable), sampled every few
turns; for each position and every card the fixture keeps the legal moves' texts.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from pardon.core import (
    Game,
    format_move,
    format_position,
    format_record,
    legal_moves,
    parse_position,
    parse_rules,
    record_of,
)
from pardon.core.cards import CARDS, card_name
from pardon.core.rules import PRESETS
from pardon.core.state import seats_for

FIXTURES = Path(__file__).resolve().parent.parent / "tests" / "fixtures"
POSITIONS_PER_PLAYER_COUNT = 100
GOLDEN_SEEDS = (1, 2, 3)
MOVE_TABLES = ("classic", "modern-no-tokens", "modern")
#: Rules that are no preset but change the game's flow, with the name of their records.
GOLDEN_EXTRAS = {"points-1939-doubling": "classic-1939(scoring=1939,doubling=true)"}


def sample_positions(rules_text: str, players: int, count: int) -> list[str]:
    rules = parse_rules(rules_text)
    positions: list[str] = []
    seed = 0
    while len(positions) < count:
        game = Game.new(rules, seats_for(players), 1000 * players + seed)
        rng = random.Random(seed)
        while not game.is_over and len(positions) < count:
            if game.turns % 17 == 5:
                positions.append(format_position(game.position))
            if game.awaiting_draw:
                game.draw()
            moves = game.legal_moves()
            game.play_trusted(moves[rng.randrange(len(moves))])
        seed += 1
    return positions


def move_table(rules_text: str) -> list[dict[str, object]]:
    rules = parse_rules(rules_text)
    table: list[dict[str, object]] = []
    for players in parse_rules(rules_text).players:
        for text in sample_positions(rules_text, players, POSITIONS_PER_PLAYER_COUNT):
            position = parse_position(text)
            moves = {
                card_name(card): [format_move(position, move) for move in legal_moves(rules, position, card)]
                for card in CARDS
            }
            table.append({"position": text, "moves": moves})
    return table


def golden_record(rules_text: str, players: int, seed: int) -> str:
    game = Game.new(parse_rules(rules_text), seats_for(players), seed)
    rng = random.Random(f"golden:{seed}")
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        game.play_trusted(moves[rng.randrange(len(moves))])
    return format_record(record_of(game))


def main() -> int:
    FIXTURES.mkdir(parents=True, exist_ok=True)
    golden = FIXTURES / "golden"
    golden.mkdir(exist_ok=True)
    for rules_text in PRESETS:
        if rules_text in MOVE_TABLES:
            write_move_table(rules_text)
    for label, rules_text in ({name: name for name in PRESETS} | GOLDEN_EXTRAS).items():
        for players in parse_rules(rules_text).players:
            for seed in GOLDEN_SEEDS:
                name = f"{label}-{players}p-seed{seed}.txt"
                (golden / name).write_text(golden_record(rules_text, players, seed))
                print(f"golden/{name}", file=sys.stderr)
    return 0


def write_move_table(rules_text: str) -> None:
    """One position a line, with every card's legal moves in order."""
    table = move_table(rules_text)
    path = FIXTURES / f"moves-{rules_text}.json"
    rows = ",\n".join(json.dumps(entry, separators=(",", ":")) for entry in table)
    path.write_text(f'{{"rules": "{rules_text}", "positions": [\n{rows}\n]}}\n')
    total = sum(len(moves) for entry in table for moves in entry["moves"].values())  # type: ignore[attr-defined]
    print(f"{path.name}: {len(table)} positions, {total} moves", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
