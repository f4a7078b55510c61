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
    assert "against random over 50 games" in done.stdout
    result = json.loads(figures.read_text())
    assert result["games"] >= 80 and 0.0 <= result["final"] <= 1.0
    assert result["curve"][0][0] == 0 and len(result["curve"]) >= 3
