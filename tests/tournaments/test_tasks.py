"""The Celery tasks, in-process and through the real broker."""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.db import connection, connections

from config.celery import app as celery_app
from tests.tournaments.conftest import make_tournament
from tournaments import selectors, services
from tournaments.models import Board, Match
from tournaments.services import ServiceError
from tournaments.tasks import deal_boards_task, draw_schedule_task


@pytest.mark.django_db
def test_tasks_run_the_services_in_process(organiser):
    tournament = make_tournament(by=organiser)
    summary = draw_schedule_task.apply(args=[tournament.pk], kwargs={"user_id": organiser.pk}).get()
    assert summary["matches"] == Match.objects.filter(table__tournament=tournament).count() > 0
    assert summary["problems"] == []
    dealt = deal_boards_task.apply(args=[tournament.pk], kwargs={"seed": "t"}).get()
    assert dealt == 2 == Board.objects.filter(table__tournament=tournament).count()
    actors = list(tournament.log_entries.values_list("action", "actor"))
    assert ("draw_schedule", organiser.username) in actors
    assert ("deal_boards", "command line") in actors


@pytest.mark.integration
@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_a_task_goes_through_redis_to_a_worker(organiser):
    from celery.contrib.testing.worker import start_worker

    assert celery_app.conf.broker_url.startswith("redis://")
    assert not celery_app.conf.task_always_eager
    tournament = make_tournament(by=organiser, slug=f"w-{uuid.uuid4().hex[:8]}")
    queue = f"tournaments-test-{uuid.uuid4().hex[:10]}"
    # Its own connection: other tests may have closed the app's shared connection pool.
    with (
        start_worker(celery_app, pool="solo", perform_ping_check=False, queues=[queue]),
        celery_app.connection_for_write() as connection,
    ):
        deal_boards_task.apply_async(
            args=[tournament.pk], kwargs={"seed": "w"}, queue=queue, connection=connection
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if Board.objects.filter(table__tournament=tournament).count() == 2:
                break
            time.sleep(0.1)
    assert Board.objects.filter(table__tournament=tournament).count() == 2
    assert tournament.log_entries.filter(action="deal_boards").exists()


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_two_organisers_racing_for_one_slot_on_postgresql(organiser):
    """The tournament row lock serialises them: one match is saved, the other refused."""
    assert connection.vendor == "postgresql"
    tournament = make_tournament(by=organiser, slug=f"race-{uuid.uuid4().hex[:8]}")
    services.draw_schedule(by=organiser, tournament=tournament)
    match = selectors.tournament_matches(tournament).get(round=1, table__number=1)
    ns, ew = match.north_entrant.number, match.east_entrant.number
    services.delete_match(by=organiser, match=match)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def add_match() -> None:
        try:
            barrier.wait()
            services.save_match(
                by=organiser,
                tournament=tournament,
                round_number=1,
                table_number=1,
                ns_number=ns,
                ew_number=ew,
            )
            outcomes.append("saved")
        except ServiceError:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=add_match) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "saved"]
    assert Match.objects.filter(table__tournament=tournament, round=1, table__number=1).count() == 1
