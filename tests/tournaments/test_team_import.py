"""Team lists from CSV and spreadsheets: the preview, every bad row by line, all or nothing."""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pandas as pd
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.imports import MAX_LINES, MAX_TEAMS, read_entrant_file

GOOD_CSV = "number,name,player1,player2\n1,Alpha,Ann,Al\n2,Beta,Bea,Ben\n3,Gamma,,\n"


def read(data: bytes, name: str = "teams.csv"):
    return read_entrant_file(io.BytesIO(data), name, len(data))


def xlsx(rows: list[list[object]]) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


# --- reading ------------------------------------------------------------------------------


def test_a_good_csv_gives_rows_with_their_lines():
    result = read(GOOD_CSV.encode())
    assert result.ok
    assert [(r.line, r.number, r.name, r.player1, r.player2) for r in result.rows] == [
        (2, 1, "Alpha", "Ann", "Al"),
        (3, 2, "Beta", "Bea", "Ben"),
        (4, 3, "Gamma", "", ""),
    ]


def test_semicolons_bom_header_spellings_and_extra_columns():
    data = "\ufeffTeam No;Team Name;Player A;Player B;Club\n1;Alpha;Ann;Al;X\n".encode()
    result = read(data)
    assert result.ok, result.all_messages()
    assert result.rows[0].name == "Alpha" and result.rows[0].player2 == "Al"
    assert result.ignored_columns == ["Club"]


def test_without_a_number_column_rows_have_no_number():
    result = read(b"name\nAlpha\nBeta\n")
    assert result.ok
    assert [row.number for row in result.rows] == [None, None]


def test_blank_lines_are_skipped_but_counted():
    result = read(b"number,name\n1,Alpha\n\n3,Gamma,\n,\n5,\n")
    assert [(row.line, row.name) for row in result.rows] == [(2, "Alpha"), (4, "Gamma")]
    assert [str(problem) for problem in result.problems] == ["line 6: the team name is missing"]


def test_a_good_xlsx_with_numbers_stored_as_numbers():
    data = xlsx([["Number", "Name", "Player1"], [1, "Alpha", "Ann"], [2.0, "Beta", None]])
    result = read(data, "teams.xlsx")
    assert result.ok, result.all_messages()
    assert [(row.line, row.number, row.name, row.player1) for row in result.rows] == [
        (2, 1, "Alpha", "Ann"),
        (3, 2, "Beta", ""),
    ]


def test_xlsx_line_numbers_count_empty_rows():
    data = xlsx([["number", "name"], [1, "Alpha"], [None, None], [3, None]])
    result = read(data, "teams.xlsx")
    assert [str(problem) for problem in result.problems] == ["line 4: the team name is missing"]


def test_a_good_ods():
    stream = io.BytesIO()
    pd.DataFrame({"number": [1, 2], "name": ["Alpha", "Beta"]}).to_excel(
        stream, engine="odf", index=False
    )
    result = read(stream.getvalue(), "teams.ods")
    assert result.ok, result.all_messages()
    assert [row.name for row in result.rows] == ["Alpha", "Beta"]


@pytest.mark.parametrize(
    "data, name, expected",
    [
        (b"", "teams.csv", "the file is empty"),
        (b"   \n\n", "teams.csv", "the file is empty"),
        (b"number,name\n", "teams.csv", "the column names but no teams"),
        (b"\n\nnumber,name\n1,A\n", "teams.csv", "line 1 is blank"),
        (
            b"entrant_id,title\n1,Alpha\n",
            "teams.csv",
            "no 'name' column (columns found: 'entrant_id'",
        ),
        (b"name,team\nA,B\n", "teams.csv", "two columns mean 'name'"),
        (b"number,name\n1,A\n", "teams.txt", "must end in .csv, .xlsx or .ods"),
        ("number,name\n1,Äpfel\n".encode("latin-1"), "teams.csv", "not UTF-8"),
        (b"PK\x03\x04 this is no spreadsheet", "teams.xlsx", "not a .xlsx spreadsheet"),
        (b"number,name\n1,Alpha\n", "teams.xlsx", "not a .xlsx spreadsheet"),
        (b"\x00\x01\x02binary", "teams.csv", "not a CSV file"),
    ],
)
def test_broken_files_give_one_clear_reason(data, name, expected):
    result = read(data, name)
    assert not result.ok
    assert not result.rows
    assert any(expected in message for message in result.file_errors), result.file_errors


def test_a_zip_that_is_not_a_workbook():
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr("hello.txt", "not a workbook")
    result = read(stream.getvalue(), "teams.xlsx")
    assert result.file_errors
    assert result.file_errors[0].startswith("the .xlsx spreadsheet cannot be read")


def test_every_bad_row_is_listed_with_its_line_and_reason():
    data = (
        "number,name,player1\n"
        "1,Alpha,Ann\n"
        "x,Beta,\n"
        "2,,Bo\n"
        "1,Again,\n"
        "0,Zero,\n"
        "2.5,Half,\n"
        f"4,{'N' * 101},\n"
        ",Nameless number,\n"
    ).encode()
    result = read(data)
    assert [str(problem) for problem in result.problems] == [
        "line 3: team number 'x' is not a whole number",
        "line 4: the team name is missing",
        "line 5: team number 1 is also on line 2",
        "line 6: team number '0' must be a whole number from 1 up",
        "line 7: team number '2.5' must be a whole number from 1 up",
        "line 8: the team name is longer than 100 characters",
        "line 9: the team number is missing",
    ]
    assert [row.line for row in result.rows] == [2]


def test_ten_thousand_rows_are_refused_as_a_whole():
    lines = ["number,name"] + [f"{n},Team {n}" for n in range(1, 10_001)]
    result = read("\n".join(lines).encode())
    assert result.file_errors == [
        f"the sheet goes on past line {MAX_LINES} (line {MAX_LINES + 1} is not blank); "
        f"a tournament holds at most {MAX_TEAMS} teams"
    ]
    assert not result.rows
    # Within the lines read, more teams than a tournament holds are counted.
    lines = ["number,name"] + [f"{n},Team {n}" for n in range(1, 1_501)]
    result = read("\n".join(lines).encode())
    assert result.file_errors == [
        f"the file lists 1500 teams; a tournament holds at most {MAX_TEAMS}"
    ]


def test_ten_thousand_rows_in_a_spreadsheet_too():
    data = xlsx([["number", "name"], *[[n, f"Team {n}"] for n in range(1, 10_001)]])
    result = read(data, "big.xlsx")
    assert result.file_errors == [
        f"the sheet goes on past line {MAX_LINES} (line {MAX_LINES + 1} is not blank); "
        f"a tournament holds at most {MAX_TEAMS} teams"
    ]
    assert not result.rows


# --- the pages ----------------------------------------------------------------------------


def upload(client, tournament, data: bytes, name: str, replace: bool = False):
    return client.post(
        reverse("tournaments:teams_import", args=[tournament.slug]),
        {"file": SimpleUploadedFile(name, data), **({"replace": "on"} if replace else {})},
    )


@pytest.mark.django_db
def test_upload_preview_then_confirm(organiser_client, draft):
    data = b"number,name,player1,player2\n5,Epsilon,Eve,Ed\n6,Zeta,Zoe,\n"
    response = upload(organiser_client, draft, data, "more.csv")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Preview: 2 teams from more.csv" in page
    assert "Epsilon" in page
    assert draft.entrants.count() == 4  # nothing saved yet
    response = organiser_client.post(reverse("tournaments:teams_import_confirm", args=[draft.slug]))
    assert response.status_code == 302
    assert list(draft.entrants.filter(number__gte=5).values_list("number", "name", "player1")) == [
        (5, "Epsilon", "Eve"),
        (6, "Zeta", "Zoe"),
    ]
    assert draft.log_entries.filter(action="import_teams").count() == 2  # fixture + this one
    # The checked rows are used once.
    response = organiser_client.post(
        reverse("tournaments:teams_import_confirm", args=[draft.slug]), follow=True
    )
    assert "There is no checked file to import" in response.content.decode()
    assert draft.entrants.count() == 6


@pytest.mark.django_db
def test_upload_with_bad_rows_lists_them_and_imports_nothing(organiser_client, draft):
    data = b"number,name\n5,Good\n6,\n2,Clash\n5,Twice\n"
    response = upload(organiser_client, draft, data, "bad.csv")
    page = response.content.decode()
    assert "bad.csv cannot be imported" in page
    assert "line 3: the team name is missing" in page
    assert "line 4: team number 2 is already used by &#x27;Team 2&#x27;" in page
    assert "line 5: team number 5 is also on line 2" in page
    assert "Import these" not in page
    response = organiser_client.post(reverse("tournaments:teams_import_confirm", args=[draft.slug]))
    assert draft.entrants.count() == 4


@pytest.mark.django_db
def test_upload_a_spreadsheet_replacing_the_entrants(organiser_client, draft):
    data = xlsx([["name", "player1", "player2"], ["Solo", "A", "B"], ["Duo", "C", "D"]])
    response = upload(organiser_client, draft, data, "new.xlsx", replace=True)
    assert "The current teams will be removed first" in response.content.decode()
    organiser_client.post(reverse("tournaments:teams_import_confirm", args=[draft.slug]))
    assert list(draft.entrants.values_list("number", "name")) == [(1, "Solo"), (2, "Duo")]


@pytest.mark.django_db
def test_upload_of_a_fake_spreadsheet_and_of_ten_thousand_rows(organiser_client, draft):
    response = upload(organiser_client, draft, b"just text", "teams.xlsx")
    assert "not a .xlsx spreadsheet" in response.content.decode()
    lines = ["name"] + [f"Team {n}" for n in range(10_000)]
    response = upload(organiser_client, draft, "\n".join(lines).encode(), "big.csv")
    assert f"the sheet goes on past line {MAX_LINES}" in response.content.decode()
    assert draft.entrants.count() == 4


@pytest.mark.django_db
def test_import_is_refused_once_scheduled(organiser_client, scheduled):
    upload(organiser_client, scheduled, b"name\nLate\n", "late.csv")
    response = organiser_client.post(
        reverse("tournaments:teams_import_confirm", args=[scheduled.slug]), follow=True
    )
    assert "You cannot import teams while the tournament is scheduled" in (
        response.content.decode()
    )
    assert scheduled.entrants.count() == 14
