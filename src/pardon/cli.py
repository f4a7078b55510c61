"""The ``pardon`` command.

    pardon play                       watch computer players play, move by move
    pardon tui                        play in the terminal, full screen (needs the tui extra)
    pardon moves FILE --card CARD     every legal move in a JSON position
    pardon selfplay --record FILE     play a game between random players, keep its record
    pardon replay FILE                check a record move by move, print the final position
    pardon rules                      presets and rules options
    pardon tournament --bots A,B      a duplicate tournament between computer players
    pardon hint FILE --card CARD      rank the legal moves of a JSON position by win chance
    pardon analyse RECORD             every player's win chance by turn, the biggest mistakes and why
    pardon puzzle [--number N]        a position and a card: find the best move (--level easy|medium|hard)
    pardon sim --games N --out DIR    play many games, one result row each (resumable)
    pardon report DIR                 statistics and plots of simulation runs
    pardon serve                      the game server: play online (needs the web extra)
    pardon backup FILE                a consistent copy of a running server's SQLite database
    pardon sheets --out DIR           the printable rule sheet and score sheet (needs the print extra)

Every error a user can cause prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shlex
import shutil
import signal
import sys
import textwrap
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Final, TextIO

from pardon import __version__
from pardon.bots import make_bot
from pardon.cli_errors import UserError, install_hint
from pardon.cli_parser import DEFAULT_PLAY_BOTS, build_parser
from pardon.core.board import COLOUR_NAMES
from pardon.core.cards import a_card, card_label, card_name
from pardon.core.describe import describe_move, leader_draw_words
from pardon.core.errors import IllegalError, PardonError
from pardon.core.game import Game, record_of, replay
from pardon.core.jsonio import move_to_json, moves_to_json, parse_json, position_from_json, position_to_json
from pardon.core.notation import first_player, format_record, parse_card_word, parse_colour, parse_move, parse_record
from pardon.core.rules import OPTION_HELP, PRESET_HELP, PRESETS, Rules, parse_rules, to_dict
from pardon.core.state import Position, seats_for
from pardon.textboard import legend, render
from pardon.tui.gone import silence
from pardon.tui.watch import FOLLOWABLE_PACE, Keys, StoppedWatchingError, TerminalGoneError, Watcher, wants_colour

DEFAULT_PLAY_LEVELS = tuple(DEFAULT_PLAY_BOTS.split(","))


def _read_text(path: str) -> str:
    if path == "-":
        if sys.stdin is None:  # started with standard input closed (<&-)
            raise UserError("cannot read standard input: it is closed")
        try:  # strictly, as a file is read: Python reads a terminal's bytes that are not UTF-8 as stray characters
            return sys.stdin.buffer.read().decode("utf-8-sig")
        except UnicodeDecodeError:
            raise UserError("cannot read standard input: it is not UTF-8 text") from None
    try:
        return Path(path).read_text(encoding="utf-8-sig")  # a byte order mark, as some editors write, is no text
    except OSError as error:
        raise UserError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UserError(f"cannot read {path}: it is not UTF-8 text") from None


def _out_directory(text: str, option: str = "--out") -> Path:
    """The directory ``option`` names (the command makes it if missing), refused in one line
    when it is a file or cannot be written in; nothing is made here."""
    if not text.strip():  # "--out $RUN" with RUN unset would write among the user's files
        raise UserError(f"{option} must name a folder (. for this one)")
    out = Path(text)
    if out.exists() and not out.is_dir():
        raise UserError(f"{option} {text}: it is a file, not a directory")
    existing = next(folder for folder in (out, *out.absolute().parents) if folder.exists())
    if not existing.is_dir():
        raise UserError(f"{option} {text}: {existing} is a file, not a directory")
    if not os.access(existing, os.W_OK | os.X_OK):
        raise UserError(f"{option} {text}: cannot write in {existing}")
    return out


def _at_least_one(option: str, value: int | None) -> None:
    if value is not None and value < 1:
        raise UserError(f"{option} must be 1 or more, not {value}")


def _local_jobs(value: int | None) -> None:
    """--jobs of processes on this machine: at least 1, and not so many that starting them
    would swamp it (a Dask cluster's workers are not counted here)."""
    from pardon.sim.pool import most_jobs

    _at_least_one("--jobs", value)
    if value is not None and value > most_jobs():
        raise UserError(f"--jobs {value} is more processes than this machine can use: {most_jobs()} at most")


def _read_json(path: str) -> Any:
    text = _read_text(path)
    try:
        return parse_json(text)  # strict: a key given twice, or JSON nested too deeply, is one line of error
    except PardonError as error:
        raise UserError(f"{path}: {error}") from None


def command_moves(arguments: argparse.Namespace) -> int:
    rules, position = position_from_json(_read_json(arguments.file))
    if position.winner is not None:
        raise UserError(f"the game is over: {COLOUR_NAMES[position.winner].capitalize()} has won")
    if rules.hand:  # the moves name the cards of the hand
        if arguments.card is not None:
            raise UserError("in a game with hands the cards come from the hand: leave out --card")
        card = None
        about: dict[str, object] = {"hand": [card_name(held) for held in position.hands[position.turn]]}
    else:
        if arguments.card is None:
            raise UserError("say which card was drawn: --card CARD")
        card = parse_card_word(arguments.card)
        about = {"card": card_name(card)}
    if arguments.check is not None:
        print(json.dumps({**about, **_checked_move(rules, position, card, arguments.check)}))
    else:
        print(json.dumps({**about, "moves": moves_to_json(rules, position, card)}))
    return 0


def _checked_move(rules: Rules, position: Position, card: int | None, text: str) -> dict[str, object]:
    """Whether the move written ``text`` is legal: the move as notation writes it and the
    position after it, or why not (the rule it breaks).  A move that cannot be read, or that
    could mean several, is bad input (PardonError)."""
    try:
        move = parse_move(rules, position, card, text)
    except IllegalError as error:
        return {"move": text, "legal": False, "reason": str(error)}
    made = move_to_json(rules, position, move)  # the move as notation writes it, and the position after
    return {"move": text, "legal": True, "as": made["move"], "pass": made["pass"], "result": made["result"]}


#: Players a game unless --players says, in every command that starts one (the rules allowing).
USUAL_PLAYERS: Final = 4


def _players(rules_text: str, players: int | None, usual: int = USUAL_PLAYERS) -> int:
    """The number of players asked for, or the usual number these rules allow."""
    if players is not None:
        return players
    allowed = parse_rules(rules_text).players
    return usual if usual in allowed else allowed[0]


def _held_players(out: str | None, settings: str) -> int | None:
    """The players a game of the run kept in folder ``out`` (its ``settings`` file), so that a run
    made before the usual count changed resumes as it was; None for a new run."""
    if not out:
        return None
    try:
        held = json.loads((Path(out) / settings).read_text(encoding="utf-8"))["players"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return held if isinstance(held, int) and not isinstance(held, bool) else None


def _play_game(
    rules_text: str,
    players: int,
    seed: int,
    bot_names: list[str],
    watcher: Watcher | None = None,
    heading: Sequence[str] = (),
    first: str | None = None,
) -> Game:
    """Computer players play a game; ``watcher`` shows it, under ``heading`` and the Leader draw."""
    rules = parse_rules(rules_text)
    seats = seats_for(players)
    game = Game.new(rules, seats, seed, first_player(first, seats))
    bots = {colour: make_bot(level) for colour, level in zip(seats, _round_the_table(bot_names, players), strict=True)}
    rng = random.Random(f"pardon-bots:{seed}")
    if watcher is not None:
        who = list(zip(seats, _round_the_table(bot_names, players), strict=True))
        leader = leader_draw_words(game.leader_draw) if game.leader_draw is not None else ""
        watcher.opening([*heading, *_leader_draw_lines(game)], rules.tokens, who, leader)
    while not game.is_over:
        if game.awaiting_draw:
            game.draw()
        colour = game.decider
        moves = game.legal_moves()
        move = bots[colour].choose(game.observe(colour), moves, rng)
        before = game.position
        game.play_trusted(move)
        if watcher is not None and (move.card or move.actions):  # going on to the card goes without saying
            watcher.turn(len(game.moves), describe_move(game.rules, before, move), game.position, move.is_pass)
    return game


def _levels(text: str) -> list[str]:
    """The levels ``--bots`` names, commas inside a level's parentheses kept; at least one."""
    from pardon.bots import split_bot_specs

    specs = split_bot_specs(text)
    if not specs:
        raise UserError("--bots names no computer player: give at least one level, e.g. random")
    return specs


def _seat_levels(text: str, players: int) -> list[str]:
    """The levels of ``--bots``, refused in one line before a game starts: none, more than
    there are seats, or one that cannot be made."""
    from pardon.sim.simulate import check_seat_count

    specs = _levels(text)
    check_seat_count(specs, players)
    for spec in specs:
        make_bot(spec)
    return specs


def _round_the_table(levels: Sequence[str], players: int) -> list[str]:
    """Each seat's level in seat order: a shorter list repeats round the table."""
    return [levels[index % len(levels)] for index in range(players)]


def _leader_draw_lines(game: Game) -> list[str]:
    return [] if game.leader_draw is None else [leader_draw_words(game.leader_draw), ""]


def command_play(arguments: argparse.Namespace) -> int:
    if arguments.delay is not None and not 0 <= arguments.delay < math.inf:  # as pardon tui's --pace
        raise UserError(f"--delay must be 0 or more seconds, not {arguments.delay}")
    seed = arguments.seed if arguments.seed is not None else random.SystemRandom().randrange(10**6)
    players = _players(arguments.rules, arguments.players, 4)
    # without --bots the default pair, cut to one level for the solo challenge
    names = list(DEFAULT_PLAY_LEVELS[:players]) if arguments.bots is None else _seat_levels(arguments.bots, players)
    levels = ", ".join(
        f"{COLOUR_NAMES[colour].capitalize()} {level}"
        for colour, level in zip(seats_for(players), _round_the_table(names, players), strict=True)
    )
    in_terminal = sys.stdout.isatty() and not arguments.fast
    delay = arguments.delay if arguments.delay is not None else FOLLOWABLE_PACE if in_terminal else 0.0
    colour = not arguments.fast and wants_colour(sys.stdout, arguments.colour)
    heading = [f"pardon {__version__}: rules {arguments.rules}, seed {seed}; computer players: {levels}", ""]
    again = shlex.join(["pardon", "play", "--rules", arguments.rules, "--players", str(players), "--seed", str(seed)])
    again += f" --bots {shlex.quote(arguments.bots)}" if arguments.bots not in (None, DEFAULT_PLAY_BOTS) else ""
    keys = Keys(sys.stdin) if in_terminal and arguments.board == "every" and sys.stdin.isatty() else None
    watcher = Watcher(sys.stdout, arguments.board, colour, in_terminal, delay, arguments.fast, keys)
    previous = signal.signal(signal.SIGHUP, _hung_up) if in_terminal else None
    try:
        game = _play_game(arguments.rules, players, seed, names, watcher, heading, arguments.first)
    except StoppedWatchingError:
        print(f"\nStopped at move {watcher.last_number}. Watch this game again with: {again}")
        return 0
    except TerminalGoneError:  # the window closed: nothing can be shown, and nothing is lost
        silence()
        return 130
    finally:
        if keys is not None:
            keys.close()
        if previous is not None:
            signal.signal(signal.SIGHUP, previous)
    assert game.winner is not None
    cards = sum(1 for move in game.moves if move.card)
    if len(game.position.seats) == 1:
        result = [f"{COLOUR_NAMES[game.winner].capitalize()} has every pawn Home after {cards} cards."]
    else:
        result = [f"{COLOUR_NAMES[game.winner].capitalize()} wins after {cards} cards."]
    if game.points is not None:
        result.append("Points: " + ", ".join(f"{COLOUR_NAMES[c]} {points}" for c, points in game.points.items()))
    # Every option the game depends on: the same computer players too, or it is another game.
    again += f" --first {COLOUR_NAMES[game.first]}" if game.first is not None and arguments.first else ""
    result.append(f"Watch this game again with: {again}")
    watcher.end(game.position, result)
    return 0


def _hung_up(number: int, frame: object) -> None:
    """SIGHUP while watching: the terminal window closed, as the terminal game takes it."""
    raise TerminalGoneError


def command_tui(arguments: argparse.Namespace) -> int:
    try:
        from pardon.tui.launch import launch
    except ImportError as error:
        raise UserError(f"the terminal game needs the tui extra (no {error.name}): {install_hint('tui')}") from None
    return launch(arguments)


def command_selfplay(arguments: argparse.Namespace) -> int:
    players = _players(arguments.rules, arguments.players)
    levels = _seat_levels(arguments.bots, players)
    if arguments.record and Path(arguments.record).exists() and not arguments.force:
        raise UserError(f"--record {arguments.record}: the file is there already: choose another name, or --force")
    game = _play_game(arguments.rules, players, arguments.seed, levels, first=arguments.first)
    named = tuple(zip(game.position.seats, _round_the_table(levels, players), strict=True))
    record = format_record(record_of(game)._replace(players=named))  # who played: the levels, as pardon tui names them
    if arguments.record:
        try:
            Path(arguments.record).write_text(record, encoding="utf-8")
        except OSError as error:
            raise UserError(f"cannot write {arguments.record}: {error.strerror or error}") from None
    else:
        sys.stdout.write(record)
    if arguments.record:
        assert game.winner is not None
        cards = sum(1 for move in game.moves if move.card)
        print(f"{COLOUR_NAMES[game.winner].capitalize()} won after {cards} cards; record written to {arguments.record}")
    return 0


def command_replay(arguments: argparse.Namespace) -> int:
    game = replay(parse_record(_read_text(arguments.file)))
    if arguments.json:
        print(json.dumps(position_to_json(game.rules, game.position)))
        return 0
    cards = sum(1 for move in game.moves if move.card)
    if game.winner is not None:
        outcome = f"{COLOUR_NAMES[game.winner].capitalize()} won after {cards} cards"
    else:
        outcome = f"not over after {cards} cards ({COLOUR_NAMES[game.decider].capitalize()} to play)"
    print(f"{arguments.file}: every move is legal; {outcome}.")
    if game.points is not None:
        print("Points: " + ", ".join(f"{COLOUR_NAMES[c].capitalize()} {points}" for c, points in game.points.items()))
    print(f"\n{render(game.position, tokens=game.rules.tokens)}\n")
    print(f"The final position as JSON: pardon replay --json {shlex.quote(arguments.file)}")
    return 0


def command_rules(arguments: argparse.Namespace) -> int:
    if arguments.json:
        print(
            json.dumps({"presets": {name: to_dict(rules) for name, rules in PRESETS.items()}, "options": OPTION_HELP})
        )
        return 0
    width = min(100, shutil.get_terminal_size((80, 24)).columns)
    for paragraph in HOW_TO_PLAY:
        print(textwrap.fill(paragraph, width) + "\n")
    print("Presets (pardon tui --rules NAME):")
    for name, text in PRESET_HELP.items():
        print(textwrap.fill(text, width, initial_indent=f"  {name:20s} ", subsequent_indent=" " * 23))
    print("\nOptions (adjust a preset with --rules 'classic(pawns=3,deck=44)'):")
    defaults = to_dict(PRESETS["classic"])
    for option, text in OPTION_HELP.items():
        about = f"{text} [classic: {str(defaults[option]).lower()}]"
        print(textwrap.fill(about, width, initial_indent=f"  {option:26s} ", subsequent_indent=" " * 29))
    return 0


#: ``pardon rules`` first says how the game is played (the whole rules: docs/rules.md).
HOW_TO_PLAY: Final = (
    "How to play: each player has 4 pawns in Start. On your turn draw a card and move a pawn by it, clockwise "
    "round the board; the first to bring every pawn into Home wins (pardon tui plays a game against the computer).",
    "A 1 or a 2 (or a Sorry!) brings a pawn out of Start; a 2 draws again; a 4 moves back 4; a 7 may be split "
    "between two pawns; a 10 moves 10 forward or 1 back; an 11 moves 11 or switches with an opponent; a Sorry! "
    "takes a pawn from Start onto an opponent's square and sends that pawn back to its Start. Landing on a pawn "
    "sends it back to Start; a slide's triangle of another colour sends you down it, bumping every pawn in the "
    "way. Only your own pawns enter your Safety Zone, and Home needs the exact count.",
    "The full rules, with every variant: docs/rules.md.",
)


def command_tournament(arguments: argparse.Namespace) -> int:
    from pardon.bots import split_bot_specs
    from pardon.sim.tournament import SETTINGS as TOURNAMENT_SETTINGS
    from pardon.sim.tournament import format_report, run_tournament

    _at_least_one("--games", arguments.games)
    _local_jobs(arguments.jobs)
    specs = split_bot_specs(arguments.bots)
    for spec in specs:  # an unknown level is refused before anything is made
        make_bot(spec)
    directory = None if arguments.out is None else _out_directory(arguments.out)
    if directory is not None and len(specs) > 1:  # made before the progress bar starts
        try:
            directory.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise UserError(f"--out {arguments.out}: cannot make it: {error.strerror or error}") from None
    held = _held_players(arguments.out, TOURNAMENT_SETTINGS)
    report = run_tournament(
        specs,
        rules=arguments.rules,
        players=_players(arguments.rules, arguments.players or held),
        games=arguments.games,
        jobs=arguments.jobs,
        seed=arguments.seed,
        progress=None if arguments.quiet else sys.stderr,
        ladder=arguments.ladder,
        directory=directory,
    )
    print(json.dumps(report.to_json()) if arguments.json else format_report(report))
    return 0


def command_hint(arguments: argparse.Namespace) -> int:
    from pardon.bots.coach import best_reason
    from pardon.bots.hint import rank_moves
    from pardon.core.notation import format_move

    rules, position = position_from_json(_read_json(arguments.file))
    card = parse_card_word(arguments.card)
    if position.winner is not None:
        raise UserError(f"the game is over: {COLOUR_NAMES[position.winner].capitalize()} has won")
    hand = position.hands[position.turn] if rules.hand else ()
    if rules.hand and card not in hand:  # its moves would play a card the player does not hold
        held = ", ".join(card_label(held) for held in hand)
        raise UserError(
            f"{COLOUR_NAMES[position.turn].capitalize()} holds {held}: the card comes from the hand,"
            f" not {card_label(card)}"
        )
    ranked = rank_moves(rules, position, card, arguments.bot, random.Random(arguments.seed))
    moves = [{"move": format_move(position, move), "win_chance": round(chance, 4)} for move, chance in ranked]
    why = best_reason(rules, position, ranked)
    if arguments.json:
        print(json.dumps({"card": card_name(card), "bot": arguments.bot, "moves": moves, "reason": why}))
        return 0
    print(f"{COLOUR_NAMES[position.turn].capitalize()} to play {a_card(card)}; win chance by {arguments.bot}:")
    for entry in moves:
        print(f"  {entry['win_chance']:6.1%}  {entry['move']}")
    if why is not None:
        print(f"Why {moves[0]['move']}: {why}")
    return 0


def command_analyse(arguments: argparse.Namespace) -> int:
    from pardon.bots.coach import MARKS, PLAIN_MARKS, analyse, format_analysis
    from pardon.sim.progress import Progress

    if arguments.top < 0:
        raise UserError(f"--top must be 0 or more, not {arguments.top}")
    make_bot(arguments.bot)  # an unknown level is refused before the record is read
    record = parse_record(_read_text(arguments.file))
    seats = None if arguments.seat is None else [parse_colour(word) for word in arguments.seat.split(",")]
    shown = not arguments.quiet and sys.stderr.isatty()  # a bar in a log file is noise
    bar = Progress(len(record.moves), sys.stderr if shown else None, unit="decisions")
    analysis = analyse(record, arguments.bot, seats, bar.update)
    if arguments.json:
        print(json.dumps(analysis.to_json(arguments.top)))
        return 0
    marks = MARKS if _can_write(sys.stdout, MARKS) else PLAIN_MARKS
    sys.stdout.write(format_analysis(analysis, arguments.top, marks))
    return 0


def _can_write(stream: TextIO, text: str) -> bool:
    """Whether ``stream`` can show ``text`` (a terminal without Unicode gets plain marks)."""
    try:
        text.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def command_puzzle(arguments: argparse.Namespace) -> int:
    from pardon.bots.puzzles import DIFFICULTIES, load_puzzles
    from pardon.core.notation import format_move

    puzzles = load_puzzles()
    level = None if arguments.level is None else arguments.level.lower()
    if level is not None and level not in DIFFICULTIES:
        raise UserError(f"unknown level {arguments.level!r}: choose {', '.join(DIFFICULTIES)}")
    of_level = [puzzle for puzzle in puzzles if level is None or puzzle.difficulty == level]
    if not of_level:
        raise UserError(f"there is no {level} puzzle yet: see --list")
    if arguments.list and (arguments.number is not None or arguments.answer is not None):
        raise UserError("--list lists the puzzles: give --number or --answer without it")
    if arguments.list:
        rows = [
            {"number": p.number, "rules": p.rules, "theme": p.theme, "difficulty": p.difficulty, "found_by": p.found_by}
            for p in of_level
        ]
        if arguments.json:
            print(json.dumps({"puzzles": rows}))
        if not arguments.json:
            print(f"{'#':>3s}  {'rules':17s} {'level':7s} {'found by':10s} theme")
        for row in [] if arguments.json else rows:
            print(f"{row['number']:3d}  {row['rules']:17s} {row['difficulty']:7s} {row['found_by']:10s} {row['theme']}")
        return 0
    if arguments.number is None:
        puzzle = of_level[0]
    else:
        found = [puzzle for puzzle in puzzles if puzzle.number == arguments.number]
        if not found:
            raise UserError(f"there is no puzzle {arguments.number}: choose 1-{len(puzzles)} (see --list)")
        puzzle = found[0]
        if level is not None and puzzle.difficulty != level:
            raise UserError(f"puzzle {puzzle.number} is {puzzle.difficulty}, not {level}")
    position, card = puzzle.game_position, puzzle.card_value
    moves = [format_move(position, move) for move in puzzle.moves()]
    chances = [{"move": move, "win_chance": chance} for move, chance in puzzle.chances]
    about: dict[str, Any] = {"number": puzzle.number, "rules": puzzle.rules, "position": puzzle.position}
    about["card"] = puzzle.card
    if puzzle.is_hand:
        about["hand"] = [card_name(held) for held in puzzle.hand]
    if arguments.answer is None:
        if arguments.json:
            found_by = {"difficulty": puzzle.difficulty, "found_by": puzzle.found_by}
            print(json.dumps({**about, "turn": puzzle.colour, **found_by, "moves": moves}))
            return 0
        held = ", ".join(card_label(held) for held in puzzle.hand)
        to_play = a_card(card) if card is not None else f"a card of the hand ({held})"
        print(f"Puzzle {puzzle.number} ({puzzle.rules}, {puzzle.difficulty}): {puzzle.colour.capitalize()}", end=" ")
        print(f"to play {to_play}. Find the best move.\n\n{render(position, tokens=puzzle.game_rules.tokens)}\n")
        print(legend(tokens=puzzle.game_rules.tokens))  # what the marks mean: the board has no numbers
        print(f"\nPosition: {puzzle.position}  (track squares 0-59, clockwise from 0 at the top left)")
        print(f"Legal moves: {', '.join(moves)}")
        print(f"Answer with: pardon puzzle --number {puzzle.number} --answer MOVE")
        return 0
    answer = puzzle.parse_answer(arguments.answer)
    right, text = puzzle.is_best(answer), format_move(position, answer)
    if arguments.json:
        verdict = {"answer": text, "correct": right, "best": puzzle.best, "reason": _puzzle_reason(puzzle, answer)}
        print(json.dumps({**about, **verdict, "moves": chances}))
        return 0
    if right:
        print(f"{text}: right, the best move ({puzzle.theme}).")
    else:  # why, in the coach's words: a wrong answer is where a player learns
        print(f"{text}: not the best; {puzzle.best} is. {_puzzle_reason(puzzle, answer)}.")
    print(f"Win chance for {puzzle.colour} ({puzzle.playouts} playouts per move):")
    for entry in chances:
        mark = " <- yours" if entry["move"] == text else ""
        print(f"  {entry['win_chance']:6.1%}  {entry['move']}{mark}")
    return 0


def _puzzle_reason(puzzle: Any, answer: Any) -> str:
    """The coach's line on why the best move beats the answer (if the answer is the best: the second best)."""
    from pardon.bots.coach import reason

    best = puzzle.best_move()
    other = puzzle.second_move() if puzzle.is_best(answer) else answer
    gain = puzzle.chance_of(best) - puzzle.chance_of(other)
    return reason(puzzle.game_rules, puzzle.game_position, best, other, gain)


def command_sim(arguments: argparse.Namespace) -> int:
    from pardon.batch.runs import check_engine
    from pardon.sim.simulate import SETTINGS, Simulation, default_jobs, held_games, run_simulation

    if arguments.dask and arguments.scheduler:
        raise UserError("choose --dask local or --scheduler ADDRESS, not both")
    # an extra missing is said before the run's folder is made
    if arguments.engine == "batch":
        import numpy  # noqa: F401 (the rl extra)
    elif arguments.dask or arguments.scheduler:
        import distributed  # noqa: F401 (the sim extra)
    if arguments.dask or arguments.scheduler:
        _at_least_one("--jobs", arguments.jobs)
    else:
        _local_jobs(arguments.jobs)
    players = _players(arguments.rules, arguments.players or _held_players(arguments.out, SETTINGS))
    simulation = Simulation(arguments.rules, players, tuple(_levels(arguments.bots)), arguments.games, arguments.seed)
    jobs = arguments.jobs or default_jobs()
    out = _out_directory(arguments.out)
    check_engine(out, arguments.engine)
    if arguments.engine == "batch":  # many games at once as arrays (needs the rl extra)
        from pardon.batch.simulate import command_sim_batch

        return command_sim_batch(simulation, arguments)
    started = time.monotonic()
    played = run_simulation(
        simulation,
        out,
        jobs=jobs,
        scheduler="local" if arguments.dask else arguments.scheduler,
        progress=None if arguments.quiet else sys.stderr,
    )
    elapsed = time.monotonic() - started
    rate = f" ({played / elapsed:,.0f} games/s)" if played and elapsed > 0 else ""
    print(f"{played:,} games played{rate}; {held_games(out / 'games.jsonl')}")
    return 0


def command_report(arguments: argparse.Namespace) -> int:
    import matplotlib  # noqa: F401 (before anything is written: without the sim extra, nothing is)

    from pardon.sim.report import summarise, write_report
    from pardon.sim.simulate import read_rows, read_settings

    directories = [Path(directory) for directory in arguments.directories]
    for directory in directories:  # a folder pardon sim never wrote in: said in words, not [Errno 2]
        if directory.is_dir() and not (directory / "run.json").exists():
            raise UserError(f"{directory} is not a simulation run: it has no run.json (pardon sim --out {directory})")
    summaries = [
        summarise(read_rows(directory), {**read_settings(directory).to_json(), **_run_notes(directory)})
        for directory in directories
    ]
    out = _out_directory(arguments.out or str(directories[0] / "report"))
    page = write_report(summaries, out)
    print(f"report written to {page} (figures in {out / 'report.json'})")
    return 0


def _run_notes(directory: Path) -> dict[str, str]:
    """What a report says of a run beyond its settings: its folder, and the engine that played it."""
    from pardon.batch.runs import engine_of

    return {"directory": str(directory), "engine": engine_of(directory) or "core"}


def command_sheets(arguments: argparse.Namespace) -> int:
    try:
        from pardon.printables import write_sheets
    except ImportError as error:
        missing = (error.name or "reportlab").split(".")[0]
        raise UserError(f"the sheets need the print extra (no {missing}): {install_hint('print')}") from None
    papers = ("letter", "a4") if arguments.paper == "both" else (arguments.paper,)
    if not arguments.out.strip():
        raise UserError("--out must name a folder (. for this one)")
    out = Path(arguments.out)
    if out.is_symlink() and not out.exists():
        raise UserError(f"cannot write the sheets to {out}: it is a link to {os.readlink(out)}, which does not exist")
    if out.exists() and not out.is_dir():
        raise UserError(f"cannot write the sheets to {out}: it is a file, not a directory")
    try:
        written = write_sheets(out, papers)
    except OSError as error:
        where = f"{error.filename}: " if error.filename and Path(error.filename) != out else ""
        raise UserError(f"cannot write the sheets to {out}: {where}{error.strerror or error}") from None
    for path in written:
        print(path)
    return 0


def _parser() -> argparse.ArgumentParser:
    return build_parser(
        {
            "analyse": command_analyse,
            "hint": command_hint,
            "moves": command_moves,
            "play": command_play,
            "puzzle": command_puzzle,
            "replay": command_replay,
            "report": command_report,
            "rules": command_rules,
            "selfplay": command_selfplay,
            "sheets": command_sheets,
            "sim": command_sim,
            "tournament": command_tournament,
            "tui": command_tui,
        }
    )


#: The optional packages, by the extra of pyproject.toml that installs each.
EXTRA_OF: Final = {
    **dict.fromkeys(("dask", "distributed", "matplotlib"), "sim"),
    **dict.fromkeys(("fastapi", "uvicorn", "sqlalchemy", "alembic", "pydantic", "platformdirs", "httpx"), "web"),
    **dict.fromkeys(("textual", "rich", "websockets"), "tui"),
    **dict.fromkeys(("numpy", "gymnasium", "pettingzoo"), "rl"),
    "reportlab": "print",
    "jax": "jax",
}


def _missing_extra(error: ModuleNotFoundError) -> str | None:
    """What to say of an optional package that is not installed; None for any other."""
    package = (error.name or "").split(".")[0]
    extra = EXTRA_OF.get(package)
    return None if extra is None else f"this needs the {extra} extra (no {package}): {install_hint(extra)}"


def main(argv: Sequence[str] | None = None) -> int:
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with it closed (>&-): what goes there is dropped
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (for the process's life)
    arguments = _parser().parse_args(argv)
    try:
        result: int = arguments.run(arguments)
        return result
    except (UserError, PardonError, ValueError) as error:
        print(f"pardon {arguments.command}: {error}", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:  # an optional package: the extra that installs it
        said = _missing_extra(error)
        if said is None:
            raise
        print(f"pardon {arguments.command}: {said}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # Ctrl+C: the line a progress bar was on ends, and it is said
        resumes = arguments.command in ("sim", "tournament") and getattr(arguments, "out", None)
        again = ": the same command resumes it" if resumes else ""
        print(f"\npardon {arguments.command}: interrupted{again}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as error:  # a file or folder the command could not read or write
        where = f" {error.filename}" if error.filename else ""
        print(f"pardon {arguments.command}: cannot use{where}: {error.strerror or error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
