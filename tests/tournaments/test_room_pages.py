"""The room's changes over HTTP: the organiser's page reached from the dashboard, its form
errors (a 400, nothing stored), undo; then a withdrawal and a substitute as every page, card,
the API and the workbook show them, the standings and the workbook agreeing."""

from __future__ import annotations

import io
import re

import openpyxl
import pytest
from django.db.models import Q
from django.test import Client

from publishing import services as publishing
from scoring.models import Standing
from scoring.standings import recompute
from tests.tournaments.test_room import _event, _played
from tournaments import room, selectors
from tournaments.models import Match, RoomChange

pytestmark = pytest.mark.django_db


def _url(tournament) -> str:
    return f"/tournaments/{tournament.slug}/room/"


def test_the_dashboard_leads_to_the_page_that_seats_a_late_arrival(organiser_client, organiser):
    tournament = _played(organiser, _event(organiser, entrants=7, tables=4, slug="pg1"))
    dashboard = organiser_client.get(f"/tournaments/{tournament.slug}/").content.decode()
    assert _url(tournament) in dashboard
    page = organiser_client.get(_url(tournament))
    assert page.status_code == 200
    assert "changes take effect from round 2" in page.content.decode()
    answer = organiser_client.post(
        _url(tournament),
        {"kind": "arrival", "arrival-name": "Latecomers", "arrival-player1": "Ann"},
        follow=True,
    )
    text = answer.content.decode()
    assert answer.status_code == 200 and "Latecomers is seated from round 2." in text
    assert "arrived late, seated from round 2" in text
    assert RoomChange.objects.filter(tournament=tournament, kind="arrival").count() == 1


def test_a_full_room_offers_a_place_in_a_match_and_the_tick_takes_it(organiser_client, organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="pgf"))
    organiser_client.get(f"/tournaments/{tournament.slug}/print/routes/")  # cards printed
    asked = {"kind": "arrival", "arrival-name": "Latecomers"}
    refused = organiser_client.post(_url(tournament), asked)
    text = refused.content.decode()
    assert refused.status_code == 400 and "Take a place in a match" in text
    assert "sitting out the round instead" in text and not RoomChange.objects.exists()
    answer = organiser_client.post(
        _url(tournament), asked | {"arrival-displace": "on"}, follow=True
    )
    text = answer.content.decode()
    assert "Latecomers is seated from round 2." in text
    change = RoomChange.objects.get(tournament=tournament, kind="arrival")
    sat_out = {kept["replaced"] for kept in change.matches}
    listed = re.search(r"since they were printed\): ([\d, ]+)\.", text)
    assert listed and sat_out | {9} <= {int(n) for n in listed.group(1).split(", ")}


def test_a_refused_withdrawal_is_a_form_error_and_stores_nothing(organiser_client, organiser):
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="pg2"))
    matches = Match.objects.filter(table__tournament=tournament).count()
    answer = organiser_client.post(
        _url(tournament),
        {"kind": "withdrawal", "withdrawal-entrant": "3", "withdrawal-after_round": "0"},
    )
    assert answer.status_code == 400
    assert "round 1 has started" in answer.content.decode()
    assert not RoomChange.objects.exists()
    assert Match.objects.filter(table__tournament=tournament).count() == matches


def test_undo_over_http_and_the_page_is_for_organisers_only(organiser_client, organiser):
    tournament = _event(organiser, entrants=8, tables=4, slug="pg3")
    entrant = tournament.entrants.get(number=2)
    change = room.substitute(by=organiser, entrant=entrant, name="Eve", from_round=2)
    anonymous = Client()
    assert anonymous.get(_url(tournament)).status_code == 302  # to the sign-in page
    assert anonymous.post(f"{_url(tournament)}{change.pk}/undo/").status_code == 302
    assert RoomChange.objects.filter(pk=change.pk).exists()
    answer = organiser_client.post(f"{_url(tournament)}{change.pk}/undo/", follow=True)
    assert "Undone" in answer.content.decode()
    assert not RoomChange.objects.filter(pk=change.pk).exists()


@pytest.fixture
def changed(organiser):
    """8 pairs at 4 tables, round 1 played; pair 3 withdrew after it; Cy plays for pair 1's
    second player in rounds 2-3."""
    tournament = _played(organiser, _event(organiser, entrants=8, tables=4, slug="pg4"))
    room.withdraw(by=organiser, entrant=tournament.entrants.get(number=3), after_round=1)
    room.substitute(
        by=organiser,
        entrant=tournament.entrants.get(number=1),
        name="Cy Stand-in",
        from_round=2,
        to_round=3,
        member=2,
    )
    recompute(tournament.pk)
    return tournament


def test_public_pages_and_cards_name_the_withdrawal_and_the_substitute(
    client, organiser_client, changed
):
    slug = changed.slug
    standings = client.get(f"/t/{slug}/standings/").content.decode()
    assert "withdrew after round 1" in standings
    assert "Cy Stand-in" in standings
    card = client.get(f"/t/{slug}/teams/1/").content.decode()
    assert "Cy Stand-in for Player 1b, rounds 2-3" in card
    gone = client.get(f"/t/{slug}/teams/3/").content.decode()
    assert "withdrew after round 1: its results stand" in gone
    assert gone.count("Withdrew after round 1: no match") == 3  # rounds 2-4
    routes = organiser_client.get(f"/tournaments/{slug}/print/routes/?team=1").content.decode()
    assert "Cy Stand-in" in routes
    round_two = Match.objects.get(
        Q(north_entrant__number=1) | Q(east_entrant__number=1), table__tournament=changed, round=2
    )
    tables = organiser_client.get(
        f"/tournaments/{slug}/print/tables/?table={round_two.table.number}"
    ).content.decode()
    assert "Cy Stand-in" in tables
    entrant = changed.entrants.get(number=1)
    phone = client.get(f"/score/{slug}/?code={entrant.access_code}", follow=True).content.decode()
    assert "Cy Stand-in" in phone


def test_the_api_names_the_withdrawal_and_the_substitute(client, changed):
    entrants = {
        t["number"]: t for t in client.get(f"/api/v1/tournaments/{changed.slug}/teams/").json()
    }
    assert entrants[3]["withdrawn_after"] == 1 and entrants[1]["withdrawn_after"] is None
    assert entrants[1]["substitutes"] == [
        {"player": "Player 1b", "name": "Cy Stand-in", "from_round": 2, "to_round": 3}
    ]
    matches = client.get(f"/api/v1/tournaments/{changed.slug}/matches/").json()
    named = [m for m in matches if m["substitutes"]]
    assert sorted(m["round"] for m in named) == [2, 3]
    assert named[0]["substitutes"] == [{"entrant": 1, "player": "Player 1b", "name": "Cy Stand-in"}]
    rows = client.get(f"/api/v1/tournaments/{changed.slug}/standings/").json()["standings"]
    (gone,) = [row for row in rows if row["team"]["number"] == 3]
    assert gone["place"] is None and gone["status"] == "withdrawn" and gone["withdrew_after"] == 1


def test_the_workbook_agrees_with_the_standings(changed):
    done, _ = publishing.request_export(
        tournament=changed, kind="results", fmt="xlsx", enqueue=False
    )
    path = publishing.export_path(publishing.run_export(done.pk))
    sheet = openpyxl.load_workbook(io.BytesIO(path.read_bytes()))["Standings"]
    header = [cell.value for cell in sheet[3]]
    rows = [
        dict(zip(header, row, strict=False)) for row in sheet.iter_rows(min_row=4, values_only=True)
    ]
    by_number = {row["Team no."]: row for row in rows if row["Team no."]}
    for standing in Standing.objects.filter(tournament=changed).select_related("entrant"):
        assert by_number[standing.entrant.number]["Place"] == standing.place
    assert by_number[3]["Status"] == "withdrew after round 1"
    assert "Cy Stand-in" in by_number[1]["Players"]


def test_the_byes_a_withdrawal_leaves_are_not_broken_rules(organiser_client, changed):
    assert selectors.schedule_problems(changed) == []
    effects = selectors.room_change_effects(changed)
    assert any("team 3 never plays" in effect for effect in effects), effects
    page = organiser_client.get(_url(changed)).content.decode()
    assert "What they leave in the schedule" in page and "team 3 never plays" in page
    dashboard = organiser_client.get(f"/tournaments/{changed.slug}/").content.decode()
    assert "The schedule breaks" not in dashboard
