"""Turn flow, determinism, undo, and replaying records."""

from __future__ import annotations

import random

import pytest

from pardon.core import (
    Game,
    IllegalError,
    InvalidError,
    Move,
    format_record,
    parse_record,
    parse_rules,
    record_of,
    replay,
)
from pardon.core.game import replay_steps
from pardon.core.state import seats_for

CLASSIC = parse_rules("classic")


def play_random(game: Game, rng: random.Random, turns: int = 10**6) -> Game:
    while not game.is_over and game.turns < turns:
        game.draw()
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    return game


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_rules_seed_and_decisions_give_the_same_game(players: int) -> None:
    first = play_random(Game.new(CLASSIC, seats_for(players), 99), random.Random(5))
    second = play_random(Game.new(CLASSIC, seats_for(players), 99), random.Random(5))
    assert first.moves == second.moves
    assert first.position == second.position
    assert format_record(record_of(first)) == format_record(record_of(second))


def test_pop_restores_the_position_and_the_pack_exactly() -> None:
    game = Game.new(CLASSIC, seats_for(4), 3)
    rng = random.Random(3)
    snapshots = []
    while not game.is_over and game.turns < 300:
        snapshots.append((game.position, game.pack))
        game.draw()
        moves = game.legal_moves()
        game.play(moves[rng.randrange(len(moves))])
    played = game.moves
    while game.turns:
        game.pop()
        assert (game.position, game.pack) == snapshots[game.turns]
    # Playing the same decisions again from the start repeats the game, reshuffles included.
    for move in played:
        game.draw()
        game.play(move)
    assert game.moves == played


def test_undraw_puts_the_card_back() -> None:
    game = Game.new(CLASSIC, seats_for(2), 8)
    pack = game.pack
    card = game.draw()
    game.undraw()
    assert game.pack == pack
    assert game.draw() == card


def test_turn_flow_errors_change_nothing() -> None:
    game = Game.new(CLASSIC, seats_for(2), 1)
    with pytest.raises(IllegalError, match="draw a card"):
        game.play(_any_move())
    game.draw()
    with pytest.raises(IllegalError, match="must be played"):
        game.draw()
    position, pack = game.position, game.pack
    with pytest.raises(IllegalError, match="not legal"):
        game.play(_any_move())
    assert (game.position, game.pack) == (position, pack)
    with pytest.raises(IllegalError, match="no move to take back"):
        Game.new(CLASSIC, seats_for(2), 1).pop()


def _any_move() -> Move:
    """A move from some other game, almost surely not legal in the game under test."""
    other = Game.new(CLASSIC, seats_for(3), 12345)
    rng = random.Random(0)
    play_random(other, rng, 40)
    other.draw()
    return other.legal_moves()[-1]


def test_a_named_first_player_skips_the_leader_draw() -> None:
    game = Game.new(parse_rules("classic(leader=named)"), seats_for(3), 4)
    assert game.leader_draw is None
    assert game.turn == 0
    named = Game.new(parse_rules("classic"), seats_for(3), 4, first=2)
    assert named.leader_draw is None
    assert named.turn == 2
    with pytest.raises(IllegalError, match="not playing"):
        Game.new(parse_rules("classic"), seats_for(2), 4, first=1)


@pytest.mark.parametrize("seed", range(25))
def test_records_replay_exactly(seed: int) -> None:
    game = play_random(Game.new(CLASSIC, seats_for(2 + seed % 3), seed), random.Random(seed))
    record = parse_record(format_record(record_of(game)))
    again = replay(record)
    assert again.position == game.position
    assert again.moves == game.moves
    assert again.winner == record.result


def test_a_tampered_record_is_refused_with_the_decision_named() -> None:
    game = play_random(Game.new(CLASSIC, seats_for(2), 21), random.Random(21))
    lines = format_record(record_of(game)).splitlines()
    first_move = next(index for index, line in enumerate(lines) if line and not line.startswith("["))
    # Change a forfeit into a move that cannot be made.
    colour, rest = lines[first_move].split(" ", 1)
    card = rest.split()[0]
    lines[first_move] = f"{colour} {card} 17-30"
    with pytest.raises(ValueError, match="decision 1"):
        replay(parse_record("\n".join(lines)))
    wrong_card = lines.copy()
    wrong_card[first_move] = f"{colour} {'3' if card != '3' else '5'} pass"
    with pytest.raises(IllegalError, match="decision 1"):
        replay(parse_record("\n".join(wrong_card)))
    wrong_result = "\n".join(lines[:first_move]).replace('[Result "', '[Result "x') + "\n"
    with pytest.raises(InvalidError):
        replay(parse_record(wrong_result))


def test_last_decision_names_the_position_it_was_made_in() -> None:
    game = Game.new(parse_rules("classic"), (0, 2), seed=5)
    assert game.last_decision is None
    game.draw()
    before = game.position
    move = game.legal_moves()[0]
    game.play(move)
    assert game.last_decision == (before, before.turn, move)
    game.pop()
    assert game.last_decision is None


def test_replay_steps_shows_each_decision_before_it_is_made() -> None:
    game = Game.new(parse_rules("classic"), (0, 2), 11, first=0)
    for _ in range(12):
        if game.awaiting_draw:
            game.draw()
        game.play_trusted(game.legal_moves()[0])
    record = record_of(game)
    seen = []
    for number, step, move in replay_steps(record):
        seen.append((number, step.turns, move))
        step.play_trusted(move)
    assert [number for number, _, _ in seen] == list(range(1, len(record.moves) + 1))
    assert [move for _, _, move in seen] == game.moves
    with pytest.raises(RuntimeError, match="play each move"):
        for _ in replay_steps(record):
            pass


def test_before_draw_is_the_state_the_card_came_from() -> None:
    game = Game.new(parse_rules("classic"), (0, 2), 12)
    assert game.before_draw == game.state  # no card in hand yet
    ready = game.state
    game.draw()
    assert game.before_draw == ready and game.state != ready
    replayed = Game(game.rules, game.before_draw)  # a game that knows the pack's order
    assert replayed.draw() == game.card
    game.play_trusted(game.legal_moves()[0])
    assert game.before_draw == game.state
    game.pop()
    assert game.state == ready
