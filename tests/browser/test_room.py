"""The organiser seats a late arrival from the dashboard on a 360 px phone: the page of the
room's changes is reached from the dashboard, the form fits the screen, the change is listed
with its undo, and a withdrawal from a round already started is refused on the form."""

from __future__ import annotations

import re

import pytest

from tests.browser.helpers import expect
from tests.tournaments.factories import OrganiserFactory

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"
SMALL_PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}


def test_a_late_arrival_is_seated_from_the_dashboard_on_a_small_phone(live, contexts, shots):
    from tests.tournaments.test_room import _event, _played

    with live.exclusive():
        organiser = OrganiserFactory(username="olive", password=PASSWORD)
        tournament = _played(organiser, _event(organiser, entrants=7, tables=4, slug="late-phone"))
    page = contexts.new_page(SMALL_PHONE)
    page.goto(f"/tournaments/{tournament.slug}/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.get_by_role("link", name=re.compile("Late arrivals, withdrawals, substitutes")).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Late arrivals, withdrawals, substitutes"
    )
    page.locator("#id_arrival-name").fill("Night Owls")
    page.locator("#id_arrival-player1").fill("Ann")
    page.locator("#id_arrival-player2").fill("Bo")
    shots.take(page, "room-arrival-form")
    page.get_by_role("button", name="Seat the late arrival").click()
    expect(page.get_by_text("Night Owls is seated from round 2.")).to_be_visible()
    changes = page.locator("#changes")
    expect(changes.get_by_text(re.compile("Night Owls arrived late"))).to_be_visible()
    expect(changes.get_by_role("button", name="Undo")).to_have_count(1)
    shots.take(page, "room-arrival-done")
    width = page.evaluate("document.documentElement.scrollWidth")
    print(f"room page {width} px wide on a 360 px phone")
    assert width <= 360, f"the room page scrolls sideways ({width} px)"

    page.locator("#id_withdrawal-after_round").fill("0")
    page.get_by_role("button", name="Record the withdrawal").click()
    refusal = page.locator("#withdrawal .problems")
    expect(refusal).to_contain_text("round 1 has started: a withdrawal can take out only")
    shots.take(page, "room-withdrawal-refused")
