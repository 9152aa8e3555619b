"""Hostile team lists of the audit, built in memory: shared by tests/tournaments/
test_hostile_imports.py (each is refused) and bench/imports.py (memory and time of each)."""

from __future__ import annotations

import io
import zipfile

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
WORKBOOK = (
    f'<workbook xmlns="{MAIN}" '
    'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
    '<sheets><sheet name="Teams" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
RELS = (
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>'
)
SHEET_HEAD = (
    f'<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="{MAIN}"><sheetData>'
    '<row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c></row>'
    '<row r="2"><c r="A2" t="inlineStr"><is><t>Alpha</t></is></c></row>'
)
SHEET_TAIL = "</sheetData></worksheet>"
ODS_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">'
    '<office:body><office:spreadsheet><table:table table:name="Teams">'
)
ODS_TAIL = "</table:table></office:spreadsheet></office:body></office:document-content>"
ODS_HEADER_ROW = (
    '<table:table-row><table:table-cell office:value-type="string"><text:p>name</text:p>'
    "</table:table-cell></table:table-row>"
)


def zipped(parts: dict[str, str | bytes]) -> bytes:
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for name, content in parts.items():
            archive.writestr(name, content)
    return stream.getvalue()


def xlsx_with(sheet: str, workbook: str = WORKBOOK) -> bytes:
    return zipped(
        {
            "[Content_Types].xml": "<Types/>",
            "xl/workbook.xml": workbook,
            "xl/_rels/workbook.xml.rels": RELS,
            "xl/worksheets/sheet1.xml": sheet,
        }
    )


def nested_xlsx(depth: int = 2_700_000) -> bytes:
    """Some 20 kB that unpack to deeply nested elements in the sheet (ElementTree kept them
    all: +738 MB)."""
    return xlsx_with(SHEET_HEAD + "<x>" * depth + "</x>" * depth + SHEET_TAIL)


def nested_workbook_xlsx(depth: int = 200_000) -> bytes:
    """The nesting in workbook.xml, which was parsed whole."""
    workbook = WORKBOOK.replace("<sheets>", "<x>" * depth + "</x>" * depth + "<sheets>")
    return xlsx_with(SHEET_HEAD + SHEET_TAIL, workbook)


def nested_ods(depth: int = 2_700_000) -> bytes:
    return zipped(
        {"content.xml": ODS_HEAD + ODS_HEADER_ROW + "<x>" * depth + "</x>" * depth + ODS_TAIL}
    )


def flat_elements_xlsx(count: int = 1_000_000) -> bytes:
    """A million empty elements side by side, outside any row."""
    return xlsx_with(SHEET_HEAD + "<x/>" * count + SHEET_TAIL)


def entities_xlsx() -> bytes:
    """Entities that expand (billion laughs, in small)."""
    doctype = (
        '<!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]>'
    )
    sheet = SHEET_HEAD.replace("?>", "?>" + doctype, 1).replace("Alpha", "&b;") + SHEET_TAIL
    return xlsx_with(sheet)


def ratio_bomb_xlsx(megabytes: int = 15) -> bytes:
    """A part that unpacks a thousand times over (within the archive's total bound)."""
    return xlsx_with(SHEET_HEAD + " " * (megabytes * 1024 * 1024) + SHEET_TAIL)


def zip_bomb_xlsx(megabytes: int = 1024) -> bytes:
    """A gigabyte of zeros in a megabyte: refused from the archive's declared sizes. Written
    a megabyte at a time, so that building it costs no gigabyte either."""
    stream = io.BytesIO()
    chunk = b"\0" * (1024 * 1024)
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        with archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
            for _ in range(megabytes):
                part.write(chunk)
    return stream.getvalue()


def long_csv(lines: int = 2_600_000) -> bytes:
    """2.6 million one-character lines (within the 5 MB bound)."""
    return b"name\n" + b"1\n" * (lines - 1)


def blank_tail_csv(lines: int = 2_600_000) -> bytes:
    return b"name\nAlpha\n" + b"\n" * (lines - 2)


def wide_csv(columns: int = 1_000_000) -> bytes:
    """One line of a million cells."""
    return b"name" + b"," * columns + b"\nAlpha\n"


def long_cell_xlsx(chars: int = 100_000) -> bytes:
    return xlsx_with(SHEET_HEAD.replace("Alpha", "A" * chars) + SHEET_TAIL)
