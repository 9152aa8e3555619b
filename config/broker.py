"""The Redis broker transport and worker consumer, made to outlive a Redis outage.

**Why the worker died.** When Redis drops, Celery's consumer (5.7) first *collects* the broken
connection, which detaches its kombu transport (``transport.client = None``), then closes the
same connection again. Closing its channel restores the messages the worker had received but
not yet acknowledged ("Restoring 3 unacknowledged message(s)"); the restore asks the channel
for a Redis client, whose pool is built from the detached transport's address:
``conninfo.hostname`` on ``None``. That ``AttributeError`` is not one of the connection errors
Celery ignores while closing, so it escapes as an "Unrecoverable error" and the worker exits
(the same detached-transport path as kombu issues #582 and #970). Here:

- a channel whose transport is detached answers with a *connection error* (which every
  close path ignores) instead of the ``AttributeError``;
- a restore that cannot reach Redis is logged, not raised: the messages stay in Redis's
  set of unacknowledged messages and are delivered again after ``visibility_timeout``
  (settings), and the standings they would have updated are caught up by the reconcile;
- the consumer retries the broker every ``RETRY_SECONDS`` (kombu's default waits 2, 4, 6 ...
  up to 30 s), and runs without mingle and gossip (worker-to-worker chatter the product does
  not use, and mingle's one-second wait at every reconnection), so the worker consumes again
  within a second or two of Redis's return.

``config.celery`` installs the transport for ``redis://`` and ``rediss://`` and the consumer.
"""

from __future__ import annotations

import functools
import logging

import redis
from celery.worker.consumer import Consumer as CeleryConsumer
from kombu.transport import redis as kombu_redis

logger = logging.getLogger(__name__)

RETRY_SECONDS = 0.5  # between attempts to reach the broker again, at most 1 s apart


class QoS(kombu_redis.QoS):
    def restore_unacked(self, client=None):
        try:
            return super().restore_unacked(client)
        except (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError, OSError) as exc:
            logger.warning(
                "broker: %d unacknowledged message(s) not restored now (%s); Redis delivers "
                "them again after the visibility timeout",
                len(self._delivered),
                exc,
            )
            self._delivered.clear()
            return None


class Channel(kombu_redis.Channel):
    QoS = QoS

    def _connparams(self, asynchronous=False):
        if self.connection.client is None:  # the connection was collected: detached
            raise redis.exceptions.ConnectionError("the broker connection is closed")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel


class Consumer(CeleryConsumer):
    """Celery's consumer, retrying the broker every ``RETRY_SECONDS`` and without mingle and
    gossip."""

    def __init__(self, *args, **kwargs):
        kwargs["without_mingle"] = True
        kwargs["without_gossip"] = True
        super().__init__(*args, **kwargs)

    def ensure_connected(self, conn):
        conn.ensure_connection = functools.partial(
            conn.ensure_connection,
            interval_start=0,
            interval_step=RETRY_SECONDS,
            interval_max=2 * RETRY_SECONDS,
        )
        try:
            return super().ensure_connected(conn)
        finally:
            del conn.ensure_connection
