"""Contract scores: every number of the score tables and every worked example of the sources."""

import pytest

from engine.core.errors import RecordError
from engine.games.pymtheg.scoring import score_record

# Gâm base scores from the manual (2016): (trump after, trump during, nt after, nt during).
MANUAL_GAM_TABLE = {
    0: (20, 30, 40, 60),
    1: (30, 50, 60, 100),
    2: (40, 70, 80, 140),
    3: (50, 90, 100, 180),
    4: (60, 110, 120, 220),
    5: (70, 130, 140, 260),
    6: (80, 150, 160, 300),
}
# The rules sheet 17.09.14 differs only for Gâm +6 announced during bidding (the sheet's "20"
# for Gâm +4 no-trump after bidding is a misprint of 120).
SHEET_GAM_TABLE = {**MANUAL_GAM_TABLE, 6: (80, 140, 160, 280)}

# An auction that reaches each Gâm level with North as declarer (East always passes out).
GAM_AUCTIONS = {
    0: ["N:G{t}", "E:P", "S:P", "W:P"],
    1: ["N:G", "E:P", "S:G+1{t}", "W:P", "N:P"],
    2: ["N:G", "E:P", "S:G+1", "W:P", "N:G+2{t}", "S:P"],
    3: ["N:G", "E:G+1", "S:G+2", "W:P", "N:G+3{t}", "E:P", "S:P"],
    4: ["N:R", "E:P", "S:G+4{t}", "W:P", "N:P"],
    5: ["N:R2", "E:P", "S:G+5{t}", "W:P", "N:P"],
    6: ["N:R3", "E:P", "S:G+6{t}", "W:P", "N:P"],
}


def gam_record(level, trump, during, tricks_ns, ruleset="manual-2016", **extra):
    suffix = f"/{trump}" if during else ""
    calls = [c.replace("{t}", suffix) for c in GAM_AUCTIONS[level]]
    record = {
        "ruleset": ruleset,
        "auctions": [calls],
        "tricks": {"NS": tricks_ns, "EW": 15 - tricks_ns},
    }
    if not during:
        record["trump"] = trump
    record.update(extra)
    return record


TABLE_CASES = [
    (ruleset, level, column)
    for ruleset in ("manual-2016", "rules-1709")
    for level in range(7)
    for column in range(4)
]


@pytest.mark.parametrize(("ruleset", "level", "column"), TABLE_CASES)
def test_every_gam_table_entry(ruleset, level, column):
    table = MANUAL_GAM_TABLE if ruleset == "manual-2016" else SHEET_GAM_TABLE
    base = table[level][column]
    trump = "nt" if column >= 2 else "water"
    during = column % 2 == 1
    unit = 2 if trump == "nt" else 1
    required = 9 + level
    exact = score_record(gam_record(level, trump, during, required, ruleset))
    assert exact.declarer_score == base
    assert exact.made is True
    if required < 15:
        over = score_record(gam_record(level, trump, during, 15, ruleset))
        assert over.declarer_score == base + (15 - required) * unit
    under = score_record(gam_record(level, trump, during, required - 3, ruleset))
    assert under.declarer_score == -(base + 3 * unit)
    assert under.made is False


@pytest.mark.parametrize(
    ("tricks", "trump", "during", "expected"),
    [
        (10, "fire", False, 21),  # Gâm making 10
        (5, "fire", False, -24),  # Gâm making 5
        (11, "fire", False, 22),  # the manual's "23" is an arithmetic slip
    ],
)
def test_manual_gam_examples(tricks, trump, during, expected):
    assert score_record(gam_record(0, trump, during, tricks)).declarer_score == expected


def test_gam_plus_one_exactly_is_30():
    assert score_record(gam_record(1, "earth", False, 10)).declarer_score == 30


def test_redoubled_no_trump_announced_during_bidding_is_248():
    record = gam_record(0, "nt", True, 10, double="xx")
    assert score_record(record).declarer_score == 248


def test_formats_example_with_liability():
    record = {
        "ruleset": "manual-2016",
        "options": {"all_tricks_bonus": 0, "heavy_failure_penalty": 0, "illegal_trump_penalty": 0},
        "opening": "N",
        "direction": "clockwise",
        "auctions": [["N:G", "E:R", "S:G+4", "W:P", "N:P", "E:P"]],
        "trump": "nt",
        "double": "none",
        "tricks": {"N": 3, "E": 2, "S": 7, "W": 3},
    }
    assert score_record(record).as_dict() == {
        "contract": "G+4",
        "declarer": "S",
        "playing": "NS",
        "trump": "nt",
        "announced": "after",
        "double": "none",
        "made": False,
        "liability": 150,
        "declarer_score": -276,
        "ns": -276,
        "ew": 276,
        "passed_out": False,
        "seats": {"N": -276, "E": 276, "S": -276, "W": 276},
    }


def test_liability_is_doubled_with_the_loss():
    record = {
        "auctions": [["N:G", "E:R", "S:G+4", "W:P", "N:P", "E:P"]],
        "trump": "fire",
        "double": "x",
        "tricks": {"N": 3, "E": 2, "S": 7, "W": 3},
    }
    assert score_record(record).declarer_score == -(60 + 3 + 150) * 2


def test_liability_not_counted_when_made():
    record = {
        "auctions": [["N:G", "E:R", "S:G+4", "W:P", "N:P", "E:P"]],
        "trump": "fire",
        "tricks": {"NS": 13, "EW": 2},
    }
    assert score_record(record).declarer_score == 60


def ry_record(code, tricks, **extra):
    return {"auctions": [[f"N:{code}", "E:P", "S:P", "W:P"]], "tricks": tricks, **extra}


@pytest.mark.parametrize(
    ("code", "tricks", "score", "made"),
    [
        ("R", {"N": 0, "E": 5, "S": 6, "W": 4}, 150, True),
        ("R", {"N": 1, "E": 3, "S": 2, "W": 1}, -150, False),  # play stopped at the losing trick
        ("R2", {"N": 0, "E": 5, "S": 6, "W": 4}, 200 - 120, True),
        ("R2", {"N": 0, "E": 2, "S": 12, "W": 1}, 200 - 240, True),  # won with a negative score
        ("R2", {"N": 1, "E": 3, "S": 2, "W": 1}, -200 - 40, False),
        ("R3", {"N": 0, "E": 5, "S": 0, "W": 10}, 1000, True),
        ("R3", {"NS": 0, "EW": 15}, 1000, True),
        ("R3", {"N": 0, "E": 5, "S": 1, "W": 3}, -1000, False),
        ("R3", {"NS": 1, "EW": 4}, -1000, False),
    ],
)
def test_ry_family(code, tricks, score, made):
    result = score_record(ry_record(code, tricks))
    assert (result.declarer_score, result.made) == (score, made)
    assert result.trump is None and result.announced is None
    doubled = score_record(ry_record(code, tricks, double="x"))
    assert doubled.declarer_score == 2 * score


def lon_record(trump, during, tricks, ruleset="manual-2016", **extra):
    bid = f"N:L/{trump}" if during else "N:L"
    record = {"ruleset": ruleset, "auctions": [[bid, "E:P", "S:P", "W:P"]], "tricks": tricks}
    if not during:
        record["trump"] = trump
    return {**record, **extra}


ALL_NORTH = {"N": 15, "E": 0, "S": 0, "W": 0}


@pytest.mark.parametrize(
    ("ruleset", "trump", "during", "tricks", "score"),
    [
        ("manual-2016", "fire", False, ALL_NORTH, 2500),
        ("manual-2016", "fire", True, ALL_NORTH, 3000),
        ("manual-2016", "nt", False, ALL_NORTH, 5000),
        ("manual-2016", "nt", True, ALL_NORTH, 6000),
        ("manual-2016", "fire", False, {"N": 12, "E": 2, "S": 0, "W": 1}, -(2500 + 150)),
        ("manual-2016", "fire", True, {"N": 12, "E": 2, "S": 0, "W": 1}, -(3000 + 150)),
        ("manual-2016", "nt", True, {"N": 12, "E": 2, "S": 0, "W": 1}, -(6000 + 300)),
        # a trick by the partner loses it too, and costs nothing more
        ("manual-2016", "wind", False, {"N": 14, "E": 0, "S": 1, "W": 0}, -2500),
        ("rules-1709", "fire", True, ALL_NORTH, 2500),
        ("rules-1709", "nt", True, ALL_NORTH, 5000),
        ("rules-1709", "nt", True, {"N": 12, "E": 2, "S": 0, "W": 1}, -(5000 + 300)),
    ],
)
def test_lon(ruleset, trump, during, tricks, score):
    assert score_record(lon_record(trump, during, tricks, ruleset)).declarer_score == score


def test_table_results_are_opposite_and_follow_the_playing_party():
    record = {
        "auctions": [["N:P", "E:G", "S:P", "W:P"]],
        "trump": "fire",
        "tricks": {"NS": 4, "EW": 11},
    }
    result = score_record(record)
    assert result.playing == "EW" and result.declarer == "E"
    assert (result.ew, result.ns) == (22, -22)


PASSED = ["N:P", "E:P", "S:P", "W:P"]


def test_passed_out_once_charges_each_team_100():
    record = {
        "auctions": [PASSED, ["N:G", "E:P", "S:P", "W:P"]],
        "trump": "fire",
        "tricks": {"NS": 9, "EW": 6},
    }
    result = score_record(record)
    assert result.declarer_score == 20
    assert (result.ns, result.ew) == (20 - 100, -20 - 100)
    assert result.passed_out is False


def test_passed_out_twice_gives_minus_5000_each():
    result = score_record({"auctions": [PASSED, PASSED]})
    assert (result.contract, result.ns, result.ew, result.passed_out) == (None, -5000, -5000, True)


def test_rules_1709_passed_out_has_no_table_result():
    result = score_record({"ruleset": "rules-1709", "auctions": [PASSED]})
    assert (result.ns, result.ew, result.passed_out) == (None, None, True)


# Revokes, ruleset manual-2016.
@pytest.mark.parametrize(
    ("record", "score"),
    [
        # Gâm by North, revoke by South (playing party): opponents take all 15.
        (gam_record(0, "fire", False, 9, revoke="S"), -(20 + 9)),
        (gam_record(2, "nt", True, 9, revoke="N", double="x"), -(140 + 11 * 2) * 2),
        # revoke by a defender: the playing party takes all 15.
        (gam_record(0, "fire", False, 9, revoke="E"), 20 + 6),
        (gam_record(6, "fire", True, 9, revoke="W"), 150),
        # Lon
        (lon_record("fire", True, {"N": 3, "E": 0, "S": 0, "W": 0}, revoke="N"), -(3000 + 750)),
        (lon_record("nt", False, {"N": 3, "E": 0, "S": 0, "W": 0}, revoke="E"), 5000),
        # Ry family: the loss × 1.5, or the Ry is won
        (ry_record("R", {"N": 0, "E": 1, "S": 1, "W": 1}, revoke="S"), -225),
        (
            ry_record("R2", {"N": 0, "E": 1, "S": 2, "W": 1}, revoke="N", double="x"),
            int((-200 - 40) * 1.5) * 2,
        ),
        (ry_record("R2", {"N": 0, "E": 1, "S": 2, "W": 1}, revoke="W"), 200 - 40),
        (ry_record("R3", {"N": 0, "E": 1, "S": 0, "W": 1}, revoke="E"), 1000),
        (ry_record("R3", {"N": 0, "E": 1, "S": 0, "W": 1}, revoke="N"), -1500),
    ],
)
def test_manual_revokes(record, score):
    assert score_record(record).declarer_score == score


@pytest.mark.parametrize(
    ("record", "score"),
    [
        (gam_record(0, "fire", False, 9, ruleset="rules-1709", revoke="S"), -(20 + 9) - 100),
        (
            gam_record(0, "fire", False, 9, ruleset="rules-1709", revoke="E", double="x"),
            (20 + 6) * 2 + 100,
        ),
        (
            {
                **ry_record("R", {"N": 0, "E": 1, "S": 1, "W": 1}, revoke="S"),
                "ruleset": "rules-1709",
            },
            -150 - 100,
        ),
        (
            {
                **ry_record("R2", {"N": 0, "E": 1, "S": 2, "W": 1}, revoke="S", double="xx"),
                "ruleset": "rules-1709",
            },
            (-200 - 40) * 4 - 100,
        ),
        (
            {
                **lon_record("fire", True, {"N": 3, "E": 0, "S": 0, "W": 0}, revoke="W"),
                "ruleset": "rules-1709",
            },
            2500 + 100,
        ),
    ],
)
def test_rules_1709_revokes(record, score):
    assert score_record(record).declarer_score == score


def test_revoke_without_tricks_recorded():
    record = {"auctions": [["N:R2", "E:P", "S:P", "W:P"]], "revoke": "N"}
    assert score_record(record).declarer_score == -300


# Optional house rules.
def test_all_tricks_bonus_below_gam_plus_six_only():
    options = {"all_tricks_bonus": 50}
    assert score_record(gam_record(0, "fire", False, 15, options=options)).declarer_score == 26 + 50
    assert score_record(gam_record(0, "fire", False, 14, options=options)).declarer_score == 25
    assert score_record(gam_record(6, "fire", False, 15, options=options)).declarer_score == 80


def test_heavy_failure_penalty():
    options = {"heavy_failure_penalty": 30}
    # Gâm needs 9: opponents with 9 or more tricks trigger it.
    assert score_record(gam_record(0, "fire", False, 6, options=options)).declarer_score == -(
        20 + 3 + 30
    )
    assert score_record(gam_record(0, "fire", False, 7, options=options)).declarer_score == -(
        20 + 2
    )


def test_house_rules_count_in_revokes_and_are_doubled():
    options = {"heavy_failure_penalty": 30, "all_tricks_bonus": 10}
    assert (
        score_record(
            gam_record(0, "fire", False, 9, options=options, revoke="N", double="x")
        ).declarer_score
        == -(20 + 9 + 30) * 2
    )
    assert (
        score_record(gam_record(0, "fire", False, 9, options=options, revoke="E")).declarer_score
        == 26 + 10
    )


def test_illegal_trump_penalty():
    options = {"illegal_trump_penalty": 500}
    offender_playing = gam_record(
        0, "fire", False, 10, options=options, illegal_trump="S", double="x"
    )
    assert score_record(offender_playing).declarer_score == 21 * 2 - 500
    offender_defending = gam_record(0, "fire", False, 8, options=options, illegal_trump="W")
    assert score_record(offender_defending).declarer_score == -21 + 500
    # The fact without the house rule changes nothing.
    assert score_record(gam_record(0, "fire", False, 10, illegal_trump="S")).declarer_score == 21


def test_second_auction_keeps_opening_seat_and_direction():
    record = {
        "opening": "W",
        "direction": "counterclockwise",
        "auctions": [["W:P", "S:P", "E:P", "N:P"], ["W:G", "S:P", "E:P", "N:P"]],
        "trump": "stone",
        "tricks": {"NS": 5, "EW": 10},
    }
    result = score_record(record)
    assert (result.declarer, result.trump, result.ew, result.ns) == ("W", "earth", 21 - 100, -121)


def test_a_record_may_name_its_game():
    record = gam_record(0, "nt", True, 10)
    assert score_record({**record, "game": "pymtheg"}) == score_record(record)
    with pytest.raises(RecordError, match=r"^game: 'pyramid' is not 'pymtheg'"):
        score_record({**record, "game": "pyramid"})
