"""How far play has come, as the organiser's pages and finalising need it: the boards still
without a result, the director's calls still open, the rounds being played.

Results are the scoring app's, a layer above this one. It registers its reader when it loads
(``scoring/apps.py``), so this app asks the question without importing the app that answers
it (the import contracts in pyproject.toml keep it that way).
"""

from __future__ import annotations

from typing import Any, Protocol

from django.core.exceptions import ImproperlyConfigured

from tournaments.models import Tournament


class ProgressReader(Protocol):
    def open_boards(self, tournament: Tournament) -> tuple[list[Any], list[Any]]:
        """``(missing, disputed)``: the boards without a result and those with a director's
        call open, in round and table order; each has ``round``, ``table`` and ``board``."""
        ...

    def round_progress(self, tournament: Tournament) -> list[Any]:
        """The rounds being played, each with its tables in and its tables still out."""
        ...

    def last_started_round(self, tournament: Tournament) -> int:
        """The last round a board of which has any history (0: none has)."""
        ...


_readers: list[ProgressReader] = []


def register(reader: ProgressReader) -> None:
    """Make ``reader`` the one that answers (registering again replaces it)."""
    _readers[:] = [reader]


def _reader() -> ProgressReader:
    if not _readers:
        raise ImproperlyConfigured(
            "no installed app reports how far play has come (the scoring app registers it)"
        )
    return _readers[0]


def open_boards(tournament: Tournament) -> tuple[list[Any], list[Any]]:
    return _reader().open_boards(tournament)


def round_progress(tournament: Tournament) -> list[Any]:
    return _reader().round_progress(tournament)


def last_started_round(tournament: Tournament) -> int:
    return _reader().last_started_round(tournament)
