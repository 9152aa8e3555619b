"""A seat's letter as people read it: West's "W" is "O" (Ouest) in French, on the printed
cards, the phones, the hand records, the charts, the director's pages and the engine's score
sentences; N, E and S are the same letters. What is stored, typed or keyed (records, deal
notation, the API) keeps W, and English pages are unchanged."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.core.seats import SEAT_MARKS, seat_mark
from engine.games import get_game
from engine.games.base import play_in_words
from tests.test_i18n import _french_pages, shown_text
from tests.test_i18n_director import _director_pages, director_events  # noqa: F401
from tests.test_i18n_published import _published_pages, played_events  # noqa: F401
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import Tournament
from tournaments.templatetags.languages import seat_letter, seat_letters, translated

# A "W" standing alone: not in a word, a code or an address, not a deal's notation ("W:..").
LONE_W = re.compile(r"(?<![\w/=:.-])W(?![\w:.=-])")
# The deal notation's help tells how a deal is typed: its seat letters are the notation's.
NOTATION = ("Notation d’une donne",)
# Games whose tables seat West (four players).
GAMES_WITH_WEST = ["pymtheg", "pyramid", "twenty", "pysngtaut"]


def lone_w(html: str) -> list[str]:
    return [
        piece
        for piece in shown_text(html)
        if LONE_W.search(piece) and not piece.startswith(NOTATION)
    ]


def test_the_detector_finds_a_lone_w_and_leaves_notation_and_codes_alone():
    html = "<p>N 1 · E -1 · S 1 · W -1</p><p>W</p><code>W:T9.J.9.KJ AK</code><p>QQS4W</p>"
    assert lone_w(html) == ["N 1 · E -1 · S 1 · W -1", "W"]
    assert lone_w("<p>N 1 · E -1 · S 1 · O -1</p><p>/score/?code=QQS4S6QU8W</p>") == []


def test_a_seat_s_letter_is_o_for_west_in_french_and_w_in_english():
    assert seat_mark("W") == "W" and SEAT_MARKS["N"] == "N" and seat_mark("NS") == "NS"
    with translation.override("fr"):
        assert [str(seat_letter(seat)) for seat in "NESW"] == ["N", "E", "S", "O"]
        assert seat_letters(("N", "E", "S", "W")) == "N, E, S, O"
        assert translated(play_in_words("counterclockwise", 4)) == (
            "sens inverse des aiguilles d’une montre (N → O → S → E)"
        )
    with translation.override("en"):
        assert seat_letters(("N", "E", "S", "W")) == "N, E, S, W"
    assert play_in_words("clockwise", 4) == "clockwise (N → E → S → W)"


def test_a_twenty_score_names_west_o_in_french():
    game = get_game("twenty")
    record = {
        "dealer": "N",
        "auction": ["E:PART", "S:P", "W:P", "N:P"],
        "partner": "W",
        "called": "T20",
        "points": 50,
        "tricks": 5,
    }
    score = game.score(
        game.entry_record(record, settings={}, table=1, players=4, dealer="N", deal="")
    )
    english = game.describe(score)
    assert english.endswith("Result: N +1, E −1, S +1, W −1"), english
    with translation.override("fr"):
        french = translated(english)
    assert french.endswith("Résultat : N +1, E −1, S +1, O −1"), french


@pytest.mark.parametrize("game_id", GAMES_WITH_WEST)
def test_a_french_tournament_s_pages_show_west_as_o(db, played_events, director_events, game_id):  # noqa: F811
    tournament = Tournament.objects.get(pk=played_events[game_id])
    pages = list(_published_pages(tournament)) + list(_french_pages(tournament))
    organiser = Client()
    organiser.force_login(OrganiserFactory())
    for name in ("tournaments:schedule", "tournaments:print_schedule"):
        pages.append((name, organiser.get(reverse(name, args=[tournament.slug]))))
    pk, matches = director_events[game_id]
    pages += list(_director_pages(Tournament.objects.get(pk=pk), matches))
    found = {}
    for name, response in pages:
        assert response.status_code in (200, 400), name
        left = lone_w(response.content.decode())
        if left:
            found[name] = left[:5]
    assert not found, f"{game_id}: W left: {found}"
    # Where the cards and records name West by letter, they name it O.
    cards = organiser.get(reverse("tournaments:print_tables", args=[tournament.slug]))
    assert re.search(r"(?<!\w)O(?!\w)", cards.content.decode()), "no O on the table cards"


@pytest.mark.parametrize("game_id", ["twenty", "pyramid"])
def test_an_english_tournament_s_pages_keep_w(db, played_events, game_id):  # noqa: F811
    tournament = Tournament.objects.get(pk=played_events[game_id])
    reader = Client()
    reader.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = reader.get(reverse("publishing:hand-records", args=[tournament.slug])).content.decode()
    assert "<th>W</th>" in page and "<th>O</th>" not in page


def test_the_phone_scripts_write_west_o_in_french(client, db):
    """The scripts' catalogue gives West's letter, and the scripts that show a seat's letter
    (the broadcast's calls and tricks, Pys'ngtaut's penalty buttons) show it through it."""
    import json

    catalogue = client.get(reverse("javascript-catalog", args=["fr"])).content.decode()
    found = re.search(r"const newcatalog = (\{.*?\});", catalogue, re.S)
    assert found, "no catalogue in the script"
    assert json.loads(found.group(1))["W"] == "O"
    root = Path(__file__).resolve().parent.parent
    board = (root / "static/broadcast/board.js").read_text(encoding="utf-8")
    assert "${call.seat} " not in board and "${trick.winner}" not in board
    assert board.count("seatLetter(") == 3  # a call, a card, a trick's winner
    entry = (root / "engine/games/pysngtaut/static/entry.js").read_text(encoding="utf-8")
    assert "}, letter(seat));" in entry and "(${letter(seat)})" in entry


@pytest.mark.parametrize("game_id", ["twenty", "pysngtaut"])
def test_a_french_workbook_names_west_o(db, played_events, game_id, settings, tmp_path):  # noqa: F811
    """The boards sheet's seat columns and dealers: West is O in French."""
    import io

    import openpyxl

    from tests.test_i18n_published import _exported

    settings.PUBLISHING_EXPORT_ROOT = tmp_path
    tournament = Tournament.objects.get(pk=played_events[game_id])
    book = openpyxl.load_workbook(io.BytesIO(_exported(tournament, "results", "xlsx")))
    headers = [
        cell.value for sheet in book.worksheets for cell in sheet[3] if isinstance(cell.value, str)
    ]
    seat_headers = [h for h in headers if re.search(r"^(Joueur|Marque|Points) [NESWO]$", h)]
    assert "Joueur O" in seat_headers and "Marque O" in seat_headers, seat_headers
    assert not any(h.endswith(" W") for h in seat_headers), seat_headers
    dealers = {
        row[2]
        for sheet in book.worksheets
        if [c.value for c in sheet[3]][2:3] == ["Donneur"]
        for row in sheet.iter_rows(min_row=4, values_only=True)
    }
    assert dealers and "W" not in dealers, dealers  # the event's two boards: N and E deal
