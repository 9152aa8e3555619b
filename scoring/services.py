"""Writes of the scorer's side: North enters, East checks, the director rules.

Every function is keyword-only and atomic. The match row is locked (``select_for_update``)
before its state is read, so two phones acting on one match at once are serialised: exactly one
confirmation wins, and a re-sent entry finds the row its first send made.
"""

from __future__ import annotations

import functools
import logging
from collections import defaultdict
from collections.abc import Callable
from typing import Any, TypeVar

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.core.errors import RecordError
from scoring import sheets, standings, states
from scoring.board_lock import LockedBoard, lock_board
from scoring.errors import InvalidEntry, NoLongerStands, NotAllowed, NotFound, WrongState
from scoring.models import BoardProgress, Result, Review, Submission
from scoring.rows import RowInserter, RowUpdater
from tournaments.action_log import write_log, write_task_log
from tournaments.models import ActionLog, Board, Entrant, Match, MatchSeat, Status, Tournament
from tournaments.templatetags.languages import translated

log = logging.getLogger(__name__)
# The rows every result makes, inserted with statements built once (see scoring.rows).
NEW_SUBMISSION = RowInserter(Submission)
NEW_REVIEW = RowInserter(Review)
NEW_RESULT = RowInserter(Result)
NEW_PROGRESS = RowInserter(BoardProgress)
PROGRESS_UPDATE = RowUpdater(
    BoardProgress, ["updated_at", "state", "pending_id", "rejections", "last_reason"]
)
T = TypeVar("T")

CLIENT_ID_MAX = 64
REASON_MAX = 1000
# Times the players may re-open a board that has a result to the director (each with a
# reason, each logged); beyond it they speak to the director at the table.
REDISPUTES_PER_BOARD = 3


def atomic_service(function: Callable[..., T]) -> Callable[..., T]:
    """Run in one transaction; a clash with a unique constraint (two phones at once on a
    database without row locks) is reported as a conflict, not a server error."""

    @functools.wraps(function)
    def wrapped(*args: Any, **kwargs: Any) -> T:
        try:
            with transaction.atomic():
                return function(*args, **kwargs)
        except IntegrityError:
            raise WrongState(
                _("the board changed at the same time; reload and try again")
            ) from None

    return wrapped


def board_record(match: Match, board: Board, facts: Any, *, deal: str = "") -> dict[str, Any]:
    """The full board record: the scorer's facts plus the tournament's rules for this board;
    with ``deal``, the board's deal on file too."""
    if not isinstance(facts, dict):
        raise InvalidEntry(_("the entry must be a JSON object"), field="record")
    tournament = match.table.tournament
    game = tournament.game_rules
    unknown = sorted(set(facts) - game.entry_fields, key=str)
    if unknown:
        raise InvalidEntry(
            _("%(field)s is not entered by the scorer (allowed: %(allowed)s)")
            % {"field": repr(unknown[0]), "allowed": ", ".join(sorted(game.entry_fields))},
            field=str(unknown[0]),
        )
    return game.entry_record(
        facts,
        settings=tournament.rules,
        table=match.table.number,
        players=match.table.size,
        dealer=board.dealer,
        deal=deal,
    )


def score_entry(match: Match, board: Board, facts: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(record, score)`` of what the scorer entered, read without the board's deal, or
    InvalidEntry naming the field: an entry wrong whatever the deal holds (an illegal call,
    impossible points, a fact a tournament entry must give). Whether it agrees with the deal
    is ``deal_disagreement``'s question, never answered to the table."""
    game = match.table.tournament.game_rules
    record = board_record(match, board, facts)
    try:
        score = game.score(record)
    except RecordError as exc:
        raise InvalidEntry(str(translated(exc.words)), field=exc.field) from None
    problem = game.entry_problem(record, score)
    if problem is not None:
        raise InvalidEntry(str(translated(problem)), field=problem.field)
    return record, score


def deal_disagreement(match: Match, board: Board, facts: Any, score: dict[str, Any]) -> str:
    """Why an entry (``score``: as ``score_entry`` read it) disagrees with the board's deal on
    file, in words for the director; empty when it agrees or no deal is on file."""
    if not board.deal:
        return ""
    game = match.table.tournament.game_rules
    return game.deal_disagreement(board_record(match, board, facts, deal=board.deal), score) or ""


def check_sheet(match: Match, board: Board, score: dict[str, Any]) -> None:
    """In a game with score sheets, the declarer's sheet must have room for his call, counted
    over the results stored on it. His row is locked first, so two results racing for his last
    place cannot both be stored."""
    tournament = match.table.tournament
    game = tournament.game_rules
    used = game.declaration(score)
    if used is None:
        return
    seat, value = used
    player = sheets.player_at(match, seat)
    Entrant.objects.select_for_update(of=("self",)).filter(pk=player.pk).first()
    sheet, on_sheet = sheets.sheet_of_board(tournament, player, match, board)
    problem = game.sheet_problem(seat, sheet, on_sheet, value)
    if problem:
        # The engine's words (a full sheet names what is left), in the reader's language.
        raise InvalidEntry(translated(problem), field="declared")


def table_results(score: dict[str, Any]) -> dict[str, Any]:
    """The columns a submission or result keeps of a score: North's and East's results (for
    pairs, North-South's and East-West's)."""
    seats = score["seats"]
    return {"north_result": seats.get("N"), "east_result": seats.get("E")}


def _lock(
    match_id: int,
    board_number: int,
    *,
    tournament: Tournament | None = None,
    client_id: str = "",
    acting_entrant_id: int | None = None,
) -> LockedBoard:
    """The board as it stands, its match row locked until the transaction ends; NotFound for
    a match of another tournament (given the one the caller acts in) or a missing board."""
    locked = lock_board(
        match_id,
        board_number,
        tournament=tournament,
        client_id=client_id,
        acting_entrant_id=acting_entrant_id,
    )
    if locked is None:
        raise NotFound(_("no such match in this tournament"))
    if tournament is None:
        tournament = Tournament.objects.get(pk=locked.match.table.tournament_id)
        locked.match.table.tournament = tournament
    # The status as read under the lock, not as the caller found it before the transaction:
    # the tournament may have been finalised since.
    tournament.status = locked.tournament_status
    if locked.board is None:
        raise NotFound(
            _("table %(table)s has no board %(board)s")
            % {"table": locked.match.table.number, "board": board_number}
        )
    return locked


def _advance(locked: LockedBoard, step: Callable[[states.BoardState], None]) -> None:
    """Move the board's stored progress on by one step of the fold (``states``), in the
    transaction that appends the history row the step stands for."""
    step(locked.state)
    values = states.progress_fields(locked.state)
    if locked.progress_id is None:
        progress = NEW_PROGRESS.create(
            using=connection.alias, match_id=locked.match.pk, board_id=locked.board.pk, **values
        )
        locked.progress_id = progress.pk
    else:
        PROGRESS_UPDATE.update(
            locked.progress_id, using=connection.alias, updated_at=timezone.now(), **values
        )


def rebuild_progress(match_ids: list[int]) -> int:
    """Fold the whole history of these matches into their progress rows: for history written
    in bulk rather than through these services (a restored backup). Returns the rows made."""
    history: dict[tuple[int, int], tuple[list, list]] = defaultdict(lambda: ([], []))
    for submission in Submission.objects.filter(match_id__in=match_ids):
        history[(submission.match_id, submission.board_id)][0].append(submission)
    for review in Review.objects.filter(match_id__in=match_ids):
        history[(review.match_id, review.board_id)][1].append(review)
    BoardProgress.objects.filter(match_id__in=match_ids).delete()
    rows = []
    for (match_id, board_id), (submissions, reviews) in history.items():
        folded = states.progress_fields(states.fold(submissions, reviews))
        rows.append(BoardProgress(match_id=match_id, board_id=board_id, **folded))
    BoardProgress.objects.bulk_create(rows, batch_size=1000)
    return len(rows)


def board_of(match: Match, board_number: int) -> Board:
    try:
        return Board.objects.get(table=match.table, number=board_number)
    except Board.DoesNotExist:
        raise NotFound(
            _("table %(table)s has no board %(board)s")
            % {"table": match.table.number, "board": board_number}
        ) from None


def _check_open(tournament: Tournament) -> None:
    if tournament.status == Status.FINAL:
        raise WrongState(_("the tournament is final: results can change only after a reopen"))
    if tournament.status == Status.DRAFT:
        raise WrongState(_("the tournament has no schedule yet"))


def _check_client_id(client_id: str) -> None:
    if not isinstance(client_id, str) or not 8 <= len(client_id) <= CLIENT_ID_MAX:
        raise InvalidEntry(_("client_id must be a string of 8 to 64 characters"), field="client_id")


def _check_reason(reason: str, required: bool) -> str:
    reason = (reason or "").strip()
    if required and not reason:
        raise InvalidEntry(_("give a reason"), field="reason")
    if len(reason) > REASON_MAX:
        raise InvalidEntry(
            _("the reason is longer than %(count)s characters") % {"count": REASON_MAX},
            field="reason",
        )
    return reason


def board_state(match: Match, board: Board) -> states.BoardState:
    """The board's state with its full history, folded from the history rows."""
    return states.fold(
        list(Submission.objects.filter(match=match, board=board)),
        list(Review.objects.filter(match=match, board=board)),
    )


def _entrant_may_act_on(locked: LockedBoard) -> None:
    """A team acts on its current match or an earlier one, never on a later one: its current
    match is the first of its matches (in round order) on which nothing has been entered."""
    if locked.untouched_round is not None:
        raise NotAllowed(
            _("round %(round)s is not played yet: your current match is round %(current)s")
            % {"round": locked.match.round, "current": locked.untouched_round}
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
    entrant: Entrant,
    facts: Any,
    client_id: str,
    remote_addr: str | None = None,
) -> Submission:
    """North's entry for one board. A re-send with the same client id returns the first row."""
    _check_client_id(client_id)
    locked = _lock(
        match_id,
        board_number,
        tournament=entrant.tournament,
        client_id=client_id,
        acting_entrant_id=entrant.pk,
    )
    if locked.entry_with_client_id is not None:
        existing = Submission.objects.select_related("board").get(pk=locked.entry_with_client_id)
        if existing.entrant_id != entrant.pk:
            raise NotAllowed(_("that entry id belongs to another team"), field="client_id")
        if existing.board_id != locked.board.pk:
            raise WrongState(_("that entry id was used for another board"), field="client_id")
        _entry_stands(locked, existing)
        existing.resent = True  # tells the caller nothing new was stored
        return existing
    match = locked.match
    if entrant.pk != match.north_entrant_id:
        raise NotAllowed(_("only the North-South team of this match enters its result"))
    _check_open(entrant.tournament)
    _entrant_may_act_on(locked)
    if locked.state.state in (states.CONFIRMED, states.ADJUSTED):
        raise WrongState(_("this board already has a confirmed result; ask the director"))
    if locked.state.state == states.DISPUTED:
        raise WrongState(_("this board is with the director"))
    record, score = score_entry(match, locked.board, facts)
    check_sheet(match, locked.board, score)
    disagreement = deal_disagreement(match, locked.board, facts, score)
    submission = NEW_SUBMISSION.create(
        using=connection.alias,
        match=match,
        board=locked.board,
        source=Submission.Source.NORTH,
        entrant=entrant,
        seat="N",
        client_id=client_id,
        remote_addr=remote_addr,
        record=record,
        score=score,
        deal_disagreement=disagreement,
        **table_results(score),
    )
    _advance(locked, lambda board: states.apply_entry(board, submission))
    if disagreement:
        _call_director_to_the_deal(locked, submission)
    return submission


#: What the table reads when its entry disagrees with the deal on file: that the director is
#: called, and nothing of what the deal holds (GAMES.md, "What the phone may learn").
DEAL_CHECK_REASON = "the entry is to be checked by the director"


def _call_director_to_the_deal(locked: LockedBoard, submission: Submission) -> None:
    """North's entry disagrees with the board's deal: it stays as entered, and the board goes
    to the director, who sees the entry, the deal and why they differ."""
    _review(locked, Review.Action.CALL_DIRECTOR, submission=submission, reason=DEAL_CHECK_REASON)
    tournament = locked.match.table.tournament
    write_task_log(
        tournament,
        None,
        "deal_disagreement",
        f"Entry for {_where(locked)} disagrees with the deal; director called",
        None,
        {"entry": submission.pk, "disagreement": submission.deal_disagreement},
    )


def _lock_for_review(
    match_id: int, board_number: int, entrant: Entrant, client_id: str, action: str
) -> tuple[LockedBoard, Review | None]:
    """The locked board and the review this team already made with this client id (for
    ``action`` on this board; WrongState for an id used otherwise)."""
    _check_client_id(client_id)
    locked = _lock(match_id, board_number, tournament=entrant.tournament, client_id=client_id)
    if locked.review_with_client_id is None:
        return locked, None
    review = Review.objects.get(pk=locked.review_with_client_id)
    if review.entrant_id != entrant.pk:
        raise NotAllowed(_("that action id belongs to another team"), field="client_id")
    if review.action != action:
        raise WrongState(_("that action id was used for another action"), field="client_id")
    if review.board_id != locked.board.pk:
        raise WrongState(_("that action id was used for another board"), field="client_id")
    return locked, review


# What happened to a board since a re-sent action, by the latest review on it.
SINCE = {
    Review.Action.ACCEPT: gettext_noop("East has accepted another entry since"),
    Review.Action.REJECT: gettext_noop("East has rejected the entry since"),
    Review.Action.CALL_DIRECTOR: gettext_noop("the board has gone to the director since"),
    Review.Action.DIRECTOR_ENTRY: gettext_noop("the director has entered another result since"),
    Review.Action.ADJUST: gettext_noop("the director has given an adjusted result since"),
    Review.Action.ERASE: gettext_noop("the director has erased the board's result since"),
}


def _latest_review(locked: LockedBoard) -> Review | None:
    return (
        Review.objects.filter(match=locked.match, board=locked.board)
        .order_by("-created_at", "-id")
        .first()
    )


def _gone(what: str, locked: LockedBoard) -> NoLongerStands:
    """The 409 of a re-sent action whose row no longer stands, saying what happened since."""
    if locked.state.pending is not None:
        since = _("North has entered the board again since")
    else:
        latest = _latest_review(locked)
        since = SINCE.get(latest.action, "") if latest is not None else ""
        since = _(since) if since else _("the board has changed since")
    return NoLongerStands(
        _("%(what)s no longer stands: %(since)s. Reload the board to see where it stands.")
        % {"what": _(what), "since": since},
        field="client_id",
    )


def _entry_stands(locked: LockedBoard, submission: Submission) -> None:
    """A re-sent entry stands while it awaits East (or the director, who was called to it) or
    is the board's current result; otherwise NoLongerStands."""
    pending = locked.state.pending
    if pending is not None and pending.pk == submission.pk:
        return
    if Result.objects.filter(
        match=locked.match, board=locked.board, current=True, submission_id=submission.pk
    ).exists():
        return
    raise _gone(gettext_noop("This entry"), locked)


def _review_stands(locked: LockedBoard, review: Review, what: str) -> None:
    """A re-sent rejection or call stands while the board is where it left it: nothing entered
    or ruled on it since."""
    latest = _latest_review(locked)
    if locked.state.pending is None and latest is not None and latest.pk == review.pk:
        return
    raise _gone(what, locked)


def _pending_for_east(locked: LockedBoard, submission_id: int) -> Submission:
    current = locked.state
    if current.state != states.AWAITING_EAST:
        raise WrongState(
            _("nothing awaits East's check here (%(state)s)") % {"state": current.label.lower()}
        )
    if current.pending.pk != submission_id:
        raise WrongState(_("North has changed the entry since you loaded it; check the new one"))
    return current.pending


def _review(locked: LockedBoard, action: str, **fields: Any) -> Review:
    """Append a verdict on the board and move its progress on."""
    review = NEW_REVIEW.create(
        using=connection.alias, match=locked.match, board=locked.board, action=action, **fields
    )
    _advance(locked, lambda board: states.apply_review(board, review.action, review.reason))
    return review


@atomic_service
def accept_entry(
    *,
    match_id: int,
    board_number: int,
    entrant: Entrant,
    submission_id: int,
    client_id: str,
    remote_addr: str | None = None,
) -> Result:
    """East accepts North's entry: it becomes the board's confirmed result."""
    locked, again = _lock_for_review(
        match_id, board_number, entrant, client_id, Review.Action.ACCEPT
    )
    if again is not None:
        result = again.result
        if not result.current:
            raise _gone(gettext_noop("The result you accepted"), locked)
        return result
    if entrant.pk != locked.match.east_entrant_id:
        raise NotAllowed(_("only the East-West team of this match checks its result"))
    tournament = entrant.tournament
    _check_open(tournament)
    submission = _pending_for_east(locked, submission_id)
    check_sheet(locked.match, locked.board, submission.score)
    review = _review(
        locked,
        Review.Action.ACCEPT,
        submission=submission,
        entrant=entrant,
        client_id=client_id,
        remote_addr=remote_addr,
    )
    result = _make_current(
        locked,
        kind=Result.Kind.CONFIRMED,
        review=review,
        submission=submission,
        ns=submission.north_result,
        ew=submission.east_result,
        seats=submission.score["seats"] if tournament.of_players else None,
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
    entrant: Entrant,
    submission_id: int,
    reason: str,
    client_id: str,
    remote_addr: str | None = None,
) -> Review:
    """East rejects North's entry with a reason; a second rejection calls the director."""
    reason = _check_reason(reason, required=True)
    locked, again = _lock_for_review(
        match_id, board_number, entrant, client_id, Review.Action.REJECT
    )
    if again is not None:
        _review_stands(locked, again, gettext_noop("Your rejection"))
        return again
    if entrant.pk != locked.match.east_entrant_id:
        raise NotAllowed(_("only the East-West team of this match checks its result"))
    _check_open(entrant.tournament)
    submission = _pending_for_east(locked, submission_id)
    return _review(
        locked,
        Review.Action.REJECT,
        submission=submission,
        entrant=entrant,
        reason=reason,
        client_id=client_id,
        remote_addr=remote_addr,
    )


@atomic_service
def call_director(
    *,
    match_id: int,
    board_number: int,
    entrant: Entrant,
    reason: str,
    client_id: str,
    remote_addr: str | None = None,
) -> Review:
    """Either team of the match flags the board for the director.

    One call is open per board: while the board is with the director (called, or rejected
    twice) a call answers with the review that sent it there, and stores nothing. A board
    with a result is re-opened only with a reason, at most ``REDISPUTES_PER_BOARD`` times,
    each logged in the action log."""
    reason = _check_reason(reason, required=False)
    locked, again = _lock_for_review(
        match_id, board_number, entrant, client_id, Review.Action.CALL_DIRECTOR
    )
    if again is not None:
        _review_stands(locked, again, gettext_noop("Your call for the director"))
        return again
    _check_plays_in(locked.match, entrant)
    tournament = entrant.tournament
    _check_open(tournament)
    if locked.state.state == states.DISPUTED:
        open_call = _latest_review(locked)
        if open_call is not None:
            open_call.already_open = True  # tells the caller nothing new was stored
            return open_call
    settled = locked.state.has_result
    if settled:
        _check_may_reopen(locked, reason)
    review = _review(
        locked,
        Review.Action.CALL_DIRECTOR,
        entrant=entrant,
        reason=reason or "director called",
        client_id=client_id,
        remote_addr=remote_addr,
    )
    if settled:
        write_log(
            tournament=tournament,
            by=None,
            action=REDISPUTE,
            summary=f"Team {entrant.number} called the director to {_where(locked)}, which has "
            f"a result: {reason}",
            before=_result_data(_current_result(locked)),
            after={"match": locked.match.pk, "board": locked.board.number, "review": review.pk},
            unattended=f"team {entrant.number}",
        )
    return review


def _check_plays_in(match: Match, entrant: Entrant) -> None:
    """Only an entrant of the match (a pair at it, or a player seated there) calls."""
    if entrant.pk in (match.north_entrant_id, match.east_entrant_id):
        return
    if not MatchSeat.objects.filter(match=match, entrant=entrant).exists():
        raise NotAllowed(_("only the players of this match may call the director here"))


def _check_may_reopen(locked: LockedBoard, reason: str) -> None:
    """A board with a result is called to again only with a reason, and at most
    ``REDISPUTES_PER_BOARD`` times."""
    if not reason:
        raise InvalidEntry(
            _("this board already has a result: say why you call the director to it again"),
            field="reason",
        )
    disputes = _redisputes(locked)
    if disputes >= REDISPUTES_PER_BOARD:
        raise WrongState(
            _(
                "this board's result has been questioned %(count)s times already; "
                "speak to the director at the table"
            )
            % {"count": disputes}
        )


REDISPUTE = "redispute"


def _current_result(locked: LockedBoard) -> Result | None:
    return Result.objects.filter(match=locked.match, board=locked.board, current=True).first()


def _redisputes(locked: LockedBoard) -> int:
    """How often the players have re-opened this board, which had a result, to the director:
    the action log's entries for it."""
    return ActionLog.objects.filter(
        tournament_id=locked.match.table.tournament_id,
        action=REDISPUTE,
        after__match=locked.match.pk,
        after__board=locked.board.number,
    ).count()


def _make_current(
    locked: LockedBoard,
    *,
    kind: str,
    review: Review,
    submission: Submission | None,
    ns: int | None,
    ew: int | None,
    seats: dict[str, int] | None = None,
    passed_out: bool = False,
    reason: str = "",
    replaces: bool = True,
) -> Result:
    """Retire the board's current result (kept, marked not current) and store the new one.
    ``replaces=False`` where the board's state shows it has none (East's check)."""
    if replaces:
        _retire_current(locked)
    return NEW_RESULT.create(
        using=connection.alias,
        match=locked.match,
        board=locked.board,
        kind=kind,
        review=review,
        submission=submission,
        north_result=ns,
        east_result=ew,
        seats=seats,
        passed_out=passed_out,
        reason=reason,
    )


def _retire_current(locked: LockedBoard) -> None:
    Result.objects.filter(match=locked.match, board=locked.board, current=True).update(
        current=False, ended_at=timezone.now()
    )


def _result_data(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "kind": result.kind,
        "ns": result.north_result,
        "ew": result.east_result,
        "passed_out": result.passed_out,
        "reason": result.reason,
    }


def _director_context(match_id: int, board_number: int) -> tuple[LockedBoard, Result | None]:
    locked = _lock(match_id, board_number)
    if locked.match.table.tournament.status == Status.FINAL:
        raise WrongState(_("the tournament is final: reopen it before changing results"))
    current = Result.objects.filter(match=locked.match, board=locked.board, current=True).first()
    return locked, current


def _where(locked: LockedBoard) -> str:
    match = locked.match
    return f"round {match.round}, table {match.table.number}, board {locked.board.number}"


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
    locked, before = _director_context(match_id, board_number)
    record, score = score_entry(locked.match, locked.board, facts)
    disagreement = deal_disagreement(locked.match, locked.board, facts, score)
    if disagreement:
        raise InvalidEntry(
            _(
                "this entry disagrees with the board's deal on file (%(why)s); enter what "
                "the deal allows, or give an adjusted result"
            )
            % {"why": disagreement},
            field="deal",
        )
    if before is not None:
        _retire_current(locked)  # a correction frees the place its result held on a sheet
    check_sheet(locked.match, locked.board, score)
    submission = Submission.objects.create(
        match=locked.match,
        board=locked.board,
        source=Submission.Source.DIRECTOR,
        user=user,
        client_id=client_id,
        record=record,
        score=score,
        **table_results(score),
    )
    _advance(locked, lambda board: states.apply_entry(board, submission))
    review = _review(
        locked, Review.Action.DIRECTOR_ENTRY, submission=submission, user=user, reason=reason
    )
    result = _make_current(
        locked,
        kind=Result.Kind.DIRECTOR,
        review=review,
        submission=submission,
        ns=score["seats"].get("N"),
        ew=score["seats"].get("E"),
        seats=score["seats"] if locked.match.table.tournament.of_players else None,
        passed_out=score.get("passed_out", False),
        reason=reason,
        replaces=False,
    )
    tournament = locked.match.table.tournament
    write_task_log(
        tournament,
        user,
        "director_entry",
        f"Result entered for {_where(locked)}",
        _result_data(before),
        _result_data(result),
    )
    _bump_results(tournament)
    return result


def _check_table_result(name: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > 1_000_000:
        raise InvalidEntry(
            _("%(name)s must be a whole number of points") % {"name": name}, field=name
        )
    return value


def _check_seat_results(match: Match, seats: Any) -> dict[str, int]:
    """One whole-number table result for every seat of the match, and no other."""
    wanted = list(match.table.seats)
    if not isinstance(seats, dict):
        raise InvalidEntry(
            _("give a table result for each of %(seats)s") % {"seats": ", ".join(wanted)},
            field="seats",
        )
    for seat in seats:
        if seat not in wanted:
            raise InvalidEntry(
                _("%(seat)s is not a seat of this table") % {"seat": repr(seat)}, field="seats"
            )
    return {seat: _check_table_result(seat, seats.get(seat)) for seat in wanted}


@atomic_service
def director_adjust(
    *,
    match_id: int,
    board_number: int,
    user: Any,
    reason: str,
    ns: Any = None,
    ew: Any = None,
    seats: Any = None,
) -> Result:
    """An adjusted result and a reason, kept beside the scorers' entry: two table results
    (``ns``, ``ew``) for pairs, one per seat of the table (``seats``) for individuals."""
    reason = _check_reason(reason, required=True)
    locked, before = _director_context(match_id, board_number)
    if locked.match.table.tournament.of_players:
        seats = _check_seat_results(locked.match, seats)
        ns, ew = seats.get("N"), seats.get("E")
    else:
        ns = _check_table_result("ns", ns)
        ew = _check_table_result("ew", ew)
        seats = None
    review = _review(locked, Review.Action.ADJUST, user=user, reason=reason)
    result = _make_current(
        locked,
        kind=Result.Kind.ADJUSTED,
        review=review,
        submission=None,
        ns=ns,
        ew=ew,
        seats=seats,
        reason=reason,
    )
    tournament = locked.match.table.tournament
    write_task_log(
        tournament,
        user,
        "adjust",
        f"Adjusted result for {_where(locked)}: {reason}",
        _result_data(before),
        _result_data(result),
    )
    _bump_results(tournament)
    return result


@atomic_service
def director_erase(*, match_id: int, board_number: int, user: Any, reason: str) -> Review:
    """Erase the board's result: the match is unplayed again (its history stays)."""
    reason = _check_reason(reason, required=True)
    locked, before = _director_context(match_id, board_number)
    review = _review(locked, Review.Action.ERASE, user=user, reason=reason)
    _retire_current(locked)
    tournament = locked.match.table.tournament
    write_task_log(
        tournament,
        user,
        "erase",
        f"Result erased for {_where(locked)}: {reason}",
        _result_data(before),
        None,
    )
    if before is not None:
        _bump_results(tournament)
    return review
