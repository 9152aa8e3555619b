"""``/healthz``: 200 when the database answers (``degraded`` when Redis does not), 503 when
the database does not."""

from __future__ import annotations

import pytest
from django.db import OperationalError

from config import health

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
    assert response.json() == {"status": "ok", "checks": {"database": "ok"}}
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
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "ok", "cache": "ok"}
    assert pinged == ["redis://broker:6379/0", "redis://cache:6379/1"]
    pinged.clear()
    settings.CELERY_BROKER_URL = "amqp://guest@rabbit//"
    settings.REDIS_CACHE_URL = None
    assert client.get("/healthz").json()["checks"] == {"database": "ok"}
    assert pinged == []


def test_only_get(client):
    assert client.post("/healthz").status_code == 405
