"""The club pages in French: every organiser's page (the lists, the import with its preview
and its refusals, a member, a player's history, the events, who played, the seasons) and
every public one (a player's page, a season's ladder and its workbook), rendered for a
reader who chose French, with no English word of the product left."""

from __future__ import annotations

import io
import re

import openpyxl
import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from clubs.models import Member, Season
from tests.clubs.conftest import (  # noqa: F401 (fixtures)
    club,
    members,
    organiser,
    pairs_event,
    players_event,
    season,
)
from tests.clubs.test_seasons import finalise, services_season
from tests.test_i18n import ENGLISH_WORDS, english_left, shown_text

# Words of the club pages that the product's list does not hold (none of them French).
CLUB_WORDS = frozenset(
    {
        "member",
        "members",
        "season",
        "seasons",
        "ladder",
        "ladders",
        "merge",
        "merges",
        "merged",
        "event",
        "events",
        "link",
        "linked",
        "guest",
        "number",
        "name",
        "import",
        "imported",
        "save",
        "edit",
        "add",
        "shown",
        "opted",
        "out",
        "yes",
        "organiser",
        "organisers",
        "none",
        "upload",
        "file",
        "line",
        "preview",
        "game",
        "games",
        "percentage",
        "published",
        "partner",
        "undo",
        "undone",
        "find",
        "register",
        "starts",
        "ends",
        "best",
        "average",
        "workbook",
        "computed",
        "withdrawn",
        "active",
        "inactive",
        "missing",
        "nothing",
        "every",
        "only",
    }
)


def english(html: str, data: set[str]) -> list[str]:
    """``tests.test_i18n.english_left`` with the club pages' own words added."""
    left = english_left(html, data)
    extra = []
    for piece in shown_text(html):
        for name in sorted(data, key=len, reverse=True):
            piece = piece.replace(name, " ")
        # Whole words, accents kept: "importé" is not "import".
        words = {w.lower() for w in re.findall(r"[^\W\d_]+", piece)}
        if words & (CLUB_WORDS - ENGLISH_WORDS) and piece not in left:
            extra.append(piece)
    return left + extra


def french(user=None) -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    if user is not None:
        client.force_login(user)
    return client


@pytest.fixture
def ladder(club, organiser, members, season, django_capture_on_commit_callbacks):  # noqa: F811
    for event in season.values():
        finalise(event)
    with django_capture_on_commit_callbacks(execute=True):
        found = services_season(club, organiser, kind=Season.Kind.BEST, best_n=2)
    Member.objects.filter(number="102").update(public=False)
    return found


def fixture_data(organiser, season) -> set[str]:  # noqa: F811
    names = set(Member.objects.values_list("name", flat=True))
    names |= {"Rivertown Club", "Rivertown", organiser.get_username(), "Autumn"}
    for event in season.values():
        names |= {event.name, event.game_rules.title, event.slug}
        for entrant in event.entrants.all():
            names |= {entrant.name, entrant.player1, entrant.player2}
    return {name for name in names if name}


def page(client: Client, url: str, names: set[str], *, method="get", status=200, data=None):
    response = getattr(client, method)(url, data)
    assert response.status_code == status, (url, response.status_code)
    assert response["Content-Language"] == "fr", url
    left = english(response.content.decode(), names)
    assert not left, f"{url}: English left: {left}"
    return response


def test_every_organisers_club_page_is_in_french(
    organiser,  # noqa: F811
    members,  # noqa: F811
    season,  # noqa: F811
    ladder,
    pairs_event,  # noqa: F811
    players_event,  # noqa: F811
):
    data = fixture_data(organiser, season)
    client = french(organiser)
    ann = members[0]
    for name, args in [
        ("clubs:list", []),
        ("clubs:members", ["rivertown"]),
        ("clubs:members_import", ["rivertown"]),
        ("clubs:member_edit", ["rivertown", ann.pk]),
        ("clubs:history", ["rivertown", ann.pk]),
        ("clubs:events", ["rivertown"]),
        ("clubs:event_links", ["rivertown", pairs_event.slug]),
        ("clubs:event_links", ["rivertown", players_event.slug]),
        ("clubs:seasons", ["rivertown"]),
        ("clubs:season_edit", ["rivertown", ladder.slug]),
    ]:
        page(client, reverse(name, args=args), data)
    suggest = reverse("clubs:suggest", args=["rivertown"])
    assert "Ann Smith" in page(client, suggest + "?q=Smith", data).content.decode()
    assert "Aucun adhérent trouvé" in page(client, suggest + "?q=zzz", data).content.decode()


def test_the_refusals_and_the_preview_are_in_french(organiser, members, pairs_event):  # noqa: F811
    data = {"Ann Smith", "Bob Jones", "Cy Smith", "Di Brown", "Rivertown Club", "Rivertown"}
    data |= {pairs_event.name, organiser.get_username(), "Eve Green", "x.csv", "y.csv"}
    data |= {entrant.name for entrant in pairs_event.entrants.all()}
    client = french(organiser)
    upload = reverse("clubs:members_import", args=["rivertown"])
    good = SimpleUploadedFile("x.csv", "numéro,nom\n201,Eve Green\n".encode())
    preview = page(client, upload, data, method="post", data={"file": good})
    assert "Aperçu : 1 adhérent lu dans x.csv" in preview.content.decode()
    bad = SimpleUploadedFile("y.csv", "numéro,nom,actif\n101,,peut-être\n202,Eve Green,\n".encode())
    refused = page(client, upload, data, method="post", data={"file": bad})
    text = refused.content.decode()
    assert "ligne 2 : le nom manque; actif &#x27;peut-être&#x27; n’est ni oui ni non" in text
    links = reverse("clubs:event_links", args=["rivertown", pairs_event.slug])
    lines = {"form": "many", "many-lines": "1, 101, 102\n2, 103, 999\n3, 101"}
    text = page(client, links, data, method="post", status=400, data=lines).content.decode()
    assert "ligne 2 : joueur 2 : aucun adhérent n’a le numéro 999 à Rivertown Club" in text
    assert "ligne 3 : Ann Smith (101) figure aussi à la ligne 1" in text
    lines = {"form": "many", "many-lines": "1, 101\nx"}
    text = page(client, links, data, method="post", status=400, data=lines).content.decode()
    assert "ligne 2 : &#x27;x&#x27; n’est pas un numéro de participant" in text
    seasons = reverse("clubs:seasons", args=["rivertown"])
    wrong = {"name": "Hiver", "starts": "2026-12-01", "ends": "2026-11-01", "kind": "points"}
    wrong |= {"best_n": 4, "min_events": 1, "points": "10, 5"}
    text = page(client, seasons, data, method="post", status=400, data=wrong).content.decode()
    assert "Une saison se termine le jour où elle commence ou après." in text
    member = reverse("clubs:members", args=["rivertown"])
    taken = {"number": "101", "name": "Eve Green"}
    text = page(client, member, data, method="post", data=taken).content.decode()
    assert "le numéro d’adhérent 101 est déjà celui de &#x27;Ann Smith&#x27;" in text


def test_the_public_club_pages_are_in_french(organiser, members, season, ladder):  # noqa: F811
    data = fixture_data(organiser, season)
    client = french()
    text = page(client, reverse("clubs:player", args=["rivertown", "101"]), data).content
    assert b"Partenaire" in text and b"Pourcentage de chaque tournoi" in text
    text = page(client, reverse("clubs:ladder", args=["rivertown", ladder.slug]), data).content
    assert "un adhérent hors pages publiques".encode() in text
    assert "Classé par les 2 meilleurs pourcentages".encode() in text
    workbook = client.get(reverse("clubs:ladder_download", args=["rivertown", ladder.slug]))
    book = openpyxl.load_workbook(io.BytesIO(workbook.content))
    assert book.sheetnames == ["Classement", "Tournois"]
    cells = [str(c) for row in book.worksheets[0].iter_rows(values_only=True) for c in row if c]
    assert cells[2:6] == ["Rang", "Adhérent", "Score de la saison", "Tournois"]
    assert not english(" ".join(f"<p>{c}</p>" for c in cells), data)


def test_the_check_finds_the_english_pages(organiser, members, season, ladder):  # noqa: F811
    """The same pages for a reader who chose English: the check finds them English (it is not
    blind to the club's words)."""
    data = fixture_data(organiser, season)
    client = french(organiser)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    for url in (
        reverse("clubs:members", args=["rivertown"]),
        reverse("clubs:seasons", args=["rivertown"]),
        reverse("clubs:player", args=["rivertown", "101"]),
    ):
        html = client.get(url).content.decode()
        assert english(html, data), url
    assert english("<td>Members</td>", set()) == ["Members"]
    assert english("<td>Adhérents</td>", set()) == []
