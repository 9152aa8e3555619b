"""Pys'ngtaut behind the generic game interface: registry, settings, deals by board, entry,
words and simulation."""

import json
import random

import pytest

from engine.core.errors import DealError, SettingsError
from engine.games import GAME_IDS, PLAYERS, get_game
from engine.games.pysngtaut.cards import CARD_CODES, CARD_TEXT, CARD_WORDS, PILE_SIZE
from engine.games.pysngtaut.game import GAME, PysngtautGame
from tests.engine.pysngtaut.test_examples import EXAMPLE_DEAL, EXAMPLES


def test_the_game_is_found_by_id():
    assert "pysngtaut" in GAME_IDS and get_game("pysngtaut") is GAME
    assert isinstance(GAME, PysngtautGame)
    assert (GAME.id, GAME.table_sizes, GAME.entrants) == ("pysngtaut", (2, 3, 4), PLAYERS)
    assert GAME.entry_kind == "pysngtaut-entry"
    assert GAME.entry_fields == {"up", "winner", "dead", "melds", "hands", "god", "penalties"}


def test_settings():
    defaults = GAME.default_settings
    assert defaults["direction"] == "counterclockwise"
    assert defaults["face_wild_triple"] == "off" and defaults["value_4_natural_red"] == 1500
    assert len(defaults) == 1 + 7 + 10
    chosen = GAME.settings({"own_sets_offset": True, "value_3_natural_face": 100})
    assert chosen["own_sets_offset"] == "on" and chosen["value_3_natural_face"] == 100
    for name, value in (
        ("direction", "left"),
        ("face_wild_triple", "yes"),
        ("face_wild_triple", 1),
        ("value_4_natural", -1),
        ("value_4_natural", "5"),
        ("nonsense", 1),
    ):
        with pytest.raises(SettingsError, match=f"^{name}: "):
            GAME.settings({name: value})
    assert all(len(row) == 3 for row in GAME.rules_in_detail(defaults))
    labels = dict(GAME.describe_settings(defaults))
    assert labels["Play direction"].startswith("Counter-clockwise")


def test_the_dealer_rotates_and_default_boards_are_one_per_seat():
    assert [GAME.dealer(b, 3) for b in range(1, 7)] == list("NESNES")
    assert [GAME.dealer(b, 4) for b in range(1, 6)] == list("NESWN")
    assert [GAME.dealer(b, 2) for b in range(1, 4)] == list("NEN")
    assert [GAME.default_boards(n) for n in (2, 3, 4)] == [2, 3, 4]
    assert GAME.boards_per_table(GAME.default_settings, 4) is None


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_deals(players):
    first = list(GAME.generate_deals(2, players, players, seed="club"))
    again = list(GAME.generate_deals(2, players, players, seed="club"))
    assert first == again
    assert first != list(GAME.generate_deals(2, players, players, seed="other"))
    for _table, board, deal in first:
        assert deal.dealer == GAME.dealer(board, players)
        assert len(deal.pile1) == len(deal.pile2) == PILE_SIZE[players]
        assert all(len(hand) == 7 for hand in deal.hands)
        assert GAME.parse_deal(GAME.format_deal(deal)) == deal
        assert GAME.deal_problem(deal, players=players, dealer=deal.dealer) is None
        if players == 3:
            assert deal.pile2[-1] == deal.up
    secure = list(GAME.generate_deals(1, players, players))
    assert [deal.dealer for *_, deal in secure] == list("NESW"[:players])


def test_deal_problem():
    deal = GAME.seeded_deal("x", 1, 1, 3)
    assert "hands" in GAME.deal_problem(deal, players=4, dealer="N")
    assert "dealt by N" in GAME.deal_problem(deal, players=3, dealer="E")


def test_hands_in_words():
    rows = GAME.hands_in_words(GAME.parse_deal(EXAMPLE_DEAL))
    assert [whose for whose, _ in rows] == [
        "Turned up",
        "North",
        "East (dealer)",
        "South",
        "West",
        "Pile 1 (top first)",
        "Pile 2 (top first)",
    ]
    assert rows[0][1] == "7♦" and rows[2][1].startswith("8♣ J♣ 9♠")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "deal: must start with the dealer's seat letter"),
        ("X:7D", "deal: 'X' is not a dealer's seat"),
        ("W:7D 8C 9C 2H 3H", "deal: the dealer W is not at a table of 2 players"),
        ("N:7D 8C", "deal: 2 groups"),
        (EXAMPLE_DEAL.replace("8CJC", "8CXC"), "deal: hand 1 (E): 'XC' is not a card"),
        (EXAMPLE_DEAL.replace("8CJC", "8C10"), "deal: hand 1 (E): '10' is not a card"),
        (EXAMPLE_DEAL.replace("E:7D", "E:7D8D"), "deal: the turned-up card: 2 cards, 1 needed"),
        (EXAMPLE_DEAL.replace("6S6C9HAS5C4H5S", "6S6C9HAS5C4H"), "deal: hand 2 (S): 6 cards"),
        (EXAMPLE_DEAL.replace("8CJC", "8CJC2"), "deal: hand 1 (E): 15 characters"),
        (EXAMPLE_DEAL.replace(" QC9C", " QC"), "deal: pile 1: 31 cards, 32 needed"),
        (EXAMPLE_DEAL.replace("QC9C", "QCJC"), "deal: pile 1: JC appears 2 times"),
        (EXAMPLE_DEAL.replace("QC9C", "QC7D"), "deal: pile 1: 7D appears 3 times"),
    ],
)
def test_deal_errors_name_the_group_and_the_card(text, message):
    with pytest.raises(DealError) as error:
        GAME.parse_deal(text)
    assert str(error.value).startswith(message)


def test_a_three_player_deal_needs_the_turned_up_card_last_in_pile_2():
    deal = GAME.seeded_deal(3, 1, 1, 3)
    text = GAME.format_deal(deal)
    last = CARD_TEXT[deal.pile2[-2]]
    bad = text[:-4] + CARD_TEXT[deal.pile2[-1]] + last  # swap the last two cards of pile 2
    with pytest.raises(DealError, match="pile 2: its last card"):
        GAME.parse_deal(bad)


def test_entry_record_and_scorer_facts_reproduce_the_score():
    settings = GAME.settings({"own_sets_offset": True, "face_wild_triple": "on"})
    record = json.loads(EXAMPLES["7.11"][0])
    score = GAME.score(record)
    facts = GAME.scorer_facts(record, score)
    assert set(facts) <= GAME.entry_fields
    assert facts["up"] == record["up"] == "KH"  # North enters the turned-up card
    assert set(facts["melds"]) == {"N", "E", "W"}  # option 8: the losers' sets count
    built = GAME.entry_record(facts, settings=settings, table=1, players=4, dealer="N", deal="")
    assert "deal" not in built and built["up"] == "KH"
    assert GAME.score(built)["seats"] == score["seats"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_through_the_scorer(name):
    record = json.loads(EXAMPLES[name][0])
    score = GAME.score(record)
    facts = GAME.scorer_facts(record, score)
    if "own_sets_offset" not in json.dumps(record) and "out_of_turn" not in json.dumps(record):
        assert set(facts.get("melds", {})) <= {score["winner"]}
    settings = {name: "on" for name, on in record.get("options", {}).items() if on is True}
    for category, value in record.get("options", {}).get("set_values", {}).items():
        settings["value_" + category.replace("-", "_")] = value
    assert facts["up"] == record["up"].upper()
    built = GAME.entry_record(
        facts,
        settings=GAME.settings(settings),
        table=3,
        players=record["players"],
        dealer="N",
        deal="",
    )
    assert GAME.score(built) == score
    words = dict(GAME.entry_in_words(record, score))
    assert "Outcome" in words and "God card" in words
    assert words["Turned up"] == CARD_WORDS[CARD_CODES[record["up"].upper()]]
    line = GAME.describe(score)
    assert "\n" not in line and line
    for seat, value in score["seats"].items():
        assert GAME.totals_entry(score, seat) == (value, 0)


def test_describe():
    score = GAME.score(json.loads(EXAMPLES["7.9"][0]))
    assert GAME.describe(score) == (
        "East went out with 3 sets worth 7,500 (out of turn): N −16,680, E +22,625, S −5,945. "
        "Sets: Q♥ Q♦ Q♠ Q♣ (4 Natural Face Cards, 2,000); 7♥ 7♦ 7♠ 3♥ (4 Number Cards with "
        "Wilds, 500); 6♥ 6♦ 3♣ (3 Number Cards with Wilds, 5,000)"
    )
    dead = GAME.score(json.loads(EXAMPLES["7.6"][0]))
    assert GAME.describe(dead) == (
        "Dead hand, 350 lost to the pot (god card E, improper meld): N −120, E −220, S −10"
    )


def test_entry_options_follow_the_turned_up_card():
    options = GAME.entry_options(players=3, dealer="E", deal=GAME.seeded_deal(1, 1, 2, 3))
    assert options["seats"] == ["N", "E", "S"] and options["outcomes"][-1] == "dead"
    assert sum(options["cards"].values()) in (93, 92)
    json.dumps(options)
    four = GAME.entry_options(players=4, deal=EXAMPLE_DEAL)
    assert four == GAME.entry_options(players=4, up="7d")  # the deal's card, or North's
    assert four["up"] == "7D" and four["wild"] == "7" and four["cards"]["7D"] == 1
    assert four["cards"]["7H"] == 2 and four["cards"]["KS"] == 1 and four["multiplier"] == 1
    assert four["hand_values"]["7H"] == 0 and four["hand_values"]["KS"] == 50
    assert four["hand_values"]["TD"] == 10 and four["hand_values"]["AS"] == 5
    assert four["hand_values"]["JK"] == 0
    assert four["god"] == [None, "N", "E", "S", "W"]
    three = GAME.entry_options(players=3, up="7D")
    assert three["cards"]["7D"] == 2 and sum(three["cards"].values()) == 93  # in play at 3
    face = GAME.entry_options(players=2, up="QS", settings={"face_wild_triple": "on"})
    assert face["multiplier"] == 3 and face["cards"]["QS"] == 0 and face["hand_values"]["QH"] == 0
    assert GAME.entry_options(players=2, up="QS")["multiplier"] == 1
    joker = GAME.entry_options(players=2, up="JK", settings={"face_wild_triple": "on"})
    assert joker["wild"] is None and "JK" not in joker["cards"] and joker["god"] == [None]
    assert joker["multiplier"] == 2 and joker["hand_values"]["KS"] == 50
    bare = GAME.entry_options()
    assert bare["up"] is None and sum(bare["cards"].values()) == 93
    assert bare["hand_values"] is None and bare["multiplier"] is None
    assert GAME.entry_options(settings={"own_sets_offset": "on"})["losers_sets"] == "always"
    with pytest.raises(ValueError, match="not a card"):
        GAME.entry_options(up="1X")


def test_entry_form_gives_the_phone_the_rules_and_no_card_of_the_deal():
    form = GAME.entry_form(players=4, dealer="E", deal=EXAMPLE_DEAL, settings={})
    json.dumps(form)
    assert form == GAME.entry_form(players=4, dealer="E", settings={})
    assert not {"up", "wild", "cards", "hand_values", "multiplier", "problem"} & set(form)
    assert (form["players"], form["dealer"], form["seats"]) == (4, "E", list("NESW"))
    assert form["up_cards"] == list(CARD_TEXT) and len(form["up_cards"]) == 53
    assert sum(form["pack"].values()) == 93 and form["pack"]["7D"] == 2 and form["pack"]["KS"] == 1
    assert form["up_out_of_play"] is True
    assert form["wild_of"]["7D"] == "7" and form["wild_of"]["JK"] is None
    assert form["rank_values"] == {
        **dict.fromkeys("A2345", 5),
        **dict.fromkeys("6789T", 10),
        **dict.fromkeys("JQK", 50),
    }
    assert form["multipliers"] == {"joker_up": 2, "face_wild": 1}
    assert form["god"] == [None, "N", "E", "S", "W"]
    assert [c["id"] for c in form["categories"]] == list(form["set_categories"])
    assert form["categories"][0] == {
        "id": "3-natural-face",
        "row": "3 Natural Face Cards",
        "value": 20000,
    }
    assert form["restrictions"] == dict.fromkeys(
        ("same_colour_sets", "same_colour_wilds", "number_wilds_not_in_face_sets"), False
    )
    assert form["losers_sets"] == "with out_of_turn"


def test_entry_form_follows_the_tables_options_and_size():
    settings = GAME.settings(
        {
            "same_colour_sets": "on",
            "value_4_natural": 7,
            "own_sets_offset": True,
            "face_wild_triple": "on",
        }
    )
    form = GAME.entry_form(players=3, dealer="N", settings=settings)
    assert form["seats"] == ["N", "E", "S"] and form["restrictions"]["same_colour_sets"]
    assert next(c for c in form["categories"] if c["id"] == "4-natural")["value"] == 7
    assert form["losers_sets"] == "always" and form["multipliers"]["face_wild"] == 3
    assert form["up_out_of_play"] is False  # 3 players: the turned-up card is in play
    assert sum(form["pack"].values()) == 93
    two = GAME.entry_form(players=2, dealer="E", settings={})
    assert two["up_out_of_play"] is True and two["god"] == [None, "N", "E"]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulated_records_score_and_are_reproducible(players):
    for board in range(1, 9):
        deal = GAME.seeded_deal("sim", 1, board, players)
        record = GAME.simulate_record(deal, random.Random(board), GAME.default_settings)
        assert record == GAME.simulate_record(
            GAME.format_deal(deal), random.Random(board), GAME.default_settings, declarations=None
        )
        score = GAME.score(record)
        facts = GAME.scorer_facts(record, score)
        built = GAME.entry_record(
            facts,
            settings=GAME.default_settings,
            table=1,
            players=players,
            dealer=deal.dealer,
            deal=record["deal"],
        )
        assert GAME.score(built) == score
        assert facts["up"] == CARD_TEXT[deal.up]
        without = GAME.entry_record(
            facts,
            settings=GAME.default_settings,
            table=1,
            players=players,
            dealer=deal.dealer,
            deal="",
        )
        assert "deal" not in without and GAME.score(without) == score
        assert GAME.describe(score)


def test_a_simulated_record_carries_the_settings():
    settings = GAME.settings({"direction": "clockwise", "same_colour_sets": "on"})
    record = GAME.simulate_record(GAME.seeded_deal(5, 1, 1, 4), random.Random(5), settings)
    assert record["direction"] == "clockwise"
    assert record["options"] == {"same_colour_sets": True}
    assert GAME.score(record)


def test_table_context():
    facts = dict(GAME.table_context(GAME.default_settings, 1)["facts"])
    assert facts["Play"] == "counter-clockwise (N → W → S → E)"
