"""A Pys'ngtaut hand entered on a 360 px phone: North picks the turned-up card (the page knows
nothing of the deal), taps who went out, builds the winner's sets card by card (each
classified as it grows under the wild rank of the card he picked), changes the turned-up card
and back (the sets are checked again), is refused a card beyond the pack's copies at once,
enters the losers' cards, sees every payment and the turned-up card in the preview and sends;
the draft survives a reload; East checks and accepts. Nothing scrolls sideways."""

from __future__ import annotations

import random
import re

import pytest

from engine.games import get_game
from engine.games.pysngtaut.cards import CARD_CODES, CARD_TEXT, RANK_CHARS
from engine.games.pysngtaut.sets import CATEGORY_IDS, CATEGORY_ROWS, SetFault, read_set
from scoring import services as scoring
from scoring.models import Result
from tests.browser.helpers import expect, send_button
from tests.scoring.test_pysngtaut_web import pysngtaut_event
from tournaments.models import Match

pytestmark = pytest.mark.browser

GAME = get_game("pysngtaut")
SMALL_PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}
NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}
RANK_NAMES = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}  # fmt: skip
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
PLURALS = {"6": "sixes"}


def words(card: str) -> str:
    """A card's name as the page speaks it: "seven of diamonds", "joker"."""
    return "joker" if card == "JK" else f"{RANK_NAMES[card[0]]} of {SUIT_NAMES[card[1]]}"


def plural(rank: str) -> str:
    return PLURALS.get(rank, RANK_NAMES[rank] + "s")


def plain_won_hand(deal: str) -> dict:
    """A won hand of the deal as the simple player plays it, with no penalty and no loser's
    sets: what North enters."""
    for seed in range(500):
        record = GAME.simulate_record(deal, random.Random(seed), GAME.default_settings)
        score = GAME.score(record)
        facts = GAME.scorer_facts(record, score)
        plain = set(facts.get("melds", {})) == {score["winner"]} and not facts.get("penalties")
        if score["winner"] and plain:
            return facts
    raise AssertionError("no plain won hand in 500 plays")


@pytest.fixture
def evening(live):
    tournament = pysngtaut_event(slug="pys-evening")
    match = Match.objects.get(table__tournament=tournament, round=1, table__number=1)
    deal = match.table.boards.get(number=1).deal
    seats = {seat.seat: seat.entrant for seat in match.seats.select_related("entrant")}
    return tournament, match, deal, seats


def card_button(panel, card: str):
    return panel.get_by_role("group", name="Cards").get_by_role(
        # A card's spoken name: what its button shows, then its name ("J♠, jack of spades").
        "button",
        name=re.compile("(^|, )" + re.escape(words(card)) + ","),
    )


def pick_up(panel, card: str) -> None:
    panel.get_by_role("group", name="Turned-up card").get_by_role(
        "button", name=re.compile("(^|, )" + re.escape(words(card)) + "$")
    ).click()


def no_set(cards: list[str], up: str) -> bool:
    """Whether ``cards`` are no set with ``up`` turned up."""
    try:
        read_set([CARD_CODES[c] for c in cards], None if up == "JK" else RANK_CHARS.index(up[0]))
    except SetFault:
        return True
    return False


def no_sideways_scroll(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the page scrolls sideways on a 360 px phone ({width} px)"


def test_north_builds_the_sets_card_by_card_and_east_accepts(live, evening, contexts, shots):
    tournament, match, deal, seats = evening
    facts = plain_won_hand(deal)
    winner = facts["winner"]
    up = deal.split()[0][2:]
    wild = up[0] if up != "JK" else None
    assert facts["up"] == up

    north = contexts.new_page(SMALL_PHONE)
    north.goto(live.scorer_link(tournament.slug, seats["N"].access_code))
    panel = north.locator(f"#m{match.pk}-b1")
    panel.scroll_into_view_if_needed()
    for _whose, cards in GAME.hands_in_words(GAME.parse_deal(deal))[1:]:
        assert cards not in north.content(), "a hand of the deal is on the phone"
    # The turned-up card first: nothing else is asked before it.
    expect(panel.get_by_role("group", name="Turned-up card")).to_be_visible()
    expect(panel.get_by_role("group", name="Who went out?")).to_have_count(0)
    expect(send_button(panel)).to_be_disabled()
    no_sideways_scroll(north)
    shots.take(north, "turned-up-card-picker")
    north.context.set_offline(True)  # what follows from the card is worked out on the phone
    pick_up(panel, up)
    summary = panel.locator("[data-up-summary]")
    if wild is None:
        expect(summary).to_contain_text("nothing is wild")
    else:
        expect(summary).to_contain_text(f"{words(up).capitalize()} (")
        expect(summary).to_contain_text(f"{plural(wild)} are wild")
    north.context.set_offline(False)
    panel.get_by_role("group", name="Who went out?").get_by_role(
        "button", name=NAMES[winner], exact=True
    ).click()

    # The winner's sets, card by card; the first set is classified as it grows.
    for index, cards in enumerate(facts["melds"][winner]):
        if index:
            panel.get_by_role("button", name=f"New set for {NAMES[winner]}").click()
        for card in cards:
            card_button(panel, card).click()
        block = panel.locator(f'[data-set="{winner}{index + 1}"]')
        _rank, category, _wilds = read_set(
            [CARD_CODES[c] for c in cards], None if wild is None else RANK_CHARS.index(wild)
        )
        expect(block).to_contain_text(CATEGORY_ROWS[CATEGORY_IDS[category]])
        if index == 0:
            shots.take(north, "first-set-classified")
            north.reload()  # the draft survives, the turned-up card with it
            panel = north.locator(f"#m{match.pk}-b1")
            expect(panel.locator("[data-up-summary]")).to_contain_text(words(up).capitalize())
            expect(panel.locator(f'[data-set="{winner}1"]')).to_contain_text(
                CATEGORY_ROWS[CATEGORY_IDS[category]]
            )
            # Another turned-up card under which this set is no set (its naturals wild, or its
            # wild cards natural beside them); back to the right card, it is classified again.
            other = next(card for card in CARD_TEXT if card != up and no_set(cards, card))
            panel.get_by_role("button", name=re.compile("^Change the turned-up card")).click()
            pick_up(panel, other)
            expect(panel.get_by_role("alert")).to_contain_text("no longer a set")
            expect(panel.locator(f'[data-set="{winner}1"]')).to_contain_text("Not a set yet")
            shots.take(north, "turned-up-card-changed")
            panel.get_by_role("button", name=re.compile("^Change the turned-up card")).click()
            pick_up(panel, up)
            expect(panel.locator(f'[data-set="{winner}1"]')).to_contain_text(
                CATEGORY_ROWS[CATEGORY_IDS[category]]
            )

    # A card the pack holds no more of is refused at once.
    losers = [seat for seat in "NESW" if seat != winner]
    panel.get_by_role("button", name=f"Add cards to {NAMES[losers[0]]}'s hand").click()
    entered = [c for sets in facts["melds"].values() for s in sets for c in s]
    entered += [c for held in facts["hands"].values() for c in held]
    spare = next(
        c
        for c in (r + s for r in "KQJ" for s in "SHDC")
        if c not in entered and c != up and c != deal.split()[0][2:]
    )
    card_button(panel, spare).click()
    card_button(panel, spare).click()
    expect(panel.get_by_role("alert")).to_contain_text(f"{words(spare).capitalize()} (")
    expect(panel.get_by_role("alert")).to_contain_text("refused")
    shots.take(north, "card-refused")
    panel.get_by_role(
        "button", name=f"Remove the {words(spare)} from {NAMES[losers[0]]}'s hand"
    ).click()

    for seat in losers:
        held = facts["hands"].get(seat, [])
        if seat != losers[0]:
            panel.get_by_role("button", name=f"Add cards to {NAMES[seat]}'s hand").click()
        for card in held:
            card_button(panel, card).click()
    if facts.get("god"):
        panel.get_by_role("group", name="The god card (joker) lies in front of").get_by_role(
            "button", name=NAMES[facts["god"]], exact=True
        ).click()

    score = GAME.score(
        GAME.entry_record(
            facts, settings=tournament.rules, table=1, players=4, dealer="N", deal=deal
        )
    )
    preview = panel.locator("[data-preview]")
    expect(preview).to_contain_text(f"{NAMES[winner]} went out with")
    expect(preview).to_contain_text(f"{words(up).capitalize()} (" if wild else "joker turned up")
    first = score["payments"][0]
    expect(preview).to_contain_text(
        f"{NAMES[first['from']]} pays {NAMES[first['to']]} {first['amount']:,}"
    )
    expect(send_button(panel)).to_be_enabled()
    no_sideways_scroll(north)
    shots.take(north, "preview")
    send_button(panel).click()
    expect(north.get_by_text("Board 1: sent. East can check it now.")).to_be_visible()

    east = contexts.new_page(SMALL_PHONE)
    east.goto(live.scorer_link(tournament.slug, seats["E"].access_code))
    east_panel = east.locator(f"#m{match.pk}-b1")
    east_panel.scroll_into_view_if_needed()
    expect(east_panel.get_by_text("Verification by East")).to_be_visible()
    expect(east_panel).to_contain_text(f"Sets of {NAMES[winner]}")
    no_sideways_scroll(east)
    shots.take(east, "east-checks")
    east_panel.get_by_role("button", name="Accept: this is right").click()
    expect(east.get_by_text("Board 1: accepted.")).to_be_visible()
    with live.exclusive():
        state = scoring.board_state(match, scoring.board_of(match, 1))
        assert state.state == "confirmed"
        stored = Result.objects.get(match=match, board__number=1, current=True)
        assert stored.seats == score["seats"]
