"""The migration that adds the standings' percentage marks the stored standings behind, so
the reconcile ranks them again, but for the table of a final tournament approved while
results were missing (ranking it again would place it by percentage)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

SCORING_BEFORE = ("scoring", "0004_result_seats")
SCORING_AFTER = ("scoring", "0005_standing_percentage")


def with_the_other_apps_current(executor, node):
    """The migration targets: ``node``, every other app at its latest."""
    others = [leaf for leaf in executor.loader.graph.leaf_nodes() if leaf[0] != node[0]]
    return [node, *others]


@pytest.fixture
def latest_afterwards():
    """Leave the database migrated to the latest, whatever the test did."""
    yield
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_stored_standings_are_ranked_again_but_a_final_provisional_table(latest_afterwards):
    executor = MigrationExecutor(connection)
    before = with_the_other_apps_current(executor, SCORING_BEFORE)
    executor.migrate(before)
    apps = executor.loader.project_state(before).apps
    Tournament = apps.get_model("tournaments", "Tournament")
    StandingsState = apps.get_model("scoring", "StandingsState")
    now = timezone.now()
    cases = {  # slug: (status, computed, provisional)
        "running": ("running", True, True),
        "complete": ("running", True, False),
        "final-complete": ("final", True, False),
        "final-provisional": ("final", True, True),
        "never-computed": ("running", False, True),
    }
    for slug, (status, computed, provisional) in cases.items():
        tournament = Tournament.objects.create(name=slug, slug=slug, status=status)
        StandingsState.objects.create(
            tournament=tournament,
            results_version=3,
            computed_version=3 if computed else 0,
            computed_at=now if computed else None,
            provisional=provisional,
        )
    executor = MigrationExecutor(connection)
    after = with_the_other_apps_current(executor, SCORING_AFTER)
    executor.migrate(after)
    apps = executor.loader.project_state(after).apps
    StandingsState = apps.get_model("scoring", "StandingsState")
    versions = dict(StandingsState.objects.values_list("tournament__slug", "results_version"))
    assert versions == {
        "running": 4,
        "complete": 4,
        "final-complete": 4,
        "final-provisional": 3,
        "never-computed": 3,  # stale already: the reconcile computes it anyway
    }
