"""``pardon serve`` and ``pardon backup``: the server's options, each also read from the
environment as ``PARDON_<OPTION>`` (``--trusted-proxy`` from ``PARDON_TRUSTED_PROXY``), so that
a host can keep them in a service's environment file.  An option given on the command line wins
over the environment; every value, from either, is checked before anything starts.

>>> OPTIONS["--create-rate"].env
'PARDON_CREATE_RATE'
>>> OPTIONS["--trusted-proxy"].read("10.0.0.0/8, 192.0.2.7", "PARDON_TRUSTED_PROXY")
('10.0.0.0/8', '192.0.2.7')
"""

from __future__ import annotations

import argparse
import ipaddress
import math
import os
import ssl
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from pardon.bots import DEFAULT_COACH
from pardon.cli_errors import UserError, install_hint

#: What an option holds: a number, a whole number, words, one of ``choices``, or a list of words.
NUMBER, WHOLE, TEXT, CHOICE, LIST = "number", "whole", "text", "choice", "list"


@dataclass(frozen=True)
class Option:
    """One option of ``pardon serve``: its flag, default, help, and the Settings field it sets
    (None for those of the process itself: where it listens, its database, its certificate)."""

    flag: str
    default: Any
    help: str
    field: str | None = None
    kind: str = NUMBER
    low: float = 0
    high: float = 1_000_000
    #: The Settings value is the option's times this (hours given, seconds kept).
    per: float = 1.0
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    #: Argument group in ``--help``.
    group: str = "limits"

    @property
    def env(self) -> str:
        return "PARDON_" + self.flag.removeprefix("--").upper().replace("-", "_")

    @property
    def dest(self) -> str:
        return self.flag.removeprefix("--").replace("-", "_")

    def read(self, text: str | list[str], given_as: str) -> Any:
        """The value of ``text`` (one argument, or the environment variable's), checked; a
        :class:`UserError` naming ``given_as`` (the flag or the variable) if it is wrong."""
        if self.kind == LIST:
            parts = text if isinstance(text, list) else text.replace(",", " ").split()
            return tuple(part.strip() for part in parts if part.strip())
        assert isinstance(text, str)
        if self.kind in (NUMBER, WHOLE):
            return self._number(text, given_as)
        if self.kind == CHOICE and text not in self.choices:
            raise UserError(f"{given_as} must be one of {', '.join(self.choices)}, not {text!r}")
        return text

    def _number(self, text: str, given_as: str) -> float | int:
        what = "a whole number" if self.kind == WHOLE else "a number"
        wrong = UserError(f"{given_as} must be {what} from {self.low:,g} to {self.high:,g}, not {text.strip()}")
        try:
            value = int(text) if self.kind == WHOLE else float(text)
        except ValueError:
            raise wrong from None
        if not math.isfinite(value) or not self.low <= value <= self.high:
            raise wrong
        return value

    def shown_default(self) -> str:
        if self.kind == LIST or self.default is None:
            return "none"
        return f"{self.default:g}" if isinstance(self.default, float) else str(self.default)


def _options() -> list[Option]:
    levels = "a computer level, e.g. expectimax or tactician(threat=0.5)"
    return [
        # Where it listens and what it keeps.
        Option("--host", "127.0.0.1", "address to listen on (0.0.0.0: every interface)", None, TEXT, group="server"),
        Option("--port", 8000, "port to listen on (0: any free one)", None, WHOLE, 0, 65535, group="server"),
        Option("--db", None, "", None, TEXT, metavar="FILE_OR_URL", group="server"),
        Option("--certfile", None, "TLS certificate (PEM) to serve https and wss", None, TEXT, group="server"),
        Option("--keyfile", None, "the certificate's private key (PEM)", None, TEXT, group="server"),
        Option(
            "--log-format",
            "text",
            "text: lines for people; json: one object a line",
            "log_format",
            CHOICE,
            choices=("text", "json"),
            group="server",
        ),
        # Behind a proxy, and the addresses of the site.
        Option(
            "--trusted-proxy",
            (),
            "a proxy (address or network, e.g. 10.0.0.0/8) whose X-Forwarded-For, "
            "Forwarded, X-Forwarded-Proto and X-Forwarded-Host are believed; repeat for more",
            "trusted_proxies",
            LIST,
            metavar="ADDRESS",
            group="proxy",
        ),
        Option(
            "--public-url",
            None,
            "the address written in invite links (none: the address each request came to)",
            "public_url",
            TEXT,
            metavar="URL",
            group="proxy",
        ),
        Option(
            "--allow-origin",
            (),
            "another web origin whose pages may connect; repeat for more",
            "allowed_origins",
            LIST,
            metavar="ORIGIN",
            group="proxy",
        ),
        # Computer players.
        Option(
            "--bot-pace", 0.6, "seconds a computer player waits before moving", "bot_pace", high=60, group="computers"
        ),
        Option(
            "--takeover-after",
            60.0,
            "seconds a player is away, while another waits, before a computer plays "
            "for them (the time pauses while nobody waits)",
            "takeover_after",
            high=86_400,
            group="computers",
        ),
        Option(
            "--hint-level",
            "tactician",
            f"who ranks the moves of a hint: {levels}",
            "hint_level",
            TEXT,
            group="computers",
        ),
        Option(
            "--takeover-level",
            "tactician",
            "who plays for a player who is away",
            "takeover_level",
            TEXT,
            group="computers",
        ),
        Option(
            "--coach-level",
            DEFAULT_COACH,
            "who judges a finished game's moves for the coach",
            "coach_level",
            TEXT,
            group="computers",
        ),
        Option(
            "--analysis-cache",
            512,
            "finished games whose coach's analysis is kept in memory",
            "analysis_cache",
            WHOLE,
            0,
            100_000,
            group="computers",
        ),
        # Games.
        Option(
            "--expire-waiting",
            24.0,
            "hours a game may wait with nobody at it (0: never expires)",
            "waiting_expiry",
            high=24 * 365,
            per=3600.0,
            group="games",
        ),
        Option(
            "--join-grace",
            120.0,
            "seconds a seat joined from the lobby is kept for a joiner not come yet",
            "join_grace",
            high=86_400,
            group="games",
        ),
        # Limits per client address (its real address behind a trusted proxy).
        Option(
            "--create-rate",
            10.0,
            "games one address may create a minute (0: no limit, on public games either)",
            "create_rate",
        ),
        Option("--create-burst", 20, "games one address may create at once", "create_burst", WHOLE, 1),
        Option(
            "--public-per-address",
            5,
            "public games one address may have waiting for players (0: no limit)",
            "public_per_address",
            WHOLE,
        ),
        Option(
            "--join-rate",
            6.0,
            "lobby seats one address may join a minute (0: no limit, on joining either)",
            "join_rate",
        ),
        Option("--join-burst", 3, "lobby seats one address may join at once", "join_burst", WHOLE, 1),
        Option(
            "--joining-per-address",
            3,
            "lobby seats one address may hold joined and not yet gone to",
            "joining_per_address",
            WHOLE,
            1,
        ),
        Option(
            "--connections-per-address",
            64,
            "websockets open at once from one address",
            "max_connections_per_address",
            WHOLE,
            1,
        ),
        Option(
            "--http-per-address",
            64,
            "HTTP connections open at once from one address (a trusted proxy's are not counted)",
            "max_http_per_address",
            WHOLE,
            1,
        ),
        Option(
            "--spectators-per-game",
            256,
            "websockets watching one game at once (players never refused)",
            "max_spectators_per_game",
            WHOLE,
            0,
        ),
        # Limits per connection.
        Option(
            "--message-rate", 20.0, "messages one websocket may send a second on average", "rate", group="connection"
        ),
        Option("--message-burst", 40, "messages one websocket may send at once", "burst", WHOLE, 1, group="connection"),
        Option(
            "--message-size",
            4096,
            "bytes of one websocket message, at most",
            "max_message",
            WHOLE,
            256,
            65_536,
            group="connection",
        ),
        Option(
            "--body-size",
            64 * 1024,
            "bytes of one request body, at most",
            "max_body",
            WHOLE,
            1024,
            16 * 1024 * 1024,
            group="connection",
        ),
        Option(
            "--hello-timeout",
            10.0,
            "seconds a new websocket has to say hello",
            "hello_timeout",
            low=0.1,
            high=600,
            group="connection",
        ),
        Option(
            "--outbox-messages",
            512,
            "messages waiting for one slow reader before it is closed",
            "outbox_messages",
            WHOLE,
            16,
            group="connection",
        ),
        Option(
            "--outbox-bytes",
            16 * 1024 * 1024,
            "bytes waiting for one slow reader before it is closed",
            "outbox_bytes",
            WHOLE,
            64 * 1024,
            1 << 31,
            group="connection",
        ),
        Option(
            "--sweep-every",
            60.0,
            "seconds between two rounds of housekeeping",
            "sweep_every",
            low=1,
            high=3600,
            group="games",
        ),
        Option(
            "--finished-cache",
            128,
            "finished games whose record and replay are kept in memory, made once",
            "finished_cache",
            WHOLE,
            0,
            100_000,
            group="games",
        ),
        Option(
            "--analyses-per-address",
            2,
            "coach's analyses one address may have asked for and not yet been given",
            "analyses_per_address",
            WHOLE,
            1,
        ),
        Option("--read-rate", 600.0, "API reads one address may make a minute (0: no limit)", "read_rate"),
        Option("--read-burst", 120, "API reads one address may make at once", "read_burst", WHOLE, 1),
        Option("--connect-rate", 10.0, "websockets one address may open a second (0: no limit)", "connect_rate"),
        Option("--connect-burst", 100, "websockets one address may open at once", "connect_burst", WHOLE, 1),
        Option(
            "--admit-rate",
            100.0,
            "websockets let in a second across the server, by turns of address (0: all at once)",
            "admit_rate",
            group="connection",
        ),
        Option("--admit-burst", 4, "websockets let in at once", "admit_burst", WHOLE, 1, group="connection"),
        Option(
            "--metrics-from",
            (),
            "an address or network allowed to read /metrics (none: /metrics answers 404); repeat for more",
            "metrics_from",
            LIST,
            metavar="ADDRESS",
            group="server",
        ),
    ]


OPTIONS: Final = {option.flag: option for option in _options()}

GROUPS: Final = {
    "server": "the server",
    "proxy": "behind a proxy (HTTPS), and the site's addresses",
    "computers": "computer players",
    "games": "games",
    "limits": "limits per client address (its own behind a trusted proxy)",
    "connection": "limits per connection",
}


def add_serve_parser(commands: Any, default_database: str) -> None:
    """``pardon serve``, its options grouped, each with its default and its variable."""
    serve = commands.add_parser(
        "serve",
        help="the game server: create games, invite players, play over websockets",
        description="The game server. Every option is also read from the environment variable named beside it "
        "(the command line wins). Example: pardon serve --host 0.0.0.0 --port 8000",
    )
    groups = {key: serve.add_argument_group(title) for key, title in GROUPS.items()}
    for option in OPTIONS.values():
        words = option.help or f"SQLite file, or a URL such as postgresql://user@host/pardon ({default_database})"
        shown = "" if option.flag == "--db" else f"default {option.shown_default()}; "
        groups[option.group].add_argument(
            option.flag,
            action="append" if option.kind == LIST else "store",
            metavar=option.metavar or {NUMBER: "N", WHOLE: "N"}.get(option.kind, option.dest.upper()),
            help=f"{words} ({shown}{option.env})",
        )
    serve.set_defaults(run=command_serve)


def option_values(arguments: argparse.Namespace, environ: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Every option's value, by flag: the command line's, else the environment's, else the default."""
    environ = os.environ if environ is None else environ
    values: dict[str, Any] = {}
    for option in OPTIONS.values():
        given = getattr(arguments, option.dest)
        if given is not None:
            values[option.flag] = option.read(given, option.flag)
        elif environ.get(option.env, "").strip():
            values[option.flag] = option.read(environ[option.env].strip(), option.env)
        else:
            values[option.flag] = option.default
    return values


def settings_of(values: dict[str, Any]) -> Any:
    """The server's Settings from checked option values."""
    from pardon.web.settings import Settings, database_url

    fields = {
        option.field: values[option.flag] * option.per if option.per != 1.0 else values[option.flag]
        for option in OPTIONS.values()
        if option.field is not None
    }
    return Settings(database=database_url(values["--db"]), **fields)


def command_serve(arguments: argparse.Namespace) -> int:
    try:
        from pardon.web.server import database_problem, serve
        from pardon.web.storage import DatabaseInUseError, lock_database
    except ImportError as error:
        raise UserError(f"the server needs the web extra (no {error.name}): {install_hint('web')}") from None
    values = option_values(arguments)
    for flag in ("--hint-level", "--takeover-level", "--coach-level"):
        _check_level(flag, values[flag])
    for url, flag in [
        (values["--public-url"], "--public-url"),
        *((o, "--allow-origin") for o in values["--allow-origin"]),
    ]:
        check_web_address(flag, url)
    for flag in ("--trusted-proxy", "--metrics-from"):
        for network in values[flag]:
            _check_network(flag, network)
    _check_database_folder(values["--db"])
    tls = _tls_files(values["--certfile"], values["--keyfile"])
    settings = settings_of(values)
    try:
        problem = database_problem(settings.database)  # its real cause, before anything else tries it
    except ImportError as error:  # a URL whose driver is not installed, mysql:// without MySQLdb say
        raise UserError(f"--db: this database needs the Python package {error.name}, which is not installed") from None
    if problem is not None:
        raise UserError(problem)
    try:
        lock_database(settings.database)  # held until the process ends: one server per SQLite file
    except DatabaseInUseError as error:
        raise UserError(str(error)) from None
    serve(settings, values["--host"], values["--port"], tls=tls)
    return 0


def _check_level(option: str, spec: str) -> None:
    """A computer level the server is told to use, refused before it starts if it cannot be made."""
    from pardon.bots import make_bot

    try:
        make_bot(spec)
    except (ValueError, TypeError) as error:
        raise UserError(f"{option}: {error}") from None


def _check_network(option: str, text: str) -> None:
    """An address or a network, as ``--trusted-proxy`` takes them."""
    try:
        ipaddress.ip_network(text, strict=False)
    except ValueError:
        raise UserError(f"{option} must be an address or a network such as 10.0.0.0/8, not {text!r}") from None


def _check_database_folder(text: str | None) -> None:
    """A SQLite file given must be in a folder that exists: a typo must not make a tree of folders."""
    if not text or "://" in text:
        return
    folder = Path(text).expanduser().absolute().parent
    if not folder.exists():
        raise UserError(f"--db: the folder {folder} does not exist (make it first, or give another file)")


def _tls_files(certfile: str | None, keyfile: str | None) -> tuple[str, str] | None:
    """The certificate and key to serve https with, checked by loading them; None for http."""
    if certfile is None and keyfile is None:
        return None
    if certfile is None or keyfile is None:
        raise UserError("--certfile and --keyfile go together: give both to serve https")
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    try:
        context.load_cert_chain(certfile, keyfile)
    except FileNotFoundError as error:
        raise UserError(f"cannot read {error.filename}: no such file") from None
    except PermissionError as error:
        raise UserError(f"cannot read {error.filename}: permission denied") from None
    except (ssl.SSLError, OSError) as error:
        raise UserError(
            f"--certfile {certfile} and --keyfile {keyfile} are not a certificate and its key: {error}"
        ) from None
    return certfile, keyfile


def check_web_address(option: str, url: str | None) -> None:
    """An address of the site as browsers write it: http(s)://host[:port][/path]."""
    if url is None:
        return
    parts = urllib.parse.urlsplit(url)
    origin = option == "--allow-origin"  # a browser's Origin has no path
    if parts.scheme not in ("http", "https") or not parts.hostname or (origin and parts.path not in ("", "/")):
        raise UserError(f"{option} must be an address such as https://games.example.org, not {url!r}")
    if parts.path not in ("", "/"):  # the pages load /static and /api from the root of their address
        raise UserError(
            f"{option} must be the root of an address, not {url!r}: pardon cannot be served under a path such as"
            f" {parts.path!r}; give it a host name or a port of its own (https://games.example.org)"
        )


def add_backup_parser(commands: Any, default_database: str) -> None:
    """``pardon backup FILE``: a consistent copy of a (running) server's SQLite database."""
    backup = commands.add_parser(
        "backup",
        help="copy a running server's SQLite database, consistent, to a file another server can serve",
        description="A consistent copy of the database of pardon serve, safe while it runs. "
        "Example: pardon backup --db /var/lib/pardon/games.sqlite3 games-2026-12-06.sqlite3",
    )
    backup.add_argument("file", metavar="FILE", help="where to write the copy (refused if it exists, unless --force)")
    backup.add_argument(
        "--db", help=f"the server's database, as for pardon serve ({default_database}; {OPTIONS['--db'].env})"
    )
    backup.add_argument("--force", action="store_true", help="replace FILE if it exists")
    backup.set_defaults(run=command_backup)


def command_backup(arguments: argparse.Namespace) -> int:
    try:
        from pardon.web.backup import backup
        from pardon.web.settings import database_url
    except ImportError as error:
        raise UserError(f"backing up needs the web extra (no {error.name}): {install_hint('web')}") from None
    given = arguments.db if arguments.db is not None else os.environ.get(OPTIONS["--db"].env, "").strip() or None
    report: Callable[[str], None] = print
    backup(database_url(given), Path(arguments.file), force=arguments.force, say=report)
    return 0
