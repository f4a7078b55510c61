"""Hands of five in the batch engine (pardon.batch.hands): the deal, the cards held, the
choice of card, dead hands and their discards, the 2's second play, the refill from the
pack, what an observation shows of the hands, and the environments playing them.  The
cross-check with the core (tests/batch/test_cross_check.py) replays whole games."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from batch_positions import holding
from pardon.batch.actions import ACTIONS, PASS, SWITCH
from pardon.batch.config import tables
from pardon.batch.convert import core_state
from pardon.batch.engine import Config, Games, legal_lanes, new_games, random_actions, random_moves, step
from pardon.batch.hands import HAND_ACTIONS, describe_hand_action, hand_action
from pardon.batch.observe import CARD, PACK, observe
from pardon.core.board import HOME, START
from pardon.core.cards import CARDS, DECKS, SORRY
from pardon.core.errors import IllegalError, InvalidError

KIND = {card: kind for kind, card in enumerate(CARDS)}


def one_game(rules: str, players: int = 2, seed: int = 5) -> tuple[Config, Games]:
    config = Config.parse(rules, players)
    return config, new_games(config, np.array([seed], dtype=np.uint32))


def test_each_seat_is_dealt_five_and_holds_five_while_the_cards_make_one_deck() -> None:
    config = Config.parse("adult", 4)
    games = new_games(config, np.arange(60, dtype=np.uint32))
    deck = tables(config).deck.astype(np.int64)[:, None]
    assert games.hands.shape == (4, 11, 60) and (games.hands.sum(axis=1) == 5).all()
    assert (games.card == 0).all() and (games.drawn == 20).all()  # the deal, and no card turned up
    steps = 0
    while (games.winner < 0).any():
        playing = games.winner < 0
        assert (games.hands.sum(axis=1)[:, playing] == 5).all()
        assert (games.left == games.pack.sum(axis=0)).all()
        out = games.pack.astype(np.int64) + games.hands.sum(axis=0)  # never more than the deck holds
        assert (out <= deck).all() and (games.pack >= 0).all() and (games.hands >= 0).all()
        lanes = legal_lanes(config, games).reshape(len(CARDS), ACTIONS, -1)
        assert (~lanes.any(axis=1) | (games.hands[0] > 0)).all()  # only cards held are played
        assert (lanes.any(axis=(0, 1)) == playing).all()  # a player always has a play or a discard
        games, _ = step(config, games, random_moves(config, games), check=True)
        steps += 1
    assert steps > 100 and set(games.winner.tolist()) == {0, 1, 2, 3}


def test_a_hand_deals_and_plays_the_same_game_from_the_same_seed() -> None:
    config = Config.parse("adult", 3)
    first = new_games(config, np.array([9, 10], dtype=np.uint32))
    again = new_games(config, np.array([10, 9], dtype=np.uint32))
    assert np.array_equal(first.hands[..., 0], again.hands[..., 1])
    assert not np.array_equal(first.hands[..., 0], first.hands[..., 1])
    for _ in range(40):
        first, _ = step(config, first, random_actions(config, first))
        again, _ = step(config, again, random_actions(config, again))
    assert np.array_equal(first.pawns[..., 0], again.pawns[..., 1])
    assert np.array_equal(first.hands[..., 0], again.hands[..., 1])


def test_a_dead_hand_discards_any_one_card_and_the_turn_passes() -> None:
    config, games = one_game("classic(hand=5)")  # every pawn in Start
    games = holding(config, games, 0, [3, 4, 5, 5, 12])  # nothing brings a pawn out
    lanes = legal_lanes(config, games)[:, 0]
    assert np.flatnonzero(lanes).tolist() == [hand_action(card, PASS) for card in (3, 4, 5, 12)]
    after, played = step(config, games, np.array([hand_action(5, PASS)]), check=True)
    assert bool(played.forfeit[0]) and int(played.card[0]) == 5
    assert int(after.turn[0]) != int(games.turn[0])
    left = after.hands[-1, :, 0]  # the hand went round with its seat
    assert left[KIND[5]] >= 1 and left.sum() == 5 and int(after.drawn[0]) == int(games.drawn[0]) + 1


def test_a_card_that_must_be_played_takes_every_discard_away() -> None:
    config, games = one_game("classic(hand=5)")
    games = holding(config, games, 0, [1, 3, 4, 5, 12])  # the 1 brings a pawn out: it must be played
    lanes = legal_lanes(config, games)[:, 0]
    assert lanes.any() and not lanes[[hand_action(card, PASS) for card in (1, 3, 4, 5, 12)]].any()
    assert {int(action) // ACTIONS for action in np.flatnonzero(lanes)} == {KIND[1]}
    with pytest.raises(IllegalError, match="not legal"):
        step(config, games, np.array([hand_action(3, PASS)]), check=True)


def with_pawns(games: Games, own: list[int], other: list[int] | None = None) -> Games:
    pawns = np.array(games.pawns, copy=True)
    pawns[0, :, 0] = own
    if other is not None:
        pawns[1, :, 0] = other
    return games._replace(pawns=pawns)


def test_an_eleven_that_can_only_switch_may_be_declined_for_a_discard() -> None:
    config, games = one_game("classic(hand=5)")
    # one pawn 8 from Home: an 11 or a 12 would pass it; an opponent's pawn on the track
    games = with_pawns(games, [START, START, START, 8], [START, START, START, 40])
    games = holding(config, games, 0, [11, 12, 12, 12, 12])
    lanes = legal_lanes(config, games)[:, 0]
    played = {(int(action) // ACTIONS, int(action) % ACTIONS) for action in np.flatnonzero(lanes)}
    switches = {move for kind, move in played if kind == KIND[11] and move != PASS}
    assert switches and all(SWITCH <= move < SWITCH + 48 for move in switches)  # the switch is offered
    assert (KIND[11], PASS) in played and (KIND[12], PASS) in played  # and so is a dead hand's discard
    assert len(played) == len(switches) + 2


def test_after_a_two_played_the_same_player_plays_again_but_not_after_a_two_discarded() -> None:
    config, games = one_game("classic(hand=5)")
    turn = int(games.turn[0])
    out = holding(config, games, 0, [2, 3, 4, 5, 12])  # every pawn in Start: the 2 must bring one out
    after, _ = step(config, out, np.array([hand_action(2, 1)]), check=True)
    assert int(after.turn[0]) == turn and int(after.pawns[0, 0, 0]) != START
    no_extra = Config.parse("classic(hand=5,draw_again_on_2=false)")
    after, _ = step(no_extra, out, np.array([hand_action(2, 1)]), check=True)
    assert int(after.turn[0]) != turn  # the option: a 2 gives no extra play
    dead = holding(config, with_pawns(games, [HOME, HOME, HOME, 1]), 0, [2, 3, 5, 12, 12])  # each would pass Home
    assert np.flatnonzero(legal_lanes(config, dead)[:, 0]).tolist() == [
        hand_action(card, PASS) for card in (2, 3, 5, 12)
    ]
    after, _ = step(config, dead, np.array([hand_action(2, PASS)]), check=True)
    assert int(after.turn[0]) != turn  # a 2 discarded from a dead hand is no play


def test_actions_outside_the_hand_encoding_are_refused_and_described() -> None:
    config, games = one_game("adult")
    with pytest.raises(InvalidError, match="from 0 to 1550"):
        step(config, games, np.array([HAND_ACTIONS]))
    with pytest.raises(InvalidError, match="from 0 to 1550"):
        step(config, games, np.array([-1]))
    assert describe_hand_action(hand_action(SORRY, 129)) == "play a Sorry!: sorry on slot 0 of the next player"
    assert describe_hand_action(hand_action(7, PASS)) == "discard a 7"
    with pytest.raises(ValueError, match="1550"):
        describe_hand_action(HAND_ACTIONS)


def test_the_core_state_of_a_hand_game_holds_every_hand_and_one_deck() -> None:
    config = Config.parse("adult", 3)
    games = new_games(config, np.arange(4, dtype=np.uint32))
    for _ in range(30):
        games, _ = step(config, games, random_moves(config, games))
    for index in range(4):
        state = core_state(config, games, index)
        hands = state.position.hands
        assert sorted(len(hands[colour]) for colour in config.seats) == [5, 5, 5]
        everything = Counter(state.pack.draw_pile + state.pack.discards + sum(hands, ()))
        assert everything == Counter(DECKS[config.rules.deck]) and state.card is None


def test_an_observation_shows_its_own_hand_and_hides_the_others() -> None:
    config, games = one_game("adult", 2, seed=3)
    seen = observe(config, games, 0)[0]
    own = games.hands[0, :, 0]
    assert np.allclose(seen[CARD] * 5, own)
    unseen = games.pack[:, 0] + games.hands[1, :, 0]
    assert np.allclose(seen[PACK] * tables(config).deck, unseen)
    # swapping a card between the other hand and the pack changes nothing the player sees
    other = np.flatnonzero(games.hands[1, :, 0])[0]
    spare = np.flatnonzero((games.pack[:, 0] > 0) & (np.arange(len(CARDS)) != other))[0]
    hands, pack = np.array(games.hands, copy=True), np.array(games.pack, copy=True)
    hands[1, other, 0] -= 1
    hands[1, spare, 0] += 1
    pack[other, 0] += 1
    pack[spare, 0] -= 1
    swapped = games._replace(hands=hands, pack=pack)
    assert np.array_equal(observe(config, swapped, 0)[0], seen)
    assert not np.array_equal(observe(config, swapped, 1)[0], observe(config, games, 1)[0])


def test_the_environments_play_hands_of_five() -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from pardon.env.aec import SorryAECEnv
    from pardon.env.single import SorryEnv
    from pardon.env.vector import SorryVectorEnv

    aec = SorryAECEnv(rules="adult", players=3)
    assert aec.action_space(aec.possible_agents[0]).n == HAND_ACTIONS
    api_test(aec, num_cycles=300)
    aec.reset(seed=4)
    agent = aec.agent_selection
    hands = aec.infos[agent]["position"]["hands"]
    assert list(hands) == [agent]  # its own hand only
    text = SorryAECEnv(rules="adult", players=2, render_mode="ansi")
    text.reset(seed=2)
    assert " to play from " in str(text.render())

    single = SorryEnv(rules="adult", players=2, opponents="greedy")
    observation, info = single.reset(seed=11)
    assert observation["action_mask"].shape == (HAND_ACTIONS,) and set(info["position"]["hands"]) == {"red"}
    done, rewards = False, 0.0
    rng = np.random.default_rng(0)
    while not done:
        action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        observation, reward, done, truncated, info = single.step(action)
        rewards += reward
        done = done or truncated
    assert rewards in (-1.0, 1.0)

    vector = SorryVectorEnv(num_envs=8, rules="adult", players=2, seed=1)
    observations, _ = vector.reset(seed=1)
    assert observations["action_mask"].shape == (8, HAND_ACTIONS)
    for _ in range(200):
        masks = observations["action_mask"]
        actions = np.array([int(np.flatnonzero(mask)[0]) for mask in masks])
        observations, *_ = vector.step(actions)


def test_the_batch_simulation_counts_the_cards_played_as_the_core_does(tmp_path: Path) -> None:
    from pardon.cli import main

    arguments = ["sim", "--engine", "batch", "--rules", "adult", "--players", "3", "--games", "30"]
    assert main([*arguments, "--out", str(tmp_path), "--quiet"]) == 0

    rows = [json.loads(line) for line in (tmp_path / "games.jsonl").read_text().splitlines()]
    assert len(rows) == 30 and all(row["winner"] for row in rows)
    for row in rows:
        played = sum(used for used, _ in row["cards"].values())
        assert row["draws"] == row["turns"] == played  # cards played, not those dealt or drawn back up
        assert set(row["points"]) == {"red", "blue", "yellow"}
