"""Writes of the scorer's side: North enters, East checks, the director rules.

Every function is keyword-only and atomic. The match row is locked (``select_for_update``)
before its state is read, so two phones acting on one match at once are serialised: exactly one
confirmation wins, and a re-sent entry finds the row its first send made.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from engine.records import RecordError
from engine.scoring import score_record
from scoring import standings, states
from scoring.errors import InvalidEntry, NotAllowed, NotFound, WrongState
from scoring.models import Result, Review, Submission
from tournaments.models import ActionLog, Board, Match, Status, Team, Tournament

log = logging.getLogger(__name__)
T = TypeVar("T")

# What North reports; everything else of the board record comes from the tournament.
ENTRY_FIELDS = frozenset({"auctions", "trump", "double", "tricks", "revoke", "illegal_trump"})
CLIENT_ID_MAX = 64
REASON_MAX = 1000


def atomic_service(function: Callable[..., T]) -> Callable[..., T]:
    """Run in one transaction; a clash with a unique constraint (two phones at once on a
    database without row locks) is reported as a conflict, not a server error."""

    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> T:
        try:
            with transaction.atomic():
                return function(*args, **kwargs)
        except IntegrityError:
            raise WrongState("the board changed at the same time; reload and try again") from None

    return wrapped


def board_record(match: Match, facts: Any) -> dict[str, Any]:
    """The full board record: North's facts plus the tournament's rules for this table."""
    if not isinstance(facts, dict):
        raise InvalidEntry("the entry must be a JSON object", field="record")
    unknown = sorted(set(facts) - ENTRY_FIELDS)
    if unknown:
        raise InvalidEntry(
            f"{unknown[0]!r} is not entered by the scorer "
            f"(allowed: {', '.join(sorted(ENTRY_FIELDS))})",
            field=unknown[0],
        )
    tournament = match.table.tournament
    return {
        "ruleset": tournament.ruleset,
        "options": tournament.options,
        "opening": tournament.opening_seat_for(match.table.number).name,
        "direction": tournament.direction,
        **facts,
    }


def score_entry(match: Match, facts: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(record, score)`` for North's facts, or InvalidEntry naming the field."""
    record = board_record(match, facts)
    try:
        score = score_record(record).as_dict()
    except RecordError as exc:
        raise InvalidEntry(str(exc), field=exc.field) from None
    return record, score


def _locked_match(match_id: int, tournament: Tournament | None = None) -> Match:
    """The match, its row locked until the transaction ends (only its own row: locking the
    joined tournament row too would serialise every table of the tournament). Given the
    tournament the caller acts in, a match of another tournament is not found."""
    matches = Match.objects.select_for_update(of=("self",))
    if tournament is None:
        matches = matches.select_related("table__tournament")
    else:
        matches = matches.select_related("table").filter(table__tournament_id=tournament.pk)
    try:
        match = matches.get(pk=match_id)
    except Match.DoesNotExist:
        raise NotFound("no such match in this tournament") from None
    if tournament is not None:
        match.table.tournament = tournament
    return match


def board_of(match: Match, board_number: int) -> Board:
    try:
        return Board.objects.get(table=match.table, number=board_number)
    except Board.DoesNotExist:
        raise NotFound(f"table {match.table.number} has no board {board_number}") from None


def _check_open(tournament: Tournament) -> None:
    if tournament.status == Status.FINAL:
        raise WrongState("the tournament is final: results can change only after a reopen")
    if tournament.status == Status.DRAFT:
        raise WrongState("the tournament has no schedule yet")


def _check_client_id(client_id: str) -> None:
    if not isinstance(client_id, str) or not 8 <= len(client_id) <= CLIENT_ID_MAX:
        raise InvalidEntry("client_id must be a string of 8 to 64 characters", field="client_id")


def _check_reason(reason: str, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise InvalidEntry("give a reason", field="reason")
    if len(reason) > REASON_MAX:
        raise InvalidEntry(f"the reason is longer than {REASON_MAX} characters", field="reason")
    return reason


def board_state(match: Match, board: Board) -> states.BoardState:
    return states.fold(
        list(Submission.objects.filter(match=match, board=board)),
        list(Review.objects.filter(match=match, board=board)),
    )


def _team_may_act_on(team: Team, match: Match) -> None:
    """A team acts on its current match or an earlier one, never on a later one: its current
    match is the first of its matches (in round order) on which nothing has been entered."""
    earlier_untouched = (
        Match.objects.filter(Q(ns_team=team) | Q(ew_team=team), round__lt=match.round)
        .exclude(Exists(Submission.objects.filter(match=OuterRef("pk"))))
        .exclude(Exists(Review.objects.filter(match=OuterRef("pk"))))
        .order_by("round")
        .values_list("round", flat=True)
        .first()
    )
    if earlier_untouched is not None:
        raise NotAllowed(
            f"round {match.round} is not played yet: your current match is round "
            f"{earlier_untouched}"
        )


def results_changed(tournament: Tournament) -> None:
    """Mark the standings out of date and have them recomputed once this transaction commits.
    Call it in every transaction that changes results or disqualifications."""
    standings.mark_changed(tournament)
    tournament_id = tournament.pk
    transaction.on_commit(lambda: enqueue_standings_update(tournament_id))


def _bump_results(tournament: Tournament) -> None:
    # Lock order: the tournament row (only while it is still 'scheduled'), then the standings
    # row; every writer takes them in this order, so concurrent confirmations cannot deadlock.
    if tournament.status == Status.SCHEDULED:
        Tournament.objects.filter(pk=tournament.pk, status=Status.SCHEDULED).update(
            status=Status.RUNNING
        )
    results_changed(tournament)


def enqueue_standings_update(tournament_id: int) -> None:
    """Send the standings task unless one is already waiting (a burst of confirmations needs
    one recompute, not one each). If the broker is down the standings stay stale until the
    periodic reconcile (or the next confirmation) catches up."""
    from scoring.tasks import update_standings

    if not standings.claim_pending_update(tournament_id):
        return
    try:
        update_standings.apply_async(
            args=[tournament_id],
            countdown=settings.STANDINGS_DEBOUNCE_SECONDS,
            retry=True,
            retry_policy={"max_retries": 1, "interval_start": 0},
        )
    except Exception:  # the broker's errors vary by transport; none may lose the result
        standings.release_pending_update(tournament_id)
        log.warning("standings update for tournament %s not queued; will reconcile", tournament_id)


@atomic_service
def submit_entry(
    *,
    match_id: int,
    board_number: int,
    team: Team,
    facts: Any,
    client_id: str,
    remote_addr: str | None = None,
) -> Submission:
    """North's entry for one board. A re-send with the same client id returns the first row."""
    _check_client_id(client_id)
    match = _locked_match(match_id, team.tournament)
    existing = Submission.objects.filter(match=match, client_id=client_id).first()
    if existing is not None:
        if existing.team_id != team.pk:
            raise NotAllowed("that entry id belongs to another team", field="client_id")
        existing.resent = True  # tells the caller nothing new was stored
        return existing
    if team.pk != match.ns_team_id:
        raise NotAllowed("only the North-South team of this match enters its result")
    tournament = match.table.tournament
    _check_open(tournament)
    _team_may_act_on(team, match)
    board = board_of(match, board_number)
    current = board_state(match, board)
    if current.state in (states.CONFIRMED, states.ADJUSTED):
        raise WrongState("this board already has a confirmed result; ask the director")
    if current.state == states.DISPUTED:
        raise WrongState("this board is with the director")
    record, score = score_entry(match, facts)
    return Submission.objects.create(
        match=match,
        board=board,
        source=Submission.Source.NORTH,
        team=team,
        seat="N",
        client_id=client_id,
        remote_addr=remote_addr,
        record=record,
        score=score,
        ns_result=score["ns"],
        ew_result=score["ew"],
    )


def _existing_review(match: Match, client_id: str, team: Team) -> Review | None:
    review = Review.objects.filter(match=match, client_id=client_id).first()
    if review is not None and review.team_id != team.pk:
        raise NotAllowed("that action id belongs to another team", field="client_id")
    return review


def _pending_for_east(match: Match, board: Board, submission_id: int) -> Submission:
    current = board_state(match, board)
    if current.state != states.AWAITING_EAST:
        raise WrongState(f"nothing awaits East's check here ({current.label.lower()})")
    if current.pending.pk != submission_id:
        raise WrongState("North has changed the entry since you loaded it; check the new one")
    return current.pending


@atomic_service
def accept_entry(
    *,
    match_id: int,
    board_number: int,
    team: Team,
    submission_id: int,
    client_id: str,
    remote_addr: str | None = None,
) -> Result:
    """East accepts North's entry: it becomes the board's confirmed result."""
    _check_client_id(client_id)
    match = _locked_match(match_id, team.tournament)
    again = _existing_review(match, client_id, team)
    if again is not None:
        if again.action != Review.Action.ACCEPT:
            raise WrongState("that action id was used for another action", field="client_id")
        return again.result
    if team.pk != match.ew_team_id:
        raise NotAllowed("only the East-West team of this match checks its result")
    tournament = match.table.tournament
    _check_open(tournament)
    board = board_of(match, board_number)
    submission = _pending_for_east(match, board, submission_id)
    review = Review.objects.create(
        match=match,
        board=board,
        submission=submission,
        action=Review.Action.ACCEPT,
        team=team,
        client_id=client_id,
        remote_addr=remote_addr,
    )
    result = _make_current(
        match,
        board,
        kind=Result.Kind.CONFIRMED,
        review=review,
        submission=submission,
        ns=submission.ns_result,
        ew=submission.ew_result,
        passed_out=submission.score.get("passed_out", False),
        replaces=False,
    )
    _bump_results(tournament)
    return result


@atomic_service
def reject_entry(
    *,
    match_id: int,
    board_number: int,
    team: Team,
    submission_id: int,
    reason: str,
    client_id: str,
    remote_addr: str | None = None,
) -> Review:
    """East rejects North's entry with a reason; a second rejection calls the director."""
    _check_client_id(client_id)
    reason = _check_reason(reason, required=True)
    match = _locked_match(match_id, team.tournament)
    again = _existing_review(match, client_id, team)
    if again is not None:
        return again
    if team.pk != match.ew_team_id:
        raise NotAllowed("only the East-West team of this match checks its result")
    _check_open(match.table.tournament)
    board = board_of(match, board_number)
    submission = _pending_for_east(match, board, submission_id)
    return Review.objects.create(
        match=match,
        board=board,
        submission=submission,
        action=Review.Action.REJECT,
        team=team,
        reason=reason,
        client_id=client_id,
        remote_addr=remote_addr,
    )


@atomic_service
def call_director(
    *,
    match_id: int,
    board_number: int,
    team: Team,
    reason: str,
    client_id: str,
    remote_addr: str | None = None,
) -> Review:
    """Either team of the match flags the board for the director."""
    _check_client_id(client_id)
    reason = _check_reason(reason, required=False)
    match = _locked_match(match_id, team.tournament)
    again = _existing_review(match, client_id, team)
    if again is not None:
        return again
    if team.pk not in (match.ns_team_id, match.ew_team_id):
        raise NotAllowed("only the two teams of this match may call the director here")
    _check_open(match.table.tournament)
    board = board_of(match, board_number)
    return Review.objects.create(
        match=match,
        board=board,
        action=Review.Action.CALL_DIRECTOR,
        team=team,
        reason=reason or "director called",
        client_id=client_id,
        remote_addr=remote_addr,
    )


def _make_current(
    match: Match,
    board: Board,
    *,
    kind: str,
    review: Review,
    submission: Submission | None,
    ns: int | None,
    ew: int | None,
    passed_out: bool = False,
    reason: str = "",
    replaces: bool = True,
) -> Result:
    """Retire the board's current result (kept, marked not current) and store the new one.
    ``replaces=False`` where the board's state shows it has none (East's check)."""
    if replaces:
        Result.objects.filter(match=match, board=board, current=True).update(
            current=False, ended_at=timezone.now()
        )
    return Result.objects.create(
        match=match,
        board=board,
        kind=kind,
        review=review,
        submission=submission,
        ns_result=ns,
        ew_result=ew,
        passed_out=passed_out,
        reason=reason,
    )


def _log(tournament: Tournament, user: Any, action: str, summary: str, before: Any, after: Any):
    ActionLog.objects.create(
        tournament=tournament,
        tournament_slug=tournament.slug,
        user=user,
        actor=getattr(user, "username", "") or "system",
        action=action,
        summary=summary,
        before=before,
        after=after,
    )


def _result_data(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "kind": result.kind,
        "ns": result.ns_result,
        "ew": result.ew_result,
        "passed_out": result.passed_out,
        "reason": result.reason,
    }


def _director_context(match_id: int, board_number: int) -> tuple[Match, Board, Result | None]:
    match = _locked_match(match_id)
    tournament = match.table.tournament
    if tournament.status == Status.FINAL:
        raise WrongState("the tournament is final: reopen it before changing results")
    board = board_of(match, board_number)
    current = Result.objects.filter(match=match, board=board, current=True).first()
    return match, board, current


def _where(match: Match, board: Board) -> str:
    return f"round {match.round}, table {match.table.number}, board {board.number}"


@atomic_service
def director_enter_result(
    *,
    match_id: int,
    board_number: int,
    user: Any,
    facts: Any,
    reason: str = "",
    client_id: str,
) -> Result:
    """The director enters or corrects the result of a board from the facts of the play."""
    _check_client_id(client_id)
    reason = _check_reason(reason, required=False)
    match, board, before = _director_context(match_id, board_number)
    record, score = score_entry(match, facts)
    submission = Submission.objects.create(
        match=match,
        board=board,
        source=Submission.Source.DIRECTOR,
        user=user,
        client_id=client_id,
        record=record,
        score=score,
        ns_result=score["ns"],
        ew_result=score["ew"],
    )
    review = Review.objects.create(
        match=match,
        board=board,
        submission=submission,
        action=Review.Action.DIRECTOR_ENTRY,
        user=user,
        reason=reason,
    )
    result = _make_current(
        match,
        board,
        kind=Result.Kind.DIRECTOR,
        review=review,
        submission=submission,
        ns=score["ns"],
        ew=score["ew"],
        passed_out=score["passed_out"],
        reason=reason,
    )
    tournament = match.table.tournament
    _log(
        tournament,
        user,
        "director_entry",
        f"Result entered for {_where(match, board)}",
        _result_data(before),
        _result_data(result),
    )
    _bump_results(tournament)
    return result


def _check_table_result(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
        raise InvalidEntry(f"{name} must be a whole number of points", field=name)
    return value


@atomic_service
def director_adjust(
    *, match_id: int, board_number: int, user: Any, ns: Any, ew: Any, reason: str
) -> Result:
    """An adjusted result: two table results and a reason, kept beside the scorers' entry."""
    ns = _check_table_result("ns", ns)
    ew = _check_table_result("ew", ew)
    reason = _check_reason(reason, required=True)
    match, board, before = _director_context(match_id, board_number)
    review = Review.objects.create(
        match=match, board=board, action=Review.Action.ADJUST, user=user, reason=reason
    )
    result = _make_current(
        match,
        board,
        kind=Result.Kind.ADJUSTED,
        review=review,
        submission=None,
        ns=ns,
        ew=ew,
        reason=reason,
    )
    tournament = match.table.tournament
    _log(
        tournament,
        user,
        "adjust",
        f"Adjusted result for {_where(match, board)}: {reason}",
        _result_data(before),
        _result_data(result),
    )
    _bump_results(tournament)
    return result


@atomic_service
def director_erase(*, match_id: int, board_number: int, user: Any, reason: str) -> Review:
    """Erase the board's result: the match is unplayed again (its history stays)."""
    reason = _check_reason(reason, required=True)
    match, board, before = _director_context(match_id, board_number)
    review = Review.objects.create(
        match=match, board=board, action=Review.Action.ERASE, user=user, reason=reason
    )
    Result.objects.filter(match=match, board=board, current=True).update(
        current=False, ended_at=timezone.now()
    )
    tournament = match.table.tournament
    _log(
        tournament,
        user,
        "erase",
        f"Result erased for {_where(match, board)}: {reason}",
        _result_data(before),
        None,
    )
    if before is not None:
        _bump_results(tournament)
    return review
