"""Places after every round (engine ranking per round, reused where nothing changed), the
spread of results, their SVG, and the charts page that only reads them."""

from __future__ import annotations

import time
from types import SimpleNamespace

from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ranking import rank_results
from publishing import services
from publishing.charts import per_round, places_by_round, places_svg, spread_groups, spread_svg
from publishing.models import ChartData
from publishing.tasks import after_standings_task
from scoring.models import StandingsState
from scoring.selectors import ranking_input
from scoring.standings import recompute
from tests.engine.test_ranking_properties import tournaments
from tests.publishing.conftest import RY_LOST
from tournaments import services as organiser_services

TEAMS = [{"id": f"T{n}", "name": f"Team {n}"} for n in range(1, 5)]


def tournament(matches):
    return {"ruleset": "manual-2016", "ties": "min", "teams": TEAMS, "matches": matches}


def match(round_, table, ns, ew, scores=None):
    entry = {"round": round_, "table": table, "board": 1, "ns": ns, "ew": ew}
    if scores is not None:
        entry["scores"] = {"ns": scores, "ew": -scores}
    return entry


MATCHES = [
    match(1, 1, "T1", "T2", 30),
    match(1, 2, "T3", "T4", -20),
    match(2, 1, "T3", "T2", 100),
    match(2, 2, "T1", "T4", 50),
]


def test_places_after_each_round_rank_the_rounds_so_far():
    data = tournament(MATCHES)
    series = places_by_round(data)
    assert series.rounds == [1, 2] and series.ranked_rounds == [1, 2]
    for index, round_ in enumerate(series.rounds):
        expected = rank_results(tournament([m for m in MATCHES if m["round"] <= round_]))
        places = {row["team"]: row["place"] for row in expected["standings"]}
        assert {team: series.places[team][index] for team in places} == places


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(), st.randoms(use_true_random=False))
def test_places_after_each_round_are_those_of_ranking_the_rounds_so_far(data, rnd):
    shuffled = {**data, "matches": rnd.sample(data["matches"], len(data["matches"]))}
    series = places_by_round(shuffled)
    for index, round_ in enumerate(series.rounds):
        so_far = {**data, "matches": [m for m in data["matches"] if m["round"] <= round_]}
        ranked = rank_results(so_far)
        assert not ranked["provisional"]  # only rounds whose results are all in are drawn
        expected = {str(row["team"]): row["place"] for row in ranked["standings"]}
        assert {team: places[index] for team, places in series.places.items()} == expected
    if series.incomplete is not None:
        before = [m for m in data["matches"] if m["round"] <= series.incomplete]
        assert rank_results({**data, "matches": before})["provisional"]
        assert all(round_ < series.incomplete for round_ in series.rounds)


def test_a_round_with_a_result_missing_is_left_out_with_the_rounds_after_it():
    # Round 1 is missing table 2; round 2 complete. After round 1 the standings would be
    # provisional (placed by percentage), so neither round is drawn.
    data = tournament([MATCHES[0], match(1, 2, "T3", "T4"), *MATCHES[2:]])
    series = places_by_round(data)
    assert series.rounds == [] and series.incomplete == 1
    assert series.note == (
        "(round 1 is not drawn until all its results are in, nor the rounds after it)"
    )
    # Round 2 is missing a result: round 1 is drawn, round 2 is not.
    series = places_by_round(tournament([*MATCHES[:3], match(2, 2, "T1", "T4")]))
    assert series.rounds == [1] and series.incomplete == 2
    assert series.note == "(round 2 is not drawn until all its results are in)"
    assert places_by_round(tournament(MATCHES)).note == ""


def test_a_match_of_a_disqualified_team_is_not_waiting_for_a_result():
    data = tournament([*MATCHES[:3], match(2, 2, "T1", "T4")])
    data["disqualified"] = [{"team": "T4", "after_final": False}]
    series = places_by_round(data)
    assert series.rounds == [1, 2] and series.incomplete is None


def test_rounds_after_the_last_result_are_left_out():
    data = tournament([*MATCHES[:2], match(2, 1, "T3", "T2"), match(2, 2, "T1", "T4")])
    series = places_by_round(data)
    assert series.rounds == [1]
    assert places_by_round(tournament([match(1, 1, "T1", "T2")])).rounds == []


def test_unchanged_rounds_are_not_ranked_again():
    data = tournament(MATCHES)
    first = places_by_round(data)
    again = places_by_round(data, first.digests, per_round(first.rounds, first.places))
    assert again.ranked_rounds == [] and again.places == first.places
    changed = tournament([*MATCHES[:3], match(2, 2, "T1", "T4", -50)])
    later = places_by_round(changed, first.digests, per_round(first.rounds, first.places))
    assert later.ranked_rounds == [2]
    assert later.places != first.places


def test_svg_draws_a_line_per_team_with_a_hover_group():
    series = places_by_round(tournament(MATCHES))
    labels = {team["id"]: f"{team['id']}. {team['name']} <&>" for team in TEAMS}
    svg = places_svg(series.rounds, series.places, labels, ["T1", "T2", "T3", "T4"])
    assert svg.startswith("<svg") and svg.count('<g class="team"') == 4
    assert svg.count("<polyline") == 4 and "&lt;&amp;&gt;" in svg and "<&>" not in svg
    assert 'role="img"' in svg and "<title>" in svg
    assert places_svg([], {}, labels, ["T1"]) == ""


def test_spread_summarises_every_side_of_every_table():
    standings = rank_results(tournament(MATCHES))
    groups = spread_groups(standings)
    assert [(g["table"], g["side"]) for g in groups] == [(1, "NS"), (1, "EW"), (2, "NS"), (2, "EW")]
    table1_ns = groups[0]
    assert (table1_ns["low"], table1_ns["median"], table1_ns["high"]) == (30, 65, 100)
    assert table1_ns["scores"] == [30, 100]
    svg = spread_svg(groups)
    assert svg.count('class="strip side-NS"') == 2 and svg.count('class="strip side-EW"') == 2


def test_the_chart_task_follows_the_stored_standings(cup, confirm, client):
    confirm(cup, 1, 1)
    chart = ChartData.objects.get(tournament=cup.tournament)
    state = StandingsState.objects.get(tournament=cup.tournament)
    assert chart.computed_version == state.computed_version and chart.rounds == []
    assert chart.note.startswith("(round 1 is not drawn")
    confirm(cup, 1, 2, RY_LOST)
    confirm(cup, 2, 1)
    chart.refresh_from_db()
    assert chart.rounds == [1]
    page = client.get(reverse("publishing:charts", args=[cup.tournament.slug])).content.decode()
    assert "(round 2 is not drawn until all its results are in)" in page
    confirm(cup, 2, 2, RY_LOST)
    chart.refresh_from_db()
    assert chart.rounds == [1, 2] and chart.note == ""
    expected = rank_results(ranking_input(cup.tournament))
    final_places = {row["team"]: row["place"] for row in expected["standings"]}
    assert {team: series[-1] for team, series in chart.places.items()} == final_places
    assert chart.places_svg.count('<g class="team"') == 4
    page = client.get(reverse("publishing:charts", args=[cup.tournament.slug])).content.decode()
    assert chart.places_svg in page and chart.spread_svg in page
    assert "publishing/charts.js" in page


def test_the_charts_page_only_reads(cup, confirm, client, django_assert_max_num_queries):
    confirm(cup, 1, 1)
    confirm(cup, 1, 2, RY_LOST)
    with django_assert_max_num_queries(8):
        response = client.get(reverse("publishing:charts", args=[cup.tournament.slug]))
    assert response.status_code == 200
    assert ChartData.objects.get(tournament=cup.tournament).places_svg in response.content.decode()


def test_the_charts_page_before_any_result(cup, client):
    response = client.get(reverse("publishing:charts", args=[cup.tournament.slug]))
    assert response.status_code == 200
    assert "appear once the first results are in" in response.content.decode()


def test_the_chart_task_runs_at_once_then_at_most_every_few_seconds(cup, settings, monkeypatch):
    queued = []
    monkeypatch.setattr(after_standings_task, "apply_async", lambda **kwargs: queued.append(kwargs))
    now = [1000.0]
    clock = SimpleNamespace(time=lambda: now[0], monotonic=time.monotonic)
    monkeypatch.setattr(services, "time", clock)
    settings.PUBLISHING_CHART_DEBOUNCE_SECONDS = 7
    tournament_id = cup.tournament.pk
    services.enqueue_after_standings(tournament_id)  # after a quiet spell: at once
    services.enqueue_after_standings(tournament_id)  # stored again meanwhile: nothing more
    assert [(call["args"], call["countdown"]) for call in queued] == [([tournament_id], 0.0)]
    services.after_standings_stored(tournament_id)  # it starts: a new change queues again,
    now[0] += 2
    services.enqueue_after_standings(tournament_id)  # to run 7 s after it started
    assert len(queued) == 2 and queued[1]["countdown"] == 5.0
    services.after_standings_stored(tournament_id)
    now[0] += 8
    services.enqueue_after_standings(tournament_id)
    assert len(queued) == 3 and queued[2]["countdown"] == 0.0


def test_the_chart_task_reads_the_standings_without_the_teams_tables(cup, confirm, organiser):
    confirm(cup, 1, 1)
    confirm(cup, 1, 2, RY_LOST)
    confirm(cup, 2, 1)
    organiser_services.disqualify_team(by=organiser, team=cup.teams[3], reason="conduct")
    recompute(cup.tournament.pk)
    loaded = StandingsState.objects.get(tournament=cup.tournament)
    deferred = StandingsState.objects.defer("standings").get(tournament=cup.tournament)
    leaders, groups = services._chart_standings(cup.tournament, loaded)
    assert len(leaders) == 3 and groups == loaded.standings["groups"]
    assert services._chart_standings(cup.tournament, deferred) == (leaders, groups)
    assert "standings" in deferred.get_deferred_fields()  # never loaded
    StandingsState.objects.filter(pk=loaded.pk).update(computed_version=loaded.computed_version + 1)
    assert services._chart_standings(cup.tournament, deferred) is None  # the newer ones' turn
