"""The partners' split 7 among any team pawns played from a hand of five
(pardon.batch.split_hands): the 7 stays in the hand while its split is made and leaves it once
whole; the random player uniform over the turn's whole moves, every card's; a core split played
part by part through action_of.  The cross-check replays whole games
(tests/batch/test_cross_check.py)."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from batch_positions import holding, positions
from pardon.batch.config import games_at
from pardon.batch.convert import action_of, core_position, core_state, move_key, position_key
from pardon.batch.engine import Config, Games, random_moves, step
from pardon.batch.hands import describe_move
from pardon.batch.split_any import FIRST_PART, part_action, splitting
from pardon.batch.split_hands import SEVEN
from pardon.core.cards import CARDS
from pardon.core.turn import legal_moves

CONFIG = Config.parse("partners(hand=5,partner_split=any)")
START = 66
NOBODY_OUT = [START] * 4
#: Red (seat 0) and Yellow (seat 2, its partner) have pawns out; Blue and Green none.
SPREAD = [[30, 50, START, START], NOBODY_OUT, [20, START, START, START], NOBODY_OUT]
HAND = [7, 4, 10, 12, 3]


def copies_of(games: Games, copies: int) -> Games:
    """``copies`` of a batch of one, each with its own seed (its own random bits)."""
    many = Games(*(np.repeat(np.asarray(field), copies, axis=-1) for field in games))
    return many._replace(seed=np.arange(copies, dtype=np.uint32))


def test_the_actions_are_eleven_blocks_of_522_and_a_part_is_the_7s() -> None:
    assert CONFIG.actions == 11 * 522 and SEVEN.start == CARDS.index(7) * 522
    said = describe_move(CONFIG, SEVEN.start + part_action(1, 0, 3))
    assert said == "play a 7: part: partner's slot 0 forward 3"


def test_the_random_player_is_uniform_over_the_turns_whole_moves_of_every_card() -> None:
    copies = 2000
    start = copies_of(holding(CONFIG, positions(CONFIG, SPREAD, 0, 1), 0, HAND), copies)
    wanted = {(move.card, move.result.pawns) for move in legal_moves(CONFIG.rules, core_state(CONFIG, start, 0))}
    games, active, finals = start, np.arange(copies), {}
    while active.size:  # each game's parts until its turn is over
        after, played = step(CONFIG, games, random_moves(CONFIG, games), check=True)
        within = splitting(after)
        assert (after.hands[0, CARDS.index(7), within] == 1).all()  # the 7 stays in the hand meanwhile
        for game in np.flatnonzero(~within).tolist():
            pawns = core_position(CONFIG, after, game).pawns
            finals[int(active[game])] = (int(played.card[game]), pawns)
        games, active = games_at(after, np.flatnonzero(within)), active[within]
    seen = Counter(finals.values())
    assert set(seen) == wanted  # every whole move of every card, none other
    sevens = [key for key in wanted if key[0] == 7]
    assert len(sevens) > 20 and len(wanted) > len(sevens)
    expected = copies / len(wanted)
    chi_square = sum((count - expected) ** 2 / expected for count in seen.values())
    assert chi_square < len(wanted) + 6 * (2 * len(wanted)) ** 0.5  # uniform (a 6-sigma bound)


def test_a_core_split_from_the_hand_is_played_part_by_part_through_action_of() -> None:
    games = holding(CONFIG, positions(CONFIG, SPREAD, 0, 1), 0, HAND)
    moves = legal_moves(CONFIG.rules, core_state(CONFIG, games, 0))
    split = max(moves, key=lambda move: len(move.actions))
    assert split.card == 7 and len(split.actions) >= 3
    drawn = int(games.drawn[0])
    for _ in range(len(split.actions)):
        action = action_of(CONFIG, games, 0, split)
        assert action >= SEVEN.start + FIRST_PART and move_key(CONFIG, split)[0] == 7
        games, _ = step(CONFIG, games, np.array([action], dtype=np.int32), check=True)
    assert not splitting(games)[0] and int(games.drawn[0]) == drawn + 1  # whole: the hand drawn back up
    assert position_key(core_position(CONFIG, games, 0))[0] == split.result.pawns
    assert int(games.hands[-1].sum(axis=0)[0]) == 5  # the mover's hand, now the last seat's


@pytest.mark.slow
def test_with_doubling_long_games_replay_exactly_through_the_core() -> None:
    from pardon.batch.engine import legal_lanes
    from pardon.batch.verify import cross_check

    config = Config.parse("partners(hand=5,partner_split=any,scoring=1939,doubling=true)")
    go_on = config.card_actions  # then double, accept, drop out

    def going_on(config: Config, games: Games) -> np.ndarray:
        # random moves, but nobody doubles: long games, many 7s split from the hand
        actions = np.array(random_moves(config, games))
        actions[legal_lanes(config, games)[go_on]] = go_on
        return actions

    report = cross_check(config, range(1), choose=going_on)
    assert report.games == report.scored == 1 and report.decisions > 300
