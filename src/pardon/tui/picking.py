"""Picking one of a decision's choices step by step, as a player thinks of it.

A hand's card first (in a hand game), then a pawn, then where it goes; a split 7 asks again for
the second pawn and its destination, in either order; what is left to tell apart after that
(where the Ice goes, whether to put the Fire on the pawn) is one last list, the pawns the token may
go on marked on the board.  A player's pawn
that cannot move is listed too, with the reason, so "why not?" is one key away.

The picker knows no rules: it only narrows down the choices it was given.

>>> from pardon.core.cards import Pack
>>> from pardon.core.game import Game
>>> from pardon.core.notation import parse_position
>>> from pardon.core.rules import parse_rules
>>> from pardon.tui.choices import choice_of_move
>>> position = parse_position("R:20,36,start,start Y:40,start,start,start turn:R")
>>> game = Game.at(parse_rules("classic"), position, Pack((7,), (), 1), seed=1)
>>> _ = game.draw()
>>> picker = Picker([choice_of_move(game.rules, game.position, m) for m in game.legal_moves()], 0, game.position)
>>> [option.label for option in picker.options()]
['Pawn on 36', 'Pawn on 20', 'Pawn in Start: cannot move']
>>> picker.pick(picker.options()[1]) is None  # the pawn on 20: now, where to
True
>>> [option.label for option in picker.options()][:3]
['to 27', 'to 21 (1 of 7)', 'to 22 (2 of 7)']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, NamedTuple

from pardon.core.board import COLOUR_NAMES, FIRST_TRACK, SQUARE, START, TRACK_LENGTH
from pardon.core.cards import NO_CARD, a_card, card_label
from pardon.core.layout import Cell
from pardon.core.moves import ACCEPT, DOUBLE, DROP, FIRE, ICE, SPLIT_CARD, STEP, Action
from pardon.core.state import Position
from pardon.textboard import pawn_cell
from pardon.tui.choices import PAWN_KINDS, Choice, destination_words, pawn_words, place_words, steps_of, token_words

CARD: Final = "card"
PAWN: Final = "pawn"
DESTINATION: Final = "to"
CHOICE: Final = "choice"
WHY: Final = "why"


class Option(NamedTuple):
    """One line of the list the player picks from; ``cell`` is where it shows on the board.

    An option with a ``reason`` is only there to say why a pawn (or a card) cannot be used.
    """

    kind: str
    key: tuple[Any, ...]
    label: str
    cell: Cell | None = None
    reason: str | None = None

    @property
    def enabled(self) -> bool:
        return self.reason is None


class Picker:
    """Narrows ``choices`` (the decision of ``player`` in ``position``) down to one.

    ``why_not`` maps a card to why each pawn the player moves, by ``(colour, distance)``,
    cannot use it; those are the player's own and, with partners, ``partner``'s (docs/rules.md:
    "Partners").  ``hand`` is the player's hand, in a hand game.
    """

    def __init__(
        self,
        choices: Sequence[Choice],
        player: int,
        position: Position,
        why_not: Mapping[int, Mapping[tuple[int, int], str]] | None = None,
        hand: tuple[int, ...] = (),
        partner: int | None = None,
    ) -> None:
        self.choices = list(choices)
        self.player = player
        #: The colours whose pawns the player moves: their own, then their partner's.
        self.team = (player,) if partner is None else (player, partner)
        self.position = position
        self.why_not = why_not or {}
        self.hand = hand
        cards = dict.fromkeys(choice.card for choice in self.choices)
        #: The card being played: chosen by the player when the choices play several.
        self.card: int | None = next(iter(cards)) if len(cards) == 1 else None
        self.parts: list[Action] = []
        self.pawn: tuple[int, int] | None = None
        self._steps: list[str] = []

    # --- where the picking stands ----------------------------------------------------------

    @property
    def stage(self) -> str:
        """What the next pick is: a card, a pawn, a destination, or one of the choices left."""
        if self.card is None:
            return CARD
        if self.pawn is not None:
            return DESTINATION
        if self.card == NO_CARD or not self._pawns_left():
            return CHOICE
        return PAWN

    def remaining(self) -> list[Choice]:
        """The choices that agree with every pick so far."""
        return [
            choice
            for choice in self.choices
            if (self.card is None or choice.card == self.card) and _unpicked(choice, self.parts) is not None
        ]

    def prompt(self) -> str:
        """What the player is asked now."""
        stage = self.stage
        if stage == CARD:
            dead = all(choice.is_pass for choice in self.choices)
            return "No card can be used: discard one." if dead else "Choose a card to play:"
        if stage == DESTINATION:
            assert self.pawn is not None
            return f"{pawn_words(self.player, *self.pawn)} goes where?"
        if stage == PAWN:
            return "Choose the next pawn:" if self.parts else "Choose a pawn to move:"
        if self.card == NO_CARD:
            answering = any(action.kind in (ACCEPT, DROP) for choice in self.choices for action in choice.actions)
            if answering:  # the stake at issue, as the browser says it: accepted, every score counts double
                doubler, stake = COLOUR_NAMES[self.position.turn].capitalize(), self.position.stake
                return f"{doubler} doubled the stakes (x{stake} -> x{2 * stake}): accept, or drop out (score nothing)?"
            return "Before you draw:"
        return "Your move:" if len(self.remaining()) == 1 else "Which one?"

    def options(self) -> list[Option]:
        """The list to pick from now, the choices first, then the pawns that cannot move."""
        stage = self.stage
        if stage == CARD:
            return self._card_options()
        if stage == DESTINATION:
            return self._destination_options()
        remaining = self.remaining()
        if self.card == NO_CARD:  # going on, the Fire's move, a double, an answer: one list
            return [self._choice_option(choice, remaining) for choice in remaining]
        finished = [choice for choice in remaining if not _unpicked(choice, self.parts)]
        options = [] if stage == CHOICE else self._pawn_options(remaining)
        options += [self._choice_option(choice, finished) for choice in finished]
        if not self.parts and self.card != NO_CARD:
            options += self._pawns_that_cannot_move(remaining, self.card)
        return options

    def cannot_move(self, card: int | None = None) -> list[Option]:
        """The pawns the player moves (their own, then their partner's) out of Home that cannot
        use ``card`` (by default the card being played), each with why not, whatever has been
        picked so far (none without a card: a hand's card not yet chosen)."""
        card = self.card if card is None else card
        if card is None or card == NO_CARD:
            return []
        return self._pawns_that_cannot_move([choice for choice in self.choices if choice.card == card], card)

    # --- picking --------------------------------------------------------------------------

    def pick(self, option: Option) -> Choice | None:
        """Take ``option``: the choice it completes, or None while more is to be picked (or
        when the option only says why a pawn cannot move)."""
        if not option.enabled:
            return None
        if option.kind == CARD:
            self.card = option.key[0]
            remaining = self.remaining()
            if len(remaining) == 1 and remaining[0].is_pass:  # a dead hand: the card picked is discarded at once
                return remaining[0]
        elif option.kind == PAWN:
            self.pawn = (option.key[0], option.key[1])
        elif option.kind == DESTINATION:
            assert self.pawn is not None
            self.parts.append(Action(*option.key))
            self.pawn = None
            remaining = self.remaining()
            if len(remaining) == 1 and not _unpicked(remaining[0], self.parts):
                return remaining[0]
        elif option.kind == CHOICE:
            chosen: Choice = self.choices[option.key[0]]
            return chosen
        self._steps.append(option.kind)
        return None

    def back(self) -> bool:
        """Take back the last pick; False if there is none."""
        if not self._steps:
            return False
        step = self._steps.pop()
        if step == CARD:
            self.card = None
        elif step == PAWN:
            self.pawn = None
        elif step == DESTINATION:
            self.pawn = (self.parts[-1].colour, self.parts[-1].origin)
            self.parts.pop()
        return True

    # --- the lists -------------------------------------------------------------------------

    def _pawns_left(self) -> list[tuple[int, int]]:
        """Every pawn still to be moved by some remaining choice: the player's own first, each
        colour's nearest Home first."""
        found = {
            (action.colour, action.origin)
            for choice in self.remaining()
            for action in _unpicked(choice, self.parts) or ()
        }
        return sorted(found, key=lambda pawn: (pawn[0] != self.player, pawn[0], pawn[1]))

    def _card_options(self) -> list[Option]:
        by_card: dict[int, list[Choice]] = {}
        for choice in self.choices:
            by_card.setdefault(choice.card, []).append(choice)
        options = []
        for card, choices in sorted(by_card.items()):
            verb = "Discard" if all(choice.is_pass for choice in choices) else "Play"
            options.append(Option(CARD, (card,), f"{verb} {card_label(card)}"))
        for card in sorted(set(self.hand) - set(by_card)):
            options.append(Option(CARD, (card,), f"{card_label(card)}", reason=self._card_reason(card)))
        return options

    def _card_reason(self, card: int) -> str:
        reasons = self.why_not.get(card, {})
        if len(set(reasons.values())) == 1:
            return next(iter(reasons.values()))
        return f"no pawn can use {a_card(card)} now"

    def _pawn_options(self, remaining: list[Choice]) -> list[Option]:
        return [Option(PAWN, pawn, pawn_words(self.player, *pawn), pawn_cell(*pawn)) for pawn in self._pawns_left()]

    def _destination_options(self) -> list[Option]:
        found: dict[tuple[int, ...], Action] = {}
        for choice in self.remaining():
            for action in _unpicked(choice, self.parts) or ():
                if (action.colour, action.origin) == self.pawn:
                    found.setdefault(tuple(action), action)
        card = self.card if self.card is not None else NO_CARD
        split = card - sum(steps_of(part) for part in self.parts) if card == SPLIT_CARD else 0
        ordered = sorted(found.values(), key=lambda action: _destination_order(action, split or card))
        board = self._board_after_parts()
        return [
            Option(
                DESTINATION,
                tuple(action),
                destination_words(action, split) + _bumping(board, action, self.player),
                pawn_cell(action.colour, action.landing),
            )
            for action in ordered
        ]

    def _board_after_parts(self) -> dict[int, int]:
        """Track square -> colour of the pawn there, once the parts picked so far are made."""
        board = {
            SQUARE[colour][distance]: colour
            for colour in self.position.seats
            for distance in self.position.pawns[colour]
            if FIRST_TRACK <= distance < START
        }
        for part in self.parts:
            for square in _squares_of(part.colour, part.origin, part.origin):
                board.pop(square, None)
            for square in _squares_of(part.colour, part.landing, part.end):
                board.pop(square, None)
            board.update(dict.fromkeys(_squares_of(part.colour, part.end, part.end), part.colour))
        return board

    def _choice_option(self, choice: Choice, finished: list[Choice]) -> Option:
        index = self.choices.index(choice)
        return Option(CHOICE, (index,), self._choice_label(choice, finished), _token_cell(choice, finished))

    def _choice_label(self, choice: Choice, finished: list[Choice]) -> str:
        if choice.card == NO_CARD:
            return _label_without_card(choice, self.position.stake)
        if choice.is_pass:
            if self.hand:
                return f"Discard {card_label(choice.card)}"
            if choice.card == 11 and len(self.choices) > 1:
                return "Decline the switch"
            return f"Pass: no pawn can use {a_card(choice.card)}"
        tokens = [token_words(action) for action in choice.actions if action.kind not in PAWN_KINDS]
        if len(finished) == 1 or (not self.parts and not tokens):
            return choice.text.split(": ", 1)[-1]
        if tokens:
            return "; ".join(tokens)
        others = {action.kind for other in finished for action in other.actions if action.kind not in PAWN_KINDS}
        if others:  # as the browser says it
            return "No Fire this time" if FIRE in others else "Without the Ice"
        return choice.text.split(": ", 1)[-1]

    def _pawns_that_cannot_move(self, choices: list[Choice], card: int | None) -> list[Option]:
        """The pawns the player moves, out of Home, that none of ``choices`` (the choices of
        ``card``) moves, each with why not."""
        movable = {(action.colour, action.origin) for choice in choices for action in choice.pawn_actions}
        card = card if card is not None else NO_CARD
        reasons = self.why_not.get(card, {})
        shown = []
        for colour in self.team:
            for distance in dict.fromkeys(self.position.pawns[colour]):
                if distance == 0 or (colour, distance) in movable:
                    continue
                reason = reasons.get((colour, distance)) or f"it cannot use {a_card(card)} now"
                label = f"{pawn_words(self.player, colour, distance)}: cannot move"
                shown.append(Option(WHY, (colour, distance), label, pawn_cell(colour, distance), reason))
        return shown


def _token_cell(choice: Choice, finished: list[Choice]) -> Cell | None:
    """Where a choice that differs from the others only by where it puts the Ice or the Fire
    puts it: the pawn's cell, as it stands before the move (the token goes on first), so the
    board marks the pawns the token may go on, as the browser does."""
    if len(finished) < 2:
        return None
    placed = [action for action in choice.actions if action.kind in (ICE, FIRE) and action.colour >= 0]
    if len(placed) != 1:
        return None
    token = placed[0]
    pawns = {tuple(choice.pawn_actions) for choice in finished}
    if len(pawns) > 1:  # the choices differ by more than the token: the list says which is which
        return None
    return pawn_cell(token.colour, token.origin)


def _squares_of(colour: int, landing: int, end: int) -> list[int]:
    """The track squares a pawn lands on and slides over, from ``landing`` to ``end``."""
    if not (FIRST_TRACK <= landing < START and FIRST_TRACK <= end < START):
        return []
    squares = [SQUARE[colour][landing]]
    while squares[-1] != SQUARE[colour][end]:
        squares.append((squares[-1] + 1) % TRACK_LENGTH)
    return squares


def _bumping(board: dict[int, int], action: Action, player: int) -> str:
    """What a step sends back to Start, landing or sliding: ", bumping Yellow"."""
    if action.kind != STEP:
        return ""
    mover = SQUARE[action.colour][action.origin] if FIRST_TRACK <= action.origin < START else -1
    bumped = [
        "your own pawn" if board[square] == player else COLOUR_NAMES[board[square]].capitalize()
        for square in _squares_of(action.colour, action.landing, action.end)
        if square in board and square != mover
    ]
    return f", bumping {' and '.join(bumped)}" if bumped else ""


def _destination_order(action: Action, card: int) -> tuple[int, int]:
    """Steps before switches and Sorry!s (by square); the whole card's count first, then the shorter
    parts of a split."""
    if action.kind != STEP:
        return action.kind, SQUARE[action.target][action.target_origin] if action.target >= 0 else 0
    steps = steps_of(action)
    return action.kind, 0 if steps == card else abs(steps)


def _unpicked(choice: Choice, parts: list[Action]) -> list[Action] | None:
    """The pawn actions of ``choice`` not yet picked; None if a pick is not among them."""
    left = list(choice.pawn_actions)
    for part in parts:
        if part not in left:
            return None
        left.remove(part)
    return left


def _label_without_card(choice: Choice, stake: int = 1) -> str:
    if not choice.actions:
        return "Go on: draw a card"
    action = choice.actions[0]
    if action.kind == DOUBLE:
        return f"Double the stakes (x{stake} -> x{2 * stake})"
    if action.kind == ACCEPT:
        return "Accept the double"
    if action.kind == DROP:
        return "Drop out"
    where = place_words(action.colour, action.end).removeprefix("on ")
    return f"Move the Fire pawn {place_words(action.colour, action.origin)} to {where}"
