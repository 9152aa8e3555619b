"""The shared cache on Redis: Django's backend with two changes for the scorers' busiest
moments (every table reporting at once), where each request makes several cache calls.

- One redis-py client per connection pool, made once: Django's client makes a new one for
  every call, and with it a table of a few hundred reply callbacks. redis-py clients are
  safe to share between threads; each still takes a connection from the pool per command.
- ``count_hit``: a counter that expires, bumped in one round trip (Django's ``incr`` takes
  two and fails on a missing key). Backends without it fall back to ``add`` and ``incr``.

And it **fails open**: the cache only speeds things up and counts requests, so when Redis does
not answer, every call gives what an empty cache would (``get``: the default, ``add``: added,
a counter: its first hit), the failure is logged and counted (``outage``), and the scorer's
request goes on against the database. After a failure Redis is left alone for
``RETRY_SECONDS``, so that a dead server costs each request nothing, not a timeout.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache import BaseCache
from django.core.cache.backends import redis as django_redis

logger = logging.getLogger(__name__)
T = TypeVar("T")
RETRY_SECONDS = 2.0


class Outage:
    """This process's view of the cache's Redis: failures counted, and when it may be tried
    again after the last one."""

    def __init__(self) -> None:
        self.failures = 0
        self.last_error = ""
        self.retry_at = 0.0
        self._lock = threading.Lock()

    @property
    def down(self) -> bool:
        return time.monotonic() < self.retry_at

    def failed(self, error: Exception) -> None:
        with self._lock:
            first = not self.down
            self.failures += 1
            self.last_error = type(error).__name__
            self.retry_at = time.monotonic() + RETRY_SECONDS
        if first:  # one line per outage window, not one per request
            logger.warning("cache: Redis did not answer (%s); going on without it", error)


outage = Outage()


def _fail_open(fallback: Callable[..., Any]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run the Redis call unless Redis is known to be down; on a Redis error give
    ``fallback(*args)``, what an empty cache would answer."""

    def decorate(method: Callable[..., T]) -> Callable[..., T]:
        @functools.wraps(method)
        def call(self: Any, *args: Any, **kwargs: Any) -> T:
            if outage.down:
                return fallback(*args, **kwargs)
            try:
                return method(self, *args, **kwargs)
            except redis.RedisError as error:
                outage.failed(error)
                return fallback(*args, **kwargs)

        return call

    return decorate


# One command, atomic: bump, and give a new counter its lifetime (later bumps keep it); then
# read the other keys given, so a caller needing one more value saves a round trip.
COUNT_HIT_SCRIPT = """
local hits = redis.call('INCR', KEYS[1])
if hits == 1 then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
local found = {hits}
for i = 2, #KEYS do found[i] = redis.call('GET', KEYS[i]) or false end
return found
"""


class RedisCacheClient(django_redis.RedisCacheClient):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}
        self._count_script: Any = None

    def get_client(self, key=None, *, write=False):
        index = self._get_connection_pool_index(write)
        client = self._clients.get(index)
        if client is None:
            client = self._clients[index] = self._client(
                connection_pool=self._get_connection_pool(write)
            )
        return client

    @_fail_open(lambda key, timeout, value: True)
    def add(self, key, value, timeout):
        return super().add(key, value, timeout)

    @_fail_open(lambda key, default: default)
    def get(self, key, default):
        return super().get(key, default)

    @_fail_open(lambda key, value, timeout: None)
    def set(self, key, value, timeout):
        return super().set(key, value, timeout)

    @_fail_open(lambda key, timeout: False)
    def touch(self, key, timeout):
        return super().touch(key, timeout)

    @_fail_open(lambda key: False)
    def delete(self, key):
        return super().delete(key)

    @_fail_open(lambda keys: {})
    def get_many(self, keys):
        return super().get_many(keys)

    @_fail_open(lambda key: False)
    def has_key(self, key):
        return super().has_key(key)

    @_fail_open(lambda key, delta: delta)
    def incr(self, key, delta):
        return super().incr(key, delta)

    @_fail_open(lambda data, timeout: [])
    def set_many(self, data, timeout):
        return super().set_many(data, timeout)

    @_fail_open(lambda keys: None)
    def delete_many(self, keys):
        return super().delete_many(keys)

    @_fail_open(lambda: False)
    def clear(self):
        return super().clear()

    @_fail_open(lambda key, timeout, read=(): [1, *(None for _ in read)])
    def count_hit(self, key: str, timeout: int, read: tuple[str, ...] = ()) -> list:
        client = self.get_client(key, write=True)
        if self._count_script is None:
            self._count_script = client.register_script(COUNT_HIT_SCRIPT)
        hits, *found = self._count_script(keys=[key, *read], args=[timeout], client=client)
        return [
            int(hits),
            *(None if value is None else self._serializer.loads(value) for value in found),
        ]


class RedisCache(django_redis.RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = RedisCacheClient

    def count_hit(self, key: str, timeout: int, read: tuple[str, ...] = ()) -> list:
        keys = [self.make_and_validate_key(name) for name in (key, *read)]
        return self._cache.count_hit(keys[0], int(timeout), tuple(keys[1:]))


def count_hit(cache: BaseCache, key: str, timeout: int) -> int:
    """Bump the counter ``key`` (made with ``timeout`` seconds to live) and return it."""
    return count_hit_and_read(cache, key, timeout)[0]


def count_hit_and_read(cache: BaseCache, key: str, timeout: int, *read: str) -> list:
    """``count_hit``, then the values of the keys ``read`` (None where missing), in one
    round trip on Redis: ``[hits, value, ...]``."""
    counter = getattr(cache, "count_hit", None)  # through django.core.cache's proxy too
    if counter is not None:
        return counter(key, timeout, read)
    if cache.add(key, 1, timeout):
        hits = 1
    else:
        try:
            hits = cache.incr(key)
        except ValueError:  # expired between the two calls
            cache.set(key, 1, timeout)
            hits = 1
    return [hits, *(cache.get(name) for name in read)]
