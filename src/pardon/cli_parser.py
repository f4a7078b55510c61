"""The ``pardon`` command's parser: every command's options, its line, its examples and its
defaults in ``--help``; usage errors in one line."""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from typing import Any, Final, NoReturn

from pardon import __version__
from pardon.bots import BOTS, DEFAULT_BOT, DEFAULT_COACH
from pardon.cli_serve import add_backup_parser, add_serve_parser
from pardon.tui.watch import FOLLOWABLE_PACE

#: What runs a command: its parsed arguments in, its exit status out.
Command = Callable[[argparse.Namespace], int]

#: Who plays in ``pardon play`` unless --bots says (round the table; greedy alone when solo).
DEFAULT_PLAY_BOTS: Final = "greedy,random"


def _default_database() -> str:
    """Where ``pardon serve`` keeps its games unless told, as ``--help`` says it."""
    try:
        import platformdirs
    except ImportError:  # without the web extra: the same folder, said in words
        return "games.sqlite3 in your user data folder"
    return str(platformdirs.user_data_path("pardon") / "games.sqlite3")


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors are one line as pardon's own are: ``pardon
    COMMAND: message``, exit status 2, and where to read more."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message} (see {self.prog} --help)\n")


class _HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Each option's default in its help, where it has one and the help does not say it."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if default in (None, False, argparse.SUPPRESS) or "default" in text or not action.option_strings:
            return text
        return f"{text} (default: {default})"


#: What each command does, in a line, and examples, for its --help (serve and backup say their own).
ABOUT: Final = {
    "play": (
        "Watch computer players play a game in the terminal, a move at a time: space pauses, n plays one move, "
        "+ and - change the pace, q stops. Written to a file or a pipe, every move as text.",
        ["pardon play", "pardon play --players 2 --bots expert,greedy --delay 0.2", "pardon play --fast > game.txt"],
    ),
    "tui": (
        "Play Sorry! full screen in the terminal: against the computer, hot-seat, or your seat of an online game.",
        ["pardon tui", "pardon tui --players 2 --level tactician", "pardon tui --join 'http://HOST/play/GAME#token=T'"],
    ),
    "moves": ("Every legal move of a card in a JSON position (docs/json.md).", ["pardon moves pos.json --card 7"]),
    "selfplay": (
        "Play one game between computer players and write its record (docs/notation.md), to replay or analyse. "
        "Four players unless told, as in every command that starts a game (the rules allowing).",
        ["pardon selfplay --record game.txt", "pardon selfplay --players 4 --bots expert,random --seed 7"],
    ),
    "replay": (
        "Check a game record move by move and say how it ended, with the final board.",
        ["pardon replay game.txt", "pardon replay --json game.txt"],
    ),
    "rules": ("How to play, in short, then the presets and the options that adjust them.", ["pardon rules"]),
    "sim": (
        "Play many games between computer players, a result row each in DIR/games.jsonl; run again to resume.",
        ["pardon sim --games 1000 --out runs/greedy --bots greedy,random"],
    ),
    "report": ("Statistics and plots of pardon sim runs, as HTML and JSON.", ["pardon report runs/greedy"]),
    "tournament": (
        "A duplicate tournament between computer players: every pairing deals the same cards from every seat.",
        ["pardon tournament --bots greedy,tactician,expert --games 50"],
    ),
    "hint": ("Rank the legal moves of a card in a JSON position by win chance.", ["pardon hint pos.json --card 11"]),
    "analyse": (
        "A game record's win chances turn by turn, and each player's biggest mistakes with the better move and why.",
        ["pardon analyse game.txt --seat red"],
    ),
    "puzzle": (
        "A position and a card: find the best move.",
        ["pardon puzzle --list", "pardon puzzle --number 2", "pardon puzzle --number 2 --answer '11 20-31'"],
    ),
    "sheets": ("Write the one-page rule sheet and the score sheet as PDF.", ["pardon sheets --out sheets"]),
}


def _describe(commands: Any) -> None:
    """Give each command of ours its line, its examples and its defaults in --help."""
    for name, (about, examples) in ABOUT.items():
        command = commands.choices[name]
        command.description = about
        command.epilog = "examples:\n" + "\n".join(f"  {example}" for example in examples)
        command.formatter_class = _HelpFormatter


def build_parser(run: Mapping[str, Command]) -> argparse.ArgumentParser:
    """The parser of every command; ``run`` gives the function of each command of this module's
    own (serve and backup bring theirs)."""
    parser = _Parser(prog="pardon", description="The board game Sorry!, played exactly by the rules.")
    parser.add_argument("--version", action="version", version=f"pardon {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    bots_help = (
        "computer players, comma-separated, one per seat in turn, a shorter list repeated round the table "
        f"({', '.join(BOTS)})"
    )

    play = commands.add_parser("play", help="watch computer players play a game, move by move (to play: pardon tui)")
    play.add_argument("--rules", default="classic", help="preset, optionally adjusted (see 'pardon rules')")
    play.add_argument("--players", type=int, choices=(1, 2, 3, 4), help="default 4, unless the rules say otherwise")
    play.add_argument("--seed", type=int, help="the game's seed (random if left out)")
    play.add_argument("--bots", help=f"{bots_help}; default {DEFAULT_PLAY_BOTS}")
    play.add_argument("--first", metavar="COLOUR", help=FIRST_HELP)
    play.add_argument(
        "--delay", type=float, help=f"seconds to pause after each move ({FOLLOWABLE_PACE:g} in a terminal, else 0)"
    )
    play.add_argument("--fast", action="store_true", help="every move at once, as plain text: no legend, no colour")
    play.add_argument(
        "--colour", choices=("auto", "always", "never"), default="auto", help="colour the board (auto: in a terminal)"
    )
    play.add_argument(
        "--board",
        choices=("every", "end", "none"),
        default="every",
        help="draw the board after every move, at the end, or never",
    )
    play.set_defaults(run=run["play"])

    tui = commands.add_parser("tui", help="play in the terminal, full screen: against the computer, hot-seat, online")
    tui.add_argument("--rules", help="preset, optionally adjusted (see 'pardon rules'; default classic)")
    tui.add_argument("--players", type=int, choices=(1, 2, 3, 4), help="default 4, unless the rules say otherwise")
    tui.add_argument(
        "--you", metavar="COLOURS", help="colours played at this screen: red (the default), red,blue (hot-seat), none"
    )
    tui.add_argument("--level", help=f"the computer players' level ({', '.join(BOTS)}; default {DEFAULT_BOT})")
    tui.add_argument("--seed", type=int, help="the game's seed (random if left out)")
    tui.add_argument("--first", metavar="COLOUR", help=FIRST_HELP)
    tui.add_argument("--pace", type=float, help="seconds a computer player waits before each decision (default 0.6)")
    tui.add_argument("--record", metavar="FILE", help="file for the game's record (default: pardon-SEED.txt here)")
    tui.add_argument("--no-record", action="store_true", help="keep no record of the game")
    tui.add_argument("--join", metavar="LINK", help="take your seat in an online game: its invite link")
    tui.add_argument(
        "--resume", metavar="FILE", help="take up again the game of a record this screen saved (s, q, or stopped)"
    )
    tui.set_defaults(run=run["tui"])

    moves = commands.add_parser("moves", help="list every legal move in a JSON position")
    moves.add_argument("file", help="position JSON file, or - for standard input")
    moves.add_argument("--card", help="the card drawn: 1 2 3 4 5 7 8 10 11 12 or sorry (not with hands)")
    moves.add_argument(
        "--check", metavar="MOVE", help="say whether this move is legal, and if not, why (e.g. '4 20-24')"
    )
    moves.set_defaults(run=run["moves"])

    selfplay = commands.add_parser("selfplay", help="play a game between computer players and write its record")
    selfplay.add_argument("--rules", default="classic", help="preset, optionally adjusted (default classic)")
    selfplay.add_argument("--players", type=int, choices=(1, 2, 3, 4), help="default 4, unless the rules say otherwise")
    selfplay.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    selfplay.add_argument("--bots", default="random", help=f"{bots_help}; default random")
    selfplay.add_argument("--first", metavar="COLOUR", help=FIRST_HELP)
    selfplay.add_argument("--record", help="file for the game record (standard output if left out)")
    selfplay.add_argument("--force", action="store_true", help="write --record over a file that is there already")
    selfplay.set_defaults(run=run["selfplay"])

    replay_command = commands.add_parser("replay", help="check a game record and print its final position")
    replay_command.add_argument("file", help="record file, or - for standard input")
    replay_command.add_argument("--json", action="store_true", help="only the final position, as JSON")
    replay_command.set_defaults(run=run["replay"])

    rules = commands.add_parser("rules", help="list presets and rules options")
    rules.add_argument("--json", action="store_true", help="every preset's options and every option's meaning, as JSON")
    rules.set_defaults(run=run["rules"])

    sim = commands.add_parser("sim", help="play many games between computer players, one result row each")
    sim.add_argument("--rules", default="classic", help="preset, optionally adjusted (default classic)")
    sim.add_argument(
        "--players",
        type=int,
        choices=(1, 2, 3, 4),
        help="default 4, unless the rules say otherwise; a run resumed keeps its own",
    )
    sim.add_argument("--bots", default="random", help=f"{bots_help}; default random")
    sim.add_argument(
        "--games", type=int, default=1000, help="games to play (default 1000), counting those --out holds already"
    )
    sim.add_argument(
        "--seed", type=int, default=0, help="the run's seed: the same seed plays the same games (default 0)"
    )
    sim.add_argument("--jobs", type=int, help="processes (or Dask workers) to play in; results do not depend on it")
    sim.add_argument("--out", required=True, help="directory for games.jsonl; a run there is resumed")
    sim.add_argument("--dask", choices=("local",), help="play on a local Dask cluster")
    sim.add_argument("--scheduler", help="play on the Dask cluster at this address, e.g. tcp://host:8786")
    sim.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    sim.add_argument("--engine", choices=("core", "batch"), default="core", help="batch: many games at once as arrays")
    sim.set_defaults(run=run["sim"])

    report = commands.add_parser("report", help="statistics and plots of simulation runs, as HTML and JSON")
    report.add_argument("directories", nargs="+", metavar="DIR", help="directories written by pardon sim")
    report.add_argument("--out", help="directory for index.html and report.json (DIR/report if left out)")
    report.set_defaults(run=run["report"])

    tournament = commands.add_parser("tournament", help="a duplicate tournament between computer players")
    tournament.add_argument("--rules", default="classic", help="preset, optionally adjusted (default classic)")
    tournament.add_argument(
        "--players", type=int, choices=(2, 3, 4), help="players a game (default 4; a tournament resumed keeps its own)"
    )
    tournament.add_argument(
        "--bots", default="greedy,tactician", help="levels, e.g. greedy,mcts(iterations=200) (default greedy,tactician)"
    )
    tournament.add_argument(
        "--games", type=int, default=100, help="games per pairing (whole deals, every seating; default 100)"
    )
    tournament.add_argument(
        "--jobs", type=int, default=1, help="processes to play in (default 1; results do not depend on it)"
    )
    tournament.add_argument("--seed", type=int, default=0, help="the seed of the deals (default 0)")
    tournament.add_argument(
        "--ladder", action="store_true", help="only each level against the next in --bots (list them weakest first)"
    )
    tournament.add_argument(
        "--out",
        metavar="DIR",
        help="keep every game in DIR/games.jsonl; run again to resume, or with more --games to extend",
    )
    tournament.add_argument("--json", action="store_true", help="the report as JSON")
    tournament.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    tournament.set_defaults(run=run["tournament"])

    hint = commands.add_parser("hint", help="rank the legal moves of a JSON position by win chance")
    hint.add_argument("file", help="position JSON file, or - for standard input")
    hint.add_argument("--card", required=True, help="1 2 3 4 5 7 8 10 11 12 or sorry")
    hint.add_argument("--bot", default="mcts", help="the level that judges, e.g. mcts(iterations=1000) (default mcts)")
    hint.add_argument("--seed", type=int, default=0, help="the seed of the judge's playouts (default 0)")
    hint.add_argument("--json", action="store_true", help="the ranking as JSON")
    hint.set_defaults(run=run["hint"])

    analyse_command = commands.add_parser(
        "analyse", help="a game record's win chances by turn, and its biggest mistakes with the better move and why"
    )
    analyse_command.add_argument("file", help="record file (as pardon selfplay or pardon tui write it), or -")
    analyse_command.add_argument("--seat", metavar="COLOURS", help="the colours to coach, e.g. red or red,blue (all)")
    analyse_command.add_argument("--bot", default=DEFAULT_COACH, help=f"who judges (default {DEFAULT_COACH})")
    analyse_command.add_argument("--top", type=int, default=3, help="how many mistakes to show (default 3)")
    analyse_command.add_argument("--json", action="store_true", help="every decision's chances and the mistakes")
    analyse_command.add_argument("--quiet", action="store_true", help="no progress bar on stderr")
    analyse_command.set_defaults(run=run["analyse"])

    puzzle = commands.add_parser("puzzle", help="a position and a card: find the best move")
    puzzle.add_argument("--number", type=int, help="which puzzle (see --list; default: the first)")
    puzzle.add_argument("--level", help="easy, medium or hard: the first puzzle of that level (or --list them)")
    puzzle.add_argument("--answer", help="your move, e.g. '7 20-24 S2-S5' or '4 20'")
    puzzle.add_argument("--list", action="store_true", help="list the puzzles with their themes")
    puzzle.add_argument("--json", action="store_true", help="the puzzle, or the verdict on --answer, as JSON")
    puzzle.set_defaults(run=run["puzzle"])

    add_serve_parser(commands, f"default: {_default_database()}")
    add_backup_parser(commands, f"default: {_default_database()}")

    sheets = commands.add_parser("sheets", help="write the one-page rule sheet and the score sheet as PDF")
    sheets.add_argument("--out", required=True, metavar="DIR", help="folder for the PDFs (made if missing)")
    sheets.add_argument(
        "--paper",
        choices=("letter", "a4", "both"),
        default="letter",
        help="US Letter (rules.pdf), A4 (rules-a4.pdf) or both (default: letter)",
    )
    sheets.set_defaults(run=run["sheets"])
    _describe(commands)
    return parser


#: ``--first`` of the commands that start a game.
FIRST_HELP: Final = "the colour that plays first (default: as the rules say, a draw for the Leader)"
