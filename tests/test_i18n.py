"""Languages: the page's language (the reader's choice, the organiser's stored one, the
tournament's, the browser's), the chooser of every page, the phone scripts' catalogue, and the
catalogues themselves: compiled as committed, every message translated, nothing fuzzy, every
message the product marks listed."""

from __future__ import annotations

import gettext
import importlib.util
import re
import sys
from html import unescape
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from engine.games import game_ids
from tests.tournaments.factories import OrganiserFactory, TournamentFactory
from tournaments.models import LanguageChoice, Status

ROOT = Path(__file__).resolve().parent.parent


def _catalogues_module():
    spec = importlib.util.spec_from_file_location("catalogues", ROOT / "scripts/catalogues.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["catalogues"] = module
    spec.loader.exec_module(module)
    return module


catalogues = _catalogues_module()
LANGUAGES = [code for code, _name in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
DOMAINS = ("django", "djangojs")


# --- the catalogues ---------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_message_of_the_catalogue_is_translated_and_none_is_fuzzy(language, domain):
    po = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    entries = catalogues.read_po(po)
    assert entries and entries[0].msgid == "" and "Plural-Forms" in entries[0].msgstr[0]
    untranslated = [e.msgid for e in entries[1:] if not e.translated]
    fuzzy = [e.msgid for e in entries if e.fuzzy]
    assert not untranslated, f"untranslated in {po.name}: {untranslated}"
    assert not fuzzy, f"fuzzy in {po.name}: {fuzzy}"
    ids = [e.key for e in entries]
    assert len(ids) == len(set(ids)), "a message is listed twice"
    places = re.compile(r"%\((\w+)\)s|\{(\w+)\}")
    for entry in entries[1:]:
        wanted = sorted(places.findall(entry.msgid + (entry.msgid_plural or "")))
        for text in entry.msgstr:
            assert set(places.findall(text)) <= set(wanted), f"places of {entry.msgid!r}"


def test_the_committed_mo_files_are_their_po_files_compiled():
    assert catalogues.catalogues(), "no catalogue found"
    assert catalogues.compile_all(check=True) == [], "run python scripts/catalogues.py"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("domain", DOMAINS)
def test_the_compiled_catalogue_reads_back_as_its_po(language, domain):
    po = ROOT / "locale" / language / "LC_MESSAGES" / f"{domain}.po"
    with (po.with_suffix(".mo")).open("rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    for entry in catalogues.read_po(po)[1:]:
        if entry.msgctxt is not None:  # a word that means something else elsewhere
            assert compiled.pgettext(entry.msgctxt, entry.msgid) == entry.msgstr[0]
        elif entry.msgid_plural is None:
            assert compiled.gettext(entry.msgid) == entry.msgstr[0]
        else:
            assert compiled.ngettext(entry.msgid, entry.msgid_plural, 1) == entry.msgstr[0]
            assert compiled.ngettext(entry.msgid, entry.msgid_plural, 2) == entry.msgstr[1]


def test_the_compiler_leaves_out_fuzzy_and_untranslated_messages(tmp_path):
    po = tmp_path / "x.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, fuzzy\nmsgid "Board"\nmsgstr "Donne"\n\n'
        'msgid "Table"\nmsgstr ""\n\n'
        'msgid "Trick"\nmsgid_plural "Tricks"\nmsgstr[0] "levée"\nmsgstr[1] "levées"\n\n'
        'msgctxt "seat"\nmsgid "North"\nmsgstr "N"\n"ord"\n',
        encoding="utf-8",
    )
    entries = catalogues.read_po(po)
    assert [e.msgid for e in entries] == ["", "Board", "Table", "Trick", "North"]
    (tmp_path / "x.mo").write_bytes(catalogues.compile_mo(entries))
    with (tmp_path / "x.mo").open("rb") as stream:
        compiled = gettext.GNUTranslations(stream)
    assert compiled.gettext("Board") == "Board" and compiled.gettext("Table") == "Table"
    assert compiled.ngettext("Trick", "Tricks", 3) == "levées"
    assert compiled.pgettext("seat", "North") == "Nord"


def test_the_extractor_finds_what_the_product_marks():
    template = (
        "{% translate \"Round\" %} {% trans 'Table' %}\n"
        "{% blocktranslate trimmed with n=x %}\n  Board {{ n }}\n  of the day\n"
        "{% endblocktranslate %}"
    )
    assert catalogues.template_messages(template) == {"Round", "Table", "Board %(n)s of the day"}
    script = 'tr("East checks"); gettext(\'North enters\'); ngettext("a trick", "%s tricks", n)'
    assert catalogues.script_messages(script) == {
        "East checks",
        "North enters",
        "a trick",
        "%s tricks",
    }
    python = "x = _('Send')\ny = gettext_lazy('Lead' ' card')\nz = str('no')"
    assert catalogues.python_messages(python) == {"Send", "Lead card"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_the_product_marks_is_in_the_catalogue(language):
    """Django's own catalogues cover the messages of its admin and sign-in templates."""
    absent = catalogues.missing(language)
    with translation.override(language):
        absent["django"] = [m for m in absent["django"] if translation.gettext(m) == m]
    assert absent == {"django": [], "djangojs": []}, "add them to locale/<language>/"


# --- the page's language ----------------------------------------------------------------------


@pytest.fixture
def french_club(db):
    return TournamentFactory(slug="club", status=Status.RUNNING, language="fr")


def _language_of(response) -> str:
    return response["Content-Language"]


def test_english_is_the_default(client, db):
    response = client.get(reverse("login"))
    assert _language_of(response) == "en" and '<html lang="en">' in response.content.decode()


def test_the_browser_s_language_is_taken_when_the_reader_has_not_chosen(client, db):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9")
    assert _language_of(response) == "fr" and "Accept-Language" in response["Vary"]
    other = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de-DE")
    assert _language_of(other) == "en"


def test_the_tournament_s_language_is_the_default_of_its_pages(client, french_club):
    page = reverse("scoring:standings", args=[french_club.slug])
    response = client.get(page, HTTP_ACCEPT_LANGUAGE="en")
    assert _language_of(response) == "fr" and '<html lang="fr">' in response.content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert _language_of(client.get(page)) == "en"  # the reader's choice comes first


def test_a_changed_tournament_language_is_seen_at_once(client, french_club):
    page = reverse("scoring:standings", args=[french_club.slug])
    assert _language_of(client.get(page)) == "fr"
    french_club.language = "en"
    french_club.save()
    assert _language_of(client.get(page)) == "en"


def test_the_chooser_remembers_the_choice_in_a_cookie(client, db):
    page = reverse("login")
    response = client.post(reverse("set-language"), {"language": "fr", "next": page})
    assert response.status_code == 302 and response.url == page
    cookie = response.cookies[settings.LANGUAGE_COOKIE_NAME]
    assert cookie.value == "fr" and cookie["max-age"] == settings.LANGUAGE_COOKIE_AGE
    assert _language_of(client.get(page, HTTP_ACCEPT_LANGUAGE="en")) == "fr"


def test_the_chooser_refuses_an_unknown_language_and_a_page_elsewhere(client, db):
    refused = client.post(reverse("set-language"), {"language": "xx", "next": "/"})
    assert refused.status_code == 400 and settings.LANGUAGE_COOKIE_NAME not in refused.cookies
    away = client.post(reverse("set-language"), {"language": "fr", "next": "https://evil.test/"})
    assert away.status_code == 302 and away.url == "/"
    assert client.get(reverse("set-language")).status_code == 405


def test_an_organiser_s_choice_is_stored_and_follows_him_to_another_device(db):
    user = OrganiserFactory()
    first = Client()
    first.force_login(user)
    first.post(reverse("set-language"), {"language": "fr", "next": "/"})
    assert LanguageChoice.objects.get(user=user).language == "fr"
    other = Client()  # no cookie: the stored choice comes with the sign-in
    other.force_login(user)
    response = other.get(reverse("tournaments:list"), HTTP_ACCEPT_LANGUAGE="en")
    assert _language_of(response) == "fr"


@pytest.mark.parametrize(
    "name, args",
    [
        ("login", []),
        ("tournaments:list", []),
        ("scoring:standings", ["club"]),
        ("scorer-entry", ["club"]),
        ("tournaments:print_schedule", ["club"]),
    ],
)
def test_every_kind_of_page_has_the_chooser(client, french_club, name, args):
    client.force_login(OrganiserFactory())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    html = client.get(reverse(name, args=args)).content.decode()
    assert f'action="{reverse("set-language")}"' in html
    assert '<label for="language-choice">' in html and 'id="language-choice"' in html
    assert '<option value="fr" lang="fr" selected>Français</option>' in html
    assert '<button type="submit">' in html


def test_the_scripts_catalogue_is_in_the_language_of_its_address(client, db):
    french = client.get(reverse("javascript-catalog", args=["fr"]))
    english = client.get(reverse("javascript-catalog", args=["en"]))
    assert french.status_code == 200 and "django.gettext" in french.content.decode()
    assert '"Plural-Forms"' not in english.content.decode()
    assert "(n > 1)" in french.content.decode()  # the French plural rule
    assert client.get(reverse("javascript-catalog", args=["xx"])).status_code == 200


def test_numbers_and_dates_follow_the_language():
    from datetime import date

    from django.utils.formats import date_format, number_format

    with translation.override("fr"):
        assert number_format(1234.5, 1, force_grouping=True) == "1\xa0234,5"
        assert date_format(date(2026, 11, 27)) == "27 novembre 2026"
    with translation.override("en"):
        assert number_format(1234.5, 1) == "1234.5"


# --- pages rendered in French show no English sentence of the product ------------------------

# Words of English the product's pages use and French does not: one of them in a page rendered
# in French is a sentence left in English. The names of the fixture's entrants and tournament
# are French or neutral, and game names stay as they are.
ENGLISH_WORDS = frozenset(
    [
        "the",
        "your",
        "you",
        "is",
        "are",
        "and",
        "of",
        "to",
        "with",
        "this",
        "that",
        "has",
        "have",
        "not",
        "will",
        "be",
        "by",
        "for",
        "from",
        "what",
        "which",
        "who",
        "it",
        "its",
        "at",
        "in",
        "round",
        "board",
        "team",
        "player",
        "standings",
        "result",
        "results",
        "enter",
        "entered",
        "check",
        "checks",
        "waiting",
        "north",
        "south",
        "east",
        "west",
        "call",
        "director",
        "opponents",
        "send",
        "accept",
        "reject",
        "opening",
        "seat",
        "play",
        "clockwise",
        "sit",
        "bye",
        "loading",
        "continue",
        "access",
        "charts",
        "downloads",
        "records",
        "played",
        "status",
        "ranking",
        "back",
        "still",
        "come",
        "updates",
        "itself",
    ]
)
_TAG = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
_SHOWN_ATTRIBUTES = re.compile(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"')


def shown_text(html: str) -> list[str]:
    """What a reader of the page sees or hears: the text between tags, the labels of
    controls; one entry per piece of text."""
    text = [piece.strip() for piece in _TAG.sub("\n", html).split("\n")]
    return [unescape(piece) for piece in text + _SHOWN_ATTRIBUTES.findall(html) if piece]


def english_left(html: str, data: set[str]) -> list[str]:
    """The pieces of the page with a word of English in them, the fixture's data left out."""
    found = []
    for piece in shown_text(html):
        for name in sorted(data, key=len, reverse=True):
            piece = piece.replace(name, " ")
        # A word in capitals is a code or a deal's notation (AT, KQ), not a sentence. A French
        # word is read whole, its accents in it ("acceptée" is not "accept").
        words = {w.lower() for w in re.findall(r"[A-Za-zÀ-ÖØ-öø-ÿ']+", piece) if not w.isupper()}
        if words & ENGLISH_WORDS:
            found.append(piece)
    return found


def test_the_english_detector_finds_a_sentence_and_leaves_french_alone():
    html = '<p>North enters <b>the</b> result</p><button aria-label="Send it">Envoyer</button>'
    assert english_left(html, set()) == ["North enters", "the", "result", "Send it"]
    french = "<p>Nord saisit le résultat · Paire 3 contre paire 4</p><p>Les As</p>"
    assert english_left(french, {"Les As"}) == []


def _french_event(game_id: str):
    from tests.contract.events import build_event

    tournament = build_event(game_id, f"fr-{game_id}")
    tournament.name = f"Coupe d’hiver {game_id}"
    tournament.language = "fr"
    tournament.save()
    for entrant in tournament.entrants.all():
        entrant.name = f"Les As {entrant.number}"
        entrant.save()
    return tournament.pk


@pytest.fixture(scope="module")
def french_events(django_db_blocker):
    from engine.games import game_ids
    from tests.conftest import rows_for_the_scope

    yield from rows_for_the_scope(
        django_db_blocker, lambda: {game: _french_event(game) for game in game_ids()}
    )


def _data_of(tournament) -> set[str]:
    data = {tournament.name, tournament.slug}
    for entrant in tournament.entrants.all():
        data |= {entrant.name, entrant.player1, entrant.player2} - {""}
    return data


def _french_pages(tournament):
    from tests.contract.events import page_as, round_one

    match = round_one(tournament)[0]
    yield "code page", Client().get(reverse("scorer-entry", args=[tournament.slug]))
    yield "North", page_as(match.north_entrant).get(reverse("scorer-entry", args=[tournament.slug]))
    yield "East", page_as(match.east_entrant).get(reverse("scorer-entry", args=[tournament.slug]))
    reader = Client()
    yield "standings", reader.get(reverse("scoring:standings", args=[tournament.slug]))
    yield "table", reader.get(reverse("scoring:table", args=[tournament.slug, 1]))
    yield "card", reader.get(reverse("scoring:team", args=[tournament.slug, 1]))
    organiser = Client()
    organiser.force_login(OrganiserFactory())
    # The table cards' hands and double-dummy tables are still English (docs/languages.md).
    yield "schedule", organiser.get(reverse("tournaments:print_schedule", args=[tournament.slug]))


FRENCH_GAMES = list(game_ids())


@pytest.mark.parametrize("game_id", FRENCH_GAMES)
def test_the_pages_of_a_french_tournament_show_no_english_sentence(db, french_events, game_id):
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=french_events[game_id])
    data = _data_of(tournament)
    for name, response in _french_pages(tournament):
        assert response.status_code == 200, name
        assert response["Content-Language"] == "fr", name
        left = english_left(response.content.decode(), data)
        assert not left, f"{game_id}, {name}: English left: {left}"


def test_the_phone_loads_its_words_before_its_scripts(client, db, french_events):
    from tests.contract.events import page_as, round_one
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=french_events["pymtheg"])
    north = round_one(tournament)[0].north_entrant
    html = page_as(north).get(reverse("scorer-entry", args=[tournament.slug])).content.decode()
    catalogue = html.index(f'<script src="{reverse("javascript-catalog", args=["fr"])}" defer>')
    assert catalogue < html.index("entry.js") < html.index("scoring/scorer.js")
    words = client.get(reverse("javascript-catalog", args=["fr"])).content.decode()
    assert "Envoyer \\u00e0 Est pour v\\u00e9rification" in words or (
        "Envoyer à Est pour vérification" in words
    )


def test_the_engine_s_words_are_english_and_translated_by_the_web_layer():
    import copy
    import json
    import pickle

    from engine.core.messages import Words, words
    from tournaments.templatetags.languages import translated, translated_tree

    sentence = words("Tricks won by %(seat)s", seat=words("North"))
    assert sentence == "Tricks won by North" and json.dumps(sentence) == '"Tricks won by North"'
    for again in (pickle.loads(pickle.dumps(sentence)), copy.deepcopy(sentence)):
        assert isinstance(again, Words) and again.values["seat"].message == "North"
    with translation.override("fr"):
        assert translated(sentence) == "Levées faites par Nord"
        form = translated_tree({"fields": [{"label": sentence, "choices": [[1, "1"]]}]})
        assert form == {"fields": [{"label": "Levées faites par Nord", "choices": [[1, "1"]]}]}
        assert translated("Tricks won by North") == "Tricks won by North"  # data stays as is


def test_pyramid_s_entry_form_reaches_the_phone_in_french(db, french_events):
    from tests.contract.events import page_as, round_one
    from tournaments.models import Tournament

    tournament = Tournament.objects.get(pk=french_events["pyramid"])
    north = round_one(tournament)[0].north_entrant
    html = page_as(north).get(reverse("scorer-entry", args=[tournament.slug])).content.decode()
    assert "faites par Nord" in html and "Annonce" in html and "Tricks won" not in html


def test_east_checks_a_twenty_entry_in_french(db):
    from engine.games import get_game
    from scoring.views.entries import describe_entry
    from tournaments.templatetags.languages import translated

    game = get_game("twenty")
    record = {
        "auction": ["E:PART", "S:P", "W:P", "N:P"],
        "partner": "W",
        "called": "T20",
        "points": 50,
        "tricks": 5,
    }
    try:
        full = game.entry_record(record, settings={}, table=1, players=4, dealer="N", deal="")
        score = game.score(full)
    except Exception as exc:  # the record above must stay a legal entry
        pytest.fail(f"the sample entry no longer scores: {exc}")
    facts = describe_entry(full, score, game)["facts"]
    english = dict(facts)
    assert english["Auction"] == "East: Partnership, South: Pass, West: Pass, North: Pass"
    with translation.override("fr"):
        french = {translated(label): translated(text) for label, text in facts}
    assert french["Enchères"] == "Est\xa0: Appel, Sud\xa0: Passe, Ouest\xa0: Passe, Nord\xa0: Passe"
    assert french["Contrat"] == "Appel par Est" and french["Camp du preneur"] == "Est et Ouest"
