"""The learned evaluation: pawn values fitted to who wins, and the searches that use them."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import ModuleType

import pytest

from module_loader import load_module
from pardon.bots import make_bot
from pardon.bots.evaluation import SEARCHED, TUNED, Evaluator, Weights, card_chances, hand_pawn_values
from pardon.bots.learned import LEARNED
from pardon.core import parse_rules
from pardon.core.board import FIRST_TRACK, HOME, START
from pardon.core.cards import DECKS
from pardon.core.game import Game
from pardon.core.state import seats_for

np = pytest.importorskip("numpy")

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "learn.py"
CLASSIC = parse_rules("classic")
EVERY_CARD = card_chances(dict(DECKS[CLASSIC.deck]), CLASSIC)


def learn() -> ModuleType:
    return load_module(SCRIPT)


def test_the_hand_values_are_the_hand_written_terms() -> None:
    weights = Weights(out=8.0, safety=3.0, home=8.0, reach=2.0)
    values = hand_pawn_values(weights)
    assert values[START] == 0.0
    assert values[HOME] == START + 8 + 8  # all the way, out of Start, and Home
    assert values[3] == START - 3 + 8 + 3  # in the Safety Zone
    assert values[FIRST_TRACK] == START - FIRST_TRACK + 8 + 2  # within one card of the Safety Zone
    assert values[40] == START - 40 + 8  # just progress and out


def test_a_raw_score_adds_the_pawns_values_less_the_danger() -> None:
    game = Game.new(CLASSIC, seats_for(2), 3)
    for _ in range(30):
        if game.is_over:
            break
        if game.awaiting_draw:
            game.draw()
        game.play(game.legal_moves()[0])
    position = game.position
    for weights in (TUNED, SEARCHED):
        evaluator = Evaluator(CLASSIC, weights)
        terms = evaluator.terms(2)
        raws = evaluator.raws(position, EVERY_CARD)
        for colour in position.seats:
            pawns = sum(terms.pawns[pawn] for pawn in position.pawns[colour])
            danger = evaluator.danger(colour, position, EVERY_CARD, terms.later)
            assert raws[colour] == pytest.approx(pawns - terms.threat * danger)


def test_the_searches_play_with_the_learned_values_and_tactician_with_the_hand_written() -> None:
    assert make_bot("tactician").weights.learned == 0  # type: ignore[attr-defined]
    for level in ("expectimax", "mcts"):
        assert make_bot(level).weights.learned == 1  # type: ignore[attr-defined]
    assert make_bot("expectimax(learned=0)").weights.learned == 0  # type: ignore[attr-defined]
    learned = Evaluator(CLASSIC, SEARCHED).terms(2)
    stored = LEARNED[(False, 2)]
    assert (learned.pawns, learned.threat, learned.later) == (stored.pawns, stored.threat, stored.later)
    assert Evaluator(CLASSIC, TUNED).terms(2).pawns == hand_pawn_values(TUNED)


def test_every_game_has_learned_values_and_partners_use_the_four_player_ones() -> None:
    assert {(hands, players) for hands in (False, True) for players in (2, 3, 4)} <= set(LEARNED)
    for values in LEARNED.values():
        assert len(values.pawns) == START + 1 and values.pawns[START] == 0.0
        assert values.pawns[HOME] > values.pawns[40] > 0  # Home is worth most, Start least
        assert values.threat > 0 and values.scale > 0
    partners = parse_rules("partners")
    assert Evaluator(partners, SEARCHED).terms(4).pawns == LEARNED[(False, 4)].pawns


def test_a_scale_given_overrides_the_learned_temperature() -> None:
    assert Evaluator(CLASSIC, SEARCHED.with_changes(scale=40.0)).temperature(2) == (40.0, 0.0)
    stored = LEARNED[(False, 2)]
    assert Evaluator(CLASSIC, SEARCHED).temperature(2) == (stored.scale, stored.phase)


def drawn_winners(weights: list[float], count: int, seed: int) -> tuple[object, object]:
    """Positions of three seats with random features whose winners are drawn from a
    softmax of the features times ``weights``."""
    rng = random.Random(seed)
    features = np.array([[[rng.uniform(-1, 1) for _ in weights] for _ in range(3)] for _ in range(count)])
    winners = []
    for seats in features:
        scores = [float(np.dot(seat, weights)) for seat in seats]
        winners.append(rng.choices(range(3), [math.exp(score) for score in scores])[0])
    return features, np.array(winners)


def test_the_fit_recovers_the_weights_that_made_the_winners() -> None:
    truth = [1.5, -0.8, 0.3, 0.0]
    features, winners = drawn_winners(truth, 6000, seed=7)
    fitted = learn().fit(features, winners, smooth=0.0)
    assert fitted == pytest.approx(truth, abs=0.12)


def test_a_short_run_records_every_seat_after_every_move() -> None:
    samples = learn().play("classic", 3, 0.1, seed=11)
    assert samples, "a game has positions"
    seats, raws, winner, left = samples[0]
    assert len(seats) == len(raws) == 3 and 0 <= winner < 3 and 0 < left <= 1
    movers = [sum(1 for seat in position if seat[3]) for position, _, _, _ in samples]
    assert set(movers) == {1}, "exactly one seat has just moved"
    features, winners = learn().arrays(samples)
    assert features.shape == (len(samples), 3, learn().FEATURES) and len(winners) == len(samples)


def test_the_prior_charges_differences_between_neighbouring_squares_only() -> None:
    width = learn().FEATURES
    prior = learn().penalty(width, smooth=10.0, ridge=0.0)
    level = np.zeros(width)
    level[FIRST_TRACK:START] = 1.0  # the whole track alike, the Safety Zone at 0: no charge
    assert float(level @ prior @ level) == pytest.approx(0.0)
    bump = level.copy()
    bump[30] = 2.0  # one square above both neighbours
    assert float(bump @ prior @ bump) == pytest.approx(20.0)
