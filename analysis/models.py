from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_noop

from tournaments.models import Board


class BoardAnalysis(models.Model):
    """The double-dummy table of one board's deal, solved part by part (``Game.analysis_parts``)
    by the job; ``deal`` and ``inputs`` are what it was solved from, so a table never stands
    beside a deal it was not made from."""

    class Status(models.TextChoices):
        PENDING = "pending", gettext_noop("Being analysed")
        DONE = "done", gettext_noop("Analysed")
        FAILED = "failed", gettext_noop("Not analysed: the deal was refused")
        TIMED_OUT = "timed_out", gettext_noop("Not analysed: the solver's time ran out")

    board = models.OneToOneField(Board, on_delete=models.CASCADE, related_name="analysis")
    deal = models.TextField(help_text="The deal the table is solved from.")
    inputs = models.JSONField(
        default=dict, help_text="What the table depends on beside the deal (opening seat, ...)."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    parts = models.JSONField(default=dict, help_text="The parts solved so far, by name.")
    table = models.JSONField(null=True, blank=True, help_text="The whole table, once done.")
    seconds = models.FloatField(default=0, help_text="Time spent solving, all parts.")
    nodes = models.BigIntegerField(default=0, help_text="Positions searched, all parts.")
    error = models.TextField(blank=True, default="")
    requested_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "board analyses"
        constraints = [
            models.CheckConstraint(
                condition=Q(status__in=["pending", "done", "failed", "timed_out"]),
                name="analysis_status_valid",
            ),
            models.CheckConstraint(
                condition=Q(status="done", table__isnull=False) | ~Q(status="done"),
                name="analysis_done_has_table",
            ),
        ]

    def __str__(self) -> str:
        return f"Analysis of {self.board}: {self.get_status_display()}"
