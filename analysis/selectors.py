"""What pages show of the analyses: a board's table as its game lays it out, only while it was
solved from the deal on file; how far the job has come."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max

from analysis.models import BoardAnalysis
from tournaments.models import Board, Tournament

Status = BoardAnalysis.Status


@dataclass
class AnalysisView:
    """A board's analysis for a page: ``view`` (``Game.analysis_view``) when done, else the
    status in words ("not analysed")."""

    status: str
    words: str
    table: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    error: str = ""
    seconds: float = 0
    nodes: int = 0

    @property
    def done(self) -> bool:
        return self.table is not None


@dataclass
class Progress:
    boards: int = 0
    done: int = 0
    pending: int = 0
    not_analysed: list[str] = field(default_factory=list)  # "table 2, board 1: why"
    offered: bool = True

    @property
    def words(self) -> str:
        return f"analysed {self.done} of {self.boards} board{'s' if self.boards != 1 else ''}"


def _view(tournament: Tournament, board: Board, analysis: BoardAnalysis | None) -> AnalysisView:
    current = analysis is not None and analysis.deal == board.deal
    if not current or analysis is None:
        return AnalysisView(status="missing", words="Not analysed yet")
    if analysis.status == Status.DONE and analysis.table is not None:
        return AnalysisView(
            status=analysis.status,
            words="Analysed",
            table=analysis.table,
            view=tournament.game_rules.analysis_view(analysis.table),
            seconds=analysis.seconds,
            nodes=analysis.nodes,
        )
    words = "Being analysed" if analysis.status == Status.PENDING else analysis.get_status_display()
    return AnalysisView(status=analysis.status, words=words, error=analysis.error)


def board_analyses(
    tournament: Tournament, boards: Iterable[Board] | None = None
) -> dict[int, AnalysisView]:
    """``{board id: AnalysisView}`` for ``boards`` (every board of the tournament by default)."""
    if boards is None:
        boards = Board.objects.filter(table__tournament=tournament).select_related("table")
    boards = list(boards)
    found = {
        analysis.board_id: analysis
        for analysis in BoardAnalysis.objects.filter(board__in=[board.pk for board in boards])
    }
    return {board.pk: _view(tournament, board, found.get(board.pk)) for board in boards}


def by_table_and_board(tournament: Tournament) -> dict[tuple[int, int], AnalysisView]:
    boards = Board.objects.filter(table__tournament=tournament).select_related("table")
    views = board_analyses(tournament, boards)
    return {(board.table.number, board.number): views[board.pk] for board in boards}


def progress(tournament: Tournament) -> Progress:
    """How many dealt boards have their table, and which are not analysed and why."""
    if not tournament.game_rules.offers_analysis(tournament.rules):
        return Progress(offered=False)
    boards = list(
        Board.objects.filter(table__tournament=tournament)
        .select_related("table")
        .order_by("table__number", "number")
    )
    views = board_analyses(tournament, boards)
    result = Progress(boards=len(boards))
    for board in boards:
        view = views[board.pk]
        if view.done:
            result.done += 1
        elif view.status == Status.PENDING:
            result.pending += 1
        else:
            reason = f": {view.error}" if view.error else ""
            result.not_analysed.append(
                f"table {board.table.number}, board {board.number}: {view.words.lower()}{reason}"
            )
    return result


def analysis_text(analysis: AnalysisView | None) -> str:
    """A board's table in lines of text (for sheets): the caption, a line a row, the notes;
    "not analysed" and why, when it has no table."""
    if analysis is None or analysis.view is None:
        reason = f" ({analysis.error})" if analysis is not None and analysis.error else ""
        return f"Not analysed{reason}"
    view = analysis.view
    lines = [view["caption"], "  ".join(["", *view["columns"]]).strip()]
    lines += [f"{row[0]}: {' '.join(str(cell) for cell in row[1:])}" for row in view["rows"]]
    return "\n".join([*lines, *view["notes"]])


def analyses_changed(tournament: Tournament) -> str:
    """A version of the tournament's tables: changes whenever one is reset or finished (for
    the keys of cached pages that show them)."""
    latest = BoardAnalysis.objects.filter(board__table__tournament=tournament).aggregate(
        count=Count("id"), updated=Max("updated_at")
    )
    updated = latest["updated"]
    return f"{latest['count']}-{int(updated.timestamp() * 1e6) if updated else 0}"
