"""Sorry! as an OpenSpiel game (needs the ``openspiel`` extra): ``pyspiel.load_game("python_pardon")``.

Importing this module registers the game with OpenSpiel.  It is played by pardon's rules core
(:mod:`pardon.core.turn`), so every edition whose cards are drawn one at a time is offered:
``classic``, ``classic-1939`` (Point Scoring and doubling included), ``partners``, ``modern``
(Fire and Ice), ``modern-no-tokens`` and any options of theirs, for 2 to 4 players.  Hands of
five are not (a hand is dealt from the pack, which OpenSpiel would see as a hidden chance draw),
nor ``solo``, a challenge against the pack with no opponent to win against.

* **Chance nodes**: each card drawn is one, its outcomes the cards the pack can turn up with
  their chances (:func:`pardon.core.turn.chance_outcomes`, from the pack's composition); the
  chance action of a card is its number (1–12, and 13 for a Sorry!).  The Leader is drawn for
  with the game's ``seed`` before the first node.
* **Decisions**: a player's action is the index of the move in the core's list of legal moves
  (one per distinct outcome, in the core's stable order: nearest Home first), so action ``i``
  names a different move in each state; :meth:`PardonState.action_to_string` says which, in
  pardon's notation (docs/notation.md).  A card that cannot be used is a one-move list, the
  forfeit.  Doubles and their answers, and the Fire pawn's moves before a draw, are decisions
  like any other.
* **Returns**: zero-sum, at the end only: +1 to each winner (the winning colour, and its partner
  in a partners game), and the losers share an equal loss (-1 each with two players, -1/3 with
  four).  Perfect information: every player sees the whole position (and nobody the pack's order).
* **Observations**: the string is the position in notation (docs/notation.md) and the card to
  play; the tensor counts each colour's pawns at each distance from its Home (0 Home, 1–5 the
  Safety Zone, 6–65 the track, 66 Start), then the card to play (11 flags) and who is to decide
  (4 flags).

>>> import pyspiel
>>> game = pyspiel.load_game("python_pardon", {"rules": "classic", "players": 2, "seed": 3})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())
(True, 11)
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
import pyspiel

from pardon.core.board import COLOUR_NAMES, START, partner
from pardon.core.cards import CARDS, card_name
from pardon.core.errors import InvalidError
from pardon.core.moves import Move
from pardon.core.notation import format_move, format_position
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import seats_for
from pardon.core.turn import apply, awaiting_draw, chance_outcomes, decider, draw, legal_moves, start

#: The actions: more than any state's legal moves.  The most are a 7 split any way among the
#: eight pawns of two partners (``partner_split=any``): at most C(14, 7) = 3,432 ways; 1,400
#: distinct moves were seen in 30 random games, 94 without that option, 70 with Fire and Ice.
MOST_MOVES: Final = 4096
#: More decisions than any game needs (a 4-player 1939 game lasts about 400 cards).
LONGEST_GAME: Final = 20_000
#: The tensor: pawns per colour and distance, the card to play, who decides.
PLACES: Final = START + 1
TENSOR_SHAPE: Final = (4 * PLACES + len(CARDS) + 4,)

PARAMETERS: Final = {"rules": "classic", "players": 2, "seed": 0}

GAME_TYPE: Final = pyspiel.GameType(
    short_name="python_pardon",
    long_name="Sorry! (pardon)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=PARAMETERS,
)


def game_rules(text: str) -> Rules:
    """The rules a game of ``text`` is played by, refused where cards are held in hands."""
    rules = parse_rules(text)
    if rules.hand:
        raise InvalidError(f"{text}: hands of cards are not offered in OpenSpiel (their deal would be a hidden draw)")
    return rules


class PardonGame(pyspiel.Game):  # type: ignore[misc]
    """A game of ``rules`` between ``players`` (as the rules allow), the Leader drawn with ``seed``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**PARAMETERS, **(params or {})}
        self.rules = game_rules(str(given["rules"]))
        players = int(given["players"])
        if players < 2:
            raise InvalidError(f"{given['rules']}: OpenSpiel plays pardon between 2 and 4 players, not {players}")
        if players not in self.rules.players:
            allowed = ", ".join(map(str, self.rules.players))
            raise InvalidError(f"{given['rules']} is played by {allowed} players, not {players}")
        self.seats = seats_for(players)
        self.seed = int(given["seed"])
        info = pyspiel.GameInfo(
            num_distinct_actions=MOST_MOVES,
            max_chance_outcomes=max(CARDS) + 1,
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=LONGEST_GAME,
        )
        super().__init__(GAME_TYPE, info, given)

    def new_initial_state(self) -> PardonState:
        return PardonState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PardonObserver:
        return PardonObserver(params)


class PardonState(pyspiel.State):  # type: ignore[misc]
    """A game under way: the core's :class:`~pardon.core.turn.GameState`, and the moves it offers."""

    def __init__(self, game: PardonGame) -> None:
        super().__init__(game)
        self.rules = game.rules
        self.seats = game.seats
        self.state, _ = start(game.rules, game.seats, game.seed)
        self._moves: list[Move] | None = None

    # --- reading the state -----------------------------------------------------------------

    def moves(self) -> list[Move]:
        """The decider's legal moves (none at a chance node or at the end), in the core's order."""
        if self._moves is None:
            self._moves = legal_moves(self.rules, self.state)
            if len(self._moves) > MOST_MOVES:
                raise InvalidError(f"{len(self._moves)} legal moves: more than the {MOST_MOVES} actions offered")
        return self._moves

    def current_player(self) -> int:
        if self.state.position.winner is not None:
            return int(pyspiel.PlayerId.TERMINAL)
        if awaiting_draw(self.rules, self.state):
            return int(pyspiel.PlayerId.CHANCE)
        return self.seats.index(decider(self.state))

    def _legal_actions(self, player: int) -> list[int]:
        return list(range(len(self.moves())))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return chance_outcomes(self.rules, self.state)

    def is_terminal(self) -> bool:
        return self.state.position.winner is not None

    def returns(self) -> list[float]:
        winner = self.state.position.winner
        if winner is None:
            return [0.0] * len(self.seats)
        winners = {winner, partner(winner)} if self.rules.partners else {winner}
        losers = len(self.seats) - len(winners)
        loss = -len(winners) / losers if losers else 0.0
        return [1.0 if colour in winners else loss for colour in self.seats]

    # --- changing it -----------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        if self.is_chance_node():
            self.state = draw(self.rules, self.state, action)
        else:
            self.state = apply(self.rules, self.state, self.moves()[action])
        self._moves = None

    # --- in words --------------------------------------------------------------------------

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"draw {card_name(action)}"
        moves = self.moves()
        if not 0 <= action < len(moves):
            return f"action {action} (not legal here)"
        colour = decider(self.state)
        return f"{COLOUR_NAMES[colour]}: {format_move(self.state.position, moves[action])}"

    def __str__(self) -> str:
        card = self.state.card
        return format_position(self.state.position) + (f" card:{card_name(card)}" if card is not None else "")


class PardonObserver:
    """What every player sees (the game is of perfect information): as a string, and as a tensor."""

    def __init__(self, params: Any = None) -> None:
        if params:
            raise InvalidError(f"observation parameters are not offered: {params}")
        self.tensor = np.zeros(TENSOR_SHAPE, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: PardonState, player: int) -> None:
        tensor = self.tensor
        tensor.fill(0.0)
        game = state.state
        for colour, pawns in enumerate(game.position.pawns):
            for distance in pawns:
                tensor[colour * PLACES + distance] += 1.0
        if game.card is not None:
            tensor[4 * PLACES + CARDS.index(game.card)] = 1.0
        if not state.is_terminal() and not state.is_chance_node():
            tensor[4 * PLACES + len(CARDS) + decider(game)] = 1.0

    def string_from(self, state: PardonState, player: int) -> str:
        return str(state)


pyspiel.register_game(GAME_TYPE, PardonGame)
