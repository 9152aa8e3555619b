"""Recomputes of one tournament's standings take turns: a burst of results gives one recompute
at a time with the latest results, never a queue of stale ones, and the last result is
always in the standings stored last."""

from __future__ import annotations

import contextlib
import threading

import pytest
from django.db import connection

from engine.ranking import rank_results
from engine.ranking.stored import expand_standings
from scoring import services, standings
from scoring.models import StandingsState
from scoring.selectors import ranking_input
from tests.scoring.conftest import new_id
from tests.scoring.test_standings import build_league, gam
from tests.tournaments.factories import OrganiserFactory


@pytest.fixture(autouse=True)
def _nothing_kept():
    standings.forget_rankings()
    yield
    standings.forget_rankings()


def enter(match, tricks, director):
    services.director_enter_result(
        match_id=match.pk, board_number=1, user=director, facts=gam(tricks), client_id=new_id()
    )


def assert_current_and_right(tournament):
    state = StandingsState.objects.get(tournament=tournament)
    assert state.computed_at is not None
    assert state.computed_version == state.results_version
    assert state.standings == rank_results(ranking_input(tournament))


def test_a_recompute_that_finds_the_turn_taken_leaves_at_once(db, monkeypatch):
    director = OrganiserFactory()
    tournament, _entrants, matches = build_league(tables=2, rounds=1)
    monkeypatch.setattr(services, "enqueue_standings_update", lambda _id: None)
    enter(matches[0], 10, director)
    ranked = []
    monkeypatch.setattr(standings, "rank", lambda *args: ranked.append(args))

    @contextlib.contextmanager
    def taken(_tournament_id, *, wait):
        yield False

    monkeypatch.setattr(standings, "_turn", taken)
    assert standings.recompute(tournament.pk, wait=False) == "running"
    assert ranked == []
    assert StandingsState.objects.get(tournament=tournament).computed_at is None


def test_whoever_has_the_turn_goes_round_again_for_results_entered_meanwhile(db, monkeypatch):
    director = OrganiserFactory()
    tournament, _entrants, matches = build_league(tables=2, rounds=2)
    # The tasks the results would queue find the turn taken: they leave it to the holder.
    monkeypatch.setattr(services, "enqueue_standings_update", lambda _id: None)
    enter(matches[0], 10, director)
    real = standings._recompute
    passes = []

    def recompute_while_results_come(tournament_id):
        passes.append(real(tournament_id))
        if len(passes) == 1:  # results confirmed while the first pass was under way
            enter(matches[1], 8, director)
            enter(matches[2], 12, director)
        return passes[-1]

    monkeypatch.setattr(standings, "_recompute", recompute_while_results_come)
    assert standings.recompute(tournament.pk, wait=False) == "stored"
    assert passes == ["stored", "stored"]
    assert_current_and_right(tournament)
    assert standings.recompute(tournament.pk, wait=False) == "current"


def test_the_stored_standings_are_compact_and_read_back_whole(db):
    director = OrganiserFactory()
    tournament, _entrants, matches = build_league(tables=4, rounds=1)
    for match, tricks in zip(matches, [10, 8, 12], strict=False):
        enter(match, tricks, director)
    standings.recompute(tournament.pk)
    raw = StandingsState.objects.filter(tournament=tournament).values_list("standings__team_tables")
    assert raw.get()[0]["teams"]  # kept compact in the database
    assert_current_and_right(tournament)
    groups = StandingsState.objects.filter(tournament=tournament).values_list("standings__groups")
    assert groups.get()[0] == rank_results(ranking_input(tournament))["groups"]
    assert expand_standings(raw.get()[0]) == raw.get()[0]  # a part is read as it is


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_a_burst_during_a_recompute_waits_for_no_one_and_is_all_stored(monkeypatch):
    """Two connections, as two worker processes: while one recompute ranks, results come in
    and their own recompute leaves at once; the first goes round again with them. The turn is
    PostgreSQL's advisory lock, so this runs in the PostgreSQL run only."""
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    director = OrganiserFactory()
    tournament, _entrants, matches = build_league(tables=3, rounds=1)
    monkeypatch.setattr(services, "enqueue_standings_update", lambda _id: None)
    enter(matches[0], 10, director)
    ranking, go_on = threading.Event(), threading.Event()
    real_rank = standings.rank

    def slow_rank(*args):
        if not ranking.is_set():
            ranking.set()
            assert go_on.wait(30)
        return real_rank(*args)

    monkeypatch.setattr(standings, "rank", slow_rank)
    outcome = []

    def worker():
        try:
            outcome.append(standings.recompute(tournament.pk, wait=False))
        finally:
            connection.close()

    first = threading.Thread(target=worker)
    first.start()
    assert ranking.wait(30)
    enter(matches[1], 8, director)
    enter(matches[2], 12, director)
    assert standings.recompute(tournament.pk, wait=False) == "running"  # did not wait
    go_on.set()
    first.join(60)
    assert outcome == ["stored"]
    assert_current_and_right(tournament)
