"""Percentages and the provisional order (rulebook section 6, ruling "provisional order").

The worked examples are computed by hand in the comments; the properties compare the
standings with the rulebook's definition on random tournaments.
"""

import json
import subprocess
import sys
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given

from engine.ranking import RankingState, finalise, rank_results
from engine.ranking.core import percentage_places, percentage_terms, team_percentages
from tests.engine.test_ranking_properties import PROPERTY_SETTINGS, tournaments

ROOT = Path(__file__).resolve().parents[2]
PASSED_OUT_1709 = {"ruleset": "rules-1709", "auctions": [["N:P", "E:P", "S:P", "W:P"]]}


def teams(*ids):
    return [{"id": team, "name": f"team {team}"} for team in ids]


def match(round_, table, ns, ew, ns_score=None, ew_score=None, **extra):
    entry = {"round": round_, "table": table, "ns": ns, "ew": ew, **extra}
    if ns_score is not None:
        entry["scores"] = {"ns": ns_score, "ew": -ns_score if ew_score is None else ew_score}
    return entry


def six_teams(*matches, **extra):
    """Teams A to F; NS at table 1, rounds 1-3: A 100, C 50, E 0 (B -100, D -50, F 0 on EW),
    then ``matches``."""
    played = [match(1, 1, "A", "B", 100), match(2, 1, "C", "D", 50), match(3, 1, "E", "F", 0)]
    return {"teams": teams("A", "B", "C", "D", "E", "F"), "matches": [*played, *matches], **extra}


def rows(standings):
    return {row["team"]: row for row in standings["standings"]}


def summary(standings):
    return [(row["place"], row["team"], row["percentage"]) for row in standings["standings"]]


# -- worked examples ---------------------------------------------------------------------------


def test_three_results_on_a_board_are_worth_100_50_and_0():
    # NS at table 1: A 100, C 50, E 0 (ranks 1, 2, 3 of n = 3: (3 - r) / 2 × 100).
    # EW: B -100, D -50, F 0: F is best (rank 1, 100 %), D 50 %, B 0 %.
    standings = rank_results(six_teams())
    assert standings["provisional"] is False
    found = {team: row["percentage"] for team, row in rows(standings).items()}
    assert found == {"A": 100.0, "B": 0.0, "C": 50.0, "D": 50.0, "E": 0.0, "F": 100.0}
    # Complete: placed by points as always (least wins), whatever the percentages.
    assert [(row["place"], row["team"]) for row in standings["standings"]] == [
        (1, "A"),
        (1, "F"),
        (3, "C"),
        (3, "D"),
        (5, "B"),
        (5, "E"),
    ]


@pytest.mark.parametrize(
    ("ties", "expected"),
    [
        # 100, 50, 50, 0 on one side of a board, n = 4, percentage (4 - rank) / 3 × 100.
        ("min", [100.0, 66.67, 66.67, 0.0]),  # ranks 1, 2, 2, 4
        ("average", [100.0, 50.0, 50.0, 0.0]),  # ranks 1, 2.5, 2.5, 4
        ("max", [100.0, 33.33, 33.33, 0.0]),  # ranks 1, 3, 3, 4
    ],
)
def test_the_rank_the_tie_policy_gives_is_the_rank_of_the_percentage(ties, expected):
    data = {
        "ties": ties,
        "teams": teams("N1", "N2", "N3", "N4", "E1", "E2", "E3", "E4"),
        "matches": [
            match(1, 1, "N1", "E1", 100),
            match(2, 1, "N2", "E2", 50),
            match(3, 1, "N3", "E3", 50),
            match(4, 1, "N4", "E4", 0),
        ],
    }
    found = rows(rank_results(data))
    assert [found[f"N{i}"]["percentage"] for i in range(1, 5)] == expected


def test_passed_out_results_share_rank_n_and_are_worth_nothing():
    # rules-1709: two of the three NS results are passed out; both rank 3 (= n): 0 %.
    data = {
        "ruleset": "rules-1709",
        "teams": teams("A", "B", "C", "D", "E", "F"),
        "matches": [
            match(1, 1, "A", "B", 100),
            match(2, 1, "C", "D", record=PASSED_OUT_1709),
            match(3, 1, "E", "F", record=PASSED_OUT_1709),
        ],
    }
    found = rows(rank_results(data))
    assert {team: row["percentage"] for team, row in found.items()} == {
        "A": 100.0,
        "B": 100.0,
        "C": 0.0,
        "D": 0.0,
        "E": 0.0,
        "F": 0.0,
    }


def test_a_group_of_one_result_is_worth_50():
    data = {"teams": teams("A", "B", "C", "D"), "matches": [match(1, 1, "A", "B", 300)]}
    found = rows(rank_results(data))
    assert (found["A"]["percentage"], found["B"]["percentage"]) == (50.0, 50.0)
    # C and D have no ranked result: no percentage, and no match is waiting, so the
    # standings are complete and placed by points (their byes are worth the mean, 1).
    assert (found["C"]["percentage"], found["D"]["percentage"]) == (None, None)


def test_provisional_standings_are_placed_by_percentage_with_exact_ties():
    # Table 1 (rounds 1 to 4) and table 2 (round 5 played; round 6 still to play).
    # NS at table 1: A 100, C 50, E 0, G -50 -> 100, 66.67 (2/3), 33.33 (1/3), 0.
    # EW at table 1: B -100 (4th, 0 %), D -50 (3rd, 1/3), F 0 (2nd, 2/3), H 50 (1st, 100 %).
    # Table 2: E (NS) 0 against A (EW): one result each side, 50 % each.
    # Means: A (100 + 50) / 2 = 75; C 2/3; E (1/3 + 1/2) / 2 = 5/12; G 0; B 0; D 1/3; F 2/3;
    # H 100. C and F tie exactly (66.67); the points would order them otherwise.
    data = {
        "teams": teams("A", "B", "C", "D", "E", "F", "G", "H", "I"),
        "matches": [
            match(1, 1, "A", "B", 100),
            match(2, 1, "C", "D", 50),
            match(3, 1, "E", "F", 0),
            match(4, 1, "G", "H", -50),
            match(5, 2, "E", "A", 0),
            match(6, 2, "C", "I"),
        ],
    }
    standings = rank_results(data)
    assert standings["provisional"] is True
    assert summary(standings) == [
        (1, "H", 100.0),
        (2, "A", 75.0),
        (3, "C", 66.67),
        (3, "F", 66.67),
        (5, "E", 41.67),
        (6, "D", 33.33),
        (7, "B", 0.0),
        (7, "G", 0.0),
        (9, "I", None),  # nothing ranked yet: after every team with a percentage
    ]
    # The points are still shown beside, and still least-wins totals.
    assert rows(standings)["A"]["points"] == 2


def test_one_third_reached_two_ways_ties_exactly():
    # A: one result, third of four on its side: (4 - 3) / 3 × 100 = 100/3.
    # B: three results at table 2 (three boards), each in a group of two: first on board 1
    # (100 %), second on boards 2 and 3 (0 %): (100 + 0 + 0) / 3 = 100/3.
    # In floating point 100 * (1/3) and (100 + 0 + 0) / 3 differ in the last bit.
    data = {
        "teams": teams("A", "B", "C", "D", "E", "F", "G", "H", "J", "X", "Y", "Z"),
        "matches": [
            match(1, 1, "C", "D", 300),
            match(2, 1, "E", "F", 200),
            match(3, 1, "A", "G", 100),
            match(4, 1, "H", "J", 0),
            *(match(5, 2, "B", "X", score, board=b) for b, score in [(1, 50), (2, -50), (3, -50)]),
            *(match(6, 2, "Y", "Z", 0, board=board) for board in (1, 2, 3)),
            match(7, 3, "A", "B"),  # still to play: the standings are provisional
        ],
    }
    standings = rank_results(data)
    assert standings["provisional"] is True
    found = rows(standings)
    assert found["A"]["percentage"] == found["B"]["percentage"] == 33.33
    assert found["A"]["matches"] == 1 and found["B"]["matches"] == 3
    assert found["A"]["place"] == found["B"]["place"]
    assert 100 * (1 / 3) != (100 + 0 + 0) / 3  # what comparing floats would have split


def test_disqualified_teams_results_are_ranked_and_they_are_listed_without_a_place():
    # D is disqualified before finalisation: its match becomes D -1000, C 0; it is ranked
    # like any other result. NS: A 100, C 0, E 0: C and E tie for rank 2 (ties min), 50 %.
    # EW: F 0, B -100, D -1000: 100 %, 50 %, 0 %.
    data = six_teams(
        match(4, 1, "A", "F"),  # a later round of the same table, not played yet
        disqualified=[{"team": "D", "after_final": False}],
    )
    standings = rank_results(data)
    assert standings["provisional"] is True
    assert summary(standings) == [
        (1, "A", 100.0),
        (1, "F", 100.0),
        (3, "B", 50.0),
        (3, "C", 50.0),
        (3, "E", 50.0),
        (None, "D", 0.0),
    ]


def test_byes_are_not_results():
    # Three NS teams at two tables; C does not play table 2 (a bye: points, no percentage).
    data = {
        "teams": teams("A", "B", "C", "X", "Y", "Z"),
        "matches": [
            match(1, 1, "A", "X", 100),
            match(2, 1, "B", "Y", 50),
            match(3, 1, "C", "Z", 0),
            match(3, 2, "A", "Y", 20),
            match(1, 2, "B", "Z", 10),
            match(4, 3, "C", "X"),
        ],
    }
    found = rows(rank_results(data))
    # C: 0 % at table 1 (3rd of 3); its bye at table 2 adds points only.
    assert found["C"]["percentage"] == 0.0
    assert found["C"]["matches"] == 1
    assert found["C"]["points"] == 3 + 1.5  # its rank, and the mean of ranks 1 and 2
    # A: 100 % (1st of 3) and 100 % (1st of 2): 100.
    assert found["A"]["percentage"] == 100.0


def test_disqualification_after_final_of_provisional_standings_moves_up_those_placed_below():
    data = six_teams(match(4, 2, "A", "D"))
    before = rank_results(data)
    assert summary(before)[:4] == [(1, "A", 100.0), (1, "F", 100.0), (3, "C", 50.0), (3, "D", 50.0)]
    after = rank_results({**data, "disqualified": [{"team": "C", "after_final": True}]})
    assert summary(after) == [
        (1, "A", 100.0),
        (1, "F", 100.0),
        (3, "D", 50.0),
        (4, "B", 0.0),
        (4, "E", 0.0),
        (None, "C", 50.0),
    ]
    assert after == finalise(before).disqualify_after_final("C").as_dict()


def test_an_incremental_change_keeps_the_percentages_of_ranking_from_scratch():
    data = {
        "teams": teams("A", "B", "C", "D"),
        "matches": [match(1, 1, "A", "B", 100), match(2, 1, "C", "D")],
    }
    state = RankingState.build(data)
    assert summary(state.to_standings()) == [
        (1, "A", 50.0),
        (1, "B", 50.0),
        (3, "C", None),
        (3, "D", None),
    ]
    assert state.places() == {"A": 1, "B": 1, "C": 3, "D": 3}
    state.set_result(1, scores={"ns": 200, "ew": -200})
    assert state.to_standings() == rank_results(state.to_data())
    # Complete now, so by points: C (200) beat A (100) on NS, B (-100) beat D (-200) on EW.
    assert summary(state.to_standings()) == [
        (1, "B", 100.0),
        (1, "C", 100.0),
        (3, "A", 0.0),
        (3, "D", 0.0),
    ]
    assert state.places() == {"A": 3, "B": 1, "C": 1, "D": 3}


# -- the core functions ------------------------------------------------------------------------


def test_core_percentage_terms_and_team_means():
    half = [2, 4, 6, 2]  # ranks 1, 2, 3 in a group of three; rank 1 alone
    sizes = [3, 3, 3, 1]
    numerators, denominators = percentage_terms(half, sizes)
    assert [Fraction(int(a), int(b)) for a, b in zip(numerators, denominators, strict=True)] == [
        100,
        50,
        0,
        50,
    ]
    means = team_percentages([0, 0, 1, 1], numerators, denominators, 3)
    assert means == [Fraction(75), Fraction(25), None]


def test_core_percentage_places_share_and_put_the_unrated_after():
    values = [Fraction(1, 3), None, Fraction(100, 3) / 100, Fraction(90), None, Fraction(5)]
    placed = [True, True, True, True, False, True]
    assert percentage_places(values, np.array(placed)).tolist() == [3, 5, 3, 1, 0, 2]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_core_percentage_places_is_one_more_than_the_teams_above(seed):
    """By the definition: a placed team's place is one more than the number of placed teams
    with a higher percentage (equal fractions in different terms are equal)."""
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    values = [
        None if rng.random() < 0.1 else Fraction(int(rng.integers(0, 12)), int(rng.integers(1, 7)))
        for _ in range(300)
    ]
    placed = (rng.random(300) < 0.9).tolist()
    rated = [v for v, here in zip(values, placed, strict=True) if here and v is not None]
    expected = [
        0 if not here else len(rated) + 1 if v is None else 1 + sum(other > v for other in rated)
        for v, here in zip(values, placed, strict=True)
    ]
    assert percentage_places(values, np.array(placed)).tolist() == expected


# -- the command line --------------------------------------------------------------------------


def test_rank_command_prints_percentages_and_the_provisional_order(tmp_path):
    data = {
        "teams": teams("T1", "T2", "T3", "T4"),
        "matches": [
            match(1, 1, "T1", "T2", 30),
            match(2, 1, "T3", "T4", 40),
            match(3, 2, "T1", "T4"),  # not played yet
        ],
    }
    path = tmp_path / "results.json"
    path.write_text(json.dumps(data))
    done = subprocess.run(
        [sys.executable, "-m", "engine", "rank", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["provisional"] is True
    assert [(r["place"], r["team"], r["percentage"]) for r in out["standings"]] == [
        (1, "T2", 100.0),  # -30 beats -40 on EW
        (1, "T3", 100.0),
        (3, "T1", 0.0),
        (3, "T4", 0.0),
    ]
    assert all("percentage" in row for row in out["standings"])


# -- properties --------------------------------------------------------------------------------


def exact_percentages(standings):
    """Each team's exact percentage from the groups of the standings (the rulebook's words)."""
    terms = defaultdict(list)
    for group in standings["groups"]:
        n = len(group["results"])
        for result in group["results"]:
            rank = Fraction(result["rank"]).limit_denominator(2)
            terms[result["team"]].append(Fraction(50) if n == 1 else (n - rank) * 100 / (n - 1))
    return {team: sum(values) / len(values) for team, values in terms.items()}


@PROPERTY_SETTINGS
@given(tournaments())
def test_percentages_follow_the_definition_and_lie_between_0_and_100(data):
    standings = rank_results(data)
    exact = exact_percentages(standings)
    for row in standings["standings"]:
        if row["team"] in exact:
            assert 0 <= row["percentage"] <= 100
            assert row["percentage"] == round(float(exact[row["team"]]), 2)
        else:
            assert row["percentage"] is None
        assert (row["percentage"] is None) == (row["matches"] == 0)


@PROPERTY_SETTINGS
@given(tournaments())
def test_provisional_places_follow_the_exact_percentage(data):
    standings = rank_results(data)
    if not standings["provisional"]:
        return
    exact = exact_percentages(standings)
    placed = [row for row in standings["standings"] if row["status"] == "ok"]
    after_final = {d["team"] for d in data["disqualified"] if d["after_final"]}
    if after_final:
        return  # taken off afterwards: the test of after-final disqualifications covers it
    rated = [row for row in placed if row["team"] in exact]
    for row in rated:
        higher = sum(exact[other["team"]] > exact[row["team"]] for other in rated)
        assert row["place"] == higher + 1
    for row in placed:
        if row["team"] not in exact:
            assert row["place"] == len(rated) + 1
    # In the order of the rows, places never go down and percentages never go up.
    assert [r["place"] for r in placed] == sorted(r["place"] for r in placed)
    values = [exact[r["team"]] for r in placed if r["team"] in exact]
    assert values == sorted(values, reverse=True)
    assert all(r["team"] in exact for r in placed[: len(rated)])


@PROPERTY_SETTINGS
@given(tournaments())
def test_exactly_equal_percentages_share_a_place(data):
    standings = rank_results(data)
    if not standings["provisional"] or any(d["after_final"] for d in data["disqualified"]):
        return
    exact = exact_percentages(standings)
    by_value = defaultdict(set)
    for row in standings["standings"]:
        if row["status"] == "ok" and row["team"] in exact:
            by_value[exact[row["team"]]].add(row["place"])
    assert all(len(places) == 1 for places in by_value.values())


@PROPERTY_SETTINGS
@given(tournaments())
def test_complete_standings_are_placed_by_points_as_before(data):
    data = {**data, "disqualified": [d for d in data["disqualified"] if not d["after_final"]]}
    standings = rank_results(data)
    if standings["provisional"]:
        return
    placed = [row for row in standings["standings"] if row["status"] == "ok"]
    for row in placed:
        assert row["place"] == 1 + sum(other["points"] < row["points"] for other in placed)
