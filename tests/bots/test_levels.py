"""The levels: every preset played to the end, the forward model, and what each level sees."""

from __future__ import annotations

import math
import random

import pytest

from pardon.bots import BOTS, DEFAULT_BOT, make_bot, parse_bot_spec, split_bot_specs
from pardon.bots.evaluation import Evaluator, Weights, card_chances
from pardon.bots.expectimax import ExpectimaxBot
from pardon.bots.hint import rank_moves
from pardon.bots.mcts import MctsBot
from pardon.bots.model import advance, draw_chances, draw_given, sample_game, take_back, undraw_given
from pardon.core import Game, Pack, legal_moves, parse_position, parse_rules
from pardon.core.board import partner
from pardon.core.cards import SORRY
from pardon.core.errors import InvalidError
from pardon.core.notation import format_move
from pardon.core.observation import observe
from pardon.core.state import seats_for

CLASSIC = parse_rules("classic")

#: Small budgets, so that every level plays whole games quickly.
SPECS = {
    "random": "random",
    "greedy": "greedy",
    "tactician": "tactician",
    "expectimax": "expectimax",
    "mcts": "mcts(iterations=6)",
    "expert": "expert",
}
PRESETS = {"classic": 2, "classic-1939": 3, "partners": 4, "modern-no-tokens": 4, "solo": 1, "adult": 2, "modern": 2}


def play(rules_text: str, players: int, specs: dict[int, str], seed: int) -> Game:
    """A whole game with the engine's player loop; the level of each seat from ``specs``."""
    rules = parse_rules(rules_text)
    game = Game.new(rules, seats_for(players), seed)
    bots = {colour: make_bot(spec) for colour, spec in specs.items()}
    rng = random.Random(seed)
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        moves = game.legal_moves()
        move = bots[game.decider].choose(game.observe(game.decider), moves, rng)
        assert move in moves
        game.play(move)
    return game


@pytest.mark.parametrize("level", BOTS)
@pytest.mark.parametrize("preset", PRESETS)
def test_every_level_plays_every_preset_to_the_end(level: str, preset: str) -> None:
    players = PRESETS[preset]
    seats = seats_for(players)
    # the level under test holds the first seat (and its partner); greedy the others
    mine = {seats[0], partner(seats[0])} if preset == "partners" else {seats[0]}
    specs = {colour: SPECS[level] if colour in mine else "greedy" for colour in seats}
    game = play(preset, players, specs, seed=2)
    assert game.winner in seats


def test_the_levels_are_listed_weakest_first_and_the_default_is_one_of_them() -> None:
    assert BOTS == ("random", "greedy", "tactician", "expectimax", "mcts", "expert")
    assert DEFAULT_BOT in BOTS
    for name in BOTS:
        assert make_bot(name).name == name


def test_a_level_takes_its_budget_and_weights_in_its_spec() -> None:
    assert parse_bot_spec("mcts(iterations=20, rollout=random)") == ("mcts", {"iterations": 20, "rollout": "random"})
    bot = make_bot("mcts(iterations=20,seconds=0.5,threat=0.25)")
    assert isinstance(bot, MctsBot)
    assert (bot.iterations, bot.seconds, bot.weights.threat) == (20, 0.5, 0.25)
    assert split_bot_specs("greedy, mcts(iterations=5,horizon=1),random") == [
        "greedy",
        "mcts(iterations=5,horizon=1)",
        "random",
    ]


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("grandmaster", "unknown computer player"),
        ("mcts(iterations)", "expected option=value"),
        ("greedy(depth=2)", "does not take"),
        ("tactician(nerve=2)", "does not take"),
        ("mcts(rollout=dice)", "unknown rollout"),
        ("expectimax(depth=0)", "from 1 to 12 decisions"),
    ],
)
def test_a_bad_spec_is_refused(spec: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_bot(spec)


# --- the forward model ------------------------------------------------------------------


def test_the_model_deals_only_the_unseen_cards_and_never_reads_the_real_order() -> None:
    real = Game.new(CLASSIC, seats_for(2), 9)
    for _ in range(7):
        if real.awaiting_draw:
            real.draw()
        real.play(real.legal_moves()[0])
    card = real.draw()
    seen = real.observe(real.decider)
    model = sample_game(seen, random.Random(3))
    assert model.card == card and model.position == real.position
    assert model.legal_moves() == real.legal_moves()
    assert sorted(model.pack.draw_pile) == sorted(real.pack.draw_pile)
    # the same observation with the real pack in another order gives the same model
    shuffled_real = Pack(tuple(reversed(real.pack.draw_pile)), real.pack.discards, real.pack.shuffles)
    real.state = real.state._replace(pack=shuffled_real)
    again = sample_game(real.observe(real.decider), random.Random(3))
    assert again.pack == model.pack


def test_a_chance_node_is_drawn_card_by_card_and_put_back() -> None:
    game = sample_game(
        observe(CLASSIC, parse_position("R:20,start,start,start Y:40,start,start,start turn:R"), 0, 5, (5,)),
        random.Random(1),
    )
    game.play_trusted(game.legal_moves()[0])
    before = game.pack
    chances = draw_chances(game)
    assert abs(sum(chance for _, chance in chances) - 1) < 1e-9
    assert dict(chances)[5] == pytest.approx(3 / 44)
    for card, _ in chances:
        draw_given(game, card)
        assert game.card == card
        undraw_given(game)
        assert game.pack == before and game.card is None
    card = game.draw()
    drawn = advance(game, game.legal_moves()[0])
    take_back(game, drawn)
    assert drawn == card and game.card == card


def test_an_empty_pack_is_counted_as_a_full_reshuffle() -> None:
    every_card = tuple(card for card in range(1, SORRY + 1) for _ in range(4 if card not in (6, 9) else 0))
    chances = card_chances({}, CLASSIC)
    assert chances[1] == pytest.approx(5 / 45) and chances[SORRY] == pytest.approx(4 / 45)
    assert len(every_card) == 44


# --- what each level prefers ------------------------------------------------------------


def choice(spec: str, text: str, card: int, discards: tuple[int, ...] = ()) -> str:
    position = parse_position(text)
    game_moves = legal_moves(CLASSIC, position, card)
    seen = observe(CLASSIC, position, position.turn, card, (*discards, card))
    move = make_bot(spec).choose(seen, game_moves, random.Random(0))
    return format_move(position, move)


@pytest.mark.parametrize("spec", ["tactician", "expectimax", "mcts(iterations=60)"])
def test_the_search_levels_bump_the_pawn_about_to_reach_safety(spec: str) -> None:
    # Yellow's pawn on 28 is 4 from its entrance (32); Red's Sorry! should send it back,
    # not the one that has just come out.
    assert choice(spec, "R:20,start,start,start Y:28,34,start,start turn:R", SORRY) == "sorry start-28"


@pytest.mark.parametrize("spec", ["tactician", "expectimax", "mcts(iterations=60)"])
def test_the_search_levels_go_home_when_they_can(spec: str) -> None:
    assert choice(spec, "R:home,home,home,S3 Y:40,30,start,start turn:R", 3) == "3 S3-home"


def test_threats_count_the_cards_left_in_the_pack() -> None:
    evaluator = Evaluator(CLASSIC, Weights(threat=1.0))
    # Yellow on 40 is 5 behind Red on 45: only a 5 (or a split 7 part, with one pawn out:
    # no) reaches it.  Yellow has pawns in Start: a Sorry! reaches it too.
    position = parse_position("R:45,start,start,start Y:40,start,start,start turn:Y")
    every = card_chances({1: 5, 2: 4, 3: 4, 4: 4, 5: 4, 7: 4, 8: 4, 10: 4, 11: 4, 12: 4, SORRY: 4}, CLASSIC)
    no_fives = card_chances({1: 5, 2: 4, 3: 4, 4: 4, 7: 4, 8: 4, 10: 4, 11: 4, 12: 4, SORRY: 4}, CLASSIC)
    red_at_45 = 66 - 23 + 8  # 23 from Home: its progress plus the bonus for being out of Start
    assert evaluator.danger(0, position, every) == pytest.approx(8 / 45 * red_at_45)
    assert evaluator.danger(0, position, no_fives) == pytest.approx(4 / 41 * red_at_45)


def test_a_hint_ranks_every_move_with_a_chance() -> None:
    position = parse_position("R:20,40,start,start Y:45,start,start,start turn:R")
    for bot in ("mcts(iterations=50)", "expectimax", "tactician"):
        ranked = rank_moves(CLASSIC, position, 5, bot, random.Random(1))
        assert format_move(position, ranked[0][0]) == "5 40-45"
        assert all(0.0 <= chance <= 1.0 for _, chance in ranked)
        assert [chance for _, chance in ranked] == sorted((chance for _, chance in ranked), reverse=True)


def test_a_pawn_whose_player_draws_next_is_in_less_danger_by_the_later_weight() -> None:
    # Yellow on 40 is 5 behind Red on 45.  With Red to draw, Red can move away (or bump)
    # before Yellow draws: ``later`` scales that danger; with Yellow to draw it is whole.
    every = card_chances({1: 5, 2: 4, 3: 4, 4: 4, 5: 4, 7: 4, 8: 4, 10: 4, 11: 4, 12: 4, SORRY: 4}, CLASSIC)
    red_to_draw = parse_position("R:45,start,start,start Y:40,start,start,start turn:R")
    yellow_to_draw = red_to_draw._replace(turn=2)
    whole = Evaluator(CLASSIC, Weights(threat=1.0)).danger(0, yellow_to_draw, every)
    assert whole > 0
    assert Evaluator(CLASSIC, Weights(threat=1.0, later=0.25)).danger(0, red_to_draw, every) == pytest.approx(whole / 4)
    assert Evaluator(CLASSIC, Weights(threat=1.0, later=0.25)).danger(0, yellow_to_draw, every) == pytest.approx(whole)
    assert Evaluator(CLASSIC, Weights(threat=1.0)).danger(0, red_to_draw, every) == pytest.approx(whole)


@pytest.mark.parametrize("spec", ["expectimax(depth=2,width=0)", "expectimax(depth=2,backup=chance)"])
def test_the_other_searches_play_a_game_and_find_home(spec: str) -> None:
    assert choice(spec, "R:home,home,home,S3 Y:40,30,start,start turn:R", 3) == "3 S3-home"
    game = play("classic", 2, {0: spec, 2: "tactician"}, seed=3)
    assert game.winner in (0, 2)


def test_an_unknown_backup_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown backup"):
        make_bot("expectimax(backup=dice)")


def test_the_default_search_looks_three_decisions_ahead_with_two_players_and_two_with_more() -> None:
    bot = make_bot("expectimax")
    assert isinstance(bot, ExpectimaxBot)
    assert (bot.width, bot.roots, bot.backup) == (1, 10, None)
    two = parse_position("R:20,start,start,start Y:40,start,start,start turn:R")
    four = parse_position(
        "R:20,start,start,start B:5,start,start,start Y:40,start,start,start G:9,start,start,start turn:R"
    )
    assert bot.depth_for(observe(CLASSIC, two, 0, 5, (5,))) == 3
    assert bot.depth_for(observe(CLASSIC, four, 0, 5, (5,))) == 2
    assert ExpectimaxBot(depth=3).depth_for(observe(CLASSIC, four, 0, 5, (5,))) == 3
    # two players average values; more average the calibrated win chances
    assert bot.backup_for(observe(CLASSIC, two, 0, 5, (5,))) == "value"
    assert bot.backup_for(observe(CLASSIC, four, 0, 5, (5,))) == "chance"
    assert ExpectimaxBot(backup="value").backup_for(observe(CLASSIC, four, 0, 5, (5,))) == "value"


def test_a_decision_with_many_moves_searches_only_the_best_few_one_ply_ahead() -> None:
    position = parse_position("R:20,30,40,50 Y:10,25,45,start turn:R")
    moves = legal_moves(CLASSIC, position, 7)
    assert len(moves) > 10  # every split of the 7 among four pawns
    seen = observe(CLASSIC, position, 0, 7, (7,))
    bot = ExpectimaxBot(depth=2)
    values = bot.move_values(seen, moves, random.Random(0), roots=3)
    searched = [index for index, vector in enumerate(values) if vector[0] > -math.inf]
    one_ply = Evaluator(CLASSIC, bot.weights)
    chances = card_chances(seen.remaining(), CLASSIC)
    ranked = sorted(range(len(moves)), key=lambda index: -one_ply.values(moves[index].result, chances)[0])
    assert sorted(searched) == sorted(ranked[:3])
    assert all(value > -math.inf for value in (vector[0] for vector in bot.move_values(seen, moves, random.Random(0))))


def test_rank_picks_the_roots_by_a_shallower_search_instead_of_one_ply() -> None:
    position = parse_position("R:3,14,35,52 Y:12,31,49,start turn:R")
    moves = legal_moves(CLASSIC, position, 7)
    seen = observe(CLASSIC, position, 0, 7, (7,))
    bot = ExpectimaxBot(depth=3, rank=2)
    values = bot.move_values(seen, moves, random.Random(0), roots=3)
    searched = [index for index, vector in enumerate(values) if vector[0] > -math.inf]
    two_deep = ExpectimaxBot(depth=2).move_values(seen, moves, random.Random(0))
    ranked = sorted(range(len(moves)), key=lambda index: -two_deep[index][0])
    assert sorted(searched) == sorted(ranked[:3])
    # the depth-3 values of the roots kept are those of a search of every root
    full = ExpectimaxBot(depth=3).move_values(seen, moves, random.Random(0))
    assert all(values[index] == pytest.approx(full[index]) for index in searched)
    one_ply = ExpectimaxBot(depth=3).move_values(seen, moves, random.Random(0), roots=3)
    assert {index for index, vector in enumerate(one_ply) if vector[0] > -math.inf} != set(searched)
    with pytest.raises(InvalidError, match="rank=1"):
        make_bot("expectimax(rank=0)")


def test_a_hint_from_a_search_that_backs_up_win_chances_uses_them_as_they_are() -> None:
    position = parse_position("R:20,40,start,start Y:45,start,start,start turn:R")
    ranked = rank_moves(CLASSIC, position, 5, "expectimax(depth=2,backup=chance,learned=0)", random.Random(1))
    assert format_move(position, ranked[0][0]) == "5 40-45"
    assert all(0.0 <= chance <= 1.0 for _, chance in ranked)
    # a win chance of 0.6 would read about 0.50 after a second logistic: the spread shows it was not applied
    assert ranked[0][1] - ranked[-1][1] > 0.02


def test_mcts_spends_its_iterations_on_the_best_few_moves_of_its_expectimax_search() -> None:
    position = parse_position("R:20,30,40,50 Y:10,25,45,start turn:R")
    moves = legal_moves(CLASSIC, position, 7)
    seen = observe(CLASSIC, position, 0, 7, (7,))
    bot = MctsBot(iterations=30, candidates=2)
    root = bot.search(seen, moves, random.Random(0))
    searched = ExpectimaxBot().move_values(seen, moves, random.Random(0), roots=10)
    ranked = sorted(range(len(moves)), key=lambda index: -searched[index][0])
    assert root.active == sorted(ranked[:2])  # expectimax's two best, by its depth-3 values
    assert sum(root.visits[index] for index in root.active) == pytest.approx(2 * bot.root_prior + 30)
    assert all(root.visits[index] == bot.root_prior for index in range(len(moves)) if index not in root.active)
    assert all(0.0 <= chance <= 1.0 for chance in bot.win_chances(root))  # every move has a chance, for hints
    assert bot.choose(seen, moves, random.Random(0)) in [moves[index] for index in root.active]


@pytest.mark.parametrize(
    "text",
    [
        "R:20,30,40,50 Y:10,25,45,start turn:R",
        "R:20,30,40,start B:12,start,start,start Y:10,45,start,start G:3,start,start,start turn:R",
    ],
)
def test_the_mcts_root_starts_on_the_footing_of_its_rollouts_win_shares(text: str) -> None:
    # Priors and rollouts are averaged together, so both must be shares of the win: four
    # 2-player logistics of margins (about 0.5 each) would outweigh 4-player shares.
    position = parse_position(text)
    moves = legal_moves(CLASSIC, position, 7)
    seen = observe(CLASSIC, position, 0, 7, (7,))
    root = MctsBot(iterations=1).search(seen, moves, random.Random(0))
    for totals, visits in zip(root.totals, root.visits, strict=True):
        assert sum(totals) / visits == pytest.approx(1.0)


def test_paired_mcts_tries_every_candidate_on_the_same_deals() -> None:
    position = parse_position("R:20,30,40,50 Y:10,25,45,start turn:R")
    moves = legal_moves(CLASSIC, position, 7)
    seen = observe(CLASSIC, position, 0, 7, (7,))
    root = MctsBot(iterations=30, candidates=3, paired=True).search(seen, moves, random.Random(2))
    assert len({root.visits[index] for index in root.active}) == 1  # each candidate 10 deals, the same 10
    unpaired = MctsBot(iterations=30, candidates=3).search(seen, moves, random.Random(2))
    assert sum(unpaired.visits[index] for index in unpaired.active) == sum(root.visits[index] for index in root.active)


def test_an_mcts_rollout_judges_the_position_just_after_the_searching_players_own_move() -> None:
    # Yellow (the opponent) is to decide: the rollout plays its move and then Red's, and stops.
    game = Game.new(CLASSIC, seats_for(2), seed=5)
    bot = MctsBot(iterations=1)
    evaluator = Evaluator(CLASSIC, bot.weights)
    while game.awaiting_draw or game.decider != 2:
        if game.awaiting_draw:
            game.draw()
        else:
            game.play(game.legal_moves()[0])
    before = game.turns
    value = bot._rollout(game, evaluator, random.Random(0), seat=0)
    assert game.last_decision is not None and game.last_decision[1] == 0  # Red moved last
    deciders = [turn.colour for turn in game._history[before:]]
    assert deciders[0] == 2 and deciders[-1] == 0 and 0 not in deciders[:-1]
    assert sum(value) == pytest.approx(1.0)


def test_stratified_mcts_draws_each_card_after_a_move_in_proportion_to_its_chance() -> None:
    position = parse_position("R:20,30,40,50 Y:10,25,45,start turn:R")
    moves = legal_moves(CLASSIC, position, 7)
    seen = observe(CLASSIC, position, 0, 7, (7,))
    left = seen.remaining()  # the cards the next draw can turn up (card counting)
    chances = {card: count / sum(left.values()) for card, count in left.items() if count}
    root = MctsBot(iterations=120, candidates=2, stratified=True).search(seen, moves, random.Random(3))
    for index in root.active:
        drawn = root.drawn[index]
        draws = sum(drawn.values())
        assert draws > 40 and set(drawn) <= set(chances)
        for card, chance in chances.items():  # never a whole draw away from its exact share
            assert abs(drawn.get(card, 0) - chance * draws) <= 1.0 + 1e-9
    plain = MctsBot(iterations=120, candidates=2).search(seen, moves, random.Random(3))
    assert plain.drawn == {}  # the deal's own order, uncounted


def test_values_and_chances_are_one_evaluation_of_both() -> None:
    evaluator = Evaluator(CLASSIC)
    position = parse_position("R:20,30,40,start B:12,start,start,start Y:10,45,start,start G:3,home,start,start turn:R")
    chances = card_chances(observe(CLASSIC, position, 0, 7, (7,)).remaining(), CLASSIC)
    values, shares = evaluator.values_and_chances(position, chances)
    assert values == evaluator.values(position, chances)
    assert shares == evaluator.win_chances(position, chances)
    won = position._replace(winner=0)
    assert evaluator.values_and_chances(won, chances) == (
        evaluator.values(won, chances),
        evaluator.win_chances(won, chances),
    )
