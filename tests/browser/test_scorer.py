"""The scorers' phones at a running tournament: North enters the board through the bidding
box, East verifies it, rejects and accepts; the public standings follow without a reload;
an entry made without a connection is sent once the phone is back online.

Every phone is its own browser context (cookies, local storage) on a 390×844 touch screen.
"""

from __future__ import annotations

import json
import re

import pytest

from engine.games import get_game
from scoring import services as scoring
from scoring.models import Result, Submission
from tests.browser.helpers import (
    PHONE_POLL_MS,
    bidding_box,
    board_panel,
    enter_plain_gam,
    expect,
    make_call,
    my_match_link,
    name_trump,
    offered_calls,
    score_preview,
    send_button,
    set_team_tricks,
)
from tests.tournaments.factories import OrganiserFactory

pytestmark = pytest.mark.browser

PASSWORD = "correct-horse-battery"

GAM_FIRE_10_WORDS = "North plays Gâm, Fire named after the auction: made, +21 to NS"
GAM_FIRE_9_WORDS = "North plays Gâm, Fire named after the auction: made, +20 to NS"
REASON = "We took 6 tricks, not 5"


def open_scorer(open_phone, live, cup, entrant):
    """A phone opened at the team's scorer link, as scanned from its route card."""
    page = open_phone()
    page.goto(live.scorer_link(cup.slug, entrant.access_code))
    expect(page.get_by_role("heading", level=1)).to_have_text("Round 1 · Table 1")
    return page


def entries_of(live, cup) -> list[Submission]:
    with live.exclusive():
        return list(Submission.objects.filter(match=cup.match).order_by("pk"))


def test_north_enters_a_board_through_the_bidding_box(live, cup, open_phone, shots):
    north = open_scorer(open_phone, live, cup, cup.north)
    panel = board_panel(north)
    expect(north.get_by_text("North–South: North enters the result")).to_be_visible()
    expect(panel.get_by_text("No call yet.")).to_be_visible()
    shots.take(north, "empty-bidding-box")

    make_call(panel, "North", "Gâm")
    expect(panel.get_by_text("East to call", exact=True)).to_be_visible()
    offered = offered_calls(panel)
    # Over Gâm the next Gâm-family bid must be Gâm +1: no jump, and not Gâm again.
    assert "Gâm +1" in offered
    assert "Gâm +1, Water named in the bid" in offered
    assert "Ry" in offered
    assert not [call for call in offered if call.startswith(("Gâm +2", "Gâm +3"))], offered
    assert not [call for call in offered if call == "Gâm" or call.startswith("Gâm,")], offered
    expect(bidding_box(panel).get_by_role("button", name="Gâm +2")).to_have_count(0)
    shots.take(north, "east-to-call-no-jump-offered")

    for seat in ("East", "South", "West"):
        make_call(panel, seat, "Pass")
    expect(bidding_box(panel)).to_have_count(0)  # the auction is over
    expect(panel.get_by_text("Contract: Gâm, by North")).to_be_visible()
    expect(score_preview(panel)).to_have_text("Name the trump.")
    expect(send_button(panel)).to_be_disabled()

    name_trump(panel, "Fire")
    expect(score_preview(panel)).to_have_text("Give the tricks taken.")
    set_team_tricks(panel, 10)
    expect(panel.get_by_label("East–West", exact=True)).to_have_value("5")  # 15 - 10
    expect(score_preview(panel)).to_contain_text(GAM_FIRE_10_WORDS)
    expect(score_preview(panel)).to_contain_text("NS 21 · EW -21")
    expect(send_button(panel)).to_be_enabled()
    shots.take(north, "score-in-words")

    send_button(panel).click()
    expect(north.get_by_text("Board 1: sent. East can check it now.")).to_be_visible()
    # North stays with the board until East has checked it.
    expect(north.get_by_role("heading", level=1)).to_have_text(re.compile(r"^Round 1 · Table 1"))
    expect(my_match_link(north, 1, 1)).to_contain_text("Awaiting East")
    shots.take(north, "sent")
    expect(panel.get_by_text("Sent. East is checking it now:")).to_be_visible()
    # The entry as sent (the hidden entry behind "Change the entry" may preview it too).
    expect(panel.locator(".entry-facts").get_by_text(GAM_FIRE_10_WORDS)).to_be_visible()
    expect(panel.get_by_role("button", name="Change the entry")).to_be_visible()
    shots.take(north, "sent-entry-while-east-checks")

    [entry] = entries_of(live, cup)
    assert entry.record["auctions"] == [["N:G", "E:P", "S:P", "W:P"]]
    assert entry.record["trump"] == "fire"
    assert entry.record["tricks"] == {"NS": 10, "EW": 5}
    assert entry.score["ns"] == 21


def test_east_rejects_north_corrects_east_accepts_and_standings_follow(
    live, cup, open_phone, desktop, shots
):
    standings = desktop
    standings.goto(f"/t/{cup.slug}/standings/")
    ns_row = standings.get_by_role("row").filter(has_text=cup.north.name)
    expect(ns_row).to_contain_text("no result yet")
    navigations = []
    standings.on("framenavigated", lambda frame: navigations.append(frame.url))
    standings.evaluate("window.notReloaded = true")
    shots.take(standings, "standings-before")

    north = open_scorer(open_phone, live, cup, cup.north)
    east = open_scorer(open_phone, live, cup, cup.east)
    expect(east.get_by_text("East–West: East checks North's entry")).to_be_visible()
    expect(east.get_by_text("Waiting for North to enter the result.")).to_be_visible()

    north_panel = board_panel(north)
    enter_plain_gam(north_panel, trump="Fire", ns_tricks=10)
    expect(score_preview(north_panel)).to_contain_text(GAM_FIRE_10_WORDS)
    send_button(north_panel).click()
    expect(my_match_link(north, 1, 1)).to_contain_text("Awaiting East")

    # East's page sees the entry on its next poll.
    east_panel = board_panel(east)
    verification = east_panel.get_by_role("heading", name="Verification by East")
    expect(verification).to_be_visible(timeout=PHONE_POLL_MS)
    expect(east_panel.locator("ol.calls li")).to_have_text(
        ["North Gâm", "East Pass", "South Pass", "West Pass"]
    )
    expect(east_panel.get_by_text("Fire (named after the auction)")).to_be_visible()
    expect(east_panel.get_by_text("North–South 10 · East–West 5")).to_be_visible()
    expect(east_panel.get_by_text(GAM_FIRE_10_WORDS)).to_be_visible()
    shots.take(east, "verification-by-east")

    east_panel.get_by_text("Reject…").click()
    east_panel.get_by_label("What is wrong?").fill(REASON)
    shots.take(east, "east-gives-a-reason")
    east_panel.get_by_role("button", name="Reject: send it back to North").click()
    expect(east.get_by_text("Board 1: rejected. It goes back to North.")).to_be_visible()
    expect(my_match_link(east, 1, 1)).to_contain_text("Returned to North")

    # North's page sees the rejection on its next poll, with East's reason.
    expect(north_panel.get_by_text(f"East rejected the entry: “{REASON}”")).to_be_visible(
        timeout=PHONE_POLL_MS
    )
    expect(north_panel.get_by_label("North–South", exact=True)).to_have_value("10")
    shots.take(north, "north-sees-the-reason")
    set_team_tricks(north_panel, 9)
    expect(north_panel.get_by_label("East–West", exact=True)).to_have_value("6")
    expect(score_preview(north_panel)).to_contain_text(GAM_FIRE_9_WORDS)
    send_button(north_panel).click()
    expect(my_match_link(north, 1, 1)).to_contain_text("Awaiting East")

    expect(east_panel.get_by_text("North–South 9 · East–West 6")).to_be_visible(
        timeout=PHONE_POLL_MS
    )
    shots.take(east, "east-checks-the-correction")
    assert "no result yet" in ns_row.inner_text()  # nothing confirmed yet
    east_panel.get_by_role("button", name="Accept: this is right").click()
    expect(east.get_by_text("Board 1: accepted. The result is confirmed.")).to_be_visible()
    expect(my_match_link(east, 1, 1)).to_contain_text("Confirmed")
    my_match_link(east, 1, 1).click()
    expect(east_panel.get_by_text("Result: NS 20 · EW -20")).to_be_visible()
    shots.take(east, "accepted")

    # The standings page, open all along, shows the result on its next poll.
    # Place, team, players, points, percentage, played.
    expect(ns_row.locator("td").nth(5)).to_have_text("1", timeout=PHONE_POLL_MS)  # played
    expect(ns_row.locator("td").nth(3)).to_have_text("1")  # the only NS result at table 1
    expect(ns_row.locator("td").nth(4)).to_have_text("50")  # a group of one result: 50 %
    expect(standings.get_by_text("1 of 4 board results in", exact=False)).to_be_visible()
    assert standings.evaluate("window.notReloaded") is True
    assert navigations == []
    shots.take(standings, "standings-after")

    with live.exclusive():
        assert Result.objects.filter(match=cup.match, current=True).count() == 1
        result = Result.objects.get(match=cup.match, current=True)
    assert (result.north_result, result.east_result) == (20, -20)
    assert len(entries_of(live, cup)) == 2  # the rejected entry is kept


def test_an_entry_made_offline_is_sent_once_back_online(live, cup, open_phone, shots):
    """The Wi-Fi drops before the auction is entered: the bidding box works out the legal
    calls on the phone, the entry waits in the outbox, and goes once the network is back."""
    north = open_scorer(open_phone, live, cup, cup.north)
    panel = board_panel(north)
    north.context.set_offline(True)
    make_call(panel, "North", "Gâm")
    rows = bidding_box(panel).locator(".bid-row")
    expect(rows).to_have_count(5)  # Gâm +1, Ry, Ry 2, Ry 3, Lon: always in the same place
    expect(rows.nth(0).get_by_role("button", name="Gâm +1", exact=True)).to_be_enabled()
    for seat in ("East", "South", "West"):
        make_call(panel, seat, "Pass")
    name_trump(panel, "Water")
    set_team_tricks(panel, 11)
    # The advice names the button as it reads.
    expect(score_preview(panel)).to_contain_text(
        f"You can still press “{send_button(panel).inner_text()}”: the entry is kept on this phone"
    )

    send_button(panel).click()
    note = panel.get_by_text("Saved on this phone, will be sent: no connection right now.")
    expect(note).to_be_visible()
    expect(north.get_by_text("1 action saved on this phone")).to_be_visible()
    expect(send_button(panel)).to_be_disabled()
    shots.take(north, "saved-on-the-phone")
    assert entries_of(live, cup) == []
    outbox = json.loads(north.evaluate("localStorage.getItem('pym:outbox')"))
    assert [item["kind"] for item in outbox] == ["submit"]

    north.context.set_offline(False)
    expect(north.get_by_text("Board 1: sent. East can check it now.")).to_be_visible()
    expect(my_match_link(north, 1, 1)).to_contain_text("Awaiting East")
    assert json.loads(north.evaluate("localStorage.getItem('pym:outbox')")) == []
    shots.take(north, "sent-when-back-online")

    east = open_scorer(open_phone, live, cup, cup.east)
    east_panel = board_panel(east)
    expect(east_panel.get_by_role("heading", name="Verification by East")).to_have_count(1)
    expect(east_panel.get_by_text("North–South 11 · East–West 4")).to_be_visible()
    shots.take(east, "east-sees-it-once")
    [entry] = entries_of(live, cup)
    assert entry.record["tricks"] == {"NS": 11, "EW": 4}


def test_an_entry_whose_answer_was_lost_is_stored_once(live, cup, open_phone, shots):
    """The server stored the entry but the phone never heard back: the outbox sends it again
    with the same client id, and the server answers with the row it already has."""
    north = open_scorer(open_phone, live, cup, cup.north)
    panel = board_panel(north)
    enter_plain_gam(panel, trump="Earth", ns_tricks=9)
    expect(score_preview(panel)).to_contain_text("made")

    def deliver_then_drop(route):
        route.fetch()  # the server gets the entry ...
        route.abort("connectionreset")  # ... and the phone loses the answer

    north.route(re.compile(r"/entries/$"), deliver_then_drop, times=1)
    send_button(panel).click()
    expect(panel.get_by_text("Saved on this phone, will be sent")).to_be_visible()
    shots.take(north, "answer-lost")
    [first] = entries_of(live, cup)

    # The outbox tries again by itself every few seconds.
    expect(north.get_by_text("Board 1: sent. East can check it now.")).to_be_visible(
        timeout=PHONE_POLL_MS
    )
    expect(my_match_link(north, 1, 1)).to_contain_text("Awaiting East")
    shots.take(north, "sent-again")
    [entry] = entries_of(live, cup)
    assert entry.pk == first.pk


def test_the_director_corrects_norths_entry_with_the_same_bidding_box(live, cup, desktop, shots):
    """North's entry was rejected twice: the director's board page opens the bidding box on
    what North entered; the director corrects the tricks and saves; nothing is typed."""
    with live.exclusive():
        OrganiserFactory(username="dora", password=PASSWORD)
        match = cup.match
        for tricks in (9, 8):
            entry = scoring.submit_entry(
                match_id=match.pk,
                board_number=1,
                entrant=match.north_entrant,
                facts={
                    "auctions": [["N:G", "E:P", "S:P", "W:P"]],
                    "trump": "fire",
                    "tricks": {"NS": tricks, "EW": 15 - tricks},
                },
                client_id=f"north-entry-{tricks}",
            )
            scoring.reject_entry(
                match_id=match.pk,
                board_number=1,
                entrant=match.east_entrant,
                submission_id=entry.pk,
                reason="we took more",
                client_id=f"east-review-{tricks}",
            )
        norths = {
            "auctions": [["N:G", "E:P", "S:P", "W:P"]],
            "trump": "fire",
            "double": "none",
            "tricks": {"NS": 8, "EW": 7},
        }
        norths_words, revoked_words = (
            get_game("pymtheg").describe(
                scoring.score_entry(match, scoring.board_of(match, 1), facts)[1]
            )
            for facts in (norths, {**norths, "revoke": "E"})
        )
        assert norths_words != revoked_words
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("dora")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"/tournaments/{cup.slug}/director/{match.pk}/1/")
    panel = page.locator("#director-entry")
    # The box starts from North's last entry: the auction is there, the contract known, and
    # the score of North's 8 tricks is shown as North's phone showed it, in words.
    expect(panel.get_by_text("Contract: Gâm, by North")).to_be_visible()
    expect(page.get_by_label("Auction", exact=True)).to_have_count(0)  # no typed calls
    preview = score_preview(panel)
    expect(preview).to_contain_text(norths_words)
    # A revoke by East ends the round: the preview says so and scores it at once.
    panel.get_by_label("Did a revoke end the round?").select_option("E")
    expect(preview).to_contain_text("by East: the round ended there")
    expect(preview).to_contain_text(revoked_words)
    shots.take(page, "director-preview-revoke")
    panel.get_by_label("Did a revoke end the round?").select_option("")
    set_team_tricks(panel, 10)
    expect(preview).to_contain_text(GAM_FIRE_10_WORDS)
    expect(preview).to_contain_text("NS 21 · EW -21")
    expect(preview).not_to_contain_text("Revoke")
    page.get_by_label("Reason (optional)").fill("both teams agree on 10 tricks")
    shots.take(page, "director-bidding-box")
    panel.get_by_role("button", name="Save this result").click()
    expect(page.get_by_text("Result entered: NS 21, EW -21.")).to_be_visible()
    with live.exclusive():
        result = Result.objects.get(match=match, current=True)
        assert result.kind == "director" and result.north_result == 21
        assert result.submission.record["tricks"] == {"NS": 10, "EW": 5}


def test_the_directors_overview_hears_a_call_within_seconds(live, cup, desktop, shots):
    with live.exclusive():
        OrganiserFactory(username="dirk", password=PASSWORD)
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("dirk")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"/tournaments/{cup.slug}/director/")
    expect(page).to_have_title(re.compile(r"^Director · "))
    page.get_by_role("button", name="Sound for director calls: off").click()
    expect(page.get_by_role("button", name="Sound for director calls: on")).to_be_visible()
    with live.exclusive():
        scoring.call_director(
            match_id=cup.match.pk,
            board_number=1,
            entrant=cup.east,
            reason="a revoke",
            client_id="east-calls-the-director",
        )
    alert = page.locator("#director-alert")
    expect(alert).to_have_text(re.compile(r"The director is called: Round 1, table 1, board 1"))
    expect(page).to_have_title(re.compile(r"^\(1\) Director · "))
    expect(
        page.get_by_text("Round 1: 0 of 2 tables in; missing 1-2; 1 director call")
    ).to_be_visible()
    shots.take(page, "director-called")
