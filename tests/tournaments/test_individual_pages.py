"""Every page and read of the API answers for a Pyramid event in progress, for an organiser
and for the public, and says players where a Pymtheg event says teams."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from operations.simulation import simulate_tournament
from scoring import standings as scoring_standings
from tests.conftest import rows_for_the_scope
from tests.tournaments.factories import OrganiserFactory
from tests.tournaments.test_individual_events import pyramid_event
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def play_one_round() -> int:
    tournament = pyramid_event(slug="pages")
    simulate_tournament(tournament, rounds=1, seed="pages")
    scoring_standings.recompute(tournament.pk)
    return tournament.pk


@pytest.fixture(scope="module")
def event_once(django_db_setup, django_db_blocker):
    """The event is played once for the module; each test's own writes are rolled back."""
    yield from rows_for_the_scope(django_db_blocker, play_one_round)


@pytest.fixture
def event(event_once, db):
    return Tournament.objects.get(pk=event_once)


def organiser_pages(slug: str, match: Match) -> list[str]:
    base = f"/tournaments/{slug}/"
    return [
        base,
        base + "settings/",
        base + "tables/",
        base + "log/",
        base + "teams/",
        base + "teams/import/",
        base + "teams/1/",
        base + "schedule/",
        base + f"schedule/matches/{match.pk}/",
        base + "deals/",
        base + "deals/1/1/",
        base + "print/routes/",
        base + "print/tables/",
        base + "print/schedule/",
        base + "director/",
        base + f"director/{match.pk}/1/",
        base + "publishing/",
        f"/t/{slug}/hand-records/",  # hidden from the public until released; a preview here
    ]


def public_pages(slug: str) -> list[str]:
    base = f"/t/{slug}/"
    return [
        base,
        base + "standings/",
        base + "standings/fragment/",
        base + "tables/1/",
        base + "tables/1/fragment/",
        base + "teams/1/",
        base + "teams/1/fragment/",
        base + "downloads/",
        base + "charts/",
    ]


def test_every_organiser_page_answers(client, event):
    client.force_login(OrganiserFactory())
    match = Match.objects.filter(table__tournament=event, round=1).first()
    for url in organiser_pages(event.slug, match):
        response = client.get(url)
        assert response.status_code == 200, url
        html = response.content.decode()
        assert "Pymtheg" not in html.replace("Pymtheg (", ""), url  # no Pymtheg wording


def test_every_public_page_answers(client, event):
    for url in public_pages(event.slug):
        response = client.get(url, follow=True)
        assert response.status_code == 200, url


def test_every_public_read_of_the_api_answers(event):
    client = APIClient()
    base = f"/api/v1/tournaments/{event.slug}/"
    for tail in ("", "teams/", "schedule/", "matches/", "standings/"):
        response = client.get(base + tail)
        assert response.status_code == 200, tail
    summary = client.get(base).json()
    assert summary["game"] == "pyramid" and summary["entrants"] == "players"
    assert summary["settings"]["declarations_per_round"] == 4
    standings = client.get(base + "standings/").json()
    assert len(standings["standings"]) == 16
