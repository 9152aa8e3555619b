"""The analysis job through Redis to a real worker: dealing queues it, the worker solves."""

from __future__ import annotations

import time
import uuid

import pytest

from analysis.models import BoardAnalysis
from config.celery import app as celery_app
from tournaments import services as organiser_services
from tournaments.imports import EntrantRow


@pytest.mark.integration
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_dealing_queues_the_job_and_a_worker_solves_every_board(settings):
    from celery.contrib.testing.worker import start_worker

    settings.ANALYSIS_AFTER_DEALING = "worker"
    assert celery_app.conf.broker_url.startswith("redis://")
    assert not celery_app.conf.task_always_eager
    tournament = organiser_services.create_tournament(
        by=None,
        name="Pyramid",
        slug=f"an-{uuid.uuid4().hex[:8]}",
        tables=2,
        game="pyramid",
        table_size=3,
        declarations_per_round=1,
    )
    organiser_services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, 7)],
    )
    with start_worker(
        celery_app,
        pool="solo",
        perform_ping_check=False,
        queues=[celery_app.conf.task_default_queue],
    ):
        organiser_services.deal_boards(by=None, tournament=tournament, seed="worker")
        found = BoardAnalysis.objects.filter(board__table__tournament=tournament)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if not found.exclude(status=BoardAnalysis.Status.DONE).exists():
                break
            time.sleep(0.2)
    assert found.count() == 6
    assert set(found.values_list("status", flat=True)) == {BoardAnalysis.Status.DONE}
    assert all(analysis.table["tricks"] for analysis in found)
