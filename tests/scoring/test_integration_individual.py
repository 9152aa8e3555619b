"""A game of individuals against PostgreSQL: the quota of a player's sheet holds when two
tables confirm at the same moment (run by ``make test-services``; see test_integration)."""

from __future__ import annotations

import uuid

import pytest
from django.db import connection

from config.celery import app as celery_app
from scoring import services, sheets
from scoring.errors import InvalidEntry
from scoring.models import Result
from tests.scoring.test_integration import _run_in_threads
from tests.tournaments.test_individual_events import new_id, pyramid_event
from tournaments.models import Match

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _first_players_declarations(prefix: str):
    """On PostgreSQL: a Pyramid event, its first player and the boards he declares."""
    if connection.vendor != "postgresql":
        pytest.fail("this test needs PostgreSQL (DATABASE_URL=postgres://...)")
    celery_app.conf.task_always_eager = True
    tournament = pyramid_event(slug=f"{prefix}-{uuid.uuid4().hex[:8]}", per_round=4)
    player = tournament.entrants.order_by("number").first()
    return tournament, player, sheets.declaration_slots(tournament, player)


def test_two_tables_racing_for_the_last_six_of_one_sheet_store_one():
    _tournament, _player, slots = _first_players_declarations("quota")
    first = slots[0]
    second = next(slot for slot in slots[:16] if slot[0] != first[0])  # same sheet, next round
    entries = []
    for match_id, board in (first, second):
        match = Match.objects.get(pk=match_id)
        entries.append((match, board, _six(match, board)))

    def confirm(match, board, entry):
        return lambda: services.accept_entry(
            match_id=match.pk,
            board_number=board,
            entrant=match.east_entrant,
            submission_id=entry.pk,
            client_id=new_id(),
        )

    for _attempt in range(3):  # the race is real: repeat it, the answer must always be one
        outcomes = _run_in_threads([confirm(*item) for item in entries])
        wins = [o for o in outcomes if isinstance(o, Result)]
        losses = [o for o in outcomes if isinstance(o, InvalidEntry)]
        assert len(wins) == 1 and len(losses) == 1, outcomes
        assert "no declaration of 6 left" in losses[0].message
        sixes = [
            result
            for result in Result.objects.filter(current=True, submission__isnull=False)
            if result.submission.score["declared"] == 6
        ]
        assert len(sixes) == 1
        # Again: the winner's result erased and entered anew, the loser's entry still waits.
        winner = wins[0]
        services.director_erase(
            match_id=winner.match_id,
            board_number=winner.board.number,
            user=None,
            reason="race again",
        )
        entries = [
            (match, board, _six(match, board) if match.pk == winner.match_id else entry)
            for match, board, entry in entries
        ]


def _six(match: Match, board: int):
    return services.submit_entry(
        match_id=match.pk,
        board_number=board,
        entrant=match.north_entrant,
        facts={"declared": 6, "trump": "nt", "won": 6},
        client_id=new_id(),
    )


def _nowait_lock(table: str, pk: int) -> str:
    """From another connection: 'free' if the row can be locked at once, else 'held'."""
    from django.db import OperationalError, connections

    def attempt():
        try:
            with connections["default"].cursor() as cursor:
                cursor.execute(f"SELECT id FROM {table} WHERE id = %s FOR UPDATE NOWAIT", [pk])
            return "free"
        except OperationalError:
            return "held"

    return _run_in_threads([attempt])[0]


def test_the_sheet_lock_holds_the_players_row_and_leaves_the_tournaments_free():
    # A lock on the tournament's row would serialise every table's confirmations and
    # deadlock against the foreign-key checks of the rows they insert.
    from django.db import transaction

    from tournaments.models import Entrant, MatchSeat, Tournament

    tournament, player, slots = _first_players_declarations("lock")
    match_id, board = slots[0]
    match = Match.objects.select_related("table__tournament").get(pk=match_id)
    seat = MatchSeat.objects.get(match=match, entrant=player).seat
    board_row = match.table.boards.get(number=board)
    with transaction.atomic():
        services.check_sheet(match, board_row, {"declared": 6, "declarer": seat, "seats": {}})
        held = _nowait_lock(Entrant._meta.db_table, player.pk)
        tournament_row = _nowait_lock(Tournament._meta.db_table, tournament.pk)
    assert (held, tournament_row) == ("held", "free")
