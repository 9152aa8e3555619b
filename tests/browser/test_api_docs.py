"""The interactive API page: served by the product itself (Swagger UI from the sidecar
package, its setup a script file of its own), so it works offline and under the
Content-Security-Policy."""

from __future__ import annotations

import pytest

from tests.browser.helpers import expect

pytestmark = pytest.mark.browser


def test_the_api_page_lists_the_operations_without_any_cdn(live, desktop, contexts, shots):
    page = desktop
    page.goto("/api/docs/")
    expect(page.get_by_role("heading", name="Duplicate card tournaments")).to_be_visible()
    expect(page.get_by_text("/api/v1/tournaments/{slug}/standings/").first).to_be_visible()
    shots.take(page, "api-page")
    assert contexts.blocked == []  # nothing asked of another machine
    assert contexts.refused_by_policy == []
