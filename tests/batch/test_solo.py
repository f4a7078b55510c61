"""The solo challenge in the batch engine (docs/batch.md: "What it plays"): one colour alone,
red as in the core, counting the cards drawn until every pawn is Home.  Its games replay
exactly through pardon.core decision by decision (pardon.batch.verify), alone a Sorry! has
nobody to bump and an 11 nobody to switch with, and each way of running the engine (NumPy's
own, the way JAX runs, one game without a batch axis, JAX itself) plays the same games."""

from __future__ import annotations

import numpy as np
import pytest

from pardon.batch.actions import ACTIONS, MOVE, PASS, sorry_action, switch_action
from pardon.batch.convert import core_state
from pardon.batch.engine import (
    Config,
    Games,
    distinct_lanes,
    legal_lanes,
    new_games,
    points,
    random_actions,
    random_moves,
    reset_finished,
    step,
)
from pardon.batch.observe import LOCATIONS, PAWNS, SEATS, TURN, observe
from pardon.batch.players import choose
from pardon.batch.verify import cross_check, main
from pardon.core import IllegalError, InvalidError
from pardon.core.cards import SORRY
from pardon.core.rules import parse_rules
from pardon.core.turn import legal_moves

CASES = [
    ("solo", 250),
    ("classic(solo=true)", 120),  # the Leader drawn for: alone, red
    ("modern-no-tokens(solo=true)", 120),
    ("solo(scoring=1939)", 120),
    ("solo(scoring=1992,pawns=3)", 120),
    ("solo(deck=55,pawns_out=1)", 120),
    ("solo(deck=44,draw_again_on_2=false,sorry_forward_4=true)", 120),
    ("modern-no-tokens(solo=true,leave_start=forward-circle,scoring=1992)", 120),
    ("solo(slide_riders=own)", 120),
]

#: Every case in full (CI), and a few games of each for the quick loop (``make check``: the
#: quick runs replay the first games of the full ones, so a run with the full ones skips them).
RUNS = [pytest.param(*case, marks=pytest.mark.slow, id="-".join(map(str, case))) for case in CASES] + [
    pytest.param(rules, 12, id=f"{rules}-quick") for rules, _ in CASES
]


@pytest.mark.parametrize(("rules", "games"), RUNS)
def test_solo_games_replay_exactly_through_the_core(rules: str, games: int, request: pytest.FixtureRequest) -> None:
    if request.node.callspec.id.endswith("-quick") and "not slow" not in str(request.config.getoption("-m")):
        pytest.skip("the full case replays these games too")
    config = Config.parse(rules)
    report = cross_check(config, range(2000, 2000 + games))
    assert report.games == games
    assert report.outcomes >= report.choices >= report.decisions > 40 * games  # every legal action's outcome
    assert report.scored == (games if config.rules.scoring != "none" else 0)  # the points agree too


def test_the_cross_check_command_plays_the_solo_challenge_with_one_player(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", "solo", "--games", "12", "--chunk", "5"]) == 0  # one player unless told
    out, err = capsys.readouterr()
    assert out.startswith("12 games of solo with 1 player: ") and "12/12 games" in err
    assert main(["--rules", "solo", "--players", "2", "--games", "3"]) == 2
    assert "the solo challenge is played by 1 player, not 2" in capsys.readouterr().err


def test_one_player_plays_the_solo_challenge_as_the_core_s_red() -> None:
    config = Config.parse("solo")
    assert (config.players, config.seats) == (1, (0,))
    assert Config(parse_rules("classic(solo=true)"), 1).seats == (0,)
    with pytest.raises(InvalidError, match=r"the solo challenge is played by 1 player, not 2$"):
        Config.parse("solo", 2)
    with pytest.raises(InvalidError, match="plays 2, 3 or 4 players, not 1: one player alone plays the solo challenge"):
        Config.parse("classic", 1)
    assert Config.parse("classic").players == 2  # the default without solo, as before


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ("partners(solo=true)", "played alone, not with partners"),  # the core's own refusals
        ("classic-1939(solo=true,scoring=1939,doubling=true)", "nobody to double against"),
    ],
)
def test_what_is_still_unplayed_is_refused_with_solo_too(rules: str, message: str) -> None:
    with pytest.raises(InvalidError, match=message):
        Config.parse(rules, 1 if "solo" in rules else 4)


def positions(config: Config, pawns: list[int], card: int, copies: int = 3) -> Games:
    """``copies`` games of one position: the solo colour's four slots, and the card drawn."""
    games = new_games(config, np.arange(copies, dtype=np.uint32))
    return games._replace(
        pawns=np.repeat(np.array([pawns], dtype=np.int8)[..., None], copies, axis=-1),
        card=np.full(copies, card, dtype=np.int8),
    )


@pytest.mark.parametrize(
    ("rules", "card", "lanes"),
    [
        ("solo", SORRY, [PASS]),  # nobody to bump: the Sorry! is forfeit (the core's "sorry pass")
        ("solo", 11, [MOVE]),  # nobody to switch with: forward 11, and no pass (the core's "11 20-31")
        ("solo(sorry_forward_4=true)", SORRY, [MOVE]),  # the 2013 Sorry!'s forward 4 is left
        ("solo", 1, [MOVE, MOVE + 1]),  # out of Start (one move for the three pawns there), or forward 1
    ],
)
def test_alone_a_sorry_has_nobody_to_bump_and_an_11_nobody_to_switch_with(
    rules: str, card: int, lanes: list[int]
) -> None:
    config = Config.parse(rules)
    games = positions(config, [20, 66, 66, 66], card)
    assert np.flatnonzero(distinct_lanes(config, games)[:, 0]).tolist() == lanes
    assert len(legal_moves(config.rules, core_state(config, games, 0))) == len(lanes)
    assert not legal_lanes(config, games)[switch_action(0, 1, 0) :].any()  # no switch, no Sorry! at all


def test_an_action_on_an_opponent_is_never_legal_alone() -> None:
    config = Config.parse("solo")
    games = positions(config, [20, 66, 66, 66], SORRY)
    for action in (sorry_action(1, 0), switch_action(0, 1, 2)):
        actions = np.zeros(3, dtype=np.int32)
        actions[1] = action
        with pytest.raises(IllegalError, match=r"never legal with 1 player: the solo challenge has no other"):
            step(config, games, actions)


def test_a_game_ends_when_every_pawn_is_home_and_its_count_is_the_cards_drawn() -> None:
    config = Config.parse("solo(scoring=1939)")
    games = new_games(config, np.arange(300, dtype=np.uint32))
    played = np.zeros(300, dtype=np.int64)  # cards used or forfeited: the challenge's count
    while (games.winner < 0).any():
        assert (games.turn == 0).all() and (games.leader == 0).all()  # alone, always red's turn
        assert not points(config, games)[:, games.winner < 0].any()
        games, what = step(config, games, choose(config, games, ["greedy"]))  # alone greedy is random
        played += what.card != 0
    assert (games.winner == 0).all() and (games.pawns == 0).all()
    assert np.array_equal(games.drawn, played) and 30 < games.drawn.mean() < 150
    assert (points(config, games) == 4 + 24).all()  # 1939: its 4 pawns Home, and no opponent has any
    fresh = reset_finished(config, games, np.arange(300, 600, dtype=np.uint32))
    assert (fresh.winner < 0).all() and (fresh.drawn == 1).all()


def test_observations_show_one_player() -> None:
    config = Config.parse("solo")
    planes = observe(config, new_games(config, np.arange(2, dtype=np.uint32)))
    pawns = planes[:, PAWNS].reshape(2, SEATS, 4, LOCATIONS)
    assert (pawns[:, 0, :, 0] == 1).all() and not pawns[:, 1:].any()  # red's pawns in Start, no other seat
    assert planes[:, TURN].tolist() == [[1, 0, 0, 0]] * 2  # red's turn


def test_every_way_of_running_the_engine_plays_the_same_solo_games() -> None:
    # one batch axis takes NumPy's own way, two the way JAX runs, none a single game
    config = Config.parse("modern-no-tokens(solo=true)")
    seeds = np.arange(400, dtype=np.uint32)
    flat, square = new_games(config, seeds), new_games(config, seeds.reshape(20, 20))
    single = Games(*(field[..., 7] for field in flat))
    for turn in range(150):
        actions = random_actions(config, flat)
        assert np.array_equal(actions, random_actions(config, square).reshape(-1))
        assert np.array_equal(random_moves(config, flat), random_moves(config, square).reshape(-1))
        assert np.array_equal(legal_lanes(config, flat), legal_lanes(config, square).reshape(ACTIONS, -1))
        kept = distinct_lanes(config, flat)
        assert np.array_equal(kept, distinct_lanes(config, square).reshape(ACTIONS, -1))
        assert np.array_equal(distinct_lanes(config, single), kept[:, 7])
        assert int(random_actions(config, single)) == int(actions[7])
        chosen = actions if turn % 2 else random_moves(config, flat)
        flat, played = step(config, flat, chosen)
        square, played_too = step(config, square, chosen.reshape(20, 20))
        single, _ = step(config, single, chosen[7])
        for mine, theirs in zip((*flat, *played), (*square, *played_too), strict=True):
            assert np.array_equal(mine, np.asarray(theirs).reshape(mine.shape))
    for one, many in zip(single, flat, strict=True):
        assert np.array_equal(one, many[..., 7])


@pytest.mark.slow  # compiling takes a while
@pytest.mark.parametrize("rules", ["solo(scoring=1992)", "modern-no-tokens(solo=true,pawns_out=1,scoring=1992)"])
def test_jax_plays_the_very_solo_games_numpy_plays(rules: str) -> None:
    pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    from pardon.batch.jax_backend import jitted

    config = Config.parse(rules)
    seeds = np.arange(100, dtype=np.uint32)
    games, fast = new_games(config, seeds), jitted(config)
    on_jax = fast.new_games(jnp.asarray(seeds))
    while (games.winner < 0).any():
        actions = random_actions(config, games)
        assert np.array_equal(actions, np.asarray(fast.random_actions(on_jax)))
        assert np.array_equal(random_moves(config, games), np.asarray(fast.random_moves(on_jax)))
        assert np.array_equal(legal_lanes(config, games), np.asarray(fast.legal_lanes(on_jax)))
        assert np.array_equal(distinct_lanes(config, games), np.asarray(fast.distinct_lanes(on_jax)))
        assert np.array_equal(observe(config, games), np.asarray(observe(config, on_jax)))
        games, _ = step(config, games, actions)
        on_jax, _ = fast.step(on_jax, jnp.asarray(actions))
        for mine, theirs in zip(games, on_jax, strict=True):
            assert np.array_equal(mine, np.asarray(theirs))
    assert np.array_equal(points(config, games), np.asarray(fast.points(on_jax)))
    assert (points(config, games) == config.rules.pawns * 5 + 100).all()  # 1992: 5 a pawn Home, the largest bonus
