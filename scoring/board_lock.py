"""The read of every write on a board: the match row locked (and the tournament's results
lock shared, ``tournaments.locks``), then the board, where it stands (``BoardProgress``),
North's pending entry, the rows a re-sent action would find and the tournament's status, in a
single statement.

Written in SQL rather than as several ORM queries because it runs twice per result at the
busiest moment of a tournament (every table reporting at the end of a round): building the
equivalent ORM queries costs several times the database's own work. It reads only; every
write goes through the ORM in ``scoring.services``.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

from django.db import connection

from scoring import states
from scoring.models import BoardProgress, Review, Submission
from scoring.rows import RowReader
from tournaments.locks import SHARED_LOCK_SQL, takes_results_lock
from tournaments.models import Board, Match, Table, Tournament

# The row: these fields of each model in turn, then the four looked-up values.
MATCH_ROW = RowReader(Match, ["id", "round", "table_id", "north_entrant_id", "east_entrant_id"])
TABLE_ROW = RowReader(Table, ["id", "number", "tournament_id"])
BOARD_ROW = RowReader(Board, ["id", "table_id", "number"])
PROGRESS_ROW = RowReader(BoardProgress, ["id", "state", "pending_id", "rejections", "last_reason"])
PENDING_ROW = RowReader(
    Submission, ["id", "match_id", "board_id", "source", "north_result", "east_result", "score"]
)
READERS = (MATCH_ROW, TABLE_ROW, BOARD_ROW, PROGRESS_ROW, PENDING_ROW)


@functools.cache
def _sql(in_tournament: bool) -> str:
    names = {
        "match": Match._meta.db_table,
        "table": Table._meta.db_table,
        "board": Board._meta.db_table,
        "progress": BoardProgress._meta.db_table,
        "submission": Submission._meta.db_table,
        "review": Review._meta.db_table,
        "tournament": Tournament._meta.db_table,
    }
    columns = ", ".join(
        reader.select(alias) for reader, alias in zip(READERS, "mtbps", strict=True)
    )
    return f"""
        SELECT {columns},
               (SELECT e.id FROM {names["submission"]} e
                 WHERE e.match_id = m.id AND e.client_id = %s),
               (SELECT r.id FROM {names["review"]} r
                 WHERE r.match_id = m.id AND r.client_id = %s),
               (SELECT MIN(o.round) FROM {names["match"]} o
                 WHERE (o.north_entrant_id = %s OR o.east_entrant_id = %s) AND o.round < m.round
                   AND NOT EXISTS (SELECT 1 FROM {names["progress"]} q WHERE q.match_id = o.id)),
               n.status
          FROM {names["match"]} m
          JOIN {names["table"]} t ON t.id = m.table_id
          JOIN {names["tournament"]} n ON n.id = t.tournament_id
          LEFT JOIN {names["board"]} b ON b.table_id = m.table_id AND b.number = %s
          LEFT JOIN {names["progress"]} p ON p.match_id = m.id AND p.board_id = b.id
          LEFT JOIN {names["submission"]} s ON s.id = p.pending_id
         WHERE m.id = %s {"AND t.tournament_id = %s" if in_tournament else ""}
    """


_LOCK_SQL = f"""
    SELECT {SHARED_LOCK_SQL.format(expression="t.tournament_id")}
      FROM {Match._meta.db_table} m JOIN {Table._meta.db_table} t ON t.id = m.table_id
     WHERE m.id = %s FOR UPDATE OF m
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
    # As committed when the board was read, which no status change can overtake (see
    # ``tournaments.locks``): what decides whether results may change.
    tournament_status: str = ""


def lock_board(
    match_id: int,
    board_number: int,
    *,
    tournament: Tournament | None = None,
    client_id: str | None = None,
    acting_entrant_id: int | None = None,
) -> LockedBoard | None:
    """The board, or None if the match does not exist (in ``tournament``, when given).
    ``client_id``: look up the entry and the review the caller made with this id before.
    ``acting_entrant_id``: find that team's earliest untouched earlier match."""
    client_id = client_id or None  # the director's reviews carry none: never match them
    params = [
        client_id,
        client_id,
        acting_entrant_id,
        acting_entrant_id,
        board_number,
        match_id,
        *([] if tournament is None else [tournament.pk]),
    ]
    with connection.cursor() as cursor:
        if takes_results_lock():
            # The locks first, on their own: a statement reads as of its start, so the board
            # and the status are read by the next one, after any write or status change that
            # held a lock has committed. Only the match row: locking the tournament's rows
            # would serialise every table.
            cursor.execute(_LOCK_SQL, [match_id])
        cursor.execute(_sql(tournament is not None), params)
        row = cursor.fetchone()
    if row is None:
        return None
    return _locked_board(row, tournament)


def _locked_board(row: tuple, tournament: Tournament | None) -> LockedBoard:
    using = connection.alias
    models, start = [], 0
    for reader in READERS:
        # A missing board, progress or pending entry comes as a row of nulls.
        models.append(reader.read(row, start, using) if row[start] is not None else None)
        start += len(reader)
    match, table, board, progress, pending = models
    if tournament is not None:
        table.tournament = tournament
    match.table = table
    locked = LockedBoard(
        match=match,
        board=board,
        progress_id=None if progress is None else progress.pk,
        entry_with_client_id=row[start],
        review_with_client_id=row[start + 1],
        untouched_round=row[start + 2],
        tournament_status=row[start + 3],
    )
    if board is not None:
        board.table = table
    if progress is not None:
        if pending is not None:
            pending.match, pending.board = match, board
        locked.state = states.BoardState(
            state=progress.state,
            pending=pending,
            rejections=progress.rejections,
            last_reason=progress.last_reason,
        )
    return locked
