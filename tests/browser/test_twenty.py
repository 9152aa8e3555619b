"""A Twenty board on a 360 px phone: North's phone never learns the deal. It bids the whole
auction offline (the box computes its calls itself, and offers the Sparrow without a bid to
every seat that may make it), then North enters what the table knows after play: the
partner, the called card, the contras, the points and tricks (told at once when they cannot
go together), the last trick and who showed the Honours; the draft survives a reload, the
preview gives every payment in words, North sends and East accepts. Offline from the start
the entry is queued. The director enters a board with the same box."""

from __future__ import annotations

import re

import pytest

from engine.games.twenty.cards import CARD_TEXT, HONOURS, KINGS, MAGICIAN, called_card, parse_deal
from engine.games.twenty.game import GAME
from scoring import services as scoring
from tests.browser.conftest import PHONE
from tests.browser.helpers import PHONE_POLL_MS, expect, send_button
from tests.scoring.test_twenty_web import twenty_event
from tests.tournaments.factories import OrganiserFactory
from tournaments.models import Match

pytestmark = pytest.mark.browser

NARROW_PHONE = {**PHONE, "viewport": {"width": 360, "height": 780}}
SEAT_WORDS = {"N": "North", "E": "East", "S": "South", "W": "West"}
PASSWORD = "correct-horse-battery"


@pytest.fixture
def night(live):
    """16 players at 4 tables, started; round 1 at table 1, board 1 (North deals, East is
    Eldest) with its deal."""
    tournament = twenty_event(slug="twenty-night")
    match = Match.objects.get(table__tournament=tournament, round=1, table__number=1)
    seats = {seat.seat: seat.entrant for seat in match.seats.select_related("entrant")}
    board = match.table.boards.get(number=1)
    return tournament, match, board, seats


def box(panel):
    return panel.get_by_role("group", name="Bidding box")


def offered(panel) -> list[str]:
    """The calls the box lets one make now (the others stay in place, disabled)."""
    return (
        box(panel)
        .get_by_role("button")
        .evaluate_all(
            "buttons => buttons.filter(b => !b.disabled).map(b => b.getAttribute('aria-label'))"
        )
    )


def call(panel, seat: str, name: str) -> None:
    expect(panel.get_by_text(f"{seat} to call", exact=True)).to_be_visible()
    box(panel).get_by_role("button", name=name, exact=True).click()


def group(panel, legend: str):
    return panel.get_by_role("group", name=legend)


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways on a 360 px phone ({width} px)"


SECRET_WORDS = re.compile(r"\b(partner|held)\b", re.IGNORECASE)


def no_secrets_before_play(page, match) -> None:
    """No board's panel speaks of the partner or of a held bonus before its auction."""
    for number in range(1, 5):
        panel = page.locator(f"#m{match.pk}-b{number}")
        expect(panel.get_by_text("No call yet.")).to_be_visible()
        text = panel.inner_text()
        assert not SECRET_WORDS.search(text), (number, text)
        assert "From the deal" not in text


def focused_key(page) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.key || null")


def test_north_bids_offline_sees_the_payments_and_east_accepts(live, night, contexts, shots):
    tournament, match, board, seats = night
    deal = parse_deal(board.deal)
    # What the table knows once the board is played.
    called = CARD_TEXT[called_card(deal.hand("E"))]
    partner = deal.holder(called_card(deal.hand("E")))
    honours = deal.set_holder(HONOURS)
    magician = deal.holder(MAGICIAN)
    facts = {
        "auction": ["E:PART+SPARROW", "S:P", "W:P", "N:P"],
        "partner": partner,
        "called": called,
        "contras": {"sparrow": "contra"},
        "points": 60,
        "tricks": 6,
        "last": {"seat": magician, "card": "T1"},
        **({"held": honours} if honours else {}),
    }
    entered = GAME.entry_record(facts, settings={}, table=1, players=4, dealer="N", deal="")
    expected = GAME.score(entered)
    # The deal's own facts: the score the server finds with the deal is the same.
    dealt = GAME.entry_record(facts, settings={}, table=1, players=4, dealer="N", deal=board.deal)
    assert GAME.score(dealt) == expected

    north = contexts.new_page(NARROW_PHONE)
    requests: list[str] = []
    north.on("request", lambda request: requests.append(request.url))
    north.goto(live.scorer_link(tournament.slug, seats["N"].access_code))
    panel = north.locator(f"#m{match.pk}-b1")
    panel.scroll_into_view_if_needed()
    no_secrets_before_play(north, match)
    expect(panel).to_contain_text("North deals; East (Eldest) opens Partnership.")
    shots.take(north, "before-play")
    assert offered(panel) == [
        "Partnership",
        "Partnership + Sparrow",
        "Partnership + Slam",
        "Partnership + Sparrow + Slam",
    ]
    loaded = len(requests)

    # The whole bidding box with the phone offline.
    north.context.set_offline(True)
    call(panel, "East", "Partnership")
    # The partner unknown, every seat after Eldest may announce the Sparrow without a bid.
    assert offered(panel) == [
        "Pass",
        "Pass + Sparrow",
        "No Trumps",
        "No Trumps + Sparrow",
        "No Trumps + Slam",
        "No Trumps + Sparrow + Slam",
    ]
    shots.take(north, "bidding-box-offline")
    panel.get_by_role("button", name="↶ Undo").click()
    call(panel, "East", "Partnership + Sparrow")
    # Eldest's Sparrow stands: nobody may announce another.
    assert "Pass + Sparrow" not in offered(panel)
    for seat in ("South", "West", "North"):
        call(panel, seat, "Pass")
        if seat != "North":  # the focus stays in the box, on a call that may be made
            assert focused_key(north) in {f"call:{c}" for c in ("P", "NT")}, seat
    expect(panel.get_by_text("Contract: Partnership by East")).to_be_visible()
    expect(box(panel)).to_have_count(0)
    # The box closed: the focus moves to the first question after the auction.
    assert focused_key(north) == "partner:S"
    assert not [url for url in requests[loaded:] if "/api/" in url]  # the box asked nothing
    assert not [url for url in requests if "deal-facts" in url]

    # What the table knows after play, entered offline too.
    partners = group(panel, "Partner (who held the called card)")
    expect(partners.get_by_role("button")).to_have_text(["South", "West", "North"])
    partners.get_by_role("button", name=SEAT_WORDS[partner], exact=True).click()
    expect(partners.get_by_role("button", name=SEAT_WORDS[partner], exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    assert focused_key(north) == f"partner:{partner}"
    expect(panel).to_contain_text(f"The declarer's side: East and {SEAT_WORDS[partner]}.")
    picker = panel.get_by_label("Called card (the trump Eldest called)")
    options = picker.locator("option").evaluate_all("os => os.map(o => o.value)")
    assert options == ["", *(f"T{n}" for n in range(20, 3, -1))]
    expect(panel.locator("[data-preview]")).to_contain_text("Choose the called card.")
    picker.select_option(called)
    held = group(panel, "Who showed all three Honours?")
    expect(held.get_by_role("button")).to_have_text(["Nobody", "North", "East", "South", "West"])
    expect(held.get_by_role("button", name="Nobody")).to_have_attribute("aria-pressed", "true")
    if honours:
        held.get_by_role("button", name=SEAT_WORDS[honours], exact=True).click()
    north.context.set_offline(False)

    group(panel, "Contra on the sparrow").get_by_role("button", name="Contra", exact=True).click()
    panel.get_by_label("Points of the declarer's side").select_option("60")
    group(panel, "Tricks of the declarer's side").get_by_role(
        "button", name="2", exact=True
    ).click()
    problem = panel.get_by_role("alert").filter(has_text="60 points cannot go with 2 tricks")
    expect(problem).to_contain_text("10 to 41 points")
    expect(send_button(panel)).to_be_disabled()
    shots.take(north, "points-and-tricks-disagree")
    group(panel, "Tricks of the declarer's side").get_by_role(
        "button", name="6", exact=True
    ).click()
    expect(problem).to_have_count(0)
    expect(panel.locator("[data-preview]")).to_contain_text("Who won the last trick?")

    # The draft survives a reload.
    north.reload()
    panel = north.locator(f"#m{match.pk}-b1")
    expect(panel.get_by_text("Contract: Partnership by East")).to_be_visible()
    expect(
        group(panel, "Partner (who held the called card)").get_by_role(
            "button", name=SEAT_WORDS[partner], exact=True
        )
    ).to_have_attribute("aria-pressed", "true")
    expect(panel.get_by_label("Called card (the trump Eldest called)")).to_have_value(called)
    expect(panel.get_by_label("Points of the declarer's side")).to_have_value("60")

    group(panel, "Last trick won by").get_by_role(
        "button", name=SEAT_WORDS[magician], exact=True
    ).click()
    panel.get_by_label("Last trick won with").select_option("T1")
    preview = panel.locator("[data-preview]")
    expect(preview).to_contain_text(GAME.describe(expected))
    expect(preview.locator("li")).to_have_count(len(expected["items"]))
    sparrow = "won" if magician == "E" else "lost"
    expect(preview).to_contain_text(f"Sparrow (East's Sparrow, contra'd), worth 8: {sparrow}.")
    for seat, value in expected["seats"].items():
        name = SEAT_WORDS[seat]
        words = f"{name} receives {value}" if value > 0 else f"{name} pays {-value}"
        expect(preview).to_contain_text(words if value else f"{name}: nothing")
    expect(send_button(panel)).to_be_enabled()
    no_sideways_scroll(north)
    shots.take(north, "preview-with-payments")
    send_button(panel).click()
    expect(north.get_by_text("Board 1: sent. East can check it now.")).to_be_visible()

    east = contexts.new_page(NARROW_PHONE)
    east.goto(live.scorer_link(tournament.slug, seats["E"].access_code))
    east_panel = east.locator(f"#m{match.pk}-b1")
    east_panel.scroll_into_view_if_needed()
    expect(east_panel.get_by_text("Verification by East")).to_be_visible()
    expect(east_panel).to_contain_text("Contra on the sparrow")
    expect(east_panel).to_contain_text(GAME.describe(expected))
    expect(east_panel).to_contain_text("East: Partnership + Sparrow, South: Pass")
    no_sideways_scroll(east)
    shots.take(east, "east-checks")
    east_panel.get_by_role("button", name="Accept: this is right").click()
    expect(east.get_by_text("Board 1: accepted.")).to_be_visible()

    with live.exclusive():
        state = scoring.board_state(match, scoring.board_of(match, 1))
        assert state.state == "confirmed"
        assert state.pending is None
        stored = scoring.board_of(match, 1).results.get(current=True)
        assert stored.seats == expected["seats"]
        assert stored.submission.record["auction"] == facts["auction"]
        assert stored.submission.record["last"] == facts["last"]
        assert stored.submission.record["partner"] == partner
        assert stored.submission.record["called"] == called
        assert stored.submission.record.get("held") == honours
        assert stored.submission.deal_disagreement == ""


def test_offline_from_the_start_a_wrong_partner_goes_to_the_director(live, night, contexts, shots):
    """The entry is queued offline; its partner is not the deal's, so on arrival it is stored
    as entered and the board goes to the director: the phone is told only that."""
    tournament, match, board, seats = night
    deal = parse_deal(board.deal)
    called = CARD_TEXT[called_card(deal.hand("E"))]
    wrong = next(seat for seat in "SWN" if seat != deal.holder(called_card(deal.hand("E"))))
    north = contexts.new_page(NARROW_PHONE)
    north.goto(live.scorer_link(tournament.slug, seats["N"].access_code))
    panel = north.locator(f"#m{match.pk}-b1")
    panel.scroll_into_view_if_needed()
    no_secrets_before_play(north, match)
    north.context.set_offline(True)
    call(panel, "East", "Partnership")
    # The partner unknown, every seat that may announce the Sparrow without a bid is offered it.
    for seat in ("South", "West", "North"):
        expect(panel.get_by_text(f"{seat} to call", exact=True)).to_be_visible()
        assert offered(panel)[:2] == ["Pass", "Pass + Sparrow"], seat
        if seat == "South":
            shots.take(north, "offline-box-offers-the-sparrow-to-all")
        call(panel, seat, "Pass")
    expect(panel.get_by_text("Contract: Partnership by East")).to_be_visible()
    assert "From the deal" not in panel.inner_text()
    group(panel, "Partner (who held the called card)").get_by_role(
        "button", name=SEAT_WORDS[wrong], exact=True
    ).click()
    panel.get_by_label("Called card (the trump Eldest called)").select_option(called)
    panel.get_by_label("Points of the declarer's side").select_option("60")
    group(panel, "Tricks of the declarer's side").get_by_role(
        "button", name="6", exact=True
    ).click()
    expect(panel.locator("[data-preview]")).to_contain_text("No connection")
    expect(send_button(panel)).to_be_enabled()
    send_button(panel).click()
    expect(panel).to_contain_text("Saved on this phone, will be sent")
    shots.take(north, "offline-entry-queued")
    north.context.set_offline(False)
    # Sent, and the board is with the director: the phone says so, and nothing of the deal.
    expect(
        north.get_by_text("Board 1: sent. The director has been called: please wait at the table.")
    ).to_be_visible()
    expect(north.get_by_text("East can check it now")).to_have_count(0)
    with live.exclusive():
        state = scoring.board_state(match, scoring.board_of(match, 1))
        assert state.state == "disputed"
        entry = board.submissions.get()
        assert entry.record["auction"] == ["E:PART", "S:P", "W:P", "N:P"]
        assert (entry.record["partner"], entry.record["called"]) == (wrong, called)
        assert entry.deal_disagreement.startswith("partner: ")
    # The page hears the board changed and shows what the table may know: the director.
    panel = north.locator(f"#m{match.pk}-b1")
    called_words = panel.get_by_text("The director has been called")
    expect(called_words).to_be_visible(timeout=PHONE_POLL_MS)
    expect(panel).to_contain_text(scoring.DEAL_CHECK_REASON)
    text = panel.inner_text()
    # The entry as North entered it, and nothing of the deal: not the partner it shows.
    assert f"Partner\n{SEAT_WORDS[wrong]} (called the {called[1:]} of trumps)" in text, text
    assert "from the deal" not in text.lower() and not re.search(r"\bheld\b", text), text
    shots.take(north, "the-director-is-called")


def test_the_director_enters_a_board_with_the_same_box(live, night, desktop, shots):
    tournament, match, board, _seats = night
    with live.exclusive():
        board = match.table.boards.get(number=2)  # East deals, South is Eldest
        OrganiserFactory(username="tina", password=PASSWORD)
        kings = parse_deal(board.deal).set_holder(KINGS)
        facts = {
            "auction": ["S:PART", "W:NT", "N:P", "E:P", "S:P"],
            "contras": {"bid": "re"},
            "points": 30,
            "tricks": 3,
            **({"held": kings} if kings else {}),
        }
        record = GAME.entry_record(
            facts, settings={}, table=1, players=4, dealer="E", deal=board.deal
        )
        score = GAME.score(record)
        seats, words = score["seats"], GAME.describe(score)
    page = desktop
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill("tina")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    page.goto(f"/tournaments/{tournament.slug}/director/{match.pk}/2/")
    panel = page.locator("#director-entry")
    call(panel, "South", "Partnership")
    call(panel, "West", "No Trumps")
    for seat in ("North", "East", "South"):
        call(panel, seat, "Pass")
    group(panel, "Contra on the bid").get_by_role("button", name="Re-contra", exact=True).click()
    panel.get_by_label("Points of the declarer's side").select_option("30")
    group(panel, "Tricks of the declarer's side").get_by_role(
        "button", name="3", exact=True
    ).click()
    # A No Trumps game: no partner, no called card; the Kings are the held bonus.
    expect(group(panel, "Partner (who held the called card)")).to_have_count(0)
    expect(panel.get_by_label("Called card (the trump Eldest called)")).to_have_count(0)
    if kings:
        group(panel, "Who showed all four Kings?").get_by_role(
            "button", name=SEAT_WORDS[kings], exact=True
        ).click()
    # The score as North's phone shows it, in words, before the director saves.
    expect(panel.locator("[data-preview]")).to_contain_text(words)
    page.get_by_label("Reason (optional)").fill("the phone died")
    shots.take(page, "director-entry")
    panel.get_by_role("button", name="Save this result").click()
    words = ", ".join(f"{seat} {value:+d}" for seat, value in seats.items())
    expect(page.get_by_text(f"Result entered: {words}.")).to_be_visible()
    shots.take(page, "director-saved")
    with live.exclusive():
        result = board.results.get(current=True)
        assert result.kind == "director" and result.reason == "the phone died"
        assert result.seats == seats
        assert result.submission.record["auction"] == facts["auction"]
