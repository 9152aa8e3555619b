"""A Celery worker keeps its database connection from task to task, as a web process keeps
its own from request to request, and drops one that is too old or broken."""

import time

import pytest
from celery.worker.consumer import Consumer as CeleryConsumer
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


# The worker outlives a Redis outage (config/broker.py).


def test_redis_addresses_use_the_transport_that_outlives_an_outage():
    from kombu import Connection

    from config.broker import Consumer, Transport

    assert isinstance(Connection("redis://127.0.0.1:6379/0").transport, Transport)
    assert app.conf.worker_consumer == "config.broker:Consumer"
    assert issubclass(Consumer, CeleryConsumer)


def test_a_detached_channel_answers_with_a_connection_error_not_an_attribute_error():
    """The worker died of ``conninfo.hostname`` on a transport that a collected connection had
    detached; a connection error is one that every close path ignores."""
    from types import SimpleNamespace

    import redis

    from config.broker import Channel

    detached = SimpleNamespace(connection=SimpleNamespace(client=None))
    with pytest.raises(redis.exceptions.ConnectionError):
        Channel._connparams(detached)


def test_unacknowledged_messages_that_cannot_be_restored_are_logged_not_raised(caplog):
    import contextlib
    from types import SimpleNamespace

    import redis

    from config.broker import QoS

    @contextlib.contextmanager
    def unreachable(client=None):
        raise redis.exceptions.ConnectionError("Error 111 connecting: Connection refused")
        yield

    qos = QoS.__new__(QoS)
    qos.channel = SimpleNamespace(conn_or_acquire=unreachable)
    qos._delivered = {"a": 1, "b": 2, "c": 3}
    with caplog.at_level("WARNING", logger="config.broker"):
        qos.restore_unacked()
    assert "3 unacknowledged message(s) not restored now" in caplog.text
    assert qos._delivered == {}


def test_the_worker_retries_the_broker_at_least_every_second():
    from config.broker import RETRY_SECONDS, Consumer

    calls = []

    class Broker:
        def ensure_connection(self, errback=None, max_retries=None, **options):
            calls.append(options)
            return self

    consumer = Consumer.__new__(Consumer)
    consumer.app = app
    consumer.first_connection_attempt = False
    consumer.broker_connection_retry_attempt = 0
    broker = Broker()
    assert consumer.ensure_connected(broker) is broker
    assert calls[0]["interval_start"] == 0
    assert calls[0]["interval_max"] <= 1 and RETRY_SECONDS <= 1
    assert "ensure_connection" not in vars(broker)  # the broker object is left as it was
