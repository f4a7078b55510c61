"""Every batch game is a real game: batch games with random actions replayed through
pardon.core decision by decision (pardon.batch.verify), for the classic game with 2, 3 and
4 players and every option the batch plays, hands of five too (1,498 games, about a minute
and a half on one core; for more, ``python -m pardon.batch.verify --games N``); and the
random player chooses as the core's does, uniformly among one action for each of the core's
legal moves."""

from __future__ import annotations

import pytest

from pardon.batch import verify
from pardon.batch.engine import STREAM_CHOICE, Config, Games, choose_uniform, legal_lanes, random_bits
from pardon.batch.verify import MismatchError, cross_check, main

CASES = [
    ("classic", 2, 120),
    ("classic", 3, 40),
    ("classic", 4, 60),
    ("modern-no-tokens", 2, 60),
    ("modern-no-tokens", 4, 50),
    ("classic(pawns=3)", 3, 50),
    ("classic(deck=44)", 2, 60),
    ("classic(deck=55)", 4, 50),
    ("classic(pawns_out=1)", 2, 60),
    ("modern-no-tokens(leave_start=forward-circle)", 3, 50),
    ("classic(switched_opponent_slides=false)", 4, 50),
    ("classic(draw_again_on_2=false,sorry_forward_4=true)", 2, 60),
    ("classic(leader=named,pawns=3,deck=44)", 3, 50),
    ("classic-1939(scoring=1939)", 4, 50),
    ("classic(scoring=1992,pawns=3)", 2, 60),
    ("adult", 2, 50),  # hands of five: one pawn out, 1992 points
    ("adult", 4, 12),
    ("classic(hand=5,draw_again_on_2=false)", 3, 12),
    ("modern-no-tokens(hand=5)", 2, 20),
    ("solo(hand=5)", 1, 20),
    ("partners", 4, 20),  # a team's pawns, its 7 split between two of them
    ("partners(scoring=1992,pawns=3,deck=45)", 4, 10),
    ("modern-no-tokens(partners=true,draw_again_on_2=true)", 4, 10),
    ("partners(partner_split=any)", 4, 12),  # the 7 split among any team pawns, part by part
    ("partners(partner_split=any,pawns=3,deck=44,draw_again_on_2=false)", 4, 6),
    ("partners(scoring=1939,doubling=true,partner_split=any)", 4, 40),
    ("partners(hand=5)", 4, 2),  # a hand of five for the team's pawns: 11 blocks of 474 actions
    ("partners(hand=5,scoring=1939,doubling=true)", 4, 10),
    ("classic-1939(scoring=1939,doubling=true)", 2, 150),  # doubles: most games end at one
    ("classic-1939(scoring=1939,doubling=true)", 4, 100),
    ("partners(scoring=1939,doubling=true)", 4, 60),
    ("classic(scoring=1939,doubling=true,hand=5)", 3, 60),
    ("modern", 2, 50),  # Fire and Ice
    ("modern", 4, 12),
    ("classic(tokens=true,draw_again_on_2=true)", 3, 12),
    ("modern(hand=5)", 2, 16),  # Fire and Ice with hands of five: 11 blocks of 1,105 actions, then 2
    ("adult(tokens=true)", 4, 2),
    ("modern(scoring=1939,doubling=true)", 3, 100),  # Fire and Ice with doubling
    ("classic(scoring=1939,doubling=true,hand=5,tokens=true)", 3, 30),
    ("partners(hand=5,partner_split=any)", 4, 2),  # the split 7 among any team pawns from the hand
]


#: Every case in full (CI), and a few games of each for the quick loop (``make check``: the
#: quick runs replay the first games of the full ones, so a run with the full ones skips them).
RUNS = [pytest.param(*case, marks=pytest.mark.slow, id="-".join(map(str, case))) for case in CASES] + [
    pytest.param(rules, players, min(games, 12, max(3, games // 5)), id=f"{rules}-{players}-quick")
    for rules, players, games in CASES
]


@pytest.mark.parametrize(("rules", "players", "games"), RUNS)
def test_batch_games_replay_exactly_through_the_core(
    rules: str, players: int, games: int, request: pytest.FixtureRequest
) -> None:
    if request.node.callspec.id.endswith("-quick") and "not slow" not in str(request.config.getoption("-m")):
        pytest.skip("the full case replays these games too")
    report = cross_check(Config.parse(rules, players), range(1000, 1000 + games))
    assert report.games == games
    shortest = 5 if "doubling" in rules else 50  # a random player drops out of half the doubles
    assert report.outcomes >= report.choices >= report.decisions > shortest * games  # every outcome compared
    assert report.outcomes > report.choices  # some moves are made by several actions, chosen as one


def every_legal_lane(config: Config, games: Games, lanes: object = None) -> object:
    return legal_lanes(config, games)


def uniform_among_legal_lanes(config: Config, games: Games) -> object:
    # the random player as it was: a move weighted by the number of its actions
    return choose_uniform(legal_lanes(config, games), random_bits(games.seed, games.drawn, STREAM_CHOICE))


@pytest.mark.parametrize(
    ("name", "stand_in", "said"),
    [
        ("random_moves", uniform_among_legal_lanes, "not uniformly among one action per distinct move"),
        ("distinct_lanes", every_legal_lane, "the random player chooses among actions"),
    ],
)
def test_the_cross_check_finds_a_random_player_that_is_not_the_core_s(
    monkeypatch: pytest.MonkeyPatch, name: str, stand_in: object, said: str
) -> None:
    monkeypatch.setattr(verify, name, stand_in)
    with pytest.raises(MismatchError, match=said):
        cross_check(Config.parse("classic", 2), range(1000, 1010))


def test_the_cross_check_command_reports_the_games_that_agree(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--rules", "classic(pawns=3)", "--players", "3", "--games", "12", "--chunk", "5"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("12 games of classic(pawns=3) with 3 players: ") and "12/12 games" in err


@pytest.mark.parametrize(
    ("arguments", "words"),
    [
        (["--games", "5", "--chunk", "0"], "--chunk must be 1 or more, not 0"),  # looped for ever
        (["--games", "5", "--chunk", "-2"], "--chunk must be 1 or more, not -2"),
        (["--games", "-1"], "--games must be 1 or more, not -1"),  # said 0 games agree
        (["--games", "2", "--seed", "4294967295"], "plays seeds 4294967295 to 4294967296"),  # an OverflowError
        (["--games", "2", "--seed", "-1"], "seeds are whole numbers from 0 to 4294967295"),
        (["--players", "5"], "the batch engine plays 2, 3 or 4 players, not 5"),  # tracebacks, status 1
        (["--rules", "modern(partners=true)"], "Fire and Ice are not played with partners"),
    ],
)
def test_the_cross_check_command_refuses_bad_arguments_with_status_2(
    capsys: pytest.CaptureFixture[str], arguments: list[str], words: str
) -> None:
    assert main(arguments) == 2  # 1 is a mismatch
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and words in err, err
    assert err.startswith("python -m pardon.batch.verify: ")


def test_the_last_seed_of_32_bits_is_played() -> None:
    assert main(["--games", "1", "--seed", "4294967295"]) == 0
