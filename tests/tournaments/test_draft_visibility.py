"""A draft tournament is its organisers' own until its schedule is drawn up: the public pages,
the downloads and the public API answer 404 (and the list leaves it out); organisers preview."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import OrganiserFactory
from tournaments import services

pytestmark = pytest.mark.django_db

PUBLIC_PAGES = ["", "standings/", "standings/fragment/", "downloads/", "charts/", "teams/1/"]
PUBLIC_API = ["", "teams/", "schedule/", "matches/", "standings/"]


@pytest.fixture
def draft():
    tournament = services.create_tournament(by=None, name="Secret cup", slug="secret", tables=2)
    services.add_entrant(by=None, tournament=tournament, name="Not yet announced")
    return tournament


def test_the_public_sees_nothing_of_a_draft(client, draft):
    for tail in PUBLIC_PAGES:
        response = client.get(f"/t/{draft.slug}/{tail}", follow=True)
        assert response.status_code == 404, tail
        assert b"Not yet announced" not in response.content
    api = APIClient()
    for tail in PUBLIC_API:
        assert api.get(f"/api/v1/tournaments/{draft.slug}/{tail}").status_code == 404, tail
    assert "secret" not in [t["slug"] for t in api.get("/api/v1/tournaments/").json()]


def test_organisers_preview_a_draft_and_the_schedule_makes_it_public(client, draft):
    client.force_login(OrganiserFactory())
    assert client.get(f"/t/{draft.slug}/standings/").status_code == 200
    client.logout()
    for name in ("Second", "Third", "Fourth"):
        services.add_entrant(by=None, tournament=draft, name=name)
    services.draw_schedule(by=None, tournament=draft)
    assert client.get(f"/t/{draft.slug}/standings/").status_code == 200
    assert APIClient().get(f"/api/v1/tournaments/{draft.slug}/teams/").status_code == 200
