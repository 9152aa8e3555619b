"""The suite's two runs: a test that touches the database, Redis or a worker is marked
``services`` (``make test-services`` runs only those on PostgreSQL and Redis); any other test
is the same on both and runs once, on the embedded defaults."""

from __future__ import annotations

import pytest


def is_marked(request: pytest.FixtureRequest) -> bool:
    return request.node.get_closest_marker("services") is not None


def test_an_engine_test_runs_once(request):
    assert not is_marked(request)


def test_a_test_of_settings_alone_runs_once(request, settings, rf):
    assert not is_marked(request)


def test_the_database_fixture_marks_a_test(request, db):
    assert is_marked(request)


@pytest.mark.django_db
def test_the_database_marker_marks_a_test(request):
    assert is_marked(request)


def test_a_test_client_marks_a_test(request, client):
    assert is_marked(request)


@pytest.fixture
def through_a_fixture(db):
    return "a fixture of the test's own that asks for the database"


def test_a_fixture_that_asks_for_the_database_marks_a_test(request, through_a_fixture):
    assert is_marked(request)


@pytest.mark.worker
def test_the_worker_marker_marks_a_test(request):
    assert is_marked(request)
