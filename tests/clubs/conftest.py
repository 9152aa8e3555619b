"""Fixtures of the club tests: a club with its organiser, another club, a few members."""

from __future__ import annotations

import pytest

from clubs import services
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
    return make_tournament(by=organiser, teams=4, tables=2, slug="monday")


@pytest.fixture
def players_event(organiser):
    return make_tournament(by=organiser, teams=4, tables=1, slug="pyramid-night", game="pyramid")
