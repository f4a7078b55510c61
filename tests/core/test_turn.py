"""The game as one immutable value: GameState and the pure functions of pardon.core.turn."""

from __future__ import annotations

import random

import pytest

from pardon.core.errors import IllegalError, InvalidError
from pardon.core.game import Game
from pardon.core.moves import DROP
from pardon.core.rules import parse_rules
from pardon.core.state import seats_for
from pardon.core.turn import (
    ANSWERING,
    GameState,
    apply,
    awaiting_draw,
    chance_outcomes,
    decider,
    draw,
    draw_next,
    legal_moves,
    start,
)

PRESETS = ["classic", "classic-1939(scoring=1939,doubling=true)", "partners", "adult", "modern", "solo"]


def _seats(rules_text: str) -> tuple[int, ...]:
    rules = parse_rules(rules_text)
    return (0,) if rules.solo else seats_for(4 if rules.partners else 3)


def _pure_game(rules_text: str, seed: int) -> list[GameState]:
    """A random game played by the pure functions alone: every state it passed through."""
    rules = parse_rules(rules_text)
    state, _ = start(rules, _seats(rules_text), seed)
    rng = random.Random(seed)
    states = [state]
    while state.position.winner is None:
        if awaiting_draw(rules, state):
            _, state = draw_next(rules, state)
        moves = legal_moves(rules, state)
        state = apply(rules, state, moves[rng.randrange(len(moves))])
        states.append(state)
    return states


@pytest.mark.parametrize("rules_text", PRESETS)
def test_the_pure_functions_and_a_game_play_the_same_game(rules_text: str) -> None:
    rules = parse_rules(rules_text)
    states = _pure_game(rules_text, seed=11)
    game = Game.new(rules, _seats(rules_text), 11)
    rng = random.Random(11)
    for expected in states[1:]:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
        assert game.state == expected
    assert game.is_over and hash(game.state) == hash(states[-1])


@pytest.mark.parametrize("rules_text", PRESETS)
def test_taking_every_decision_back_returns_to_each_state_before_it(rules_text: str) -> None:
    rules = parse_rules(rules_text)
    game = Game.new(rules, _seats(rules_text), 5)
    rng = random.Random(5)
    seen = []
    while not game.is_over:
        seen.append(game.state)  # before the draw, where there is one
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    for state in reversed(seen):
        game.pop()
        assert game.state == state
    assert game.turns == 0


def test_a_state_is_a_value_that_no_step_changes() -> None:
    rules = parse_rules("classic")
    state, _ = start(rules, (0, 2), 3)
    copy = GameState(*state)
    card, drawn = draw_next(rules, state)
    apply(rules, drawn, legal_moves(rules, drawn)[0])
    assert state == copy and drawn.card == card and state.card is None
    assert {state: "a key"}[copy] == "a key"  # hashable: a search can key a table on it


def test_chance_outcomes_are_the_packs_composition_and_draw_turns_up_the_one_asked_for() -> None:
    rules = parse_rules("classic-1939")
    state, _ = start(rules, (0, 2), 9)
    outcomes = chance_outcomes(rules, state)
    assert sum(chance for _, chance in outcomes) == pytest.approx(1)
    assert dict(outcomes)[1] == pytest.approx(4 / 44)  # four of each card in the 1939 deck
    for card, _ in outcomes:
        drawn = draw(rules, state, card)
        assert drawn.card == card
        assert sorted((*drawn.pack.draw_pile, card)) == sorted(state.pack.draw_pile)


def test_an_empty_pack_draws_from_the_reshuffled_discards() -> None:
    rules = parse_rules("classic")
    state, _ = start(rules, (0, 2), 4)
    state = state._replace(pack=state.pack._replace(draw_pile=(), discards=(5, 5, 12)))
    assert dict(chance_outcomes(rules, state)) == pytest.approx({5: 2 / 3, 12: 1 / 3})
    drawn = draw(rules, state, 12)
    assert drawn.card == 12 and drawn.pack.shuffles == state.pack.shuffles + 1


@pytest.mark.parametrize("card", ["x", "7", 6, 0, 14, None, True, 13.0])
def test_drawing_something_that_is_not_a_card_is_invalid(card: object) -> None:
    # A wrong argument, not a rule: a 6 is no Sorry! card, and True or 13.0 would go
    # into the pack as a card that is not one.
    rules = parse_rules("classic")
    state, _ = start(rules, (0, 2), 4)
    with pytest.raises(InvalidError, match="not a card"):
        draw(rules, state, card)  # type: ignore[arg-type]


def test_a_card_none_of_which_is_left_cannot_be_drawn() -> None:
    rules = parse_rules("classic")
    state, _ = start(rules, (0, 2), 4)
    state = state._replace(pack=state.pack._replace(draw_pile=(5, 12), discards=(1,)))
    with pytest.raises(IllegalError, match="none is left in the pack"):
        draw(rules, state, 1)


def test_chance_is_refused_where_a_decision_is_due() -> None:
    rules = parse_rules("classic")
    state, _ = start(rules, (0, 2), 4)
    _, drawn = draw_next(rules, state)
    with pytest.raises(IllegalError, match="must be played first"):
        draw_next(rules, drawn)
    with pytest.raises(IllegalError, match="hands"):
        chance_outcomes(parse_rules("adult"), start(parse_rules("adult"), (0, 2), 4)[0])


def test_a_double_everyone_drops_ends_the_game_for_the_doubler() -> None:
    rules = parse_rules("classic-1939(scoring=1939,doubling=true)")
    state, _ = start(rules, (0, 1, 2), 2)
    doubler = state.position.turn
    double = next(move for move in legal_moves(rules, state) if move.actions)
    state = apply(rules, state, double)
    while state.stage == ANSWERING:
        assert decider(state) != doubler
        drop = next(move for move in legal_moves(rules, state) if move.actions[0].kind == DROP)
        state = apply(rules, state, drop)
    assert state.position.winner == doubler and legal_moves(rules, state) == []
