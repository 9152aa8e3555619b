"""Shared by the whole suite: tests marked ``integration`` need the real services.

They run when ``DATABASE_URL`` points at PostgreSQL and ``CELERY_BROKER_URL`` at Redis (the
``make test-services`` run). Otherwise they are skipped on a developer's machine, and fail in
CI (``CI=true``), where the services must be there.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.conf import settings
from django.db import transaction
from django.test import override_settings
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from config.devserver import answer_at_once
from engine.games import register_game
from tests.games.duo.game import GAME as DUO

# A game of pairs that lives only in the tests (tests/games/duo), registered for the test run
# as a game from outside the product would be; tests/games runs it through the generic code.
register_game(DUO)

# Property tests: in CI every run draws the same examples (derandomized: each test's examples
# follow from its own name), so a failure found there is found again on every machine; a
# developer's run explores new random examples, more of them (``HYPOTHESIS_PROFILE=dev``), and
# prints the seed of a failure to replay it (``--hypothesis-seed``).
T = TypeVar("T")

hypothesis_settings.register_profile(
    "ci",
    derandomize=True,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
hypothesis_settings.register_profile(
    "dev",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def hypothesis_profile() -> str:
    """``HYPOTHESIS_PROFILE`` if set; otherwise ``ci`` (the default of every run of
    ``make test``, so CI and a developer's ``make test`` agree); ``dev`` must be asked for."""
    return os.environ.get("HYPOTHESIS_PROFILE", "ci")


hypothesis_settings.load_profile(hypothesis_profile())


def pytest_report_header(config) -> str:
    profile = hypothesis_profile()
    how = (
        "derandomized: each property test's examples are fixed by its name (seed 0)"
        if hypothesis_settings.default.derandomize
        else "random examples; a failure prints the seed to replay it with --hypothesis-seed"
    )
    return f"hypothesis profile {profile}: {how}"


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


def skip_or_fail(reason: str, needed: str) -> None:
    """Skip for something a developer's machine may lack; fail in CI, which must have it."""
    if in_ci():
        pytest.fail(f"{reason} (CI=true: {needed})")
    pytest.skip(reason)


def run_node(script: Path, harness: str, job: Any) -> Any:
    """Run ``harness`` (JavaScript that ``require``s ``script``, its path in ``argv[1]``) under
    Node with ``job`` as JSON on standard input; its JSON answer. The phone's scripts are
    checked against the engine this way; without Node the test is skipped, in CI it fails."""
    node = shutil.which("node")
    if node is None:
        skip_or_fail("node is not installed", "the phone's scripts must be tested")
    done = subprocess.run(
        [node, "-e", harness, str(script)],
        input=json.dumps(job),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def missing_services() -> list[str]:
    missing = []
    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        missing.append("DATABASE_URL=postgres://...")
    if not os.environ.get("CELERY_BROKER_URL", "").startswith("redis://"):
        missing.append("CELERY_BROKER_URL=redis://...")
    return missing


@pytest.fixture(autouse=True)
def _integration_services(request: pytest.FixtureRequest) -> None:
    if request.node.get_closest_marker("integration") is None:
        return
    missing = missing_services()
    if missing:
        skip_or_fail(
            "integration test needs " + " and ".join(missing), "the services must be configured"
        )


@pytest.fixture(autouse=True)
def _no_wait_for_wrong_codes(settings):
    """Wrong access codes wait on the server (scoring/api/access.py); tests that count them
    need not, and tests/scoring/test_code_guessing.py sets the wait it measures."""
    settings.CODE_GUESS_SECONDS = 0


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():
    """Passwords are hashed with a fast hasher in the tests: the product's hasher costs a
    quarter of a CPU second by design, on every user a test creates and every sign-in. What
    the tests check of passwords (right, wrong, throttled) does not depend on the hasher."""
    with override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        yield


@pytest.fixture(autouse=True)
def _own_cache_namespace():
    """Every test gets cache keys of its own. In the PostgreSQL/Redis run the parallel test
    processes share one Redis, so a test must never flush it (``cache.clear()``) and must not
    see another test's throttle counters or page fragments."""
    with fresh_cache_namespace():
        yield


def rows_for_the_scope(django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """For a module- or session-scoped fixture (``yield from`` it): ``build()`` runs once, with
    the database unblocked, inside a transaction that stays open for the fixture's scope and is
    rolled back when the scope ends; its value is yielded. Each test still asks for ``db``: its
    transaction is a savepoint inside this one, rolled back at the end of the test, so a test
    that writes leaves nothing behind for the next. Hand the tests ids, not model instances, so
    that none sees another's changes to an object in memory. Not for ``transactional_db``
    tests: they empty the tables at their end."""
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            with fresh_cache_namespace(), tasks_in_process():
                value = build()
        except BaseException:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            raise
    try:
        yield value
    finally:
        with django_db_blocker.unblock():
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)


def fresh_cache_namespace():
    """A context in which the default cache starts empty, without touching other keys."""
    caches = copy.deepcopy(settings.CACHES)
    caches["default"]["KEY_PREFIX"] = f"test-{uuid.uuid4().hex[:12]}"
    return override_settings(CACHES=caches)


@pytest.fixture(autouse=True)
def _tasks_in_process(request):
    """Tasks run in the test's process, even in the run where a broker is configured, unless a
    test is marked ``worker`` (it then brings its own worker): nothing else consumes the
    queue there."""
    if request.node.get_closest_marker("worker"):
        yield
        return
    with tasks_in_process():
        yield


@contextmanager
def tasks_in_process() -> Iterator[None]:
    from config.celery import app as celery_app

    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = before


# -- which tests touch the services --------------------------------------------------------

# A test touches the database when it asks for one of these fixtures (directly or through its
# own fixtures: ``item.fixturenames`` is the whole closure) or carries ``django_db``; a test
# client or live server answers through views that read it. (``django_db_blocker`` is not one:
# pytest-django asks for it for every test; a fixture that unblocks the database asks for
# ``django_db_setup`` too.)
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
        "django_db_setup",
        "client",
        "async_client",
        "admin_client",
        "admin_user",
        "live_server",
    }
)
SERVICE_MARKERS = ("django_db", "integration", "worker", "services")

# The database tests that run on the embedded defaults (SQLite, tasks in-process) as well as
# on PostgreSQL: what only they can show. The demo that `make demo` builds there; the
# migrations (one has a branch for each database); the standings, stored in a column whose
# type depends on the database and written by SQL of each; a backup written and restored.
# Every other database test runs once, on PostgreSQL and Redis, as production does.
EMBEDDED_TOO = (
    "tests/tournaments/test_demo.py",
    "tests/tournaments/test_entrant_migration.py",
    "tests/tournaments/test_entrant_fields_migration.py",
    "tests/scoring/test_percentage_migration.py",
    "tests/scoring/test_standings.py",
    "tests/tournaments/test_backup.py",
)
ROOT = Path(__file__).resolve().parent.parent


def touches_services(item: pytest.Item) -> bool:
    """Whether ``item`` touches the database, Redis or a Celery worker: such a test runs on
    PostgreSQL and Redis (and on SQLite too if its module is in ``EMBEDDED_TOO``); any other
    test is the same on both and runs once, on the embedded defaults."""
    if DATABASE_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    return any(item.get_closest_marker(name) is not None for name in SERVICE_MARKERS)


def runs_on_both(path: Path) -> bool:
    """Whether the database tests of the module at ``path`` run on SQLite too."""
    return path.resolve().relative_to(ROOT).as_posix() in EMBEDDED_TOO


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test that touches the services ``services``: ``make test-services`` runs
    ``-m services`` against PostgreSQL and Redis; ``make unit`` runs the others, and those of
    ``EMBEDDED_TOO`` (marked ``embedded``), on SQLite."""
    for item in items:
        if touches_services(item):
            item.add_marker(pytest.mark.services)
            if runs_on_both(item.path):
                item.add_marker(pytest.mark.embedded)


# The live server's answers go out at once (config/devserver.py says why).
answer_at_once()
