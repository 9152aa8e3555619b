"""Pyramid behind the generic game interface: settings, deals by board, the declarer, entry,
quotas, words and simulation."""

import random

import pytest

from engine.core.errors import SettingsError
from engine.games import GAME_IDS, PLAYERS, get_game
from engine.games.pyramid.game import GAME, PyramidGame
from engine.games.pyramid.sheet import (
    QUOTA,
    SHEET_SIZE,
    legal_declarations,
    place_on_sheet,
    quota_error,
    sheet_of,
)


def test_the_game_is_found_by_id():
    assert "pyramid" in GAME_IDS and get_game("pyramid") is GAME
    assert isinstance(GAME, PyramidGame)
    assert (GAME.id, GAME.title, GAME.table_sizes, GAME.entrants) == (
        "pyramid",
        "Pyramid",
        (2, 3, 4),
        PLAYERS,
    )


def test_settings():
    assert GAME.default_settings == {"direction": "clockwise", "declarations_per_round": 16}
    assert GAME.settings({"declarations_per_round": 4}) == {
        "direction": "clockwise",
        "declarations_per_round": 4,
    }
    assert GAME.check_setting("direction", "counterclockwise") == "counterclockwise"
    for name, value in (
        ("direction", "left"),
        ("declarations_per_round", 0),
        ("declarations_per_round", 65),
        ("declarations_per_round", "16"),
        ("declarations_per_round", True),
    ):
        with pytest.raises(SettingsError, match=f"^{name}: "):
            GAME.check_setting(name, value)
        with pytest.raises(SettingsError, match=f"^{name}: "):
            GAME.settings({name: value})
    assert GAME.boards_per_table({"declarations_per_round": 4}, 4) == 16
    assert GAME.boards_per_table(GAME.default_settings, 3) == 48


def test_default_boards_are_one_full_game():
    assert [GAME.default_boards(n) for n in (2, 3, 4)] == [32, 48, 64]


# Section 3's table: who declares.
DECLARERS = {
    (2, "clockwise"): "EN",
    (2, "counterclockwise"): "EN",
    (3, "clockwise"): "ESN",
    (3, "counterclockwise"): "SNE",
    (4, "clockwise"): "ESWN",
    (4, "counterclockwise"): "WNES",
}


@pytest.mark.parametrize(("table", "declarers"), DECLARERS.items())
def test_the_declarer_table(table, declarers):
    players, direction = table
    for dealer, declarer in zip("NESW"[:players], declarers, strict=True):
        settings = {"direction": direction}
        assert GAME.declarer_seat(dealer, players, settings) == declarer
        options = GAME.entry_options(players=players, dealer=dealer, direction=direction)
        assert options["declarer"] == declarer
        record = {"players": players, "dealer": dealer, "declared": 1, "trump": "nt", "won": 1}
        assert GAME.score(record, settings)["declarer"] == declarer


def test_seeded_deals_are_reproducible_and_generate_deals_rotates_the_dealer():
    for players in (2, 3, 4):
        first = list(GAME.generate_deals(2, 2 * players, players, seed="club"))
        again = list(GAME.generate_deals(2, 2 * players, players, seed="club"))
        other = list(GAME.generate_deals(2, 2 * players, players, seed="other"))
        assert [GAME.format_deal(d) for *_, d in first] == [GAME.format_deal(d) for *_, d in again]
        assert first != other
        for table, board, deal in first:
            assert 1 <= table <= 2
            assert deal.dealer == "NESW"[(board - 1) % players] == GAME.dealer(board, players)
            assert deal.players == players
            text = GAME.format_deal(deal)
            assert GAME.parse_deal(text) == deal
            assert GAME.deal_problem(deal, players=players, dealer=deal.dealer) is None
    assert GAME.seeded_deal(7, 1, 3, 4) == GAME.seeded_deal(7, 1, 3, 4)
    secure = list(GAME.generate_deals(1, 3, 3))
    assert [deal.dealer for *_, deal in secure] == ["N", "E", "S"]


def test_deal_problem():
    deal = GAME.seeded_deal("x", 1, 1, 3)
    assert "hands" in GAME.deal_problem(deal, players=4, dealer="N")
    assert "dealt by N" in GAME.deal_problem(deal, players=3, dealer="E")


def test_hands_in_words():
    deal = GAME.parse_deal("S:T.KQ.JT.Q AK.9.AQ.9 QJ.A.K.AK -9.JT.9.JT")
    rows = GAME.hands_in_words(deal)
    assert [whose for whose, _ in rows] == ["North", "East", "South (dealer)", "Undealt"]
    assert rows[0][1] == "♠ A K  ♥ 9  ♦ A Q  ♣ 9"
    assert rows[2][1].startswith("♠ 10  ")


def test_describe():
    base = {"players": 4, "dealer": "N", "declared": 3, "trump": "hearts"}
    assert (
        GAME.describe(GAME.score({**base, "won": 2}))
        == "East declared 3 in hearts and took 2 tricks: 8 points"
    )
    assert (
        GAME.describe(GAME.score({**base, "won": 3}))
        == "East declared 3 in hearts and took 3 tricks: exact, 10 points"
    )
    no_trumps = GAME.score({**base, "trump": "nt", "declared": 0, "won": 1})
    assert GAME.describe(no_trumps) == "East declared 0 in no trumps and took 1 trick: 8 points"


def test_quotas_and_legal_declarations():
    assert QUOTA == (1, 2, 3, 4, 3, 2, 1) and SHEET_SIZE == 16
    assert legal_declarations([]) == [0, 1, 2, 3, 4, 5, 6]
    assert legal_declarations([6, 5, 5, 3]) == [0, 1, 2, 3, 4]
    assert quota_error("E", 1, [6, 5, 5, 3], 5) == (
        "E has no declaration of 5 left on sheet 1 (2 of 2 used); legal: 0, 1, 2, 3, 4"
    )
    assert quota_error("E", 1, [6, 5, 5, 3], 4) is None
    assert quota_error("Ona", 2, [6], 6).startswith("Ona has no declaration of 6 left on sheet 2")
    full = [0, 1, 1, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 6]
    assert legal_declarations(full) == []
    assert "legal: none" in quota_error("N", 1, full, 3)
    assert GAME.sheet_problem("E", 1, [6], 6) == quota_error("E", 1, [6], 6)
    assert GAME.sheet_size == 16


def test_declaration_numbers_to_sheets():
    assert [sheet_of(i) for i in (1, 16, 17, 32, 33)] == [1, 1, 2, 2, 3]
    assert [place_on_sheet(i) for i in (1, 16, 17, 32, 33)] == [1, 16, 1, 16, 1]
    with pytest.raises(ValueError):
        sheet_of(0)


def test_entry_options_and_form():
    options = GAME.entry_options(calls=[6], players=4, dealer="S")
    assert options == {
        "declarer": "W",
        "declarations": [0, 1, 2, 3, 4, 5],
        "trumps": ["spades", "hearts", "diamonds", "clubs", "nt"],
        "won": [0, 1, 2, 3, 4, 5, 6],
    }
    form = GAME.entry_form(
        players=4,
        dealer="N",
        settings=GAME.default_settings,
        declarer="E",
        player="Ona",
        sheet=1,
        calls=[6, 5, 5],
    )
    fields = {field["name"]: field for field in form["fields"]}
    assert [v for v, _text in fields["declared"]["choices"]] == [0, 1, 2, 3, 4]
    assert [v for v, _text in fields["trump"]["choices"]] == [
        "spades",
        "hearts",
        "diamonds",
        "clubs",
        "nt",
    ]
    assert [v for v, _text in fields["won"]["choices"]] == list(range(7))
    assert "Ona" in form["note"] and set(fields) == set(GAME.entry_fields)
    bare = GAME.entry_form(players=3, dealer="S")
    assert "North" in bare["note"]


def test_an_entry_becomes_a_record_that_scores():
    settings = GAME.settings({"direction": "counterclockwise"})
    deal = GAME.format_deal(GAME.seeded_deal("e", 1, 2, 4))
    facts = {"declared": 2, "trump": "clubs", "won": 2}
    record = GAME.entry_record(facts, settings=settings, table=1, players=4, dealer="E", deal=deal)
    score = GAME.score(record)
    assert score["declarer"] == "N" and score["points"] == 10
    assert GAME.declaration(score) == ("N", 2)
    assert GAME.scorer_facts(record, score) == facts
    assert GAME.totals_entry(score, "N") == (10, 1)
    assert GAME.totals_entry(score, "E") == (0, 0)
    words = dict(GAME.entry_in_words(record, score))
    assert words["Declarer"] == "North" and words["Tricks won"] == "2"


def test_a_simulated_record_gives_a_scorer_entry():
    deal = GAME.seeded_deal("sim", 1, 1, 4)
    rng = random.Random(5)
    record = GAME.simulate_record(deal, rng, GAME.default_settings, declarations=[0, 6])
    score = GAME.score(record)
    facts = GAME.scorer_facts(record, score)
    assert facts["declared"] in (0, 6) and set(facts) == {"declared", "trump", "won"}
    again = GAME.simulate_record(deal, random.Random(5), GAME.default_settings, declarations=[0, 6])
    assert again == record
    with pytest.raises(ValueError):
        GAME.simulate_record(deal, rng, {}, declarations=[])


def test_rules_in_detail():
    rows = GAME.rules_in_detail(GAME.default_settings)
    assert all(len(row) == 3 for row in rows)
