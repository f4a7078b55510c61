"""A finished game's result for the scorekeeper, and the scorekeeper page as a file to keep.

``GET /api/games/{id}/result`` says who played (seat names, colours, partnerships), who won,
whether the game was doubled, and each player's pawns Home and points as the core scores them
(:attr:`pardon.core.game.Game.result`, :func:`pardon.core.scoring.points_of`): what the
scorekeeper needs to add a server game to a match with one click.  ``GET /scorekeeper.html``
downloads the scorekeeper itself, one self-contained file that works opened from disk.
"""

from __future__ import annotations

from collections import Counter
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse
from pydantic import BaseModel, Field

from pardon.core.board import COLOUR_NAMES, partner
from pardon.core.game import Game
from pardon.core.scoring import pawns_home
from pardon.web.api import ERRORS, ApiError, game_room
from pardon.web.pages import STATIC
from pardon.web.protocol import Colour
from pardon.web.storage import FINISHED, SeatRow


class PlayerResult(BaseModel):
    colour: Colour
    name: str
    kind: str = Field(description="human, hotseat or bot")
    level: str | None = Field(description="the computer player's level (bot seats)")
    home: int = Field(description="pawns Home when the game ended")
    points: int | None = Field(description="the points scored (null when the game was played without points)")
    dropped_out: bool = Field(description="dropped out of a double (Point Scoring Sorry!): scores 0")


class SideResult(BaseModel):
    """Who a match counts as one player: each seat, or a partnership in the partners game."""

    name: str = Field(description="the seat's name, or both partners' names: 'Red and Yellow'")
    colours: list[Colour]
    won: bool
    points: int | None = Field(description="the side's points: its players' points added up (null without points)")


class GameResultBody(BaseModel):
    id: str
    rules: str
    scoring: Literal["none", "1939", "1992"] = Field(description="none, Point Scoring Sorry! (1939) or 1992 points")
    partners: bool
    pawns: int = Field(description="pawns each player plays (4, or 3 in the faster game)")
    winner: Colour
    stake: int = Field(description="what the points were multiplied by: 1, or 2, 4, ... after accepted doubles")
    doubled: bool
    wins: int = Field(description="the wins this game counts in a match: 2 for a doubled game, else 1")
    everyone_dropped_out: bool = Field(description="every other player dropped out of a double: the doubler won")
    players: list[PlayerResult]
    sides: list[SideResult]


router = APIRouter()
api = APIRouter(prefix="/api", responses=ERRORS)


@api.get("/games/{game_id}/result", response_model=GameResultBody, summary="A finished game's winner and points")
def game_result(game_id: str, request: Request) -> GameResultBody:
    """Only once the game is over; the scorekeeper adds it to a match (docs/scorekeeper.md)."""
    room = game_room(request, game_id)
    if room.row.status != FINISHED or room.game.result is None:
        raise ApiError(409, "not_finished", "the game is not over yet: its result is given once somebody has won")
    return _result_of(game_id, room.game, room.row.seats)


def _result_of(game_id: str, game: Game, seats: tuple[SeatRow, ...]) -> GameResultBody:
    result = game.result
    assert result is not None
    position, rules = game.position, game.rules
    home = {seat.colour: pawns_home(position.pawns[seat.colour]) for seat in seats}
    points = dict(result.points) if rules.scoring != "none" else None
    players = [
        PlayerResult(
            colour=COLOUR_NAMES[seat.colour],
            name=seat.name,
            kind=seat.kind,
            level=seat.level,
            home=home[seat.colour],
            points=points[seat.colour] if points is not None else None,
            dropped_out=seat.colour in position.out,
        )
        for seat in seats
    ]
    return GameResultBody(
        id=game_id,
        rules=rules.name,
        scoring=rules.scoring,  # type: ignore[arg-type]
        partners=rules.partners,
        pawns=rules.pawns,
        winner=COLOUR_NAMES[result.winner],
        stake=result.multiplier,
        doubled=result.multiplier > 1,
        wins=result.wins,
        everyone_dropped_out=home[result.winner] < rules.pawns,
        players=players,
        sides=_sides(players, result.winner, partners=rules.partners),
    )


def _sides(players: list[PlayerResult], winner: int, *, partners: bool) -> list[SideResult]:
    """Each player alone, or the two partnerships (Red+Yellow, Blue+Green), Red's side first."""
    by_colour = {player.colour: player for player in players}
    named = _told_apart(players)
    winners = {COLOUR_NAMES[winner], COLOUR_NAMES[partner(winner)] if partners else COLOUR_NAMES[winner]}
    groups = [[player] for player in players]
    if partners:
        groups = [[by_colour["red"], by_colour["yellow"]], [by_colour["blue"], by_colour["green"]]]
    return [
        SideResult(
            name=" and ".join(named[player.colour] for player in group),
            colours=[player.colour for player in group],
            won=group[0].colour in winners,
            points=None if group[0].points is None else sum(player.points or 0 for player in group),
        )
        for group in groups
    ]


def _told_apart(players: list[PlayerResult]) -> dict[str, str]:
    """Each player's name for the scorekeeper, by colour, with the colour after a name that
    two players share (three computers of one level: "Computer (Easy) (Blue)"), so that each
    counts for a player of its own."""
    names = Counter(player.name.casefold() for player in players)
    return {
        player.colour: f"{player.name} ({player.colour.capitalize()})"
        if names[player.name.casefold()] > 1
        else player.name
        for player in players
    }


@router.get("/scorekeeper.html", include_in_schema=False)
def download_scorekeeper() -> FileResponse:
    """The scorekeeper as a file to keep: it works opened from disk, with no server."""
    return FileResponse(STATIC / "scorekeeper.html", media_type="text/html", filename="scorekeeper.html")


router.include_router(api)
