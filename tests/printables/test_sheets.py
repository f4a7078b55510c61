"""The printable sheets: one page each, the right paper, every rule named, no ink in the margins."""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("reportlab")
pypdf = pytest.importorskip("pypdf")

from pardon.cli import main  # noqa: E402
from pardon.core.cards import CARD_TEXT, CARDS  # noqa: E402
from pardon.printables import FILES, SHEETS, sheet_pdf  # noqa: E402
from pardon.printables.layout import BODY, MARGIN, MUTED, PAPERS, Box, SheetOverflowError, flow, new_canvas  # noqa: E402

CARD_NAMES = ["1", "2", "3", "4", "5", "7", "8", "10", "11", "12", "Sorry!"]
RULE_SECTIONS = [
    "Setup",
    "Who goes first",
    "Your turn",
    "Leaving Start",
    "Bumping",
    "Must move, or forfeit",
    "Winning",
    "The cards",
    "Splitting a 7",
    "Switching with an 11",
    "Slides",
    "Safety Zone and Home",
    "Point Scoring Sorry",
]
DIAGRAM_LABELS = {"HOME", "START", "PACK"}  # the board picture's own small labels


def reader(name: str) -> pypdf.PdfReader:
    return pypdf.PdfReader(io.BytesIO(sheet_pdf(name)))


def page_text(name: str) -> str:
    return " ".join(reader(name).pages[0].extract_text().split())


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_sheet_is_one_page_of_its_paper(name: str) -> None:
    pdf = reader(name)
    assert len(pdf.pages) == 1
    box = pdf.pages[0].mediabox
    width, height = PAPERS[FILES[name][1]]
    assert (float(box.left), float(box.bottom)) == (0, 0)
    assert float(box.width) == pytest.approx(width, abs=0.01)
    assert float(box.height) == pytest.approx(height, abs=0.01)


def test_letter_is_612_by_792_points() -> None:
    box = reader("rules.pdf").pages[0].mediabox
    assert (float(box.width), float(box.height)) == (612, 792)
    box = reader("score-sheet.pdf").pages[0].mediabox
    assert (float(box.width), float(box.height)) == (612, 792)


@pytest.mark.parametrize("name", ["rules.pdf", "rules-a4.pdf"])
def test_the_rules_name_every_card_and_every_section(name: str) -> None:
    text = page_text(name)
    for section in RULE_SECTIONS:
        assert section in text, section
    lines = reader(name).pages[0].extract_text().splitlines()
    card_list = lines[lines.index("The cards") :]
    for card, label in zip(CARDS, CARD_NAMES, strict=True):
        # Each card's face, then what it does.
        assert label in card_list, label
        assert card_list[card_list.index(label) + 1][:20] == CARD_TEXT[card][:20], label
    assert "Sorry! Take a pawn from Start" in text
    assert "Draw again" in text
    assert "switch places with an opponent's pawn" in text


def test_the_rules_say_what_the_rulebook_says() -> None:
    text = page_text("rules.pdf")
    for phrase in (
        "Only a 1, a 2 or a Sorry! brings a pawn out",
        "Any other pawn on it, yours too, goes back to its Start",
        "On a slide of your own colour you stay on the triangle",
        "Home takes the exact count",
        "No one can bump, switch or Sorry! a pawn in a Safety Zone",
        "the 11's switch is never compulsory",
        "forfeit",
        "24 if no opponent has a pawn Home, 16 if none has more than 1, 8 if none has more than 2",
        "Red 4 + 1 + 16 = 21",  # scored by the engine's score_1939
    ):
        assert phrase in text, phrase


def test_the_rule_sheet_says_how_doubling_works() -> None:
    """docs/rules.md, "Points": who may double and when, dropping out, the doubler's 5, and × 2 a double."""
    for name in ("rules.pdf", "rules-a4.pdf"):
        text = page_text(name)
        for phrase in (
            "Doubling: before you draw, you may double",
            "Each other player accepts, or drops out and scores 0",
            "if all drop out, the game ends and you score 5",
            "Each accepted double is × 2",
        ):
            assert phrase in text, (name, phrase)


def test_the_score_sheet_has_a_match_table_and_a_point_scoring_table() -> None:
    text = page_text("score-sheet.pdf")
    for phrase in (
        "Date",
        "Place",
        "Player 1",
        "Player 4",
        "Match: who wins each game",
        "Tick the winner of each game",
        "Doubled",
        "Wins",
        "Point Scoring Sorry (1939)",
        "Home Bonus Game Total",
        "24 16 8",
        "×2 ×4 ×8",
        "Red 4 + 1 + 16 = 21",
    ):
        assert phrase in text, phrase


@pytest.mark.parametrize("name", ["rules.pdf", "score-sheet.pdf"])
def test_body_type_is_at_least_8_points(name: str) -> None:
    sizes: dict[str, float] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip() and text.strip() not in DIAGRAM_LABELS:
            sizes[text.strip()] = size * abs(tm[3]) * abs(cm[3])

    reader(name).pages[0].extract_text(visitor_text=visit)
    guides = {"24 16 8", "×2 ×4 ×8", "× 2", "Red Blue Yellow Green", "Player 1", "Player 2", "Player 3", "Player 4"}
    small = {text: size for text, size in sizes.items() if size < 8 and text not in guides}
    assert sizes and not small


GUIDES = ("24 16 8", "×2 ×4 ×8", "× 2", "Red Blue Yellow Green")  # the score sheet's grey figures to circle


@pytest.mark.parametrize("name", ["score-sheet.pdf", "score-sheet-a4.pdf"])
def test_the_score_sheets_grey_guides_are_big_and_dark_enough_to_read(name: str) -> None:
    """The figures printed to be circled were small and pale (their digits some 5 pt tall, in a grey of 70%
    white): now 7.5 pt, a little darker, yet paler than the sheet's grey text, so that what is written wins."""
    from pypdf.generic import ContentStream

    page = reader(name).pages[0]
    sizes: dict[str, float] = {}

    def visit(text: str, cm: list[float], tm: list[float], font: object, size: float) -> None:
        if text.strip() in GUIDES:
            sizes[text.strip()] = size * abs(tm[3]) * abs(cm[3])

    page.extract_text(visitor_text=visit)
    assert sorted(sizes) == sorted(GUIDES)
    assert min(sizes.values()) >= 7.5, sizes
    greys: dict[str, set[float]] = {}
    fill = 0.0
    for operands, operator in ContentStream(page.get_contents(), page.pdf).operations:
        if operator == b"rg":
            fill = sum(float(value) for value in operands) / 3
        elif operator == b"Tj" and str(operands[0]).strip() in GUIDES:
            greys.setdefault(str(operands[0]).strip(), set()).add(round(fill, 3))
    assert sorted(greys) == sorted(GUIDES)
    text_grey = sum(MUTED.rgb()) / 3  # the instructions' grey
    for guide, shades in greys.items():
        assert all(text_grey < shade <= 0.6 for shade in shades), (guide, shades)


def test_the_same_version_writes_the_same_bytes() -> None:
    for sheet in SHEETS.values():
        assert sheet("letter") == sheet("letter")


def test_text_that_does_not_fit_is_an_error_not_a_lost_rule() -> None:
    from reportlab.platypus import Paragraph

    canvas, _ = new_canvas("letter", "test", "test")
    story = [Paragraph("A pawn needs the exact count to reach Home. " * 20, BODY)]
    with pytest.raises(SheetOverflowError, match="the test box"):
        flow(canvas, Box(40, 40, 100, 60), story, "the test box")


def gray_pixels(pdf: Path, dpi: int) -> tuple[int, int, bytes]:
    """The page rendered by poppler as 8-bit grey: (width, height, pixels)."""
    subprocess.run(["pdftoppm", "-r", str(dpi), "-gray", "-singlefile", str(pdf), str(pdf.with_suffix(""))], check=True)
    data = pdf.with_suffix(".pgm").read_bytes()
    magic, width, height, depth, pixels = data.split(maxsplit=4)
    assert (magic, depth) == (b"P5", b"255")
    return int(width), int(height), pixels


@pytest.mark.skipif(shutil.which("pdftoppm") is None, reason="pdftoppm (poppler-utils) is not installed")
@pytest.mark.parametrize("name", sorted(FILES))
def test_no_ink_falls_in_the_margins(name: str, tmp_path: Path) -> None:
    dpi = 100
    pdf = tmp_path / name
    pdf.write_bytes(sheet_pdf(name))
    width, height, pixels = gray_pixels(pdf, dpi)
    band = int(MARGIN / 72 * dpi) - 1  # the last pixel before the margin line may carry anti-aliasing
    inked = [
        (x, y)
        for y in range(height)
        for x in (range(width) if y < band or y >= height - band else [*range(band), *range(width - band, width)])
        if pixels[y * width + x] != 255
    ]
    assert not inked, f"{len(inked)} pixels of ink in the margin, first at {inked[0]}"
    # ... and the page is not blank: the sheet is drawn inside them.
    assert pixels.count(255) < len(pixels) * 0.97


def test_pardon_sheets_writes_both_sheets(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "printables"
    assert main(["sheets", "--out", str(out)]) == 0
    assert sorted(path.name for path in out.iterdir()) == ["rules.pdf", "score-sheet.pdf"]
    assert (out / "rules.pdf").read_bytes() == sheet_pdf("rules.pdf")
    assert str(out / "score-sheet.pdf") in capsys.readouterr().out


def test_pardon_sheets_writes_a4_beside_letter(tmp_path: Path) -> None:
    assert main(["sheets", "--out", str(tmp_path), "--paper", "both"]) == 0
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(FILES)
    assert main(["sheets", "--out", str(tmp_path / "a4"), "--paper", "a4"]) == 0
    assert sorted(path.name for path in (tmp_path / "a4").iterdir()) == ["rules-a4.pdf", "score-sheet-a4.pdf"]


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a_file = tmp_path / "notes.txt"
    a_file.write_text("not a folder")
    assert main(["sheets", "--out", str(a_file / "sheets")]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"pardon sheets: cannot write the sheets to {a_file / 'sheets'}: ")
    assert "Traceback" not in error and error.count("\n") == 1
    assert main(["sheets", "--out", str(a_file)]) == 2
    assert "it is a file, not a directory" in capsys.readouterr().err


def test_what_cannot_be_a_folder_for_the_sheets_is_one_line_and_writes_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sheets", "--out", ""]) == 2  # it used to write into the current folder
    assert "--out must name a folder" in capsys.readouterr().err
    dangling = tmp_path / "dangling"
    dangling.symlink_to(tmp_path / "gone")
    assert main(["sheets", "--out", str(dangling)]) == 2
    assert f"it is a link to {tmp_path / 'gone'}, which does not exist" in capsys.readouterr().err
    clash = tmp_path / "clash"
    (clash / "score-sheet.pdf").mkdir(parents=True)  # a folder where a sheet goes
    assert main(["sheets", "--out", str(clash)]) == 2
    error = capsys.readouterr().err
    assert f"{clash / 'score-sheet.pdf'}: Is a directory" in error and error.count("\n") == 1
    assert sorted(path.name for path in clash.iterdir()) == ["score-sheet.pdf"]


@pytest.mark.skipif(os.geteuid() == 0, reason="the administrator may write any file")
def test_a_write_protected_sheet_is_refused_before_any_is_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "rules.pdf").write_text("the old rules")
    kept = tmp_path / "score-sheet.pdf"
    kept.write_text("the old score sheet")
    kept.chmod(0o444)
    assert main(["sheets", "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert f"{kept}: Permission denied" in error and error.count("\n") == 1
    assert (tmp_path / "rules.pdf").read_text() == "the old rules"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rules.pdf", "score-sheet.pdf"]


def test_a_sheet_that_cannot_be_written_leaves_every_sheet_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rules sheet was written over before a failure writing the score sheet (here a full
    disk, the second file's write failing) stopped the rest."""
    (tmp_path / "rules.pdf").write_text("the old rules")
    write = Path.write_bytes
    calls: list[Path] = []

    def disk_full_at_the_second(path: Path, data: bytes) -> int:
        calls.append(path)
        if len(calls) == 2:  # half the file is written, then the disk is full
            write(path, data[: len(data) // 2])
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return write(path, data)

    monkeypatch.setattr(Path, "write_bytes", disk_full_at_the_second)
    assert main(["sheets", "--out", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert "No space left on device" in error and error.count("\n") == 1
    assert (tmp_path / "rules.pdf").read_text() == "the old rules"
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rules.pdf"]  # nothing half-written left


def test_sheets_written_again_take_the_place_of_the_old_ones_with_nothing_left_beside(tmp_path: Path) -> None:
    (tmp_path / "rules.pdf").write_text("the old rules")
    assert main(["sheets", "--out", str(tmp_path)]) == 0
    assert (tmp_path / "rules.pdf").read_bytes() == sheet_pdf("rules.pdf")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rules.pdf", "score-sheet.pdf"]
    assert (tmp_path / "rules.pdf").stat().st_mode & 0o444 == 0o444  # readable by all, as a file written at once


def test_without_reportlab_the_command_says_which_extra_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    for module in [name for name in sys.modules if name.startswith(("pardon.printables", "reportlab."))]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "reportlab", None)  # as if the print extra were not installed
    assert main(["sheets", "--out", str(tmp_path / "sheets")]) == 2
    assert capsys.readouterr().err == (
        "pardon sheets: the sheets need the print extra (no reportlab): in pardon's folder,"
        " .venv/bin/pip install -e '.[print]' (make setup installs every extra)\n"
    )
    assert not (tmp_path / "sheets").exists()
