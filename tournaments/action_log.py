"""The one writer of the action log (``ActionLog``): organisers' changes, the director's
actions, publishing, restores.

Who: the signed-in user, by name; without one, ``unattended`` (the command line for the
organiser's commands, ``system`` for tasks). The summary is one line for people: cut to the
column's length (``SUMMARY_LENGTH``) with an ellipsis, the same on every database (SQLite does
not enforce the length, PostgreSQL refuses the row). What it summarises is kept whole in
``before`` and ``after`` and in the rows the action wrote.
"""

from __future__ import annotations

from typing import Any

from tournaments.models import ActionLog, Tournament

COMMAND_LINE_ACTOR = "command line"
SYSTEM_ACTOR = "system"
SUMMARY_LENGTH = ActionLog._meta.get_field("summary").max_length
ELLIPSIS = "…"


def summary_text(summary: str) -> str:
    """The summary as stored: at most ``SUMMARY_LENGTH`` characters, an ellipsis ending a
    summary that was cut."""
    if len(summary) <= SUMMARY_LENGTH:
        return summary
    return summary[: SUMMARY_LENGTH - len(ELLIPSIS)] + ELLIPSIS


def write_log(
    *,
    tournament: Tournament | None,
    by: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
    tournament_slug: str | None = None,
    unattended: str = COMMAND_LINE_ACTOR,
) -> ActionLog:
    """One entry of the log. ``tournament_slug`` names a tournament that is gone (deleted);
    by default the tournament's own slug."""
    signed_in = by is not None and getattr(by, "is_authenticated", False)
    if tournament_slug is None:
        tournament_slug = tournament.slug if tournament is not None else ""
    return ActionLog.objects.create(
        tournament=tournament,
        tournament_slug=tournament_slug,
        user=by if signed_in else None,
        actor=by.get_username() if signed_in else unattended,
        action=action,
        summary=summary_text(summary),
        before=before,
        after=after,
    )


def write_task_log(
    tournament: Tournament,
    user: Any,
    action: str,
    summary: str,
    before: Any = None,
    after: Any = None,
) -> ActionLog:
    """``write_log`` of a change a task makes as well as a user: without a signed-in user, by
    ``system``."""
    return write_log(
        tournament=tournament,
        by=user,
        action=action,
        summary=summary,
        before=before,
        after=after,
        unattended=SYSTEM_ACTOR,
    )
