"""The action log has one writer and one length rule for its summary, on every database.

A director's reason may run to 1,000 characters; the log's summary column holds 300. SQLite
stores a longer text without a word, PostgreSQL refuses the row: the test marked
``integration`` runs the same action on PostgreSQL.
"""

from __future__ import annotations

import pytest
from django.db import connection

from scoring import services
from tests.scoring.conftest import build_cup
from tests.scoring.test_services import accept, submit
from tests.tournaments.factories import OrganiserFactory
from tournaments.action_log import SUMMARY_LENGTH, summary_text, write_log
from tournaments.models import ActionLog

LONG_REASON = ("The north player's partner saw the cards of East while dealing. " * 7)[:400]


def test_a_summary_is_cut_to_the_column_with_an_ellipsis():
    assert SUMMARY_LENGTH == ActionLog._meta.get_field("summary").max_length == 300
    assert summary_text("short") == "short"
    assert summary_text("x" * 300) == "x" * 300
    cut = summary_text("y" * 301)
    assert len(cut) == 300 and cut == "y" * 299 + "…"


def adjust_with_a_long_reason(cup, director) -> ActionLog:
    match = cup.match(1, 1)
    accept(cup, 1, 1, submit(cup, 1, 1))
    assert len(LONG_REASON) == 400 and LONG_REASON.strip() == LONG_REASON
    result = services.director_adjust(
        match_id=match.pk, board_number=1, user=director, ns=50, ew=-30, reason=LONG_REASON
    )
    assert result.reason == LONG_REASON  # the result keeps the reason whole
    entry = ActionLog.objects.get(tournament=cup.tournament, action="adjust")
    assert len(entry.summary) == SUMMARY_LENGTH and entry.summary.endswith("…")
    assert entry.summary.startswith("Adjusted result for ")
    assert entry.after["reason"] == LONG_REASON  # and so does the log's data
    assert entry.actor == director.username and entry.user == director
    return entry


def test_director_adjust_with_a_long_reason_is_logged_with_its_summary_cut(cup, director):
    adjust_with_a_long_reason(cup, director)
    services.director_erase(
        match_id=cup.match(1, 1).pk, board_number=1, user=director, reason=LONG_REASON
    )
    erased = ActionLog.objects.get(tournament=cup.tournament, action="erase")
    assert len(erased.summary) == SUMMARY_LENGTH


@pytest.mark.django_db
def test_the_writer_names_who_acted(cup, director):
    by_hand = write_log(tournament=cup.tournament, by=director, action="test", summary="a" * 400)
    assert (by_hand.actor, by_hand.user, len(by_hand.summary)) == (director.username, director, 300)
    unattended = write_log(
        tournament=None, by=None, action="test", summary="b", unattended="system"
    )
    assert (unattended.actor, unattended.user, unattended.tournament_slug) == ("system", None, "")


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_director_adjust_with_a_long_reason_on_postgresql():
    assert connection.vendor == "postgresql"
    cup = build_cup(slug="long-reason")
    adjust_with_a_long_reason(cup, OrganiserFactory())
