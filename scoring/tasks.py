"""Celery tasks: standings updates after a confirmation, and the periodic reconcile that
catches up any update a broker outage lost."""

from __future__ import annotations

import logging

from celery import shared_task
from django.db import DatabaseError

from scoring import standings

log = logging.getLogger(__name__)


@shared_task(
    autoretry_for=(DatabaseError,),
    retry_backoff=True,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
    acks_late=True,
)
def update_standings(tournament_id: int) -> str:
    # Not waiting for the turn: the recompute that has it goes round again for these results.
    return standings.recompute(tournament_id, wait=False)


@shared_task
def reconcile_standings() -> list[int]:
    """Recompute every tournament whose standings are behind its results."""
    stale = standings.stale_tournament_ids()
    for tournament_id in stale:
        try:
            standings.recompute(tournament_id, wait=False)
        except Exception:  # one broken tournament must not stop the others catching up
            log.exception("reconcile of tournament %s failed", tournament_id)
    return stale
