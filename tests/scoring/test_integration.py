"""Against the real services: PostgreSQL, Redis and a Celery worker process.

Run by ``make test-services`` (DATABASE_URL=postgres://..., CELERY_BROKER_URL=redis://...);
skipped elsewhere on a developer's machine, and failing in CI when the services are missing.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest
from django.conf import settings
from django.db import connection, connections, transaction

from config.celery import app as celery_app
from scoring import services
from scoring.errors import NotFound, WrongState
from scoring.models import Result, StandingsState, Submission
from tests.scoring.conftest import GAM_MADE, RY_LOST, build_cup, new_id
from tests.scoring.processes import celery_worker, redis_server, wait_for
from tournaments.models import Match, Status
from tournaments.services import delete_match, finalise_tournament

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def database_url() -> str:
    s = connection.settings_dict
    user = s.get("USER") or "postgres"
    password = f":{s['PASSWORD']}" if s.get("PASSWORD") else ""
    host = f"{s.get('HOST') or '127.0.0.1'}:{s.get('PORT') or 5432}"
    return f"postgres://{user}{password}@{host}/{s['NAME']}"


@pytest.fixture
def use_broker():
    """Point this process's Celery at a broker and queue (restored afterwards). Publishing
    uses ``broker_write_url``, which Celery reads from ``CELERY_BROKER_WRITE_URL``, then its
    own setting, and only then from ``broker_url`` (where the ``CELERY_BROKER_URL`` variable
    of the run wins over any setting): so the write and read URLs are set themselves."""
    keys = (
        "broker_url",
        "broker_write_url",
        "broker_read_url",
        "task_default_queue",
        "task_always_eager",
    )
    saved = {k: celery_app.conf.get(k) for k in keys}

    def reset_pools() -> None:
        # Look the pools up again for the broker now configured. They are never closed here:
        # kombu keeps them in a process-wide registry, and a closed one would be handed to
        # every later test of this process.
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    def configure(broker: str, queue: str) -> None:
        celery_app.conf.update(
            broker_url=broker,
            broker_write_url=broker,
            broker_read_url=broker,
            task_default_queue=queue,
            task_always_eager=False,
        )
        reset_pools()
        with celery_app.connection_for_write() as publishing:
            assert publishing.as_uri() == celery_app.connection_for_write(broker).as_uri()

    yield configure
    celery_app.conf.update(saved)
    reset_pools()


def enter_and_confirm(cup, round_, table, facts=GAM_MADE):
    match = cup.match(round_, table)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=facts,
        client_id=new_id(),
    )
    return services.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=new_id(),
    )


def standings_state(cup) -> StandingsState:
    return StandingsState.objects.get(tournament=cup.tournament)


def is_current(cup) -> bool:
    state = standings_state(cup)
    return state.computed_at is not None and not state.stale


def matches_counted(cup) -> int:
    rows = standings_state(cup).standings.get("standings", [])
    return sum(row["matches"] for row in rows)


@pytest.mark.worker
def test_worker_updates_standings_and_catches_up_after_a_broker_outage(use_broker):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    cup = build_cup(slug=f"cup-{uuid.uuid4().hex[:8]}")
    queue = f"test-{uuid.uuid4().hex[:10]}"
    with redis_server() as redis:
        use_broker(redis.url, queue)
        cache_url = settings.REDIS_CACHE_URL or ""
        with celery_worker(
            broker=redis.url,
            database_url=database_url(),
            queue=queue,
            cache_url=cache_url,
            beat_seconds=1,
        ) as (_worker, log):
            enter_and_confirm(cup, 1, 1)
            wait_for(lambda: is_current(cup), 30, "the worker to store the standings")
            assert matches_counted(cup) == 2

            redis.stop()
            enter_and_confirm(cup, 1, 2, facts=RY_LOST)  # must not fail or block for long
            assert Result.objects.filter(current=True).count() == 2
            assert standings_state(cup).stale

            redis.start()
            wait_for(
                lambda: is_current(cup),
                60,
                "the reconcile to catch up:\n" + log.read_text(errors="replace")[-3000:],
            )
            assert matches_counted(cup) == 4


def _run_in_threads(functions):
    outcomes = [None] * len(functions)
    barrier = threading.Barrier(len(functions))

    def run(index, function):
        try:
            barrier.wait()
            outcomes[index] = function()
        except Exception as exc:  # collected and asserted on by the caller
            outcomes[index] = exc
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i, f)) for i, f in enumerate(functions)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return outcomes


def test_two_confirmations_at_once_exactly_one_wins():
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    celery_app.conf.task_always_eager = True
    cup = build_cup(slug=f"race-{uuid.uuid4().hex[:8]}")
    match = cup.match(1, 1)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )

    def confirm():
        return services.accept_entry(
            match_id=match.pk,
            board_number=1,
            entrant=match.east_entrant,
            submission_id=entry.pk,
            client_id=new_id(),
        )

    outcomes = _run_in_threads([confirm] * 4)
    wins = [o for o in outcomes if isinstance(o, Result)]
    losses = [o for o in outcomes if isinstance(o, WrongState)]
    assert len(wins) == 1 and len(losses) == 3, outcomes
    assert Result.objects.filter(match=match, current=True).count() == 1


def test_the_same_submission_sent_twice_at_once_is_one_row():
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    cup = build_cup(slug=f"resend-{uuid.uuid4().hex[:8]}")
    match = cup.match(1, 1)
    client_id = new_id()

    def send():
        return services.submit_entry(
            match_id=match.pk,
            board_number=1,
            entrant=match.north_entrant,
            facts=GAM_MADE,
            client_id=client_id,
        )

    outcomes = _run_in_threads([send] * 4)
    assert all(isinstance(o, Submission) for o in outcomes), outcomes
    assert len({o.pk for o in outcomes}) == 1
    assert Submission.objects.filter(match=match).count() == 1


def _waiting_for_a_lock(pids_before: set[int]) -> bool:
    """Whether a connection opened by the test's threads waits for a lock."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND wait_event_type = 'Lock'"
        )
        return bool({pid for (pid,) in cursor.fetchall()} - pids_before)


@pytest.mark.parametrize(
    ("change", "action", "refusal"),
    [
        ("finalise", "submit", WrongState),
        ("finalise", "accept", WrongState),
        ("remove the match", "submit", NotFound),
    ],
)
def test_a_write_racing_an_organisers_change_waits_for_it_then_sees_it(change, action, refusal):
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    celery_app.conf.task_always_eager = True
    cup = build_cup(slug=f"change-{uuid.uuid4().hex[:8]}")
    enter_and_confirm(cup, 1, 1)  # the tournament runs
    match = cup.match(1, 2)
    pending = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    if action == "submit":
        match = cup.match(2, 1)
    match_id = match.pk
    changed, release = threading.Event(), threading.Event()
    outcomes = {}

    def organiser():
        try:
            with transaction.atomic():  # changed, not yet committed, until released
                if change == "finalise":
                    finalise_tournament(
                        by=None, tournament=cup.tournament, anyway=True, reason="race"
                    )
                else:
                    delete_match(by=None, match=Match.objects.get(pk=match_id))
                changed.set()
                release.wait(30)
        finally:
            connections.close_all()

    def write():
        changed.wait(30)
        try:
            if action == "submit":
                outcomes["write"] = services.submit_entry(
                    match_id=match_id,
                    board_number=1,
                    entrant=match.north_entrant,
                    facts=GAM_MADE,
                    client_id=new_id(),
                )
            else:
                outcomes["write"] = services.accept_entry(
                    match_id=match_id,
                    board_number=1,
                    entrant=match.east_entrant,
                    submission_id=pending.pk,
                    client_id=new_id(),
                )
        except Exception as exc:  # asserted on below
            outcomes["write"] = exc
        finally:
            connections.close_all()

    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity")
        pids_before = {pid for (pid,) in cursor.fetchall()}
    threads = [threading.Thread(target=organiser), threading.Thread(target=write)]
    for thread in threads:
        thread.start()
    # The write must wait for the change to commit (a finalisation holds no row the write
    # needs: without the results lock the write would go on, or commit once the standings
    # row is free).
    deadline = time.monotonic() + 10
    while not _waiting_for_a_lock(pids_before) and "write" not in outcomes:
        assert time.monotonic() < deadline, "the write neither waited nor ended"
        time.sleep(0.02)
    release.set()
    for thread in threads:
        thread.join(30)
    assert isinstance(outcomes["write"], refusal), outcomes
    if change == "finalise":
        assert "final" in str(outcomes["write"])
        cup.tournament.refresh_from_db()
        assert cup.tournament.status == Status.FINAL
        expected_entries = 1 if action == "accept" else 0
        assert Submission.objects.filter(match_id=match_id).count() == expected_entries
    else:
        assert not Match.objects.filter(pk=match_id).exists()
    assert not Result.objects.filter(match_id=match_id).exists()
