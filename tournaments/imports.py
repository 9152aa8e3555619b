"""Reading a team list from a spreadsheet (.xlsx, .ods) or a CSV file.

The first row names the columns; every later row is one team. Columns (any order, case and
spacing ignored): ``name`` (required), ``number`` (optional: without it, teams are numbered
after the existing ones in file order), ``player1`` and ``player2`` (optional). Other columns
are ignored and reported.

Nothing is imported here: ``read_entrant_file`` returns the rows it understood and every problem
with its line number (the spreadsheet's row number, the header being line 1), so the organiser
sees a preview and all the bad rows at once; ``tournaments.services.import_teams`` then
imports all the rows or none.
"""

from __future__ import annotations

import codecs
import csv
import io
import math
import re
import zipfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO
from xml.etree import ElementTree

from django.utils.formats import number_format
from django.utils.translation import gettext

from tournaments.models import Entrant

MAX_TEAMS = 1000
MAX_FILE_BYTES = 5 * 1024 * 1024
# Bounds of a spreadsheet, checked before and while it is read, so that no upload can hold a
# web worker for long (a 1,000-team list is some 50 kB and 1,001 lines of 4 columns).
MAX_UNPACKED_BYTES = 20 * 1024 * 1024  # the archive's declared sizes, all parts together
MAX_ARCHIVE_MEMBERS = 200
MAX_LINES = 2 * MAX_TEAMS + 100  # lines read; anything but blank rows beyond refuses the file
MAX_COLUMNS = 30  # columns read; those beyond are not looked at
# Blank lines past MAX_LINES are formatting, but not endlessly: reading stops here.
MAX_READ_LINES = MAX_LINES + 10_000
MAX_CELL_CHARS = 1000  # a cell's text; a longer one refuses the file
MAX_CSV_LINE_CHARS = 32 * 1024  # one line of a CSV file as stored
# Each XML part a reader parses (sheet, shared strings, workbook, ODS content) is streamed,
# never parsed whole, and bounded: its unpacked size, its compression ratio (a part that
# unpacks to more than a few MB from a few kB is a bomb, whatever it holds), the nesting of
# its elements and how many it holds. DTDs, and with them entities, are refused.
MAX_PART_BYTES = MAX_UNPACKED_BYTES
MAX_SMALL_PART_BYTES = 1024 * 1024  # workbook.xml and its relationships
MAX_ZIP_RATIO = 100  # unpacked / packed size of a part above MAX_RATIO_FREE_BYTES
MAX_RATIO_FREE_BYTES = 2 * 1024 * 1024
MAX_XML_DEPTH = 32  # a sheet's cells are 6 or 7 levels deep, an ODS cell's text some 10
MAX_XML_ELEMENTS = 100_000  # per part: 1,000 teams in 10 columns need some 25,000
READABLE_SUFFIXES = (".csv", ".xlsx", ".ods")

NAME_MAX = Entrant._meta.get_field("name").max_length
PLAYER_MAX = Entrant._meta.get_field("player1").max_length

# Accepted spellings of each column, after lower-casing and dropping spaces, "_", "-", ".".
COLUMN_ALIASES = {
    "number": {"number", "no", "nr", "num", "#", "teamnumber", "teamno", "teamnr"},
    "name": {"name", "team", "teamname"},
    "player1": {"player1", "playera", "firstplayer", "player"},
    "player2": {"player2", "playerb", "secondplayer"},
}


@dataclass(frozen=True)
class EntrantRow:
    line: int
    number: int | None
    name: str
    player1: str = ""
    player2: str = ""


@dataclass(frozen=True)
class RowProblem:
    line: int
    reason: str

    def __str__(self) -> str:
        return gettext("line %(line)s: %(reason)s") % {"line": self.line, "reason": self.reason}


@dataclass
class EntrantFile:
    """What was read from a file: good rows, bad rows, and problems with the file itself."""

    rows: list[EntrantRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)
    too_large: bool = False

    @property
    def ok(self) -> bool:
        return not self.problems and not self.file_errors

    def all_messages(self) -> list[str]:
        return self.file_errors + [str(problem) for problem in self.problems]


class UnreadableFile(ValueError):
    """The file is not a CSV or spreadsheet we can read."""


def _normalise_header(text: str) -> str:
    return re.sub(r"[\s_\-.]+", "", str(text).strip().lower())


def _cell_text(value: object) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _csv_lines(data: bytes) -> Iterator[str]:
    """The file's lines as text, decoded as they are read; each bounded in length."""
    decoder = codecs.getincrementaldecoder("utf-8-sig")()
    for number, raw in enumerate(io.BytesIO(data), start=1):
        if len(raw) > MAX_CSV_LINE_CHARS:
            raise UnreadableFile(
                gettext("line %(line)s of the CSV file is longer than %(most)s characters")
                % {"line": number, "most": MAX_CSV_LINE_CHARS}
            )
        try:
            line = decoder.decode(raw)
        except UnicodeDecodeError:
            raise UnreadableFile(
                gettext("the CSV file is not UTF-8 text (save it as 'CSV UTF-8')")
            ) from None
        if "\x00" in line:
            raise UnreadableFile(gettext("this is not a CSV file (it holds binary data)"))
        yield line


def _read_csv(data: bytes) -> list[list[str]]:
    """The CSV file's records, streamed: lines decoded and parsed one by one, and bounded
    (line length, cells, lines) by ``_bounded`` before any row is built."""
    first_line = next(_csv_lines(data[: MAX_CSV_LINE_CHARS + 1].split(b"\n", 1)[0]), "")
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    # Row numbers count records, as a spreadsheet program shows them.
    records = csv.reader(_csv_lines(data), delimiter=delimiter)
    try:
        return _bounded((line, row) for line, row in enumerate(records, start=1))
    except csv.Error as exc:
        raise UnreadableFile(
            gettext("the CSV file cannot be read: %(reason)s") % {"reason": exc}
        ) from None


def _open_archive(data: bytes, suffix: str) -> zipfile.ZipFile:
    """The spreadsheet's zip archive, refused before anything is unpacked when it is damaged
    or would unpack to more than a team list can hold (a decompression bomb)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = archive.infolist()
    except (zipfile.BadZipFile, ValueError, OSError):
        raise UnreadableFile(
            gettext("this is not a %(suffix)s spreadsheet (the file is damaged or of another kind)")
            % {"suffix": suffix}
        ) from None
    unpacked = sum(member.file_size for member in members)
    if len(members) > MAX_ARCHIVE_MEMBERS or unpacked > MAX_UNPACKED_BYTES:
        raise UnreadableFile(
            gettext(
                "the %(suffix)s spreadsheet unpacks to %(size)s MB in %(parts)s parts, more than "
                "a team list can hold (at most %(most)s MB)"
            )
            % {
                "suffix": suffix,
                "size": unpacked // 1024 // 1024,
                "parts": len(members),
                "most": MAX_UNPACKED_BYTES // 1024 // 1024,
            }
        )
    return archive


def _open_part(archive: zipfile.ZipFile, name: str, limit: int = MAX_PART_BYTES) -> IO[bytes]:
    """One part of the archive, opened for streaming once its declared size (which the
    reader never reads past) and its compression ratio are within bounds."""
    member = archive.getinfo(name)
    ratio = member.file_size / max(member.compress_size, 1)
    if member.file_size > limit or (
        member.file_size > MAX_RATIO_FREE_BYTES and ratio > MAX_ZIP_RATIO
    ):
        raise UnreadableFile(
            gettext(
                "the spreadsheet's part %(part)s unpacks to %(size)s kB (%(ratio)s times its "
                "packed size), more than a team list needs"
            )
            % {"part": name, "size": member.file_size // 1024, "ratio": f"{ratio:.0f}"}
        )
    return archive.open(member)


class _NoDoctype:
    """A part's bytes as the parser reads them, refused at the first DTD (a spreadsheet never
    has one; entities, and so entity expansion, need one). XML allows a DTD only before the
    first element, and nowhere else can ``<!DOCTYPE`` or ``<!ENTITY`` stand unescaped but in
    a comment or CDATA, which a team list's cells do not need."""

    MARKS = (b"<!DOCTYPE", b"<!ENTITY")

    def __init__(self, part: IO[bytes]) -> None:
        self.part = part
        self.tail = b""

    def read(self, size: int = -1) -> bytes:
        chunk = self.part.read(size)
        seen = self.tail + chunk
        if any(mark in seen for mark in self.MARKS):
            raise UnreadableFile(
                gettext(
                    "the spreadsheet's XML declares a DTD or entities, which a team list never "
                    "needs"
                )
            )
        self.tail = seen[-16:]
        return chunk


def _xml_records(
    part: IO[bytes], record: str, stop_at: str | None = None
) -> Iterator[ElementTree.Element]:
    """The ``record`` elements of an XML part (rows, shared strings ...), each whole when it
    ends, streamed (ElementTree's parser, no DTD: ``_NoDoctype``) and bounded: nesting at most
    ``MAX_XML_DEPTH``, at most ``MAX_XML_ELEMENTS`` elements. Every element is dropped once
    read, so memory holds the open elements and one record, never the document. Reading
    ends with the first ``stop_at`` element."""
    elements = records_open = 0
    path: list[ElementTree.Element] = []
    for event, element in ElementTree.iterparse(_NoDoctype(part), events=("start", "end")):
        if event == "start":
            elements += 1
            path.append(element)
            if element.tag == record:
                records_open += 1
            _check_xml_bounds(len(path), elements)
            continue
        path.pop()
        if element.tag == record:
            records_open -= 1
            if not records_open:
                yield element
        elif records_open:
            continue  # part of a record: kept until the record ends
        elif element.tag == stop_at:
            return
        if path:
            del path[-1][:]  # read: let it go (and every earlier sibling)


def _check_xml_bounds(depth: int, elements: int) -> None:
    """An XML part nests at most ``MAX_XML_DEPTH`` deep and holds at most
    ``MAX_XML_ELEMENTS`` elements."""
    if depth > MAX_XML_DEPTH:
        raise UnreadableFile(
            gettext("the spreadsheet's XML nests deeper than %(most)s levels")
            % {"most": MAX_XML_DEPTH}
        )
    if elements > MAX_XML_ELEMENTS:
        raise UnreadableFile(
            gettext("the spreadsheet's XML holds more than %(most)s elements")
            % {"most": number_format(MAX_XML_ELEMENTS, force_grouping=True)}
        )


def _bounded(rows: Iterator[tuple[int, Sequence[object]]]) -> list[list[str]]:
    """``(line, cells)`` in line order to the table of the first ``MAX_LINES`` lines as text
    cells (lines not given are blank), at most ``MAX_COLUMNS`` of each; anything but a blank
    row further down refuses the file (blank rows there are formatting)."""
    table: list[list[str]] = []
    for line, row in rows:
        cells = [_cell_text(value) for value in row[:MAX_COLUMNS]]
        if any(len(cell) > MAX_CELL_CHARS for cell in cells):
            raise UnreadableFile(
                gettext(
                    "line %(line)s has a cell longer than %(most)s characters; a team list's "
                    "cells are names"
                )
                % {"line": line, "most": MAX_CELL_CHARS}
            )
        if line > MAX_LINES:
            _check_blank_past_bound(line, cells)
            continue
        table.extend([] for _ in range(line - 1 - len(table)))
        table.append(cells)
    while table and not any(table[-1]):
        table.pop()
    return table


def _check_blank_past_bound(line: int, cells: list[str]) -> None:
    """A line past ``MAX_LINES`` is blank (formatting), and not past ``MAX_READ_LINES``."""
    if any(cells):
        raise UnreadableFile(
            gettext(
                "the sheet goes on past line %(last)s (line %(line)s is not blank); a tournament "
                "holds at most %(teams)s teams"
            )
            % {"last": MAX_LINES, "line": line, "teams": MAX_TEAMS}
        )
    if line > MAX_READ_LINES:
        raise UnreadableFile(
            gettext(
                "the sheet goes on for more than %(read)s lines, blank past line %(last)s; a "
                "tournament holds at most %(teams)s teams"
            )
            % {"read": MAX_READ_LINES, "last": MAX_LINES, "teams": MAX_TEAMS}
        )


_MAIN = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
_RELATIONSHIP = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}id"
_PACKAGE_RELS = "{http://schemas.openxmlformats.org/package/2006/relationships}"


def _read_xlsx(data: bytes) -> list[list[str]]:
    """The first sheet of an .xlsx file, streamed by ``_xlsx_rows`` and bounded by
    ``_bounded``. Not openpyxl: its read-only mode parses a whole sheet that does not declare
    its size before the first row comes, and fills every gap up to a far cell row by row."""
    archive = _open_archive(data, ".xlsx")
    try:
        strings = _SharedStrings(archive)
        with _open_part(archive, _first_sheet_path(archive)) as sheet:
            return _bounded(_xlsx_rows(sheet, strings))
    except UnreadableFile:
        raise
    except (KeyError, IndexError, ElementTree.ParseError, ValueError, zipfile.BadZipFile) as exc:
        raise UnreadableFile(_cannot_read(".xlsx", exc)) from None


def _first_sheet_path(archive: zipfile.ZipFile) -> str:
    with _open_part(archive, "xl/workbook.xml", MAX_SMALL_PART_BYTES) as workbook:
        first = next(_xml_records(workbook, f"{_MAIN}sheet"), None)
        sheet_id = None if first is None else first.get(_RELATIONSHIP)
    if first is None:
        raise UnreadableFile(gettext("the .xlsx spreadsheet has no sheet"))
    rels = "xl/_rels/workbook.xml.rels"
    with _open_part(archive, rels, MAX_SMALL_PART_BYTES) as relations:
        for relation in _xml_records(relations, f"{_PACKAGE_RELS}Relationship"):
            if relation.get("Id") == sheet_id:
                target = relation.get("Target", "")
                return target.lstrip("/") if target.startswith("/") else f"xl/{target}"
    raise UnreadableFile(gettext("the .xlsx spreadsheet names a first sheet it does not hold"))


class _SharedStrings:
    """The workbook's shared strings, read only as far as the cells asked for need (a sheet's
    first rows use the first strings); no cell of the lines read can ask beyond
    ``MAX_READ_LINES * MAX_COLUMNS``."""

    def __init__(self, archive: zipfile.ZipFile) -> None:
        self.strings: list[str] = []
        self.archive = archive
        self.source: Iterator[ElementTree.Element] | None = None

    def __getitem__(self, index: int) -> str:
        if index >= MAX_READ_LINES * MAX_COLUMNS:
            raise ValueError(f"shared string {index} is beyond any team list's cells")
        if self.source is None:
            names = set(self.archive.namelist())
            self.source = (
                _xml_records(_open_part(self.archive, "xl/sharedStrings.xml"), f"{_MAIN}si")
                if "xl/sharedStrings.xml" in names
                else iter(())
            )
        while len(self.strings) <= index:
            element = next(self.source, None)
            if element is None:
                break
            # A string's text runs; phonetic guides (rPh) are not part of it.
            runs = [element.find(f"{_MAIN}t")] + [
                run.find(f"{_MAIN}t") for run in element.findall(f"{_MAIN}r")
            ]
            text = "".join(run.text or "" for run in runs if run is not None)
            self.strings.append(text[: MAX_CELL_CHARS + 1])
        return self.strings[index]


def _column_index(reference: str) -> int:
    """0 for A1, 1 for B7, 26 for AA3."""
    index = 0
    for char in reference:
        if not char.isalpha():
            break
        index = index * 26 + ord(char.upper()) - 64
    return index - 1


def _xlsx_rows(sheet: IO[bytes], strings: _SharedStrings) -> Iterator[tuple[int, list[object]]]:
    """``(line, cells)`` of each row a sheet holds, at most ``MAX_COLUMNS`` cells of each; a
    formula gives the value the file saved with it."""
    line = 0
    for row in _xml_records(sheet, f"{_MAIN}row"):
        number = int(row.get("r", line + 1))
        if number <= line:
            raise ValueError(f"row {number} comes after row {line}")
        line = number
        cells: list[object] = []
        for position, cell in enumerate(row.iter(f"{_MAIN}c")):
            column = _column_index(cell.get("r", "")) if cell.get("r") else position
            if column >= MAX_COLUMNS:
                continue
            cells.extend([None] * (column - len(cells)))
            cells.append(_xlsx_value(cell, strings))
        yield number, cells


def _xlsx_value(cell: ElementTree.Element, strings: _SharedStrings) -> object:
    kind = cell.get("t", "n")
    if kind == "inlineStr":
        # A blank text cell may be written without its <is> (openpyxl does so for "").
        found = cell.find(f"{_MAIN}is")
        return "" if found is None else "".join(found.itertext())
    value = cell.findtext(f"{_MAIN}v")
    if value is None:
        return None
    if kind == "s":
        return strings[int(value)]
    if kind in ("str", "e"):
        return value
    if kind == "b":
        return "TRUE" if value == "1" else "FALSE"
    return float(value)


_TABLE = "{urn:oasis:names:tc:opendocument:xmlns:table:1.0}"
_OFFICE = "{urn:oasis:names:tc:opendocument:xmlns:office:1.0}"
_NUMERIC = {"float", "percentage", "currency"}


def _ods_rows(content: IO[bytes]) -> Iterator[tuple[int, list[object]]]:
    """``(line, cells)`` of the rows of the first table of an ODS ``content.xml``, streamed.
    A repeated row (how ODS writes stretches of blank rows) is given once a line only while it
    holds something and only as far as ``_bounded`` reads; a repeated cell at most
    ``MAX_COLUMNS`` times."""
    line = 0  # lines so far
    for element in _xml_records(content, f"{_TABLE}table-row", stop_at=f"{_TABLE}table"):
        cells = _ods_cells(element)
        repeat = int(element.get(f"{_TABLE}number-rows-repeated", "1"))
        if any(_cell_text(value) for value in cells):
            for offset in range(min(repeat, MAX_LINES + 1 - line)):
                yield line + 1 + offset, cells
            if line + repeat > MAX_LINES:
                yield line + repeat, cells  # beyond the bound: refused by _bounded
        line += repeat


def _ods_cells(row: ElementTree.Element) -> list[object]:
    cells: list[object] = []
    for cell in row:
        if cell.tag not in (f"{_TABLE}table-cell", f"{_TABLE}covered-table-cell"):
            continue
        if cell.get(f"{_OFFICE}value-type") in _NUMERIC:
            value: object = float(cell.get(f"{_OFFICE}value", "nan"))
        else:
            value = "\n".join("".join(p.itertext()) for p in cell)
        repeat = int(cell.get(f"{_TABLE}number-columns-repeated", "1"))
        cells.extend([value] * min(repeat, MAX_COLUMNS - len(cells)))
        if len(cells) >= MAX_COLUMNS:
            break
    return cells


def _read_ods(data: bytes) -> list[list[str]]:
    archive = _open_archive(data, ".ods")
    try:
        with _open_part(archive, "content.xml") as content:
            return _bounded(_ods_rows(content))
    except UnreadableFile:
        raise
    except (KeyError, ElementTree.ParseError, ValueError, zipfile.BadZipFile) as exc:
        raise UnreadableFile(_cannot_read(".ods", exc)) from None


def _cannot_read(suffix: str, exc: Exception) -> str:
    """Why a spreadsheet cannot be read: XML that is not well formed said where, in the
    reader's language; any other fault as the library words it."""
    if isinstance(exc, ElementTree.ParseError):
        line, column = exc.position
        return gettext(
            "the %(suffix)s spreadsheet cannot be read: its XML is not well formed (line "
            "%(line)s, column %(column)s)"
        ) % {"suffix": suffix, "line": line, "column": column}
    return gettext("the %(suffix)s spreadsheet cannot be read: %(reason)s") % {
        "suffix": suffix,
        "reason": exc,
    }


def read_table(data: bytes, filename: str) -> list[list[str]]:
    """Every row of the file's first sheet as text cells, in file order (header included)."""
    suffix = "." + filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if suffix not in READABLE_SUFFIXES:
        raise UnreadableFile(
            gettext("%(file)s: the file must end in .csv, .xlsx or .ods, not %(suffix)s")
            % {"file": repr(filename), "suffix": suffix or gettext("nothing")}
        )
    if suffix == ".csv":
        return _read_csv(data)
    return _read_xlsx(data) if suffix == ".xlsx" else _read_ods(data)


def _map_columns(header: list[str], result: EntrantFile) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        key = _normalise_header(title)
        if not key:
            continue
        column = _column_named(key)
        if column is None:
            result.ignored_columns.append(title)
            continue
        if column in columns:
            result.file_errors.append(f"line 1: two columns mean '{column}'")
        columns[column] = index
    if "name" not in columns:
        found = ", ".join(repr(title) for title in header if title) or "none"
        result.file_errors.append(
            gettext(
                "line 1: no 'name' column (columns found: %(found)s); the first row must name "
                "the columns: number, name, player1, player2"
            )
            % {"found": found}
        )
    return columns


def _column_named(key: str) -> str | None:
    """The column a normalised header names (``COLUMN_ALIASES``); None: not one of ours."""
    return next((column for column, aliases in COLUMN_ALIASES.items() if key in aliases), None)


def _parse_number(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(
            gettext("team number '%(text)s' is not a whole number") % {"text": text}
        ) from None
    if not value.is_integer() or value < 1:
        raise ValueError(
            gettext("team number '%(text)s' must be a whole number from 1 up") % {"text": text}
        )
    return int(value)


def _read_row(line: int, cells: list[str], columns: dict[str, int]) -> EntrantRow | RowProblem:
    def cell(column: str) -> str:
        index = columns.get(column)
        return cells[index] if index is not None and index < len(cells) else ""

    reasons = []
    number = None
    if "number" in columns:
        if not cell("number"):
            reasons.append(gettext("the team number is missing"))
        else:
            try:
                number = _parse_number(cell("number"))
            except ValueError as exc:
                reasons.append(str(exc))
    name = cell("name")
    if not name:
        reasons.append(gettext("the team name is missing"))
    elif len(name) > NAME_MAX:
        reasons.append(
            gettext("the team name is longer than %(most)s characters") % {"most": NAME_MAX}
        )
    for column in ("player1", "player2"):
        if len(cell(column)) > PLAYER_MAX:
            reasons.append(
                gettext("%(column)s is longer than %(most)s characters")
                % {"column": column, "most": PLAYER_MAX}
            )
    if reasons:
        return RowProblem(line, "; ".join(reasons))
    return EntrantRow(line, number, name, cell("player1"), cell("player2"))


def parse_entrant_rows(table: list[list[str]]) -> EntrantFile:
    """Check a table of text cells (header first) and sort rows into good and bad."""
    result = EntrantFile()
    lines = [(line, cells) for line, cells in enumerate(table, start=1) if any(cells)]
    if not lines:
        result.file_errors.append(
            gettext("the file is empty: it needs a header row and one row a team")
        )
        return result
    header_line, header = lines[0]
    if header_line != 1:
        result.file_errors.append(gettext("line 1 is blank: the column names must be on line 1"))
        return result
    columns = _map_columns(header, result)
    if result.file_errors:
        return result
    entrant_lines = lines[1:]
    count_problem = _entrant_count_problem(len(entrant_lines))
    if count_problem is not None:
        result.file_errors.append(count_problem)
        return result
    first_line_of: dict[int, int] = {}
    for line, cells in entrant_lines:
        row = _numbered_once(_read_row(line, cells, columns), first_line_of)
        if isinstance(row, RowProblem):
            result.problems.append(row)
        else:
            result.rows.append(row)
    return result


def _entrant_count_problem(count: int) -> str | None:
    """What is wrong with the number of team rows: none, or more than a tournament holds."""
    if not count:
        return gettext("the file holds the column names but no teams")
    if count > MAX_TEAMS:
        return gettext("the file lists %(count)s teams; a tournament holds at most %(most)s") % {
            "count": count,
            "most": MAX_TEAMS,
        }
    return None


def _numbered_once(
    row: EntrantRow | RowProblem, first_line_of: dict[int, int]
) -> EntrantRow | RowProblem:
    """A row whose number an earlier row holds (``first_line_of``: the line of each number
    so far) is a problem; a good row's number is noted."""
    if isinstance(row, RowProblem) or row.number is None:
        return row
    if row.number in first_line_of:
        return RowProblem(
            row.line,
            gettext("team number %(number)s is also on line %(other)s")
            % {"number": row.number, "other": first_line_of[row.number]},
        )
    first_line_of[row.number] = row.line
    return row


def read_entrant_file(stream: IO[bytes], filename: str, size: int | None = None) -> EntrantFile:
    """Read and check an uploaded team list. Never raises for bad content."""
    too_large = EntrantFile(
        file_errors=[
            gettext("the file is larger than %(most)s MB")
            % {"most": MAX_FILE_BYTES // 1024 // 1024}
        ],
        too_large=True,
    )
    if size is not None and size > MAX_FILE_BYTES:
        return too_large
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return too_large
    if not data.strip():
        return EntrantFile(
            file_errors=[gettext("the file is empty: it needs a header row and one row a team")]
        )
    try:
        table = read_table(data, filename)
    except UnreadableFile as exc:
        return EntrantFile(file_errors=[str(exc)])
    return parse_entrant_rows(table)


def conflicts_with_existing(rows: list[EntrantRow], taken: dict[int, str]) -> list[RowProblem]:
    """Rows whose number an existing team of the tournament already has."""
    return [
        RowProblem(
            row.line,
            gettext("team number %(number)s is already used by '%(name)s'")
            % {"number": row.number, "name": taken[row.number]},
        )
        for row in rows
        if row.number is not None and row.number in taken
    ]
