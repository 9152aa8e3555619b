"""RankingState: results entered, changed and erased one at a time equal a full ranking."""

import copy
import json

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.ranking import RankingInputError, RankingState, rank_results
from tests.engine.test_ranking import match, one_table, teams
from tests.engine.test_ranking_properties import RECORDS, SCORES, results, tournaments


def small():
    return {
        "ties": "min",
        "teams": teams("A", "B", "C", "D", "E"),
        "matches": [
            match(1, 1, "A", "B", 30),
            match(1, 2, "C", "D", 20),
            match(2, 1, "C", "D"),
            match(2, 2, "E", "B", 10),
            match(3, 1, "E", "A"),
            match(3, 3, "B", "C", 5),
        ],
    }


def assert_matches_full(state):
    assert state.to_standings() == rank_results(state.to_data())


def test_build_equals_rank_results():
    data = small()
    assert RankingState.build(data).to_standings() == rank_results(data)


def test_entering_changing_and_erasing_results():
    data = small()
    state = RankingState.build(data)
    assert state.to_standings()["provisional"] is True
    state.set_result(2, scores={"ns": 50, "ew": -50})
    data["matches"][2]["scores"] = {"ns": 50, "ew": -50}
    state.set_result((3, 1, 1), record=RECORDS[0])
    data["matches"][4]["record"] = RECORDS[0]
    assert state.to_standings() == rank_results(data)
    assert state.to_standings()["provisional"] is False
    state.set_result(0, scores={"ns": -30, "ew": 30})
    data["matches"][0]["scores"] = {"ns": -30, "ew": 30}
    assert state.to_standings() == rank_results(data)
    state.erase_result(0)
    del data["matches"][0]["scores"]
    assert state.to_data() == {**data, "ruleset": "manual-2016", "disqualified": []}
    assert state.to_standings() == rank_results(data)
    assert state.to_standings()["provisional"] is True


def test_update_match_takes_a_whole_match_object():
    state = RankingState.build(small())
    state.update_match((1, 2, 1), match(1, 2, "C", "D", -99, board=1))
    ranks = {r["team"]: r["rank"] for r in state.to_standings()["groups"][2]["results"]}
    assert ranks == {"E": 1, "C": 2}  # table 2 NS: E 10, C -99
    assert_matches_full(state)


def test_disqualify_before_and_after_final():
    state = RankingState.build(small())
    state.disqualify("D")
    standings = state.to_standings()
    d_row = standings["standings"][-1]
    assert (d_row["team"], d_row["status"], d_row["place"]) == ("D", "disqualified", None)
    assert_matches_full(state)
    state.disqualify("B", after_final=True)
    assert [r["team"] for r in state.to_standings()["standings"][-2:]] in (["B", "D"], ["D", "B"])
    assert_matches_full(state)


def test_results_of_a_disqualified_team_stay_replaced():
    state = RankingState.build(small())
    state.disqualify("A")
    state.set_result(0, scores={"ns": 500, "ew": -500})
    scores = {r["team"]: r["score"] for r in state.to_standings()["groups"][0]["results"]}
    assert scores["A"] == -1000
    assert_matches_full(state)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (lambda s: s.disqualify("Z"), "disqualify: team 'Z' is not in teams"),
        (
            lambda s: s.disqualify(None),
            "disqualify.team: required: the id of the team to disqualify",
        ),
        (
            lambda s: s.set_result(6, scores={"ns": 1, "ew": 1}),
            "matches[6]: no such match (6 matches)",
        ),
        (lambda s: s.set_result(-1), "matches[-1]: no such match (6 matches)"),
        (
            lambda s: s.set_result((9, 9, 9)),
            "match (9, 9, 9): no such match (give its index or (round, table, board))",
        ),
        (
            lambda s: s.set_result(True),
            "match True: no such match (give its index or (round, table, board))",
        ),
        (
            lambda s: s.set_result(0, scores={"ns": "x", "ew": 1}),
            "matches[0].scores.ns: must be a number, not 'x'",
        ),
        (
            lambda s: s.set_result(0, record={"auctions": [["N:G+1"]]}),
            "matches[0].record: auctions[0]: N:G+1 at call 1: a Gâm bid as the first bid must be G",
        ),
        (
            lambda s: s.update_match(0, match(1, 2, "A", "B")),
            "matches[0]: table 2 board 1 already has a match in round 1 (matches[1])",
        ),
        (
            lambda s: s.update_match(0, match(2, 3, "A", "E")),
            "matches[0]: team 'E' plays twice in round 2 (also in matches[3])",
        ),
    ],
)
def test_bad_changes_are_rejected_and_change_nothing(action, message):
    state = RankingState.build(small())
    before = state.to_standings()
    with pytest.raises(RankingInputError) as caught:
        action(state)
    assert str(caught.value) == message
    assert state.to_standings() == before
    assert_matches_full(state)


def test_disqualifying_twice_is_rejected():
    state = RankingState.build(small())
    state.disqualify("A", after_final=True)
    with pytest.raises(RankingInputError, match=r"^disqualify: team 'A' is already disqualified$"):
        state.disqualify("A")


@pytest.mark.parametrize(
    "new_match",
    [
        match(1, 1, "A", "E", 30),  # another opponent
        match(1, 1, "B", "A", 30),  # sides swapped
        match(4, 1, "A", "B", 30),  # another round
        match(1, 2, "A", "B", 30, board=2),  # another board of an existing table: a new board
        match(1, 4, "A", "B", 30),  # a new table
        match(1, 1, "A", "B"),  # same seat, result erased
    ],
)
def test_schedule_changes(new_match):
    data = small()
    state = RankingState.build(data)
    state.update_match(0, new_match)
    data["matches"][0] = new_match
    assert state.to_standings() == rank_results(data)


def test_moving_the_last_match_away_from_a_table_removes_it():
    data = small()
    state = RankingState.build(data)
    state.update_match(5, match(4, 1, "B", "C", 5))
    data["matches"][5] = match(4, 1, "B", "C", 5)
    standings = state.to_standings()
    assert {g["table"] for g in standings["groups"]} == {1, 2}
    assert standings == rank_results(data)


def test_a_state_keeps_working_after_a_rebuild():
    data = small()
    state = RankingState.build(data)
    state.update_match(0, match(1, 4, "A", "B", 30))  # a new table: rebuilt
    state.set_result(1, scores={"ns": 0, "ew": 0})
    state.disqualify("C")
    data["matches"][0] = match(1, 4, "A", "B", 30)
    data["matches"][1]["scores"] = {"ns": 0, "ew": 0}
    data["disqualified"] = [{"team": "C", "after_final": False}]
    assert state.to_standings() == rank_results(data)


def test_to_data_does_not_share_match_objects():
    state = RankingState.build(one_table([10, 20]))
    data = state.to_data()
    data["matches"][0]["scores"] = {"ns": 99, "ew": 99}
    assert state.to_data()["matches"][0]["scores"] == {"ns": 10, "ew": -10}


# -- random sequences of changes --------------------------------------------------------------

changes = st.one_of(
    st.tuples(st.just("result"), st.integers(0, 99), results(), st.booleans()),
    st.tuples(st.just("disqualify"), st.integers(0, 99), st.booleans()),
    st.tuples(
        st.just("reseat"),
        st.integers(0, 99),
        st.integers(1, 4),  # round
        st.integers(1, 4),  # table
        st.integers(1, 2),  # board
        st.integers(0, 99),  # NS team
        st.integers(0, 99),  # EW team
        st.sampled_from([None, *SCORES]),
    ),
)


def apply_result(state, data, index, result, by_key):
    old = data["matches"][index]
    new = {k: v for k, v in old.items() if k not in ("record", "scores")} | result
    data["matches"][index] = new
    if by_key:
        state.update_match((old["round"], old["table"], old.get("board", 1)), new)
    else:
        state.set_result(index, record=result.get("record"), scores=result.get("scores"))


def apply_disqualification(state, data, team, after_final):
    if any(d["team"] == team for d in data["disqualified"]):
        with pytest.raises(RankingInputError):
            state.disqualify(team, after_final=after_final)
        return
    state.disqualify(team, after_final=after_final)
    data["disqualified"].append({"team": team, "after_final": after_final})


def apply_reseat(state, data, index, new):
    attempt = copy.deepcopy(data)
    attempt["matches"][index] = new
    try:
        rank_results(attempt)
    except RankingInputError:
        event("schedule change rejected")
        before = state.to_standings()
        with pytest.raises(RankingInputError):
            state.update_match(index, new)
        assert state.to_standings() == before
        return
    event("schedule change applied")
    state.update_match(index, new)
    data["matches"][index] = new


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(), st.lists(changes, max_size=12))
def test_incremental_always_equals_a_full_recomputation(data, steps):
    data = copy.deepcopy(data)
    state = RankingState.build(data)
    ids = [t["id"] for t in data["teams"]]
    for step in steps:
        kind, pick = step[0], step[1]
        if kind == "disqualify":
            apply_disqualification(state, data, ids[pick % len(ids)], step[2])
        elif data["matches"] and kind == "result":
            apply_result(state, data, pick % len(data["matches"]), step[2], step[3])
        elif data["matches"]:
            _, _, round_, table, board, ns, ew, score = step
            new = match(round_, table, ids[ns % len(ids)], ids[ew % len(ids)], score, board=board)
            apply_reseat(state, data, pick % len(data["matches"]), new)
        assert state.to_standings() == rank_results(data)
    assert state.to_data()["matches"] == data["matches"]


# -- many results at once ---------------------------------------------------------------------


def test_set_results_enters_changes_and_erases_in_one_call():
    data = small()
    state = RankingState.build(data)
    state.set_results(
        {
            2: {"scores": {"ns": 50, "ew": -50}},
            (3, 1, 1): {"record": RECORDS[0]},
            0: {},
            5: {"scores": None, "record": RECORDS[1]},
        }
    )
    data["matches"][2]["scores"] = {"ns": 50, "ew": -50}
    data["matches"][4]["record"] = RECORDS[0]
    del data["matches"][0]["scores"]
    del data["matches"][5]["scores"]
    data["matches"][5]["record"] = RECORDS[1]
    assert state.to_data()["matches"] == data["matches"]
    assert state.to_standings() == rank_results(data)
    state.set_results({})
    assert state.to_standings() == rank_results(data)


@pytest.mark.parametrize(
    ("results", "message"),
    [
        ({0: {"scores": {"ns": 1, "ew": 2}}, 6: {}}, "matches[6]: no such match (6 matches)"),
        ({0: {"scores": {"ns": 1, "ew": 2}}, 1: {"round": 2}}, "matches[1].round: unknown field"),
        ({0: {"scores": {"ns": 1, "ew": 2}}, 1: []}, "matches[1]: the result must be an object"),
        (
            {0: {"scores": {"ns": 1, "ew": 2}}, 1: {"scores": {"ns": "x", "ew": 1}}},
            "matches[1].scores.ns: must be a number, not 'x'",
        ),
        (
            {1: {"scores": {"ns": 1, "ew": 2}, "record": RECORDS[0]}},
            "matches[1]: has both a record and scores: give one of them",
        ),
    ],
)
def test_set_results_checks_everything_before_changing_anything(results, message):
    state = RankingState.build(small())
    before, data_before = state.to_standings(), state.to_data()
    with pytest.raises(RankingInputError) as caught:
        state.set_results(results)
    assert str(caught.value) == message
    assert state.to_standings() == before and state.to_data() == data_before


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    tournaments(),
    st.lists(st.dictionaries(st.integers(0, 99), results(), max_size=8), max_size=4),
    st.lists(st.integers(0, 99), max_size=2),
)
def test_results_set_together_equal_a_full_recomputation(data, batches, disqualify):
    data = copy.deepcopy(data)
    state = RankingState.build(data)
    ids = [t["id"] for t in data["teams"]]
    for pick in disqualify:
        apply_disqualification(state, data, ids[pick % len(ids)], False)
    for batch in batches:
        if not data["matches"]:
            break
        picked = {pick % len(data["matches"]): result for pick, result in batch.items()}
        state.set_results(picked)
        for index, result in picked.items():
            old = data["matches"][index]
            data["matches"][index] = {
                k: v for k, v in old.items() if k not in ("record", "scores")
            } | result
        assert state.to_standings() == rank_results(data)
        assert state.places() == {
            row["team"]: row["place"] for row in rank_results(data)["standings"]
        }
    assert state.to_data()["matches"] == data["matches"]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments())
def test_places_are_those_of_the_standings(data):
    expected = {row["team"]: row["place"] for row in rank_results(data)["standings"]}
    found = RankingState.build(data).places()
    assert found == expected
    assert all(type(place) is int for place in found.values() if place is not None)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tournaments(max_teams=9))
def test_the_standings_json_is_that_of_the_standings_object(data):
    state = RankingState.build(data)
    standings = state.to_standings()
    assert state.to_standings_json() == json.dumps(standings)  # the same text, byte for byte
    without = state.to_standings(tables=False)
    for row in standings["standings"]:
        del row["tables"]
    assert without == standings


def test_the_standings_json_of_a_big_tournament():
    """40 teams at 20 tables of 2 boards over 10 rounds, some matches left out: byes."""
    teams = [{"id": f"T{n}", "name": ""} for n in range(1, 41)]
    matches = []
    for round_ in range(1, 11):
        for table in range(1, 21):
            if (round_ + table) % 9 == 0:
                continue
            ns, ew = f"T{(table + round_) % 20 + 1}", f"T{(table + 2 * round_) % 20 + 21}"
            for board in (1, 2):
                score = (7 * table + 3 * round_ + board) % 11 * 10
                scores = {"ns": score, "ew": -score // 2}
                match = {"round": round_, "table": table, "board": board, "ns": ns, "ew": ew}
                matches.append(match | {"scores": scores})
    data = {"ties": "average", "teams": teams, "matches": matches}
    assert RankingState.build(data).to_standings_json() == json.dumps(rank_results(data))
