"""Point Scoring Sorry (1939) in a player's words, shared by the rule sheet and the score sheet.

The bonus figures come from :data:`pardon.core.scoring.BONUS_1939` and the worked example is
scored by :func:`pardon.core.scoring.score_1939`, so the printed sheets agree with the engine.
"""

from __future__ import annotations

from pardon.core.scoring import BONUS_1939, DROP_OUT_POINTS, score_1939


def bonuses() -> tuple[int, int, int]:
    """The three bonuses, largest first: 24, 16, 8."""
    (_, first), (_, second), (_, third) = BONUS_1939
    return first, second, third


def how_to_score() -> str:
    """The scoring rule as paragraph markup."""
    first, second, third = bonuses()
    return (
        "Everyone scores 1 per own pawn Home. The winner scores 4, plus 1 per opponent pawn Home, plus "
        f"the biggest bonus that fits: <b>{first}</b> if no opponent has a pawn Home, <b>{second}</b> "
        f"if none has more than 1, <b>{third}</b> if none has more than 2."
    )


def how_doubling_scores() -> str:
    return (
        "A doubled game's scores count × 2 (× 4 if doubled again). A player who drops out of a double "
        f"scores 0; if every other player drops out, the doubler scores {DROP_OUT_POINTS} and the game ends."
    )


def how_to_double() -> str:
    """Doubling (docs/rules.md: "Points") for the rule sheet: who may double, dropping out, and the stake."""
    return (
        "<b>Doubling:</b> before you draw, you may double. Each other player accepts, or drops out and scores 0; "
        f"if all drop out, the game ends and you score {DROP_OUT_POINTS}. Each accepted double is × 2."
    )


def worked_example() -> str:
    """A finished game scored by the engine: Red wins, Blue has 1 pawn Home, Yellow none."""
    red, blue, yellow = 0, 1, 2
    home = {red: 4, blue: 1, yellow: 0}
    scores = score_1939(home, winner=red)
    bonus = scores[red] - sum(home.values())
    return (
        f"Red wins with Blue 1 Home and Yellow 0: Red 4 + 1 + {bonus} = {scores[red]}, "
        f"Blue {scores[blue]}, Yellow {scores[yellow]}."
    )
