"""The migrations that name every entrant field ``entrant`` (a match seat, a disqualification, an
entry, a review, a standing, ranking points) and a tournament's entrants ``entrants`` keep every
stored row, and the constraints hold under their new names."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from tests.tournaments.test_entrant_migration import (  # noqa: F401
    latest_afterwards,
    migrated_across,
)

BEFORE = [("tournaments", "0008_table_players"), ("scoring", "0009_standings_stored_as_json")]
AFTER = [("tournaments", "0009_entrant_fields_named"), ("scoring", "0010_entrant_fields_named")]


def stored_before(apps):
    """One match of two pairs with an entry, a review, standings, ranking points and a
    disqualification, every one naming its entrant as ``team``."""
    model = apps.get_model
    tournament = model("tournaments", "Tournament").objects.create(name="Old", slug="old")
    north, east = (
        tournament.teams.create(number=n, name=f"Pair {n}", access_code=code)
        for n, code in ((1, "AAAAAAAA"), (2, "BBBBBBBB"))
    )
    table = model("tournaments", "Table").objects.create(tournament=tournament, number=1)
    board = model("tournaments", "Board").objects.create(table=table, number=1, deal="x")
    match = model("tournaments", "Match").objects.create(
        round=1, table=table, north_entrant=north, east_entrant=east
    )
    model("tournaments", "MatchSeat").objects.create(match=match, seat="N", team=north, round=1)
    model("tournaments", "Disqualification").objects.create(team=east, reason="left")
    entry = model("scoring", "Submission").objects.create(
        match=match, board=board, source="north", team=north, client_id="c1", record={}, score={}
    )
    model("scoring", "Review").objects.create(
        match=match, board=board, submission=entry, action="accept", team=east
    )
    model("scoring", "Standing").objects.create(
        tournament=tournament, team=north, points=1, matches=1, status="ok"
    )
    model("scoring", "RankingPoints").objects.create(
        tournament=tournament, match=match, board=board, team=north, side="NS", points=1
    )


@pytest.mark.django_db(transaction=True)
def test_every_entrant_field_keeps_its_rows_under_the_new_name(latest_afterwards):  # noqa: F811
    model = migrated_across(BEFORE, AFTER, stored_before).get_model
    tournament = model("tournaments", "Tournament").objects.get(slug="old")
    assert sorted(tournament.entrants.values_list("number", flat=True)) == [1, 2]
    named = {
        label: {row.entrant.number for row in model(*label.split(".")).objects.all()}
        for label in (
            "tournaments.MatchSeat",
            "tournaments.Disqualification",
            "scoring.Submission",
            "scoring.Review",
            "scoring.Standing",
            "scoring.RankingPoints",
        )
    }
    assert named == {
        "tournaments.MatchSeat": {1},
        "tournaments.Disqualification": {2},
        "scoring.Submission": {1},
        "scoring.Review": {2},
        "scoring.Standing": {1},
        "scoring.RankingPoints": {1},
    }
    seat = model("tournaments", "MatchSeat").objects.get()
    with (
        pytest.raises(IntegrityError, match=r"match_seat_once_per_round|matchseat\.entrant_id"),
        transaction.atomic(),
    ):
        model("tournaments", "MatchSeat").objects.create(
            match=seat.match, seat="S", entrant=seat.entrant, round=1
        )
    standing = model("scoring", "Standing").objects.get()
    with (
        pytest.raises(IntegrityError, match=r"standing_one_per_entrant|standing\.entrant_id"),
        transaction.atomic(),
    ):
        model("scoring", "Standing").objects.create(
            tournament=standing.tournament, entrant=standing.entrant, points=2, matches=1
        )
    entry = model("scoring", "Submission").objects.get()
    with (
        pytest.raises(IntegrityError, match="submission_from_north_names_its_entrant"),
        transaction.atomic(),
    ):
        model("scoring", "Submission").objects.create(
            match=entry.match,
            board=entry.board,
            source="north",
            client_id="c2",
            record={},
            score={},
        )
