"""Bad tournament results are rejected with a message naming the item and the reason."""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.ranking import RankingInputError, rank_results

GOOD_RECORD = {
    "auctions": [["N:G", "E:P", "S:P", "W:P"]],
    "trump": "fire",
    "tricks": {"NS": 10, "EW": 5},
}


def base():
    return {
        "ruleset": "manual-2016",
        "ties": "min",
        "teams": [{"id": "T1"}, {"id": "T2"}, {"id": "T3"}, {"id": "T4"}],
        "matches": [
            {"round": 1, "table": 1, "ns": "T1", "ew": "T2", "record": GOOD_RECORD},
            {"round": 1, "table": 2, "ns": "T3", "ew": "T4", "scores": {"ns": 150, "ew": -150}},
            {"round": 2, "table": 1, "ns": "T3", "ew": "T4"},
            {"round": 2, "table": 2, "ns": "T1", "ew": "T2"},
        ],
        "disqualified": [],
    }


def with_change(change):
    data = base()
    change(data)
    return data


def set_path(*path_and_value):
    *path, value = path_and_value

    def change(data):
        node = data
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value

    return change


def delete_path(*path):
    def change(data):
        node = data
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]

    return change


def append(path, item):
    def change(data):
        data[path].append(item)

    return change


CASES = [
    # the whole object and its settings
    (lambda d: d.clear() or d.update({"x": 1}), "x: unknown field"),
    (
        set_path("ruleset", "bridge"),
        "ruleset: unknown ruleset 'bridge' (known: manual-2016, rules-1709)",
    ),
    (set_path("ties", "mean"), "ties: unknown ties policy 'mean' (min, average or max)"),
    (set_path("ties", None), "ties: unknown ties policy None (min, average or max)"),
    (set_path("rounds", 3), "rounds: unknown field"),
    # teams
    (delete_path("teams"), 'teams: required: a list of teams like {"id": "T1", "name": "..."}'),
    (
        set_path("teams", {"T1": {}}),
        'teams: required: a list of teams like {"id": "T1", "name": "..."}',
    ),
    (set_path("teams", 1, "T2"), 'teams[1]: must be an object like {"id": "T1", "name": "..."}'),
    (set_path("teams", 1, {"name": "x"}), "teams[1].id: required"),
    (set_path("teams", 1, "id", True), "teams[1].id: must be text or a whole number, not True"),
    (set_path("teams", 1, "id", 1.5), "teams[1].id: must be text or a whole number, not 1.5"),
    (set_path("teams", 1, "id", ""), "teams[1].id: must be text or a whole number, not ''"),
    (set_path("teams", 3, "id", "T1"), "teams[3].id: duplicate team id 'T1' (also teams[0])"),
    (
        lambda d: d["teams"].append({"id": 7}) or d["teams"].append({"id": "7"}),
        "teams[5].id: duplicate team id '7' (also teams[4])",
    ),
    # matches: shape and fields
    (delete_path("matches"), "matches: required: a list of matches"),
    (set_path("matches", 2, [1, 2]), "matches[2]: must be an object with round, table, ns and ew"),
    (set_path("matches", 2, "tabel", 1), "matches[2].tabel: unknown field"),
    (delete_path("matches", 2, "round"), "matches[2].round: required: a whole number ≥ 1"),
    (set_path("matches", 2, "round", 0), "matches[2].round: must be a whole number ≥ 1, not 0"),
    (set_path("matches", 2, "table", "1"), "matches[2].table: must be a whole number ≥ 1, not '1'"),
    (
        set_path("matches", 2, "table", True),
        "matches[2].table: must be a whole number ≥ 1, not True",
    ),
    (set_path("matches", 2, "board", 1.0), "matches[2].board: must be a whole number ≥ 1, not 1.0"),
    (delete_path("matches", 2, "ns"), "matches[2].ns: required: the id of the NS team"),
    (
        set_path("matches", 2, "ew", ["T4"]),
        "matches[2].ew: must be a team id (text or whole number), not ['T4']",
    ),
    (
        set_path("matches", 2, "ew", True),
        "matches[2].ew: must be a team id (text or whole number), not True",
    ),
    (set_path("matches", 2, "ns", "T9"), "matches[2]: team 'T9' is not in teams"),
    (set_path("matches", 2, "ew", 4), "matches[2]: team 4 is not in teams"),
    (set_path("matches", 2, "ew", "T3"), "matches[2]: team 'T3' cannot play against itself"),
    # matches: results
    (
        set_path("matches", 0, "scores", {"ns": 1, "ew": -1}),
        "matches[0]: has both a record and scores: give one of them",
    ),
    (
        set_path("matches", 0, "record", {**GOOD_RECORD, "tricks": {"NS": 10, "EW": 4}}),
        "matches[0].record: tricks: add up to 14, not 15",
    ),
    (
        set_path(
            "matches", 0, "record", {"auctions": [["N:G+1", "E:P", "S:P", "W:P"]], "trump": "fire"}
        ),
        "matches[0].record: auctions[0]: N:G+1 at call 1: a Gâm bid as the first bid must be G",
    ),
    (set_path("matches", 0, "record", "G"), "matches[0].record: record: must be a JSON object"),
    (
        set_path("matches", 1, "scores", [150, -150]),
        'matches[1].scores: must be an object {"ns": number, "ew": number}',
    ),
    (
        set_path("matches", 1, "scores", {"ns": 150}),
        "matches[1].scores: keys must be ns and ew, not ['ns']",
    ),
    (
        set_path("matches", 1, "scores", {"ns": 150, "ew": -150, "why": "x"}),
        "matches[1].scores: keys must be ns and ew, not ['ew', 'ns', 'why']",
    ),
    (
        set_path("matches", 1, "scores", "ew", "-150"),
        "matches[1].scores.ew: must be a number, not '-150'",
    ),
    (
        set_path("matches", 1, "scores", "ns", None),
        "matches[1].scores.ns: must be a number, not None",
    ),
    (
        set_path("matches", 1, "scores", "ns", False),
        "matches[1].scores.ns: must be a number, not False",
    ),
    (
        set_path("matches", 1, "scores", "ns", float("nan")),
        "matches[1].scores.ns: nan is out of range (±1,000,000,000)",
    ),
    (
        set_path("matches", 1, "scores", "ew", 10**12),
        "matches[1].scores.ew: 1000000000000 is out of range (±1,000,000,000)",
    ),
    # matches: clashes
    (
        append("matches", {"round": 1, "table": 1, "ns": "T3", "ew": "T4"}),
        "matches[4]: table 1 board 1 already has a match in round 1 (matches[0])",
    ),
    (
        append("matches", {"round": 1, "table": 3, "ns": "T1", "ew": "T4"}),
        "matches[4]: team 'T1' plays twice in round 1 (also in matches[0])",
    ),
    (
        append("matches", {"round": 2, "table": 1, "board": 2, "ns": "T4", "ew": "T3"}),
        "matches[4]: team 'T4' plays twice in round 2 (also in matches[2])",
    ),
    (
        append("matches", {"round": 2, "table": 1, "board": 2, "ns": "T3", "ew": "T1"}),
        "matches[4]: team 'T3' plays twice in round 2 (also in matches[2])",
    ),
    # disqualifications
    (
        set_path("disqualified", {"team": "T1"}),
        'disqualified: must be a list like [{"team": "T4", "after_final": false}]',
    ),
    (
        append("disqualified", "T1"),
        'disqualified[0]: must be an object like {"team": "T4", "after_final": false}',
    ),
    (append("disqualified", {"team": "T9"}), "disqualified[0]: team 'T9' is not in teams"),
    (append("disqualified", {}), "disqualified[0].team: required: the id of the disqualified team"),
    (append("disqualified", {"team": "T1", "when": 1}), "disqualified[0].when: unknown field"),
    (
        append("disqualified", {"team": "T1", "after_final": "yes"}),
        "disqualified[0].after_final: must be true or false, not 'yes'",
    ),
    (
        lambda d: d["disqualified"].extend([{"team": "T2"}, {"team": "T2", "after_final": True}]),
        "disqualified[1]: team 'T2' is already disqualified (disqualified[0])",
    ),
]


@pytest.mark.parametrize(("change", "message"), CASES)
def test_bad_input_is_rejected_with_its_message(change, message):
    data = with_change(change)
    with pytest.raises(RankingInputError) as caught:
        rank_results(data)
    assert str(caught.value) == message


def test_the_base_tournament_is_good():
    standings = rank_results(base())
    assert standings["provisional"] is True
    assert len(standings["standings"]) == 4


@pytest.mark.parametrize("data", [None, [], "x", 3])
def test_the_whole_object_must_be_an_object(data):
    with pytest.raises(RankingInputError) as caught:
        rank_results(data)
    assert str(caught.value) == "tournament results: must be a JSON object with teams and matches"


def test_ranking_input_error_is_a_value_error():
    assert issubclass(RankingInputError, ValueError)


def test_several_boards_of_one_match_are_not_a_clash():
    data = base()
    data["matches"].append({"round": 2, "table": 1, "board": 2, "ns": "T3", "ew": "T4"})
    assert rank_results(data)["provisional"] is True


def test_the_first_problem_is_reported():
    data = base()
    data["matches"][1]["ns"] = "T9"
    data["matches"][3]["ns"] = "T8"
    with pytest.raises(RankingInputError, match=r"^matches\[1\]: team 'T9'"):
        rank_results(copy.deepcopy(data))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = [
    ("ruleset",),
    ("ties",),
    ("teams",),
    ("teams", 0),
    ("teams", 0, "id"),
    ("matches",),
    ("matches", 0),
    ("matches", 0, "round"),
    ("matches", 0, "board"),
    ("matches", 0, "ns"),
    ("matches", 0, "record"),
    ("matches", 0, "record", "auctions"),
    ("matches", 0, "record", "tricks"),
    ("matches", 1, "scores"),
    ("matches", 1, "scores", "ns"),
    ("disqualified",),
]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(FIELDS), json_values)
def test_any_json_value_anywhere_is_ranked_or_rejected_cleanly(path, value):
    data = with_change(set_path(*path, value))
    try:
        standings = rank_results(data)
    except RankingInputError as exc:
        assert str(exc)
    else:
        assert len(standings["standings"]) == len(data["teams"])
