"""Reading a member list from a spreadsheet (.xlsx, .ods) or a CSV file.

The file is read by the tournaments' hardened reader (``tournaments.imports.read_table``:
bounded sizes, no DTD, streamed XML); only the columns differ. The first row names them (any
order, case and spacing ignored): ``number`` and ``name`` (required), ``contact`` (optional),
``active`` and ``public`` (optional: yes/no, true/false, 1/0; both default to yes). Other
columns are ignored and reported.

Nothing is stored here: ``read_member_file`` returns the rows it understood and every problem
with its line number (the header is line 1); ``clubs.services.import_members`` stores all the
rows or none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import IO

from django.utils.translation import gettext as _

from clubs.models import Member
from tournaments.imports import MAX_FILE_BYTES, UnreadableFile, read_table

MAX_MEMBERS = 1000
NAME_MAX = Member._meta.get_field("name").max_length
NUMBER_MAX = Member._meta.get_field("number").max_length
CONTACT_MAX = Member._meta.get_field("contact").max_length

COLUMN_ALIASES = {
    "number": {
        "number",
        "no",
        "nr",
        "num",
        "#",
        "membernumber",
        "memberno",
        "membernr",
        "id",
        # A French club's sheet: numéro, n°, numéro d'adhérent, licence.
        "numéro",
        "numero",
        "n°",
        "numérod'adhérent",
        "numerodadherent",
        "licence",
    },
    "name": {"name", "member", "membername", "player", "nom", "adhérent", "joueur"},
    "contact": {"contact", "email", "mail", "phone", "telephone", "courriel", "téléphone", "tél"},
    "active": {"active", "actif"},
    "public": {"public", "shownpublicly", "publicpages", "pagespubliques"},
}
YES = {"yes", "y", "true", "1", "x", "oui"}
NO = {"no", "n", "false", "0", "", "non"}


@dataclass(frozen=True)
class MemberRow:
    line: int
    number: str
    name: str
    contact: str = ""
    active: bool = True
    public: bool = True


@dataclass
class MemberFile:
    rows: list[MemberRow] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # "line N: reason"
    file_errors: list[str] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems and not self.file_errors

    def all_messages(self) -> list[str]:
        return self.file_errors + self.problems


def at_line(line: int, problem: str) -> str:
    """A problem named by its line (the header is line 1)."""
    return _("line %(line)s: %(problem)s") % {"line": line, "problem": problem}


def _normalise_header(text: str) -> str:
    return re.sub(r"[\s_\-.]+", "", str(text).strip().lower())


def normalise_number(text: str) -> str:
    """A member number as stored: trimmed, inner spaces dropped; ``12.0`` from a spreadsheet's
    number cell is already ``12`` (the reader writes whole numbers without a point)."""
    return re.sub(r"\s+", "", str(text))


def _map_columns(header: list[str], result: MemberFile) -> dict[str, int]:
    columns: dict[str, int] = {}
    for index, title in enumerate(header):
        key = _normalise_header(title)
        if not key:
            continue
        column = next((name for name, aliases in COLUMN_ALIASES.items() if key in aliases), None)
        if column is None:
            result.ignored_columns.append(title)
        elif column in columns:
            result.file_errors.append(
                at_line(1, _("two columns mean %(column)s") % {"column": repr(column)})
            )
        else:
            columns[column] = index
    missing = [name for name in ("number", "name") if name not in columns]
    if missing:
        found = ", ".join(repr(title) for title in header if title) or _("none")
        problem = _(
            "no %(columns)s column (columns found: %(found)s); the first row must name the "
            "columns: number, name, contact, active, public"
        ) % {"columns": _(" or ").join(repr(m) for m in missing), "found": found}
        result.file_errors.append(at_line(1, problem))
    return columns


def _read_flag(text: str, column: str, reasons: list[str]) -> bool:
    """yes/no in a cell; a blank cell is yes (the default)."""
    word = text.strip().lower()
    if word == "" or word in YES:
        return True
    if word in NO:
        return False
    reasons.append(
        _("%(column)s %(text)s is not yes or no") % {"column": column, "text": repr(text)}
    )
    return True


def _read_row(
    line: int, cells: list[str], columns: dict[str, int], header: list[str]
) -> MemberRow | str:
    def cell(column: str) -> str:
        index = columns.get(column)
        return cells[index].strip() if index is not None and index < len(cells) else ""

    reasons: list[str] = []
    number, name, contact = normalise_number(cell("number")), cell("name"), cell("contact")
    if not number:
        reasons.append(_("the member number is missing"))
    elif len(number) > NUMBER_MAX:
        reasons.append(
            _("the member number is longer than %(count)s characters") % {"count": NUMBER_MAX}
        )
    if not name:
        reasons.append(_("the name is missing"))
    elif len(name) > NAME_MAX:
        reasons.append(_("the name is longer than %(count)s characters") % {"count": NAME_MAX})
    if len(contact) > CONTACT_MAX:
        reasons.append(
            _("the contact is longer than %(count)s characters") % {"count": CONTACT_MAX}
        )

    # A flag's problem names the column as the file does ("actif", "Public").
    def title(column: str) -> str:
        index = columns.get(column)
        return str(header[index]).strip() if index is not None else column

    active = _read_flag(cell("active"), title("active"), reasons)
    public = _read_flag(cell("public"), title("public"), reasons)
    if reasons:
        return at_line(line, "; ".join(reasons))
    return MemberRow(line, number, name, contact, active, public)


def parse_member_rows(table: list[list[str]]) -> MemberFile:
    """Check a table of text cells (header first): good rows, and every bad one by line;
    a member number twice in the file is a problem of its second line."""
    result = MemberFile()
    lines = [(line, cells) for line, cells in enumerate(table, start=1) if any(cells)]
    if not lines or lines[0][0] != 1:
        result.file_errors.append(_("line 1 must name the columns: number, name, contact, ..."))
        return result
    columns = _map_columns(lines[0][1], result)
    if result.file_errors:
        return result
    if not lines[1:]:
        result.file_errors.append(_("the file holds the column names but no members"))
    elif len(lines) - 1 > MAX_MEMBERS:
        result.file_errors.append(
            _("the file lists %(count)s members; a club's list holds at most %(most)s")
            % {"count": len(lines) - 1, "most": MAX_MEMBERS}
        )
        return result
    first_line_of: dict[str, int] = {}
    for line, cells in lines[1:]:
        row = _read_row(line, cells, columns, lines[0][1])
        if isinstance(row, str):
            result.problems.append(row)
        elif row.number.lower() in first_line_of:
            result.problems.append(
                at_line(
                    line,
                    _("member number %(number)s is also on line %(first)s")
                    % {"number": row.number, "first": first_line_of[row.number.lower()]},
                )
            )
        else:
            first_line_of[row.number.lower()] = line
            result.rows.append(row)
    return result


def read_member_file(stream: IO[bytes], filename: str, size: int | None = None) -> MemberFile:
    """Read and check an uploaded member list. Never raises for bad content."""
    too_large = _("the file is larger than %(count)s MB") % {
        "count": MAX_FILE_BYTES // 1024 // 1024
    }
    if size is not None and size > MAX_FILE_BYTES:
        return MemberFile(file_errors=[too_large])
    data = stream.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        return MemberFile(file_errors=[too_large])
    if not data.strip():
        return MemberFile(file_errors=[_("the file is empty: it needs a header row and a member")])
    try:
        table = read_table(data, filename)
    except UnreadableFile as exc:
        return MemberFile(file_errors=[str(exc)])
    return parse_member_rows(table)


# --- many entrants linked at once --------------------------------------------------------------

MAX_LINK_LINES = MAX_MEMBERS


@dataclass(frozen=True)
class LinkRow:
    """One line of the link form: an entrant's number (None: a new entrant) and the member
    numbers of its players (blank: a guest)."""

    line: int
    entrant: int | None
    numbers: tuple[str, ...]


def parse_link_lines(text: str, *, numbered: bool = True) -> tuple[list[LinkRow], list[str]]:
    """Lines of ``entrant number, member number, member number`` (commas, semicolons, tabs or
    spaces between; ``numbered`` False: the member numbers only, for new entrants). A blank
    line is skipped but counted. Returns the rows and every problem by line."""
    rows: list[LinkRow] = []
    problems: list[str] = []
    lines = text.splitlines()
    if len(lines) > MAX_LINK_LINES:
        return [], [
            _("at most %(most)s lines at once, not %(count)s")
            % {"most": MAX_LINK_LINES, "count": len(lines)}
        ]
    for line, raw in enumerate(lines, start=1):
        words = [word for word in re.split(r"[,;\t ]+", raw.strip()) if word]
        if not words:
            continue
        entrant = None
        if numbered:
            head = words.pop(0)
            if not head.isdigit() or int(head) < 1:
                problems.append(
                    at_line(line, _("%(word)s is not an entrant's number") % {"word": repr(head)})
                )
                continue
            entrant = int(head)
        if len(words) > 2:
            problems.append(at_line(line, _("more than two member numbers")))
            continue
        too_long = [word for word in words if len(word) > NUMBER_MAX]
        if too_long:
            problems.append(
                at_line(
                    line, _("%(word)s is not a member number") % {"word": repr(too_long[0][:30])}
                )
            )
            continue
        rows.append(LinkRow(line, entrant, tuple(words)))
    return rows, problems
