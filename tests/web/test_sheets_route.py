"""The printable sheets over HTTP: ``GET /sheets/{name}`` answers the PDF, 404 for any other name."""

from __future__ import annotations

import io

import pytest
from fastapi.testclient import TestClient

pytest.importorskip("reportlab")
pypdf = pytest.importorskip("pypdf")


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("rules.pdf", (612, 792)),
        ("score-sheet.pdf", (612, 792)),
        ("rules-a4.pdf", (595, 842)),
        ("score-sheet-a4.pdf", (595, 842)),
    ],
)
def test_a_sheet_is_served_as_a_one_page_pdf(server: TestClient, name: str, size: tuple[int, int]) -> None:
    response = server.get(f"/sheets/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/pdf"
    assert f'filename="{name}"' in response.headers["content-disposition"]
    pdf = pypdf.PdfReader(io.BytesIO(response.content))
    assert len(pdf.pages) == 1
    box = pdf.pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == size


def test_the_same_sheet_twice_is_the_same_file(server: TestClient) -> None:
    first = server.get("/sheets/rules.pdf").content
    assert server.get("/sheets/rules.pdf").content == first
    assert b"Safety Zone" in pypdf.PdfReader(io.BytesIO(first)).pages[0].extract_text().encode()


@pytest.mark.parametrize("name", ["rules", "rules.PDF", "score.pdf", "rules-letter.pdf", "pages.py"])
def test_any_other_name_is_not_found_and_the_answer_lists_the_sheets(server: TestClient, name: str) -> None:
    response = server.get(f"/sheets/{name}")
    assert response.status_code == 404
    assert "rules.pdf" in response.text and "score-sheet.pdf" in response.text


def test_no_path_reaches_outside_the_sheets(server: TestClient) -> None:
    for path in ("/sheets/..%2Fpages.py", "/sheets/../web/pages.py", "/sheets/"):
        response = server.get(path)
        assert response.status_code == 404
        assert response.headers["content-type"] != "application/pdf"
