"""The full-screen game: the board, the panel where the player picks, the log and the keys.

The screen reads its :class:`~pardon.tui.table.Table`'s :class:`~pardon.tui.table.View` after
every change and offers the decision of a person at this screen through a
:class:`~pardon.tui.picking.Picker`: arrows (or the option's number) and Enter pick, Escape goes
back a step, and a click on a marked pawn or place picks it.  It never judges a move itself.
"""

from __future__ import annotations

import asyncio
import signal
import textwrap
from collections.abc import Callable
from pathlib import Path
from typing import ClassVar, Final

from rich.style import Style
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import Static

from pardon.core.board import COLOUR_NAMES, partner
from pardon.core.cards import NO_CARD, a_card
from pardon.core.layout import Cell
from pardon.textboard import legend, pawn_cell
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
from pardon.tui.picking import CARD, DESTINATION, PAWN, WHY, Option, Picker, card_label
from pardon.tui.table import FINISHED, WAITING, Table, View
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
    {"cursor", "pick", "number", "step_back", "why", "hint", "take_back", "save", "new_game", "help"}
)
KEYS_HELP: Final = (
    ("arrows", "move the cursor"),
    ("Enter", "pick (a number picks that line)"),
    ("Esc", "back one step"),
    ("w", "why can't this pawn move?"),
    ("h", "hint: the choices ranked"),
    ("u", "take back your last move (against the computer)"),
    ("s", "save the game's record now"),
    ("?", "this help"),
    ("q", "quit (twice in a game not over)"),
)


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


class HelpScreen(ModalScreen[None]):
    """The keys and the board's legend; any key goes back to the game."""

    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Static { width: 76; height: auto; max-height: 22; border: round $accent; padding: 0 1;
                          background: $surface; }
    """

    def __init__(self, tokens: bool) -> None:
        super().__init__()
        self.tokens = tokens

    def compose(self) -> ComposeResult:
        lines = ["Keys"] + [f"  {key:7s} {what}" for key, what in KEYS_HELP]
        lines += ["", "The board (the full rules: pardon rules, docs/rules.md)"]
        lines += ["  " + line for line in legend(tokens=self.tokens).splitlines()]
        lines += ["", "Any key goes back to the game."]
        yield Static("\n".join(lines))

    def on_key(self, event: events.Key) -> None:
        event.stop()
        self.dismiss()

    def on_click(self, event: events.Click) -> None:
        self.dismiss()


#: Stopping from outside: Ctrl+C sent by another program, kill, the terminal window closed.
STOPPING_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


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
    #log { height: 1fr; width: 100%; }
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
        Binding("q", "quit", "quit", show=False),
        *(Binding(str(number % 10), f"number({number})", show=False) for number in range(1, 11)),
    ]

    def __init__(
        self,
        table: Table,
        record: Path | None = None,
        new_game: Callable[[], tuple[Table, Path | None]] | None = None,
    ) -> None:
        super().__init__()
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
        self._quit_asked = False  # q once in a game that is not over: a second q quits
        self._table_running = False  # whether the table plays on (it stops at the game's end)
        self.revealed: int | None = None  # hot-seat: whose hand may be shown
        self.view_now: View = table.view()
        self._mounted = False
        self.interrupted = False  # stopped by a signal (kill, Ctrl+C from outside, the window closed)

    # --- layout ---------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="middle"):
            yield BoardView()
            yield Static(id="panel")
        yield Static(id="log")
        yield Static(id="keys")
        yield Static(id="small")

    def on_mount(self) -> None:
        self._mounted = True
        self.show()
        self.run_worker(self._run_table(), group="table")
        loop = asyncio.get_running_loop()
        for number in STOPPING_SIGNALS:
            try:
                loop.add_signal_handler(number, lambda: self.run_worker(self.interrupt(), group="interrupt"))
            except (RuntimeError, NotImplementedError, ValueError):  # not the main thread, or no such signals
                return

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
        width, height = self.size
        if self._show_too_small(width, height):
            return
        large = width >= LARGE_FROM[0] and height >= LARGE_FROM[1]
        self.query_one(BoardView).show(board_text(view.position, self._marks(), large, view.rules.tokens), large)
        self.query_one("#title", Static).update(self._title(view, width))
        panel = self.query_one("#panel", Static)
        panel_height = (LARGE if large else SMALL)[1] * 16
        panel.update(self._panel(view, max(20, width - 16 * (LARGE if large else SMALL)[0] - 1), panel_height))
        log = self.query_one("#log", Static)
        log_lines = max(1, height - panel_height - 2)
        log.update(_log_text(view.log, log_lines, width))
        self.query_one("#keys", Static).update(self._keys(view))

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
        kinds = {PAWN: PAWN_MARK, DESTINATION: PLACE_MARK, WHY: WHY_MARK}
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
        """The rules, who plays which colour (by letter when the names do not fit), the pack."""
        light = Style(color="#f3ead3")
        right = f"stake x{view.position.stake}  " if view.rules.doubling else ""
        right += f"pack {view.pack} " if view.status != WAITING else ""
        text = Text(" pardon ", light + Style(bold=True, bgcolor="#7a1f1f"))
        text.append(f" {view.rules.name} ", light)
        long = sum(len(COLOUR_NAMES[seat.colour]) + len(seat.name) + 4 for seat in view.seats)
        short = len(text) + long + len(right) > width
        for seat in view.seats:
            colour = COLOUR_NAMES[seat.colour].capitalize()
            text.append(" ")
            text.append(f" {colour[0] if short else colour} ", _colour_style(seat.colour))
            text.append(f" {seat.name}", light + Style(bold=seat.here))
        text.append(right.rjust(max(0, width - len(text))), light)
        text.truncate(width)
        return text

    def _panel(self, view: View, width: int, height: int) -> Text:
        """Whose turn, the card and its rule (or the hand), the list to pick from, and below it
        what the player asked for (why not, a hint) or was told."""
        lines: list[tuple[str, Style]] = []
        plain = Style(color="#f3ead3")
        dim = Style(color="#a89f8a")

        def say(words: str, style: Style = plain) -> None:
            lines.extend((line, style) for line in textwrap.wrap(words, width - 1) or [""])

        lines.append(self._turn_line(view))
        if view.card is not None:
            say(f"Card: {card_label(view.card)}", plain + Style(bold=True))
            say(card_text(view.rules, view.card), dim)
        if view.hand and not self.covered:
            say("Hand: " + "  ".join(card_label(card) for card in view.hand), plain + Style(bold=True))
            shown_card = self._card_in_view()
            if shown_card is not None:
                say(f"{card_label(shown_card)}: {card_text(view.rules, shown_card)}", dim)
        lines.append(("", plain))
        if self.covered and view.decider is not None:
            say(f"Pass the keys to {COLOUR_NAMES[view.decider].capitalize()}: press Enter when ready.")
        elif self.picker is not None:
            say(self.picker.prompt(), plain + Style(bold=True))
        info = textwrap.wrap(self.info, width - 1)[:4] if self.info else []
        room = height - len(lines) - len(info) - (1 if info else 0)
        lines += self._option_lines(width, room)
        while len(lines) < height - len(info):
            lines.append(("", plain))
        lines += [(line, Style(color="#ffd479")) for line in info]
        text = Text(no_wrap=True, overflow="crop")
        for line, style in lines[:height]:
            text.append(line[: width - 1] + "\n", style)
        text.rstrip()
        return text

    def _turn_line(self, view: View) -> tuple[str, Style]:
        if view.status == FINISHED and view.position.winner is not None:
            winner = COLOUR_NAMES[view.position.winner].capitalize()
            points = ""
            if view.points:
                points = "  " + ", ".join(f"{COLOUR_NAMES[c].capitalize()} {p}" for c, p in view.points.items())
            return f"{winner} wins!{points}", _colour_style(view.position.winner)
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

    def _option_lines(self, width: int, room: int) -> list[tuple[str, Style]]:
        """The options, numbered, the cursor's reversed; a long one wraps.  When they do not all
        fit, those round the cursor, with how many more there are above and below."""
        options = self.options()
        if not options or room <= 0:
            return []
        blocks = [self._option_block(index, option, width) for index, option in enumerate(options)]
        first, last = self.cursor, self.cursor + 1
        used = len(blocks[self.cursor]) if 0 <= self.cursor < len(blocks) else 0
        while True:  # grow the window round the cursor, below first
            if last < len(blocks) and used + len(blocks[last]) + (first > 0) <= room:
                used, last = used + len(blocks[last]), last + 1
            elif first > 0 and used + len(blocks[first - 1]) + (last < len(blocks)) <= room:
                first, used = first - 1, used + len(blocks[first - 1])
            else:
                break
        more = Style(color="#a89f8a")
        lines = [(f"  ... {first} more above", more)] if first > 0 else []
        lines += [line for block in blocks[first:last] for line in block]
        if last < len(blocks):
            lines.append((f"  ... {len(blocks) - last} more below", more))
        return lines[:room]

    def _option_block(self, index: int, option: Option, width: int) -> list[tuple[str, Style]]:
        number = str(index + 1) if index < 10 and option.enabled else "x" if not option.enabled else " "
        pointer = ">" if index == self.cursor else " "
        style = Style(color="#f3ead3") if option.enabled else Style(color="#a89f8a")
        if index == self.cursor:
            style += Style(reverse=True, bold=True)
        wrapped = textwrap.wrap(option.label, width - 4) or [""]
        first = f"{pointer}{number} {wrapped[0]}"
        return [(line.ljust(width - 1), style) for line in [first, *("   " + more for more in wrapped[1:])]]

    def _keys(self, view: View) -> Text:
        """The keys that do something now."""
        keys = []
        if view.status == FINISHED:
            keys += ["n new game"] if self.new_game is not None else []
        elif self.covered:
            keys.append("Enter show the hand")
        elif self.picker is not None:
            keys += ["arrows/Enter pick", "Esc back", "w why not", "h hint"]
        if self.table.can_take_back:
            keys.append("u undo")
        if self.record is not None and (view.status == FINISHED or self.table.can_take_back):
            keys.append("s save")
        keys += ["? help", "q quit"]
        return Text(" " + "  ".join(keys))

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
        if self.picker is None or self.covered or self.view_now.stage != "card":
            self.info = "A hint ranks the choices of your card; there is none to rank now."
            self.show()
            return
        self.info = "Thinking..."
        self.show()
        ranked = await self.table.hint()
        if not ranked:
            self.info = self.view_now.note or "No hint now."
        else:
            best = [f"{chance:.0%} {choice.text.split(': ', 1)[-1]}" for choice, chance in ranked[:2]]
            why = self.table.hint_reason
            self.info = "Hint, chance to win: " + "; ".join(best) + (f". Why: {why}" if why else "")
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
        self.push_screen(HelpScreen(self.view_now.rules.tokens))

    async def action_new_game(self) -> None:
        if self.new_game is None or self.view_now.status != FINISHED:
            return
        await self.table.close()
        self.table, self.record = self.new_game()
        self.saved, self._saved_at_end, self._quit_asked = None, False, False
        self._picker_for = ()
        self.info = ""
        self.show()
        self.run_worker(self._run_table(), group="table")

    async def action_quit(self) -> None:
        """Quit; a game on this machine that is not over asks first, and its record is written,
        so that ``pardon tui --resume`` takes it up again."""
        view = self.view_now
        unfinished = self.table.can_take_back and view.status != FINISHED and bool(view.people)
        if unfinished and not self._quit_asked:
            self._quit_asked = True
            if self.record is not None:
                again = f"q again quits; the game is saved to {self.record} to take up again later."
            else:
                again = "it keeps no record, so it cannot be taken up again: q again quits."
            self.info = f"The game is not over: {again}"
            self.show()
            return
        await self._leave(self.record if unfinished else None)


def _cell_of(colour: int, distance: int) -> Cell:
    cell = pawn_cell(colour, distance)
    assert cell is not None
    return cell


def _colour_style(colour: int) -> Style:
    return Style(color="black" if colour == 2 else "white", bgcolor=COLOURS[colour], bold=True)


def _log_text(log: tuple[str, ...], lines: int, width: int) -> Text:
    """The last decisions, newest last, each in its player's colour."""
    text = Text(no_wrap=True, overflow="ellipsis")
    for entry in log[-lines:]:
        first = entry.split(" ", 1)[0].rstrip(":").lower()
        style = Style(color=BRIGHT[COLOUR_NAMES.index(first)]) if first in COLOUR_NAMES else Style(color="#d8cfb8")
        text.append(" " + entry[: width - 2] + "\n", style)
    text.rstrip()
    return text
