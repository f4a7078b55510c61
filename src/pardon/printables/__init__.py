"""Printable sheets as PDF: the classic rules on one page, and a score sheet made for Sorry!.

Needs the ``print`` extra (reportlab).  Each sheet is one page of US Letter (or of A4), and the
same pardon version always writes the same bytes:

===============================  ============================================================
``rules.pdf``                    the whole classic game on one page, with a board diagram
``score-sheet.pdf``              a match of wins, and Point Scoring Sorry game by game
``rules-a4.pdf``                 the rules on A4
``score-sheet-a4.pdf``           the score sheet on A4
===============================  ============================================================
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Final

from pardon.printables.layout import PAPERS
from pardon.printables.rules_sheet import rules_pdf
from pardon.printables.score_sheet import score_sheet_pdf

SHEETS: Final[dict[str, Callable[[str], bytes]]] = {"rules": rules_pdf, "score-sheet": score_sheet_pdf}


def file_name(sheet: str, paper: str) -> str:
    """``rules.pdf`` for Letter, ``rules-a4.pdf`` for A4."""
    return f"{sheet}.pdf" if paper == "letter" else f"{sheet}-{paper}.pdf"


#: Every file name a sheet can have, with the sheet and paper it is.
FILES: Final[dict[str, tuple[str, str]]] = {
    file_name(sheet, paper): (sheet, paper) for paper in PAPERS for sheet in SHEETS
}


@cache  # the same bytes every time: make each file once per process
def sheet_pdf(name: str) -> bytes:
    """The PDF bytes of a file of :data:`FILES`; ``KeyError`` for any other name."""
    sheet, paper = FILES[name]
    return SHEETS[sheet](paper)


def write_sheets(directory: Path, papers: Iterable[str] = ("letter",)) -> list[Path]:
    """Write every sheet on each paper into ``directory`` (made if missing); returns the files
    written.  All or nothing: every sheet is drawn, then written beside its place under another
    name, and only once all are written do they take their names, so a sheet that cannot be
    drawn or written (a full disk, a file write-protected) leaves the folder as it was."""
    pages = {
        directory / file_name(sheet, paper): sheet_pdf(file_name(sheet, paper)) for paper in papers for sheet in SHEETS
    }
    directory.mkdir(parents=True, exist_ok=True)
    for path in pages:  # what would stop a sheet taking its place is refused before any is written
        if path.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if path.exists() and not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), str(path))
    parts = {path: path.with_name(f".{path.name}.{os.getpid()}.part") for path in pages}  # this process's own
    try:
        for path, pdf in pages.items():
            parts[path].write_bytes(pdf)  # made as a sheet written at once would be, the umask deciding who reads it
    except BaseException:
        for part in parts.values():
            part.unlink(missing_ok=True)
        raise
    for path, part in parts.items():
        os.replace(part, path)
    return list(pages)


__all__ = ["FILES", "PAPERS", "SHEETS", "file_name", "sheet_pdf", "write_sheets"]
