"""The organiser exports the results workbook of a tournament with a confirmed result on the
publishing page, downloads it, and opens it as a spreadsheet program would (openpyxl).
"""

from __future__ import annotations

import io
import re
import uuid

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from scoring import services as scoring_services
from tests.browser.helpers import PHONE_POLL_MS, expect
from tests.tournaments.factories import OrganiserFactory

pytestmark = pytest.mark.browser

GAM_MADE = {
    "auctions": [["N:G", "E:P", "S:P", "W:P"]],
    "trump": "fire",
    "tricks": {"NS": 10, "EW": 5},
}


@pytest.fixture
def confirmed_cup(cup):
    """The cup with round 1's result at table 1 entered by North and accepted by East."""
    entry = scoring_services.submit_entry(
        match_id=cup.match.pk,
        board_number=1,
        entrant=cup.north,
        facts=GAM_MADE,
        client_id=uuid.uuid4().hex,
    )
    scoring_services.accept_entry(
        match_id=cup.match.pk,
        board_number=1,
        entrant=cup.east,
        submission_id=entry.pk,
        client_id=uuid.uuid4().hex,
    )
    return cup


@pytest.fixture
def organiser_session(live, settings) -> dict[str, str]:
    """A signed-in organiser's session cookie (the sign-in page has its own test)."""
    client = Client()
    client.force_login(OrganiserFactory())
    return {
        "name": settings.SESSION_COOKIE_NAME,
        "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
        "url": live.url,
    }


def test_organiser_downloads_the_results_workbook(
    confirmed_cup, organiser_session, desktop, shots, settings, tmp_path
):
    settings.PUBLISHING_EXPORT_ROOT = tmp_path / "exports"
    page = desktop
    page.context.add_cookies([organiser_session])
    page.goto(reverse("publishing:organiser", args=[confirmed_cup.slug]))
    expect(page.get_by_role("heading", name="Publishing", level=1)).to_be_visible()
    page.get_by_label("Full results workbook").check()
    page.get_by_label("Excel workbook (.xlsx)").check()
    shots.take(page, "exports-page")
    page.get_by_role("button", name="Export", exact=True).click()
    download_link = page.get_by_role("link", name="Download", exact=True)
    expect(download_link).to_have_count(1, timeout=PHONE_POLL_MS)  # the page follows the job
    expect(page.locator("table.exports tbody tr")).to_contain_text(["Ready"])
    shots.take(page, "workbook-ready")
    with page.expect_download() as download_info:
        download_link.click()
    download = download_info.value
    assert download.suggested_filename.endswith(".xlsx")

    workbook = load_workbook(io.BytesIO(download.path().read_bytes()), read_only=True)
    values = [
        value
        for sheet in workbook.worksheets
        for row in sheet.iter_rows(values_only=True)
        for value in row
        if value is not None
    ]
    texts = [str(value) for value in values]
    assert any(confirmed_cup.north.name in text for text in texts)
    assert any(confirmed_cup.east.name in text for text in texts)
    assert any(re.fullmatch(r"\+?21", text) for text in texts)  # NS's table result
