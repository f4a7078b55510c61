"""The evaluation's win chances are calibrated: the scale is fitted to who actually wins."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from module_loader import load_module
from pardon.bots.evaluation import CALIBRATED_SCALES, Evaluator, Weights, remaining
from pardon.core import parse_rules
from pardon.core.board import HOME, START
from pardon.core.game import Game

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "calibrate.py"


def calibrate() -> ModuleType:
    return load_module(SCRIPT)


def winners_drawn_at(scale: float, phase: float, count: int, seed: int) -> list[tuple[list[float], int, int, float]]:
    """Positions of three seats whose winners are drawn from a softmax with ``scale`` and ``phase``."""
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        scores = [rng.uniform(-150, 150) for _ in range(3)]
        left = rng.uniform(0.05, 1.0)
        weights = [math.exp(score / (scale * left**phase)) for score in scores]
        winner = rng.choices(range(3), weights)[0]
        samples.append((scores, winner, 0, left))
    return samples


def test_the_fit_recovers_the_scale_that_made_the_winners() -> None:
    fitted = calibrate().fit_scale(winners_drawn_at(60.0, 0.0, 20_000, seed=4))
    assert fitted == pytest.approx(60.0, rel=0.1)


@pytest.mark.slow
def test_the_fit_recovers_how_the_scale_shrinks_towards_the_end() -> None:
    scale, phase = calibrate().fit(winners_drawn_at(120.0, 0.5, 10_000, seed=5))
    assert phase == pytest.approx(0.5, abs=0.1)
    assert scale == pytest.approx(120.0, rel=0.15)


def test_each_game_gets_its_calibrated_scale_unless_one_is_given() -> None:
    classic, adult = parse_rules("classic"), parse_rules("adult")
    assert Evaluator(classic).temperature(2) == CALIBRATED_SCALES[(False, 2)]
    assert Evaluator(classic).temperature(4) == CALIBRATED_SCALES[(False, 4)]
    assert Evaluator(adult).temperature(2) == CALIBRATED_SCALES[(True, 2)]
    assert Evaluator(classic, Weights(scale=40.0, phase=0.5)).temperature(2) == (40.0, 0.5)


def test_the_same_lead_is_worth_more_near_the_end() -> None:
    classic = parse_rules("classic")
    evaluator = Evaluator(classic, Weights(scale=100.0, phase=0.5))
    start = Game.new(classic, (0, 2), 1).position
    assert remaining(start) == 1.0
    assert evaluator.scale_at(start) == 100.0
    # both sides with three pawns Home and the fourth 8 squares out: 1/33 of the way left
    late = start._replace(
        pawns=tuple((HOME, HOME, HOME, 8) if colour in (0, 2) else row for colour, row in enumerate(start.pawns))
    )
    assert remaining(late) == pytest.approx(8 / (4 * START))
    assert evaluator.scale_at(late) == pytest.approx(100.0 * math.sqrt(8 / (4 * START)))
    assert Evaluator(classic, Weights(scale=100.0)).scale_at(late) == 100.0


def test_the_stored_scale_predicts_fresh_games_better_than_half_or_twice_it() -> None:
    script = calibrate()
    samples = [sample for seed in range(60) for sample in script.play("classic", 2, "tactician", 0.1, 90_000 + seed)]
    scale, phase = CALIBRATED_SCALES[(False, 2)]
    stored = script.log_loss(samples, scale, phase)
    assert stored < script.log_loss(samples, scale / 2, phase)
    assert stored < script.log_loss(samples, scale * 2, phase)
