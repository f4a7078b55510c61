"""The ``expert`` level's learned value: its inputs as the training script computes them on
batch games and as the bot computes them on core positions (tests/bots/test_levels.py
plays the level through every preset)."""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from module_loader import load_module
from pardon.bots.expert import (
    FEATURES,
    PACK,
    TWO,
    Layout,
    active_features,
    hit_chances,
    pack_shares,
    threat_inputs,
    trained_network,
)
from pardon.core import Game, parse_rules
from pardon.core.board import FIRST_TRACK, SQUARE
from pardon.core.cards import CARDS, DECKS

np = pytest.importorskip("numpy")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "train_expert.py"


@pytest.mark.parametrize("players", [2, 4])
def test_the_inputs_are_the_same_on_batch_games_and_core_positions(players: int) -> None:
    from pardon.batch.convert import core_position
    from pardon.batch.engine import Config, draw, new_games, play, random_actions

    train = load_module(SCRIPT)
    config = Config.parse("classic", players)
    layout = Layout(players)
    games = new_games(config, np.arange(60, dtype=np.uint32))
    checked = 0
    for _ in range(120):
        after, _ = play(config, games, random_actions(config, games))
        batch = train.features(config, after)
        for index in np.flatnonzero(after.winner < 0):
            core = np.zeros(layout.features, dtype=np.float32)
            for feature in active_features(core_position(config, after, int(index))):
                core[feature] += 1
            left = Counter({card: int(after.pack[kind, index]) for kind, card in enumerate(CARDS)})
            core[layout.pack :] = pack_shares(left, config.rules)
            assert np.allclose(core, batch[index]), index
            checked += 1
        games = draw(config, after)
    assert checked > 3000
    assert (FEATURES, PACK) == (TWO.features, TWO.pack) == (204, 193)


@pytest.mark.parametrize("players", [2, 4])
def test_the_threat_inputs_are_the_same_on_batch_games_and_core_positions(players: int) -> None:
    from pardon.batch.convert import core_position
    from pardon.batch.engine import Config, draw, new_games, play, random_actions

    train = load_module(SCRIPT)
    config = Config.parse("classic", players)
    layout = Layout(players)
    games = new_games(config, np.arange(40, dtype=np.uint32) + 7)
    checked = dangerous = 0
    for _ in range(150):
        after, _ = play(config, games, random_actions(config, games))
        batch = train.features(config, after, threats=True)
        assert batch.shape[1] == layout.with_threats == layout.features + 2 * (players - 1)
        for index in np.flatnonzero(after.winner < 0):
            left = Counter({card: int(after.pack[kind, index]) for kind, card in enumerate(CARDS)})
            position = core_position(config, after, int(index))
            core = threat_inputs(position, hit_chances(+left, config.rules))
            assert np.allclose(core, batch[index, layout.features :], atol=1e-6), index
            checked += 1
            dangerous += any(core)
        games = draw(config, after)
    assert checked > 3000 and dangerous > checked // 5


def test_a_threat_is_the_chance_of_the_count_onto_the_pawn_times_its_progress() -> None:
    rules = parse_rules("classic")
    hits = hit_chances(Counter(DECKS[45]), rules)
    # Red on distance 40; yellow's pawn 5 squares behind it on the track, far from its Safety Zone.
    red_square = SQUARE[0][40]
    yellow = next(d for d in range(FIRST_TRACK, 60) if (red_square - SQUARE[2][d]) % 60 == 5)
    position = Game.new(rules, seats=(0, 2), seed=1).position._replace(
        pawns=((40, 66, 66, 66), (), (yellow, 66, 66, 66), ()), turn=0
    )
    danger, attack = threat_inputs(position, hits)
    assert danger == pytest.approx(4 / 45 * (66 - 40) / 60)  # the four 5s
    assert attack == pytest.approx(0.0)  # 55 squares ahead: no card counts that far, no 4 back to it
    reversed_gap = position._replace(turn=2)  # seen from Yellow: its danger is Red's attack
    assert threat_inputs(reversed_gap, hits) == pytest.approx([0.0, 4 / 45 * (66 - 40) / 60])


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


def test_the_targets_one_draw_ahead_are_the_core_engines_expectation() -> None:
    """Each card with its chance, the drawer's best move by the network, as the core plays it."""
    from pardon.batch.convert import core_state, games_at
    from pardon.batch.engine import Config, draw, new_games, play, random_actions
    from pardon.core.turn import chance_outcomes, legal_moves
    from pardon.core.turn import draw as draw_card

    train = load_module(SCRIPT)
    network = trained_network()
    trainer = train.Trainer.of(network)
    config = Config.parse("classic", 2)
    rules = config.rules
    games = new_games(config, np.arange(8, dtype=np.uint32) + 500)
    checked = 0
    for step in range(90):
        after, _ = play(config, games, random_actions(config, games))
        if step % 15 == 14:
            going = np.flatnonzero(after.winner < 0)
            batch = train.expected_targets(config, trainer, games_at(after, going))
            for index, target in zip(going, batch, strict=True):
                state = core_state(config, after, int(index))._replace(card=None)  # before the draw
                drawer = state.position.turn
                expected = 0.0
                for card, chance in chance_outcomes(rules, state):
                    drawn = draw_card(rules, state, card)
                    pack = network.pack_part(pack_shares(Counter(drawn.pack.draw_pile), rules))
                    best = 0.0
                    for move in legal_moves(rules, drawn):
                        result = move.result
                        if result.winner is not None:
                            value = 1.0 if result.winner == drawer else 0.0
                        else:
                            value = network.chance(active_features(result), pack)
                            value = value if result.turn == drawer else 1.0 - value
                        best = max(best, value)
                    expected += chance * best
                assert target == pytest.approx([expected, 1 - expected], abs=1e-6), index
                checked += 1
        games = draw(config, after)
    assert checked > 30


def test_td_lambda_targets_run_from_the_next_position_back_to_the_winner() -> None:
    train = load_module(SCRIPT)
    trainer = train.Trainer.of(trained_network())
    rng = np.random.default_rng(3)
    kept = [rng.random((2, FEATURES)).astype(np.float32) for _ in range(3)]
    # game 0: seats 0, 1, 0 to draw, then seat 0 wins; game 1: seats 1, 1, 0, then seat 1 wins
    who = [np.array([[0, 0], [1, 1]]), np.array([[0, 1], [1, 1]]), np.array([[0, 0], [1, 0]])]
    winner = np.array([0, 1])
    value = [trainer.chances(phi)[:, 0] for phi in kept]
    mine = train.td_targets(2, trainer, kept, who, winner, 1.0)[:, 0]  # the player to draw's target
    assert np.allclose(mine, [1, 1, 0, 1, 1, 0])
    zero = train.td_targets(2, trainer, kept, who, winner, 0.0)
    assert np.allclose(zero.sum(axis=1), 1)
    zero = zero[:, 0]
    assert np.allclose(zero[:2], [1 - value[1][0], value[1][1]])  # the next position, turned
    assert np.allclose(zero[2:4], [1 - value[2][0], 1 - value[2][1]])
    assert np.allclose(zero[4:], [1, 0])  # the end
    half = train.td_targets(2, trainer, kept, who, winner, 0.5)[:, 0]
    assert half[2] == pytest.approx(0.5 * (1 - value[2][0]) + 0.5 * (1 - half[4]))


def test_four_player_chances_turn_with_the_player_to_draw() -> None:
    train = load_module(SCRIPT)
    chances = np.array([[0.1, 0.2, 0.3, 0.4]])
    by_seat = train.to_seats(4, chances, np.array([2]))
    assert np.allclose(by_seat, [[0.3, 0.4, 0.1, 0.2]])  # seat 2 draws: 0.1 is its own
    assert np.allclose(train.from_seats(4, by_seat, np.array([2])), chances)
    trainer = train.Trainer(4, 8, np.random.default_rng(1))
    network = trainer.network()
    phi = np.zeros((1, Layout(4).features), dtype=np.float32)
    active = [3, 70, 140, 210, 300]
    phi[0, active] = 1.0
    pack = network.pack_part((0.0,) * len(CARDS))
    assert network.players == 4
    assert np.allclose(trainer.chances(phi)[0], network.chances(active, pack))


def test_hints_by_expert_are_the_networks_searched_chances() -> None:
    """Where the network judges, the search backs up win chances, and a hint shows them as they are."""
    import random

    from pardon.bots.expert import ExpertBot
    from pardon.bots.hint import rank_moves
    from pardon.core.moves import legal_moves
    from pardon.core.notation import parse_position
    from pardon.core.observation import observe

    rules = parse_rules("classic")
    position = parse_position("red:20,30,start,start yellow:25,start,start,start turn:red")
    ranked = rank_moves(rules, position, 7, bot="expert")
    bot = ExpertBot()
    moves = legal_moves(rules, position, 7)
    seen = observe(rules, position, position.turn, 7, (7,))
    assert bot.backup_for(seen) == "chance"
    searched = bot.move_values(seen, moves, random.Random(0))
    by_move = {move: vector[position.turn] for move, vector in zip(moves, searched, strict=True)}
    assert [chance for _, chance in ranked] == pytest.approx([by_move[move] for move, _ in ranked])
    assert all(0 < chance < 1 for _, chance in ranked)
    assert ExpertBot().backup_for(observe(parse_rules("adult"), position, position.turn, 7, (7,))) == "value"


def test_a_four_player_network_plays_a_whole_classic_game(tmp_path: Path) -> None:
    """A network made for 4 players (here untrained) judges the 4-player game it was made for."""
    import random

    from pardon.bots import make_bot
    from pardon.core.state import seats_for

    train = load_module(SCRIPT)
    path = tmp_path / "four.json"
    train.Trainer(4, 8, np.random.default_rng(2)).network().save(path)
    bot = make_bot(f"expert(depth=1,network={path})")
    game = Game.new(parse_rules("classic"), seats_for(4), 7)
    rng = random.Random(7)
    judged = 0
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        seen = game.observe(game.decider)
        judged += bot.network_for(seen) is not None
        moves = game.legal_moves()
        move = bot.choose(seen, moves, rng)
        assert move in moves
        game.play(move)
    assert game.winner is not None and judged > 100


def test_a_positions_chances_are_the_networks_where_it_judges_else_expectimaxs() -> None:
    """What the coach draws by turn: the network's chances of the position in a 2-player
    classic game (the player to draw on, with the cards left), expectimax's elsewhere."""
    from pardon.bots.expectimax import ExpectimaxBot
    from pardon.bots.expert import ExpertBot, play_order
    from pardon.core.notation import parse_position
    from pardon.core.observation import observe

    position = parse_position("red:20,30,start,start yellow:25,3,start,start turn:red")
    seen = observe(parse_rules("classic"), position, position.turn, 7, (7, 4, 4))
    network = trained_network()
    part = network.pack_part(pack_shares(seen.remaining(), seen.rules))
    expected = network.chances(active_features(position), part)
    found = ExpertBot().position_chances(seen)
    assert [found[colour] for colour in play_order(position)] == pytest.approx(expected)
    assert found != pytest.approx(ExpectimaxBot().position_chances(seen))
    hands = observe(parse_rules("adult"), position, position.turn, 7, (7,))
    assert ExpertBot().position_chances(hands) == ExpectimaxBot().position_chances(hands)


def test_training_writes_the_same_network_for_the_same_command_with_its_curve(tmp_path: Path) -> None:
    """The shipped network is reproducible: the same command writes the same file (a small run
    here), and each generation's figures and the learning curve are written where asked."""
    pytest.importorskip("matplotlib")
    train = load_module(SCRIPT)
    written = []
    for run in (1, 2):
        out, history = tmp_path / f"net{run}.json", tmp_path / f"history{run}.json"
        args = ["--generations", "2", "--games", "60", "--seed", "5", "--write", "--out", str(out)]
        assert train.main([*args, "--history", str(history), "--plot", str(tmp_path / "curve.png")]) == 0
        written.append(out.read_bytes())
        rows = json.loads(history.read_text())
        assert len(rows) == 2 and all(0 < row["log_loss"] < 1 and row["positions"] > 0 for row in rows)
    assert written[0] == written[1]
    assert (tmp_path / "curve.png").stat().st_size > 1000
    assert [step[step.index("--seed") + 1] for step in train.SHIPPED] == ["32", "71", "91"]  # docs/bots.md's steps
    with pytest.raises(SystemExit):
        train.main(["--recipe", "shipped", "--players", "4"])


def test_averaging_writes_the_mean_of_the_settling_generations_weights(tmp_path: Path) -> None:
    """``--average`` writes the mean of the weights after each settling generation (the last
    third), not the last weights; ``--replay`` fits to the games of the last generations too,
    and each generation's loss is still that of its new games before fitting."""
    train = load_module(SCRIPT)
    common = ["--generations", "3", "--games", "16", "--seed", "6", "--write"]
    last, mean = tmp_path / "last.json", tmp_path / "mean.json"
    assert train.main([*common, "--out", str(last)]) == 0
    assert train.main([*common, "--out", str(mean), "--average"]) == 0
    assert json.loads(last.read_text()) == json.loads(mean.read_text())  # one settling generation: its own weights
    long = ["--generations", "6", "--games", "16", "--seed", "6", "--write"]
    assert train.main([*long, "--out", str(last)]) == 0
    assert train.main([*long, "--out", str(mean), "--average"]) == 0
    assert json.loads(last.read_text()) != json.loads(mean.read_text())
    replayed = tmp_path / "replayed.json"
    history = tmp_path / "history.json"
    assert train.main([*long, "--out", str(replayed), "--replay", "3", "--history", str(history)]) == 0
    assert json.loads(replayed.read_text()) != json.loads(last.read_text())
    first = json.loads(history.read_text())[0]
    assert 0 < first["log_loss"] < 1 and first["positions"] > 0


def test_the_shipped_network_is_the_one_the_recipe_writes() -> None:
    """The shipped 2-player network is the file ``train_expert.py --recipe shipped`` writes
    byte for byte (docs/bots.md); the network shipped before it is kept by name."""
    from pardon.bots.expert import KEPT_NETWORKS, NETWORK_FILE

    assert hashlib.sha256(NETWORK_FILE.read_bytes()).hexdigest().startswith("36e3261f3269c4ee")
    assert hashlib.sha256((KEPT_NETWORKS / "2026-12.json").read_bytes()).hexdigest().startswith("bc37a9c6cdd2fd26")
