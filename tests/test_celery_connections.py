"""A Celery worker keeps its database connection from task to task, as a web process keeps
its own from request to request, and drops one that is too old or broken."""

import time

import pytest
from django.db import connection

from config.celery import app, close_old_database_connections
from scoring.tasks import update_standings


def test_celery_reuses_connections_for_many_tasks(settings):
    assert settings.CELERY_DB_REUSE_MAX >= 100
    assert app.conf.get("CELERY_DB_REUSE_MAX") == settings.CELERY_DB_REUSE_MAX


@pytest.mark.django_db(transaction=True)
def test_a_connection_younger_than_its_max_age_is_kept_around_a_task():
    connection.ensure_connection()
    opened = connection.connection
    connection.close_at = time.monotonic() + 60  # as CONN_MAX_AGE = 60 sets it
    close_old_database_connections(sender=update_standings)
    assert connection.connection is opened


@pytest.mark.integration  # SQLite's in-memory test database never closes
@pytest.mark.django_db(transaction=True)
def test_an_obsolete_connection_is_closed_around_a_task():
    connection.ensure_connection()
    connection.close_at = time.monotonic() - 1
    close_old_database_connections(sender=update_standings)
    assert connection.connection is None
    connection.ensure_connection()  # the next statement opens a new one
    assert connection.is_usable()


@pytest.mark.django_db(transaction=True)
def test_an_eager_task_leaves_its_callers_connection_alone():
    connection.ensure_connection()
    opened = connection.connection
    connection.close_at = time.monotonic() - 1
    update_standings.push_request(is_eager=True)
    try:
        close_old_database_connections(sender=update_standings)
    finally:
        update_standings.pop_request()
    assert connection.connection is opened
