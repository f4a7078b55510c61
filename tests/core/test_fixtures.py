"""Move-count fixtures and golden records (made by scripts/make_fixtures.py)."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType

import pytest

from module_loader import load_module
from pardon.core import format_move, legal_moves, parse_card, parse_position, parse_record, parse_rules, replay

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "make_fixtures.py"


def make_fixtures() -> ModuleType:
    """The script that made the fixtures, so the test plays the games the same way."""
    return load_module(SCRIPT)


TABLES = sorted(FIXTURES.glob("moves-*.json"))


@pytest.mark.parametrize("path", TABLES, ids=[path.stem for path in TABLES])
def test_every_fixture_position_gives_exactly_the_recorded_moves(path: Path) -> None:
    data = json.loads(path.read_text())
    rules = parse_rules(data["rules"])
    assert len(data["positions"]) >= 300
    for entry in data["positions"]:
        position = parse_position(entry["position"])
        for card_text, expected in entry["moves"].items():
            moves = legal_moves(rules, position, parse_card(card_text))
            assert [format_move(position, move) for move in moves] == expected, (entry["position"], card_text)


GOLDEN = sorted((FIXTURES / "golden").glob("*.txt"))


@pytest.mark.parametrize("path", GOLDEN, ids=[path.stem for path in GOLDEN])
def test_golden_records_replay_and_regenerate_identically(path: Path) -> None:
    text = path.read_text()
    record = parse_record(text)
    game = replay(record)
    assert game.winner == record.result
    # The same seeds played again produce the same record, byte for byte.
    assert make_fixtures().golden_record(record.rules, len(record.seats), record.seed) == text


def test_there_are_golden_records_for_every_preset_and_player_count() -> None:
    from pardon.core.rules import PRESETS

    recorded = {(parse_record(path.read_text()).rules, len(parse_record(path.read_text()).seats)) for path in GOLDEN}
    assert recorded >= {(name, players) for name, rules in PRESETS.items() for players in rules.players}
    assert {rules for rules, _ in recorded} >= set(make_fixtures().GOLDEN_EXTRAS.values())
    assert len(TABLES) >= 3
