"""The batch engine's own behaviour: shapes, determinism, the pack, random players, errors."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from batch_positions import positions
from pardon.batch.actions import ACTIONS, DECODED, decode, describe_action, sorry_action, split_action, switch_action
from pardon.batch.convert import core_state, move_key, outcomes
from pardon.batch.engine import (
    STREAM_CHOICE,
    Config,
    Games,
    choose_uniform,
    distinct_lanes,
    legal_lanes,
    new_games,
    random_actions,
    random_bits,
    random_moves,
    step,
)
from pardon.batch.players import choose, greedy_actions
from pardon.bots.greedy import value as greedy_value
from pardon.core.board import START
from pardon.core.cards import CARDS, DECKS
from pardon.core.errors import InvalidError
from pardon.core.turn import legal_moves


def play_out(config: Config, games: Games, chooser: object = None) -> tuple[Games, list[np.ndarray]]:
    cards = []
    while (games.winner < 0).any():
        cards.append(games.card.copy())
        actions = random_actions(config, games) if chooser is None else chooser(config, games)  # type: ignore[operator]
        games, _ = step(config, games, actions)
    return games, cards


def test_every_action_decodes_to_its_parts_and_back() -> None:
    seen = set()
    for action in range(ACTIONS):
        kind, slot, second, count, opponent, target = decode(action)
        assert tuple(DECODED[:, action]) == (kind, slot, second, count, opponent, target)
        if kind == 3:
            assert split_action(slot, count, second) == action
        elif kind == 4:
            assert switch_action(slot, opponent, target) == action
        elif kind == 5:
            assert sorry_action(opponent, target) == action
        seen.add(describe_action(action))
    assert len(seen) == ACTIONS
    with pytest.raises(ValueError, match="0 to 140"):
        decode(141)


@pytest.mark.parametrize(("rules", "players"), [("classic", 2), ("classic", 4), ("modern-no-tokens", 3)])
def test_the_fast_random_player_chooses_as_the_mask_does(rules: str, players: int) -> None:
    config = Config.parse(rules, players)
    games = new_games(config, np.arange(2000, dtype=np.uint32))
    for _ in range(300):
        lanes = legal_lanes(config, games)
        kept = distinct_lanes(config, games, lanes)  # one lane for each distinct move
        bits = random_bits(games.seed, games.drawn, STREAM_CHOICE)
        # random_moves: uniformly among the distinct moves, as the core's random player
        expected = np.where(games.winner < 0, choose_uniform(kept, bits), 0)
        moves = random_moves(config, games)
        assert np.array_equal(moves, expected)
        playing = games.winner < 0
        assert kept[moves[playing], np.flatnonzero(playing)].all()
        assert (kept <= lanes).all() and (kept.sum(axis=0)[playing] >= 1).all()
        # random_actions: uniformly among the legal actions, the agent's mask
        actions = random_actions(config, games)
        assert np.array_equal(actions, np.where(playing, choose_uniform(lanes, bits), 0))
        games, _ = step(config, games, actions if _ % 2 else moves)


def test_one_game_without_a_batch_axis_plays_as_in_a_batch() -> None:
    config = Config.parse("classic", 3)
    batch = new_games(config, np.arange(5, dtype=np.uint32))
    single = Games(*(field[..., 2] for field in batch))
    assert single.pawns.shape == (3, 4) and single.card.shape == ()
    while single.winner < 0:
        action = random_actions(config, single)
        assert int(action) == int(random_actions(config, batch)[2])
        assert np.array_equal(legal_lanes(config, single), legal_lanes(config, batch)[:, 2])
        assert np.array_equal(distinct_lanes(config, single), distinct_lanes(config, batch)[:, 2])
        single, _ = step(config, single, action)
        batch, _ = step(config, batch, random_actions(config, batch))
    for one, many in zip(single, batch, strict=True):
        assert np.array_equal(one, many[..., 2])


@pytest.mark.parametrize(
    ("rules", "players"), [("classic", 2), ("classic(slide_riders=own,pawns_out=1)", 4), ("modern-no-tokens", 3)]
)
def test_numpy_s_fast_way_plays_the_games_the_way_jax_does(rules: str, players: int) -> None:
    # one batch axis takes NumPy's own way (each rare card's work only where it is held, lanes as
    # bits); two take the way JAX runs (every game worked out, then selected): same games
    config = Config.parse(rules, players)
    seeds = np.arange(1200, dtype=np.uint32)
    flat, square = new_games(config, seeds), new_games(config, seeds.reshape(30, 40))
    for _ in range(120):
        actions = random_actions(config, flat)
        assert np.array_equal(actions, random_actions(config, square).reshape(-1))
        assert np.array_equal(random_moves(config, flat), random_moves(config, square).reshape(-1))
        assert np.array_equal(legal_lanes(config, flat), legal_lanes(config, square).reshape(ACTIONS, -1))
        assert np.array_equal(distinct_lanes(config, flat), distinct_lanes(config, square).reshape(ACTIONS, -1))
        flat, played = step(config, flat, actions)
        square, played_too = step(config, square, actions.reshape(30, 40))
        for mine, theirs in zip((*flat, *played), (*square, *played_too), strict=True):
            assert np.array_equal(mine, np.asarray(theirs).reshape(mine.shape))


def test_same_seeds_same_games_and_cards_depend_on_the_seed_alone() -> None:
    config = Config.parse("classic", 2)
    seeds = np.arange(200, dtype=np.uint32)
    first, cards = play_out(config, new_games(config, seeds))
    again, cards_again = play_out(config, new_games(config, seeds))
    for one, two in zip(first, again, strict=True):
        assert np.array_equal(one, two)
    assert all(np.array_equal(a, b) for a, b in zip(cards, cards_again, strict=True))
    _, greedy_cards = play_out(config, new_games(config, seeds), greedy_actions)
    # the k-th card a game draws is the same whoever plays it (up to where either game ended)
    by_seed: dict[int, list[int]] = {}
    by_seed_greedy: dict[int, list[int]] = {}
    for drawn, store in ((cards, by_seed), (greedy_cards, by_seed_greedy)):
        for row in drawn:
            for game, card in enumerate(row.tolist()):
                if card:
                    store.setdefault(game, []).append(card)
    differ = 0
    for game in range(200):
        a, b = by_seed[game], by_seed_greedy[game]
        shortest = min(len(a), len(b))
        assert a[:shortest] == b[:shortest]
        differ += a != b
    assert differ > 100  # the players did play different games


@pytest.mark.parametrize("deck", [44, 45, 55])
def test_each_pass_through_the_pack_deals_the_whole_deck(deck: int) -> None:
    config = Config.parse(f"classic(deck={deck})", 4)
    games = new_games(config, np.arange(50, dtype=np.uint32))
    games, cards = play_out(config, games)
    dealt = np.array(cards)  # (steps, games)
    expected = Counter(DECKS[deck])
    for game in range(50):
        sequence = [card for card in dealt[:, game].tolist() if card]
        for start in range(0, len(sequence) - deck + 1, deck):
            assert Counter(sequence[start : start + deck]) == expected
    assert set(np.unique(dealt)) - {0} <= set(CARDS)


def test_the_leader_is_drawn_for_and_every_seat_leads_and_wins_as_often() -> None:
    config = Config.parse("classic", 4)
    games, _ = play_out(config, new_games(config, np.arange(4000, dtype=np.uint32)))
    leads = np.bincount(games.leader, minlength=4) / 4000
    wins = np.bincount(games.winner, minlength=4) / 4000
    assert np.allclose(leads, 0.25, atol=0.035) and np.allclose(wins, 0.25, atol=0.035)
    named = new_games(Config.parse("classic(leader=named)", 4), np.arange(100, dtype=np.uint32))
    assert (named.turn == 0).all()


def test_greedy_beats_random() -> None:
    config = Config.parse("classic", 2)
    games, _ = play_out(
        config, new_games(config, np.arange(2000, dtype=np.uint32)), lambda c, g: choose(c, g, ["greedy", "random"])
    )
    assert (games.winner == 0).mean() > 0.7


def test_greedy_breaks_its_ties_among_distinct_moves_as_the_core_does() -> None:
    # a 1: the pawn on the track one square on, or a pawn out of Start (three there: three
    # actions, one move), worth the same to greedy; among actions it chose the pawn out 3 times in 4
    config = Config.parse("classic", 2)
    games = positions(config, [[40, START, START, START], [START] * 4], 1, 4000)
    chosen = greedy_actions(config, games)
    assert set(np.unique(chosen).tolist()) == {1, 2}  # slot 0's pawn, or the first pawn out of Start
    assert 0.45 < (chosen == 1).mean() < 0.55


@pytest.mark.parametrize(("rules", "players", "count"), [("classic", 3, 30), ("partners", 4, 8), ("adult", 3, 12)])
def test_greedy_chooses_a_move_the_core_s_greedy_would(rules: str, players: int, count: int) -> None:
    config = Config.parse(rules, players)
    games = new_games(config, np.arange(count, dtype=np.uint32))
    checked = 0
    for _ in range(120):
        chosen, found = greedy_actions(config, games), outcomes(config, games)
        for game in np.flatnonzero(games.winner < 0).tolist():
            moves = legal_moves(config.rules, core_state(config, games, game))
            mover = config.seats[int(games.turn[game])]
            worth = [greedy_value(move.result, mover) for move in moves]
            best = {move_key(config, move) for move, value in zip(moves, worth, strict=True) if value == max(worth)}
            assert found[game, int(chosen[game])] in best
            checked += 1
        games, _ = step(config, games, random_moves(config, games))
    assert checked > 500


def test_games_take_little_memory() -> None:
    config = Config.parse("classic", 4)
    games = new_games(config, np.arange(1000, dtype=np.uint32))
    assert sum(field.nbytes for field in games) / 1000 <= 48


@pytest.mark.parametrize(
    ("rules", "players", "message"),
    [
        ("partners", 2, "partners game is played by 4 players, not 2"),
        ("classic-1939(doubling=true)", 2, "doubling belongs to Point Scoring"),
        ("classic", 1, "plays 2, 3 or 4 players"),
        ("classic", 5, "plays 2, 3 or 4 players"),
    ],
)
def test_rules_it_does_not_play_are_refused_with_a_clear_message(rules: str, players: int, message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        Config.parse(rules, players)
