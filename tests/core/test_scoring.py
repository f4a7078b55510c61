"""Points (1939 and 1992) and matches (docs/rules.md: "Points")."""

from __future__ import annotations

import pytest

from pardon.core.errors import IllegalError, InvalidError
from pardon.core.notation import parse_position
from pardon.core.rules import parse_rules
from pardon.core.scoring import GameResult, Match, points_of, score_1939, score_1939_all_dropped, score_1992


@pytest.mark.parametrize(
    ("yellow", "blue", "winner_points"),
    [
        (0, 0, 4 + 24),  # no opponent pawn Home
        (1, 0, 4 + 1 + 16),  # none has more than 1
        (1, 1, 4 + 2 + 16),
        (2, 1, 4 + 3 + 8),  # none has more than 2
        (3, 0, 4 + 3),  # no bonus
    ],
)
def test_1939_points_and_each_bonus(yellow: int, blue: int, winner_points: int) -> None:
    scores = score_1939({0: 4, 1: blue, 2: yellow}, winner=0)
    assert scores == {0: winner_points, 1: blue, 2: yellow}


def test_1939_doubled_and_dropped() -> None:
    assert score_1939({0: 4, 2: 1}, winner=0, multiplier=2) == {0: 42, 2: 2}
    assert score_1939({0: 4, 1: 2, 2: 1}, winner=0, multiplier=4, dropped=frozenset({1})) == {0: 60, 1: 0, 2: 4}
    assert score_1939_all_dropped((0, 1, 2), doubler=1) == {0: 0, 1: 5, 2: 0}


@pytest.mark.parametrize(
    ("scoring", "team_points", "other_points"),
    [
        ("1939", 4 + 1 + 16, 1),  # the partner's pawns are not an opponent's: the bonus holds
        ("1992", 20 + 5 * (3 + 4) + 50, 5),
    ],
)
def test_partners_score_as_a_team(scoring: str, team_points: int, other_points: int) -> None:
    rules = parse_rules(f"partners(scoring={scoring})")
    position = parse_position(
        "R:home,home,home,home B:home,start,start,start Y:home,home,home,home G:start,start,start,start turn:R winner:R"
    )
    assert points_of(rules, position) == {0: team_points, 1: other_points, 2: team_points, 3: 0}


@pytest.mark.parametrize(
    ("others", "bonus"),
    [((0, 0), 100), ((1, 0), 50), ((1, 1), 50), ((2, 1), 25), ((3, 0), 0)],
)
def test_1992_points_and_each_bonus(others: tuple[int, int], bonus: int) -> None:
    home = {0: 4, 1: others[0], 2: others[1]}
    scores = score_1992(home, winner=0, pawns_each=4)
    not_home = (4 - others[0]) + (4 - others[1])
    assert scores == {0: 20 + 5 * not_home + bonus, 1: 5 * others[0], 2: 5 * others[1]}


def test_a_match_counts_wins_with_a_doubled_game_as_two() -> None:
    match = Match(players=(0, 2), games=3)
    match.record(GameResult(winner=0))
    assert match.next_leader == 0
    match.record(GameResult(winner=2, multiplier=2))
    assert match.wins() == {0: 1, 2: 2}
    assert match.leaders() == [2]
    assert not match.is_over
    match.record(GameResult(winner=0))
    assert match.is_over
    with pytest.raises(IllegalError, match="over"):
        match.record(GameResult(winner=0))
    assert match.undo().winner == 0
    assert not match.is_over


def test_a_points_match_ends_at_its_target() -> None:
    match = Match(players=(0, 1, 2), target=30)
    match.record(GameResult(winner=1, points={0: 1, 1: 28, 2: 0}))
    assert not match.is_over
    match.record(GameResult(winner=0, points={0: 12, 1: 2, 2: 1}))
    assert match.is_over
    assert match.points() == {0: 13, 1: 30, 2: 1}
    assert match.leaders() == [1]


def test_a_match_needs_a_length() -> None:
    with pytest.raises(InvalidError, match="agree"):
        Match(players=(0, 2))
