"""Picking a decision step by step: split 7s in either order, the 11's switches, Sorry! targets,
hands, tokens, why not; and the server's move objects read into the same choices as the engine's."""

from __future__ import annotations

import random

import pytest

from pardon.core.board import DISTANCE, RED, YELLOW
from pardon.core.cards import SORRY, Pack
from pardon.core.game import Game
from pardon.core.jsonio import position_to_json
from pardon.core.notation import parse_position
from pardon.core.rules import PRESETS, parse_rules
from pardon.core.state import seats_for
from pardon.tui.choices import Choice, choice_of_json, choice_of_move
from pardon.tui.online import _why_not_of_json, position_of_json
from pardon.tui.picking import CARD, CHOICE, DESTINATION, PAWN, WHY, Option, Picker


def drawn(rules: str, position: str, card: int) -> Game:
    game = Game.at(parse_rules(rules), parse_position(position), Pack((card,), (), 1), seed=1)
    if game.awaiting_draw:
        game.draw()
    return game


def picker_of(
    game: Game, why_not: dict[int, dict[tuple[int, int], str]] | None = None, partner: int | None = None
) -> Picker:
    choices = [choice_of_move(game.rules, game.position, move) for move in game.legal_moves()]
    hand = game.position.hands[game.position.turn] if game.position.hands else ()
    return Picker(choices, game.decider, game.position, why_not, hand, partner)


def option(picker: Picker, label: str) -> Option:
    found = [option for option in picker.options() if option.label == label]
    assert found, f"no option {label!r} in {[option.label for option in picker.options()]}"
    return found[0]


def pick(picker: Picker, *labels: str) -> Choice | None:
    """Pick the options of these labels in turn; the choice the last one completes."""
    chosen = None
    for label in labels:
        chosen = picker.pick(option(picker, label))
    return chosen


SPLIT = "R:20,36,S2,start Y:40,33,start,start turn:R"


def test_a_split_7_is_picked_pawn_by_pawn_in_either_order() -> None:
    game = drawn("classic", SPLIT, 7)
    picker = picker_of(game)
    assert picker.stage == PAWN
    assert [option.label for option in picker.options() if option.kind == PAWN] == [
        "Pawn on S2",
        "Pawn on 36",
        "Pawn on 20",
    ]
    first = pick(picker, "Pawn on 20", "to 23 (3 of 7)")
    assert first is None and picker.stage == PAWN
    assert [option.label for option in picker.options()] == ["Pawn on S2", "Pawn on 36"]  # each can go 4
    chosen = pick(picker, "Pawn on S2", "to Home")
    assert chosen is not None and chosen.notation == "7 S2-home 20-23"  # the order the engine writes it
    other_way = picker_of(game)
    assert pick(other_way, "Pawn on S2", "to Home (4 of 7)", "Pawn on 20", "to 23") == chosen


def test_the_whole_7_on_one_pawn_is_one_destination() -> None:
    picker = picker_of(drawn("classic", SPLIT, 7))
    chosen = pick(picker, "Pawn on 20", "to 27")
    assert chosen is not None and chosen.notation == "7 20-27"


def test_an_11_offers_the_count_and_every_switch() -> None:
    picker = picker_of(drawn("classic", "R:20,start,start,start Y:40,33,start,start turn:R", 11))
    labels = [option.label for option in picker.options()]
    assert labels == ["Pawn on 20", "Pawn in Start: cannot move"]  # it can go 11: no declining
    picker.pick(option(picker, "Pawn on 20"))
    assert picker.stage == DESTINATION
    assert [option.label for option in picker.options()] == [
        "to 31, slide to 34, bumping Yellow",
        "switch with Yellow on 33",
        "switch with Yellow on 40",
    ]
    chosen = picker.pick(option(picker, "switch with Yellow on 33"))
    assert chosen is not None and chosen.notation == "11 20x33"


def test_an_11_that_can_only_switch_may_be_declined() -> None:
    picker = picker_of(drawn("classic", "R:0,start,start,start Y:40,start,start,start turn:R", 11))
    assert [option.label for option in picker.options() if option.enabled] == ["Pawn on 0", "Decline the switch"]
    chosen = picker.pick(option(picker, "Decline the switch"))
    assert chosen is not None and chosen.notation == "11 pass"


def test_a_sorry_names_each_opponent_to_bump() -> None:
    picker = picker_of(drawn("classic", "R:20,start,start,start Y:40,33,start,start turn:R", SORRY))
    chosen = pick(picker, "Pawn in Start", "Sorry! Yellow on 40")
    assert chosen is not None and chosen.notation == "sorry start-40"


def test_pawns_that_cannot_move_are_listed_with_the_reason_and_picking_them_does_nothing() -> None:
    game = drawn("classic", "R:20,S4,home,start Y:40,start,start,start turn:R", 5)
    picker = picker_of(game, {5: {(RED, 66): "only a 1, a 2 or a Sorry! brings a pawn out of Start"}})
    why = [option for option in picker.options() if option.kind == WHY]
    assert [(option.label, option.reason) for option in why] == [
        ("Pawn on S4: cannot move", "it cannot use a 5 now"),  # no reason given for it: said plainly
        ("Pawn in Start: cannot move", "only a 1, a 2 or a Sorry! brings a pawn out of Start"),
    ]
    assert all(not option.enabled for option in why)
    assert picker.pick(why[0]) is None and picker.stage == PAWN and not picker.parts


def test_the_partners_pawns_that_cannot_move_are_listed_too_each_by_its_colour() -> None:
    # the server names a pawn by colour and place: Red's S4 and Yellow's S4 were one key, and
    # the partner's pawns went unlisted
    position = "R:S4,20,home,home B:40,start,start,start Y:S4,start,start,home G:10,start,start,start turn:R"
    game = drawn("partners", position, 5)
    why_not = _why_not_of_json({"5": {"red:S4": "mine", "yellow:S4": "my partner's", "yellow:start": "out"}})
    why = [option for option in picker_of(game, why_not, partner=YELLOW).options() if option.kind == WHY]
    assert [(option.label, option.key, option.reason) for option in why] == [
        ("Pawn on S4: cannot move", (RED, 2), "mine"),
        ("Yellow's pawn on S4: cannot move", (YELLOW, 2), "my partner's"),
        ("Yellow's pawn in Start: cannot move", (YELLOW, 66), "out"),
    ]
    alone = [option.label for option in picker_of(game, why_not).options() if option.kind == WHY]
    assert alone == ["Pawn on S4: cannot move"]  # without partners, only the player's own pawns


def test_a_card_no_pawn_can_use_is_a_pass_to_confirm() -> None:
    picker = picker_of(drawn("classic", "R:start,start,start,start Y:40,start,start,start turn:R", 5))
    assert picker.stage == CHOICE and picker.prompt() == "Your move:"
    first = picker.options()[0]
    assert first.label == "Pass: no pawn can use a 5"
    chosen = picker.pick(first)
    assert chosen is not None and chosen.notation == "5 pass"


def test_escape_goes_back_one_step_at_a_time() -> None:
    picker = picker_of(drawn("classic", SPLIT, 7))
    pick(picker, "Pawn on 20", "to 23 (3 of 7)", "Pawn on 36")
    assert picker.stage == DESTINATION
    assert picker.back() and picker.stage == PAWN and len(picker.parts) == 1
    assert (
        picker.back() and picker.stage == DESTINATION and picker.pawn == (RED, DISTANCE[RED][20]) and not picker.parts
    )
    assert picker.back() and picker.pawn is None
    assert not picker.back()


def test_a_hand_game_asks_for_the_card_first_and_says_why_a_card_cannot_be_used() -> None:
    game = Game.new(parse_rules("adult"), (0, 2), seed=4)
    picker = picker_of(game, {4: {(RED, 64): "it cannot go back 4 here"}})
    hand = game.position.hands[0]
    assert picker.stage == CARD and picker.prompt() == "Choose a card to play:"
    cards = {option.key[0] for option in picker.options()}
    assert cards == set(hand)
    usable = [option for option in picker.options() if option.enabled]
    assert usable and all(option.label.startswith("Play ") for option in usable)
    picker.pick(usable[0])
    assert picker.stage in (PAWN, CHOICE) and picker.card == usable[0].key[0]


def test_after_the_pawns_the_tokens_are_one_last_list() -> None:
    game = drawn("modern", "R:5,start,start Y:40,33,start turn:R", 1)
    picker = picker_of(game)
    pick(picker, "Pawn on 5", "to 6")
    assert picker.stage == CHOICE and picker.prompt() == "Which one?"
    assert [option.label for option in picker.options()] == ["Ice on Yellow 40", "Ice on Yellow 33"]
    chosen = picker.pick(picker.options()[0])
    assert chosen is not None and chosen.notation == "1 ice:40 5-6"


EVERY_RULES = [*PRESETS, "classic-1939(scoring=1939,doubling=true)"]


@pytest.mark.parametrize("rules_text", EVERY_RULES)
def test_the_servers_move_objects_read_as_the_engines_own_choices(rules_text: str) -> None:
    """What a server sends (pardon.web.views) becomes the very choice the local game offers (its
    words aside: the server names a partner's pawns), and every choice can be reached by picking."""
    views = pytest.importorskip("pardon.web.views")
    rules = parse_rules(rules_text)
    game = Game.new(rules, seats_for(rules.players[-1]), seed=3)
    rng = random.Random(3)
    checked = 0
    while not game.is_over and checked < 150:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        local = [choice_of_move(game.rules, game.position, move) for move in moves]
        sent = [choice_of_json(entry) for entry in views.moves_json(game, moves)]
        assert [choice._replace(text="") for choice in sent] == [choice._replace(text="") for choice in local]
        for choice in local:
            assert _reach(Picker(local, game.decider, game.position), choice) == choice
        seen = game.observe(game.decider).position
        assert position_of_json(position_to_json(rules, seen)) == seen
        game.play(moves[rng.randrange(len(moves))])
        checked += 1


def _reach(picker: Picker, wanted: Choice) -> Choice | None:
    """Pick, at each step, the option that agrees with ``wanted``."""
    for _ in range(12):
        candidates = [option for option in picker.options() if option.enabled and _agrees(picker, option, wanted)]
        assert candidates, (wanted, [option.label for option in picker.options()])
        chosen = picker.pick(candidates[0])
        if chosen is not None:
            return chosen
    return None


def _agrees(picker: Picker, option: Option, wanted: Choice) -> bool:
    if option.kind == CARD:
        return bool(option.key[0] == wanted.card)
    if option.kind == PAWN:
        return any((action.colour, action.origin) == option.key for action in wanted.pawn_actions)
    if option.kind == DESTINATION:
        return any(tuple(action) == option.key for action in wanted.pawn_actions)
    return option.kind == CHOICE and picker.choices[option.key[0]] == wanted
