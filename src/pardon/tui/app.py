"""The full-screen game: the board, the panel where the player picks, the log and the keys.

The screen reads its :class:`~pardon.tui.table.Table`'s :class:`~pardon.tui.table.View` after
every change and offers the decision of a person at this screen through a
:class:`~pardon.tui.picking.Picker`: arrows (or the option's number) and Enter pick, Escape goes
back a step, and a click on a marked pawn or place picks it.  It never judges a move itself.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Final

from rich.console import Group
from rich.style import Style
from rich.table import Table as Grid
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.css.query import NoMatches
from textual.geometry import Size
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from pardon.core.board import COLOUR_NAMES, partner
from pardon.core.cards import NO_CARD, a_card, card_label
from pardon.core.layout import Cell
from pardon.core.rules import nearest_preset
from pardon.textboard import LEGEND, TOKEN_MARKS, pawn_cell
from pardon.tui.boardview import (
    CHOSEN_MARK,
    COLOURS,
    LARGE,
    LEFT_MARK,
    PAWN_MARK,
    PLACE_MARK,
    SMALL,
    WHY_MARK,
    Mark,
    board_text,
)
from pardon.tui.choices import Choice
from pardon.tui.gone import silence, terminal_gone
from pardon.tui.picking import CARD, CHOICE, DESTINATION, PAWN, WHY, Option, Picker
from pardon.tui.table import FINISHED, WAITING, Table, View
from pardon.tui.terminal import SteadyDriver
from pardon.web.views import card_text

#: The colours as words on the dark screen (the board's own are darker, for its cream).
BRIGHT: Final = ("#ff7b6b", "#7fb2ff", "#ffd54f", "#86d98a")
#: The panel's width beside the small board (80 columns in all) and the large one.
PANEL_WIDTH: Final = 32
#: The terminal size from which the board is drawn large (120 x 40 and up).
LARGE_FROM: Final = (16 * LARGE[0] + 30, 16 * LARGE[1] + 6)
#: The smallest terminal the game can be played in: the small board, a panel of 20 columns, and
#: the title, a line of the log and the keys.
SMALLEST: Final = (16 * SMALL[0] + 21, 16 * SMALL[1] + 3)
#: What the keys do that a player must see the game for: in a terminal too small, nothing.
SEEING_ACTIONS: Final = frozenset(
    {"cursor", "pick", "number", "step_back", "why", "hint", "take_back", "save", "new_game", "help", "log"}
)
KEYS_HELP: Final = (
    ("arrows", "move the cursor (j k, Tab); PgUp PgDn: the older moves"),
    ("Enter", "pick the line under the cursor (Space too)"),
    ("1 ... 0", "pick that line at once (0 is the tenth)"),
    ("a click", "pick the pawn or place clicked on the board"),
    ("Esc", "back one step"),
    ("w", "why can't this pawn move?"),
    ("h", "hint: the choices ranked, and why the best is best"),
    ("u", "take back your last move (against the computer)"),
    ("s", "save the game's record now"),
    ("n", "a new game, once this one is over"),
    ("?", "this help"),
    ("q", "quit (in a game not over: twice; one on this machine is saved, one online goes on); Ctrl+C too"),
)
#: The marks of the picking, beside the board's legend.
PICKING_LEGEND: Final = (
    ("R1 >1", "a pawn you may pick, a place it may go: numbered as in the list"),
    ("<R>", "the pawn you picked, or where a split 7's first part put it"),
)
#: The keys that quit (the first q asks, in a game not over); any other key or a click is going on.
QUIT_KEYS: Final = frozenset({"q", "ctrl+c", "ctrl+d", "ctrl+q"})
#: Scrolling the help, where the terminal is too small for all of it.
HELP_SCROLL_KEYS: Final = {
    "up": "scroll_up",
    "k": "scroll_up",
    "down": "scroll_down",
    "j": "scroll_down",
    "pageup": "scroll_page_up",
    "pagedown": "scroll_page_down",
    "home": "scroll_home",
    "end": "scroll_end",
}


class BoardView(Widget):
    """The board, with the choices of the step being picked marked on it."""

    DEFAULT_CSS = """
    BoardView { width: 48; height: 16; }
    """

    def __init__(self) -> None:
        super().__init__(id="board")
        self.large = False
        self.shown: Text = Text()

    def show(self, text: Text, large: bool) -> None:
        self.shown = text
        if large != self.large:
            self.large = large
            width, height = LARGE if large else SMALL
            self.styles.width = 16 * width
            self.styles.height = 16 * height
        self.refresh()

    def render(self) -> Text:
        return self.shown

    def cell_at(self, x: int, y: int) -> Cell:
        width, height = LARGE if self.large else SMALL
        return y // height, x // width

    def on_click(self, event: events.Click) -> None:
        app = self.app
        if isinstance(app, PardonApp):
            app.pick_cell(self.cell_at(event.x, event.y))


#: The help box's width, as in its CSS, where the terminal is as wide.
HELP_WIDTH: Final = 80


class HelpScreen(ModalScreen[None]):
    """The keys and the board's legend; any key goes back to the game.  In a terminal too small
    for all of it the help scrolls (arrows, Page Up and Down), and its frame says so."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > VerticalScroll { width: 80; max-width: 100%; height: auto; max-height: 100%;
                                  border: round $accent; padding: 0 1; background: $surface; }
    """

    def __init__(self, tokens: bool, teams: str = "") -> None:
        super().__init__()
        self.tokens = tokens
        self.teams = teams

    def compose(self) -> ComposeResult:
        bold = Style(bold=True)
        parts: list[Text | Grid] = [Text(self.teams), Text("")] if self.teams else []  # first: it is this game's
        parts += [Text("Keys", style=bold), _help_grid(KEYS_HELP)]
        parts += [Text(""), Text("The board (the full rules: pardon rules, docs/rules.md)", style=bold)]
        # the board here says in words where a token on no pawn is, not with *F* and #I#
        shown = ("*R*", "#R#") if self.tokens else ()
        marks = tuple(item for item in LEGEND if item[0] in shown or item[0] not in TOKEN_MARKS)
        parts += [_help_grid(marks, pairs=2 if self.app.size.width >= 80 else 1), _help_grid(PICKING_LEGEND)]
        scroll = VerticalScroll(Static(Group(*parts), markup=False), id="help")
        scroll.can_focus = False  # its keys are this screen's: the arrows scroll, any other goes back
        scroll.border_title = "Help"
        scroll.border_subtitle = "any key goes back"
        yield scroll

    def on_mount(self) -> None:
        self._leaving = False
        self._fit(self.app.size)

    def on_resize(self, event: events.Resize) -> None:
        self._fit(event.size)

    def _fit(self, size: Size) -> None:
        """Scroll only if the help does not fit ``size`` whole, and say so in the frame.

        Decided here, from the help's height at the box's full width, not left to the box: a box
        that has a scrollbar wraps its text one column narrower, so a help that fits without
        one may not with it, and a box made smaller and then larger again kept its scrollbar."""
        scroll = self.query_one("#help", VerticalScroll)
        width = min(HELP_WIDTH, size.width) - 4  # the frame and the padding
        height = scroll.query_one(Static).get_content_height(size, size, max(1, width))
        scrolls = height > size.height - 2
        scroll.styles.overflow_y = "auto" if scrolls else "hidden"
        scroll.border_subtitle = "arrows scroll, any other key goes back" if scrolls else "any key goes back"
        if not scrolls:
            scroll.scroll_home(animate=False)

    def on_key(self, event: events.Key) -> None:
        event.stop()
        scroll = self.query_one("#help", VerticalScroll)
        if event.key in HELP_SCROLL_KEYS and scroll.max_scroll_y > 0:
            getattr(scroll, HELP_SCROLL_KEYS[event.key])(animate=False)
            return
        self._go_back()

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self._go_back()

    def _go_back(self) -> None:
        # Keys that come while the screen is closing (a held arrow, two quick keys) must not
        # close it again: a second dismiss would pop the game's own screen.
        if self._leaving or not self.is_current:
            return
        self._leaving = True
        self.dismiss()


def _help_grid(rows: tuple[tuple[str, str], ...], pairs: int = 1) -> Grid:
    """Keys or marks and what they mean, the meaning wrapped beside them; ``pairs`` to a line."""
    grid = Grid.grid(padding=(0, 1))
    for _ in range(pairs):
        grid.add_column(no_wrap=True)
        grid.add_column(ratio=1)
    for index in range(0, len(rows), pairs):
        line = rows[index : index + pairs]
        grid.add_row(*(Text(part) for pair in line for part in pair))
    return grid


#: Stopping from outside: Ctrl+C sent by another program, kill, the terminal window closed.
STOPPING_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
#: How often the screen makes sure its terminal is still there (one closed may send no SIGHUP).
TERMINAL_CHECK: Final = 0.25


class PardonApp(App[None]):
    """A game of Sorry! at ``table``; its record goes to ``record`` when it ends.

    ``new_game`` makes the next game's table and record file, for ``n`` once a game is over
    (None: no next game).
    """

    TITLE = "pardon"
    CSS = """
    Screen { layout: vertical; background: #1d1b17; }
    #title { height: 1; width: 100%; }
    #middle { height: auto; }
    #panel { width: 1fr; height: 100%; padding: 0 0 0 1; }
    #log { height: 1fr; width: 100%; scrollbar-size-vertical: 1; }
    #keys { height: 1; width: 100%; background: #3b3326; color: #f3ead3; }
    #small { display: none; height: 1fr; width: 100%; padding: 0 1; color: #f3ead3; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up,left,k", "cursor(-1)", "up", show=False),
        Binding("down,right,j,tab", "cursor(1)", "down", show=False),
        Binding("enter,space", "pick", "pick", show=False),
        Binding("escape,backspace", "step_back", "back", show=False),
        Binding("w", "why", "why not?", show=False),
        Binding("h", "hint", "hint", show=False),
        Binding("u", "take_back", "undo", show=False),
        Binding("s", "save", "save", show=False),
        Binding("n", "new_game", "new game", show=False),
        Binding("question_mark,f1", "help", "help", show=False),
        Binding("pageup", "log(-1)", "older moves", show=False),
        Binding("pagedown", "log(1)", "newer moves", show=False),
        Binding("q", "quit", "quit", show=False),
        # Ctrl+C (and Ctrl+D) as q, not Textual's own toast: the same safe quit, saving the game
        Binding("ctrl+c,ctrl+d", "quit", "quit", show=False, priority=True),
        *(Binding(str(number % 10), f"number({number})", show=False) for number in range(1, 11)),
    ]

    def __init__(
        self,
        table: Table,
        record: Path | None = None,
        new_game: Callable[[], tuple[Table, Path | None]] | None = None,
    ) -> None:
        super().__init__(driver_class=SteadyDriver if os.name == "posix" else None)
        self.table = table
        self.record = record
        self.new_game = new_game
        self.picker: Picker | None = None
        self._picker_for: tuple[object, ...] = ()
        self.cursor = 0
        self.info = ""
        #: Where the record was last written, and whether the game's end has been saved.
        self.saved: Path | None = None
        self._saved_at_end = False
        self._quit_asked = False  # q once in a game that is not over: a second q quits (any other key: asks again)
        self._quit_warning = ""  # what the first q said
        self._table_running = False  # whether the table plays on (it stops at the game's end)
        self.revealed: int | None = None  # hot-seat: whose hand may be shown
        self.view_now: View = table.view()
        self._mounted = False
        self._log_shown: tuple[object, ...] = ()  # what the log shows: redrawn only when it changes
        self.interrupted = False  # stopped by a signal (kill, Ctrl+C from outside, the window closed)

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="middle"):
            yield BoardView()
            yield Static(id="panel")
        with VerticalScroll(id="log") as log:
            log.can_focus = False  # its keys are the screen's: Page Up and Down scroll it
            yield Static(id="moves")
        yield Static(id="keys")
        yield Static(id="small")

    def on_mount(self) -> None:
        self._mounted = True
        self.show()
        self.run_worker(self._run_table(), group="table")
        if not self.is_headless and sys.__stdin__ is not None and sys.__stdin__.isatty():
            self.set_interval(TERMINAL_CHECK, self._check_terminal)
        loop = asyncio.get_running_loop()
        for number in STOPPING_SIGNALS:
            try:
                loop.add_signal_handler(number, self.stopped_from_outside)
            except (RuntimeError, NotImplementedError, ValueError):  # not the main thread, or no such signals
                return

    def stopped_from_outside(self) -> None:
        """A signal (kill, SIGHUP of a closed window): as a terminal gone if it is, else saved
        and ended all the same."""
        if terminal_gone():
            self.terminal_hung_up()
        else:
            self.run_worker(self.interrupt(), group="interrupt")

    def _check_terminal(self) -> None:
        if terminal_gone():
            self.terminal_hung_up()

    def terminal_hung_up(self) -> None:
        """The terminal is gone (closed with or without SIGHUP): nothing can be shown or typed
        any more, so the game is saved and the screen ends, as when stopped from outside."""
        if self.interrupted:
            return
        silence()
        self.run_worker(self.interrupt(), group="interrupt")

    def on_unmount(self) -> None:
        loop = asyncio.get_running_loop()
        for number in STOPPING_SIGNALS:
            loop.remove_signal_handler(number)

    async def interrupt(self) -> None:
        """Stopped from outside: a game on this machine that is not over keeps its record so
        far (where it has one) and the command says it was interrupted, not that all went well."""
        if self.interrupted:
            return
        self.interrupted = True
        await self._leave(self.saved or self.record, return_code=130)

    async def _leave(self, record: Path | None, return_code: int = 0) -> None:
        """Close the table and the screen; a game on this machine that is not over writes its
        record so far to ``record`` first (None: none)."""
        if record is not None and self.table.can_take_back and self.view_now.status != FINISHED:
            await self._save(record, at_end=False)
        await self.table.close()
        self.exit(return_code=return_code)

    async def _run_table(self) -> None:
        self._table_running = True
        try:
            await self.table.run(self.show)
        except Exception as error:  # the table's end (a lost server, say) is told, not raised
            self.info = f"The game stopped: {error}"
            self.show()
        finally:
            self._table_running = False

    async def on_event(self, event: events.Event) -> None:
        # A key other than q (or a click) after the first q goes on with the game: q asks again.
        acting = isinstance(event, events.MouseDown) or (isinstance(event, events.Key) and event.key not in QUIT_KEYS)
        if self._quit_asked and acting and not event.is_forwarded:
            self._quit_asked = False
            if self.info == self._quit_warning:
                self.info = ""
                self.show()
        await super().on_event(event)

    def on_resize(self, event: events.Resize) -> None:
        # This handler runs before Textual's own has taken the new size: draw once it has.
        self.call_next(self.show)

    # --- what is shown ----------------------------------------------------------------------

    def show(self) -> None:
        """Read the table again and draw everything."""
        view = self.view_now = self.table.view()
        self._keep_picker(view)
        if view.status == FINISHED and not self._saved_at_end and self.record is not None:
            self._saved_at_end = True
            self.run_worker(self._save(self.record, at_end=True), group="record")
        if not self._mounted:
            return
        try:
            self._draw(view)
        except NoMatches:  # the screen is closing, its parts gone, as a computer's move comes in
            return

    def _draw(self, view: View) -> None:
        width, height = self.size
        if self._show_too_small(width, height):
            return
        large = width >= LARGE_FROM[0] and height >= LARGE_FROM[1]
        self.query_one(BoardView).show(board_text(view.position, self._marks(), large, view.rules.tokens), large)
        self.query_one("#title", Static).update(self._title(view, width))
        panel = self.query_one("#panel", Static)
        panel_height = (LARGE if large else SMALL)[1] * 16
        panel.update(self._panel(view, max(20, width - 16 * (LARGE if large else SMALL)[0] - 1), panel_height))
        self._show_log(view.log, width)
        self.query_one("#keys", Static).update(self._keys(view, width))

    def _show_log(self, log: tuple[str, ...], width: int) -> None:
        """Every move so far, wrapped, the newest last and in view, unless the player has
        scrolled back to read older ones (Page Up, the mouse wheel): then it stays there."""
        if (len(log), width, log[-1:]) == self._log_shown:
            return
        self._log_shown = (len(log), width, log[-1:])
        scroll = self.query_one("#log", VerticalScroll)
        following = scroll.scroll_y >= scroll.max_scroll_y - 1
        self.query_one("#moves", Static).update(_log_text(log, width - 1))
        if following:
            self.call_after_refresh(scroll.scroll_end, animate=False)

    def action_log(self, pages: int) -> None:
        scroll = self.query_one("#log", VerticalScroll)
        scroll.scroll_to(y=scroll.scroll_y + pages * max(1, scroll.size.height - 1), animate=False)

    @property
    def too_small(self) -> bool:
        width, height = self.size
        return width < SMALLEST[0] or height < SMALLEST[1]

    def _show_too_small(self, width: int, height: int) -> bool:
        """In a terminal too small for the card and the choices, only a line saying so."""
        small = self.too_small
        for part in ("#title", "#middle", "#log", "#keys"):
            self.query_one(part).display = not small
        notice = self.query_one("#small", Static)
        notice.display = small
        if small:
            told = self.info or "q quits."  # what q said, say, since the panel is not in view
            notice.update(
                f"This terminal is {width} x {height}: the game needs {SMALLEST[0]} x {SMALLEST[1]}. "
                f"Make it larger to play on.\n\n{told}"
            )
        return small

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Nothing is picked, taken back or started unseen in a terminal too small to show it.
        return not (action in SEEING_ACTIONS and self._mounted and self.too_small)

    def _keep_picker(self, view: View) -> None:
        """A new decision gets a new picker; the same one keeps the player's picks."""
        identity = (view.event, view.decider, view.stage, view.note, tuple(choice.notation for choice in view.choices))
        if identity == self._picker_for:
            return
        self._picker_for = identity
        self.cursor = 0
        if not view.choices or view.decider is None:
            self.picker = None
            return
        mate = partner(view.decider) if view.rules.partners else None  # whose pawns the player moves too
        self.picker = Picker(view.choices, view.decider, view.position, view.why_not, view.hand, mate)
        self.info = "" if not view.note else view.note

    @property
    def covered(self) -> bool:
        """Hot-seat with hidden hands: the next player's hand waits until they are at the keys."""
        view = self.view_now
        return (
            len(view.people) > 1
            and bool(view.rules.hand)
            and view.decider in view.people
            and view.decider != self.revealed
        )

    def options(self) -> list[Option]:
        return [] if self.picker is None or self.covered else self.picker.options()

    def _marks(self) -> dict[Cell, Mark]:
        marks: dict[Cell, Mark] = {}
        kinds = {PAWN: PAWN_MARK, DESTINATION: PLACE_MARK, WHY: WHY_MARK, CHOICE: PAWN_MARK}  # a choice: a token's pawn
        picker = self.picker
        if picker is not None and not self.covered:
            for part in picker.parts:
                marks[_cell_of(part.colour, part.origin)] = Mark(LEFT_MARK)
                marks[_cell_of(part.colour, part.landing)] = Mark(CHOSEN_MARK, colour=part.colour)
            if picker.pawn is not None:
                marks[_cell_of(*picker.pawn)] = Mark(CHOSEN_MARK, colour=picker.pawn[0])
        for number, option in enumerate(self.options(), start=1):
            if option.cell is not None and option.kind in kinds:
                marks[option.cell] = Mark(kinds[option.kind], number, number - 1 == self.cursor)
        return marks

    def _title(self, view: View, width: int) -> Text:
        """The rules, who plays which colour, the stake (with doubling) and the pack.  Where
        they do not all fit, the colours by letter, then the rules by their preset's name (an
        adjusted one with "…"), then the computers' names, then the rules: never the stake and
        the pack, and a space at least between the parts.  Computers that share a name (one
        level) are named once after the letters before they go."""
        light = Style(color="#f3ead3")
        right = [view.connection] if view.connection else []  # online: always in view
        right += [f"stake x{view.position.stake}"] if view.rules.doubling else []
        right += [f"pack {view.pack}"] if view.status != WAITING else []
        corner = "  ".join(right) + " " if right else ""
        full = view.rules.name
        preset = nearest_preset(view.rules)[0]
        short = preset if preset == full else f"{preset}…"
        tries = [(full, 0), (full, 1), (short, 0), (short, 1), (short, 3), (short, 2), ("", 3), ("", 2)]
        for rules_name, seats in tries:
            found = self._title_left(view, rules_name, seats, light)
            if found is not None:
                text = found
                if len(text) + 1 + len(corner) <= width:
                    break
        text.append(" " * max(1, width - len(text) - len(corner)), light)
        text.append(corner, light)
        text.truncate(width)
        return text

    @staticmethod
    def _title_left(view: View, rules_name: str, seats: int, light: Style) -> Text | None:
        """The title but its corner: the rules (if named), and the seats by colour and player
        (``seats`` 0), by letter and player (1), by letter, naming only the players here (2),
        or as 2 with the others' one name after them, where they share it (3; else None)."""
        text = Text(" pardon ", light + Style(bold=True, bgcolor="#7a1f1f"))
        if rules_name:
            text.append(f" {rules_name} ", light)
        for seat in view.seats:
            colour = COLOUR_NAMES[seat.colour].capitalize()
            text.append(" ")
            text.append(f" {colour if seats == 0 else colour[0]} ", _colour_style(seat.colour))
            if seats < 2 or seat.here:
                text.append(f" {seat.name}", light + Style(bold=seat.here))
        others = {seat.name for seat in view.seats if not seat.here}
        if seats == 3:
            if len(others) != 1:
                return None
            text.append(f"  others: {others.pop()}", light)
        return text

    def _panel(self, view: View, width: int, height: int) -> Text:
        """Whose turn, the card and its rule (or the hand), the list to pick from, and below it
        what the player asked for (why not, a hint) or was told; at the end, who won and the
        points."""
        lines: list[tuple[str, Style]] = []
        spare: set[int] = set()  # the lines that give way to what was told where it needs their room
        plain = Style(color="#f3ead3")
        dim = Style(color="#a89f8a")
        told = Style(color="#ffd479")

        def wrapped(words: str) -> list[str]:
            return [line for part in words.split("\n") for line in textwrap.wrap(part, width - 1) or [""]]

        def say(words: str, style: Style = plain, spared: bool = False) -> None:
            for line in wrapped(words):
                if spared:
                    spare.add(len(lines))
                lines.append((line, style))

        finished = view.status == FINISHED and view.position.winner is not None
        if view.banner:  # a lost connection, watching: whoever is to move
            say(view.banner, told)
        say(*self._turn_line(view))
        if finished:
            for line in result_lines(view):
                say(line)
        elif view.rules.partners:
            say(teams_words(view), dim, spared=True)
        if view.card is not None:
            say(f"Card: {card_label(view.card)}", plain + Style(bold=True))
            say(card_text(view.rules, view.card), dim, spared=True)
        if view.hand and not self.covered and not finished:
            say("Hand: " + "  ".join(card_label(card) for card in view.hand), plain + Style(bold=True))
            shown_card = self._card_in_view()
            if shown_card is not None:
                say(f"{card_label(shown_card)}: {card_text(view.rules, shown_card)}", dim, spared=True)
        say("", spared=True)
        if self.covered and view.decider is not None:
            say(f"Pass the keys to {COLOUR_NAMES[view.decider].capitalize()}: press Enter when ready.")
        elif self.picker is not None:
            say(self.picker.prompt(), plain + Style(bold=True))
        option_blocks = self._option_blocks(width)
        # What was told gets the room the list can spare (the list keeps two lines at least: the
        # cursor's, and how many more there are; a hand's cards, all of them), and where it needs
        # more, that of the card's rule, the teams and the blank line above the list; cut short
        # even so, it ends in "…".
        info = wrapped(self.info) if self.info else []
        listed = sum(len(block) for block in option_blocks)
        needed = listed if self.picker is not None and self.picker.stage == CARD else min(listed, 2)
        if len(info) > height - len(lines) - 1 - needed:
            lines = [line for index, line in enumerate(lines) if index not in spare]
        room_for_info = height - len(lines) - 1 - needed
        if len(info) > max(1, room_for_info):
            info = info[: max(1, room_for_info)]
            info[-1] = info[-1][: width - 2] + "…"
        room = height - len(lines) - len(info) - (1 if info else 0)
        lines += self._option_lines(option_blocks, room)
        while len(lines) < height - len(info):
            lines.append(("", plain))
        lines += [(line, told) for line in info]
        text = Text(no_wrap=True, overflow="crop")
        for line, style in lines[:height]:
            text.append(line[: width - 1] + "\n", style)
        text.rstrip()
        return text

    def _turn_line(self, view: View) -> tuple[str, Style]:
        if view.status == FINISHED and view.position.winner is not None:
            return result_headline(view), _colour_style(view.position.winner)
        if view.status == WAITING or view.decider is None:
            return (view.note or "Waiting", Style(color="#f3ead3"))
        name = COLOUR_NAMES[view.decider].capitalize()
        seat = view.seat(view.decider)
        if seat.here:
            doing = "your turn" if len(view.people) == 1 else "to play"
            return f"{name}: {doing}", _colour_style(view.decider)
        return f"{name} ({seat.name}) is playing...", _colour_style(view.decider)

    def _card_in_view(self) -> int | None:
        """In a hand game, the card the player is looking at: picked, or under the cursor."""
        picker = self.picker
        if picker is None or self.covered:
            return None
        if picker.card not in (None, NO_CARD):
            return picker.card
        options = self.options()
        if picker.stage == CARD and 0 <= self.cursor < len(options):
            card: int = options[self.cursor].key[0]
            return card
        return None

    def _option_blocks(self, width: int) -> list[list[tuple[str, Style]]]:
        """The options, numbered, each a block of lines (a long one wraps)."""
        return [self._option_block(index, option, width) for index, option in enumerate(self.options())]

    def _option_lines(self, blocks: list[list[tuple[str, Style]]], room: int) -> list[tuple[str, Style]]:
        """The options, the cursor's reversed.  When they do not all fit, those round the
        cursor, with how many more there are above and below: each option is shown or counted."""
        if not blocks or room <= 0:
            return []
        cursor = min(max(self.cursor, 0), len(blocks) - 1)
        first, last, used = cursor, cursor + 1, len(blocks[cursor])

        def fits(first: int, last: int, used: int) -> bool:  # the lines, and a line for each "more"
            return used + (first > 0) + (last < len(blocks)) <= room

        while True:  # grow the window round the cursor, below first
            if last < len(blocks) and fits(first, last + 1, used + len(blocks[last])):
                used, last = used + len(blocks[last]), last + 1
            elif first > 0 and fits(first - 1, last, used + len(blocks[first - 1])):
                first, used = first - 1, used + len(blocks[first - 1])
            else:
                break
        more = Style(color="#a89f8a")
        above = [(f"  ... {first} more above", more)] if first > 0 else []
        below = [(f"  ... {len(blocks) - last} more below", more)] if last < len(blocks) else []
        shown = [line for block in blocks[first:last] for line in block]
        room_left = max(1, room - len(above) - len(below))  # the cursor's option, cut if need be
        return (above + shown[:room_left] + below)[:room]

    def _option_block(self, index: int, option: Option, width: int) -> list[tuple[str, Style]]:
        number = str(index + 1) if index < 10 and option.enabled else "x" if not option.enabled else " "
        pointer = ">" if index == self.cursor else " "
        style = Style(color="#f3ead3") if option.enabled else Style(color="#a89f8a")
        if index == self.cursor:
            style += Style(reverse=True, bold=True)
        wrapped = textwrap.wrap(option.label, width - 4) or [""]
        first = f"{pointer}{number} {wrapped[0]}"
        return [(line.ljust(width - 1), style) for line in [first, *("   " + more for more in wrapped[1:])]]

    def _keys(self, view: View, width: int) -> Text:
        """The keys that do something now, in shorter words where the terminal is narrow; where
        even those do not fit, the least needed left out, never "? help" and "q quit"."""
        keys: list[tuple[str, str, int]] = []  # words, shorter words, and how much they are needed (0 most)
        if view.status == FINISHED:
            keys += [("n new game", "n new", 0)] if self.new_game is not None else []
        elif self.covered:
            keys.append(("Enter show the hand", "Enter show hand", 0))
        elif self.picker is not None:
            keys += [("arrows/Enter pick", "Enter pick", 0), ("Esc back", "Esc back", 4)]
            keys += [("w why not", "w why", 2)]
            keys += [("h hint", "h hint", 1)] if self.table.can_hint else []
        if self.table.can_take_back and view.people:  # watching, there is no move of one's own to take back
            keys.append(("u undo", "u undo", 3))
        if self.record is not None and (view.status == FINISHED or self.table.can_take_back):
            keys.append(("s save", "s save", 5))
        always = ["? help", "q quit"]

        def line(words: list[str]) -> str:
            return " " + "  ".join(words + always)

        shown = [words for words, _, _ in keys]
        if len(line(shown)) > width:
            shown = [short for _, short, _ in keys]
        while len(line(shown)) > width and keys:
            least = max(range(len(keys)), key=lambda index: keys[index][2])
            del keys[least], shown[least]
        return Text(line(shown))

    # --- picking ----------------------------------------------------------------------------

    def action_cursor(self, step: int) -> None:
        options = self.options()
        if options:
            self.cursor = (self.cursor + step) % len(options)
            self._explain_cursor()
            self.show()

    def _explain_cursor(self) -> None:
        options = self.options()
        self.info = ""
        if 0 <= self.cursor < len(options) and not options[self.cursor].enabled:
            self.info = f"Why not: {options[self.cursor].reason}"

    async def action_pick(self) -> None:
        if self.covered:
            self.revealed = self.view_now.decider
            self.show()
            return
        options = self.options()
        if 0 <= self.cursor < len(options):
            await self._take(options[self.cursor])

    async def action_number(self, number: int) -> None:
        options = self.options()
        if 1 <= number <= len(options):
            self.cursor = number - 1
            await self._take(options[number - 1])

    def pick_cell(self, cell: Cell) -> None:
        """A click on the board: the option marked there, if any."""
        for index, option in enumerate(self.options()):
            if option.cell == cell:
                self.cursor = index
                self.run_worker(self._take(option), group="pick")
                return

    async def _take(self, option: Option) -> None:
        picker = self.picker
        if picker is None:
            return
        if not option.enabled:
            self.info = f"Why not: {option.reason}"
            self.show()
            return
        chosen = picker.pick(option)
        self.cursor = 0
        self.info = ""
        if chosen is not None:
            await self._play(chosen)
        self.show()

    async def _play(self, choice: Choice) -> None:
        """Hand the choice to the table; nothing more is offered until the table answers (a
        server's refusal, with its note, offers the decision afresh)."""
        self.picker = None
        try:
            await self.table.choose(choice)
        except (ValueError, ConnectionError) as error:
            self.info = str(error)
            self._picker_for = ()

    def action_step_back(self) -> None:
        if self.picker is not None and self.picker.back():
            self.cursor = 0
            self.info = ""
            self.show()

    def action_why(self) -> None:
        options = self.options()
        card = self._card_in_view()
        reasons = [option for option in options if not option.enabled]
        if 0 <= self.cursor < len(options) and not options[self.cursor].enabled:
            reasons = [options[self.cursor]]
        elif not reasons and self.picker is not None and not self.covered:
            # a pawn picked: the others' reasons still hold; a hand's card under the cursor: its pawns'
            reasons = self.picker.cannot_move(card)
        if not reasons:
            can = f"can use {a_card(card)}" if card is not None else "can move"
            self.info = f"Every pawn out of Home {can}." if options else "Nothing to explain now."
        else:
            self.info = " ".join(f"{option.label.split(':')[0]}: {option.reason}." for option in reasons)
        self.show()

    async def action_hint(self) -> None:
        if not self.table.can_hint:
            self.info = "This game was created without hints."
            self.show()
            return
        if self.picker is None or self.covered or self.view_now.stage != "card":
            self.info = "A hint ranks the choices of your card; there is none to rank now."
            self.show()
            return
        self.info = "Thinking..."
        self.show()
        everything = await self.table.hint()
        ranked = everything
        picker = self.picker
        narrowed = picker is not None and picker.card is not None and len({c.card for c, _ in everything}) > 1
        if narrowed and picker is not None and picker.card is not None:  # a hand's card picked: its moves
            agreeing = {choice.notation for choice in picker.remaining()}
            ranked = [(choice, chance) for choice, chance in everything if choice.notation in agreeing]
        if not ranked:
            self.info = self.view_now.note or "No hint now."
        else:
            several_cards = len({choice.card for choice, _ in ranked}) > 1  # a hand: say which card
            lines = [f"{chance:.0%} {_hint_words(choice, several_cards)}" for choice, chance in ranked[:2]]
            heading = "Hint, chance to win:"
            if narrowed and picker is not None and picker.card is not None:
                heading = f"Hint for the {card_label(picker.card)}, chance to win:"
                if ranked[0] != everything[0]:  # another card does better: said, not hidden
                    choice, chance = everything[0]
                    lines.append(f"(best of the hand: {chance:.0%} {_hint_words(choice, True)})")
            if ranked[0] == everything[0] and self.table.hint_reason:  # why the best of all is best
                lines.append(f"Why: {self.table.hint_reason}")
            self.info = "\n".join([heading, *lines])
        self.show()

    def action_take_back(self) -> None:
        if not self.table.can_take_back:
            self.info = "Moves cannot be taken back in an online game."
        else:
            taken = self.table.take_back()
            self._picker_for = ()
            if taken:  # the game goes on: its computer players play again, and its end is saved again
                self._saved_at_end = False
                if not self._table_running:
                    self._table_running = True
                    self.run_worker(self._run_table(), group="table")
            self.show()  # the decision taken back, offered afresh
            decisions = "decision" if taken == 1 else "decisions"
            self.info = f"Took back {taken} {decisions}." if taken else "There is no move of yours to take back."
        self.show()

    async def action_save(self) -> None:
        if self.record is None:
            self.info = "This game keeps no record."
        elif self.view_now.status != FINISHED and not self.table.can_take_back:
            self.info = "The server gives the record once the game is over."
        else:
            await self._save(self.record, at_end=False)
        self.show()

    async def _save(self, path: Path, at_end: bool) -> None:
        try:
            await self.table.save_record(path)
        except (OSError, ConnectionError) as error:
            self.info = f"Could not save the record to {path}: {error}"
        else:
            self.saved = path
            self.info = f"Record saved to {path}" + (": q to quit." if at_end else ".")
        self.show()

    def action_help(self) -> None:
        view = self.view_now
        teams = teams_words(view, long=True) if view.rules.partners else ""
        self.push_screen(HelpScreen(view.rules.tokens, teams))

    async def action_new_game(self) -> None:
        if self.new_game is None or self.view_now.status != FINISHED:
            return
        await self.table.close()
        self.table, self.record = self.new_game()
        self.saved, self._saved_at_end, self._quit_asked = None, False, False
        self._quit_warning = ""
        self._picker_for = ()
        self.info = ""
        self.show()
        self.run_worker(self._run_table(), group="table")

    async def action_quit(self) -> None:
        """Quit; a game on this machine that is not over asks first, and its record is written,
        so that ``pardon tui --resume`` takes it up again."""
        view = self.view_now
        playing = view.status != FINISHED and bool(view.people)
        unfinished = self.table.can_take_back and playing
        if playing and not self._quit_asked:
            self._quit_asked = True
            if not self.table.can_take_back:  # online: the game goes on at the server
                again = "it goes on at the server, and the same link takes you back to it: q again leaves."
            elif self.record is not None:
                again = f"q again quits, saving it to {self.record} to take up later."
            else:
                again = "it keeps no record, so it cannot be taken up again: q again quits."
            self.info = self._quit_warning = f"The game is not over: {again}"
            self.show()
            return
        await self._leave(self.record if unfinished else None)


def _hint_words(choice: Choice, with_card: bool) -> str:
    """A ranked choice in a hint: its words without the player's name ("S2 to Home"), with its
    card where the choices play several (a hand's: "10: 4 to 14")."""
    words = choice.text.split(": ", 1)[-1]
    if with_card and choice.card != NO_CARD and choice.text.count(": ") and not choice.is_pass:
        return f"{card_label(choice.card)}: {words}"
    return words


def winners(view: View) -> tuple[int, ...]:
    """Who won: the winning team's players still in the game (a partner who dropped out of a
    double won nothing), else the winner alone; nobody before the end."""
    winner = view.position.winner
    if winner is None:
        return ()
    if not view.rules.partners:
        return (winner,)
    team = tuple(sorted((winner, partner(winner))))
    return tuple(colour for colour in team if colour not in view.position.out) or team


def _names(colours: tuple[int, ...] | list[int]) -> str:
    return " and ".join(COLOUR_NAMES[colour].capitalize() for colour in colours)


def result_headline(view: View) -> str:
    """Who won, as the browser says it: "Red wins!", "Red and Yellow win!" (partners), "All
    Home in 52 cards!" (the solo challenge)."""
    if view.cards_drawn is not None:
        return f"All Home in {view.cards_drawn} card{'s' if view.cards_drawn != 1 else ''}!"
    won = winners(view)
    text = f"{_names(won)} {'win' if len(won) > 1 else 'wins'}!"
    winner = view.position.winner
    if view.rules.partners and winner is not None and len(won) == 1:
        text += f" ({_names([partner(winner)])} dropped out.)"
    return text


def result_lines(view: View) -> list[str]:
    """What the end says besides who won: each player's points (a line each), the stake of a
    doubled game, the solo challenge's count."""
    lines = []
    if view.cards_drawn is not None:
        lines.append("Fewer cards is better: try again to beat it.")
    if view.points:
        lines.append("Points:")
        for colour, points in sorted(view.points.items()):
            out = " (dropped out)" if colour in view.position.out else ""
            lines.append(f"  {COLOUR_NAMES[colour].capitalize()} {points}{out}")
    if view.rules.doubling and view.position.stake > 1:
        lines.append(f"Doubled: every score counts x{view.position.stake}.")
    return lines


def farewell_words(view: View) -> str:
    """The result as the command says it on leaving: "Yellow won. Points: Red 10, Yellow 55."."""
    winner = view.position.winner
    if winner is None:
        return ""
    if view.cards_drawn is not None:
        cards = f"{view.cards_drawn} card{'s' if view.cards_drawn != 1 else ''}"
        return f"{_names([winner])} brought every pawn Home in {cards} (fewer is better)."
    text = f"{_names(winners(view))} won."
    if view.points:
        points = ", ".join(f"{COLOUR_NAMES[colour].capitalize()} {p}" for colour, p in sorted(view.points.items()))
        text += f" Points: {points}."
    if view.rules.doubling and view.position.stake > 1:
        text += f" (Doubled: every score counts x{view.position.stake}.)"
    return text


def teams_words(view: View, long: bool = False) -> str:
    """The partnerships: "You (Red) play with Yellow" for one player here, else "Teams:
    Red+Yellow v Blue+Green"; ``long``, as the browser says them."""
    teams = sorted({tuple(sorted((colour, partner(colour)))) for colour in view.position.seats})
    if long:
        against = " against ".join(_names(team) for team in teams)
        return f"Partners: {against}. A card may move either partner's pawns."
    if len(view.people) == 1:
        you = view.people[0]
        return f"You ({_names([you])}) play with {_names([partner(you)])}"
    return "Teams: " + " v ".join("+".join(COLOUR_NAMES[c].capitalize() for c in team) for team in teams)


def _cell_of(colour: int, distance: int) -> Cell:
    cell = pawn_cell(colour, distance)
    assert cell is not None
    return cell


def _colour_style(colour: int) -> Style:
    return Style(color="black" if colour == 2 else "white", bgcolor=COLOURS[colour], bold=True)


def _log_text(log: tuple[str, ...], width: int) -> Text:
    """Every decision, newest last, each in its player's colour, wrapped under its first word."""
    text = Text(no_wrap=True, overflow="crop")
    for entry in log:
        first = entry.split(" ", 1)[0].rstrip(":").lower()
        style = Style(color=BRIGHT[COLOUR_NAMES.index(first)]) if first in COLOUR_NAMES else Style(color="#d8cfb8")
        for line in textwrap.wrap(entry, max(10, width - 1), initial_indent=" ", subsequent_indent="   ") or [""]:
            text.append(line + "\n", style)
    text.rstrip()
    return text
