"""The organiser's day before play, on a desktop browser: sign in, create the tournament,
import the teams from a spreadsheet (upload, preview, confirm), draw up the schedule, deal
the boards, start; then a route card's scorer link opens the team's page on a phone."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import TEAM_NAMES, board_panel, entrant_list_xlsx, expect
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import Status, Tournament

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"


@pytest.fixture
def organiser(live):
    return OrganiserFactory(username="alice", password=PASSWORD)


def test_organiser_prepares_and_starts_a_tournament(live, organiser, desktop, open_phone, shots):
    page = desktop

    page.goto("/tournaments/")
    expect(page).to_have_url(re.compile(r"/accounts/login/"))
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    shots.take(page, "sign-in")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(re.compile("Tournaments"))

    page.goto("/tournaments/new/")
    page.get_by_label("Name").fill("Harbour Cup, 3 May")
    expect(page.get_by_label("Web address")).to_have_value("harbour-cup-3-may")  # as typed
    page.get_by_label("Name").fill("Harbour cup")
    page.get_by_label("Web address").fill("harbour")
    page.get_by_label("Tables").fill("2")
    shots.take(page, "new-tournament")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_text("Tournament “Harbour cup” created.")).to_be_visible()
    expect(page).to_have_url(re.compile(r"/tournaments/harbour/teams/$"))

    page.get_by_role("link", name="Import from a spreadsheet").click()
    page.get_by_label(re.compile(r"^File")).set_input_files(
        {
            "name": "teams.xlsx",
            "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "buffer": entrant_list_xlsx(TEAM_NAMES),
        }
    )
    page.get_by_role("button", name="Check the file").click()
    preview = page.locator("section.preview")
    expect(preview.get_by_role("heading")).to_have_text("Preview: 4 teams from teams.xlsx")
    expect(preview.get_by_role("row")).to_have_count(1 + len(TEAM_NAMES))
    expect(preview.get_by_role("row").nth(1)).to_contain_text("Fire Ants")
    shots.take(page, "import-preview")
    with live.exclusive():  # nothing is saved before the organiser confirms
        assert not Tournament.objects.get(slug="harbour").entrants.exists()
    page.get_by_role("button", name="Import these 4 teams").click()
    expect(page.get_by_text("4 teams imported from teams.xlsx.")).to_be_visible()
    entrants = page.locator("table.teams tbody tr")
    expect(entrants).to_have_count(4)
    expect(entrants.nth(3)).to_contain_text("Earth Moles")
    shots.take(page, "teams")

    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Schedule").click()
    page.get_by_label("Sides").select_option("fixed")
    page.get_by_role("button", name="Draw up the schedule").click()
    expect(page.get_by_text(re.compile(r"^Schedule drawn up: \d+ rounds"))).to_be_visible()
    expect(page.get_by_text("The validator finds no problem with this schedule.")).to_be_visible()
    expect(page.locator("table.schedule tbody tr").first).to_contain_text("–")
    shots.take(page, "schedule")

    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Deals").click()
    expect(page.get_by_text("2 boards not dealt yet.")).to_be_visible()
    page.get_by_role("button", name="Deal the missing boards").click()
    expect(page.get_by_text("2 boards dealt.")).to_be_visible()
    expect(page.get_by_role("figure")).to_have_count(2)  # a hand diagram a table
    shots.take(page, "deals")

    page.get_by_role("navigation", name="Tournament").get_by_role(
        "link", name="Harbour cup"
    ).click()
    expect(page.get_by_text("2 of 2 boards dealt")).to_be_visible()
    page.get_by_role("button", name="Start the tournament").click()
    expect(page.get_by_text("The tournament is running.")).to_be_visible()
    expect(page.get_by_role("heading", name="Status: Running")).to_be_visible()
    shots.take(page, "running")
    # Finalising is a decision: the page lists what is missing and refuses without a reason.
    page.get_by_role("link", name="Approve the standings as final…").click()
    expect(page.get_by_role("heading", name="4 results missing")).to_be_visible()
    page.get_by_role("button", name="Approve the standings as final").click()
    expect(page.get_by_text("4 results missing: finalise anyway, with a reason")).to_be_visible()
    shots.take(page, "finalise-refused")
    page.get_by_role("link", name="Cancel").click()
    expect(page.get_by_role("heading", name="Status: Running")).to_be_visible()
    with live.exclusive():
        assert Tournament.objects.get(slug="harbour").status == Status.RUNNING

    page.goto("/tournaments/harbour/print/routes/?team=1")
    printed = page.get_by_text(re.compile(r"/score/harbour/\?code=\w+$"))
    expect(printed).to_have_count(1)
    scorer_link = printed.inner_text().strip()
    assert scorer_link.startswith(live.url)
    shots.take(page, "route-card")

    phone = open_phone()
    phone.goto(scorer_link)
    expect(phone).to_have_url(re.compile(r"/score/harbour/$"))  # the code left the address
    expect(phone.get_by_text("Team 1 Fire Ants")).to_be_visible()
    expect(phone.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Round 1 · Table"))
    expect(board_panel(phone)).to_have_count(1)
    shots.take(phone, "scorer-page-from-route-card")
