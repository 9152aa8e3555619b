"""The public pages at the edges of an evening, in the browser: a result East accepts reaches
the standings, the table and the team's card by themselves within seconds (the delay is
printed, never asserted); Pyramid's totals standings say what they count; a disqualified
entrant's later matches stay "to come" until their round is reached."""

from __future__ import annotations

import json
import time
import urllib.request
import uuid
from typing import Any

import pytest

from scoring import services as scoring
from tests.scoring.conftest import GAM_MADE
from tournaments.models import Match

pytestmark = pytest.mark.browser

try:
    from playwright.sync_api import expect
except ImportError:  # the browser fixture skips the tests (or fails them under CI)
    expect = None

# Installed in a page: the moment (ms since the epoch) its live box first holds the text
# (or, for "-text", first no longer holds it).
WATCH = """(wanted) => {
  const gone = wanted.startsWith("-");
  const text = gone ? wanted.slice(1) : wanted;
  const box = document.querySelector("[data-live]");
  window.seenAt = null;
  window.notReloaded = true;
  const look = () => {
    if (window.seenAt === null && box.textContent.includes(text) !== gone) {
      window.seenAt = Date.now();
    }
  };
  new MutationObserver(look).observe(box, { childList: true, subtree: true, characterData: true });
  look();
}"""


def confirm(match: Any) -> None:
    entry = scoring.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=uuid.uuid4().hex,
    )
    scoring.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=uuid.uuid4().hex,
    )


def seen_within(page: Any, seconds: float) -> None:
    """Wait until the page's watch has fired (the pages' policy forbids evaluating strings,
    so Playwright's ``wait_for_function`` cannot be used)."""
    deadline = time.monotonic() + seconds
    while page.evaluate("() => window.seenAt") is None:
        assert time.monotonic() < deadline, "the page never showed the result"
        page.wait_for_timeout(50)


def api_post(url: str, code: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json", "X-Team-Code": code},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_a_result_accepted_through_the_api_reaches_every_public_page(
    live, cup, open_phone, desktop, shots
):
    with live.exclusive():
        matches = {
            (m.round, m.table.number): m
            for m in Match.objects.filter(table__tournament=cup.tournament).select_related(
                "table", "north_entrant", "east_entrant"
            )
        }
        confirm(matches[1, 1])
        confirm(matches[1, 2])
    last = matches[2, 1]  # completes table 1: its results become public
    north, east = last.north_entrant, last.east_entrant

    standings = desktop
    standings.goto(f"/t/{cup.slug}/standings/")
    expect(standings.get_by_text("2 of 4 board results in", exact=False)).to_be_visible()
    table = open_phone()
    table.goto(f"/t/{cup.slug}/tables/1/")
    expect(table.get_by_text("to come", exact=True)).to_be_visible()
    card = open_phone()
    card.goto(f"/t/{cup.slug}/teams/{north.number}/")
    pages = {
        "standings": (standings, "3 of 4 board results in"),
        "table": (table, "-to come"),
        "team card": (card, "-to come"),
    }
    for page, text in pages.values():
        assert page.evaluate("() => document.querySelector('[data-live]') !== null")
        page.evaluate(WATCH, text)
        assert page.evaluate("window.seenAt") is None, (
            text,
            page.evaluate("document.querySelector('[data-live]').textContent"),
        )
    shots.take(standings, "before")

    base = f"{live.url}/api/v1/tournaments/{cup.slug}/matches/{last.pk}/boards/1/"
    entry = api_post(
        base + "entries/", north.access_code, {"client_id": uuid.uuid4().hex, "record": GAM_MADE}
    )
    api_post(
        base + f"entries/{entry['id']}/accept/", east.access_code, {"client_id": uuid.uuid4().hex}
    )
    accepted_ms = time.time() * 1000

    delays = {}
    for name, (page, _text) in pages.items():
        seen_within(page, 20)
        delays[name] = (page.evaluate("window.seenAt") - accepted_ms) / 1000
        assert page.evaluate("window.notReloaded") is True  # the same document, no reload
    for name, delay in delays.items():
        print(f"{name}: shown {max(delay, 0):.2f} s after East's accept")
    shots.take(standings, "after")
    shots.take(table, "table-after")
    shots.take(card, "card-after")


SMALL_PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
# What each game's hand record says of the tricks taken (Pys'ngtaut is played without tricks).
TRICKS_WORDS = {"pymtheg": "Tricks: ", "pyramid": " took ", "twenty": " trick", "pysngtaut": ""}


def played_event(game: str) -> Any:
    """A small event of ``game`` with every round played and its hand records public."""
    from operations.simulation import simulate_tournament
    from publishing.models import HandRecords, PublishingSettings
    from tournaments import services
    from tournaments.services import EntrantRow

    pairs = game == "pymtheg"
    extra = {"declarations_per_round": 1} if game == "pyramid" else {}
    tournament = services.create_tournament(
        by=None, name=f"{game} night", slug=f"hr-{game}", tables=2, game=game, **extra
    )
    rows = [
        EntrantRow(n, n, f"Entrant number {n} with a long name", "Ann" if pairs else "", "")
        for n in range(1, 5 if pairs else 9)
    ]
    services.import_teams(by=None, tournament=tournament, rows=rows)
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=f"hr-{game}")
    simulate_tournament(tournament, rounds=None, seed=f"hr-{game}")
    PublishingSettings.objects.update_or_create(
        tournament=tournament, defaults={"hand_records": HandRecords.AFTER_PLAY}
    )
    return tournament


@pytest.mark.parametrize("game", ["pymtheg", "pyramid", "twenty", "pysngtaut"])
def test_hand_records_fit_a_small_phone_and_say_the_tricks(live, contexts, shots, game):
    with live.exclusive():
        slug = played_event(game).slug
    page = contexts.new_page(SMALL_PHONE)
    page.goto(f"/t/{slug}/hand-records/")
    expect(page.locator("section.hand-record").first).to_be_visible()
    shots.take(page, f"hand-records-{game}")
    width = page.evaluate("document.documentElement.scrollWidth")
    print(f"{game}: hand records {width} px wide on a 360 px phone")
    assert width <= 360, f"{game}'s hand records scroll sideways ({width} px)"
    # A results table wider than the phone scrolls in its own box.
    boxes = page.locator("section.hand-record .played")
    assert boxes.first.evaluate("box => box.clientWidth") <= 360
    words = page.locator("section.hand-record .words").first.inner_text()
    assert TRICKS_WORDS[game] in words, words


def test_a_bye_is_a_line_on_the_phone_and_on_the_card(live, contexts, shots):
    from scoring import selectors
    from tests.scoring.test_byes_shown import odd_pairs, sitting_out

    with live.exclusive():
        tournament = odd_pairs("odd-browser")
        entrant, rounds = sitting_out(tournament)
        assert selectors.bye_rounds(tournament, selectors.matches_of(entrant)) == rounds
    phone = contexts.new_page(SMALL_PHONE)
    phone.goto(live.scorer_link(tournament.slug, entrant.access_code))
    matches = phone.locator("ol.match-list")
    expect(matches.get_by_text(f"Round {rounds[0]} · Bye")).to_be_visible()
    expect(matches.get_by_text("Bye: the mean of the table's ranking points").first).to_be_visible()
    shots.take(phone, "scorer-bye")
    phone.goto(f"/t/{tournament.slug}/teams/{entrant.number}/")
    bye_row = phone.get_by_role("row").filter(has_text="Bye: the mean of the table")
    expect(bye_row).to_have_count(len(rounds))
    expect(bye_row.first.get_by_role("cell").first).to_have_text(str(rounds[0]))
    shots.take(phone, "card-bye")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360


def test_pyramid_totals_standings_say_what_they_count(live, contexts, shots):
    from tests.tournaments.test_individual_events import pyramid_event
    from tournaments import services

    with live.exclusive():
        event = pyramid_event(slug="totals-browser", per_round=1)
        services.update_tournament(by=None, tournament=event, changes={"ranking": "totals"})
    phone = contexts.new_page(SMALL_PHONE)
    phone.goto(f"/t/{event.slug}/standings/")
    expect(phone.get_by_text("Only a player's own declarations count", exact=False)).to_have_count(
        1
    )
    shots.take(phone, "totals-note")


def test_forfeits_of_a_disqualified_entrant_wait_for_their_round(live, cup, contexts, shots):
    from scoring import services as results
    from tournaments.models import Disqualification

    with live.exclusive():
        first = Match.objects.get(table__tournament=cup.tournament, round=1, table__number=1)
        confirm(first)
        gone = first.north_entrant
        Disqualification.objects.create(entrant=gone, reason="left the room")
        results.results_changed(cup.tournament)
        later = (
            Match.objects.filter(table__tournament=cup.tournament, round=2)
            .exclude(north_entrant=gone)
            .exclude(east_entrant=gone)
            .get()
        )
        other = Match.objects.get(table__tournament=cup.tournament, round=1, table__number=2)
    card = contexts.new_page(SMALL_PHONE)
    card.goto(f"/t/{cup.slug}/teams/{gone.number}/")
    expect(card.get_by_text("forfeit −1000")).to_have_count(1)
    expect(card.get_by_text("to come", exact=True)).to_have_count(1)
    shots.take(card, "forfeit-before-round-2")
    with live.exclusive():  # round 1 finishes, round 2 starts at the other table
        confirm(other)
        confirm(later)
        results.results_changed(cup.tournament)
    # The card's own poll brings the round-2 forfeit, now that round 2 is reached.
    expect(card.get_by_text("forfeit −1000")).to_have_count(2, timeout=20_000)
    shots.take(card, "forfeit-round-2-reached")


def test_a_bid_keeps_its_words_on_one_line_on_a_small_phone(live, cup, contexts, shots):
    """At 360 px the bidding box's rows wrap, never a bid's own words ("Gâm +4")."""
    from playwright.sync_api import expect

    from tests.browser.helpers import bidding_box, board_panel, make_call

    phone = contexts.new_page(SMALL_PHONE)
    phone.goto(live.scorer_link(cup.slug, cup.north.access_code))
    panel = board_panel(phone)
    make_call(panel, "North", "Gâm")
    bids = bidding_box(panel).locator("button.bid")
    expect(bids.first).to_be_visible()
    lines = phone.evaluate(
        """() => [...document.querySelectorAll('.bid-row button.bid')].map((b) => {
            const range = document.createRange();
            range.selectNodeContents(b);
            const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
            return [b.textContent.trim(), tops.size];
        })"""
    )
    assert lines and all(count == 1 for _text, count in lines), lines
    assert any(text.startswith("Gâm +") for text, _count in lines), lines
    shots.take(phone, "bids-on-one-line")
