"""Celery tasks: one part of a board's double-dummy table. The part's own process is killed
after ``ANALYSIS_PART_SECONDS`` (a retry's: ``ANALYSIS_RETRY_SECONDS``); Celery's soft and
hard limits stand behind it."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from analysis import services

_LIMIT = float(settings.ANALYSIS_PART_SECONDS)


@shared_task(acks_late=True, soft_time_limit=_LIMIT + 30, time_limit=_LIMIT + 60)
def analyse_part(analysis_id: int, part: str, deal: str, seconds: float | None = None) -> str:
    """``seconds``: the part's own limit (a retry's, longer); ``ANALYSIS_PART_SECONDS`` by
    default. Whoever queues a longer one raises the task's limits with it."""
    return services.run_part(analysis_id, part, deal, seconds=seconds)
