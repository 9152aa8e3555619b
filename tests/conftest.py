"""Shared by the whole suite: tests marked ``integration`` need the real services.

They run when ``DATABASE_URL`` points at PostgreSQL and ``CELERY_BROKER_URL`` at Redis (the
``make test-services`` run). Otherwise they are skipped on a developer's machine, and fail in
CI (``CI=true``), where the services must be there.
"""

from __future__ import annotations

import os

import pytest


def _in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in ("1", "true", "yes")


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
        message = "integration test needs " + " and ".join(missing)
        if _in_ci():
            pytest.fail(message + " (CI=true: the services must be configured)")
        pytest.skip(message)
