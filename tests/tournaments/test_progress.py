"""tournaments.progress: the organiser's pages and finalising ask how far play has come, and
the app that holds the results (scoring) answers, without tournaments importing it."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from scoring import selectors
from tournaments import progress


@pytest.fixture
def readers():
    """The registered readers, restored after the test."""
    saved = list(progress._readers)
    yield progress._readers
    progress._readers[:] = saved


def test_scoring_registers_its_selectors_when_it_loads():
    assert progress._readers == [selectors]


def test_the_registered_reader_answers(readers):
    class Reader:
        def open_boards(self, tournament):
            return [f"missing in {tournament}"], []

        def round_progress(self, tournament):
            return [f"round of {tournament}"]

    progress.register(Reader())
    assert len(readers) == 1
    assert progress.open_boards("cup") == (["missing in cup"], [])
    assert progress.round_progress("cup") == ["round of cup"]


def test_without_a_reader_the_question_fails_and_says_why(readers):
    readers.clear()
    with pytest.raises(ImproperlyConfigured, match="scoring app registers it"):
        progress.open_boards("cup")
    with pytest.raises(ImproperlyConfigured, match="how far play has come"):
        progress.round_progress("cup")
