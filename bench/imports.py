"""How long, and with how much memory, a hostile team list holds a web worker: each file
(tests/tournaments/bombs.py) is read and refused (or, for the good one, read) as an upload
would be; the time and the peak of Python's allocations (tracemalloc) are printed. Target:
under a second and 50 MB each. Figures only: nothing fails on them.
Run: .venv/bin/python bench/imports.py
"""

from __future__ import annotations

import io
import sys
import time
import tracemalloc
import zipfile
from pathlib import Path

import openpyxl

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _setup() -> None:
    """The reader needs Django: the model's field lengths bound the names."""
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    for name in ("DATABASE_URL", "CELERY_BROKER_URL"):
        os.environ.pop(name, None)
    django.setup()


def sparse() -> bytes:
    book = openpyxl.Workbook()
    book.active.append(["number", "name"])
    book.active["A1048576"] = "far"
    book.active["XFD1"] = "wide"
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def rows_xlsx(count: int) -> bytes:
    book = openpyxl.Workbook(write_only=True)
    sheet = book.create_sheet()
    sheet.append(["number", "name"])
    for number in range(1, count + 1):
        sheet.append([number, f"Team {number}"])
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def rows_csv(count: int) -> bytes:
    return ("number,name\n" + "".join(f"{n},Team {n}\n" for n in range(1, count + 1))).encode()


def ods_repeated(count: int) -> bytes:
    row = (
        '<table:table-row table:number-rows-repeated="{n}"><table:table-cell '
        'office:value-type="string"><text:p>{t}</text:p></table:table-cell></table:table-row>'
    )
    content = (
        '<?xml version="1.0" encoding="UTF-8"?><office:document-content '
        'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
        'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
        'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body>'
        "<office:spreadsheet><table:table>"
        + row.format(n=1, t="name")
        + row.format(n=count, t="Same team")
        + "</table:table></office:spreadsheet></office:body></office:document-content>"
    )
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("content.xml", content)
    return stream.getvalue()


def main() -> None:
    _setup()
    from tests.tournaments import bombs
    from tournaments.imports import read_entrant_file

    files = [
        ("decompression bomb (1 GB of zeros)", "bomb.xlsx", bombs.zip_bomb_xlsx()),
        ("nested XML, 2.7M levels, xlsx", "nested.xlsx", bombs.nested_xlsx()),
        ("nested XML, 100,000 levels, xlsx", "nested100k.xlsx", bombs.nested_xlsx(100_000)),
        ("nested workbook.xml, 100,000 levels", "nestedwb.xlsx", bombs.nested_workbook_xlsx()),
        ("nested XML, 2.7M levels, ods", "nested.ods", bombs.nested_ods()),
        ("a million elements side by side", "flat.xlsx", bombs.flat_elements_xlsx()),
        ("150,000 elements side by side", "flat150k.xlsx", bombs.flat_elements_xlsx(150_000)),
        ("entities (DTD)", "laughs.xlsx", bombs.entities_xlsx()),
        ("a part 1,000 times its packed size", "ratio.xlsx", bombs.ratio_bomb_xlsx()),
        ("2.6 million lines, csv", "lines.csv", bombs.long_csv()),
        ("2.6 million blank lines, csv", "blank.csv", bombs.blank_tail_csv()),
        ("a line of a million cells, csv", "wide.csv", bombs.wide_csv()),
        ("a cell of 100,000 characters, xlsx", "cell.xlsx", bombs.long_cell_xlsx()),
        ("sparse far cell (A1048576, XFD1)", "far.xlsx", sparse()),
        ("100,000 rows, xlsx", "long.xlsx", rows_xlsx(100_000)),
        ("100,000 rows, csv", "long.csv", rows_csv(100_000)),
        ("1,000,000 repeated rows, ods", "long.ods", ods_repeated(1_000_000)),
        ("a good list of 1,000 teams, xlsx", "good.xlsx", rows_xlsx(1_000)),
    ]
    print(f"{'file':<38} {'bytes':>10} {'seconds':>8} {'peak MB':>8}  answer")
    for label, name, data in files:
        # Time without tracemalloc (which slows every allocation), then the memory with it.
        started = time.perf_counter()
        result = read_entrant_file(io.BytesIO(data), name, len(data))
        seconds = time.perf_counter() - started
        tracemalloc.start()
        read_entrant_file(io.BytesIO(data), name, len(data))
        peak = tracemalloc.get_traced_memory()[1] / 1024 / 1024
        tracemalloc.stop()
        answer = result.file_errors[0] if result.file_errors else f"{len(result.rows)} rows"
        print(f"{label:<38} {len(data):>10,} {seconds:>8.3f} {peak:>8.1f}  {answer[:70]}")


if __name__ == "__main__":
    main()
