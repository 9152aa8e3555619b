"""Places after every round (engine ranking per round, reused where nothing changed), the
spread of results, their SVG, and the charts page that only reads them; all drawn from
complete tables only (the pages of every game: ``test_charts_complete_tables.py``)."""

from __future__ import annotations

import time
from types import SimpleNamespace

from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ranking import rank_results
from publishing import services
from publishing.charts import (
    per_round,
    places_by_round,
    places_svg,
    spread_groups,
    spread_svg,
    tables_out_words,
)
from publishing.models import ChartData
from publishing.tasks import after_standings_task
from scoring.models import Result, StandingsState
from scoring.selectors import ranking_input
from scoring.standings import recompute
from tests.engine.test_ranking_properties import tournaments
from tests.publishing.conftest import GAM_MADE, RY_LOST
from tests.scoring.conftest import build_cup
from tournaments import services as organiser_services

TEAMS = [{"id": f"T{n}", "name": f"Team {n}"} for n in range(1, 5)]


def tournament(matches):
    return {"ruleset": "manual-2016", "ties": "min", "teams": TEAMS, "matches": matches}


def every_table(data) -> set[int]:
    """Every table of the input, as if each were complete: the ranking alone decides."""
    return {m["table"] for m in data["matches"]}


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
    series = places_by_round(data, complete={1, 2})
    assert series.rounds == [1, 2] and series.ranked_rounds == [1, 2]
    for index, round_ in enumerate(series.rounds):
        expected = rank_results(tournament([m for m in MATCHES if m["round"] <= round_]))
        places = {row["team"]: row["place"] for row in expected["standings"]}
        assert {entrant: series.places[entrant][index] for entrant in places} == places


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(), st.randoms(use_true_random=False))
def test_places_after_each_round_are_those_of_ranking_the_rounds_so_far(data, rnd):
    shuffled = {**data, "matches": rnd.sample(data["matches"], len(data["matches"]))}
    series = places_by_round(shuffled, complete=every_table(data))
    for index, round_ in enumerate(series.rounds):
        so_far = {**data, "matches": [m for m in data["matches"] if m["round"] <= round_]}
        ranked = rank_results(so_far)
        assert not ranked["provisional"]  # only rounds whose results are all in are drawn
        expected = {str(row["team"]): row["place"] for row in ranked["standings"]}
        assert {entrant: places[index] for entrant, places in series.places.items()} == expected
    if series.incomplete is not None:
        before = [m for m in data["matches"] if m["round"] <= series.incomplete]
        assert rank_results({**data, "matches": before})["provisional"]
        assert all(round_ < series.incomplete for round_ in series.rounds)


def test_a_round_with_a_result_missing_is_left_out_with_the_rounds_after_it():
    # Round 1 is missing table 2; round 2 complete. After round 1 the standings would be
    # provisional (placed by percentage), so neither round is drawn.
    data = tournament([MATCHES[0], match(1, 2, "T3", "T4"), *MATCHES[2:]])
    series = places_by_round(data, complete={1})
    assert series.rounds == [] and series.incomplete == 1 and series.waiting_tables == [2]
    assert series.note == (
        "(round 1 is not drawn until every table played up to it is complete, nor the "
        "rounds after it)"
    )
    # Round 2 is missing a result: round 1 is drawn once both its tables are complete.
    series = places_by_round(tournament([*MATCHES[:3], match(2, 2, "T1", "T4")]), complete={1})
    assert series.rounds == [] and series.incomplete == 1
    series = places_by_round(tournament([*MATCHES[:3], match(2, 2, "T1", "T4")]), complete={1, 2})
    assert series.rounds == [1] and series.incomplete == 2 and series.waiting_tables == []
    assert series.note == "(round 2 is not drawn until every table played up to it is complete)"
    assert places_by_round(tournament(MATCHES), complete={1, 2}).note == ""


def test_a_round_is_drawn_once_every_table_played_up_to_it_is_complete():
    # Every result is in, but table 2 has a match to come in round 3: its round-1 and
    # round-2 results would show in the places after rounds 1 and 2.
    data = tournament([*MATCHES, match(3, 2, "T3", "T4")])
    series = places_by_round(data, complete={1})
    assert series.rounds == [] and series.incomplete == 1 and series.waiting_tables == [2]
    # Table 3 is played in round 2 only, table 1 and 2 in round 1: round 1 is drawn.
    data = tournament([*MATCHES[:3], match(2, 3, "T1", "T4", 50)])
    series = places_by_round(data, complete={1, 2})
    assert series.rounds == [1] and series.incomplete == 2 and series.waiting_tables == [3]
    assert places_by_round(data, complete={1, 2, 3}).rounds == [1, 2]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(), st.data())
def test_places_never_depend_on_a_result_of_a_table_still_being_played(data, draw):
    tables = sorted(every_table(data))
    complete = set(draw.draw(st.sets(st.sampled_from(tables)) if tables else st.just(set())))
    series = places_by_round(data, complete=complete)
    drawn = set(series.rounds)
    assert {m["table"] for m in data["matches"] if m["round"] in drawn} <= complete
    if series.incomplete is not None:
        assert series.waiting_tables == sorted(
            {m["table"] for m in data["matches"] if m["round"] <= series.incomplete} - complete
        )
    # Any other result at the tables still being played: the same series.
    shift = draw.draw(st.sampled_from([-150, -21, 30, 1000]))
    changed = [
        {**m, "scores": {"ns": m["scores"]["ns"] + shift, "ew": m["scores"]["ew"] - shift}}
        if m["table"] not in complete and "scores" in m
        else m
        for m in data["matches"]
    ]
    again = places_by_round({**data, "matches": changed}, complete=complete)
    assert (again.rounds, again.places) == (series.rounds, series.places)


def test_a_match_of_a_disqualified_entrant_is_not_waiting_for_a_result():
    data = tournament([*MATCHES[:3], match(2, 2, "T1", "T4")])
    data["disqualified"] = [{"team": "T4", "after_final": False}]
    series = places_by_round(data, complete={1, 2})
    assert series.rounds == [1, 2] and series.incomplete is None


def test_rounds_after_the_last_result_are_left_out():
    data = tournament([*MATCHES[:2], match(2, 1, "T3", "T2"), match(2, 2, "T1", "T4")])
    series = places_by_round(data, complete={1, 2})
    assert series.rounds == [1]
    assert places_by_round(tournament([match(1, 1, "T1", "T2")]), complete={1}).rounds == []


def test_unchanged_rounds_are_not_ranked_again():
    data = tournament(MATCHES)
    first = places_by_round(data, complete={1, 2})
    again = places_by_round(
        data, first.digests, per_round(first.rounds, first.places), complete={1, 2}
    )
    assert again.ranked_rounds == [] and again.places == first.places
    changed = tournament([*MATCHES[:3], match(2, 2, "T1", "T4", -50)])
    later = places_by_round(
        changed, first.digests, per_round(first.rounds, first.places), complete={1, 2}
    )
    assert later.ranked_rounds == [2]
    assert later.places != first.places


def test_svg_draws_a_line_per_entrant_with_a_hover_group():
    series = places_by_round(tournament(MATCHES), complete={1, 2})
    labels = {entrant["id"]: f"{entrant['id']}. {entrant['name']} <&>" for entrant in TEAMS}
    svg = places_svg(series.rounds, series.places, labels, ["T1", "T2", "T3", "T4"])
    assert svg.startswith("<svg") and svg.count('<g class="team"') == 4
    assert svg.count("<polyline") == 4 and "&lt;&amp;&gt;" in svg and "<&>" not in svg
    assert 'role="img"' in svg and "<title>" in svg
    assert places_svg([], {}, labels, ["T1"]) == ""


def test_spread_summarises_every_side_of_every_table():
    standings = rank_results(tournament(MATCHES))
    groups = spread_groups(standings, {1, 2})
    assert [(g["table"], g["side"]) for g in groups] == [(1, "NS"), (1, "EW"), (2, "NS"), (2, "EW")]
    table1_ns = groups[0]
    assert (table1_ns["low"], table1_ns["median"], table1_ns["high"]) == (30, 65, 100)
    assert table1_ns["scores"] == [30, 100]
    svg = spread_svg(groups)
    assert svg.count('class="strip side-NS"') == 2 and svg.count('class="strip side-EW"') == 2


def test_spread_leaves_out_the_tables_still_being_played():
    standings = rank_results(tournament(MATCHES))
    groups = spread_groups(standings, {2})
    assert {g["table"] for g in groups} == {2}
    assert groups == [g for g in spread_groups(standings, {1, 2}) if g["table"] == 2]
    assert spread_groups(standings, set()) == [] and spread_svg([]) == ""
    svg = spread_svg(groups)
    assert "Table 2, board 1, NS" in svg and "Table 1" not in svg and ">T1 " not in svg


def test_spread_of_a_game_of_individuals_has_a_strip_per_seat():
    results = [{"player": "P1", "round": 1, "score": 8}, {"player": "P2", "round": 2, "score": -2}]
    groups = [
        {"table": 1, "board": 1, "seat": seat, "results": results} for seat in ("W", "N", "E", "S")
    ]
    spread = spread_groups({"groups": groups}, {1})
    assert [g["side"] for g in spread] == ["N", "E", "S", "W"]
    assert all((g["low"], g["high"], g["results"]) == (-2, 8, 2) for g in spread)
    assert 'class="strip side-N"' in spread_svg(spread) and "board 1, W: 2 results" in spread_svg(
        spread
    )


def test_the_tables_still_being_played_in_words():
    assert tables_out_words([]) == ""
    assert tables_out_words([3]) == (
        "Table 3 is still being played: its results are not shown yet."
    )
    assert tables_out_words([5, 3]) == (
        "Tables 3 and 5 are still being played: their results are not shown yet."
    )
    assert tables_out_words([1, 2, 3, 4, 7, 9, 10]).startswith("Tables 1-4, 7, 9 and 10 are ")


def test_the_chart_task_follows_the_stored_standings(cup, confirm, client):
    confirm(cup, 1, 1)
    chart = ChartData.objects.get(tournament=cup.tournament)
    state = StandingsState.objects.get(tournament=cup.tournament)
    assert chart.computed_version == state.computed_version and chart.rounds == []
    assert chart.note.startswith("(round 1 is not drawn")
    confirm(cup, 1, 2, RY_LOST)
    confirm(cup, 2, 1)
    chart.refresh_from_db()
    # Table 1 is complete, table 2 waits for round 2: round 1 was played at both.
    assert chart.rounds == [] and chart.tables == [1]
    assert {g["table"] for g in chart.spread} == {1}
    page = client.get(reverse("publishing:charts", args=[cup.tournament.slug])).content.decode()
    assert "(round 1 is not drawn until every table played up to it is complete, nor" in page
    assert "Table 2 is still being played: its results are not shown yet." in page
    confirm(cup, 2, 2, RY_LOST)
    chart.refresh_from_db()
    assert chart.rounds == [1, 2] and chart.note == "" and chart.tables == [1, 2]
    expected = rank_results(ranking_input(cup.tournament))
    final_places = {row["team"]: row["place"] for row in expected["standings"]}
    assert {entrant: series[-1] for entrant, series in chart.places.items()} == final_places
    assert chart.places_svg.count('<g class="team"') == 4
    page = client.get(reverse("publishing:charts", args=[cup.tournament.slug])).content.decode()
    assert chart.places_svg in page and chart.spread_svg in page
    assert "publishing/charts.js" in page and "still being played" not in page


def test_the_charts_never_depend_on_a_result_of_a_table_still_being_played(db, confirm, client):
    """Two cups alike but for table 2's round-1 result: the same charts, word for word."""
    pages = []
    for slug, facts in (("cup-a", RY_LOST), ("cup-b", GAM_MADE)):
        cup = build_cup(slug)
        confirm(cup, 1, 1)
        confirm(cup, 1, 2, facts)
        confirm(cup, 2, 1)
        chart = ChartData.objects.get(tournament=cup.tournament)
        page = client.get(reverse("publishing:charts", args=[slug])).content.decode()
        section = page[page.index("<h1>Charts</h1>") : page.index("</main>")]
        places = sorted(chart.places.values())
        pages.append((chart.spread, chart.spread_svg, chart.rounds, places, section))
    held = [
        Result.objects.get(
            match__table__tournament__slug=slug, match__round=1, match__table__number=2
        )
        for slug in ("cup-a", "cup-b")
    ]
    assert held[0].north_result != held[1].north_result  # table 2 did hold different results
    assert pages[0] == pages[1]


def test_the_charts_page_only_reads(cup, play_all, client, django_assert_max_num_queries):
    play_all(cup)
    # The chart, the standings' bookkeeping, the complete tables (4) and every table, the
    # leaders of the places table: a fixed number, whatever the size of the tournament.
    with django_assert_max_num_queries(9):
        response = client.get(reverse("publishing:charts", args=[cup.tournament.slug]))
    assert response.status_code == 200
    chart = ChartData.objects.get(tournament=cup.tournament)
    assert chart.places_svg and chart.places_svg in response.content.decode()


def test_the_charts_page_before_any_result(cup, client):
    response = client.get(reverse("publishing:charts", args=[cup.tournament.slug]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "The charts appear once the first table is complete." in page
    assert "Tables 1 and 2 are still being played: their results are not shown yet." in page


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


def test_the_chart_task_reads_the_standings_without_the_entrants_tables(cup, confirm, organiser):
    confirm(cup, 1, 1)
    confirm(cup, 1, 2, RY_LOST)
    confirm(cup, 2, 1)
    organiser_services.disqualify_entrant(by=organiser, entrant=cup.entrants[3], reason="conduct")
    recompute(cup.tournament.pk)
    loaded = StandingsState.objects.get(tournament=cup.tournament)
    deferred = StandingsState.objects.defer("standings").get(tournament=cup.tournament)
    leaders, groups = services._chart_standings(cup.tournament, loaded)
    assert len(leaders) == 3 and groups == loaded.standings["groups"]
    assert services._chart_standings(cup.tournament, deferred) == (leaders, groups)
    assert "standings" in deferred.get_deferred_fields()  # never loaded
    StandingsState.objects.filter(pk=loaded.pk).update(computed_version=loaded.computed_version + 1)
    assert services._chart_standings(cup.tournament, deferred) is None  # the newer ones' turn


def test_a_chart_stored_before_its_tables_were_kept_shows_no_places_until_drawn_again(
    cup, play_all, client
):
    play_all(cup)
    chart = ChartData.objects.get(tournament=cup.tournament)
    assert chart.places_svg and chart.tables == [1, 2]
    ChartData.objects.filter(pk=chart.pk).update(tables=None)
    page = client.get(reverse("publishing:charts", args=[cup.tournament.slug])).content.decode()
    assert chart.places_svg not in page and chart.spread_svg in page
    assert "being redrawn" in page
    state = StandingsState.objects.get(tournament=cup.tournament)
    services.refresh_chart_data(cup.tournament, state)
    page = client.get(reverse("publishing:charts", args=[cup.tournament.slug])).content.decode()
    assert chart.places_svg in page and "being redrawn" not in page
