"""The writers on their own (no database): splitting long sheets, fixed times, ODS and CSV
structure, text a spreadsheet cannot hold."""

from __future__ import annotations

import io
import zipfile
from datetime import UTC, datetime
from xml.dom import minidom

import openpyxl
import pandas as pd
import pytest

from publishing.exports.csvzip import write_csv_zip
from publishing.exports.fixedzip import FixedTimeZipFile, zip_time
from publishing.exports.ods import write_ods
from publishing.exports.sheets import Column, SheetSpec, Stamp, split_blocks
from publishing.exports.synthetic import synthetic_tournament
from publishing.exports.workbook import build_sheets
from publishing.exports.xlsx import write_xlsx


def spec(blocks: list[list[tuple]]) -> SheetSpec:
    return SheetSpec(
        name="Tables",
        slug="tables",
        title="t",
        columns=[Column("n")],
        row_count=sum(len(b) for b in blocks),
        blocks=lambda: iter(blocks),
    )


def parts(sheet: SheetSpec, max_rows: int) -> list[tuple[str, list[int]]]:
    return [(name, [len(b) for b in blocks]) for name, blocks in split_blocks(sheet, max_rows)]


def rows(n: int) -> list[tuple]:
    return [(i,) for i in range(n)]


def test_a_short_sheet_keeps_its_name():
    assert parts(spec([rows(3), rows(2)]), 10) == [("Tables", [3, 2])]
    assert parts(spec([]), 10) == [("Tables", [])]


def test_a_long_sheet_is_split_between_blocks():
    assert parts(spec([rows(4), rows(4), rows(4)]), 9) == [
        ("Tables 1", [4, 4]),
        ("Tables 2", [4]),
    ]


def test_a_block_longer_than_a_sheet_is_cut_to_fill_the_sheets():
    assert parts(spec([rows(2), rows(12), rows(1)]), 5) == [
        ("Tables 1", [2, 3]),
        ("Tables 2", [5]),
        ("Tables 3", [4, 1]),
    ]


def test_split_needs_room_for_a_row():
    with pytest.raises(ValueError, match="at least one data row"):
        list(split_blocks(spec([rows(1)]), 0))


def test_zip_entries_carry_the_given_time(tmp_path):
    moment = datetime(2025, 3, 1, 14, 3, 9, tzinfo=UTC)
    path = tmp_path / "a.zip"
    source = tmp_path / "big.txt"
    source.write_text("x" * 1000)
    with FixedTimeZipFile(path, zip_time(moment)) as archive:
        archive.writestr("one.txt", "1")
        archive.write(str(source), "two.txt")
    infos = zipfile.ZipFile(path).infolist()
    assert {info.date_time for info in infos} == {(2025, 3, 1, 14, 3, 8)}  # 2-second steps
    assert zip_time(None) == (1980, 1, 1, 0, 0, 0)


def test_big_tables_are_split_across_sheets(tmp_path):
    data = synthetic_tournament(6)  # 36 matches: 72 table results
    sheets = build_sheets(data)
    path = tmp_path / "cup.xlsx"
    written = write_xlsx(sheets, path, data.stamp, max_sheet_rows=3 + 30)
    book = openpyxl.load_workbook(path)
    tables = [name for name in book.sheetnames if name.startswith("Tables")]
    entrants = [name for name in book.sheetnames if name.startswith("Teams")]
    assert tables == ["Tables 1", "Tables 2", "Tables 3"]
    assert entrants == ["Teams 1", "Teams 2", "Teams 3"]
    counts = [book[name].max_row - 3 for name in tables]
    # Blocks of 6 (one table and side over the 6 rounds) are never cut between sheets.
    assert counts == [30, 30, 12]
    for name in tables:
        sheet = book[name]
        assert sheet["A3"].value == "Table" and sheet.freeze_panes == "A4"
        assert sheet.auto_filter.ref == f"A3:K{sheet.max_row}"
    assert written == sum(sheet.row_count for sheet in sheets)


def test_the_same_data_gives_the_same_bytes(tmp_path):
    data = synthetic_tournament(4)
    for suffix, write in (("xlsx", write_xlsx), ("ods", write_ods), ("zip", write_csv_zip)):
        first, second = tmp_path / f"1.{suffix}", tmp_path / f"2.{suffix}"
        write(build_sheets(data), first, data.stamp)
        write(build_sheets(data), second, data.stamp)
        assert first.read_bytes() == second.read_bytes(), suffix


def test_workbook_properties_carry_the_computation_time(tmp_path):
    data = synthetic_tournament(3)
    path = tmp_path / "cup.xlsx"
    write_xlsx(build_sheets(data), path, data.stamp)
    properties = openpyxl.load_workbook(path).properties
    assert properties.created == properties.modified == datetime(2025, 6, 1, 18, 30)


def test_the_places_chart_draws_the_leaders(tmp_path):
    data = synthetic_tournament(12)  # 24 teams, more than the chart draws
    data.chart_lines = 5
    path = tmp_path / "cup.xlsx"
    write_xlsx(build_sheets(data), path, data.stamp)
    book = openpyxl.load_workbook(path)
    [chart] = book["Places chart"]._charts
    assert len(chart.series) == 5
    places = book["Places"]
    assert places.max_row == 3 + 12 and places.max_column == 1 + 24
    leaders = data.standings["team"].tolist()[:5]
    assert places.cell(3, 2 + leaders[0]).value.startswith(f"{leaders[0] + 1}. ")


def test_ods_is_well_formed_and_typed(tmp_path):
    data = synthetic_tournament(3)
    path = tmp_path / "cup.ods"
    write_ods(build_sheets(data), path, data.stamp, max_sheet_rows=3 + 10)
    archive = zipfile.ZipFile(path)
    first = archive.infolist()[0]
    assert first.filename == "mimetype" and first.compress_type == zipfile.ZIP_STORED
    assert archive.read("mimetype") == b"application/vnd.oasis.opendocument.spreadsheet"
    for name in ("content.xml", "settings.xml", "meta.xml", "styles.xml", "META-INF/manifest.xml"):
        minidom.parseString(archive.read(name))  # raises on malformed XML
    sheets = pd.read_excel(path, engine="odf", sheet_name=None, header=2)
    assert [name for name in sheets if name.startswith("Tables")] == ["Tables 1", "Tables 2"]
    assert pd.api.types.is_numeric_dtype(sheets["Tables 1"]["Score"])
    assert b"VerticalSplitPosition" in archive.read("settings.xml")
    assert b"table:database-range" in archive.read("content.xml")


def test_text_a_spreadsheet_cannot_hold_is_dropped(tmp_path):
    data = synthetic_tournament(2)
    data.entrants.loc[0, "name"] = "Bell\x07 & <Co>"
    sheet = build_sheets(data)[0]
    stamp = Stamp("Cup", "Provisional standings.", None)
    ods_path = tmp_path / "cup.ods"
    write_ods([sheet], ods_path, stamp)
    names = pd.read_excel(ods_path, engine="odf", header=2)["Team"].tolist()
    assert "Bell & <Co>" in names


def test_csv_zip_is_plain_tables(tmp_path):
    data = synthetic_tournament(3)
    path = tmp_path / "cup.zip"
    write_csv_zip(build_sheets(data), path, data.stamp)
    archive = zipfile.ZipFile(path)
    raw = archive.read("02-tables.csv")
    assert raw.startswith(b"\xef\xbb\xbfTable,Board,Side,Ranking points")
    tables = pd.read_csv(io.BytesIO(raw), encoding="utf-8-sig")
    assert len(tables) == 18 and tables["Score"].dtype.kind in "if"
    about = pd.read_csv(io.BytesIO(archive.read("about.csv")), encoding="utf-8-sig")
    assert about.set_index("key").loc["computed_at", "value"].startswith("2025-06-01T18:30")


def test_every_sheet_prints_on_a4_at_the_pages_width_with_its_headers_repeated(tmp_path):
    data = synthetic_tournament(15)  # 30 teams
    sheets = build_sheets(data)
    path = tmp_path / "print.xlsx"
    write_xlsx(sheets, path, data.stamp)
    book = openpyxl.load_workbook(path)
    for spec in sheets:
        ws = book[spec.name]
        setup = ws.page_setup
        assert setup.paperSize == 9 and setup.fitToWidth == 1, spec.name
        assert ws.sheet_properties.pageSetUpPr.fitToPage, spec.name
        wide = sum(column.width for column in spec.columns) > 95
        assert setup.orientation == ("landscape" if wide else "portrait"), spec.name
        assert ws.oddFooter.center.text == "Page &P of &N"
        if spec.tabular:
            assert ws.print_title_rows == "$1:$3", spec.name
        if len(spec.columns) > 1:  # the title spans the table: printing never cuts it
            assert f"A1:{openpyxl.utils.get_column_letter(len(spec.columns))}1" in {
                str(r) for r in ws.merged_cells.ranges
            }
    standings = book["Standings"]
    assert standings.max_row - 3 == 30 and standings.page_setup.fitToHeight == 1
    assert any(
        spec.row_count > 40 and book[spec.name].page_setup.fitToHeight == 0 for spec in sheets
    )
