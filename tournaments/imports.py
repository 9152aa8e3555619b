"""Reading a team list from a spreadsheet (.xlsx, .ods) or a CSV file.

The first row names the columns; every later row is one team. Columns (any order, case and
spacing ignored): ``name`` (required), ``number`` (optional: without it, teams are numbered
after the existing ones in file order), ``player1`` and ``player2`` (optional). Other columns
are ignored and reported.

Nothing is imported here: ``read_team_file`` returns the rows it understood and every problem
with its line number (the spreadsheet's row number, the header being line 1), so the organiser
sees a preview and all the bad rows at once; ``tournaments.services.import_teams`` then
imports all the rows or none.
"""

from __future__ import annotations

import csv
import io
import re
import zipfile
from dataclasses import dataclass, field
from typing import IO

import pandas as pd

from tournaments.models import Team

MAX_TEAMS = 1000
MAX_FILE_BYTES = 5 * 1024 * 1024
READABLE_SUFFIXES = (".csv", ".xlsx", ".ods")

NAME_MAX = Team._meta.get_field("name").max_length
PLAYER_MAX = Team._meta.get_field("player1").max_length

# Accepted spellings of each column, after lower-casing and dropping spaces, "_", "-", ".".
COLUMN_ALIASES = {
    "number": {"number", "no", "nr", "num", "#", "teamnumber", "teamno", "teamnr"},
    "name": {"name", "team", "teamname"},
    "player1": {"player1", "playera", "firstplayer", "player"},
    "player2": {"player2", "playerb", "secondplayer"},
}


@dataclass(frozen=True)
class TeamRow:
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
        return f"line {self.line}: {self.reason}"


@dataclass
class TeamFile:
    """What was read from a file: good rows, bad rows, and problems with the file itself."""

    rows: list[TeamRow] = field(default_factory=list)
    problems: list[RowProblem] = field(default_factory=list)
    file_errors: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)

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
    if value is None or (isinstance(value, float) and pd.isna(value)):
        return ""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value).strip()


def _read_csv(data: bytes) -> list[list[str]]:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UnreadableFile("the CSV file is not UTF-8 text (save it as 'CSV UTF-8')") from None
    if "\x00" in text:
        raise UnreadableFile("this is not a CSV file (it holds binary data)")
    first_line = text.split("\n", 1)[0]
    try:
        delimiter = csv.Sniffer().sniff(first_line, delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    try:
        # Row numbers count records, as a spreadsheet program shows them.
        return [
            [cell.strip() for cell in row]
            for row in csv.reader(io.StringIO(text), delimiter=delimiter)
        ]
    except csv.Error as exc:
        raise UnreadableFile(f"the CSV file cannot be read: {exc}") from None


def _read_spreadsheet(data: bytes, suffix: str) -> pd.DataFrame:
    engine = "openpyxl" if suffix == ".xlsx" else "odf"
    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise UnreadableFile(
            f"this is not a {suffix} spreadsheet (the file is damaged or of another kind)"
        )
    try:
        return pd.read_excel(io.BytesIO(data), engine=engine, header=None, dtype=object)
    except ValueError as exc:
        if "empty" in str(exc).lower():
            return pd.DataFrame()
        raise UnreadableFile(f"the {suffix} spreadsheet cannot be read: {exc}") from None
    except Exception as exc:  # openpyxl/odfpy raise many kinds for damaged files
        raise UnreadableFile(f"the {suffix} spreadsheet cannot be read: {exc}") from None


def read_table(data: bytes, filename: str) -> list[list[str]]:
    """Every row of the file's first sheet as text cells, in file order (header included)."""
    suffix = "." + filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    if suffix not in READABLE_SUFFIXES:
        raise UnreadableFile(
            f"{filename!r}: the file must end in .csv, .xlsx or .ods, not {suffix or 'nothing'}"
        )
    if suffix == ".csv":
        return _read_csv(data)
    frame = _read_spreadsheet(data, suffix)
    return [[_cell_text(value) for value in row] for row in frame.itertuples(index=False)]


def _map_columns(header: list[str], result: TeamFile) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        key = _normalise_header(title)
        if not key:
            continue
        for column, aliases in COLUMN_ALIASES.items():
            if key in aliases:
                if column in columns:
                    result.file_errors.append(f"line 1: two columns mean '{column}'")
                columns[column] = index
                break
        else:
            result.ignored_columns.append(title)
    if "name" not in columns:
        found = ", ".join(repr(title) for title in header if title) or "none"
        result.file_errors.append(
            f"line 1: no 'name' column (columns found: {found}); the first row must name the "
            "columns: number, name, player1, player2"
        )
    return columns


def _parse_number(text: str) -> int:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"team number {text!r} is not a whole number") from None
    if not value.is_integer() or value < 1:
        raise ValueError(f"team number {text!r} must be a whole number from 1 up")
    return int(value)


def _read_row(line: int, cells: list[str], columns: dict[str, int]) -> TeamRow | RowProblem:
    def cell(column: str) -> str:
        index = columns.get(column)
        return cells[index] if index is not None and index < len(cells) else ""

    reasons = []
    number = None
    if "number" in columns:
        if not cell("number"):
            reasons.append("the team number is missing")
        else:
            try:
                number = _parse_number(cell("number"))
            except ValueError as exc:
                reasons.append(str(exc))
    name = cell("name")
    if not name:
        reasons.append("the team name is missing")
    elif len(name) > NAME_MAX:
        reasons.append(f"the team name is longer than {NAME_MAX} characters")
    for column in ("player1", "player2"):
        if len(cell(column)) > PLAYER_MAX:
            reasons.append(f"{column} is longer than {PLAYER_MAX} characters")
    if reasons:
        return RowProblem(line, "; ".join(reasons))
    return TeamRow(line, number, name, cell("player1"), cell("player2"))


def parse_team_rows(table: list[list[str]]) -> TeamFile:
    """Check a table of text cells (header first) and sort rows into good and bad."""
    result = TeamFile()
    lines = [(line, cells) for line, cells in enumerate(table, start=1) if any(cells)]
    if not lines:
        result.file_errors.append("the file is empty: it needs a header row and one row a team")
        return result
    header_line, header = lines[0]
    if header_line != 1:
        result.file_errors.append("line 1 is blank: the column names must be on line 1")
        return result
    columns = _map_columns(header, result)
    if result.file_errors:
        return result
    team_lines = lines[1:]
    if not team_lines:
        result.file_errors.append("the file holds the column names but no teams")
    elif len(team_lines) > MAX_TEAMS:
        result.file_errors.append(
            f"the file lists {len(team_lines)} teams; a tournament holds at most {MAX_TEAMS}"
        )
        return result
    first_line_of: dict[int, int] = {}
    for line, cells in team_lines:
        row = _read_row(line, cells, columns)
        if isinstance(row, RowProblem):
            result.problems.append(row)
            continue
        if row.number is not None and row.number in first_line_of:
            result.problems.append(
                RowProblem(
                    line, f"team number {row.number} is also on line {first_line_of[row.number]}"
                )
            )
            continue
        if row.number is not None:
            first_line_of[row.number] = line
        result.rows.append(row)
    return result


def read_team_file(stream: IO[bytes], filename: str, size: int | None = None) -> TeamFile:
    """Read and check an uploaded team list. Never raises for bad content."""
    if size is not None and size > MAX_FILE_BYTES:
        return TeamFile(
            file_errors=[f"the file is larger than {MAX_FILE_BYTES // 1024 // 1024} MB"]
        )
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return TeamFile(
            file_errors=[f"the file is larger than {MAX_FILE_BYTES // 1024 // 1024} MB"]
        )
    if not data.strip():
        return TeamFile(file_errors=["the file is empty: it needs a header row and one row a team"])
    try:
        table = read_table(data, filename)
    except UnreadableFile as exc:
        return TeamFile(file_errors=[str(exc)])
    return parse_team_rows(table)


def conflicts_with_existing(rows: list[TeamRow], taken: dict[int, str]) -> list[RowProblem]:
    """Rows whose number an existing team of the tournament already has."""
    return [
        RowProblem(row.line, f"team number {row.number} is already used by {taken[row.number]!r}")
        for row in rows
        if row.number is not None and row.number in taken
    ]
