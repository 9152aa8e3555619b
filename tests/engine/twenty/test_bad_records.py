"""The 29 kinds of bad record (rulebook section 6): each is refused with a message naming the
field; and the deal notation's errors (2.3), which name the hand and the card."""

import copy
import json

import pytest

from engine.__main__ import score_line
from engine.core.errors import DealError, RecordError
from engine.games import get_game

GAME = get_game("twenty")
D = "N:11,10,9,8,7,6,5,4...T.Q F,21,20,19,1.KT.K.Q.C 18,16,15.QC.QC.K.JT 17,14,13,12.J.JT.CJ.K"
BASE = {"dealer": "N", "auction": ["E:PART", "S:P", "W:P", "N:P"], "partner": "W",
        "points": 57, "tricks": 6}  # fmt: skip
SPARROW = {"dealer": "S", "auction": ["W:PART", "N:P+SPARROW", "E:P", "S:P"], "points": 55,
           "tricks": 5, "last": {"seat": "N", "card": "T1"}}  # fmt: skip
DEALT = {"deal": D, "auction": ["E:PART+SPARROW", "S:P", "W:P", "N:P"], "points": 70,
         "tricks": 7, "last": {"seat": "E", "card": "T1"}}  # fmt: skip
NT = {"dealer": "N", "auction": ["E:PART", "S:NT", "W:P", "N:P", "E:P"], "points": 60, "tricks": 6}
SLAM = {"dealer": "E", "auction": ["S:PART+SLAM", "W:P", "N:P", "E:P"], "partner": "N",
        "points": 95, "tricks": 9}  # fmt: skip
PER_SEAT = {"dealer": "S", "auction": ["W:PART", "N:NT", "E:P", "S:P", "W:P"],
            "points": {"N": 40, "E": 30, "S": 20, "W": 12},
            "tricks": {"N": 4, "E": 3, "S": 2, "W": 1}}  # fmt: skip


def changed(base, **fields):
    """``base`` with fields set (``...`` removes one)."""
    record = copy.deepcopy(base)
    for name, value in fields.items():
        if value is ...:
            record.pop(name, None)
        else:
            record[name] = value
    return record


def test_the_valid_bases_score():
    for base in (BASE, SPARROW, DEALT, NT, SLAM, PER_SEAT):
        assert sum(GAME.score(base)["seats"].values()) == 0


BAD = [
    # 2. game
    *((2, changed(BASE, game=g), "game") for g in ("pyramid", "Twenty", "TWENTY", 20, "", True)),
    # 3. unknown fields
    *((3, changed(BASE, **{f: 1}), f) for f in ("contra", "trick", "double", "declarer", "play")),
    (3, changed(BASE, Points=57), "Points"),
    # 4. dealer
    (4, changed(BASE, dealer=...), "dealer"),
    (4, changed(BASE, dealer=None), "dealer"),
    *((4, changed(BASE, dealer=v), "dealer") for v in ("X", "", "NE", 1, ["N"], "north")),
    # 5. deal not in the notation
    *(
        (5, changed(DEALT, deal=v), "deal")
        for v in (
            7,
            ["N:"],
            "",
            "N",
            "X:" + D[2:],
            D[2:],
            D.rsplit(" ", 1)[0],
            D + " ...",
            D.replace("...T.Q", "..T.Q", 1),
            D.replace("...T.Q", "....T.Q", 1),
        )
    ),
    # 6. no such card
    *(
        (6, changed(DEALT, deal=D.replace("11,10", bad, 1)), "deal")
        for bad in ("11,3", "11,2", "11,22", "11,0", "11,04", "11,T10", "11,", "11,FF")
    ),
    (6, changed(DEALT, deal=D.replace("...T.Q", "...X.Q", 1)), "deal"),
    (6, changed(DEALT, deal=D.replace("...T.Q", "...9.Q", 1)), "deal"),
    # 7. a card twice
    (7, changed(DEALT, deal=D.replace("11,10", "11,11", 1)), "deal"),
    (7, changed(DEALT, deal=D.replace("...T.Q", "...T.K", 1)), "deal"),
    # 8. not 10 cards
    (8, changed(DEALT, deal=D.replace("11,10,", "", 1)), "deal"),
    (8, changed(DEALT, deal=D.replace("17,14,13,12.J", "17,14,13,12.", 1)), "deal"),
    # 9. dealer disagrees with the deal
    (9, changed(DEALT, dealer="E"), "dealer"),
    # 10. auction missing, empty, not a list of strings
    (10, changed(BASE, auction=...), "auction"),
    (10, changed(BASE, auction=[]), "auction"),
    (10, changed(BASE, auction="E:PART S:P W:P N:P"), "auction"),
    (10, changed(BASE, auction=["E:PART", 1, "W:P", "N:P"]), "auction"),
    (10, changed(BASE, auction=["E:PART", None, "W:P", "N:P"]), "auction"),
    # 11. a call cannot be read
    *(
        (11, changed(BASE, auction=["E:PART", bad, "W:P", "N:P"]), "auction")
        for bad in (
            "S P",
            "SP",
            "X:P",
            "S:BID",
            "S:P+DOUBLE",
            "S:P+",
            "S:P+SPARROW+SPARROW",
            "S::P",
            "",
            "S:",
            "S:PART+SLAM+SLAM",
        )
    ),
    # 12. out of turn
    (12, changed(BASE, auction=["S:PART", "W:P", "N:P", "E:P"]), "auction"),
    (12, changed(BASE, auction=["E:PART", "W:P", "S:P", "N:P"]), "auction"),
    (12, changed(NT, auction=["E:PART", "S:NT", "W:P", "N:P", "W:P"]), "auction"),
    (12, changed(NT, auction=["E:PART", "S:P", "W:NT", "N:P", "S:P"]), "auction"),
    # 13. Eldest's first call is not Partnership
    *(
        (13, changed(BASE, auction=[first, "S:P", "W:P", "N:P"]), "auction")
        for first in ("E:P", "E:NT", "E:SOLO", "E:P+SPARROW")
    ),
    # 14. not the lowest bid not yet made
    (14, changed(BASE, auction=["E:PART", "S:SOLO", "W:P", "N:P", "E:P"]), "auction"),
    (14, changed(BASE, auction=["E:PART", "S:PART", "W:P", "N:P", "E:P"]), "auction"),
    (14, changed(BASE, auction=["E:PART", "S:NT", "W:NT", "N:P", "E:P"]), "auction"),
    (14, changed(BASE, auction=["E:PART", "S:NT", "W:SOLO", "N:NT"]), "auction"),
    (14, changed(BASE, auction=["E:PART", "S:NT", "W:SOLO", "N:SOLO"]), "auction"),
    (14, changed(BASE, auction=["E:PART", "S:NT", "W:P", "N:P", "E:NT"]), "auction"),
    (14, changed(BASE, auction=["E:PART", "S:NT", "W:P", "N:P", "E:PART"]), "auction"),
    # 15. a pass with a bonus other than the partner's Sparrow
    (15, changed(BASE, auction=["E:PART", "S:P+SLAM", "W:P", "N:P"]), "auction"),
    (15, changed(BASE, auction=["E:PART", "S:P+SPARROW+SLAM", "W:P", "N:P"]), "auction"),
    (15, changed(BASE, auction=["E:PART", "S:P+SLAM+SPARROW", "W:P", "N:P"]), "auction"),
    # 16. a Sparrow without a bid out of place
    (16, changed(NT, auction=["E:PART", "S:NT", "W:P+SPARROW", "N:P", "E:P"]), "auction"),
    (16, changed(NT, auction=["E:PART", "S:NT", "W:SOLO", "N:P+SPARROW", "E:P", "S:P"]), "auction"),
    (16, changed(DEALT, auction=["E:PART+SPARROW", "S:P+SPARROW", "W:P", "N:P"]), "auction"),
    (16, changed(SPARROW, auction=["W:PART", "N:P+SPARROW", "E:P+SPARROW", "S:P"]), "auction"),
    # 17. a call after the end
    (17, changed(BASE, auction=["E:PART", "S:P", "W:P", "N:P", "E:P"]), "auction"),
    (17, changed(BASE, auction=["E:PART", "S:P", "W:P", "N:P", "S:NT"]), "auction"),
    # 18. not finished
    (18, changed(BASE, auction=["E:PART"]), "auction"),
    (18, changed(BASE, auction=["E:PART", "S:P", "W:P"]), "auction"),
    (18, changed(NT, auction=["E:PART", "S:NT", "W:P", "N:P"]), "auction"),
    (18, changed(NT, auction=["E:PART", "S:NT", "W:SOLO"]), "auction"),
    # 19. called
    *((19, changed(BASE, called=v), "called") for v in ("X", "T3", 18, "T0", "18", "", ["T18"])),
    *((19, changed(BASE, called=v), "called") for v in ("T21", "F", "T1", "SK")),
    (19, changed(DEALT, called="T19"), "called"),
    (19, changed(DEALT, called="T17"), "called"),
    # 20. partner
    *((20, changed(BASE, partner=v), "partner") for v in ("X", "", 1, "west", ["W"])),
    (20, changed(BASE, partner="E"), "partner"),
    (20, changed(DEALT, partner="W"), "partner"),
    (20, changed(DEALT, partner="E"), "partner"),
    (20, changed(SPARROW, partner="E"), "partner"),
    (20, changed(SPARROW, partner="S"), "partner"),
    (
        20,
        changed(
            DEALT,
            auction=["E:PART", "S:P", "W:P+SPARROW", "N:P"],
            last={"seat": "W", "card": "T12"},
        ),
        "partner",
    ),
    # 21. the partner cannot be known
    (21, changed(BASE, partner=...), "partner"),
    (21, changed(BASE, partner=None), "partner"),
    (21, changed(SLAM, partner=...), "partner"),
    # 22. contras
    *((22, changed(BASE, contras=v), "contras") for v in ("contra", ["bid"], 2, True)),
    (22, changed(BASE, contras={"double": "contra"}), "contras"),
    (22, changed(BASE, contras={"Bid": "contra"}), "contras"),
    (22, changed(BASE, contras={"sparrow": "contra"}), "contras"),
    (22, changed(BASE, contras={"slam": "none"}), "contras"),
    (22, changed(SPARROW, contras={"slam": "contra"}), "contras"),
    (
        22,
        changed(
            NT, auction=["E:PART+SPARROW", "S:NT", "W:P", "N:P", "E:P"], contras={"sparrow": "re"}
        ),
        "contras",
    ),
    *(
        (22, changed(BASE, contras={"bid": v}), "contras")
        for v in ("double", "recontra", "", 2, None, "x2", "re-contra")
    ),
    # 23. points
    (23, changed(BASE, points=...), "points"),
    *((23, changed(BASE, points=v), "points") for v in (-1, 103, 52.0, "52", True, [52], 57.5)),
    (23, changed(PER_SEAT, points={"N": 40, "E": 30, "S": 32}), "points"),
    (23, changed(PER_SEAT, points={"N": 40, "E": 30, "S": 20, "W": 12, "X": 0}), "points"),
    (23, changed(PER_SEAT, points={"n": 40, "E": 30, "S": 20, "W": 12}), "points"),
    (23, changed(PER_SEAT, points={"N": 40, "E": 30, "S": 20, "W": 13}), "points"),
    (23, changed(PER_SEAT, points={"N": 40, "E": 30, "S": 20, "W": 12.0}), "points"),
    (23, changed(PER_SEAT, points={"N": 42, "E": 30, "S": 32, "W": -2}), "points"),
    # 24. tricks
    (24, changed(BASE, tricks=...), "tricks"),
    *((24, changed(BASE, tricks=v), "tricks") for v in (-1, 11, 6.0, "6", False, {})),
    (24, changed(PER_SEAT, tricks={"N": 4, "E": 3, "S": 2, "W": 2}), "tricks"),
    (24, changed(PER_SEAT, tricks={"N": 4, "E": 3, "S": 3}), "tricks"),
    (24, changed(PER_SEAT, tricks={"N": 5, "E": 3, "S": 3, "W": -1}), "tricks"),
    # 25. points impossible with tricks
    *(
        (25, changed(BASE, points=p, tricks=t), "points")
        for p, t in ((4, 1), (22, 1), (52, 2), (60, 10), (101, 10), (1, 0), (102, 9), (32, 6))
    ),
    (
        25,
        changed(
            PER_SEAT,
            points={"N": 40, "E": 30, "S": 20, "W": 12},
            tricks={"N": 4, "E": 3, "S": 3, "W": 0},
        ),
        "points",
    ),
    # Every seat possible, but the side of E and W cannot have 42 points with 2 tricks.
    (
        25,
        changed(
            BASE,
            points={"N": 40, "E": 21, "S": 20, "W": 21},
            tricks={"N": 4, "E": 1, "S": 4, "W": 1},
        ),
        "points",
    ),
    # 26. last missing while a Sparrow stands
    (26, changed(SPARROW, last=...), "last"),
    (26, changed(DEALT, last=None), "last"),
    # 27. last not an object of seat and card
    *(
        (27, changed(SPARROW, last=v), "last")
        for v in (
            "N",
            ["N", "T1"],
            {"seat": "N"},
            {"card": "T1"},
            {"seat": "N", "card": "T1", "trick": 10},
            {"seat": "X", "card": "T1"},
            {"seat": "N", "card": "T2"},
            {"seat": "N", "card": "1"},
            {"seat": "N", "card": None},
            {"seat": 1, "card": "T1"},
            {"Seat": "N", "card": "T1"},
        )
    ),
    # 28. last contradicts the tricks or the deal
    (28, changed(SPARROW, tricks=0, points=0), "last"),
    (28, changed(BASE, tricks=10, points=102, last={"seat": "N", "card": "T1"}), "last"),
    (
        28,
        changed(
            PER_SEAT,
            last={"seat": "W", "card": "T1"},
            tricks={"N": 4, "E": 3, "S": 3, "W": 0},
            points={"N": 40, "E": 30, "S": 32, "W": 0},
        ),
        "last",
    ),
    (28, changed(DEALT, last={"seat": "E", "card": "T18"}), "last"),
    (28, changed(DEALT, last={"seat": "S", "card": "T1"}), "last"),
    # 29. held
    *((29, changed(BASE, held=v), "held") for v in ("X", 1, "", ["W"])),
    (29, changed(DEALT, held="N"), "held"),
    (29, changed(DEALT, held="S"), "held"),
    (29, changed(DEALT, auction=["E:PART", "S:NT", "W:P", "N:P", "E:P"], held="E"), "held"),
]


@pytest.mark.parametrize(("kind", "record", "field"), BAD)
def test_bad_records_name_the_field(kind, record, field):
    with pytest.raises(RecordError) as error:
        GAME.score(record)
    assert error.value.field == field, (kind, str(error.value))
    assert str(error.value).startswith(f"{field}: ")
    # Through the command line's reader: an error object, never an exception.
    out, ok = score_line(json.dumps(record), "twenty")
    assert not ok and out["error"].startswith(f"{field}: ")


def test_every_kind_is_covered():
    assert {kind for kind, *_ in BAD} >= set(range(2, 30))


@pytest.mark.parametrize(
    "line", ["", "{", "[]", "3", '"record"', "null", "{'dealer': 'N'}", "[{}]"]
)
def test_lines_that_are_not_json_objects(line):
    out, ok = score_line(line, "twenty")
    assert not ok and "error" in out


def test_the_object_itself():
    for value in (None, [], "x", 3):
        with pytest.raises(RecordError, match=r"^object: "):
            GAME.score(value)


def test_a_null_field_is_absent():
    assert GAME.score(changed(BASE, called=None, held=None, contras=None, last=None, deal=None))
    assert GAME.score(changed(BASE, board=None)) == GAME.score(BASE)
    assert GAME.score(changed(BASE, game=None)) == GAME.score(BASE)


def test_messages_name_the_call_position_and_reason():
    with pytest.raises(RecordError, match=r"^auction: call 2 \('S:SOLO'\): SOLO is not the lowest"):
        GAME.score(changed(BASE, auction=["E:PART", "S:SOLO", "W:P", "N:P", "E:P"]))
    with pytest.raises(RecordError, match=r"^auction: call 1 \('S:PART'\): out of turn"):
        GAME.score(changed(BASE, auction=["S:PART", "W:P", "N:P", "E:P"]))
    with pytest.raises(RecordError, match=r"^auction: not finished"):
        GAME.score(changed(BASE, auction=["E:PART"]))
    with pytest.raises(RecordError, match=r"^held: N disagrees with the deal: .* to E"):
        GAME.score(changed(DEALT, held="N"))
    with pytest.raises(RecordError, match=r"Kings to nobody"):
        GAME.score(changed(DEALT, auction=["E:PART", "S:NT", "W:P", "N:P", "E:P"], held="E"))


# -- the deal notation's errors ------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (D.replace("F,21", "F,3", 1), "deal: hand E: no such card 3"),
        (D.replace("F,21", "F,22", 1), "deal: hand E: no such card 22"),
        (D.replace("F,21", "F,04", 1), "deal: hand E: no such card 04"),
        (D.replace(".KT.K.Q.C", ".KX.K.Q.C", 1), "deal: hand E: no such card SX"),
        (D.replace("17,14,13,12.J.JT.CJ.K", "17,14,13,12.J.JT.CJ.Q"),
         "deal: card CQ twice (hands N and W)"),
        (D.replace("11,10", "11,11", 1), "deal: card T11 twice (hand N)"),
        (D.replace("18,16,15.QC", "18,16.QC", 1), "deal: hand S has 9 cards, not 10"),
        (D.replace("N:11", "N:17,11").replace(" 17,", " "), "deal: hand N has 11 cards, not 10"),
        (D.replace("...T.Q", "..T.Q", 1), "deal: hand N has 4 groups, 5 needed"),
        (D.rsplit(" ", 1)[0], "deal: 3 hands, 4 needed"),
        ("X:" + D[2:], "deal: 'X' is not a dealer's seat"),
        ("N" + D[2:], "deal: must start with the dealer's seat letter and a colon"),
    ],
)  # fmt: skip
def test_deal_errors_name_the_hand_and_the_card(text, message):
    with pytest.raises(DealError) as error:
        GAME.parse_deal(text)
    assert str(error.value).startswith(message)


def test_a_deal_that_is_not_a_string():
    for value in (None, 3, ["N:"], {"N": ""}):
        with pytest.raises(DealError, match=r"^deal: "):
            GAME.parse_deal(value)
