"""A zip archive whose entries all carry one given time, so the same content gives the same
bytes: xlsx and ods files are zip archives, and zip entries normally carry the time they were
written."""

from __future__ import annotations

import os
import shutil
import zipfile
from datetime import datetime
from typing import IO

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
ENTRY_MODE = 0o644 << 16  # -rw-r--r--, the same on every machine
ZIP64_FROM = 2**31 - 1


def zip_time(moment: datetime | None) -> tuple[int, int, int, int, int, int]:
    """A zip entry time for ``moment`` (its calendar fields as given); 1980-01-01 for None."""
    if moment is None or moment.year < 1980:
        return ZIP_EPOCH
    return (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second)


class FixedTimeZipFile(zipfile.ZipFile):
    """``ZipFile`` for writing, with every entry dated ``date_time`` and deflated."""

    def __init__(self, file: str | os.PathLike | IO[bytes], date_time: tuple[int, ...]):
        super().__init__(file, "w", compression=zipfile.ZIP_DEFLATED, allowZip64=True)
        self.fixed_date_time = tuple(date_time)

    def entry(self, name: str, compress: bool = True) -> zipfile.ZipInfo:
        info = zipfile.ZipInfo(name, date_time=self.fixed_date_time)
        info.compress_type = zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED
        info.external_attr = ENTRY_MODE
        return info

    def writestr(self, zinfo_or_arcname, data, compress_type=None, compresslevel=None):
        name = (
            zinfo_or_arcname.filename
            if isinstance(zinfo_or_arcname, zipfile.ZipInfo)
            else zinfo_or_arcname
        )
        info = self.entry(name, compress=compress_type != zipfile.ZIP_STORED)
        super().writestr(info, data)

    def write(self, filename, arcname=None, compress_type=None, compresslevel=None):
        """Copy a file in, streaming (openpyxl's write-only sheets are temporary files)."""
        name = arcname or os.path.basename(filename)
        size = os.path.getsize(filename)
        info = self.entry(name)
        info.file_size = size
        with (
            open(filename, "rb") as source,
            self.open(info, "w", force_zip64=size >= ZIP64_FROM) as target,
        ):
            shutil.copyfileobj(source, target, 1 << 20)
