"""The organiser draws tables of several sizes from the schedule page: 10 Pyramid players, the
first proposal (one table of 4 and two of 3) already chosen, drawn with one click; the page
then says these are the tables the tournament has, and the table card of a table of 3 names
North, East and South only."""

from __future__ import annotations

import pytest

from tests.browser.helpers import expect
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import MatchSeat

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"


def test_ten_pyramid_players_are_drawn_at_tables_of_four_and_three(live, desktop, shots):
    from tests.tournaments.test_mixed_tables import pyramid_players

    with live.exclusive():
        OrganiserFactory(username="mona", password=PASSWORD)
        tournament = pyramid_players(10, slug="mixed-page")
    page = desktop
    page.goto(f"/tournaments/{tournament.slug}/schedule/")
    page.get_by_label("Username").fill("mona")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    choice = page.get_by_role("radio", name="3 tables (1 of 4 and 2 of 3 players), 2 rounds")
    expect(choice).to_be_checked()
    expect(choice).to_be_enabled()
    shots.take(page, "mixed-proposals")
    page.get_by_role("button", name="Draw up the chosen way").click()
    expect(page.get_by_text("The tables you have now.")).to_be_visible()
    shots.take(page, "mixed-drawn")
    with live.exclusive():
        seats = set(
            MatchSeat.objects.filter(
                match__table__tournament=tournament, match__table__number=2
            ).values_list("seat", flat=True)
        )
        assert seats == {"N", "E", "S"}
    page.goto(f"/tournaments/{tournament.slug}/print/tables/?table=2")
    header = page.locator("table.matches thead")
    expect(header).to_have_text("RoundNES")
    expect(page.get_by_text("N → E → S", exact=False)).to_be_visible()
    shots.take(page, "mixed-table-card")
