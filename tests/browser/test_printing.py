"""Printed cards on A4 as Chromium prints them: route cards two to a sheet."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.tournaments.factories import OrganiserFactory
from tournaments import services
from tournaments.imports import TeamRow

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
        TeamRow(n, n, f"Pair {n} of the harbour", f"Ann {n}", f"Bo {n}")
        for n in range(1, pairs + 1)
    ]
    services.import_teams(by=None, tournament=tournament, rows=rows)
    services.draw_schedule(by=None, tournament=tournament)


@pytest.mark.parametrize("pairs", [4, 14])
def test_route_cards_print_two_to_an_a4_sheet(live, desktop, pairs):
    with live.exclusive():
        organiser = OrganiserFactory(username="printer", password=PASSWORD)
        field_of(pairs, "printed")
        teams = pairs
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto("/tournaments/printed/print/routes/")
    expect(page.locator(".route-card")).to_have_count(teams)
    pdf = page.pdf(format="A4")
    assert pdf_pages(pdf) == (teams + 1) // 2, (teams, pdf_pages(pdf))
