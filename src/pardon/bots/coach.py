"""The coach: where a game's win slipped away, and why, in a player's words.

:func:`analyse` walks every decision of a game record and judges it from the mover's own
observation (:meth:`pardon.core.game.Game.observe`: never the pack's order, nor another
hand), as a hint would:

- every player's win chance before each decision, by the judging level's own judge of a
  position (``expert``'s network where it has one for the game, else the evaluation's
  calibrated win chances with the cards left to draw, the learned pawn values of the
  searches): cheap enough for every decision of a long game, and what ``pardon analyse``
  draws by turn;
- for each coached seat's card with more than one distinct legal move, the win chance of
  the move played and of the best move, ranked by a searching level
  (:func:`pardon.bots.hint.rank_observed`, ``expert`` by default); the *loss* is the
  best move's chance less the played one's.

:func:`reason` says in one line what the better move does that the other does not: the
strategy tips of the puzzles' themes (:func:`pardon.bots.puzzles.theme`) and of the
evaluation's terms (bump the leader, park pawns in your Safety Zone, stay out of reach).

>>> from pardon.core import parse_position, parse_rules
>>> from pardon.core.moves import legal_moves
>>> rules = parse_rules("classic")
>>> position = parse_position("R:23,50,start,start Y:28,start,start,start turn:R")
>>> bump, quiet = legal_moves(rules, position, 5)[::-1]
>>> reason(rules, position, bump, quiet)
"Bump the leader: sends Yellow's pawn 10 from Home back to Start"
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from pardon.bots import DEFAULT_COACH, make_bot
from pardon.bots.evaluation import SEARCHED, Evaluator, card_chances
from pardon.bots.expectimax import ExpectimaxBot
from pardon.bots.hint import rank_observed
from pardon.core.board import (
    COLOUR_NAMES,
    DISTANCE,
    FIRST_TRACK,
    HOME,
    SQUARE,
    START,
    START_EXIT,
    TRACK_LENGTH,
    is_on_track,
    partner,
)
from pardon.core.cards import NO_CARD, SORRY, a_card, card_name
from pardon.core.game import CARD, Game, replay, replay_steps
from pardon.core.kernel import BONUS_HOME, FIRE
from pardon.core.moves import STEP, SWITCH, Action, Move
from pardon.core.notation import Record, format_move
from pardon.core.observation import Observation
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import Position
from pardon.core.tokens import next_corner

DEFAULT_TOP: Final = 3
#: A loss under half a point of win chance is within the judge's noise, not a mistake.
NO_LOSS: Final = 0.005
#: Two moves whose win chances differ by less than this are as good as each other: a tie.
TIE: Final = 0.0005
#: Squares an opponent's pawn can come forward onto yours with one card (4 and 6: a split 7's part).
FORWARD_REACH: Final = (*range(1, 9), 10, 11, 12)
#: Squares an opponent's pawn can go backward onto yours: a 10's back-1, a 4.
BACKWARD_REACH: Final = (1, 4)
#: The most squares a slide carries a pawn (a long slide: triangle to end circle).
LONGEST_SLIDE: Final = 4


# ------------------------------------------------------------------ the analysis


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the record, judged from the mover's observation.

    ``number`` counts the record's decisions from 1 (as :func:`pardon.core.game.replay`'s
    errors do); ``turn`` is the number of the card being played, counting every card of the
    game from 1 (a 2's draw again is a card of its own).  ``chances`` is every player's win
    chance before the decision, by colour (with partners, each colour shows its side's).
    ``best``, ``best_chance`` and ``played_chance`` are set for a coached seat's card with a
    choice; they are None otherwise.
    """

    number: int
    turn: int
    colour: int
    card: int
    move: str
    choices: int
    chances: dict[int, float]
    best: str | None = None
    best_chance: float | None = None
    played_chance: float | None = None

    @property
    def loss(self) -> float | None:
        """How much win chance the move played gave away against the best one (never below 0)."""
        if self.best_chance is None or self.played_chance is None:
            return None
        return max(0.0, self.best_chance - self.played_chance)


@dataclass(frozen=True, slots=True)
class Mistake:
    """A decision that lost win chance: the move played, the better one, and why it is better."""

    decision: Decision
    better: str
    reason: str

    @property
    def loss(self) -> float:
        return self.decision.loss or 0.0


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the coach found in one record."""

    rules: str
    seats: tuple[int, ...]
    winner: int | None
    bot: str
    coached: tuple[int, ...]
    decisions: tuple[Decision, ...]
    #: Every decision that lost win chance, the biggest loss first.
    mistakes: tuple[Mistake, ...]

    def top(self, count: int = DEFAULT_TOP) -> tuple[Mistake, ...]:
        return self.mistakes[:count]

    def to_json(self, top: int = DEFAULT_TOP) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "seats": [COLOUR_NAMES[colour] for colour in self.seats],
            "winner": None if self.winner is None else COLOUR_NAMES[self.winner],
            "bot": self.bot,
            "coached": [COLOUR_NAMES[colour] for colour in self.coached],
            "decisions": [_decision_json(decision) for decision in self.decisions],
            "mistakes": [_mistake_json(mistake) for mistake in self.top(top)],
        }


def _decision_json(decision: Decision) -> dict[str, Any]:
    data: dict[str, Any] = {
        "decision": decision.number,
        "turn": decision.turn,
        "colour": COLOUR_NAMES[decision.colour],
        "card": None if decision.card == NO_CARD else card_name(decision.card),
        "move": decision.move,
        "choices": decision.choices,
        "chances": {COLOUR_NAMES[colour]: round(chance, 4) for colour, chance in decision.chances.items()},
    }
    if decision.best_chance is not None and decision.played_chance is not None:
        data["best"] = decision.best
        data["best_chance"] = round(decision.best_chance, 4)
        data["played_chance"] = round(decision.played_chance, 4)
        data["loss"] = round(decision.loss or 0.0, 4)
    return data


def _mistake_json(mistake: Mistake) -> dict[str, Any]:
    decision = mistake.decision
    return {
        "decision": decision.number,
        "turn": decision.turn,
        "colour": COLOUR_NAMES[decision.colour],
        "card": card_name(decision.card),
        "played": decision.move,
        "better": mistake.better,
        "played_chance": round(decision.played_chance or 0.0, 4),
        "best_chance": round(decision.best_chance or 0.0, 4),
        "loss": round(mistake.loss, 4),
        "reason": mistake.reason,
    }


def analyse(
    record: Record,
    bot: str = DEFAULT_COACH,
    seats: Sequence[int] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Analysis:
    """Judge every decision of ``record`` (finished or not) for the ``seats`` coached (all by default).

    The record is replayed first, so a bad one raises :func:`pardon.core.game.replay`'s
    error before anything is judged.  ``progress`` is told how many decisions are done.
    """
    final = replay(record)  # checks every decision, with the error naming the bad one
    coached = tuple(dict.fromkeys(record.seats if seats is None else seats))  # each seat once
    for colour in coached:
        if colour not in record.seats:
            playing = ", ".join(COLOUR_NAMES[seat] for seat in record.seats)
            raise ValueError(f"{COLOUR_NAMES[colour]} is not in this game: the seats are {playing}")
    rules = parse_rules(record.rules)
    judge = _position_judge(rules, bot)
    decisions: list[Decision] = []
    mistakes: list[Mistake] = []
    for number, turn, game, move in _decisions(record):
        decision, mistake = _judge(game, move, number, turn, judge, bot if game.decider in coached else None)
        decisions.append(decision)
        if mistake is not None:
            mistakes.append(mistake)
        if progress is not None:
            progress(number)
    mistakes.sort(key=lambda mistake: (-mistake.loss, mistake.decision.number))
    return Analysis(record.rules, record.seats, final.winner, bot, coached, tuple(decisions), tuple(mistakes))


def _decisions(record: Record) -> Iterator[tuple[int, int, Game, Move]]:
    """Each decision of the record with the game as it stood when it was made (card drawn):
    its number, its turn (the card's number), the game, and the move, played once the caller has looked."""
    cards = 0
    for number, game, move in replay_steps(record):
        yield number, cards + 1, game, move
        cards += move.card != NO_CARD
        game.play_trusted(move)


def _position_judge(rules: Rules, bot: str) -> Callable[[Observation], list[float]]:
    """Every colour's win chance in an observed position, by ``bot``'s own judge where it
    has one (the searching levels), else by the evaluation's calibrated chances."""
    player = make_bot(bot)
    if isinstance(player, ExpectimaxBot):
        return _without_dropped(player.position_chances)
    evaluator = Evaluator(rules, SEARCHED)
    return _without_dropped(
        lambda seen: evaluator.win_chances(seen.position, card_chances(seen.remaining(), seen.rules))
    )


def _without_dropped(judge: Callable[[Observation], list[float]]) -> Callable[[Observation], list[float]]:
    """``judge`` with no chance left to a player who dropped out of a double (it takes no more
    turns and scores nothing), the others' shared out in proportion.  A partner who dropped out
    keeps the side's chance: the other partner plays on for both."""

    def judged(seen: Observation) -> list[float]:
        chances = judge(seen)
        out = seen.position.out
        if not out or seen.rules.partners:
            return chances
        kept = [0.0 if colour in out else chance for colour, chance in enumerate(chances)]
        total = sum(kept)
        return [chance / total for chance in kept] if total > 0 else chances

    return judged


def _judge(
    game: Game, move: Move, number: int, turn: int, judge: Callable[[Observation], list[float]], bot: str | None
) -> tuple[Decision, Mistake | None]:
    """The decision with every player's chances before it and, when ``bot`` coaches it (None:
    not coached), the played and the best move's chances; with the mistake, if it is one."""
    seen = game.observe(game.decider)  # all the judging sees: never the pack's order, nor another hand
    every = judge(seen)
    chances = {seat: every[seat] for seat in seen.position.seats}
    moves = game.legal_moves()
    decision = Decision(number, turn, seen.seat, move.card, format_move(seen.position, move), len(moves), chances)
    if bot is None or len(moves) < 2 or game.stage != CARD:
        return decision, None  # nothing to coach: not a coached seat, no choice, or no card to rank
    ranked = rank_observed(seen, moves, bot, random.Random(number))
    played = next((chance for candidate, chance in ranked if _same(candidate, move)), None)
    if played is None:
        return decision, None
    best, best_chance = ranked[0]
    better = format_move(seen.position, best)
    decision = replace(decision, best=better, best_chance=best_chance, played_chance=played)
    loss = decision.loss or 0.0
    if loss <= NO_LOSS:
        return decision, None
    shown = round(best_chance, 2) - round(played, 2)  # the loss as the chances shown beside it say
    return decision, Mistake(decision, better, reason(seen.rules, seen.position, best, move, max(shown, 0.0) or loss))


def _same(one: Move, other: Move) -> bool:
    return (one.card, one.actions) == (other.card, other.actions)


# ------------------------------------------------------------------ as text

#: Sparkline marks from a 0% to a 100% win chance; the plain ones for a terminal without Unicode.
MARKS: Final = "▁▂▃▄▅▆▇█"
PLAIN_MARKS: Final = "_.-=+*#@"
GRAPH_WIDTH: Final = 56
TABLE_COLUMNS: Final = 9


def format_analysis(analysis: Analysis, top: int = DEFAULT_TOP, marks: str = MARKS) -> str:
    """The analysis as a player reads it, in 80 columns: who won, every player's win chance by
    turn (a sparkline and a table), and the ``top`` biggest mistakes with the better move and why."""
    lines = [_heading(analysis)]
    by_turn = _chances_by_turn(analysis.decisions)
    outcomes = _outcomes(analysis)
    if by_turn and outcomes:  # a finished game ends at its result: 100% for the winner, 0% for the others
        by_turn.append((by_turn[-1][0] + 1, {colour: float(outcomes[colour] == "won") for colour in analysis.seats}))
    if by_turn:
        lines += [
            "",
            *_graph(analysis.seats, by_turn, marks, outcomes),
            "",
            *_table(analysis.seats, by_turn, ended=bool(outcomes)),
        ]
    if top > 0:
        lines += ["", *_mistake_lines(analysis, top)]
    return "\n".join(lines) + "\n"


def _names(colours: Sequence[int]) -> str:
    """``red``, ``red and yellow``, ``red, blue and yellow``."""
    names = [_colour(colour) for colour in colours]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _heading(analysis: Analysis) -> str:
    seats = _names(analysis.seats)
    cards = sum(1 for decision in analysis.decisions if decision.card != NO_CARD)
    if analysis.winner is None:
        return f"{seats}, {analysis.rules}: unfinished after {cards} cards."
    return f"{seats}, {analysis.rules}: {_colour(analysis.winner)} won after {cards} cards."


def _chances_by_turn(decisions: Sequence[Decision]) -> list[tuple[int, dict[int, float]]]:
    """Every player's chances before each turn's first decision."""
    found: dict[int, dict[int, float]] = {}
    for decision in decisions:
        found.setdefault(decision.turn, decision.chances)
    return sorted(found.items())


def _outcomes(analysis: Analysis) -> dict[int, str]:
    """How a finished game ended for each seat (``won``, or ``lost``; partners share their
    side's); nothing for a game not over."""
    if analysis.winner is None:
        return {}
    winners = {analysis.winner}
    if parse_rules(analysis.rules).partners:
        winners.add(partner(analysis.winner))
    return {colour: "won" if colour in winners else "lost" for colour in analysis.seats}


def _graph(
    seats: Sequence[int], by_turn: list[tuple[int, dict[int, float]]], marks: str, outcomes: dict[int, str]
) -> list[str]:
    """A sparkline per seat, its chance before the last turn and, once the game is over, how it ended."""
    width = min(GRAPH_WIDTH, len(by_turn))
    picked = [by_turn[round(index * (len(by_turn) - 1) / max(1, width - 1))] for index in range(width)]
    last = by_turn[-1][0] - 1 if outcomes else by_turn[-1][0]  # the result is not a turn
    each = f"; a mark per {len(by_turn) / width:.1f} turns" if width < len(by_turn) else ""
    end = " and the end" if outcomes else ""
    turns = f"1-{last}" if last > 1 else "1"
    lines = [f"Win chance by turn ({turns}{end}{each}; {marks[0]} 0% to {marks[-1]} 100%):"]
    for colour in seats:
        line = "".join(marks[min(len(marks) - 1, int(chances[colour] * len(marks)))] for _, chances in picked)
        chance = by_turn[-1][1][colour]
        ended = f"{chance:4.0%}, {outcomes[colour]}" if colour in outcomes else f"{chance:5.0%}"
        lines.append(f"  {_colour(colour):7s} {line} {ended}")
    return lines


def _table(seats: Sequence[int], by_turn: list[tuple[int, dict[int, float]]], ended: bool = False) -> list[str]:
    """A sample of the turns in numbers; ``ended``: the last column is the result, headed ``end``."""
    count = min(TABLE_COLUMNS, len(by_turn))
    picked = [by_turn[round(index * (len(by_turn) - 1) / max(1, count - 1))] for index in range(count)]
    heads = [f"{turn:>7d}" for turn, _ in picked]
    if ended:
        heads[-1] = f"{'end':>7s}"
    lines = ["  turn    " + "".join(heads)]
    for colour in seats:
        lines.append(f"  {_colour(colour):7s} " + "".join(f"{chances[colour]:>7.0%}" for _, chances in picked))
    return lines


def _mistake_lines(analysis: Analysis, top: int) -> list[str]:
    coached = _names(analysis.coached)
    if len(analysis.seats) == 1:  # alone, every move wins in the end: there is no chance to lose
        return ["The coach judges games against opponents: the solo challenge is not judged."]
    shown = analysis.top(top)
    doubling = any(
        decision.card == NO_CARD and decision.choices > 1 and decision.colour in analysis.coached
        for decision in analysis.decisions
    )
    unjudged = ["Doubling decisions (to double, accept or drop) are not judged: only cards are."]
    note = unjudged if doubling else []
    if not shown:
        if not any(decision.best_chance is not None for decision in analysis.decisions):
            return [f"No mistakes found for {coached}: no card gave a choice of moves.", *note]
        return [f"No mistakes found for {coached}: every move was as good as {analysis.bot}'s best.", *note]
    lines = [f"Biggest mistakes of {coached}, judged by {analysis.bot}:"]
    for index, mistake in enumerate(shown, start=1):
        decision = mistake.decision
        best, played = _percent(decision.best_chance or 0.0), _percent(decision.played_chance or 0.0)
        lost = f"{best - played}%" if best > played else "under 1%"  # the difference of the two shown
        lines += [
            f"{index:2d}. Turn {decision.turn}, {_colour(decision.colour)} with {a_card(decision.card)}: "
            f"lost {lost} ({best}% -> {played}%)",
            f"    played {decision.move}, better {mistake.better}",
            f"    {mistake.reason}",
        ]
    return [*lines, *note]


def _percent(chance: float) -> int:
    """The chance in whole percent, as ``f"{chance:.0%}"`` shows it."""
    return int(f"{chance * 100:.0f}")


# ------------------------------------------------------------------ reasons


def reason(rules: Rules, position: Position, better: Move, other: Move, gain: float | None = None) -> str:
    """One line, in a player's words, on why ``better`` beats ``other`` for the player to move in
    ``position``; ``gain`` (the difference of their win chances, when known) words the fallback,
    and where it is a tie (under :data:`TIE`) the line says the two moves are as good as each other."""
    if gain is not None and abs(gain) < TIE:
        return f"As good as {format_move(position, other)}: either leaves you as likely to win"
    for tip in _TIPS:
        found = tip(rules, position, better, other)
        if found is not None:
            return found
    if gain is not None and gain >= 0.005:  # a difference of chances, in games a family can picture
        return f"It wins about {round(gain * 100)} more games in 100"
    return "It wins slightly more often"


def best_reason(rules: Rules, position: Position, ranked: Sequence[tuple[Move, float]]) -> str | None:
    """The reason a hint gives for its best move: what it does that the second best does not
    (None when there is only one move)."""
    if len(ranked) < 2:
        return None
    (best, chance), (second, second_chance) = ranked[0], ranked[1]
    return reason(rules, position, best, second, chance - second_chance)


def _win_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The better move wins the game there and then; the other does not."""
    side = _side(rules, position.turn)
    if better.result.winner not in side or other.result.winner in side:
        return None
    brought = _count(better.result, side, lambda pawn: pawn == HOME) - _count(position, side, lambda pawn: pawn == HOME)
    return f"Win the game: this move brings your last {'pawns' if brought > 1 else 'pawn'} Home"


def _ice_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The moves differ only in where the Ice goes (Fire and Ice): the pawn it freezes."""
    ice = better.result.ice
    if ice is None or ice == other.result.ice or better.result.pawns != other.result.pawns:
        return None
    colour, distance = ice
    me = position.turn
    pawn = f"{_colour(colour)}'s pawn {distance} from Home"
    if _threatens(position, ice, me):
        return f"Put the Ice on {pawn}: it is in reach of yours, and frozen it cannot bump"
    if colour == _leader(rules, position, me) and distance == _lead_pawn(position, colour):
        return f"Put the Ice on the leader's furthest pawn, {pawn}: frozen, it cannot go Home"
    return f"Put the Ice on {pawn}: frozen, it cannot move"


def _fire_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The moves differ only in where the Fire goes (Fire and Ice): taken from an opponent,
    kept rather than lost on a pawn going Home, or on the pawn that gets Home first."""
    fire, instead = better.result.fire, other.result.fire
    if fire is None or fire == instead or better.result.pawns != other.result.pawns:
        return None
    side = _side(rules, position.turn)
    colour, distance = fire
    if colour not in side:
        return None
    pawn = "your pawn" if colour == position.turn else "your partner's pawn"
    held = position.fire
    if held is not None and held[0] not in side and instead is not None and instead[0] == held[0]:
        threat = (
            "it would jump to a corner before each draw"
            if _fire_jumps(*held)
            else "it would bring another pawn Home with it"
        )
        return f"Take the Fire from {_colour(held[0])}'s pawn {held[1]} from Home: {threat}"
    if instead is None:
        if any(action.kind == FIRE for action in other.actions):  # placed on a pawn going Home now
            return f"Put the Fire on {pawn} {distance} from Home: on the pawn going Home now it is lost unused"
        jumps = _fire_jumps(colour, distance)
        does = "it can jump to a corner before you draw" if jumps else "at Home it brings another pawn with it"
        return f"Take the Fire for {pawn} {distance} from Home: {does}"
    if instead[0] not in side:
        return None
    out = [spot for each in side for spot in better.result.pawns[each] if spot != HOME]
    if distance == min(out) and distance < instead[1]:
        return f"Put the Fire on {pawn} nearest Home: at Home it brings another pawn Home with it"
    if _fire_jumps(colour, distance) and not _fire_jumps(*instead):
        return f"Put the Fire on {pawn} {distance} from Home: it can jump to a corner before you draw"
    return None


def _fire_jumps(colour: int, distance: int) -> bool:
    """Whether a Fire pawn there has a corner ahead to jump to, short of its Safety Zone."""
    return next_corner(colour, distance) is not None


def _bump_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The better move sends back more of the opponents' progress."""
    me = position.turn
    hits = _opponent_bumps(rules, me, better)
    if _sent_back(hits) <= _sent_back(_opponent_bumps(rules, me, other)):
        return None
    colour, distance = max(hits, key=lambda bump: START - bump[1])
    pawn = f"{_colour(colour)}'s pawn {distance} from Home"
    if _threatens(position, (colour, distance), me):
        return f"Bump before you are bumped: {pawn} was in reach of yours"
    if colour == _leader(rules, position, me):
        return f"Bump the leader: sends {pawn} back to Start"
    return f"Bump: sends {pawn} back to Start"


def _own_bump_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The other move sweeps one of the player's own pawns (or a partner's) back to Start."""
    me = position.turn
    own = [bump for bump in other.bumps if not _is_opponent(rules, me, bump[0])]
    if len(own) <= len([bump for bump in better.bumps if not _is_opponent(rules, me, bump[0])]):
        return None
    colour, distance = own[0]
    whose = "your" if colour == me else "your partner's"
    switch = _switch(other)
    if switch is not None and switch.end == switch.landing:  # the pawn switched onto the triangle slides
        swept = "yours" if colour == me else "your partner's pawn"
        triangle = SQUARE[switch.colour][switch.origin]
        return (
            f"Don't switch there: {_colour(switch.target)}'s pawn lands on the slide at {triangle}"
            f" and sweeps {swept} to Start"
        )
    return f"Don't slide over your own pawn: it sends {whose} pawn on {SQUARE[colour][distance]} back to Start"


def _hold_sorry_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """With a hand, a Sorry! spent on a small target is not there for the leader."""
    if other.card != SORRY or better.card == SORRY:
        return None
    leader = _leader(rules, position, position.turn)
    lead = START if leader is None else _lead_pawn(position, leader)
    if leader is not None and (leader, lead) in other.bumps:
        return None  # it was spent on the leader's pawn: the reason is elsewhere
    if leader is None or lead == START:
        return "Hold your Sorry! for a pawn that has come further"
    return f"Hold a Sorry! for the leader: {_colour(leader)} has a pawn {lead} from Home"


def _switch_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The better move switches with an opponent's pawn; or the other one switches backwards.

    With two switches (or a switch against an 11 forward) the reason is what they really differ
    in: the squares the player's side gains, else what each does to the opponent's pawn; never
    a gain for the player that the other move beats."""
    me = position.turn
    switch, instead = _switch(better), _switch(other)
    if switch is not None and (instead is None or sum(_switch_worth(switch)) > sum(_switch_worth(instead))):
        target, square = switch.target, SQUARE[switch.colour][switch.origin]
        gained, set_back = _switch_worth(switch)
        mine, theirs = _gains(rules, position, better), _gains(rules, position, other)
        yours = "you" if switch.colour == me else "your partner's pawn"
        forward = -_switch_worth(instead)[1] if instead is not None else 0  # the other switch's gift
        if forward > 0 and instead is not None and mine[0] <= theirs[0] and mine[1] > theirs[1]:
            if (instead.target, instead.target_origin) == (switch.target, switch.target_origin):
                whose = "your" if instead.colour == me else "your partner's"
                pawn = f"{whose} pawn on {SQUARE[instead.colour][instead.origin]}"
                return f"Don't switch {pawn}: it would take {_colour(target)}'s pawn {forward} squares nearer Home"
            pawn = f"{_colour(instead.target)}'s pawn on {SQUARE[instead.colour][instead.end]}"
            return f"Don't switch with {pawn}: it would take that pawn {forward} squares nearer Home"
        if target == _leader(rules, position, me) and set_back > 0 and mine[1] > theirs[1]:
            pawn = f"{_colour(target)}'s pawn {switch.target_origin} from Home"
            whose = "your" if switch.colour == me else "your partner's"
            return f"Switch with the leader's pawn (11): {pawn} goes back to {whose} square {square}"
        pawn = _target_pawn(switch, instead)
        if gained > 0 and mine[0] > theirs[0]:
            return f"Switch with {pawn} (11): it takes {yours} {gained} squares nearer Home"
        if mine[1] <= theirs[1]:
            return None  # neither the player's gain nor the opponents' loss is the better move's
        if set_back > 0:
            return f"Switch with {pawn} (11): it sets that pawn {set_back} squares back"
        return None
    if instead is None or switch is not None:
        return None
    gained, set_back = _switch_worth(instead)
    whose = "your pawn" if instead.colour == me else "your partner's pawn"
    if gained < 0 and better.is_pass:  # the 11 cannot move forward: the switch is a choice
        return f"Don't switch: it takes {whose} {-gained} squares back, and an 11 never forces a switch"
    if gained < 0 and better.card == 11:
        return f"Move the 11 forward: this switch takes {whose} backwards"
    if set_back < 0 and -set_back > gained:
        pawn = f"{_colour(instead.target)}'s pawn"
        return f"Don't switch with {pawn}: it would take that pawn {-set_back} squares nearer Home"
    return None


def _target_pawn(switch: Action, instead: Action | None) -> str:
    """The pawn a switch takes, by colour, and by its square too where the other move switches
    with another pawn of that colour ("Switch with Blue's pawn" would not tell them apart)."""
    pawn = f"{_colour(switch.target)}'s pawn"
    if instead is not None and instead.target == switch.target and instead.target_origin != switch.target_origin:
        pawn += f" on {SQUARE[switch.colour][switch.end]}"
    return pawn


def _gains(rules: Rules, position: Position, move: Move) -> tuple[int, int]:
    """What a move does to the race: the squares the player's side gains, and the squares the
    opponents lose (negative: they gain)."""
    me = position.turn
    side = _side(rules, me)
    opponents = [colour for colour in position.seats if _is_opponent(rules, me, colour)]

    def progress(board: Position, colours: Sequence[int]) -> int:
        return sum(_my_progress(board, colour) for colour in colours)

    return (
        progress(move.result, side) - progress(position, side),
        progress(position, opponents) - progress(move.result, opponents),
    )


def _switch_worth(switch: Action) -> tuple[int, int]:
    """What a switch does: the squares the switching pawn gains (negative: it goes back) and
    the squares the switched pawn loses."""
    square = SQUARE[switch.colour][switch.origin]
    return switch.origin - switch.end, DISTANCE[switch.target][square] - switch.target_origin


def _home_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The better move brings more pawns Home (a split 7's two parts both count)."""
    me = position.turn
    side = _side(rules, me)

    def home(pawn: int) -> bool:
        return pawn == HOME

    gained = _count(better.result, side, home) - _count(other.result, side, home)
    if gained <= 0:
        return None
    if any(action.kind == BONUS_HOME for action in better.actions):
        return "Use the Fire pawn's bonus: another of your pawns goes straight Home with it"
    if not _is_split(better):
        return "Bring a pawn Home"
    brought = _count(better.result, side, home) - _count(position, side, home)
    if brought >= 2:
        return "Split the 7 to bring two pawns Home"
    return "Bring a pawn Home with one part of the 7" if _is_split(other) else "Split the 7 to bring a pawn Home"


def _safety_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The better move parks more pawns in the Safety Zone, where nobody can bump them."""
    me = position.turn

    def safe(pawn: int) -> bool:
        return pawn < FIRST_TRACK

    side = _side(rules, me)
    if _count(better.result, side, safe) <= _count(other.result, side, safe):
        return None
    if _count(better.result, side, safe) <= _count(position, side, safe):  # the other move backs out
        return "Keep your pawn in your Safety Zone, where nobody can bump it"
    if _is_split(better):
        return "Split the 7: one part takes a pawn into your Safety Zone, where nobody can bump it"
    return "Get a pawn into your Safety Zone, where nobody can bump it"


def _reach_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The other move leaves more of the player's pawns where an opponent's card can bump them."""
    me = position.turn
    exposed = _exposed(rules, other.result, me)
    if len(exposed) <= len(_exposed(rules, better.result, me)):
        return None
    exposed_after_better = {threat[0] for threat in _exposed(rules, better.result, me)}
    mine, attacker, card = next(
        (threat for threat in exposed if threat[0] not in exposed_after_better),
        exposed[0],
    )
    colour, distance = attacker
    threat = (
        f"{_colour(colour)}'s pawn on {SQUARE[colour][distance]} could bump yours on {SQUARE[me][mine]} with {card}"
    )
    stays = mine in position.pawns[me] and mine in better.result.pawns[me]
    if stays and distance in position.pawns[colour] and distance not in better.result.pawns[colour]:
        # the better move leaves the pawn where it is and takes its attacker away
        sent_back = better.result.pawns[colour].count(START) > position.pawns[colour].count(START)
        return f"{'Bump the pawn that threatens yours' if sent_back else 'Take the threat away'}: {threat}"
    in_reach_before = {threat[0] for threat in _exposed(rules, position, me)}
    if any(pawn not in better.result.pawns[me] for pawn in in_reach_before - exposed_after_better):
        return f"Move out of reach: {threat}"  # the better move takes a pawn in reach away
    return f"Stay out of reach: {threat}"  # the other move puts a pawn in reach, or brings an attacker near


def _start_exit_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """A pawn left on its own start exit blocks the next pawn out of Start."""
    me = position.turn
    if not _blocks_start(other.result, me) or _blocks_start(better.result, me):
        return None
    return "Keep your pawn off your own start exit: it blocks your next pawn out of Start"


def _out_of_start_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    me = position.turn

    def in_start(pawn: int) -> bool:
        return pawn == START

    if _count(better.result, (me,), in_start) >= _count(other.result, (me,), in_start):
        return None
    return "Take a pawn out of Start: with more pawns out, more cards have a use"


def _slide_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    ridden = _slid(better) - _slid(other)
    if ridden <= 0:
        return None
    riders = {action.colour for action in better.actions if action.kind == STEP and action.landing != action.end}
    return f"Slide: it carries {_whose_pawn(position, riders)} {ridden} squares further"


def _whose_pawn(position: Position, colours: set[int]) -> str:
    """ "your pawn", or with partners "your partner's pawn" where only the partner's moves."""
    return "your partner's pawn" if colours and position.turn not in colours else "your pawn"


def _backward_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """A 4 (or a 10's back-1) from near Start goes back past it, to just short of Home."""
    action, instead = _backward(better), _backward(other)
    if action is None or not _saves_a_lap(action) or (instead is not None and _saves_a_lap(instead)):
        return None
    if better.card == 4:
        way = "Go backward 4 from near Start" if instead is not None else "Go backward 4"
    else:
        way = "Take the 10 as backward 1"
    return f"{way}: it puts {_whose_pawn(position, {action.colour})} {action.end} from Home, nearly a lap saved"


def _draw_again_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """With a hand, a 2 gives one more play (RULES §7): the other card is still there after it."""
    if not rules.hand or not rules.draw_again_on_2 or better.card != 2 or other.card in (2, NO_CARD):
        return None
    return f"Play the 2 first: you play one more card after it, and you still hold your {card_name(other.card)}"


def _progress_tip(rules: Rules, position: Position, better: Move, other: Move) -> str | None:
    """The better move gains more squares (a Sorry! onto a pawn further along, say)."""
    side = _side(rules, position.turn)
    ahead = sum(_my_progress(better.result, colour) - _my_progress(other.result, colour) for colour in side)
    if ahead <= 0:
        return None
    squares = "1 square" if ahead == 1 else f"{ahead} squares"
    if better.card == SORRY:
        return f"Sorry! where it takes you furthest: your pawn lands {squares} nearer Home"
    pawns = "your side's pawns" if rules.partners else "your pawns"
    return f"It takes {pawns} {squares} further towards Home"


#: The tips in order of weight: the first that fits is the reason.
_TIPS: Final[tuple[Callable[[Rules, Position, Move, Move], str | None], ...]] = (
    _win_tip,
    _ice_tip,
    _fire_tip,
    _bump_tip,
    _own_bump_tip,
    _hold_sorry_tip,
    _home_tip,
    _switch_tip,
    _safety_tip,
    _reach_tip,
    _backward_tip,
    _slide_tip,
    _start_exit_tip,
    _out_of_start_tip,
    _draw_again_tip,
    _progress_tip,
)


# ------------------------------------------------------------------ what moves do


def _colour(colour: int) -> str:
    return COLOUR_NAMES[colour].capitalize()


def _is_opponent(rules: Rules, me: int, colour: int) -> bool:
    return colour != me and not (rules.partners and colour == partner(me))


def _opponent_bumps(rules: Rules, me: int, move: Move) -> list[tuple[int, int]]:
    return [bump for bump in _bumps(move) if _is_opponent(rules, me, bump[0])]


def _bumps(move: Move) -> list[tuple[int, int]]:
    """The pawns the move sends back to Start, each where it stood before the move: a pawn
    an 11 switched onto a slide's path is swept from the switching pawn's square, but the
    player took it from where it stood before the switch."""
    switch = _switch(move)
    if switch is None:
        return list(move.bumps)
    put = (switch.target, DISTANCE[switch.target][SQUARE[switch.colour][switch.origin]])
    return [(switch.target, switch.target_origin) if bump == put else bump for bump in move.bumps]


def _sent_back(bumps: list[tuple[int, int]]) -> int:
    """The progress the bumped pawns lose: squares from Start to where each stood."""
    return sum(START - distance for _, distance in bumps)


def _my_progress(position: Position, colour: int) -> int:
    return sum(START - pawn for pawn in position.pawns[colour])


def _leader(rules: Rules, position: Position, me: int) -> int | None:
    """The opponent who leads the race: its pawns have come strictly further than every other
    opponent's, and it is ahead of the player's side (its pawns have come further than each of
    theirs, or it has a pawn on the track nearer Home than all of theirs).  None when nobody
    leads: a tie (the first move of a game), a player ahead, a solo game."""
    opponents = [colour for colour in position.seats if _is_opponent(rules, me, colour)]
    if not opponents:
        return None
    leader = max(opponents, key=lambda colour: _my_progress(position, colour))
    come = _my_progress(position, leader)
    if any(_my_progress(position, colour) >= come for colour in opponents if colour != leader):
        return None
    side = [colour for colour in _side(rules, me) if colour in position.seats]
    nearest = min((pawn for colour in side for pawn in position.pawns[colour] if pawn != HOME), default=START)
    ahead = all(_my_progress(position, colour) < come for colour in side) or _lead_pawn(position, leader) < nearest
    return leader if ahead else None


def _lead_pawn(position: Position, colour: int) -> int:
    """How far from Home the colour's pawn on the track nearest Home stands."""
    return min((pawn for pawn in position.pawns[colour] if is_on_track(pawn)), default=START)


def _side(rules: Rules, me: int) -> tuple[int, ...]:
    """The colours whose pawns win the game for the player: with partners, the partner's too."""
    return (me, partner(me)) if rules.partners else (me,)


def _count(position: Position, colours: Sequence[int], wanted: Callable[[int], bool]) -> int:
    return sum(1 for colour in colours for pawn in position.pawns[colour] if wanted(pawn))


def _is_split(move: Move) -> bool:
    return move.card == 7 and len(move.actions) == 2


def _switch(move: Move) -> Action | None:
    return next((action for action in move.actions if action.kind == SWITCH), None)


def _slid(move: Move) -> int:
    """Squares the move's pawns are carried by slides."""
    return sum(
        action.landing - action.end
        for action in move.actions
        if action.kind == STEP and 0 < action.landing - action.end <= LONGEST_SLIDE
    )


def _backward(move: Move) -> Action | None:
    """The move's backward step (a 4, or a 10's back-1), if it has one."""
    if move.card not in (4, 10) or len(move.actions) != 1:
        return None
    action = move.actions[0]
    if action.kind != STEP or action.origin == START:
        return None
    return action if move.card == 4 or action.origin - action.landing != 10 else None


def _saves_a_lap(action: Action) -> bool:
    """Whether a backward step went back past its own start exit: nearer Home, not further."""
    return action.end < action.origin


def _blocks_start(position: Position, me: int) -> bool:
    pawns = position.pawns[me]
    return START_EXIT in pawns and START in pawns


def _behind(attacker: int, target: int) -> int:
    """How many squares the attacking square is behind the target square, going clockwise."""
    return (target - attacker) % TRACK_LENGTH


def _threat_card(behind: int, can_split: bool) -> str | None:
    """The card that lets a pawn ``behind`` squares back (negative: ahead) land on a pawn; a split
    7 only where its colour has another pawn out to move the rest of the 7."""
    if behind in FORWARD_REACH:
        if behind in (4, 6):
            return "a split 7" if can_split else None
        return a_card(behind)
    if -behind in BACKWARD_REACH:
        return "a 4" if behind == -4 else "a 10's back-1"
    return None


def _exposed(rules: Rules, position: Position, me: int) -> list[tuple[int, tuple[int, int], str]]:
    """The player's track pawns an opponent's pawn could land on with one card:
    ``(my distance, (colour, distance) of the attacker, the card)``, one per pawn."""
    found = []
    for mine in position.pawns[me]:
        if not is_on_track(mine):
            continue
        target = SQUARE[me][mine]
        for colour in position.seats:
            if not _is_opponent(rules, me, colour):
                continue
            threat = _attacker(position, colour, target)
            if threat is not None:
                found.append((mine, threat[0], threat[1]))
                break
    return found


def _attacker(position: Position, colour: int, target: int) -> tuple[tuple[int, int], str] | None:
    out = sum(pawn not in (START, HOME) for pawn in position.pawns[colour])
    for pawn in position.pawns[colour]:
        if not is_on_track(pawn):
            continue
        behind = _behind(SQUARE[colour][pawn], target)
        card = _threat_card(behind if behind <= TRACK_LENGTH // 2 else behind - TRACK_LENGTH, out > 1)
        if card is not None:
            return (colour, pawn), card
    return None


def _threatens(position: Position, bump: tuple[int, int], me: int) -> bool:
    """Whether the bumped pawn stood within a forward card of one of the player's pawns."""
    colour, distance = bump
    if not is_on_track(distance):
        return False
    square = SQUARE[colour][distance]
    return any(is_on_track(mine) and _behind(square, SQUARE[me][mine]) in FORWARD_REACH for mine in position.pawns[me])


__all__ = ["DEFAULT_COACH", "Analysis", "Decision", "Mistake", "analyse", "best_reason", "format_analysis", "reason"]
