"""The read of every write on a board: the match row locked, then the board, where it stands
(``BoardProgress``), North's pending entry and the rows a re-sent action would find, in a
single statement.

Written in SQL rather than as several ORM queries because it runs twice per result at the
busiest moment of a tournament (every table reporting at the end of a round): building the
equivalent ORM queries costs several times the database's own work. It reads only; every
write goes through the ORM in ``scoring.services``.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Model

from scoring import states
from scoring.models import BoardProgress, Review, Submission
from tournaments.models import Board, Match, Table, Tournament

COLUMNS = (
    "match_id",
    "round",
    "table_id",
    "ns_team_id",
    "ew_team_id",
    "table_number",
    "tournament_id",
    "board_id",
    "progress_id",
    "state",
    "pending_id",
    "rejections",
    "last_reason",
    "pending_ns",
    "pending_ew",
    "pending_score",
    "entry_with_client_id",
    "review_with_client_id",
    "untouched_round",
)


@functools.cache
def _sql() -> str:
    names = {
        "match": Match._meta.db_table,
        "table": Table._meta.db_table,
        "board": Board._meta.db_table,
        "progress": BoardProgress._meta.db_table,
        "submission": Submission._meta.db_table,
        "review": Review._meta.db_table,
    }
    return f"""
        SELECT m.id, m.round, m.table_id, m.ns_team_id, m.ew_team_id,
               t.number, t.tournament_id, b.id,
               p.id, p.state, p.pending_id, p.rejections, p.last_reason,
               s.ns_result, s.ew_result, s.score,
               (SELECT e.id FROM {names["submission"]} e
                 WHERE e.match_id = m.id AND e.client_id = %s),
               (SELECT r.id FROM {names["review"]} r
                 WHERE r.match_id = m.id AND r.client_id = %s),
               (SELECT MIN(o.round) FROM {names["match"]} o
                 WHERE (o.ns_team_id = %s OR o.ew_team_id = %s) AND o.round < m.round
                   AND NOT EXISTS (SELECT 1 FROM {names["progress"]} q WHERE q.match_id = o.id))
          FROM {names["match"]} m
          JOIN {names["table"]} t ON t.id = m.table_id
          LEFT JOIN {names["board"]} b ON b.table_id = m.table_id AND b.number = %s
          LEFT JOIN {names["progress"]} p ON p.match_id = m.id AND p.board_id = b.id
          LEFT JOIN {names["submission"]} s ON s.id = p.pending_id
         WHERE m.id = %s AND (%s IS NULL OR t.tournament_id = %s)
    """


@dataclass
class LockedBoard:
    """A board of a match, as it stands, its match row locked until the transaction ends."""

    match: Match  # with ``table`` (number, tournament id) loaded; ``table.tournament`` set
    board: Board | None  # None: the table has no board of that number
    progress_id: int | None  # None: nothing entered or ruled on this board yet
    state: states.BoardState = field(default_factory=states.BoardState)
    entry_with_client_id: int | None = None
    review_with_client_id: int | None = None
    # The team's earliest earlier match with nothing entered on any board (the one asked for).
    untouched_round: int | None = None


def lock_board(
    match_id: int,
    board_number: int,
    *,
    tournament: Tournament | None = None,
    client_id: str | None = None,
    acting_team_id: int | None = None,
) -> LockedBoard | None:
    """The board, or None if the match does not exist (in ``tournament``, when given).
    ``client_id``: look up the entry and the review the caller made with this id before.
    ``acting_team_id``: find that team's earliest untouched earlier match."""
    tournament_id = tournament.pk if tournament is not None else None
    client_id = client_id or None  # the director's reviews carry none: never match them
    params = [
        client_id,
        client_id,
        acting_team_id,
        acting_team_id,
        board_number,
        match_id,
        tournament_id,
        tournament_id,
    ]
    with connection.cursor() as cursor:
        if connection.features.has_select_for_update:
            # The lock first, on its own: a statement reads as of its start, so the board is
            # read by the next one, after any write that held the lock has committed.
            # Only the match row: locking the tournament's rows would serialise every table.
            cursor.execute(
                f"SELECT 1 FROM {Match._meta.db_table} WHERE id = %s FOR UPDATE", [match_id]
            )
        cursor.execute(_sql(), params)
        row = cursor.fetchone()
    if row is None:
        return None
    return _locked_board(dict(zip(COLUMNS, row, strict=True)), board_number, tournament)


def _loaded(model: type[Model], **values: Any) -> Any:
    """A model instance as if read from the database with only these fields (the others are
    deferred: reading one queries, it never yields a default)."""
    names = [f.attname for f in model._meta.concrete_fields if f.attname in values]
    return model.from_db(connection.alias, names, [values[name] for name in names])


def _locked_board(
    row: dict[str, Any], board_number: int, tournament: Tournament | None
) -> LockedBoard:
    table = _loaded(
        Table, id=row["table_id"], number=row["table_number"], tournament_id=row["tournament_id"]
    )
    if tournament is not None:
        table.tournament = tournament
    match = _loaded(
        Match,
        id=row["match_id"],
        round=row["round"],
        table_id=row["table_id"],
        ns_team_id=row["ns_team_id"],
        ew_team_id=row["ew_team_id"],
    )
    match.table = table
    board = None
    if row["board_id"] is not None:
        board = _loaded(Board, id=row["board_id"], table_id=row["table_id"], number=board_number)
        board.table = table
    locked = LockedBoard(
        match=match,
        board=board,
        progress_id=row["progress_id"],
        entry_with_client_id=row["entry_with_client_id"],
        review_with_client_id=row["review_with_client_id"],
        untouched_round=row["untouched_round"],
    )
    if row["progress_id"] is not None:
        locked.state = states.BoardState(
            state=row["state"],
            pending=_pending(row, match, board),
            rejections=row["rejections"],
            last_reason=row["last_reason"],
        )
    return locked


def _pending(row: dict[str, Any], match: Match, board: Board) -> Submission | None:
    """North's entry awaiting East: what East's accept copies into the result."""
    if row["pending_id"] is None:
        return None
    score = row["pending_score"]
    pending = _loaded(
        Submission,
        id=row["pending_id"],
        match_id=match.pk,
        board_id=board.pk,
        source=Submission.Source.NORTH,
        ns_result=row["pending_ns"],
        ew_result=row["pending_ew"],
        # The raw column: text on SQLite and on PostgreSQL as Django's backend reads jsonb.
        score=json.loads(score) if isinstance(score, (str, bytes)) else score,
    )
    pending.match, pending.board = match, board
    return pending
