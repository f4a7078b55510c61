"""What the server says about moves (pardon.web.views): step counts, the log's words, the partners'
pawns and teams, and the other ways of making a split 7.  These need no browser; the game page's
own tests (tests/web/browser) show the same things on the board."""

from __future__ import annotations

import random

from pardon.bots import BOTS
from pardon.core.cards import SORRY, Pack
from pardon.core.game import Game
from pardon.core.notation import format_move, parse_move, parse_position
from pardon.core.rules import parse_rules
from pardon.web.names import LEVEL_NAMES, computer_name
from pardon.web.views import card_text, decision_json, decision_texts, moves_json, teams_json, view_json

CLASSIC = parse_rules("classic")


def game_at(position: str, card: int, rules_text: str = "classic") -> Game:
    """A game in ``position`` with ``card`` drawn."""
    rules = parse_rules(rules_text)
    game = Game.at(rules, parse_position(position), Pack((card, 5, 5, 5), (), 1), 1)
    game.draw()
    return game


def moves_by_text(game: Game) -> dict[str, dict[str, object]]:
    return {move["move"]: move for move in moves_json(game, game.legal_moves())}


def test_a_backward_4_from_the_start_exit_counts_four_back() -> None:
    game = game_at("R:start,start,start,start Y:34,start,start,start turn:Y", 4)
    (step,) = moves_by_text(game)["4 34-30"]["actions"]  # type: ignore[misc]
    assert step["steps"] == -4
    assert step["path"] == [33, 32, 31, 30]


def test_a_backward_1_of_a_10_past_the_start_exit_counts_one_back() -> None:
    game = game_at("R:4,start,start,start Y:start,start,start,start turn:R", 10)
    moves = moves_by_text(game)
    assert moves["10 4-3"]["actions"][0]["steps"] == -1  # type: ignore[index]
    assert moves["10 4-14"]["actions"][0]["steps"] == 10  # type: ignore[index]


def test_every_step_count_matches_its_path_in_many_games() -> None:
    for seed in range(6):
        game = Game.new(CLASSIC, (0, 1, 2, 3), seed)
        chooser = random.Random(seed)
        while not game.is_over:
            if game.awaiting_draw:
                game.draw()
            for move in moves_json(game, game.legal_moves()):
                for action in move["actions"]:
                    if action["kind"] == "step":
                        assert abs(action["steps"]) == len(action["path"]) - action["slide_squares"] <= 13, move["move"]
            game.play_trusted(chooser.choice(game.legal_moves()))


def test_the_log_after_a_reload_reads_as_it_did_live() -> None:
    for rules_text in ("classic", "partners", "adult", "modern", "classic(scoring=1939,doubling=true)"):
        rules = parse_rules(rules_text)
        game = Game.new(rules, (0, 1, 2, 3), 17)
        chooser = random.Random(17)
        live = []
        for _ in range(150):
            if game.is_over:
                break
            if game.awaiting_draw:
                game.draw()
            before = game.position
            move = chooser.choice(game.legal_moves())
            game.play(move)
            live.append(decision_json(rules, before, game.moves[-1])["text"])
        assert decision_texts(Game.new(rules, (0, 1, 2, 3), 17), game.moves) == live, rules_text
        assert not any("[" in text for text in live)  # words, not notation


def test_a_partners_move_names_the_partners_pawn_and_the_teams_are_told() -> None:
    position = (
        "R:start,start,start,start B:start,start,start,start Y:start,start,start,start G:start,start,start,start turn:R"
    )
    game = game_at(position, 1, "partners")
    texts = {move["move"]: move["text"] for move in moves_json(game, game.legal_moves())}
    assert "Red plays a 1: Yellow's pawn from Start to 34" in texts.values()
    assert "Red plays a 1: Start to 4" in texts.values()
    assert teams_json(game) == [["red", "yellow"], ["blue", "green"]]
    assert teams_json(game_at("R:4,start,start,start Y:start,start,start,start turn:R", 1)) is None


def test_a_split_7_with_the_outcome_of_a_plain_7_is_offered_as_another_way() -> None:
    game = game_at("R:2,57,start,start Y:25,start,start,start turn:R", 7)
    moves = moves_by_text(game)
    plain = moves["7 57-S2"]
    ways = [{(part["pawn"], part["landing"], part["steps"]) for part in way} for way in plain["ways"]]  # type: ignore[attr-defined]
    assert {("red:2", "S2", 2), ("red:57", 2, 5)} in ways
    for text, move in moves.items():  # every way is the move it is offered for, as the rules read it
        for way in move["ways"]:  # type: ignore[attr-defined]
            written = "7 " + " ".join(f"{part['from']}-{part['landing']}" for part in way)
            assert format_move(game.position, parse_move(CLASSIC, game.position, 7, written)) == text


def test_a_move_that_is_not_a_7_has_no_other_way() -> None:
    game = game_at("R:2,57,start,start Y:25,start,start,start turn:R", 5)
    assert all(move["ways"] == [] for move in moves_json(game, game.legal_moves()))


def test_every_computer_level_has_a_players_name() -> None:
    assert list(LEVEL_NAMES) == list(BOTS)  # weakest first, like the levels themselves
    assert list(LEVEL_NAMES.values()) == ["Beginner", "Easy", "Medium", "Hard", "Patient", "Expert"]
    assert computer_name("expectimax") == "Computer (Hard)"


def test_a_partners_7_split_among_any_pawns_lists_its_thousand_moves_with_one_generation() -> None:
    """P92's split 7 among any pawns of the team: over a thousand outcomes.  Every way of making
    them is read against one listing of the legal moves (a listing per way stalled the server
    for seconds), and every move is offered by a notation that reads back to it."""
    from pardon.core import notation

    game = game_at(
        "R:home,58,44,12 B:home,home,start,start Y:S2,20,19,6 G:home,home,home,start turn:R",
        7,
        "partners(partner_split=any)",
    )
    legal = game.legal_moves()
    notation._card_moves.cache_clear()
    offered = moves_json(game, legal)
    assert len(offered) == len(legal) > 1000
    assert notation._card_moves.cache_info().misses == 1
    for move in random.Random(7).sample(offered, 50):
        assert parse_move(game.rules, game.position, 7, str(move["move"])) == legal[offered.index(move)]


def test_a_2013_seven_says_it_brings_a_pawn_out_unless_split() -> None:
    game = game_at("R:start,start,start Y:start,start,start turn:R", 7, "modern-no-tokens")
    assert any(move["actions"][0]["from"] == "start" for move in moves_by_text(game).values())  # out, then on
    assert card_text(game.rules, 7).endswith("Not split, it can bring a pawn out of Start.")
    assert "out of Start" not in card_text(CLASSIC, 7)


def test_the_fire_and_ice_cards_say_what_they_do_with_the_tokens() -> None:
    modern = parse_rules("modern")
    assert "Ice goes on an opponent's pawn" in card_text(modern, 1)
    assert "Fire on one of your pawns" in card_text(modern, 2)
    assert "Ice" not in card_text(parse_rules("modern-no-tokens"), 1)


def test_a_solo_game_counts_its_cards_and_no_other_game_does() -> None:
    game = game_at("R:start,start,start,start turn:R", 1, "solo")
    assert view_json(game, 0, None)["cards_drawn"] == 0
    game.play(game.legal_moves()[0])
    game.draw()
    assert view_json(game, 0, None)["cards_drawn"] == 1
    assert "cards_drawn" not in view_json(game_at("R:start Y:start turn:R", 1), 0, None)


def test_a_hand_of_five_says_what_each_of_its_own_cards_does_and_no_one_elses() -> None:
    adult = parse_rules("adult")
    game = Game.new(adult, (0, 2), 5)
    red, yellow = (view_json(game, seat, None)["hand_texts"] for seat in (0, 2))
    hand = game.observe(0).position.hands[0]
    assert red == {card: card_text(adult, int(card) if card.isdigit() else SORRY) for card in red}
    assert len(red) == len(set(hand)) and red != yellow
    assert view_json(game, None, None)["hand_texts"] == {}  # a spectator sees no hand
    assert view_json(game_at("R:start Y:start turn:R", 1), 0, None)["hand_texts"] == {}  # no hands: nothing to say


def test_a_2_in_a_hand_game_plays_one_more_card_from_the_hand() -> None:
    """In a hand game the 2 draws no card to play: the hand is filled up, then one more card of it is
    played (RULES.md §7); it said "Draw again", as in the classic game."""
    assert card_text(parse_rules("classic"), 2).endswith(" Draw again.")
    hand = card_text(parse_rules("adult"), 2)
    assert "Draw again" not in hand and hand.endswith(" Then play one more card from your hand.")
    assert "again" not in card_text(parse_rules("adult(draw_again_on_2=false)"), 2)
