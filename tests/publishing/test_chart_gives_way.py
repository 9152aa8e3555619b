"""The chart and publication task gives way to the standings task on a worker: while the
standings are behind their results it looks again shortly (keeping the one pending mark, so
standings stored meanwhile queue nothing more), for the chart debounce interval at most,
then runs; with current standings, or with eager tasks, it runs at once."""

from __future__ import annotations

import time
from types import SimpleNamespace

import pytest

from publishing import services
from publishing.models import ChartData
from publishing.tasks import after_standings_task
from scoring.models import StandingsState
from tests.publishing.conftest import GAM_MADE


@pytest.fixture
def tasks_on_a_worker():
    """Tasks not run in the caller, for this test only. Not ``monkeypatch.setitem``: the
    monkeypatch fixture is set up before the suite's ``_tasks_in_process`` and so undone after
    it, which would leave eager tasks on for the rest of the process."""
    conf = after_standings_task.app.conf
    before = conf.task_always_eager

    def switch() -> None:
        conf.task_always_eager = False

    try:
        yield switch
    finally:
        conf.task_always_eager = before


@pytest.fixture
def cup_on_a_worker(cup, confirm, monkeypatch, settings, tasks_on_a_worker):
    """The cup with one result and its standings stored (tasks eager), then the chart task
    queued (captured), not run in the caller, and a clock the test moves."""
    confirm(cup, 1, 1, GAM_MADE)
    tasks_on_a_worker()  # from here on
    queued: list[dict] = []
    monkeypatch.setattr(after_standings_task, "apply_async", lambda **kw: queued.append(kw))
    now = [1000.0]
    monkeypatch.setattr(
        services, "time", SimpleNamespace(time=lambda: now[0], monotonic=time.monotonic)
    )
    settings.PUBLISHING_CHART_DEBOUNCE_SECONDS = 5
    return SimpleNamespace(tournament_id=cup.tournament.pk, queued=queued, now=now)


def test_behind_standings_defer_the_chart_then_it_runs_once_current(cup_on_a_worker):
    on_a_worker = cup_on_a_worker
    tournament_id = on_a_worker.tournament_id
    ChartData.objects.filter(tournament_id=tournament_id).delete()
    StandingsState.objects.filter(tournament_id=tournament_id).update(results_version=99)

    assert services.after_standings_stored(tournament_id) == "deferred"
    (again,) = on_a_worker.queued
    assert again["args"] == [tournament_id]
    assert again["kwargs"] == {"waiting_since": 1000.0}
    assert again["countdown"] == services.CHART_WAIT_STEP
    assert not ChartData.objects.filter(tournament_id=tournament_id).exists()
    # standings stored meanwhile queue nothing more: the deferred task reads the latest
    services.enqueue_after_standings(tournament_id)
    assert len(on_a_worker.queued) == 1

    on_a_worker.now[0] += 4.8  # still behind, 0.2 s left: it looks once more, at the limit
    assert services.after_standings_stored(tournament_id, waiting_since=1000.0) == "deferred"
    assert on_a_worker.queued[-1]["countdown"] == pytest.approx(0.2)

    state = StandingsState.objects.get(tournament_id=tournament_id)
    StandingsState.objects.filter(pk=state.pk).update(results_version=state.computed_version)
    assert services.after_standings_stored(tournament_id, waiting_since=1000.0) != "deferred"
    assert ChartData.objects.filter(tournament_id=tournament_id).exists()
    assert len(on_a_worker.queued) == 2


def test_the_chart_waits_no_longer_than_the_debounce_interval(cup_on_a_worker):
    on_a_worker = cup_on_a_worker
    tournament_id = on_a_worker.tournament_id
    ChartData.objects.filter(tournament_id=tournament_id).delete()
    StandingsState.objects.filter(tournament_id=tournament_id).update(results_version=99)
    on_a_worker.now[0] += 5  # waiting since 5 s ago: it runs, behind or not
    assert services.after_standings_stored(tournament_id, waiting_since=1000.0) != "deferred"
    assert ChartData.objects.filter(tournament_id=tournament_id).exists()
    assert on_a_worker.queued == []


def test_eager_tasks_never_defer(cup, confirm, monkeypatch):
    confirm(cup, 1, 1, GAM_MADE)
    queued: list[dict] = []
    monkeypatch.setattr(after_standings_task, "apply_async", lambda **kw: queued.append(kw))
    tournament_id = cup.tournament.pk
    StandingsState.objects.filter(tournament_id=tournament_id).update(results_version=99)
    assert services.after_standings_stored(tournament_id) != "deferred"
    assert queued == []
