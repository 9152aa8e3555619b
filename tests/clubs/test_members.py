"""A club's member list: typed, imported through the hardened reader, all or nothing."""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pytest

from clubs import selectors, services
from clubs.imports import MemberRow, read_member_file
from clubs.models import Member
from clubs.services import ClubError, NotAllowed
from tests.tournaments.bombs import xlsx_with
from tournaments.models import ActionLog


def read(data: bytes, name: str = "members.csv"):
    return read_member_file(io.BytesIO(data), name, len(data))


def xlsx(rows: list[list[object]]) -> bytes:
    book = openpyxl.Workbook()
    for row in rows:
        book.active.append(row)
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def test_a_csv_gives_members_with_their_lines_and_flags():
    result = read(b"Member No;Name;E-mail;Active;Public\n101;Ann;a@x;yes;\n102;Bob;;no;no\n")
    assert result.ok, result.all_messages()
    assert [(r.line, r.number, r.name, r.contact, r.active, r.public) for r in result.rows] == [
        (2, "101", "Ann", "a@x", True, True),
        (3, "102", "Bob", "", False, False),
    ]


def test_an_xlsx_number_cell_is_a_member_number_without_a_point():
    result = read(xlsx([["number", "name"], [7, "Ann"], ["A 12", "Bob"]]), "members.xlsx")
    assert result.ok, result.all_messages()
    assert [row.number for row in result.rows] == ["7", "A12"]


def test_duplicate_numbers_in_the_file_are_named_by_line():
    result = read(b"number,name\n101,Ann\n102,Bob\n101,Cy\n")
    assert not result.ok
    assert result.problems == ["line 4: member number 101 is also on line 2"]


def test_bad_rows_are_all_reported():
    result = read(b"number,name,active\n,Ann,yes\n102,,maybe\n")
    assert result.problems == [
        "line 2: the member number is missing",
        "line 3: the name is missing; active 'maybe' is not yes or no",
    ]


def test_a_missing_column_is_a_file_error():
    result = read(b"name,phone\nAnn,1\n")
    assert result.file_errors and "no 'number' column" in result.file_errors[0]


def test_a_hostile_spreadsheet_is_refused_by_the_shared_reader():
    sheet = '<!DOCTYPE x [<!ENTITY a "b">]><worksheet/>'
    result = read(xlsx_with(sheet), "members.xlsx")
    assert result.file_errors and "DTD" in result.file_errors[0]


def test_import_stores_every_row(club, organiser):
    rows = [MemberRow(2, "1", "Ann"), MemberRow(3, "2", "Bob", public=False)]
    services.import_members(by=organiser, club=club, rows=rows)
    assert list(club.members.values_list("number", "name", "public")) == [
        ("1", "Ann", True),
        ("2", "Bob", False),
    ]
    assert ActionLog.objects.filter(action="import_members").count() == 1


def test_import_against_the_list_stores_nothing(club, organiser, members):
    rows = [MemberRow(2, "900", "New"), MemberRow(3, "101", "Again"), MemberRow(4, "900", "Twice")]
    with pytest.raises(ClubError) as refused:
        services.import_members(by=organiser, club=club, rows=rows)
    assert refused.value.messages == [
        "line 3: member number 101 is already 'Ann Smith''s",
        "line 4: member number 900 is also on line 2",
    ]
    assert club.members.count() == 4


def test_a_member_number_is_unique_in_its_club_only(club, organiser, members, rival):
    with pytest.raises(ClubError, match="already 'Ann Smith'"):
        services.add_member(by=organiser, club=club, number="101", name="Other")
    hillside = selectors.clubs_of(rival)[0]
    services.add_member(by=rival, club=hillside, number="101", name="Other")
    assert Member.objects.filter(number="101").count() == 2


def test_another_clubs_organiser_may_not_change_the_list(club, rival, members):
    with pytest.raises(NotAllowed):
        services.add_member(by=rival, club=club, number="9", name="Intruder")
    with pytest.raises(NotAllowed):
        services.update_member(by=rival, member=members[0], name="Changed")
    assert not club.members.filter(number="9").exists()


def test_the_contact_never_reaches_the_log(club, organiser, members):
    services.update_member(by=organiser, member=members[0], contact="secret@x", name="Ann S.")
    entry = ActionLog.objects.get(action="update_member")
    assert "secret" not in str(entry.before) + str(entry.after) + entry.summary
    assert entry.after["name"] == "Ann S."


def test_suggestions_by_number_and_name(club, members):
    assert [m.name for m in selectors.suggestions(club, "smith")] == ["Ann Smith", "Cy Smith"]
    assert [m.number for m in selectors.suggestions(club, "10")] == ["101", "102", "103", "104"]
    assert [m.number for m in selectors.suggestions(club, "103")] == ["103"]
    assert selectors.suggestions(club, "  ") == []


def test_blank_text_cells_of_a_spreadsheet_are_blank_and_french_titles_are_understood():
    # openpyxl writes a blank text cell as an inline string without its text element.
    header = ["N°", "Nom", "Courriel", "Actif"]
    data = xlsx([header, [101, "Ann", "", ""], [102, "Bob", "b@x", "non"]])
    assert b't="inlineStr"' in zipped_sheet(data)
    result = read(data, "members.xlsx")
    assert result.ok, result.all_messages()
    assert [(r.number, r.name, r.contact, r.active) for r in result.rows] == [
        ("101", "Ann", "", True),
        ("102", "Bob", "b@x", False),
    ]


def zipped_sheet(data: bytes) -> bytes:
    return zipfile.ZipFile(io.BytesIO(data)).read("xl/worksheets/sheet1.xml")
