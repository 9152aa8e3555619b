"""The suite's two runs: a test that touches the database, Redis or a worker is marked
``services`` (``make test-services`` runs only those on PostgreSQL and Redis); any other test
is the same on both and runs once, on the embedded defaults, with the database tests of the
few modules of ``EMBEDDED_TOO`` (marked ``embedded``), which run on both."""

from __future__ import annotations

from pathlib import Path

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


def test_every_module_run_on_both_databases_exists():
    """An entry of ``EMBEDDED_TOO`` names a test module of the suite (a module renamed or
    removed would leave its tests to PostgreSQL alone without a word)."""
    from tests.conftest import EMBEDDED_TOO, ROOT

    for name in EMBEDDED_TOO:
        assert (ROOT / name).is_file(), name
        assert name.startswith("tests/") and name.rsplit("/", 1)[-1].startswith("test_"), name


def test_the_modules_of_embedded_too_and_no_other_run_on_both():
    from tests.conftest import EMBEDDED_TOO, ROOT, runs_on_both

    assert all(runs_on_both(ROOT / name) for name in EMBEDDED_TOO)
    assert not runs_on_both(ROOT / "tests/scoring/test_services.py")
    assert not runs_on_both(Path(__file__))


@pytest.mark.django_db
def test_a_database_test_of_another_module_is_not_embedded(request):
    assert request.node.get_closest_marker("services") is not None
    assert request.node.get_closest_marker("embedded") is None
