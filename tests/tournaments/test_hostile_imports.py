"""Hostile team lists: decompression bombs, a sparse far cell, endless rows and repeated ODS
stretches, deeply nested or endless XML, entities, endless CSV lines and cells are refused
with a clear reason (bench/imports.py measures the memory and time of each), a refused upload
answers 4xx, and it leaves no preview behind to confirm."""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.publishing.test_libreoffice import libreoffice  # noqa: F401
from tests.tournaments import bombs
from tests.tournaments.test_team_import import read, xlsx
from tournaments.imports import (
    MAX_CELL_CHARS,
    MAX_COLUMNS,
    MAX_CSV_LINE_CHARS,
    MAX_FILE_BYTES,
    MAX_LINES,
    MAX_READ_LINES,
    MAX_TEAMS,
    MAX_UNPACKED_BYTES,
    MAX_XML_DEPTH,
    MAX_XML_ELEMENTS,
)

ODS_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
    '<office:body><office:spreadsheet><table:table table:name="Teams">'
)
ODS_TAIL = "</table:table></office:spreadsheet></office:body></office:document-content>"


def ods(rows_xml: str) -> bytes:
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet")
        archive.writestr("content.xml", ODS_HEAD + rows_xml + ODS_TAIL)
    return stream.getvalue()


def text_row(*texts: str, repeat: int = 1) -> str:
    cells = "".join(
        f'<table:table-cell office:value-type="string"><text:p>{t}</text:p></table:table-cell>'
        for t in texts
    )
    return f'<table:table-row table:number-rows-repeated="{repeat}">{cells}</table:table-row>'


HEADER = text_row("number", "name")


def test_a_decompression_bomb_is_refused_before_it_is_unpacked():
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/worksheets/sheet1.xml", b"\0" * (MAX_UNPACKED_BYTES + 1024))
    data = stream.getvalue()
    assert len(data) < 100_000  # a small file ...
    result = read(data, "bomb.xlsx")  # ... that would unpack to more than 20 MB
    [error] = result.file_errors
    assert "unpacks to 20 MB" in error and "at most 20 MB" in error
    assert read(data, "bomb.ods").file_errors == [error.replace(".xlsx", ".ods")]


def test_a_sparse_far_cell_is_refused_and_far_columns_are_not_read():
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["number", "name"])
    sheet.append([1, "Alpha"])
    sheet["A1048576"] = "far away"
    stream = io.BytesIO()
    book.save(stream)
    result = read(stream.getvalue(), "far.xlsx")
    assert result.file_errors == [
        f"the sheet goes on past line {MAX_LINES} (line 1048576 is not blank); a tournament "
        f"holds at most {MAX_TEAMS} teams"
    ]
    book = openpyxl.Workbook()
    book.active.append(["number", "name"])
    book.active.append([1, "Alpha"])
    book.active["XFD2"] = "far right"
    stream = io.BytesIO()
    book.save(stream)
    result = read(stream.getvalue(), "wide.xlsx")
    assert result.ok and [row.name for row in result.rows] == ["Alpha"]


def test_a_hundred_thousand_rows_are_refused_in_every_format():
    rows = [["number", "name"], *[[n, f"Team {n}"] for n in range(1, 100_001)]]
    csv_data = "\n".join(",".join(str(v) for v in row) for row in rows).encode()
    [error] = read(csv_data).file_errors
    assert error.startswith(f"the sheet goes on past line {MAX_LINES}")
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    for row in rows:
        sheet.append(row)
    stream = io.BytesIO()
    book.save(stream)
    [error] = read(stream.getvalue(), "long.xlsx").file_errors
    assert error.startswith(f"the sheet goes on past line {MAX_LINES}")
    repeated = ods(HEADER + text_row("1", "Same team", repeat=100_000))
    [error] = read(repeated, "long.ods").file_errors
    assert error.startswith(f"the sheet goes on past line {MAX_LINES}")


def test_ods_blank_stretches_and_wide_repeats_are_read_within_bounds():
    data = ods(
        HEADER + text_row("1", "Alpha") + '<table:table-row table:number-rows-repeated="1048000">'
        '<table:table-cell table:number-columns-repeated="16384"/></table:table-row>'
    )
    result = read(data, "blank-tail.ods")
    assert result.ok and [row.name for row in result.rows] == ["Alpha"]
    wide = ods(
        '<table:table-row><table:table-cell office:value-type="string"><text:p>name</text:p>'
        '</table:table-cell><table:table-cell table:number-columns-repeated="1000000" '
        'office:value-type="string"><text:p>note</text:p></table:table-cell></table:table-row>'
        + text_row("Beta")
    )
    result = read(wide, "wide.ods")
    assert result.ok and [row.name for row in result.rows] == ["Beta"]
    assert result.ignored_columns == ["note"] * (MAX_COLUMNS - 1)  # the rest never read


@pytest.mark.parametrize(
    ("data", "name"),
    [
        (b"PK\x03\x04 not really", "damaged.xlsx"),
        (ods("<table:table-row><broken>"), "broken.ods"),
        (xlsx([["number", "name"]]).replace(b"xl/workbook.xml", b"xl/workbook.xmX"), "odd.xlsx"),
    ],
)
def test_damaged_spreadsheets_get_one_clear_reason(data, name):
    [error] = read(data, name).file_errors
    assert "cannot be read" in error or "not a" in error


@pytest.mark.django_db
def test_a_refused_upload_leaves_no_preview_to_confirm(client):
    from tests.tournaments.factories import OrganiserFactory
    from tournaments import services

    client.force_login(OrganiserFactory())
    tournament = services.create_tournament(by=None, name="Cup", slug="cup", tables=2)
    url = reverse("tournaments:teams_import", args=[tournament.slug])
    good = SimpleUploadedFile("good.csv", b"number,name\n1,Alpha\n2,Beta\n")
    assert b"Import these 2 teams" in client.post(url, {"file": good}).content
    bad = SimpleUploadedFile("bad.csv", b"number,name\n1,\n")
    assert b"cannot be imported" in client.post(url, {"file": bad}).content
    confirm = reverse("tournaments:teams_import_confirm", args=[tournament.slug])
    response = client.post(confirm, follow=True)
    assert b"There is no checked file to import" in response.content
    assert not tournament.entrants.exists()


@pytest.mark.parametrize("fmt", ["xlsx", "ods"])
def test_files_saved_by_libreoffice_read_as_typed(libreoffice, tmp_path, fmt):  # noqa: F811
    """The streaming readers against a real office suite's files: shared and inline strings,
    numbers, formulas with their saved values, blank lines, an accented name."""
    import subprocess

    source = tmp_path / "teams.csv"
    source.write_text(
        'number,name,player1,player2\n1,Alpha,Ann,\n\n2,Bêta,="Bo"&"b",\n3,"Gamma, Delta",,Cy\n',
        encoding="utf-8",
    )
    done = subprocess.run(
        [
            libreoffice,
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--headless",
            "--convert-to",
            fmt,
            "--infilter=CSV:44,34,76,1",
            "--outdir",
            str(tmp_path),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    data = (tmp_path / f"teams.{fmt}").read_bytes()
    result = read(data, f"teams.{fmt}")
    assert result.ok, result.all_messages()
    assert [(row.line, row.number, row.name, row.player1, row.player2) for row in result.rows] == [
        (2, 1, "Alpha", "Ann", ""),
        (4, 2, "Bêta", "Bob", ""),
        (5, 3, "Gamma, Delta", "", "Cy"),
    ]


# The audit's bombs (tests/tournaments/bombs.py), each refused with its reason before any row
# is built; bench/imports.py measures the memory and time of each.


def test_the_audits_nested_xml_bombs_are_refused():
    for data, name in (
        (bombs.nested_xlsx(), "nested.xlsx"),
        (bombs.nested_ods(), "nested.ods"),
        (bombs.flat_elements_xlsx(), "flat.xlsx"),
    ):
        assert len(data) < 40_000, name  # some 20 kB that unpack to 4 to 18 MB of elements
        [error] = read(data, name).file_errors
        assert "times its packed size), more than a team list needs" in error, name


def test_deep_nesting_is_refused_whatever_the_compression():
    for data, name in (
        (bombs.nested_xlsx(100_000), "nested.xlsx"),
        (bombs.nested_workbook_xlsx(100_000), "nested-workbook.xlsx"),
        (bombs.nested_ods(100_000), "nested.ods"),
    ):
        assert read(data, name).file_errors == [  # refused at the 33rd level
            f"the spreadsheet's XML nests deeper than {MAX_XML_DEPTH} levels"
        ], name


def test_endless_elements_side_by_side_are_refused():
    assert read(bombs.flat_elements_xlsx(150_000), "flat.xlsx").file_errors == [
        f"the spreadsheet's XML holds more than {MAX_XML_ELEMENTS:,} elements"
    ]


def test_entities_and_dtds_are_refused():
    [error] = read(bombs.entities_xlsx(), "laughs.xlsx").file_errors
    assert "declares a DTD or entities" in error


def test_a_part_that_unpacks_a_thousand_times_over_is_refused_before_it_is_read():
    data = bombs.ratio_bomb_xlsx()
    assert len(data) < 100_000
    [error] = read(data, "ratio.xlsx").file_errors
    assert error.startswith("the spreadsheet's part xl/worksheets/sheet1.xml unpacks to 15360 kB")
    assert "more than a team list needs" in error
    [error] = read(bombs.zip_bomb_xlsx(64), "zeros.xlsx").file_errors
    assert "unpacks to 64 MB" in error


def test_two_and_a_half_million_csv_lines_are_refused_after_the_bound():
    data = bombs.long_csv()
    assert len(data) <= MAX_FILE_BYTES
    assert read(data).file_errors == [
        f"the sheet goes on past line {MAX_LINES} (line {MAX_LINES + 1} is not blank); a "
        f"tournament holds at most {MAX_TEAMS} teams"
    ]
    assert read(bombs.blank_tail_csv()).file_errors == [
        f"the sheet goes on for more than {MAX_READ_LINES} lines, blank past line {MAX_LINES}; "
        f"a tournament holds at most {MAX_TEAMS} teams"
    ]


def test_a_line_of_a_million_cells_and_a_cell_of_a_hundred_thousand_are_refused():
    assert read(bombs.wide_csv()).file_errors == [
        f"line 1 of the CSV file is longer than {MAX_CSV_LINE_CHARS} characters"
    ]
    long_name = b"name\n" + b"A" * 5000 + b"\n"
    assert read(long_name).file_errors == [
        f"line 2 has a cell longer than {MAX_CELL_CHARS} characters; a team list's cells are names"
    ]
    [error] = read(bombs.long_cell_xlsx(), "long.xlsx").file_errors
    assert error.startswith(f"line 2 has a cell longer than {MAX_CELL_CHARS} characters")


def test_a_file_that_is_not_utf8_or_holds_binary_is_refused():
    assert read("name\nBêta\n".encode("latin-1")).file_errors == [
        "the CSV file is not UTF-8 text (save it as 'CSV UTF-8')"
    ]
    assert read(b"name\nA\x00B\n").file_errors == ["this is not a CSV file (it holds binary data)"]


@pytest.mark.django_db
def test_a_refused_upload_answers_4xx_and_stores_nothing(client):
    from tests.tournaments.factories import OrganiserFactory
    from tournaments import services

    client.force_login(OrganiserFactory())
    tournament = services.create_tournament(by=None, name="Cup", slug="cup", tables=2)
    url = reverse("tournaments:teams_import", args=[tournament.slug])
    nested = SimpleUploadedFile("nested.xlsx", bombs.nested_xlsx())
    response = client.post(url, {"file": nested})
    assert response.status_code == 422
    assert "more than a team list needs" in response.content.decode()
    bad_rows = SimpleUploadedFile("bad.csv", b"number,name\n1,\n")
    assert client.post(url, {"file": bad_rows}).status_code == 422
    huge = SimpleUploadedFile("huge.csv", b"name\n" + b"A\n" * (MAX_FILE_BYTES // 2 + 1))
    response = client.post(url, {"file": huge})
    assert response.status_code == 413 and "larger than 5 MB" in response.content.decode()
    assert client.post(url, {}).status_code == 400  # no file at all
    good = SimpleUploadedFile("good.csv", b"number,name\n1,Alpha\n")
    assert client.post(url, {"file": good}).status_code == 200
    assert not tournament.entrants.exists()
