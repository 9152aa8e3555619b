"""The cache's hit counter and shared client, on the embedded cache and on Redis."""

import time
import uuid

import pytest
from django.core.cache.backends.locmem import LocMemCache

from config.cache import RedisCache, count_hit, count_hit_and_read


def redis_cache() -> RedisCache:
    return RedisCache("redis://127.0.0.1:6379/0", {"KEY_PREFIX": f"t-{uuid.uuid4().hex}"})


def locmem_cache() -> LocMemCache:
    return LocMemCache(f"count-{uuid.uuid4().hex}", {})


def check_counter(cache) -> None:
    assert count_hit_and_read(cache, "read", 60, "absent", "hits") == [1, None, None]
    assert [count_hit(cache, "hits", 1) for _ in range(3)] == [1, 2, 3]
    assert count_hit_and_read(cache, "read", 60, "hits", "absent") == [2, 3, None]
    assert count_hit(cache, "other", 60) == 1
    time.sleep(1.1)
    assert count_hit(cache, "hits", 1) == 1  # the window ended with the key
    assert count_hit(cache, "other", 60) == 2


def test_count_hit_on_the_embedded_cache():
    check_counter(locmem_cache())


@pytest.mark.integration
def test_count_hit_on_redis_keeps_the_first_lifetime():
    cache = redis_cache()
    check_counter(cache)
    count_hit(cache, "lasting", 30)
    count_hit(cache, "lasting", 1)  # a later bump does not shorten or renew the lifetime
    client = cache._cache.get_client(write=True)
    assert 25 < client.ttl(cache.make_key("lasting")) <= 30
    assert cache.get("lasting") == 2


@pytest.mark.integration
def test_the_default_cache_counts_in_one_redis_command(settings):
    from django.core.cache import cache  # the proxy the application uses

    assert settings.CACHES["default"]["BACKEND"] == "config.cache.RedisCache"
    client = cache._cache.get_client(write=True)
    calls = []
    original = client.execute_command
    client.execute_command = lambda *args, **kw: calls.append(args[0]) or original(*args, **kw)
    try:
        assert count_hit(cache, "proxied", 60) == 1
    finally:
        del client.execute_command
    assert calls in (["EVALSHA"], ["EVALSHA", "SCRIPT LOAD", "EVALSHA"])


@pytest.mark.integration
def test_the_redis_cache_makes_one_client_per_pool():
    cache = redis_cache()
    cache.set("a", {"x": 1})
    first = cache._cache.get_client(write=True)
    assert cache.get("a") == {"x": 1} and cache.add("a", 2) is False
    assert cache._cache.get_client(write=True) is first
