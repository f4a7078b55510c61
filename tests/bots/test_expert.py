"""The ``expert`` level's learned value: its inputs as the training script computes them on
batch games and as the bot computes them on core positions (tests/bots/test_levels.py
plays the level through every preset)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from module_loader import load_module
from pardon.bots.expert import FEATURES, PACK, active_features, pack_shares, trained_network
from pardon.core import Game, parse_rules
from pardon.core.cards import CARDS

np = pytest.importorskip("numpy")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_expert.py"


def test_the_inputs_are_the_same_on_batch_games_and_core_positions() -> None:
    from pardon.batch.convert import core_position
    from pardon.batch.engine import Config, draw, new_games, play, random_actions

    train = load_module(SCRIPT)
    config = Config.parse("classic", 2)
    games = new_games(config, np.arange(60, dtype=np.uint32))
    checked = 0
    for _ in range(120):
        after, _ = play(config, games, random_actions(config, games))
        batch = train.features(config, after)
        for index in np.flatnonzero(after.winner < 0):
            core = np.zeros(FEATURES, dtype=np.float32)
            for feature in active_features(core_position(config, after, int(index))):
                core[feature] += 1
            left = Counter({card: int(after.pack[kind, index]) for kind, card in enumerate(CARDS)})
            core[PACK:] = pack_shares(left, config.rules)
            assert np.allclose(core, batch[index]), index
            checked += 1
        games = draw(config, after)
    assert checked > 3000


def test_the_shipped_network_fits_its_inputs_and_prefers_the_player_ahead() -> None:
    network = trained_network()
    assert len(network.w1) == FEATURES and len(network.b1) == len(network.w2)
    game = Game.new(parse_rules("classic"), seats=(0, 2), seed=1)
    start = game.position
    pack = network.pack_part(pack_shares(Counter(game.pack.draw_pile), game.rules))
    ahead = start._replace(pawns=(((1, 2, 3, 66)), (), (66, 66, 66, 66), ()))
    behind = start._replace(pawns=(((66, 66, 66, 66)), (), (1, 2, 3, 66), ()))
    assert network.chance(active_features(ahead), pack) > 0.7
    assert network.chance(active_features(behind), pack) < 0.3
