"""Fixtures of the club tests: a club with its organiser, another club, a few members."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from clubs import services
from publishing.models import Export
from scoring.models import Standing
from tests.tournaments.conftest import make_tournament
from tests.tournaments.factories import OrganiserFactory


@pytest.fixture
def organiser(db):
    return OrganiserFactory()


@pytest.fixture
def club(organiser):
    return services.create_club(by=organiser, name="Rivertown Club", slug="rivertown")


@pytest.fixture
def rival(db):
    """An organiser of another club."""
    other = OrganiserFactory()
    services.create_club(by=other, name="Hillside Club", slug="hillside")
    return other


@pytest.fixture
def members(club, organiser):
    return [
        services.add_member(by=organiser, club=club, number=str(n), name=name, contact=f"{n}@x")
        for n, name in enumerate(["Ann Smith", "Bob Jones", "Cy Smith", "Di Brown"], start=101)
    ]


@pytest.fixture
def pairs_event(organiser):
    return make_tournament(by=organiser, entrants=4, tables=2, slug="monday")


@pytest.fixture
def players_event(organiser):
    return make_tournament(by=organiser, entrants=4, tables=1, slug="pyramid-night", game="pyramid")


def played(tournament, number, place, percentage, status="ok"):
    entrant = tournament.entrants.get(number=number)
    Standing.objects.create(
        tournament=tournament,
        entrant=entrant,
        place=place,
        points=10,
        percentage=percentage,
        matches=3,
        status=status,
    )
    return entrant


def publish(tournament, kind=Export.Kind.STANDINGS):
    Export.objects.create(
        tournament=tournament,
        kind=kind,
        state=Export.State.DONE,
        published=True,
        published_at=timezone.now(),
        file_path=f"{tournament.slug}/{kind}.xlsx",
        content_hash="0" * 64,
    )


@pytest.fixture
def season(club, organiser, members, pairs_event, players_event):
    """Ann plays a pairs event (published, with Bob), a Pyramid evening (published) and a
    third event (not published)."""
    hidden = make_tournament(by=organiser, entrants=2, tables=1, slug="unpublished")
    for offset, event in enumerate((pairs_event, players_event, hidden)):
        event.created_at = timezone.now() - timedelta(days=14 - 7 * offset)
        event.save(update_fields=["created_at"])
    entrant = played(pairs_event, 1, 2, 56.25)
    played(players_event, 3, 1, 61.5)
    played(hidden, 2, 1, 70.0)
    services.link_entrant(by=organiser, club=club, entrant=entrant, numbers=["101", "102"])
    for event, number in ((players_event, 3), (hidden, 2)):
        services.link_entrant(
            by=organiser, club=club, entrant=event.entrants.get(number=number), numbers=["101"]
        )
    services.link_entrant(
        by=organiser, club=club, entrant=pairs_event.entrants.get(number=2), numbers=["103", ""]
    )
    publish(pairs_event)
    publish(players_event, Export.Kind.RESULTS)
    return {"pairs": pairs_event, "players": players_event, "hidden": hidden}
