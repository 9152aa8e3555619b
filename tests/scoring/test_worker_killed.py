"""The Celery worker killed mid-round (SIGKILL: no clean-up) under ``make serve``'s supervisor:
the supervisor starts it again, no scorer request fails, every result is stored once, and the
standings catch up by themselves (run by ``make test-services``)."""

from __future__ import annotations

import os
import runpy
import signal
import sys
import threading
import uuid
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from scoring.models import Result
from tests.scoring.conftest import GAM_MADE, RY_LOST, build_cup
from tests.scoring.processes import redis_server, wait_for
from tests.scoring.test_integration import database_url, is_current, matches_counted, use_broker
from tests.scoring.test_redis_outage import enter_and_check

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
__all__ = ["use_broker"]  # the fixture, used by name

ROOT = Path(__file__).resolve().parents[2]
serve = runpy.run_path(str(ROOT / "scripts" / "serve.py"))


def worker_command(queue: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "-B",
        "-s",
        f"/tmp/celerybeat-{queue}",
        "--pool=solo",
        "--loglevel=INFO",
        "-Q",
        queue,
        "--without-gossip",
        "--without-mingle",
        "-n",
        f"{queue}@%h",
    ]


@pytest.mark.worker
def test_a_killed_worker_is_started_again_and_the_standings_catch_up(use_broker, capfd):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    cup = build_cup(slug=f"killed-{uuid.uuid4().hex[:8]}")
    queue = f"test-{uuid.uuid4().hex[:10]}"
    with redis_server() as redis:
        use_broker(redis.url, queue)
        env = {
            **os.environ,
            "REDIS_CACHE_URL": settings.REDIS_CACHE_URL or "",
            "CACHE_KEY_PREFIX": settings.CACHES["default"]["KEY_PREFIX"],
            "CELERY_BROKER_URL": redis.url,
            "DATABASE_URL": database_url(),
            "CELERY_TASK_DEFAULT_QUEUE": queue,
            "STANDINGS_RECONCILE_SECONDS": "1",
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }
        supervisor = serve["Supervisor"]([("worker", worker_command(queue))], env)
        supervisor.start()
        watching = threading.Thread(target=supervisor.wait, kwargs={"poll_seconds": 0.2})
        watching.start()
        try:
            assert enter_and_check(cup, cup.match(1, 1), GAM_MADE) == [201, 200]
            wait_for(lambda: is_current(cup), 60, "the worker to store the standings")
            first = supervisor.children[0].process
            os.killpg(first.pid, signal.SIGKILL)
            first.wait(timeout=10)
            answers = [enter_and_check(cup, cup.match(1, 2), RY_LOST)]
            answers += [enter_and_check(cup, cup.match(2, table), GAM_MADE) for table in (1, 2)]
            assert answers == [[201, 200]] * 3, answers
            wait_for(
                lambda: supervisor.children[0].process is not first,
                30,
                "the supervisor to start the worker again",
            )
            wait_for(
                lambda: is_current(cup) and matches_counted(cup) == 8,
                90,
                "the standings to catch up after the worker's return",
            )
        finally:
            supervisor.stopping.set()
            watching.join(timeout=10)
            supervisor.stop(seconds=15)
    _out, err = capfd.readouterr()
    assert "serve: worker stopped (exit status -9); starting it again in 1 s" in err
    assert Result.objects.filter(match__table__tournament=cup.tournament, current=True).count() == 4
