"""The API's edges: games of individuals list each match's players by seat (N, E, S, W),
``legal-calls`` reads an unescaped ``+`` as the call's plus, and every address under
``/api/`` answers JSON (an index at ``/api/v1/``, a problem document where nothing is)."""

from __future__ import annotations

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from scoring.api.views import public
from tests.tournaments.test_individual_events import declaring, enter, pyramid_event
from tournaments.models import Match


def test_matches_of_individuals_name_the_player_in_each_seat(db, monkeypatch):
    event = pyramid_event(slug="seats-map")
    match = Match.objects.filter(table__tournament=event, round=1, table__number=1).get()
    board = declaring(event, match, "E")[0]
    enter(match, board, {"declared": 3, "trump": "hearts", "won": 2})
    # Only a complete table's results are public: table 1 is taken as complete here.
    monkeypatch.setattr(public.visibility, "complete_tables", lambda tournament: {1})
    body = APIClient().get(f"/api/v1/tournaments/{event.slug}/matches/").json()
    first = next(m for m in body if m["id"] == match.pk)
    assert "ns" not in first and "ew" not in first
    assert list(first["seats"]) == ["N", "E", "S", "W"]
    for seat in match.seats.select_related("entrant"):
        assert first["seats"][seat.seat] == {
            "number": seat.entrant.number,
            "name": seat.entrant.name,
        }
    result = next(b for b in first["boards"] if b["board"] == board.number)["result"]
    assert result == {"seats": {"N": -8, "E": 8, "S": -8, "W": -8}, "kind": "confirmed"}


def test_matches_of_pairs_keep_north_south_and_east_west(cup):
    body = APIClient().get(f"/api/v1/tournaments/{cup.tournament.slug}/matches/").json()
    assert {"ns", "ew"} <= set(body[0]) and "seats" not in body[0]


def test_the_schema_types_the_seats_map(db):
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    match = schema["components"]["schemas"]["Match"]["properties"]
    seated = schema["components"]["schemas"]["SeatedPlayers"]["properties"]
    assert set(seated) == {"N", "E", "S", "W"} and "seats" in match
    assert "/api/v1/" in schema["paths"]


@pytest.mark.parametrize("calls", ["N:G,E:G+1", "N:G,E:G 1", "N:G,E:G%2B1"])
def test_legal_calls_read_a_plus_however_it_is_sent(cup, calls):
    url = f"/api/v1/tournaments/{cup.tournament.slug}/legal-calls/?table=1&calls={calls}"
    answer = APIClient().get(url)
    assert answer.status_code == 200, answer.content
    box = answer.json()
    assert box["seat"] == "S" and "G+1" not in box["calls"] and "G+2" in box["calls"]


def test_the_api_index_links_the_schema_and_the_docs(db):
    answer = APIClient().get("/api/v1/")
    assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
    body = answer.json()
    assert body["schema"].endswith("/api/schema/") and body["docs"].endswith("/api/docs/")
    assert APIClient().get(body["tournaments"]).status_code == 200


@override_settings(DEBUG=True)
@pytest.mark.parametrize(
    "path",
    [
        "/api/",
        "/api/v1/nothing/",
        "/api/v2/",
        "/api/v1/tournaments/nope/",
        "/api/v1/tournaments/nope/matches/",
        "/api/v1/tournaments/x/matches/abc/boards/1/preview/",
    ],
)
def test_every_address_under_the_api_that_is_not_there_answers_a_problem(db, path):
    for method in ("get", "post"):
        answer = getattr(APIClient(), method)(path)
        # A POST to an existing read is refused as a method the address does not take.
        assert answer.status_code in ((404,) if method == "get" else (404, 405)), (method, path)
        assert answer["Content-Type"].startswith("application/problem+json"), (method, path)
        assert answer.json()["status"] == answer.status_code


@override_settings(DEBUG=True)
def test_an_address_without_its_slash_is_sent_to_the_one_with_it(db):
    answer = APIClient().get("/api/v1/nothing")
    assert answer.status_code == 301 and answer["Location"].endswith("/api/v1/nothing/")


def test_exports_are_not_hidden_by_the_api_fallback(cup):
    answer = APIClient().get(f"/api/v1/tournaments/{cup.tournament.slug}/exports/")
    assert answer.status_code in (401, 403)
