"""The analysis job: a board's table is reset when its deal is saved and solved part by part,
each part in a process of its own that is killed when its time is up
(``engine.games.deal_analysis``). A part that runs out of time leaves the board "not
analysed" (``timed_out``), never a table; the organiser starts it again from the deals page.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
import time
from typing import Any

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from analysis.models import BoardAnalysis
from config.celery import app as celery_app
from tournaments.models import Board, Tournament

log = logging.getLogger(__name__)

Status = BoardAnalysis.Status
NOT_DONE = (Status.FAILED, Status.TIMED_OUT)


def part_seconds() -> float:
    """Each part's time limit (``ANALYSIS_PART_SECONDS``)."""
    return float(settings.ANALYSIS_PART_SECONDS)


def retry_seconds() -> float:
    """The time limit of a part the organiser starts again after it ran out of time
    (``ANALYSIS_RETRY_SECONDS``, never less than a first try's)."""
    return max(float(settings.ANALYSIS_RETRY_SECONDS), part_seconds())


def after_dealing() -> bool:
    """Whether dealing starts the job at once: ``ANALYSIS_AFTER_DEALING`` "always", "never",
    or "worker" (the default): when a worker takes the tasks. Without one they would run in
    the organiser's own request and hold his page for minutes; he starts them from the deals
    page instead."""
    mode = settings.ANALYSIS_AFTER_DEALING
    if mode == "worker":
        return not celery_app.conf.task_always_eager
    return mode == "always"


def board_inputs(board: Board) -> dict[str, Any] | None:
    tournament = board.table.tournament
    return tournament.game_rules.analysis_inputs(
        tournament.rules,
        table=board.table.number,
        players=board.table.size,
        dealer=board.dealer,
    )


def reset(board: Board) -> BoardAnalysis | None:
    """The board's analysis made afresh for its deal (pending, nothing solved), or removed
    for a game that offers none or a board without a deal."""
    inputs = board_inputs(board) if board.deal else None
    if inputs is None:
        BoardAnalysis.objects.filter(board=board).delete()
        return None
    analysis, _ = BoardAnalysis.objects.update_or_create(
        board=board,
        defaults={
            "deal": board.deal,
            "inputs": inputs,
            "status": Status.PENDING,
            "parts": {},
            "table": None,
            "seconds": 0,
            "nodes": 0,
            "error": "",
            "finished_at": None,
        },
    )
    return analysis


def board_saved(sender: Any, instance: Board, **kwargs: Any) -> None:
    """A board's deal saved (dealt, dealt again, typed in): its table is reset inside the
    same transaction, so no table of the old deal stands beside the new one, and the job
    starts once the deal is committed."""
    if kwargs.get("raw"):
        return
    existing = BoardAnalysis.objects.filter(board=instance).first()
    unchanged = existing is not None and existing.deal == instance.deal
    if unchanged and existing.inputs == board_inputs(instance):
        return
    analysis = reset(instance)
    if analysis is not None and after_dealing():
        transaction.on_commit(lambda: enqueue(analysis.pk))


def enqueue(analysis_id: int, *, seconds: float | None = None) -> int:
    """One task for every part not solved yet, each within ``seconds`` (the first try's
    limit by default); returns how many."""
    from analysis.tasks import analyse_part

    analysis = (
        BoardAnalysis.objects.select_related("board__table__tournament")
        .filter(pk=analysis_id, status=Status.PENDING)
        .first()
    )
    if analysis is None:
        return 0
    game = analysis.board.table.tournament.game_rules
    missing = [part for part in game.analysis_parts(analysis.inputs) if part not in analysis.parts]
    if not missing:  # every part came in after the board was left not analysed
        _put_together(analysis.pk)
    for part in missing:
        if seconds is None:
            analyse_part.delay(analysis.pk, part, analysis.deal)
        else:
            analyse_part.apply_async(
                (analysis.pk, part, analysis.deal, seconds),
                soft_time_limit=seconds + 30,
                time_limit=seconds + 60,
            )
    return len(missing)


def analyse(tournament: Tournament, *, again: bool = False) -> int:
    """Start the job for every board of ``tournament`` without a table: those not analysed
    yet, those whose solve ran out of time or failed (keeping the parts already solved, and
    giving the missing ones ``retry_seconds``), and with ``again`` every board. Returns the
    number of boards started."""
    boards = Board.objects.filter(table__tournament=tournament).select_related(
        "table__tournament", "analysis"
    )
    started: list[tuple[int, float | None]] = []
    with transaction.atomic():
        for board in boards:
            analysis = getattr(board, "analysis", None)
            stale = analysis is None or analysis.deal != board.deal
            seconds = None
            if again or stale or analysis.inputs != board_inputs(board):
                analysis = reset(board)
            elif analysis.status in NOT_DONE:
                seconds = retry_seconds() if analysis.status == Status.TIMED_OUT else None
                analysis.status, analysis.error, analysis.finished_at = Status.PENDING, "", None
                analysis.save(update_fields=["status", "error", "finished_at", "updated_at"])
            elif analysis.status == Status.DONE:
                continue
            if analysis is not None:
                started.append((analysis.pk, seconds))
    for analysis_id, seconds in started:
        transaction.on_commit(
            lambda analysis_id=analysis_id, seconds=seconds: enqueue(analysis_id, seconds=seconds)
        )
    return len(started)


def _solve(game_id: str, deal: str, inputs: dict, part: str, seconds: float) -> dict:
    """The part solved in a process of its own, killed after ``seconds``
    (``subprocess.TimeoutExpired``)."""
    request = json.dumps({"game": game_id, "deal": deal, "inputs": inputs, "part": part})
    done = subprocess.run(
        [sys.executable, "-m", "engine.games.deal_analysis"],
        input=request,
        capture_output=True,
        text=True,
        timeout=seconds,
        check=False,
    )
    try:
        return json.loads(done.stdout)
    except json.JSONDecodeError:
        return {"error": f"the solver stopped without an answer: {done.stderr.strip()[-500:]}"}


def run_part(analysis_id: int, part: str, deal: str, *, seconds: float | None = None) -> str:
    """Solve one part of a board's table within ``seconds`` (``part_seconds`` by default)
    and store it; the whole table once every part is in. A task for a deal replaced since it
    was queued does nothing. A part that ran out of time does not stop the others: each
    solved part is kept and shown, the board stays "not analysed" until all are in."""
    analysis = (
        BoardAnalysis.objects.select_related("board__table__tournament")
        .filter(pk=analysis_id)
        .first()
    )
    if analysis is None or analysis.deal != deal:
        return "replaced"
    if analysis.status not in (Status.PENDING, Status.TIMED_OUT) or part in analysis.parts:
        return analysis.status
    game = analysis.board.table.tournament.game_rules
    seconds = seconds or part_seconds()
    started = time.monotonic()
    try:
        answer = _solve(game.id, deal, analysis.inputs, part, seconds)
    except (subprocess.TimeoutExpired, SoftTimeLimitExceeded):
        return _finish(
            analysis_id,
            deal,
            status=Status.TIMED_OUT,
            error=f"the solver's time ran out on {part} ({seconds:g} s a part)",
            seconds=time.monotonic() - started,
        )
    if "error" in answer:
        return _finish(analysis_id, deal, status=Status.FAILED, error=answer["error"])
    return _store(analysis_id, deal, part, answer)


@transaction.atomic
def _store(analysis_id: int, deal: str, part: str, answer: dict) -> str:
    analysis = (
        BoardAnalysis.objects.select_for_update(of=("self",))
        .select_related("board__table__tournament")
        .filter(pk=analysis_id)
        .first()
    )
    if analysis is None or analysis.deal != deal:
        return "replaced"
    analysis.parts = {**analysis.parts, part: answer["table"]}
    analysis.seconds += answer["seconds"]
    analysis.nodes += answer["nodes"]
    _combine_if_whole(analysis)
    analysis.save()
    return analysis.status


def _combine_if_whole(analysis: BoardAnalysis) -> None:
    """The whole table, once every part is in and the board is being analysed."""
    game = analysis.board.table.tournament.game_rules
    wanted = game.analysis_parts(analysis.inputs)
    if analysis.status == Status.PENDING and all(name in analysis.parts for name in wanted):
        analysis.table = game.combine_analysis(analysis.inputs, analysis.parts)
        analysis.status = Status.DONE
        analysis.finished_at = timezone.now()


@transaction.atomic
def _put_together(analysis_id: int) -> None:
    analysis = (
        BoardAnalysis.objects.select_for_update(of=("self",))
        .select_related("board__table__tournament")
        .filter(pk=analysis_id)
        .first()
    )
    if analysis is not None:
        _combine_if_whole(analysis)
        analysis.save()


@transaction.atomic
def _finish(analysis_id: int, deal: str, *, status: str, error: str, seconds: float = 0) -> str:
    analysis = BoardAnalysis.objects.select_for_update(of=("self",)).filter(pk=analysis_id).first()
    if analysis is None or analysis.deal != deal:
        return "replaced"
    if analysis.status == Status.DONE:
        return analysis.status  # a late task of a board solved meanwhile
    if analysis.status == status and analysis.error and error not in analysis.error:
        error = f"{analysis.error}; {error}"  # every part that ran out of time is named
    analysis.status, analysis.error, analysis.table = status, error, None
    analysis.seconds += seconds
    analysis.finished_at = timezone.now()
    analysis.save()
    log.warning("analysis of %s: %s", analysis.board_id, error)
    return status
