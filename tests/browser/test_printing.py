"""Printed cards on A4 as Chromium prints them: route cards two to a sheet; the cards to print
again after a room change flagged on screen only, cleared once printed."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from operations.simulation import simulate_tournament
from tests.tournaments.factories import OrganiserFactory
from tournaments import room, services
from tournaments.imports import EntrantRow
from tournaments.models import Tournament

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"


def pdf_pages(pdf: bytes) -> int:
    """The pages of a PDF Chromium printed (each is a ``/Type /Page`` object)."""
    return len(re.findall(rb"/Type\s*/Page\b(?!s)", pdf))


def field_of(pairs: int, slug: str) -> None:
    """A Pymtheg field of ``pairs`` pairs at half as many tables, every round drawn."""
    tournament = services.create_tournament(
        by=None, name="Printed cup", slug=slug, tables=(pairs + 1) // 2
    )
    rows = [
        EntrantRow(n, n, f"Pair {n} of the harbour", f"Ann {n}", f"Bo {n}")
        for n in range(1, pairs + 1)
    ]
    services.import_teams(by=None, tournament=tournament, rows=rows)
    services.draw_schedule(by=None, tournament=tournament)


@pytest.mark.parametrize("pairs", [4, 14])
def test_route_cards_print_two_to_an_a4_sheet(live, desktop, pairs):
    with live.exclusive():
        organiser = OrganiserFactory(username="printer", password=PASSWORD)
        field_of(pairs, "printed")
        entrants = pairs
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto("/tournaments/printed/print/routes/")
    expect(page.locator(".route-card")).to_have_count(entrants)
    pdf = page.pdf(format="A4")
    assert pdf_pages(pdf) == (entrants + 1) // 2, (entrants, pdf_pages(pdf))


def test_cards_to_print_again_are_flagged_on_screen_only_and_clear_after_printing(live, desktop):
    with live.exclusive():
        organiser = OrganiserFactory(username="reprinter", password=PASSWORD)
        field_of(8, "reprint")
        tournament = Tournament.objects.get(slug="reprint")
        services.deal_boards(by=organiser, tournament=tournament, seed="reprint")
        simulate_tournament(tournament, rounds=1, seed="reprint", by=organiser)
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto("/tournaments/reprint/print/routes/")  # the first printing
    expect(page.locator(".route-card")).to_have_count(8)
    with live.exclusive():
        change = room.withdraw(
            by=organiser, entrant=tournament.entrants.get(number=3), after_round=1
        )
        opponents = {n for kept in change.matches for n in (kept["north"], kept["east"])} - {3}
    page.goto("/tournaments/reprint/print/routes/?reprint=1")
    expect(page.locator(".route-card")).to_have_count(len(opponents))
    expect(page.get_by_text("Reprint: changed since it was printed")).to_have_count(len(opponents))
    page.screenshot(path="/tmp/reprint-screen.png", full_page=True)
    page.emulate_media(media="print")
    expect(page.get_by_text("Reprint: changed since it was printed").first).to_be_hidden()
    assert pdf_pages(page.pdf(format="A4")) == (len(opponents) + 1) // 2
    page.emulate_media(media="screen")
    # The print dialog closes: asked whether the cards came out, yes clears their flags.
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.evaluate("window.dispatchEvent(new Event('afterprint'))")
    expect(page.get_by_text("No route card needs printing again")).to_be_visible()
    expect(page.locator(".route-card")).to_have_count(0)
