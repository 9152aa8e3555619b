"""Export files in the database storage: written by one process, read by another, with no
file on any host's disk; served streamed through the same permission checks; cleaned up."""

from __future__ import annotations

import hashlib
import io

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from publishing import services
from publishing.models import Export, StoredChunk, StoredFile
from publishing.storage import DatabaseStorage, export_storage
from tests.publishing.conftest import workbook

DATABASE = {"BACKEND": "publishing.storage.DatabaseStorage"}


@pytest.fixture
def database_exports(settings):
    settings.STORAGES = {**settings.STORAGES, "exports": DATABASE}


def run(cup, kind="results", fmt="xlsx", **extra) -> Export:
    export, _started = services.request_export(
        tournament=cup.tournament, kind=kind, fmt=fmt, enqueue=False, **extra
    )
    return services.run_export(export.pk)


def test_a_file_written_by_one_client_is_read_by_another_in_chunks(db):
    seed = 20261127
    print(f"seed {seed}")
    data = hashlib.shake_256(str(seed).encode()).digest(10_000)
    writer, reader = DatabaseStorage(chunk_bytes=4096), DatabaseStorage()
    name = writer.save("7/standings.xlsx", ContentFile(data))
    assert name == "7/standings.xlsx"
    stored = StoredFile.objects.get(name=name)
    assert stored.size == 10_000 and stored.chunks.count() == 3  # 4096 + 4096 + 1808
    with reader.open(name) as opened:
        assert opened.read(5000) == data[:5000]
        opened.seek(9000)
        assert opened.read() == data[9000:]
    assert reader.exists(name) and reader.size(name) == 10_000
    assert reader.listdir("") == (["7"], []) and reader.listdir("7") == ([], ["standings.xlsx"])
    # A name already taken gets another: a file is never overwritten.
    other = writer.save(name, ContentFile(b"other"))
    assert other != name and reader.open(other).read() == b"other"
    reader.delete(name)
    assert not writer.exists(name) and not StoredChunk.objects.filter(file=stored).exists()
    with pytest.raises(FileNotFoundError):
        reader.open(name)


def test_an_export_lives_in_the_database_and_is_served_from_it(
    cup, database_exports, export_root, organiser_client, client
):
    export = run(cup, kind="standings")
    assert export.state == Export.State.DONE, export.error
    assert isinstance(export_storage(), DatabaseStorage)
    assert not export_root.exists(), "nothing was written to this host's disk"
    stored = StoredFile.objects.get(name=export.file_path)
    assert stored.size == export.size
    # Another host: a new storage client reads what the worker wrote.
    body = DatabaseStorage().open(export.file_path).read()
    assert hashlib.sha256(body).hexdigest() == export.content_hash
    assert workbook(body).sheetnames[0] == "Standings"

    slug = cup.tournament.slug
    download = organiser_client.get(reverse("publishing:export-download", args=[slug, export.pk]))
    assert download.status_code == 200 and download.streaming
    streamed = b"".join(download.streaming_content)
    assert streamed == body
    assert download["Content-Length"] == str(len(body))
    assert download["Content-Disposition"].startswith("attachment;")
    assert export.download_name in download["Content-Disposition"]
    # The public address answers only once the file is published, as with any storage.
    public = reverse("publishing:published-download", args=[slug, export.pk])
    client.logout()
    assert client.get(public).status_code == 404
    services.publish_export(export=export, by=None)
    published = client.get(public)
    assert published.status_code == 200 and b"".join(published.streaming_content) == body


def test_cleanup_removes_old_files_from_the_database(cup, database_exports, settings):
    settings.PUBLISHING_EXPORTS_KEEP = 1
    first = run(cup, fmt="csv")
    last = run(cup, fmt="ods")
    assert not Export.objects.filter(pk=first.pk).exists()
    assert set(StoredFile.objects.values_list("name", flat=True)) == {last.file_path}
    # A file nobody refers to goes once it is old enough; a fresh one stays.
    orphan = export_storage().save(f"{cup.tournament.pk}/left.zip", io.BytesIO(b"x"))
    services.cleanup_all()
    assert export_storage().exists(orphan)
    StoredFile.objects.filter(name=orphan).update(created_at="2000-01-01T00:00:00Z")
    assert services.cleanup_all() == 1
    assert set(StoredFile.objects.values_list("name", flat=True)) == {last.file_path}


def test_an_unknown_storage_is_refused(monkeypatch):
    import importlib

    from django.core.exceptions import ImproperlyConfigured

    import config.settings

    monkeypatch.setenv("PUBLISHING_EXPORT_STORAGE", "nfs")
    with pytest.raises(ImproperlyConfigured, match="PUBLISHING_EXPORT_STORAGE"):
        importlib.reload(config.settings)
    monkeypatch.delenv("PUBLISHING_EXPORT_STORAGE")
    importlib.reload(config.settings)
