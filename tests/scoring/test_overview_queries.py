"""The director's overview and the public list of matches read a fixed number of queries,
however many matches the tournament has (``bench/overview.py`` times them at 2,000 and
20,000 matches; no test here times anything)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import selectors, services, states
from tests.scoring.conftest import GAM_MADE, new_id
from tests.tournaments.factories import (
    BoardFactory,
    EntrantFactory,
    TableFactory,
    TournamentFactory,
)
from tournaments.models import Match, Status


def mitchell(tables: int, rounds: int, boards: int = 2, slug: str = "overview"):
    """Teams 1..K NS, K+1..2K EW, every team at a table each round; some boards entered."""
    tournament = TournamentFactory(slug=slug, status=Status.RUNNING)
    entrants = [EntrantFactory(tournament=tournament, number=n) for n in range(1, 2 * tables + 1)]
    table_rows = [TableFactory(tournament=tournament, number=n) for n in range(1, tables + 1)]
    for table in table_rows:
        for number in range(1, boards + 1):
            BoardFactory(table=table, number=number)
    matches = [
        Match.objects.create(
            round=r + 1,
            table=table_rows[t],
            north_entrant=entrants[(t - r) % tables],
            east_entrant=entrants[tables + (t + r) % tables],
        )
        for r in range(rounds)
        for t in range(tables)
    ]
    # The same few boards in every size: one confirmed, one awaiting East, one disputed.
    first, second, third = matches[:3]
    entry = services.submit_entry(
        match_id=first.pk,
        board_number=1,
        entrant=first.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    services.accept_entry(
        match_id=first.pk,
        board_number=1,
        entrant=first.east_entrant,
        submission_id=entry.pk,
        client_id=new_id(),
    )
    services.submit_entry(
        match_id=second.pk,
        board_number=2,
        entrant=second.north_entrant,
        facts=GAM_MADE,
        client_id=new_id(),
    )
    services.call_director(
        match_id=third.pk,
        board_number=1,
        entrant=third.east_entrant,
        reason="revoke",
        client_id=new_id(),
    )
    return tournament, matches


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(url)
    assert response.status_code == 200
    return len(captured)


@pytest.mark.django_db
def test_the_overview_lists_every_board_in_order_with_its_state():
    tournament, matches = mitchell(tables=3, rounds=3)
    rows = selectors.director_overview(tournament)
    assert [(row["match"].pk, row["board"]) for row in rows] == [
        (match.pk, board) for match in matches for board in (1, 2)
    ]
    found = {(row["match"].pk, row["board"]): row for row in rows}
    assert found[(matches[0].pk, 1)]["state"].state == states.CONFIRMED
    assert found[(matches[0].pk, 1)]["result"].north_result == 21
    assert found[(matches[1].pk, 2)]["state"].state == states.AWAITING_EAST
    assert found[(matches[2].pk, 1)]["state"].state == states.DISPUTED
    assert found[(matches[2].pk, 1)]["state"].last_reason == "revoke"
    # The progress rows it reads say what folding every board's history says.
    folded = selectors.board_states(matches)
    assert {key: (s.state, s.rejections, s.last_reason) for key, s in folded.items()} == {
        key: (row["state"].state, row["state"].rejections, row["state"].last_reason)
        for key, row in found.items()
    }
    assert {
        row["state"].state
        for key, row in found.items()
        if key[0] not in {matches[0].pk, matches[1].pk, matches[2].pk}
    } == {states.EMPTY}


@pytest.mark.django_db
def test_director_page_and_matches_api_queries_do_not_grow_with_the_matches(client, director):
    client.force_login(director)
    counts = []
    for size, slug in ((2, "small"), (6, "large")):
        _tournament, matches = mitchell(tables=size, rounds=size, slug=slug)
        director_page = queries(client, reverse("scoring:director", args=[slug]))
        api = queries(client, reverse("api:matches", args=[slug]))
        counts.append((len(matches), director_page, api))
    (small, *small_counts), (large, *large_counts) = counts
    assert (small, large) == (4, 36)
    assert small_counts == large_counts, counts
    assert all(count > 0 for count in small_counts), counts
