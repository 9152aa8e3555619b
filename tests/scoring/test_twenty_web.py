"""A Twenty event over HTTP: North's entry through the API (the facts the bidding box sends:
what happened, never what the deal holds), the preview, East's check, a rejection, bad
entries refused with a clear 400 and nothing stored, an entry the deal disagrees with stored
and sent to the director without a word of the deal to the table, the director's entry
through his board page (the record_json the script fills), the public table page and the
workbook, and both rankings."""

from __future__ import annotations

import json
import random

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from engine.games.twenty.cards import (
    CARD_TEXT,
    HONOURS,
    KINGS,
    MAGICIAN,
    called_card,
    hand_text,
    parse_deal,
)
from engine.games.twenty.game import GAME
from scoring import services as scoring
from scoring import standings as scoring_standings
from scoring.models import Result, Review, StandingsState, Submission
from tests.publishing.conftest import data_rows, header, workbook
from tests.publishing.test_pyramid_export import export_file
from tests.scoring.test_api import as_entrant, post
from tests.scoring.test_individual_web import board_url, director_url, seated, td  # noqa: F401
from tests.tournaments.test_individual_events import enter, new_id
from tournaments import services
from tournaments.imports import EntrantRow
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def twenty_event(
    *,
    slug: str = "twenty",
    ranking: str | None = None,
    start: bool = True,
    seed: str = "twenty-tests",
):
    """16 players at 4 tables, 4 boards a table, every board dealt (from ``seed``); started."""
    extra = {"ranking": ranking} if ranking else {}
    tournament = services.create_tournament(
        by=None, name="Twenty night", slug=slug, tables=4, game="twenty", **extra
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[EntrantRow(n, n, f"Player {n}", "", "") for n in range(1, 17)],
    )
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed=seed)
    if start:
        tournament = services.start_tournament(by=None, tournament=tournament)
    tournament.refresh_from_db()
    return tournament


def first_match(tournament) -> Match:
    return Match.objects.get(table__tournament=tournament, round=1, table__number=1)


def scorer_page(tournament, player) -> str:
    """The player's scorer page, as his route card's link opens it."""
    page = Client().get(
        reverse("scorer-entry", args=[tournament.slug]), {"code": player.access_code}, follow=True
    )
    return page.content.decode().replace("&#x27;", "'")


def deal_of(match, number):
    return parse_deal(match.table.boards.get(number=number).deal)


def sparrow_entry(match, number=1):
    """Eldest's Partnership with his Sparrow, won or lost as the Magician's holder says, and
    what the table knows after play: the partner, the called card, who showed the Honours."""
    deal = deal_of(match, number)
    return {
        "auction": ordered_auction(deal, ["PART+SPARROW", "P", "P", "P"]),
        "contras": {"sparrow": "contra"},
        "points": 60,
        "tricks": 6,
        "last": {"seat": deal.holder(MAGICIAN), "card": "T1"},
        **told(deal, "PART"),
    }


def told(deal, contract):
    """What the table knows of the deal once the board is played, as North enters it: in a
    Partnership the partner and the called card; whoever showed the set that scores."""
    facts = {}
    if contract == "PART":
        facts["partner"] = partner_of(deal)
        facts["called"] = CARD_TEXT[called_card(deal.hand(deal.eldest))]
    held = deal.set_holder(KINGS if contract == "NT" else HONOURS)
    if held is not None:
        facts["held"] = held
    return facts


def ordered_auction(deal, calls):
    """``calls`` (without seats) made in turn from Eldest, passers skipped."""
    seats = "NESW"
    start = seats.index(deal.eldest)
    order = [seats[(start + k) % 4] for k in range(4)]
    return [f"{order[k % 4]}:{call}" for k, call in enumerate(calls)]


def expected_score(match, number, facts):
    board = match.table.boards.get(number=number)
    record = GAME.entry_record(
        facts, settings={}, table=1, players=4, dealer=board.dealer, deal=board.deal
    )
    return GAME.score(record)


DEAL_KEYS = {"partner", "called", "held", "deal", "hands", "secrets", "deal_known", "deal_facts"}


def deal_secrets(deal):
    """The deal's own facts an entry must never be told: the called card, its holder, who
    holds the Kings and the Honours, and each hand."""
    called = called_card(deal.hand(deal.eldest))
    return {
        "called": CARD_TEXT[called],
        "partner": deal.holder(called),
        "held": {"kings": deal.set_holder(KINGS), "honours": deal.set_holder(HONOURS)},
        "hands": [hand_text(deal.hand(seat)) for seat in "NESW"],
    }


def embedded(html, dom_id):
    """The JSON of the page's script element ``dom_id``."""
    start = html.index(f'id="{dom_id}"')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


def two_events(prefix):
    """Two events whose boards are dealt differently (the called card, the partner or a
    hand differ on every board of round 1 at table 1)."""
    events = [twenty_event(slug=f"{prefix}-{seed}", seed=f"{prefix}-{seed}") for seed in "ab"]
    matches = [first_match(tournament) for tournament in events]
    for number in range(1, 5):
        one, two = (deal_secrets(deal_of(match, number)) for match in matches)
        assert one != two
    return events, matches


def without_ids(value):
    """An answer with what names its own rows left out (ids, times, the match)."""
    if isinstance(value, dict):
        return {
            key: without_ids(item)
            for key, item in value.items()
            if key not in ("id", "match", "current_match", "created_at", "at", "slug")
        }
    if isinstance(value, list):
        return [without_ids(item) for item in value]
    return value


def test_the_form_is_the_same_whatever_the_deal():
    events, matches = two_events("twenty-form")
    forms = []
    for tournament, match in zip(events, matches, strict=True):
        seen = {}
        for seat in "NESW":
            client = as_entrant(seated(match, seat))
            for number in range(1, 5):
                answer = client.get(board_url(tournament, match, number, "entry-form/"))
                assert answer.status_code == 200, answer.content
                form = answer.json()
                assert not DEAL_KEYS & set(form), form
                seen[seat, number] = form
            # No answer gives the deal's facts: there is no such request.
            gone = client.get(board_url(tournament, match, 2, "deal-facts/"))
            assert gone.status_code == 404
        forms.append(seen)
        form = seen["S", 2]
        assert form["dealer"] == "E" and form["eldest"] == "S"
        assert form["needs_partner"] is form["needs_called"] is form["needs_held"] is True
        assert form["called_cards"] == [f"T{n}" for n in range(20, 3, -1)]
        assert form["note"] == "East deals; South (Eldest) opens Partnership."
    assert forms[0] == forms[1]


def test_norths_page_before_play_says_nothing_of_the_deal():
    events, matches = two_events("twenty-page")
    pages = []
    for tournament, match in zip(events, matches, strict=True):
        html = scorer_page(tournament, seated(match, "N"))
        found = []
        for number in range(1, 5):
            form = embedded(html, f"form-m{match.pk}-b{number}")
            assert not DEAL_KEYS & set(form), form
            found.append(form)
            for hand in deal_secrets(deal_of(match, number))["hands"]:
                assert hand not in html
        for words in ("From the deal", "held by", "Partner (from the deal)", "deal_facts"):
            assert words not in html
        pages.append(found)
    assert pages[0] == pages[1]


def wrong_facts(matches, number=1):
    """A Partnership entry whose partner and called card are neither deal's."""
    deals = [deal_of(match, number) for match in matches]
    eldest = deals[0].eldest
    partner = next(
        seat for seat in "NESW" if seat != eldest and all(seat != partner_of(d) for d in deals)
    )
    called = next(
        card
        for card in GAME.entry_form(dealer="N")["called_cards"]
        if all(card != deal_secrets(d)["called"] for d in deals)
    )
    return {
        "auction": ordered_auction(deals[0], ["PART", "P", "P", "P"]),
        "partner": partner,
        "called": called,
        "points": 57,
        "tricks": 6,
    }


def test_the_preview_and_the_answer_carry_nothing_of_the_deal():
    events, matches = two_events("twenty-answer")
    facts = wrong_facts(matches)
    previews, answers, pages = [], [], []
    for tournament, match in zip(events, matches, strict=True):
        north = as_entrant(seated(match, "N"))
        secrets = deal_secrets(deal_of(match, 1))
        preview = post(north, board_url(tournament, match, 1, "preview/"), {"record": facts})
        assert preview.status_code == 200, preview.content
        score = preview.json()
        # The entry read as entered: its partner and called card, nobody's Honours.
        assert score["partner"] == facts["partner"] != secrets["partner"]
        assert score["called"] == facts["called"] != secrets["called"]
        assert [item["item"] for item in score["items"]] == ["bid"]
        previews.append(score)
        created = post(
            north,
            board_url(tournament, match, 1, "entries/"),
            {"client_id": new_id(), "record": facts},
        )
        assert created.status_code == 201, created.content
        answer = created.json()
        assert "deal" not in answer["record"] and "deal_disagreement" not in answer
        assert answer["score"]["partner"] == facts["partner"]
        text = json.dumps(answer)
        for hand in secrets["hands"]:
            assert hand not in text
        answers.append(without_ids(answer))
        me = north.get(f"/api/v1/tournaments/{tournament.slug}/me/").json()
        board = next(b for b in me["matches"][0]["boards"] if b["board"] == 1)
        assert board["state"] == "disputed" and board["hands"] is None
        pages.append(without_ids(me))
    # The same entry is answered the same, whatever each deal holds.
    assert previews[0] == previews[1]
    assert answers[0] == answers[1]
    assert json.dumps(pages[0], sort_keys=True) == json.dumps(pages[1], sort_keys=True)


def test_a_wrong_partner_is_stored_and_the_board_goes_to_the_director(td):  # noqa: F811
    tournament = twenty_event(slug="twenty-wrong")
    match = first_match(tournament)
    deal = deal_of(match, 1)
    north, east = as_entrant(seated(match, "N")), as_entrant(seated(match, "E"))
    right = {
        "auction": ordered_auction(deal, ["PART", "P", "P", "P"]),
        "points": 57,
        "tricks": 6,
        **told(deal, "PART"),
    }
    wrong = {
        **right,
        "partner": next(s for s in "NESW" if s not in (deal.eldest, right["partner"])),
    }
    created = post(
        north,
        board_url(tournament, match, 1, "entries/"),
        {"client_id": new_id(), "record": wrong},
    )
    assert created.status_code == 201, created.content
    answer = created.json()
    # Stored as entered, scored as entered; the director alone is told why.
    submission = Submission.objects.get(pk=answer["id"])
    assert submission.record["partner"] == wrong["partner"] and "deal" not in submission.record
    assert submission.score == answer["score"] and answer["score"]["partner"] == wrong["partner"]
    assert submission.deal_disagreement.startswith("partner: ")
    assert right["partner"] in submission.deal_disagreement
    state = scoring.board_state(match, scoring.board_of(match, 1))
    assert state.state == "disputed"
    review = Review.objects.get(match=match, board__number=1)
    assert review.action == Review.Action.CALL_DIRECTOR
    assert review.reason == scoring.DEAL_CHECK_REASON
    for word in ("partner", "called", "held", "honours", "kings"):
        assert word not in review.reason.lower()
    # The table learns only that the director has been called.
    for entrant in (north, east):
        me = entrant.get(f"/api/v1/tournaments/{tournament.slug}/me/").json()
        board = next(b for b in me["matches"][0]["boards"] if b["board"] == 1)
        assert board["state"] == "disputed" and board["label"] == "Disputed: director called"
        assert board["last_reason"] == scoring.DEAL_CHECK_REASON and board["hands"] is None
    html = scorer_page(tournament, seated(match, "N"))
    assert "The director has been called" in html
    again = post(
        north,
        board_url(tournament, match, 1, "entries/"),
        {"client_id": new_id(), "record": right},
    )
    assert again.status_code == 409 and "director" in again.json()["detail"]

    # The director sees the entry, the deal and why they differ, and settles it.
    page = td.get(director_url("director-board", tournament, match, 1)).content.decode()
    assert "disagrees with the deal on file" in page
    url = director_url("director-enter", tournament, match, 1)
    refused = td.post(url, {"client_id": new_id(), "record_json": json.dumps(wrong)})
    assert refused.status_code == 400
    assert "disagrees with the board's deal" in refused.content.decode().replace("&#x27;", "'")
    done = td.post(
        url,
        {"client_id": new_id(), "record_json": json.dumps(right), "reason": "partner was S"},
    )
    assert done.status_code == 302
    result = Result.objects.get(board__number=1, match=match, current=True)
    assert result.kind == "director"
    assert result.seats == expected_score(match, 1, right)["seats"]
    assert scoring.board_state(match, scoring.board_of(match, 1)).has_result


def test_a_claim_a_sparrow_or_a_card_the_deal_does_not_support_goes_to_the_director():
    tournament = twenty_event(slug="twenty-claims")
    match = first_match(tournament)
    north = as_entrant(seated(match, "N"))

    def plain(deal):
        return {
            "auction": ordered_auction(deal, ["PART", "P", "P", "P"]),
            "points": 57,
            "tricks": 6,
            **told(deal, "PART"),
        }

    entries = {}
    # Board 1: the Honours claimed by a seat the deal does not give them to.
    deal = deal_of(match, 1)
    holder = deal.set_holder(HONOURS)
    entries[1] = ({**plain(deal), "held": "N" if holder != "N" else "E"}, "held: ")
    # Board 2: the Sparrow without a bid announced by a player who is not the partner.
    deal = deal_of(match, 2)
    auction = stranger_sparrow(deal)
    stranger = next(call.split(":")[0] for call in auction if call.endswith("P+SPARROW"))
    sparrow = {
        **plain(deal),
        "auction": auction,
        "partner": stranger,
        "last": {"seat": deal.holder(MAGICIAN), "card": "T1"},
        "points": 60,
    }
    entries[2] = (sparrow, "partner: ")
    # Board 3: another called card than Eldest's hand calls.
    deal = deal_of(match, 3)
    true_card = told(deal, "PART")["called"]
    other = next(c for c in GAME.entry_form(dealer="N")["called_cards"] if c != true_card)
    entries[3] = ({**plain(deal), "called": other}, "called: ")
    for number, (entry, why) in entries.items():
        created = post(
            north,
            board_url(tournament, match, number, "entries/"),
            {"client_id": new_id(), "record": entry},
        )
        assert created.status_code == 201, (number, created.content)
        submission = Submission.objects.get(pk=created.json()["id"])
        assert submission.deal_disagreement.startswith(why), submission.deal_disagreement
        state = scoring.board_state(match, scoring.board_of(match, number))
        assert state.state == "disputed", number
    # Board 4: the deal's own facts: East checks it.
    deal = deal_of(match, 4)
    created = post(
        north,
        board_url(tournament, match, 4, "entries/"),
        {"client_id": new_id(), "record": plain(deal)},
    )
    assert created.status_code == 201, created.content
    assert scoring.board_state(match, scoring.board_of(match, 4)).state == "awaiting_east"


def test_whole_cycle_over_the_api(django_capture_on_commit_callbacks):
    tournament = twenty_event()
    match = first_match(tournament)
    north, east = as_entrant(seated(match, "N")), as_entrant(seated(match, "E"))
    facts = sparrow_entry(match)
    expected = expected_score(match, 1, facts)
    preview = post(north, board_url(tournament, match, 1, "preview/"), {"record": facts})
    assert preview.status_code == 200, preview.content
    assert preview.json()["seats"] == expected["seats"]
    assert [item["item"] for item in preview.json()["items"]][:2] == ["bid", "sparrow"]
    assert "Sparrow (contra'd, worth 8)" in preview.json()["words"]
    assert not Submission.objects.exists()  # a preview stores nothing

    created = post(
        north, board_url(tournament, match, 1, "entries/"), {"client_id": new_id(), "record": facts}
    )
    assert created.status_code == 201, created.content
    entry_id = created.json()["id"]
    # The entry is the deal's own facts: no director, East checks it.
    assert Submission.objects.get(pk=entry_id).deal_disagreement == ""
    state = scoring.board_state(match, scoring.board_of(match, 1))
    assert state.state == "awaiting_east"
    # East (the next seat) checks it; South may not.
    south = as_entrant(seated(match, "S"))
    refused = post(
        south,
        board_url(tournament, match, 1, f"entries/{entry_id}/accept/"),
        {"client_id": new_id()},
    )
    assert refused.status_code == 403
    html = scorer_page(tournament, seated(match, "E"))
    assert "Verification by East" in html and "Contra on the sparrow" in html
    assert "Last trick" in html and " with 1 (The Magician)" in html
    with django_capture_on_commit_callbacks(execute=True):
        accepted = post(
            east,
            board_url(tournament, match, 1, f"entries/{entry_id}/accept/"),
            {"client_id": new_id()},
        )
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["seats"] == expected["seats"]
    assert (
        Result.objects.get(board__number=1, match=match, current=True).seats == (expected["seats"])
    )
    standings = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    assert standings["status"] == "provisional" and len(standings["standings"]) == 16


def test_east_rejects_with_a_reason_and_north_enters_again():
    tournament = twenty_event()
    match = first_match(tournament)
    north, east = as_entrant(seated(match, "N")), as_entrant(seated(match, "E"))
    deal = deal_of(match, 2)
    facts = {
        "auction": ordered_auction(deal, ["PART", "P", "P", "P"]),
        "points": 40,
        "tricks": 4,
        **told(deal, "PART"),
    }
    created = post(
        north, board_url(tournament, match, 2, "entries/"), {"client_id": new_id(), "record": facts}
    )
    assert created.status_code == 201, created.content
    rejected = post(
        east,
        board_url(tournament, match, 2, f"entries/{created.json()['id']}/reject/"),
        {"client_id": new_id(), "reason": "we took 5 tricks"},
    )
    assert rejected.status_code == 200, rejected.content
    state = scoring.board_state(match, scoring.board_of(match, 2))
    assert state.state == "returned" and state.last_reason == "we took 5 tricks"
    # North's page offers the entry again, starting from what he sent.
    html = scorer_page(tournament, seated(match, "N"))
    start = html.index(f'id="draft-m{match.pk}-b2"')
    draft = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    assert draft["auction"] == facts["auction"] and draft["tricks"] == 4
    assert "games/twenty/entry.js" in html
    again = post(
        north,
        board_url(tournament, match, 2, "entries/"),
        {"client_id": new_id(), "record": {**facts, "points": 45, "tricks": 5}},
    )
    assert again.status_code == 201, again.content


BAD = [
    (
        "Eldest opens with No Trumps",
        lambda deal: {"auction": ordered_auction(deal, ["NT", "P", "P", "P"])},
        "must open with Partnership",
        "auction",
    ),
    (
        "a jump to Solo",
        lambda deal: {"auction": ordered_auction(deal, ["PART", "SOLO", "P", "P", "P"])},
        "not the lowest bid not yet made",
        "auction",
    ),
    (
        "points that cannot go with the tricks",
        lambda deal: {"points": 60, "tricks": 2},
        "cannot have 60 points with 2 tricks (10 to 41)",
        "points",
    ),
    (
        "no last trick while a Sparrow stands",
        lambda deal: {
            "auction": ordered_auction(deal, ["PART+SPARROW", "P", "P", "P"]),
            "last": None,
        },
        "missing: a Sparrow stands",
        "last",
    ),
    (
        "a card that does not exist",
        lambda deal: {
            "auction": ordered_auction(deal, ["PART+SPARROW", "P", "P", "P"]),
            "last": {"seat": deal.eldest, "card": "T2"},
        },
        "'T2' is not a card",
        "last",
    ),
    (
        "a Partnership without the called card",
        lambda deal: {"called": None},
        "missing: a Partnership needs the called card",
        "called",
    ),
    (
        "a Partnership without the partner",
        lambda deal: {"partner": None, "called": None},
        "missing: a Partnership needs the partner",
        "partner",
    ),
    (
        "Eldest named as his own partner",
        lambda deal: {"partner": deal.eldest},
        "who cannot be his own partner",
        "partner",
    ),
    (
        "a called card that no Partnership calls",
        lambda deal: {"called": "T21"},
        "T21 is not a trump from T4 to T20",
        "called",
    ),
]


def cards_after(seat):
    """The seats after ``seat``, clockwise."""
    seats = "NESW"
    return [seats[(seats.index(seat) + k) % 4] for k in range(1, 4)]


def partner_of(deal):
    return deal.holder(called_card(deal.hand(deal.eldest)))


def stranger_sparrow(deal):
    """Partnership, then the first player after Eldest who is not the partner announces the
    Sparrow without a bid; everyone else passes."""
    seats = "NESW"
    start = seats.index(deal.eldest)
    after = [seats[(start + k) % 4] for k in range(1, 4)]
    stranger = next(seat for seat in after if seat != partner_of(deal))
    return ordered_auction(deal, ["PART", *("P+SPARROW" if s == stranger else "P" for s in after)])


@pytest.mark.parametrize(("name", "change", "words", "field"), BAD, ids=[b[0] for b in BAD])
def test_a_bad_entry_is_a_clear_400_and_stores_nothing(name, change, words, field):
    tournament = twenty_event()
    match = first_match(tournament)
    north = as_entrant(seated(match, "N"))
    deal = deal_of(match, 1)
    # Any partner and called card will do: what is refused is wrong whatever the deal.
    facts = {
        "auction": ordered_auction(deal, ["PART", "P", "P", "P"]),
        "points": 60,
        "tricks": 6,
        "partner": cards_after(deal.eldest)[0],
        "called": "T20",
        **change(deal),
    }
    facts = {key: value for key, value in facts.items() if value is not None}
    for tail in ("preview/", "entries/"):
        response = post(
            north,
            board_url(tournament, match, 1, tail),
            {"client_id": new_id(), "record": facts},
        )
        assert response.status_code == 400, (name, response.content)
        detail = response.json()["detail"]
        assert words in detail and response.json()["field"] == field, response.json()
    assert not Submission.objects.exists() and not Result.objects.exists()


def test_the_director_enters_through_the_board_page(td):  # noqa: F811
    tournament = twenty_event()
    match = first_match(tournament)
    page = td.get(director_url("director-board", tournament, match, 3))
    html = page.content.decode()
    assert page.status_code == 200
    assert "games/twenty/entry.js" in html and 'name="record_json"' in html
    start = html.index('id="form-director-entry"')
    form = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    deal = deal_of(match, 3)
    # The director's entry is North's: the same form, nothing of the deal in it (the page
    # shows him the deal beside it).
    assert not DEAL_KEYS & set(form) and form["dealer"] == "S"
    north = as_entrant(seated(match, "N"))
    assert form == north.get(board_url(tournament, match, 3, "entry-form/")).json()
    # What the script writes into record_json when the director saves.
    facts = {
        "auction": ordered_auction(deal, ["PART", "NT", "P", "P", "P"]),
        "contras": {"bid": "re"},
        "points": 30,
        "tricks": 3,
        **told(deal, "NT"),
    }
    url = director_url("director-enter", tournament, match, 3)
    bad = td.post(
        url,
        {"client_id": new_id(), "record_json": json.dumps({**facts, "tricks": 9})},
    )
    assert bad.status_code == 400
    assert "cannot have 30 points with 9 tricks" in bad.content.decode()
    assert not Result.objects.exists()
    empty = td.post(url, {"client_id": new_id(), "record_json": ""})
    assert empty.status_code == 400 and "Enter the result in the entry above" in (
        empty.content.decode()
    )
    done = td.post(
        url, {"client_id": new_id(), "record_json": json.dumps(facts), "reason": "phone died"}
    )
    assert done.status_code == 302
    result = Result.objects.get(board__number=3, match=match, current=True)
    assert result.kind == "director"
    assert result.seats == expected_score(match, 3, facts)["seats"]
    # The board page then offers the entry again from what was stored.
    again = td.get(director_url("director-board", tournament, match, 3)).content.decode()
    start = again.index('id="draft-director-entry"')
    draft = json.loads(again[again.index(">", start) + 1 : again.index("</script>", start)])
    assert draft == facts


def play_two_rounds(tournament):
    """Every board of rounds 1 and 2 entered by North and accepted by East."""
    for match in Match.objects.filter(table__tournament=tournament, round__in=(1, 2)):
        for board in match.table.boards.order_by("number"):
            rng = random.Random(f"{match.round}-{board.pk}")
            record = GAME.simulate_record(parse_deal(board.deal), rng, {})
            facts = GAME.scorer_facts(record, GAME.score(record))
            enter(match, board, facts)
    scoring_standings.recompute(tournament.pk)


def test_duplicate_standings_the_table_page_and_the_workbook():
    tournament = twenty_event(slug="twenty-dup")
    play_two_rounds(tournament)
    stored = StandingsState.objects.get(tournament=tournament).standings["standings"]
    assert len(stored) == 16 and all(entry["percentage"] is not None for entry in stored)
    assert {entry["matches"] for entry in stored} == {8}  # 2 rounds of 4 boards
    book = workbook(export_file(tournament))
    assert book.sheetnames[:2] == ["Standings", "Boards"]
    columns = header(book["Boards"])
    rows = [row for row in data_rows(book["Boards"]) if row[4] != "to come"]
    assert len(rows) == 4 * 4 * 2
    for row in rows:
        found = Result.objects.get(
            match__table__number=row[0],
            match__round=row[3],
            match__table__tournament=tournament,
            board__number=row[1],
            current=True,
        )
        assert row[4] == GAME.describe(found.submission.score)
        assert [row[columns.index(f"{seat} score")] for seat in "NESW"] == [
            found.seats[seat] for seat in "NESW"
        ]
    # Table 1 still has matches to play: its page names who played, not what happened.
    page = APIClient().get(f"/t/{tournament.slug}/tables/1/")
    html = page.content.decode().replace("&#x27;", "'")
    assert page.status_code == 200 and "2 of 4 matches played" in html
    result = Result.objects.filter(match__table__number=1, current=True).first()
    words = GAME.describe(result.submission.score)
    assert words not in html and "worth" in words
    later = Match.objects.filter(table__tournament=tournament, round__gt=2).order_by("round")
    for match in later:
        for board in match.table.boards.order_by("number"):
            rng = random.Random(f"{match.round}-{board.pk}")
            record = GAME.simulate_record(parse_deal(board.deal), rng, {})
            enter(match, board, GAME.scorer_facts(record, GAME.score(record)))
    html = APIClient().get(f"/t/{tournament.slug}/tables/1/").content.decode()
    assert words in html.replace("&#x27;", "'")


def test_totals_standings_sum_each_players_settlements():
    tournament = twenty_event(slug="twenty-totals", ranking="totals")
    assert tournament.ranking == "totals"
    play_two_rounds(tournament)
    stored = StandingsState.objects.get(tournament=tournament).standings["standings"]
    totals = {}
    for result in Result.objects.filter(match__table__tournament=tournament, current=True):
        for seat, value in result.seats.items():
            player = result.match.seats.get(seat=seat).entrant_id
            totals[player] = totals.get(player, 0) + value
    assert {int(entry["player"]): entry["total"] for entry in stored} == totals
    assert sum(totals.values()) == 0
    ranked = [entry["total"] for entry in stored]
    assert ranked == sorted(ranked, reverse=True)
    book = workbook(export_file(tournament, kind="standings"))
    assert header(book["Standings"])[3:5] == ["Total", "Boards"]  # Twenty has no tie-break
    assert [row[3] for row in data_rows(book["Standings"])] == ranked
    page = Client().get(reverse("scoring:standings", args=[tournament.slug])).content.decode()
    assert "The highest total wins." in page and "exact" not in page


def test_without_a_deal_on_file_north_enters_the_same_and_east_checks_it():
    tournament = twenty_event(slug="twenty-nodeal")
    match = first_match(tournament)
    north = as_entrant(seated(match, "N"))
    dealt = north.get(board_url(tournament, match, 1, "entry-form/")).json()
    board = match.table.boards.get(number=1)
    board.deal = ""
    board.save(update_fields=["deal"])
    form = north.get(board_url(tournament, match, 1, "entry-form/")).json()
    assert form == dealt
    facts = {"auction": ["E:PART", "S:P", "W:P", "N:P"], "points": 57, "tricks": 6}
    url = board_url(tournament, match, 1, "entries/")
    missing = post(north, url, {"client_id": new_id(), "record": facts})
    assert missing.status_code == 400 and missing.json()["field"] == "partner"
    called = post(north, url, {"client_id": new_id(), "record": {**facts, "partner": "W"}})
    assert called.status_code == 400 and called.json()["field"] == "called"
    assert not Submission.objects.exists()
    done = post(
        north,
        url,
        {"client_id": new_id(), "record": {**facts, "partner": "W", "called": "T18", "held": "S"}},
    )
    assert done.status_code == 201, done.content
    assert Submission.objects.get(pk=done.json()["id"]).deal_disagreement == ""
    assert scoring.board_state(match, scoring.board_of(match, 1)).state == "awaiting_east"
    # Example 1 of the rulebook, with S's Honours: N −2, E 0, S +2, W 0.
    assert done.json()["score"]["seats"] == {"N": -2, "E": 0, "S": 2, "W": 0}
