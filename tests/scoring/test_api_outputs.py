"""Every read endpoint answers exactly what its OpenAPI schema says: the bodies of a running
pairs tournament (with results, a disqualification and a complete table), a Pyramid event
and its players, checked against the schema's response of each operation with jsonschema.
Entrants are named by number and name wherever they appear."""

from __future__ import annotations

import re
from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring import services
from tests.scoring.conftest import GAM_MADE, new_id
from tests.scoring.test_api import as_entrant
from tests.tournaments.test_individual_events import pyramid_event
from tournaments.models import Disqualification


def json_schema(node: Any) -> Any:
    """OpenAPI 3.0's ``nullable`` written as JSON Schema: ``anyOf`` the type and null."""
    if isinstance(node, list):
        return [json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    converted = {key: json_schema(value) for key, value in node.items() if key != "nullable"}
    if node.get("nullable"):
        return {"anyOf": [converted, {"type": "null"}]}
    return converted


@pytest.fixture
def openapi(db) -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def check(openapi: dict[str, Any], client: APIClient, path: str, template: str) -> Any:
    response = client.get(path)
    assert response.status_code == 200, (path, response.content[:300])
    content = openapi["paths"][template]["get"]["responses"]["200"]["content"]
    schema = content["application/json"]["schema"]
    document = {**json_schema(schema), "components": json_schema(openapi["components"])}
    body = response.json()
    jsonschema.validate(body, document)
    return body


def confirm(cup, round_: int, table: int) -> None:
    match = cup.match(round_, table)
    entry = services.submit_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    services.accept_entry(
        match_id=match.pk,
        board_number=1,
        entrant=match.east_entrant,
        submission_id=entry.pk,
        client_id=new_id(),
    )


def test_every_read_of_a_pairs_tournament_matches_its_schema(
    openapi, cup, director, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        for key in ((1, 1), (1, 2), (2, 1)):
            confirm(cup, *key)
        Disqualification.objects.create(entrant=cup.entrants[3], reason="slow play")
        services.results_changed(cup.tournament)
    slug = cup.tournament.slug
    base = "/api/v1/tournaments/"
    public = APIClient()
    check(openapi, public, base, "/api/v1/tournaments/")
    check(openapi, public, f"{base}{slug}/", "/api/v1/tournaments/{slug}/")
    check(openapi, public, f"{base}{slug}/teams/", "/api/v1/tournaments/{slug}/teams/")
    check(openapi, public, f"{base}{slug}/schedule/", "/api/v1/tournaments/{slug}/schedule/")
    matches = check(
        openapi, public, f"{base}{slug}/matches/", "/api/v1/tournaments/{slug}/matches/"
    )
    assert {"number", "name"} <= set(matches[0]["ns"])
    standings = check(
        openapi, public, f"{base}{slug}/standings/", "/api/v1/tournaments/{slug}/standings/"
    )
    assert standings["groups"], "table 1 is complete: its ranked results are public"
    assert all(re.match(r"Team \d", row["team"]["name"]) for row in standings["standings"])
    me = check(
        openapi, as_entrant(cup.entrants[0]), f"{base}{slug}/me/", "/api/v1/tournaments/{slug}/me/"
    )
    assert me["team"] == {"number": 1, "name": "Team 1"}
    token = Token.objects.create(user=director).key
    organiser = APIClient()
    organiser.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    match = cup.match(1, 1)
    check(
        openapi,
        organiser,
        f"{base}{slug}/matches/{match.pk}/boards/1/director/",
        "/api/v1/tournaments/{slug}/matches/{match_id}/boards/{board}/director/",
    )


def test_every_read_of_an_event_of_players_matches_its_schema(openapi, db):
    event = pyramid_event(slug="schema-pyramid")
    slug = event.slug
    base = "/api/v1/tournaments/"
    public = APIClient()
    check(openapi, public, f"{base}{slug}/", "/api/v1/tournaments/{slug}/")
    check(openapi, public, f"{base}{slug}/matches/", "/api/v1/tournaments/{slug}/matches/")
    check(openapi, public, f"{base}{slug}/standings/", "/api/v1/tournaments/{slug}/standings/")
    player = event.entrants.order_by("number").first()
    me = check(openapi, as_entrant(player), f"{base}{slug}/me/", "/api/v1/tournaments/{slug}/me/")
    assert me["matches"] and all(me["matches"][0]["players"].values())
