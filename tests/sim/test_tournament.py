"""Duplicate tournaments: the schedule, the interval arithmetic, Elo, reproducibility, the CLI."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from pardon.core.errors import InvalidError
from pardon.sim.stats import (
    bootstrap_ratings,
    bradley_terry,
    duplicate_interval,
    elo_from_rate,
    elo_interval,
    rate_from_elo,
    wilson,
)
from pardon.sim.tournament import format_report, play_game, run_tournament, schedule, seatings


def test_two_players_swap_seats_on_every_deal() -> None:
    games = schedule(("greedy", "tactician"), players=2, games=6, seed=4)
    assert [(game.deal, game.seating) for game in games] == [
        (0, ("greedy", "tactician")),
        (0, ("tactician", "greedy")),
        (1, ("greedy", "tactician")),
        (1, ("tactician", "greedy")),
        (2, ("greedy", "tactician")),
        (2, ("tactician", "greedy")),
    ]
    # both seatings of a deal play the same cards; each deal has its own
    assert games[0].seed == games[1].seed != games[2].seed
    assert len({game.bot_seed for game in games}) == len(games)


def test_four_players_alternate_and_every_pairing_meets_on_the_same_deals() -> None:
    assert seatings(4) == ("ABAB", "BABA")
    games = schedule(("random", "greedy", "tactician"), players=4, games=4)
    assert len(games) == 3 * 4  # 3 pairings x 2 deals x 2 seatings
    assert games[0].seating == ("random", "greedy", "random", "greedy")
    seeds_by_pairing: dict[tuple[int, int], set[int]] = {}
    for game in games:
        seeds_by_pairing.setdefault(game.pairing, set()).add(game.seed)
    assert len(set(map(frozenset, seeds_by_pairing.values()))) == 1


def test_three_players_give_each_player_every_seat_equally_often() -> None:
    patterns = seatings(3)
    assert patterns == ("ABB", "BAB", "BBA", "AAB", "ABA", "BAA")
    for seat in range(3):
        assert Counter(pattern[seat] for pattern in patterns) == {"A": 3, "B": 3}


def test_a_ladder_plays_each_level_against_the_next_on_the_same_games_as_a_full_tournament() -> None:
    bots = ("random", "greedy", "tactician", "expectimax")
    ladder = schedule(bots, players=2, games=4, seed=3, ladder=True)
    assert sorted({game.pairing for game in ladder}) == [(0, 1), (1, 2), (2, 3)]
    full = schedule(bots, players=2, games=4, seed=3)
    assert ladder == [game for game in full if game.pairing in {(0, 1), (1, 2), (2, 3)}]


def test_a_ladder_tournament_rates_every_level_through_its_steps() -> None:
    report = run_tournament(["random", "greedy", "tactician"], games=4, seed=2, ladder=True)
    assert [(pairing.first, pairing.second) for pairing in report.pairings] == [
        ("random", "greedy"),
        ("greedy", "tactician"),
    ]
    assert len(report.ratings) == 3 and report.ratings[2].estimate > report.ratings[0].estimate


def test_a_game_count_is_rounded_up_to_whole_deals() -> None:
    assert len(schedule(("greedy", "random"), players=2, games=5)) == 6
    assert len(schedule(("greedy", "random"), players=3, games=5)) == 6


def test_the_wilson_interval_of_a_known_case() -> None:
    # 60 wins in 100 games: the textbook 95% Wilson interval is 0.5020 to 0.6906
    estimate, low, high = wilson(60, 100)
    assert estimate == 0.6
    assert (round(low, 4), round(high, 4)) == (0.502, 0.6906)
    assert wilson(0, 10).low == 0.0 and wilson(10, 10).high == pytest.approx(1.0)


def test_the_duplicate_interval_counts_deals_not_games() -> None:
    # four deals: won both seatings, split, split, lost both -> mean 0.5, sd 0.4082
    estimate, low, high = duplicate_interval([1.0, 0.5, 0.5, 0.0])
    half = 1.959963984540054 * math.sqrt((0.25 + 0 + 0 + 0.25) / 3 / 4)
    assert estimate == 0.5
    assert (low, high) == pytest.approx((0.5 - half, 0.5 + half))
    assert duplicate_interval([0.5] * 10)[1:] == (0.5, 0.5)  # every deal split: no doubt left


def test_elo_from_a_known_win_rate() -> None:
    assert elo_from_rate(0.5) == 0.0
    assert elo_from_rate(0.75) == pytest.approx(400 * math.log10(3))  # 190.85
    assert elo_from_rate(0.64) == pytest.approx(99.95, abs=0.01)
    assert rate_from_elo(elo_from_rate(0.6)) == pytest.approx(0.6)
    low, high = elo_interval(wilson(60, 100))[1:]
    assert low == pytest.approx(elo_from_rate(0.50199), abs=0.1) and high == pytest.approx(139.0, abs=0.5)


def test_bradley_terry_recovers_pairwise_rates() -> None:
    # B beats A 3 times in 4, C beats B 3 times in 4: A 0, B about +191, C about +382
    results = {(0, 1): [0.25] * 400, (1, 2): [0.25] * 400}
    ratings = bradley_terry(3, results)
    assert ratings[0] == 0.0
    assert ratings[1] == pytest.approx(190.8, abs=3)
    assert ratings[2] == pytest.approx(381.7, abs=6)
    intervals = bootstrap_ratings(3, results, samples=20)
    assert all(interval.low <= interval.estimate <= interval.high for interval in intervals)


def test_a_single_deal_gives_the_widest_rating_interval_not_a_false_certainty() -> None:
    # one deal per pairing: resampling it gives it back every time, an interval of no width
    intervals = bootstrap_ratings(3, {(0, 1): [0.5], (1, 2): [1.0], (0, 2): [0.0]}, samples=20)
    assert (intervals[0].low, intervals[0].high) == (0.0, 0.0)  # the anchor
    wide = elo_from_rate(0.999)
    for interval in intervals[1:]:
        assert interval.low == pytest.approx(interval.estimate - wide) and interval.high > interval.estimate + 1000
    played = run_tournament(["greedy", "tactician"], games=1, seed=3)
    text = format_report(played)
    assert "1 game asked per pairing, 2 played (whole deals)" in text  # a deal is played in both seatings
    assert "(+0..+0)" not in text.splitlines()[-3]  # tactician's rating: no interval of no width


def test_a_game_of_the_schedule_replays_exactly() -> None:
    game = schedule(("greedy", "tactician"), players=2, games=2, seed=8)[1]
    first, second = play_game(game), play_game(game)
    assert (first.winner_letter, first.cards) == (second.winner_letter, second.cards)


def test_the_same_seed_gives_the_same_results_whatever_the_number_of_processes() -> None:
    bots = ["random", "greedy", "expectimax(depth=1)"]
    alone = run_tournament(bots, players=2, games=6, jobs=1, seed=5).to_json()
    shared = run_tournament(bots, players=2, games=6, jobs=2, seed=5).to_json()
    other = run_tournament(bots, players=2, games=6, jobs=1, seed=6).to_json()
    for report in (alone, shared, other):
        del report["seconds"], report["think_seconds"]
    assert alone == shared
    assert alone["pairings"] != other["pairings"]


def _comparable(report: dict[str, object]) -> dict[str, object]:
    return {name: value for name, value in report.items() if name not in ("seconds", "think_seconds", "games_kept")}


def test_a_kept_tournament_resumes_and_extends_without_playing_a_game_twice(tmp_path: Path) -> None:
    bots = ["random", "greedy", "tactician"]
    played: list[object] = []
    first = run_tournament(bots, games=4, seed=3, directory=tmp_path, on_result=played.append)
    assert len(played) == 12 and len((tmp_path / "games.jsonl").read_text().splitlines()) == 12
    assert _comparable(first.to_json()) == _comparable(run_tournament(bots, games=4, seed=3).to_json())
    played.clear()
    again = run_tournament(bots, games=4, seed=3, directory=tmp_path, on_result=played.append)
    assert played == [] and _comparable(again.to_json()) == _comparable(first.to_json())
    assert (first.kept, again.kept) == (0, 12) and again.to_json()["games_kept"] == 12
    longer = run_tournament(bots, games=8, seed=3, directory=tmp_path, jobs=2, on_result=played.append)
    assert len(played) == 12 and longer.kept == 12  # only the new deals
    assert _comparable(longer.to_json()) == _comparable(run_tournament(bots, games=8, seed=3).to_json())
    ladder = run_tournament(bots, games=8, seed=3, directory=tmp_path, ladder=True, on_result=played.append)
    assert len(played) == 12 and [pairing["games"] for pairing in ladder.to_json()["pairings"]] == [8, 8]
    shorter = run_tournament(bots, games=4, seed=3, directory=tmp_path)
    assert _comparable(shorter.to_json()) == _comparable(first.to_json())  # the first deals


def test_a_kept_tournament_cut_off_mid_line_loses_only_that_line(tmp_path: Path) -> None:
    bots = ["random", "greedy"]
    whole = run_tournament(bots, games=6, seed=4, directory=tmp_path)
    results = tmp_path / "games.jsonl"
    lines = results.read_text().splitlines(keepends=True)
    results.write_text("".join(lines[:4]) + lines[4][:20])  # killed while writing the fifth game
    played: list[object] = []
    resumed = run_tournament(bots, games=6, seed=4, directory=tmp_path, on_result=played.append)
    assert len(played) == 2
    assert _comparable(resumed.to_json()) == _comparable(whole.to_json())
    assert all(json.loads(line) for line in results.read_text().splitlines())


def test_a_kept_tournament_refuses_other_settings_and_changes_nothing(tmp_path: Path) -> None:
    run_tournament(["random", "greedy"], games=2, seed=1, directory=tmp_path)
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    for changes in ({"seed": 2}, {"players": 4}, {"bots": ["greedy", "random"]}, {"rules": "adult"}):
        options = {"bots": ["random", "greedy"], "games": 2, "seed": 1, **changes}
        with pytest.raises(InvalidError, match="holds a tournament with"):
            run_tournament(directory=tmp_path, **options)  # type: ignore[arg-type]
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before


def test_a_kept_tournament_resumes_under_another_text_of_the_same_rules(tmp_path: Path) -> None:
    """Rules are kept in their one text, as pardon sim keeps them: classic(pawns=4) is classic."""
    first = run_tournament(["random", "greedy"], games=2, seed=1, rules="classic", directory=tmp_path)
    again = run_tournament(["random", "greedy"], games=4, seed=1, rules="classic(pawns=4)", directory=tmp_path)
    assert first.to_json()["rules"] == again.to_json()["rules"] == "classic"
    assert again.to_json()["pairings"][0]["games"] == 4


def test_a_kept_tournament_refuses_a_player_whose_options_changed_since(tmp_path: Path) -> None:
    # A level's defaults may change between versions: its old games are another player's.
    run_tournament(["random", "tactician"], games=2, seed=1, directory=tmp_path)
    settings = tmp_path / "tournament.json"
    recorded = json.loads(settings.read_text())
    assert recorded["levels"]["random"] == {"level": "random"}
    threat = recorded["levels"]["tactician"]["weights"]["threat"]
    recorded["levels"]["tactician"]["weights"]["threat"] = threat + 1
    settings.write_text(json.dumps(recorded))
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(InvalidError, match=rf"'tactician' played with weights.threat {threat + 1}, now {threat}:"):
        run_tournament(["random", "tactician"], games=4, seed=1, directory=tmp_path)
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before
    del recorded["levels"]  # a run kept before players were recorded is taken on trust
    settings.write_text(json.dumps(recorded))
    played: list[object] = []
    run_tournament(["random", "tactician"], games=4, seed=1, directory=tmp_path, on_result=played.append)
    assert len(played) == 2 and "levels" in json.loads(settings.read_text())


def test_a_kept_tournament_takes_an_option_it_never_recorded_at_its_default(tmp_path: Path) -> None:
    # An option added to a level since the run was kept: at its default, the level plays as it did.
    run_tournament(["random", "tactician(later=0.5)"], games=2, seed=1, directory=tmp_path)
    settings = tmp_path / "tournament.json"
    recorded = json.loads(settings.read_text())
    del recorded["levels"]["tactician(later=0.5)"]["weights"]["phase"]  # as if phase came later
    settings.write_text(json.dumps(recorded))
    played: list[object] = []
    run_tournament(["random", "tactician(later=0.5)"], games=4, seed=1, directory=tmp_path, on_result=played.append)
    assert len(played) == 2
    # not at its default, it is another player: refused, naming the option
    kept = tmp_path / "phase"
    run_tournament(["random", "tactician(phase=0.5)"], games=2, seed=1, directory=kept)
    recorded = json.loads((kept / "tournament.json").read_text())
    del recorded["levels"]["tactician(phase=0.5)"]["weights"]["phase"]
    (kept / "tournament.json").write_text(json.dumps(recorded))
    with pytest.raises(InvalidError, match=r"'tactician\(phase=0.5\)' played with weights.phase None, now 0.5:"):
        run_tournament(["random", "tactician(phase=0.5)"], games=4, seed=1, directory=kept)


def test_the_tournament_command_resumes_a_kept_run(tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    first = pardon("tournament", "--bots", "random,greedy", "--games", "2", "--seed", "2", "--out", out, "--json")
    assert first.returncode == 0, first.stderr
    second = pardon("tournament", "--bots", "random,greedy", "--games", "4", "--seed", "2", "--out", out, "--json")
    assert second.returncode == 0, second.stderr
    assert "4/4 games" in second.stderr and json.loads(second.stdout)["pairings"][0]["games"] == 4
    assert json.loads(second.stdout)["games_kept"] == 2
    again = pardon("tournament", "--bots", "random,greedy", "--games", "4", "--seed", "2", "--out", out)
    assert "4 games played earlier)" in again.stdout.splitlines()[0]
    clash = pardon("tournament", "--bots", "random,greedy", "--games", "4", "--seed", "3", "--out", out)
    assert clash.returncode == 2
    assert (
        clash.stderr.strip()
        == f"pardon tournament: {out} holds a tournament with seed 2, not 3: use another directory to start a new one"
    )


def test_a_tournament_refuses_what_cannot_be_played() -> None:
    with pytest.raises(ValueError, match="at least two"):
        run_tournament(["greedy"])
    with pytest.raises(ValueError, match="played by 4 players"):
        run_tournament(["greedy", "random"], rules="partners", players=2)
    with pytest.raises(ValueError, match="unknown computer player"):
        run_tournament(["greedy", "wizard"])


def pardon(*arguments: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pardon", *arguments],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_tournament_command_prints_json_and_a_progress_bar() -> None:
    result = pardon("tournament", "--bots", "random,greedy", "--games", "4", "--seed", "2", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["bots"] == ["random", "greedy"] and report["seed"] == 2
    (pairing,) = report["pairings"]
    assert pairing["games"] == 4 and pairing["deals"] == 2
    assert (
        pairing["first_win_rate"]["low"] <= pairing["first_win_rate"]["estimate"] <= pairing["first_win_rate"]["high"]
    )
    assert "4/4 games" in result.stderr and "ETA" in result.stderr


def test_the_tournament_command_prints_a_table_for_four_players() -> None:
    result = pardon("tournament", "--players", "4", "--bots", "greedy,mcts(iterations=3)", "--games", "2", "--quiet")
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "greedy vs mcts(iterations=3)" in result.stdout and "Elo" in result.stdout


def test_the_tournament_command_reports_a_bad_player_in_one_line() -> None:
    result = pardon("tournament", "--bots", "greedy,wizard", "--games", "2")
    assert result.returncode == 2
    assert (
        result.stderr.strip() == "pardon tournament: unknown computer player 'wizard': "
        "choose random, greedy, tactician, expectimax, mcts, expert"
    )


def test_the_hint_command_ranks_the_moves(tmp_path: Path) -> None:
    position = {
        "rules": "classic",
        "seats": ["red", "yellow"],
        "turn": "red",
        "pawns": {"red": [20, 40, "start", "start"], "yellow": [45, "start", "start", "start"]},
    }
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position), encoding="utf-8")
    result = pardon("hint", str(path), "--card", "5", "--bot", "mcts(iterations=40)", "--json")
    assert result.returncode == 0, result.stderr
    output = json.loads(result.stdout)
    assert [move["move"] for move in output["moves"]] == ["5 40-45", "5 20-25"]
    text = pardon("hint", "-", "--card", "5", "--bot", "tactician", stdin=json.dumps(position))
    assert text.returncode == 0, text.stderr
    assert text.stdout.splitlines()[0] == "Red to play a 5; win chance by tactician:"
    assert text.stdout.splitlines()[1].endswith("5 40-45")
    over = pardon("hint", "-", "--card", "5", stdin=json.dumps(position | {"winner": "red"}))
    assert over.returncode == 2


def test_the_wilson_interval_always_holds_its_estimate() -> None:
    # 0 wins in 6 games gave a low bound of 2.8e-17: above the estimate, by rounding.
    for games in range(1, 60):
        for wins in range(games + 1):
            estimate, low, high = wilson(wins, games)
            assert low <= estimate <= high, (wins, games)


def test_a_one_player_game_is_named_in_the_singular(tmp_path: Path) -> None:
    with pytest.raises(InvalidError, match=r"rules solo are played by 1 player, not 2$"):
        run_tournament(["greedy", "random"], "solo", 2, 2, directory=tmp_path / "run")


def test_a_missing_run_folder_is_named_as_missing(tmp_path: Path) -> None:
    from pardon.sim.simulate import read_settings

    with pytest.raises(InvalidError, match=r"is not a simulation run: there is no such folder$"):
        read_settings(tmp_path / "nope")
