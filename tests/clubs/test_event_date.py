"""An event's date: the organiser gives the day it was played (at first the day its
tournament was created); the player's page orders and dates his events by it, and a season
holds the events played between its dates."""

from __future__ import annotations

from datetime import timedelta

from django.urls import reverse

from clubs import selectors, services
from clubs.models import ClubEvent
from tests.clubs.test_seasons import finalise, lines, services_season, today
from tournaments.models import ActionLog


def test_an_event_is_dated_first_by_its_tournaments_creation(season):
    event = ClubEvent.objects.get(tournament=season["pairs"])
    assert event.date == season["pairs"].created_at.date() == today() - timedelta(days=14)


def test_the_organiser_dates_an_event_on_its_page(
    client, organiser, club, members, season, django_capture_on_commit_callbacks
):
    client.force_login(organiser)
    url = reverse("clubs:event_links", args=["rivertown", season["pairs"].slug])
    page = client.get(url)
    assert page.status_code == 200
    assert (today() - timedelta(days=14)).isoformat() in page.content.decode()
    played_on = today() - timedelta(days=3)
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(url, {"form": "date", "date-date": played_on.isoformat()})
    assert answer.status_code == 302
    assert ClubEvent.objects.get(tournament=season["pairs"]).date == played_on
    assert ActionLog.objects.filter(action="club_event_date").count() == 1
    # The player's page: the pairs evening now comes after the Pyramid one (7 days ago).
    ann = members[0]
    evenings = selectors.player_history(ann, public=False)
    assert [(e.tournament.slug, e.day) for e in evenings] == [
        ("pyramid-night", today() - timedelta(days=7)),
        ("monday", played_on),
        ("unpublished", today()),
    ]
    bad = client.post(url, {"form": "date", "date-date": "31/02/2026"})
    assert bad.status_code == 400
    assert ClubEvent.objects.get(tournament=season["pairs"]).date == played_on


def test_a_season_holds_the_events_played_between_its_dates(
    club, organiser, members, season, django_capture_on_commit_callbacks
):
    for event in season.values():
        finalise(event)
    with django_capture_on_commit_callbacks(execute=True):
        autumn = services_season(
            club, organiser, starts=today() - timedelta(days=10), ends=today(), best_n=1
        )
    # The pairs evening (14 days ago) is not in it; Ann's best is the unpublished 70.0.
    assert [line for line in lines(autumn) if line[1] in ("101", "102")] == [(1, "101", 70.0, 2)]
    with django_capture_on_commit_callbacks(execute=True):
        services.set_event_date(
            by=organiser, club=club, tournament=season["pairs"], date=today() - timedelta(days=2)
        )
    assert ("102" in {line[1] for line in lines(autumn)}) is True
    with django_capture_on_commit_callbacks(execute=True):
        services.set_event_date(
            by=organiser, club=club, tournament=season["pairs"], date=today() - timedelta(days=40)
        )
    assert "102" not in {line[1] for line in lines(autumn)}
