"""A new organiser runs a club through its pages only (the Django test client), as he would:
he creates the club, imports 30 members from a spreadsheet, opens the evening's tournament
from its entrants page, registers 14 pairs from the list, dates the evening, and once it is
played, finalised and published he makes a season and reads its ladder, a player's page
and the workbook."""

from __future__ import annotations

import io
import re
from datetime import timedelta
from html import unescape

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import timezone

from clubs.models import ClubEvent, EntrantMember, Member
from operations.simulation import simulate_tournament
from publishing import services as publishing
from publishing.models import Export
from scoring.standings import recompute
from tests.tournaments.factories import OrganiserFactory
from tournaments import services as tournaments

NAMES = [
    "Ada Byron", "Ben Okri", "Cleo Laine", "Dev Patel", "Edna Ferber", "Finn Cole",
    "Gus Dapperton", "Hana Ito", "Ivo Andric", "Jon Snowe", "Kit Harte", "Lea Salonga",
    "Mo Farah", "Nia Long", "Oz Perkins", "Pia Zadora", "Quin Lee", "Rae Dawn",
    "Sol Campbell", "Tia Carrere", "Uma Thurm", "Vic Reeves", "Wes Studi", "Xan Brooks",
    "Yul Bryner", "Zoe Ball", "Abe Vigoda", "Bea Arthur", "Cal Ripken", "Dot Cotton",
]  # fmt: skip


def text(response) -> str:
    return unescape(" ".join(re.sub(r"<[^>]+>", " ", response.content.decode()).split()))


def member_sheet() -> bytes:
    """The club's list as a secretary keeps it: French column titles, an e-mail column, a
    column the import does not know, numbers typed as numbers."""
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["N°", "Nom", "Courriel", "Remarques"])
    for number, name in enumerate(NAMES, start=101):
        sheet.append([number, name, f"{name.split()[0].lower()}@club.example", ""])
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


@pytest.fixture
def exports(db, settings, tmp_path):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"


def test_a_new_organiser_runs_a_club_evening_from_its_pages(
    client, exports, django_capture_on_commit_callbacks
):
    organiser = OrganiserFactory()
    client.force_login(organiser)

    # The club.
    assert "You organise no club yet" in text(client.get(reverse("clubs:list")))
    made = client.post(reverse("clubs:list"), {"name": "Harbour Bridge Club", "slug": ""})
    members_url = reverse("clubs:members", args=["harbour-bridge-club"])
    assert made["Location"] == members_url
    page = text(client.get(members_url))
    assert "Club Harbour Bridge Club created." in page
    assert "No member yet" in page and "Import a member list" in page

    # 30 members from a spreadsheet: the preview, then the import.
    upload = reverse("clubs:members_import", args=["harbour-bridge-club"])
    sheet = SimpleUploadedFile("members.xlsx", member_sheet())
    preview = text(client.post(upload, {"file": sheet}))
    assert "Preview: 30 members from members.xlsx" in preview
    assert "Ignored columns: Remarques" in preview and "Ada Byron" in preview
    confirm = reverse("clubs:members_import_confirm", args=["harbour-bridge-club"])
    done = client.post(confirm, follow=True)
    assert "Imported 30 members." in text(done)
    members = Member.objects.filter(club__slug="harbour-bridge-club")
    assert members.count() == 30
    assert members.get(number="101").contact == "ada@club.example"

    # The evening's tournament, made as any other; its entrants page leads to the club.
    tournament = tournaments.create_tournament(
        by=organiser, name="Monday pairs", slug="monday-pairs", tables=7
    )
    entrants = text(client.get(reverse("tournaments:teams", args=["monday-pairs"])))
    assert "Register or link these entrants from the members of Harbour Bridge Club" in entrants
    links = reverse("clubs:event_links", args=["harbour-bridge-club", "monday-pairs"])
    page = text(client.get(links))
    assert "Register new teams from the list" in page and "No entrant yet." in page

    # 14 pairs from the list, a line each; a typo first refuses every line.
    lines = "\n".join(f"{n} {n + 1}" for n in range(101, 129, 2))
    typo = client.post(links, {"form": "register", "register-lines": lines + "\n129 999"})
    assert typo.status_code == 400
    assert "line 15: player 2: no member numbered 999 in Harbour Bridge Club" in text(typo)
    assert tournament.entrants.count() == 0
    registered = client.post(links, {"form": "register", "register-lines": lines}, follow=True)
    assert "14 teams registered." in text(registered)
    assert tournament.entrants.count() == 14 and EntrantMember.objects.count() == 28
    assert tournament.entrants.get(number=1).name == "Ada Byron & Ben Okri"

    # The evening was played last Monday (the tournament made today).
    monday = timezone.localdate() - timedelta(days=timezone.localdate().weekday() or 7)
    dated = client.post(links, {"form": "date", "date-date": monday.isoformat()}, follow=True)
    assert "The event's date is saved" in text(dated)
    assert ClubEvent.objects.get(tournament=tournament).date == monday

    # Played, finalised and published as any tournament is.
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.draw_schedule(by=organiser, tournament=tournament)
        tournaments.deal_boards(by=organiser, tournament=tournament, seed="harbour")
        simulate_tournament(tournament, rounds=None, seed="harbour", by=organiser)
        recompute(tournament.pk)
        tournaments.finalise_tournament(by=organiser, tournament=tournament)
        recompute(tournament.pk)
    export, _ = publishing.request_export(
        tournament=tournament, kind=Export.Kind.STANDINGS, fmt="xlsx", enqueue=False
    )
    publishing.run_export(export.pk)
    publishing.publish_export(export=Export.objects.get(pk=export.pk), by=organiser)

    # The season, from its page; its ladder computed once the form is saved.
    seasons_url = reverse("clubs:seasons", args=["harbour-bridge-club"])
    form = {
        "name": "Autumn",
        "starts": (monday - timedelta(days=30)).isoformat(),
        "ends": (monday + timedelta(days=60)).isoformat(),
        "kind": "best",
        "best_n": 4,
        "min_events": 1,
        "points": "",
    }
    with django_capture_on_commit_callbacks(execute=True):
        saved = client.post(seasons_url, form, follow=True)
    assert "Season Autumn saved; its ladder is computed." in text(saved)

    # The public pages: the ladder (28 members, every one placed), a player, the workbook.
    client.logout()
    ladder = client.get(reverse("clubs:ladder", args=["harbour-bridge-club", "autumn"]))
    page = text(ladder)
    assert ladder.status_code == 200 and "computed" in page and "from 1 event" in page
    assert "Ranked by the best 4 percentages" in page
    rows = re.findall(r"<tr>\s*<td>(\d+)</td>", ladder.content.decode())
    assert len(rows) == 28 and rows[0] == "1"
    player = client.get(reverse("clubs:player", args=["harbour-bridge-club", "101"]))
    page = text(player)
    assert "Monday pairs" in page and monday.strftime("%d/%m/%Y") in page
    assert "Ben Okri" in page and "<svg" in player.content.decode()
    workbook = client.get(reverse("clubs:ladder_download", args=["harbour-bridge-club", "autumn"]))
    book = openpyxl.load_workbook(io.BytesIO(workbook.content))
    assert book.worksheets[0].max_row == 3 + 28
    # Contacts never leave the organiser's pages.
    assert "@club.example" not in player.content.decode() + ladder.content.decode()
