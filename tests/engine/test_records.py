"""Board records: every way a record can be wrong is rejected, naming the field and the reason."""

import pytest

from engine.games.pymtheg.records import RecordError, read_board_record
from engine.games.pymtheg.scoring import score_record

GOOD = {"auctions": [["N:G", "E:P", "S:P", "W:P"]], "trump": "fire", "tricks": {"NS": 9, "EW": 6}}
PASSED = ["N:P", "E:P", "S:P", "W:P"]
RY = {"auctions": [["N:R", "E:P", "S:P", "W:P"]], "tricks": {"N": 0, "E": 5, "S": 5, "W": 5}}
LON = {"auctions": [["N:L/fire", "E:P", "S:P", "W:P"]], "tricks": {"N": 15, "E": 0, "S": 0, "W": 0}}


def with_(base, **changes):
    record = {**base, **changes}
    return {k: v for k, v in record.items() if v is not ...}


BAD_RECORDS = [
    ("not an object", ["N:G"], "record", "must be a JSON object"),
    ("unknown field", with_(GOOD, trick=3), "trick", "unknown field"),
    ("unknown ruleset", with_(GOOD, ruleset="house"), "ruleset", "unknown ruleset 'house'"),
    ("ruleset not a string", with_(GOOD, ruleset=3), "ruleset", "unknown ruleset"),
    ("options not object", with_(GOOD, options=[1]), "options", "must be an object"),
    ("unknown option", with_(GOOD, options={"burn": 5}), "options.burn", "unknown house rule"),
    (
        "negative option",
        with_(GOOD, options={"all_tricks_bonus": -5}),
        "options.all_tricks_bonus",
        "whole number of points",
    ),
    (
        "fractional option",
        with_(GOOD, options={"heavy_failure_penalty": 2.5}),
        "options.heavy_failure_penalty",
        "whole number",
    ),
    ("bad opening", with_(GOOD, opening="X"), "opening", "not a seat"),
    ("bad direction", with_(GOOD, direction="widdershins"), "direction", "not one of"),
    ("missing auctions", with_(GOOD, auctions=...), "auctions", "required"),
    ("empty auctions", with_(GOOD, auctions=[]), "auctions", "must be a list"),
    ("flat auction", with_(GOOD, auctions=["N:G", "E:P"]), "auctions", "list of auctions"),
    ("auction not list", with_(GOOD, auctions=[{"N": "G"}]), "auctions[0]", "must be a list"),
    ("three auctions", with_(GOOD, auctions=[PASSED, PASSED, PASSED]), "auctions", "at most"),
    (
        "illegal jump",
        with_(GOOD, auctions=[["N:G", "E:G+2"]]),
        "auctions[0]",
        "E:G+2 at call 2: a Gâm bid over G must be G+1",
    ),
    (
        "calls after the end",
        with_(GOOD, auctions=[["N:G", "E:P", "S:P", "W:P", "N:P"]]),
        "auctions[0]",
        "the auction already ended at call 4",
    ),
    (
        "incomplete auction",
        with_(GOOD, auctions=[["N:G", "E:P", "S:P"]]),
        "auctions[0]",
        "incomplete",
    ),
    ("wrong seat", with_(GOOD, auctions=[["E:G"]]), "auctions[0]", "it is North's turn"),
    ("call not a string", with_(GOOD, auctions=[[1, 2]]), "auctions[0]", "call 1"),
    ("unknown call", with_(GOOD, auctions=[["N:X", "E:P"]]), "auctions[0]", "unknown call"),
    (
        "second auction after a bid",
        with_(GOOD, auctions=[["N:G", "E:P", "S:P", "W:P"], PASSED]),
        "auctions[1]",
        "only after a passed-out first",
    ),
    (
        "second auction in rules-1709",
        {"ruleset": "rules-1709", "auctions": [PASSED, PASSED]},
        "auctions[1]",
        "holds no second auction",
    ),
    ("missing second auction", {"auctions": [PASSED]}, "auctions", "needs the second auction"),
    ("trump missing", with_(GOOD, trump=...), "trump", "required"),
    ("unknown trump", with_(GOOD, trump="moon"), "trump", "unknown trump 'moon'"),
    ("trump not string", with_(GOOD, trump=2), "trump", "unknown trump"),
    (
        "trump twice",
        with_(GOOD, auctions=[["N:G/fire", "E:P", "S:P", "W:P"]]),
        "trump",
        "already announced in the bid",
    ),
    ("trump on Ry", with_(RY, trump="fire"), "trump", "a Ry contract has no trump"),
    (
        "trump when passed out",
        {"auctions": [PASSED, PASSED], "trump": "fire"},
        "trump",
        "passed out",
    ),
    ("bad double", with_(GOOD, double="xxx"), "double", "not one of"),
    (
        "double when passed out",
        {"auctions": [PASSED, PASSED], "double": "x"},
        "double",
        "passed out",
    ),
    (
        "revoke when passed out",
        {"auctions": [PASSED, PASSED], "revoke": "N"},
        "revoke",
        "passed out",
    ),
    ("bad revoke seat", with_(GOOD, revoke="Q"), "revoke", "not a seat"),
    (
        "illegal trump in no-trump",
        with_(GOOD, trump="nt", illegal_trump="E"),
        "illegal_trump",
        "no trump suit",
    ),
    ("illegal trump in Ry", with_(RY, illegal_trump="E"), "illegal_trump", "no trump suit"),
    ("tricks missing", with_(GOOD, tricks=...), "tricks", "required"),
    (
        "tricks when passed out",
        {"auctions": [PASSED, PASSED], "tricks": {"NS": 0, "EW": 0}},
        "tricks",
        "passed out",
    ),
    ("tricks not object", with_(GOOD, tricks=[9, 6]), "tricks", "must be an object"),
    ("tricks mixed keys", with_(GOOD, tricks={"N": 9, "EW": 6}), "tricks", "keys must be"),
    ("tricks missing seat", with_(GOOD, tricks={"N": 9, "E": 6, "S": 0}), "tricks", "keys must"),
    ("tricks out of range", with_(GOOD, tricks={"NS": 16, "EW": -1}), "tricks.NS", "out of range"),
    ("negative tricks", with_(GOOD, tricks={"NS": -1, "EW": 16}), "tricks.NS", "out of range"),
    ("tricks not whole", with_(GOOD, tricks={"NS": 9.0, "EW": 6}), "tricks.NS", "whole number"),
    ("tricks boolean", with_(GOOD, tricks={"NS": True, "EW": 14}), "tricks.NS", "whole number"),
    ("tricks over 15", with_(GOOD, tricks={"NS": 10, "EW": 6}), "tricks", "add up to 16"),
    ("Gâm short of 15", with_(GOOD, tricks={"NS": 9, "EW": 5}), "tricks", "add up to 14, not 15"),
    (
        "Lon short of 15",
        with_(LON, tricks={"N": 14, "E": 0, "S": 0, "W": 0}),
        "tricks",
        "add up to 14",
    ),
    (
        "won Ry short of 15",
        with_(RY, tricks={"N": 0, "E": 4, "S": 5, "W": 5}),
        "tricks",
        "only a lost Ry ends early",
    ),
    (
        "per-team tricks for Ry",
        with_(RY, tricks={"NS": 0, "EW": 15}),
        "tricks",
        "Ry needs the tricks per seat",
    ),
    (
        "per-team tricks for Ry 2",
        {"auctions": [["N:R2", "E:P", "S:P", "W:P"]], "tricks": {"NS": 3, "EW": 12}},
        "tricks",
        "Ry 2 needs the tricks per seat",
    ),
    (
        "per-team tricks for Lon",
        with_(LON, tricks={"NS": 15, "EW": 0}),
        "tricks",
        "Lon needs the tricks per seat",
    ),
]


@pytest.mark.parametrize(
    ("record", "field", "reason"),
    [case[1:] for case in BAD_RECORDS],
    ids=[case[0] for case in BAD_RECORDS],
)
def test_bad_record_is_rejected(record, field, reason):
    with pytest.raises(RecordError) as caught:
        read_board_record(record)
    assert caught.value.field == field
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"{field}: ")


def test_defaults():
    record = read_board_record(GOOD)
    assert record.ruleset.name == "manual-2016"
    assert record.opening.name == "N" and record.direction == "clockwise"
    assert record.double == "none" and record.multiplier == 1
    assert record.options.all_tricks_bonus == 0


def test_default_ruleset_is_used_unless_the_record_names_one():
    gam6 = {
        "auctions": [["N:R3", "E:P", "S:G+6/fire", "W:P", "N:P"]],
        "tricks": {"NS": 15, "EW": 0},
    }
    assert score_record(gam6).declarer_score == 150
    assert score_record(gam6, default_ruleset="rules-1709").declarer_score == 140
    named = {**gam6, "ruleset": "manual-2016"}
    assert score_record(named, default_ruleset="rules-1709").declarer_score == 150


def test_accepted_spellings_and_case():
    record = {
        "auctions": [["n:gâm", "e:pass", "s:Pass", "w:p"]],
        "trump": "STONE",
        "double": "X",
        "tricks": {"NS": 9, "EW": 6},
        "opening": "n",
        "direction": "Clockwise",
    }
    result = score_record(record)
    assert (result.trump, result.double, result.declarer_score) == ("earth", "x", 40)


def test_revoke_allows_partial_or_absent_tricks():
    assert score_record(with_(GOOD, tricks={"NS": 2, "EW": 3}, revoke="E")).made is True
    assert score_record(with_(GOOD, tricks=..., revoke="N")).made is False


def test_lost_ry_may_stop_early():
    result = score_record(with_(RY, tricks={"N": 1, "E": 0, "S": 0, "W": 0}))
    assert result.declarer_score == -150
