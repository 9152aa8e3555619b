"""generate_schedule: every schedule passes the validator and an independent checker below,
and keeps its balance promise."""

import math
from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.schedule import ScheduleError, check_schedule, generate_schedule
from engine.schedule.orthogonal import has_orthogonal_array


def independent_problems(schedule, teams, tables, sides):
    """A plain re-reading of docs/rulebook.md section 8, sharing no code with engine.schedule."""
    problems = []
    rounds = schedule["rounds"]
    if (schedule["teams"], schedule["tables"], schedule["sides"]) != (teams, tables, sides):
        problems.append("header does not echo the request")
    in_round = defaultdict(list)
    table_in_round = defaultdict(list)
    tables_of = defaultdict(list)
    ns_count, ew_count = Counter(), Counter()
    pairs = Counter()
    for m in schedule["matches"]:
        r, t, a, b = m["round"], m["table"], m["ns"], m["ew"]
        if not (1 <= r <= rounds and 1 <= t <= tables and 1 <= a <= teams and 1 <= b <= teams):
            problems.append(f"out of range: {m}")
        if a == b:
            problems.append(f"self match: {m}")
        in_round[r] += [a, b]
        table_in_round[r].append(t)
        tables_of[a].append(t)
        tables_of[b].append(t)
        ns_count[a] += 1
        ew_count[b] += 1
        pairs[frozenset((a, b))] += 1
    for r in in_round:
        if len(set(in_round[r])) != len(in_round[r]):
            problems.append(f"a team twice in round {r}")
        if len(set(table_in_round[r])) != len(table_in_round[r]):
            problems.append(f"a table twice in round {r}")
    for team in range(1, teams + 1):
        if len(set(tables_of[team])) != len(tables_of[team]):
            problems.append(f"team {team} plays a table twice")
    if teams % 2 == 0:
        for team in range(1, teams + 1):
            if sorted(tables_of[team]) != list(range(1, tables + 1)):
                problems.append(f"team {team} misses a table")
    else:
        for table in range(1, tables + 1):
            absent = [team for team in range(1, teams + 1) if table not in tables_of[team]]
            if len(absent) != 1:
                problems.append(f"table {table} missed by {absent}")
    for team in range(1, teams + 1):
        played = ns_count[team] + ew_count[team]
        if sides == "fixed" and ns_count[team] and ew_count[team]:
            problems.append(f"team {team} changes side")
        if sides == "balanced" and abs(2 * ns_count[team] - played) > 1:
            problems.append(f"team {team} unbalanced: NS {ns_count[team]} of {played}")
    seated = {r: set(in_round[r]) for r in range(1, rounds + 1)}
    idle = {
        (r, team)
        for r in range(1, rounds + 1)
        for team in range(1, teams + 1)
        if team not in seated[r]
    }
    if {(b["round"], b["team"]) for b in schedule["byes"]} != idle:
        problems.append("byes are not the rounds sat out")
    if len(schedule["byes"]) != len(idle):
        problems.append("a bye listed twice")
    if schedule["max_meetings"] != max(pairs.values(), default=0):
        problems.append("max_meetings is wrong")
    return problems


def assert_good(teams, tables, sides="fixed"):
    schedule = generate_schedule(teams, tables, sides)
    assert check_schedule(schedule) == []
    assert independent_problems(schedule, teams, tables, sides) == []
    return schedule


# --- every K for the main case: 2K teams, fixed sides ---------------------------------------


@pytest.mark.parametrize("k", range(1, 61))
def test_2k_teams_at_k_tables_meet_once(k):
    schedule = assert_good(2 * k, k)
    assert schedule["rounds"] == k
    assert schedule["byes"] == []
    assert schedule["max_meetings"] == (2 if k in (2, 6) else 1)
    if k not in (2, 6):
        met = {(m["ns"], m["ew"]) for m in schedule["matches"]}
        assert met == {(a, b) for a in range(1, k + 1) for b in range(k + 1, 2 * k + 1)}


@pytest.mark.parametrize("k", [98, 100, 102, 166, 250, 498, 500])
def test_2k_teams_at_large_k(k):
    schedule = assert_good(2 * k, k)
    assert schedule["max_meetings"] == 1
    assert len({(m["ns"], m["ew"]) for m in schedule["matches"]}) == k * k


@pytest.mark.parametrize("k", [3, 5, 7, 9, 15, 21])
def test_odd_k_is_the_cyclic_movement(k):
    schedule = generate_schedule(2 * k, k)
    for m in schedule["matches"]:
        r, t = m["round"] - 1, m["table"] - 1
        assert m["ns"] == (t - r) % k + 1
        assert m["ew"] == k + (t + r) % k + 1


def test_fixed_sides_number_ns_first():
    schedule = generate_schedule(10, 5)
    assert {m["ns"] for m in schedule["matches"]} == {1, 2, 3, 4, 5}
    assert {m["ew"] for m in schedule["matches"]} == {6, 7, 8, 9, 10}


def test_matches_are_sorted_by_round_then_table():
    matches = generate_schedule(14, 9)["matches"]
    keys = [(m["round"], m["table"]) for m in matches]
    assert keys == sorted(keys)


# --- odd teams, fewer and more teams than seats ---------------------------------------------


def test_odd_teams_give_the_phantoms_opponent_a_bye():
    schedule = assert_good(15, 8)
    assert schedule["rounds"] == 8
    assert len(schedule["byes"]) == 8  # the phantom plays once a round
    assert len({b["team"] for b in schedule["byes"]}) == 8
    assert schedule["max_meetings"] == 1
    assert all(16 not in (m["ns"], m["ew"]) for m in schedule["matches"])


def test_more_teams_than_seats_take_more_rounds_and_meet_once():
    schedule = assert_good(26, 8)
    assert schedule["rounds"] == 13
    assert schedule["max_meetings"] == 1
    sat_out = Counter(b["team"] for b in schedule["byes"])
    assert set(sat_out.values()) == {13 - 8}


def test_fewer_teams_than_seats_leave_tables_idle():
    schedule = assert_good(10, 8)
    assert schedule["rounds"] == 8
    assert schedule["max_meetings"] == 2  # 5 a side, 8 tables: ⌈8/5⌉
    per_round = Counter(m["round"] for m in schedule["matches"])
    assert set(per_round.values()) == {5}


def test_a_round_only_the_phantom_would_play_is_dropped():
    schedule = assert_good(5, 1)
    assert schedule["rounds"] == 2
    players = [team for m in schedule["matches"] for team in (m["ns"], m["ew"])]
    assert len(set(players)) == 4  # one match a round; the fifth team faced the phantom
    assert len(schedule["byes"]) == 2 * 3


def test_two_teams():
    schedule = assert_good(2, 3)
    assert schedule["max_meetings"] == 3
    assert len(schedule["matches"]) == 3


def test_k6_fixed_reaches_two_meetings():
    assert generate_schedule(12, 6)["max_meetings"] == 2
    assert generate_schedule(12, 5)["max_meetings"] == 1
    assert generate_schedule(12, 12)["max_meetings"] == 2


@pytest.mark.parametrize("teams", [11, 12])
def test_k6_balanced_meets_once(teams):
    schedule = assert_good(teams, 6, "balanced")
    assert schedule["max_meetings"] == 1
    assert schedule["rounds"] == 6


# --- balanced sides -------------------------------------------------------------------------


@pytest.mark.parametrize(("teams", "tables"), [(16, 8), (15, 8), (9, 4), (30, 7), (6, 9)])
def test_balanced_sides(teams, tables):
    fixed = generate_schedule(teams, tables)
    balanced = assert_good(teams, tables, "balanced")
    assert balanced["max_meetings"] == fixed["max_meetings"]
    assert any(m["ns"] > (teams + 1) // 2 for m in balanced["matches"])


# --- properties -----------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    teams=st.integers(min_value=2, max_value=90),
    tables=st.integers(min_value=1, max_value=45),
    sides=st.sampled_from(["fixed", "balanced"]),
)
def test_every_schedule_keeps_the_rules(teams, tables, sides):
    schedule = assert_good(teams, tables, sides)
    n = (teams + 1) // 2
    if n >= tables:
        phantom_only_round = tables == 1 and teams % 2 == 1
        assert schedule["rounds"] == n - phantom_only_round
        repeats = n == tables == 2 or (n == tables == 6 and sides == "fixed")
        assert schedule["max_meetings"] == (2 if repeats else 1)
    elif n not in (2, 6):
        assert schedule["max_meetings"] <= math.ceil(tables / n)
        if has_orthogonal_array(n, 5) or tables % n == 0 or n in (1, 3):
            assert schedule["rounds"] == tables


@settings(max_examples=40, deadline=None)
@given(k=st.integers(min_value=3, max_value=120).filter(lambda k: k != 6))
def test_2k_fixed_always_meets_once(k):
    schedule = generate_schedule(2 * k, k)
    assert schedule["max_meetings"] == 1
    assert independent_problems(schedule, 2 * k, k, "fixed") == []


# --- bad requests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("teams", "tables", "sides", "message"),
    [
        (1, 4, "fixed", "teams must be between 2 and"),
        (0, 4, "fixed", "teams must be between 2 and"),
        (8, 0, "fixed", "tables must be between 1 and"),
        (8, 4, "mixed", "sides must be 'fixed' or 'balanced'"),
        ("8", 4, "fixed", "teams must be a whole number"),
        (8, 2.0, "fixed", "tables must be a whole number"),
        (True, 4, "fixed", "teams must be a whole number"),
        (10**6, 4, "fixed", "teams must be between 2 and 2000"),
        (8, 5000, "fixed", "tables must be between 1 and 1000"),
    ],
)
def test_impossible_requests_raise(teams, tables, sides, message):
    with pytest.raises(ScheduleError, match=message):
        generate_schedule(teams, tables, sides)


def test_schedule_error_is_a_value_error():
    assert issubclass(ScheduleError, ValueError)
