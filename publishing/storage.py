"""Where export files are kept: Django's storage API, chosen by ``STORAGES["exports"]``.

- ``ExportFolderStorage`` (the default): a folder on this host's disk,
  ``PUBLISHING_EXPORT_ROOT`` (``var/exports``), read when used so tests can move it. Enough
  for one machine and for ``make demo``.
- ``DatabaseStorage``: the bytes in the database (``StoredFile`` and its ``StoredChunk`` rows
  of 1 MiB), so every web host serves what any worker wrote, with no shared folder. A file
  is read one chunk at a time while it is sent: a download never holds the whole file in
  memory.

Any other Django storage (django-storages' S3 backend, say) works through the same setting.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import IO, Any

from django.core.files import File
from django.core.files.storage import FileSystemStorage, Storage, storages
from django.db import IntegrityError, transaction
from django.utils.deconstruct import deconstructible

CHUNK_BYTES = 1024 * 1024


@deconstructible
class ExportFolderStorage(FileSystemStorage):
    """Files under a folder of this host; without a ``location`` it is the export root of
    the settings at the time of each call."""

    @property  # type: ignore[override]
    def base_location(self) -> str:
        from publishing import conf

        return str(self._location or conf.export_root())

    @property  # type: ignore[override]
    def location(self) -> str:
        return os.path.abspath(self.base_location)

    def remove_folder(self, name: str) -> None:
        """Remove an empty folder (the storage API has none: folders are this storage's)."""
        with_path = Path(self.path(name))
        if with_path.is_dir() and not any(with_path.iterdir()):
            with_path.rmdir()


class _ChunkReader(io.RawIOBase):
    """A stored file's bytes, read from its chunks as they are needed."""

    def __init__(self, stored: Any):
        self.file_id, self.size, self.chunk_size = stored.pk, stored.size, stored.chunk_size
        self.position = 0
        self._chunk: tuple[int, bytes] = (-1, b"")

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.position

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self.position, io.SEEK_END: self.size}[whence]
        self.position = max(0, base + offset)
        return self.position

    def _piece(self, index: int) -> bytes:
        from publishing.models import StoredChunk

        if self._chunk[0] != index:
            data = (
                StoredChunk.objects.filter(file_id=self.file_id, index=index)
                .values_list("data", flat=True)
                .first()
            )
            if data is None:
                raise OSError(f"chunk {index} of stored file {self.file_id} is missing")
            self._chunk = (index, bytes(data))
        return self._chunk[1]

    def readinto(self, buffer: Any) -> int:
        if self.position >= self.size:
            return 0
        index, within = divmod(self.position, self.chunk_size)
        piece = self._piece(index)[within : within + len(buffer)]
        buffer[: len(piece)] = piece
        self.position += len(piece)
        return len(piece)


def _chunks(content: IO[bytes], size: int) -> Iterator[bytes]:
    if hasattr(content, "seek"):
        content.seek(0)
    while True:
        piece = content.read(size)
        if not piece:
            return
        yield piece


@deconstructible
class DatabaseStorage(Storage):
    """Files as rows of the default database. Names are unique; a name already taken is
    given another by ``get_available_name``, as with any storage."""

    def __init__(self, chunk_bytes: int = CHUNK_BYTES):
        self.chunk_bytes = chunk_bytes

    def _stored(self, name: str):
        from publishing.models import StoredFile

        return StoredFile.objects.filter(name=name).first()

    def _open(self, name: str, mode: str = "rb") -> File:
        if "w" in mode or "a" in mode or "+" in mode:
            raise ValueError("database files are written with save(), not opened for writing")
        stored = self._stored(name)
        if stored is None:
            raise FileNotFoundError(name)
        return File(io.BufferedReader(_ChunkReader(stored), buffer_size=stored.chunk_size), name)

    def _save(self, name: str, content: Any) -> str:
        from publishing.models import StoredChunk, StoredFile

        for _attempt in range(100):
            try:
                with transaction.atomic():
                    stored = StoredFile.objects.create(
                        name=name, size=0, chunk_size=self.chunk_bytes
                    )
                    size = 0
                    for index, piece in enumerate(_chunks(content, self.chunk_bytes)):
                        StoredChunk.objects.create(file=stored, index=index, data=piece)
                        size += len(piece)
                    StoredFile.objects.filter(pk=stored.pk).update(size=size)
                return name
            except IntegrityError:
                # Another process saved this name meanwhile: take the next free one.
                name = self.get_available_name(name)
        raise OSError(f"no free name for {name!r}")

    def exists(self, name: str) -> bool:
        from publishing.models import StoredFile

        return StoredFile.objects.filter(name=name).exists()

    def delete(self, name: str) -> None:
        from publishing.models import StoredFile

        StoredFile.objects.filter(name=name).delete()

    def size(self, name: str) -> int:
        stored = self._stored(name)
        if stored is None:
            raise FileNotFoundError(name)
        return stored.size

    def listdir(self, path: str) -> tuple[list[str], list[str]]:
        from publishing.models import StoredFile

        prefix = path.strip("/") + "/" if path.strip("/") else ""
        folders: set[str] = set()
        files: list[str] = []
        names = StoredFile.objects.filter(name__startswith=prefix).values_list("name", flat=True)
        for name in names:
            rest = name[len(prefix) :]
            folder, slash, _ = rest.partition("/")
            if slash:
                folders.add(folder)
            else:
                files.append(rest)
        return sorted(folders), sorted(files)

    def get_modified_time(self, name: str) -> datetime:
        stored = self._stored(name)
        if stored is None:
            raise FileNotFoundError(name)
        return stored.created_at

    get_created_time = get_modified_time

    def url(self, name: str | None) -> str:
        raise NotImplementedError("database files are served by the product's own views")


def export_storage() -> Storage:
    """The storage of export files: ``STORAGES["exports"]``, else the export folder."""
    from django.conf import settings

    if "exports" in settings.STORAGES:
        return storages["exports"]
    return ExportFolderStorage()
