"""The coach: win chances by turn, the biggest mistakes of a real game, and the reasons in words."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from pardon.bots import coach, make_bot
from pardon.bots.coach import NO_LOSS, Analysis, analyse, best_reason, format_analysis, reason
from pardon.bots.hint import rank_moves, rank_observed
from pardon.core import parse_position, parse_rules
from pardon.core.board import RED, YELLOW
from pardon.core.game import Game, record_of
from pardon.core.hands import hand_moves
from pardon.core.moves import Move, legal_moves
from pardon.core.notation import Record, format_move, parse_record
from pardon.core.observation import Observation
from pardon.core.state import Position

CLASSIC = parse_rules("classic")


def played_game(seed: int = 3, levels: tuple[str, str] = ("greedy", "tactician"), stop: int | None = None) -> Record:
    """The record of a seeded game between two computer levels (its first ``stop`` decisions)."""
    game = Game.new(CLASSIC, (RED, YELLOW), seed)
    bots = {RED: make_bot(levels[0]), YELLOW: make_bot(levels[1])}
    rng = random.Random(seed)
    while not game.is_over and (stop is None or game.turns < stop):
        if game.awaiting_draw:
            game.draw()
        game.play_trusted(bots[game.decider].choose(game.observe(game.decider), game.legal_moves(), rng))
    return record_of(game)


@pytest.fixture(scope="module")
def record() -> Record:
    return played_game()


@pytest.fixture(scope="module")
def analysis(record: Record) -> Analysis:
    return analyse(record)


def named(position: Position, card: int, text: str) -> Move:
    return next(move for move in legal_moves(CLASSIC, position, card) if format_move(position, move) == text)


def test_every_decision_has_every_players_chances_summing_to_one(record: Record, analysis: Analysis) -> None:
    assert len(analysis.decisions) == len(record.moves)
    assert record.result is not None and analysis.winner == record.result
    for decision in analysis.decisions:
        assert set(decision.chances) == {RED, YELLOW}
        assert all(0.0 <= chance <= 1.0 for chance in decision.chances.values())
        assert sum(decision.chances.values()) == pytest.approx(1.0)
    turns = [decision.turn for decision in analysis.decisions]
    assert turns == sorted(turns) and turns[0] == 1


def test_the_mistakes_are_the_biggest_losses_first_each_with_a_better_move_and_a_short_reason(
    analysis: Analysis,
) -> None:
    losses = [mistake.loss for mistake in analysis.mistakes]
    assert losses, "a greedy player makes mistakes"
    assert losses == sorted(losses, reverse=True)
    assert all(loss > NO_LOSS for loss in losses)
    for mistake in analysis.mistakes:
        decision = mistake.decision
        assert decision.best == mistake.better != decision.move
        assert decision.best_chance is not None and decision.played_chance is not None
        assert decision.best_chance - decision.played_chance == pytest.approx(mistake.loss)
        assert 0 < len(mistake.reason) <= 100
    coached = [decision for decision in analysis.decisions if decision.loss is not None]
    assert all(decision.loss is not None and decision.loss >= 0 for decision in coached)
    assert all(decision.choices > 1 for decision in coached)
    assert analysis.top(2) == analysis.mistakes[:2]


def test_only_the_seats_asked_for_are_coached(record: Record) -> None:
    analysis = analyse(record, seats=[YELLOW, YELLOW])  # a colour named twice is coached once
    assert analysis.coached == (YELLOW,)
    assert "Biggest mistakes of Yellow, judged by" in format_analysis(analysis)
    assert all(mistake.decision.colour == YELLOW for mistake in analysis.mistakes)
    assert all(decision.loss is None for decision in analysis.decisions if decision.colour == RED)
    with pytest.raises(ValueError, match="blue is not in this game"):
        analyse(record, seats=[1])


def test_an_unfinished_game_is_analysed_as_far_as_it_goes() -> None:
    analysis = analyse(played_game(stop=40))
    assert analysis.winner is None and len(analysis.decisions) == 40
    assert "unfinished after" in format_analysis(analysis).splitlines()[0]
    assert not any(line.endswith(("%, won", "%, lost")) for line in format_analysis(analysis).splitlines())


DROPPED_OUT = """[Rules "classic-1939(scoring=1939,doubling=true)"]
[Seats "red blue yellow"]
[Seed "1831235577100998273"]
[Red "greedy"]
[Blue "greedy"]
[Yellow "greedy"]

R 1 start-4
B double
Y drop
R accept
B 2 start-19
B 10 19-29
"""


def test_a_player_who_dropped_out_of_a_double_has_no_chance_left() -> None:
    """Yellow drops out of Blue's double at decision 3: it takes no more turns and scores nothing."""
    analysis = analyse(parse_record(DROPPED_OUT))
    for decision in analysis.decisions:
        assert sum(decision.chances.values()) == pytest.approx(1)
        if decision.number > 3:
            assert decision.chances[YELLOW] == 0, decision
    assert analysis.decisions[1].chances[YELLOW] > 0.2  # before: as much a chance as anyone


def test_a_game_of_forfeits_has_no_mistakes() -> None:
    """The first cards of a game bring nothing out of Start but a 1, a 2 or a Sorry!: every one
    of those forfeits is the only move, so there is nothing to coach."""
    game = Game.new(CLASSIC, (RED, YELLOW), 11)
    while True:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        if len(moves) > 1 or not moves[0].is_pass:
            break
        game.play_trusted(moves[0])
    record = record_of(game)
    assert record.moves, "the seed starts with forfeits"
    analysis = analyse(record)
    assert all(decision.choices == 1 and decision.loss is None for decision in analysis.decisions)
    assert analysis.mistakes == ()
    assert "No mistakes found" in format_analysis(analysis)


def test_the_text_fits_80_columns(analysis: Analysis) -> None:
    text = format_analysis(analysis, top=5)
    assert all(len(line) <= 80 for line in text.splitlines())
    assert "Biggest mistakes of Red and Yellow, judged by expert:" in text


def test_the_strongest_level_judges_and_its_network_draws_the_chances(record: Record, analysis: Analysis) -> None:
    """By default the coach is ``expert``: in a 2-player classic game every player's chance
    by turn is its network's; another level judges with its own chances."""
    from pardon.bots.expert import ExpertBot
    from pardon.core.game import replay_steps

    assert analysis.bot == "expert"
    judge = ExpertBot()
    for (_, game, move), decision in zip(replay_steps(record), analysis.decisions[:30], strict=False):
        found = judge.position_chances(game.observe(game.decider))
        assert decision.chances == {colour: pytest.approx(found[colour]) for colour in (RED, YELLOW)}
        game.play_trusted(move)
    other = analyse(played_game(stop=30), bot="expectimax")
    pairs = zip(other.decisions, analysis.decisions, strict=False)
    assert any(mine.chances != theirs.chances for mine, theirs in pairs)


def test_bumping_the_leader_is_the_reason_when_the_bump_is_best() -> None:
    position = parse_position("R:23,50,start,start Y:28,start,start,start turn:R")
    ranked = rank_moves(CLASSIC, position, 5, "expectimax", random.Random(0))
    assert format_move(position, ranked[0][0]) == "5 23-28"
    assert best_reason(CLASSIC, position, ranked) == "Bump the leader: sends Yellow's pawn 10 from Home back to Start"


def test_a_bump_of_a_pawn_about_to_bump_you_says_so() -> None:
    position = parse_position("R:23,40,start,start Y:28,start,start,start turn:R")  # Yellow is 12 behind 40
    why = reason(CLASSIC, position, named(position, 5, "5 23-28"), named(position, 5, "5 40-45"))
    assert why == "Bump before you are bumped: Yellow's pawn 10 from Home was in reach of yours"


NOBODY_OUT = "Y:start,start,start,start turn:R"


@pytest.mark.parametrize(
    ("text", "card", "better", "other", "expected"),
    [
        (f"R:0,30,home,home {NOBODY_OUT}", 3, "3 0-S1", "3 30-33", "Get a pawn into your Safety Zone, where nobody"),
        (f"R:30,start,start,start {NOBODY_OUT}", 1, "1 start-4", "1 30-31", "Take a pawn out of Start: with more"),
        (f"R:30,start,start,start {NOBODY_OUT}", 1, "1 30-31", "1 start-4", "Slide: it carries your pawn 3 squares"),
        (f"R:4,20,start,start {NOBODY_OUT}", 3, "3 4-7", "3 20-23", "Keep your pawn off your own start exit"),
        (f"R:S5,20,home,home {NOBODY_OUT}", 1, "1 S5-home", "1 20-21", "Bring a pawn Home"),
        (f"R:4,20,start,start {NOBODY_OUT}", 4, "4 4-0", "4 20-16", "Go backward 4 from near Start: it puts"),
        ("R:20,start,start,start Y:45,start,start,start turn:R", 11, "11 20x45", "11 20-31", "Switch with Yellow's"),
        ("R:40,start,start,start Y:28,start,start,start turn:R", 11, "11 40-51", "11 40x28", "Move the 11 forward"),
    ],
)
def test_each_tip_fits_its_move(text: str, card: int, better: str, other: str, expected: str) -> None:
    position = parse_position(text)
    why = reason(CLASSIC, position, named(position, card, better), named(position, card, other))
    assert why.startswith(expected), why


@pytest.mark.parametrize(
    ("rules", "text", "card", "better", "other", "expected"),
    [
        (  # the other move backs a pawn out of the Safety Zone: the better one keeps it there
            "classic",
            f"R:S1,4,home,home {NOBODY_OUT}",
            4,
            "4 4-0",
            "4 S1-59",
            "Keep your pawn in your Safety Zone, where nobody can bump it",
        ),
        (  # bringing a pawn Home says so, not that the other (switch) move goes backwards
            "classic",
            "R:57,20,home,home Y:40,start,start,start turn:R",
            11,
            "11 57-home",
            "11 57x40",
            "Bring a pawn Home",
        ),
        (
            "classic",
            "R:57,home,home,home Y:40,start,start,start turn:R",
            11,
            "11 57-home",
            "11 57x40",
            "Win the game: this move brings your last pawn Home",
        ),
        (  # two switches: the one that takes the pawn forward, not the pawns' total "56 squares"
            "classic",
            "R:0,13,start,start Y:40,49,start,start turn:R",
            11,
            "11 13x49",
            "11 0x40",
            "Switch with Yellow's pawn on 49 (11): it takes you 36 squares nearer Home",  # not the one on 40
        ),
        (  # with partners, the partner's pawn's switch sends the leader back, not "your pawns 4 squares"
            "partners",
            "R:home,home,2,10 B:home,37,19,start Y:S4,32,18,start G:home,home,22,start turn:G",
            11,
            "11 19x2",
            "11 22x18",
            "Switch with the leader's pawn (11): Red's pawn 6 from Home goes back to your partner's square 19",
        ),
        (  # both bring the Fire pawn Home: the better one takes its bonus too
            "modern",
            "R:start,start,start Y:30,45,start turn:Y fire:Y30",
            8,
            "8 30-home bonus:45",
            "8 30-home",
            "Use the Fire pawn's bonus: another of your pawns goes straight Home with it",
        ),
        (  # the same move, the Ice elsewhere: on the pawn that could bump one of Yellow's
            "modern",
            "R:50,40,start,start Y:45,20,start,start turn:Y",
            1,
            "1 ice:40 20-21",
            "1 ice:50 20-21",
            "Put the Ice on Red's pawn 28 from Home: it is in reach of yours, and frozen it cannot bump",
        ),
        (  # or on the leader's pawn nearest Home, which no Yellow pawn fears
            "modern",
            "R:50,30,start,start Y:45,10,start,start turn:Y",
            1,
            "1 ice:50 10-11",
            "1 ice:30 10-11",
            "Put the Ice on the leader's furthest pawn, Red's pawn 18 from Home: frozen, it cannot go Home",
        ),
        (
            "modern",
            "R:50,30,start,start Y:45,10,start,start turn:Y",
            1,
            "1 ice:30 10-11",
            "1 ice:50 10-11",
            "Put the Ice on Red's pawn 38 from Home: frozen, it cannot move",
        ),
    ],
)
def test_the_reason_names_what_the_better_move_really_does(
    rules: str, text: str, card: int, better: str, other: str, expected: str
) -> None:
    game_rules, position = parse_rules(rules), parse_position(text)
    moves = {format_move(position, move): move for move in legal_moves(game_rules, position, card)}
    assert reason(game_rules, position, moves[better], moves[other]) == expected


def test_switching_with_the_leader_sends_its_pawn_back_to_your_square() -> None:
    position = parse_position("R:40,start,start,start Y:28,start,start,start turn:R")
    why = reason(CLASSIC, position, named(position, 11, "11 40x28"), named(position, 11, "11 40-51"))
    assert why == "Switch with the leader's pawn (11): Yellow's pawn 10 from Home goes back to your square 40"


def test_a_pawn_left_in_reach_is_named_with_the_card_that_reaches_it() -> None:
    position = parse_position("R:20,40,start,start Y:15,start,start,start turn:R")
    why = reason(CLASSIC, position, named(position, 12, "12 20-32"), named(position, 12, "12 40-52"))
    assert why == "Move out of reach: Yellow's pawn on 15 could bump yours on 20 with a 5"


def test_taking_a_threat_away_is_not_called_moving_out_of_reach() -> None:
    """Both moves bump with a Sorry!; the better one bumps the Red pawn that could bump Yellow's
    pawn on 31 with a 10's back-1. It was called "Move out of reach", though no pawn moves away."""
    position = parse_position("R:32,33,start,start Y:31,start,start,start turn:Y")
    why = reason(CLASSIC, position, named(position, 13, "sorry start-32"), named(position, 13, "sorry start-33"))
    assert why == "Bump the pawn that threatens yours: Red's pawn on 32 could bump yours on 31 with a 10's back-1"


def test_a_pawn_moved_out_of_reach_is_told_so_though_the_other_move_moves_it_too() -> None:
    # Yellow's pawn on 57 is 7 ahead of Red's on 50: the 10 carries it out of reach, its back-1 only to 56
    position = parse_position("R:50,20,start,start Y:57,start,start,start turn:Y")
    why = reason(CLASSIC, position, named(position, 10, "10 57-7"), named(position, 10, "10 57-56"))
    assert why == "Move out of reach: Red's pawn on 50 could bump yours on 56 with a split 7"
    # with no other pawn out, Red cannot split a 7: 6 squares are out of its reach
    alone = parse_position("R:50,start,start,start Y:57,start,start,start turn:Y")
    why = reason(CLASSIC, alone, named(alone, 10, "10 57-7"), named(alone, 10, "10 57-56"))
    assert "split 7" not in why, why


def test_with_nothing_to_name_the_reason_is_the_chance() -> None:
    position = parse_position("R:4,20,start,start Y:start,start,start,start turn:R")
    better, other = named(position, 3, "3 20-23"), named(position, 3, "3 4-7")
    assert reason(CLASSIC, position, better, other, 0.04) == "It wins about 4 more games in 100"
    assert best_reason(CLASSIC, position, [(better, 0.5)]) is None


def test_a_hand_game_is_judged_from_the_movers_own_hand_only(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = parse_rules("adult")
    game = Game.new(rules, (RED, YELLOW), 5)
    bot, rng = make_bot("tactician"), random.Random(5)
    while game.turns < 30:
        if game.awaiting_draw:
            game.draw()
        game.play_trusted(bot.choose(game.observe(game.decider), game.legal_moves(), rng))
    seen: list[Observation] = []

    def spying(observation: Observation, moves: list[Move], level: str, rng: random.Random) -> list[tuple[Move, float]]:
        seen.append(observation)
        return rank_observed(observation, moves, level, rng)

    monkeypatch.setattr(coach, "rank_observed", spying)
    analysis = analyse(record_of(game), bot="tactician")
    assert seen and len(analysis.decisions) == 30
    for observation in seen:
        others = [hand for colour, hand in enumerate(observation.position.hands) if colour != observation.seat]
        assert observation.hand and not any(others)


@pytest.mark.parametrize(
    ("rules", "text", "card", "better", "other", "expected"),
    [
        (  # declining the switch is not "moving the 11 forward": nothing can move 11 here
            "classic",
            "R:home,home,S4,58 B:home,home,home,start Y:home,S1,30,19 G:home,home,home,start turn:R",
            11,
            "11 pass",
            "11 58x30",
            "Don't switch: it takes your pawn 28 squares back, and an 11 never forces a switch",
        ),
        (  # a hand game: the better move plays another card, not an 11 forward; the switch
            # would put Yellow's pawn 2 behind Red's on 45
            "adult",
            "R:45,43,start,start Y:30,start,start,start turn:R hand:R:2,3,5,7,11",
            None,
            "2 start-4",
            "11 43x30",
            "Stay out of reach: Yellow's pawn on 43 could bump yours on 45 with a 2",
        ),
        (  # the switch would carry Red's last pawn most of a lap
            "classic",
            "R:home,home,home,7 Y:home,home,30,49 turn:Y",
            11,
            "11 49-0",
            "11 49x7",
            "Don't switch with Red's pawn: it would take that pawn 42 squares nearer Home",
        ),
        (  # the switched pawn is swept from where it stood before the switch, 22 from Home, not 19
            "classic",
            "R:19,start,start,start Y:16,start,start,start turn:R",
            11,
            "11 19x16",
            "11 19-30",
            "Bump before you are bumped: Yellow's pawn 22 from Home was in reach of yours",
        ),
        (  # Red does not slide: the Yellow pawn the switch puts on Red's slide does
            "classic",
            "R:1,30,start,start Y:4,start,start,start turn:R",
            11,
            "11 30-41",
            "11 1x4",
            "Don't switch there: Yellow's pawn lands on the slide at 1 and sweeps yours to Start",
        ),
        (  # with partners, the partner's pawn goes back, not "your pawn"
            "partners",
            "R:home,home,home,home B:home,home,S3,16 Y:home,home,19,4 G:home,home,home,home turn:G",
            11,
            "11 pass",
            "11 16x4",
            "Don't switch: it takes your partner's pawn 12 squares back, and an 11 never forces a switch",
        ),
        (
            "partners",
            "R:home,home,home,home B:home,home,S3,16 Y:home,home,19,4 G:home,home,home,home turn:G",
            11,
            "11 pass",
            "11 16x19",
            "Don't switch there: Yellow's pawn lands on the slide at 16 and sweeps your partner's pawn to Start",
        ),
        (  # the Fire taken from the opponent
            "modern",
            "R:home,home,S1 Y:home,17,47 turn:R fire:Y17 ice:Y47",
            2,
            "2 fire:S1 S1-S3",
            "2 S1-S3",
            "Take the Fire from Yellow's pawn 21 from Home: it would jump to a corner before each draw",
        ),
        (  # the Fire on the pawn going Home now goes back to the centre unused (the other is iced)
            "modern",
            "R:home,home,53 B:home,home,19 Y:home,S4,29 turn:Y fire:B19 ice:Y29",
            2,
            "2 fire:29 S4-home",
            "2 fire:S4 S4-home",
            "Put the Fire on your pawn 9 from Home: on the pawn going Home now it is lost unused",
        ),
        (  # the Fire on the pawn nearest Home: it gets Home first and brings another with it
            "modern",
            "R:home,S5,S2 B:home,home,15 Y:home,home,56 turn:R ice:Y56",
            2,
            "2 fire:S5 S2-S4",
            "2 fire:S2 S2-S4",
            "Put the Fire on your pawn nearest Home: at Home it brings another pawn Home with it",
        ),
        (  # a hand game's 2 gives one more play: play it first and keep the 4
            "adult",
            "R:home,home,51,start B:home,home,S4,14 Y:home,S5,S3,34 turn:Y hand:Y:2,2,4,7,8",
            None,
            "2 34-36",
            "4 34-30",
            "Play the 2 first: you play one more card after it, and you still hold your 4",
        ),
        (  # the switch would take Blue's pawn from near its Start to 9 from Home
            "modern",
            "R:home,home,5 B:S4,33,27 Y:home,home,14 turn:Y ice:R5",
            11,
            "11 14-25",
            "11 14x27",
            "Don't switch with Blue's pawn: it would take that pawn 47 squares nearer Home",
        ),
    ],
)
def test_reasons_found_by_playing_are_true_of_the_board(
    rules: str, text: str, card: int | None, better: str, other: str, expected: str
) -> None:
    game_rules, position = parse_rules(rules), parse_position(text)
    found = hand_moves(game_rules, position) if card is None else legal_moves(game_rules, position, card)
    moves = {format_move(position, move): move for move in found}
    assert reason(game_rules, position, moves[better], moves[other], 0.05) == expected


def test_a_finished_games_chances_end_at_its_result(analysis: Analysis) -> None:
    """The graph and the table end where the game did: the winner at 100%, the loser at 0%,
    not at the chances before the last card."""
    lines = format_analysis(analysis, top=0, marks=coach.MARKS).splitlines()
    winner, loser = (RED, YELLOW) if analysis.winner == RED else (YELLOW, RED)
    graph = {line.split()[0]: line for line in lines if line.startswith("  ") and "%, " in line}
    assert graph[coach.COLOUR_NAMES[winner].capitalize()].endswith("█ 100%, won")
    assert graph[coach.COLOUR_NAMES[loser].capitalize()].endswith("▁   0%, lost")
    assert "and the end" in lines[2]
    table = lines[lines.index(next(line for line in lines if line.startswith("  turn"))) :]
    assert table[0].endswith("end")
    assert {row.split()[0]: row.split()[-1] for row in table[1:3]} == {
        coach.COLOUR_NAMES[winner].capitalize(): "100%",
        coach.COLOUR_NAMES[loser].capitalize(): "0%",
    }


# ------------------------------------------------------------------ what an audit found


THREE = "R:20,38,start,start Y:45,start,start,start G:10,start,start,start turn:R"  # Green leads


@pytest.mark.parametrize(
    ("text", "better", "other", "expected"),
    [
        (  # both switch with Yellow's pawn on 45: from 20 Red gains 25 (not 7), but Yellow's pawn
            # comes 35 squares nearer Home; from 38 it goes 7 back
            THREE,
            "11 38x45",
            "11 20x45",
            "Don't switch your pawn on 20: it would take Yellow's pawn 35 squares nearer Home",
        ),
        (  # a switch that gains Red 7 against an 11 forward that gains 11: what it does to Yellow
            THREE,
            "11 38x45",
            "11 38-49",
            "Switch with Yellow's pawn (11): it sets that pawn 7 squares back",
        ),
        (  # the switch that gains more still says so
            THREE,
            "11 20x45",
            "11 38x10",
            "Switch with Yellow's pawn (11): it takes you 25 squares nearer Home",
        ),
        (  # as in the audit's game: Red's pawn on 4 gains more switching with Blue's pawn on 49
            # (45 squares against 26) but takes it 15 squares nearer Home; from 23 it goes 26 back
            "R:4,23,start,start B:49,start,start,start turn:R",
            "11 23x49",
            "11 4x49",
            "Don't switch your pawn on 4: it would take Blue's pawn 15 squares nearer Home",
        ),
        (  # one pawn, two pawns to switch with: Yellow's would come 28 squares nearer Home
            "R:23,start,start,start B:49,start,start,start Y:55,start,start,start turn:R",
            "11 23x49",
            "11 23x55",
            "Don't switch with Yellow's pawn on 55: it would take that pawn 28 squares nearer Home",
        ),
    ],
)
def test_a_switch_is_never_praised_for_a_gain_the_other_move_beats(
    text: str, better: str, other: str, expected: str
) -> None:
    """The reason is what the two moves differ in: where the better switch gains the player
    less, it is what each does to the opponent's pawn, never "it takes you 7 squares nearer Home"
    against a move that takes the player 25 squares nearer."""
    position = parse_position(text)
    why = reason(CLASSIC, position, named(position, 11, better), named(position, 11, other), 0.05)
    assert why == expected


def test_nobody_is_the_leader_when_nobody_leads() -> None:
    """The first move of an adult game: Red's Sorry! bumps Yellow's only pawn out, 64 from Home
    as Red's is: a bump, not a bump of the leader."""
    rules = parse_rules("adult")
    position = parse_position("R:4,start,start,start Y:34,start,start,start turn:R hand:R:1,3,5,12,sorry")
    moves = {format_move(position, move): move for move in hand_moves(rules, position)}
    why = reason(rules, position, moves["sorry start-34"], moves["1 4-5"], 0.05)
    assert why == "Bump: sends Yellow's pawn 64 from Home back to Start"
    # two opponents level, each with a pawn 10 from Home: neither leads
    level = parse_position("R:23,0,start,start Y:28,start,start,start G:43,start,start,start turn:R")
    why = reason(CLASSIC, level, named(level, 5, "5 23-28"), named(level, 5, "5 0-S3"), 0.05)
    assert why == "Bump: sends Yellow's pawn 10 from Home back to Start"


def test_moves_as_good_as_each_other_are_said_to_be() -> None:
    """Where the Ice goes makes no difference to tactician's chances here: the hint's reason says
    the two best moves are as good as each other, and claims no gain for either."""
    rules = parse_rules("modern")
    position = parse_position("R:50,40,start,start Y:45,20,start,start turn:Y")
    ranked = rank_moves(rules, position, 1, "tactician", random.Random(0))
    assert ranked[0][1] == pytest.approx(ranked[1][1], abs=coach.TIE / 10)
    second = format_move(position, ranked[1][0])
    assert best_reason(rules, position, ranked) == f"As good as {second}: either leaves you as likely to win"
    better, other = ranked[2][0], ranked[-1][0]  # not a tie: the reason says what the move does
    assert not reason(rules, position, better, other, 0.02).startswith("As good as")


def test_the_loss_shown_is_the_difference_of_the_chances_shown(analysis: Analysis) -> None:
    """35.27% -> 24.63% shows as 35% -> 25%, and so a loss of 10%, not the 11% of the unrounded
    chances."""
    mistake = analysis.mistakes[0]
    decision = replace(mistake.decision, best_chance=0.3527, played_chance=0.2463)
    shown = replace(analysis, mistakes=(replace(mistake, decision=decision),))
    assert "lost 10% (35% -> 25%)" in format_analysis(shown, top=1)
    close = replace(mistake.decision, best_chance=0.504, played_chance=0.498)
    shown = replace(analysis, mistakes=(replace(mistake, decision=close),))
    assert "lost under 1% (50% -> 50%)" in format_analysis(shown, top=1)


def test_doubling_decisions_are_said_not_to_be_judged() -> None:
    """Point Scoring Sorry! with doubling: Red doubles at once, Yellow drops. The coach judges
    no doubling decision, so it does not say they were as good as its best."""
    game = Game.new(parse_rules("classic-1939(scoring=1939,doubling=true)"), (RED, YELLOW), 1)
    for answer in ("double", "drop"):
        game.play_trusted(next(move for move in game.legal_moves() if format_move(game.position, move) == answer))
    assert game.is_over
    text = format_analysis(analyse(record_of(game)))
    assert "as good as" not in text
    assert "No mistakes found for Red and Yellow: no card gave a choice of moves." in text
    assert "Doubling decisions (to double, accept or drop) are not judged: only cards are." in text
    assert "Win chance by turn (1 and the end;" in text  # both decisions were turn 1: not "1-1"
    assert all(len(line) <= 80 for line in text.splitlines())


def test_a_solo_game_is_not_judged() -> None:
    """Alone, the win chance is 100% all along: the coach says it does not judge the solo
    challenge rather than that every move was as good as its best."""
    game = Game.new(parse_rules("solo"), (RED,), 4)
    bot, rng = make_bot("greedy"), random.Random(4)
    while game.turns < 20:
        if game.awaiting_draw:
            game.draw()
        game.play_trusted(bot.choose(game.observe(game.decider), game.legal_moves(), rng))
    text = format_analysis(analyse(record_of(game)))
    assert "The coach judges games against opponents: the solo challenge is not judged." in text
    assert "No mistakes" not in text and "as good as" not in text


def test_a_partners_tip_about_the_partners_pawn_says_so() -> None:
    """With partners a player whose pawns are all Home moves the partner's: the tip said "your pawn"."""
    rules = parse_rules("partners")
    position = parse_position(
        "R:home,home,home,home B:start,start,start,start Y:36,10,start,start G:50,start,start,start turn:R"
    )
    moves = {format_move(position, move): move for move in legal_moves(rules, position, 4)}
    better, other = moves["4 36-32"], moves["4 10-6"]
    assert coach._backward_tip(rules, position, better, other) == (
        "Go backward 4 from near Start: it puts your partner's pawn 6 from Home, nearly a lap saved"
    )
