"""A Redis outage mid-round against the real stack: PostgreSQL, a private Redis serving as
both the shared cache (database 1) and the broker (database 0), and a Celery worker with beat.
Scorers keep entering and checking while Redis is down for 20 s; no request fails, every
result is stored once, and the standings catch up by themselves once Redis is back. And a
worker busy with a queue of tasks, holding unacknowledged messages when Redis goes, lives on
and consumes again once Redis is back (run by ``make test-services``; skipped elsewhere on a
developer's machine, failing in CI)."""

from __future__ import annotations

import time
import uuid

import pytest
from django.db import connection
from django.test import override_settings
from rest_framework.test import APIClient

from config.celery import app as celery_app
from scoring.models import Result, Submission
from scoring.tasks import reconcile_standings
from tests.scoring.conftest import GAM_MADE, RY_LOST, build_cup, new_id
from tests.scoring.processes import celery_worker, redis_server, wait_for
from tests.scoring.test_integration import database_url, is_current, matches_counted, use_broker

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
__all__ = ["use_broker"]  # the fixture, used by name

OUTAGE_SECONDS = 20


def scorer(entrant) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_X_TEAM_CODE=entrant.access_code)
    return client


def enter_and_check(cup, match, facts) -> list[int]:
    """North enters board 1, East accepts it, over the API: the answers' status codes."""
    base = f"/api/v1/tournaments/{cup.tournament.slug}/matches/{match.pk}/boards/1/"
    created = scorer(match.north_entrant).post(
        base + "entries/", {"client_id": new_id(), "record": facts}, format="json"
    )
    if created.status_code != 201:
        return [created.status_code]
    accepted = scorer(match.east_entrant).post(
        base + f"entries/{created.json()['id']}/accept/", {"client_id": new_id()}, format="json"
    )
    return [created.status_code, accepted.status_code]


@pytest.mark.worker
def test_a_redis_outage_mid_round_costs_no_scorer_an_error(use_broker):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    cup = build_cup(slug=f"outage-{uuid.uuid4().hex[:8]}")
    queue = f"test-{uuid.uuid4().hex[:10]}"
    with redis_server() as redis:
        cache_url = redis.url.rsplit("/", 1)[0] + "/1"
        caches = {
            "default": {
                "BACKEND": "config.cache.RedisCache",
                "LOCATION": cache_url,
                "KEY_PREFIX": f"outage-{queue}",
                "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
            }
        }
        use_broker(redis.url, queue)
        with (
            override_settings(CACHES=caches),
            celery_worker(
                broker=redis.url,
                database_url=database_url(),
                queue=queue,
                cache_url=cache_url,
                beat_seconds=1,
            ) as (worker, log),
        ):
            assert enter_and_check(cup, cup.match(1, 1), GAM_MADE) == [201, 200]
            wait_for(lambda: is_current(cup), 30, "the worker to store the standings")

            redis.stop()
            down_at = time.monotonic()
            # Until the worker has lost the broker it may still run a reconcile it received
            # just before the outage, and that would count the confirmations below.
            wait_for(
                lambda: "Connection to broker lost" in log.read_text(errors="replace"),
                30,
                "the worker to lose the broker",
            )
            answers = [enter_and_check(cup, cup.match(1, 2), RY_LOST)]
            answers += [enter_and_check(cup, cup.match(2, table), GAM_MADE) for table in (1, 2)]
            assert answers == [[201, 200]] * 3, answers
            time.sleep(max(0.0, OUTAGE_SECONDS - (time.monotonic() - down_at)))
            assert worker.poll() is None, "the worker died:\n" + log.read_text(errors="replace")
            assert not is_current(cup)  # the confirmations could not queue their update
            redis.start()
            back_at = time.monotonic()
            wait_for(
                lambda: is_current(cup) and matches_counted(cup) == 8,
                60,
                "the standings to catch up:\n" + log.read_text(errors="replace")[-3000:],
            )
            caught_up = time.monotonic() - back_at
            print(f"standings current {caught_up:.1f} s after Redis came back")
            assert worker.poll() is None
    assert Result.objects.filter(match__table__tournament=cup.tournament).count() == 4
    assert Submission.objects.filter(match__table__tournament=cup.tournament).count() == 4


@pytest.mark.worker
def test_the_worker_outlives_an_outage_while_it_holds_unacknowledged_messages(use_broker):
    """Celery 5.7's worker died here ("Restoring 8 unacknowledged message(s)", then
    ``'NoneType' object has no attribute 'hostname'``); config/broker.py says why."""
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    queue = f"test-{uuid.uuid4().hex[:10]}"
    with redis_server() as redis:
        use_broker(redis.url, queue)
        with celery_worker(
            broker=redis.url, database_url=database_url(), queue=queue, pool="prefork"
        ) as (worker, log):
            # The load, then tasks due later (as the debounced standings updates are): the
            # worker holds their messages unacknowledged while it waits on the queue. (Sent
            # through a connection of their own: Celery prefers CELERY_BROKER_URL to the
            # configured URL.)
            with celery_app.connection_for_write(redis.url) as broker:
                for _ in range(300):
                    reconcile_standings.apply_async(connection=broker, queue=queue)
                for _ in range(3):
                    reconcile_standings.apply_async(connection=broker, queue=queue, countdown=60)
            wait_for(
                lambda: log.read_text(errors="replace").count(" succeeded ") >= 300,
                120,
                "the load to be done",
            )
            redis.stop()
            time.sleep(3)
            text = log.read_text(errors="replace")
            assert worker.poll() is None, "the worker died:\n" + text[-4000:]
            assert "unacknowledged message(s)" in text  # it did hold some
            connected_before = text.count("Connected to redis://")
            redis.start()
            back_at = time.monotonic()
            wait_for(
                lambda: (
                    log.read_text(errors="replace").count("Connected to redis://")
                    > connected_before
                ),
                30,
                "the worker to reconnect",
            )
            print(f"worker reconnected {time.monotonic() - back_at:.2f} s after Redis came back")
            with celery_app.connection_for_write(redis.url) as broker:
                sent = reconcile_standings.apply_async(connection=broker, queue=queue)
            wait_for(
                lambda: f"[{sent.id}] succeeded" in log.read_text(errors="replace"),
                30,
                "a task sent after the outage",
            )
            text = log.read_text(errors="replace")
            assert worker.poll() is None
            assert "Unrecoverable error" not in text
            assert "has no attribute 'hostname'" not in text
