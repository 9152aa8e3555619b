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
- 503 ``"status": "error"``: the database does not answer; nothing can be served.
"""

from __future__ import annotations

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


def run_checks() -> dict[str, str]:
    checks: dict[str, Callable[[], str]] = {"database": check_database}
    for name, url in redis_urls().items():
        checks[name] = lambda url=url: _ping_redis(url)
    return {name: check() for name, check in checks.items()}


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
