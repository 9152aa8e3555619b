"""The public pages of a published tournament: standings, a table's and a team's results.
They only read stored standings and results (what the public may see is
``scoring.visibility``'s to say) and serve their fragments from the cache, keyed by the
standings' and results' versions; a page refreshes its fragment when the version changes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from engine.core.seats import SEAT_NAMES
from scoring import selectors, sheets, visibility
from scoring.models import RankingPoints, Result, Standing, StandingsState
from scoring.selectors import (
    cached_fragment,
    percentage_text,
    points_text,
    standings_status,
    status_text,
)
from tournaments import room_selectors
from tournaments.models import Board, Entrant, Match, MatchSeat, Table, Tournament
from tournaments.public import NotPublished
from tournaments.selectors import SEATED, is_public


def _public_tournament(request: HttpRequest, slug: str) -> tuple[Tournament, StandingsState]:
    """The tournament and its standings bookkeeping in one query (no row is written), without
    the stored standings object: megabytes in a big tournament, and no fragment needs it.
    404 for a draft, but to its organisers."""
    tournament = get_object_or_404(
        Tournament.objects.select_related("standings_state").defer("standings_state__standings"),
        slug=slug,
    )
    if not is_public(tournament, request.user):
        raise NotPublished(tournament)
    try:
        state = tournament.standings_state
    except StandingsState.DoesNotExist:
        state = StandingsState(tournament=tournament)
    return tournament, state


def _stored_entries(tournament: Tournament) -> dict[int, dict[str, Any]]:
    """Each player's entry of the stored standings object (percentages, totals, tie-breaks)."""
    stored = StandingsState.objects.filter(tournament=tournament).values_list(
        "standings", flat=True
    )
    standings = (stored.first() or {}).get("standings", [])
    return {int(entry["player"]): entry for entry in standings if "player" in entry}


def _standings_html(tournament: Tournament, state: StandingsState) -> str:
    rows = _standing_rows(tournament)
    entrants = [] if rows else list(tournament.entrants.order_by("number"))
    status = standings_status(tournament, state)
    totals = tournament.of_players and tournament.ranking == "totals"
    results_in = Result.objects.filter(match__table__tournament=tournament, current=True).count()
    boards_needed = sum(len(boards) for boards in _boards_of_matches(tournament).values())
    return render_to_string(
        "scoring/public/standings_fragment.html",
        {
            "tournament": tournament,
            "totals": totals,
            "tiebreak": tournament.game_rules.totals_tiebreak,
            "totals_note": tournament.game_rules.totals_note if totals else "",
            # Provisional standings are placed by percentage (and stale ones were, if the
            # stored standings were provisional).
            "by_percentage": not totals and (state.provisional or state.computed_at is None),
            "rows": rows,
            "entrants": entrants,
            "status": status,
            "computed_at": state.computed_at,
            "results_in": results_in,
            "boards_needed": boards_needed,
            "tables": list(tournament.tables.order_by("number")),
        },
    )


def _standing_rows(tournament: Tournament) -> list[Standing]:
    """The stored standings' rows with their figures, status and substitutes in words (and,
    in a game of individuals, each player's stored entry)."""
    rows = list(Standing.objects.filter(tournament=tournament).select_related("entrant"))
    entries = _stored_entries(tournament) if tournament.of_players else {}
    withdrawn = room_selectors.withdrawn_after(tournament)
    substitutes = room_selectors.substitutes_of_entrants(tournament)
    for row in rows:
        if tournament.of_players:
            row.entry = entries.get(row.entrant_id, {})
        row.points_text = points_text(row.points)
        row.percentage_text = percentage_text(row.percentage)
        row.status_text = status_text(row.status, withdrawn.get(row.entrant_id))
        row.substitutes = "; ".join(substitutes.get(row.entrant_id, []))
    return rows


def _boards_of_matches(tournament: Tournament) -> dict[int, list[int]]:
    boards: dict[int, list[int]] = {}
    numbers: dict[int, list[int]] = {}
    for table_id, number in Board.objects.filter(table__tournament=tournament).values_list(
        "table_id", "number"
    ):
        numbers.setdefault(table_id, []).append(number)
    for match_id, table_id in Match.objects.filter(table__tournament=tournament).values_list(
        "pk", "table_id"
    ):
        boards[match_id] = sorted(numbers.get(table_id, []))
    return boards


@dataclass
class SideRow:
    round: int
    entrant: Entrant
    opponent: Entrant | None
    score: int | None
    passed_out: bool
    points: float | None

    @property
    def points_text(self) -> str:
        return points_text(self.points)


def _board_sides(board: Board, matches: list[Match], results: dict, points: dict):
    """The board's results at its table, each side ranked best first, and the matches
    still without a result."""
    sides: dict[str, list[SideRow]] = {"NS": [], "EW": []}
    waiting = []
    for match in matches:
        result = results.get((match.pk, board.pk))
        if result is None:
            waiting.append(match)
            continue
        for side, entrant, opponent, score in (
            ("NS", match.north_entrant, match.east_entrant, result.north_result),
            ("EW", match.east_entrant, match.north_entrant, result.east_result),
        ):
            team_points = points.get((match.pk, board.pk, entrant.pk))
            sides[side].append(
                SideRow(match.round, entrant, opponent, score, result.passed_out, team_points)
            )
    for rows in sides.values():
        rows.sort(key=lambda r: (r.points is None, r.points or 0, -(r.score or 0), r.round))
    return {"number": board.number, "sides": sides, "waiting": waiting}


def _board_seats(tournament: Tournament, board: Board, matches, results: dict, points: dict):
    """A board of a game of individuals: each seat's results ranked best first, each
    visit's result in words, and the matches still without a result."""
    game = tournament.game_rules
    seats: dict[str, list[SideRow]] = {seat: [] for seat in board.table.seats}
    words, waiting = [], []
    for match in matches:
        result = results.get((match.pk, board.pk))
        if result is None:
            waiting.append(match)
            continue
        if result.submission is not None:
            words.append((match.round, game.describe(result.submission.score)))
        for seat in match.seats.all():
            score = (result.seats or {}).get(seat.seat)
            team_points = points.get((match.pk, board.pk, seat.entrant_id))
            seats[seat.seat].append(
                SideRow(match.round, seat.entrant, None, score, False, team_points)
            )
    for rows in seats.values():
        rows.sort(key=lambda r: (r.points is None, r.points or 0, -(r.score or 0), r.round))
    return {"number": board.number, "sides": seats, "words": words, "waiting": waiting}


def _table_html(tournament: Tournament, state: StandingsState, number: int) -> str:
    table = get_object_or_404(Table, tournament=tournament, number=number)
    if number not in visibility.complete_tables(tournament):
        return _table_in_play_html(tournament, state, table)
    matches = list(table.matches.select_related("north_entrant", "east_entrant").order_by("round"))
    if tournament.of_players:
        return _players_table_html(tournament, state, table)
    results = {
        (r.match_id, r.board_id): r for r in Result.objects.filter(match__table=table, current=True)
    }
    points = _points_at(table)
    boards = [
        _board_sides(board, matches, results, points) for board in table.boards.order_by("number")
    ]
    opening = SEAT_NAMES.get(tournament.opening_letter(table.number) or "", "")
    return _table_fragment(tournament, state, table, boards, opening=opening)


def _points_at(table: Table) -> dict[tuple[int, int, int], Any]:
    """The ranking points scored at ``table``, by match, board and entrant."""
    return {
        (p.match_id, p.board_id, p.entrant_id): p.points
        for p in RankingPoints.objects.filter(match__table=table)
    }


def _table_fragment(
    tournament: Tournament, state: StandingsState, table: Table, boards: list, **more: Any
) -> str:
    """A complete table's boards, as its page shows them (``more``: the seats' words)."""
    return render_to_string(
        "scoring/public/table_fragment.html",
        {
            "tournament": tournament,
            "table": table,
            "boards": boards,
            "status": standings_status(tournament, state),
            **more,
        },
    )


def _table_in_play_html(tournament: Tournament, state: StandingsState, table: Table) -> str:
    """A table with a match still to play: who has played there and who is to come, nothing
    of what happened (a result would tell the teams still to come how the deals lie)."""
    boards = table.boards.count()
    done = dict(
        table.matches.annotate(n=Count("results", filter=Q(results__current=True))).values_list(
            "pk", "n"
        )
    )
    visits = []
    for match in table.matches.select_related("north_entrant", "east_entrant").prefetch_related(
        SEATED
    ):
        seated = [seat.entrant for seat in match.seats.all()] or [
            match.north_entrant,
            match.east_entrant,
        ]
        visits.append(
            {"round": match.round, "entrants": seated, "played": done[match.pk] >= boards}
        )
    visits.sort(key=lambda visit: visit["round"])
    return render_to_string(
        "scoring/public/table_in_play.html",
        {
            "tournament": tournament,
            "table": table,
            "visits": visits,
            "played": sum(visit["played"] for visit in visits),
            "status": standings_status(tournament, state),
        },
    )


def _players_table_html(tournament: Tournament, state: StandingsState, table: Table) -> str:
    matches = list(table.matches.prefetch_related(SEATED).order_by("round"))
    results = {
        (r.match_id, r.board_id): r
        for r in Result.objects.filter(match__table=table, current=True).select_related(
            "submission"
        )
    }
    points = _points_at(table)
    boards = [
        _board_seats(tournament, board, matches, results, points)
        for board in table.boards.order_by("number")
    ]
    return _table_fragment(tournament, state, table, boards, seat_names=SEAT_NAMES)


def _entrant_lines(tournament: Tournament, entrant: Entrant) -> list[dict[str, Any]]:
    """One line per match and board of the team: its own table result and ranking points."""
    matches = selectors.matches_of(entrant)
    results = {
        (r.match_id, r.board.number): r
        for r in Result.objects.filter(match__in=matches, current=True).select_related("board")
    }
    points = {
        (p.match_id, p.board.number): p.points
        for p in RankingPoints.objects.filter(entrant=entrant).select_related("board")
    }
    boards = _boards_of_matches(tournament)
    if tournament.of_players:
        lines = _player_lines(entrant, matches, results, points, boards)
    else:
        lines = _pair_lines(tournament, entrant, matches, results, points, boards)
    # A table's results are public once the table is complete (RULES: who may see what).
    complete = visibility.complete_tables(tournament)
    for line in lines:
        line["hidden"] = line["match"].table.number not in complete
    return lines


@dataclass
class _ByeRound:
    """Stands in for a match on a bye's line: the round it sits out."""

    round: int


def _bye_lines(
    tournament: Tournament, entrant: Entrant, lines: list[dict[str, Any]], standing: Standing | None
) -> list[dict[str, Any]]:
    """One line per round the entrant sits out, its points explained: a bye is worth what
    the standings gave it beside its own results (their total less its ranking points at
    the tables), shown on the line when it has a single bye."""
    rounds = selectors.bye_rounds(tournament, [line["match"] for line in lines])
    if not rounds:
        return []
    total = _bye_total(tournament, entrant, standing)
    words = selectors.bye_words(tournament)
    gone = room_selectors.withdrawn_after(tournament).get(entrant.pk)
    return [
        {
            "match": _ByeRound(number),
            "bye": room_selectors.sitting_out_words(words, number, gone),
            "total": total,
            "points": points_text(total) if total is not None and len(rounds) == 1 else "",
        }
        for number in rounds
    ]


def _bye_total(tournament: Tournament, entrant: Entrant, standing: Standing | None) -> float | None:
    """What the entrant's byes are worth: its standing's points less its ranking points at
    the tables; None when nothing is ranked yet, when the byes give nothing, or under totals
    of a game of individuals (a bye adds nothing to a total)."""
    if standing is None or (tournament.of_players and tournament.ranking == "totals"):
        return None
    own = RankingPoints.objects.filter(entrant=entrant).aggregate(sum=Sum("points"))["sum"] or 0
    return round(standing.points - own, 6) or None


def _side_score(result: Result | None, side: str) -> int | None:
    """A side's table result on a board (NS or EW); None before there is one."""
    if result is None:
        return None
    return result.north_result if side == "NS" else result.east_result


def _pair_lines(tournament: Tournament, entrant: Entrant, matches, results, points, boards):
    """One line per match and board of a pair: its side, opponents, table result, points."""
    forfeited = visibility.forfeiting_entrants(tournament)
    reached = visibility.reached_round(tournament) if forfeited else 0
    lines = []
    for match in matches:
        side = "NS" if match.north_entrant_id == entrant.pk else "EW"
        opponent = match.east_entrant if side == "NS" else match.north_entrant
        # A forfeit of a round not reached yet is still to come, not played.
        forfeit = match.round <= reached and (entrant.pk in forfeited or opponent.pk in forfeited)
        for board_number in boards.get(match.pk, []):
            result = results.get((match.pk, board_number))
            lines.append(
                {
                    "match": match,
                    "side": side,
                    "board": board_number,
                    "result": result,
                    "score": _side_score(result, side),
                    "points": points_text(points.get((match.pk, board_number))),
                    "opponent": opponent,
                    "forfeit": forfeit
                    and _forfeit_words(entrant.pk in forfeited, opponent.pk in forfeited),
                }
            )
    return lines


def _forfeit_words(own: bool, opponent: bool) -> str:
    """What a disqualification makes of a match on a team's card."""
    if own and opponent:
        return _("not played (both disqualified)")
    if own:
        return _("forfeit −1000")
    return _("0 (the opponents forfeit)") if opponent else ""


def _player_lines(entrant: Entrant, matches, results, points, boards) -> list[dict[str, Any]]:
    """One line per round and board of a player: his seat, his table result, his points."""
    seats = dict(MatchSeat.objects.filter(entrant=entrant).values_list("match_id", "seat"))
    lines = []
    for match in matches:
        seat = seats.get(match.pk)
        for board_number in boards.get(match.pk, []):
            result = results.get((match.pk, board_number))
            lines.append(
                {
                    "match": match,
                    "side": seat,
                    "board": board_number,
                    "result": result,
                    "score": None if result is None else (result.seats or {}).get(seat),
                    "points": points_text(points.get((match.pk, board_number))),
                    "opponent": None,
                }
            )
    return lines


def _entrant_html(tournament: Tournament, state: StandingsState, number: int) -> str:
    entrant = get_object_or_404(
        Entrant.objects.select_related("disqualification"), tournament=tournament, number=number
    )
    standing = Standing.objects.filter(tournament=tournament, entrant=entrant).first()
    lines = _entrant_lines(tournament, entrant)
    byes = _bye_lines(tournament, entrant, lines, standing)
    return render_to_string(
        "scoring/public/team_fragment.html",
        {
            "tournament": tournament,
            "entrant": entrant,
            "lines": sorted(lines + byes, key=lambda line: line["match"].round),
            "byes": byes,
            "bye_total": points_text(byes[0]["total"]) if byes and byes[0]["total"] else "",
            # A bye's words span the table, board, side, opponents and score columns.
            "bye_span": 3 + (tournament.boards_per_table > 1) + (not tournament.of_players),
            "standing": standing,
            "standing_points": points_text(standing.points) if standing else "",
            "standing_percentage": percentage_text(standing.percentage) if standing else "",
            "entry": _stored_entries(tournament).get(entrant.pk, {})
            if tournament.of_players
            else {},
            "sheets": _drawn_sheets(tournament, entrant),
            "status": standings_status(tournament, state),
            "several_boards": tournament.boards_per_table > 1,
            "tiebreak": tournament.game_rules.totals_tiebreak,
            "substitutes": room_selectors.substitutes_of_entrants(tournament).get(entrant.pk, []),
            "withdrew_after": room_selectors.withdrawn_after(tournament).get(entrant.pk),
        },
    )


def _drawn_sheets(tournament: Tournament, entrant: Entrant) -> list[dict[str, Any]]:
    """A player's score sheets as rows of places, for games that keep one (the pyramid:
    1, 2, 3, 4, 3, 2, 1 places), each place its tricks won and points once filled."""
    if not tournament.game_rules.sheet_size:
        return []
    drawn = []
    for sheet in sheets.player_sheets(tournament, entrant):
        rows = [
            {
                "declared": declared,
                "places": [
                    {"won": won, "points": points}
                    for won, points in zip(
                        sheet["won"][declared], sheet["points"][declared], strict=True
                    )
                ]
                + [None] * sheet["remaining"][declared],
            }
            for declared in range(len(sheet["quota"]))
        ]
        drawn.append({**sheet, "rows": rows})
    return drawn


PUBLIC_FRAGMENTS = {
    "standings": (lambda t, s, _n: _standings_html(t, s), gettext_noop("Standings")),
    "table": (_table_html, gettext_noop("Table {number}")),
    "team": (_entrant_html, gettext_noop("Team {number}")),
}


def _fragment_html(kind: str, tournament: Tournament, state: StandingsState, number: int | None):
    build, _title = PUBLIC_FRAGMENTS[kind]
    return cached_fragment(
        kind, number, tournament, state, lambda: build(tournament, state, number)
    )


def _public_page(request: HttpRequest, slug: str, kind: str, number: int | None = None):
    tournament, state = _public_tournament(request, slug)
    html = _fragment_html(kind, tournament, state, number)
    fragment_url = reverse(f"scoring:{kind}-fragment", args=[slug, number] if number else [slug])
    return render(
        request,
        "scoring/public/page.html",
        {
            "tournament_public": tournament,
            "kind": kind,
            "number": number,
            "title": _(PUBLIC_FRAGMENTS[kind][1]).format(number=number),
            "fragment": html,
            "fragment_url": fragment_url,
            "version": selectors.published_version(tournament, state),
        },
    )


def _public_fragment(request: HttpRequest, slug: str, kind: str, number: int | None = None):
    """The fragment alone, for the page's refresh; 204 when the client has this version."""
    tournament, state = _public_tournament(request, slug)
    version = selectors.published_version(tournament, state)
    if request.GET.get("v") == version:
        response = HttpResponse(status=204)
    else:
        response = HttpResponse(_fragment_html(kind, tournament, state, number))
    response["X-Fragment-Version"] = version
    response["Cache-Control"] = "no-cache"
    return response


def public_home(request: HttpRequest, slug: str) -> HttpResponse:
    return redirect("scoring:standings", slug=slug)


def standings_page(request: HttpRequest, slug: str) -> HttpResponse:
    return _public_page(request, slug, "standings")


def standings_fragment(request: HttpRequest, slug: str) -> HttpResponse:
    return _public_fragment(request, slug, "standings")


def table_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_page(request, slug, "table", number)


def table_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_fragment(request, slug, "table", number)


def entrant_page(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_page(request, slug, "team", number)


def entrant_fragment(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    return _public_fragment(request, slug, "team", number)
