"""Simulated play of a tournament: for the demo, tests and benchmarks.

Every simulated result is an actual play of the table's deal by the game's simple legal player
(``Game.simulate_record``). The entries go through the same services as the scorers' phones:
North enters (``scoring.services.submit_entry``) and East accepts (``accept_entry``); with a
dispute (for a game that can make up North's mistakes, ``Game.mistaken_entries``), East
rejects twice and the director enters the result. So a simulated tournament
holds the same rows, history, log entries and standings as a played one.

Randomness comes from one seed: each board's play depends only on the seed, the round, the
table and the board, so the same seed always gives the same results whichever rounds are
simulated in one go.
"""

from __future__ import annotations

import secrets
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from django.db import transaction
from django.db.models import Count, Q

from engine.core.words import plural
from scoring import services as scoring
from scoring import sheets, states
from scoring.errors import ScoringError
from scoring.models import Result, Submission
from scoring.services import board_state
from tournaments import services
from tournaments.models import Board, Match, Status, Tournament
from tournaments.services import ServiceError

REJECT_REASONS = (
    "Nobody doubled at our table.",
    "The trick count is wrong: we counted again with North.",
)
DIRECTOR_REASON = "Director: result established with both teams at the table (simulated)."

Progress = Callable[[int, int, str], None]


class SimulationError(Exception):
    """The tournament cannot be simulated now; ``messages`` lists every reason."""

    def __init__(self, messages: str | list[str]):
        self.messages = [messages] if isinstance(messages, str) else list(messages)
        super().__init__("; ".join(self.messages))


# --- one board -----------------------------------------------------------------------------


def board_rng(seed: str, round_number: int, table_number: int, board_number: int) -> Random:
    """The random source of one board of one match (independent of every other board)."""
    return Random(f"{seed}:{round_number}:{table_number}:{board_number}")


def simulated_record(match: Match, board: Board, seed: str) -> dict[str, Any]:
    """The board record of ``board`` as the game's simple player plays it at ``match`` (the
    same seed gives the same play); a declarer who keeps a score sheet chooses only among the
    declarations left on it."""
    tournament = match.table.tournament
    game = tournament.game_rules
    context: dict[str, Any] = {"players": match.table.size, "dealer": board.dealer}
    found = sheets.match_sheets(tournament, match).get(board.number)
    if found is not None:
        options = game.entry_options(calls=found["used"], direction=tournament.direction, **context)
        context["declarations"] = options["declarations"]
    rng = board_rng(seed, match.round, match.table.number, board.number)
    return game.simulate_record(
        board.parsed(),
        rng,
        tournament.rules,
        table=match.table.number,
        declarations=context.get("declarations"),
    )


def north_facts(match: Match, board: Board, seed: str) -> dict[str, Any]:
    """North's entry of the board as the simulation plays it, for any game."""
    game = match.table.tournament.game_rules
    record = simulated_record(match, board, seed)
    return game.scorer_facts(record, game.score(record))


# --- a tournament ----------------------------------------------------------------------------


@dataclass
class Dispute:
    round: int
    table: int
    board: int
    match_id: int
    rejections: int


@dataclass
class SimulationReport:
    seed: str
    rounds: list[int] = field(default_factory=list)
    matches: int = 0
    boards: int = 0
    passed_out: int = 0
    made: int = 0
    # Individual games: how many boards ended each way the game counts (Game.outcome).
    outcomes: Counter[tuple[str, str]] = field(default_factory=Counter)
    dispute: Dispute | None = None
    started: bool = False
    # Boards left alone because a real table's director call is open on them.
    open_calls: list[str] = field(default_factory=list)

    @property
    def nothing_to_play(self) -> bool:
        return not self.rounds


def _check_playable(tournament: Tournament) -> None:
    if tournament.status == Status.DRAFT:
        raise SimulationError(
            f"{tournament.slug} is a draft: draw up the schedule and deal the boards first"
        )
    if tournament.status == Status.FINAL:
        raise SimulationError(f"{tournament.slug} is final: reopen it before playing more")
    missing = Board.objects.filter(table__tournament=tournament).count()
    wanted = tournament.tables.count() * tournament.boards_per_table
    if missing < wanted:
        raise SimulationError(
            f"{tournament.slug}: {plural(wanted - missing, 'board')} without a deal yet; "
            "deal them first"
        )


def _start_if_scheduled(tournament: Tournament, by: Any) -> bool:
    if tournament.status != Status.SCHEDULED:
        return False
    try:
        services.start_tournament(by=by, tournament=tournament)
    except ServiceError as exc:
        raise SimulationError(["cannot start the tournament:", *exc.messages]) from None
    tournament.refresh_from_db()
    return True


def rounds_to_play(tournament: Tournament) -> list[int]:
    """Rounds holding a match with a board that has no current result, earliest first."""
    boards = tournament.boards_per_table
    matches = Match.objects.filter(table__tournament=tournament).annotate(
        done=Count("results", filter=Q(results__current=True))
    )
    return sorted({match.round for match in matches if match.done < boards})


def _open_boards(tournament: Tournament, round_number: int) -> list[tuple[Match, Board]]:
    matches = (
        Match.objects.filter(table__tournament=tournament, round=round_number)
        .select_related("table__tournament", "north_entrant", "east_entrant")
        .order_by("table__number")
    )
    done = set(
        Result.objects.filter(match__in=matches, current=True).values_list("match_id", "board_id")
    )
    pairs = []
    for match in matches:
        for board in match.table.boards.order_by("number"):
            if (match.pk, board.pk) not in done:
                pairs.append((match, board))
    return pairs


def _client_id() -> str:
    return f"sim-{uuid.uuid4().hex}"


def _enter(match: Match, board: Board, facts: dict[str, Any]) -> Submission:
    """North's entry of ``facts``: the submission stored."""
    return scoring.submit_entry(
        match_id=match.pk,
        board_number=board.number,
        entrant=match.north_entrant,
        facts=facts,
        client_id=_client_id(),
    )


def _enter_and_accept(match: Match, board: Board, facts: dict[str, Any]) -> Result:
    return _accept(match, board, _enter(match, board, facts).pk)


def _accept(match: Match, board: Board, submission_id: int) -> Result:
    return scoring.accept_entry(
        match_id=match.pk,
        board_number=board.number,
        entrant=match.east_entrant,
        submission_id=submission_id,
        client_id=_client_id(),
    )


def _director_enters(match: Match, board: Board, facts: dict[str, Any], director: Any) -> Result:
    return scoring.director_enter_result(
        match_id=match.pk,
        board_number=board.number,
        user=director,
        facts=facts,
        reason=DIRECTOR_REASON,
        client_id=_client_id(),
    )


def play_disputed(
    match: Match, board: Board, facts: dict[str, Any], mistakes: list[dict[str, Any]], director: Any
) -> Dispute:
    """North enters a mistake, East rejects; North corrects it wrongly, East rejects again (the
    board is disputed); the director enters what was played (``facts``)."""
    rejections = 0
    for wrong, reason in zip(mistakes, REJECT_REASONS, strict=True):
        submission = _enter(match, board, wrong)
        scoring.reject_entry(
            match_id=match.pk,
            board_number=board.number,
            entrant=match.east_entrant,
            submission_id=submission.pk,
            reason=reason,
            client_id=_client_id(),
        )
        rejections += 1
    _director_enters(match, board, facts, director)
    return Dispute(match.round, match.table.number, board.number, match.pk, rejections)


def _settle(match: Match, board: Board, facts: dict[str, Any]) -> bool:
    """Bring one board to a result from whatever state real scorers left it in; False for a
    board whose director call is open: that is the director's to rule on, never the
    simulation's (the report lists it)."""
    current = board_state(match, board)
    if current.state == states.DISPUTED:
        return False
    if current.state in (states.EMPTY, states.RETURNED):
        _enter_and_accept(match, board, facts)
    elif current.state == states.AWAITING_EAST:
        _accept(match, board, current.pending.pk)
    return True


def simulate_tournament(
    tournament: Tournament,
    *,
    rounds: int | None = 1,
    seed: str | None = None,
    dispute: bool = False,
    by: Any = None,
    progress: Progress | None = None,
) -> SimulationReport:
    """Play the earliest ``rounds`` rounds that still lack results (``None``: every round).

    A scheduled tournament is started first (as its organiser would). With ``dispute`` one
    board of the first round played goes through the dispute path; ``by`` is the director
    (and the organiser named in the log), None for the command line.
    """
    if rounds is not None and rounds < 1:
        raise SimulationError("the number of rounds must be at least 1")
    tournament = Tournament.objects.get(pk=tournament.pk)
    _check_playable(tournament)
    report = SimulationReport(seed=seed or secrets.token_hex(4))
    report.started = _start_if_scheduled(tournament, by)
    chosen = rounds_to_play(tournament)
    report.rounds = chosen if rounds is None else chosen[:rounds]
    work = {number: _open_boards(tournament, number) for number in report.rounds}
    total = sum(len(pairs) for pairs in work.values())
    done = 0
    for number in report.rounds:
        # One transaction a round: the standings follow once per round, not once per board.
        with transaction.atomic():
            for match, board in work[number]:
                if not _play_one(tournament, match, board, report, dispute=dispute, by=by):
                    continue
                done += 1
                if progress is not None:
                    progress(done, total, f"round {number}, table {match.table.number}")
        report.matches += len({match.pk for match, _board in work[number]})
    return report


def _play_one(
    tournament: Tournament,
    match: Match,
    board: Board,
    report: SimulationReport,
    *,
    dispute: bool,
    by: Any,
) -> bool:
    """Play ``board`` of ``match`` and count it in ``report`` (the first board that can be
    disputed through the dispute path, with ``dispute``); False when the entry went to the
    director (an open call), which is not counted."""
    game = tournament.game_rules
    try:
        record = simulated_record(match, board, report.seed)
        score = game.score(record)
        facts = game.scorer_facts(record, score)
        mistakes = game.mistaken_entries(facts, score) if dispute and not report.dispute else []
        if mistakes and board_state(match, board).state == states.EMPTY:
            report.dispute = play_disputed(match, board, facts, mistakes, by)
        elif not _settle(match, board, facts):
            report.open_calls.append(
                f"round {match.round}, table {match.table.number}, board {board.number}"
            )
            return False
    except ScoringError as exc:
        raise SimulationError(
            f"round {match.round}, table {match.table.number}, board {board.number}: {exc}"
        ) from None
    report.boards += 1
    report.passed_out += bool(score.get("passed_out"))
    score = _settled_score(match, board)
    report.made += bool(score.get("made", score.get("exact")))
    found = tournament.game_rules.outcome(score) if score else None
    if found is not None:
        report.outcomes[found] += 1
    return True


def _settled_score(match: Match, board: Board) -> dict[str, Any]:
    """The score of the board's current result; empty when it has none from an entry."""
    result = Result.objects.filter(match=match, board=board, current=True).first()
    if result is None or result.submission is None:
        return {}
    return result.submission.score
