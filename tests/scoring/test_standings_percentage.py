"""Percentages in the stored standings, the public pages and the API; provisional standings
placed by percentage (rulebook section 6, ruling "provisional order").

The cup: round 1 team 1 v 2 at table 1 and 3 v 4 at table 2; round 2 team 3 v 2 at table 1
and 1 v 4 at table 2. Round 1 and round 2's table 1 played, table 2 of round 2 to come:

- table 1 NS: team 1 +21, team 3 +150: team 3 first (100 %), team 1 second (0 %);
- table 1 EW: team 2 -21 (round 1) first (100 %), team 2 -150 (round 2) second (0 %);
- table 2: team 3 (NS) +150 and team 4 (EW) -150, each alone in its group (50 %).

Percentages: team 3 (50 + 100) / 2 = 75, team 2 50, team 4 50, team 1 0, so the places are
3: 1, 2 and 4: 2, 1: 4. By points (team 1 2, team 3 2, team 4 2.5 with its bye at table 1,
team 2 4 with its bye at table 2) they would be 1, 1, 3, 4.
"""

from __future__ import annotations

import json

from django.urls import reverse

from engine.ranking import rank_results
from scoring.models import Standing
from scoring.selectors import ranking_input
from tests.scoring.conftest import GAM_MADE, RY_LOST
from tests.scoring.test_pages_public import confirm, text, url

PROVISIONAL = [(1, 1, GAM_MADE), (1, 2, RY_LOST), (2, 1, RY_LOST)]


def play(cup, capture, matches):
    for round_, table, facts in matches:
        confirm(cup, capture, round_, table, facts)


def stored(cup) -> list[tuple]:
    return [
        (row.place, row.entrant.number, row.points, row.percentage)
        for row in Standing.objects.filter(tournament=cup.tournament).select_related("entrant")
    ]


def test_provisional_standings_are_stored_placed_by_percentage(
    cup, django_capture_on_commit_callbacks
):
    play(cup, django_capture_on_commit_callbacks, PROVISIONAL)
    assert stored(cup) == [
        (1, 3, 2.0, 75.0),
        (2, 4, 2.5, 50.0),
        (2, 2, 4.0, 50.0),
        (4, 1, 2.0, 0.0),
    ]
    engine = rank_results(ranking_input(cup.tournament))
    numbers = {str(entrant.pk): entrant.number for entrant in cup.entrants}
    assert [(r["place"], numbers[r["team"]], r["percentage"]) for r in engine["standings"]] == [
        (place, number, percentage) for place, number, _points, percentage in stored(cup)
    ]


def test_the_standings_page_shows_the_percentage_and_says_how_it_places(
    client, cup, django_capture_on_commit_callbacks
):
    play(cup, django_capture_on_commit_callbacks, PROVISIONAL)
    page = text(client.get(url(cup, "standings")))
    assert '<abbr title="Percentage">%</abbr>' in page
    assert "Placed by percentage</strong> (highest first) while results are missing" in page
    body = page.split("<tbody>", 1)[1]
    order = [body.index(f"{number}. Team {number}") for number in (3, 4, 2, 1)]
    assert order == sorted(order)
    assert '<td class="num">75</td>' in body and '<td class="num">0</td>' in body
    card = text(client.get(url(cup, "team", 3)))
    assert "<strong>2</strong> ranking points, 75 %" in card


def test_complete_standings_are_placed_by_points_with_the_percentage_beside(
    client, cup, django_capture_on_commit_callbacks
):
    play(cup, django_capture_on_commit_callbacks, [*PROVISIONAL, (2, 2, GAM_MADE)])
    # Table 2 NS: team 3 +150 (100 %), team 1 +21 (0 %); EW: team 4 -150 (0 %), -21 (100 %).
    # Points: team 3 1 + 1; team 1 2 + 2; teams 2 and 4 1 + 2 and a bye worth 1.5. Team 1
    # (0 %) is second: complete standings go by points.
    assert stored(cup) == [
        (1, 3, 2.0, 100.0),
        (2, 1, 4.0, 0.0),
        (3, 2, 4.5, 50.0),
        (3, 4, 4.5, 50.0),
    ]
    page = text(client.get(url(cup, "standings")))
    assert "Placed by percentage" not in page
    assert "The least total of ranking points wins" in page
    assert '<td class="num">100</td>' in page


def test_the_api_standings_carry_the_percentage(client, cup, django_capture_on_commit_callbacks):
    play(cup, django_capture_on_commit_callbacks, PROVISIONAL)
    response = client.get(reverse("api:standings", args=[cup.tournament.slug]))
    body = json.loads(response.content)
    assert body["provisional"] is True
    names = {entrant.number: entrant.name for entrant in cup.entrants}
    assert all(names[r["team"]["number"]] == r["team"]["name"] for r in body["standings"])
    assert [(r["place"], r["team"]["number"], r["percentage"]) for r in body["standings"]] == [
        (1, 3, 75.0),
        (2, 4, 50.0),  # equal places: fewer points first
        (2, 2, 50.0),
        (4, 1, 0.0),
    ]
