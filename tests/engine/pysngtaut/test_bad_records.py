"""Every kind of bad record of the rulebook's section 6: each is refused, never scored, with
``{"error": "FIELD: REASON"}`` naming the field."""

import copy
import json

import pytest

from engine.__main__ import score_line
from engine.core.errors import RecordError
from engine.games import get_game

GAME = get_game("pysngtaut")
# Example 7.9 (three players, threes wild, a loser's sets, a penalty): every kind is one change.
BASE = {
    "game": "pysngtaut",
    "players": 3,
    "up": "3S",
    "winner": "E",
    "melds": {
        "E": [["QH", "QD", "QS", "QC"], ["7H", "7D", "7S", "3H"], ["6H", "6D", "3C"]],
        "N": [["TS", "TS", "TC", "TC"]],
        "S": [["AH", "AH", "AD", "AD"]],
    },
    "hands": {"N": ["KC", "9D"], "S": ["4H"]},
    "penalties": [{"seat": "N", "kind": "out_of_turn"}],
}
DEAD = {
    "game": "pysngtaut",
    "players": 3,
    "up": "9C",
    "dead": True,
    "god": "E",
    "melds": {"N": [["5H", "5H", "5D", "5D"]]},
    "hands": {"N": ["KH", "3C", "3C", "9S"], "E": ["QD", "QS", "TD"], "S": ["8H"]},
}
DEAL4 = (
    "E:7D 8CJC9S3DTD7D3C 6S6C9HAS5C4H5S 4SQS4CKC5SKH5C 9HJS2H4D6S9DJD QC9CJKTDAS4H8HAHTC8S9S9D5H2"
    "DJH2DTC8DTH5DAC2C7C4C8SQD8H3C3H9C7CQH AD3S4DTS7SKD7H8DTH6HAH3H2C2SAD8C6D7HKS4S5HTS6H7S2S3DAC"
    "3S5D2H6C6D"
)
FOUR = {
    "players": 4,
    "up": "2C",
    "winner": "E",
    "melds": {"E": [["KH", "KD", "KS", "KC"], ["9H", "9H", "9D", "9D"]]},
    "hands": {"N": ["JS"], "S": ["AS"], "W": ["TH"]},
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


def melds(base, seat, sets):
    record = copy.deepcopy(base)
    record["melds"][seat] = sets
    return record


def field_of(record, settings=None):
    with pytest.raises(RecordError) as error:
        GAME.score(record, settings)
    message = str(error.value)
    assert message.startswith(f"{error.value.field}: ") and error.value.reason
    # The command line gives the same message as {"error": ...}.
    out, ok = score_line(json.dumps(record), "pysngtaut")
    assert not ok and out == {"error": message}
    return error.value.field


def test_the_bases_score():
    assert GAME.score(BASE)["seats"] == {"N": -16680, "E": 22625, "S": -5945}
    assert GAME.score(DEAD)["dead"] is True
    assert GAME.score(FOUR)["winner"] == "E"
    assert GAME.score(changed(FOUR, deal=DEAL4, up=...))["wild"] == "7"


# 1. not JSON, or not a JSON object.
@pytest.mark.parametrize("line", ["{", "not json", "[1, 2", "{'a': 1}"])
def test_1_not_json(line):
    out, ok = score_line(line, "pysngtaut")
    assert not ok and out["error"].startswith("not JSON")


@pytest.mark.parametrize("line", ["[]", "3", '"text"', "null", "true", "[{}]"])
def test_1_not_an_object(line):
    out, ok = score_line(line, "pysngtaut")
    assert not ok and out["error"].startswith("object: ")


# 2. game
@pytest.mark.parametrize("game", ["pyramid", "pymtheg", "PYSNGTAUT", "Pysngtaut", 3, True, ""])
def test_2_game(game):
    assert field_of(changed(BASE, game=game)) == "game"


def test_2_game_may_be_left_out_or_null():
    assert GAME.score(changed(BASE, game=...))["winner"] == "E"
    assert GAME.score(changed(BASE, game=None))["winner"] == "E"


def test_2_the_command_line_game_must_match():
    out, ok = score_line(json.dumps(BASE), "pyramid")
    assert not ok and out["error"].startswith("game: ")


# 3. unknown fields
@pytest.mark.parametrize("name", ["dealer", "board", "Winner", "meld", "score", "seats", "wild"])
def test_3_unknown_field(name):
    assert field_of(changed(BASE, **{name: 1})) == name


def test_3_unknown_field_in_a_penalty():
    record = changed(BASE, penalties=[{"seat": "N", "kind": "out_of_turn", "amount": 5}])
    assert field_of(record) == "penalties[0].amount"


def test_3_a_null_unknown_field_is_absent():
    assert GAME.score(changed(BASE, comment=None))["winner"] == "E"


# 4. players
@pytest.mark.parametrize("players", [5, 1, 0, -1, "4", 4.0, 3.0, True, False, [3], {"n": 3}])
def test_4_players(players):
    assert field_of(changed(BASE, players=players)) == "players"


def test_4_players_default_to_four_or_the_deal():
    assert GAME.score(changed(FOUR, players=...))["players"] == 4
    record = changed(FOUR, players=..., up=..., deal=DEAL4)
    assert GAME.score(record)["players"] == 4


# 5. direction
@pytest.mark.parametrize("direction", ["left", "cw", "", 1, True, ["clockwise"]])
def test_5_direction(direction):
    assert field_of(changed(BASE, direction=direction)) == "direction"


@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise", "Clockwise", None])
def test_5_direction_accepted_and_unused(direction):
    assert GAME.score(changed(BASE, direction=direction))["seats"]["E"] == 22625


# 6. options
@pytest.mark.parametrize(
    ("options", "field"),
    [
        ([], "options"),
        ("face_wild_triple", "options"),
        (True, "options"),
        ({"wild_triple": True}, "options.wild_triple"),
        ({"face_wild_triple": 1}, "options.face_wild_triple"),
        ({"face_wild_triple": "true"}, "options.face_wild_triple"),
        ({"own_sets_offset": "on"}, "options.own_sets_offset"),
        ({"same_colour_sets": 0}, "options.same_colour_sets"),
        ({"set_values": []}, "options.set_values"),
        ({"set_values": 5}, "options.set_values"),
        ({"set_values": True}, "options.set_values"),
        ({"set_values": {"4-natural-purple": 1}}, "options.set_values.4-natural-purple"),
        ({"set_values": {"4-natural": -1}}, "options.set_values.4-natural"),
        ({"set_values": {"4-natural": 1.5}}, "options.set_values.4-natural"),
        ({"set_values": {"4-natural": 100.0}}, "options.set_values.4-natural"),
        ({"set_values": {"4-natural": "100"}}, "options.set_values.4-natural"),
        ({"set_values": {"4-natural": True}}, "options.set_values.4-natural"),
        ({"set_values": {"4-natural": None}}, "options.set_values.4-natural"),
    ],
)
def test_6_options(options, field):
    assert field_of(changed(BASE, options=options)) == field


def test_6_every_option_off_and_on_is_accepted():
    names = [
        "same_colour_sets",
        "same_colour_wilds",
        "number_wilds_not_in_face_sets",
        "face_wild_triple",
        "god_draws_seven",
        "pickup_draws_seven",
        "own_sets_offset",
    ]
    assert GAME.score(changed(BASE, options=dict.fromkeys(names, False)))["seats"]["E"] == 22625
    assert GAME.score(changed(FOUR, options={**dict.fromkeys(names, True), "set_values": {}}))
    assert GAME.score(changed(BASE, options={"set_values": {"4-natural": 0}}))


# 7. up
@pytest.mark.parametrize("up", ["10S", "1S", "XS", "S3", "3", "JKR", "", 3, True, ["3S"]])
def test_7_up_not_a_card(up):
    assert field_of(changed(BASE, up=up)) == "up"


def test_7_up_missing_without_a_deal():
    assert field_of(changed(BASE, up=...)) == "up"
    assert field_of(changed(BASE, up=None)) == "up"


@pytest.mark.parametrize("up", ["3s", "3S", "3s"])
def test_7_up_in_any_case(up):
    assert GAME.score(changed(BASE, up=up))["wild"] == "3"


# 8. deal
@pytest.mark.parametrize(
    "deal",
    [
        "junk",
        "",
        "X:" + DEAL4[2:],
        DEAL4[:-2],
        DEAL4 + "2S",
        DEAL4.replace("8CJC", "8CXX"),
        DEAL4.replace(" 6S6C9HAS5C4H5S", ""),
        DEAL4.replace("QC9C", "QC9H"),
        5,
        ["E:..."],
    ],
)
def test_8_deal_not_valid(deal):
    assert field_of(changed(FOUR, up=..., deal=deal)) == "deal"


def test_8_deal_disagrees_with_players_or_up():
    assert field_of(changed(FOUR, up=..., deal=DEAL4, players=3)) == "deal"
    assert field_of(changed(FOUR, up="2C", deal=DEAL4)) == "deal"
    assert GAME.score(changed(FOUR, up="7d", deal=DEAL4))["wild"] == "7"


# 9. a card in melds or hands not in the notation
@pytest.mark.parametrize("card", ["10H", "1H", "QX", "Q", "QHH", "", "J K", 12, None, True, ["QH"]])
def test_9_card_in_melds(card):
    record = melds(BASE, "E", [["QH", "QD", "QS", card], ["7H", "7D", "7S", "3H"]])
    assert field_of(record) == "melds.E[0][3]"


@pytest.mark.parametrize("card", ["10C", "KX", "K", 13, None, {"c": "KC"}])
def test_9_card_in_hands(card):
    assert field_of(changed(BASE, hands={"N": ["KC", card], "S": ["4H"]})) == "hands.N[1]"


# 10. the outcome
def test_10_no_winner_and_not_dead():
    assert field_of(changed(BASE, winner=...)) == "winner"
    assert field_of(changed(BASE, winner=None, dead=False)) == "winner"


def test_10_winner_and_dead():
    assert field_of(changed(BASE, dead=True)) == "winner"


@pytest.mark.parametrize("dead", [1, 0, "true", "yes", [True]])
def test_10_dead_not_a_boolean(dead):
    assert field_of(changed(DEAD, dead=dead)) == "dead"


@pytest.mark.parametrize("winner", ["W", "X", "north", "", 1, True, ["E"]])
def test_10_winner_not_seated(winner):
    assert field_of(changed(BASE, winner=winner)) == "winner"


def test_10_dead_false_with_a_winner_and_null_winner_on_a_dead_board():
    assert GAME.score(changed(BASE, dead=False))["winner"] == "E"
    assert GAME.score(changed(DEAD, winner=None))["dead"] is True
    assert GAME.score(changed(BASE, winner="e"))["winner"] == "E"


# 11. melds shape
@pytest.mark.parametrize(
    ("value", "field"),
    [
        ([], "melds"),
        ("E", "melds"),
        (3, "melds"),
        ({"W": []}, "melds.W"),
        ({"e": []}, "melds.e"),
        ({"X": []}, "melds.X"),
        ({"E": "QH"}, "melds.E"),
        ({"E": {"0": []}}, "melds.E"),
        ({"E": None}, "melds.E"),
        ({"E": [["QH", "QD", "QS", "QC"], "7H7D7S3H"]}, "melds.E[1]"),
        ({"E": [["QH", "QD", "QS", "QC"], None]}, "melds.E[1]"),
        ({"E": [["QH", "QD", "QS", "QC"], {"cards": []}]}, "melds.E[1]"),
    ],
)
def test_11_melds_shape(value, field):
    assert field_of(changed(BASE, melds=value)) == field


# 12. fewer than three cards
@pytest.mark.parametrize("small", [[], ["7H"], ["7H", "7D"], ["7H", "3H"]])
def test_12_short_set(small):
    record = melds(BASE, "E", [["QH", "QD", "QS", "QC"], small, ["6H", "6D", "6S", "3C"]])
    assert field_of(record) == "melds.E[1]"


# 13. the joker in a set
@pytest.mark.parametrize(
    "cards", [["7H", "7D", "7S", "JK"], ["JK", "7D", "7S"], ["7H", "jk", "7S", "7C"]]
)
def test_13_joker_in_a_set(cards):
    record = melds(BASE, "E", [["QH", "QD", "QS", "QC"], ["6H", "6D", "6S", "3C"], cards])
    assert field_of(record) == "melds.E[2]"


def test_13_joker_in_a_set_even_when_turned_up():
    record = changed(FOUR, up="JK")
    record["melds"]["E"].append(["7H", "7D", "7S", "JK"])
    assert field_of(record) == "melds.E[2]"


# 14. no natural card
@pytest.mark.parametrize(
    "cards", [["3H", "3D", "3C", "3H"], ["3H", "3D", "3C"], ["3H", "3D", "3C", "3H", "3D"]]
)
def test_14_all_wild(cards):
    record = melds(BASE, "E", [["QH", "QD", "QS", "QC"], ["6H", "6D", "6S", "6C"], cards])
    assert field_of(record) == "melds.E[2]"


# 15. mixed ranks
@pytest.mark.parametrize(
    "cards",
    [
        ["7H", "7D", "8S", "8C"],
        ["7H", "7D", "7S", "2C"],
        ["7H", "3D", "8S", "3C"],
        ["KH", "KD", "KS", "QC"],
    ],
)
def test_15_mixed_ranks(cards):
    record = melds(BASE, "E", [["QH", "QD", "QS", "QC"], ["6H", "6D", "6S", "6C"], cards])
    assert field_of(record) == "melds.E[2]"


def test_15_nothing_is_wild_when_the_joker_is_turned_up():
    record = changed(FOUR, up="JK")
    record["melds"]["E"].append(["7H", "7D", "7S", "2C"])
    assert field_of(record) == "melds.E[2]"
    record["melds"]["E"][2] = ["2H", "2D", "2S", "2C"]  # a natural set of twos now
    assert GAME.score(record)["sets"][2]["category"] == "4-natural"


# 16. two sets of the same rank
def test_16_two_sets_of_a_rank():
    record = melds(
        BASE, "E", [["7H", "7D", "7S", "7C"], ["QH", "QD", "QS", "QC"], ["7H", "7D", "3S"]]
    )
    assert field_of(record) == "melds.E[2]"
    record = melds(BASE, "N", [["TS", "TS", "TC", "3C"], ["TH", "TH", "TD", "TD"]])
    assert field_of(record) == "melds.N[1]"


# 17. a three-card set without two four-card sets
def test_17_three_card_set_too_early():
    record = melds(
        BASE, "E", [["QH", "QD", "QS", "QC"], ["6H", "6D", "3C"], ["7H", "7D", "7S", "3H"]]
    )
    assert GAME.score(record)  # the order of the sets does not matter
    record = melds(BASE, "N", [["TS", "TS", "TC", "TC"], ["KH", "KD", "KC"]])
    assert field_of(record) == "melds.N[1]"
    record = melds(BASE, "S", [["AH", "AH", "AD"]])
    assert field_of(record) == "melds.S[0]"


# 18. the winner has fewer than two four-card sets
@pytest.mark.parametrize(
    "sets",
    [[], [["QH", "QD", "QS", "QC"]], [["QH", "QD", "QS", "QC"], ["6H", "6D", "6S"]]],
)
def test_18_winner_without_two_four_card_sets(sets):
    assert field_of(melds(BASE, "E", sets)) in ("melds.E", "melds.E[1]")


def test_18_winner_without_melds():
    record = changed(BASE, melds={"N": [["TS", "TS", "TC", "TC"]]})
    assert field_of(record) == "melds.E"
    assert field_of(changed(BASE, melds=...)) == "melds.E"


# 19. option 1
def test_19_same_colour_sets():
    options = {"same_colour_sets": True}
    record = changed(FOUR, options=options)
    record["melds"]["E"].append(["5H", "5S", "5D", "5C"])
    assert field_of(record) == "melds.E[2]"
    record["melds"]["E"][2] = ["5H", "5H", "5D", "2S"]  # a black wild card is fine
    assert GAME.score(record)["sets"][2]["category"] == "4-number-wild"
    record["melds"]["E"][2] = ["JH", "JC", "JD"]  # face sets are exempt
    assert GAME.score(record)["sets"][2]["category"] == "3-natural-face"


# 20. option 2
def test_20_same_colour_wilds():
    record = changed(FOUR, options={"same_colour_wilds": True})
    record["melds"]["E"].append(["5H", "5H", "5D", "2S"])
    assert field_of(record) == "melds.E[2]"
    record["melds"]["E"][2] = ["5S", "5H", "5D", "2H"]
    assert field_of(record) == "melds.E[2]"
    record["melds"]["E"][2] = ["5H", "5H", "5D", "2H"]
    assert GAME.score(record)
    record["melds"]["E"][2] = ["QH", "QS", "QC", "2C"]  # face sets included
    assert field_of(record) == "melds.E[2]"
    record["melds"]["E"][2] = ["5S", "5H", "5D", "5C"]  # no wild card: both colours allowed
    assert GAME.score(record)


# 21. option 3
def test_21_number_wilds_not_in_face_sets():
    record = changed(FOUR, options={"number_wilds_not_in_face_sets": True})
    record["melds"]["E"].append(["QH", "QS", "QC", "2C"])
    assert field_of(record) == "melds.E[2]"
    record["melds"]["E"][2] = ["5S", "5H", "5D", "2C"]
    assert GAME.score(record)
    face = changed(FOUR, up="JH", options={"number_wilds_not_in_face_sets": True})
    face["melds"]["E"].append(["QH", "QS", "QC", "JC"])  # the wild rank is a face rank
    assert GAME.score(face)["sets"][2]["category"] == "4-face-wild"


# 22. hands shape
@pytest.mark.parametrize(
    ("value", "field"),
    [
        ([], "hands"),
        ("N", "hands"),
        ({"W": ["KC"]}, "hands.W"),
        ({"n": ["KC"]}, "hands.n"),
        ({"N": "KC", "S": ["4H"]}, "hands.N"),
        ({"N": None, "S": ["4H"]}, "hands.N"),
        ({"N": [["KC"]], "S": ["4H"]}, "hands.N[0]"),
    ],
)
def test_22_hands_shape(value, field):
    assert field_of(changed(BASE, hands=value)) == field


# 23. the winner holds cards
def test_23_winner_holds_cards():
    assert field_of(changed(BASE, hands={"N": ["KC"], "S": ["4H"], "E": ["5C"]})) == "hands.E"
    assert GAME.score(changed(BASE, hands={"N": ["KC"], "S": ["4H"], "E": []}))


# 24. a seat that did not go out holds no cards
def test_24_loser_without_cards():
    assert field_of(changed(BASE, hands={"N": ["KC"]})) == "hands.S"
    assert field_of(changed(BASE, hands={"N": ["KC"], "S": []})) == "hands.S"
    assert field_of(changed(BASE, hands=...)) == "hands.N"
    assert field_of(changed(DEAD, hands={"N": ["KH"], "E": ["QD"]})) == "hands.S"


def test_24_an_improper_draw_offender_holds_no_cards():
    record = changed(BASE, hands={"S": ["4H"]}, penalties=[{"seat": "N", "kind": "improper_draw"}])
    assert GAME.score(record)["hand_values"]["N"] == 0


# 25. an improper_draw offender holds cards
def test_25_improper_draw_with_cards():
    record = changed(BASE, penalties=[{"seat": "N", "kind": "improper_draw"}])
    assert field_of(record) == "hands.N"
    dead = changed(DEAD, penalties=[{"seat": "S", "kind": "improper_draw"}])
    assert field_of(dead) == "hands.S"


# 26. god
@pytest.mark.parametrize("god", ["W", "X", "", 1, True, ["E"]])
def test_26_god_not_seated(god):
    assert field_of(changed(BASE, god=god)) == "god"


def test_26_god_in_any_case_or_null():
    assert GAME.score(changed(BASE, god="s"))["god"] == "S"
    assert GAME.score(changed(BASE, god=None))["god"] is None


# 27. the joker in play although turned up
def test_27_joker_turned_up_and_in_play():
    assert field_of(changed(FOUR, up="JK", god="N")) == "god"
    record = changed(FOUR, up="JK", hands={"N": ["JS", "JK"], "S": ["AS"], "W": ["TH"]})
    assert field_of(record) == "hands.N[1]"


# 28. the joker twice
def test_28_joker_twice():
    record = changed(BASE, god="S", hands={"N": ["KC", "9D"], "S": ["JK"]})
    assert field_of(record) == "hands.S[0]"
    record = changed(BASE, hands={"N": ["JK", "9D"], "S": ["jk"]})
    assert field_of(record) == "hands.S[0]"
    record = changed(BASE, hands={"N": ["JK", "JK"], "S": ["4H"]})
    assert field_of(record) == "hands.N[1]"
    assert GAME.score(changed(BASE, hands={"N": ["JK"], "S": ["4H"]}))["hand_values"]["N"] == 0


# 29. a card more often than the packs hold it
def test_29_too_many_copies():
    # A face card is held once.
    assert field_of(changed(BASE, hands={"N": ["QH"], "S": ["4H"]})) == "hands.N[0]"
    assert field_of(changed(BASE, hands={"N": ["KC", "KC"], "S": ["4H"]})) == "hands.N[1]"
    # A number card twice: 7H is in E's set, a second 7H in N's hand is fine, a third is not.
    assert GAME.score(changed(BASE, hands={"N": ["7H"], "S": ["4H"]}))
    assert field_of(changed(BASE, hands={"N": ["7H"], "S": ["7H"]})) == "hands.S[0]"
    # Across sets of different seats.
    record = melds(BASE, "S", [["TH", "TH", "TD", "TD"], ["9S", "9S", "9C", "9C"]])
    assert GAME.score(record)
    record = melds(BASE, "S", [["9S", "9S", "9C", "9C"], ["TH", "TS", "TD", "TD"]])
    assert field_of(record) == "melds.S[1][1]"
    # Within one set.
    record = melds(BASE, "E", [["QH", "QD", "QS", "QH"], ["7H", "7D", "7S", "3H"]])
    assert field_of(record) == "melds.E[0][3]"


def test_29_the_turned_up_card_counts_with_2_or_4_players():
    record = changed(FOUR)
    record["hands"]["N"] = ["2C", "2C"]
    assert field_of(record) == "hands.N[1]"
    record["hands"]["N"] = ["2C"]
    assert GAME.score(record)
    # With 3 players it lies at the bottom of pile 2: both copies may appear (7.2).
    assert GAME.score(changed(BASE, hands={"N": ["3S", "3S"], "S": ["4H"]}))
    face = changed(FOUR, up="QS", hands={"N": ["QS"], "S": ["AS"], "W": ["TH"]})
    assert field_of(face) == "hands.N[0]"
    assert GAME.score(
        changed(face, players=3, winner="E", hands={"N": ["QS"], "S": ["AS"]}, melds=FOUR["melds"])
    )


# 30. penalties
@pytest.mark.parametrize(
    ("penalties", "field"),
    [
        ({"seat": "N", "kind": "out_of_turn"}, "penalties"),
        ("out_of_turn", "penalties"),
        (["N"], "penalties[0]"),
        ([None], "penalties[0]"),
        ([{"seat": "N"}], "penalties[0].kind"),
        ([{"kind": "out_of_turn"}], "penalties[0].seat"),
        ([{"seat": "W", "kind": "out_of_turn"}], "penalties[0].seat"),
        ([{"seat": "X", "kind": "out_of_turn"}], "penalties[0].seat"),
        ([{"seat": 1, "kind": "out_of_turn"}], "penalties[0].seat"),
        ([{"seat": "N", "kind": "misdeal"}], "penalties[0].kind"),
        ([{"seat": "N", "kind": "exposed_card"}], "penalties[0].kind"),
        ([{"seat": "N", "kind": 3}], "penalties[0].kind"),
        ([{"seat": "N", "kind": "out_of_turn", "x": 1}], "penalties[0].x"),
        (
            [{"seat": "N", "kind": "out_of_turn"}, {"seat": "N", "kind": "out_of_turn"}],
            "penalties[1]",
        ),
        (
            [{"seat": "S", "kind": "improper_meld"}, {"seat": "S", "kind": "IMPROPER_MELD"}],
            "penalties[1]",
        ),
    ],
)
def test_30_penalties(penalties, field):
    assert field_of(changed(BASE, penalties=penalties)) == field


def test_30_different_kinds_on_one_seat_all_apply():
    record = changed(
        BASE,
        penalties=[
            {"seat": "N", "kind": "out_of_turn"},
            {"seat": "N", "kind": "improper_meld"},
            {"seat": "S", "kind": "out_of_turn"},
        ],
    )
    kinds = [(p["from"], p["for"]) for p in GAME.score(record)["payments"]]
    assert kinds == [
        ("N", "settlement"),
        ("N", "improper_meld"),
        ("S", "settlement"),
        ("N", "out_of_turn"),
        ("N", "out_of_turn"),
        ("S", "out_of_turn"),
        ("S", "out_of_turn"),
    ]


# 31. the winner with improper_meld or improper_draw
@pytest.mark.parametrize("kind", ["improper_meld", "improper_draw"])
def test_31_winner_offender(kind):
    record = changed(
        BASE, penalties=[{"seat": "N", "kind": "out_of_turn"}, {"seat": "E", "kind": kind}]
    )
    assert field_of(record) == "penalties[1]"


def test_31_the_winner_may_have_played_out_of_turn():
    record = changed(BASE, penalties=[{"seat": "E", "kind": "out_of_turn"}])
    assert GAME.score(record)["seats"]["E"] < 0


def test_settings_supply_the_options_a_record_leaves_out():
    record = changed(FOUR, up="JC", options=...)
    assert GAME.score(record)["multiplier"] == 1
    assert GAME.score(record, {"face_wild_triple": "on"})["multiplier"] == 3
    assert GAME.score(changed(record, options={}), {"face_wild_triple": "on"})["multiplier"] == 1
