"""Celery tasks: a club's season ladders computed again. Without a broker they run at once,
in-process."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from clubs import seasons


@shared_task(
    autoretry_for=(DatabaseError,), retry_backoff=True, retry_backoff_max=60, max_retries=5
)
def compute_ladders_task(club_id: int) -> int:
    return seasons.compute_club_ladders(club_id)
