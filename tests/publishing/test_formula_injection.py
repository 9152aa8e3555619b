"""Exports carry data, never formulas: team names and reasons that look like formulas are
stored as text in the workbook and the ODS file, and neutralised in CSV (OWASP)."""

from __future__ import annotations

import csv
import io
import zipfile

import pytest

from publishing import services
from publishing.exports.sheets import csv_safe, is_formula_like
from tests.publishing.test_libreoffice import convert_to_csv, libreoffice  # noqa: F401
from tournaments.models import Entrant

pytestmark = pytest.mark.django_db

HOSTILE = [
    "=1+1",
    '=HYPERLINK("http://example.invalid","click")',
    "+SUM(1,2)",
    "-2+3",
    "@SUM(1,1)",
    "\tTab=1",
    "#N/A",
]


@pytest.fixture
def hostile_cup(cup, play_all):
    for entrant, name in zip(cup.entrants, HOSTILE, strict=False):
        Entrant.objects.filter(pk=entrant.pk).update(
            name=name, player1=HOSTILE[-1 - entrant.number]
        )
    play_all(cup)
    return cup


def is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def export(cup, fmt: str) -> bytes:
    done, _ = services.request_export(
        tournament=cup.tournament, kind="results", fmt=fmt, enqueue=False
    )
    path = services.export_path(services.run_export(done.pk))
    assert path is not None
    return path.read_bytes()


def test_the_workbook_holds_every_hostile_name_as_text(hostile_cup):
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(export(hostile_cup, "xlsx")))
    seen = {}
    for sheet in book.worksheets:
        for row in sheet.iter_rows():
            for cell in row:
                assert cell.data_type != "f", (sheet.title, cell.coordinate, cell.value)
                if cell.value in HOSTILE:
                    seen[cell.value] = cell.data_type
    assert set(seen) == set(HOSTILE[:4])  # the four teams' names, each as text
    assert set(seen.values()) == {"s"}


def test_the_csv_neutralises_formula_starts(hostile_cup):
    with zipfile.ZipFile(io.BytesIO(export(hostile_cup, "csv"))) as archive:
        fields = [
            field
            for name in archive.namelist()
            for row in csv.reader(io.StringIO(archive.read(name).decode("utf-8-sig")))
            for field in row
        ]
    assert "'=1+1" in fields and "'+SUM(1,2)" in fields and "'-2+3" in fields
    assert not [field for field in fields if is_formula_like(field) and not is_number(field)]


def test_csv_safe_keeps_numbers_and_plain_text():
    row = [-21, 3.5, "North", "=A1", "-x", "@y", "\tz", "\rw", "+1", ""]
    assert csv_safe(row) == [-21, 3.5, "North", "'=A1", "'-x", "'@y", "'\tz", "'\rw", "'+1", ""]
    plain = (1, "a")
    assert csv_safe(plain) is plain


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_libreoffice_shows_the_names_not_their_results(libreoffice, hostile_cup, tmp_path, fmt):  # noqa: F811
    source = tmp_path / f"hostile.{fmt}"
    source.write_bytes(export(hostile_cup, fmt))
    sheets = convert_to_csv(libreoffice, source, tmp_path)
    cells = {cell for rows in sheets.values() for row in rows for cell in row}
    for name in HOSTILE[:4]:
        assert name in cells, name  # shown as typed: run as a formula, "=1+1" would read 2
