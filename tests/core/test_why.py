"""Why a move is not allowed: each refusal names the rule, in a player's words; and why a pawn
cannot go where a player points."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator

import pytest

from pardon.core import Game, IllegalError, Position, Rules, parse_card, parse_move, parse_position, parse_rules
from pardon.core.board import BLUE, COLOUR_NAMES, DISTANCE, HOME, RED, SAFETY_LENGTH, START, TRACK_LENGTH, partner
from pardon.core.cards import CARDS, card_name
from pardon.core.game import CARD
from pardon.core.moves import BONUS_HOME, BUMP_FROM_START, STEP, SWITCH, legal_moves
from pardon.core.notation import format_position, parse_location
from pardon.core.state import seats_for
from pardon.core.why import why_pawn_cannot_go, why_pawn_cannot_move
from pardon.web.views import moves_json, pawn_key, view_json, why_not_there

CLASSIC = parse_rules("classic")
POSITION = "R:20,S2,4,start Y:25,S1,start,start turn:R"


@pytest.mark.parametrize(
    ("card", "text", "reason"),
    [
        ("5", "5 21-26", "you have no pawn at square 21"),
        ("5", "5 S2-home", "needs the exact count to reach Home"),
        ("5", "5 start-4", "only a 1, a 2 or a Sorry! brings a pawn out of Start"),
        ("1", "1 start-4", "your own pawn is on your start exit"),
        ("5", "5 20-26", "with a 5 the pawn on 20 can go to 25 only"),
        ("7", "7 20-23 20-24", "a split 7 moves two different pawns"),
        ("7", "7 start-5 20-26", "a split 7 never brings a pawn out of Start"),
        ("5", "5 20-25 S2-home", "only a 7 can be split"),
        ("sorry", "sorry start-30", "there is no opponent's pawn on square 30"),
        ("sorry", "sorry start-S1", "only pawns on the track can be bumped"),
        ("sorry", "sorry 20-24", "a Sorry! moves a pawn from your Start"),
        ("11", "11 20x4", "you cannot bump or switch your own pawn"),
        ("4", "4 home-S1", "you have no pawn at Home"),
        ("3", "3 pass", "a card that can be used must be used"),
        ("11", "11 pass", "the 11 must be used: move 11 or switch"),
        ("4", "4 Y:25-21", "you can move only your own pawns"),
    ],
)
def test_an_illegal_move_says_which_rule_forbids_it(card: str, text: str, reason: str) -> None:
    position = parse_position(POSITION)
    with pytest.raises(IllegalError) as refused:
        parse_move(CLASSIC, position, parse_card(card), text)
    assert reason in str(refused.value)


def test_home_pawns_are_named() -> None:
    position = parse_position("R:home,S2,4,start Y:25,S1,start,start turn:R")
    with pytest.raises(IllegalError, match="Home never moves again"):
        parse_move(CLASSIC, position, 4, "4 home-S1")


@pytest.mark.parametrize(
    ("rules", "text", "reason"),
    [
        ("classic", "7 20-22 30-32 40-43", "a 7 is split between two pawns at most"),
        ("partners(partner_split=any)", "7 20-22 30-32 40-44", "the parts must add up to 7"),
        ("partners(partner_split=any)", "7 20-22 20-23 40-42", "each part of a split 7 moves a different pawn"),
        ("partners(partner_split=any)", "5 20-22 30-33", "only a 7 can be split"),
    ],
)
def test_a_split_among_any_pawns_is_explained_by_its_own_rule(rules: str, text: str, reason: str) -> None:
    position = parse_position(
        "R:20,30,40,start B:start,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    card = 5 if text.startswith("5") else 7
    with pytest.raises(IllegalError) as refused:
        parse_move(parse_rules(rules), position, card, text)
    assert reason in str(refused.value)
    assert "two pawns" not in str(refused.value) or rules == "classic"


def test_a_split_among_three_pawns_is_legal_with_any_split() -> None:
    position = parse_position(
        "R:20,30,40,start B:start,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    move = parse_move(parse_rules("partners(partner_split=any)"), position, 7, "7 20-22 30-32 40-43")
    # Written in another order than legal_moves lists it, the same outcome is found.
    assert sorted((action.origin, action.end) for action in move.actions) == [(28, 25), (38, 36), (48, 46)]


@pytest.mark.parametrize(
    ("red", "card", "text", "reason"),
    [
        # The 2013 Sorry! may move a pawn forward 4: past Home it needs the exact count.
        ("S3,8,start", "sorry", "sorry S3-home", "needs the exact count to reach Home: it is 3 from Home, not 4"),
        # Any forward card leaves Start, counting the circle: the 5 comes out onto 8.
        ("S3,8,start", "5", "5 start-8", "your own pawn is on square 8, where a 5 brings a pawn out"),
        ("S3,4,start", "1", "1 start-4", "your own pawn is on your start exit"),
    ],
)
def test_2013_refusals_name_the_2013_rule(red: str, card: str, text: str, reason: str) -> None:
    position = parse_position(f"R:{red} Y:30,start,start turn:R")
    with pytest.raises(IllegalError) as refused:
        parse_move(parse_rules("modern-no-tokens"), position, parse_card(card), text)
    assert reason in str(refused.value)


@pytest.mark.parametrize(
    ("rules", "text", "card", "move", "reason"),
    [
        # the iced pawn cannot be switched, nor bumped by a Sorry! (it said "not allowed here")
        ("modern", "R:20,22,start Y:10,start,start turn:R ice:Y10", "11", "11 20x10", "10 is frozen by the Ice"),
        # a partner's pawn is no opponent's: no switch with it
        (
            "partners",
            "R:20,start,start,start B:start,start,start,start Y:40,start,start,start G:start,start,start,start turn:R",
            "11",
            "11 20x40",
            "the pawn on square 40 is your partner's: only an opponent's pawn can be switched",
        ),
    ],
)
def test_a_pawn_that_cannot_be_switched_says_why(rules: str, text: str, card: str, move: str, reason: str) -> None:
    with pytest.raises(IllegalError) as refused:
        parse_move(parse_rules(rules), parse_position(text), parse_card(card), move)
    assert reason in str(refused.value)


# --- the reason agrees with the legal moves ---------------------------------------------------
#
# ``why_pawn_cannot_move`` is None exactly when some legal move of the card moves the pawn
# (steps it, switches it, brings it out with a Sorry!, or sends it Home after the Fire pawn):
# what the app says about a pawn is then never contradicted by the moves it offers.  Checked
# over every position of seeded random games of every preset and some option combinations,
# for every card and every pawn of the player to move (and of their partner).

#: A legal move's actions that move a pawn (placing a token on a pawn does not move it).
PAWN_ACTIONS = frozenset((STEP, SWITCH, BUMP_FROM_START, BONUS_HOME))
#: (rules, players, games in the quick loop): every preset, and the options that change what a
#: card may do.  Partners with options plays one game quickly: its positions take longest.
WHY_RUNS = [
    ("classic", 4, 2),
    ("classic", 2, 2),
    ("classic-1939", 3, 2),
    ("partners", 4, 2),
    ("partners(partner_split=any)", 4, 2),
    ("adult", 4, 2),
    ("modern", 4, 2),
    ("modern", 2, 2),
    ("modern-no-tokens", 3, 2),
    ("solo", 1, 2),
    ("classic(pawns=3)", 3, 2),
    ("classic(leave_start=forward-count)", 4, 2),
    ("classic(leave_start=forward-circle,sorry_forward_4=true)", 3, 2),
    ("classic(slide_riders=own,switched_opponent_slides=false)", 4, 2),
    ("modern(slide_riders=others,switched_opponent_slides=false)", 3, 2),
    ("partners(leave_start=forward-count,sorry_forward_4=true)", 4, 1),
    ("adult(tokens=true,pawns=3)", 3, 2),
]
#: Games per run in the slow loop (the quick loop checks some 8,000 positions in all).
SLOW_WHY_GAMES = int(os.environ.get("PARDON_WHY_GAMES", "2"))
#: What a Python value looks like when it leaks into a sentence.
REPR = re.compile(r"[\[\]{}<>]|\(\d|\bNone\b|\bTrue\b|\bFalse\b|Action|Move|Position|\\|_")


def card_positions(rules: Rules, players: int, seed: int) -> Iterator[Game]:
    """The game at each decision with a card of a seeded random game (a random move each time)."""
    game = Game.new(rules, seats_for(players), seed)
    rng = random.Random(seed)
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        if game.stage == CARD:
            yield game
        moves = game.legal_moves()
        game.play_trusted(moves[rng.randrange(len(moves))])


def team_of(rules: Rules, position: Position) -> tuple[int, ...]:
    return (position.turn, partner(position.turn)) if rules.partners else (position.turn,)


def check_reason(reason: str) -> None:
    """A reason is one clause in a player's words (the client adds the full stop)."""
    assert reason.strip() == reason and reason, f"empty or padded reason {reason!r}"
    assert not reason.endswith("."), reason
    assert not REPR.search(reason), f"a Python value in {reason!r}"


def check_position_reasons(rules: Rules, position: Position) -> int:
    """Every card, every pawn of the team to move: a reason exactly when no legal move moves it."""
    checked = 0
    for card in CARDS:
        moved = {
            (action.colour, action.origin)
            for move in legal_moves(rules, position, card)
            for action in move.actions
            if action.kind in PAWN_ACTIONS
        }
        for colour in team_of(rules, position):
            for origin in sorted(set(position.pawns[colour])):
                reason = why_pawn_cannot_move(rules, position, card, origin, colour)
                where = f"{format_position(position)} {rules.name} card {card} pawn {colour}/{origin}"
                assert (reason is None) == ((colour, origin) in moved), f"{where}: said {reason!r}"
                if reason is not None:
                    check_reason(reason)
                checked += 1
    return checked


#: The quick loop's games are the first of the slow loop's (the same seeds): a run with the slow
#: cases (CI) skips the quick ones.
WHY_CASES = [pytest.param(text, players, games, id=f"{text}-{players}p") for text, players, games in WHY_RUNS] + [
    pytest.param(text, players, max(SLOW_WHY_GAMES, games), id=f"{text}-{players}p-slow", marks=pytest.mark.slow)
    for text, players, games in WHY_RUNS
]


@pytest.mark.parametrize(("text", "players", "games"), WHY_CASES)
def test_a_pawn_has_a_reason_exactly_when_no_legal_move_moves_it(
    text: str, players: int, games: int, request: pytest.FixtureRequest
) -> None:
    if not request.node.callspec.id.endswith("-slow") and "not slow" not in str(request.config.getoption("-m")):
        pytest.skip("the slow case checks these games too")
    rules = parse_rules(text)
    checked = 0
    for seed in range(games):
        for game in card_positions(rules, players, seed):
            checked += check_position_reasons(rules, game.position)
    assert checked > 100


@pytest.mark.parametrize(("text", "players"), [("classic", 3), ("partners", 4), ("adult", 4), ("modern", 4)])
def test_the_server_gives_a_reason_exactly_for_the_pawns_its_moves_leave_still(text: str, players: int) -> None:
    """The browser's ``why_not`` (per card, per pawn key) agrees with the moves it is sent."""
    rules = parse_rules(text)
    states = 0
    for seed in range(2):
        for game in card_positions(rules, players, seed):
            viewer = game.decider
            state = view_json(game, viewer, moves_json(game, game.legal_moves()))
            why_not = state["why_not"]
            cards = [game.card] if game.card is not None else sorted(set(game.position.hands[viewer]))
            assert set(why_not) == {card_name(card) for card in cards}
            for card in cards:
                name = card_name(card)
                movable = {
                    action["pawn"]
                    for move in state["moves"]
                    if move["card"] == name
                    for action in move["actions"]
                    if action["kind"] in ("step", "switch", "sorry", "bonus-home")
                }
                position = game.position
                keys = {
                    pawn_key(colour, distance)
                    for colour in team_of(rules, position)
                    for distance in position.pawns[colour]
                }
                assert set(why_not[name]) == keys - movable, (format_position(position), name)
                for reason in why_not[name].values():
                    check_reason(reason)
            states += 1
    assert states > 50


# --- what the property test found --------------------------------------------------------------


@pytest.mark.parametrize(
    ("rules", "position", "card", "pawn", "reason"),
    [
        # A pawn nearer Home than 7 can take part of a split 7 (it was "needs the exact count").
        ("classic", "R:S1,20,start,start Y:30,start,start,start turn:R", "7", "S1", None),
        # A 1 first moves the Ice on, so it thaws the player's own iced pawn (it was "frozen").
        ("modern", "R:12,4,start B:45,23,start Y:5,57,40 G:59,50,start turn:B fire:G59 ice:B45", "1", "45", None),
        # The Fire pawn's 2 takes it Home, and this pawn follows it straight Home (it was "exact count").
        ("modern", "R:home,19,6 B:57,28,start Y:20,4,46 G:S5,S4,58 turn:G fire:R19 ice:Y46", "2", "S5", None),
        # Yellow's (the partner's) pawn on its start exit can go back 4; Red's on square 4 cannot
        # (the reason read the partner's move as Red's, and said nothing).
        (
            "partners",
            "R:home,0,4,start B:start,start,start,start Y:S4,34,start,start G:43,start,start,start turn:R",
            "4",
            "4",
            "square 4 cannot use a 4: it would land on your own pawn",
        ),
        # Putting the Fire on a pawn does not move it (the reason said nothing).
        (
            "modern",
            "R:11,start,start B:5,start,start Y:45,43,start G:56,start,start turn:Y fire:R11",
            "2",
            "43",
            "square 43 cannot use a 2: it would land on your own pawn",
        ),
        # The Ice blocks the square a 2013 card brings a pawn out onto (the reason said nothing).
        (
            "modern",
            "R:11,5,start B:13,46,19 Y:25,41,34 G:15,58,start turn:R ice:G15",
            "12",
            "start",
            "A 12 brings this pawn out onto square 15, and it would land on square 15, blocked by the Ice",
        ),
        # A 1 must first put the Ice on the only opponent's pawn, just where the pawn comes out.
        (
            "modern",
            "R:34,start,start Y:start,start,start turn:Y",
            "1",
            "start",
            "blocked by the Ice, which the 1 first puts on the only opponent's pawn",
        ),
        # Back 4, the pawn slides back to where it began: the same outcome as the 13's, listed once
        # (it was "would land on your own pawn").
        (
            "classic",
            "R:S2,start,start,start Y:home,S3,13,58 turn:Y",
            "4",
            "58",
            "ends just as moving the pawn on square 13 does, and one outcome is one move",
        ),
        # An 11 within 11 of Home can only switch, and there is no one to switch with (it was
        # "would land on your own pawn").
        (
            "classic",
            "R:S3,start,start,start B:start,start,start,start Y:home,29,19,start G:home,S4,start,start turn:Y",
            "11",
            "29",
            "a pawn needs the exact count to reach Home, and it has no opponent's pawn it may switch with",
        ),
        # Not its own pawn but the Ice at the slide's end blocks it.
        (
            "modern",
            "R:S4,24,17 B:S3,8,19 Y:15,44,42 G:47,25,50 turn:B fire:G25 ice:B19",
            "4",
            "S3",
            "S3 cannot use a 4: it would land on square 16 and slide on to square 19, blocked by the Ice",
        ),
    ],
)
def test_found_by_the_property(rules: str, position: str, card: str, pawn: str, reason: str | None) -> None:
    found = parse_position(position)
    said = why_pawn_cannot_move(parse_rules(rules), found, parse_card(card), parse_location(found.turn, pawn))
    if reason is None:
        assert said is None
    else:
        assert said is not None and reason in said


def test_a_partners_pawn_is_explained_as_the_partners() -> None:
    rules = parse_rules("partners")
    position = parse_position(
        "R:home,start,start,start B:S5,27,start,start Y:home,start,start,start G:home,21,19,49 turn:G"
    )
    said = why_pawn_cannot_move(rules, position, 1, START, BLUE)
    assert said == (
        "A 1 brings this pawn out onto square 19, and it would land on your own pawn, "
        "and your partner's pawn may not land on yours"
    )
    assert why_pawn_cannot_move(rules, position, 1, START, RED) == "you can move only your own pawns and your partner's"


# --- why a pawn cannot go where a player points ------------------------------------------------
#
# ``why_pawn_cannot_go`` is None exactly when a legal move of the card takes the pawn there
# (landing on the square, or sliding on to it), so what the board says when a square is chosen
# is never contradicted by the moves it offers.
GOING = "R:20,25,start,start B:30,start,start,start turn:R"


def square(number: int, colour: int = 0) -> tuple[int, int]:
    """A track square as a place (named through ``colour``; any colour names it)."""
    return colour, DISTANCE[colour][number]


def places(position: Position) -> list[tuple[int, int]]:
    """Every place a player may point at: each track square, and each seated colour's Safety
    Zone, Home and Start."""
    track = [square(number, position.turn) for number in range(TRACK_LENGTH)]
    own = [(colour, distance) for colour in position.seats for distance in (*range(HOME, SAFETY_LENGTH + 1), START)]
    return track + own


def reached(rules: Rules, position: Position, card: int, colour: int, origin: int) -> set[tuple[int, int]]:
    """The places the card's legal moves take the pawn: where it lands, and where a slide ends."""
    found = set()
    for move in legal_moves(rules, position, card):
        for action in move.actions:
            if action.kind in PAWN_ACTIONS and action.colour == colour and action.origin == origin:
                found |= {(colour, action.landing), (colour, action.end)}
    return found


def same_place(colour: int, place: tuple[int, int]) -> tuple[int, int]:
    """A place as a pawn of ``colour`` counts it (a track square through its colour)."""
    place_colour, distance = place
    if HOME < distance < START and distance > SAFETY_LENGTH:
        number = next(n for n in range(TRACK_LENGTH) if DISTANCE[place_colour][n] == distance)
        return colour, DISTANCE[colour][number]
    return place


@pytest.mark.parametrize(("text", "players"), [(text, players) for text, players, _ in WHY_RUNS])
def test_a_place_has_a_reason_exactly_when_no_legal_move_takes_the_pawn_there(text: str, players: int) -> None:
    rules = parse_rules(text)
    checked = 0
    for game in card_positions(rules, players, seed=1):
        position = game.position
        cards = [game.card] if game.card is not None else sorted(set(position.hands[position.turn]))
        for card in cards:
            moves = legal_moves(rules, position, card)
            for colour in team_of(rules, position):
                for origin in sorted(set(position.pawns[colour]) - {HOME}):
                    goes = reached(rules, position, card, colour, origin)
                    for place in places(position):
                        reason = why_pawn_cannot_go(rules, position, card, origin, place, colour, moves)
                        where = f"{format_position(position)} {text} card {card} pawn {colour}/{origin} to {place}"
                        assert (reason is None) == (same_place(colour, place) in goes), f"{where}: said {reason!r}"
                        if reason is not None:
                            check_reason(reason)
                        checked += 1
    assert checked > 1000


@pytest.mark.parametrize(
    ("card", "pawn", "place", "reason"),
    [
        ("5", "25", square(29), "a 5 moves a pawn forward 5: this pawn to square 30"),
        ("5", "20", square(25), "square 20 cannot use a 5: it would land on your own pawn"),
        ("4", "25", square(29), "a 4 moves a pawn back 4: this pawn to square 21"),
        ("10", "25", square(24), None),
        ("10", "25", square(26), "a 10 moves a pawn forward 10 or back 1: this pawn to square 35 or square 24"),
        ("11", "25", square(30), None),  # a switch with Blue's pawn
        ("11", "25", square(31), "an 11 switches a pawn only with an opponent's pawn on the track"),
        ("7", "20", square(27), None),
        ("7", "20", square(25), "moving this pawn 5 of the 7 would land it on your own pawn"),
        ("7", "25", square(33), "a 7 moves a pawn forward 7, or two pawns forward 7 between them"),
        ("1", "start", square(5), "from Start, a 1 takes this pawn only to square 4"),
        ("sorry", "start", square(31), "from Start, a Sorry! takes this pawn only onto a pawn it may bump"),
        ("5", "25", (0, START), "a pawn goes back to Start only when it is bumped"),
        ("5", "25", (1, 3), "a pawn goes only into its own colour's Safety Zone and Home"),
        ("5", "25", (1, START), "a pawn goes back only to its own colour's Start"),
        ("5", "25", square(25), "the pawn is on that square already"),
    ],
)
def test_the_reason_names_what_the_card_does_and_what_is_in_the_way(
    card: str, pawn: str, place: tuple[int, int], reason: str | None
) -> None:
    position = parse_position(GOING)
    said = why_pawn_cannot_go(CLASSIC, position, parse_card(card), parse_location(0, pawn), place)
    if reason is None:
        assert said is None
    else:
        assert said is not None and said.startswith(reason), said


def test_the_end_of_a_slide_is_a_place_the_pawn_goes() -> None:
    # Red's pawn 3 squares before Blue's first slide (its triangle on square 16) slides to 19.
    position = parse_position("R:13,start,start,start B:40,start,start,start turn:R")
    origin = parse_location(0, "13")
    assert why_pawn_cannot_go(CLASSIC, position, 3, origin, square(16)) is None
    assert why_pawn_cannot_go(CLASSIC, position, 3, origin, square(19)) is None
    said = why_pawn_cannot_go(CLASSIC, position, 3, origin, square(17))
    assert said is not None and said.startswith("a 3 moves a pawn forward 3: this pawn to square 16")


@pytest.mark.parametrize(("text", "players"), [("partners(partner_split=any)", 4), ("adult", 3), ("modern", 4)])
def test_the_server_answers_from_the_moves_it_keeps_as_from_the_rules(text: str, players: int) -> None:
    """The server answers "why not there?" from the legal moves it keeps for the game's state
    (a partners' 7 has hundreds): the same answers as working them out afresh."""
    rules = parse_rules(text)
    checked = 0
    for game in card_positions(rules, players, seed=3):
        viewer = game.decider
        offered = game.legal_moves()
        cards = [game.card] if game.card is not None else sorted(set(game.position.hands[viewer]))
        for card in cards:
            for distance in sorted(set(game.position.pawns[viewer]) - {HOME}):
                for to in ("red:30", "red:S2", f"{COLOUR_NAMES[viewer]}:home", "blue:12"):
                    asked = (game, viewer, card_name(card), pawn_key(viewer, distance), to)
                    assert why_not_there(*asked, offered) == why_not_there(*asked)
                    checked += 1
    assert checked > 100
