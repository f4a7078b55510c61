"""``pardon tui``: the command's options turned into a table and the full-screen game started."""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import shlex
import sys
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pardon.bots import BOTS, DEFAULT_BOT, make_bot
from pardon.core.board import COLOUR_NAMES
from pardon.core.errors import InvalidError, PardonError
from pardon.core.game import Game, replay
from pardon.core.notation import first_player, parse_colour, parse_record
from pardon.core.rules import Rules, parse_rules
from pardon.core.state import check_seats, seats_for
from pardon.tui.app import PardonApp, farewell_words
from pardon.tui.local import LocalTable
from pardon.tui.online import Invite, OnlineTable, parse_invite
from pardon.tui.table import FINISHED, Table

DEFAULT_RULES = "classic"
#: The computer players' pause when --pace is left out (the command's default).
DEFAULT_PACE = 0.6
#: The options of a game on this machine, which an online game (--join) takes from its server.
LOCAL_GAME_OPTIONS = ("rules", "players", "you", "level", "seed", "first", "pace")


def launch(arguments: argparse.Namespace) -> int:
    """Run the game the options describe; raise a ValueError (one line) for options that cannot be."""
    if arguments.record and arguments.no_record:
        raise InvalidError(f"--record {arguments.record} keeps the record and --no-record keeps none: choose one")
    if arguments.join is not None:  # an empty link too is refused, not a game against the computer
        if arguments.resume is not None:
            raise InvalidError("--join takes a seat online and --resume takes up a game here: choose one")
        given = [f"--{option}" for option in LOCAL_GAME_OPTIONS if getattr(arguments, option) is not None]
        if given:
            raise InvalidError(f"--join plays the online game as its server set it up: leave out {', '.join(given)}")
    if arguments.pace is None:  # left out: told apart from the default given, which --join refuses
        arguments.pace = DEFAULT_PACE
    if arguments.join is not None:
        return _join(arguments)
    if arguments.resume is not None:
        return _resume(arguments)
    rules = parse_rules(arguments.rules or DEFAULT_RULES)
    players = arguments.players or (4 if 4 in rules.players else rules.players[0])
    seats = check_seats(seats_for(players), rules)
    people = people_of(arguments.you, seats)
    level = _checked_level(arguments.level or DEFAULT_BOT)
    _check_pace_and_record(arguments)
    seed = arguments.seed if arguments.seed is not None else _random_seed()
    first = first_player(arguments.first, seats)
    _need_terminal()
    new_game = _new_games(arguments, rules, seats, people, level)
    table = LocalTable(Game.new(rules, seats, seed, first), people, level, arguments.pace)
    record = _record_path(arguments, f"pardon-{seed}.txt")
    return _play(PardonApp(table, record, new_game=new_game))


def _resume(arguments: argparse.Namespace) -> int:
    """Take up again the game of a record (``--resume FILE``): its rules, seats and decisions;
    who plays at this screen and the computers' level as the record names them, unless
    ``--you`` and ``--level`` say otherwise.  Its record goes on in the same file."""
    for option in ("rules", "players", "seed", "first"):
        if getattr(arguments, option) is not None:
            raise InvalidError(
                f"--resume takes the rules, players, seed and first player from the record: leave out --{option}"
            )
    path = Path(arguments.resume)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise InvalidError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InvalidError(f"cannot read {path}: it is not UTF-8 text") from None
    try:
        record = parse_record(text)
        game = replay(record)
    except PardonError as error:
        raise InvalidError(f"{path} is not a game to take up again: {error}") from None
    if game.is_over:
        winner = COLOUR_NAMES[game.winner].capitalize() if game.winner is not None else "Nobody"
        raise InvalidError(f"the game in {path} is over ({winner} won): pardon replay {path} checks it")
    seats = game.position.seats
    names = dict(record.players)
    if arguments.you is not None:
        people = people_of(arguments.you, seats)
    elif names:
        people = frozenset(colour for colour, name in names.items() if not _is_level(name))
    else:
        people = frozenset(seats[:1])
    computers = [name for colour, name in sorted(names.items()) if _is_level(name)]
    level = _checked_level(arguments.level or (computers[0] if computers else DEFAULT_BOT))
    _check_pace_and_record(arguments, resumed=path)  # a --record FILE is checked there
    record_path = None if arguments.no_record else Path(arguments.record or path)
    if record_path == path:
        check_record_path(path, "--resume")
    _need_terminal()
    new_game = _new_games(arguments, game.rules, seats, people, level)
    table = LocalTable(game, people, level, arguments.pace)
    return _play(PardonApp(table, record_path, new_game=new_game))


def _is_level(name: str) -> bool:
    """Whether a record's name for a player is a computer level ("expert", "mcts(iterations=200)"):
    any other ("you", "Grandma") is a person, who plays at this screen."""
    return name.split("(", 1)[0].strip() in BOTS


def _checked_level(level: str) -> str:
    make_bot(level)  # an unknown level is refused before the screen opens
    return level


def _check_pace_and_record(arguments: argparse.Namespace, resumed: Path | None = None) -> None:
    """Refuse a pace that cannot be, and a --record FILE that cannot be written or is there
    already (another game's record, say: only the record taken up again is written on)."""
    if not 0 <= arguments.pace < math.inf:
        raise InvalidError(f"--pace must be 0 or more seconds, not {arguments.pace}")
    if arguments.record and not arguments.no_record:
        path = Path(arguments.record)
        check_record_path(path)
        if path.exists() and not (resumed is not None and path.resolve() == resumed.resolve()):
            raise InvalidError(f"--record {path}: the file is there already: choose another name, or delete it first")


def _new_games(
    arguments: argparse.Namespace, rules: Rules, seats: tuple[int, ...], people: frozenset[int], level: str
) -> Callable[[], tuple[Table, Path | None]]:
    """What ``n`` starts once a game is over: another with the same players, its record in a
    new file."""

    def new_game() -> tuple[Table, Path | None]:
        seed = _random_seed()
        first = first_player(getattr(arguments, "first", None), seats)  # the same player first again
        table = LocalTable(Game.new(rules, seats, seed, first), people, level, arguments.pace)
        return table, _record_path(arguments, f"pardon-{seed}.txt", first=False)

    return new_game


def _join(arguments: argparse.Namespace) -> int:
    invite = parse_invite(arguments.join)
    _check_pace_and_record(arguments)
    try:
        import websockets  # noqa: F401  (the connection is opened by the screen)
    except ImportError:
        raise InvalidError("joining an online game needs websockets: pip install 'pardon[tui]'") from None
    summary = check_invite(invite)
    _need_terminal()
    table = OnlineTable(invite, hints=bool(summary.get("hints", True)))
    default = Path(f"pardon-{invite.game}.txt")  # a finished game opened again: its record is there already
    record = default if not arguments.record and not arguments.no_record and default.exists() else None
    return _play(PardonApp(table, record or _record_path(arguments, default.name)))


def _play(app: PardonApp) -> int:
    """Run the screen, then say how it went; the command's status: 130 if stopped from outside,
    1 if the screen stopped on an error (the game so far is saved first, where it can be)."""
    app.run()
    if app.return_code not in (None, 0, 130) and not app.interrupted:
        _save_after_error(app)
        _farewell(app)
        print("pardon tui: the screen stopped on an error (above)", file=sys.stderr)
        return 1
    _farewell(app)
    return 130 if app.interrupted else 0


def _save_after_error(app: PardonApp) -> None:
    """Write the record of a game on this machine that is not over, so that an error in the
    screen never loses it (``pardon tui --resume`` takes it up again)."""
    record = app.saved or app.record
    if record is None or not app.table.can_take_back or app.view_now.status == FINISHED:
        return
    try:
        asyncio.run(app.table.save_record(record))
    except (OSError, ConnectionError) as error:
        print(f"pardon tui: could not save the record to {record}: {error}", file=sys.stderr)
    else:
        app.saved = record


def check_invite(invite: Invite) -> dict[str, Any]:
    """Ask the server about the game, and whether the link's token opens it, before the screen
    opens, so that a wrong link is one line; the game's summary (``GET /api/games/GAME``)."""
    try:
        with urllib.request.urlopen(f"{invite.server}/api/games/{invite.game}", timeout=10) as answer:
            summary = json.loads(answer.read().decode("utf-8"))
    except urllib.error.HTTPError as error:
        if error.code == 404:
            raise InvalidError(f"there is no game {invite.game} at {invite.server}") from None
        raise InvalidError(f"{invite.server} answered {error.code} {error.reason} for game {invite.game}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise InvalidError(f"cannot reach {invite.server}: {reason}") from None
    except ValueError:
        raise InvalidError(f"{invite.server} is not a pardon server: its answer is no JSON") from None
    _check_token(invite)
    return summary if isinstance(summary, dict) else {}


def _check_token(invite: Invite) -> None:
    """Say hello with the link's token: a token that opens nothing is refused here, in words."""
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    try:
        with connect(invite.websocket, open_timeout=10, close_timeout=2) as socket:
            socket.send(json.dumps({"type": "hello", "token": invite.token, "since": 0}))
            answer = json.loads(socket.recv(timeout=10))
    except (OSError, TimeoutError, WebSocketException, ValueError):
        return  # the screen tries again, and says what it meets
    if isinstance(answer, dict) and answer.get("type") == "error":
        raise InvalidError(f"the link does not open game {invite.game}: {answer.get('message', answer.get('code'))}")


def check_record_path(path: Path, option: str = "--record") -> None:
    """Refuse, before the screen opens, a record file that could not be written at the game's end."""
    if path.is_dir():
        raise InvalidError(f"{option} {path}: it is a directory, not a file")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise InvalidError(f"{option} {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidError(f"{option} {path}: cannot write there")


def people_of(text: str | None, seats: tuple[int, ...]) -> frozenset[int]:
    """The colours played at this screen: ``red``, ``red,blue`` (hot-seat), ``none`` (watch);
    the first seat when not said."""
    if text is None:
        return frozenset(seats[:1])
    if text.strip().lower() == "none":
        return frozenset()
    people = set()
    for word in text.split(","):
        colour = parse_colour(word)
        if colour not in seats:
            playing = " and ".join(COLOUR_NAMES[seat] for seat in seats)
            players = f"with {len(seats)} players the colours are" if len(seats) > 1 else "with 1 player the colour is"
            raise InvalidError(f"{COLOUR_NAMES[colour]} is not playing: {players} {playing}")
        people.add(colour)
    return frozenset(people)


def _record_path(arguments: argparse.Namespace, name: str, first: bool = True) -> Path | None:
    """Where the record goes: ``--record`` for the first game, else a new file (the next games'
    beside it, so that none is written over the last one's record)."""
    if arguments.no_record:
        return None
    if arguments.record and first:
        return Path(arguments.record)
    wanted = Path(arguments.record) if arguments.record else Path(name)
    path = wanted
    number = 2
    while path.exists():
        path = wanted.with_name(f"{wanted.stem}-{number}{wanted.suffix}")
        number += 1
    return path


def _in_terminal() -> bool:
    """Whether the screen can be played: Textual reads the keys from standard input and draws
    on standard error."""
    return all(stream is not None and stream.isatty() for stream in (sys.__stdin__, sys.__stderr__))


def _need_terminal() -> None:
    if not _in_terminal():  # from a file or a pipe no key ever comes: the screen would wait for ever
        raise InvalidError("the terminal game needs a terminal to play in (to watch as text: pardon play)")


def _random_seed() -> int:
    return random.SystemRandom().randrange(10**6)


def _farewell(app: PardonApp) -> None:
    """What is left on the terminal once the screen closes: the result and the record."""
    view = app.view_now
    if app.interrupted:
        print("pardon tui: interrupted", file=sys.stderr)
    if isinstance(app.table, OnlineTable) and view.status != FINISHED and app.table.role == "player":
        link = shlex.quote(app.table.invite.link)
        print(
            "You left the game; it goes on on the server (a computer plays your seat while another player "
            f"waits for it). To go back to it: pardon tui --join {link}"
        )
    if view.position.winner is not None:
        print(farewell_words(view))
    if app.saved is not None and app.saved.exists():
        if view.status == FINISHED or not app.table.can_take_back:
            print(f"The game's record is in {app.saved} (pardon replay {app.saved} checks it).")
        else:
            again = f"pardon tui --resume {shlex.quote(str(app.saved))}"
            print(f"The game is saved in {app.saved}: {again} takes it up again.")
