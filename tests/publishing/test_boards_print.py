"""Twenty's workbook Boards sheet prints legibly: A4 landscape fitted to the page's width, the
title and header rows on every page, and every row as tall as its text (a result of a hundred
characters takes two or three lines of its column, and the row has room for them all). The
OpenDocument file leaves the row heights to LibreOffice, which fits them to the text."""

from __future__ import annotations

import io
import math
import textwrap
import zipfile

import pytest

from publishing.exports.sheets import text_lines
from tests.publishing.conftest import workbook
from tests.publishing.test_pyramid_export import export_file
from tests.scoring.test_twenty_web import play_two_rounds, twenty_event

pytestmark = pytest.mark.django_db

# What the test takes for a printed line, independently of the writer: Excel's Calibri 11 shows
# about 46 characters of a sentence on a line of a 40-wide column (LibreOffice more), and a
# line of 11-point text needs 14 points.
CHARACTERS_PER_WIDTH = 46 / 40
POINTS_PER_LINE = 14
DEFAULT_ROW_HEIGHT = 15
# A landscape A4 page holds about 150 units of column width at 100 %: a sheet up to 215 wide
# prints at 70 % or more when fitted to the page's width.
LEGIBLE_WIDTH = 215


def lines_of(text: str, width: float) -> int:
    return len(textwrap.wrap(text, math.floor(width * CHARACTERS_PER_WIDTH))) or 1


@pytest.fixture
def played():
    tournament = twenty_event(slug="twenty-print")
    play_two_rounds(tournament)
    return tournament


def test_the_boards_sheet_prints_on_a4_and_every_text_fits_its_row(played):
    sheet = workbook(export_file(played))["Boards"]
    setup = sheet.page_setup
    assert (setup.paperSize, setup.orientation) == (9, "landscape")  # 9: A4
    assert sheet.sheet_properties.pageSetUpPr.fitToPage
    assert (setup.fitToWidth, setup.fitToHeight) == (1, 0)  # the width on a page, many pages
    assert sheet.print_title_rows == "$1:$3"
    widths = {
        letter: sheet.column_dimensions[letter].width
        for letter in (cell.column_letter for cell in sheet[3])
    }
    assert sum(widths.values()) <= LEGIBLE_WIDTH, widths
    tallest = 0
    checked = 0
    for row in sheet.iter_rows(min_row=4):
        height = sheet.row_dimensions[row[0].row].height or DEFAULT_ROW_HEIGHT
        for cell in row:
            if not isinstance(cell.value, str):
                continue
            lines = lines_of(cell.value, widths[cell.column_letter])
            tallest = max(tallest, lines)
            checked += 1
            if lines > 1:
                assert cell.alignment.wrap_text, (cell.coordinate, cell.value)
            assert lines * POINTS_PER_LINE <= height, (cell.coordinate, cell.value, height)
        if height > DEFAULT_ROW_HEIGHT:
            assert all(cell.alignment.vertical == "top" for cell in row), row[0].row
    # The check bites: results of two lines or more were printed.
    assert tallest >= 2 and checked > 32


def test_the_opendocument_boards_rows_fit_their_text(played):
    with zipfile.ZipFile(io.BytesIO(export_file(played, fmt="ods"))) as archive:
        content = archive.read("content.xml").decode()
    start = content.index('table:name="Boards"')
    boards = content[start : content.index("</table:table>", start)]
    assert "ceWrapText" in boards
    # No row of the sheet has a height of its own: LibreOffice fits each to its text.
    assert "table:table-row table:style-name" not in boards


def test_text_lines_wraps_words_at_the_columns_width():
    assert text_lines(None, 10) == text_lines("", 10) == 1
    assert text_lines("to come", 10) == 1
    assert text_lines("East's Partnership with South: 58 points, 6 tricks", 20) == 3
    assert text_lines("one\ntwo", 40) == 2
    assert text_lines("x" * 50, 10) == 5  # a word longer than the line is cut
