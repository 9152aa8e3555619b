"""Reading featured tables and their recordings for the pages: which boards a recorder takes
down next, and what a broadcast shows of a board (the view of its play and the analysis)."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext, gettext_noop

from broadcast import analysis
from broadcast.models import FeaturedTable, RecordedAction, Recording
from broadcast.services import new_table_play, replay, standing_actions
from scoring.models import Result
from tournaments.models import Board, Match, Tournament
from tournaments.templatetags.languages import translated_tree


def featured_by_code(tournament: Tournament, code: str) -> FeaturedTable | None:
    """The featured table whose recorder's code this is (case and spaces forgiven)."""
    code = "".join(code.split()).upper()
    if not code:
        return None
    return (
        FeaturedTable.objects.select_related("table__tournament")
        .filter(table__tournament=tournament, recorder_code=code)
        .first()
    )


def featured_table(tournament: Tournament, number: int) -> FeaturedTable | None:
    return (
        FeaturedTable.objects.select_related("table__tournament")
        .filter(table__tournament=tournament, table__number=number)
        .first()
    )


def featured_numbers(tournament: Tournament) -> list[int]:
    return list(
        FeaturedTable.objects.filter(table__tournament=tournament).values_list(
            "table__number", flat=True
        )
    )


@dataclass(frozen=True)
class BoardSlot:
    """A board of a match at a featured table, and how far its recording is."""

    match: Match
    board: int
    recording: Recording | None
    has_result: bool

    @property
    def key(self) -> str:
        return f"{self.match.pk}-{self.board}"

    @property
    def state(self) -> str:
        # The slot's state in English (the pages and the scripts compare it; the recorder's
        # page translates it).
        if self.recording is not None and self.recording.over:
            return gettext_noop("recorded")
        if self.recording is not None:
            return gettext_noop("recording")
        return gettext_noop("result in") if self.has_result else gettext_noop("to play")


def board_slots(featured: FeaturedTable) -> list[BoardSlot]:
    """Every board of every match at the table, in play order."""
    table = featured.table
    numbers = list(
        Board.objects.filter(table=table).exclude(deal="").values_list("number", flat=True)
    )
    recordings = {
        (rec.match_id, rec.board): rec for rec in Recording.objects.filter(featured=featured)
    }
    results = set(
        Result.objects.filter(match__table=table, current=True).values_list(
            "match_id", "board__number"
        )
    )
    slots = []
    for match in Match.objects.filter(table=table).select_related("north_entrant", "east_entrant"):
        for number in sorted(numbers):
            slots.append(
                BoardSlot(
                    match,
                    number,
                    recordings.get((match.pk, number)),
                    (match.pk, number) in results,
                )
            )
    return slots


def next_slot(slots: list[BoardSlot]) -> BoardSlot | None:
    """The board the recorder takes down now: the first one still being recorded, else the
    first not recorded whose result is not in yet, else the last."""
    for slot in slots:
        if slot.state == "recording":
            return slot
    for slot in slots:
        if slot.state == "to play":
            return slot
    return slots[-1] if slots else None


def slot_of(slots: list[BoardSlot], match_id: int, board: int) -> BoardSlot | None:
    return next((s for s in slots if s.match.pk == match_id and s.board == board), None)


def board_payload(
    featured: FeaturedTable, slot: BoardSlot, *, with_options: bool = False, upto: int | None = None
) -> dict[str, Any]:
    """What a page shows of a board: the play's view (after ``upto`` actions, for a replay),
    the analysis, and for the recorder the actions allowed now."""
    tournament = featured.table.tournament
    board = Board.objects.get(table=featured.table, number=slot.board)
    actions = standing_actions(slot.recording) if slot.recording is not None else []
    shown = actions if upto is None else actions[: max(0, upto)]
    # The recorder is offered what North's entry offers now; a replay is the play as taken.
    play = replay(tournament, slot.match, board, shown, constrained=with_options)
    base = new_table_play(tournament, slot.match, board, constrained=False)
    payload: dict[str, Any] = {
        "match": slot.match.pk,
        "round": slot.match.round,
        "board": slot.board,
        "key": slot.key,
        "title": gettext("Round %(round)s, board %(board)s")
        % {"round": slot.match.round, "board": slot.board},
        "teams": gettext("%(ns)s (NS) v %(ew)s (EW)")
        % {"ns": slot.match.north_entrant.name, "ew": slot.match.east_entrant.name},
        "actions": len(actions),
        "step": len(shown),
        "over": play.over,
        # The play's words (prompt, contract, calls, seats) in the reader's language.
        "view": translated_tree(play.view()),
        # The analysis works on copies of the board's play before any action: no query.
        "analysis": analysis.analyse(lambda: copy.deepcopy(base), shown),
    }
    if with_options:
        payload["options"] = translated_tree(play.options())
    return payload


def recordings_of(tournament: Tournament) -> list[Recording]:
    return list(
        Recording.objects.filter(featured__table__tournament=tournament)
        .select_related("match", "featured__table")
        .prefetch_related(Prefetch("actions", queryset=RecordedAction.objects.all()))
    )
