"""Seasons: the ladder job follows each event as it is finalised or reopened and each link;
the public ladder page says its rule and hides the names of members who opted out; the
workbook prints the same ladder."""

from __future__ import annotations

import io
from datetime import date, timedelta

import openpyxl
import pytest
from django.urls import reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from clubs import seasons, services
from clubs.models import Club, ClubEvent, EntrantMember, LadderState, Member, Season
from clubs.services import ClubError, NotAllowed
from tests.clubs.conftest import played
from tests.scoring.test_api_outputs import check
from tournaments import services as tournaments
from tournaments.models import ActionLog, Status, Tournament


def today() -> date:
    return timezone.now().date()


def finalise(tournament, status=Status.FINAL):
    tournament.status = status
    tournament.save(update_fields=["status", "updated_at"])


def lines(season):
    view = seasons.ladder_view(season, public=False)
    return [(line.place, line.member.number, line.score, line.events) for line in view.lines]


@pytest.fixture
def ladder_season(club, organiser, members, season, django_capture_on_commit_callbacks):
    """Ann (101) and Bob (102) in the pairs event, Cy (103) in its entrant 2, Ann alone in
    the Pyramid evening; a season of both games, best 2."""
    played(season["pairs"], 2, 3, 48.0)
    with django_capture_on_commit_callbacks(execute=True):
        found = services_season(club, organiser, kind="best", best_n=2)
    return found


def services_season(club, organiser, **values):
    values = {
        "name": "Autumn",
        "starts": today() - timedelta(days=30),
        "ends": today() + timedelta(days=30),
        **values,
    }
    return seasons.save_season(by=organiser, club=club, **values)


def test_only_final_events_enter_and_reopening_takes_one_out(
    ladder_season, season, django_capture_on_commit_callbacks
):
    assert lines(ladder_season) == []
    with django_capture_on_commit_callbacks(execute=True):
        finalise(season["pairs"])
    assert lines(ladder_season) == [
        (1, "101", 28.12, 1),
        (1, "102", 28.12, 1),
        (3, "103", 24.0, 1),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        finalise(season["players"])
    assert lines(ladder_season)[0] == (1, "101", 58.88, 2)
    with django_capture_on_commit_callbacks(execute=True):
        finalise(season["pairs"], Status.RUNNING)
    assert lines(ladder_season) == [(1, "101", 30.75, 1)]


def test_a_new_link_moves_the_ladder(
    club, organiser, ladder_season, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finalise(season["pairs"])
        services.link_entrant(
            by=organiser, club=club, entrant=season["pairs"].entrants.get(number=2), numbers=["104"]
        )
    assert [number for _, number, _, _ in lines(ladder_season)] == ["101", "102", "104"]


def test_a_season_of_one_game_and_an_average_with_a_minimum(
    club, organiser, season, members, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finalise(season["pairs"])
        finalise(season["players"])
        only = services_season(club, organiser, name="Pyramid", games=["pyramid"], kind="average")
        strict = services_season(club, organiser, name="Strict", kind="average", min_events=2)
    assert lines(only) == [(1, "101", 61.5, 1)]
    assert lines(strict) == [(1, "101", 58.88, 2), (None, "102", 56.25, 1)]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        ({"ends": date(2000, 1, 1)}, "ends on or after"),
        ({"games": ["chess"]}, "No game called 'chess'"),
        ({"kind": "points", "points": []}, "needs the points of place 1"),
        ({"kind": "best", "best_n": 0}, "whole numbers from 1 up"),
    ],
)
def test_a_bad_season_is_refused_and_nothing_stored(club, organiser, values, message):
    with pytest.raises(ClubError, match=message):
        services_season(club, organiser, **values)
    assert not club.seasons.exists()


def test_another_clubs_organiser_cannot_make_a_season(club, rival):
    with pytest.raises(NotAllowed):
        services_season(club, rival)


def test_the_public_ladder_page_and_its_workbook(
    client, organiser, members, ladder_season, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.update_member(by=organiser, member=members[1], public=False, name="=1+1")
        finalise(season["pairs"])
    page = client.get(reverse("clubs:ladder", args=["rivertown", "autumn"])).content.decode()
    assert "best 2 percentages" in page and "share the place" in page
    assert "Ann Smith" in page and "=1+1" not in page and "a member who opted out" in page
    download = client.get(reverse("clubs:ladder_download", args=["rivertown", "autumn"]))
    book = openpyxl.load_workbook(io.BytesIO(download.content))
    rows = list(book["Ladder"].iter_rows(min_row=4, values_only=True))
    assert rows == [
        (1, "Ann Smith", 28.12, 1),
        (1, "(opted out)", 28.12, 1),
        (3, "Cy Smith", 24, 1),
    ]
    assert [r[1] for r in book["Events"].iter_rows(min_row=2, values_only=True)] == ["Cup monday"]


def test_a_season_not_computed_yet_says_so(client, club, organiser):
    services_season(club, organiser)  # the job waits for the commit, which never comes here
    assert not LadderState.objects.exists()
    page = client.get(reverse("clubs:ladder", args=["rivertown", "autumn"]))
    assert b"being computed" in page.content


def test_the_organisers_season_form(client, organiser, club, django_capture_on_commit_callbacks):
    client.force_login(organiser)
    url = reverse("clubs:seasons", args=["rivertown"])
    data = {"name": "Winter", "starts": "2026-12-01", "ends": "2027-02-28", "kind": "points"}
    data.update(best_n=10, min_events=1, points="10, 8, x")
    assert client.post(url, data).status_code == 400
    data["points"] = "10, 8, 6"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, data).status_code == 302
    assert club.seasons.get().points == [10.0, 8.0, 6.0]
    assert LadderState.objects.filter(season__slug="winter").exists()


def test_the_ladder_through_the_api_matches_its_schema(
    organiser, members, ladder_season, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        services.update_member(by=organiser, member=members[1], public=False)
        finalise(season["pairs"])
    schema = SchemaGenerator().get_schema(request=None, public=True)
    template = "/api/v1/clubs/{club_slug}/seasons/{season}/ladder/"
    path = template.format(club_slug="rivertown", season="autumn")
    body = check(schema, APIClient(), path, template)
    assert [(r["place"], r["name"], r["number"], r["score"]) for r in body["ladder"]] == [
        (1, "Ann Smith", "101", 28.12),
        (1, None, None, 28.12),
        (3, "Cy Smith", "103", 24.0),
    ]
    assert body["events"] == ["monday"]
    assert APIClient().get(template.format(club_slug="rivertown", season="none")).status_code == 404


def test_a_deleted_event_leaves_the_ladder_and_takes_its_links(
    organiser, ladder_season, season, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        finalise(season["pairs"])
    assert lines(ladder_season)
    with django_capture_on_commit_callbacks(execute=True):
        tournaments.delete_tournament(by=organiser, tournament=season["pairs"])
    assert [number for _, number, _, _ in lines(ladder_season)] == []
    assert not EntrantMember.objects.filter(tournament_id=season["pairs"].pk).exists()


def test_deleting_a_club_takes_its_list_and_seasons_and_leaves_its_tournaments(
    club, organiser, rival, ladder_season, season, django_capture_on_commit_callbacks
):
    with pytest.raises(NotAllowed):
        services.delete_club(by=rival, club=club)
    assert Club.objects.filter(pk=club.pk).exists()
    assert Member.objects.filter(club=club).count() == 4
    with django_capture_on_commit_callbacks(execute=True):
        services.delete_club(by=organiser, club=club)
    assert not Club.objects.filter(pk=club.pk).exists()
    assert not Member.objects.filter(club_id=club.pk).exists()
    assert not Season.objects.filter(pk=ladder_season.pk).exists()
    assert not EntrantMember.objects.filter(tournament_id=season["pairs"].pk).exists()
    assert Tournament.objects.filter(pk=season["pairs"].pk).exists()
    assert not ClubEvent.objects.filter(tournament_id=season["pairs"].pk).exists()
    entry = ActionLog.objects.get(action="delete_club")
    assert entry.summary == "Rivertown Club: club deleted"
    assert entry.after == {"slug": "rivertown", "members": 4, "events": 3, "seasons": 1}
