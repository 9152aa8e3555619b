"""North's draft of a board on the scorer's page (``selectors.north_draft``)."""

from __future__ import annotations

from typing import Any

from django import template

from scoring import selectors

register = template.Library()


@register.simple_tag
def north_draft(panel: Any, match: Any) -> dict[str, Any] | None:
    """What North entered last on the board, else the facts recorded at his table."""
    if match is None or panel.role != "north":
        return panel.draft
    return selectors.north_draft(panel.draft, match.pk, panel.number)
