"""The REST side: create a game, look one up, the lobby, join a public game, rematch, records.

Every body is a pydantic model, so the OpenAPI schema (``/openapi.json``) is the contract;
every refusal is ``{"error": CODE, "message": TEXT}`` with a 4xx status.

Looking a game up keeps nothing in memory that was not there: a finished game is read from
the database (and replayed when its record is asked for), then forgotten.  Each client
address may create only so many games a minute (:class:`CreationLimit`), and join only so many
seats from the lobby (:class:`JoinLimit`).
"""

from __future__ import annotations

import contextlib
import math
import secrets
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Annotated, Any, Final, Literal

from fastapi import APIRouter, Header, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from pardon.bots import BOTS, DEFAULT_BOT
from pardon.core.board import COLOUR_NAMES
from pardon.core.errors import PardonError
from pardon.core.game import Game, record_of
from pardon.core.jsonio import rules_from_json
from pardon.core.notation import format_record, record_name
from pardon.core.rules import in_words, parse_rules, to_text
from pardon.core.state import check_seats, seats_for
from pardon.web.kept import finished_of
from pardon.web.logs import game_created
from pardon.web.names import clean_name, computer_name, seat_name
from pardon.web.protocol import COLOUR_NUMBERS, Colour, client_key
from pardon.web.registry import Rooms
from pardon.web.rooms import GameBrokenError, Room, new_game
from pardon.web.seating import BOT, HUMAN, join_cutoff
from pardon.web.settings import Settings
from pardon.web.storage import FINISHED, WAITING, GameRow, SeatRow, Store
from pardon.web.tokens import hash_token, new_game_id, new_token, token_matches

#: A name as given, cleaned where it enters (:func:`clean_name`): every seat's name comes this way.
Name = Annotated[str, StringConstraints(max_length=40), AfterValidator(clean_name)]
RulesOption = Annotated[str, StringConstraints(max_length=40)] | int | bool


class ApiError(Exception):
    """A refused request: HTTP ``status``, a stable ``code`` and a message."""

    def __init__(self, status: int, code: str, message: str):
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: A seat of a new game left open for anyone: a human seat offered in the lobby, without an invite link.
OPEN = "open"

LevelName = Literal["random", "greedy", "tactician", "expectimax", "mcts", "expert"]


class SeatSpec(_Body):
    """One seat of a new game."""

    colour: Colour | None = Field(default=None, description="left out: the usual colours for the number of seats")
    kind: Literal["human", "bot", "hotseat", "open"] = Field(
        description="human: a player with an invite link; bot: a computer player; "
        "hotseat: a human on the creator's screen; open (public games): a human seat left open for anyone, "
        "offered in the lobby and taken with POST /api/games/{id}/join"
    )
    level: LevelName | None = Field(
        default=None, description="the computer player's level (bot seats only; default greedy)"
    )
    name: Name | None = None


class CreateGame(_Body):
    rules: Annotated[str, StringConstraints(max_length=200)] | dict[str, RulesOption] = Field(
        default="classic", description="a preset, adjusted text like 'classic(pawns=3)', or an object of options"
    )
    seats: list[SeatSpec] = Field(min_length=1, max_length=4)
    public: bool = Field(default=False, description="listed in the lobby, and open to spectators without a token")
    hints: bool = Field(default=True, description="whether players may ask for hints")
    seed: int | None = Field(default=None, ge=0, lt=2**62, description="left out: chosen at random (never shown)")


class SeatInvite(BaseModel):
    colour: Colour
    kind: str = Field(description="human (an invited or open seat), bot or hotseat")
    level: str | None
    name: str
    open: bool = Field(description="left open for anyone in the lobby: no token, no link")
    token: str | None = Field(description="the seat's secret (invited human seats); shown once, stored only hashed")
    link: str | None


class GameCreated(BaseModel):
    id: str
    rules: str
    websocket: str
    host_token: str = Field(description="plays the hot-seat seats, and asks for a rematch")
    host_link: str
    spectator_token: str
    spectator_link: str
    seats: list[SeatInvite]


class SeatSummary(BaseModel):
    colour: Colour
    kind: str
    level: str | None
    name: str
    open: bool = Field(description="left open for anyone and not taken yet: offered in the lobby, joinable")
    taken: bool = Field(description="the seat has its player: a computer, or a human who has come")
    joining: bool = Field(
        description="joined from the lobby, its player not come yet: kept for them for a grace time, "
        "then open again (neither open nor taken meanwhile)"
    )


class GameSummary(BaseModel):
    id: str
    rules: str
    #: The rules in words, for people: "Classic-1939 with Point Scoring, doubles".
    rules_name: str
    public: bool
    hints: bool
    status: Literal["waiting", "playing", "finished"]
    event: int
    winner: Colour | None
    seats: list[SeatSummary]
    rematch_of: str | None
    rematch: str | None


class Lobby(BaseModel):
    games: list[GameSummary]
    total: int = Field(description="the games the lobby offers in all")
    offset: int = Field(description="the games skipped, as asked (0 when paging by next)")
    limit: int
    next: str | None = Field(
        description="the URL of the next page (the games after the last of this one, however the lobby "
        "has changed meanwhile: none lost or repeated); null at the end"
    )


class Watchable(BaseModel):
    games: list[GameSummary] = Field(description="the public games being played, newest first")
    total: int = Field(description="how many public games are being played in all")
    limit: int


class JoinRequest(_Body):
    seat: Colour
    name: Name = Field(default="", description="the joiner's name, as the others will see it; left out: the colour's")


class ComputerRequest(_Body):
    level: LevelName | None = Field(
        default=None, description="left out: the level of the game's other computer players, or the default level"
    )


class Joined(BaseModel):
    id: str
    colour: Colour
    token: str
    link: str


class Rematch(BaseModel):
    id: str
    websocket: str
    first: Colour | None = Field(description="the winner of the last game, who plays first")


class ErrorBody(BaseModel):
    error: str
    message: str


def refused_for_now(description: str) -> dict[str, Any]:
    """The schema of a refusal to try again later: the error body and ``Retry-After``."""
    retry_after = {"description": "seconds to wait", "schema": {"type": "integer"}}
    return {"model": ErrorBody, "description": description, "headers": {"Retry-After": retry_after}}


ERRORS: dict[int | str, dict[str, Any]] = {code: {"model": ErrorBody} for code in (400, 401, 403, 404, 409, 413, 422)}
#: Any request may be refused for its address's reads (``--read-rate``) or another limit of its own.
ERRORS[429] = refused_for_now("rate_limited: too many requests from this address")


def come_back(status: int, code: str, message: str, seconds: int) -> JSONResponse:
    """A refusal to try again in ``seconds`` (``Retry-After``), changing nothing."""
    return JSONResponse({"error": code, "message": message}, status_code=status, headers={"Retry-After": str(seconds)})


RATE_LIMITED: dict[int | str, dict[str, Any]] = {
    429: refused_for_now("rate_limited: too many games created from this address")
}
JOIN_LIMITED: dict[int | str, dict[str, Any]] = {
    429: refused_for_now("rate_limited: too many seats joined from this address, or joined and not come to yet")
}

#: The refusals of an answer that is not JSON when all goes well (a record) are JSON still.
ERROR_SCHEMA = {"$ref": "#/components/schemas/ErrorBody"}

router = APIRouter(prefix="/api", responses=ERRORS)


def rooms_of(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def base_url(request: Request) -> str:
    configured: str | None = request.app.state.settings.public_url
    return (configured or str(request.base_url)).rstrip("/")


def play_link(request: Request, game_id: str, token: str) -> str:
    """A link for a browser: the token is in the fragment, which browsers never send to a server."""
    return f"{base_url(request)}/play/{game_id}#token={token}"


#: The lobby's games to a page, by default and at most.
LOBBY_PAGE: Final = 50
LOBBY_MOST: Final = 100
#: The games being played that the lobby offers to watch, by default.
WATCH_PAGE: Final = 20
#: A lobby cursor: the created time of a game, in microseconds since 1970 (UTC), and its id.
LOBBY_CURSOR: Final = r"^[0-9]{1,17}\.[A-Za-z0-9_-]{1,32}$"
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


class CreationLimit:
    """A token bucket per client address: ``per_minute`` games a minute on average, ``burst``
    at once (0 a minute: no limit).  Behind a proxy every client has the proxy's address."""

    #: Addresses remembered at most; those whose bucket is full again are forgotten first.
    MOST = 10_000

    def __init__(self, per_minute: float, burst: int):
        self.rate = per_minute / 60
        self.burst = float(max(1, burst))
        self._buckets: dict[str, tuple[float, float]] = {}  # address: (tokens, when)
        self._guard = threading.Lock()

    def wait(self, address: str) -> float:
        """0 if ``address`` may create a game now (and counts it); else the seconds until it may."""
        if self.rate <= 0:
            return 0.0
        now = time.monotonic()
        with self._guard:
            tokens, when = self._buckets.get(address, (self.burst, now))
            tokens = min(self.burst, tokens + (now - when) * self.rate)
            if tokens < 1:
                self._buckets[address] = (tokens, now)
                return (1 - tokens) / self.rate
            self._buckets[address] = (tokens - 1, now)
            if len(self._buckets) > self.MOST:
                self._forget_full(now)
            return 0.0

    def _forget_full(self, now: float) -> None:
        refill = self.burst / self.rate
        self._buckets = {address: kept for address, kept in self._buckets.items() if now - kept[1] < refill}


class JoinLimit:
    """Seats joined from the lobby per client address: a token bucket of ``per_minute`` joins a
    minute, ``burst`` at once (as :class:`CreationLimit`), and at most ``most_waiting`` seats
    joined whose players have not come yet (0: no limit on either).  So that one stranger cannot
    keep the lobby's seats from everyone else; a seat joined and not come to is open again after
    the grace time anyway.  Two joins of one address at the same instant may both pass."""

    def __init__(self, per_minute: float, burst: int, most_waiting: int, grace: float):
        self.bucket = CreationLimit(per_minute, burst)
        self.most_waiting = most_waiting
        self.grace = grace
        #: The joins of the grace time gone by, per address: (when, the token's hash), oldest first.
        self._joins: dict[str, list[tuple[float, str]]] = {}
        self._guard = threading.Lock()

    @classmethod
    def of(cls, settings: Settings) -> JoinLimit:
        """The limit a server's settings set; none with ``--join-rate 0``."""
        if settings.join_rate <= 0:
            return cls(0.0, 1, 0, settings.join_grace)
        return cls(settings.join_rate, settings.join_burst, settings.joining_per_address, settings.join_grace)

    def refusal(self, address: str, store: Store, cutoff: datetime) -> JSONResponse | None:
        """None if ``address`` may join a seat now (counted); else the ``429`` answer saying why."""
        if self.most_waiting > 0:
            recent = self._recent(address)
            waiting = store.joining([hashed for _, hashed in recent], cutoff) if len(recent) >= self.most_waiting else 0
            if waiting >= self.most_waiting:
                seconds = max(1, math.ceil(recent[0][0] + self.grace - time.monotonic()))
                message = (
                    f"you have joined {self.most_waiting} seats without going to them: "
                    f"go to one of those games first, or try again in {seconds} s"
                )
                return come_back(429, "rate_limited", message, seconds)
        wait = self.bucket.wait(address)
        if wait > 0:
            seconds = max(1, math.ceil(wait))
            message = f"too many seats joined from this address: try again in {seconds} s"
            return come_back(429, "rate_limited", message, seconds)
        return None

    def joined(self, address: str, token_hash: str) -> None:
        """``address`` has joined a seat with the token whose hash is ``token_hash``."""
        if self.most_waiting > 0:
            with self._guard:
                self._joins.setdefault(address, []).append((time.monotonic(), token_hash))
                if len(self._joins) > CreationLimit.MOST:
                    self._joins = {key: kept for key, kept in self._joins.items() if self._recent_of(kept)}

    def _recent(self, address: str) -> list[tuple[float, str]]:
        with self._guard:
            recent = self._recent_of(self._joins.get(address, []))
            if recent:
                self._joins[address] = recent
            else:
                self._joins.pop(address, None)
            return recent

    def _recent_of(self, joins: list[tuple[float, str]]) -> list[tuple[float, str]]:
        since = time.monotonic() - self.grace
        return [join for join in joins if join[0] >= since]


_join_limit_guard = threading.Lock()


def join_limit(request: Request) -> JoinLimit:
    """The server's :class:`JoinLimit`, made by the first join."""
    state = request.app.state
    with _join_limit_guard:
        limit: JoinLimit | None = getattr(state, "join_limit", None)
        if limit is None:
            limit = state.join_limit = JoinLimit.of(state.settings)
        return limit


@router.post("/games", status_code=201, response_model=GameCreated, summary="Create a game", responses=RATE_LIMITED)
def create_game(body: CreateGame, request: Request) -> Any:
    limit: CreationLimit = request.app.state.creation_limit
    address = client_key(request.client.host) if request.client else ""
    wait = limit.wait(address)
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        return come_back(
            429, "rate_limited", f"too many games created from this address: try again in {seconds} s", seconds
        )
    row, tokens, host, watch = _new_game_row(body)  # a game that cannot be is refused first, 422
    if body.public:
        _add_public(request, row, address)
    else:
        rooms_of(request).add(row)
    game_created(row.id, address)
    return GameCreated(
        id=row.id,
        rules=row.rules,
        websocket=f"/ws/games/{row.id}",
        host_token=host,
        host_link=play_link(request, row.id, host),
        spectator_token=watch,
        spectator_link=play_link(request, row.id, watch),
        seats=[
            SeatInvite(
                colour=COLOUR_NAMES[seat.colour],
                kind=seat.kind,
                level=seat.level,
                name=seat.name,
                open=seat.open,
                token=tokens.get(seat.colour),
                link=play_link(request, row.id, tokens[seat.colour]) if seat.colour in tokens else None,
            )
            for seat in row.seats
        ],
    )


def _add_public(request: Request, row: GameRow, address: str) -> None:
    """Store a public game, unless its address has ``Settings.public_per_address`` public games
    waiting for players already (not expired), so that one address cannot fill the lobby and push
    everyone else's games off its first pages.  The database counts them, for every server process
    on it (``create_rate`` 0: no limit on this either)."""
    settings: Settings = request.app.state.settings
    most = settings.public_per_address if settings.create_rate > 0 else 0
    expiry = settings.waiting_expiry
    seen_since = datetime.now(UTC) - timedelta(seconds=expiry) if expiry > 0 else None
    if rooms_of(request).add_public(row, address, most, seen_since) is None:
        raise ApiError(
            429,
            "rate_limited",
            f"this address has {most} public games waiting for players already: "
            "play one of them, or make this one private and send its links",
        )


def _new_game_row(body: CreateGame) -> tuple[GameRow, dict[int, str], str, str]:
    try:
        rules = rules_from_json(body.rules)
    except (PardonError, ValueError) as error:
        raise ApiError(422, "invalid_rules", str(error)) from None
    colours = _colours(body.seats)
    try:
        check_seats(colours, rules)
    except (PardonError, ValueError) as error:
        raise ApiError(422, "invalid_seats", str(error)) from None
    tokens: dict[int, str] = {}
    seat_rows = []
    for spec, colour in zip(body.seats, colours, strict=True):
        if spec.kind != BOT and spec.level is not None:
            raise ApiError(422, "invalid_seats", f"only a computer player has a level ({COLOUR_NAMES[colour]})")
        if spec.kind == OPEN and not body.public:
            where = COLOUR_NAMES[colour]
            raise ApiError(422, "invalid_seats", f"an open seat is for a public game: the lobby offers it ({where})")
        if spec.kind == OPEN and spec.name:
            where = COLOUR_NAMES[colour]
            raise ApiError(
                422, "invalid_seats", f"an open seat has no name: whoever joins it from the lobby plays it ({where})"
            )
        level = (spec.level or "greedy") if spec.kind == BOT else None
        if spec.kind == HUMAN:
            tokens[colour] = new_token()
        name = seat_name(colour, level, spec.name or "")
        kind = HUMAN if spec.kind == OPEN else spec.kind
        token_hash = _hash(tokens.get(colour))
        seat_rows.append(SeatRow(colour, kind, level, name, token_hash, spec.kind == BOT, open=spec.kind == OPEN))
    host, watch = new_token(), new_token()
    row = GameRow(
        id=new_game_id(),
        rules=to_text(rules),
        seed=body.seed if body.seed is not None else secrets.randbits(62),
        first=None,
        public=body.public,
        hints=body.hints,
        status=WAITING,
        winner=None,
        host_hash=hash_token(host),
        watch_hash=hash_token(watch),
        seats=tuple(sorted(seat_rows, key=lambda seat: seat.colour)),
    )
    new_game(row)  # any rule the game refuses is refused here, before anything is stored
    return row, tokens, host, watch


def _hash(token: str | None) -> str | None:
    return hash_token(token) if token is not None else None


def _colours(specs: list[SeatSpec]) -> tuple[int, ...]:
    named = [spec.colour for spec in specs if spec.colour is not None]
    if not named:
        if len(specs) not in (1, 2, 3, 4):
            raise ApiError(422, "invalid_seats", "a game has 1 to 4 seats")
        return seats_for(len(specs)) if len(specs) > 1 else (0,)
    if len(named) != len(specs):
        raise ApiError(422, "invalid_seats", "give every seat a colour, or none")
    if len(set(named)) != len(named):
        raise ApiError(422, "invalid_seats", "a colour can be played by one player only")
    return tuple(COLOUR_NUMBERS[colour] for colour in named)


@router.get("/games/{game_id}", response_model=GameSummary, summary="A game's seats and progress")
def get_game(game_id: str, request: Request) -> GameSummary:
    """Live games from memory; finished ones (and any the server cannot load) from the database."""
    rooms = rooms_of(request)
    room = rooms.rooms.get(game_id)
    if room is None:
        row = _stored(request, game_id)
        if row.status != FINISHED:
            with contextlib.suppress(GameBrokenError):  # still described, from the database
                room = rooms.get(game_id)
        if room is None:
            return _summary(row, rooms.store.decision_count(game_id), _cutoff(request))
    return _summary(room.row, room.event, _cutoff(request))


def _cutoff(request: Request) -> datetime:
    """A seat joined from the lobby before this and not come to is open again (:func:`join_cutoff`)."""
    return join_cutoff(request.app.state.settings)


def _stored(request: Request, game_id: str) -> GameRow:
    row = rooms_of(request).store.game(game_id) if len(game_id) <= 32 else None
    if row is None:
        raise ApiError(404, "no_game", f"there is no game {game_id!r}")
    return row


def game_room(request: Request, game_id: str) -> Room:
    """The game's room; a finished game's is not kept once the request is answered."""
    try:
        room = rooms_of(request).get(game_id) if len(game_id) <= 32 else None
    except GameBrokenError as error:
        raise ApiError(500, "server_error", error.message) from None
    if room is None:
        raise ApiError(404, "no_game", f"there is no game {game_id!r}")
    return room


def _rules_name(text: str) -> str:
    """A stored game's rules in words; the text itself if it no longer reads (the game's own
    refusal is said where it is opened, not in every list that names it)."""
    try:
        return in_words(parse_rules(text))
    except PardonError:
        return text


def _summary(row: GameRow, event: int, cutoff: datetime) -> GameSummary:
    return GameSummary(
        id=row.id,
        rules=row.rules,
        rules_name=_rules_name(row.rules),
        public=row.public,
        hints=row.hints,
        status=row.status,  # type: ignore[arg-type]
        event=event,
        winner=COLOUR_NAMES[row.winner] if row.winner is not None else None,
        seats=[
            SeatSummary(
                colour=COLOUR_NAMES[seat.colour],
                kind=seat.kind,
                level=seat.level,
                name=seat.name,
                open=seat.is_joinable(cutoff),
                taken=seat.claimed,
                joining=seat.is_joining(cutoff),
            )
            for seat in row.seats
        ],
        rematch_of=row.rematch_of,
        rematch=row.rematch,
    )


@router.get("/lobby", response_model=Lobby, summary="Public games with seats left open for anyone")
def lobby(
    request: Request,
    after: Annotated[
        str | None,
        Query(
            max_length=60,
            pattern=LOBBY_CURSOR,
            description="the games after this one (a page's next URL carries it): the way to page",
        ),
    ] = None,
    offset: Annotated[
        int,
        Query(
            ge=0,
            le=1_000_000,
            description="games to skip, newest first (kept for old clients: games come and go between "
            "pages, so that offsets lose and repeat some; follow next instead)",
        ),
    ] = 0,
    limit: Annotated[int, Query(ge=1, le=LOBBY_MOST, description="games to list")] = LOBBY_PAGE,
) -> Lobby:
    """Only seats left open on purpose are offered: never a seat made for someone (the host's,
    or one with an invite link); a seat joined within the grace time is shown ``joining``.
    Newest first, a page at a time: ``total`` says how many there are, ``next`` where the next page is."""
    if after is not None and offset:
        raise ApiError(422, "invalid_request", "a lobby page is asked for after a game or from an offset, not both")
    cutoff = _cutoff(request)
    rows, total, more = rooms_of(request).store.lobby(limit, cutoff, offset, _lobby_cursor(after))
    following = f"/api/lobby?after={_lobby_mark(rows[-1])}&limit={limit}" if more and rows else None
    games = [_summary(row, 0, cutoff) for row in rows]
    return Lobby(games=games, total=total, offset=offset, limit=limit, next=following)


@router.get("/lobby/playing", response_model=Watchable, summary="Public games being played, to watch")
def lobby_playing(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=LOBBY_MOST, description="games to list")] = WATCH_PAGE,
) -> Watchable:
    """The public games under way, newest first: anyone may watch one at ``/play/{id}`` (a public
    game needs no token to watch).  ``total`` says how many there are."""
    cutoff = _cutoff(request)
    rows, total = rooms_of(request).store.playing_public(limit)
    return Watchable(games=[_summary(row, made, cutoff) for row, made in rows], total=total, limit=limit)


def _lobby_mark(row: GameRow) -> str:
    """The cursor of the lobby's games after ``row``: its place in the lobby's order (created, id)."""
    return f"{(row.created - _EPOCH) // timedelta(microseconds=1)}.{row.id}"


def _lobby_cursor(after: str | None) -> tuple[datetime, str] | None:
    """The place a cursor of :func:`_lobby_mark` names (checked by the query's pattern)."""
    if after is None:
        return None
    micros, game_id = after.split(".", 1)
    return _EPOCH + timedelta(microseconds=int(micros)), game_id


@router.post(
    "/games/{game_id}/join",
    response_model=Joined,
    summary="Take an open seat of a public game",
    responses=JOIN_LIMITED,
)
def join(game_id: str, body: JoinRequest, request: Request) -> Any:
    """Of any number of simultaneous joins of one seat, exactly one gets it (the database
    decides); the others are refused ``409 seat_taken``.  The seat is kept for the joiner until
    they come (open its link) or the grace time is over: then it is open again, and the token
    given opens nothing.  Each client address may join only so many seats (:class:`JoinLimit`)."""
    rooms = rooms_of(request)
    row = _stored(request, game_id)
    colour = COLOUR_NUMBERS[body.seat]
    seat = next((seat for seat in row.seats if seat.colour == colour), None)
    if not row.public:
        raise ApiError(403, "not_public", "only public games can be joined from the lobby; ask for an invite link")
    where = body.seat.capitalize()
    if seat is None:
        raise ApiError(409, "seat_not_open", f"{where} is not a seat of this game")
    if not seat.open:
        raise ApiError(409, "seat_not_open", f"{where} is not open: it is kept for a player the host invited")
    now = datetime.now(UTC)
    cutoff = now - timedelta(seconds=request.app.state.settings.join_grace)
    if seat.claimed or seat.is_joining(cutoff):
        raise ApiError(409, "seat_taken", f"{where} has been taken")
    limit = join_limit(request)
    address = client_key(request.client.host) if request.client else ""
    refused = limit.refusal(address, rooms.store, cutoff)
    if refused is not None:
        return refused
    token = new_token()
    hashed = hash_token(token)
    name = seat_name(colour, None, body.name)  # a lapsed joiner's name goes with their seat
    if not rooms.store.join_seat(game_id, colour, hashed, now, cutoff, name):
        raise ApiError(409, "seat_taken", f"{where} has been taken")
    limit.joined(address, hashed)
    room = rooms.rooms.get(game_id)
    if room is not None:  # queued before the reply, so before the new player connects: its token opens the seat
        rooms.on_loop(room.seat_joined, replace(seat, token_hash=hashed, claimed=False, joined_at=now, name=name))
    return Joined(id=game_id, colour=body.seat, token=token, link=play_link(request, game_id, token))


@router.post(
    "/games/{game_id}/seats/{colour}/computer",
    response_model=GameSummary,
    summary="A computer plays a seat whose player has not come, so that the game can start",
)
def seat_to_computer(
    game_id: str,
    colour: Colour,
    request: Request,
    body: ComputerRequest | None = None,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN: the host's")] = None,
) -> GameSummary:
    """Only the host, only while the game waits, and only for a person's seat whose player has
    not come (an invited friend, or a stranger who joined it from the lobby): a player who does
    not come no longer keeps the others waiting for ever, and their token opens nothing from then
    on.  Of the host's request and that player arriving at once, the database lets one through."""
    rooms = rooms_of(request)
    room = game_room(request, game_id)
    _check_host(room, authorization)
    number = COLOUR_NUMBERS[colour]
    seat = next((seat for seat in room.row.seats if seat.colour == number), None)
    if room.row.status != WAITING:
        raise ApiError(409, "not_waiting", "the game has begun: every seat has its player")
    if seat is None:
        raise ApiError(409, "no_seat", f"{colour} is not a seat of this game")
    if seat.kind != HUMAN:
        raise ApiError(409, "not_a_person", f"{colour} is not a seat kept for a person")
    level = (body.level if body else None) or _level_of_computers(room.row)
    name = computer_name(level)
    if seat.claimed or not rooms.store.seat_to_computer(game_id, number, BOT, level, name):
        raise ApiError(409, "seat_taken", f"{colour}'s player has come: the seat is theirs")
    given = replace(seat, kind=BOT, level=level, name=name, token_hash=None, claimed=True, open=False, joined_at=None)
    rooms.on_loop(room.seat_to_computer, given)
    stored = rooms.store.game(game_id)
    assert stored is not None
    return _summary(stored, 0, _cutoff(request))


def _level_of_computers(row: GameRow) -> str:
    """The level a seat handed to a computer gets: that of the game's other computers, if any."""
    return next((seat.level for seat in row.seats if seat.kind == BOT and seat.level), DEFAULT_BOT)


def _check_host(room: Room, authorization: str | None) -> None:
    token = _bearer(authorization, "the host's token")
    if not token_matches(token, room.row.host_hash):
        raise ApiError(403, "bad_token", "only the game's host may do that")


def _bearer(authorization: str | None, whose: str) -> str:
    """The token of an ``Authorization: Bearer TOKEN`` header; 401 without one."""
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token:
        raise ApiError(401, "bad_token", f"send {whose}: Authorization: Bearer TOKEN")
    return token.strip()


@router.post("/games/{game_id}/rematch", response_model=Rematch, summary="The same players again, the winner first")
def rematch(
    game_id: str,
    request: Request,
    authorization: Annotated[str | None, Header(description="Bearer TOKEN: the host's or a player's")] = None,
) -> Rematch:
    """Every token of the finished game works in the rematch; asking twice gives the same game."""
    rooms = rooms_of(request)
    room = game_room(request, game_id)
    _check_member(room, authorization)
    row = room.row
    if row.status != FINISHED:
        raise ApiError(409, "not_finished", "a rematch follows a finished game")
    if row.rematch is None:
        again = GameRow(
            id=new_game_id(),
            rules=row.rules,
            seed=secrets.randbits(62),
            first=row.winner,
            public=row.public,
            hints=row.hints,
            status=WAITING,
            winner=None,
            host_hash=row.host_hash,
            watch_hash=row.watch_hash,
            seats=tuple(SeatRow(s.colour, s.kind, s.level, s.name, s.token_hash, s.kind == BOT) for s in row.seats),
            rematch_of=row.id,
        )
        if rooms.add_rematch(again) is not None:  # of simultaneous requests, one makes it
            rooms.on_loop(room.rematch_made, again.id)  # its clients are served by the event loop
    stored = rooms.store.game(game_id)
    assert stored is not None and stored.rematch is not None
    winner = COLOUR_NAMES[row.winner] if row.winner is not None else None
    return Rematch(id=stored.rematch, websocket=f"/ws/games/{stored.rematch}", first=winner)  # type: ignore[arg-type]


def _check_member(room: Room, authorization: str | None) -> None:
    token = _bearer(authorization, "the host's or a player's token")
    hashes = [room.row.host_hash, *(seat.token_hash for seat in room.row.seats)]
    if not any([token_matches(token, stored) for stored in hashes]):  # noqa: C419 - compare every one
        raise ApiError(403, "bad_token", "that token is not one of this game's players")


@router.get(
    "/games/{game_id}/record",
    response_class=PlainTextResponse,
    summary="A finished game's record (docs/notation.md)",
    responses={
        200: {"content": {"text/plain": {"schema": {"type": "string"}}}},
        **{code: {"content": {"application/json": {"schema": ERROR_SCHEMA}}} for code in ERRORS},  # refusals: JSON
    },
)
def record(game_id: str, request: Request) -> PlainTextResponse:
    """Only once the game is over: the record names the seed, and so the order of the pack.
    Made once and kept (:func:`pardon.web.kept.finished_of`): a finished game never changes."""
    text = finished_of(request).get_or_make(("record", game_id), lambda: _finished_record(request, game_id))
    return PlainTextResponse(text, headers=_attachment(game_id))


def _finished_record(request: Request, game_id: str) -> bytes:
    room = game_room(request, game_id)
    if room.row.status != FINISHED:
        raise ApiError(409, "not_finished", "the record is given once the game is over (it reveals the pack)")
    return _record_text(room.game, room.row).encode()


def _record_text(game: Game, row: GameRow) -> str:
    """The record, naming its players as the game did: a computer by its level, a person by the
    name given (one left as the colour's own name is not written twice)."""
    players = ((seat.colour, _record_name(seat)) for seat in row.seats)
    named = tuple((colour, name) for colour, name in players if name)
    return format_record(record_of(game)._replace(first=row.first, players=named))


def _record_name(seat: SeatRow) -> str:
    """A seat's name as a record can hold it: no quotes, '#' or control characters, 80 at most."""
    name = seat.level if seat.kind == "bot" and seat.level else seat.name
    return "" if name.casefold() == COLOUR_NAMES[seat.colour] else record_name(name)


def _attachment(game_id: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="pardon-{game_id}.txt"'}


@router.get("/levels", response_model=list[str], summary="Computer player levels, weakest first")
def levels() -> list[str]:
    return list(BOTS)
