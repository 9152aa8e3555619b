"""The shape of an exported sheet, shared by the three writers (xlsx, ods, csv).

A ``SheetSpec`` is what a sheet shows: a title, the columns and the rows. The rows come in
*blocks* (a table and board of the Tables sheet, or simply a few thousand rows at a time), so
a sheet that would pass a spreadsheet's row limit is split between blocks ("Tables 1",
"Tables 2", ...) and a writer never holds more than one block of Python rows.

Nothing here imports Django: the benchmark builds sheets without a database.
"""

from __future__ import annotations

import math
import textwrap
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NamedTuple

# Row 1 holds the sheet's title, row 2 the standings stamp, row 3 the column headers.
HEADER_ROW = 3
FIRST_DATA_ROW = HEADER_ROW + 1
# Excel's and LibreOffice's limits.
SPREADSHEET_MAX_ROWS = 1_048_576
SPREADSHEET_MAX_COLUMNS = 16_384
MAX_SHEET_NAME = 31
MIN_WIDTH, MAX_WIDTH = 6, 60
# The height of one line of the default 11-point text, in points (a spreadsheet's own row).
LINE_HEIGHT = 15.0
# Characters of text a unit of column width holds. A unit is the width of the widest digit;
# a sentence's letters and spaces are narrower on average: a 40-wide column shows about 46
# characters a line in Excel (Calibri 11) and 51 in LibreOffice, so 1.1 errs on the tall side.
TEXT_PER_WIDTH = 1.1


class Styled(NamedTuple):
    """A value with a named style, for the free-form sheets (the hand diagrams)."""

    value: Any
    style: str  # "hand", "square", "caption"


@dataclass(frozen=True)
class Column:
    header: str
    width: float = 10
    wrap: bool = False


@dataclass(frozen=True)
class ChartSpec:
    """A line chart of some columns of another sheet (the places after every round)."""

    title: str
    data_sheet: str
    category_column: int  # 1-based column of the categories (rounds)
    series_columns: list[int]  # 1-based columns, one line each
    rows: int  # data rows under the header
    x_title: str = ""
    y_title: str = ""
    y_reversed: bool = True  # place 1 at the top


@dataclass
class SheetSpec:
    """One logical sheet. ``blocks`` is called once by each writer."""

    name: str
    slug: str  # file name in the CSV zip
    title: str
    columns: list[Column]
    row_count: int
    blocks: Callable[[], Iterable[list[tuple]]]
    tabular: bool = True  # header row, frozen panes and a filter; False: free-form rows
    mark_blocks: bool = False  # a rule above the first row of every block
    row_height: float | None = None  # points, for multi-line cells
    chart: ChartSpec | None = None
    in_csv: bool = True
    note: str = ""  # shown under the title when set (e.g. why a sheet is empty)


@dataclass(frozen=True)
class Stamp:
    """What the standings are: the line under every sheet's title."""

    tournament: str
    text: str  # "Provisional standings: not every result is in. Computed 2025-03-01 14:03 UTC"
    computed_at: datetime | None  # UTC; workbook properties and zip entry times


def column_width(header: str, longest: int) -> float:
    """A width that fits the header and the longest value, within bounds."""
    return float(min(MAX_WIDTH, max(MIN_WIDTH, len(header), longest) + 2))


def text_lines(value: object, width: float) -> int:
    """How many lines a wrapped cell ``width`` characters wide takes to show ``value``: its
    words wrapped at ``TEXT_PER_WIDTH`` characters a unit of width, each of its own lines
    apart. A word longer than the line is cut as a spreadsheet cuts it."""
    if value is None or value == "":
        return 1
    room = max(1, math.floor(width * TEXT_PER_WIDTH))
    return sum(
        max(1, len(textwrap.wrap(line, room, break_on_hyphens=False)))
        for line in str(value).splitlines() or [""]
    )


def sheet_name(base: str, number: int | None) -> str:
    name = base if number is None else f"{base} {number}"
    return name[:MAX_SHEET_NAME]


class _BlockFeed:
    """Blocks one at a time, with room to put one back."""

    def __init__(self, blocks: Iterable[list[tuple]]):
        self._source = iter(blocks)
        self._back: list[tuple] | None = None

    def next(self) -> list[tuple] | None:
        if self._back is not None:
            block, self._back = self._back, None
            return block
        for block in self._source:
            if block:
                return block
        return None

    def put_back(self, block: list[tuple]) -> None:
        self._back = block


def _part(feed: _BlockFeed, max_rows: int) -> Iterator[list[tuple]]:
    used = 0
    while (block := feed.next()) is not None:
        room = max_rows - used
        if len(block) <= room:
            used += len(block)
            yield block
        elif used and len(block) <= max_rows:
            feed.put_back(block)  # starts the next part whole
            return
        else:
            yield block[:room]
            feed.put_back(block[room:])
            return


def split_blocks(spec: SheetSpec, max_rows: int) -> Iterator[tuple[str, Iterator[list[tuple]]]]:
    """The sheet's parts: ``(name, blocks)`` with at most ``max_rows`` data rows each.

    Blocks are kept whole where they fit in a part; a block longer than a whole part is cut.
    Each part's blocks must be consumed before asking for the next part. A sheet without
    rows is one empty part.
    """
    if max_rows < 1:
        raise ValueError(f"a sheet must hold at least one data row, not {max_rows}")
    feed = _BlockFeed(spec.blocks())
    numbered = spec.row_count > max_rows
    number = 1
    while True:
        first = feed.next()
        if first is None:
            if number == 1:
                yield sheet_name(spec.name, None), iter(())
            return
        feed.put_back(first)
        yield sheet_name(spec.name, number if numbered else None), _part(feed, max_rows)
        number += 1


def chunked(rows: Iterable[tuple], size: int = 5000) -> Iterator[list[tuple]]:
    """Plain rows in blocks of ``size`` (for sheets without blocks of their own)."""
    block: list[tuple] = []
    for row in rows:
        block.append(row)
        if len(block) >= size:
            yield block
            block = []
    if block:
        yield block


class Progress:
    """Counts rows written across all sheets and reports fractions now and then."""

    def __init__(self, total_rows: int, report: Callable[[float, str], None] | None):
        self.total = max(1, total_rows)
        self.done = 0
        self.report = report
        self._last = -1.0

    def add(self, rows: int, step: str) -> None:
        self.done += rows
        fraction = min(1.0, self.done / self.total)
        if self.report is not None and fraction - self._last >= 0.02:
            self._last = fraction
            self.report(fraction, step)

    def start(self, step: str) -> None:
        if self.report is not None:
            self.report(min(1.0, self.done / self.total), step)


# A text a spreadsheet would take for a formula when it reads a CSV field (OWASP, "CSV
# injection"): one that starts with one of these.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def is_formula_like(value: object) -> bool:
    return isinstance(value, str) and value.startswith(FORMULA_STARTS)


def csv_safe(row: Any) -> Any:
    """The row with every formula-like text prefixed by an apostrophe, as OWASP recommends, so
    that a spreadsheet opening the CSV shows it instead of running it; numbers stay numbers.
    The same row when nothing needs it (the common case costs one scan)."""
    if not any(is_formula_like(value) for value in row):
        return row
    return ["'" + value if is_formula_like(value) else value for value in row]
