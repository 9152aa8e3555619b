"""The clubs' API: the member list to the club's organisers only; a player's history under
the public page's gate; every body as its OpenAPI schema says."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clubs import services
from clubs.models import Member
from tests.scoring.test_api_outputs import check, json_schema
from tests.tournaments.factories import UserFactory
from tournaments.models import ActionLog

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


MEMBER = "/api/v1/clubs/{club_slug}/members/{number}/"
DEACTIVATE = "/api/v1/clubs/{club_slug}/members/{number}/deactivate/"


def answers_its_schema(schema, response, template: str, method: str, status: int) -> Any:
    """The response has the status the schema lists for the operation and a body it types."""
    assert response.status_code == status, response.content[:300]
    operation = schema["paths"][template][method]
    content = operation["responses"][str(status)]["content"]
    kind = "application/json" if status < 400 else "application/problem+json"
    document = {
        **json_schema(content[kind]["schema"]),
        "components": json_schema(schema["components"]),
    }
    body = response.json()
    jsonschema.validate(body, document)
    return body


def test_the_member_writes_are_typed(schema):
    for template, method in ((MEMBERS, "post"), (MEMBER, "patch")):
        body = schema["paths"][template][method]["requestBody"]["content"]["application/json"]
        name = body["schema"]["$ref"].rsplit("/", 1)[1]
        fields = schema["components"]["schemas"][name]["properties"]
        assert {"number", "name", "contact", "active", "public"} <= set(fields)
    required = schema["components"]["schemas"]["MemberWrite"]["required"]
    assert sorted(required) == ["name", "number"]
    assert "required" not in schema["components"]["schemas"]["PatchedMemberWrite"]
    assert "400" in schema["paths"][MEMBERS]["post"]["responses"]
    assert "requestBody" not in schema["paths"][DEACTIVATE]["post"]


def test_an_organiser_adds_changes_and_deactivates_a_member(schema, organiser, members):
    client = signed_in(organiser)
    made = client.post(
        MEMBERS.format(club_slug="rivertown"),
        {"number": " A 12 ", "name": "Eve Green", "contact": "eve@x"},
        format="json",
    )
    body = answers_its_schema(schema, made, MEMBERS, "post", 201)
    assert body == {
        "number": "A12",
        "name": "Eve Green",
        "contact": "eve@x",
        "active": True,
        "public": True,
    }
    path = MEMBER.format(club_slug="rivertown", number="a12")
    changed = client.patch(path, {"name": "Eve Greene", "public": False}, format="json")
    body = answers_its_schema(schema, changed, MEMBER, "patch", 200)
    assert (body["name"], body["public"], body["contact"]) == ("Eve Greene", False, "eve@x")
    gone = client.post(DEACTIVATE.format(club_slug="rivertown", number="A12"))
    assert answers_its_schema(schema, gone, DEACTIVATE, "post", 200)["active"] is False
    member = Member.objects.get(club__slug="rivertown", number="A12")
    assert (member.name, member.public, member.active) == ("Eve Greene", False, False)
    actions = set(ActionLog.objects.values_list("action", flat=True))
    assert {"add_member", "update_member"} <= actions
    assert "eve@x" not in str(list(ActionLog.objects.values_list("before", "after")))


def test_a_refused_member_write_names_every_reason_and_stores_nothing(schema, organiser, members):
    client = signed_in(organiser)
    taken = client.post(
        MEMBERS.format(club_slug="rivertown"), {"number": "101", "name": "Copy"}, format="json"
    )
    body = answers_its_schema(schema, taken, MEMBERS, "post", 400)
    assert body["errors"]["non_field_errors"] == ["member number 101 is already 'Ann Smith''s"]
    blank = client.post(MEMBERS.format(club_slug="rivertown"), {"number": "7"}, format="json")
    assert answers_its_schema(schema, blank, MEMBERS, "post", 400)["field"] == "name"
    clash = client.patch(
        MEMBER.format(club_slug="rivertown", number="102"), {"number": "101"}, format="json"
    )
    assert answers_its_schema(schema, clash, MEMBER, "patch", 400)["status"] == 400
    assert Member.objects.filter(club__slug="rivertown").count() == 4
    assert Member.objects.get(club__slug="rivertown", name="Bob Jones").number == "102"
    missing = client.patch(MEMBER.format(club_slug="rivertown", number="999"), {}, format="json")
    assert missing.status_code == 404


def test_another_clubs_organiser_cannot_write_the_list(organiser, rival, members):
    other = signed_in(rival)
    tries = [
        other.post(
            MEMBERS.format(club_slug="rivertown"), {"number": "9", "name": "X"}, format="json"
        ),
        other.get(MEMBER.format(club_slug="rivertown", number="101")),
        other.patch(
            MEMBER.format(club_slug="rivertown", number="101"), {"name": "X"}, format="json"
        ),
        other.post(DEACTIVATE.format(club_slug="rivertown", number="101")),
    ]
    assert [response.status_code for response in tries] == [404, 404, 404, 404]
    # His own club's list is his to write.
    mine = other.post(
        MEMBERS.format(club_slug="hillside"), {"number": "9", "name": "X"}, format="json"
    )
    assert mine.status_code == 201
    anonymous = APIClient().post(
        MEMBERS.format(club_slug="rivertown"), {"number": "9", "name": "X"}, format="json"
    )
    player = UserFactory()
    not_organiser = signed_in(player).patch(
        MEMBER.format(club_slug="rivertown", number="101"), {"name": "X"}, format="json"
    )
    assert anonymous.status_code in (401, 403) and not_organiser.status_code == 403
    assert list(Member.objects.filter(club__slug="rivertown").values_list("name", "active"))[
        :1
    ] == [("Ann Smith", True)]
    assert not Member.objects.filter(club__slug="rivertown", number="9").exists()
