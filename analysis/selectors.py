"""What pages show of the analyses: a board's table as its game lays it out, only while it was
solved from the deal on file; how far the job has come."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Max
from django.utils.translation import gettext, gettext_noop

from analysis.models import BoardAnalysis
from engine.core.messages import words
from engine.games.base import Game
from tournaments.models import Board, Tournament
from tournaments.templatetags.languages import translated_tree

Status = BoardAnalysis.Status


@dataclass
class AnalysisView:
    """A board's analysis for a page: ``view`` (``Game.analysis_view``, its notes ending with
    the par where the game has one) when done; else the status in words ("not analysed") and,
    where some parts are solved, ``view`` of those (``Game.analysis_partial_view``), the rest
    marked "not analysed"."""

    status: str
    words: str
    table: dict[str, Any] | None = None
    view: dict[str, Any] | None = None
    error: str = ""
    seconds: float = 0
    nodes: int = 0
    par: dict[str, Any] | None = None

    @property
    def done(self) -> bool:
        return self.table is not None

    @property
    def partial(self) -> bool:
        """Some parts are shown, the board is not analysed whole."""
        return self.view is not None and self.table is None


@dataclass
class Progress:
    boards: int = 0
    done: int = 0
    pending: int = 0
    not_analysed: list[str] = field(default_factory=list)  # "table 2, board 1: why"
    offered: bool = True

    @property
    def words(self) -> str:
        if self.boards == 1:
            message = gettext("analysed %(done)s of %(boards)s board")
        else:
            message = gettext("analysed %(done)s of %(boards)s boards")
        return message % {"done": self.done, "boards": self.boards}


def _current(tournament: Tournament, board: Board, analysis: BoardAnalysis | None) -> bool:
    """Whether ``analysis`` was solved from the board's deal and what the board's table
    depends on now (the tournament's settings may have changed since)."""
    if analysis is None or analysis.deal != board.deal:
        return False
    inputs = tournament.game_rules.analysis_inputs(
        tournament.rules,
        table=board.table.number,
        players=board.table.size,
        dealer=board.dealer,
    )
    return analysis.inputs == inputs


def _view(tournament: Tournament, board: Board, analysis: BoardAnalysis | None) -> AnalysisView:
    if analysis is None or not _current(tournament, board, analysis):
        return AnalysisView(status="missing", words=gettext_noop("Not analysed yet"))
    game = tournament.game_rules
    if analysis.status == Status.DONE and analysis.table is not None:
        view = game.analysis_view(analysis.table)
        par = game.analysis_par(analysis.table, tournament.rules)
        if par is not None:
            view = {**view, "notes": [*view["notes"], par["words"]]}
        return AnalysisView(
            status=analysis.status,
            words=gettext_noop("Analysed"),
            table=analysis.table,
            view=view,
            seconds=analysis.seconds,
            nodes=analysis.nodes,
            par=par,
        )
    state = (
        gettext_noop("Being analysed")
        if analysis.status == Status.PENDING
        else analysis.get_status_display()
    )
    partial = game.analysis_partial_view(analysis.inputs, analysis.parts or {})
    if partial is not None and type(game).analysis_par is not Game.analysis_par:
        partial = {**partial, "notes": [*partial["notes"], words("Par: not analysed")]}
    return AnalysisView(status=analysis.status, words=state, error=analysis.error, view=partial)


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
            where = gettext("table %(table)s, board %(board)s") % {
                "table": board.table.number,
                "board": board.number,
            }
            result.not_analysed.append(f"{where}: {gettext(view.words).lower()}{reason}")
    return result


def analysis_text(analysis: AnalysisView | None) -> str:
    """A board's table in lines of text (for sheets): the caption, a line a row, the notes;
    "not analysed" and why, when it has no table (first, above the parts solved if any)."""
    reason = f" ({analysis.error})" if analysis is not None and analysis.error else ""
    if analysis is None or analysis.view is None:
        return gettext("Not analysed") + reason
    view = translated_tree(analysis.view)
    lines = [view["caption"], "  ".join(["", *view["columns"]]).strip()]
    lines += [f"{row[0]}: {' '.join(str(cell) for cell in row[1:])}" for row in view["rows"]]
    if analysis.partial:
        lines.insert(
            0, gettext("Not analysed whole%(reason)s; the parts solved:") % {"reason": reason}
        )
    return "\n".join([*lines, *view["notes"]])


def analyses_changed(tournament: Tournament) -> str:
    """A version of the tournament's tables: changes whenever one is reset or finished (for
    the keys of cached pages that show them)."""
    latest = BoardAnalysis.objects.filter(board__table__tournament=tournament).aggregate(
        count=Count("id"), updated=Max("updated_at")
    )
    updated = latest["updated"]
    return f"{latest['count']}-{int(updated.timestamp() * 1e6) if updated else 0}"
