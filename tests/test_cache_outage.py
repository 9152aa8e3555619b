"""The shared cache fails open: with its Redis refusing connections, scorers still enter and
check results, pages render, throttles let requests through, and /healthz says degraded."""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.test import override_settings
from rest_framework.test import APIClient

from config import cache as shared_cache
from config.cache import count_hit, count_hit_and_read
from tests.scoring.conftest import GAM_MADE, new_id

DEAD_REDIS = {
    "default": {
        "BACKEND": "config.cache.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/1",  # nothing listens on port 1: refused at once
        "KEY_PREFIX": "outage-test",
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


@pytest.fixture
def dead_cache(monkeypatch):
    monkeypatch.setattr(shared_cache, "outage", shared_cache.Outage())
    with override_settings(CACHES=DEAD_REDIS):
        yield caches["default"]


def test_every_call_answers_as_an_empty_cache(dead_cache):
    assert dead_cache.get("k", "fallback") == "fallback"
    assert dead_cache.add("k", 1, 10) is True
    dead_cache.set("k", 1, 10)
    assert dead_cache.get_many(["a", "b"]) == {}
    assert dead_cache.delete("k") is False
    assert count_hit(dead_cache, "counter", 10) == 1
    assert count_hit_and_read(dead_cache, "counter", 10, "other") == [1, None]
    assert shared_cache.outage.failures == 1  # then Redis is left alone for a while
    assert shared_cache.outage.last_error == "ConnectionError"


def test_a_failure_then_a_pause_then_redis_is_tried_again(dead_cache, monkeypatch):
    dead_cache.get("k")
    assert shared_cache.outage.failures == 1 and shared_cache.outage.down
    monkeypatch.setattr(shared_cache.outage, "retry_at", 0.0)  # the pause is over
    dead_cache.get("k")
    assert shared_cache.outage.failures == 2


@pytest.mark.django_db
def test_scorers_enter_and_check_while_the_cache_is_down(dead_cache, cup, client):
    match = cup.match(1, 1)
    base = f"/api/v1/tournaments/{cup.tournament.slug}/matches/{match.pk}/boards/1/"
    north, east = APIClient(), APIClient()
    north.credentials(HTTP_X_TEAM_CODE=match.north_entrant.access_code)
    east.credentials(HTTP_X_TEAM_CODE=match.east_entrant.access_code)
    created = north.post(
        base + "entries/", {"client_id": new_id(), "record": GAM_MADE}, format="json"
    )
    assert created.status_code == 201, created.content
    accepted = east.post(
        base + f"entries/{created.json()['id']}/accept/", {"client_id": new_id()}, format="json"
    )
    assert accepted.status_code == 200, accepted.content
    assert client.get(f"/t/{cup.tournament.slug}/standings/").status_code == 200
    health = client.get("/healthz").json()
    assert health["cache_failures"] >= 1


@pytest.fixture
def cup(db):
    from tests.scoring.conftest import build_cup

    return build_cup(slug="outage")
