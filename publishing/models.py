"""Publishing: what the organiser lets the public see, the export files and the chart data.

- ``PublishingSettings``: one row per tournament (made on first change; absent means the
  defaults): publish the standings workbook after every round, and when the hand records
  become public.
- ``Export``: one export job and its file. The same tournament state, kind and format give
  the same bytes, so a finished export is reused rather than made again.
- ``ChartData``: the places after every round and the spread of results at every complete
  table, computed by a task after the standings change; pages only read it.
- ``StoredFile`` and its ``StoredChunk`` rows: export files kept in the database when the
  ``exports`` storage is ``publishing.storage.DatabaseStorage`` (every host reaches them).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament


class HandRecords(models.TextChoices):
    HIDDEN = "hidden", _("Not public")
    AFTER_FINAL = "after_final", _("Public once the standings are final")
    AFTER_PLAY = (
        "after_play",
        _("Public table by table, as soon as every match at the table has its result"),
    )


class PublishingSettings(models.Model):
    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="publishing_settings"
    )
    auto_publish_standings = models.BooleanField(
        _("publish the standings workbook after every round"),
        default=False,
        help_text=_(
            "When every match of a round has its result, the standings workbook is "
            "written and offered on the public downloads page."
        ),
    )
    hand_records = models.CharField(
        _("hand records"),
        max_length=12,
        choices=HandRecords.choices,
        default=HandRecords.HIDDEN,
        help_text=_("The deals and every result played on them, on a public page."),
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "publishing settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(hand_records__in=HandRecords.values),
                name="publishing_hand_records_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"Publishing settings of {self.tournament}"


class Export(models.Model):
    class Kind(models.TextChoices):
        RESULTS = "results", _("Full results workbook")
        STANDINGS = "standings", _("Standings workbook")

    class Format(models.TextChoices):
        XLSX = "xlsx", _("Excel workbook (.xlsx)")
        ODS = "ods", _("OpenDocument spreadsheet (.ods)")
        CSV = "csv", _("CSV files, zipped (.zip)")

    class State(models.TextChoices):
        QUEUED = "queued", _("Waiting for the worker")
        RUNNING = "running", _("Being written")
        DONE = "done", _("Ready")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="exports")
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.RESULTS)
    format = models.CharField(max_length=4, choices=Format.choices, default=Format.XLSX)
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    progress = models.PositiveSmallIntegerField(default=0, help_text="Percent done.")
    step = models.CharField(max_length=200, blank=True)
    # The tournament state the file shows: the export key with kind and format.
    computed_version = models.PositiveIntegerField(null=True, blank=True)
    results_version = models.PositiveIntegerField(null=True, blank=True)
    tournament_status = models.CharField(max_length=10, blank=True)
    # The file's sheets, headers and words are in the tournament's language of the time.
    language = models.CharField(max_length=8, blank=True, default="")
    after_round = models.PositiveIntegerField(
        null=True, blank=True, help_text="Published automatically after this round."
    )
    holds = models.CharField(
        max_length=200,
        blank=True,
        help_text="The results the file holds, in words (its label on the downloads page).",
    )
    file_path = models.CharField(max_length=500, blank=True, help_text="Under EXPORT_ROOT.")
    content_hash = models.CharField(max_length=64, blank=True, help_text="SHA-256 of the file.")
    size = models.BigIntegerField(null=True, blank=True)
    rows = models.PositiveIntegerField(null=True, blank=True)
    published = models.BooleanField(default=False)
    published_at = models.DateTimeField(null=True, blank=True)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "kind", "format", "state"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=["results", "standings"]), name="export_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(format__in=["xlsx", "ods", "csv"]), name="export_format_valid"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["queued", "running", "done", "failed"]),
                name="export_state_valid",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="export_progress_percent"),
            models.CheckConstraint(
                condition=~Q(state="done") | (~Q(file_path="") & ~Q(content_hash="")),
                name="export_done_has_its_file",
            ),
            models.CheckConstraint(
                condition=Q(published=False) | Q(state="done"), name="export_published_when_done"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.format}) of {self.tournament}: {self.state}"

    @property
    def finished(self) -> bool:
        return self.state in (self.State.DONE, self.State.FAILED)

    @property
    def extension(self) -> str:
        return "zip" if self.format == self.Format.CSV else self.format

    @property
    def download_name(self) -> str:
        stamp = "final" if self.tournament_status == "final" else f"v{self.computed_version or 0}"
        return f"{self.tournament.slug}-{self.kind}-{stamp}.{self.extension}"


class ChartData(models.Model):
    """Series for the charts, computed from the stored results by a task."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, related_name="chart_data"
    )
    computed_version = models.PositiveIntegerField(default=0)
    results_version = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)
    rounds = models.JSONField(default=list, help_text="Rounds with a place series, in order.")
    # {team id: [place after each round, null when it has none]}
    places = models.JSONField(default=dict)
    # {round: digest of the results up to it}: a round whose digest is unchanged is reused.
    round_digests = models.JSONField(default=dict)
    # [{table, board, side, results, low, q1, median, q3, high, mean, scores}]; ``side`` is
    # the seat in a game of individuals. Complete tables only.
    spread = models.JSONField(default=list)
    # The tables that were complete when the charts were drawn: the charts are drawn from
    # these alone. None: drawn before this was kept (the page shows no places until redrawn).
    tables = models.JSONField(
        null=True,
        blank=True,
        help_text="The complete tables the charts were drawn from.",
    )
    places_svg = models.TextField(blank=True)
    spread_svg = models.TextField(blank=True)
    note = models.CharField(max_length=300, blank=True)
    # The drawings' words are in the tournament's language: drawn again when it changes.
    language = models.CharField(max_length=8, blank=True, default="")

    def __str__(self) -> str:
        return f"Chart data of {self.tournament} (v{self.computed_version})"


class StoredFile(models.Model):
    """A file of the database storage (``publishing.storage.DatabaseStorage``): its name and
    size; the bytes are in its chunks, read one at a time when the file is served."""

    name = models.CharField(max_length=500, unique=True)
    size = models.BigIntegerField()
    chunk_size = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.size} bytes)"


class StoredChunk(models.Model):
    """One piece of a stored file, in order."""

    file = models.ForeignKey(StoredFile, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    data = models.BinaryField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["file", "index"], name="stored_chunk_once"),
        ]
