"""What both sheets share: paper sizes, margins, the palette, type styles and flowing text into a box.

Everything is drawn with the PDF standard fonts (Helvetica), so a sheet needs no font files and
prints the same everywhere.  Every sheet keeps its ink at least ``MARGIN`` from the paper's edge,
which any home printer can print.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from io import BytesIO
from typing import Any, Final

from reportlab.lib import colors
from reportlab.lib.enums import TA_LEFT
from reportlab.lib.pagesizes import A4, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import inch
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Flowable, Frame

from pardon import __version__

#: Paper names as the command line and the web addresses spell them, with their size in points.
PAPERS: Final[dict[str, tuple[float, float]]] = {"letter": LETTER, "a4": A4}
#: Half an inch of white all round: no ink closer to the edge than this.
MARGIN: Final = 0.5 * inch

# The four colours of the board, deep enough to read as text on white, and pale tints for panels.
RED: Final = colors.HexColor("#C8102E")
BLUE: Final = colors.HexColor("#0B5CAD")
YELLOW: Final = colors.HexColor("#F2B400")
GREEN: Final = colors.HexColor("#1E8A44")
PAWN_COLOURS: Final = (RED, BLUE, YELLOW, GREEN)  # in the order of pardon.core.board.COLOURS
INK: Final = colors.HexColor("#1D232B")
MUTED: Final = colors.HexColor("#56606B")
RULE: Final = colors.HexColor("#B9C0C8")
PANEL: Final = colors.HexColor("#F3F4F6")
TINTS: Final = tuple(colors.HexColor(hex_) for hex_ in ("#FBE7EA", "#E4EEF8", "#FDF3D6", "#E3F2E8"))

BODY_SIZE: Final = 8.5  # never below 8 pt: readable at arm's length on a table


def style(name: str, **changes: Any) -> ParagraphStyle:
    """A paragraph style on the sheets' body style."""
    base: dict[str, Any] = {
        "fontName": "Helvetica",
        "fontSize": BODY_SIZE,
        "leading": BODY_SIZE * 1.22,
        "textColor": INK,
        "alignment": TA_LEFT,
    }
    base.update(changes)
    return ParagraphStyle(name, **base)


BODY: Final = style("body")
HEADING: Final = style("heading", fontName="Helvetica-Bold", fontSize=10.5, leading=13, spaceBefore=7, spaceAfter=2)
NOTE: Final = style("note", textColor=MUTED, fontName="Helvetica-Oblique")
BULLET: Final = style("bullet", leftIndent=8, bulletIndent=0, spaceBefore=1.5, bulletFontSize=BODY_SIZE)


class SheetOverflowError(RuntimeError):
    """The text of a sheet no longer fits its box: a layout bug, caught by the tests."""


@dataclass(frozen=True)
class Box:
    """A rectangle on the page, in points from the bottom left corner."""

    x: float
    y: float
    width: float
    height: float

    @property
    def top(self) -> float:
        return self.y + self.height

    @property
    def right(self) -> float:
        return self.x + self.width


def content_box(paper: str) -> Box:
    """The part of the page inside the margins."""
    width, height = PAPERS[paper]
    return Box(MARGIN, MARGIN, width - 2 * MARGIN, height - 2 * MARGIN)


def flow(canvas: Canvas, box: Box, story: Sequence[Flowable], where: str) -> float:
    """Lay ``story`` out in ``box``, top down; return the height left unused.

    Raises :class:`SheetOverflowError` naming ``where`` if it does not fit, so a sheet never
    silently loses a rule.
    """
    frame = Frame(box.x, box.y, box.width, box.height, leftPadding=0, rightPadding=0, topPadding=0, bottomPadding=0)
    remaining = list(story)
    frame.addFromList(remaining, canvas)
    if remaining:
        raise SheetOverflowError(f"{where} does not fit: {len(remaining)} block(s) left over")
    used: float = frame._y  # reportlab keeps the frame's current height in this attribute
    return used - box.y


def new_canvas(paper: str, title: str, subject: str) -> tuple[Canvas, BytesIO]:
    """A one-page canvas that writes the same bytes every time for the same pardon version."""
    buffer = BytesIO()
    canvas = Canvas(buffer, pagesize=PAPERS[paper], invariant=1, pageCompression=1)
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setAuthor("pardon")
    canvas.setCreator(f"pardon {__version__}")
    canvas.setKeywords("Sorry!, board game, rules")
    return canvas, buffer


def colour_band(canvas: Canvas, x: float, y: float, width: float, height: float) -> None:
    """The four colours of the board side by side, the sheets' signature stripe."""
    part = width / len(PAWN_COLOURS)
    for index, colour in enumerate(PAWN_COLOURS):
        canvas.setFillColor(colour)
        canvas.rect(x + index * part, y, part, height, stroke=0, fill=1)


def sheet_header(canvas: Canvas, box: Box, title: tuple[str, str], subtitle: str) -> float:
    """The title block at the top of a sheet, its first words in red; returns the y just below it."""
    accent, rest = title
    canvas.setFont("Helvetica-Bold", 22)
    canvas.setFillColor(RED)
    canvas.drawString(box.x, box.top - 20, accent)
    canvas.setFillColor(INK)
    canvas.drawString(box.x + stringWidth(accent + "  ", "Helvetica-Bold", 22), box.top - 20, rest)
    canvas.setFont("Helvetica", 9.5)
    canvas.setFillColor(MUTED)
    canvas.drawRightString(box.right, box.top - 19, subtitle)
    colour_band(canvas, box.x, box.top - 30, box.width, 3.5)
    return box.top - 38


def sheet_footer(canvas: Canvas, box: Box, text: str) -> None:
    """One muted line at the foot of a sheet."""
    canvas.setFont("Helvetica", 8)
    canvas.setFillColor(MUTED)
    canvas.drawString(box.x, box.y + 1, text)
    canvas.drawRightString(box.right, box.y + 1, f"pardon {__version__}")
