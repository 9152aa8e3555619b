"""Celery tasks: export jobs, the update after the standings change (charts, automatic
publication) and the periodic clean-up of old export files. Without a broker they run at
once, in-process."""

from __future__ import annotations

from celery import shared_task
from django.db import DatabaseError

from publishing import services


@shared_task(acks_late=True)
def run_export_task(export_id: int) -> str:
    return services.run_export(export_id).state


@shared_task(
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def after_standings_task(tournament_id: int, waiting_since: float | None = None) -> str:
    return services.after_standings_stored(tournament_id, waiting_since=waiting_since)


@shared_task
def cleanup_exports_task() -> int:
    return services.cleanup_all()
