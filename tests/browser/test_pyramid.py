"""A Pyramid evening on phones: North picks the declaration among what the declarer's sheet
has left, the trump and the tricks; East checks it; the standings and the declarer's pyramid
sheet follow without a reload. Every phone is its own context on a 390×844 touch screen."""

from __future__ import annotations

import re

import pytest

from scoring import services as scoring
from tests.browser.helpers import entrant_list_xlsx, expect, send_button
from tests.tournaments.factories import OrganiserFactory
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
    seats = {seat.seat: seat.entrant for seat in match.seats.select_related("entrant")}
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
    sheet = card.locator(".sheet-places").first
    expect(sheet).to_be_visible()
    expect(sheet).to_contain_text("10")
    shots.take(card, "pyramid-sheet")
    width = card.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the player's card scrolls sideways on a phone ({width} px)"
    for page_url in (f"/t/{tournament.slug}/standings/", f"/t/{tournament.slug}/tables/1/"):
        card.goto(page_url)
        width = card.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{page_url} scrolls sideways on a phone ({width} px)"


PASSWORD = "correct-horse-battery"
PLAYERS = [f"Player {chr(ord('A') + i)}" for i in range(16)]


@pytest.fixture
def organiser(live):
    return OrganiserFactory(username="olga", password=PASSWORD)


def test_an_organiser_prepares_a_pyramid_evening(live, organiser, desktop, open_phone, shots):
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(organiser.username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()

    page.goto("/tournaments/new/")
    page.get_by_role("link", name="Pyramid").click()
    page.get_by_label("Name").fill("Pyramid club night")
    page.get_by_label("Web address").fill("club-pyramid")
    page.get_by_label("Tables").fill("4")
    page.get_by_label("Declarations per round").fill("4")
    shots.take(page, "new-pyramid")
    page.get_by_role("button", name="Create").click()
    expect(page.get_by_text("Tournament “Pyramid club night” created.")).to_be_visible()

    page.get_by_role("link", name="Import from a spreadsheet").click()
    page.get_by_label(re.compile(r"^File")).set_input_files(
        {
            "name": "players.xlsx",
            "mimeType": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            "buffer": entrant_list_xlsx(PLAYERS),
        }
    )
    page.get_by_role("button", name="Check the file").click()
    page.get_by_role("button", name="Import these 16 players").click()
    expect(page.get_by_text("16 players imported", exact=False)).to_be_visible()
    shots.take(page, "players")

    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Schedule").click()
    page.get_by_role("button", name=re.compile(r"^Draw up the (schedule|movement)")).click()
    expect(page.get_by_text(re.compile(r"drawn up: 4 rounds"))).to_be_visible()
    expect(page.get_by_text("The validator finds no problem with this schedule.")).to_be_visible()
    shots.take(page, "movement")

    page.get_by_role("navigation", name="Tournament").get_by_role("link", name="Deals").click()
    page.get_by_role("button", name="Deal the missing boards").click()
    expect(page.get_by_text("64 boards dealt.")).to_be_visible()
    expect(page.locator("section.board-hands")).to_have_count(64)  # every hand in words
    expect(page.get_by_text("opens", exact=True)).to_have_count(0)  # no Pymtheg diagram
    shots.take(page, "deals")

    page.get_by_role("navigation", name="Tournament").get_by_role(
        "link", name="Pyramid club night"
    ).click()
    page.get_by_role("button", name="Start the tournament").click()
    expect(page.get_by_text("The tournament is running.")).to_be_visible()

    page.goto("/tournaments/club-pyramid/print/routes/?team=1")
    printed = page.get_by_text(re.compile(r"/score/club-pyramid/\?code=\w+$"))
    expect(printed).to_have_count(1)
    scorer_link = printed.inner_text().strip()
    first_round = page.locator("table.route tbody tr").first
    expect(first_round.locator("td").nth(2)).to_have_text(re.compile(r"^(North|East|South|West)$"))
    expect(first_round.locator("td").nth(3)).to_have_text(re.compile(r"^[NESW] \d+\. Player [B-P]"))
    shots.take(page, "route-card")
    page.goto("/tournaments/club-pyramid/print/tables/")
    # Two sheets a table: the card on the table and its deals, to keep face down.
    expect(page.get_by_role("heading", level=1)).to_have_count(8)
    expect(page.get_by_text("Keep face down.")).to_have_count(4)
    expect(
        page.get_by_role("heading", name=re.compile(r"^Board \d+ · dealer [NESW]$"))
    ).to_have_count(64)
    shots.take(page, "table-cards")

    phone = open_phone()
    phone.goto(scorer_link)
    expect(phone.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Round 1 · Table"))
    expect(phone.get_by_text(PLAYERS[0]).first).to_be_visible()
    shots.take(phone, "scorer-page")


def test_a_declaration_entered_offline_is_sent_once_back_online(live, evening, open_phone, shots):
    tournament, match, board, seats = evening
    north = open_phone()
    north.goto(live.scorer_link(tournament.slug, seats["N"].access_code))
    panel = north.locator(f"#m{match.pk}-b{board.number}")
    panel.scroll_into_view_if_needed()
    north.context.set_offline(True)
    choices(panel, "Declared").filter(has_text="5 (five)").click()
    choices(panel, "Trump").filter(has_text="No trumps").click()
    panel.get_by_role("group", name="Tricks won by East").get_by_role(
        "button", name="4", exact=True
    ).click()
    expect(panel.locator("[data-preview]")).to_contain_text("No connection")
    send_button(panel).click()
    expect(panel.get_by_text("Saved on this phone, will be sent")).to_be_visible()
    shots.take(north, "saved-on-the-phone")
    with live.exclusive():
        assert not scoring.board_state(match, scoring.board_of(match, board.number)).pending

    north.context.set_offline(False)
    expect(north.get_by_text(f"Board {board.number}: sent. East can check it now.")).to_be_visible()
    with live.exclusive():
        state = scoring.board_state(match, scoring.board_of(match, board.number))
        assert state.state == "awaiting_east"
        assert state.pending.record["declared"] == 5 and state.pending.score["seats"]["E"] == 8
