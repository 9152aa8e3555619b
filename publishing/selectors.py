"""Reads for publishing: settings, how far the rounds are played, which hand records are
public, the tournament in the columns an export is written from, and export statuses.

Nothing here writes and nothing ranks: standings come from ``StandingsState.standings`` as the
standings task stored them, and the places after every round from ``ChartData``. Which tables'
results the public may see is ``scoring.visibility.complete_tables``'s to say: the hand
records and the charts ask it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC
from typing import Any

import numpy as np
import pandas as pd
from django.db.models import Count, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext, gettext_noop, pgettext

from analysis.selectors import analysis_text, board_analyses, by_table_and_board
from engine.core.messages import Words, joined
from engine.games import Game
from publishing.charts import spread_svg, tables_out_words
from publishing.exports.sheets import Stamp
from publishing.exports.workbook import LINE_COLUMNS, Places, WorkbookData, empty_byes
from publishing.models import ChartData, Export, HandRecords, PublishingSettings
from scoring import visibility
from scoring.models import Result, StandingsState
from scoring.selectors import (
    board_points,
    current_results,
    leading_standings,
    number_ranges,
    points_text,
    result_facts,
    standings_status,
    status_text,
)
from tournaments import room_selectors
from tournaments.models import Board, Entrant, Match, Status, Tournament
from tournaments.selectors import SEATED, board_diagram
from tournaments.templatetags.languages import translated

# Characters a spreadsheet cannot hold (XML 1.0); typed names could contain them.
_CONTROL = {code: None for code in range(32) if code not in (9, 10, 13)}


def clean_text(text: Any) -> str:
    return str(text or "").translate(_CONTROL)


def publishing_settings(tournament: Tournament) -> PublishingSettings:
    """The tournament's settings, or the defaults (unsaved) when none were stored."""
    found = PublishingSettings.objects.filter(tournament=tournament).first()
    return found or PublishingSettings(tournament=tournament)


# --- rounds and matches that are played ----------------------------------------------------


@dataclass
class RoundProgress:
    matches: dict[int, int] = field(default_factory=dict)  # round -> matches
    done: dict[int, int] = field(default_factory=dict)  # round -> matches with every result
    tables_waiting: set[int] = field(default_factory=set)  # tables with a match still to play
    tables: set[int] = field(default_factory=set)

    @property
    def complete_rounds(self) -> list[int]:
        return sorted(r for r, count in self.matches.items() if self.done.get(r, 0) == count)

    @property
    def last_complete_round(self) -> int:
        """The last round r such that every round up to r is complete (0: none)."""
        last = 0
        for round_number in sorted(self.matches):
            if self.done.get(round_number, 0) != self.matches[round_number]:
                break
            last = round_number
        return last

    @property
    def all_played(self) -> bool:
        return bool(self.matches) and not self.tables_waiting


def round_progress(tournament: Tournament) -> RoundProgress:
    """Which matches have a result on every board. A match with a team disqualified before
    finalisation counts as played: its result is replaced by the disqualification rule."""
    boards = dict(tournament.tables.annotate(n=Count("boards")).values_list("number", "n"))
    disqualified = set(
        Entrant.objects.filter(
            tournament=tournament,
            disqualification__isnull=False,
            disqualification__after_final=False,
        ).values_list("pk", flat=True)
    )
    progress = RoundProgress()
    rows = (
        Match.objects.filter(table__tournament=tournament)
        .annotate(current_results=Count("results", filter=Q(results__current=True)))
        .values_list(
            "round", "table__number", "north_entrant_id", "east_entrant_id", "current_results"
        )
    )
    for round_number, table, ns, ew, results in rows:
        progress.matches[round_number] = progress.matches.get(round_number, 0) + 1
        progress.tables.add(table)
        played = results >= boards.get(table, 0) or ns in disqualified or ew in disqualified
        if played:
            progress.done[round_number] = progress.done.get(round_number, 0) + 1
        else:
            progress.tables_waiting.add(table)
    return progress


def results_held(progress: RoundProgress) -> str:
    """What results a file made now holds, in words: "rounds 1-3 complete; round 4: 5 of 7
    matches". A file labelled "after round 3" must not hold a round-4 result unsaid."""
    complete = set(progress.complete_rounds)
    whole = number_ranges(sorted(complete))
    parts = []
    if whole:
        if len(complete) == 1:
            parts.append(gettext("round %(rounds)s complete") % {"rounds": whole})
        else:
            parts.append(gettext("rounds %(rounds)s complete") % {"rounds": whole})
    for round_number in sorted(progress.matches):
        done = progress.done.get(round_number, 0)
        if round_number not in complete and done:
            total = progress.matches[round_number]
            if total == 1:
                message = gettext("round %(round)s: %(done)s of %(total)s match")
            else:
                message = gettext("round %(round)s: %(done)s of %(total)s matches")
            parts.append(message % {"round": round_number, "done": done, "total": total})
    return "; ".join(parts) or gettext("no result yet")


# --- hand records --------------------------------------------------------------------------


@dataclass
class Release:
    """Which tables' hand records the public may see now, and why (for the page)."""

    mode: str
    tables: set[int]
    everything: bool
    reason: str


def hand_record_release(tournament: Tournament, settings: PublishingSettings) -> Release:
    mode = settings.hand_records
    if mode == HandRecords.HIDDEN:
        return Release(
            mode, set(), False, gettext_noop("The organiser has not made the hand records public.")
        )
    all_tables = set(tournament.tables.values_list("number", flat=True))
    if tournament.status == Status.FINAL:
        return Release(mode, all_tables, True, gettext_noop("The standings are final."))
    if mode == HandRecords.AFTER_FINAL:
        return Release(
            mode,
            set(),
            False,
            gettext_noop("The hand records are published once the standings are final."),
        )
    released = visibility.complete_tables(tournament)
    return Release(
        mode,
        released,
        bool(all_tables) and released >= all_tables,
        gettext_noop(
            "A table's deals are published as soon as every match at the table has its result."
        ),
    )


@dataclass
class PlayedResult:
    round: int
    north_entrant: Entrant
    east_entrant: Entrant
    words: str
    ns: int | None
    ew: int | None
    ns_points: str
    ew_points: str
    kind: str
    # A game of individuals: (seat, player, table result, ranking points) in seat order.
    seats: list[tuple[str, Entrant, int | None, str]] = field(default_factory=list)
    # The result against the board's double-dummy table: "made 11, double dummy 12".
    beside: str = ""


@dataclass
class HandRecord:
    table: Any  # tournaments.models.Table
    diagram: Any
    results: list[PlayedResult]
    opening: Any
    # The board's double-dummy table (analysis.selectors.AnalysisView); None for a game
    # without one. Only ever built for tables whose hand records may be seen.
    analysis: Any = None


def hand_records(tournament: Tournament, tables: set[int]) -> list[HandRecord]:
    """For each of ``tables``: every board as a diagram with every result played on it."""
    boards = list(
        Board.objects.filter(table__tournament=tournament, table__number__in=tables)
        .select_related("table")
        .order_by("table__number", "number")
    )
    matches = list(
        Match.objects.filter(table__tournament=tournament, table__number__in=tables)
        .select_related("table", "north_entrant", "east_entrant")
        .prefetch_related(SEATED)
        .order_by("round")
    )
    results = current_results(tournament, tables)
    points = board_points(tournament, tables)
    by_table: dict[int, list[Match]] = defaultdict(list)
    for match in matches:
        by_table[match.table.number].append(match)
    game = tournament.game_rules
    analyses = board_analyses(tournament, boards) if game.offers_analysis(tournament.rules) else {}
    records = []
    for board in boards:
        analysis = analyses.get(board.pk)
        played = []
        for match in by_table[board.table.number]:
            result = results.get((match.pk, board.pk))
            if result is not None:
                played.append(_played(tournament, match, board, result, points, analysis))
        records.append(
            HandRecord(
                table=board.table,
                diagram=board_diagram(tournament, board),
                results=played,
                opening=tournament.opening_letter(board.table.number),
                analysis=analysis,
            )
        )
    return records


def _played(
    tournament: Tournament,
    match: Match,
    board: Board,
    result: Result,
    points: dict[tuple, Any],
    analysis: Any,
) -> PlayedResult:
    """A result of a board's hand record: who played it (each seat's player, result and
    points in a game of individuals), in words, each side's result and points, and beside
    the double dummy table."""
    seats = [
        (
            seat.seat,
            seat.entrant,
            (result.seats or {}).get(seat.seat),
            points_text(points.get((match.pk, board.pk, seat.entrant_id))),
        )
        for seat in (match.seats.all() if tournament.of_players else [])
    ]
    return PlayedResult(
        round=match.round,
        north_entrant=match.north_entrant,
        east_entrant=match.east_entrant,
        seats=seats,
        words=result_words(result, tournament),
        ns=result.north_result,
        ew=result.east_result,
        ns_points=points_text(points.get((match.pk, board.pk, match.north_entrant_id))),
        ew_points=points_text(points.get((match.pk, board.pk, match.east_entrant_id))),
        kind=result.kind,
        beside=_beside(tournament.game_rules, analysis, result),
    )


def _beside(game: Any, analysis: Any, result: Result) -> str:
    """A table's result against the board's double-dummy table, in words ("made 11, double
    dummy 12"); empty without a table, for an adjusted score or a passed-out board."""
    if analysis is None or not analysis.done or result.kind == Result.Kind.ADJUSTED:
        return ""
    submission = result.submission
    if submission is None or not submission.score:
        return ""
    return game.analysis_beside(analysis.table, submission.record or {}, submission.score) or ""


def result_words(result: Result, tournament: Tournament) -> str:
    """A result in words: how the board went, as the game says it (the engine's ``Words``,
    given in the reader's language by the pages' ``in_language``)."""
    if result.kind == Result.Kind.ADJUSTED:
        return gettext("Adjusted result (by the director)")
    if result.submission is not None and result.submission.score:
        game = tournament.game_rules
        words = game.describe(result.submission.score)
        tricks = game.tricks_in_words(result.submission.record or {})
        return joined([words, tricks], ". ") if tricks else words
    return gettext("Passed out") if result.passed_out else ""


# --- what an export is written from --------------------------------------------------------


def stamp(tournament: Tournament, state: StandingsState) -> Stamp:
    status = standings_status(tournament, state)
    moment = timezone.localtime(state.computed_at) if state.computed_at else None
    when = (
        " "
        + gettext("Computed %(moment)s %(zone)s.")
        % {"moment": date_format(moment, gettext("Y-m-d H:i")), "zone": moment.tzname()}
        if moment
        else ""
    )
    text = status["text"]
    if not text.startswith(status["word"]):
        text = gettext("%(word)s standings: %(text)s") % {"word": status["word"], "text": text}
    held = results_held(round_progress(tournament))
    return Stamp(
        tournament=clean_text(tournament.name),
        text=gettext("%(text)s Results: %(held)s.") % {"text": text, "held": held} + when,
        computed_at=state.computed_at.astimezone(UTC) if state.computed_at else None,
    )


def _entrants(tournament: Tournament) -> tuple[pd.DataFrame, dict[str, int], list[Entrant]]:
    entrants = list(tournament.entrants.select_related("disqualification").order_by("number"))
    substitutes = room_selectors.substitutes_of_entrants(tournament)
    frame = pd.DataFrame(
        {
            "number": np.array([t.number for t in entrants], dtype=np.int64),
            "name": [clean_text(t.name) for t in entrants],
            "players": [clean_text(_with_substitutes(t, substitutes)) for t in entrants],
        }
    )
    return frame, {str(t.pk): code for code, t in enumerate(entrants)}, entrants


def _with_substitutes(entrant: Entrant, substitutes: dict[int, list[str]]) -> str:
    """The entrant's players, then its substitutes with their rounds."""
    named = [
        gettext("substitute %(words)s") % {"words": words}
        for words in substitutes.get(entrant.pk, [])
    ]
    return "; ".join(part for part in (entrant.players, *named) if part)


def _standings_frame(rows: list[dict[str, Any]], codes: dict[str, int]) -> pd.DataFrame:
    kept = [row for row in rows if str(row["team"]) in codes]
    return pd.DataFrame(
        {
            "team": np.array([codes[str(r["team"])] for r in kept], dtype=np.int64),
            "place": _floats(r.get("place") for r in kept),
            "points": _floats(r.get("points") for r in kept),
            "percentage": _floats(r.get("percentage") for r in kept),
            "matches": np.array([r.get("matches", 0) for r in kept], dtype=np.int64),
            "status": [status_text(r.get("status", "ok"), r.get("withdrew_after")) for r in kept],
        }
    )


def _floats(values: Iterable[Any]) -> np.ndarray:
    """Numbers as a column of floats, a missing one (None) as NaN."""
    return np.array([np.nan if value is None else value for value in values], dtype=float)


def _byes_frame(rows: list[dict[str, Any]], codes: dict[str, int]) -> pd.DataFrame:
    byes = [
        (codes[str(row["team"])], entry)
        for row in rows
        if str(row["team"]) in codes
        for entry in row.get("tables", [])
        if entry.get("bye")
    ]
    if not byes:
        return empty_byes()
    return pd.DataFrame(
        {
            "team": np.array([code for code, _ in byes], dtype=np.int64),
            "table": np.array([e["table"] for _, e in byes], dtype=np.int64),
            "board": np.array([e["board"] for _, e in byes], dtype=np.int64),
            "side": [e.get("side") or "both" for _, e in byes],
            "points": _floats(e.get("rank") for _, e in byes),
        }
    )


def _boards_of_tables(tournament: Tournament) -> dict[int, list[int]]:
    """The board numbers of every table, by table number."""
    boards: dict[int, list[int]] = defaultdict(list)
    for table, number in Board.objects.filter(table__tournament=tournament).values_list(
        "table__number", "number"
    ):
        boards[table].append(number)
    return boards


def _score_and_points(found: tuple | None, result: tuple | None, index: int) -> tuple:
    """A side's ``(score, points)``: as ranked, else its result as entered (no points yet)."""
    if found is not None:
        return found
    if result is not None:
        return result[index], None
    return None, None


def _lines_frame(
    tournament: Tournament,
    standings: dict[str, Any],
    codes: dict[str, int],
    entrants: list[Entrant],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One line per team per match and board, and the schedule (one row per match)."""
    ranked = _ranked_scores(standings)
    results = result_facts(tournament)
    boards = _boards_of_tables(tournament)
    disqualified = _replaced_by_disqualification(entrants)
    columns: dict[str, list] = {name: [] for name in LINE_COLUMNS}
    schedule: dict[str, list] = {"round": [], "table": [], "ns": [], "ew": []}
    words_cache: dict[str, str] = {}
    for match_id, round_number, table, ns_id, ew_id in (
        Match.objects.filter(table__tournament=tournament)
        .order_by("round", "table__number")
        .values_list("pk", "round", "table__number", "north_entrant_id", "east_entrant_id")
    ):
        ns, ew = str(ns_id), str(ew_id)
        if ns not in codes or ew not in codes:
            continue
        schedule["round"].append(round_number)
        schedule["table"].append(table)
        schedule["ns"].append(codes[ns])
        schedule["ew"].append(codes[ew])
        replaced = ns in disqualified or ew in disqualified
        for board in sorted(boards.get(table, [])):
            result = results.get((match_id, board))
            contract, note = _contract_and_note(
                tournament.game_rules, result, replaced, words_cache
            )
            for side, entrant, opponent, index in (("NS", ns, ew, 3), ("EW", ew, ns, 4)):
                found = ranked.get((table, board, side, entrant, round_number))
                score, points = _score_and_points(found, result, index)
                columns["table"].append(table)
                columns["board"].append(board)
                columns["side"].append(side)
                columns["round"].append(round_number)
                columns["team"].append(codes[entrant])
                columns["opponent"].append(codes[opponent])
                columns["score"].append(np.nan if score is None else score)
                columns["points"].append(np.nan if points is None else points)
                columns["ranked"].append(found is not None)
                columns["contract"].append(contract)
                columns["note"].append(note)
    schedule_frame = pd.DataFrame({k: np.array(v, dtype=np.int64) for k, v in schedule.items()})
    return _frame_of_lines(columns), schedule_frame


def _ranked_scores(standings: dict[str, Any]) -> dict[tuple, tuple]:
    """Every ranked line's ``(score, points)`` by ``(table, board, side, team, round)``."""
    return {
        (g["table"], g["board"], g["side"], str(r["team"]), r["round"]): (r.get("score"), r["rank"])
        for g in standings.get("groups", [])
        for r in g["results"]
    }


def _replaced_by_disqualification(entrants: list[Entrant]) -> set[str]:
    """The teams whose results a disqualification replaces: only one made before
    finalisation does."""
    return {str(t.pk) for t in entrants if t.is_disqualified and not t.disqualification.after_final}


def _frame_of_lines(columns: dict[str, list]) -> pd.DataFrame:
    """The lines' columns in the types ``LINE_COLUMNS`` gives them."""
    return pd.DataFrame(
        {
            name: np.array(values, dtype=LINE_COLUMNS[name])
            if LINE_COLUMNS[name] != "object"
            else pd.Series(values, dtype=object)
            for name, values in columns.items()
        }
    )


def _contract_and_note(
    game: Game, result, replaced: bool, cache: dict[str, str]
) -> tuple[str, str]:
    if replaced:
        return "", gettext("disqualification: -1000 for the disqualified team, 0 for its opponent")
    if result is None:
        return "", gettext("to come")
    kind, passed_out, score, _ns, _ew = result
    if kind == Result.Kind.ADJUSTED:
        return gettext("Adjusted result"), gettext("adjusted by the director")
    if not score:
        return "", ""
    key = repr(sorted(score.items()))
    if key not in cache:
        cache[key] = translated(game.describe(score))
    return cache[key], gettext("passed out") if passed_out else ""


def _deals_frame(tournament: Tournament) -> pd.DataFrame:
    rows = list(
        Board.objects.filter(table__tournament=tournament)
        .order_by("table__number", "number")
        .values_list("table__number", "number", "deal")
    )
    keys = [(r[0], r[1]) for r in rows]
    offered = tournament.game_rules.offers_analysis(tournament.rules)
    found = by_table_and_board(tournament) if offered else {}
    return pd.DataFrame(
        {
            "table": np.array([r[0] for r in rows], dtype=np.int64),
            "board": np.array([r[1] for r in rows], dtype=np.int64),
            "opening": [tournament.opening_letter(r[0]) or "" for r in rows],
            "deal": [r[2] for r in rows],
            # Each board's double-dummy table in lines of text ("" for a game without one),
            # then each table's result against it. The sheet is as secret as the deals.
            "analysis": [analysis_text(found.get(key)) if offered else "" for key in keys],
            "beside": _beside_texts(tournament, found, keys),
        }
    )


def _beside_texts(
    tournament: Tournament, found: dict[tuple[int, int], Any], keys: list[tuple[int, int]]
) -> list[str]:
    """For each board, a line per result played on it against its double-dummy table
    ("Round 2: made 11, double dummy 12"); "" without a table."""
    game = tournament.game_rules
    lines: dict[tuple[int, int], list[str]] = defaultdict(list)
    if found:
        results = (
            Result.objects.filter(match__table__tournament=tournament, current=True)
            .select_related("submission", "match__table", "board")
            .order_by("match__round", "match__table__number")
        )
        for result in results:
            key = (result.match.table.number, result.board.number)
            beside = _beside(game, found.get(key), result)
            if beside:
                lines[key].append(
                    gettext("Round %(round)s: %(beside)s")
                    % {"round": result.match.round, "beside": translated(beside)}
                )
    return ["\n".join(lines.get(key, [])) for key in keys]


def _game_words(text: Any) -> Any:
    """A game's setting's label or value in the active language: the engine's ``words``
    translated, a fixed English text (a choice's label) looked up in the catalogue."""
    if isinstance(text, Words):
        return translated(text)
    return gettext(text) if isinstance(text, str) and text else text


def rules_rows(tournament: Tournament, state: StandingsState) -> list[tuple[str, str, Any]]:
    """The ruleset, house rules, tie policy and play settings, one rule a row, in the active
    language (the engine's words of the games' settings and rules translated)."""
    play, ranking = pgettext("rules section", "Play"), gettext("Ranking")
    rows: list[tuple[str, str, Any]] = [
        (gettext("Tournament"), gettext("Name"), clean_text(tournament.name)),
        (gettext("Tournament"), gettext("Game"), tournament.get_game_display()),
        (gettext("Tournament"), gettext("Status"), str(tournament.get_status_display())),
        (ranking, gettext("Ties in a table's ranking"), str(tournament.get_ties_display())),
        (
            ranking,
            gettext("Winner"),
            gettext("the least total of ranking points; places are shared"),
        ),
        (play, gettext("Boards per table"), tournament.boards_per_table),
        (gettext("Schedule"), gettext("Sides"), str(tournament.get_side_mode_display())),
        *(
            (play, _game_words(label), _game_words(value))
            for label, value in tournament.settings_in_words()
        ),
        *(
            tuple(translated(part) for part in row)
            for row in tournament.game_rules.rules_in_detail(tournament.rules)
        ),
    ]
    rows += [
        (gettext("Standings"), gettext("Results version"), state.results_version),
        (gettext("Standings"), gettext("Standings computed from version"), state.computed_version),
    ]
    return rows


def chart_places(
    chart: ChartData | None, codes: dict[str, int], state: StandingsState
) -> tuple[Places | None, str]:
    """The stored places series in columns, if it belongs to these standings."""
    if chart is None or chart.computed_version != state.computed_version:
        return None, "(the places after every round are not computed yet)"
    if not chart.rounds:
        return None, chart.note or "(no round has a result yet)"
    entrant_ids = sorted((tid for tid in chart.places if tid in codes), key=codes.__getitem__)
    matrix = np.array(
        [[np.nan if p is None else p for p in chart.places[tid]] for tid in entrant_ids],
        dtype=float,
    ).T.reshape(len(chart.rounds), len(entrant_ids))
    return Places(list(chart.rounds), [codes[tid] for tid in entrant_ids], matrix), chart.note


def workbook_data(
    tournament: Tournament, state: StandingsState, chart: ChartData | None, chart_lines: int
) -> WorkbookData:
    """The tournament in the columns the export writers consume."""
    entrants, codes, entrant_rows = _entrants(tournament)
    standings = state.standings or {}
    rows = standings.get("standings", [])
    lines, schedule = _lines_frame(tournament, standings, codes, entrant_rows)
    places, places_note = chart_places(chart, codes, state)
    withdrawn = room_selectors.withdrawn_after(tournament)
    return WorkbookData(
        stamp=stamp(tournament, state),
        entrants=entrants,
        standings=_standings_frame(rows, codes),
        lines=lines,
        byes=_byes_frame(rows, codes),
        schedule=schedule,
        table_numbers=list(tournament.tables.order_by("number").values_list("number", flat=True)),
        deals=_deals_frame(tournament),
        rules=rules_rows(tournament, state),
        places=places,
        places_note=places_note,
        direction=tournament.direction,
        chart_lines=chart_lines,
        game=tournament.game_rules,
        provisional=bool(standings.get("provisional", False)),
        withdrawn_after={
            entrant.number: withdrawn[entrant.pk]
            for entrant in entrant_rows
            if entrant.pk in withdrawn
        },
        gaps=_gaps(tournament),
    )


def _gaps(tournament: Tournament) -> dict[tuple[int, int], tuple[int, str]]:
    """``(team number, table) -> (round, words)`` for each table a withdrawal took out of a
    team's route, in the rounds the team still has no match (a late arrival may have filled
    one since)."""
    playing = {
        (number, round_)
        for round_, *numbers in Match.objects.filter(table__tournament=tournament).values_list(
            "round", "north_entrant__number", "east_entrant__number"
        )
        for number in numbers
    }
    return {
        (number, gap.table): (round_, gap.words)
        for (number, round_), gap in room_selectors.withdrawal_gaps(tournament).items()
        if (number, round_) not in playing
    }


# --- exports -------------------------------------------------------------------------------


def export_key(tournament: Tournament, state: StandingsState) -> dict[str, Any]:
    """What makes two exports of a kind and format the same file: the standings' versions,
    the status and the language the file is written in. They are read from the database: the
    caller's copy of the tournament may be older."""
    found = Tournament.objects.filter(pk=tournament.pk).values_list("status", "language").first()
    status, language = found or (tournament.status, tournament.language)
    return {
        "computed_version": state.computed_version,
        "results_version": state.results_version,
        "tournament_status": status,
        "language": language,
    }


def export_status(export: Export) -> dict[str, Any]:
    """The JSON the organiser's page polls, and the API returns."""
    slug = export.tournament.slug
    done = export.state == Export.State.DONE
    return {
        "id": export.pk,
        "kind": export.kind,
        "format": export.format,
        "state": export.state,
        "state_label": export.get_state_display(),
        "progress": export.progress,
        "step": gettext(export.step) if export.step else "",
        "error": export.error,
        "published": export.published,
        "size": export.size,
        "rows": export.rows,
        "content_hash": export.content_hash,
        "computed_version": export.computed_version,
        "results_version": export.results_version,
        "created_at": export.created_at.isoformat() if export.created_at else None,
        "finished_at": export.finished_at.isoformat() if export.finished_at else None,
        "download_url": reverse("publishing:export-download", args=[slug, export.pk])
        if done
        else None,
        "status_url": reverse("publishing:export-status", args=[slug, export.pk]),
    }


def recent_exports(tournament: Tournament, limit: int = 20) -> list[Export]:
    return list(tournament.exports.select_related("tournament")[:limit])


def published_exports(tournament: Tournament) -> list[Export]:
    """The latest published export of every kind and format."""
    latest: dict[tuple[str, str], Export] = {}
    for export in tournament.exports.filter(published=True, state=Export.State.DONE).order_by(
        "-published_at", "-id"
    ):
        latest.setdefault((export.kind, export.format), export)
    order = {Export.Kind.STANDINGS: 0, Export.Kind.RESULTS: 1}
    return sorted(latest.values(), key=lambda e: (order.get(e.kind, 9), e.format))


def latest_published(tournament: Tournament, kind: str, fmt: str) -> Export | None:
    return (
        tournament.exports.filter(published=True, state=Export.State.DONE, kind=kind, format=fmt)
        .order_by("-published_at", "-id")
        .first()
    )


def chart_data(tournament: Tournament) -> ChartData | None:
    return ChartData.objects.filter(tournament=tournament).first()


@dataclass
class PublicCharts:
    """What the public charts page shows: the stored drawings, as far as they are drawn from
    tables that are complete now, and the tables still being played."""

    places_svg: str = ""
    spread_svg: str = ""
    # The figures the spread chart draws, for its table alternative.
    spread: list[dict[str, Any]] = field(default_factory=list)
    note: str = ""
    rounds: list[int] = field(default_factory=list)
    places: dict[str, list[int | None]] = field(default_factory=dict)
    tables_out: list[int] = field(default_factory=list)
    out_words: str = ""
    # The stored places may draw a table that is no longer complete (a match was added there,
    # a result withdrawn, a disqualification lifted), or were drawn before the tables were
    # kept: they wait for the chart task to draw them again.
    redrawing: bool = False


def public_charts(tournament: Tournament, chart: ChartData | None) -> PublicCharts:
    """The charts as the public may see them now (RULES: charts and every summary of results
    are drawn from complete tables only).

    The chart task draws from the tables complete when it runs (``ChartData.tables``), but a
    table may stop being complete after that. Then the spread is drawn again here without it
    (a few hundred strips at most), and the places after every round, which cannot be, are
    left out until the chart task has drawn them again."""
    complete = visibility.complete_tables(tournament)
    out = visibility.tables_still_out(tournament, complete)
    shown = PublicCharts(tables_out=out, out_words=tables_out_words(out, gettext))
    if chart is None:
        return shown
    spread = [group for group in chart.spread if group["table"] in complete]
    shown.spread_svg = (
        chart.spread_svg if len(spread) == len(chart.spread) else spread_svg(spread, gettext)
    )
    shown.spread = spread
    drawn_from = chart.tables
    if drawn_from is not None and set(drawn_from) <= complete:
        shown.places_svg, shown.note = chart.places_svg, chart.note
        shown.rounds, shown.places = list(chart.rounds), chart.places
    else:
        shown.redrawing = bool(chart.rounds)
    return shown


def places_table(tournament: Tournament, shown: PublicCharts, limit: int) -> dict[str, Any]:
    """The places the chart draws, as a table (for readers who cannot see the chart): the
    leading teams of the stored standings."""
    if not shown.rounds:
        return {"rounds": [], "rows": []}
    leaders = leading_standings(tournament, limit)
    rows = [
        {"entrant": standing.entrant, "places": shown.places.get(str(standing.entrant_id), [])}
        for standing in leaders
    ]
    return {"rounds": shown.rounds, "rows": rows}
