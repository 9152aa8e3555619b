#!/usr/bin/env python
"""Probe the PostgreSQL and Redis that the service tests use (``make test-services``).

Exit status: 0 when both answer; 1 when one does not and ``CI`` is set (CI must run the
service tests, so it fails rather than skips); 3 when one does not on a developer's machine
(make then skips the service tests and says so).

Addresses come from DATABASE_URL and CELERY_BROKER_URL, defaulting to the CI services on
loopback.
"""

from __future__ import annotations

import os
import sys
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/pymtheg"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
TIMEOUT_SECONDS = 3
SKIP_STATUS = 3


def check_postgresql(url: str) -> str | None:
    """None when the server accepts a connection, else the reason."""
    import psycopg

    parts = urlsplit(url)
    try:
        # The maintenance database: the test database does not exist until pytest makes it.
        with psycopg.connect(
            host=parts.hostname or "127.0.0.1",
            port=parts.port or 5432,
            user=parts.username or "postgres",
            password=parts.password,
            dbname="postgres",
            connect_timeout=TIMEOUT_SECONDS,
        ) as connection:
            connection.execute("SELECT 1")
    except psycopg.Error as exc:
        return f"PostgreSQL at {parts.hostname}:{parts.port or 5432}: {str(exc).strip()}"
    return None


def check_redis(url: str) -> str | None:
    import redis

    try:
        client = redis.Redis.from_url(
            url, socket_connect_timeout=TIMEOUT_SECONDS, socket_timeout=TIMEOUT_SECONDS
        )
        client.ping()
    except redis.RedisError as exc:
        return f"Redis at {urlsplit(url).netloc}: {exc}"
    return None


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def main() -> int:
    problems = [
        problem
        for problem in (
            check_postgresql(os.environ.get("DATABASE_URL", DEFAULT_DATABASE_URL)),
            check_redis(os.environ.get("CELERY_BROKER_URL", DEFAULT_REDIS_URL)),
        )
        if problem
    ]
    if not problems:
        print("PostgreSQL and Redis answer on loopback: running the service tests")
        return 0
    for problem in problems:
        print(f"  {problem}", file=sys.stderr)
    if in_ci():
        print("PostgreSQL/Redis not reachable on loopback and CI is set: failing", file=sys.stderr)
        return 1
    print("PostgreSQL/Redis not reachable on loopback: service tests skipped")
    return SKIP_STATUS


if __name__ == "__main__":
    sys.exit(main())
