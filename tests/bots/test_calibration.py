"""The evaluation's win chances are calibrated: the scale is fitted to who actually wins."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from module_loader import load_module
from pardon.bots.evaluation import CALIBRATED_SCALES, Evaluator, Weights
from pardon.core import parse_rules

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "calibrate.py"


def calibrate() -> ModuleType:
    return load_module(SCRIPT)


def test_the_fit_recovers_the_scale_that_made_the_winners() -> None:
    rng = random.Random(4)
    samples = []
    for _ in range(20_000):
        scores = [rng.uniform(-150, 150) for _ in range(3)]
        weights = [math.exp(score / 60.0) for score in scores]
        winner = rng.choices(range(3), weights)[0]
        samples.append((scores, winner, 0))
    fitted = calibrate().fit_scale(samples)
    assert fitted == pytest.approx(60.0, rel=0.1)


def test_each_game_gets_its_calibrated_scale_unless_one_is_given() -> None:
    classic, adult = parse_rules("classic"), parse_rules("adult")
    assert Evaluator(classic).scale(2) == CALIBRATED_SCALES[(False, 2)]
    assert Evaluator(classic).scale(4) == CALIBRATED_SCALES[(False, 4)]
    assert Evaluator(adult).scale(2) == CALIBRATED_SCALES[(True, 2)]
    assert Evaluator(classic, Weights(scale=40.0)).scale(2) == 40.0


def test_the_stored_scale_predicts_fresh_games_better_than_half_or_twice_it() -> None:
    script = calibrate()
    samples = [sample for seed in range(60) for sample in script.play("classic", 2, "tactician", 0.1, 90_000 + seed)]
    stored = CALIBRATED_SCALES[(False, 2)]
    assert script.log_loss(samples, stored) < script.log_loss(samples, stored / 2)
    assert script.log_loss(samples, stored) < script.log_loss(samples, stored * 2)
