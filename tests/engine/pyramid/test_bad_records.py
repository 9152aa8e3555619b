"""The 31 kinds of bad record (rulebook section 8) and the bad sheet lines S1-S9 (section 7):
each is refused with a message naming the field the tables say."""

import copy
import json

import pytest

from engine.__main__ import score_line, sheet_line
from engine.core.errors import RecordError
from engine.games import get_game
from engine.games.pyramid.sheet import sheet_output

GAME = get_game("pyramid")
BASE = {"game": "pyramid", "players": 4, "dealer": "N", "declared": 3, "trump": "hearts", "won": 2}
DEAL3 = "S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT"
PLAYED = {
    "game": "pyramid",
    "deal": DEAL3,
    "declared": 2,
    "trump": "hearts",
    "play": [
        ["SA", "SQ", "ST"],
        ["SK", "SJ", "HQ"],
        ["DT", "DQ", "DK"],
        ["CA", "CQ", "C9"],
        ["CK", "HK", "H9"],
        ["DJ", "DA", "HA"],
    ],
}


def changed(base, **fields):
    """``base`` with fields set (``...`` removes one)."""
    record = copy.deepcopy(base)
    for name, value in fields.items():
        if value is ...:
            record.pop(name, None)
        else:
            record[name] = value
    return record


def with_card(trick, position, card, base=PLAYED):
    record = copy.deepcopy(base)
    record["play"][trick][position] = card
    return record


def field_of(record):
    with pytest.raises(RecordError) as error:
        GAME.score(record)
    message = str(error.value)
    assert message.startswith(f"{error.value.field}: ")
    return error.value.field


def test_the_valid_bases_score():
    assert GAME.score(BASE)["points"] == 8
    assert GAME.score(PLAYED)["won"] == 1


# (fault number, record, the fields the table allows)
BAD_RECORDS = [
    (3, changed(BASE, game="pymtheg"), {"game"}),
    (3, changed(BASE, game="twenty"), {"game"}),
    (3, changed(BASE, game="Pyramid"), {"game"}),
    (3, changed(BASE, game=7), {"game"}),
    (4, changed(BASE, players=...), {"players"}),
    (4, changed(BASE, players=None), {"players"}),
    *((5, changed(BASE, players=v), {"players"}) for v in (1, 5, "4", 4.0, True, [4])),
    (6, changed(BASE, dealer=...), {"dealer"}),
    (6, changed(BASE, dealer=None), {"dealer"}),
    (7, changed(BASE, players=3, dealer="W"), {"dealer"}),
    *((7, changed(BASE, dealer=v), {"dealer"}) for v in ("X", "", "NE", 1, ["N"])),
    (7, changed(PLAYED, dealer="W"), {"dealer"}),
    *(
        (8, changed(BASE, direction=v), {"direction"})
        for v in ("left", "counter-clockwise", "cw", 1, True, "")
    ),
    (9, changed(BASE, declarer="S"), {"declarer"}),
    (9, changed(BASE, declarer="N"), {"declarer"}),
    (9, changed(BASE, declarer="X"), {"declarer"}),
    (9, changed(BASE, direction="counterclockwise", declarer="E"), {"declarer"}),
    (9, changed(PLAYED, declarer="E"), {"declarer"}),
    (10, changed(BASE, declared=...), {"declared"}),
    (10, changed(BASE, declared=None), {"declared"}),
    *((11, changed(BASE, declared=v), {"declared"}) for v in (7, -1, 2.5, 3.0, "3", True)),
    (12, changed(BASE, trump=...), {"trump"}),
    *((13, changed(BASE, trump=v), {"trump"}) for v in ("fire", "no trump", "sp", 1, "n", "")),
    (14, changed(BASE, won=...), {"won"}),
    (14, changed(PLAYED, play=...), {"won"}),
    *((15, changed(BASE, won=v), {"won"}) for v in (7, -1, "2", 2.0, True, [2])),
    (16, changed(BASE, won=..., tricks={"N": 2, "E": 2, "S": 2}), {"tricks"}),
    (16, changed(BASE, won=..., players=3, tricks={"N": 2, "E": 2, "S": 1, "W": 1}), {"tricks"}),
    (16, changed(BASE, won=..., tricks=[1, 2, 3, 0]), {"tricks"}),
    (16, changed(BASE, won=..., tricks={"n": 1, "e": 2, "s": 3, "w": 0}), {"tricks"}),
    (16, changed(BASE, won=..., tricks=6), {"tricks"}),
    (17, changed(BASE, won=..., tricks={"N": -1, "E": 2, "S": 3, "W": 2}), {"tricks"}),
    (17, changed(BASE, won=..., tricks={"N": 1.0, "E": 2, "S": 3, "W": 0}), {"tricks"}),
    (17, changed(BASE, won=..., tricks={"N": "1", "E": 2, "S": 3, "W": 0}), {"tricks"}),
    (17, changed(BASE, won=..., tricks={"N": True, "E": 2, "S": 3, "W": 0}), {"tricks"}),
    (18, changed(BASE, won=..., tricks={"N": 1, "E": 2, "S": 3, "W": 1}), {"tricks"}),
    (18, changed(BASE, won=..., tricks={"N": 0, "E": 2, "S": 3, "W": 0}), {"tricks"}),
    (19, changed(BASE, won=3, tricks={"N": 1, "E": 2, "S": 3, "W": 0}), {"won", "tricks"}),
    (20, changed(PLAYED, deal=42), {"deal"}),
    (20, changed(PLAYED, deal=DEAL3[2:]), {"deal"}),
    (20, changed(PLAYED, deal="S:T.KQ.JT AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT"), {"deal"}),
    (20, changed(PLAYED, deal="S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AX -9.JT.9.JT"), {"deal"}),
    (21, changed(PLAYED, deal="S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JQ"), {"deal"}),
    (21, changed(PLAYED, deal="S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.A -9.JT.9.JTK"), {"deal"}),
    (21, changed(PLAYED, deal="S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.J"), {"deal"}),
    (22, changed(PLAYED, players=4), {"deal", "players"}),
    (22, changed(PLAYED, players=2), {"deal", "players"}),
    (22, changed(PLAYED, deal=DEAL3.split(" -")[0]), {"deal", "players"}),
    (
        22,
        changed(BASE, deal="N:AKQ.T.T.J JT.9.AQ.Q .KQ.9.KT9 9.AJ.KJ.A -"),
        {"deal", "players"},
    ),
    (23, changed(PLAYED, dealer="N"), {"dealer", "deal"}),
    (23, changed(PLAYED, dealer="E"), {"dealer", "deal"}),
    (24, changed(PLAYED, deal=..., players=3, dealer="S"), {"play"}),
    (25, changed(PLAYED, play=PLAYED["play"][:5]), {"play"}),
    (25, changed(PLAYED, play="SA SQ ST"), {"play"}),
    (25, changed(PLAYED, play=[*PLAYED["play"][:5], ["DJ", "DA"]]), {"play"}),
    (25, changed(PLAYED, play=[*PLAYED["play"][:5], "DJ DA HA"]), {"play"}),
    *((26, with_card(0, 0, card), {"play"}) for card in ("S8", "X9", "A", 7, "SAA", None)),
    (27, with_card(1, 0, "SA"), {"play"}),  # already played
    (27, with_card(0, 1, "S9"), {"play"}),  # undealt
    (27, with_card(0, 0, "SQ"), {"play"}),  # East's card, North to play
    (28, with_card(0, 1, "CA"), {"play"}),
    (29, with_card(1, 2, "DJ"), {"play"}),
    (30, changed(PLAYED, won=3), {"play", "won", "tricks"}),
    (30, changed(PLAYED, tricks={"N": 2, "E": 2, "S": 2}), {"play", "won", "tricks"}),
    (31, changed(BASE, dirction="counterclockwise"), {"dirction"}),
    (31, changed(BASE, trumps="hearts"), {"trumps"}),
    (31, changed(BASE, board=3), {"board"}),
    (31, changed(BASE, Won=2), {"Won"}),
]


@pytest.mark.parametrize(
    ("fault", "record", "fields"),
    BAD_RECORDS,
    ids=[f"{fault}-{i}" for i, (fault, _r, _f) in enumerate(BAD_RECORDS)],
)
def test_each_bad_record_names_its_field(fault, record, fields):
    assert field_of(record) in fields


def test_every_fault_of_the_table_is_covered():
    assert {fault for fault, _r, _f in BAD_RECORDS} | {1, 2} == set(range(1, 32))


@pytest.mark.parametrize("line", ["{not json", "", "nul", '{"players": 4,}'])
def test_1_not_json(line):
    out, ok = score_line(line or "x", "pyramid")
    assert not ok and "JSON" in out["error"]


@pytest.mark.parametrize("value", [[BASE], "pyramid", 5, None, True])
def test_2_not_an_object(value):
    with pytest.raises(RecordError, match="object"):
        GAME.score(value)
    out, ok = score_line(json.dumps(value), "pyramid")
    assert not ok and "object" in out["error"]


def test_the_rulebooks_messages():
    with pytest.raises(RecordError) as error:
        GAME.score(changed(BASE, trump="fire"))
    assert str(error.value) == "trump: 'fire' is not spades, hearts, diamonds, clubs or nt"
    with pytest.raises(RecordError) as error:
        GAME.score(changed(BASE, dirction="counterclockwise"))
    assert str(error.value) == "dirction: unknown field"


def test_play_errors_name_the_trick_and_the_seat():
    with pytest.raises(RecordError, match=r"^play: trick 2: N .*spades A.*already played"):
        GAME.score(with_card(1, 0, "SA"))
    with pytest.raises(RecordError, match=r"^play: trick 1: E .*spades 9.*undealt"):
        GAME.score(with_card(0, 1, "S9"))
    with pytest.raises(RecordError, match=r"^play: trick 1: N .*spades Q.*E's hand"):
        GAME.score(with_card(0, 0, "SQ"))


def test_null_counts_as_absent():
    assert GAME.score(changed(BASE, direction=None, declarer=None, tricks=None, deal=None))
    assert GAME.score(changed(BASE, game=None))["game"] == "pyramid"
    assert GAME.score(changed(BASE, board=None))  # an unknown field set to null is absent
    assert GAME.score(changed(PLAYED, won=None, players=None))["won"] == 1


def test_values_are_case_insensitive_where_words_or_letters():
    lower = changed(
        PLAYED,
        deal=DEAL3.lower(),
        trump="HEARTS",
        dealer="s",
        declarer="n",
        direction="Clockwise",
        play=[[card.lower() for card in trick] for trick in PLAYED["play"]],
    )
    assert GAME.score(lower) == GAME.score(PLAYED)
    ten = copy.deepcopy(PLAYED)
    ten["play"][0][2] = "S10"
    assert GAME.score(ten) == GAME.score(PLAYED)
    assert GAME.score(changed(BASE, trump="h"))["trump"] == "hearts"
    assert GAME.score(changed(BASE, trump="NT"))["trump"] == "nt"


def test_keys_are_exact():
    assert field_of(changed(BASE, Players=4)) == "Players"


def test_the_first_fault_is_reported_in_order():
    assert field_of(changed(BASE, game="twenty", board=1)) == "game"
    assert field_of(changed(BASE, board=1, players=9)) == "board"
    assert field_of(changed(BASE, players=9, dealer="X")) == "players"
    assert field_of(changed(BASE, dealer="X", direction="up")) == "dealer"
    assert field_of(changed(BASE, direction="up", declarer="Q")) == "direction"
    assert field_of(changed(BASE, declarer="S", declared=9)) == "declarer"
    assert field_of(changed(BASE, declared=9, trump="fire")) == "declared"
    assert field_of(changed(BASE, trump="fire", deal="junk")) == "trump"
    assert field_of(changed(BASE, deal="junk", won=9)) == "deal"
    # A bad deal is the fault even when players and dealer were to come from it.
    assert field_of(changed(PLAYED, deal=DEAL3.replace("QJ.A", "QX.A"))) == "deal"


def test_a_settings_direction_is_the_default():
    record = {"players": 4, "dealer": "N", "declared": 2, "trump": "S", "won": 2}
    assert GAME.score(record)["declarer"] == "E"
    assert GAME.score(record, {"direction": "counterclockwise"})["declarer"] == "W"
    own = {**record, "direction": "clockwise"}
    assert GAME.score(own, {"direction": "counterclockwise"})["declarer"] == "E"


# -- the sheet command: S1-S9 ------------------------------------------------------------------

GOOD_CALLS = [{"declared": 6, "won": 4}, {"declared": 5, "won": 4}, {"declared": 3, "won": 3}]


def sheet_field(obj):
    with pytest.raises(RecordError) as error:
        sheet_output(obj)
    return str(error.value)


def test_s1_not_json():
    out, ok = sheet_line("{calls: []}", GAME)
    assert not ok and "JSON" in out["error"]


@pytest.mark.parametrize("value", [[], "calls", 3, None, True])
def test_s2_not_an_object(value):
    assert "object" in sheet_field(value)


@pytest.mark.parametrize("obj", [{}, {"calls": None}, {"calls": "6,5"}, {"calls": {"1": {}}}])
def test_s3_calls_missing_or_not_a_list(obj):
    assert sheet_field(obj).startswith("calls: ")


@pytest.mark.parametrize("call", [[6, 4], "6/4", 6, None])
def test_s4_a_call_that_is_not_an_object(call):
    message = sheet_field({"calls": [*GOOD_CALLS[:2], call]})
    assert message.startswith("call 3: ")


@pytest.mark.parametrize("declared", [..., None, 7, -1, 2.0, "2", True])
def test_s5_declared(declared):
    call = {"won": 3} if declared is ... else {"declared": declared, "won": 3}
    message = sheet_field({"calls": [*GOOD_CALLS[:2], call]})
    assert message.startswith("declared: call 3: ")


@pytest.mark.parametrize("won", [..., None, 7, -1, 2.0, "2", False])
def test_s6_won(won):
    call = {"declared": 3} if won is ... else {"declared": 3, "won": won}
    message = sheet_field({"calls": [*GOOD_CALLS[:2], call]})
    assert message.startswith("won: call 3: ")


@pytest.mark.parametrize("player", [1, ["Ona"], {"name": "Ona"}, True])
def test_s7_player_not_a_string(player):
    assert sheet_field({"player": player, "calls": GOOD_CALLS}).startswith("player: ")


def test_s8_beyond_the_quota():
    calls = [{"declared": 0, "won": 1}, {"declared": 0, "won": 0}]
    assert sheet_field({"calls": calls}) == "quota: call 2: declared 0, quota full (1 of 1 used)"


@pytest.mark.parametrize("name", ["total", "Calls", "sheet", "tens"])
def test_s9_other_fields(name):
    assert sheet_field({"calls": GOOD_CALLS, name: 1}) == f"{name}: unknown field"


def test_a_calls_own_extra_fields_are_ignored_and_player_is_copied():
    calls = [{**call, "board": 3, "trump": "nt"} for call in GOOD_CALLS]
    out = sheet_output({"player": "", "calls": calls})
    assert list(out)[:3] == ["game", "player", "declarations"] and out["player"] == ""
    assert "player" not in sheet_output({"calls": GOOD_CALLS, "player": None})


def test_an_empty_sheet():
    out = sheet_output({"calls": []})
    assert out["declarations"] == 0 and out["legal"] == list(range(7))
    assert out["total"] == 0 and out["complete"] is False
