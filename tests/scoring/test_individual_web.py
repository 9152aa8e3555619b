"""A Pyramid event over HTTP: the API's whole cycle by seat, the director's page with the
game's own choices and per-seat adjustments, the scorer's page offering only what the sheet
has left."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Result, Submission
from tests.scoring.test_api import as_entrant, as_token, post
from tests.tournaments.test_individual_events import declaring, enter, new_id, pyramid_event
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def first_match(tournament) -> Match:
    return Match.objects.filter(table__tournament=tournament, round=1).order_by("table__number")[0]


def board_url(tournament, match, board, tail=""):
    return f"/api/v1/tournaments/{tournament.slug}/matches/{match.pk}/boards/{board}/{tail}"


def seated(match, seat):
    return match.seats.get(seat=seat).entrant


def test_whole_cycle_over_the_api(django_capture_on_commit_callbacks):
    tournament = pyramid_event()
    match = first_match(tournament)
    north, east = as_entrant(seated(match, "N")), as_entrant(seated(match, "E"))
    me = north.get(f"/api/v1/tournaments/{tournament.slug}/me/").json()
    assert me["matches"][0]["role"] == "north"
    facts = {"declared": 3, "trump": "hearts", "won": 2}  # board 1: North deals, East declares
    preview = post(north, board_url(tournament, match, 1, "preview/"), {"record": facts})
    assert preview.status_code == 200, preview.content
    created = post(
        north, board_url(tournament, match, 1, "entries/"), {"client_id": new_id(), "record": facts}
    )
    assert created.status_code == 201, created.content
    south = as_entrant(seated(match, "S"))
    refused = post(
        south,
        board_url(tournament, match, 1, f"entries/{created.json()['id']}/accept/"),
        {"client_id": new_id()},
    )
    assert refused.status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        accepted = post(
            east,
            board_url(tournament, match, 1, f"entries/{created.json()['id']}/accept/"),
            {"client_id": new_id()},
        )
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["seats"] == {"N": -8, "E": 8, "S": -8, "W": -8}
    standings = APIClient().get(f"/api/v1/tournaments/{tournament.slug}/standings/").json()
    assert standings["status"] == "provisional" and len(standings["standings"]) == 16


def test_an_entry_beyond_the_sheet_is_a_clear_400_over_the_api():
    tournament = pyramid_event(per_round=4)
    match = first_match(tournament)
    boards = declaring(tournament, match, "E")
    for board in boards[:1]:  # one "0": the sheet's only place for it
        enter(match, board, {"declared": 0, "trump": "nt", "won": 0})
    north = as_entrant(seated(match, "N"))
    response = post(
        north,
        board_url(tournament, match, boards[1].number, "entries/"),
        {"client_id": new_id(), "record": {"declared": 0, "trump": "nt", "won": 0}},
    )
    assert response.status_code == 400
    assert "no declaration of 0 left" in response.json()["detail"]
    assert Submission.objects.filter(board=boards[1]).count() == 0


@pytest.fixture
def td(client, director):
    client.force_login(director)
    return client


def director_url(name, tournament, match, board):
    return reverse(f"scoring:{name}", args=[tournament.slug, match.pk, board])


def test_the_directors_page_offers_the_games_choices_and_seats(td):
    tournament = pyramid_event()
    match = first_match(tournament)
    board = declaring(tournament, match, "E")[0]
    enter(match, board, {"declared": 2, "trump": "spades", "won": 2})
    other = declaring(tournament, match, "E")[1]
    page = td.get(director_url("director-board", tournament, match, other.number))
    html = page.content.decode()
    assert page.status_code == 200
    assert f"North: <strong>{seated(match, 'N').number}." in html
    assert 'name="declared"' in html and 'name="won"' in html and 'name="calls"' not in html
    assert 'value="2"' in html  # "2" has three places: one used, two left
    assert 'name="seat_W"' in html and 'name="ns"' not in html


def test_the_director_enters_by_the_choices_and_the_sheet_still_holds(td):
    tournament = pyramid_event()
    match = first_match(tournament)
    first, second = declaring(tournament, match, "E")[:2]
    enter(match, first, {"declared": 0, "trump": "nt", "won": 0})
    url = director_url("director-enter", tournament, match, second.number)
    body = {"client_id": new_id(), "declared": "0", "trump": "nt", "won": "0"}
    refused = td.post(url, body)
    assert refused.status_code == 400
    assert "no declaration of 0 left" in refused.content.decode()
    assert not Result.objects.filter(board=second).exists()
    done = td.post(url, {**body, "declared": "1", "won": "1", "reason": "phone died"})
    assert done.status_code == 302
    result = Result.objects.get(board=second, current=True)
    assert result.kind == "director" and result.seats["E"] == 10
    missing = td.post(url, {"client_id": new_id(), "trump": "nt"})
    assert missing.status_code == 400 and "Choose the declared" in missing.content.decode()


def test_a_correction_may_keep_its_own_declaration(td):
    tournament = pyramid_event()
    match = first_match(tournament)
    board = declaring(tournament, match, "E")[0]
    enter(match, board, {"declared": 0, "trump": "nt", "won": 1})
    page = td.get(director_url("director-board", tournament, match, board.number))
    assert 'value="0"' in page.content.decode()  # the board's own result frees its place
    done = td.post(
        director_url("director-enter", tournament, match, board.number),
        {"client_id": new_id(), "declared": "0", "trump": "nt", "won": "0", "reason": "miscount"},
    )
    assert done.status_code == 302
    assert Result.objects.get(board=board, current=True).seats["E"] == 10


def test_the_director_adjusts_every_seat(td):
    tournament = pyramid_event()
    match = first_match(tournament)
    url = director_url("director-adjust", tournament, match, 1)
    short = td.post(url, {"seat_N": "5", "seat_E": "-5", "reason": "slow play"})
    assert short.status_code == 400 and not Result.objects.exists()
    body = {"seat_N": "5", "seat_E": "-5", "seat_S": "0", "seat_W": "0", "reason": "slow play"}
    assert td.post(url, body).status_code == 302
    result = Result.objects.get(current=True)
    assert result.kind == "adjusted"
    assert result.seats == {"N": 5, "E": -5, "S": 0, "W": 0}
    page = td.get(director_url("director-board", tournament, match, 1)).content.decode()
    assert "N 5 · E -5 · S 0 · W 0" in page


def test_the_api_adjusts_by_seat_and_refuses_a_missing_one(director):
    tournament = pyramid_event()
    match = first_match(tournament)
    client = as_token(director)
    url = board_url(tournament, match, 1, "director/adjust/")
    bad = post(client, url, {"seats": {"N": 1, "E": 2, "S": 3}, "reason": "x"})
    assert bad.status_code == 400 and "W" in json.dumps(bad.json())
    stranger = post(client, url, {"seats": {"N": 1, "E": 2, "S": 3, "W": 4, "X": 1}, "reason": "x"})
    assert stranger.status_code == 400 and "'X' is not a seat" in stranger.json()["detail"]
    good = post(client, url, {"seats": {"N": 1, "E": 2, "S": 3, "W": 4}, "reason": "x"})
    assert good.status_code == 200 and good.json()["seats"] == {"N": 1, "E": 2, "S": 3, "W": 4}


def test_the_scorer_page_offers_only_what_the_sheet_has_left(client):
    tournament = pyramid_event(per_round=4)
    match = first_match(tournament)
    first, second = declaring(tournament, match, "E")[:2]
    enter(match, first, {"declared": 0, "trump": "nt", "won": 0})
    north = seated(match, "N")
    page = client.get(
        reverse("scorer-entry", args=[tournament.slug]), {"code": north.access_code}, follow=True
    )
    html = page.content.decode()
    assert page.status_code == 200
    start = html.index(f'id="form-m{match.pk}-b{second.number}"')
    spec = json.loads(html[html.index(">", start) + 1 : html.index("</script>", start)])
    declared = next(field for field in spec["fields"] if field["name"] == "declared")
    assert [value for value, _label in declared["choices"]] == [1, 2, 3, 4, 5, 6]


def test_the_entry_form_over_the_api_offers_what_the_sheet_has_left():
    tournament = pyramid_event(per_round=4)
    match = first_match(tournament)
    first, second = declaring(tournament, match, "E")[:2]
    enter(match, first, {"declared": 0, "trump": "nt", "won": 0})
    url = board_url(tournament, match, second.number, "entry-form/")
    south = as_entrant(seated(match, "S"))
    form = south.get(url)
    assert form.status_code == 200, form.content
    declared = next(field for field in form.json()["fields"] if field["name"] == "declared")
    assert [value for value, _label in declared["choices"]] == [1, 2, 3, 4, 5, 6]
    stranger = Match.objects.filter(table__tournament=tournament, round=1).exclude(pk=match.pk)[0]
    assert as_entrant(seated(stranger, "N")).get(url).status_code == 403
    assert south.get(board_url(tournament, match, 99, "entry-form/")).status_code == 404
    assert APIClient().get(url).status_code in (401, 403)


def test_legal_calls_of_a_game_without_an_auction_is_a_clear_404():
    tournament = pyramid_event()
    answer = APIClient().get(
        f"/api/v1/tournaments/{tournament.slug}/legal-calls/", {"table": 1, "calls": ""}
    )
    assert answer.status_code == 404 and "entry-form" in answer.json()["detail"]


def test_an_api_address_that_matches_nothing_answers_problem_details(client, settings):
    settings.DEBUG = False
    answer = client.get("/api/v1/tournaments/x/exports/not-a-number/file/")
    assert answer.status_code == 404
    assert answer["Content-Type"] == "application/problem+json"
    assert answer.json()["title"] == "not found"
    page = client.get("/no/such/page/")
    assert page.status_code == 404 and page["Content-Type"].startswith("text/html")
