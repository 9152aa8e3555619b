"""The engine's last English words, in French: Twenty's Fool and cards by name, the games' deal
notation errors, Pymtheg's unreadable seat in a call, a hand-edited schedule file's shape
errors, the import's refusals of a file too big or not XML, and a movement's rounds at a size.
Each English sentence is unchanged; its French has no English word left."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.utils import translation

from engine.core.errors import DealError
from engine.games import get_game
from engine.games.twenty import cards as twenty_cards
from engine.games.twenty.game import CARD_CHOICES
from tests.test_i18n import english_left
from tournaments.templatetags.languages import translated, translated_tree


def in_french(text):
    with translation.override("fr"):
        return str(translated(text))


# --- Twenty's cards -----------------------------------------------------------------------


def test_a_twenty_hand_names_the_fool_exc_in_french():
    """A French tarot club writes the Excuse "Exc." in a hand ("E" would read as Est); the
    deal notation keeps F."""
    hand = 1 << twenty_cards.FOOL | 1 << twenty_cards.WORLD | 1 << twenty_cards.MAGICIAN
    hand |= 1 << 20 | 1 << 24  # the King and the 10 of spades
    english = twenty_cards.hand_words(hand)
    assert english.startswith("Trumps F 21 1  ♠ K 10"), english
    assert in_french(english).startswith("Atouts Exc. 21 1  ♠ R 10"), in_french(english)
    assert twenty_cards.hand_text(hand).startswith("F,21,1.")  # the notation as it was


def test_twenty_s_cards_by_name_reach_the_phone_in_french():
    """The entry's card list (the last trick's card) names every card in the reader's words."""
    assert CARD_CHOICES[0][:2] == ["F", "Fool"] and CARD_CHOICES[20][1] == "King of spades"
    with translation.override("fr"):
        french = translated_tree(CARD_CHOICES)
    assert [code for code, _name, _group in french] == [c for c, _n, _g in CARD_CHOICES]
    names = {code: name for code, name, _group in french}
    assert names["F"] == "Excuse" and names["T21"] == "21 (le Monde)"
    assert names["T1"] == "1 (le Petit)" and names["T7"] == "7"
    assert names["SK"] == "Roi de pique" and names["HQ"] == "Dame de cœur"
    assert names["DJ"] == "Valet de carreau" and names["CC"] == "Cavalier de trèfle"
    assert names["ST"] == "10 de pique"
    left = [name for name in names.values() if english_left(f"<p>{name}</p>", set())]
    assert not left, left


def test_twenty_s_card_list_groups_its_cards_in_the_page_s_words(client, db):
    """The phone's card list groups the cards under the catalogue's words (Atouts, Pique...),
    the form keeping its group keys."""
    import json
    import re
    from pathlib import Path

    from django.urls import reverse

    script = Path(__file__).resolve().parent.parent / "engine/games/twenty/static/entry.js"
    text = script.read_text(encoding="utf-8")
    assert "label: groupNames[group] || group" in text and 'trumps: tr("Trumps")' in text
    catalogue = client.get(reverse("javascript-catalog", args=["fr"])).content.decode()
    found = re.search(r"const newcatalog = (\{.*?\});", catalogue, re.S)
    assert found
    french = json.loads(found.group(1))
    assert [french[w] for w in ("Trumps", "Spades", "Hearts", "Diamonds", "Clubs")] == [
        "Atouts", "Pique", "Cœur", "Carreau", "Trèfle"
    ]  # fmt: skip
    assert {group for _code, _name, group in CARD_CHOICES} == {
        "trumps", "spades", "hearts", "diamonds", "clubs"
    }  # fmt: skip


# --- deal notation errors -----------------------------------------------------------------

PYMTHEG_DEAL = "N:DCB91.FA52.B1.F961 2.E8743.DA2.EC7532 F86.DC1.FE9764.DA4 EA7543.B96.C853.B8"
PYRAMID_DEAL = "N:9.K.QJ.AT .A.KT.KJ9 AJ.QJ9.9. KQT.T.A.Q"
TWENTY_DEAL = (
    "N:17,14,12,11,10,7,1.Q..K.K F,8,4.CT.CJ.Q.JT 21,20,15,9,6,5..Q.CJ.C 19,18,16,13.KJ.KT.T.Q"
)
PYS_UP, PYS_REST = (
    "N:JK 5C3SQS5C8HAS6D",
    (
        " JH9H6HTD7H8DAS 7S3D2C2H9D3SKH 8HAH5S4S3C8C4S "
        "TD8S6D5S4D3DJS8S4C2DAH6CTC7D7S3CQH6S8D5D9STS6H8CKC5D9H5HQC4H3HTH "
        "9C5HADQDKSKDTS4D2CJD7C9CTC4C2S7D7C2HAD4H9SACTH6C2D9D2SACJC7H3H6S"
    ),
)

# (game, a deal written wrong, its English refusal as it was, its French)
BAD_DEALS = [
    ("pymtheg", 42, "a deal must be a string in deal notation",
     "une donne doit être un texte en notation de donne"),
    ("pymtheg", "X:a b c d", "unknown seat 'X' (expected N, E, S or W)",
     "place inconnue 'X' (N, E, S ou W attendu)"),
    ("pymtheg", PYMTHEG_DEAL.replace("DCB91", "DCBZ1"),
     "North hand, Fire: 'Z' is not a card (ranks are 1-9 and A-F)",
     "main Nord, Feu : 'Z' n’est pas une carte (les rangs vont de 1 à 9 puis de A à F)"),
    ("pymtheg", PYMTHEG_DEAL.replace("DCB91", "DCB911"),
     "North hand, Fire: Fire 1 is written twice", "main Nord, Feu : Feu 1 est écrit deux fois"),
    ("pymtheg", PYMTHEG_DEAL.replace("C853.B8", "C853.B81"),
     "Wind 1 is in both the North and West hands",
     "Vent 1 est à la fois dans la main Nord et dans la main Ouest"),
    ("pymtheg", PYMTHEG_DEAL.replace("C853.B8", "C853.B"),
     "Wind 8 is in no hand (West hand holds 14 cards)",
     "Vent 8 n’est dans aucune main (main Ouest : 14 cartes)"),
    ("pyramid", "X" + PYRAMID_DEAL[1:], "deal: 'X' is not a dealer's seat (N, E, S or W)",
     "donne : 'X' n’est pas une place de donneur (N, E, S ou W)"),
    ("pyramid", PYRAMID_DEAL.replace("A.Q", "A.QA"),
     "deal: hand W, clubs: A appears twice (also in hand N)",
     "donne : main W, trèfle : A figure deux fois (aussi dans main N)"),
    ("pyramid", PYRAMID_DEAL + " -", "deal: 4 players leave no card undealt (no '-' group)",
     "donne : à 4 joueurs, aucune carte ne reste non distribuée (pas de groupe « - »)"),
    ("pyramid", "N:9.K.QJ.AT .A.KT.KJ9 AJ.QJ9.9.",
     "deal: the undealt cards ('-' group) are missing for 3 players",
     "donne : les cartes non distribuées (groupe « - ») manquent, à 3 joueurs"),
    ("twenty", "N:a b c", "deal: 3 hands, 4 needed (separated by spaces)",
     "donne : 3 mains, il en faut 4 (séparées par des espaces)"),
    ("twenty", TWENTY_DEAL.replace(".T.Q", ".T.K"), "deal: card CK twice (hands N and W)",
     "donne : carte CK deux fois (mains N et W)"),
    ("twenty", TWENTY_DEAL.replace(".T.Q", ".T."), "deal: hand W has 9 cards, not 10",
     "donne : la main W a 9 cartes, et non 10"),
    ("pysngtaut", PYS_UP[:-1] + "X" + PYS_REST, "deal: hand 1 (N): '6X' is not a card",
     "donne : main 1 (N) : '6X' n’est pas une carte"),
    ("pysngtaut", "N:JKJK " + PYS_UP[5:] + PYS_REST, "deal: the turned-up card: 2 cards, 1 needed",
     "donne : la carte retournée : 2 cartes, il en faut 1"),
    ("pysngtaut", PYS_UP + PYS_REST[:-2],
     "deal: pile 2: 31 cards, 32 needed for 4 players",
     "donne : pile 2 : 31 cartes, il en faut 32 à 4 joueurs"),
]  # fmt: skip


@pytest.mark.parametrize("game_id, text, english, french", [b for b in BAD_DEALS if b[2]])
def test_a_deal_written_wrong_is_refused_in_french(game_id, text, english, french):
    with pytest.raises(DealError) as caught:
        get_game(game_id).parse_deal(text)
    error = caught.value
    assert str(error) == english  # the English as it was
    said = in_french(error.words)
    assert said == french
    assert not english_left(f"<p>{said}</p>", set()), said


def test_a_record_s_deal_is_refused_in_french_through_the_shared_reader():
    """A record whose deal is written wrong: the reader's refusal names the field and gives the
    fault in the reader's language."""
    from engine.core.errors import RecordError

    record = {"dealer": "N", "auction": ["E:PART", "S:P", "W:P", "N:P"], "partner": "W",
              "points": 57, "tricks": 6, "deal": TWENTY_DEAL.replace(".T.Q", ".T.")}  # fmt: skip
    with pytest.raises(RecordError) as caught:
        get_game("twenty").score(record)
    assert str(caught.value) == "deal: hand W has 9 cards, not 10"
    assert in_french(caught.value.words) == "deal : la main W a 9 cartes, et non 10"


def test_an_organiser_s_deal_written_wrong_is_refused_in_french(db):
    from tests.contract.events import build_event
    from tests.tournaments.factories import OrganiserFactory
    from tournaments import services

    tournament = build_event("twenty", "fr-deal")
    with translation.override("fr"), pytest.raises(services.ServiceError) as caught:
        services.set_deal(
            by=OrganiserFactory(),
            tournament=tournament,
            table_number=1,
            board_number=1,
            deal_text=TWENTY_DEAL.replace(".T.Q", ".T."),
        )
    assert caught.value.messages == [
        "la distribution n’est pas valable : la main W a 9 cartes, et non 10"
    ]
    with translation.override("fr"), pytest.raises(services.ServiceError) as caught:
        services.set_deal(
            by=OrganiserFactory(),
            tournament=tournament,
            table_number=1,
            board_number=2,  # dealt by East: a deal dealt by North does not fit it
            deal_text=TWENTY_DEAL,
        )
    assert caught.value.messages == [
        "la distribution n’est pas valable pour la donne 2 : la donne est distribuée par N ; "
        "le donneur de cette donne est E"
    ]


def test_the_shared_readers_word_a_caller_s_table_in_french():
    from engine.core.errors import RecordError
    from engine.core.messages import words
    from engine.core.records import read_seat, seat_keys

    where = words(" at a table of %(players)s", players=3)
    with pytest.raises(RecordError) as caught:
        read_seat("dealer", "Q", 4, where)
    assert str(caught.value) == "dealer: 'Q' is not a seat at a table of 3 (N, E, S or W)"
    with pytest.raises(RecordError) as keys:
        seat_keys("tricks", {"N": 1, "E": 2, "S": 3, "Q": 4}, 4, where)
    assert "'Q' is not a seat at a table of 3 (the keys are exactly N, E, S, W)" in str(keys.value)
    # The sentence is French; the caller's own words of its table come as it made them.
    assert in_french(caught.value.words).startswith("dealer : 'Q' n’est pas une place at a")
    assert in_french(keys.value.words).startswith("tricks : 'Q' n’est pas une place at a")


# --- Pymtheg: a call's unreadable seat ------------------------------------------------------


def test_pymtheg_refuses_a_call_s_unreadable_seat_in_french():
    from tests.test_i18n_refusals import GAM, changed, check_french

    check_french(
        "pymtheg",
        changed(GAM, auctions=[["N:G", "X:P"]]),
        "auctions[0]: call 2: 'X:P': unknown seat 'X' (expected N, E, S or W)",
        "auctions[0] : annonce 2 : 'X:P' : place inconnue 'X' (N, E, S ou W attendu)",
    )


# --- a hand-edited schedule or movement file: its shape; rounds_at_size ---------------------

# A file's own keys and paths ('teams', seatings[3].round, byes[0].player), left as written.
_FILE_PATHS = re.compile(r"'[^']*'|« [^»]* »|\"[^\"]*\"|[\w\]\[]+(?:\.[\w\]\[]+)+|\w+\[\d+\]")


def _french_findings(problems: list[str]) -> list[str]:
    from django.template.loader import render_to_string

    with translation.override("fr"):
        page = render_to_string("tournaments/includes/problems.html", {"problems": problems})
        french = [str(translated(problem)) for problem in problems]
    left = english_left(_FILE_PATHS.sub(" ", unescape(page)), set())
    assert not left, left
    assert all(text != problem for text, problem in zip(french, problems, strict=True))
    return french


def test_a_schedule_file_s_shape_errors_are_french_and_their_english_unchanged():
    from engine.schedule import check_schedule

    assert _french_findings(check_schedule([1, 2])) == [
        "un mouvement doit être un objet JSON, et non une liste"
    ]
    broken = {"teams": "six", "tables": 0, "rounds": 2**70, "sides": "mixed", "extra": 1,
              "matches": [{"round": 1, "table": 1, "ns": 1}, "x",
                          {"round": 1, "table": 1, "ns": 1, "ew": 2, "x": 3}],
              "byes": {"round": 1}}  # fmt: skip
    problems = check_schedule(broken)
    assert problems[:4] == [
        "missing key 'max_meetings'",
        'unknown key "extra"',
        "'teams' must be a whole number, not \"six\"",
        "'tables' must be between 1 and 1000000, not 0",
    ]
    assert "match #1: missing 'ew'" in problems
    assert "match #2 must be an object, not a string" in problems
    assert "'byes' must be a list, not an object" in problems
    french = _french_findings(problems)
    assert "clé 'max_meetings' manquante" in french
    assert "'rounds' doit être entre 1 et 1000000, et non un nombre trop grand pour être écrit" in (
        french
    )
    assert "rencontre n° 1 : il manque 'ew'" in french
    assert 'rencontre n° 3 : clé inconnue "x"' in french
    assert "'byes' doit être une liste, et non un objet" in french


def test_a_movement_file_s_shape_errors_are_french_and_their_english_unchanged():
    from engine.schedule import check_individual_schedule
    from tests.engine.test_individual_movement import bare, seats_of

    assert _french_findings(check_individual_schedule("x")) == [
        "un mouvement doit être un objet JSON, et non un texte"
    ]
    broken = bare(per_table=5, players=2, sizes=[3, 9])
    seats_of(broken, 0)["Q"] = 4
    seats_of(broken, 1)["E"] = 1
    broken["seatings"][2] = 7
    broken["byes"].append(broken["byes"][0])
    problems = check_individual_schedule(broken)
    assert "give 'per_table' or 'sizes', not both" in problems
    assert "'sizes': every table seats 2, 3 or 4 players, not 9" in problems
    _french_findings(problems)
    wide = bare(per_table=2, tables=5)
    problems = check_individual_schedule(wide)
    assert any(
        p.startswith("seat S is not used at tables of 2 (only N, E), but ") for p in problems
    )
    french = _french_findings(problems)
    assert any(text.startswith("la place S n’existe pas aux tables de 2") for text in french)
    odd = bare()
    seats_of(odd, 0)["X"] = 5
    seats_of(odd, 1)["N"] = seats_of(odd, 1)["E"]
    french = _french_findings(check_individual_schedule(odd))
    assert any('place inconnue "X"' in text for text in french), french
    assert any("est assis en N et E" in text for text in french), french


def test_a_movement_s_rounds_at_size_is_french():
    from engine.schedule import check_individual_schedule
    from tests.engine.test_individual_movement import TEN_PLAYERS

    claimed = {**TEN_PLAYERS, "rounds_at_size": {"3": [9, 9]}}
    problems = check_individual_schedule(claimed)
    assert problems == [
        "'rounds_at_size' is an object, but a player spends at tables of 3, 2 to 3 rounds"
    ]
    assert _french_findings(problems) == [
        "'rounds_at_size' vaut un objet, mais un joueur passe de 2 à 3 tours aux tables de 3"
    ]


# --- the import: a spreadsheet too big, or whose XML it will not read --------------------


def _bad_xml_xlsx() -> bytes:
    import io
    import zipfile

    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr("xl/workbook.xml", "<workbook><sheets><sheet name='x' r:id=")
    return stream.getvalue()


def test_the_import_refuses_a_spreadsheet_too_big_or_not_xml_in_french():
    import io

    from tests.tournaments import bombs
    from tournaments.imports import read_entrant_file

    files = [
        (bombs.zip_bomb_xlsx(64), "zeros.xlsx", "se décompresse en 64 Mo"),
        (bombs.ratio_bomb_xlsx(), "ratio.xlsx", "se décompresse en 15360 Ko"),
        (bombs.nested_xlsx(100_000), "nested.xlsx", "s’imbrique sur plus de 32 niveaux"),
        (bombs.flat_elements_xlsx(150_000), "flat.xlsx", "plus de 100\xa0000 éléments"),
        (bombs.entities_xlsx(), "laughs.xlsx", "déclare une DTD ou des entités"),
        (_bad_xml_xlsx(), "bad.xlsx", "son XML est mal formé (ligne 1, colonne"),
        (b"x", "big.csv", "le fichier dépasse 5 Mo"),
    ]
    for data, name, french in files:
        size = 6 * 1024 * 1024 if name == "big.csv" else None
        english = read_entrant_file(io.BytesIO(data), name, size).file_errors
        with translation.override("fr"):
            [said] = read_entrant_file(io.BytesIO(data), name, size).file_errors
        assert french in said, (name, said)
        assert said != english[0], name
        assert not english_left(f"<p>{said}</p>", {name}), said
    [english] = read_entrant_file(io.BytesIO(_bad_xml_xlsx()), "bad.xlsx").file_errors
    assert english.startswith("the .xlsx spreadsheet cannot be read: its XML is not well formed")


# --- Seats named in a record's refusals -----------------------------------------------------


def test_a_refusal_naming_west_calls_him_o_in_french_and_w_in_english():
    from engine.core.errors import RecordError
    from engine.games.twenty.auction import CallError, apply_call, new_state, parse_call
    from engine.games.twenty.records import _read_auction

    # North deals; East, Eldest, opens and South passes: West still has to call.
    with pytest.raises(RecordError) as unfinished:
        _read_auction(["E:PART", "S:P"], "N")
    assert unfinished.value.reason == "not finished: W has still to call"
    assert in_french(unfinished.value.reason) == "pas terminées : O doit encore parler"
    state = new_state("S")  # South deals: West is Eldest and calls first
    with pytest.raises(CallError) as out_of_turn:
        apply_call(state, parse_call("N:PART"))
    assert str(out_of_turn.value.args[0]) == "out of turn: it is W's call"
    assert in_french(out_of_turn.value.args[0]) == "hors tour : c’est à O de parler"


def test_a_twenty_result_names_its_called_card_and_last_card_in_words_in_french():
    from engine.games.twenty.game import _last_trick_words, _partner_words

    called = _partner_words({"partner": "S", "called": "T18"})
    assert called == "South (called the 18 of trumps)"
    assert in_french(called) == "Sud (appelé par le 18 d’atout)"
    assert in_french(_last_trick_words({"seat": "e", "card": "T1"})) == "Est avec 1 (le Petit)"
    assert in_french(_last_trick_words({"seat": "w", "card": "SK"})) == "Ouest avec Roi de pique"
