"""The OpenDocument spreadsheet (.ods) writer, for organisers without Excel.

The sheet XML is streamed to a temporary file row by row and then zipped, so memory stays
bounded whatever the size (building an odfpy document tree would hold every cell). The same
sheets as the workbook, with the same title, stamp and header rows, the header frozen and a
filter on each table; numbers are stored as numbers. There are no charts: the Places sheet
holds the numbers the workbook's chart draws.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from xml.sax.saxutils import escape, quoteattr

from publishing.exports.fixedzip import FixedTimeZipFile, zip_time
from publishing.exports.sheets import (
    HEADER_ROW,
    SPREADSHEET_MAX_ROWS,
    Progress,
    SheetSpec,
    Stamp,
    Styled,
    split_blocks,
)
from publishing.exports.xlsx import HAND_ROW_HEIGHT, ONE_PAGE_ROWS, PORTRAIT_WIDTH

MIMETYPE = "application/vnd.oasis.opendocument.spreadsheet"
NAMESPACES = (
    'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
    'xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" '
    'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" '
    'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
    'xmlns:fo="urn:oasis:names:tc:opendocument:xmlns:xsl-fo-compatible:1.0" '
    'xmlns:config="urn:oasis:names:tc:opendocument:xmlns:config:1.0" '
    'xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" '
    'xmlns:dc="http://purl.org/dc/elements/1.1/" '
    'xmlns:loext="urn:org:documentfoundation:names:experimental:office:xmlns:loext:1.0" '
    'office:version="1.2"'
)
CM_PER_CHARACTER = 0.2
CELL_STYLES = """
<style:style style:name="ceTitle" style:family="table-cell"><style:text-properties fo:font-size="14pt" fo:font-weight="bold"/></style:style>
<style:style style:name="ceStamp" style:family="table-cell"><style:text-properties fo:font-style="italic" fo:color="#444444"/></style:style>
<style:style style:name="ceHeader" style:family="table-cell"><style:table-cell-properties fo:background-color="#dde4ee" fo:border-bottom="0.5pt solid #000000"/><style:text-properties fo:font-weight="bold"/></style:style>
<style:style style:name="ceBlock" style:family="table-cell"><style:table-cell-properties fo:border-top="0.5pt solid #888888"/></style:style>
<style:style style:name="ceWrap" style:family="table-cell"><style:table-cell-properties fo:wrap-option="wrap" style:vertical-align="top"/></style:style>
<style:style style:name="ceTop" style:family="table-cell"><style:table-cell-properties style:vertical-align="top"/></style:style>
<style:style style:name="ceWrapText" style:family="table-cell"><style:table-cell-properties fo:wrap-option="wrap" style:vertical-align="top" fo:padding-left="0.15cm"/></style:style>
<style:style style:name="ceSquare" style:family="table-cell"><style:table-cell-properties fo:wrap-option="wrap" style:vertical-align="middle" fo:background-color="#f4f1ea" fo:border="0.5pt solid #888888"/><style:paragraph-properties fo:text-align="center"/></style:style>
<style:style style:name="ceCaption" style:family="table-cell"><style:text-properties fo:font-weight="bold"/></style:style>
"""  # noqa: E501
STYLE_OF = {"hand": "ceWrap", "square": "ceSquare", "caption": "ceCaption"}
# Characters XML 1.0 does not allow (the builders clean user text; this is the last guard).
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")


def _text_cell(text: str, style: str = "") -> str:
    attribute = f' table:style-name="{style}"' if style else ""
    paragraphs = "".join(
        f"<text:p>{escape(line)}</text:p>" for line in _NOT_XML.sub("", text).split("\n")
    )
    return (
        f'<table:table-cell{attribute} office:value-type="string">{paragraphs}</table:table-cell>'
    )


def _cell(value, style: str = "") -> str:
    if isinstance(value, Styled):
        return _cell(value.value, STYLE_OF.get(value.style, ""))
    if value is None:
        return f'<table:table-cell table:style-name="{style}"/>' if style else "<table:table-cell/>"
    if isinstance(value, int | float) and not isinstance(value, bool):
        attribute = f' table:style-name="{style}"' if style else ""
        return (
            f'<table:table-cell{attribute} office:value-type="float" office:value="{value!r}">'
            f"<text:p>{value!r}</text:p></table:table-cell>"
        )
    return _text_cell(str(value), style)


def _spanning(cell: str, columns: int) -> str:
    """A cell that spans the table's columns (the title and the stamp: never cut in print),
    with the covered cells the format asks for after it."""
    if columns < 2:
        return cell
    spanned = cell.replace(
        "<table:table-cell", f'<table:table-cell table:number-columns-spanned="{columns}"', 1
    )
    return spanned + "<table:covered-table-cell/>" * (columns - 1)


def _width_style(width: float) -> str:
    return f"co{round(width * 10)}"


def _range_address(sheet: str, last_column: int, last_row: int) -> str:
    quoted = "'" + sheet.replace("'", "''") + "'"
    column = _column_letters(last_column)
    return f"{quoted}.A{HEADER_ROW}:{quoted}.{column}{last_row}"


def _column_letters(number: int) -> str:
    letters = ""
    while number:
        number, remainder = divmod(number - 1, 26)
        letters = chr(65 + remainder) + letters
    return letters or "A"


class _ContentWriter:
    def __init__(self, out, stamp: Stamp):
        self.out, self.stamp = out, stamp
        self.filters: list[tuple[str, int, int]] = []
        self.frozen: list[str] = []

    def start(self, sheets: Iterable[SheetSpec]) -> None:
        widths = sorted({column.width for spec in sheets for column in spec.columns})
        column_styles = "".join(
            f'<style:style style:name="{_width_style(w)}" style:family="table-column">'
            f'<style:table-column-properties style:column-width="{w * CM_PER_CHARACTER:.2f}cm"/>'
            "</style:style>"
            for w in widths
        )
        tall = (
            '<style:style style:name="roTall" style:family="table-row">'
            f'<style:table-row-properties style:row-height="{HAND_ROW_HEIGHT / 28.35:.2f}cm"/>'
            "</style:style>"
        )
        self.out.write(
            f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-content {NAMESPACES}>'
            f"<office:automatic-styles>{column_styles}{tall}{CELL_STYLES}{TABLE_STYLES}"
            "</office:automatic-styles>"
            "<office:body><office:spreadsheet>"
        )

    def sheet(self, name: str, spec: SheetSpec, blocks, progress: Progress | None) -> int:
        write = self.out.write
        write(f'<table:table table:name={quoteattr(name)} table:style-name="{table_style(spec)}">')
        for column in spec.columns:
            write(f'<table:table-column table:style-name="{_width_style(column.width)}"/>')
        self._head(spec)
        rows = 0
        wrap = {i for i, column in enumerate(spec.columns) if column.wrap}
        for block in blocks:
            for index, row in enumerate(block):
                write(_row_xml(spec, row, wrap, first=index == 0))
            rows += len(block)
            if progress is not None:
                progress.add(len(block), f"Writing the {name} sheet")
        write("</table:table>")
        if spec.tabular:
            self.filters.append((name, max(1, len(spec.columns)), HEADER_ROW + rows))
            self.frozen.append(name)
        return rows

    def _head(self, spec: SheetSpec) -> None:
        """Title, stamp and headers: they repeat on every printed page of a table."""
        write = self.out.write
        if spec.tabular:
            write("<table:table-header-rows>")
        columns = len(spec.columns)
        title = _spanning(_cell(spec.title, "ceTitle"), columns)
        write(f"<table:table-row>{title}</table:table-row>")
        stamp_text = f"{self.stamp.text} {spec.note}".strip()
        stamp = _spanning(_cell(stamp_text, "ceStamp"), columns)
        write(f"<table:table-row>{stamp}</table:table-row>")
        if spec.tabular:
            headers = "".join(_cell(column.header, "ceHeader") for column in spec.columns)
            write(f"<table:table-row>{headers}</table:table-row>")
            write("</table:table-header-rows>")
        else:
            write("<table:table-row><table:table-cell/></table:table-row>")

    def finish(self) -> None:
        if self.filters:
            self.out.write("<table:database-ranges>")
            for number, (name, columns, last_row) in enumerate(self.filters):
                address = _range_address(name, columns, last_row)
                self.out.write(
                    f'<table:database-range table:name="__Anonymous_Sheet_DB__{number}" '
                    f"table:target-range-address={quoteattr(address)} "
                    'table:display-filter-buttons="true"/>'
                )
            self.out.write("</table:database-ranges>")
        self.out.write("</office:spreadsheet></office:body></office:document-content>")


def _row_xml(spec: SheetSpec, row: list, wrap: set[int], *, first: bool) -> str:
    """One row of a sheet: a block's first row marked (when the sheet marks blocks), wrapped
    columns (the row's other cells from the top; the row is as tall as its text, LibreOffice
    fits rows without a height of their own), and tall when it shows hands."""
    if spec.mark_blocks and first:
        cells = "".join(_cell(value, "ceBlock") for value in row)
    elif wrap:
        cells = "".join(
            _cell(value, "ceWrapText" if i in wrap else "ceTop") for i, value in enumerate(row)
        )
    else:
        cells = "".join(map(_cell, row))
    tall = spec.row_height or any(
        isinstance(item, Styled) and item.style in ("hand", "square") for item in row
    )
    row_style = ' table:style-name="roTall"' if tall else ""
    return f"<table:table-row{row_style}>{cells}</table:table-row>"


def _settings_xml(frozen: list[str]) -> str:
    def item(name: str, kind: str, value: int) -> str:
        return (
            f'<config:config-item config:name="{name}" config:type="{kind}">{value}'
            "</config:config-item>"
        )

    entries = "".join(
        f"<config:config-item-map-entry config:name={quoteattr(name)}>"
        + item("HorizontalSplitMode", "short", 0)
        + item("VerticalSplitMode", "short", 2)
        + item("HorizontalSplitPosition", "int", 0)
        + item("VerticalSplitPosition", "int", HEADER_ROW)
        + item("ActiveSplitRange", "short", 2)
        + item("PositionTop", "int", 0)
        + item("PositionBottom", "int", HEADER_ROW)
        + "</config:config-item-map-entry>"
        for name in frozen
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-settings {NAMESPACES}>'
        '<office:settings><config:config-item-set config:name="ooo:view-settings">'
        '<config:config-item-map-indexed config:name="Views"><config:config-item-map-entry>'
        '<config:config-item config:name="ViewId" config:type="string">view1</config:config-item>'
        f'<config:config-item-map-named config:name="Tables">{entries}'
        "</config:config-item-map-named></config:config-item-map-entry>"
        "</config:config-item-map-indexed></config:config-item-set></office:settings>"
        "</office:document-settings>"
    )


def _meta_xml(stamp: Stamp) -> str:
    created = stamp.computed_at.strftime("%Y-%m-%dT%H:%M:%S") if stamp.computed_at else ""
    dates = (
        f"<meta:creation-date>{created}</meta:creation-date><dc:date>{created}</dc:date>"
        if created
        else ""
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-meta {NAMESPACES}>'
        f"<office:meta><meta:generator>Duplicate card tournaments</meta:generator>"
        f"<dc:title>{escape(_NOT_XML.sub('', stamp.tournament))}</dc:title>{dates}</office:meta>"
        "</office:document-meta>"
    )


# How a sheet prints, as the Excel workbook does (xlsx.py): A4, landscape when wide, scaled to
# the page's width (a short sheet to one page), the title and header rows on every page, the
# tournament and sheet in the page header and the page number in the footer. One master page
# for each orientation and fit; a sheet's table style names its master page.
PAGE_FITS = {
    "W": 'loext:scale-to-X="1" loext:scale-to-Y="0"',  # the width of one page, pages down
    "1": 'style:scale-to-pages="1"',  # the whole sheet on one page
}


def _page_style(orientation: str, fit: str) -> str:
    return f"{orientation}{fit}"


def _styles_xml(stamp: Stamp) -> str:
    layouts, masters = [], []
    for orientation, (width, height) in (("P", ("21cm", "29.7cm")), ("L", ("29.7cm", "21cm"))):
        for fit, scale in PAGE_FITS.items():
            name = _page_style(orientation, fit)
            print_orientation = "portrait" if orientation == "P" else "landscape"
            layouts.append(
                f'<style:page-layout style:name="pm{name}"><style:page-layout-properties '
                f'fo:page-width="{width}" fo:page-height="{height}" '
                f'style:print-orientation="{print_orientation}" fo:margin-left="1cm" '
                f'fo:margin-right="1cm" fo:margin-top="1cm" fo:margin-bottom="1cm" '
                f'style:table-centering="horizontal" {scale}/></style:page-layout>'
            )
            masters.append(
                f'<style:master-page style:name="mp{name}" style:page-layout-name="pm{name}">'
                f"<style:header><text:p>{escape(stamp.tournament)} · <text:sheet-name/></text:p>"
                "</style:header><style:footer><text:p>Page <text:page-number/> of "
                "<text:page-count/></text:p></style:footer></style:master-page>"
            )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<office:document-styles {NAMESPACES}>'
        f"<office:styles/><office:automatic-styles>{''.join(layouts)}</office:automatic-styles>"
        f"<office:master-styles>{''.join(masters)}</office:master-styles>"
        "</office:document-styles>"
    )


def table_style(spec: SheetSpec) -> str:
    """The table style of a sheet: its master page, by width and length."""
    wide = sum(column.width for column in spec.columns) > PORTRAIT_WIDTH
    return "ta" + _page_style("L" if wide else "P", "1" if spec.row_count <= ONE_PAGE_ROWS else "W")


TABLE_STYLES = "".join(
    f'<style:style style:name="ta{name}" style:family="table" style:master-page-name="mp{name}"/>'
    for name in (_page_style(o, fit) for o in "PL" for fit in PAGE_FITS)
)
MANIFEST_XML = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" '
    'manifest:version="1.2">'
    f'<manifest:file-entry manifest:full-path="/" manifest:version="1.2" '
    f'manifest:media-type="{MIMETYPE}"/>'
    + "".join(
        f'<manifest:file-entry manifest:full-path="{name}" manifest:media-type="text/xml"/>'
        for name in ("content.xml", "styles.xml", "meta.xml", "settings.xml")
    )
    + "</manifest:manifest>"
)


def write_ods(
    sheets: list[SheetSpec],
    target: Path,
    stamp: Stamp,
    *,
    max_sheet_rows: int = SPREADSHEET_MAX_ROWS,
    progress: Progress | None = None,
) -> int:
    """Write the sheets to ``target`` as an OpenDocument spreadsheet; returns data rows."""
    written = 0
    with tempfile.TemporaryDirectory(prefix="pym-ods-") as work:
        content_path = Path(work) / "content.xml"
        with open(content_path, "w", encoding="utf-8", buffering=1 << 20) as out:
            content = _ContentWriter(out, stamp)
            content.start(sheets)
            for spec in sheets:
                if spec.slug == "places-chart":
                    continue  # no charts in this format; the numbers are on their own sheet
                for name, blocks in split_blocks(spec, max_sheet_rows - HEADER_ROW):
                    if progress is not None:
                        progress.start(f"Writing the {name} sheet")
                    written += content.sheet(name, spec, blocks, progress)
            content.finish()
        moment: datetime | None = stamp.computed_at
        with FixedTimeZipFile(target, zip_time(moment)) as archive:
            archive.writestr("mimetype", MIMETYPE, compress_type=0)
            archive.writestr("META-INF/manifest.xml", MANIFEST_XML)
            archive.write(str(content_path), "content.xml")
            archive.writestr("styles.xml", _styles_xml(stamp))
            archive.writestr("meta.xml", _meta_xml(stamp))
            archive.writestr("settings.xml", _settings_xml(content.frozen))
    return written
