"""``/healthz``: is this web process able to serve? For load balancers, container health checks
and monitoring.

It checks the database (a ``SELECT 1``) and, when they are configured, Redis (a ``PING`` on the
Celery broker and on the shared cache). The answer is JSON with, per check, ``ok`` or the kind
of failure (never an address or a password from the configuration):

- 200 ``"status": "ok"``: everything answers;
- 200 ``"status": "degraded"``: the database answers, Redis does not. The process still serves
  every request (the cache fails open, a confirmation whose standings task cannot be queued
  marks the standings stale for the reconcile), so a load balancer must keep it in rotation;
  ``"degraded"`` names what is missing, and ``cache_failures`` counts the cache calls this
  process answered without Redis;
- 200 ``"status": "degraded"`` too when a tournament's standings have been behind its results
  for more than ``HEALTH_STALE_STANDINGS_SECONDS`` (``"standings": "stale"``), or, with a
  broker and the shared cache, when the Celery worker or beat has given no sign of life for
  a while (``"worker"``/``"beat"``: ``"absent"``, config/liveness.py);
- 503 ``"status": "error"``: the database does not answer; nothing can be served.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import connections
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

TIMEOUT_SECONDS = 2
OK = "ok"


def _failure(exc: BaseException) -> str:
    return type(exc).__name__


def check_database() -> str:
    try:
        with connections["default"].cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means the database is not usable
        return _failure(exc)
    return OK


def _ping_redis(url: str) -> str:
    import redis

    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
        )
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:  # refused, timed out, wrong password: all mean not usable
        return _failure(exc)
    return OK


def redis_urls() -> dict[str, str]:
    """The Redis servers this process depends on, by what they are for."""
    urls = {}
    broker = settings.CELERY_BROKER_URL or ""
    if broker.startswith(("redis://", "rediss://")):
        urls["broker"] = broker
    cache = getattr(settings, "REDIS_CACHE_URL", None) or ""
    if cache.startswith(("redis://", "rediss://")):
        urls["cache"] = cache
    return urls


class StaleStandings:
    """When this process first saw each tournament's standings behind its results: a
    confirmation makes them so for a second or two, which is no trouble; longer is."""

    def __init__(self) -> None:
        self.since: dict[int, float] = {}
        self._lock = threading.Lock()

    def check(self) -> str:
        from scoring.standings import stale_tournament_ids

        try:
            stale = set(stale_tournament_ids())
        except Exception as exc:  # the database check says what is wrong
            return _failure(exc)
        now = time.monotonic()
        with self._lock:
            self.since = {tid: self.since.get(tid, now) for tid in stale}
            oldest = min(self.since.values(), default=now)
        return "stale" if now - oldest > settings.HEALTH_STALE_STANDINGS_SECONDS else OK


stale_standings = StaleStandings()


def _alive(key: str) -> str:
    from config.liveness import STALE_AFTER_SECONDS, age

    seconds = age(key)
    return OK if seconds is not None and seconds <= STALE_AFTER_SECONDS else "absent"


def background_checks() -> dict[str, Callable[[], str]]:
    """The worker and beat, when tasks go through a broker and the cache that holds their
    signs of life is shared (Redis)."""
    from config.liveness import BEAT_KEY, WORKER_KEY

    if not settings.CELERY_BROKER_URL or not getattr(settings, "REDIS_CACHE_URL", None):
        return {}
    return {"worker": lambda: _alive(WORKER_KEY), "beat": lambda: _alive(BEAT_KEY)}


def run_checks() -> dict[str, str]:
    checks: dict[str, Callable[[], str]] = {"database": check_database}
    for name, url in redis_urls().items():
        checks[name] = lambda url=url: _ping_redis(url)
    results = {name: check() for name, check in checks.items()}
    if results["database"] == OK:
        results["standings"] = stale_standings.check()
        if results.get("cache", OK) == OK:
            results.update({name: check() for name, check in background_checks().items()})
    return results


@never_cache
@require_GET
def healthz(request: HttpRequest) -> JsonResponse:
    from config.cache import outage

    results = run_checks()
    if results["database"] != OK:
        return JsonResponse({"status": "error", "checks": results}, status=503)
    degraded = sorted(name for name, value in results.items() if value != OK)
    body: dict[str, object] = {"status": "degraded" if degraded else "ok", "checks": results}
    if degraded:
        body["degraded"] = degraded
    if outage.failures:
        body["cache_failures"] = outage.failures
    return JsonResponse(body)


# Included from config/urls.py.
urlpatterns = [path("healthz", healthz, name="healthz")]
