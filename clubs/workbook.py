"""A season's ladder as a workbook that prints (.xlsx): the title, the rule in words, the
ladder, and the events it was computed from. Every text is stored as text (a name such as
``=1+1`` is never a formula); numbers are numbers."""

from __future__ import annotations

import io
from typing import Any

from django.utils.translation import gettext as _
from openpyxl import Workbook
from openpyxl.cell import Cell
from openpyxl.styles import Font
from openpyxl.worksheet.worksheet import Worksheet

from clubs.seasons import LadderView


def _row(sheet: Worksheet, values: list[Any], bold: bool = False) -> None:
    sheet.append([None] * len(values))
    row = sheet.max_row
    for column, value in enumerate(values, start=1):
        cell: Cell = sheet.cell(row=row, column=column)
        cell.value = value
        if isinstance(value, str):
            cell.data_type = "s"  # text, even when it starts with "="
        if bold:
            cell.font = Font(bold=True)


def ladder_workbook(view: LadderView, rule_words: str) -> bytes:
    book = Workbook()
    sheet = book.active
    season = view.season
    sheet.title = _("Ladder")
    _row(sheet, [f"{season.club.name}: {season.name}"], bold=True)
    dates = _("From %(starts)s to %(ends)s.") % {
        "starts": f"{season.starts:%d/%m/%Y}",
        "ends": f"{season.ends:%d/%m/%Y}",
    }
    _row(sheet, [f"{dates} {rule_words}"])
    _row(sheet, [_("Place"), _("Member"), _("Season score"), _("Events")], bold=True)
    opted_out = _("(opted out)")
    for line in view.lines:
        _row(sheet, [line.place, line.shown_name or opted_out, line.score, line.events])
    sheet.freeze_panes = "A4"
    sheet.print_title_rows = "3:3"
    sheet.page_setup.fitToWidth = 1
    sheet.page_setup.fitToHeight = 0
    sheet.sheet_properties.pageSetUpPr.fitToPage = True
    for column, width in zip("ABCD", (8, 36, 10, 8), strict=True):
        sheet.column_dimensions[column].width = width
    events = book.create_sheet(_("Events"))
    _row(events, [_("Date"), _("Event"), _("Game")], bold=True)
    for event in view.events:
        _row(events, [f"{event.club_event.date:%d/%m/%Y}", event.name, event.game_rules.title])
    events.column_dimensions["B"].width = 40
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()
