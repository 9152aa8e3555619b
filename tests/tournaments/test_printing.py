"""The printed route cards, table cards and schedule sheet."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tournaments import selectors
from tournaments.models import Board
from tournaments.printing import qr_svg, scorer_path

pytestmark = pytest.mark.django_db


def page(client, name: str, slug: str, **query) -> str:
    response = client.get(reverse(f"tournaments:{name}", args=[slug]), query)
    assert response.status_code == 200
    return response.content.decode()


def test_route_cards_carry_code_qr_link_and_every_round(organiser_client, scheduled):
    html = page(organiser_client, "print_routes", scheduled.slug)
    entrants = list(scheduled.entrants.all())
    assert html.count('class="card route-card"') == 14
    assert html.count('<svg class="qr"') == 14
    for entrant in entrants:
        assert entrant.access_code in html
        assert f"http://testserver/score/{scheduled.slug}/?code={entrant.access_code}" in html
    # Team 1's rounds, as the schedule has them.
    one = selectors.route_cards(scheduled, entrant_number=1)[0]
    assert [stop.round for stop in one.stops] == list(range(1, 8))
    for stop in one.stops:
        match = selectors.tournament_matches(scheduled).get(round=stop.round, table=stop.table)
        assert stop.side == ("NS" if match.north_entrant.number == 1 else "EW")
        assert stop.opponent in (match.north_entrant, match.east_entrant)
        assert stop.opponent.number != 1


def test_route_card_of_one_entrant(organiser_client, scheduled):
    entrant = scheduled.entrants.get(number=3)
    html = page(organiser_client, "print_routes", scheduled.slug, team=3)
    assert html.count('class="card route-card"') == 1
    assert entrant.access_code in html
    assert scheduled.entrants.get(number=4).access_code not in html
    stop = selectors.route_cards(scheduled, entrant_number=3)[0].stops[0]
    assert f"{stop.opponent.number}. {stop.opponent.name}" in html


def test_route_cards_show_byes(organiser, organiser_client):
    from tests.tournaments.conftest import make_tournament
    from tournaments import services

    tournament = make_tournament(by=organiser, entrants=3, tables=1, slug="odd")
    services.draw_schedule(by=organiser, tournament=tournament)
    html = page(organiser_client, "print_routes", tournament.slug)
    assert "Bye — no match this round" in html


def test_public_base_url_is_used_for_the_qr_link(organiser_client, scheduled, settings):
    settings.PUBLIC_BASE_URL = "https://cup.example.org"
    entrant = scheduled.entrants.get(number=1)
    html = page(organiser_client, "print_routes", scheduled.slug, team=1)
    assert f"https://cup.example.org/score/{scheduled.slug}/?code={entrant.access_code}" in html


def test_the_qr_code_is_an_inline_svg_of_the_link():
    svg = qr_svg("https://cup.example.org/score/x/?code=ABC", label="Team <1>")
    assert svg.startswith('<svg class="qr" role="img" aria-label="Team &lt;1&gt;"')
    assert "<path" in svg
    assert "<?xml" not in svg


def test_scorer_path_uses_the_named_route(scheduled):
    entrant = scheduled.entrants.get(number=2)
    assert scorer_path(entrant) == f"/score/{scheduled.slug}/?code={entrant.access_code}"


def test_table_cards_show_the_deal_as_four_hands(organiser_client, scheduled):
    html = page(organiser_client, "print_tables", scheduled.slug, table=2)
    board = Board.objects.get(table__tournament=scheduled, table__number=2, number=1)
    assert board.deal in html
    assert html.count('<figure class="diagram"') == 1
    for seat in ("North", "East", "South", "West"):
        assert f"<h4>{seat}" in html
    for suit in ("Fire", "Earth", "Water", "Wind"):
        assert f'aria-label="{suit}"' in html
    # North's fire cards, as numbers highest first.
    diagram = selectors.board_diagram(scheduled, board)
    north_fire = diagram.hands["N"].suits[0].ranks_text
    assert re.search(
        rf'<span class="suit-name">Fire</span> <span class="ranks">{re.escape(north_fire)}</span>',
        html,
    )
    # Every match at table 2, on the card; the deal on a sheet of its own, to keep face down.
    card, deal_sheet = html.split('<article class="card table-card deal-sheet">')
    for match in selectors.tournament_matches(scheduled).filter(table__number=2):
        assert f"{match.north_entrant.number}. {match.north_entrant.name}" in card
    assert board.deal not in card and 'class="diagram"' not in card
    assert board.deal in deal_sheet and "Keep face down." in deal_sheet


def test_table_cards_for_all_tables_and_missing_deals(organiser_client, scheduled):
    html = page(organiser_client, "print_tables", scheduled.slug)
    assert html.count('class="card table-card"') == 7  # the cards that stay on the tables
    assert html.count('class="card table-card deal-sheet"') == 7
    Board.objects.filter(table__tournament=scheduled, table__number=5).delete()
    html = page(organiser_client, "print_tables", scheduled.slug, table=5)
    assert "Board 1 is not dealt yet" in html


def test_table_cards_mark_the_opening_seat(organiser_client, scheduled):
    scheduled.game_settings = {**scheduled.game_settings, "opening_rule": "rotate"}
    scheduled.save()
    html = page(organiser_client, "print_tables", scheduled.slug, table=2)
    assert "East opens" in html
    assert '<h4>East <span class="opens">opens</span></h4>' in html


def test_schedule_sheet_has_every_match(organiser_client, scheduled):
    html = page(organiser_client, "print_schedule", scheduled.slug)
    for match in selectors.tournament_matches(scheduled):
        assert f"<td>{match.north_entrant.number}–{match.east_entrant.number}</td>" in html
    assert html.count("<tr>") >= 8


def test_print_pages_use_the_print_stylesheet(organiser_client, scheduled):
    for name in ("print_routes", "print_tables", "print_schedule"):
        assert "css/print.css" in page(organiser_client, name, scheduled.slug)


def test_a_bad_filter_is_404(organiser_client, scheduled):
    response = organiser_client.get(
        reverse("tournaments:print_routes", args=[scheduled.slug]), {"team": "x"}
    )
    assert response.status_code == 404
