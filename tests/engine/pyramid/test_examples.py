"""The worked examples of the Pyramid rulebook (section 9) and its deal notation (2.1),
exactly as printed: records to board scores, sheets, errors."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.errors import DealError, RecordError
from engine.games import get_game
from engine.games.pyramid.cards import CARD_CODES, group_text
from engine.games.pyramid.sheet import sheet_output

ROOT = Path(__file__).resolve().parents[3]
GAME = get_game("pyramid")

EXAMPLE_1_RECORDS = """\
{"game": "pyramid", "players": 4, "dealer": "N", "declared": 6, "trump": "hearts", "won": 4}
{"game": "pyramid", "players": 4, "dealer": "N", "declared": 5, "trump": "hearts", "won": 4}
{"game": "pyramid", "players": 4, "dealer": "N", "declared": 5, "trump": "hearts", "won": 0}
{"game": "pyramid", "players": 4, "dealer": "N", "declared": 3, "trump": "hearts", "won": 3}
"""
EXAMPLE_1_SCORES = """\
{"game": "pyramid", "players": 4, "dealer": "N", "declarer": "E", "declared": 6, "trump": "hearts", "won": 4, "difference": -2, "points": 6, "exact": false, "tricks": null, "seats": {"N": -6, "E": 6, "S": -6, "W": -6}}
{"game": "pyramid", "players": 4, "dealer": "N", "declarer": "E", "declared": 5, "trump": "hearts", "won": 4, "difference": -1, "points": 8, "exact": false, "tricks": null, "seats": {"N": -8, "E": 8, "S": -8, "W": -8}}
{"game": "pyramid", "players": 4, "dealer": "N", "declarer": "E", "declared": 5, "trump": "hearts", "won": 0, "difference": -5, "points": 0, "exact": false, "tricks": null, "seats": {"N": 0, "E": 0, "S": 0, "W": 0}}
{"game": "pyramid", "players": 4, "dealer": "N", "declarer": "E", "declared": 3, "trump": "hearts", "won": 3, "difference": 0, "points": 10, "exact": true, "tricks": null, "seats": {"N": -10, "E": 10, "S": -10, "W": -10}}
"""  # noqa: E501
EXAMPLE_1_SHEET_IN = '{"calls": [{"declared": 6, "won": 4}, {"declared": 5, "won": 4}, {"declared": 5, "won": 0}, {"declared": 3, "won": 3}]}'  # noqa: E501
EXAMPLE_1_SHEET_OUT = '{"game": "pyramid", "declarations": 4, "quota": [1, 2, 3, 4, 3, 2, 1], "counts": [0, 0, 0, 1, 0, 2, 1], "remaining": [1, 2, 3, 3, 3, 0, 0], "legal": [0, 1, 2, 3, 4], "won": [[], [], [], [3], [], [4, 0], [4]], "points": [[], [], [], [10], [], [8, 0], [6]], "total": 24, "tens": 1, "complete": false}'  # noqa: E501
EXAMPLE_2_IN = '{"calls": [{"declared": 6, "won": 4}, {"declared": 5, "won": 4}, {"declared": 5, "won": 0}, {"declared": 3, "won": 3}, {"declared": 5, "won": 5}]}'  # noqa: E501
EXAMPLE_3_IN = '{"player": "Ona", "calls": [{"declared": 3, "won": 3}, {"declared": 0, "won": 0}, {"declared": 6, "won": 5}, {"declared": 2, "won": 2}, {"declared": 4, "won": 4}, {"declared": 1, "won": 1}, {"declared": 3, "won": 4}, {"declared": 5, "won": 5}, {"declared": 2, "won": 3}, {"declared": 4, "won": 3}, {"declared": 3, "won": 3}, {"declared": 1, "won": 2}, {"declared": 2, "won": 1}, {"declared": 5, "won": 3}, {"declared": 4, "won": 2}, {"declared": 3, "won": 2}]}'  # noqa: E501
EXAMPLE_3_OUT = '{"game": "pyramid", "player": "Ona", "declarations": 16, "quota": [1, 2, 3, 4, 3, 2, 1], "counts": [1, 2, 3, 4, 3, 2, 1], "remaining": [0, 0, 0, 0, 0, 0, 0], "legal": [], "won": [[0], [1, 2], [2, 3, 1], [3, 4, 3, 2], [4, 3, 2], [5, 3], [5]], "points": [[10], [10, 8], [10, 8, 8], [10, 8, 10, 8], [10, 8, 6], [10, 6], [8]], "total": 138, "tens": 7, "complete": true}'  # noqa: E501
EXAMPLE_4 = (
    '{"players": 2, "dealer": "E", "declared": 0, "trump": "nt", "won": 0}',
    '{"game": "pyramid", "players": 2, "dealer": "E", "declarer": "N", "declared": 0, "trump": "nt", "won": 0, "difference": 0, "points": 10, "exact": true, "tricks": null, "seats": {"N": 10, "E": -10}}',  # noqa: E501
)
EXAMPLE_5 = (
    '{"players": 3, "dealer": "S", "declared": 6, "trump": "c", "won": 0}',
    '{"game": "pyramid", "players": 3, "dealer": "S", "declarer": "N", "declared": 6, "trump": "clubs", "won": 0, "difference": -6, "points": -2, "exact": false, "tricks": null, "seats": {"N": -2, "E": 2, "S": 2}}',  # noqa: E501
)
EXAMPLE_6 = (
    '{"game": "pyramid", "players": 4, "dealer": "N", "direction": "counterclockwise", "declared": 2, "trump": "S", "tricks": {"N": 1, "E": 2, "S": 0, "W": 3}}',  # noqa: E501
    '{"game": "pyramid", "players": 4, "dealer": "N", "declarer": "W", "declared": 2, "trump": "spades", "won": 3, "difference": 1, "points": 8, "exact": false, "tricks": {"N": 1, "E": 2, "S": 0, "W": 3}, "seats": {"N": -8, "E": -8, "S": -8, "W": 8}}',  # noqa: E501
)
EXAMPLE_7_DEAL = "S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT"
EXAMPLE_7 = (
    '{"game": "pyramid", "deal": "S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT", "declared": 2, "trump": "hearts", "play": [["SA", "SQ", "ST"], ["SK", "SJ", "HQ"], ["DT", "DQ", "DK"], ["CA", "CQ", "C9"], ["CK", "HK", "H9"], ["DJ", "DA", "HA"]]}',  # noqa: E501
    '{"game": "pyramid", "players": 3, "dealer": "S", "declarer": "N", "declared": 2, "trump": "hearts", "won": 1, "difference": -1, "points": 8, "exact": false, "tricks": {"N": 1, "E": 3, "S": 2}, "seats": {"N": 8, "E": -8, "S": -8}}',  # noqa: E501
)
EXAMPLE_9_PLAY = [
    ["SA", "SQ", "ST"],
    ["SK", "SJ", "DJ"],
    ["DA", "DK", "DT"],
    ["DQ", "CA", "HQ"],
    ["H9", "HA", "HK"],
    ["CK", "CQ", "C9"],
]


def same_json(actual, expected_text):
    """Equal as JSON text, so key order and true/false/null count too."""
    assert json.dumps(actual) == json.dumps(json.loads(expected_text))


@pytest.mark.parametrize(
    ("record", "score"),
    list(zip(EXAMPLE_1_RECORDS.splitlines(), EXAMPLE_1_SCORES.splitlines(), strict=True)),
)
def test_example_1_board_scores(record, score):
    same_json(GAME.score(json.loads(record)), score)


def test_example_1_sheet_and_its_total_of_24():
    out = sheet_output(json.loads(EXAMPLE_1_SHEET_IN))
    same_json(out, EXAMPLE_1_SHEET_OUT)
    assert out["total"] == 24  # not the source's 18
    assert GAME.sheet(json.loads(EXAMPLE_1_SHEET_IN)) == out


def test_example_1_sheet_from_the_board_scores_as_they_are():
    scores = [GAME.score(json.loads(line)) for line in EXAMPLE_1_RECORDS.splitlines()]
    same_json(sheet_output({"calls": scores}), EXAMPLE_1_SHEET_OUT)


def test_example_2_over_quota():
    with pytest.raises(RecordError) as error:
        sheet_output(json.loads(EXAMPLE_2_IN))
    assert str(error.value) == "quota: call 5: declared 5, quota full (2 of 2 used)"


def test_example_2_a_17th_call_on_a_complete_sheet():
    calls = json.loads(EXAMPLE_3_IN)["calls"] + [{"declared": 3, "won": 3}]
    with pytest.raises(RecordError, match=r"^quota: call 17: "):
        sheet_output({"calls": calls})


def test_example_3_a_complete_sheet():
    same_json(sheet_output(json.loads(EXAMPLE_3_IN)), EXAMPLE_3_OUT)


@pytest.mark.parametrize("example", [EXAMPLE_4, EXAMPLE_5, EXAMPLE_6, EXAMPLE_7])
def test_examples_4_to_7(example):
    record, score = example
    same_json(GAME.score(json.loads(record)), score)


def test_example_7_north_holds_the_hand_of_2_1():
    deal = GAME.parse_deal(EXAMPLE_7_DEAL)
    assert (deal.players, deal.dealer) == (3, "S")
    north = {CARD_CODES[code] for code in ("SA", "SK", "H9", "DA", "DQ", "C9")}
    assert set(deal.cards("N")) == north
    assert GAME.format_deal(deal).split()[1] == "AK.9.AQ.9"


def test_example_8_the_same_board_played_wrongly():
    record = json.loads(EXAMPLE_7[0])
    south_discards = json.loads(json.dumps(record))
    south_discards["play"][1][2] = "DJ"
    with pytest.raises(RecordError) as error:
        GAME.score(south_discards)
    assert str(error.value) == (
        "play: trick 2: S cannot follow spades and must trump (diamonds J played)"
    )
    east_revokes = json.loads(json.dumps(record))
    east_revokes["play"][0][1] = "CA"
    with pytest.raises(RecordError) as error:
        GAME.score(east_revokes)
    assert str(error.value) == "play: trick 1: E must follow spades (clubs A played)"


def test_example_9_no_trump_on_the_same_deal():
    record = {"deal": EXAMPLE_7_DEAL, "declared": 2, "trump": "nt", "play": EXAMPLE_9_PLAY}
    score = GAME.score(record)
    assert score["tricks"] == {"N": 4, "E": 2, "S": 0}
    assert (score["won"], score["difference"], score["points"]) == (4, 2, 6)
    assert score["seats"] == {"N": 6, "E": -6, "S": -6}


def test_example_9_south_may_not_discard_with_hearts_trump():
    record = {"deal": EXAMPLE_7_DEAL, "declared": 2, "trump": "hearts", "play": EXAMPLE_9_PLAY}
    with pytest.raises(RecordError, match=r"^play: trick 2: S cannot follow spades"):
        GAME.score(record)


# -- 2.1: the deal notation -------------------------------------------------------------------

DEALS_2_1 = [
    ("N:AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT9 9.AJ.KJ.A", 4, "N", ("N", "E", "S", "W")),
    ("S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT", 3, "S", ("S", "N", "E")),
    ("E:.JT.T.AK9 AQ.KQ.J.Q -KJT9.A9.AKQ9.JT", 2, "E", ("E", "N")),
]


@pytest.mark.parametrize(("text", "players", "dealer", "order"), DEALS_2_1)
def test_deal_examples_round_trip(text, players, dealer, order):
    deal = GAME.parse_deal(text)
    assert (deal.players, deal.dealer) == (players, dealer)
    assert GAME.format_deal(deal) == text
    written = text[2:].split()
    # The hands come clockwise from the dealer; the '-' group last.
    for seat, hand in zip(order, written, strict=False):
        assert group_text(deal.hand(seat)) == hand
        assert len(deal.cards(seat)) == 6
    if players < 4:
        assert "-" + group_text(deal.undealt) == written[-1]
    assert bin(deal.undealt).count("1") == 24 - 6 * players


def test_deal_input_is_lenient_and_output_canonical():
    loose = "s:t.qk.J10.q   ak.9.qa.9  QJ.A.K.KA -9.tj.9.10J"
    assert GAME.format_deal(GAME.parse_deal(loose)) == DEALS_2_1[1][0]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "N:AKQ.T.T.J JT.X.AQ.Q .KQ.9.KT9 9.AJ.KJ.A",
            "deal: hand E, hearts: 'X' is not a card",
        ),
        (
            "N:AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT9 Q.AJ.KJ.A",
            "deal: hand W, spades: Q appears twice (also in hand N)",
        ),
        (
            "N:AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT 9.AJ.KJ.A",
            "deal: hand S holds 5 cards, 6 needed",
        ),
        (
            "S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK",
            "deal: the undealt cards ('-' group) are missing for 3 players",
        ),
    ],
)
def test_the_four_deal_error_messages(text, message):
    with pytest.raises(DealError) as error:
        GAME.parse_deal(text)
    assert str(error.value) == message


@pytest.mark.parametrize(
    "text",
    [
        None,
        5,
        "",
        "AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT9 9.AJ.KJ.A",  # no head
        "X:AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT9 9.AJ.KJ.A",  # not a seat
        "W:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT",  # West at a table of 3
        "N:AKQ.T.T JT.9.AQ.Q .KQ.9.KT9 9.AJ.KJ.A",  # three suit groups
        "N:AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT9 9.AJ.KJ.A -",  # '-' group at 4 players
        "N:AKQ.T.T.J",  # one hand
        "N:AKQ.T.T.J JT.9.AQ.Q -.KQ.9.KT9 9.AJ.KJ.A",  # '-' group not last
        "S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.J",  # undealt too short
        "N:AKQ.T.T.JJ JT.9.AQ.Q .KQ.9.KT9 9.AJ.KA.A",  # J twice in one group
    ],
)
def test_bad_deals_are_refused_naming_the_deal(text):
    with pytest.raises(DealError, match=r"^deal: "):
        GAME.parse_deal(text)


def test_the_command_line_scores_and_draws_sheets():
    records = "\n".join([EXAMPLE_4[0], EXAMPLE_7[0], "[1]", "{not json"]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "engine", "score", "--game", "pyramid"],
        input=records,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == EXAMPLE_4[1] and out[1] == EXAMPLE_7[1]
    assert "object" in json.loads(out[2])["error"]
    assert "JSON" in json.loads(out[3])["error"]
    done = subprocess.run(
        [sys.executable, "-m", "engine", "sheet", "--game", "pyramid"],
        input=EXAMPLE_3_IN + "\n" + EXAMPLE_2_IN + "\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert done.returncode == 1
    assert done.stdout.splitlines() == [
        EXAMPLE_3_OUT,
        '{"error": "quota: call 5: declared 5, quota full (2 of 2 used)"}',
    ]
