"""Fixtures for the organiser side: users, a logged-in organiser, ready-made tournaments."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import OrganiserFactory, UserFactory
from tournaments import services
from tournaments.imports import EntrantRow


@pytest.fixture
def organiser(db):
    return OrganiserFactory()


@pytest.fixture
def player(db):
    """A signed-in user without the organise permission."""
    return UserFactory()


@pytest.fixture
def organiser_client(client, organiser):
    client.force_login(organiser)
    return client


def make_tournament(*, by=None, entrants: int = 4, tables: int = 2, slug: str = "cup", **settings):
    tournament = services.create_tournament(
        by=by, name=f"Cup {slug}", slug=slug, tables=tables, **settings
    )
    if entrants:
        services.import_teams(
            by=by,
            tournament=tournament,
            rows=[
                EntrantRow(n, n, f"Team {n}", f"Player {n}a", f"Player {n}b")
                for n in range(1, entrants + 1)
            ],
        )
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def draft(db, organiser):
    """A draft tournament: 4 teams, 2 tables."""
    return make_tournament(by=organiser)


@pytest.fixture
def scheduled(db, organiser):
    """14 teams at 7 tables, schedule drawn up (fixed sides), every board dealt."""
    tournament = make_tournament(by=organiser, entrants=14, tables=7, slug="seven")
    services.draw_schedule(by=organiser, tournament=tournament)
    services.deal_boards(by=organiser, tournament=tournament, seed="fixture")
    tournament.refresh_from_db()
    return tournament
