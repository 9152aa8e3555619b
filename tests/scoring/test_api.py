"""The REST API: who may do what, problem-details errors, re-sends, throttled guessing."""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scoring.models import Result, Submission
from tests.scoring.conftest import GAM_MADE, new_id
from tests.tournaments.factories import UserFactory


def board_url(cup, round_=1, table=1, tail=""):
    match = cup.match(round_, table)
    return f"/api/v1/tournaments/{cup.tournament.slug}/matches/{match.pk}/boards/1/{tail}"


def as_entrant(entrant):
    client = APIClient()
    client.credentials(HTTP_X_TEAM_CODE=entrant.access_code)
    return client


def as_token(user):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


def post(client, url, body):
    return client.post(url, body, format="json")


def test_public_reads(cup):
    client = APIClient()
    slug = cup.tournament.slug
    assert client.get("/api/v1/tournaments/").status_code == 200
    assert client.get(f"/api/v1/tournaments/{slug}/").json()["teams"] == 4
    entrants = client.get(f"/api/v1/tournaments/{slug}/teams/").json()
    assert len(entrants) == 4 and all("access_code" not in t for t in entrants)
    assert cup.entrants[0].access_code not in json.dumps(entrants)
    schedule = client.get(f"/api/v1/tournaments/{slug}/schedule/").json()
    assert len(schedule["matches"]) == 4
    matches = client.get(f"/api/v1/tournaments/{slug}/matches/").json()
    assert {b["state"] for m in matches for b in m["boards"]} == {"empty"}
    standings = client.get(f"/api/v1/tournaments/{slug}/standings/").json()
    assert standings["standings"] == []
    assert client.get("/api/v1/tournaments/nope/").status_code == 404


def test_legal_calls(cup):
    client = APIClient()
    url = f"/api/v1/tournaments/{cup.tournament.slug}/legal-calls/"
    box = client.get(url, {"table": 1, "calls": "N:G,E:R"}).json()
    assert box["seat"] == "S" and "G+4" in box["calls"] and "G+1" not in box["calls"]
    bad = client.get(url, {"table": 1, "calls": "N:G,E:G"})
    assert bad.status_code == 400 and bad.json()["field"] == "calls"


def test_whole_cycle_over_the_api(cup, django_capture_on_commit_callbacks):
    match = cup.match(1, 1)
    north, east = as_entrant(match.north_entrant), as_entrant(match.east_entrant)
    preview = post(north, board_url(cup, tail="preview/"), {"record": GAM_MADE})
    assert preview.status_code == 200 and preview.json()["ns"] == 21
    assert "North plays Gâm" in preview.json()["words"]
    body = {"client_id": new_id(), "record": GAM_MADE}
    created = post(north, board_url(cup, tail="entries/"), body)
    assert created.status_code == 201, created.content
    assert post(north, board_url(cup, tail="entries/"), body).status_code == 200  # re-send
    entry = created.json()["id"]
    me = east.get(f"/api/v1/tournaments/{cup.tournament.slug}/me/").json()
    pending = me["matches"][0]["boards"][0]
    assert pending["state"] == "awaiting_east" and pending["pending"]["id"] == entry
    rejected = post(
        east,
        board_url(cup, tail=f"entries/{entry}/reject/"),
        {"client_id": new_id(), "reason": "we took 6"},
    )
    assert rejected.status_code == 200
    again = post(
        north, board_url(cup, tail="entries/"), {"client_id": new_id(), "record": GAM_MADE}
    )
    with django_capture_on_commit_callbacks(execute=True):
        accepted = post(
            east,
            board_url(cup, tail=f"entries/{again.json()['id']}/accept/"),
            {"client_id": new_id()},
        )
    assert accepted.status_code == 200 and accepted.json()["ns"] == 21
    standings = APIClient().get(f"/api/v1/tournaments/{cup.tournament.slug}/standings/").json()
    assert standings["status"] == "provisional" and len(standings["standings"]) == 4


WRITE_ROUTES = [
    ("entries/", lambda sub: {"client_id": new_id(), "record": GAM_MADE}),
    ("entries/{sub}/accept/", lambda sub: {"client_id": new_id()}),
    ("entries/{sub}/reject/", lambda sub: {"client_id": new_id(), "reason": "no"}),
]


@pytest.mark.parametrize("who", ["ns", "ew", "other", "public", "organiser"])
@pytest.mark.parametrize(("tail", "body"), WRITE_ROUTES)
def test_permission_matrix_for_scorer_writes(cup, director, who, tail, body):
    match = cup.match(1, 1)
    entry = Submission.objects.none()
    sub_id = None
    if "{sub}" in tail:
        entry = post(
            as_entrant(match.north_entrant),
            board_url(cup, tail="entries/"),
            {"client_id": new_id(), "record": GAM_MADE},
        )
        sub_id = entry.json()["id"]
    clients = {
        "ns": as_entrant(match.north_entrant),
        "ew": as_entrant(match.east_entrant),
        "other": as_entrant(cup.entrants[2]),
        "public": APIClient(),
        "organiser": as_token(director),
    }
    response = post(clients[who], board_url(cup, tail=tail.format(sub=sub_id)), body(sub_id))
    allowed = {"entries/": "ns"}.get(tail, "ew")
    if who == allowed:
        assert response.status_code in (200, 201), response.content
    else:
        assert response.status_code in (401, 403), (who, response.status_code)
        assert response["Content-Type"].startswith("application/problem+json")
        assert response.json()["status"] == response.status_code


@pytest.mark.parametrize(
    "tail", ["director/", "director/result/", "director/adjust/", "director/erase/"]
)
@pytest.mark.parametrize("who", ["ns", "ew", "public", "player", "organiser"])
def test_permission_matrix_for_director_routes(cup, director, who, tail):
    match = cup.match(1, 1)
    clients = {
        "ns": as_entrant(match.north_entrant),
        "ew": as_entrant(match.east_entrant),
        "public": APIClient(),
        "player": as_token(UserFactory()),
        "organiser": as_token(director),
    }
    bodies = {
        "director/result/": {"client_id": new_id(), "record": GAM_MADE},
        "director/adjust/": {"ns": 10, "ew": -10, "reason": "slow play"},
        "director/erase/": {"reason": "misboard"},
    }
    client = clients[who]
    url = board_url(cup, tail=tail)
    response = client.get(url) if tail == "director/" else post(client, url, bodies[tail])
    if who == "organiser":
        assert response.status_code == 200, response.content
    else:
        assert response.status_code in (401, 403)


def test_bad_input_gives_problem_details_and_stores_nothing(cup):
    match = cup.match(1, 1)
    north = as_entrant(match.north_entrant)
    url = board_url(cup, tail="entries/")
    cases = [
        ({"client_id": new_id(), "record": {"auctions": [["N:G", "E:G+2"]]}}, 400, "auctions[0]"),
        (
            {"client_id": new_id(), "record": {**GAM_MADE, "tricks": {"NS": 16, "EW": 0}}},
            400,
            "tricks.NS",
        ),
        ({"client_id": "short", "record": GAM_MADE}, 400, "client_id"),
        ({"client_id": new_id(), "record": [1, 2]}, 400, "record"),
        ({"record": GAM_MADE}, 400, "client_id"),
        ({"client_id": 12345678, "record": GAM_MADE}, 400, "client_id"),  # not a string
    ]
    for body, status, field in cases:
        response = post(north, url, body)
        assert response.status_code == status, response.content
        problem = response.json()
        assert problem["field"] == field and problem["detail"]
        assert "Traceback" not in response.content.decode()
    garbage = north.post(url, "{not json", content_type="application/json")
    assert garbage.status_code == 400 and garbage.json()["status"] == 400
    huge = north.post(
        url,
        json.dumps({"client_id": new_id(), "record": {"x": "a" * 100_000}}),
        content_type="application/json",
    )
    assert huge.status_code == 400 and huge.json()["field"] == "body"
    unknown = post(
        north,
        f"/api/v1/tournaments/{cup.tournament.slug}/matches/999999/boards/1/entries/",
        {"client_id": new_id(), "record": GAM_MADE},
    )
    assert unknown.status_code == 404
    assert Submission.objects.count() == 0 and Result.objects.count() == 0
    # The body's types are the schema's: a number is not a reason, text is not a number.
    call = post(north, board_url(cup, tail="call-director/"), {"client_id": new_id(), "reason": 0})
    assert call.status_code == 400 and call.json()["field"] == "reason"


def test_the_director_routes_take_the_schemas_types_only(cup, director):
    from rest_framework.authtoken.models import Token

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=director).key}")
    erase = post(client, board_url(cup, tail="director/erase/"), {"reason": 0})
    assert erase.status_code == 400 and erase.json()["field"] == "reason"
    adjust = post(
        client, board_url(cup, tail="director/adjust/"), {"ns": "10", "ew": -10, "reason": "x"}
    )
    assert adjust.status_code == 400 and adjust.json()["field"] == "ns"
    assert Result.objects.count() == 0


def test_finalised_tournament_is_a_conflict(cup):
    cup.tournament.status = "final"
    cup.tournament.save()
    match = cup.match(1, 1)
    response = post(
        as_entrant(match.north_entrant),
        board_url(cup, tail="entries/"),
        {"client_id": new_id(), "record": GAM_MADE},
    )
    assert response.status_code == 409 and "final" in response.json()["detail"]


def test_guessing_codes_is_throttled(cup):
    me = f"/api/v1/tournaments/{cup.tournament.slug}/me/"
    client = APIClient()
    statuses = []
    for n in range(12):
        client.credentials(HTTP_X_TEAM_CODE=f"WRONGCODE{n}")
        statuses.append(client.get(me).status_code)
    assert statuses[:10] == [401] * 10 or set(statuses[:10]) <= {401, 403}
    assert statuses[-1] == 429
    client.credentials(HTTP_X_TEAM_CODE=cup.entrants[0].access_code)
    assert client.get(me).status_code == 200  # a right code always passes


def test_guessing_codes_on_writes_is_throttled_too(cup):
    """The write throttle reads the wrong-code count for the code check (one round trip)."""
    client = APIClient()
    url = board_url(cup, tail="preview/")
    statuses = []
    for n in range(11):
        client.credentials(HTTP_X_TEAM_CODE=f"WRONGCODE{n}")
        statuses.append(post(client, url, {"record": GAM_MADE}).status_code)
    assert set(statuses[:10]) <= {401, 403} and statuses[10] == 429
    client.credentials(HTTP_X_TEAM_CODE=cup.match(1, 1).north_entrant.access_code)
    assert post(client, url, {"record": GAM_MADE}).status_code == 200


def test_one_prankster_behind_the_venues_address_stops_no_table(cup):
    """Every table of a venue comes from one address: a prankster sending wrong codes from it
    gets longer and longer waits, and every table with its right code goes on."""
    me = f"/api/v1/tournaments/{cup.tournament.slug}/me/"
    prankster = APIClient()
    waits = []
    for n in range(16):
        prankster.credentials(HTTP_X_TEAM_CODE=f"PRANK{n:05d}")
        answer = prankster.get(me)
        if answer.status_code == 429:
            waits.append(int(answer["Retry-After"]))
    # Beyond ten wrong codes each is told to wait longer, never more than a few seconds.
    assert waits == [2, 4, 5, 5, 5, 5]
    for entrant in cup.entrants:
        table = APIClient()
        table.credentials(HTTP_X_TEAM_CODE=entrant.access_code)
        assert table.get(me).status_code == 200


def test_one_phone_resending_a_typo_waits_after_three_tries(cup):
    me = f"/api/v1/tournaments/{cup.tournament.slug}/me/"
    phone = APIClient()
    phone.credentials(HTTP_X_TEAM_CODE="TYPO123456")
    statuses = [phone.get(me).status_code for _ in range(5)]
    assert statuses == [403, 403, 403, 429, 429]
    phone.credentials(HTTP_X_TEAM_CODE=cup.entrants[1].access_code)  # the code, typed again
    assert phone.get(me).status_code == 200


def test_writes_beyond_the_rate_wait_and_reads_go_on(cup, settings):
    settings.SCORER_WRITE_RATE = "3/minute"
    match = cup.match(1, 1)
    north = as_entrant(match.north_entrant)
    statuses = [
        post(north, board_url(cup, tail="preview/"), {"record": GAM_MADE}).status_code
        for _ in range(4)
    ]
    assert statuses == [200, 200, 200, 429]
    refused = post(north, board_url(cup, tail="entries/"), {"client_id": new_id()})
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60
    assert not Submission.objects.exists()
    assert north.get(f"/api/v1/tournaments/{cup.tournament.slug}/me/").status_code == 200
    # Another address has its own count.
    other = as_entrant(match.east_entrant)
    other.defaults["REMOTE_ADDR"] = "10.1.2.3"
    assert post(other, board_url(cup, tail="preview/"), {"record": GAM_MADE}).status_code == 200


def test_a_malformed_write_rate_is_named():
    from scoring.api.access import parse_rate

    assert parse_rate("600/minute") == (600, 60) and parse_rate("5/s") == (5, 1)
    for bad in ("600", "many/minute", "6/fortnight"):
        with pytest.raises(ValueError, match="<count>/"):
            parse_rate(bad)


def test_openapi_schema_is_valid(db):
    from drf_spectacular.generators import SchemaGenerator
    from drf_spectacular.validation import validate_schema

    schema = SchemaGenerator().get_schema(request=None, public=True)
    validate_schema(schema)
    assert (
        "/api/v1/tournaments/{slug}/matches/{match_id}/boards/{board}/entries/" in schema["paths"]
    )


def test_standings_are_served_once_per_version_and_not_again_to_who_has_them(
    cup, django_capture_on_commit_callbacks
):
    url = f"/api/v1/tournaments/{cup.tournament.slug}/standings/"
    client = APIClient()
    empty = client.get(url)
    assert empty.status_code == 200 and empty.json()["standings"] == []
    match = cup.match(1, 1)
    with django_capture_on_commit_callbacks(execute=True):
        entry = post(
            as_entrant(match.north_entrant),
            board_url(cup, tail="entries/"),
            {"client_id": new_id(), "record": GAM_MADE},
        )
        post(
            as_entrant(match.east_entrant),
            board_url(cup, tail=f"entries/{entry.json()['id']}/accept/"),
            {"client_id": new_id()},
        )
    first = client.get(url)
    assert first.status_code == 200 and first["ETag"] != empty["ETag"]
    assert sum(row["matches"] for row in first.json()["standings"]) == 2
    column = '"scoring_standingsstate"."standings"'
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
        unchanged = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.content == first.content and again["ETag"] == first["ETag"]
    assert unchanged.status_code == 304 and unchanged.content == b""
    assert unchanged["ETag"] == first["ETag"]
    assert not any(column in query["sql"] for query in queries.captured_queries)
    assert client.get(url, HTTP_IF_NONE_MATCH=empty["ETag"]).status_code == 200


def test_pymtheg_has_no_entry_form_but_its_legal_calls(cup):
    match = cup.match(1, 1)
    answer = as_entrant(match.north_entrant).get(board_url(cup, tail="entry-form/"))
    assert answer.status_code == 404 and "legal-calls" in answer.json()["detail"]


def test_json_nested_too_deeply_is_a_400_not_a_crash(cup):
    match = cup.match(1, 1)
    url = board_url(cup, tail="preview/")
    body = '{"record": ' + "[" * 5000 + "]" * 5000 + "}"
    answer = as_entrant(match.north_entrant).generic(
        "POST", url, body, content_type="application/json"
    )
    assert answer.status_code == 400 and "nested too deeply" in answer.json()["detail"]
