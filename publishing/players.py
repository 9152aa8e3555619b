"""The export of a game of individuals: the same writers, sheets of its own.

Standings (duplicate points and percentage, or totals and their tie-break), every board of
every table with each seat's player, result and ranking points, the players' routes, the
schedule, the deals, the players' score sheets where the game keeps them, and the rules. A
small field's results fit in memory as rows; no pandas is needed here.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, pgettext

from engine.core.seats import seat_mark
from publishing.exports.sheets import Column, SheetSpec
from publishing.exports.workbook import KIND_RESULTS, KIND_STANDINGS
from publishing.selectors import clean_text, rules_rows
from scoring.models import StandingsState
from scoring.selectors import board_points, bye_words, current_results, score_sheets_of
from tournaments import room_selectors
from tournaments.models import Board, Entrant, Match, Tournament
from tournaments.selectors import SEATED
from tournaments.templatetags.languages import translated

if TYPE_CHECKING:
    from engine.games import Game
    from scoring.models import Result


def _sheet(name: str, title: str, columns: list[Column], rows: list[tuple]) -> SheetSpec:
    """A sheet named ``name`` (English, a message: shown in the active language; its CSV file
    keeps the English name)."""
    return SheetSpec(
        # "Boards" and "Deals" are both "Donnes" in French: the sheet's own word tells them apart.
        name=pgettext("sheet name", name) if name == "Boards" else _(name),
        slug=name.lower().replace(" ", "-"),
        title=title,
        columns=columns,
        row_count=len(rows),
        blocks=lambda: [rows] if rows else [],
    )


def _name(entrant: Entrant) -> str:
    return clean_text(entrant.name)


def standings_sheet(tournament: Tournament, state: StandingsState) -> SheetSpec:
    entries = (state.standings or {}).get("standings", [])
    players = {str(entrant.pk): entrant for entrant in tournament.entrants.all()}
    measures = _measures(tournament)
    columns = [
        Column(_("Place"), 7),
        Column(_("No."), 6),
        Column(_("Player"), 28),
        *(column for column, _key in measures),
        Column(_("Boards"), 8),
        Column(_("Status"), 14),
    ]
    rows = []
    for entry in entries:
        entrant = players.get(str(entry["player"]))
        if entrant is None:
            continue
        rows.append(
            (
                entry.get("place"),
                entrant.number,
                _name(entrant),
                *(entry.get(key) for _column, key in measures),
                entry.get("matches"),
                entry.get("status"),
            )
        )
    title = _("Standings of %(tournament)s") % {"tournament": clean_text(tournament.name)}
    if tournament.ranking != "totals" and (state.standings or {}).get("provisional"):
        title += " " + _("(placed by percentage, highest first, while results are missing)")
    return _sheet(gettext_noop("Standings"), title, columns, rows)


def _measures(tournament: Tournament) -> list[tuple[Column, str]]:
    """The standings' columns between the player and his boards, each with its key in a
    standings entry: the total and the game's tie-break, or ranking points and percentage."""
    if tournament.ranking != "totals":
        return [
            (Column(_("Ranking points"), 14), "points"),
            (Column(_("Percentage"), 11), "percentage"),
        ]
    measures = [(Column(_("Total"), 9), "total")]
    tiebreak = tournament.game_rules.totals_tiebreak
    if tiebreak:
        measures.append((Column(tiebreak.capitalize(), 11), "tiebreak"))
    return measures


def _seated(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(table__tournament=tournament)
        .select_related("table")
        .prefetch_related(SEATED)
        .order_by("table__number", "round")
    )


def boards_sheet(tournament: Tournament, matches: list[Match]) -> SheetSpec:
    """Every board at every table, each visit a row with every seat's result."""
    game, seats = tournament.game_rules, tournament.seats
    results = current_results(tournament)
    points = board_points(tournament)
    boards = defaultdict(list)
    for board in Board.objects.filter(table__tournament=tournament).order_by("number"):
        boards[board.table_id].append(board)
    rows = []
    visits = sorted(
        ((board.number, visit.table.number, visit.round), board, visit)
        for visit in matches
        for board in boards[visit.table_id]
    )
    for (board_number, table_number, _round), board, match in visits:
        result = results.get((match.pk, board.pk))
        words = _result_in_words(result, game)
        dealer = str(translated(seat_mark(board.dealer)))  # West is O in French
        row: list[Any] = [table_number, board_number, dealer, match.round, words]
        by_seat = {seat.seat: seat.entrant for seat in match.seats.all()}
        for seat in seats:
            row += _seat_cells(by_seat.get(seat), seat, result, points, (match.pk, board.pk))
        rows.append(tuple(row))
    rows.sort(key=lambda row: (row[0], row[1], row[3]))
    columns = _boards_columns(seats)
    return _sheet(gettext_noop("Boards"), _("Every board at every table, by seat"), columns, rows)


def _seat_cells(
    entrant: Entrant | None,
    seat: str,
    result: Result | None,
    points: dict[tuple, Any],
    visit: tuple[int, int],
) -> list[Any]:
    """A seat's player, table result and ranking points on a board (``visit``: the match and
    the board), None where there is none."""
    score = (result.seats or {}).get(seat) if result is not None else None
    if entrant is None:
        return [None, score, None]
    return [entrant.number, score, points.get((*visit, entrant.pk))]


def _boards_columns(seats: tuple[str, ...]) -> list[Column]:
    """The boards sheet's columns: where and when, the result, then each seat's player, score
    and points."""
    columns = [
        Column(_("Table"), 7),
        Column(_("Board"), 7),
        Column(_("Dealer"), 7),
        Column(_("Round"), 7),
    ]
    columns.append(Column(_("Result"), 56, wrap=True))  # most results in two lines
    for seat in seats:
        letter = str(translated(seat_mark(seat)))  # the seat's letter as the reader writes it
        columns += [
            Column(_("%(seat)s player") % {"seat": letter}, 10),
            Column(_("%(seat)s score") % {"seat": letter}, 9),
            Column(_("%(seat)s points") % {"seat": letter}, 9),
        ]
    return columns


def _result_in_words(result: Result | None, game: Game) -> str:
    """A board's result as the sheet words it: to come, adjusted and why, or as entered."""
    if result is None:
        return _("to come")
    if result.submission is None:
        return _("Adjusted by the director: %(reason)s") % {"reason": result.reason}
    return translated(game.describe(result.submission.score))


def routes_sheet(tournament: Tournament, matches: list[Match]) -> SheetSpec:
    """Each player's table and seat in every round; a round without a match says why: a bye,
    a bye because the player to be met withdrew, or the player's own withdrawal."""
    seated = defaultdict(dict)
    for match in matches:
        for seat in match.seats.all():
            seated[seat.entrant_id][match.round] = (match.table.number, seat.seat)
    rounds = sorted({match.round for match in matches})
    gaps = room_selectors.withdrawal_gaps(tournament)
    withdrawn = room_selectors.withdrawn_after(tournament)
    bye = bye_words(tournament)
    rows = []
    for entrant in tournament.entrants.order_by("number"):
        for round_number in rounds:
            if round_number in seated[entrant.pk]:
                table, seat = seated[entrant.pk][round_number]
                rows.append((entrant.number, _name(entrant), round_number, table, seat, None))
                continue
            gap = gaps.get((entrant.number, round_number))
            seat, note = _sitting_out(gap, bye, round_number, withdrawn.get(entrant.pk))
            rows.append((entrant.number, _name(entrant), round_number, None, seat, note))
    columns = [
        Column(_("No."), 6),
        Column(_("Player"), 28),
        Column(_("Round"), 7),
        Column(_("Table"), 7),
    ]
    columns += [Column(_("Seat"), 7), Column(_("Note"), 44)]
    title = _("Each player's route: table and seat in every round")
    return _sheet(gettext_noop("Routes"), title, columns, rows)


def _sitting_out(
    gap: room_selectors.Gap | None, bye: str, round_number: int, withdrew_after: int | None
) -> tuple[str, str]:
    """A round without a match, as the Seat and Note columns print it: the player's own
    withdrawal, or a bye (naming who withdrew where a withdrawal left it)."""
    if withdrew_after is not None and round_number > withdrew_after:
        return "withdrawn", _("withdrew after round %(round)s: no match") % {
            "round": withdrew_after
        }
    # The bye's words (the engine's) in the file's language.
    value = translated(bye)
    if gap is not None:
        return "bye", f"{translated(gap.words)} ({value.removeprefix(_('bye: '))})"
    return "bye", value


def schedule_sheet(tournament: Tournament, matches: list[Match]) -> SheetSpec:
    seats = tournament.seats
    rows = []
    for match in sorted(matches, key=lambda m: (m.round, m.table.number)):
        by_seat = {seat.seat: seat.entrant.number for seat in match.seats.all()}
        rows.append((match.round, match.table.number, *(by_seat.get(seat) for seat in seats)))
    columns = [Column(_("Round"), 7), Column(_("Table"), 7), *(Column(seat, 7) for seat in seats)]
    title = _("The movement: the player in every seat")
    return _sheet(gettext_noop("Schedule"), title, columns, rows)


def deals_sheet(tournament: Tournament) -> SheetSpec:
    rows = [
        (board.table.number, board.number, board.dealer, board.deal)
        for board in Board.objects.filter(table__tournament=tournament)
        .select_related("table")
        .order_by("table__number", "number")
    ]
    columns = [
        Column(_("Table"), 7),
        Column(_("Board"), 7),
        Column(_("Dealer"), 7),
        Column(pgettext("sheet column", "Deal"), 60),
    ]
    title = _("The deals (deal notation, hands clockwise from the dealer)")
    return _sheet(gettext_noop("Deals"), title, columns, rows)


def score_sheets_sheet(tournament: Tournament) -> SheetSpec | None:
    """Every player's score sheets, a row per declared number, for a game that keeps them."""
    if not tournament.game_rules.sheet_size:
        return None
    rows = []
    for entrant in tournament.entrants.order_by("number"):
        for sheet in score_sheets_of(tournament, entrant):
            for declared, quota in enumerate(sheet["quota"]):
                calls = zip(sheet["won"][declared], sheet["points"][declared], strict=True)
                filled = ", ".join(f"{won} won: {points}" for won, points in calls)
                rows.append(
                    (
                        entrant.number,
                        _name(entrant),
                        sheet["number"],
                        declared,
                        quota,
                        sheet["remaining"][declared],
                        filled,
                        sheet["total"],
                        sheet["tens"],
                    )
                )
    columns = [
        Column(_("No."), 6),
        Column(_("Player"), 28),
        Column(_("Sheet"), 7),
        Column(_("Declared"), 9),
        Column(_("Places"), 8),
        Column(_("Free"), 6),
        Column(_("Tricks won: points"), 36),
        Column(_("Sheet total"), 11),
        Column(_("Exact calls"), 11),
    ]
    return _sheet(gettext_noop("Sheets"), _("The players' score sheets"), columns, rows)


def rules_sheet(tournament: Tournament, state: StandingsState) -> SheetSpec:
    rows = [tuple(row) for row in rules_rows(tournament, state)]
    columns = [Column(_("Section"), 14), Column(_("Rule"), 48), Column(_("Value"), 40)]
    title = _("Settings and rules of this tournament")
    return _sheet(gettext_noop("Rules"), title, columns, rows)


def build_player_sheets(
    tournament: Tournament, state: StandingsState, kind: str = KIND_RESULTS
) -> list[SheetSpec]:
    """The sheets of an export of a game of individuals: full results or standings alone."""
    if kind == KIND_STANDINGS:
        return [standings_sheet(tournament, state), rules_sheet(tournament, state)]
    if kind != KIND_RESULTS:
        raise ValueError(f"unknown export kind {kind!r} (standings or results)")
    matches = _seated(tournament)
    built: list[Callable[[], SheetSpec | None]] = [
        lambda: standings_sheet(tournament, state),
        lambda: boards_sheet(tournament, matches),
        lambda: routes_sheet(tournament, matches),
        lambda: schedule_sheet(tournament, matches),
        lambda: deals_sheet(tournament),
        lambda: score_sheets_sheet(tournament),
        lambda: rules_sheet(tournament, state),
    ]
    return [sheet for make in built if (sheet := make()) is not None]
