"""Computing and storing a tournament's standings from its stored results.

Pages and the API never rank: they read what ``recompute`` stored. ``recompute`` is idempotent
and safe to run twice at once: recomputes of one tournament take turns, and a result is stored
only if it reflects a newer change of results than what is stored.
"""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Cast
from django.utils import timezone

from engine.ranking import RankingInputError, RankingState
from engine.ranking.stored import TEAM_TABLES
from scoring.models import RankingPoints, Standing, StandingsState
from scoring.selectors import individual_ranking_input, ranking_input
from scoring.signals import standings_stored
from tournaments.models import Board, Match, Status, Tournament

log = logging.getLogger(__name__)

# While this key exists a standings task for the tournament is queued and not yet started.
# It names the database, so deployments (or test runs) sharing one Redis keep apart.
PENDING_KEY = "standings-update-pending:{database}:{tournament}"
PENDING_TTL = 60  # seconds; a lost message blocks new ones no longer than this


def _pending_key(tournament_id: int) -> str:
    return PENDING_KEY.format(database=connection.settings_dict["NAME"], tournament=tournament_id)


def claim_pending_update(tournament_id: int) -> bool:
    """True if the caller should queue an update (none is waiting already, or the cache that
    would tell is unreachable: then queue anyway)."""
    try:
        return cache.add(_pending_key(tournament_id), 1, PENDING_TTL)
    except Exception:  # the cache is only an optimisation; its errors vary by backend
        return True


def release_pending_update(tournament_id: int) -> None:
    try:
        cache.delete(_pending_key(tournament_id))
    except Exception:  # see claim_pending_update
        log.warning("could not clear the pending-update mark of tournament %s", tournament_id)


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Run a block without the cyclic garbage collector. The standings of a big tournament
    are some 10^5 small objects without cycles, freed by reference counting when the block
    ends; while they live, the collections their allocation triggers find nothing, yet move
    them into the oldest generation, and then a full collection walks the worker's whole
    heap (tens of milliseconds, every other update). Leave no standings referenced when the
    block ends, so that the allocation count falls back."""
    if not gc.isenabled():  # paused by a caller, or by the application: leave it so
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def recompute(tournament_id: int, *, wait: bool = True) -> str:
    """Bring the stored standings up to date; returns what it did: "stored", "current", or
    "running" (another recompute of the tournament has the turn, and will include what this
    one was asked for). ``wait``: wait for the turn, for a caller that reads the standings
    next; the standings task does not wait.

    Recomputes of one tournament take turns (``_turn``), and the task leaves at once when
    the turn is taken: a burst of results gives one recompute at a time, each with the
    latest results, never a queue of stale ones waiting for each other's write. Whoever has
    the turn looks again once it has given it back, and goes round again (without waiting)
    while results came in meanwhile. So no result is left out: a task that left found the
    turn taken after its results were committed, so before the turn was given back and the
    results version looked at again."""
    # From here on a new change queues a new task: this one may already have read too early.
    release_pending_update(tournament_id)
    done = "running"
    while True:
        with collector_paused(), _turn(tournament_id, wait=wait) as mine:
            if not mine:  # its holder looks again when it is done
                return done
            outcome = _recompute(tournament_id)
        done = "stored" if "stored" in (done, outcome) else outcome
        if not is_stale(tournament_id):
            return done
        wait = False


def _recompute(tournament_id: int) -> str:
    tournament = Tournament.objects.get(pk=tournament_id)
    version = _bookkeeping(tournament).results_version
    if _covers(tournament, version):
        return "current"
    if tournament.of_players:
        ranked = rank_players(individual_ranking_input(tournament))
    else:
        ranked = rank(tournament, ranking_input(tournament))
    # Standings writers take turns on the tournament row too (a backup's import writes them
    # outside the turn). Not on the bookkeeping row: every confirmation bumps its results
    # version, and would wait behind this whole write; that row is written last, in one
    # short statement, just before the commit.
    Tournament.objects.select_for_update(of=("self",)).filter(pk=tournament.pk).exists()
    if _covers(tournament, version):
        return "superseded"
    _store(tournament, ranked, version)
    standings_stored.send(sender=StandingsState, tournament_id=tournament.pk)
    return "stored"


# The first key of the tournaments' standings turns among PostgreSQL's advisory locks.
TURN_LOCKS = 0x5354
_local_turns: dict[int, threading.RLock] = {}


@contextlib.contextmanager
def _turn(tournament_id: int, *, wait: bool) -> Iterator[bool]:
    """A transaction with the tournament's standings turn if it can be had (at once, unless
    ``wait``); the block learns whether it has it.

    PostgreSQL: an advisory lock of the transaction, given back when it ends, also when the
    worker dies and its connection drops (and sound behind a pooler in transaction mode).
    Other databases (SQLite: one process): a lock of this process."""
    if connection.vendor == "postgresql":
        with transaction.atomic(), connection.cursor() as cursor:
            if wait:
                cursor.execute("SELECT pg_advisory_xact_lock(%s, %s)", [TURN_LOCKS, tournament_id])
                yield True
                return
            cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [TURN_LOCKS, tournament_id])
            yield bool(cursor.fetchone()[0])
        return
    lock = _local_turns.setdefault(tournament_id, threading.RLock())
    if not lock.acquire(blocking=wait):
        yield False
        return
    try:
        with transaction.atomic():
            yield True
    finally:
        lock.release()


def is_stale(tournament_id: int) -> bool:
    """Whether the tournament's stored standings are behind its results (a recompute is
    due: queued, under way, or the reconcile's)."""
    return StandingsState.objects.filter(
        Q(computed_version__lt=F("results_version")) | Q(computed_at__isnull=True),
        tournament_id=tournament_id,
    ).exists()


def _bookkeeping(tournament: Tournament) -> StandingsState:
    """The bookkeeping row, without the stored standings themselves (large)."""
    return StandingsState.objects.defer("standings").get_or_create(tournament=tournament)[0]


def _covers(tournament: Tournament, version: int) -> bool:
    """Whether the stored standings already reflect this results version."""
    return StandingsState.objects.filter(
        tournament=tournament, computed_at__isnull=False, computed_version__gte=version
    ).exists()


# --- ranking, incremental where it can be ---------------------------------------------------

# The ranking of the last few tournaments ranked in this process, to bring up to date by
# their changed results only. An entry is reused only for an input that differs from the one
# it ranks in results alone (same settings, teams, disqualifications and schedule, compared
# in full), so it gives exactly what ranking the input from scratch gives (the engine's
# property tests hold RankingState.set_results to that); anything else ranks from scratch.
RANKED_KEPT = 4
_ranked: OrderedDict[tuple[str, int], tuple[tuple, RankingState]] = OrderedDict()
_ranked_lock = threading.Lock()
SEATING = ("round", "table", "board", "ns", "ew")
MATCH_KEYS = frozenset({*SEATING, "record", "scores"})


# The stored text without the spaces after separators (one round of 1,000 tables: 0.55 MB,
# not 0.64), and without the encoder's check for cycles (the standings have none).
COMPACT_JSON: dict[str, Any] = {"separators": (",", ":"), "check_circular": False}


@dataclass(frozen=True)
class Ranked:
    """``rank_results(data)``: as the JSON text stored (for a game of pairs, the compact form
    of engine/ranking/stored.py, which ``StandingsState.standings`` reads back whole), and
    as an object with the rows and the groups, to write the rows from."""

    text: str
    standings: dict[str, Any]


def rank(tournament: Tournament, data: dict[str, Any]) -> Ranked:
    """The standings of the tournament's ranking input ``data``."""
    key = (connection.settings_dict["NAME"], tournament.pk)
    head = {name: value for name, value in data.items() if name != "matches"}
    with _ranked_lock:  # taken out while in use: a thread ranking the same one builds anew
        kept = _ranked.pop(key, None)
    state = None
    if kept is not None and kept[0] == head:
        state = _brought_up_to_date(kept[1], data["matches"])
    if state is None:
        state = RankingState.build(data)
    # Stored compact: the teams' tables in full are mostly byes, the same for every team at a
    # table and board (one round of 1,000 tables: 190 MB, which PostgreSQL took 20-40 s to
    # store as jsonb, against 0.6 MB).
    stored = state.to_stored_standings()
    if TEAM_TABLES in stored:
        rows = {name: stored[name] for name in ("provisional", "groups", "standings")}
    else:  # stored whole (a disqualification after the final round)
        rows = state.to_standings(tables=False)
    ranked = Ranked(json.dumps(stored, **COMPACT_JSON), rows)
    with _ranked_lock:
        _ranked[key] = (head, state)
        while len(_ranked) > RANKED_KEPT:
            _ranked.popitem(last=False)
    return ranked


def rank_players(data: dict[str, Any]) -> Ranked:
    """The standings of a game of individuals (ranked from scratch: such fields are small)."""
    from engine.ranking import rank_individuals

    standings = rank_individuals(data)
    return Ranked(json.dumps(standings, allow_nan=False, **COMPACT_JSON), standings)


def forget_rankings() -> None:
    """Drop the rankings kept in this process."""
    with _ranked_lock:
        _ranked.clear()


def _brought_up_to_date(state: RankingState, matches: list[dict[str, Any]]) -> RankingState | None:
    """The state with the results of ``matches`` (the ranking input's), or None if the
    matches differ from the state's in more than their results."""
    if len(matches) != len(state.matches):
        return None
    changed: dict[int, dict[str, Any]] = {}
    for index, (new, entry) in enumerate(zip(matches, state.matches, strict=True)):
        old = entry.raw
        if new == old:
            continue
        if not _results_alone_differ(new, old):
            return None
        changed[index] = {name: new[name] for name in ("record", "scores") if name in new}
    try:
        state.set_results(changed)
    except RankingInputError:
        return None  # ranking from scratch reports it
    return state


def _results_alone_differ(new: dict[str, Any], old: dict[str, Any]) -> bool:
    """Whether two versions of a match of the ranking input have the same seating and no key
    but a match's: only their results may differ."""
    if any(new.get(name) != old.get(name) for name in SEATING):
        return False
    return new.keys() <= MATCH_KEYS and old.keys() <= MATCH_KEYS


def _store(tournament: Tournament, ranked: Ranked, version: int) -> None:
    _standing_rows(tournament, ranked.standings)
    _points_rows(tournament, ranked.standings)
    _standings_object(tournament, ranked, version)


def _standing_rows(tournament: Tournament, computed: dict[str, Any]) -> None:
    _sync(
        Standing,
        Standing.objects.filter(tournament=tournament),
        key_fields=("entrant_id",),
        value_fields=("place", "points", "percentage", "matches", "status"),
        wanted={
            (int(row.get("team", row.get("player"))),): (
                row["place"],
                row["points"] if "points" in row else row["total"],
                row.get("percentage"),  # none in a game ranked by totals
                row["matches"],
                row["status"],
            )
            for row in computed["standings"]
        },
        extra={"tournament_id": tournament.pk},
    )


def _points_rows(tournament: Tournament, computed: dict[str, Any]) -> None:
    _sync(
        RankingPoints,
        RankingPoints.objects.filter(tournament=tournament),
        key_fields=("match_id", "board_id", "entrant_id"),
        value_fields=("side", "score", "points"),
        wanted=_ranking_points(tournament, computed),
        extra={"tournament_id": tournament.pk},
    )


def _standings_object(tournament: Tournament, ranked: Ranked, version: int) -> None:
    StandingsState.objects.filter(tournament=tournament).update(
        # The engine's JSON text, cast in SQL: what the field would store for the standings
        # object, without encoding its tens of thousands of table entries one by one (on
        # PostgreSQL as json, kept as written: StoredStandingsField).
        standings=Cast(
            Value(ranked.text), output_field=StandingsState._meta.get_field("standings")
        ),
        computed_version=version,
        computed_at=timezone.now(),
        provisional=bool(ranked.standings.get("provisional", True)),
        final=tournament.status == Status.FINAL,
    )


def _sync(model, rows, *, key_fields, value_fields, wanted, extra) -> dict[str, int]:
    """Make the stored rows equal ``wanted`` ({key: values}), writing only what changed: one
    new result moves a few ranks, not the whole table. ``extra``: {field: value} a new row
    gets besides. Returns how many rows were updated, created and deleted. Nothing refers to
    these rows' primary keys."""
    stored = {
        tuple(row[: len(key_fields)]): (row[len(key_fields)], tuple(row[len(key_fields) + 1 :]))
        for row in rows.values_list(*key_fields, "pk", *value_fields)
    }
    changed, created = _changed_and_created(stored, wanted, extra)
    gone = [pk for key, (pk, _values) in stored.items() if key not in wanted]
    if gone:
        model.objects.filter(pk__in=gone).delete()
    meta = model._meta
    if changed:
        _update_rows(model, [meta.pk, *(meta.get_field(name) for name in value_fields)], changed)
    if created:
        names = (*extra, *key_fields, *value_fields)
        _insert_rows(model, [meta.get_field(name) for name in names], created)
    return {"updated": len(changed), "created": len(created), "deleted": len(gone)}


def _changed_and_created(
    stored: dict[tuple, tuple[Any, tuple]], wanted: dict[tuple, tuple], extra: dict[str, Any]
) -> tuple[list[tuple], list[tuple]]:
    """The rows to update (primary key, values) and to create (extra, key, values)."""
    changed, created = [], []
    for key, values in wanted.items():
        found = stored.get(key)
        if found is None:
            created.append((*extra.values(), *key, *values))
        elif found[1] != values:
            changed.append((found[0], *values))
    return changed, created


# Rows are written in one statement each way, reading them from one JSON parameter (a list
# of lists). Not bulk_update: it builds a CASE WHEN per row and field, and compiling that
# cost the worker far more than the update costs the database; nor bulk_create, which makes
# and prepares a model instance per row. One JSON text (encoded in C) is also cheaper to send
# than a parameter per value, or an array per column, which the driver quotes value by value.
# The values must be what the fields store as they are (numbers, text, None).


def _json_rows(fields) -> str:
    """A SELECT of the rows in the JSON parameter, as columns c0, c1, ... typed as
    ``fields`` (PostgreSQL, and SQLite from 3.38)."""
    if connection.vendor == "postgresql":
        columns = ", ".join(
            f"(item->>{number})::{field.cast_db_type(connection)} AS c{number}"
            for number, field in enumerate(fields)
        )
        return f"SELECT {columns} FROM json_array_elements(%s::json) AS item"
    columns = ", ".join(
        f"json_extract(value, '$[{number}]') AS c{number}" for number in range(len(fields))
    )
    return f"SELECT {columns} FROM json_each(%s)"


def _update_rows(model, fields, rows: list[tuple]) -> None:
    """Set the ``fields[1:]`` of the rows whose primary key is the first value."""
    quote = connection.ops.quote_name
    table = quote(model._meta.db_table)
    assignments = ", ".join(
        f"{quote(field.column)} = v.c{number}" for number, field in enumerate(fields) if number
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {assignments} FROM ({_json_rows(fields)}) AS v "
            f"WHERE {table}.{quote(fields[0].column)} = v.c0",
            [json.dumps(rows, allow_nan=False)],
        )


def _insert_rows(model, fields, rows: list[tuple]) -> None:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(field.column) for field in fields)
    values = ", ".join(f"v.c{number}" for number in range(len(fields)))
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {quote(model._meta.db_table)} ({columns}) "
            f"SELECT {values} FROM ({_json_rows(fields)}) AS v",
            [json.dumps(rows, allow_nan=False)],
        )


def _ranking_points(tournament: Tournament, computed: dict[str, Any]) -> dict[tuple, tuple]:
    matches = {
        (round_, table): pk
        for round_, table, pk in Match.objects.filter(table__tournament=tournament).values_list(
            "round", "table__number", "pk"
        )
    }
    boards = {
        (table, number): pk
        for table, number, pk in Board.objects.filter(table__tournament=tournament).values_list(
            "table__number", "number", "pk"
        )
    }
    wanted = {}
    for group in computed["groups"]:
        board_id = boards[(group["table"], group["board"])]
        place = group["side"] if "side" in group else group["seat"]
        for result in group["results"]:
            match_id = matches.get((result["round"], group["table"]))
            if match_id is not None:
                entrant = result["team"] if "team" in result else result["player"]
                key = (match_id, board_id, int(entrant))
                wanted[key] = (place, result["score"], float(result["rank"]))
    return wanted


def mark_changed(tournament: Tournament) -> None:
    """Record that the tournament's results or disqualifications changed (call in the
    transaction that changed them). Every confirmation runs this: a plain statement, since
    compiling the ORM's ``F() + 1`` update cost several times what running it does."""
    if not _bump_results_version(tournament.pk):
        StandingsState.objects.defer("standings").get_or_create(tournament=tournament)
        _bump_results_version(tournament.pk)


def _bump_results_version(tournament_id: int) -> int:
    table = connection.ops.quote_name(StandingsState._meta.db_table)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET results_version = results_version + 1 WHERE tournament_id = %s",
            [tournament_id],
        )
        return cursor.rowcount


def stale_tournament_ids() -> list[int]:
    return list(
        StandingsState.objects.filter(
            Q(computed_version__lt=F("results_version")) | Q(computed_at__isnull=True)
        ).values_list("tournament_id", flat=True)
    )
