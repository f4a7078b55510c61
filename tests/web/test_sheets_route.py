"""The printable sheets over HTTP: ``GET /sheets/{name}`` answers the PDF, 404 for any other name.

The sheets touch no database, so one server on a SQLite file serves every test here.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from pardon.web.app import create_app
from pardon.web.settings import Settings, sqlite_url

pytest.importorskip("reportlab")
pypdf = pytest.importorskip("pypdf")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = sqlite_url(tmp_path_factory.mktemp("sheets") / "games.sqlite3")
    with TestClient(create_app(Settings(database=database))) as client:
        yield client


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


def test_without_reportlab_the_server_says_which_extra_to_install(
    server: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    for module in [name for name in sys.modules if name.startswith(("pardon.printables", "reportlab."))]:
        monkeypatch.delitem(sys.modules, module)
    monkeypatch.setitem(sys.modules, "reportlab", None)  # as if the print extra were not installed
    response = server.get("/sheets/rules.pdf")
    assert response.status_code == 503
    assert "pip install -e '.[print]'" in response.text
