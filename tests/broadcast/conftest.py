"""Featured tables' tests: the double-dummy analysis is off unless a test turns it on (a full
Pymtheg deal takes the solver seconds)."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _no_analysis(settings):
    settings.BROADCAST_ANALYSIS = "off"
