"""examples/train_agent.py runs from a fresh checkout (a tiny run: the real one is in docs/batch.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_the_training_example_trains_and_evaluates(tmp_path: Path) -> None:
    figures = tmp_path / "training.json"
    command = [sys.executable, str(ROOT / "examples" / "train_agent.py"), "--games", "80", "--envs", "16"]
    command += ["--checkpoint", "40", "--checkpoint-games", "16", "--evaluate", "50", "--json", str(figures)]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "against random over 50 games" in done.stdout and "(95% Wilson interval " in done.stdout
    result = json.loads(figures.read_text())
    assert result["games"] >= 80 and 0.0 <= result["final"] <= 1.0
    low, high = result["interval"]
    assert 0.0 <= low <= result["final"] <= high <= 1.0 and result["evaluated"] == 50
    assert result["curve"][0][0] == 0 and len(result["curve"]) >= 3


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("--checkpoint", "0", "--checkpoint: must be 1 or more, not 0"),  # looped for ever
        ("--envs", "0", "--envs: must be 1 or more, not 0"),  # a traceback
        ("--evaluate", "0", "--evaluate: must be 1 or more, not 0"),  # a traceback
        ("--games", "-5", "--games: must be 1 or more, not -5"),
        ("--checkpoint-games", "x", "--checkpoint-games: must be a whole number, not x"),
        ("--halving", "0", "--halving: must be above 0, not 0"),  # divided by zero
        ("--rate", "-0.1", "--rate: must be above 0, not -0.1"),
        ("--rate", "nan", "--rate: must be a finite number, not nan"),
        ("--explore", "1.5", "--explore: must be from 0 to 1, not 1.5"),
    ],
)
def test_the_training_example_refuses_counts_under_one(option: str, value: str, words: str) -> None:
    command = [sys.executable, str(ROOT / "examples" / "train_agent.py"), option, value]
    done = subprocess.run(command, capture_output=True, text=True, check=False, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert words in done.stderr and "Traceback" not in done.stderr


def test_the_training_example_says_in_full_what_it_does() -> None:
    command = [sys.executable, str(ROOT / "examples" / "train_agent.py"), "--help"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60)
    said = " ".join(done.stdout.split())
    assert "on the vectorised environment, then measure it against the random player." in said
