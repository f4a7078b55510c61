"""``pardon tui`` and ``pardon play`` as real processes: in a real (pseudo) terminal, piped, and
refusing what cannot be, in one line."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tui_support import Terminal

from pardon.core.notation import parse_record
from pardon.tui.app import PardonApp
from pardon.tui.local import LocalTable


def pardon(*arguments: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pardon", *arguments], capture_output=True, text=True, timeout=120, check=False, cwd=cwd
    )


def test_pardon_tui_runs_full_screen_in_a_terminal_and_quits_on_q_twice(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    terminal = Terminal(["tui", "--players", "2", "--seed", "4", "--level", "random", "--pace", "0"], cwd=tmp_path)
    shown = terminal.read_until(b"q quit")  # the last line of the screen: all of it drawn
    assert b"\x1b[?1049h" in shown  # the full screen, the terminal's own screen kept behind it
    text = re.sub(rb"\x1b\[[0-9;]*m", b"", shown)  # the words, their colours aside
    assert b"[R] pawn: R B Y G" in text and b"Card: " in text
    terminal.type("q")  # the game is not over: the first q only asks
    terminal.read_until(b"is not over")
    terminal.type("q")
    assert terminal.finish() == 0


def test_ctrl_c_in_the_terminal_quits_as_q_does(tmp_path: Path) -> None:
    """Ctrl+C showed Textual's own "Do you want to quit? Press ctrl+q to quit the app"."""
    pytest.importorskip("textual")
    terminal = Terminal(["tui", "--players", "2", "--seed", "4", "--level", "random", "--pace", "0"], cwd=tmp_path)
    terminal.read_until(b"q quit")
    terminal.type("\x03")  # Ctrl+C: the game is not over, so it only asks, as q does
    terminal.read_until(b"is not over")
    assert b"ctrl+q" not in terminal.output
    terminal.type("\x03")
    assert terminal.finish() == 0
    assert b"pardon tui --resume pardon-4.txt takes it up again" in terminal.output


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_pardon_tui_stopped_from_outside_keeps_the_game_so_far_and_says_so(tmp_path: Path, signal_number: int) -> None:
    # It had ended silently with status 0, the game lost (kill, the window closed).
    pytest.importorskip("textual")
    arguments = ["tui", "--players", "2", "--seed", "4", "--level", "random", "--pace", "0", "--record", "game.txt"]
    terminal = Terminal(arguments, cwd=tmp_path)
    terminal.read_until(b"q quit")
    terminal.process.send_signal(signal_number)
    assert terminal.finish() == 130
    assert b"pardon tui: interrupted" in terminal.output
    record = (tmp_path / "game.txt").read_text(encoding="utf-8")
    assert '[Seed "4"]' in record and '[Result "*"]' in record  # not over: no result yet


def _closed_port() -> int:
    """A loopback port nobody listens on."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--players", "2", "--you", "blue"], "blue is not playing: with 2 players the colours are red and yellow"),
        (["--you", "purple"], "unknown colour 'purple'"),
        (["--level", "grandmaster"], "unknown computer player 'grandmaster'"),
        (["--rules", "checkers"], "unknown rules preset 'checkers'"),
        (["--pace", "-1"], "--pace must be 0 or more seconds"),
        (["--pace", "inf"], "--pace must be 0 or more seconds, not inf"),  # the computer would never move
        (["--pace", "nan"], "--pace must be 0 or more seconds, not nan"),
        (["--rules", "solo", "--you", "blue"], "blue is not playing: with 1 player the colour is red"),
        (["--record", "/"], "--record /: it is a directory, not a file"),  # said now, not at the game's end
        (["--record", "/no/such/folder/game.txt"], "--record /no/such/folder/game.txt: there is no folder"),
        (["--join", "http://127.0.0.1:8000/lobby"], "the address has no /play/GAME"),
        (["--join", ""], "cannot join '': expected an invite link"),
        (["--join", "http://[::1/play/abc#token=x"], "cannot join 'http://[::1/play/abc#token=x': Invalid IPv6 URL"),
        (["--join", f"http://127.0.0.1:{_closed_port()}/play/abc#token=x"], "cannot reach http://127.0.0.1:"),
        # an existing file is another game's record, say: refused before anything is played, not written over
        (["--record", __file__], f"--record {__file__}: the file is there already: choose another name, or delete"),
        (["--record", "game.txt", "--no-record"], "--record game.txt keeps the record and --no-record keeps none"),
        # the online game's options are the server's: --rules was ignored without a word
        (["--join", "http://127.0.0.1:8000/play/abc#token=x", "--rules", "adult"], "leave out --rules"),
        (["--join", "http://127.0.0.1:8000/play/abc#token=x", "--you", "blue", "--pace", "0"], "--you, --pace"),
        (["--join", "http://127.0.0.1:8000/play/abc#token=x", "--first", "blue"], "leave out --first"),
        (
            ["--join", "http://127.0.0.1:8000/play/abc#token=x", "--pace", "0.6"],
            "leave out --pace",
        ),  # the default, given
        (["--first", "green", "--players", "2"], "--first: Green is not playing (the seats are Red, Yellow)"),
    ],
)
def test_pardon_tui_refuses_what_cannot_be_in_one_line(arguments: list[str], says: str) -> None:
    pytest.importorskip("textual")
    result = pardon("tui", *arguments)
    assert result.returncode == 2
    assert result.stdout == "" and result.stderr.startswith("pardon tui: ") and says in result.stderr
    assert result.stderr.count("\n") == 1


NUMBERED = re.compile(r"^ *\d+\. .*$", re.MULTILINE)


def test_pardon_play_piped_gives_the_legend_and_fast_the_old_plain_output() -> None:
    followed = pardon("play", "--players", "2", "--seed", "5")
    fast = pardon("play", "--players", "2", "--seed", "5", "--fast")
    assert followed.returncode == fast.returncode == 0
    assert "Legend:" in followed.stdout and ">=o a slide: triangle, swept squares, end" in followed.stdout
    assert "Legend:" not in fast.stdout
    assert "\x1b[" not in followed.stdout + fast.stdout  # no colour for a file or a pipe
    assert NUMBERED.findall(followed.stdout) == NUMBERED.findall(fast.stdout)  # the same game, move for move
    assert followed.stdout.replace(_legend_block(followed.stdout), "") == fast.stdout


def _legend_block(text: str) -> str:
    start = text.index("Legend:")
    return text[start : text.index("\n\n", start) + 2]


def test_pardon_play_in_colour_keeps_the_letters_on_the_pawns() -> None:
    coloured = pardon("play", "--players", "2", "--seed", "5", "--colour", "always", "--board", "end")
    assert "\x1b[1;97;41m[R]\x1b[0m" in coloured.stdout or "\x1b[1;30;43m[Y]\x1b[0m" in coloured.stdout
    plain = re.sub(r"\x1b\[[0-9;]*m", "", coloured.stdout)
    assert plain == pardon("play", "--players", "2", "--seed", "5", "--board", "end").stdout


def test_pardon_play_in_a_terminal_redraws_the_board_in_place_in_colour() -> None:
    terminal = Terminal(["play", "--players", "2", "--seed", "5", "--delay", "0"], size=(120, 40))
    shown = terminal.read_until(b"Watch this game again with")
    assert terminal.finish() == 0
    assert shown.count(b"\x1b[2J") == 1  # cleared once, then each screen written over the last: no flicker
    assert shown.count(b"\x1b[H") > 10  # a screen per move, not the whole game scrolling by
    assert b"\x1b[1;97;41m[R]" in shown and b"a Safety Zone square" in shown  # the legend beside the board


def _screens(shown: bytes) -> list[str]:
    return [screen.decode() for screen in re.sub(rb"\x1b\[[0-9;]*[mKJ]", b"", shown).split(b"\x1b[H")[1:]]


def test_pardon_play_in_a_small_terminal_fits_each_screen_and_says_who_plays_which_colour() -> None:
    """At 80 x 24 the players and the Leader draw were dropped for the moves; the screen never
    scrolls, and the last move is always in view."""
    terminal = Terminal(["play", "--seed", "3", "--delay", "0"], size=(80, 24))
    shown = terminal.read_until(b"Watch this game again with", seconds=120)
    assert terminal.finish() == 0
    screens = _screens(shown)
    assert len(screens) > 10
    for screen in screens[:-1]:  # the last one has the result under it
        lines = screen.removesuffix("\r\n").split("\r\n")
        assert len(lines) <= 23 and all(len(line) <= 80 for line in lines), screen
        assert re.search(r"^ *\d+\. ", screen, re.MULTILINE)  # the move just made
        assert "Red     greedy" in screen and "Green   random" in screen and "Leader draw:" in screen


def test_pardon_play_pauses_steps_speeds_up_and_quits_by_keys() -> None:
    terminal = Terminal(["play", "--players", "2", "--seed", "3", "--delay", "0.3"], size=(80, 24))
    terminal.read_until(b"space pause")
    terminal.type(" ")
    terminal.read_until(b"PAUSED")
    time.sleep(1)
    paused_at = len(re.findall(rb"^ *\d+\. ", terminal.output, re.MULTILINE))
    before = _last_move(terminal.output)
    terminal.type("n")  # one move, and paused still
    terminal.read_until(f"{before + 1:4d}. ".encode())
    time.sleep(1)
    assert _last_move(terminal.output) == before + 1
    terminal.type("+")
    terminal.read_until(b"(0.25 s a move)")
    terminal.type("q")
    assert terminal.finish() == 0
    assert f"Stopped at move {before + 1}. Watch this game again with: pardon play".encode() in terminal.output
    assert paused_at > 0


def _last_move(output: bytes) -> int:
    lines = re.sub(rb"\x1b\[[0-9;]*[mKJH]", b"\n", output)
    return max(int(number) for number in re.findall(rb"(?m)^ *(\d+)\. ", lines))


@pytest.mark.parametrize("controlling", [True, False], ids=["sighup", "no-sighup"])
def test_pardon_play_ends_at_once_when_its_terminal_is_closed(controlling: bool) -> None:
    terminal = Terminal(["play", "--seed", "3"], size=(80, 24), controlling=controlling)
    terminal.read_until(b"space pause")
    started = time.monotonic()
    terminal.close_window()
    while terminal.process.poll() is None and time.monotonic() - started < 4:
        time.sleep(0.05)
    status = terminal.process.poll()
    if status is None:
        terminal.process.kill()
    assert status == 130 and time.monotonic() - started < 2


def test_pardon_play_refuses_a_negative_delay_as_tui_refuses_a_negative_pace() -> None:
    result = pardon("play", "--delay", "-1")
    assert result.returncode == 2 and result.stderr == "pardon play: --delay must be 0 or more seconds, not -1.0\n"


def test_pardon_tui_without_a_terminal_says_so_and_does_not_wait_for_keys(tmp_path: Path) -> None:
    """Keys come from standard input: from a file or a pipe none ever come, and the screen waited for ever."""
    result = subprocess.run(
        [sys.executable, "-m", "pardon", "tui", "--pace", "0", "--you", "none"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
        cwd=tmp_path,
    )
    assert result.returncode == 2 and result.stdout == ""
    assert (
        result.stderr == "pardon tui: the terminal game needs a terminal to play in (to watch as text: pardon play)\n"
    )
    assert list(tmp_path.iterdir()) == []


def launched(monkeypatch: pytest.MonkeyPatch, *arguments: str) -> PardonApp:
    """The screen ``pardon tui ARGUMENTS`` would open, made but not opened."""
    from pardon.cli import _parser
    from pardon.tui import launch

    opened: list[PardonApp] = []

    def run(app: PardonApp) -> None:  # the screen, not opened
        opened.append(app)

    monkeypatch.setattr(launch.PardonApp, "run", run)
    monkeypatch.setattr(launch, "_in_terminal", lambda: True)
    assert launch.launch(_parser().parse_args(["tui", *arguments])) == 0
    return opened[0]


def test_a_new_game_keeps_the_record_of_the_last_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With --record FILE, n at the end starts a game whose record goes beside FILE, not over it."""
    record = tmp_path / "game.txt"
    app = launched(monkeypatch, "--record", str(record), "--seed", "3")
    assert app.record == record and app.new_game is not None
    record.write_text("the first game\n", encoding="utf-8")  # as written at its end
    _, second = app.new_game()
    assert second == tmp_path / "game-2.txt"
    assert record.read_text(encoding="utf-8") == "the first game\n"


def test_a_game_left_with_q_is_saved_and_taken_up_again_with_resume(tmp_path: Path) -> None:
    # "The game is not over and cannot be taken up again": a family's game was lost on leaving
    pytest.importorskip("textual")
    arguments = ["tui", "--players", "2", "--seed", "4", "--level", "random", "--pace", "0", "--record", "game.txt"]
    terminal = Terminal(arguments, cwd=tmp_path)
    terminal.read_until(b"q quit")
    for _ in range(6):  # some moves of Red's (Enter picks the line under the cursor), one at a time
        terminal.type("\r")
        time.sleep(0.3)
    terminal.type("q")
    terminal.read_until(b"is not over")
    terminal.type("q")
    assert terminal.finish() == 0
    assert b"pardon tui --resume game.txt takes it up again" in terminal.output
    left = parse_record((tmp_path / "game.txt").read_text(encoding="utf-8"))
    assert left.players == ((0, "you"), (2, "random")) and left.result is None and left.moves
    assert any(colour == 0 for colour, _ in left.moves)  # Red played before leaving

    again = Terminal(["tui", "--resume", "game.txt", "--pace", "0"], cwd=tmp_path)
    shown = re.sub(rb"\x1b\[[0-9;]*m", b"", again.read_until(b"q quit"))
    assert b"Red: your turn" in shown or b"Red plays" in shown
    again.type("q")
    again.read_until(b"is not over")
    again.type("q")
    assert again.finish() == 0
    kept = parse_record((tmp_path / "game.txt").read_text(encoding="utf-8"))
    assert kept.moves[: len(left.moves)] == left.moves and kept.players == left.players  # the same game, on


@pytest.mark.parametrize(
    ("arguments", "says"),
    [
        (["--seed", "5"], "--resume takes the rules, players, seed and first player from the record: leave out --seed"),
        (["--first", "yellow"], "leave out --first"),
        (["--rules", "adult"], "leave out --rules"),
        (["--join", "http://127.0.0.1:8000/play/abc#token=x"], "--join takes a seat online and --resume"),
        (["--you", "blue"], "blue is not playing: with 2 players the colours are red and yellow"),
    ],
)
def test_resume_refuses_options_the_record_decides_in_one_line(tmp_path: Path, arguments: list[str], says: str) -> None:
    pytest.importorskip("textual")
    (tmp_path / "game.txt").write_text('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "4"]\n', encoding="utf-8")
    result = pardon("tui", "--resume", "game.txt", *arguments, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.startswith("pardon tui: ") and says in result.stderr and result.stderr.count("\n") == 1


def test_resume_says_in_one_line_why_a_file_is_no_game_to_take_up(tmp_path: Path) -> None:
    pytest.importorskip("textual")
    finished = pardon("selfplay", "--players", "2", "--seed", "7", "--record", "over.txt", cwd=tmp_path)
    assert finished.returncode == 0
    (tmp_path / "notes.txt").write_text("shopping: eggs, milk\n", encoding="utf-8")
    (tmp_path / "bad.txt").write_text('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "4"]\n\nR 12 4-16\n')
    (tmp_path / "named.txt").write_text('[Rules "classic"]\n[Seats "red yellow"]\n[Seed "4"]\n[Blue "you"]\n')
    network = '[Rules "classic"]\n[Seats "red yellow"]\n[Seed "4"]\n[Yellow "expert(network=/no/such/net.json)"]\n'
    (tmp_path / "network.txt").write_text(network)
    for name, says in [
        ("over.txt", "the game in over.txt is over (Red won): pardon replay over.txt checks it"),
        ("missing.txt", "cannot read missing.txt: No such file or directory"),
        ("notes.txt", "notes.txt is not a game to take up again: line 1: unknown colour"),
        ("bad.txt", "bad.txt is not a game to take up again: decision 1"),
        ("named.txt", "the record names a player for blue, who does not play in it"),
        ("network.txt", "'/no/such/net.json'"),  # a computer level the record names, checked before the screen
    ]:
        result = pardon("tui", "--resume", name, cwd=tmp_path)
        assert result.returncode == 2 and result.stdout == "", name
        assert result.stderr.startswith("pardon tui: ") and says in result.stderr, (name, result.stderr)
        assert result.stderr.count("\n") == 1, name


def test_resume_seats_a_person_named_in_the_record_at_this_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A record's names that are not computer levels are people ("you", "Grandma"): hot-seat here."""
    record = tmp_path / "game.txt"
    record.write_text(
        '[Rules "classic"]\n[Seats "red blue yellow"]\n[Seed "4"]\n[Red "you"]\n[Blue "tactician"]\n'
        '[Yellow "Grandma"]\n',
        encoding="utf-8",
    )
    app = launched(monkeypatch, "--resume", str(record))
    table = app.table
    assert isinstance(table, LocalTable)
    assert table.people == {0, 2} and table.level == "tactician" and app.record == record
