"""CSV export: one file per sheet, zipped. Plain tables (a header line, then the rows): no
title, stamp or splitting (CSV has no row limit); ``about.csv`` holds the stamp. UTF-8 with
a byte-order mark so that Excel reads accented names right. A text that a spreadsheet would run
as a formula is written with a leading apostrophe (``csv_safe``)."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

from publishing.exports.fixedzip import FixedTimeZipFile, zip_time
from publishing.exports.sheets import Progress, SheetSpec, Stamp, Styled, csv_safe

ENCODING = "utf-8-sig"


def _plain(value):
    return value.value if isinstance(value, Styled) else value


def _about(stamp: Stamp) -> bytes:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["key", "value"])
    writer.writerow(csv_safe(["tournament", stamp.tournament]))
    writer.writerow(["standings", stamp.text])
    writer.writerow(["computed_at", stamp.computed_at.isoformat() if stamp.computed_at else ""])
    return buffer.getvalue().encode(ENCODING)


def write_csv_zip(
    sheets: list[SheetSpec], target: Path, stamp: Stamp, *, progress: Progress | None = None
) -> int:
    """Write every tabular sheet as ``NN-slug.csv`` into the zip ``target``; returns rows."""
    written = 0
    with (
        FixedTimeZipFile(target, zip_time(stamp.computed_at)) as archive,
        tempfile.TemporaryDirectory(prefix="pym-csv-") as work,
    ):
        archive.writestr("about.csv", _about(stamp))
        number = 0
        for spec in sheets:
            if not spec.in_csv:
                continue
            number += 1
            path = Path(work) / f"{number:02d}-{spec.slug}.csv"
            written += _write_sheet(spec, path, progress)
            archive.write(str(path), path.name)
            path.unlink()
    return written


def _write_sheet(spec: SheetSpec, path: Path, progress: Progress | None) -> int:
    """One sheet as a CSV file, its header first (a sheet of styled cells as plain values);
    returns its rows."""
    if progress is not None:
        progress.start(f"Writing {path.name}")
    written = 0
    with open(path, "w", encoding=ENCODING, newline="") as out:
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(csv_safe([column.header for column in spec.columns]))
        for block in spec.blocks():
            if spec.tabular:
                writer.writerows(csv_safe(row) for row in block)
            else:
                writer.writerows(csv_safe([_plain(value) for value in row]) for row in block)
            written += len(block)
            if progress is not None:
                progress.add(len(block), f"Writing {path.name}")
    return written
