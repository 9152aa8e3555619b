"""check_schedule on hand-made broken schedules: each rule, named in its message."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.schedule import check_schedule, generate_schedule

# Six teams at three tables, the cyclic movement: round r, table t: NS t - r, EW 3 + t + r.
SIX_TEAMS = {
    "teams": 6,
    "tables": 3,
    "rounds": 3,
    "sides": "fixed",
    "matches": [
        {"round": 1, "table": 1, "ns": 1, "ew": 4},
        {"round": 1, "table": 2, "ns": 2, "ew": 5},
        {"round": 1, "table": 3, "ns": 3, "ew": 6},
        {"round": 2, "table": 1, "ns": 3, "ew": 5},
        {"round": 2, "table": 2, "ns": 1, "ew": 6},
        {"round": 2, "table": 3, "ns": 2, "ew": 4},
        {"round": 3, "table": 1, "ns": 2, "ew": 6},
        {"round": 3, "table": 2, "ns": 3, "ew": 4},
        {"round": 3, "table": 3, "ns": 1, "ew": 5},
    ],
    "byes": [],
    "max_meetings": 1,
}

# Five teams: team 6 is the phantom, so teams 3, 1 and 2 have byes and miss tables 3, 2, 1.
FIVE_TEAMS = {
    "teams": 5,
    "tables": 3,
    "rounds": 3,
    "sides": "fixed",
    "matches": [
        {"round": 1, "table": 1, "ns": 1, "ew": 4},
        {"round": 1, "table": 2, "ns": 2, "ew": 5},
        {"round": 2, "table": 1, "ns": 3, "ew": 5},
        {"round": 2, "table": 3, "ns": 2, "ew": 4},
        {"round": 3, "table": 2, "ns": 3, "ew": 4},
        {"round": 3, "table": 3, "ns": 1, "ew": 5},
    ],
    "byes": [{"round": 1, "team": 3}, {"round": 2, "team": 1}, {"round": 3, "team": 2}],
    "max_meetings": 1,
}


def edited(schedule, **changes):
    data = copy.deepcopy(schedule)
    data.update(changes)
    return data


def with_match(schedule, number, **changes):
    data = copy.deepcopy(schedule)
    data["matches"][number - 1].update(changes)
    return data


def test_the_samples_are_what_the_generator_draws_and_are_fine():
    assert generate_schedule(6, 3) == SIX_TEAMS
    assert generate_schedule(5, 3) == FIVE_TEAMS
    assert check_schedule(SIX_TEAMS) == []
    assert check_schedule(FIVE_TEAMS) == []


# --- shape ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        ([], "a list"),
        ("schedule", "a string"),
        (None, "null"),
        (3, "a number"),
        (True, "true/false"),
    ],
)
def test_not_an_object(data, kind):
    assert check_schedule(data) == [f"a schedule must be a JSON object, not {kind}"]


def test_missing_and_unknown_keys():
    data = edited(SIX_TEAMS, notes="bring pencils")
    del data["byes"]
    assert check_schedule(data) == ["missing key 'byes'", 'unknown key "notes"']


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("teams", "6", "'teams' must be a whole number, not \"6\""),
        ("teams", 1, "'teams' must be between 2 and 1000000, not 1"),
        ("teams", 10**7, "'teams' must be between 2 and 1000000, not 10000000"),
        ("tables", 2.5, "'tables' must be a whole number, not 2.5"),
        ("rounds", None, "'rounds' must be a whole number, not null"),
        ("max_meetings", -1, "'max_meetings' must be between 0 and 1000000, not -1"),
        ("sides", "mixed", '\'sides\' must be "fixed" or "balanced", not "mixed"'),
        ("sides", ["fixed"], '\'sides\' must be "fixed" or "balanced", not a list'),
    ],
)
def test_header_types_and_ranges(key, value, message):
    assert check_schedule(edited(SIX_TEAMS, **{key: value})) == [message]


def test_matches_must_be_a_list_of_objects():
    problems = check_schedule(edited(SIX_TEAMS, matches={"round": 1}))
    assert problems[0] == "'matches' must be a list, not an object"
    assert "tables 1-3 host no match" in problems
    assert "teams 1-6 appear in no match and no bye" in problems
    data = copy.deepcopy(SIX_TEAMS)
    data["matches"][1] = 5
    assert "match #2 must be an object, not a number" in check_schedule(data)


def test_match_fields():
    data = copy.deepcopy(SIX_TEAMS)
    del data["matches"][0]["ew"]
    data["matches"][1]["seat"] = "N"
    data["matches"][2]["round"] = True
    problems = check_schedule(data)
    assert "match #1: missing 'ew'" in problems
    assert 'match #2: unknown key "seat"' in problems
    assert "match #3: round must be a whole number, not true" in problems


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("round", 0, "match #1: round must be between 1 and 3, not 0"),
        ("round", 4, "match #1: round must be between 1 and 3, not 4"),
        ("table", 9, "match #1: table must be between 1 and 3, not 9"),
        ("ns", 7, "match #1: ns must be between 1 and 6, not 7"),
        ("ew", -4, "match #1: ew must be between 1 and 6, not -4"),
    ],
)
def test_numbers_out_of_range(field, value, message):
    assert message in check_schedule(with_match(SIX_TEAMS, 1, **{field: value}))


def test_byes_must_be_a_list_of_objects():
    assert "'byes' must be a list, not a string" in check_schedule(edited(FIVE_TEAMS, byes="x"))
    data = edited(FIVE_TEAMS, byes=[[1, 3], {"round": 2}, {"round": 3, "team": 9}])
    problems = check_schedule(data)
    assert "bye #1 must be an object, not a list" in problems
    assert "bye #2: missing 'team'" in problems
    assert "bye #3: team must be between 1 and 5, not 9" in problems


# --- rules ----------------------------------------------------------------------------------


def test_a_team_facing_itself():
    assert "match #1: team 1 faces itself" in check_schedule(with_match(SIX_TEAMS, 1, ew=1))


def test_a_team_twice_in_a_round():
    problems = check_schedule(with_match(SIX_TEAMS, 1, ew=5))
    assert "round 1: team 5 plays twice (matches #1, #2)" in problems
    assert "team 5 plays table 1 twice (matches #1, #4)" in problems
    assert "team 4 never plays table 1" in problems
    assert "team 4 neither plays nor has a bye in round 1" in problems


def test_a_table_twice_in_a_round():
    problems = check_schedule(with_match(SIX_TEAMS, 2, table=1))
    assert "round 1: table 1 hosts 2 matches (matches #1, #2)" in problems
    assert "team 2 plays table 1 twice (matches #2, #7)" in problems
    assert "team 2 never plays table 2" in problems


def test_a_team_missing_a_table():
    data = copy.deepcopy(SIX_TEAMS)
    del data["matches"][8]  # round 3, table 3: 1 v 5
    problems = check_schedule(data)
    assert "team 1 never plays table 3" in problems
    assert "team 5 never plays table 3" in problems
    assert "team 1 neither plays nor has a bye in round 3" in problems


def test_a_team_changing_side_under_fixed_sides():
    problems = check_schedule(with_match(SIX_TEAMS, 1, ns=4, ew=1))
    assert problems == [
        "team 1 sits NS twice and EW once; under fixed sides a team keeps its side",
        "team 4 sits NS once and EW twice; under fixed sides a team keeps its side",
    ]


def test_balanced_sides_need_half_ns():
    schedule = generate_schedule(8, 4, "balanced")
    assert check_schedule(schedule) == []
    for match in schedule["matches"]:
        if match["ew"] == 1:
            match["ns"], match["ew"] = match["ew"], match["ns"]
    problems = check_schedule(schedule)
    assert "team 1 sits NS in 4 of its 4 matches; balanced sides allow 1 to 3" in problems


def test_one_switch_of_sides_is_fine_when_balanced():
    schedule = generate_schedule(8, 4, "balanced")
    first = schedule["matches"][0]
    first["ns"], first["ew"] = first["ew"], first["ns"]
    assert check_schedule(schedule) == []


def test_a_bye_for_a_team_that_plays():
    data = edited(SIX_TEAMS, byes=[{"round": 1, "team": 1}])
    assert check_schedule(data) == ["bye #1: team 1 has a bye in round 1 but plays match #1 there"]


def test_a_missing_and_a_repeated_bye():
    data = edited(FIVE_TEAMS, byes=[{"round": 1, "team": 3}, {"round": 1, "team": 3}])
    problems = check_schedule(data)
    assert "bye #2 repeats bye #1 (team 3, round 1)" in problems
    assert "team 1 neither plays nor has a bye in round 2" in problems
    assert "team 2 neither plays nor has a bye in round 3" in problems


def test_odd_teams_one_team_misses_each_table():
    data = copy.deepcopy(FIVE_TEAMS)
    del data["matches"][0]  # round 1, table 1: 1 v 4
    problems = check_schedule(data)
    assert (
        "table 1: teams 1, 2, 4 never play there; with an odd number of teams only one team "
        "(the phantom's opponent) may miss a table"
    ) in problems


def test_odd_teams_someone_must_miss_each_table():
    data = {
        "teams": 3,
        "tables": 1,
        "rounds": 2,
        "sides": "balanced",
        "matches": [
            {"round": 1, "table": 1, "ns": 1, "ew": 3},
            {"round": 2, "table": 1, "ns": 2, "ew": 3},
        ],
        "byes": [{"round": 1, "team": 2}, {"round": 2, "team": 1}],
        "max_meetings": 1,
    }
    problems = check_schedule(data)
    assert problems == [
        "team 3 plays table 1 twice (matches #1, #2)",
        "table 1: every team plays there, but with an odd number of teams one must miss it "
        "(facing the phantom)",
    ]


def test_teams_and_tables_nobody_uses():
    problems = check_schedule(edited(SIX_TEAMS, teams=8, tables=4))
    assert "table 4 hosts no match" in problems
    assert "teams 7, 8 appear in no match and no bye" in problems


def test_max_meetings_must_be_the_real_figure():
    assert check_schedule(edited(SIX_TEAMS, max_meetings=2)) == [
        "'max_meetings' is 2, but the most two teams meet is 1 (teams 1 and 4 meet once)"
    ]
    data = with_match(SIX_TEAMS, 5, ew=4)  # round 2: 1 v 4 again (and 4 twice that round)
    assert "'max_meetings' is 1, but the most two teams meet is 2 (teams 1 and 4 meet twice)" in (
        check_schedule(data)
    )


def test_every_problem_of_a_badly_edited_file_at_once():
    data = copy.deepcopy(SIX_TEAMS)
    data["matches"][0]["table"] = 2  # 1 v 4 moved onto table 2
    data["matches"][4]["ns"] = 6  # 1 v 6 becomes 6 v 6
    data["max_meetings"] = 3
    assert check_schedule(data) == [
        "match #5: team 6 faces itself",
        "round 1: table 2 hosts 2 matches (matches #1, #2)",
        "team 4 plays table 2 twice (matches #1, #8)",
        "team 1 never plays table 1",
        "team 4 never plays table 1",
        "team 6 sits NS once and EW 3 times; under fixed sides a team keeps its side",
        "team 1 neither plays nor has a bye in round 2",
        "'max_meetings' is 3, but the most two teams meet is 1 (teams 1 and 4 meet once)",
    ]


def test_long_lists_are_cut_short():
    data = generate_schedule(60, 30)
    data["teams"] = 100
    problems = check_schedule(data)
    assert problems == ["teams 61-100 appear in no match and no bye"]
    data["matches"] = data["matches"][::2]
    assert any(p.endswith("more") for p in check_schedule(data))


# --- never raises ---------------------------------------------------------------------------

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=True)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=20,
)
small_numbers = st.integers(min_value=-2, max_value=8) | json_values
entry = st.dictionaries(
    st.sampled_from(["round", "table", "ns", "ew", "team", "x"]), small_numbers, max_size=5
)
schedule_like = st.fixed_dictionaries(
    {},
    optional={
        "teams": small_numbers,
        "tables": small_numbers,
        "rounds": small_numbers,
        "sides": st.sampled_from(["fixed", "balanced", "x"]) | json_values,
        "matches": st.lists(entry | json_values, max_size=12) | json_values,
        "byes": st.lists(entry | json_values, max_size=6) | json_values,
        "max_meetings": small_numbers,
        "extra": json_values,
    },
)


@settings(max_examples=400, deadline=None)
@given(data=json_values | schedule_like)
def test_never_raises_and_answers_with_messages(data):
    problems = check_schedule(data)
    assert isinstance(problems, list)
    assert all(isinstance(p, str) and p for p in problems)
    if not isinstance(data, dict):
        assert len(problems) == 1


@settings(max_examples=100, deadline=None)
@given(
    teams=st.integers(min_value=2, max_value=30),
    tables=st.integers(min_value=1, max_value=15),
    number=st.integers(min_value=0, max_value=10**6),
    field=st.sampled_from(["round", "table", "ns", "ew"]),
    value=st.integers(min_value=-3, max_value=40),
)
def test_any_single_edit_that_changes_a_match_is_caught(teams, tables, number, field, value):
    schedule = generate_schedule(teams, tables)
    match = schedule["matches"][number % len(schedule["matches"])]
    if match[field] == value:
        return
    match[field] = value
    assert check_schedule(schedule) != []


def test_huge_numbers_are_reported_not_printed_in_full():
    problems = check_schedule(edited(SIX_TEAMS, teams=10**5000))
    assert problems == ["'teams' must be between 2 and 1000000, not a number too large to print"]
    problems = check_schedule(with_match(SIX_TEAMS, 1, round=-(10**5000)))
    assert "match #1: round must be between 1 and 3, not a number too large to print" in problems
