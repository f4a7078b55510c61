"""scripts/clairvoyant.py: the search that knows the pack, the yardstick of docs/bots.md."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from module_loader import load_module
from pardon.core.game import Game
from pardon.core.rules import parse_rules

SCRIPT = load_module(Path(__file__).resolve().parents[2] / "scripts" / "clairvoyant.py")


def test_the_clairvoyants_model_is_the_real_game_with_its_pack_in_order() -> None:
    game = Game.new(parse_rules("classic"), (0, 2), 5)
    seer = SCRIPT.Clairvoyant()
    seer.real = game
    game.draw()
    model = seer._model(game.observe(game.decider), random.Random(1))
    assert model.state == game.state  # the card in hand and the pack in its real order
    game.play_trusted(game.legal_moves()[0])
    model.play_trusted(model.legal_moves()[0])
    if game.awaiting_draw:
        assert model.draw() == game.draw()  # its next card is the real next card


def test_a_short_run_prints_its_share_with_an_interval(capsys: pytest.CaptureFixture[str]) -> None:
    SCRIPT.main(["--deals", "1", "--seed", "3", "--opponent", "greedy", "--depth", "1"])
    out = capsys.readouterr()
    assert "clairvoyant expectimax(depth=1,width=1,roots=10) against greedy:" in out.out
    assert "over 2 games, seed 3" in out.out and "1/1 deals" in out.err
