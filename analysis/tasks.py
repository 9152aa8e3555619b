"""Celery tasks: one part of a board's double-dummy table. The part's own process is killed
after ``ANALYSIS_PART_SECONDS``; Celery's soft and hard limits stand behind it."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from analysis import services

_LIMIT = float(settings.ANALYSIS_PART_SECONDS)


@shared_task(acks_late=True, soft_time_limit=_LIMIT + 30, time_limit=_LIMIT + 60)
def analyse_part(analysis_id: int, part: str, deal: str) -> str:
    return services.run_part(analysis_id, part, deal)
