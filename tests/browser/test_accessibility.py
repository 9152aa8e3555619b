"""The scorer's pages for everyone at the table: at twice the text size on a phone, by
keyboard alone, and without the page jumping while it loads. (axe-core checks every page of
every browser test through the ``contexts`` fixture; see ``tests/browser/a11y.py``.)

- **200 % zoom on a 390 px phone** is Chromium's own zoom: the page is laid out in 195 CSS
  pixels at two device pixels each, which is what a phone does when its reader sets the text
  twice as large. Every scorer page of every game (the code page, North's entry, East's
  check) must then fit without sideways scroll, and no text may overflow its box.
- **Keyboard alone**: North enters a board of every game and East accepts it with Tab,
  Shift+Tab, Enter and the arrow keys only, at 200 %; after each call or choice the focus is
  on the next thing to do and the live region says what changed.
- **Layout shift**: North's page loads with its scripts held back 0.6 s (a slow phone
  network); the cumulative layout shift PerformanceObserver reports stays under 0.1.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any

import pytest

from engine.games.twenty.cards import CARD_TEXT, HONOURS, called_card, parse_deal
from operations.simulation import north_facts
from scoring import services as scoring
from tests.browser.conftest import PHONE
from tests.browser.helpers import expect, running_cup, send_button
from tests.browser.test_pysngtaut import plain_won_hand
from tests.scoring.test_pysngtaut_web import pysngtaut_event
from tests.scoring.test_twenty_web import twenty_event
from tests.tournaments.test_individual_events import pyramid_event
from tournaments import services
from tournaments.models import Match

pytestmark = pytest.mark.browser

GAMES = ["pymtheg", "pyramid", "pysngtaut", "twenty"]
ZOOMED = {
    "viewport": {"width": 195, "height": 422},
    "device_scale_factor": 2,
    "is_mobile": True,
    "has_touch": True,
}
SCRIPT_DELAY_S = 0.6
MOST_SHIFT = 0.1

# Text that overflows its own box: an element narrower (or, when it clips, lower) than what
# it holds. Boxes that scroll on purpose (a wide table in .scroll) and form fields are left
# out; the page's own sideways scroll is measured apart.
OVERFLOWS_JS = """() => {
  const found = [];
  for (const el of document.querySelectorAll("body *")) {
    const skipped = ".visually-hidden, svg, select, textarea, input, .scroll, .chart, .played";
    if (el.closest(skipped)) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.display === "inline") continue;
    if (style.visibility === "hidden") continue;
    if (!el.clientWidth || !el.textContent.trim()) continue;
    const scrolls = (o) => o === "auto" || o === "scroll";
    const clips = (o) => o === "hidden" || o === "clip";
    const wide = el.scrollWidth > el.clientWidth + 1 && !scrolls(style.overflowX);
    const tall = el.scrollHeight > el.clientHeight + 1 && clips(style.overflowY);
    if (wide || tall) {
      const words = el.textContent.trim().slice(0, 40);
      found.push(`${el.tagName.toLowerCase()}.${el.className} "${words}" ` +
        `${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight}`);
    }
  }
  return found;
}"""

LAYOUT_SHIFT_JS = """() => new Promise((resolve) => {
  let total = 0;
  const sources = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (entry.hadRecentInput) continue;
      total += entry.value;
      for (const source of entry.sources || []) {
        if (source.node) sources.push(source.node.className || source.node.nodeName);
      }
    }
  }).observe({ type: "layout-shift", buffered: true });
  setTimeout(() => resolve({ total, sources }), 1000);
})"""


@dataclass
class Event:
    """A started event of one game: round 1 at table 1, board 1, and who sits where."""

    game: str
    slug: str
    match: Match
    seats: dict[str, Any]
    deal: str  # board 1's

    @property
    def panel_id(self) -> str:
        return f"#m{self.match.pk}-b1"


def started(game: str) -> Event:
    slug = f"a11y-{game}"
    if game == "pymtheg":
        cup = running_cup(slug)
        deal = cup.match.table.boards.get(number=1).deal
        return Event(game, slug, cup.match, {"N": cup.north, "E": cup.east}, deal)
    if game == "pyramid":
        tournament = services.start_tournament(by=None, tournament=pyramid_event(slug=slug))
    elif game == "pysngtaut":
        tournament = pysngtaut_event(slug=slug)
    else:
        tournament = twenty_event(slug=slug)
    match = Match.objects.get(table__tournament=tournament, round=1, table__number=1)
    seats = {seat.seat: seat.entrant for seat in match.seats.select_related("entrant")}
    return Event(game, slug, match, seats, match.table.boards.get(number=1).deal)


@pytest.fixture(params=GAMES)
def event(request, live) -> Event:
    return started(request.param)


def scorer_link(live, event: Event, seat: str) -> str:
    return live.scorer_link(event.slug, event.seats[seat].access_code)


def fits(page: Any, where: str) -> None:
    """Nothing scrolls sideways and no text overflows its box."""
    sideways = page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert sideways <= 0, f"{where}: the page scrolls sideways by {sideways} px at 200 %"
    overflowing = page.evaluate(OVERFLOWS_JS)
    assert not overflowing, f"{where}: text overflows its box at 200 %: {overflowing}"


# --- 200 % zoom -----------------------------------------------------------------------------


def test_every_scorer_page_fits_a_phone_at_200_percent(live, event, contexts, shots):
    code_page = contexts.new_page(ZOOMED)
    code_page.goto(f"{live.url}/score/{event.slug}/")
    expect(code_page.get_by_role("textbox")).to_be_visible()
    fits(code_page, "the code page")

    north = contexts.new_page(ZOOMED)
    north.goto(scorer_link(live, event, "N"))
    expect(north.locator(event.panel_id).locator("[data-send]")).to_be_visible()
    fits(north, "North's entry")
    shots.take(north, f"{event.game}-north-200")

    with live.exclusive():
        board = event.match.table.boards.get(number=1)
        scoring.submit_entry(
            match_id=event.match.pk,
            board_number=1,
            entrant=event.seats["N"],
            facts=north_facts(event.match, board, "a11y"),
            client_id=uuid.uuid4().hex,
        )
    east = contexts.new_page(ZOOMED)
    east.goto(scorer_link(live, event, "E"))
    expect(east.get_by_role("button", name="Accept: this is right").first).to_be_visible()
    fits(east, "East's check")
    shots.take(east, f"{event.game}-east-200")


# --- keyboard alone -------------------------------------------------------------------------

FOCUS_PLACE_JS = """(target) => {
  const active = document.activeElement;
  if (active === target) return 0;
  if (!active || active === document.body) return 1;
  // 1: the target comes later (Tab); -1: it comes earlier (Shift+Tab).
  return target.compareDocumentPosition(active) & Node.DOCUMENT_POSITION_PRECEDING ? 1 : -1;
}"""


def tab_to(page: Any, target: Any, limit: int = 400) -> None:
    """Tab (or Shift+Tab) until ``target`` has the focus: keys only, never a click."""
    handle = target.first
    expect(handle).to_be_enabled()
    for _ in range(limit):
        place = handle.evaluate(FOCUS_PLACE_JS)
        if place == 0:
            return
        page.keyboard.press("Tab" if place > 0 else "Shift+Tab")
    raise AssertionError(f"{target} never took the focus")


def press(page: Any, target: Any) -> None:
    tab_to(page, target)
    page.keyboard.press("Enter")


def choose_option(page: Any, select: Any, value: str) -> None:
    """Arrow keys on a focused select, until it shows ``value``."""
    tab_to(page, select)
    for _ in range(200):
        if select.input_value() == value:
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"{value!r} is not among the options of {select}")


def focused_key(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.key || null")


def said(panel: Any) -> Any:
    return panel.locator("[data-announce]")


def key(panel: Any, name: str) -> Any:
    return panel.locator(f'[data-key="{name}"]')


def keyboard_pymtheg(page: Any, panel: Any, deal: str) -> None:
    """A Gâm by North, passed round, Water named after the auction, 8 tricks to NS."""
    press(page, key(panel, "call:G/"))
    expect(said(panel)).to_have_text("North: Gâm. Auction: East to call.")
    assert focused_key(page) == "call:P"  # the next thing to do: East's call
    for seat, after in (("East", "South"), ("South", "West")):
        page.keyboard.press("Enter")
        expect(said(panel)).to_have_text(f"{seat}: Pass. Auction: {after} to call.")
        assert focused_key(page) == "call:P"
    page.keyboard.press("Enter")
    expect(said(panel)).to_have_text("West: Pass. Name the trump.")
    # The box closed: the focus is on the first question after the auction, the trump.
    trumps = panel.get_by_role("group", name="Trump named after the auction")
    expect(trumps.get_by_role("button").first).to_be_focused()
    press(page, trumps.get_by_role("button", name="Water"))
    expect(said(panel)).to_have_text("Trump named after the auction: Water. Give the tricks taken.")
    choose_option(page, panel.get_by_label("North–South", exact=True), "8")


def keyboard_pyramid(page: Any, panel: Any, deal: str) -> None:
    """The first value offered for each fact."""
    for group in panel.locator("[data-entry] fieldset").all():
        press(page, group.locator("button:enabled"))
        expect(group.locator('[aria-pressed="true"]')).to_be_focused()


def keyboard_twenty(page: Any, panel: Any, deal: str) -> None:
    """A Partnership by East (Eldest), passed round; what the table knows after play."""
    cards = parse_deal(deal)
    called = called_card(cards.hand("E"))
    partner = cards.holder(called)
    honours = cards.set_holder(HONOURS)
    press(page, key(panel, "call:PART"))
    expect(said(panel)).to_contain_text("East: Partnership.")
    for _seat in ("South", "West", "North"):
        assert focused_key(page) == "call:P"
        page.keyboard.press("Enter")
    assert focused_key(page) == "partner:S"  # the first question after the auction
    press(page, key(panel, f"partner:{partner}"))
    choose_option(page, key(panel, "called"), CARD_TEXT[called])
    choose_option(page, key(panel, "points"), "60")
    press(page, key(panel, "tricks:6"))
    if honours:
        press(page, key(panel, f"held:{honours}"))


def keyboard_pysngtaut(page: Any, panel: Any, deal: str) -> None:
    """A won hand: the turned-up card, the winner, his sets and the others' hands, card by
    card (the focus stays on the card just picked)."""
    facts = plain_won_hand(deal)
    winner = facts["winner"]
    press(page, key(panel, f"up:{facts['up']}"))
    expect(panel.locator("[data-up-summary]")).to_be_focused()
    press(page, key(panel, f"outcome:{winner}"))
    names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    for index, cards in enumerate(facts["melds"][winner]):
        if index:
            press(page, panel.get_by_role("button", name=f"New set for {names[winner]}"))
        for card in cards:
            press(page, key(panel, f"card:{card}"))
            expect(key(panel, f"card:{card}")).to_be_focused()  # ready for the next card
    for seat in (s for s in "NESW" if s != winner):
        press(page, panel.get_by_role("button", name=f"Add cards to {names[seat]}'s hand"))
        for card in facts["hands"].get(seat, []):
            press(page, key(panel, f"card:{card}"))
    if facts.get("god"):
        press(page, key(panel, f"god:{facts['god']}"))


KEYBOARD_ENTRIES = {
    "pymtheg": keyboard_pymtheg,
    "pyramid": keyboard_pyramid,
    "pysngtaut": keyboard_pysngtaut,
    "twenty": keyboard_twenty,
}


def test_north_enters_and_east_checks_by_keyboard_alone_at_200_percent(
    live, event, contexts, shots
):
    north = contexts.new_page(ZOOMED)
    north.goto(scorer_link(live, event, "N"))
    panel = north.locator(event.panel_id)
    expect(panel.locator("[data-send]")).to_be_visible()
    KEYBOARD_ENTRIES[event.game](north, panel, event.deal)
    expect(send_button(panel)).to_be_enabled()
    fits(north, "North's entry, filled in")
    shots.take(north, f"{event.game}-north-by-keyboard")
    press(north, send_button(panel))
    expect(north.get_by_text("Board 1: sent. East can check it now.")).to_be_visible()

    east = contexts.new_page(ZOOMED)
    east.goto(scorer_link(live, event, "E"))
    accept = east.locator(event.panel_id).get_by_role("button", name="Accept: this is right")
    fits(east, "East's check")
    press(east, accept)
    expect(east.get_by_text("Board 1: accepted.")).to_be_visible()
    with live.exclusive():
        state = scoring.board_state(event.match, scoring.board_of(event.match, 1))
    assert state.state == "confirmed"


# --- layout shift ---------------------------------------------------------------------------


def test_north_page_does_not_shift_while_it_loads(live, event, contexts):
    north = contexts.new_page(PHONE)

    def slow_script(route: Any) -> None:
        time.sleep(SCRIPT_DELAY_S)  # the page is painted before its scripts arrive
        route.continue_()

    north.route("**/*.js", slow_script)
    north.goto(scorer_link(live, event, "N"))
    expect(north.locator(event.panel_id).locator("[data-send]")).to_be_visible()
    shift = north.evaluate(LAYOUT_SHIFT_JS)
    print(f"{event.game}: cumulative layout shift {shift['total']:.3f} {shift['sources']}")
    assert shift["total"] < MOST_SHIFT, shift
