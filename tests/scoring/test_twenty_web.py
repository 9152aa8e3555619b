"""A Twenty event over HTTP: North's entry through the API (the facts the bidding box sends),
the preview, East's check, a rejection, bad entries refused with a clear 400 and nothing
stored, the director's entry through his board page (the record_json the script fills), the
public table page and the workbook, and both rankings."""

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
    parse_deal,
)
from engine.games.twenty.game import GAME
from scoring import services as scoring
from scoring import standings as scoring_standings
from scoring.models import Result, StandingsState, Submission
from tests.publishing.conftest import data_rows, header, workbook
from tests.publishing.test_pyramid_export import export_file
from tests.scoring.test_api import as_team, post
from tests.scoring.test_individual_web import board_url, director_url, seated, td  # noqa: F401
from tests.tournaments.test_individual_events import enter, new_id, pyramid_event
from tournaments import services
from tournaments.imports import TeamRow
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def twenty_event(*, slug: str = "twenty", ranking: str | None = None, start: bool = True):
    """16 players at 4 tables, 4 boards a table, every board dealt; started."""
    extra = {"ranking": ranking} if ranking else {}
    tournament = services.create_tournament(
        by=None, name="Twenty night", slug=slug, tables=4, game="twenty", **extra
    )
    services.import_teams(
        by=None,
        tournament=tournament,
        rows=[TeamRow(n, n, f"Player {n}", "", "") for n in range(1, 17)],
    )
    services.draw_schedule(by=None, tournament=tournament)
    services.deal_boards(by=None, tournament=tournament, seed="twenty-tests")
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
    """Eldest's Partnership with his Sparrow, won or lost as the Magician's holder says."""
    deal = deal_of(match, number)
    return {
        "auction": ordered_auction(deal, ["PART+SPARROW", "P", "P", "P"]),
        "contras": {"sparrow": "contra"},
        "points": 60,
        "tricks": 6,
        "last": {"seat": deal.holder(MAGICIAN), "card": "T1"},
    }


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


SECRET_KEYS = {"partner", "called", "held"}


def deal_secrets(deal):
    called = called_card(deal.hand(deal.eldest))
    return {
        "called": CARD_TEXT[called],
        "partner": deal.holder(called),
        "held": {"kings": deal.set_holder(KINGS), "honours": deal.set_holder(HONOURS)},
    }


def embedded(html, dom_id):
    """The JSON of the page's script element ``dom_id``."""
    start = html.index(f'id="{dom_id}"')
    return json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])


def test_the_form_comes_from_the_deal_on_file_but_keeps_its_secrets():
    tournament = twenty_event()
    match = first_match(tournament)
    south = as_team(seated(match, "S"))
    form = south.get(board_url(tournament, match, 2, "entry-form/"))
    assert form.status_code == 200, form.content
    form = form.json()
    assert form["dealer"] == "E" and form["eldest"] == "S" and form["deal_known"] is True
    assert form["secrets"] is True and not SECRET_KEYS & set(form)
    assert form["needs_partner"] is False and len(form["cards"]) == 40
    assert form["note"] == "East deals; South (Eldest) opens Partnership."


def test_norths_page_before_play_names_no_partner_called_card_or_holder():
    tournament = twenty_event()
    match = first_match(tournament)
    html = scorer_page(tournament, seated(match, "N"))
    for number in range(1, 5):
        deal = deal_of(match, number)
        secrets = deal_secrets(deal)
        form = embedded(html, f"form-m{match.pk}-b{number}")
        assert form["secrets"] is True and not SECRET_KEYS & set(form), form
        note = form["note"]
        assert "held" not in note and secrets["called"] not in note and "deal:" not in note
    for words in ("From the deal", "held by", "Partner (from the deal)", "held all"):
        assert words not in html
    assert "deal_facts" not in html


def test_deal_facts_go_to_north_and_east_of_the_match_only():
    tournament = twenty_event()
    match = first_match(tournament)
    url = board_url(tournament, match, 2, "deal-facts/")
    expected = deal_secrets(deal_of(match, 2))
    for seat in ("N", "E"):
        answer = as_team(seated(match, seat)).get(url)
        assert answer.status_code == 200, answer.content
        assert answer.json() == expected
    for seat in ("S", "W"):
        refused = as_team(seated(match, seat)).get(url)
        assert refused.status_code == 403, refused.content
        assert "North and East" in refused.json()["detail"]
    other = Match.objects.get(table__tournament=tournament, round=1, table__number=2)
    assert as_team(seated(other, "N")).get(url).status_code == 403
    # No code, or a wrong one (the API's problem details for both).
    assert APIClient().get(url).status_code in (401, 403)
    wrong = APIClient()
    wrong.credentials(HTTP_X_TEAM_CODE="not-a-code")
    refused = wrong.get(url)
    assert refused.status_code in (401, 403) and "access code" in refused.json()["detail"]
    north = as_team(seated(match, "N"))
    missing = north.get(board_url(tournament, match, 9, "deal-facts/"))
    assert missing.status_code == 404
    # A board without its deal on file has nothing to hide: the phone asks North for it.
    board = match.table.boards.get(number=2)
    board.deal = ""
    board.save(update_fields=["deal"])
    assert north.get(url).status_code == 404


def test_a_game_without_deal_facts_has_no_deal_facts():
    tournament = pyramid_event()
    match = Match.objects.filter(table__tournament=tournament, round=1).order_by("table__number")[0]
    answer = as_team(seated(match, "N")).get(board_url(tournament, match, 1, "deal-facts/"))
    assert answer.status_code == 404, answer.content
    assert answer.json()["detail"]


def test_the_schema_describes_deal_facts():
    schema = APIClient().get("/api/schema/", HTTP_ACCEPT="application/json")
    assert schema.status_code == 200
    text = schema.content.decode()
    assert '"deal_facts"' in text or "operationId: deal_facts" in text
    assert "/deal-facts/" in text


def test_whole_cycle_over_the_api(django_capture_on_commit_callbacks):
    tournament = twenty_event()
    match = first_match(tournament)
    north, east = as_team(seated(match, "N")), as_team(seated(match, "E"))
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
    # East (the next seat) checks it; South may not.
    south = as_team(seated(match, "S"))
    refused = post(
        south,
        board_url(tournament, match, 1, f"entries/{entry_id}/accept/"),
        {"client_id": new_id()},
    )
    assert refused.status_code == 403
    html = scorer_page(tournament, seated(match, "E"))
    assert "Verification by East" in html and "Contra on the sparrow" in html
    assert "Last trick" in html and " with T1" in html
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
    north, east = as_team(seated(match, "N")), as_team(seated(match, "E"))
    deal = deal_of(match, 2)
    facts = {"auction": ordered_auction(deal, ["PART", "P", "P", "P"]), "points": 40, "tricks": 4}
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
    assert "entry-twenty-auction.js" in html
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
        "the Sparrow without a bid by one who is not the partner",
        lambda deal: {
            "auction": stranger_sparrow(deal),
            "last": {"seat": deal.holder(MAGICIAN), "card": "T1"},
        },
        "without a bid but does not hold the called card",
        "partner",
    ),
]


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
    north = as_team(seated(match, "N"))
    deal = deal_of(match, 1)
    facts = {
        "auction": ordered_auction(deal, ["PART", "P", "P", "P"]),
        "points": 60,
        "tricks": 6,
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
    assert "entry-twenty-auction.js" in html and 'name="record_json"' in html
    start = html.index('id="form-director-entry"')
    form = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    deal = deal_of(match, 3)
    # The director sees the whole deal: the facts the phone fetches later are in the form.
    assert form["deal_facts"] == deal_secrets(deal) and form["dealer"] == "S"
    assert form["deal_facts"]["partner"] == partner_of(deal)
    # What the script writes into record_json when the director saves.
    facts = {
        "auction": ordered_auction(deal, ["PART", "NT", "P", "P", "P"]),
        "contras": {"bid": "re"},
        "points": 30,
        "tricks": 3,
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
            player = result.match.seats.get(seat=seat).team_id
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


def test_without_a_deal_on_file_north_enters_the_partner_and_the_holder():
    tournament = twenty_event(slug="twenty-nodeal")
    match = first_match(tournament)
    board = match.table.boards.get(number=1)
    board.deal = ""
    board.save(update_fields=["deal"])
    north = as_team(seated(match, "N"))
    form = north.get(board_url(tournament, match, 1, "entry-form/")).json()
    assert form["deal_known"] is False and form["secrets"] is False
    assert form["needs_partner"] is True and form["needs_held"] is True
    facts = {"auction": ["E:PART", "S:P", "W:P", "N:P"], "points": 57, "tricks": 6}
    url = board_url(tournament, match, 1, "entries/")
    missing = post(north, url, {"client_id": new_id(), "record": facts})
    assert missing.status_code == 400 and missing.json()["field"] == "partner"
    assert not Submission.objects.exists()
    done = post(
        north,
        url,
        {"client_id": new_id(), "record": {**facts, "partner": "W", "called": "T18", "held": "S"}},
    )
    assert done.status_code == 201, done.content
    # Example 1 of the rulebook, with S's Honours: N −2, E 0, S +2, W 0.
    assert done.json()["score"]["seats"] == {"N": -2, "E": 0, "S": 2, "W": 0}
