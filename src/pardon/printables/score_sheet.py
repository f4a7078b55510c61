"""A score sheet laid out for Sorry!: a match of wins, and Point Scoring Sorry game by game.

The top table counts wins, the way the regular game is scored over a match (a doubled game counts
2).  The bottom table is for Point Scoring Sorry (1939): for each game and player, the pawns Home,
the winner's bonus (24, 16 or 8, printed faintly to be circled), the game's score and the running
total toward the agreed target.
"""

from __future__ import annotations

from typing import Any, Final

from reportlab.lib import colors
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Paragraph, Table, TableStyle

from pardon.core.board import COLOUR_NAMES
from pardon.printables.layout import (
    BODY,
    INK,
    MUTED,
    PANEL,
    PAWN_COLOURS,
    RULE,
    TINTS,
    Box,
    SheetOverflowError,
    content_box,
    new_canvas,
    sheet_footer,
    sheet_header,
    style,
)
from pardon.printables.scoring_text import bonuses, how_doubling_scores, how_to_score, worked_example

PLAYERS: Final = 4
#: Games in the match table and in the Point Scoring table: A4's extra height gives more.
GAMES: Final[dict[str, tuple[int, int]]] = {"letter": (10, 10), "a4": (11, 11)}
INSET: Final = 2.0  # tables' outer strokes are centred on their edge: keep them inside the margins
FOOTER_ROOM: Final = 14  # the footer line and the space above it
GUIDE: Final = colors.HexColor("#8C949D")  # pale printed guides, to be circled or written over
GUIDE_SIZE: Final = 7.5  # the guides' type: small, but read at arm's length on a table (digits some 5.4 pt tall)

SMALL = style("small", fontSize=8, leading=9.5, textColor=MUTED)
CELL_HEAD = style("cell head", fontName="Helvetica-Bold", fontSize=8, leading=9.5, alignment=1)
SUB_HEAD = style("sub head", fontName="Helvetica-Bold", fontSize=8, leading=9, alignment=1)
SECTION = style("section", fontName="Helvetica-Bold", fontSize=12, leading=14)


def _guide(text: str) -> Paragraph:
    """Faint printed text in a cell, centred: choices to circle."""
    return Paragraph(text, style("guide", fontSize=GUIDE_SIZE, leading=GUIDE_SIZE + 1, textColor=GUIDE, alignment=1))


def _write_line(canvas: Canvas, x: float, y: float, label: str, width: float) -> float:
    """A label and a line to write on; returns the x just after it."""
    canvas.setFont("Helvetica", 9)
    canvas.setFillColor(MUTED)
    canvas.drawString(x, y, label)
    start: float = x + stringWidth(label, "Helvetica", 9) + 4
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.6)
    canvas.line(start, y - 2, start + width, y - 2)
    return start + width + 14


def _details(canvas: Canvas, page: Box, y: float) -> float:
    """Date, place and what the match is played to; returns the y below them."""
    x = _write_line(canvas, page.x, y, "Date", 88)
    x = _write_line(canvas, x, y, "Place", 118)
    x = _write_line(canvas, x, y, "Playing to", 40)
    canvas.setFillColor(MUTED)
    canvas.drawString(x - 10, y, "games  or")
    x = _write_line(canvas, x + 38, y, "", 40)
    canvas.setFillColor(MUTED)
    canvas.drawString(x - 10, y, "points")
    return y - 14


def _section_title(canvas: Canvas, page: Box, y: float, title: str, note: str) -> float:
    """A section title with a line of instructions under it; returns the y below them."""
    canvas.setFillColor(INK)
    canvas.setFont(SECTION.fontName, SECTION.fontSize)
    canvas.drawString(page.x, y - 12, title)
    paragraph = Paragraph(note, SMALL)
    height: float = paragraph.wrap(page.width, 100)[1]
    paragraph.drawOn(canvas, page.x, y - 16 - height)
    return y - 20 - height


def _player_head(number: int) -> Paragraph:
    return Paragraph(f"Player {number}", style("player", fontSize=7, leading=8, textColor=MUTED))


def _colour_guide() -> Paragraph:
    names = "  ".join(name.capitalize() for name in COLOUR_NAMES)
    return _guide(names)


def match_table(width: float, games: int) -> Table:
    """Games × players: tick the winner, mark a doubled game, count the wins."""
    game_width, doubled_width, notes_width = 34.0, 52.0, 74.0
    player_width = (width - game_width - doubled_width - notes_width) / PLAYERS
    rows: list[list[Any]] = [
        ["", *(_player_head(number) for number in range(1, PLAYERS + 1)), Paragraph("Match winner", SMALL), ""],
        [Paragraph("Colour", SMALL), *(_colour_guide() for _ in range(PLAYERS)), "", ""],
        [
            Paragraph("Game", CELL_HEAD),
            Paragraph("Tick the winner of each game", CELL_HEAD),
            *([""] * (PLAYERS - 1)),
            Paragraph("Doubled", CELL_HEAD),
            Paragraph("Notes", CELL_HEAD),
        ],
    ]
    rows += [[str(game), *([""] * PLAYERS), _guide("× 2"), ""] for game in range(1, games + 1)]
    rows.append([Paragraph("Wins", CELL_HEAD), *([""] * PLAYERS), "", ""])
    heights = [24, 14, 14, *([17] * games), 22]
    table = Table(
        rows,
        colWidths=[game_width, *([player_width] * PLAYERS), doubled_width, notes_width],
        rowHeights=heights,
    )
    last = len(rows) - 1
    commands: list[tuple[Any, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("BOX", (0, 0), (-1, -1), 1, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (-1, 0), "TOP"),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("FONT", (0, 3), (0, -1), "Helvetica-Bold", 9),
        ("TEXTCOLOR", (0, 3), (0, -1), MUTED),
        ("BACKGROUND", (0, 2), (-1, 2), PANEL),
        ("BACKGROUND", (0, last), (-1, last), PANEL),
        ("LINEABOVE", (0, last), (-1, last), 1, INK),
        ("LINEBELOW", (0, 1), (-1, 1), 1, INK),
        ("SPAN", (PLAYERS + 1, 0), (PLAYERS + 2, 1)),
        ("SPAN", (1, 2), (PLAYERS, 2)),
        ("LEFTPADDING", (0, 0), (-1, -1), 3),
        ("RIGHTPADDING", (0, 0), (-1, -1), 3),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    commands += _player_stripes(first_column=1, columns_each=1, rows=len(rows))
    table.setStyle(TableStyle(commands))
    return table


def _player_stripes(first_column: int, columns_each: int, rows: int) -> list[tuple[Any, ...]]:
    """A pale tint of the board's colours over each player's columns, and a coloured rule above."""
    commands: list[tuple[Any, ...]] = []
    for player in range(PLAYERS):
        left = first_column + player * columns_each
        right = left + columns_each - 1
        commands.append(("BACKGROUND", (left, 0), (right, 0), TINTS[player]))
        commands.append(("LINEABOVE", (left, 0), (right, 0), 3, PAWN_COLOURS[player]))
        commands.append(("LINEBEFORE", (left, 0), (left, rows - 1), 1, INK))
    return commands


def points_table(width: float, games: int) -> Table:
    """Point Scoring Sorry: per game and player, pawns Home, bonus, the game's score, running total."""
    game_width, doubled_width = 30.0, 40.0
    each = (width - game_width - doubled_width) / PLAYERS
    sub = [each * 0.235, each * 0.265, each * 0.235, each * 0.265]  # Home, Bonus, Game, Total
    first, second, third = bonuses()
    names_row: list[Any] = ["", ""]
    heads_row: list[Any] = [Paragraph("Game", CELL_HEAD), Paragraph("Doubled", CELL_HEAD)]
    for number in range(1, PLAYERS + 1):
        names_row += [_player_head(number), "", "", ""]
        heads_row += [Paragraph(head, SUB_HEAD) for head in ("Home", "Bonus", "Game", "Total")]
    rows: list[list[Any]] = [names_row, heads_row]
    for game in range(1, games + 1):
        row: list[Any] = [str(game), _guide("×2 ×4 ×8")]
        for _ in range(PLAYERS):
            row += ["", _guide(f"{first} {second} {third}"), "", ""]
        rows.append(row)
    table = Table(
        rows,
        colWidths=[game_width, doubled_width, *(sub * PLAYERS)],
        rowHeights=[24, 14, *([19] * games)],
    )
    commands: list[tuple[Any, ...]] = [
        ("GRID", (0, 0), (-1, -1), 0.5, RULE),
        ("BOX", (0, 0), (-1, -1), 1, INK),
        ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
        ("VALIGN", (0, 0), (-1, 0), "TOP"),
        ("ALIGN", (0, 0), (0, -1), "CENTER"),
        ("FONT", (0, 2), (0, -1), "Helvetica-Bold", 9),
        ("TEXTCOLOR", (0, 2), (0, -1), MUTED),
        ("BACKGROUND", (0, 1), (-1, 1), PANEL),
        ("LINEBELOW", (0, 1), (-1, 1), 1, INK),
        ("SPAN", (0, 0), (1, 0)),
        ("LEFTPADDING", (0, 0), (-1, -1), 1),
        ("RIGHTPADDING", (0, 0), (-1, -1), 1),
        ("TOPPADDING", (0, 0), (-1, -1), 2),
        ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
    ]
    for player in range(PLAYERS):
        left = 2 + player * 4
        commands.append(("SPAN", (left, 0), (left + 3, 0)))
        # The running total is what a player reads most: a pale band of their colour.
        commands.append(("BACKGROUND", (left + 3, 2), (left + 3, -1), TINTS[player]))
    commands += _player_stripes(first_column=2, columns_each=4, rows=len(rows))
    table.setStyle(TableStyle(commands))
    return table


def _draw(canvas: Canvas, table: Table, page: Box, y: float) -> float:
    """Draw ``table`` with its top at ``y``; returns the y below it."""
    height: float = table.wrap(page.width - 2 * INSET, y - page.y)[1]
    table.drawOn(canvas, page.x + INSET, y - height - INSET)
    return y - height - INSET


def _reference(canvas: Canvas, page: Box, y: float) -> float:
    """How Point Scoring Sorry scores, beside the table that uses it."""
    text = f"{how_to_score()} {how_doubling_scores()} <i>Example: {worked_example()}</i>"
    paragraph = Paragraph(text, BODY)
    height: float = paragraph.wrap(page.width - 16, 200)[1]
    canvas.setFillColor(PANEL)
    canvas.roundRect(page.x, y - height - 12, page.width, height + 12, 4, stroke=0, fill=1)
    paragraph.drawOn(canvas, page.x + 8, y - height - 6)
    return y - height - 12


def score_sheet_pdf(paper: str = "letter") -> bytes:
    """The PDF of the score sheet on one page of ``paper`` ("letter" or "a4")."""
    canvas, buffer = new_canvas(paper, "Sorry! — score sheet", "A score sheet for Sorry! matches and Point Scoring")
    page = content_box(paper)
    match_games, points_games = GAMES[paper]
    y = sheet_header(canvas, page, ("Sorry!", "Score sheet"), "A match of wins  ·  Point Scoring Sorry (1939)")
    y = _details(canvas, page, y - 14)
    y = _section_title(
        canvas,
        page,
        y - 6,
        "Match: who wins each game",
        "Write the players' names (for partners, one team in a column, such as Red and Yellow). Tick the winner of "
        "each game; a doubled game counts 2 wins, so circle × 2 and write 2. The winner leads the next game.",
    )
    y = _draw(canvas, match_table(page.width - 2 * INSET, match_games), page, y)
    y = _section_title(
        canvas,
        page,
        y - 12,
        "Point Scoring Sorry (1939): points for each game",
        "For each game write each player's pawns Home, circle the winner's bonus, then the game's score and the "
        "running total. Circle the stake of a doubled game (×2, ×4, ×8...) and multiply everyone's score by it.",
    )
    y = _draw(canvas, points_table(page.width - 2 * INSET, points_games), page, y)
    y = _reference(canvas, page, y - 10)
    if y < page.y + FOOTER_ROOM:
        raise SheetOverflowError(f"the score sheet runs {page.y + FOOTER_ROOM - y:.0f} points into its footer")
    sheet_footer(canvas, page, "The regular game has no points: a match counts wins. Point Scoring Sorry adds them up.")
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()
