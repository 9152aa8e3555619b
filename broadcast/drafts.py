"""North's draft from a featured table's recording: the facts of the board as the recorder
took them down, offered on North's phone to send (East checks them as usual)."""

from __future__ import annotations

from typing import Any

from scoring import selectors as scoring_selectors


def recorded_facts(match_id: int, board: int) -> dict[str, Any] | None:
    """The facts of a board played out at a featured table, or None."""
    from broadcast.models import Recording

    return (
        Recording.objects.filter(match_id=match_id, board=board, over=True)
        .values_list("facts", flat=True)
        .first()
    )


def register() -> None:
    """Offer recorded facts as North's draft (once, however often the app is readied)."""
    if recorded_facts not in scoring_selectors.DRAFT_SOURCES:
        scoring_selectors.DRAFT_SOURCES.append(recorded_facts)
