"""``/healthz``: 200 when the database answers (``degraded`` when Redis does not, when
standings stay behind their results, or when the worker or beat gives no sign of life), 503
when the database does not."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from config import health, liveness

pytestmark = pytest.mark.django_db


class BrokenConnection:
    def cursor(self):
        raise OperationalError("could not connect to server at 10.0.0.5 (password=secret)")


def test_healthy_answers_200_json(client, settings):
    settings.CELERY_BROKER_URL = None
    settings.REDIS_CACHE_URL = None
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "standings": "ok"}}
    assert "no-store" in response["Cache-Control"]


def test_database_down_answers_503_without_details(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = None
    settings.REDIS_CACHE_URL = None
    monkeypatch.setattr(health, "connections", {"default": BrokenConnection()})
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "checks": {"database": "OperationalError"}}
    assert b"secret" not in response.content and b"10.0.0.5" not in response.content


def test_unreachable_redis_is_degraded_not_down(client, settings):
    # Nothing listens on port 1: the connection is refused at once.
    settings.CELERY_BROKER_URL = "redis://:hunter2@127.0.0.1:1/0"
    settings.REDIS_CACHE_URL = "redis://127.0.0.1:1/1"
    response = client.get("/healthz")
    assert response.status_code == 200  # the process still serves: keep it in rotation
    body = response.json()
    assert body["status"] == "degraded" and body["degraded"] == ["broker", "cache"]
    assert body["checks"]["database"] == "ok"
    assert body["checks"]["broker"] != "ok" and body["checks"]["cache"] != "ok"
    assert b"hunter2" not in response.content


def test_redis_is_checked_only_when_configured(client, settings, monkeypatch):
    pinged = []
    monkeypatch.setattr(health, "_ping_redis", lambda url: pinged.append(url) or health.OK)
    settings.CELERY_BROKER_URL = "redis://broker:6379/0"
    settings.REDIS_CACHE_URL = "redis://cache:6379/1"
    liveness.mark(liveness.WORKER_KEY)
    liveness.mark(liveness.BEAT_KEY)
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {
        "database": "ok",
        "broker": "ok",
        "cache": "ok",
        "standings": "ok",
        "worker": "ok",
        "beat": "ok",
    }
    assert pinged == ["redis://broker:6379/0", "redis://cache:6379/1"]
    pinged.clear()
    settings.CELERY_BROKER_URL = "amqp://guest@rabbit//"
    settings.REDIS_CACHE_URL = None
    assert client.get("/healthz").json()["checks"] == {"database": "ok", "standings": "ok"}
    assert pinged == []


def test_only_get(client):
    assert client.post("/healthz").status_code == 405


def test_standings_behind_their_results_too_long_are_degraded(client, settings, monkeypatch):
    settings.CELERY_BROKER_URL = None
    settings.REDIS_CACHE_URL = None
    settings.HEALTH_STALE_STANDINGS_SECONDS = 10
    monkeypatch.setattr(health, "stale_standings", health.StaleStandings())
    monkeypatch.setattr("scoring.standings.stale_tournament_ids", lambda: [7])
    clock = [1000.0]
    monkeypatch.setattr(health.time, "monotonic", lambda: clock[0])
    # Just behind (a confirmation a moment ago): no trouble.
    assert client.get("/healthz").json()["status"] == "ok"
    clock[0] += 11
    body = client.get("/healthz").json()
    assert body["status"] == "degraded" and body["degraded"] == ["standings"]
    assert body["checks"]["standings"] == "stale"
    # Caught up: ok again, and a new lag counts from when it is seen.
    monkeypatch.setattr("scoring.standings.stale_tournament_ids", lambda: [])
    assert client.get("/healthz").json()["status"] == "ok"
    monkeypatch.setattr("scoring.standings.stale_tournament_ids", lambda: [7])
    assert client.get("/healthz").json()["status"] == "ok"


def test_a_worker_or_beat_without_a_sign_of_life_is_degraded(client, settings, monkeypatch):
    monkeypatch.setattr(health, "_ping_redis", lambda url: health.OK)
    settings.CELERY_BROKER_URL = "redis://broker:6379/0"
    settings.REDIS_CACHE_URL = "redis://cache:6379/1"
    body = client.get("/healthz").json()
    assert body["status"] == "degraded" and body["degraded"] == ["beat", "worker"]
    liveness.mark(liveness.WORKER_KEY)
    body = client.get("/healthz").json()
    assert body["degraded"] == ["beat"] and body["checks"]["worker"] == "ok"
    liveness.mark(liveness.BEAT_KEY)
    assert client.get("/healthz").json()["status"] == "ok"
    # A sign older than the limit is no sign.
    now = liveness.time.time()
    monkeypatch.setattr(liveness.time, "time", lambda: now + liveness.STALE_AFTER_SECONDS + 1)
    assert client.get("/healthz").json()["degraded"] == ["beat", "worker"]


def test_the_worker_and_beat_give_signs_of_life(settings):
    from config.celery import app

    assert liveness.WorkerLiveness in app.steps["worker"]
    assert app.conf.beat_scheduler == "config.liveness:Scheduler"
    assert settings.CELERY_BEAT_MAX_LOOP_INTERVAL <= liveness.EVERY_SECONDS

    class Timer:
        def call_repeatedly(self, seconds, function, args):
            self.every = seconds
            function(*args)
            return self

        def cancel(self):
            self.cancelled = True

    class Worker:
        timer = Timer()

    step = liveness.WorkerLiveness.__new__(liveness.WorkerLiveness)
    step.timer_ref = None
    step.start(Worker)
    assert liveness.age(liveness.WORKER_KEY) is not None
    assert Worker.timer.every == liveness.EVERY_SECONDS
    step.stop(Worker)
    assert Worker.timer.cancelled
