"""The compiled loops (pardon.batch.compiled, Numba) find the very lanes the array code finds:
the split 7s, the 4s' and 10s' steps and the 11s that end as a lower lane does, position by
position over whole games of several rules; and the random player chooses the same moves
with them as without them."""

from __future__ import annotations

import numpy as np
import pytest

from pardon.batch import compiled, random_play
from pardon.batch.backend import any0
from pardon.batch.config import Config, Games, tables
from pardon.batch.distinct import _eleven_duplicates, _seven_repeats, _step_duplicates, _steps_compared
from pardon.batch.engine import new_games, random_moves, step
from pardon.batch.legal import _back1_lanes, _move_lanes, _padded, _split_masks
from pardon.batch.squares import _on_track, _sides

pytestmark = pytest.mark.skipif(not compiled.AVAILABLE, reason="Numba is not installed")

RULES = [
    ("classic", 2),
    ("classic", 4),
    ("modern-no-tokens", 4),  # own-colour slides: duplicates by slides are common
    ("classic(switched_opponent_slides=false)", 3),
    ("classic(leave_start=forward-count,slide_riders=own)", 4),  # a 7 and an 11 leave Start
    ("solo", 1),
]


def positions(rules: str, players: int, games: int = 256, steps: int = 150) -> tuple[Config, list[Games]]:
    """The positions of ``games`` random games of ``rules``, step by step."""
    config = Config.parse(rules, players)
    batch = new_games(config, np.arange(games, dtype=np.uint32) + 11)
    seen = []
    for _ in range(steps):
        seen.append(batch)
        batch, _ = step(config, batch, random_moves(config, batch))
    return config, seen


def holding(config: Config, games: Games, cards: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.flatnonzero(np.isin(games.card, cards))
    pawns = np.take(games.pawns, rows, axis=-1)
    return rows, pawns, _sides(config, games.turn.take(rows))


def bits(lanes: np.ndarray) -> np.ndarray:
    return (lanes.view(np.uint8) << np.arange(lanes.shape[0], dtype=np.uint8)[:, None]).sum(axis=0, dtype=np.uint8)


def compare_sevens(config: Config, games: Games) -> int:
    """The split 7s' lanes found both ways (where there are any): how many."""
    table = tables(config)
    rows, pawns, sides = holding(config, games, (7,))
    masks = _split_masks(table, pawns[0])
    some = np.flatnonzero(masks.any(axis=0))
    if not some.size:
        return 0
    card = games.card.take(rows[some])
    pawns, sides, masks = pawns[..., some], sides[:, some], masks[:, some]
    move = _move_lanes(table, pawns[0], card)
    expected = _seven_repeats(table, pawns, sides, card, move, masks)
    np.testing.assert_array_equal(compiled.seven_repeats(table, pawns, sides, move, masks), expected)
    return int(expected.sum())


def compare_elevens(config: Config, games: Games) -> int:
    table = tables(config)
    rows, pawns, sides = holding(config, games, (11,))
    if not rows.size:
        return 0
    card, own = games.card.take(rows), pawns[0]
    move = _move_lanes(table, own, card)
    targets = _padded(_on_track(pawns[1:]), 0, config.players).reshape((-1, rows.size))
    switch = (_on_track(own)[:, None] & targets[None]).reshape((-1, rows.size))
    forfeit = ~any0(move)[None]
    expected = _eleven_duplicates(table, pawns, sides, card, forfeit, move, switch)
    np.testing.assert_array_equal(compiled.eleven_duplicates(table, pawns, sides, forfeit, move, switch), expected)
    return int(expected.sum())


def compare_steps(config: Config, games: Games) -> int:
    table = tables(config)
    rows, pawns, sides = holding(config, games, (4, 10))
    if not rows.size:
        return 0
    card, own = games.card.take(rows), pawns[0]
    move, back1 = _move_lanes(table, own, card), _back1_lanes(own, card)
    expected = _step_duplicates(table, pawns, sides, card, move, back1)
    expected &= _steps_compared(table, own, card, move, back1)[None]
    loops = compiled.step_repeats(table, pawns, sides, card, bits(np.concatenate([move, back1])))
    np.testing.assert_array_equal(loops, bits(expected))
    return int(expected.sum())


@pytest.mark.parametrize(("rules", "players"), RULES)
def test_the_loops_find_the_lanes_the_arrays_find(rules: str, players: int) -> None:
    config, seen = positions(rules, players)
    found = np.zeros(3, dtype=int)
    for games in seen:
        found += [compare_sevens(config, games), compare_elevens(config, games), compare_steps(config, games)]
    assert found[0] > 0  # not only positions without a repeated outcome
    if rules == "modern-no-tokens":
        assert found[1] > 0  # 11s that end alike by slides
    if rules == "classic" and players == 2:
        assert found[2] > 0  # two steps onto slides that end alike


def test_the_random_player_chooses_the_same_moves_without_the_loops(monkeypatch: pytest.MonkeyPatch) -> None:
    config, seen = positions("classic", 4, games=256, steps=150)
    with_loops = [random_moves(config, games) for games in seen]
    monkeypatch.setattr(compiled, "AVAILABLE", False)
    assert random_play.compiled.AVAILABLE is False
    for games, chosen in zip(seen, with_loops, strict=True):
        np.testing.assert_array_equal(random_moves(config, games), chosen)
