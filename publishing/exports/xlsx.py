"""The Excel workbook writer: openpyxl in write-only mode, so memory stays bounded whatever
the size (rows stream to temporary files, one block at a time).

Every sheet has its title in row 1, the standings stamp in row 2 and, for tables, the column
headers in row 3, frozen, with a filter over the rows. Values are stored as they are: numbers
as numbers, texts as texts (a team called "=1+1" stays that text); the file holds no formula.
The same sheets and stamp give the same bytes: the workbook's created/modified times are the
standings' computation time and every zip entry carries that time too.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from openpyxl import Workbook
from openpyxl.cell import WriteOnlyCell
from openpyxl.cell.cell import ERROR_CODES
from openpyxl.chart import LineChart, Reference
from openpyxl.styles import Alignment, Border, Font, PatternFill, Side
from openpyxl.utils import get_column_letter
from openpyxl.writer.excel import ExcelWriter

from publishing.exports.fixedzip import FixedTimeZipFile, zip_time
from publishing.exports.sheets import (
    FIRST_DATA_ROW,
    HEADER_ROW,
    SPREADSHEET_MAX_ROWS,
    ChartSpec,
    Progress,
    SheetSpec,
    Stamp,
    Styled,
    split_blocks,
)

THIN = Side(style="thin", color="888888")
HAND_ROW_HEIGHT = 62.0  # points: four lines of a hand


class _Styles:
    """Cell styles of one workbook (openpyxl shares identical styles in the file)."""

    title = Font(bold=True, size=14)
    stamp = Font(italic=True, color="444444")
    header_font = Font(bold=True)
    header_fill = PatternFill("solid", fgColor="DDE4EE")
    header_border = Border(bottom=Side(style="thin", color="000000"))
    block_border = Border(top=THIN)
    wrap = Alignment(wrap_text=True, vertical="top")
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
        for index, column in enumerate(spec.columns, start=1):
            ws.column_dimensions[get_column_letter(index)].width = column.width
        if spec.tabular:
            ws.freeze_panes = f"A{FIRST_DATA_ROW}"
        self._append([_cell(ws, spec.title, font=_Styles.title)])
        stamp_text = f"{stamp.text} {spec.note}".strip()
        self._append([_cell(ws, stamp_text, font=_Styles.stamp)])
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
        if self.spec.row_height:
            self.ws.row_dimensions[self.row + 1].height = self.spec.row_height
        cells = list(_data_row(self.ws, row))
        for index in self.wrap_columns:
            cells[index] = _cell(self.ws, row[index], alignment=_Styles.wrap)
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
