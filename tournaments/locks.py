"""The lock that orders a tournament's result writes against the organiser's changes to it.

Result writes (North's entries, East's checks, the director's rulings) lock one match row,
never the tournament's, so that every table can report at once. Each also takes this
tournament's lock *shared* before it reads the board and the tournament's status; every
change the organiser makes to the tournament (starting, finalising, reopening, the schedule,
the deals, the teams) takes it *exclusively* before anything else. A write therefore commits
before such a change begins, or waits for it to commit and then reads what it changed: no
result lands in a tournament finalised, or on a match removed, while it was being written.
Shared holders never wait for one another, and the standings task does not take the lock.

A PostgreSQL advisory lock, held until the transaction ends. Elsewhere (SQLite, the embedded
default) it is not taken: SQLite runs one writing transaction at a time.
"""

from __future__ import annotations

from django.db import connection

# The lock's key is the tournament's id plus this offset (ids are 64-bit, so the two-key
# form of the lock, of two 32-bit keys, will not do): apart from any other advisory locks
# that share the database.
RESULTS_LOCK_SPACE = 0x50594D << 32  # "PYM"

# For a statement that takes the shared lock of the tournament whose id is ``<expression>``.
SHARED_LOCK_SQL = f"pg_advisory_xact_lock_shared({RESULTS_LOCK_SPACE} + {{expression}})"


def takes_results_lock() -> bool:
    return connection.vendor == "postgresql"


def lock_results_exclusively(tournament_id: int) -> None:
    """Wait for the result writes under way in the tournament and keep new ones waiting until
    this transaction ends. Take it first in the transaction: a write holding the shared lock
    may be waiting for a row lock that is taken later."""
    if not takes_results_lock():
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [RESULTS_LOCK_SPACE + tournament_id])
