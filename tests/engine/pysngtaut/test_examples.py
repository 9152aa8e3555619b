# The records are copied verbatim from the rulebook, one line each as it prints them.
# ruff: noqa: E501
"""Every worked example of the rulebook (section 7), the score shape of 5.2, the deal notation
example of 2.3 and the command line."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.__main__ import score_line
from engine.games import get_game

GAME = get_game("pysngtaut")
ROOT = Path(__file__).resolve().parents[3]

# (record, seats, payments as (from, to, amount, for)) of 7.1 to 7.12.
EXAMPLES = {
    "7.1": (
        '{"game": "pysngtaut", "players": 4, "up": "2C", "winner": "E", "melds": {"E": [["KH", "KD", "KS", "KC"], ["9H", "9H", "9D", "9D"], ["5S", "5S", "5C", "5C"], ["QH", "QD", "QS"]]}, "hands": {"N": ["JS", "7C", "7C", "2H"], "S": ["AS", "3D"], "W": ["TH"]}}',
        {"N": -24670, "E": 73890, "S": -24610, "W": -24610},
        [
            ("N", "E", 24670, "settlement"),
            ("S", "E", 24610, "settlement"),
            ("W", "E", 24610, "settlement"),
        ],
    ),
    "7.2": (
        '{"game": "pysngtaut", "players": 3, "up": "7D", "winner": "N", "melds": {"N": [["8H", "8S", "8D", "8C"], ["4H", "4D", "7S", "7C"], ["TH", "TH", "TD"], ["6S", "6C", "7H"]]}, "hands": {"E": ["KS", "7H", "5C"], "S": ["JH", "JD", "QC", "9S"]}}',
        {"N": 33215, "E": -16555, "S": -16660},
        [("E", "N", 16555, "settlement"), ("S", "N", 16660, "settlement")],
    ),
    "7.3": (
        '{"game": "pysngtaut", "players": 4, "up": "QS", "winner": "W", "god": "W", "melds": {"W": [["JH", "JD", "JC", "QH"], ["6H", "6H", "6D", "6C", "6C"], ["KH", "KD", "QD"]]}, "hands": {"N": ["8D", "8D"], "E": ["QC", "AH"], "S": ["KS", "4C", "4C"]}}',
        {"N": -24040, "E": -24010, "S": -24120, "W": 72170},
        [
            ("N", "W", 24040, "settlement"),
            ("E", "W", 24010, "settlement"),
            ("S", "W", 24120, "settlement"),
        ],
    ),
    "7.4": (
        '{"game": "pysngtaut", "players": 2, "up": "5H", "winner": "N", "god": "E", "melds": {"N": [["AS", "AS", "AC", "AC"], ["9H", "9D", "9S", "9C"], ["JH", "JS", "JD"]]}, "hands": {"E": ["KC", "TD", "5D", "2S"]}}',
        {"N": 44330, "E": -44330},
        [("E", "N", 44330, "settlement")],
    ),
    "7.5": (
        '{"game": "pysngtaut", "players": 4, "up": "JK", "winner": "S", "melds": {"S": [["7H", "7H", "7D", "7D"], ["KH", "KS", "KD", "KC"], ["4S", "4S", "4C"]]}, "hands": {"N": ["2H", "2D", "QH"], "E": ["9C"], "W": ["AH", "AD", "6S"]}}',
        {"N": -27120, "E": -27020, "S": 81180, "W": -27040},
        [
            ("N", "S", 27120, "settlement"),
            ("E", "S", 27020, "settlement"),
            ("W", "S", 27040, "settlement"),
        ],
    ),
    "7.6": (
        '{"game": "pysngtaut", "players": 3, "up": "9C", "dead": true, "god": "E", "melds": {"N": [["5H", "5H", "5D", "5D"]]}, "hands": {"N": ["KH", "3C", "3C", "9S"], "E": ["QD", "QS", "TD"], "S": ["8H"]}, "penalties": [{"seat": "N", "kind": "improper_meld"}]}',
        {"N": -120, "E": -220, "S": -10},
        [
            ("N", "pot", 60, "pot"),
            ("N", "pot", 60, "improper_meld"),
            ("E", "pot", 220, "pot"),
            ("S", "pot", 10, "pot"),
        ],
    ),
    "7.7": (
        '{"game": "pysngtaut", "players": 4, "up": "4D", "winner": "N", "melds": {"N": [["TH", "TH", "TD", "TD", "4S"], ["8S", "8S", "8C", "8C"], ["KS", "KH", "4C"]]}, "hands": {"E": ["6H", "6D"], "S": ["QC", "JK"], "W": ["AC"]}, "penalties": [{"seat": "E", "kind": "improper_meld"}]}',
        {"N": 46495, "E": -23240, "S": -11650, "W": -11605},
        [
            ("E", "N", 11620, "settlement"),
            ("E", "N", 11620, "improper_meld"),
            ("S", "N", 11650, "settlement"),
            ("W", "N", 11605, "settlement"),
        ],
    ),
    "7.8": (
        '{"game": "pysngtaut", "players": 4, "up": "8H", "winner": "W", "god": "W", "melds": {"W": [["5H", "5H", "5D", "5D"], ["JS", "JC", "JD", "8S"], ["2H", "2D", "2S"]]}, "hands": {"E": ["9H", "6C"], "S": ["KD"]}, "penalties": [{"seat": "N", "kind": "improper_draw"}]}',
        {"N": -75000, "E": -25040, "S": -25100, "W": 125140},
        [
            ("N", "W", 25000, "settlement"),
            ("N", "W", 50000, "improper_draw"),
            ("E", "W", 25040, "settlement"),
            ("S", "W", 25100, "settlement"),
        ],
    ),
    "7.9": (
        '{"game": "pysngtaut", "players": 3, "up": "3S", "winner": "E", "melds": {"E": [["QH", "QD", "QS", "QC"], ["7H", "7D", "7S", "3H"], ["6H", "6D", "3C"]], "N": [["TS", "TS", "TC", "TC"]], "S": [["AH", "AH", "AD", "AD"]]}, "hands": {"N": ["KC", "9D"], "S": ["4H"]}, "penalties": [{"seat": "N", "kind": "out_of_turn"}]}',
        {"N": -16680, "E": 22625, "S": -5945},
        [
            ("N", "E", 7560, "settlement"),
            ("S", "E", 7505, "settlement"),
            ("N", "E", 7560, "out_of_turn"),
            ("N", "S", 1560, "out_of_turn"),
        ],
    ),
    "7.10": (
        '{"game": "pysngtaut", "players": 2, "up": "TC", "winner": "N", "melds": {"N": [["KH", "KD", "KS", "TH"], ["2C", "2C", "2S", "2S"]], "E": [["9H", "9H", "9D", "9D"]]}, "hands": {"E": ["JH", "6C", "6C"]}, "penalties": [{"seat": "N", "kind": "out_of_turn"}]}',
        {"N": -3670, "E": 3670},
        [("N", "E", 2170, "settlement"), ("N", "E", 1500, "out_of_turn")],
    ),
    "7.11": (
        '{"game": "pysngtaut", "players": 4, "up": "KH", "winner": "N", "options": {"face_wild_triple": true, "own_sets_offset": true}, "melds": {"N": [["QH", "QD", "QS", "KS"], ["8H", "8H", "8D", "8D"], ["JH", "JD", "KD"]], "E": [["4S", "4S", "4C", "4C"]], "W": [["3H", "3H", "3D", "3D"], ["7S", "7S", "7C", "7C", "7D"], ["9S", "9S", "9C"], ["AS", "AS", "AD"]]}, "hands": {"E": ["5C", "KC"], "S": ["TS"], "W": ["AC", "AC"]}}',
        {"N": 71745, "E": -34215, "S": -37530, "W": 0},
        [("E", "N", 34215, "settlement"), ("S", "N", 37530, "settlement")],
    ),
    "7.12": (
        '{"game": "pysngtaut", "players": 2, "up": "6C", "winner": "E", "options": {"set_values": {"4-natural-black": 3000, "3-number-wild": 1000}}, "melds": {"E": [["8S", "8S", "8C", "8C"], ["JH", "JD", "JS", "6H"], ["2H", "2H", "6D"]]}, "hands": {"N": ["KS", "6S"]}}',
        {"N": -5050, "E": 5050},
        [("N", "E", 5050, "settlement")],
    ),
}
# The categories and hand values the examples spell out.
DETAILS = {
    "7.1": (
        ["4-natural-face", "4-natural-red", "4-natural-black", "3-natural-face"],
        {"N": 70, "E": 0, "S": 10, "W": 10},
        "2",
        1,
    ),
    "7.2": (
        ["4-natural", "4-number-wild", "3-natural-number", "3-number-wild"],
        {"N": 0, "E": 55, "S": 160},
        "7",
        1,
    ),
    "7.3": (
        ["4-face-wild", "4-natural", "3-face-wild"],
        {"N": 20, "E": 5, "S": 60, "W": 0},
        "Q",
        1,
    ),
    "7.4": (["4-natural-black", "4-natural", "3-natural-face"], {"N": 0, "E": 65}, "5", 1),
    "7.5": (
        ["4-natural-red", "4-natural-face", "3-natural-number"],
        {"N": 60, "E": 10, "S": 0, "W": 20},
        None,
        2,
    ),
    "7.6": ([], {"N": 60, "E": 110, "S": 10}, "9", 1),
    "7.7": (
        ["4-number-wild", "4-natural-black", "3-face-wild"],
        {"N": 0, "E": 20, "S": 50, "W": 5},
        "4",
        1,
    ),
    "7.8": (
        ["4-natural-red", "4-face-wild", "3-natural-number"],
        {"N": 0, "E": 20, "S": 50, "W": 0},
        "8",
        1,
    ),
    "7.9": (
        ["4-natural-face", "4-number-wild", "3-number-wild"],
        {"N": 60, "E": 0, "S": 5},
        "3",
        1,
    ),
    "7.10": (["4-face-wild", "4-natural-black"], {"N": 0, "E": 70}, "T", 1),
    "7.11": (
        ["4-face-wild", "4-natural-red", "3-face-wild"],
        {"N": 0, "E": 5, "S": 10, "W": 10},
        "K",
        3,
    ),
    "7.12": (["4-natural-black", "4-face-wild", "3-number-wild"], {"N": 50, "E": 0}, "6", 1),
}


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_example(name):
    text, seats, payments = EXAMPLES[name]
    score = GAME.score(json.loads(text))
    assert score["seats"] == seats
    assert [(p["from"], p["to"], p["amount"], p["for"]) for p in score["payments"]] == payments
    categories, hand_values, wild, multiplier = DETAILS[name]
    assert [entry["category"] for entry in score["sets"]] == categories
    assert score["hand_values"] == hand_values
    assert (score["wild"], score["multiplier"]) == (wild, multiplier)


@pytest.mark.parametrize("name", EXAMPLES)
def test_worked_example_through_score_line(name):
    text, seats, _payments = EXAMPLES[name]
    out, ok = score_line(text, "pysngtaut")
    assert ok and out["seats"] == seats
    # The record's own game is enough without --game.
    out, ok = score_line(text)
    assert ok and out["seats"] == seats


def test_the_board_score_of_5_2():
    score = GAME.score(json.loads(EXAMPLES["7.9"][0]))
    assert score == {
        "game": "pysngtaut",
        "players": 3,
        "winner": "E",
        "dead": False,
        "wild": "3",
        "multiplier": 1,
        "god": None,
        "sets": [
            {"cards": ["QH", "QD", "QS", "QC"], "category": "4-natural-face", "value": 2000},
            {"cards": ["7H", "7D", "7S", "3H"], "category": "4-number-wild", "value": 500},
            {"cards": ["6H", "6D", "3C"], "category": "3-number-wild", "value": 5000},
        ],
        "hand_values": {"N": 60, "E": 0, "S": 5},
        "payments": [
            {"from": "N", "to": "E", "amount": 7560, "for": "settlement"},
            {"from": "S", "to": "E", "amount": 7505, "for": "settlement"},
            {"from": "N", "to": "E", "amount": 7560, "for": "out_of_turn"},
            {"from": "N", "to": "S", "amount": 1560, "for": "out_of_turn"},
        ],
        "seats": {"N": -16680, "E": 22625, "S": -5945},
    }
    assert list(score) == [
        "game",
        "players",
        "winner",
        "dead",
        "wild",
        "multiplier",
        "god",
        "sets",
        "hand_values",
        "payments",
        "seats",
    ]


def test_example_7_6_dead_board_score():
    score = GAME.score(json.loads(EXAMPLES["7.6"][0]))
    assert score["winner"] is None and score["dead"] is True and score["sets"] == []
    assert score["god"] == "E"
    # The rulebook says "the pot, 410": its own payments add up to 60 + 60 + 220 + 10 = 350.
    assert sum(score["seats"].values()) == -350


def test_example_7_7_joker_in_hand_is_worth_nothing():
    score = GAME.score(json.loads(EXAMPLES["7.7"][0]))
    assert score["hand_values"]["S"] == 50 and score["god"] is None


def test_cards_as_entered_are_upper_cased():
    record = json.loads(EXAMPLES["7.1"][0].lower().replace('"pysngtaut"', '"pysngtaut"'))
    record["winner"] = "E"
    record["melds"] = {"E": record["melds"]["e"]}
    record["hands"] = {seat.upper(): cards for seat, cards in record["hands"].items()}
    score = GAME.score(record)
    assert score["sets"][0]["cards"] == ["KH", "KD", "KS", "KC"]
    assert score["seats"] == EXAMPLES["7.1"][1]


EXAMPLE_DEAL = (
    "E:7D 8CJC9S3DTD7D3C 6S6C9HAS5C4H5S 4SQS4CKC5SKH5C 9HJS2H4D6S9DJD QC9CJKTDAS4H8HAHTC8S9S9D5H2"
    "DJH2DTC8DTH5DAC2C7C4C8SQD8H3C3H9C7CQH AD3S4DTS7SKD7H8DTH6HAH3H2C2SAD8C6D7HKS4S5HTS6H7S2S3DAC"
    "3S5D2H6C6D"
)


def test_the_deal_of_2_3():
    deal = GAME.parse_deal(EXAMPLE_DEAL)
    assert (deal.dealer, deal.players) == ("E", 4)
    assert GAME.format_deal(deal) == EXAMPLE_DEAL
    from engine.games.pysngtaut.cards import CARD_TEXT

    assert CARD_TEXT[deal.up] == "7D" and deal.wild == 6
    assert [CARD_TEXT[c] for c in deal.hand("E")][:2] == ["8C", "JC"]
    assert next(CARD_TEXT[c] for c in deal.hand("N")) == "9H"
    assert CARD_TEXT[deal.pile1[0]] == "QC" and CARD_TEXT[deal.pile2[0]] == "AD"
    assert len(deal.pile1) == len(deal.pile2) == 32
    record = {
        "deal": EXAMPLE_DEAL,
        "winner": "E",
        **{k: v for k, v in json.loads(EXAMPLES["7.1"][0]).items() if k in ("melds", "hands")},
    }
    record["melds"] = {"E": [["KH", "KD", "KS", "KC"], ["9H", "9H", "9D", "9D"]]}
    score = GAME.score(record)
    assert score["players"] == 4 and score["wild"] == "7"


def _run(*args, data=None):
    return subprocess.run(
        [sys.executable, "-m", "engine", *args],
        cwd=ROOT,
        input=data,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_command_line_scores_every_example(tmp_path):
    path = tmp_path / "records.jsonl"
    path.write_text("\n".join(text for text, _s, _p in EXAMPLES.values()) + "\n")
    done = _run("score", "--game", "pysngtaut", str(path))
    assert done.returncode == 0, done.stderr
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert [out["seats"] for out in outs] == [seats for _t, seats, _p in EXAMPLES.values()]


def test_the_command_line_reports_bad_records():
    lines = [
        '{"players": 4, "up": "2C"}',
        "not json",
        '{"game": "pyramid", "up": "2C", "dead": true}',
        EXAMPLES["7.4"][0],
    ]
    done = _run("score", "--game", "pysngtaut", data="\n".join(lines) + "\n")
    assert done.returncode == 1
    outs = [json.loads(line) for line in done.stdout.splitlines()]
    assert outs[0] == {"error": "winner: missing (the seat that went out; or dead: true)"}
    assert outs[1]["error"].startswith("not JSON")
    assert outs[2]["error"].startswith("game: ")
    assert outs[3]["seats"] == {"N": 44330, "E": -44330}


def test_the_command_line_deals():
    done = _run("deal", "--game", "pysngtaut", "--tables", "2", "--seed", "club")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.split()
    deals = [line for line in done.stdout.splitlines()]
    assert len(deals) == 8  # 2 tables × 4 boards (4 players by default)
    assert [d[0] for d in deals] == list("NESW") * 2
    assert _run("deal", "--game", "pysngtaut", "--tables", "2", "--seed", "club").stdout == (
        done.stdout
    )
    for deal in deals:
        GAME.parse_deal(deal)
    three = _run(
        "deal",
        "--game",
        "pysngtaut",
        "--tables",
        "1",
        "--players",
        "3",
        "--boards",
        "5",
        "--seed",
        "x",
    )
    deals3 = three.stdout.splitlines()
    assert [d[0] for d in deals3] == list("NESNE")
    for deal in deals3:
        parsed = GAME.parse_deal(deal)
        assert parsed.players == 3 and parsed.pile2[-1] == parsed.up
    bad = _run("deal", "--game", "pysngtaut", "--tables", "1", "--players", "5")
    assert bad.returncode == 2
    assert lines
