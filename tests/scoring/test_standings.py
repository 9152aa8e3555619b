"""The standings task: the ranking kept between updates and brought up to date by the changed
results alone, and the rows it writes (only the changed ones). Whatever path it takes, it
stores exactly what ranking the stored results from scratch gives."""

from __future__ import annotations

import copy
import json
import random
from types import SimpleNamespace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.ranking import RankingState, rank_results
from engine.ranking.stored import expand_standings
from scoring import services, standings
from scoring.models import RankingPoints, Standing, StandingsState
from scoring.selectors import ranking_input
from tests.engine.test_ranking_properties import results, tournaments
from tests.scoring.conftest import new_id
from tests.tournaments.factories import (
    BoardFactory,
    EntrantFactory,
    OrganiserFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments import services as organiser
from tournaments.models import Match, Status


@pytest.fixture(autouse=True)
def _nothing_kept():
    standings.forget_rankings()
    yield
    standings.forget_rankings()


class Builds:
    """Counts the rankings the standings task builds from scratch."""

    def __init__(self, monkeypatch):
        self.count = 0
        counter = self

        class Counted(RankingState):
            @classmethod
            def build(cls, data):
                counter.count += 1
                return super().build(data)

        monkeypatch.setattr(standings, "RankingState", Counted)


def without_tables(full):
    return {
        **full,
        "standings": [
            {key: value for key, value in row.items() if key != "tables"}
            for row in full["standings"]
        ],
    }


def assert_ranks_as_from_scratch(ranked, data):
    expected = rank_results(data)
    # The text stored is compact; read back whole it is the standings, to the byte.
    assert json.dumps(expand_standings(json.loads(ranked.text))) == json.dumps(expected)
    assert ranked.standings == without_tables(expected)


# -- ranking, incremental where it can be ------------------------------------------------------


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tournaments(),
    st.lists(
        st.one_of(
            st.tuples(st.just("results"), st.dictionaries(st.integers(0, 99), results())),
            st.tuples(st.just("disqualify"), st.integers(0, 99), st.booleans()),
            st.tuples(st.just("swap"), st.integers(0, 99)),
            st.tuples(st.just("rename"), st.integers(0, 99)),
        ),
        max_size=8,
    ),
)
def test_the_kept_ranking_always_gives_what_ranking_from_scratch_gives(data, steps):
    data = copy.deepcopy(data)
    tournament = SimpleNamespace(pk=1)
    standings.forget_rankings()
    assert_ranks_as_from_scratch(standings.rank(tournament, copy.deepcopy(data)), data)
    for kind, pick, *more in steps:
        if kind == "results" and data["matches"]:
            for index, result in pick.items():
                index %= len(data["matches"])
                old = data["matches"][index]
                data["matches"][index] = {
                    key: value for key, value in old.items() if key not in ("record", "scores")
                } | result
        elif kind == "disqualify":
            entrant = data["teams"][pick % len(data["teams"])]["id"]
            if all(item["team"] != entrant for item in data["disqualified"]):
                data["disqualified"].append({"team": entrant, "after_final": more[0]})
        elif kind == "swap" and data["matches"]:  # a schedule change: NS and EW swap seats
            chosen = data["matches"][pick % len(data["matches"])]
            for match in data["matches"]:  # every board of the match
                if (match["round"], match["table"]) == (chosen["round"], chosen["table"]):
                    match["ns"], match["ew"] = match["ew"], match["ns"]
        elif kind == "rename":
            entrant = data["teams"][pick % len(data["teams"])]
            entrant["name"] += "!"
        # A fresh copy, as every task reads the results anew.
        assert_ranks_as_from_scratch(standings.rank(tournament, copy.deepcopy(data)), data)


def one_table(scores):
    entrants = [{"id": str(n), "name": f"team {n}"} for n in range(1, 2 * len(scores) + 1)]
    matches = [
        {"round": r + 1, "table": 1, "board": 1, "ns": str(2 * r + 1), "ew": str(2 * r + 2)}
        | ({} if score is None else {"scores": {"ns": score, "ew": -score}})
        for r, score in enumerate(scores)
    ]
    return {
        "ruleset": "manual-2016",
        "ties": "min",
        "teams": entrants,
        "matches": matches,
        "disqualified": [],
    }


def test_changed_results_alone_are_applied_to_the_kept_ranking(monkeypatch):
    builds = Builds(monkeypatch)
    tournament = SimpleNamespace(pk=7)
    standings.rank(tournament, one_table([10, None, 30]))
    assert builds.count == 1
    data = one_table([10, 20, -30])  # one entered, one corrected
    assert_ranks_as_from_scratch(standings.rank(tournament, copy.deepcopy(data)), data)
    data = one_table([10, None, -30])  # one erased
    assert_ranks_as_from_scratch(standings.rank(tournament, copy.deepcopy(data)), data)
    assert builds.count == 1
    other = SimpleNamespace(pk=8)  # another tournament has a ranking of its own
    standings.rank(other, one_table([1, 2, 3]))
    assert builds.count == 2


@pytest.mark.parametrize(
    "change",
    [
        lambda data: data["disqualified"].append({"team": "1", "after_final": False}),
        lambda data: data["matches"][1].update(ew="5", ns="4"),
        lambda data: data["matches"].pop(),
        lambda data: data["teams"][0].update(name="renamed"),
        lambda data: data.update(ties="average"),
        lambda data: data["matches"][0].update(scores={"ns": "x", "ew": 1}),
    ],
)
def test_anything_but_results_ranks_from_scratch(monkeypatch, change):
    builds = Builds(monkeypatch)
    tournament = SimpleNamespace(pk=7)
    standings.rank(tournament, one_table([10, None, 30]))
    data = one_table([10, 20, 30])
    change(data)
    try:
        expected = rank_results(data)
    except ValueError:  # an input that cannot be ranked is reported as from scratch
        with pytest.raises(ValueError):
            standings.rank(tournament, data)
        assert builds.count == 2
        return
    ranked = standings.rank(tournament, copy.deepcopy(data))
    assert builds.count == 2
    assert expand_standings(json.loads(ranked.text)) == expected


def test_only_the_last_few_tournaments_are_kept(monkeypatch):
    builds = Builds(monkeypatch)
    for pk in range(standings.RANKED_KEPT + 1):
        standings.rank(SimpleNamespace(pk=pk), one_table([pk, None]))
    standings.rank(SimpleNamespace(pk=standings.RANKED_KEPT), one_table([0, 1]))
    assert builds.count == standings.RANKED_KEPT + 1
    standings.rank(SimpleNamespace(pk=0), one_table([0, 1]))  # the oldest was let go
    assert builds.count == standings.RANKED_KEPT + 2


def test_the_collector_is_paused_while_ranking_and_back_after():
    import gc

    assert gc.isenabled()
    with standings.collector_paused():
        assert not gc.isenabled()
        with standings.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), standings.collector_paused():
        raise RuntimeError
    assert gc.isenabled()


# -- the rows it writes ------------------------------------------------------------------------


def stored_rows(tournament):
    return {
        "standing": set(
            Standing.objects.filter(tournament=tournament).values_list(
                "entrant_id", "place", "points", "matches", "status"
            )
        ),
        "points": set(
            RankingPoints.objects.filter(tournament=tournament).values_list(
                "match_id", "board_id", "entrant_id", "side", "score", "points"
            )
        ),
    }


def rows_from_scratch(tournament):
    """What the standings task stored before it kept anything: a full ranking, every row."""
    computed = rank_results(ranking_input(tournament))
    return computed, {
        "standing": {
            (int(row["team"]), row["place"], row["points"], row["matches"], row["status"])
            for row in computed["standings"]
        },
        "points": {
            (*key, *values)
            for key, values in standings._ranking_points(tournament, computed).items()
        },
    }


def build_league(tables=4, rounds=3):
    """2 × tables teams: 1..K sit NS, K+1..2K EW, moving like the load test's."""
    tournament = TournamentFactory(slug="league", status=Status.SCHEDULED)
    entrants = [EntrantFactory(tournament=tournament, number=n) for n in range(1, 2 * tables + 1)]
    table_rows = [TableFactory(tournament=tournament, number=n) for n in range(1, tables + 1)]
    for table in table_rows:
        BoardFactory(table=table, number=1)
    matches = [
        Match.objects.create(
            round=r,
            table=table_rows[t],
            north_entrant=entrants[(t - r) % tables],
            east_entrant=entrants[tables + (t + r) % tables],
        )
        for r in range(1, rounds + 1)
        for t in range(tables)
    ]
    return tournament, entrants, matches


def gam(ns_tricks):
    return {
        "auctions": [["N:G", "E:P", "S:P", "W:P"]],
        "trump": "fire",
        "tricks": {"NS": ns_tricks, "EW": 15 - ns_tricks},
    }


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_stored_rows_are_those_of_a_full_recomputation_after_any_changes(db, monkeypatch, seed):
    rnd = random.Random(seed)
    director = OrganiserFactory()
    tournament, entrants, matches = build_league()
    builds = Builds(monkeypatch)
    disqualified = 0
    for _step in range(30):
        match = rnd.choice(matches)
        action = rnd.choice(["enter", "enter", "enter", "adjust", "erase", "disqualify"])
        if action == "enter":  # a first result, or a correction
            services.director_enter_result(
                match_id=match.pk,
                board_number=1,
                user=director,
                facts=gam(rnd.choice([3, 8, 8, 10, 12])),
                client_id=new_id(),
            )
        elif action == "adjust":
            score = rnd.choice([-40, 0, 21, 21, 60])
            services.director_adjust(
                match_id=match.pk, board_number=1, user=director, ns=score, ew=-score, reason="x"
            )
        elif action == "erase":
            services.director_erase(
                match_id=match.pk, board_number=1, user=director, reason="misboard"
            )
        elif disqualified < 2:
            entrant = rnd.choice([t for t in entrants if not hasattr(t, "disqualification")])
            organiser.disqualify_entrant(by=director, entrant=entrant, reason="conduct")
            disqualified += 1
        assert standings.recompute(tournament.pk) in ("stored", "current")
        computed, expected = rows_from_scratch(tournament)
        assert StandingsState.objects.get(tournament=tournament).standings == computed
        assert stored_rows(tournament) == expected
    assert builds.count < 15  # most updates brought the kept ranking up to date


def test_unchanged_rows_are_not_written_again(db):
    director = OrganiserFactory()
    tournament, _entrants, matches = build_league(tables=2, rounds=2)
    for match, tricks in zip(matches, [10, 8, 12], strict=False):
        services.director_enter_result(
            match_id=match.pk, board_number=1, user=director, facts=gam(tricks), client_id=new_id()
        )
    standings.recompute(tournament.pk)
    stored = RankingPoints.objects.filter(tournament=tournament)
    before = {row[0]: row[1:] for row in stored.values_list("pk", "match_id", "points")}
    # Table 2's second result ranks above its first for NS (below it for EW): one row moves.
    services.director_enter_result(
        match_id=matches[3].pk, board_number=1, user=director, facts=gam(12), client_id=new_id()
    )
    standings.recompute(tournament.pk)
    after = {row[0]: row[1:] for row in stored.values_list("pk", "match_id", "points")}
    assert set(before) < set(after)  # rows added, none deleted and created again
    moved = {pk for pk in before if before[pk] != after[pk]}
    assert {before[pk][0] for pk in moved} == {matches[1].pk} and len(moved) == 1
    assert {after[pk][0] for pk in set(after) - set(before)} == {matches[3].pk}
    _computed, expected = rows_from_scratch(tournament)
    assert stored_rows(tournament) == expected


def test_sync_writes_what_changed_and_nothing_else(db, django_assert_num_queries):
    tournament, entrants, _matches = build_league(tables=2, rounds=1)
    query = Standing.objects.filter(tournament=tournament)

    def sync(wanted):
        return standings._sync(
            Standing,
            query,
            key_fields=("entrant_id",),
            value_fields=("place", "points", "matches", "status"),
            wanted=wanted,
            extra={"tournament_id": tournament.pk},
        )

    ids = [entrant.pk for entrant in entrants]
    wanted = {
        (ids[0],): (1, 2, 1, "ok"),
        (ids[1],): (2, 3.5, 1, "ok"),
        (ids[2],): (None, 4.25, 0, "disqualified"),
    }
    assert sync(wanted) == {"updated": 0, "created": 3, "deleted": 0}
    pks = dict(query.values_list("entrant_id", "pk"))
    with django_assert_num_queries(1):  # the read, and no write
        assert sync(wanted) == {"updated": 0, "created": 0, "deleted": 0}
    wanted[(ids[1],)] = (1, 2, 1, "ok")  # mixed whole and fractional points
    wanted[(ids[2],)] = (3, 2.5, 2, "ok")  # a None replaced, text changed
    del wanted[(ids[0],)]
    wanted[(ids[3],)] = (None, 0, 0, "disqualified")
    with django_assert_num_queries(4):  # read, delete, one update, insert
        assert sync(wanted) == {"updated": 2, "created": 1, "deleted": 1}
    columns = ("entrant_id", "place", "points", "matches", "status")
    rows = {row[0]: row[1:] for row in query.values_list(*columns)}
    assert rows == {key[0]: values for key, values in wanted.items()}
    assert dict(query.filter(entrant_id__in=ids[1:3]).values_list("entrant_id", "pk")) == {
        ids[1]: pks[ids[1]],
        ids[2]: pks[ids[2]],
    }
