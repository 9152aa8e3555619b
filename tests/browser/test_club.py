"""A club's organiser on a desktop browser: he signs in, creates the club, imports its 30
members from a spreadsheet (preview, then import), opens the evening's tournament from its
teams page, registers 8 pairs from the list, finds a member by name with the search box,
dates the evening; once it is played and published he makes a season, and the public ladder
and a player's page show the evening."""

from __future__ import annotations

import io
import re
from datetime import timedelta

import pytest
from django.utils import timezone
from openpyxl import Workbook

from clubs import seasons
from clubs.models import ClubEvent, EntrantMember, Season
from operations.simulation import simulate_tournament
from publishing import services as publishing
from publishing.models import Export
from scoring.standings import recompute
from tests.browser.helpers import expect
from tests.tournaments.factories import OrganiserFactory
from tournaments import services as tournaments
from tournaments.models import Tournament

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"
NAMES = [
    "Ada Byron", "Ben Okri", "Cleo Laine", "Dev Patel", "Edna Ferber", "Finn Cole",
    "Gus Dapper", "Hana Ito", "Ivo Andric", "Jon Snowe", "Kit Harte", "Lea Salonga",
    "Mo Farah", "Nia Long", "Oz Perkins", "Pia Zadora", "Quin Lee", "Rae Dawn",
    "Sol Campbell", "Tia Carrere", "Uma Thurm", "Vic Reeves", "Wes Studi", "Xan Brooks",
    "Yul Bryner", "Zoe Ball", "Abe Vigoda", "Bea Arthur", "Cal Ripken", "Dot Cotton",
]  # fmt: skip


def member_list_xlsx() -> bytes:
    book = Workbook()
    sheet = book.active
    sheet.append(["Member no", "Name", "E-mail"])
    for number, name in enumerate(NAMES, start=101):
        sheet.append([number, name, f"{name.split()[0].lower()}@club.example"])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


@pytest.fixture
def organiser(live, settings, tmp_path):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"
    return OrganiserFactory(username="carol", password=PASSWORD)


def test_a_club_evening_from_the_member_list_to_the_ladder(live, organiser, desktop, shots):
    page = desktop
    page.goto("/clubs/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Clubs")
    expect(page.get_by_text("You organise no club yet.")).to_be_visible()

    page.get_by_label("Name").fill("Harbour Bridge Club")
    page.get_by_role("button", name="Create the club").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Harbour Bridge Club: members")
    expect(page.get_by_text("No member yet")).to_be_visible()
    shots.take(page, "new-club")

    club_menu = page.get_by_role("navigation", name="Club")
    club_menu.get_by_role("link", name="Import a member list").click()
    page.get_by_label(re.compile(r"^File")).set_input_files(
        {
            "name": "members.xlsx",
            "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "buffer": member_list_xlsx(),
        }
    )
    page.get_by_role("button", name="Check the file").click()
    preview = page.locator("section.preview")
    expect(preview.get_by_role("heading")).to_have_text("Preview: 30 members from members.xlsx")
    expect(preview.get_by_role("row")).to_have_count(31)
    shots.take(page, "member-preview")
    page.get_by_role("button", name="Import these 30 members").click()
    expect(page.get_by_text("Imported 30 members.")).to_be_visible()
    expect(page.locator("table.grid tbody tr")).to_have_count(30)

    with live.exclusive():
        tournament = tournaments.create_tournament(
            by=organiser, name="Monday pairs", slug="monday-pairs", tables=4
        )
    page.goto("/tournaments/monday-pairs/teams/")
    page.get_by_role(
        "link", name="Register or link these entrants from the members of Harbour Bridge Club"
    ).click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Monday pairs: who played")
    page.get_by_label("One line a new entrant").fill(
        "\n".join(f"{n} {n + 1}" for n in range(101, 117, 2))
    )
    page.get_by_role("button", name="Register them").click()
    expect(page.get_by_text("8 teams registered.")).to_be_visible()
    rows = page.locator("table.grid tbody tr")
    expect(rows).to_have_count(8)
    expect(rows.first).to_contain_text("Ada Byron & Ben Okri")

    monday = timezone.localdate() - timedelta(days=timezone.localdate().weekday() or 7)
    page.get_by_label("Played on").fill(monday.isoformat())
    page.get_by_role("button", name="Save the date").click()
    expect(page.get_by_text("The event's date is saved; the ladders follow it.")).to_be_visible()

    # The search box: a name typed, the member offered, his number put in the form.
    page.wait_for_load_state()  # the page's scripts have run
    page.get_by_label("Find a member (name or number)").fill("Salonga")
    offered = page.get_by_role("button", name="112 · Lea Salonga")
    expect(offered).to_be_visible()
    offered.click()
    expect(page.get_by_label("Player 1's member number")).to_have_value("112")
    shots.take(page, "who-played")

    with live.exclusive():
        assert ClubEvent.objects.get(tournament=tournament).date == monday
        assert EntrantMember.objects.filter(tournament=tournament).count() == 16
        tournament = Tournament.objects.get(slug="monday-pairs")
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

    page.get_by_role("navigation", name="Club").get_by_role(
        "link", name="Seasons and ladders"
    ).click()
    page.get_by_label("Name").fill("Autumn")
    page.get_by_label("Starts").fill((monday - timedelta(days=30)).isoformat())
    page.get_by_label("Ends").fill((monday + timedelta(days=60)).isoformat())
    page.get_by_label("Ladder").select_option("best")
    page.get_by_label("Best N").fill("4")
    page.get_by_role("button", name="Save the season").click()
    expect(page.get_by_text("Season Autumn saved; its ladder is computed.")).to_be_visible()
    with live.exclusive():  # the ladder job, as a worker runs it
        seasons.compute_ladder(Season.objects.get(slug="autumn"))

    page.get_by_role("link", name="Autumn").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Harbour Bridge Club: Autumn")
    expect(page.get_by_text(re.compile(r"Ranked by the best 4 percentages"))).to_be_visible()
    ladder = page.locator("table.grid tbody tr")
    expect(ladder).to_have_count(16)
    expect(ladder.first.locator("td").first).to_have_text("1")
    shots.take(page, "ladder")

    page.get_by_role("link", name="Ada Byron").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Ada Byron")
    evening = page.locator("table.grid tbody tr")
    expect(evening).to_have_count(1)
    expect(evening.first).to_contain_text(monday.strftime("%d/%m/%Y"))
    expect(evening.first).to_contain_text("Monday pairs")
    expect(evening.first.get_by_role("link", name="Ben Okri")).to_be_visible()
    expect(page.get_by_role("img", name="Percentage of each event, oldest first")).to_be_visible()
    assert "@club.example" not in page.content()
    shots.take(page, "player")
    page.get_by_role("link", name="Autumn").click()  # back to the ladder
    expect(page.get_by_role("heading", level=1)).to_have_text("Harbour Bridge Club: Autumn")
