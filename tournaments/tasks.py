"""Background jobs. Without a broker (the embedded default) they run at once, in-process.

The organiser pages call the services directly (a draw-up or a deal takes well under a
second for any real tournament); these tasks are for scripts and for work that should leave
the web request, and they go through the same services, so they are logged the same way.
"""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Tournament


def _user(user_id: int | None):
    return get_user_model().objects.filter(pk=user_id).first() if user_id else None


@shared_task
def deal_boards_task(
    tournament_id: int, seed: str | None = None, replace: bool = False, user_id: int | None = None
) -> int:
    """Deal a tournament's boards; returns how many were dealt."""
    return services.deal_boards(
        by=_user(user_id),
        tournament=Tournament.objects.get(pk=tournament_id),
        seed=seed,
        replace=replace,
    )


@shared_task
def draw_schedule_task(
    tournament_id: int, side_mode: str | None = None, user_id: int | None = None
) -> dict[str, Any]:
    """Draw up a tournament's schedule; returns its summary and the validator's problems."""
    schedule, problems = services.draw_schedule(
        by=_user(user_id),
        tournament=Tournament.objects.get(pk=tournament_id),
        side_mode=side_mode,
    )
    return {
        "rounds": schedule["rounds"],
        "matches": len(schedule["matches"]),
        "max_meetings": schedule.get("max_meetings"),
        "problems": problems,
    }
