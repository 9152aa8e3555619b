"""Twenty behind the generic game interface: registry, settings, boards and dealers, deals,
entry (the bidding box, records from facts), words and simulation."""

import random

import pytest

from engine.core.errors import RecordError, SettingsError
from engine.games import GAME_IDS, PLAYERS, get_game
from engine.games.base import Game
from engine.games.twenty.cards import parse_card
from engine.games.twenty.game import GAME, TwentyGame

D = "N:11,10,9,8,7,6,5,4...T.Q F,21,20,19,1.KT.K.Q.C 18,16,15.QC.QC.K.JT 17,14,13,12.J.JT.CJ.K"


def test_the_game_is_found_by_id():
    assert "twenty" in GAME_IDS and get_game("twenty") is GAME
    assert isinstance(GAME, TwentyGame) and isinstance(GAME, Game)
    assert (GAME.id, GAME.title, GAME.table_sizes, GAME.entrants) == (
        "twenty",
        "Twenty",
        (4,),
        PLAYERS,
    )
    assert GAME.entry_kind == "twenty-auction"
    assert GAME.scorer_config({}) == {"entry": "twenty-auction"}
    assert GAME.entry_fields == {
        "auction", "contras", "points", "tricks", "last", "called", "partner", "held"
    }  # fmt: skip


def test_settings():
    assert GAME.default_settings == {"boards_per_table": 4}
    assert GAME.settings({"boards_per_table": 8}) == {"boards_per_table": 8}
    for value in (0, 65, "4", True, 4.0):
        with pytest.raises(SettingsError, match=r"^boards_per_table: "):
            GAME.settings({"boards_per_table": value})
    with pytest.raises(SettingsError, match=r"^direction: "):
        GAME.settings({"direction": "clockwise"})
    assert GAME.boards_per_table(GAME.default_settings, 4) == 4
    assert GAME.boards_per_table({"boards_per_table": 6}, 4) == 6
    assert GAME.default_boards(4) == 4
    assert GAME.setting_field("boards_per_table").structural
    assert GAME.describe_settings(GAME.default_settings) == [("Boards per table", 4)]
    assert all(len(row) == 3 for row in GAME.rules_in_detail(GAME.default_settings))


def test_dealers_rotate_from_north():
    assert [GAME.dealer(board, 4) for board in range(1, 10)] == list("NESWNESWN")
    with pytest.raises(ValueError):
        GAME.dealer(1, 3)
    with pytest.raises(ValueError):
        GAME.seats(2)


def test_seeded_deals():
    first = list(GAME.generate_deals(2, 4, 4, seed="club"))
    again = list(GAME.generate_deals(2, 4, 4, seed="club"))
    assert [GAME.format_deal(d) for *_, d in first] == [GAME.format_deal(d) for *_, d in again]
    for table, board, deal in first:
        assert deal.dealer == GAME.dealer(board, 4) and 1 <= table <= 2
        assert GAME.deal_problem(deal, players=4, dealer=deal.dealer) is None
        assert GAME.parse_deal(GAME.format_deal(deal)) == deal
    secure = list(GAME.generate_deals(1, 4, 4))
    assert [deal.dealer for *_, deal in secure] == list("NESW")
    with pytest.raises(ValueError):
        list(GAME.generate_deals(1, 1, 3))


def test_deal_problem():
    deal = GAME.parse_deal(D)
    assert "dealt by N" in GAME.deal_problem(deal, players=4, dealer="E")
    assert "4 players" in GAME.deal_problem(deal, players=3, dealer="N")


def test_hands_in_words():
    rows = GAME.hands_in_words(GAME.parse_deal(D))
    assert [whose for whose, _ in rows] == ["North (dealer)", "East (Eldest)", "South", "West"]
    assert rows[1][1] == "Trumps F 21 20 19 1  ♠ K 10  ♥ K  ♦ Q  ♣ C"
    assert rows[0][1].endswith("♠ —  ♥ —  ♦ 10  ♣ Q")


def test_describe():
    score = GAME.score(
        {"dealer": "N", "auction": ["E:PART", "S:P", "W:P+SPARROW", "N:P"],
         "contras": {"bid": "contra", "sparrow": "re"}, "points": 58, "tricks": 6,
         "last": {"seat": "W", "card": "T1"}, "held": "W"}
    )  # fmt: skip
    assert GAME.describe(score) == (
        "East's Partnership with West: 58 points, 6 tricks, won (contra'd, worth 2); West's "
        "Sparrow (re-contra'd, worth 16) won; West held the Honours (1 from each). "
        "Result: N −19, E +17, S −19, W +21"
    )
    solo = GAME.score({"dealer": "E", "auction": ["S:PART", "W:NT", "N:SOLO", "E:P", "S:P",
                       "W:P"], "points": 40, "tricks": 1 + 3})  # fmt: skip
    assert GAME.describe(solo).startswith(
        "North's Solo: 40 points, 4 tricks, lost (worth 4). Result: "
    )
    assert "\n" not in GAME.describe(solo)


def test_the_bidding_box():
    opening = GAME.entry_options(dealer="N")
    assert opening["seat"] == "E" and opening["eldest"] == "E"
    assert opening["calls"] == ["PART", "PART+SPARROW", "PART+SLAM", "PART+SPARROW+SLAM"]
    assert opening["complete"] is False
    after = GAME.entry_options(dealer="N", auction=["E:PART"])
    assert after["seat"] == "S"
    assert after["calls"] == ["P", "P+SPARROW", "NT", "NT+SPARROW", "NT+SLAM", "NT+SPARROW+SLAM"]
    # The same with ``calls`` as the context's name.
    assert GAME.entry_options(dealer="N", calls=["E:PART"])["calls"] == after["calls"]
    sparrow = GAME.entry_options(dealer="N", auction=["E:PART+SPARROW"])
    assert "P+SPARROW" not in sparrow["calls"]
    after_solo = GAME.entry_options(dealer="N", auction=["E:PART", "S:NT", "W:SOLO"])
    assert after_solo["seat"] == "N" and after_solo["calls"] == ["P"]
    done = GAME.entry_options(dealer="N", auction=["E:PART", "S:P", "W:P+SPARROW", "N:P"])
    assert done["complete"] and done["seat"] is None and done["calls"] == []
    assert done["contras"]["items"] == ["bid", "sparrow"]
    assert done["needs_last"] is True and done["needs_partner"] is False
    assert done["needs_held"] is True and done["held"] == "honours"
    assert done["partners"] == ["W"] and done["needs_called"] is True
    assert done["called_cards"] == [f"T{n}" for n in range(20, 3, -1)]
    plain = GAME.entry_options(dealer="N", auction=["E:PART", "S:P", "W:P", "N:P"])
    assert plain["needs_partner"] is True and plain["needs_last"] is False
    assert plain["partners"] == ["S", "W", "N"]
    # A deal in the context is never read: the box is the same, and every seat after Eldest
    # is offered the Sparrow without a bid.
    for prefix in (["E:PART"], ["E:PART", "S:P"], ["E:PART", "S:NT", "W:P", "N:P", "E:P"]):
        assert GAME.entry_options(deal=D, auction=prefix) == GAME.entry_options(auction=prefix)
    assert "P+SPARROW" in GAME.entry_options(deal=D, auction=["E:PART", "S:P"])["calls"]
    nt = GAME.entry_options(dealer="N", auction=["E:PART", "S:NT", "W:P", "N:P", "E:P"])
    assert nt["needs_partner"] is False and nt["partners"] == [] and nt["called_cards"] == []
    assert nt["needs_called"] is False and nt["needs_held"] is True and nt["held"] == "kings"
    assert nt["held_seats"] == ["N", "E", "S", "W"]
    with pytest.raises(RecordError, match=r"^auction: "):
        GAME.entry_options(dealer="N", auction=["S:PART"])


RULEBOOK_FEWEST = [0, 5, 10, 15, 20, 25, 33, 45, 61, 81, 102]
RULEBOOK_MOST = [0, 21, 41, 57, 69, 77, 82, 87, 92, 97, 102]


def test_the_last_trick_is_offered_to_the_seats_whose_side_took_a_trick():
    sparrow = ["E:PART+SPARROW", "S:P", "W:P", "N:P"]
    seats = {
        tricks: GAME.entry_options(dealer="N", auction=sparrow, partner="W", tricks=tricks)[
            "last_seats"
        ]
        for tricks in (None, 0, 5, 10)
    }
    assert seats == {None: list("NESW"), 0: ["N", "S"], 5: list("NESW"), 10: ["E", "W"]}
    # The partner not named yet, any seat but the declarer may be on either side.
    unnamed = GAME.entry_options(dealer="N", auction=sparrow, tricks=0)["last_seats"]
    assert unnamed == ["N", "S", "W"]
    # The announcer of the Sparrow without a bid is the partner, named or not.
    theirs = ["E:PART", "S:P", "W:P+SPARROW", "N:P"]
    assert GAME.entry_options(dealer="N", auction=theirs, tricks=10)["last_seats"] == ["E", "W"]
    solo = ["E:PART", "S:NT", "W:SOLO+SPARROW", "N:P", "E:P", "S:P"]
    assert GAME.entry_options(dealer="N", auction=solo, tricks=0)["last_seats"] == list("NES")
    assert GAME.entry_options(dealer="N", auction=solo, tricks=10)["last_seats"] == ["W"]


RULEBOOK_FEWEST = [0, 5, 10, 15, 20, 25, 33, 45, 61, 81, 102]
RULEBOOK_MOST = [0, 21, 41, 57, 69, 77, 82, 87, 92, 97, 102]


def test_the_entry_form_never_reads_the_deal():
    form = GAME.entry_form(players=4, dealer="N", settings={}, table=2, deal=D)
    # The form is on North's phone before play: the same whatever the deal.
    assert form == GAME.entry_form(players=4, dealer="N", settings={}, table=2, deal=None)
    assert form == GAME.entry_form(dealer="N")
    assert form["dealer"] == "N" and form["eldest"] == "E"
    assert not {"partner", "called", "held", "secrets", "deal_known"} & set(form)
    assert form["needs_partner"] is form["needs_called"] is form["needs_held"] is True
    assert form["note"] == "North deals; East (Eldest) opens Partnership."
    assert not hasattr(GAME, "entry_secrets") or GAME.entry_secrets(deal=D) is None
    assert form["fewest_points"] == RULEBOOK_FEWEST and form["most_points"] == RULEBOOK_MOST
    assert form["points"] == [0, 102] and form["tricks"] == [0, 10] and form["target"] == 52
    assert [level for level, _ in form["levels"]] == ["none", "contra", "re", "sub"]
    assert [item for item, _ in form["items"]] == ["bid", "sparrow", "slam"]
    codes = [code for code, _name, _group in form["cards"]]
    assert len(set(codes)) == 40 and codes[0] == "F" and codes[19] == "T1"
    assert [parse_card(code) for code in codes] == list(range(40))
    assert form["cards"][19][1] == "1 (The Magician)" and form["cards"][20][1] == "King of spades"
    assert form["called_cards"] == [f"T{n}" for n in range(20, 3, -1)]
    # The dealer is the board's, told by the context.
    assert GAME.entry_form(dealer="S", deal=D)["eldest"] == "W"
    # The form's cards are every card the record's last trick may name.
    for code, _name, _group in form["cards"]:
        facts = {
            "auction": ["N:PART+SPARROW", "E:P", "S:P", "W:P"],
            "partner": "S",
            "called": "T20",
            "points": 60,
            "tricks": 6,
            "last": {"seat": "N", "card": code},
        }
        record = GAME.entry_record(facts, settings={}, table=1, players=4, dealer="W", deal="")
        assert GAME.score(record)["items"][1]["won"] is (code == "T1")


def test_an_entry_becomes_a_record_that_scores():
    facts = {
        "auction": ["E:PART+SPARROW", "S:P", "W:P", "N:P"],
        "contras": {"sparrow": "contra"},
        "points": 70,
        "tricks": 7,
        "last": {"seat": "E", "card": "T1"},
    }
    record = GAME.entry_record(facts, settings={}, table=1, players=4, dealer="N", deal=D)
    assert record["deal"] == D and record["dealer"] == "N" and record["game"] == "twenty"
    score = GAME.score(record)
    assert score["seats"] == {"N": -10, "E": 12, "S": 8, "W": -10}
    # What the table knows after play: the partner (S holds T18, the card E's Partnership
    # calls) and E's Honours, shown at the end.
    told = {**facts, "partner": "S", "called": "T18", "held": "E"}
    assert GAME.scorer_facts(record, score) == told
    again = GAME.entry_record(told, settings={}, table=1, players=4, dealer="N", deal="")
    assert GAME.score(again) == score and GAME.entry_problem(again, score) is None
    assert GAME.totals_entry(score, "E") == (12, 0)
    words = dict(GAME.entry_in_words(record, score))
    assert words["Auction"] == ("East: Partnership + Sparrow, South: Pass, West: Pass, North: Pass")
    assert words["Contract"] == "Partnership by East"
    assert words["Declarer's side"] == "East and South"
    assert (words["Its points"], words["Its tricks"]) == ("70", "7")
    assert words["Partner"] == "South (called the 18 of trumps)"
    assert words["Last trick"] == "East with 1 (The Magician)"
    assert words["Held honours"] == "East"


def test_an_entry_without_a_deal_carries_partner_and_holder():
    record = {
        "dealer": "N",
        "auction": ["e:Partnership", "s:pass", "w:pass", "n:pass"],
        "partner": "w",
        "called": "t18",
        "points": 57,
        "tricks": 6,
        "held": "s",
    }
    score = GAME.score(record)
    facts = GAME.scorer_facts(record, score)
    assert facts == {
        "auction": ["E:PART", "S:P", "W:P", "N:P"],
        "points": 57,
        "tricks": 6,
        "partner": "W",
        "called": "T18",
        "held": "S",
    }
    again = GAME.entry_record(facts, settings={}, table=3, players=4, dealer="N", deal="")
    assert "deal" not in again and GAME.score(again) == score


def test_simulation_is_reproducible_and_scores():
    for board in range(1, 41):
        deal = GAME.seeded_deal("sim", 1, board, 4)
        record = GAME.simulate_record(deal, random.Random(board), GAME.default_settings)
        again = GAME.simulate_record(
            GAME.format_deal(deal), random.Random(board), {}, declarations=None
        )
        assert record == again
        score = GAME.score(record)
        assert sum(score["seats"].values()) == 0
        facts = GAME.scorer_facts(record, score)
        assert set(facts) <= GAME.entry_fields
        # North's entry scores the same without the deal: no simulated board goes to the
        # director.
        plain = GAME.entry_record(
            facts, settings={}, table=1, players=4, dealer=score["dealer"], deal=""
        )
        assert GAME.score(plain) == score and GAME.entry_problem(plain, score) is None


def test_table_context():
    assert GAME.table_context({}, 1) == {"facts": [("Play", "clockwise (N → E → S → W)")]}
