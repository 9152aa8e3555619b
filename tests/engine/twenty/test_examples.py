"""The worked examples of the Twenty rulebook (section 7, and the board score of 5.2), its
pack and point tables (2.1, 3.5), its trick table (3.4) and its deal notation (2.3), exactly
as printed; and the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.games import get_game
from engine.games.twenty.cards import (
    CARD_POINTS,
    CARD_TEXT,
    FEWEST_POINTS,
    HONOURS,
    KINGS,
    MOST_POINTS,
    PACK_SIZE,
    called_card,
    parse_card,
)
from engine.games.twenty.play import trick_winner

ROOT = Path(__file__).resolve().parents[3]
GAME = get_game("twenty")
D = "N:11,10,9,8,7,6,5,4...T.Q F,21,20,19,1.KT.K.Q.C 18,16,15.QC.QC.K.JT 17,14,13,12.J.JT.CJ.K"

# (number, record, result N, E, S, W)
EXAMPLES = [
    (
        1,
        {"dealer": "N", "auction": ["E:PART", "S:P", "W:P", "N:P"], "partner": "W",
         "points": 57, "tricks": 6},
        (-1, 1, -1, 1),
    ),
    (
        2,
        {"dealer": "N", "auction": ["E:PART", "S:P", "W:P", "N:P"], "partner": "S",
         "contras": {"bid": "contra"}, "points": 51, "tricks": 5},
        (2, -2, -2, 2),
    ),
    (
        3,
        {"dealer": "N", "auction": ["E:PART", "S:NT", "W:P", "N:P", "E:P"],
         "contras": {"bid": "re"}, "points": 60, "tricks": 6, "held": "N"},
        (-5, -9, 23, -9),
    ),
    (
        4,
        {"dealer": "E", "auction": ["S:PART", "W:NT", "N:SOLO", "E:P", "S:P", "W:P"],
         "contras": {"bid": "sub"}, "points": 40, "tricks": 4},
        (-96, 32, 32, 32),
    ),
    (
        5,
        {"dealer": "S", "auction": ["W:PART", "N:P+SPARROW", "E:P", "S:P"],
         "contras": {"sparrow": "contra"}, "points": 55, "tricks": 5,
         "last": {"seat": "N", "card": "T1"}},
        (9, -9, -9, 9),
    ),
    (
        6,
        {"dealer": "W", "auction": ["N:PART", "E:NT", "S:SOLO+SPARROW", "W:P", "N:P", "E:P"],
         "contras": {"sparrow": "re"}, "points": 64, "tricks": 7,
         "last": {"seat": "E", "card": "T21"}},
        (12, 12, -36, 12),
    ),
    (
        7,
        {"dealer": "N", "auction": ["E:PART", "S:NT", "W:SOLO+SLAM", "N:P", "E:P", "S:P"],
         "points": 102, "tricks": 10, "held": "W"},
        (-17, -17, -17, 51),
    ),
    (
        8,
        {"dealer": "E", "auction": ["S:PART+SLAM", "W:P", "N:P", "E:P"], "partner": "N",
         "contras": {"slam": "contra"}, "points": 95, "tricks": 9},
        (-23, 23, -23, 23),
    ),
    (
        9,
        {"deal": D, "auction": ["E:PART+SPARROW", "S:P", "W:P", "N:P"],
         "contras": {"sparrow": "contra"}, "points": 70, "tricks": 7,
         "last": {"seat": "E", "card": "T1"}},
        (-10, 12, 8, -10),
    ),
    (
        10,
        {"deal": D, "auction": ["E:PART", "S:NT", "W:P", "N:P", "E:P"], "points": 48,
         "tricks": 5},
        (2, 2, -6, 2),
    ),
    (
        11,
        {"dealer": "S", "auction": ["W:PART", "N:NT", "E:P", "S:P", "W:P"],
         "contras": {"bid": "contra"}, "points": {"N": 40, "E": 30, "S": 20, "W": 12},
         "tricks": {"N": 4, "E": 3, "S": 2, "W": 1}},
        (-12, 4, 4, 4),
    ),
    (
        12,
        {"dealer": "W", "auction": ["N:Part", "E:pass", "S:NT+Sparrow", "W:P", "N:SOLO", "S:P"],
         "points": 52, "tricks": 5, "held": "E"},
        (11, -1, -5, -5),
    ),
]  # fmt: skip


@pytest.mark.parametrize(("number", "record", "result"), EXAMPLES)
def test_worked_examples(number, record, result):
    score = GAME.score(record)
    assert tuple(score["seats"].values()) == result
    assert list(score["seats"]) == ["N", "E", "S", "W"]
    assert sum(result) == 0
    # With the game named, the same.
    assert GAME.score({"game": "twenty", **record}) == score


def example(number):
    return next(record for n, record, _ in EXAMPLES if n == number)


def test_example_details():
    s1 = GAME.score(example(1))
    assert (s1["declarer"], s1["contract"], s1["partner"], s1["called"]) == ("E", "PART", "W", None)
    assert (s1["points"], s1["tricks"], s1["made"]) == (57, 6, True)
    assert s1["items"] == [
        {"item": "bid", "by": "E", "base": 1, "contra": "none", "value": 1, "won": True}
    ]
    s2 = GAME.score(example(2))
    assert s2["made"] is False and s2["items"][0]["value"] == 2
    s3 = GAME.score(example(3))
    assert [i["item"] for i in s3["items"]] == ["bid", "kings"]
    assert s3["items"][0] == {
        "item": "bid", "by": "S", "base": 2, "contra": "re", "value": 8, "won": True
    }  # fmt: skip
    assert s3["partner"] is None and s3["called"] is None
    s4 = GAME.score(example(4))
    assert (s4["declarer"], s4["contract"], s4["items"][0]["value"]) == ("N", "SOLO", 32)
    s5 = GAME.score(example(5))
    assert s5["partner"] == "N" and s5["declarer"] == "W"
    assert s5["items"][1] == {
        "item": "sparrow", "by": "N", "base": 4, "contra": "contra", "value": 8, "won": True
    }  # fmt: skip
    s6 = GAME.score(example(6))
    assert s6["items"][1]["won"] is False and s6["items"][1]["value"] == 16
    s7 = GAME.score(example(7))
    assert [i["item"] for i in s7["items"]] == ["bid", "slam", "honours"]
    assert all(i["won"] for i in s7["items"])
    s8 = GAME.score(example(8))
    assert [(i["item"], i["value"], i["won"]) for i in s8["items"]] == [
        ("bid", 1, True),
        ("slam", 24, False),
    ]
    s9 = GAME.score(example(9))
    assert (s9["partner"], s9["called"], s9["dealer"]) == ("S", "T18", "N")
    assert [(i["item"], i["by"]) for i in s9["items"]] == [
        ("bid", "E"),
        ("sparrow", "E"),
        ("honours", "E"),
    ]
    s10 = GAME.score(example(10))
    assert (s10["partner"], s10["called"]) == (None, None)
    assert [i["item"] for i in s10["items"]] == ["bid"]
    s11 = GAME.score(example(11))
    assert (s11["points"], s11["tricks"], s11["declarer"]) == (40, 4, "N")
    s12 = GAME.score(example(12))
    assert (s12["declarer"], s12["contract"]) == ("N", "SOLO")
    assert [i["item"] for i in s12["items"]] == ["bid", "honours"]


BOARD_SCORE_RECORD = {
    "game": "twenty",
    "dealer": "N",
    "auction": ["E:PART", "S:P", "W:P+SPARROW", "N:P"],
    "contras": {"bid": "contra", "sparrow": "re"},
    "points": 58,
    "tricks": 6,
    "last": {"seat": "W", "card": "T1"},
    "held": "W",
}
BOARD_SCORE = {
    "game": "twenty", "dealer": "N", "declarer": "E", "contract": "PART", "partner": "W",
    "called": None, "points": 58, "tricks": 6, "made": True,
    "items": [{"item": "bid", "by": "E", "base": 1, "contra": "contra", "value": 2, "won": True},
              {"item": "sparrow", "by": "W", "base": 4, "contra": "re", "value": 16, "won": True},
              {"item": "honours", "by": "W", "base": 1, "contra": "none", "value": 1, "won": True}],
    "seats": {"N": -19, "E": 17, "S": -19, "W": 21},
}  # fmt: skip


def test_the_board_score_of_section_5_2_exactly():
    score = GAME.score(BOARD_SCORE_RECORD)
    assert score == BOARD_SCORE
    assert list(score) == list(BOARD_SCORE)
    assert list(score["items"][0]) == ["item", "by", "base", "contra", "value", "won"]


def test_called_card_given_without_a_deal_is_shown():
    score = GAME.score({**example(1), "called": "t18"})
    assert score["called"] == "T18"
    # Not a Partnership game: no called card, no partner.
    assert GAME.score({**example(3), "called": "T18"})["called"] is None


# -- the deal of section 2.3 -----------------------------------------------------------------


def test_the_deal_of_section_2_3():
    deal = GAME.parse_deal(D)
    assert GAME.format_deal(deal) == D
    assert deal.dealer == "N" and deal.eldest == "E"
    cards = {seat: [CARD_TEXT[c] for c in range(40) if deal.hand(seat) >> c & 1] for seat in "NESW"}
    assert cards["N"] == ["T11", "T10", "T9", "T8", "T7", "T6", "T5", "T4", "DT", "CQ"]
    assert cards["E"] == ["F", "T21", "T20", "T19", "T1", "SK", "ST", "HK", "DQ", "CC"]
    assert CARD_TEXT[called_card(deal.hand("E"))] == "T18"
    assert deal.holder(parse_card("T18")) == "S"
    assert deal.set_holder(HONOURS) == "E"
    assert deal.set_holder(KINGS) is None


def test_deal_notation_reads_any_case_and_order():
    loose = (
        "n:4,5,6,7,8,9,10,11...t.q 1,19,20,21,f.tk.k.q.c 15,16,18.cq.cq.k.tj 12,13,14,17.j.tj.jc.k"
    )
    assert GAME.format_deal(GAME.parse_deal(loose)) == D


# -- cards and points ----------------------------------------------------------------------


def test_the_pack_and_its_points():
    assert PACK_SIZE == 40 and len(set(CARD_TEXT)) == 40
    assert sum(CARD_POINTS) == 92
    points = dict(zip(CARD_TEXT, CARD_POINTS, strict=True))
    assert [points[c] for c in ("F", "T21", "T1", "SK", "HQ", "DC", "CJ", "ST", "T20", "T4")] == [
        5, 5, 5, 5, 4, 3, 2, 1, 1, 1
    ]  # fmt: skip
    assert "T2" not in CARD_TEXT and "T3" not in CARD_TEXT
    assert sum(1 for c in CARD_POINTS if c == 1) == 21


def test_the_points_and_tricks_table_of_section_3_5():
    assert FEWEST_POINTS == (0, 5, 10, 15, 20, 25, 33, 45, 61, 81, 102)
    assert MOST_POINTS == (0, 21, 41, 57, 69, 77, 82, 87, 92, 97, 102)
    assert MOST_POINTS[2] < 52 <= MOST_POINTS[3]  # at least 3 tricks to win the bid
    assert FEWEST_POINTS[8] >= 52 > FEWEST_POINTS[7]  # with 8 tricks it always wins


# -- the trick table of section 3.4 --------------------------------------------------------

TRICKS = [
    ("SOLO", "SK T4 SQ F", "F"),
    ("SOLO", "T21 F T1 T5", "T1"),
    ("PART", "HQ HK HT HJ", "HK"),
    ("NT", "HQ T21 HK F", "HK"),
    ("NT", "T7 T12 HK T4", "T12"),
    ("NT", "T9 F T21 T1", "T1"),
    ("NT", "HC F T21 T1", "HC"),
]


@pytest.mark.parametrize(("game", "trick", "winner"), TRICKS)
def test_the_trick_table(game, trick, winner):
    cards = [parse_card(text) for text in trick.split()]
    assert CARD_TEXT[cards[trick_winner(cards, game == "NT")]] == winner


# -- the command line ------------------------------------------------------------------------


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_score_command_on_every_example():
    lines = [json.dumps(record) for _, record, _ in EXAMPLES]
    done = run("score", "--game", "twenty", stdin="\n".join(lines) + "\n")
    assert done.returncode == 0, done.stderr
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [tuple(out["seats"].values()) for out in outs] == [r for *_, r in EXAMPLES]
    assert outs[0]["game"] == "twenty"


def test_score_command_without_game_uses_the_record_s_game(tmp_path):
    path = tmp_path / "records.jsonl"
    path.write_text(json.dumps(BOARD_SCORE_RECORD) + "\n")
    done = run("score", str(path))
    assert done.returncode == 0 and json.loads(done.stdout) == BOARD_SCORE


def test_score_command_reports_bad_lines_and_goes_on():
    lines = [
        "not json",
        "[1, 2]",
        json.dumps({**example(1), "game": "pyramid"}),
        json.dumps({**example(1), "declarer": "E"}),
        json.dumps(example(1)),
    ]
    done = run("score", "--game", "twenty", stdin="\n".join(lines) + "\n")
    assert done.returncode == 1
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(outs) == 5
    assert outs[0]["error"].startswith("not JSON")
    assert outs[1]["error"].startswith("object: ")
    assert outs[2]["error"].startswith("game: ")
    assert outs[3]["error"] == "declarer: unknown field"
    assert outs[4]["seats"] == {"N": -1, "E": 1, "S": -1, "W": 1}


def test_deal_command():
    done = run("deal", "--game", "twenty", "--tables", "2", "--seed", "club")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 8  # 4 boards a table by default
    assert [line[0] for line in lines] == list("NESWNESW")
    for line in lines:
        deal = GAME.parse_deal(line)
        assert GAME.format_deal(deal) == line
    again = run("deal", "--game", "twenty", "--tables", "2", "--seed", "club")
    assert again.stdout == done.stdout
    other = run("deal", "--game", "twenty", "--tables", "2", "--seed", "other")
    assert other.stdout != done.stdout
    six = run("deal", "--game", "twenty", "--tables", "1", "--boards", "6", "--players", "4")
    assert [line[0] for line in six.stdout.splitlines()] == list("NESWNE")
    bad = run("deal", "--game", "twenty", "--tables", "1", "--players", "3")
    assert bad.returncode == 2 and "4" in bad.stderr
