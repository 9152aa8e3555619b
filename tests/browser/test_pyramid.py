"""A Pyramid evening on phones: North picks the declaration among what the declarer's sheet
has left, the trump and the tricks; East checks it; the standings and the declarer's pyramid
sheet follow without a reload. Every phone is its own context on a 390×844 touch screen."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring
from tests.browser.helpers import expect, send_button
from tests.tournaments.test_individual_events import declaring, enter, pyramid_event
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.browser


@pytest.fixture
def evening(live):
    """16 players at 4 tables, started; the declarer East of round 1 at table 1 has already
    made his one "0" on the first board he declares."""
    tournament = pyramid_event(slug="pyramid-evening")
    tournament = services.start_tournament(by=None, tournament=tournament)
    match = Match.objects.get(table__tournament=tournament, round=1, table__number=1)
    first, second = declaring(tournament, match, "E")[:2]
    enter(match, first, {"declared": 0, "trump": "nt", "won": 0})
    seats = {seat.seat: seat.team for seat in match.seats.select_related("team")}
    return tournament, match, second, seats


def choices(panel, legend: str):
    return panel.get_by_role("group", name=legend).get_by_role("button")


def test_north_enters_only_what_the_sheet_has_left_and_east_checks(
    live, evening, open_phone, desktop, shots
):
    tournament, match, board, seats = evening
    east_player = seats["E"]
    standings = desktop
    standings.goto(f"/t/{tournament.slug}/standings/")
    expect(standings.get_by_role("row").filter(has_text=east_player.name)).to_be_visible()

    north = open_phone()
    north.goto(live.scorer_link(tournament.slug, seats["N"].access_code))
    expect(north.get_by_role("heading", level=1)).to_have_text("Round 1 · Table 1")
    panel = north.locator(f"#m{match.pk}-b{board.number}")
    panel.scroll_into_view_if_needed()
    expect(panel.get_by_text(re.compile(r"East \(.+\) declares, sheet 1"))).to_be_visible()
    offered = choices(panel, "Declared").all_text_contents()
    assert offered == ["1 (one)", "2 (two)", "3 (three)", "4 (four)", "5 (five)", "6 (six)"]
    expect(send_button(panel)).to_be_disabled()
    shots.take(north, "declarations-left")

    choices(panel, "Declared").filter(has_text="3 (three)").click()
    choices(panel, "Trump").filter(has_text="Hearts").click()
    panel.get_by_role("group", name="Tricks won by East").get_by_role(
        "button", name="3", exact=True
    ).click()
    expect(panel.locator("[data-preview]")).to_contain_text("East +10")
    expect(send_button(panel)).to_be_enabled()
    width = north.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page scrolls sideways on a phone ({width} px)"
    shots.take(north, "entry-with-preview")
    send_button(panel).click()
    expect(north.get_by_text(f"Board {board.number}: sent. East can check it now.")).to_be_visible()

    east = open_phone()
    east.goto(live.scorer_link(tournament.slug, seats["E"].access_code))
    east_panel = east.locator(f"#m{match.pk}-b{board.number}")
    east_panel.scroll_into_view_if_needed()
    expect(east_panel.get_by_text("Verification by East")).to_be_visible()
    shots.take(east, "east-checks")
    east_panel.get_by_role("button", name="Accept: this is right").click()
    expect(east.get_by_text(f"Board {board.number}: accepted.")).to_be_visible()

    with live.exclusive():
        result = scoring.board_state(match, scoring.board_of(match, board.number))
        assert result.state == "confirmed"
    # The public standings follow by themselves: East's row now counts two results.
    row = standings.get_by_role("row").filter(has_text=east_player.name)
    expect(row).to_contain_text(re.compile(r"\b2\b"), timeout=20_000)
    shots.take(standings, "standings")

    card = open_phone()
    card.goto(f"/t/{tournament.slug}/teams/{east_player.number}/")
    sheet = card.locator(".pyramid").first
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("10")
    shots.take(card, "pyramid-sheet")
