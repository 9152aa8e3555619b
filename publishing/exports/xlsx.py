"""The Excel workbook writer: openpyxl in write-only mode, so memory stays bounded whatever
the size (rows stream to temporary files, one block at a time).

Every sheet has its title in row 1, the standings stamp in row 2 and, for tables, the column
headers in row 3, frozen, with a filter over the rows. Values are stored as they are: numbers
as numbers, texts as texts (a team called "=1+1" stays that text); the file holds no formula.
The same sheets and stamp give the same bytes: the workbook's created/modified times are the
standings' computation time and every zip entry carries that time too.

Every sheet prints: A4, landscape when its columns are wider than a portrait page, scaled to
the page's width, the title and header rows repeated on every page, the tournament and sheet
in the page header and "page x of y" in the footer; a sheet of up to ``ONE_PAGE_ROWS`` rows
(the standings of up to 30 teams) fits on one page. The title spans the table's columns, so
printing never cuts it.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES
from openpyxl.chart import LineChart, Reference
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.cell_range import CellRange
from openpyxl.writer.excel import ExcelWriter

from publishing.exports.fixedzip import FixedTimeZipFile, zip_time
from publishing.exports.sheets import (
    FIRST_DATA_ROW,
    HEADER_ROW,
    LINE_HEIGHT,
    SPREADSHEET_MAX_ROWS,
    ChartSpec,
    Progress,
    SheetSpec,
    Stamp,
    Styled,
    split_blocks,
    text_lines,
)

THIN = Side(style="thin", color="888888")
HAND_ROW_HEIGHT = 62.0  # points: four lines of a hand
A4 = "9"  # the paper size code of A4 in the file format
# Column widths (in characters) a portrait A4 page holds at 100 %; wider sheets turn landscape.
PORTRAIT_WIDTH = 95
# Sheets with at most this many data rows are scaled to one page (standings of 30 teams and
# their title fit easily; longer sheets print at the width's scale over several pages).
ONE_PAGE_ROWS = 40
# The title's 14-point letters are about 1.4 column characters wide; line heights in points.
TITLE_CHAR_WIDTH = 1.4
TITLE_LINE_HEIGHT = 19.0
STAMP_LINE_HEIGHT = 15.0


class _Styles:
    """Cell styles of one workbook (openpyxl shares identical styles in the file)."""

    title = Font(bold=True, size=14)
    stamp = Font(italic=True, color="444444")
    header_font = Font(bold=True)
    header_fill = PatternFill("solid", fgColor="DDE4EE")
    header_border = Border(bottom=Side(style="thin", color="000000"))
    block_border = Border(top=THIN)
    wrap = Alignment(wrap_text=True, vertical="top")
    top = Alignment(vertical="top")
    # A wrapped text of a table, a space off the number right-aligned beside it.
    wrapped_text = Alignment(wrap_text=True, vertical="top", horizontal="left", indent=1)
    centre = Alignment(wrap_text=True, horizontal="center", vertical="center")
    square_border = Border(left=THIN, right=THIN, top=THIN, bottom=THIN)
    square_fill = PatternFill("solid", fgColor="F4F1EA")


def _utc_naive(moment: datetime | None) -> datetime:
    """openpyxl stores document times as naive UTC."""
    if moment is None:
        return datetime(1980, 1, 1)
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.replace(microsecond=0)


def _cell(ws, value, **style) -> WriteOnlyCell:
    cell = WriteOnlyCell(ws, value=value)
    if isinstance(value, str):
        cell.data_type = "s"  # text, always: openpyxl would store "=..." as a formula
    for name, item in style.items():
        setattr(cell, name, item)
    return cell


def _as_text(value: object) -> bool:
    """A text openpyxl would not store as text: a formula ("=...") or an error code."""
    return isinstance(value, str) and (value.startswith("=") or value in ERROR_CODES)


def _data_row(ws, row: tuple | list) -> tuple | list:
    """The row with every text that openpyxl would store as a formula or an error made a
    text cell; the same row when nothing needs it (the common case costs one scan)."""
    if not any(_as_text(value) for value in row):
        return row
    return [_cell(ws, value) if _as_text(value) else value for value in row]


def _styled(ws, item: Styled) -> WriteOnlyCell:
    if item.style == "square":
        return _cell(
            ws,
            item.value,
            alignment=_Styles.centre,
            border=_Styles.square_border,
            fill=_Styles.square_fill,
        )
    if item.style == "caption":
        return _cell(ws, item.value, font=_Styles.header_font)
    return _cell(ws, item.value, alignment=_Styles.wrap)


class _SheetWriter:
    def __init__(self, ws, spec: SheetSpec):
        self.ws, self.spec = ws, spec
        self.row = 0
        self.wrap_columns = [i for i, column in enumerate(spec.columns) if column.wrap]

    def top(self, stamp: Stamp) -> None:
        ws, spec = self.ws, self.spec
        self._page_setup(stamp)
        for index, column in enumerate(spec.columns, start=1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        if spec.tabular:
            ws.freeze_panes = f"A{FIRST_DATA_ROW}"
        stamp_text = f"{stamp.text} {spec.note}".strip()
        self._spanning_row(spec.title, _Styles.title, TITLE_LINE_HEIGHT, TITLE_CHAR_WIDTH)
        self._spanning_row(stamp_text, _Styles.stamp, STAMP_LINE_HEIGHT, 1.0)
        if spec.tabular:
            self._append(
                [
                    _cell(
                        ws,
                        column.header,
                        font=_Styles.header_font,
                        fill=_Styles.header_fill,
                        border=_Styles.header_border,
                    )
                    for column in spec.columns
                ]
            )
        else:
            self._append([])

    def _page_setup(self, stamp: Stamp) -> None:
        """How the sheet prints (set before the first row: the write-only sheet writes its
        properties then)."""
        ws, spec = self.ws, self.spec
        width = sum(column.width for column in spec.columns)
        ws.page_setup.paperSize = A4
        ws.page_setup.orientation = "landscape" if width > PORTRAIT_WIDTH else "portrait"
        ws.sheet_properties.pageSetUpPr.fitToPage = True
        ws.page_setup.fitToWidth = 1
        ws.page_setup.fitToHeight = 1 if spec.row_count <= ONE_PAGE_ROWS else 0
        ws.page_margins.left = ws.page_margins.right = 0.4
        ws.page_margins.top = ws.page_margins.bottom = 0.6
        ws.page_margins.header = ws.page_margins.footer = 0.3
        ws.print_options.horizontalCentered = True
        if spec.tabular:
            ws.print_title_rows = f"1:{HEADER_ROW}"
        # "&" starts a code in a page header: a tournament called "Smith & Co" keeps its "&".
        ws.oddHeader.left.text = stamp.tournament.replace("&", "&&")
        ws.oddHeader.right.text = spec.name.replace("&", "&&")
        ws.oddFooter.center.text = "Page &P of &N"
        if len(spec.columns) > 1:
            last = get_column_letter(len(spec.columns))
            ws.merged_cells.add(CellRange(f"A1:{last}1"))
            ws.merged_cells.add(CellRange(f"A2:{last}2"))

    def _spanning_row(self, text: str, font: Font, line_height: float, char_width: float) -> None:
        """A row whose one cell spans the table's columns, wrapped, as tall as its lines."""
        width = max(sum(column.width for column in self.spec.columns), 1)
        lines = max(1, math.ceil(len(text) * char_width / width))
        if lines > 1:
            self.ws.row_dimensions[self.row + 1].height = line_height * lines
        self._append([_cell(self.ws, text, font=font, alignment=_Styles.wrap)])

    def _append(self, row) -> None:
        self.row += 1
        self.ws.append(row)

    def block(self, rows: list[tuple]) -> None:
        ws, spec = self.ws, self.spec
        start = 0
        if spec.mark_blocks and rows:
            self._append([_cell(ws, value, border=_Styles.block_border) for value in rows[0]])
            start = 1
        if not spec.tabular:
            for row in rows[start:]:
                self._free_row(row)
            return
        if self.wrap_columns or spec.row_height:
            for row in rows[start:]:
                self._wrapped_row(row)
            return
        append = ws.append
        for row in rows[start:] if start else rows:
            append(_data_row(ws, row))
        self.row += len(rows) - start

    def _wrapped_row(self, row: tuple) -> None:
        """A row with wrapped cells, as tall as its longest text needs (at least the sheet's
        own row height), every cell from the top when it takes more than one line."""
        columns = self.spec.columns
        lines = max(
            (text_lines(row[index], columns[index].width) for index in self.wrap_columns),
            default=1,
        )
        height = max(self.spec.row_height or 0, LINE_HEIGHT * lines if lines > 1 else 0)
        if height:
            self.ws.row_dimensions[self.row + 1].height = height
        cells = list(_data_row(self.ws, row))
        if lines > 1:
            cells = [_cell(self.ws, value, alignment=_Styles.top) for value in row]
        for index in self.wrap_columns:
            cells[index] = _cell(self.ws, row[index], alignment=_Styles.wrapped_text)
        self._append(cells)

    def _free_row(self, row: tuple) -> None:
        if any(isinstance(item, Styled) and item.style in ("hand", "square") for item in row):
            self.ws.row_dimensions[self.row + 1].height = HAND_ROW_HEIGHT
        cells = [_styled(self.ws, item) if isinstance(item, Styled) else item for item in row]
        self._append(_data_row(self.ws, cells))

    def finish(self) -> None:
        if self.spec.tabular:
            last_column = get_column_letter(max(1, len(self.spec.columns)))
            last_row = max(self.row, HEADER_ROW)
            self.ws.auto_filter.ref = f"A{HEADER_ROW}:{last_column}{last_row}"


def _line_chart(spec: ChartSpec, data_ws) -> LineChart:
    chart = LineChart()
    chart.title = spec.title
    chart.x_axis.title = spec.x_title
    chart.y_axis.title = spec.y_title
    chart.height, chart.width = 14, 26  # cm
    chart.x_axis.delete = False
    chart.y_axis.delete = False
    if spec.y_reversed:
        chart.y_axis.scaling.orientation = "maxMin"
        chart.y_axis.scaling.min = 1
    last = HEADER_ROW + spec.rows
    for column in spec.series_columns:
        values = Reference(data_ws, min_col=column, min_row=HEADER_ROW, max_row=last)
        chart.add_data(values, titles_from_data=True)
    chart.set_categories(
        Reference(data_ws, min_col=spec.category_column, min_row=FIRST_DATA_ROW, max_row=last)
    )
    return chart


def write_xlsx(
    sheets: list[SheetSpec],
    target: Path,
    stamp: Stamp,
    *,
    max_sheet_rows: int = SPREADSHEET_MAX_ROWS,
    progress: Progress | None = None,
) -> int:
    """Write the sheets to ``target``; returns the number of data rows written."""
    workbook = Workbook(write_only=True)
    moment = _utc_naive(stamp.computed_at)
    workbook.properties.creator = "Duplicate card tournaments"
    workbook.properties.title = stamp.tournament
    workbook.properties.created = moment
    workbook.properties.modified = moment
    data_rows_per_sheet = max_sheet_rows - HEADER_ROW
    written = 0
    made: dict[str, object] = {}
    for spec in sheets:
        for name, blocks in split_blocks(spec, data_rows_per_sheet):
            ws = workbook.create_sheet(name)
            made.setdefault(spec.name, ws)
            writer = _SheetWriter(ws, spec)
            writer.top(stamp)
            if progress is not None:
                progress.start(f"Writing the {name} sheet")
            for block in blocks:
                writer.block(block)
                written += len(block)
                if progress is not None:
                    progress.add(len(block), f"Writing the {name} sheet")
            if spec.chart is not None and spec.chart.data_sheet in made:
                ws.add_chart(_line_chart(spec.chart, made[spec.chart.data_sheet]), "A4")
            writer.finish()
    with FixedTimeZipFile(target, zip_time(moment)) as archive:
        ExcelWriter(workbook, archive).write_data()
    return written
