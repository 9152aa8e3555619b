"""Signs of life of the Celery worker and beat, for ``/healthz``.

The worker writes the time into the shared cache every ``EVERY_SECONDS`` (a bootstep on the
worker's own timer), beat at each tick of its scheduler (at most ``EVERY_SECONDS`` apart, as
``CELERY_BEAT_MAX_LOOP_INTERVAL`` asks). ``/healthz`` reads them: a sign older than
``STALE_AFTER_SECONDS`` means the process is absent (stopped, or cut off from Redis).
"""

from __future__ import annotations

import logging
import time

from celery import bootsteps
from celery.beat import PersistentScheduler

logger = logging.getLogger(__name__)

EVERY_SECONDS = 5
STALE_AFTER_SECONDS = 20
WORKER_KEY = "liveness:worker"
BEAT_KEY = "liveness:beat"


def mark(key: str) -> None:
    from django.core.cache import cache

    try:
        cache.set(key, time.time(), STALE_AFTER_SECONDS * 3)
    except Exception as exc:  # a cache that does not answer must not stop the worker or beat
        logger.debug("liveness: %s not written (%s)", key, exc)


def age(key: str) -> float | None:
    """Seconds since the process last gave a sign of life (None: never, or long ago)."""
    from django.core.cache import cache

    at = cache.get(key)
    return None if at is None else max(0.0, time.time() - float(at))


class WorkerLiveness(bootsteps.StartStopStep):
    requires = {"celery.worker.components:Timer"}

    def __init__(self, worker, **kwargs):
        super().__init__(worker, **kwargs)
        self.timer_ref = None

    def start(self, worker):
        mark(WORKER_KEY)
        self.timer_ref = worker.timer.call_repeatedly(EVERY_SECONDS, mark, (WORKER_KEY,))

    def stop(self, worker):
        if self.timer_ref is not None:
            self.timer_ref.cancel()
            self.timer_ref = None


class Scheduler(PersistentScheduler):
    """Celery beat's scheduler (a schedule file), marking each tick, and retrying a broker
    that went away every half second or so (Celery's own retries wait 2, 4, 6 ... up to 30 s,
    so the reconcile would be that late after Redis's return)."""

    def tick(self, *args, **kwargs):
        mark(BEAT_KEY)
        return super().tick(*args, **kwargs)

    def _ensure_connected(self):
        from config.broker import RETRY_SECONDS

        def report(exc, interval):
            logger.error("beat: broker unreachable (%s); trying again in %.1f s", exc, interval)

        return self.connection.ensure_connection(
            report,
            self.app.conf.broker_connection_max_retries,
            interval_start=0,
            interval_step=RETRY_SECONDS,
            interval_max=2 * RETRY_SECONDS,
        )
