"""What the pages around the game read: the presets, the computer levels, the rules of each
preset, and a finished game move by move for the replay viewer.

The browser stays rule-free: the replay's positions and descriptions are computed here by
replaying the stored decisions with the core.  Only a finished game is replayed — its record,
seed included, is public by then (``/api/games/{id}/record``) — so nothing hidden leaks from a
game in progress.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from pardon.bots import BOTS, DEFAULT_BOT
from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import NO_CARD, card_name
from pardon.core.game import Game
from pardon.core.jsonio import position_to_json
from pardon.core.moves import Move
from pardon.core.notation import format_move
from pardon.core.rules import PRESET_HELP, PRESETS, Rules, in_words
from pardon.core.state import Position
from pardon.web.api import ApiError, rooms_of
from pardon.web.kept import finished_of
from pardon.web.rooms import draw_if_due, new_game
from pardon.web.rulesdoc import LinkMaker, options_table, preset_sections, to_html
from pardon.web.storage import FINISHED
from pardon.web.views import card_text, decision_json, teams_json

router = APIRouter(prefix="/api")

#: One line per computer level, weakest first (docs/bots.md says more).
LEVEL_HELP = {
    "random": "plays any legal move: a gentle start",
    "greedy": "looks one move ahead for the most progress",
    "tactician": "one move ahead, counting the cards left in the pack",
    "expectimax": "weighs every card the next player can draw: a strong opponent",
    "mcts": "searches many random orders of the pack: as strong as expectimax, and the slowest",
    "expert": "expectimax's search judged by a network learned by self-play: the strongest",
}


class Preset(BaseModel):
    name: str
    description: str
    players: list[int] = Field(description="the numbers of players the preset allows")
    hints: bool = Field(description="whether hints can be asked for (in hand games they rank every card of the hand)")
    doubling: bool
    hands: bool = Field(description="players hold hands of five cards")
    tokens: bool = Field(description="the Fire and Ice tokens of 2013")
    partners: bool
    points: bool = Field(description="the game is scored in points")
    leave_start: str = Field("circle", description="the cards that bring a pawn out of Start (the rules option)")
    sorry_forward_4: bool = Field(False, description="a Sorry! may instead move a pawn forward 4 (2013)")
    board: str = Field("plain", description="how the board is drawn: plain, or with the older board's diamonds")


class Level(BaseModel):
    name: str
    description: str
    default: bool


class RulesOption(BaseModel):
    option: str
    value: int | bool | str
    classic: int | bool | str = Field(description="the value in the classic game")
    help: str


class RulesSection(BaseModel):
    id: str = Field(description="the anchor of the section")
    title: str
    level: int = Field(description="2 for a section, 3 for a subsection")
    html: str = Field(description="the text as HTML (escaped: safe to insert)")


class RulesPage(BaseModel):
    name: str
    description: str
    players: list[int]
    options: list[RulesOption]
    sections: list[RulesSection]


class ReplayStep(BaseModel):
    event: int = Field(description="the decision's number in the game")
    colour: str
    move: str = Field(description="the decision in move notation")
    card: str | None = Field(description="the card played, or null for a decision without one")
    description: str = Field(description="the move in words")
    card_text: str | None = Field(description="what the card does under these rules")
    decision: dict[str, Any] = Field(description="the move's pawn actions and bumps, for the board to animate")
    position: dict[str, Any] = Field(description="the position after it (docs/json.md)")
    pack: int = Field(description="cards left face down after it")
    discards: int = Field(description="cards on the discard pile after it")


class Replay(BaseModel):
    id: str
    rules: str
    rules_name: str = Field(description="the rules in words, for people")
    winner: str | None
    teams: list[list[str]] | None = Field(description="the partnerships of a partners game (they win together)")
    seats: list[dict[str, Any]]
    start: dict[str, Any] = Field(description="the position before the first decision")
    pack: int = Field(description="cards in the pack at the start")
    steps: list[ReplayStep]


def preset_of(name: str, rules: Rules) -> Preset:
    return Preset(
        name=name,
        description=PRESET_HELP[name],
        players=list(rules.players),
        hints=True,
        doubling=rules.doubling,
        hands=bool(rules.hand),
        tokens=rules.tokens,
        partners=rules.partners,
        points=rules.scoring != "none",
        leave_start=rules.leave_start,
        sorry_forward_4=rules.sorry_forward_4,
        board=rules.board,
    )


@router.get("/presets", response_model=list[Preset], summary="The presets, with what each plays")
def presets() -> list[Preset]:
    return [preset_of(name, rules) for name, rules in PRESETS.items()]


@router.get("/levels/described", response_model=list[Level], summary="Computer levels with a line each")
def described_levels() -> list[Level]:
    return [Level(name=name, description=LEVEL_HELP.get(name, name), default=name == DEFAULT_BOT) for name in BOTS]


@router.get("/rules/{name}", response_model=RulesPage, summary="The rules of a preset, in sections")
def rules_page(name: str) -> RulesPage:
    if name not in PRESETS:
        raise ApiError(404, "no_preset", f"there is no preset {name[:40]!r}: choose {', '.join(PRESETS)}")
    link = LinkMaker(name)
    return RulesPage(
        name=name,
        description=PRESET_HELP[name],
        players=list(PRESETS[name].players),
        options=[RulesOption(**row) for row in options_table(name)],  # type: ignore[arg-type]
        sections=[
            RulesSection(id=section.slug, title=section.title, level=section.level, html=to_html(section.body, link))
            for section in preset_sections(name)
        ],
    )


def _step(rules: Rules, game: Game, number: int, colour: int, before: Position, move: Move) -> ReplayStep:
    """One decision of a replay; the pack and pile are counted before the next card is drawn."""
    played = move.card != NO_CARD
    decision = decision_json(rules, before, move)
    return ReplayStep(
        event=number,
        colour=COLOUR_NAMES[colour],
        move=format_move(before, move),
        card=card_name(move.card) if played else None,
        card_text=card_text(rules, move.card) if played else None,
        description=decision["text"],
        decision=decision,
        position=position_to_json(rules, game.position),
        pack=len(game.pack.draw_pile),
        discards=len(game.pack.discards),
    )


@router.get("/games/{game_id}/replay", response_model=Replay, summary="A finished game, decision by decision")
def replay(game_id: str, request: Request) -> Response:
    """Each decision with the card, the move in words and the position after it.  Made once
    and kept (:func:`pardon.web.kept.finished_of`): replaying a game takes a tenth of a second."""
    body = finished_of(request).get_or_make(("replay", game_id), lambda: _replay(game_id, request))
    return Response(body, media_type="application/json")


def _replay(game_id: str, request: Request) -> bytes:
    """The replay of a finished game, as JSON text (404 or 409, kept by nobody, if there is none)."""
    room = rooms_of(request).get(game_id) if len(game_id) <= 32 else None
    if room is None:
        raise ApiError(404, "no_game", f"there is no game {game_id!r}")
    row = room.row
    if row.status != FINISHED:
        raise ApiError(409, "not_finished", "a game can be replayed once it is over; watch it live meanwhile")
    game = new_game(row)
    rules = game.rules
    draw_if_due(game)
    start = position_to_json(rules, game.position)
    start_pack = len(game.pack.draw_pile) + (1 if game.card is not None else 0)
    steps: list[ReplayStep] = []
    for number, (colour, text) in enumerate(room.history, start=1):
        before = game.position
        move = game.parse(text)
        game.play_trusted(move)
        if move.card != NO_CARD or move.actions:  # going on to the draw shows nothing
            steps.append(_step(rules, game, number, colour, before, move))
        draw_if_due(game)
    shown = Replay(
        id=row.id,
        rules=row.rules,
        rules_name=in_words(rules),
        winner=COLOUR_NAMES[row.winner] if row.winner is not None else None,
        teams=teams_json(game),
        seats=[
            {"colour": COLOUR_NAMES[seat.colour], "kind": seat.kind, "name": seat.name, "level": seat.level}
            for seat in row.seats
        ],
        start=start,
        pack=start_pack,
        steps=steps,
    )
    return shown.model_dump_json().encode()
