"""Ranking points and standings (rulebook sections 5-7): worked examples and every ruling."""

import copy

import pytest

from engine.ranking import FinalStandings, RankingInputError, finalise, rank_groups, rank_results

# Legal records (the first Gâm bid of an auction is plain G).
GAM_PLUS_1_MADE = {  # South plays Gâm +1 in fire and makes it exactly: NS 30
    "auctions": [["N:G", "E:P", "S:G+1", "W:P", "N:P"]],
    "trump": "fire",
    "tricks": {"NS": 10, "EW": 5},
}
RY_FAILED_BY_EAST = {  # East bids Ry and takes a trick: NS 150, EW -150
    "auctions": [["N:P", "E:R", "S:P", "W:P"]],
    "tricks": {"N": 4, "E": 1, "S": 6, "W": 4},
}
GAM_ONE_OVERTRICK = {  # North plays Gâm in fire and takes 10: NS 21
    "auctions": [["N:G", "E:P", "S:P", "W:P"]],
    "trump": "fire",
    "tricks": {"NS": 10, "EW": 5},
}
PASSED_OUT_1709 = {"ruleset": "rules-1709", "auctions": [["N:P", "E:P", "S:P", "W:P"]]}
PASSED_OUT_TWICE_2016 = {
    "auctions": [["N:P", "E:P", "S:P", "W:P"], ["N:P", "E:P", "S:P", "W:P"]],
}

MANUAL_TEAMS = [
    {"id": "T1", "name": "Marrilona + Jake"},
    {"id": "T2", "name": "Eric + Irravonia"},
    {"id": "T3", "name": "Dernor + Scyndi"},
    {"id": "T4", "name": "Quayaro + Mercedes"},
    {"id": "T5", "name": "Aziëlla + Herondo"},
    {"id": "T6", "name": "Moriquo + Amora"},
]


def match(round_, table, ns, ew, ns_score=None, ew_score=None, board=None, **extra):
    """A match with scores given directly (``ew_score`` defaults to ``-ns_score``)."""
    result = {"round": round_, "table": table, "ns": ns, "ew": ew, **extra}
    if board is not None:
        result["board"] = board
    if ns_score is not None:
        result["scores"] = {"ns": ns_score, "ew": -ns_score if ew_score is None else ew_score}
    return result


def teams(*ids):
    return [{"id": team_id} for team_id in ids]


def one_table(ns_scores, **settings):
    """One table, one board: NS team N{i} against EW team E{i} in round i+1."""
    count = len(ns_scores)
    ids = [f"N{i}" for i in range(count)] + [f"E{i}" for i in range(count)]
    matches = []
    for i, score in enumerate(ns_scores):
        if isinstance(score, dict):
            matches.append(
                {"round": i + 1, "table": 1, "ns": f"N{i}", "ew": f"E{i}", "record": score}
            )
        else:
            matches.append(match(i + 1, 1, f"N{i}", f"E{i}", score))
    return {**settings, "teams": teams(*ids), "matches": matches}


def group(standings, table, side, board=1):
    found = [
        g
        for g in standings["groups"]
        if (g["table"], g["board"], g["side"]) == (table, board, side)
    ]
    assert len(found) == 1
    return found[0]["results"]


def ranks_by_team(standings, table, side, board=1):
    return {r["team"]: r["rank"] for r in group(standings, table, side, board)}


def row(standings, team):
    found = [r for r in standings["standings"] if r["team"] == team]
    assert len(found) == 1
    return found[0]


def points(standings):
    return {r["team"]: r["points"] for r in standings["standings"]}


def places(standings):
    return {r["team"]: r["place"] for r in standings["standings"]}


# -- the manual's worked example -------------------------------------------------------------


def manual_example():
    return copy.deepcopy(
        {
            "ruleset": "manual-2016",
            "ties": "min",
            "teams": MANUAL_TEAMS,
            "matches": [
                {"round": 1, "table": 1, "ns": "T1", "ew": "T2", "record": GAM_PLUS_1_MADE},
                {"round": 2, "table": 1, "ns": "T3", "ew": "T4", "record": RY_FAILED_BY_EAST},
                {"round": 3, "table": 1, "ns": "T5", "ew": "T6", "record": GAM_ONE_OVERTRICK},
            ],
        }
    )


def test_manual_example_ranks_ns_and_ew_separately():
    standings = rank_results(manual_example())
    ns = group(standings, 1, "NS")
    ew = group(standings, 1, "EW")
    assert [(r["team"], r["score"], r["rank"]) for r in ns] == [
        ("T3", 150, 1),  # Dernor + Scyndi
        ("T1", 30, 2),  # Marrilona + Jake
        ("T5", 21, 3),  # Aziëlla + Herondo
    ]
    assert [(r["team"], r["score"], r["rank"]) for r in ew] == [
        ("T6", -21, 1),  # Moriquo + Amora
        ("T2", -30, 2),  # Eric + Irravonia
        ("T4", -150, 3),  # Quayaro + Mercedes
    ]
    assert points(standings) == {"T1": 2, "T2": 2, "T3": 1, "T4": 3, "T5": 3, "T6": 1}


def test_manual_example_standings_object_shape():
    standings = rank_results(manual_example())
    assert set(standings) == {"provisional", "groups", "standings"}
    assert standings["provisional"] is False
    assert [g["side"] for g in standings["groups"]] == ["NS", "EW"]
    assert set(standings["groups"][0]) == {"table", "board", "side", "results"}
    assert set(standings["groups"][0]["results"][0]) == {"team", "round", "score", "rank"}
    first = standings["standings"][0]
    assert set(first) == {"place", "team", "points", "percentage", "matches", "status", "tables"}
    assert first == {
        "place": 1,
        "team": "T3",
        "points": 1,
        "percentage": 100.0,  # best of the three results on its board and side
        "matches": 1,
        "status": "ok",
        "tables": [
            {
                "table": 1,
                "board": 1,
                "side": "NS",
                "round": 2,
                "rank": 1,
                "score": 150,
                "bye": False,
            }
        ],
    }


def test_places_are_shared_and_skip_after_a_tie():
    standings = rank_results(manual_example())
    assert [(r["place"], r["team"]) for r in standings["standings"]] == [
        (1, "T3"),
        (1, "T6"),
        (3, "T1"),
        (3, "T2"),
        (5, "T4"),
        (5, "T5"),
    ]


# -- ties --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ties", "expected"),
    [
        ("min", [1, 2, 2, 4]),
        ("average", [1, 2.5, 2.5, 4]),
        ("max", [1, 3, 3, 4]),
    ],
)
def test_tie_policies(ties, expected):
    standings = rank_results(one_table([50, 20, 20, 0], ties=ties))
    ns = ranks_by_team(standings, 1, "NS")
    assert [ns[f"N{i}"] for i in range(4)] == expected
    ew = ranks_by_team(standings, 1, "EW")  # EW results are -50, -20, -20, 0: mirrored
    assert [ew[f"E{i}"] for i in range(4)] == expected[::-1]


def test_ties_default_to_min():
    standings = rank_results(one_table([10, 10, 5]))
    assert ranks_by_team(standings, 1, "NS") == {"N0": 1, "N1": 1, "N2": 3}


def test_all_tied_group():
    for ties, expected in (("min", 1), ("average", 2), ("max", 3)):
        standings = rank_results(one_table([0, 0, 0], ties=ties))
        assert set(ranks_by_team(standings, 1, "NS").values()) == {expected}


@pytest.mark.parametrize(
    ("groups", "scores", "ties", "expected"),
    [
        ([0, 0, 0], [3, 2, 1], "min", [1, 2, 3]),
        ([0, 1, 0, 1], [5, 5, 7, 1], "min", [2, 1, 1, 2]),
        ([4, 4, 4, 4, 4], [1, 1, 1, 0, 2], "average", [3, 3, 3, 5, 1]),
        ([0, 0, 0], [float("nan"), 1, float("nan")], "min", [3, 1, 3]),
        ([0, 0], [float("nan"), float("nan")], "min", [2, 2]),
        ([0], [-7.5], "max", [1]),
        ([], [], "average", []),
    ],
)
def test_rank_groups_core(groups, scores, ties, expected):
    assert rank_groups(groups, scores, ties).tolist() == expected


# -- passed-out boards ------------------------------------------------------------------------


@pytest.mark.parametrize("ties", ["min", "average", "max"])
def test_rules_1709_passed_out_ranks_below_everything_and_shares_the_group_size(ties):
    data = one_table(
        [PASSED_OUT_1709, -5000, PASSED_OUT_1709, 30, 30], ruleset="rules-1709", ties=ties
    )
    standings = rank_results(data)
    ns = ranks_by_team(standings, 1, "NS")
    ew = ranks_by_team(standings, 1, "EW")
    assert ns["N0"] == ns["N2"] == 5 and ew["E0"] == ew["E2"] == 5
    assert ns["N1"] == 3  # -5000 is still above a passed-out board
    assert ew["E1"] == 1  # its opponent got +5000
    scores = {r["team"]: r["score"] for r in group(standings, 1, "NS")}
    assert scores["N0"] is None and scores["N2"] is None
    tied = {"min": 1, "average": 1.5, "max": 2}[ties]
    assert ns["N3"] == ns["N4"] == tied


def test_manual_2016_twice_passed_out_is_an_ordinary_minus_5000():
    standings = rank_results(one_table([PASSED_OUT_TWICE_2016, -4000]))
    assert ranks_by_team(standings, 1, "NS") == {"N0": 2, "N1": 1}
    assert ranks_by_team(standings, 1, "EW") == {"E0": 2, "E1": 1}  # -5000 against +4000
    assert {r["team"]: r["score"] for r in group(standings, 1, "EW")}["E0"] == -5000


def test_a_record_keeps_its_own_ruleset():
    # In a manual-2016 tournament, a record naming rules-1709 is passed out (ranked worst);
    # without the name, a single passed-out auction would need the second auction.
    standings = rank_results(one_table([PASSED_OUT_1709, -100]))
    assert ranks_by_team(standings, 1, "NS") == {"N0": 2, "N1": 1}
    plain = {"auctions": PASSED_OUT_1709["auctions"]}
    with pytest.raises(RankingInputError, match=r"^matches\[0\]\.record: auctions: "):
        rank_results(one_table([plain]))
    standings = rank_results(one_table([plain, 10], ruleset="rules-1709"))
    assert ranks_by_team(standings, 1, "NS") == {"N0": 2, "N1": 1}


# -- provisional standings --------------------------------------------------------------------


def test_unplayed_matches_are_left_out_and_make_the_standings_provisional():
    data = one_table([30, 20, None])
    standings = rank_results(data)
    assert standings["provisional"] is True
    assert ranks_by_team(standings, 1, "NS") == {"N0": 1, "N1": 2}
    assert row(standings, "N2")["matches"] == 0
    assert row(standings, "N2")["points"] == 0
    assert row(standings, "N2")["tables"] == []  # scheduled here: no bye either
    data["matches"][2]["scores"] = {"ns": 25, "ew": -25}
    standings = rank_results(data)
    assert standings["provisional"] is False
    assert ranks_by_team(standings, 1, "NS") == {"N0": 1, "N1": 3, "N2": 2}


def test_record_or_scores_null_means_not_played():
    data = one_table([30, 20])
    data["matches"][1].pop("scores")
    data["matches"][1]["record"] = None
    data["matches"][1]["scores"] = None
    standings = rank_results(data)
    assert standings["provisional"] is True
    assert ranks_by_team(standings, 1, "NS") == {"N0": 1}


def test_no_matches_at_all():
    standings = rank_results({"teams": teams("A", "B"), "matches": []})
    assert standings == {
        "provisional": False,
        "groups": [],
        "standings": [
            {
                "place": 1,
                "team": "A",
                "points": 0,
                "percentage": None,
                "matches": 0,
                "status": "ok",
                "tables": [],
            },
            {
                "place": 1,
                "team": "B",
                "points": 0,
                "percentage": None,
                "matches": 0,
                "status": "ok",
                "tables": [],
            },
        ],
    }


# -- several boards ---------------------------------------------------------------------------


def test_each_board_is_ranked_on_its_own():
    data = {
        "teams": teams("A", "B", "C", "D"),
        "matches": [
            match(1, 1, "A", "B", 10, board=1),
            match(1, 1, "A", "B", -10, board=2),
            match(2, 1, "C", "D", 0, board=1),
            match(2, 1, "C", "D", 0, board=2),
        ],
    }
    standings = rank_results(data)
    assert ranks_by_team(standings, 1, "NS", board=1) == {"A": 1, "C": 2}
    assert ranks_by_team(standings, 1, "NS", board=2) == {"C": 1, "A": 2}
    assert points(standings) == {"A": 3, "B": 3, "C": 3, "D": 3}
    assert row(standings, "A")["matches"] == 2
    assert [(t["board"], t["rank"]) for t in row(standings, "A")["tables"]] == [(1, 1), (2, 2)]


# -- byes -------------------------------------------------------------------------------------


def test_a_bye_gets_the_mean_of_the_points_given_to_its_side_there():
    data = {
        "teams": teams("N1", "N2", "N3", "E1", "E2", "E3"),
        "matches": [
            match(1, 1, "N1", "E1", 30),
            match(2, 1, "N2", "E2", 20),
            match(3, 1, "N3", "E3", 10),
            match(1, 2, "N2", "E3", 5),
            match(2, 2, "N1", "E1", 6),
        ],
    }
    standings = rank_results(data)
    # Table 2, NS: N1 1, N2 2 -> mean 1.5 for N3's bye. EW: E3 -5 -> 1, E1 -6 -> 2: E2's bye 1.5.
    n3 = row(standings, "N3")
    assert n3["points"] == 3 + 1.5
    assert n3["matches"] == 1  # byes count in points, not in matches
    assert n3["tables"][1] == {
        "table": 2,
        "board": 1,
        "side": "NS",
        "round": None,
        "rank": 1.5,
        "score": None,
        "bye": True,
    }
    assert row(standings, "E2")["points"] == 2 + 1.5
    assert row(standings, "E2")["tables"][1]["side"] == "EW"
    assert standings["provisional"] is False
    # A bye is not a result: the groups hold only results.
    assert [r["team"] for r in group(standings, 2, "NS")] == ["N1", "N2"]


def test_a_bye_of_a_team_playing_both_sides_gets_the_mean_of_both_sides_means():
    data = {
        "teams": teams("A", "B", "C", "D", "E", "X"),
        "matches": [
            match(1, 1, "X", "A", 1),  # X plays NS at table 1 ...
            match(2, 2, "B", "X", 1),  # ... and EW at table 2, and never at table 3
            match(3, 3, "A", "B", 30),
            match(4, 3, "C", "D", 20),
            match(5, 3, "E", "C", 10),
            match(6, 3, "D", "E", 10, ew_score=5),
        ],
    }
    standings = rank_results(data)
    # Table 3 NS: A 30 (1), C 20 (2), E 10 (3), D 10 (3): mean 9/4.
    # Table 3 EW: E 5 (1), C -10 (2), D -20 (3), B -30 (4): mean 10/4.
    assert ranks_by_team(standings, 3, "NS") == {"A": 1, "C": 2, "E": 3, "D": 3}
    assert ranks_by_team(standings, 3, "EW") == {"E": 1, "C": 2, "D": 3, "B": 4}
    x_byes = [t for t in row(standings, "X")["tables"] if t["bye"]]
    assert x_byes == [
        {
            "table": 3,
            "board": 1,
            "side": None,
            "round": None,
            "rank": (9 / 4 + 10 / 4) / 2,
            "score": None,
            "bye": True,
        }
    ]
    assert row(standings, "X")["points"] == 1 + 1 + 2.375


def test_a_bye_where_nothing_has_been_ranked_yet_is_worth_nothing():
    data = {
        "teams": teams("A", "B", "C"),
        "matches": [match(1, 1, "A", "B", 10), match(2, 2, "B", "C", None)],
    }
    standings = rank_results(data)
    a_bye = [t for t in row(standings, "A")["tables"] if t["bye"]]
    assert a_bye == [
        {
            "table": 2,
            "board": 1,
            "side": "NS",
            "round": None,
            "rank": None,
            "score": None,
            "bye": True,
        }
    ]
    assert row(standings, "A")["points"] == 1
    assert standings["provisional"] is True


def test_a_team_without_matches_gets_byes_everywhere():
    data = {"teams": teams("A", "B", "Z"), "matches": [match(1, 1, "A", "B", 10)]}
    standings = rank_results(data)
    z = row(standings, "Z")
    assert z["matches"] == 0 and z["points"] == 1  # mean of NS (1) and EW (1)
    assert [t["side"] for t in z["tables"]] == [None]


def test_fractional_bye_points_are_rounded_to_six_decimals():
    data = {
        "teams": teams("A", "B", "C", "D", "E", "F", "G"),
        "matches": [
            match(1, 1, "A", "D", 30),
            match(2, 1, "B", "E", 20),
            match(3, 1, "C", "F", 20),
            match(4, 2, "B", "D", 0),
            match(5, 2, "A", "E", 0),
            match(6, 2, "G", "F", 0),
            match(7, 3, "C", "D", 5),
        ],
    }
    standings = rank_results(data)
    # G plays NS at table 2 only. Table 1 NS: A 1, B 2, C 2 (min): G's bye there is 5/3.
    g = row(standings, "G")
    assert [(t["table"], t["rank"], t["bye"]) for t in g["tables"]] == [
        (1, 1.666667, True),
        (2, 1, False),
        (3, 1, True),
    ]
    assert g["points"] == round(5 / 3 + 1 + 1, 6)
    assert isinstance(g["points"], float)


# -- disqualification before finalisation -----------------------------------------------------


def test_disqualified_team_scores_minus_1000_and_its_opponents_0_played_or_not():
    data = {
        "teams": teams("A", "B", "C", "D"),
        "matches": [
            match(1, 1, "A", "B", 50),  # played: replaced
            match(1, 2, "C", "D", 10),
            match(2, 1, "C", "D", -20),
            match(2, 2, "A", "B"),  # not played yet: becomes played
        ],
        "disqualified": [{"team": "B", "after_final": False}],
    }
    standings = rank_results(data)
    table_1_ew = {r["team"]: r["score"] for r in group(standings, 1, "EW")}
    table_1_ns = {r["team"]: r["score"] for r in group(standings, 1, "NS")}
    assert table_1_ew == {"B": -1000, "D": 20}
    assert table_1_ns == {"A": 0, "C": -20}
    assert {r["team"]: r["score"] for r in group(standings, 2, "EW")} == {"B": -1000, "D": -10}
    assert standings["provisional"] is False
    assert ranks_by_team(standings, 1, "NS") == {"A": 1, "C": 2}  # 0 beats -20
    b = standings["standings"][-1]
    assert (b["team"], b["place"], b["status"], b["matches"]) == ("B", None, "disqualified", 2)
    assert b["points"] == 4
    assert [r["place"] for r in standings["standings"][:-1]] == [1, 2, 2]


def test_a_match_between_two_disqualified_teams_is_left_out_altogether():
    data = {
        "teams": teams("A", "B", "C", "D"),
        "matches": [
            match(1, 1, "A", "B"),  # both disqualified, never played
            match(1, 2, "C", "D", 10),
            match(2, 1, "C", "D", 5),
            match(2, 2, "A", "B", 40),  # both disqualified, played
        ],
        "disqualified": [{"team": "A"}, {"team": "B"}],
    }
    standings = rank_results(data)
    assert standings["provisional"] is False  # the void match waits for nothing
    assert ranks_by_team(standings, 1, "NS") == {"C": 1}
    assert ranks_by_team(standings, 2, "NS") == {"C": 1}
    assert [(r["team"], r["status"], r["matches"]) for r in standings["standings"]] == [
        ("C", "ok", 2),
        ("D", "ok", 2),
        ("A", "disqualified", 0),
        ("B", "disqualified", 0),
    ]
    assert row(standings, "A")["tables"] == []  # it was scheduled: no byes either


def test_disqualified_teams_are_listed_after_the_others_by_points():
    data = one_table([10, 20, 30, 40])
    data["disqualified"] = [{"team": "N3"}, {"team": "N0"}]
    standings = rank_results(data)
    order = [(r["team"], r["place"]) for r in standings["standings"]]
    assert order[-2:] == [("N0", None), ("N3", None)]
    assert all(place is not None for _, place in order[:-2])


# -- finalisation and disqualification after it -----------------------------------------------


def five_ns_teams():
    return one_table([50, 40, 40, 20, 10])  # NS ranks 1, 2, 2, 4, 5


def test_five_ns_teams_before_any_disqualification():
    standings = rank_results(five_ns_teams())
    assert [(r["team"], r["points"], r["place"]) for r in standings["standings"]] == [
        ("E4", 1, 1),
        ("N0", 1, 1),
        ("E3", 2, 3),
        ("N1", 2, 3),
        ("N2", 2, 3),
        ("E1", 3, 6),
        ("E2", 3, 6),
        ("N3", 4, 8),
        ("E0", 5, 9),
        ("N4", 5, 9),
    ]


def test_disqualification_after_final_moves_the_teams_below_up_and_keeps_points():
    before = rank_results(five_ns_teams())
    data = five_ns_teams()
    data["disqualified"] = [{"team": "N1", "after_final": True}]
    after = rank_results(data)
    assert points(after) == points(before)
    assert after["groups"] == before["groups"]
    assert [(r["team"], r["points"], r["place"], r["status"]) for r in after["standings"]] == [
        ("E4", 1, 1, "ok"),
        ("N0", 1, 1, "ok"),
        ("E3", 2, 3, "ok"),  # tied with N1: not below it
        ("N2", 2, 3, "ok"),
        ("E1", 3, 5, "ok"),  # below it: up one place
        ("E2", 3, 5, "ok"),
        ("N3", 4, 7, "ok"),
        ("E0", 5, 8, "ok"),
        ("N4", 5, 8, "ok"),
        ("N1", 2, None, "disqualified"),
    ]


def test_after_final_differs_from_before_final():
    data = five_ns_teams()
    data["disqualified"] = [{"team": "N0", "after_final": False}]
    before_final = rank_results(data)
    data["disqualified"] = [{"team": "N0", "after_final": True}]
    after_final = rank_results(data)
    # Before: N0's -1000 changes the ranking at the table; after: nothing is re-ranked.
    assert ranks_by_team(before_final, 1, "NS")["N1"] == 1
    assert ranks_by_team(after_final, 1, "NS")["N1"] == 2


def test_finalise_snapshot_is_frozen_and_changes_return_new_snapshots():
    standings = rank_results(five_ns_teams())
    final = finalise(standings)
    assert isinstance(final, FinalStandings)
    assert final.as_dict() == standings
    with pytest.raises(TypeError):
        final.rows[0]["points"] = 99  # type: ignore[index]
    with pytest.raises(AttributeError):
        final.provisional = True  # type: ignore[misc]
    copy = final.as_dict()
    copy["standings"][0]["points"] = 99
    assert final.as_dict() == standings  # as_dict hands out new data
    later = final.disqualify_after_final("N0")
    assert final.row("N0")["status"] == "ok"
    assert later.row("N0")["status"] == "disqualified" and later.row("N0")["place"] is None


def test_two_disqualifications_after_final():
    final = finalise(rank_results(five_ns_teams()))
    both = final.disqualify_after_final("N4").disqualify_after_final("N0")
    assert [(r["team"], r["points"], r["place"]) for r in both.rows] == [
        ("E4", 1, 1),
        ("E3", 2, 2),
        ("N1", 2, 2),
        ("N2", 2, 2),
        ("E1", 3, 5),
        ("E2", 3, 5),
        ("N3", 4, 7),
        ("E0", 5, 8),
        ("N0", 1, None),
        ("N4", 5, None),
    ]
    assert final.disqualify_after_final("N0").disqualify_after_final("N4") == both


@pytest.mark.parametrize(
    ("team", "message"),
    [
        ("NX", "team 'NX' is not in the standings"),
        (0, "team 0 is not in the standings"),
    ],
)
def test_disqualify_after_final_rejects_unknown_teams(team, message):
    final = finalise(rank_results(five_ns_teams()))
    with pytest.raises(RankingInputError) as caught:
        final.disqualify_after_final(team)
    assert str(caught.value) == message


def test_disqualify_after_final_rejects_a_team_already_disqualified():
    final = finalise(rank_results(five_ns_teams())).disqualify_after_final("N2")
    with pytest.raises(RankingInputError) as caught:
        final.disqualify_after_final("N2")
    assert str(caught.value) == "team 'N2' is already disqualified"


@pytest.mark.parametrize(
    ("standings", "message"),
    [
        ([], "standings: must be the standings object made by rank_results"),
        ({"standings": {}}, "standings: must be the standings object made by rank_results"),
        ({"standings": [{"team": "A"}]}, "standings[0]: missing place, points, matches, status"),
    ],
)
def test_finalise_rejects_what_is_not_standings(standings, message):
    with pytest.raises(RankingInputError) as caught:
        finalise(standings)
    assert str(caught.value) == message


# -- ordering and team ids --------------------------------------------------------------------


def test_equal_points_are_ordered_by_team_id_in_natural_order():
    data = {
        "teams": teams("T10", "T9", "T2", "T1"),
        "matches": [match(1, 1, "T10", "T9", 0), match(2, 1, "T2", "T1", 0)],
    }
    standings = rank_results(data)
    assert [r["team"] for r in standings["standings"]] == ["T1", "T2", "T9", "T10"]
    assert {r["place"] for r in standings["standings"]} == {1}


def test_whole_number_team_ids():
    data = {"teams": teams(2, 10, 1), "matches": [match(1, 1, 10, 2, 5), match(2, 1, 1, 2, 0)]}
    standings = rank_results(data)
    assert points(standings) == {10: 1, 2: 3, 1: 2}
    assert [r["team"] for r in standings["standings"]] == [10, 1, 2]


def test_fractional_scores_from_a_director():
    standings = rank_results(one_table([10.5, 10.25, 10.5]))
    assert ranks_by_team(standings, 1, "NS") == {"N0": 1, "N1": 3, "N2": 1}
    assert {r["team"]: r["score"] for r in group(standings, 1, "NS")}["N1"] == 10.25


def test_scores_need_not_mirror_each_other():
    data = one_table([0, 0])
    data["matches"][0]["scores"] = {"ns": -100, "ew": -100}  # a director's split decision
    standings = rank_results(data)
    assert ranks_by_team(standings, 1, "NS") == {"N0": 2, "N1": 1}
    assert ranks_by_team(standings, 1, "EW") == {"E0": 2, "E1": 1}


def test_the_input_is_not_modified():
    data = manual_example()
    data["disqualified"] = [{"team": "T2", "after_final": True}]
    before = copy.deepcopy(data)
    rank_results(data)
    assert data == before
