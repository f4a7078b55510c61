"""The cross-check: batch games replayed through :mod:`pardon.core`, decision by decision.

For every game of a batch played by the random player (:func:`~pardon.batch.engine.random_moves`), at every step:

* the card the batch drew is fed to the core with :func:`pardon.core.turn.draw` (the
  batch keeps the core's pack composition, so the core can always turn it up), and the
  cards left to draw agree;
* the outcomes of the game's legal actions (its mask) are exactly the results of the
  core's :func:`~pardon.core.turn.legal_moves`: every legal action makes a core move,
  and every core move is made by a legal action;
* the random player's choices (:func:`~pardon.batch.engine.distinct_lanes`) are the lowest
  legal action of each outcome, as many as the core's legal moves, and it chooses among
  them alone, uniformly (``choose_uniform`` of its random bits), as the core's ``random``
  player chooses among its legal moves;
* the chosen action's outcome is a core move, which the core then plays, and the
  positions agree after it (pawns, whose turn, winner; with doubling the stake, who dropped
  out and the stage of the turn; a decision without a card is compared by its kind);

With the partners' split 7 among any team pawns, made part by part
(:mod:`pardon.batch.split_any`), a 7's whole moves (the moves of one pawn and every whole split
the batch's search finds) are compared with the core's legal moves at the turn's start; inside
a split, the splits it can still make must be core moves and the core's position stays as it
began; once the split is whole, the core's move is the one making its position, and its bumps
and slides are those of its parts added up;

and at the end the winner agrees, and so does each player's points
(:func:`~pardon.batch.engine.points` against the core's
:func:`~pardon.core.scoring.points_of` of the game's final position; under rules without
points the batch's are all 0, where the core has none).

The tests replay about two thousand games; for more, run it as a command (batches of
``--chunk`` games, progress on stderr; exit status 0 when every game agrees, 1 at the first
disagreement, 2 for arguments it cannot play, said in one line)::

    python -m pardon.batch.verify --rules classic --players 4 --games 100000 --seed 100000

``--players`` is 2 unless told, and 1 for the solo challenge (``--rules solo``).

>>> report = cross_check(Config.parse("classic", 2), range(3))
>>> report.games, report.decisions > 100
(3, True)
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from pardon.batch.config import CARD_STAGE, SPLITTING, STAGE
from pardon.batch.convert import (
    core_hands,
    core_position,
    core_state,
    move_key,
    outcomes,
    part_actions,
    position_key,
    whole_keys,
)
from pardon.batch.doubling import choice_counter
from pardon.batch.engine import (
    SEEDS,
    STREAM_CHOICE,
    Config,
    Games,
    choose_uniform,
    distinct_lanes,
    draw,
    legal_lanes,
    new_games,
    play,
    points,
    random_bits,
    random_moves,
)
from pardon.batch.split_any import splitting
from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import CARDS, DECKS, NO_CARD
from pardon.core.errors import InvalidError, PardonError
from pardon.core.kernel import SPLIT_CARD
from pardon.core.moves import Move, slides_ridden
from pardon.core.scoring import points_of
from pardon.core.turn import GameState, apply, awaiting_draw, legal_moves, start
from pardon.core.turn import draw as core_draw

#: A game longer than this many cards is taken for a loop that never ends.
CARD_LIMIT = 5000


class MismatchError(AssertionError):
    """The batch and the core disagree (the message says where and how)."""


class Report(NamedTuple):
    games: int
    decisions: int  # positions where the masks were compared with the core's moves
    outcomes: int  # legal actions whose outcome was compared
    choices: int  # the random player's choices (one per distinct outcome) compared
    scored: int = 0  # finished games whose points (rules with points) were compared


def cross_check(
    config: Config,
    seeds: Iterable[int],
    on_move: Callable[[int, Move, GameState], None] | None = None,
    choose: Callable[[Config, Games], Any] | None = None,
) -> Report:
    """Play the games of ``seeds`` in one batch with the random player and replay each through
    the core; raise :class:`MismatchError` at the first disagreement.  ``on_move(game, move,
    state)`` is told each core move replayed, with the state it leads to (``game``: the
    seed's place in ``seeds``); ``choose(config, games)``, if given, plays instead of the
    random player (whose choices are then not checked)."""
    seed_array = np.array(list(seeds), dtype=np.uint32)
    games = new_games(config, seed_array)
    states = [_core_start(config, games, index) for index in range(len(seed_array))]
    decisions = compared = choices = 0
    pending: dict[int, tuple[int, int]] = {}  # the bumps and slides of a split's parts made so far
    while (games.winner < 0).any():
        if int(games.drawn.max()) > CARD_LIMIT:
            raise MismatchError(f"a game drew more than {CARD_LIMIT} cards")
        lanes = legal_lanes(config, games)
        found = outcomes(config, games, lanes)
        by_game: defaultdict[int, dict[int, Any]] = defaultdict(dict)
        for (row, action), key in sorted(found.items()):
            by_game[row][action] = key
        kept = distinct_lanes(config, games, lanes)
        lowest = lowest_of_each_outcome(found, lanes.shape)
        if choose is None:
            actions = random_moves(config, games)
            uniform = choose_uniform(kept, random_bits(games.seed, choice_counter(config, games), STREAM_CHOICE))
        else:  # the players given: their choices are not the random player's
            actions = uniform = np.asarray(choose(config, games))
        after, played = play(config, games, actions)
        parts = part_actions(config)
        outside_parts = np.ones(lanes.shape[0], dtype=bool)
        outside_parts[parts] = False
        for index in np.flatnonzero(games.winner < 0).tolist():
            where = f"game of seed {int(seed_array[index])}, card {int(games.drawn[index])}"
            state = states[index]
            moves = legal_moves(config.rules, state)
            results = {move_key(config, move) for move in moves}
            mine = set(by_game[index].values())
            counted = pending.pop(index, (0, 0))
            counted = (counted[0] + int(played.bumps[index]), counted[1] + int(played.slides[index]))
            if parts.stop and _holds_seven(config, games, index):
                action = int(actions[index])
                made, splits = _check_splits(where, config, games, index, mine, results)
                compared += splits
                if not np.array_equal(kept[parts, index], lanes[parts, index]):
                    raise MismatchError(f"{where}: the distinct lanes leave out a legal part of a split")
                if not made:  # the other moves: the lowest lane of each position
                    _check_choices(where, kept[outside_parts, index], lowest[outside_parts, index], None)
                if not lanes[action, index]:
                    raise MismatchError(f"{where}: the random player chose action {action}, which is not legal")
                made_key = position_key(core_position(config, after, index))
                if splitting(after)[index]:  # the split goes on
                    if made_key != position_key(state.position):
                        raise MismatchError(f"{where}: a part of a split moved the core's position to {made_key}")
                    pending[index] = counted
                    decisions += 1
                    continue
                chosen: Any = found.get((index, action), made_key)  # else a split's last part: the 7 played
                if config.rules.hand and (index, action) not in found:
                    chosen = (SPLIT_CARD, made_key)
            else:
                if mine != results:
                    raise MismatchError(_describe_sets(where, config, games, index, mine, results))
                _check_choices(where, kept[:, index], lowest[:, index], len(moves))
                if int(actions[index]) != int(uniform[index]):
                    raise MismatchError(
                        f"{where}: the random player chose action {int(actions[index])}, not {int(uniform[index])}: "
                        "not uniformly among one action per distinct move"
                    )
                chosen = found[index, int(actions[index])]
            move = next((move for move in moves if move_key(config, move) == chosen), None)
            if move is None:
                raise MismatchError(f"{where}: the batch made {chosen}, which is not a core move")
            core_counts = (len(move.bumps), slides_ridden(config.rules, move))
            if counted != core_counts:
                raise MismatchError(
                    f"{where}: the batch counts {counted[0]} bumps and {counted[1]} slides, the core "
                    f"{core_counts[0]} and {core_counts[1]}"
                )
            if move.card != NO_CARD and bool(played.forfeit[index]) != move.is_pass:
                said = "forfeits" if played.forfeit[index] else "uses"
                raise MismatchError(f"{where}: the batch {said} the card, the core's move is {move}")
            mover = state.position.turn
            state = apply(config.rules, state, move)
            reached = core_position(config, after, index)
            if position_key(reached) != position_key(state.position):
                raise MismatchError(f"{where}: after the move the batch has {reached}, the core {state.position}")
            if config.rules.hand:
                taken = 1 if move.card != NO_CARD and state.position.winner is None else 0  # a decision takes none
                _check_hands(where, config, after, index, state, move.result.hands[mover], mover, taken)
            if config.rules.doubling:
                _check_doubling(where, config, after, index, state)
            if config.rules.tokens:
                _check_tokens(where, config, after, index, state)
            states[index] = state
            if on_move is not None:
                on_move(index, move, state)
            decisions += 1
            compared += len(by_game[index])
            choices += len(moves)
        games = draw(config, after)
        for index in np.flatnonzero(games.winner < 0).tolist():
            if index in pending:  # a split 7 being made: no card is drawn
                continue
            states[index] = _core_draw(config, games, index, states[index], seed_array)
    scores = np.asarray(points(config, games))
    scored = 0
    for index, state in enumerate(states):
        winner = config.seats[int(games.winner[index])]
        if state.position.winner != winner:
            raise MismatchError(f"game of seed {int(seed_array[index])}: the winner differs")
        scored += _check_points(config, state, scores[:, index], int(seed_array[index]))
    return Report(len(seed_array), decisions, compared, choices, scored)


def _check_splits(
    where: str, config: Config, games: Games, index: int, mine: set[Any], results: set[Any]
) -> tuple[bool, int]:
    """With a split 7 made part by part, a game holding a 7: at the turn's start its whole
    moves (the moves of one pawn, ``mine``, and every whole split) are the core's
    (``results``); in a split, the splits it can still make are core moves, at least one.
    Returns whether a split was being made, and how many splits were compared."""
    splits: set[Any] = set(whole_keys(config, games, index))
    if config.rules.hand:  # each move by its card and pawns; the splits are the 7's
        core, splits = {(key[0], key[1][0]) for key in results}, {(SPLIT_CARD, pawns) for pawns in splits}
        mine = {(key[0], key[1][0]) for key in mine}
    else:
        core, mine = {key[0] for key in results}, {key[0] for key in mine}
    if not splitting(games)[index]:
        found = mine | splits
        if found != core:
            raise MismatchError(
                f"{where}: position {core_position(config, games, index)} with a 7: only the batch reaches "
                f"{sorted(found - core)}; only the core reaches {sorted(core - found)}"
            )
        return False, len(splits)
    if not splits or not splits <= core:
        raise MismatchError(f"{where}: in a split the batch can still make {sorted(splits - core)}, not core moves")
    return True, len(splits)


def _holds_seven(config: Config, games: Games, index: int) -> bool:
    """Whether game ``index`` is at a 7 (its card, or with hands of five a 7 in the mover's
    hand at the card, or a split being made)."""
    if not config.rules.hand:
        return int(games.card[index]) == SPLIT_CARD
    stage = int(np.asarray(games.extras)[STAGE, index])
    at_card = stage in (CARD_STAGE, SPLITTING)
    return at_card and int(np.asarray(games.hands)[0, CARDS.index(SPLIT_CARD), index]) > 0


def _check_points(config: Config, state: GameState, scores: np.ndarray, seed: int) -> int:
    """A finished game's points by seat (``scores``) against the core's for its final
    position (none, under rules without points: then the batch's are all 0); 1 if there were
    points to compare."""
    core = points_of(config.rules, state.position)
    mine = {colour: int(score) for colour, score in zip(config.seats, scores.tolist(), strict=True)}
    if mine != (core if core is not None else dict.fromkeys(config.seats, 0)):
        raise MismatchError(
            f"game of seed {seed}: the batch scores {_by_colour(mine)}, the core "
            f"{'no points' if core is None else _by_colour(core)} (position {state.position})"
        )
    return 0 if core is None else 1


def _by_colour(scores: Mapping[int, int]) -> str:
    return ", ".join(f"{COLOUR_NAMES[colour]} {score}" for colour, score in scores.items())


def lowest_of_each_outcome(found: Mapping[tuple[int, int], Any], shape: tuple[int, ...]) -> np.ndarray:
    """``shape`` booleans (lanes, games): the lowest legal action of each outcome of each
    game, from :func:`~pardon.batch.convert.outcomes` (``found``: outcome by game and action),
    found by playing them: what the random player must choose among."""
    first: dict[tuple[int, Any], int] = {}
    for (row, action), key in sorted(found.items()):
        first.setdefault((row, key), action)
    wanted = np.zeros(shape, dtype=bool)
    for (row, _), action in first.items():
        wanted[action, row] = True
    return wanted


def _check_choices(where: str, kept: np.ndarray, lowest: np.ndarray, moves: int | None) -> None:
    """The random player's choices of a position (``kept``, by lane) against the lowest
    action of each outcome and the core's number of legal moves (unless None)."""
    if not np.array_equal(kept, lowest):
        raise MismatchError(
            f"{where}: the random player chooses among actions {np.flatnonzero(kept).tolist()}, "
            f"not {np.flatnonzero(lowest).tolist()} (the lowest of each outcome)"
        )
    chosen_among = int(kept.sum())
    if moves is not None and chosen_among != moves:
        raise MismatchError(f"{where}: the random player chooses among {chosen_among} moves, the core's among {moves}")


def _check_hands(
    where: str,
    config: Config,
    games: Games,
    index: int,
    state: GameState,
    left: tuple[int, ...],
    mover: int,
    taken: int,
) -> None:
    """Hands of five, after a move: the mover's hand is the core's less the card played
    (``left``) and ``taken`` cards more, taken from the pack (one; none once the game is won,
    or after a decision without a card); every other hand is as it was."""
    batch = core_hands(config, games, index)
    for colour, hand in batch.items():
        if colour != mover and hand != state.position.hands[colour]:
            raise MismatchError(f"{where}: the batch's hand of {COLOUR_NAMES[colour]} changed to {hand}")
    added = Counter(batch[mover])
    added.subtract(left)
    if min(added.values(), default=0) < 0 or sum(added.values()) != taken:
        raise MismatchError(f"{where}: the mover's hand became {batch[mover]} from {left} (less the card played)")


def _core_start(config: Config, games: Games, index: int) -> GameState:
    """The core's game with the batch game's Leader, its first card the batch's (with hands
    of five, the batch's hands)."""
    leader = config.seats[int(games.leader[index])]
    state, _ = start(config.rules, config.seats, int(games.seed[index]), first=leader)
    return _core_draw(config, games, index, state, np.asarray(games.seed))


def _core_draw(config: Config, games: Games, index: int, state: GameState, seeds: Any) -> GameState:
    """The batch game's new card turned up in the core, the packs compared after it.  With
    hands of five no card is turned up: the core takes the batch's hands and pack (the
    batch's refill is its own draw, :func:`_check_hands` checks that it is one card from the pack).
    With doubling a card is turned up only where the core awaits one (not before the draw,
    nor while a double is answered), and the batch must have drawn then and only then."""
    if config.rules.hand:
        return _core_hands(config, games, index, state)
    card = int(games.card[index])
    if np.asarray(games.extras).shape[0] and not awaiting_draw(config.rules, state):
        if card:
            raise MismatchError(f"game of seed {int(seeds[index])}: the batch drew a {card} where the core draws none")
        return state
    state = core_draw(config.rules, state, card)
    left = Counter(dict(zip(CARDS, (int(count) for count in games.pack[:, index]), strict=True)))
    if +left != Counter(state.pack.draw_pile):
        raise MismatchError(f"game of seed {int(seeds[index])}: the cards left to draw differ")
    return state


def _check_doubling(where: str, config: Config, games: Games, index: int, state: GameState) -> None:
    """Doubling, after a move: the stake, who dropped out and the stage of the turn (before
    the draw, a double answered: by whom, whether anybody accepted) are the core's."""
    batch = core_state(config, games, index)
    mine = (batch.position.stake, batch.position.out, batch.stage, batch.answering, batch.accepted)
    core = (state.position.stake, state.position.out, state.stage, state.answering, state.accepted)
    if mine != core:
        raise MismatchError(f"{where}: stake, out and stage are {mine} in the batch, {core} in the core")


def _check_tokens(where: str, config: Config, games: Games, index: int, state: GameState) -> None:
    """Fire and Ice, after a move: the tokens' pawns and the stage of the turn (before the
    draw where the Fire pawn may move) are the core's."""
    batch = core_state(config, games, index)
    mine = (batch.position.ice, batch.position.fire, batch.stage)
    core = (state.position.ice, state.position.fire, state.stage)
    if mine != core:
        raise MismatchError(f"{where}: Ice, Fire and stage are {mine} in the batch, {core} in the core")


def _core_hands(config: Config, games: Games, index: int, state: GameState) -> GameState:
    """``state`` holding the batch game's hands and pack: the cards in the pack, the hands and
    the discards make the deck."""
    batch = core_state(config, games, index)
    if Counter(batch.pack.draw_pile + batch.pack.discards + sum(core_hands(config, games, index).values(), ())) != (
        Counter(DECKS[config.rules.deck])
    ):
        raise MismatchError(f"game of seed {int(games.seed[index])}: the pack and hands are not one deck")
    return state._replace(position=batch.position, pack=batch.pack)


def _describe_sets(where: str, config: Config, games: Games, index: int, mine: set[Any], core: set[Any]) -> str:
    position = core_position(config, games, index)
    return (
        f"{where}: position {position} with card {int(games.card[index])}: "
        f"only the batch reaches {sorted(mine - core, key=repr)}; only the core reaches {sorted(core - mine, key=repr)}"
    )


#: The exit statuses of the command: the games agree, they disagree, the arguments are wrong.
AGREE, MISMATCH, BAD_ARGUMENTS = 0, 1, 2


def main(argv: Sequence[str] | None = None) -> int:
    """Cross-check --games batch games in chunks, printing progress. Exit status 0: every game
    agrees; 1: a game disagrees; 2: the arguments are wrong."""
    parser = argparse.ArgumentParser(prog="python -m pardon.batch.verify", description=main.__doc__)
    parser.add_argument("--rules", default="classic", help="rules the batch engine plays (default classic)")
    parser.add_argument(
        "--players",
        type=int,
        help="2, 3 or 4 (default 2; partners 4, its only count), or 1 for the solo challenge (its default, only count)",
    )
    parser.add_argument("--games", type=int, default=10_000, help="games to cross-check, 1 or more (default 10000)")
    parser.add_argument(
        "--seed", type=int, default=100_000, help="the first game's seed (then seed + 1, ...; default 100000)"
    )
    parser.add_argument("--chunk", type=int, default=500, help="games per batch, 1 or more (default 500)")
    arguments = parser.parse_args(argv)
    try:
        config = _checked(arguments)
    except PardonError as error:
        print(f"{parser.prog}: {error}", file=sys.stderr)
        return BAD_ARGUMENTS
    started, done, decisions, scored = time.monotonic(), 0, 0, 0
    try:
        while done < arguments.games:
            size = min(arguments.chunk, arguments.games - done)
            report = cross_check(config, range(arguments.seed + done, arguments.seed + done + size))
            done, decisions, scored = done + report.games, decisions + report.decisions, scored + report.scored
            elapsed = time.monotonic() - started
            shown = f"\r{done:,}/{arguments.games:,} games, {decisions:,} decisions agree, {elapsed:.0f}s"
            print(shown, end="", file=sys.stderr)
    except MismatchError as mismatch:
        print(f"\nmismatch: {mismatch}", file=sys.stderr)
        return MISMATCH
    print(file=sys.stderr)
    agreed = f"{decisions:,} decisions agree with the core"
    if config.rules.scoring != "none":
        agreed = f"{decisions:,} decisions and the points of {scored:,} games agree with the core"
    players = f"{config.players} player{'s' if config.players != 1 else ''}"
    print(f"{done:,} games of {arguments.rules} with {players}: {agreed}")
    return AGREE


def _checked(arguments: argparse.Namespace) -> Config:
    """The config of the run; InvalidError, in one line, for arguments it cannot play: rules or
    players the batch engine does not play, no games, no chunk, or seeds outside 32 bits (the
    batch engine's seeds, docs/batch.md: refused, not wrapped round onto other games)."""
    for option in ("games", "chunk"):
        if getattr(arguments, option) < 1:
            raise InvalidError(f"--{option} must be 1 or more, not {getattr(arguments, option)}")
    last = arguments.seed + arguments.games - 1
    if arguments.seed < 0 or last >= SEEDS:
        raise InvalidError(
            f"seeds are whole numbers from 0 to {SEEDS - 1}: --seed {arguments.seed} with --games "
            f"{arguments.games} plays seeds {arguments.seed} to {last}"
        )
    return Config.parse(arguments.rules, arguments.players)


if __name__ == "__main__":
    raise SystemExit(main())
