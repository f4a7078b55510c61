"""Random players over every preset and every kind of game the API can set up.

The home page offers the presets; the API takes any rules text, so any combination of
options, and any seats.  All combinations are far too many to play (some 10^5), so
the games are played over:

* every preset, as the home page offers it;
* every *family* of rules — the options that change the flow of a game: partners
  (split 7 over ``two`` or ``any`` pawns), hands of five, Fire and Ice, doubling (with
  Point Scoring), the solo challenge — in every combination the rules allow;
* combined with the other options so that every pair of values of any two options
  (family, deck, pawns, pawns out, the 2, slides, switches, leader, leaving Start,
  Sorry!'s forward 4, scoring) is played at least once (a pairwise covering set).

Each game has seeded random players: the games of a combination take each number of
players the rules allow in turn, in colours drawn at random, and every decision is
drawn among the legal ones (a double now and then, accepted or dropped at random).
After every decision the invariants of ``invariants.py`` must hold, and every finished
game's record must read back identically through the notation and replay to the same
position.

About 100 combinations of 3 games each take a few minutes on one core;
``PARDON_ALL_OPTIONS_GAMES`` sets the games per combination for a deeper run.
"""

from __future__ import annotations

import itertools
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from module_loader import load_module
from pardon.core import Game, InvalidError, Position, Rules, format_record, parse_record, record_of, replay
from pardon.core.board import COLOURS
from pardon.core.game import ANSWERING
from pardon.core.jsonio import parse_json, position_from_json, position_to_json
from pardon.core.moves import ACCEPT, DOUBLE, DROP
from pardon.core.notation import format_position, parse_position
from pardon.core.rules import LEADER_CHOICES, LEAVE_START_CHOICES, PRESETS, SCORING_CHOICES, SLIDE_RIDERS, to_text

invariants = load_module(Path(__file__).resolve().parent / "invariants.py")  # tests are not a package

GAMES = int(os.environ.get("PARDON_ALL_OPTIONS_GAMES", "3"))
TURN_LIMIT = 5000  # decisions; far beyond any real game
DOUBLE_CHANCE = 0.15  # a random player doubles now and then, so that doubled games also end on the board
ACCEPT_CHANCE = 0.7

#: The options that change how a game flows, in every combination the rules allow.
FAMILY_OPTIONS: dict[str, tuple[Any, ...]] = {
    "partners": (False, "two", "any"),
    "hand": (0, 5),
    "tokens": (False, True),
    "doubling": (False, True),
    "solo": (False, True),
}
#: The other options, each with every value it can take.
OTHER_OPTIONS: dict[str, tuple[Any, ...]] = {
    "deck": (44, 45, 55),
    "pawns": (3, 4),
    "pawns_out": (0, 1),
    "draw_again_on_2": (True, False),
    "slide_riders": SLIDE_RIDERS,
    "switched_opponent_slides": (True, False),
    "leader": LEADER_CHOICES,
    "leave_start": LEAVE_START_CHOICES,
    "sorry_forward_4": (False, True),
    "scoring": SCORING_CHOICES,
}


def family_options(family: dict[str, Any]) -> dict[str, Any]:
    """A family as rules options (doubling is played with Point Scoring)."""
    options = {key: value for key, value in family.items() if key != "partners"}
    options["partners"] = family["partners"] is not False
    if options["partners"]:
        options["partner_split"] = family["partners"]
    return options


def make_rules(options: dict[str, Any]) -> Rules | None:
    """The rules of ``options``, or None when the rules refuse the combination."""
    if options.get("doubling"):
        options = {**options, "scoring": "1939"}
    try:
        return Rules(**options)
    except InvalidError:
        return None


def families() -> list[dict[str, Any]]:
    found = []
    for values in itertools.product(*FAMILY_OPTIONS.values()):
        family = dict(zip(FAMILY_OPTIONS, values, strict=True))
        if make_rules(family_options(family)) is not None:
            found.append(family)
    return found


def family_of(rules: Rules) -> tuple[Any, ...]:
    """The family of some rules, as in ``FAMILY_OPTIONS``."""
    return (rules.partners and rules.partner_split, rules.hand, rules.tokens, rules.doubling, rules.solo)


def pairwise_rules() -> list[Rules]:
    """Rules covering every pair of values of two factors (the family is one factor)
    that valid rules can have, chosen greedily among seeded random candidates."""
    every_family = families()
    factors: dict[str, tuple[Any, ...]] = {"family": tuple(range(len(every_family))), **OTHER_OPTIONS}

    def pairs(rules: Rules) -> set[tuple[str, Any, str, Any]]:
        values = {"family": family_of(rules), **{name: getattr(rules, name) for name in OTHER_OPTIONS}}
        return {(a, values[a], b, values[b]) for a, b in itertools.combinations(values, 2)}

    rng = random.Random("pairwise")
    covered: set[tuple[str, Any, str, Any]] = set()
    chosen: list[Rules] = []
    fruitless = 0  # rounds that covered nothing new: only pairs no valid rules have are left
    while fruitless < 3:
        best: tuple[int, Rules | None, set[tuple[str, Any, str, Any]]] = (0, None, set())
        for _ in range(200):
            choice = {name: rng.choice(values) for name, values in factors.items()}
            options = {name: choice[name] for name in OTHER_OPTIONS}
            rules = make_rules({**options, **family_options(every_family[choice["family"]])})
            new = set() if rules is None else pairs(rules) - covered
            if len(new) > best[0]:
                best = (len(new), rules, new)
        _, rules, new = best
        if rules is None:
            fruitless += 1
            continue
        fruitless = 0
        covered |= new
        chosen.append(rules)
    return chosen


def combinations() -> list[Rules]:
    """Every preset, every family on the classic game, then the pairwise set."""
    found = list(PRESETS.values())
    for family in families():
        rules = make_rules(family_options(family))
        assert rules is not None
        found.append(rules)
    found += pairwise_rules()
    return list(dict.fromkeys(found))  # each once


COMBINATIONS = combinations()


def seats_for_game(rules: Rules, number: int, rng: random.Random) -> tuple[int, ...]:
    """Each number of players the rules allow in turn, in colours drawn at random (the
    API lets the players choose their colours)."""
    players = rules.players[number % len(rules.players)]
    return tuple(sorted(rng.sample(COLOURS, players)))


def choose(game: Game, rng: random.Random) -> int:
    """A random player's choice among ``game.legal_moves()``: any move, but a double
    only now and then, and accepted more often than dropped."""
    moves = game.legal_moves()
    if game.stage == ANSWERING:
        answer = ACCEPT if rng.random() < ACCEPT_CHANCE else DROP
        return next(index for index, move in enumerate(moves) if move.actions[0].kind == answer)
    doubles = [index for index, move in enumerate(moves) if move.actions and move.actions[0].kind == DOUBLE]
    if doubles and rng.random() < DOUBLE_CHANCE:
        return doubles[0]
    others = [index for index in range(len(moves)) if index not in doubles]
    return rng.choice(others)


def play_checked(rules: Rules, seats: tuple[int, ...], seed: int, rng: random.Random) -> Game:
    """One random game, every invariant checked after every decision."""
    game = Game.new(rules, seats, seed)
    while not game.is_over:
        assert game.turns < TURN_LIMIT, f"game {seed} does not end"
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        assert moves, "a decision always has a choice, if only a pass"
        for legal in moves:  # a move's result never gives the turn to a player who dropped out
            assert legal.result.winner is not None or legal.result.turn not in legal.result.out
        before, mover = game.position, game.decider
        move = moves[choose(game, rng)]
        game.play_trusted(move)
        after = game.position
        invariants.check_invariants(before, after, rules.pawns)
        invariants.check_variant_invariants(rules, game, before, move)
        invariants.check_own_pawns_only_swept(mover, move)
        assert parse_position(format_position(after)) == after, "the position does not read back"
        if game.turns % 7 == 0:
            assert read_back(rules, after) == (rules, after), "the position's JSON does not read back"
        assert game.is_over or game.decider not in after.out, "a player who dropped out has a decision"
    return game


def check_finished(rules: Rules, game: Game) -> None:
    """The end of a game: a winner, the position valid, its record and its JSON read back."""
    position = game.position
    assert game.winner is not None and game.legal_moves() == []
    assert game.decider in position.seats
    if not (rules.doubling and position.out):  # else the last player in won on the spot
        team = (game.winner, (game.winner + 2) % 4) if rules.partners else (game.winner,)
        assert all(pawn == 0 for member in team for pawn in position.pawns[member]), "a winner without every pawn Home"
    text = format_record(record_of(game))
    record = parse_record(text)
    assert record == record_of(game)
    replayed = replay(record)
    assert replayed.position == position and replayed.pack == game.pack
    assert format_record(record_of(replayed)) == text
    assert replayed.points == game.points
    assert read_back(rules, position) == (rules, position)


def read_back(rules: Rules, position: Position) -> tuple[Rules, Position]:
    """A position written as JSON text (docs/json.md) and read again."""
    return position_from_json(parse_json(json.dumps(position_to_json(rules, position))))


@pytest.mark.slow
@pytest.mark.parametrize("rules", COMBINATIONS, ids=[to_text(rules) for rules in COMBINATIONS])
def test_random_games_keep_every_invariant_and_replay(rules: Rules) -> None:
    for number in range(GAMES):
        rng = random.Random(f"all-options:{to_text(rules)}:{number}")
        seed = rng.randrange(2**32)
        game = play_checked(rules, seats_for_game(rules, number, rng), seed, rng)
        check_finished(rules, game)


def test_the_combinations_cover_every_family_and_every_option_value() -> None:
    assert len(COMBINATIONS) == len(set(COMBINATIONS))
    assert {family_of(rules) for rules in COMBINATIONS} == {tuple(family.values()) for family in families()}
    assert len(families()) == 20
    for option, values in OTHER_OPTIONS.items():
        assert {getattr(rules, option) for rules in COMBINATIONS} == set(values), option
    assert set(PRESETS.values()) <= set(COMBINATIONS)
