"""The engine's last English words, in French: Twenty's Fool and cards by name, the games' deal
notation errors, Pymtheg's unreadable seat in a call, a hand-edited schedule file's shape
errors, the import's refusals of a file too big or not XML, and a movement's rounds at a size.
Each English sentence is unchanged; its French has no English word left."""

from __future__ import annotations

from django.utils import translation

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
