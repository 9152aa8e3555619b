"""The clubs' API: the member list to the club's organisers only; a player's history under
the public page's gate; every body as its OpenAPI schema says."""

from __future__ import annotations

from typing import Any

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs import services
from tests.scoring.test_api_outputs import check

MEMBERS = "/api/v1/clubs/{club_slug}/members/"
PLAYER = "/api/v1/clubs/{club_slug}/players/{number}/"


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    """The schema, generated once for the module (it reads no rows)."""
    return SchemaGenerator().get_schema(request=None, public=True)


def signed_in(user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def test_the_member_list_to_its_organisers_only(schema, organiser, rival, members):
    body = check(schema, signed_in(organiser), MEMBERS.format(club_slug="rivertown"), MEMBERS)
    assert [(m["number"], m["contact"]) for m in body][:2] == [("101", "101@x"), ("102", "102@x")]
    other = signed_in(rival).get(MEMBERS.format(club_slug="rivertown"))
    assert other.status_code == 404 and other["Content-Type"] == "application/problem+json"
    assert APIClient().get(MEMBERS.format(club_slug="rivertown")).status_code in (401, 403)


def test_the_public_history_holds_the_published_events(schema, season):
    path = PLAYER.format(club_slug="rivertown", number="101")
    body = check(schema, APIClient(), path, PLAYER)
    assert [(e["name"], e["place"], e["percentage"], e["partner"]) for e in body["events"]] == [
        ("Cup monday", 2, 56.25, "Bob Jones"),
        ("Cup pyramid-night", 1, 61.5, ""),
    ]
    assert body["events"][0]["partner_number"] == "102"
    assert "contact" not in body


def test_the_organiser_gets_every_event(schema, organiser, season):
    path = PLAYER.format(club_slug="rivertown", number="101")
    body = check(schema, signed_in(organiser), path, PLAYER)
    assert [(e["name"], e["published"]) for e in body["events"]] == [
        ("Cup monday", True),
        ("Cup pyramid-night", True),
        ("Cup unpublished", False),
    ]


def test_an_opted_out_member_is_not_found_by_the_public(organiser, members, season):
    services.update_member(by=organiser, member=members[0], public=False)
    path = PLAYER.format(club_slug="rivertown", number="101")
    assert APIClient().get(path).status_code == 404
    partner = APIClient().get(PLAYER.format(club_slug="rivertown", number="102")).json()
    assert partner["events"][0]["partner"] == "Ann Smith"
    assert partner["events"][0]["partner_number"] is None  # no link to a page that is not
    assert signed_in(organiser).get(path).status_code == 200
