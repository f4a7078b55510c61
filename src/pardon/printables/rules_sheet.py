"""The classic game on one page: setup, a turn, every card, slides, Safety Zone and Home, winning.

The text follows the project's rules specification (the classic game of 1939 as pardon plays
it); the card list, the deck and the board picture come from the core, and the Point Scoring
example is worked out by :func:`pardon.core.scoring.score_1939`, so the sheet cannot drift from
the engine.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Final

from reportlab.graphics import renderPDF
from reportlab.lib import colors
from reportlab.lib.colors import Color
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Paragraph, Spacer, Table, TableStyle

from pardon.core.board import SAFETY_LENGTH, SLIDES, TRACK_LENGTH
from pardon.core.cards import CARD_TEXT, CARDS, DECKS, SORRY
from pardon.printables.board_diagram import board_drawing
from pardon.printables.layout import (
    BLUE,
    BODY,
    BULLET,
    GREEN,
    HEADING,
    INK,
    MUTED,
    NOTE,
    PANEL,
    RED,
    RULE,
    YELLOW,
    Box,
    content_box,
    flow,
    new_canvas,
    sheet_footer,
    sheet_header,
    style,
)
from pardon.printables.scoring_text import how_to_double, how_to_score, worked_example

GUTTER: Final = 16
BADGE_WIDTH: Final = 32
BADGE_HEIGHT: Final = 18

#: What the sheet adds to each card's one-line text from the core, so a player needs nothing else.
CARD_DETAIL: Final[dict[int, str]] = {
    1: "Out of Start means onto the circle just outside it.",
    2: "Even when the 2 could not be used.",
    4: "It may back out of the Safety Zone.",
    7: "The two parts go forward and add up to 7, such as 4 + 3. A 7 never brings a pawn out.",
    10: "If no pawn can go forward 10, one must go back 1.",
    11: "Both pawns must be on the track. You never have to switch.",
    SORRY: "Your pawn takes that pawn's square, which must be on the track.",
}

# Badge colours say what a card can do: bring a pawn out, go backward, or choose between two moves.
OUT_OF_START: Final = GREEN
BACKWARD: Final = BLUE
TWO_WAYS: Final = colors.HexColor("#B07A00")
FORWARD_ONLY: Final = colors.HexColor("#4A525C")


def badge_colour(card: int) -> Color:
    if card == SORRY:
        return RED
    if card in (1, 2):
        return OUT_OF_START
    if card in (4, 10):
        return BACKWARD
    if card in (7, 11):
        return TWO_WAYS
    return FORWARD_ONLY


class CardBadge(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A card drawn as a small rounded face with its number."""

    def __init__(self, card: int) -> None:
        super().__init__()
        self.card = card
        self.width, self.height = BADGE_WIDTH, BADGE_HEIGHT

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(badge_colour(self.card))
        canvas.roundRect(0, 0, self.width, self.height, 3.5, stroke=0, fill=1)
        canvas.setFillColor(colors.white)
        label = "Sorry!" if self.card == SORRY else str(self.card)
        size = 8 if self.card == SORRY else 11
        canvas.setFont("Helvetica-Bold", size)
        canvas.drawCentredString(self.width / 2, (self.height - size * 0.7) / 2, label)


class SectionHeading(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """A section title with a short bar in one of the board's colours before it."""

    def __init__(self, text: str, colour: Color, space_before: float = 8) -> None:
        super().__init__()
        self.text, self.colour, self.space_before = text, colour, space_before
        self.height = 13.0

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.width = available_width
        return available_width, self.height

    def getSpaceBefore(self) -> float:  # noqa: N802  # reportlab's name
        return self.space_before

    def getSpaceAfter(self) -> float:  # noqa: N802  # reportlab's name
        return 2.5

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFillColor(self.colour)
        canvas.rect(0, 2, 4, 9, stroke=0, fill=1)
        canvas.setFillColor(INK)
        canvas.setFont(HEADING.fontName, HEADING.fontSize)
        canvas.drawString(8, 3, self.text)


def _hex(colour: Color) -> str:
    """A colour as paragraph markup writes it."""
    return "#" + str(colour.hexval())[2:]


def _p(text: str) -> Paragraph:
    return Paragraph(text, BODY)


def _bullets(*items: str) -> list[Flowable]:
    return [Paragraph(item, BULLET, bulletText="•") for item in items]


def _deck_line() -> str:
    deck = DECKS[45]
    total = sum(deck.values())
    return (
        f"Shuffle the {total} cards (five 1s, four of every other card; there is no 6 or 9) "
        "and put the pack face down in the centre. The 1939 pack has 44: four 1s."
    )


def column_one() -> list[Flowable]:
    """Setup, who goes first, a turn, leaving Start, bumping, must move."""
    return [
        SectionHeading("Setup", RED, space_before=0),
        _p(
            "2–4 players. Each takes the 4 pawns of one colour and puts them in that colour's "
            f"<b>Start</b>. {_deck_line()}"
        ),
        Spacer(0, 3),
        _p(
            "<b>Who goes first.</b> Everyone draws a card; the highest leads (a Sorry! beats 12, a tie draws "
            "again). Put the cards back and shuffle. The Leader picks a colour and plays first. "
            "In a match the winner of a game leads the next."
        ),
        SectionHeading("Your turn", BLUE),
        _p(
            "Draw the top card, turn it face up on the discard pile and move <b>one</b> pawn as it says "
            "(two with a split 7). Then play passes to the left."
        ),
        *_bullets(
            "Pawns go clockwise, the way the slide triangles point.",
            "Count every square, empty or not. You may pass over any pawn.",
            "When the pack runs out, shuffle the discards into a new pack.",
        ),
        SectionHeading("Leaving Start", YELLOW),
        _p(
            "Only a <b>1</b>, a <b>2</b> or a <b>Sorry!</b> brings a pawn out, one pawn per card. A 1 or a 2 "
            "puts it on the circle just outside its Start, and it goes no further."
        ),
        *_bullets(
            "Not while your own pawn is on that circle.",
            "An opponent's pawn on the circle is bumped.",
        ),
        SectionHeading("Bumping", GREEN),
        _p("End a move on an opponent's pawn and it goes back to its own Start. Two pawns never share a square."),
        *_bullets(
            "Only the square where a move ends counts: passing over a pawn does nothing.",
            "You may never end a move on your own pawn.",
            "Your own pawn goes back to Start only on a slide.",
        ),
        SectionHeading("Must move, or forfeit", RED),
        _p(
            "If any of your pawns can use the card, you must use it, even when it hurts you. A pawn moves "
            "the full count or not at all. The one exception: the 11's switch is never compulsory."
        ),
        Spacer(0, 3),
        _p("If no pawn can use the card, you <b>forfeit</b> the turn; a 2 still lets you draw again."),
        SectionHeading("Winning", GREEN),
        _p(
            "The first player with all 4 pawns <b>Home</b> wins, and the game ends at once (a 2's extra draw is "
            "not taken). A match counts wins; a doubled game counts 2."
        ),
    ]


def _card_table(width: float) -> Table:
    rows = []
    for card in CARDS:
        text = CARD_TEXT[card]
        detail = CARD_DETAIL.get(card)
        if detail:
            text = f"{text} <font color='{_hex(MUTED)}'>{detail}</font>"
        rows.append([CardBadge(card), Paragraph(text, BODY)])
    table = Table(rows, colWidths=[BADGE_WIDTH + 7, width - BADGE_WIDTH - 7])
    table.setStyle(
        TableStyle(
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
                ("TOPPADDING", (0, 0), (-1, -1), 3.2),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3.2),
                ("LINEBELOW", (0, 0), (-1, -2), 0.4, RULE),
            ]
        )
    )
    return table


class Legend(Flowable):  # type: ignore[misc]  # reportlab is untyped
    """What the badge colours mean: a small swatch before each word, on as many lines as it takes."""

    SIZE = 8.0
    SWATCH = 6.0

    def __init__(self, items: list[tuple[Color, str]]) -> None:
        super().__init__()
        self.items = items
        self.places: list[tuple[float, float]] = []

    def wrap(self, available_width: float, available_height: float) -> tuple[float, float]:
        self.places, x, line = [], 0.0, 0
        for _, words in self.items:
            needed = self.SWATCH + 3 + stringWidth(words, "Helvetica", self.SIZE)
            if x and x + needed > available_width:
                x, line = 0.0, line + 1
            self.places.append((x, line))
            x += needed + 8
        self.lines = line + 1
        self.width = available_width
        self.height = self.lines * (self.SIZE + 2.5)
        return self.width, self.height

    def draw(self) -> None:
        canvas = self.canv
        canvas.setFont("Helvetica", self.SIZE)
        for (colour, words), (x, line) in zip(self.items, self.places, strict=True):
            baseline = self.height - (line + 1) * (self.SIZE + 2.5) + 2.5
            canvas.setFillColor(colour)
            canvas.roundRect(x, baseline - 0.2, self.SWATCH, self.SWATCH, 1.2, stroke=0, fill=1)
            canvas.setFillColor(MUTED)
            canvas.drawString(x + self.SWATCH + 3, baseline, words)


def _legend() -> Legend:
    return Legend([(OUT_OF_START, "out of Start"), (BACKWARD, "backward"), (TWO_WAYS, "two ways")])


def column_two(width: float) -> list[Flowable]:
    """Every card, then the split 7 and the 11 switch in detail."""
    return [
        SectionHeading("The cards", BLUE, space_before=0),
        _legend(),
        Spacer(0, 2),
        _card_table(width),
        SectionHeading("Splitting a 7", YELLOW),
        _p(
            "Two different pawns, both forward, the parts adding up to 7. Make one part, then the other: the "
            "first part's bumps and slides happen first, and each part must be legal when it is made. If one "
            "part takes a pawn Home, the other pawn must be able to use the rest. Two pawns may go Home on one 7."
        ),
        SectionHeading("Switching with an 11", GREEN),
        _p(
            "Your pawn and an opponent's pawn, both on the track (never in Start, a Safety Zone or Home), trade "
            "squares. Either one slides if it lands on a triangle that is not its colour. If no pawn can go "
            "forward 11, you may switch or end your turn."
        ),
    ]


def column_three(width: float) -> list[Flowable]:
    """Slides, the Safety Zone and Home, and Point Scoring with its doubling (the board is drawn above)."""
    return [
        SectionHeading("Slides", RED, space_before=0),
        _p(
            "End a move exactly on the triangle of a slide that is <b>not your colour</b> and your pawn slides "
            "to the circle at its far end. <b>Any other pawn on it</b>, yours too, goes back to its Start."
        ),
        *_bullets(
            "On a slide of your own colour you stay on the triangle.",
            "Any way of landing counts: forward, backward, an 11 switch or a Sorry! card.",
            "Passing a triangle, or stopping partway along a slide, does nothing.",
        ),
        SectionHeading("Safety Zone and Home", BLUE),
        _p(
            f"The {SAFETY_LENGTH} squares of your colour before your Home. Only your own pawns go in, moving "
            "forward through the entrance, and a pawn never moves forward past its entrance without going in. "
            "<b>Home takes the exact count</b>: a card that would carry a pawn past Home cannot be used for it. "
            "A pawn Home stays there."
        ),
        *_bullets(
            "No one can bump, switch or Sorry! a pawn in a Safety Zone.",
            "A 4, or a 10's back 1, can move a pawn back out onto the track, and sometimes must. "
            "No pawn goes in backward.",
            "Switched past your entrance by an 11? Go round again.",
        ),
        Spacer(0, 5),
        _panel(
            width,
            [
                SectionHeading("Point Scoring Sorry (1939)", YELLOW, space_before=0),
                _p(f"{how_to_score()} {how_to_double()}"),
                Paragraph(f"<i>{worked_example()}</i>", NOTE),
            ],
        ),
    ]


def _panel(width: float, content: list[Flowable]) -> Table:
    """A pale panel around a variant the classic game does not need."""
    panel = Table([[content]], colWidths=[width])
    panel.setStyle(
        TableStyle(
            [
                ("BACKGROUND", (0, 0), (-1, -1), PANEL),
                ("ROUNDEDCORNERS", [4, 4, 4, 4]),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ("TOPPADDING", (0, 0), (-1, -1), 6),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 7),
            ]
        )
    )
    return panel


def _board(canvas: Canvas, box: Box) -> float:
    """The board picture at the top of ``box`` with its caption; returns the height it takes."""
    size = box.width
    drawing = board_drawing(size)
    renderPDF.draw(drawing, canvas, box.x, box.top - size)
    caption = Paragraph(
        f"The {TRACK_LENGTH}-square track, its {len(SLIDES)} slides, and each colour's Start, Safety Zone and Home.",
        style("caption", textColor=MUTED, fontSize=8, leading=9.8),
    )
    height: float = caption.wrap(box.width, box.height)[1]
    caption.drawOn(canvas, box.x, box.top - size - 3 - height)
    return size + 3 + height + 10


def rules_pdf(paper: str = "letter") -> bytes:
    """The PDF of the classic rules on one page of ``paper`` ("letter" or "a4")."""
    canvas, buffer = new_canvas(paper, "Sorry! — the classic rules on one page", "The classic game of Sorry!")
    page = content_box(paper)
    top = sheet_header(canvas, page, ("Sorry!", "The classic rules"), "2–4 players  ·  4 pawns each  ·  45 cards")
    footer = 14
    width = (page.width - 2 * GUTTER) / 3
    height = top - page.y - footer
    columns = [Box(page.x + index * (width + GUTTER), page.y + footer, width, height) for index in range(3)]
    _column_rules(canvas, columns)
    flow(canvas, columns[0], column_one(), "the rules sheet's first column")
    flow(canvas, columns[1], column_two(width), "the rules sheet's card column")
    board_height = _board(canvas, columns[2])
    below_board = Box(columns[2].x, columns[2].y, width, height - board_height)
    flow(canvas, below_board, column_three(width), "the rules sheet's third column")
    sheet_footer(canvas, page, "The classic rules of 1939 and the later Parker Brothers sheets, as pardon plays them.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _column_rules(canvas: Canvas, columns: list[Box]) -> None:
    """Hairlines between the columns."""
    canvas.setStrokeColor(PANEL)
    canvas.setLineWidth(0.8)
    for left, right in pairwise(columns):
        x = (left.right + right.x) / 2
        canvas.line(x, left.y, x, left.top)
