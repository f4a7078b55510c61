"""``pardon tui``: the command's options turned into a table and the full-screen game started."""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import urllib.error
import urllib.request
from pathlib import Path

from pardon.bots import make_bot
from pardon.core.board import COLOUR_NAMES
from pardon.core.errors import InvalidError
from pardon.core.game import Game
from pardon.core.notation import parse_colour
from pardon.core.rules import parse_rules
from pardon.core.state import check_seats, seats_for
from pardon.tui.app import PardonApp
from pardon.tui.local import LocalTable
from pardon.tui.online import Invite, OnlineTable, parse_invite
from pardon.tui.table import Table


def launch(arguments: argparse.Namespace) -> int:
    """Run the game the options describe; raise a ValueError (one line) for options that cannot be."""
    if arguments.join is not None:  # an empty link too is refused, not a game against the computer
        return _join(arguments)
    rules = parse_rules(arguments.rules)
    players = arguments.players or (4 if 4 in rules.players else rules.players[0])
    seats = check_seats(seats_for(players), rules)
    people = people_of(arguments.you, seats)
    make_bot(arguments.level)  # an unknown level is refused before the screen opens
    if not 0 <= arguments.pace < math.inf:
        raise InvalidError(f"--pace must be 0 or more seconds, not {arguments.pace}")
    if arguments.record and not arguments.no_record:
        check_record_path(Path(arguments.record))
    seed = arguments.seed if arguments.seed is not None else _random_seed()

    def game_at(seed: int, first: bool) -> tuple[Table, Path | None]:
        table = LocalTable(Game.new(rules, seats, seed), people, arguments.level, arguments.pace)
        return table, _record_path(arguments, f"pardon-{seed}.txt", first)

    _need_terminal()
    table, record = game_at(seed, first=True)
    return _play(PardonApp(table, record, new_game=lambda: game_at(_random_seed(), first=False)))


def _join(arguments: argparse.Namespace) -> int:
    invite = parse_invite(arguments.join)
    try:
        import websockets  # noqa: F401  (the connection is opened by the screen)
    except ImportError:
        raise InvalidError("joining an online game needs websockets: pip install 'pardon[tui]'") from None
    check_invite(invite)
    _need_terminal()
    table = OnlineTable(invite)
    return _play(PardonApp(table, _record_path(arguments, f"pardon-{invite.game}.txt")))


def _play(app: PardonApp) -> int:
    """Run the screen, then say how it went; the command's status: 130 if stopped from outside."""
    app.run()
    _farewell(app)
    return 130 if app.interrupted else 0


def check_invite(invite: Invite) -> None:
    """Ask the server about the game before the screen opens, so that a wrong link is one line."""
    try:
        with urllib.request.urlopen(f"{invite.server}/api/games/{invite.game}", timeout=10):
            return
    except urllib.error.HTTPError as error:
        if error.code == 404:
            raise InvalidError(f"there is no game {invite.game} at {invite.server}") from None
        raise InvalidError(f"{invite.server} answered {error.code} {error.reason} for game {invite.game}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise InvalidError(f"cannot reach {invite.server}: {reason}") from None


def check_record_path(path: Path) -> None:
    """Refuse, before the screen opens, a record file that could not be written at the game's end."""
    if path.is_dir():
        raise InvalidError(f"--record {path}: it is a directory, not a file")
    folder = path.absolute().parent
    if not folder.is_dir():
        raise InvalidError(f"--record {path}: there is no folder {folder}")
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise InvalidError(f"--record {path}: cannot write there")


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
    if view.position.winner is not None:
        print(f"{COLOUR_NAMES[view.position.winner].capitalize()} won.")
    if app.saved is not None and app.saved.exists():
        print(f"The game's record is in {app.saved} (pardon replay {app.saved} checks it).")
