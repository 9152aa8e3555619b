"""Computing and storing a tournament's standings from its stored results.

Pages and the API never rank: they read what ``recompute`` stored. ``recompute`` is idempotent
and safe to run twice at once: it stores its result only if it reflects a newer change of
results than what is stored.
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache import cache
from django.db import connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from engine.ranking import rank_results
from scoring.models import RankingPoints, Standing, StandingsState
from scoring.selectors import ranking_input
from tournaments.models import Board, Match, Status, Tournament


def _state_for_update(tournament: Tournament) -> StandingsState:
    """The bookkeeping row, locked; without the stored standings themselves (large, and only
    ever written here)."""
    StandingsState.objects.defer("standings").get_or_create(tournament=tournament)
    return StandingsState.objects.select_for_update().defer("standings").get(tournament=tournament)


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


def recompute(tournament_id: int) -> str:
    """Bring the stored standings up to date; returns what it did."""
    # From here on a new change queues a new task: this one may already have read too early.
    release_pending_update(tournament_id)
    tournament = Tournament.objects.get(pk=tournament_id)
    with transaction.atomic():
        state = _state_for_update(tournament)
        version = state.results_version
        if state.computed_at is not None and state.computed_version >= version:
            return "current"
    computed = rank_results(ranking_input(tournament))
    with transaction.atomic():
        state = _state_for_update(tournament)
        if state.computed_at is not None and state.computed_version >= version:
            return "superseded"
        _store(tournament, state, computed, version)
    return "stored"


def _store(tournament: Tournament, state: StandingsState, computed: dict[str, Any], version: int):
    state.standings = computed
    state.computed_version = version
    state.computed_at = timezone.now()
    state.provisional = bool(computed.get("provisional", True))
    state.final = tournament.status == Status.FINAL
    state.save(
        update_fields=["standings", "computed_version", "computed_at", "provisional", "final"]
    )
    _sync(
        Standing,
        Standing.objects.filter(tournament=tournament),
        key_fields=("team_id",),
        value_fields=("place", "points", "matches", "status"),
        wanted={
            (int(row["team"]),): (row["place"], row["points"], row["matches"], row["status"])
            for row in computed["standings"]
        },
        extra={"tournament": tournament},
    )
    _sync(
        RankingPoints,
        RankingPoints.objects.filter(tournament=tournament),
        key_fields=("match_id", "board_id", "team_id"),
        value_fields=("side", "score", "points"),
        wanted=_ranking_points(tournament, computed),
        extra={"tournament": tournament},
    )


def _sync(model, rows, *, key_fields, value_fields, wanted, extra) -> None:
    """Make the stored rows equal ``wanted`` ({key: values}), writing only what changed: one
    new result moves a few ranks, not the whole table."""
    stored = {
        tuple(row[: len(key_fields)]): (row[len(key_fields)], tuple(row[len(key_fields) + 1 :]))
        for row in rows.values_list(*key_fields, "pk", *value_fields)
    }
    changed, created = [], []
    for key, values in wanted.items():
        if key not in stored:
            created.append(
                model(**extra, **dict(zip(key_fields + value_fields, key + values, strict=True)))
            )
        elif stored[key][1] != values:
            changed.append(model(pk=stored[key][0], **dict(zip(value_fields, values, strict=True))))
    gone = [pk for key, (pk, _values) in stored.items() if key not in wanted]
    if gone:
        model.objects.filter(pk__in=gone).delete()
    if changed:
        model.objects.bulk_update(changed, list(value_fields), batch_size=500)
    if created:
        model.objects.bulk_create(created, batch_size=1000)


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
        for result in group["results"]:
            match_id = matches.get((result["round"], group["table"]))
            if match_id is not None:
                key = (match_id, board_id, int(result["team"]))
                wanted[key] = (group["side"], result["score"], float(result["rank"]))
    return wanted


def mark_changed(tournament: Tournament) -> None:
    """Record that the tournament's results or disqualifications changed (call in the
    transaction that changed them)."""
    bumped = StandingsState.objects.filter(tournament=tournament).update(
        results_version=F("results_version") + 1
    )
    if not bumped:
        StandingsState.objects.defer("standings").get_or_create(tournament=tournament)
        StandingsState.objects.filter(tournament=tournament).update(
            results_version=F("results_version") + 1
        )


def stale_tournament_ids() -> list[int]:
    return list(
        StandingsState.objects.filter(
            Q(computed_version__lt=F("results_version")) | Q(computed_at__isnull=True)
        ).values_list("tournament_id", flat=True)
    )
