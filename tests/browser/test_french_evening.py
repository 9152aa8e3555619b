"""A whole Twenty evening in French, as a French club's organiser runs it in a browser whose
language is French: sign in, create the tournament, register 8 players, draw the movement
from a proposal, deal, print the table cards and the route cards; a board entered on North's
phone and checked on East's, by touch; the director's overview, the public standings, a
player's card, the hand records and the results workbook. Every page is read with the
English detector of ``tests/test_i18n.py`` (the fixture's names left out): nothing English
is left."""

from __future__ import annotations

import io
import re
from pprint import pformat

import pytest
from openpyxl import load_workbook

from engine.games.twenty.cards import KINGS, parse_deal
from scoring import services as scoring
from tests.browser.conftest import DESKTOP, PHONE
from tests.browser.helpers import PHONE_POLL_MS, expect
from tests.test_i18n import english_left
from tests.test_i18n_published import ENGLISH_HEADERS, ENGLISH_SHEETS
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import ActionLog, Match, Tournament

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"
FRENCH = {"locale": "fr-FR"}
NAME = "Vingt du vendredi"
SLUG = "vingt-vendredi"
PLAYERS = [
    "Amélie Roux",
    "Bastien Morel",
    "Chloé Garnier",
    "Denis Lefèvre",
    "Élodie Marchand",
    "François Picard",
    "Gaëlle Benoît",
    "Hugo Fontaine",
]
SEATS = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}


class French:
    """Every page the evening shows, kept as the reader saw it, for the English detector."""

    def __init__(self, data: set[str], shots) -> None:
        self.data = data
        self.shots = shots
        self.pages: list[tuple[str, str]] = []

    def read(self, page, name: str, *, shot: bool = False) -> None:
        page.wait_for_load_state("load")
        assert page.evaluate("document.documentElement.lang") == "fr", name
        self.pages.append((name, page.content()))
        if shot:
            self.shots.take(page, name)

    def english(self, data: set[str]) -> dict[str, list[str]]:
        """What is English on each page, ``data`` (the fixture's names and records) left out."""
        found = {name: english_left(html, self.data | data) for name, html in self.pages}
        return {name: left for name, left in found.items() if left}


def group(panel, legend: str):
    return panel.get_by_role("group", name=legend)


def call(panel, seat: str, name: str) -> None:
    expect(panel.get_by_text(f"À {SEATS[seat]} de parler", exact=True)).to_be_visible()
    panel.get_by_role("group", name="Boîte à enchères").get_by_role(
        "button", name=name, exact=True
    ).tap()


def test_a_twenty_evening_in_french(live, contexts, shots, tmp_path, settings):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"
    with live.exclusive():
        organiser = OrganiserFactory(username="claire", password=PASSWORD)
    french = French({NAME, SLUG, *PLAYERS, organiser.username}, shots)
    page = contexts.new_page({**DESKTOP, **FRENCH})

    # Sign in.
    page.goto("/tournaments/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    french.read(page, "connexion", shot=True)
    page.get_by_label(re.compile("utilisateur")).fill(organiser.username)
    page.get_by_label(re.compile("^Mot de passe")).fill(PASSWORD)
    page.get_by_role("button", name="Connexion").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Tournois"))
    french.read(page, "tournois")

    # A Twenty tournament from the new-tournament form.
    page.get_by_role("link", name="Nouveau tournoi").click()
    page.get_by_role("link", name=re.compile("^(Vingt|Twenty)")).click()
    page.get_by_label(re.compile("^Nom")).fill(NAME)
    page.get_by_label("Adresse web").fill(SLUG)
    page.get_by_label(re.compile("^Tables")).fill("2")
    french.read(page, "nouveau-tournoi", shot=True)
    page.get_by_role("button", name="Créer").click()
    expect(page).to_have_url(re.compile(rf"/tournaments/{SLUG}/teams/$"))
    french.read(page, "joueurs-vide")

    # 8 players, one by one.
    for name in PLAYERS:
        page.get_by_label(re.compile("^Nom")).fill(name)
        page.get_by_role("button", name="Inscrire", exact=True).click()
        expect(page.locator("table.teams tbody")).to_contain_text(name)
    expect(page.locator("table.teams tbody tr")).to_have_count(8)
    french.read(page, "joueurs", shot=True)

    # The movement from a proposal, then the deals.
    menu = page.get_by_role("navigation", name="Tournoi")
    menu.get_by_role("link", name="Mouvement").click()
    french.read(page, "propositions", shot=True)
    page.get_by_role("button", name="Tirer le mouvement choisi").click()
    expect(page.locator("table.schedule tbody tr").first).to_be_visible()
    french.read(page, "mouvement", shot=True)
    menu.get_by_role("link", name="Donnes").click()
    page.get_by_role("button", name="Distribuer les donnes manquantes").click()
    expect(page.get_by_role("region", name="Table 1, donne 1")).to_be_visible()
    french.read(page, "donnes")

    # The printed cards.
    page.goto(f"/tournaments/{SLUG}/print/tables/")
    french.read(page, "fiches-de-table", shot=True)
    hands = page.locator("body").inner_text()
    assert "Atouts " in hands and "Trumps" not in hands  # a Twenty hand's trumps
    # Its kings, queens and jacks are R, D and V (the cavalier's C is the same word).
    assert re.search(r"[♠♥♦♣][^\n]*\b[RDV]\b", hands), hands
    assert not re.search(r"[♠♥♦♣][^\n]*\b[KQJ]\b", hands), hands
    # The Fool is the Excuse ("Exc."), West's letter O (Ouest).
    assert "Exc." in hands and not re.search(r"Atouts F\b", hands), hands
    assert "donneur W" not in hands, hands
    page.goto(f"/tournaments/{SLUG}/print/routes/")
    french.read(page, "feuilles-de-route", shot=True)

    # Start.
    page.goto(f"/tournaments/{SLUG}/")
    french.read(page, "tableau-de-bord")
    page.get_by_role("button", name="Commencer le tournoi").click()
    expect(page.get_by_text("Le tournoi est en cours.")).to_be_visible()
    french.read(page, "en-cours", shot=True)

    with live.exclusive():
        tournament = Tournament.objects.get(slug=SLUG)
        assert tournament.game == "twenty" and tournament.language == "fr"
        match = Match.objects.get(table__tournament=tournament, round=1, table__number=1)
        seats = {seat.seat: seat.entrant for seat in match.seats.select_related("entrant")}
        board = match.table.boards.get(number=1)
        kings = parse_deal(board.deal).set_holder(KINGS)
        codes = {seat: entrant.access_code for seat, entrant in seats.items()}

    # North enters board 1 on the phone: East opens, South plays No Trumps alone.
    north = contexts.new_page({**PHONE, **FRENCH})
    north.goto(live.scorer_link(SLUG, codes["N"]))
    panel = north.locator(f"#m{match.pk}-b1")
    panel.scroll_into_view_if_needed()
    expect(panel).to_contain_text("Nord donne ; Est (premier) ouvre par un Appel.")
    french.read(north, "nord-avant", shot=True)
    call(panel, "E", "Appel")
    call(panel, "S", "Sans-atout")
    for seat in ("W", "N", "E"):
        call(panel, seat, "Passe")
    expect(panel.get_by_text("Contrat : Sans-atout par Sud")).to_be_visible()
    panel.get_by_label("Points du camp du preneur").select_option("30")
    group(panel, "Levées du camp du preneur").get_by_role("button", name="3", exact=True).tap()
    if kings:
        group(panel, "Qui a montré les quatre Rois ?").get_by_role(
            "button", name=SEATS[kings], exact=True
        ).tap()
    send = panel.get_by_role("button", name="Envoyer à Est pour vérification")
    expect(send).to_be_enabled()
    expect(panel.locator("[data-preview]")).to_contain_text("Sans-atout par Sud : 30 points")
    french.read(north, "nord-apercu", shot=True)
    send.tap()
    expect(north.get_by_text("Donne 1 : envoyée. Est peut la vérifier.")).to_be_visible()
    french.read(north, "nord-envoye")

    east = contexts.new_page({**PHONE, **FRENCH})
    east.goto(live.scorer_link(SLUG, codes["E"]))
    east_panel = east.locator(f"#m{match.pk}-b1")
    east_panel.scroll_into_view_if_needed()
    expect(east_panel.get_by_text("Vérification par Est")).to_be_visible()
    french.read(east, "est-verifie", shot=True)
    east_panel.get_by_role("button", name="Accepter : c’est juste").tap()
    expect(east.get_by_text("Donne 1 : acceptée. Le résultat est confirmé.")).to_be_visible()
    french.read(east, "est-accepte")
    with live.exclusive():
        assert scoring.board_state(match, scoring.board_of(match, 1)).state == "confirmed"

    # The director's overview, the public pages and the hand records.
    page.goto(f"/tournaments/{SLUG}/director/")
    french.read(page, "directeur", shot=True)
    reader = contexts.new_page({**PHONE, **FRENCH})
    reader.goto(f"/t/{SLUG}/standings/")
    expect(reader.locator("main")).to_contain_text(PLAYERS[0], timeout=PHONE_POLL_MS)
    french.read(reader, "classement", shot=True)
    reader.goto(f"/t/{SLUG}/teams/{seats['S'].number}/")
    french.read(reader, "fiche-joueur", shot=True)
    page.goto(f"/t/{SLUG}/hand-records/")
    french.read(page, "donnes-publiques", shot=True)
    hands = page.locator("body").inner_text()
    assert "Atouts " in hands and "Trumps" not in hands

    # The results workbook, downloaded from the publishing page.
    page.goto(f"/tournaments/{SLUG}/publishing/")
    french.read(page, "publication")
    page.get_by_label("Classeur de tous les résultats").check()
    page.get_by_label("Classeur Excel (.xlsx)").check()
    page.get_by_role("button", name="Exporter", exact=True).click()
    download = page.get_by_role("link", name="Télécharger", exact=True)
    expect(download).to_have_count(1, timeout=PHONE_POLL_MS)
    # Read once the file is ready, the page loaded again: the click's own message ("Export
    # started; ...", publishing/views.py) is still English and waits for its French.
    page.reload()
    expect(download).to_have_count(1)
    french.read(page, "export-pret", shot=True)
    with page.expect_download() as info:
        download.click()
    book = load_workbook(io.BytesIO(info.value.path().read_bytes()), read_only=True)
    names = book.sheetnames
    assert "Classement" in names and not set(names) & ENGLISH_SHEETS, names
    for sheet in book.worksheets:
        rows = list(sheet.iter_rows(min_row=1, max_row=3, values_only=True))
        headers = [v for v in (rows[2] if len(rows) > 2 else ()) if isinstance(v, str)]
        assert headers, sheet.title
        assert not set(headers) & ENGLISH_HEADERS, (sheet.title, headers)
        top = [str(rows[0][0] or ""), str(rows[1][0] or ""), *headers]
        html = "".join(f"<p>{text}</p>" for text in top)
        assert not english_left(html, french.data), (sheet.title, english_left(html, french.data))

    # The action log's lines are records, written once in English when the action is made
    # (docs/languages.md): the dashboard shows them as they were written.
    with live.exclusive():
        logged = set(
            ActionLog.objects.filter(tournament=tournament).values_list("summary", flat=True)
        )
    left = french.english(logged)
    assert not left, pformat(left, width=100)
