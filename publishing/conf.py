"""Publishing settings, read when used (so tests can override them), with defaults."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings

from publishing.exports.sheets import SPREADSHEET_MAX_ROWS


def export_root() -> Path:
    """Where export files live (``PUBLISHING_EXPORT_ROOT``, default ``var/exports``)."""
    root = getattr(settings, "PUBLISHING_EXPORT_ROOT", None)
    return Path(root) if root else Path(settings.VAR_DIR) / "exports"


def exports_kept() -> int:
    """Finished exports kept per tournament (older ones and their files are removed)."""
    return max(1, int(getattr(settings, "PUBLISHING_EXPORTS_KEEP", 5)))


def max_sheet_rows() -> int:
    """Rows per sheet, title and headers included; longer sheets are split."""
    return int(getattr(settings, "PUBLISHING_MAX_SHEET_ROWS", SPREADSHEET_MAX_ROWS))


def chart_lines() -> int:
    """Teams drawn in the places chart: all of them up to this many, else the leaders."""
    return max(1, int(getattr(settings, "PUBLISHING_CHART_LINES", 16)))


def places_max_matches() -> int:
    """Above this many match entries the places after every round are not computed (it
    ranks the tournament once per round)."""
    return int(getattr(settings, "PUBLISHING_PLACES_MAX_MATCHES", 200_000))


def export_timeout_seconds() -> int:
    """A queued or running export older than this is taken as lost (the worker died)."""
    return int(getattr(settings, "PUBLISHING_EXPORT_TIMEOUT_SECONDS", 3600))


def chart_debounce_seconds() -> float:
    """The chart refresh and automatic publication run at most once this often
    (``PUBLISHING_CHART_DEBOUNCE_SECONDS``): under a stream of confirmations the standings
    are stored every second or so, and one run covers all the standings stored meanwhile."""
    return max(0.0, float(getattr(settings, "PUBLISHING_CHART_DEBOUNCE_SECONDS", 5.0)))
