"""The API's public reads of a published tournament: the list, a tournament, its entrants,
schedule, matches and standings, and the legal calls of an auction."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.http import HttpResponse
from django.urls import reverse
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import selectors, visibility
from scoring.api import outputs as o
from scoring.api import serializers as s
from scoring.api.views.common import board_entry, public_tournament, tournament_summary
from scoring.models import Result
from tournaments import room_selectors
from tournaments.models import Entrant, Match, Status, Tournament
from tournaments.selectors import schedule_data


def entrant(entrant: Entrant) -> dict[str, Any]:
    return {"number": entrant.number, "name": entrant.name}


class PublicView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []


class IndexView(PublicView):
    """``/api/v1/``: where the API's schema, its interactive page and its lists are."""

    @extend_schema(
        operation_id="api_index",
        summary="The API's index: its schema, its documentation and its lists",
        responses={200: o.IndexSerializer},
    )
    def get(self, request):
        return Response(
            {
                "name": "Duplicate card games tournaments API",
                "version": "v1",
                "schema": request.build_absolute_uri(reverse("api-schema")),
                "docs": request.build_absolute_uri(reverse("api-docs")),
                "tournaments": request.build_absolute_uri(reverse("api:tournaments")),
            }
        )


@extend_schema(exclude=True)
class NotFoundView(PublicView):
    """Any other address under ``/api/v1/``: a problem document (JSON), whatever the method
    and whether the site runs in debug mode or not."""

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise NotFound("no such address in the API; its index is /api/v1/")

    def get(self, request, *args, **kwargs):
        raise NotFound("no such address in the API; its index is /api/v1/")


class TournamentListView(PublicView):
    @extend_schema(
        operation_id="tournaments_list",
        summary="Tournaments (drafts are their organisers' own)",
        responses={200: o.TournamentSummarySerializer(many=True)},
    )
    def get(self, request):
        public = Tournament.objects.exclude(status=Status.DRAFT).order_by("name")
        return Response([tournament_summary(t) for t in public])


class TournamentDetailView(PublicView):
    @extend_schema(
        operation_id="tournament_detail",
        summary="A tournament",
        responses={200: o.TournamentDetailSerializer},
    )
    def get(self, request, slug):
        tournament = public_tournament(slug)
        body = tournament_summary(tournament)
        body["tables"] = tournament.tables.count()
        body["teams"] = tournament.entrants.count()
        return Response(body)


class EntrantListView(PublicView):
    @extend_schema(
        operation_id="teams_list",
        summary="Teams or players (never their access codes)",
        responses={200: o.EntrantRowSerializer(many=True)},
    )
    def get(self, request, slug):
        tournament = public_tournament(slug)
        entrants = tournament.entrants.select_related("disqualification").order_by("number")
        withdrawn = room_selectors.withdrawn_after(tournament)
        substitutes = room_selectors.substitutes_data(tournament)
        return Response(
            [
                {
                    "number": t.number,
                    "name": t.name,
                    "players": [p for p in (t.player1, t.player2) if p],
                    "disqualified": t.is_disqualified,
                    "withdrawn_after": withdrawn.get(t.pk),
                    "substitutes": substitutes.get(t.pk, []),
                }
                for t in entrants
            ]
        )


class ScheduleView(PublicView):
    @extend_schema(
        operation_id="schedule_detail",
        summary="The schedule (interchange format)",
        responses={200: o.ScheduleSerializer},
    )
    def get(self, request, slug):
        return Response(schedule_data(public_tournament(slug)))


class MatchListView(PublicView):
    @extend_schema(
        operation_id="matches_list",
        summary="Matches and the state of each board",
        responses={200: o.MatchSerializer(many=True)},
    )
    def get(self, request, slug):
        tournament = public_tournament(slug)
        rows = selectors.director_overview(tournament)
        complete = visibility.complete_tables(tournament)
        pairs = tournament.game_rules.of_pairs
        substitutes = room_selectors.substitutes_of_matches(
            tournament, list({row["match"].pk: row["match"] for row in rows}.values())
        )
        by_match: dict[int, dict[str, Any]] = {}
        for row in rows:
            match = row["match"]
            entry = by_match.get(match.pk)
            if entry is None:
                entry = _match_entry(match, pairs, substitutes.get(match.pk, []))
                by_match[match.pk] = entry
            board = board_entry(row["board"], row["state"])
            # A table's results are public once every match there is played.
            shown = match.table.number in complete
            board["result"] = _public_result(row["result"], pairs) if shown else None
            entry["boards"].append(board)
        return Response(list(by_match.values()))


def _match_entry(match: Match, pairs: bool, substitutes: list[Any]) -> dict[str, Any]:
    """A match without its boards: its round, its table, its entrants (a game of pairs: North-
    South and East-West; of individuals: the players by seat, N, E, S, W) and substitutes."""
    entry: dict[str, Any] = {"id": match.pk, "round": match.round, "table": match.table.number}
    if pairs:
        entry["ns"] = entrant(match.north_entrant)
        entry["ew"] = entrant(match.east_entrant)
    else:
        entry["seats"] = {seat: entrant(player) for seat, player in match.seated}
    entry["substitutes"] = substitutes
    entry["boards"] = []
    return entry


def _public_result(result: Result | None, pairs: bool) -> dict[str, Any] | None:
    """A board's result as the public sees it: each side's table result (a game of pairs)
    or each seat's, and its kind; None before there is one."""
    if result is None:
        return None
    if pairs:
        return {"ns": result.north_result, "ew": result.east_result, "kind": result.kind}
    return {"seats": result.seats or {}, "kind": result.kind}


# How long a rendered standings body stays in the cache; each new version has its own key.
STANDINGS_BODY_TTL = 300
STANDINGS_BODY_SCHEMA = 3  # bump when the body's shape changes


class StandingsView(PublicView):
    """The stored standings: megabytes in a big tournament, polled by many. Each version is
    rendered once and served from the cache; a client that has it (``If-None-Match``) gets
    304 without the standings being read at all."""

    renderer_classes = [JSONRenderer]

    @extend_schema(
        operation_id="standings_detail",
        summary="The stored standings",
        responses={
            200: o.StandingsSerializer,
            304: OpenApiResponse(description="Unchanged since the ETag sent in If-None-Match"),
        },
    )
    def get(self, request, slug):
        tournament = public_tournament(slug)
        state = selectors.standings_bookkeeping(tournament)
        version = _standings_version(tournament, state)
        sent = parse_etags(request.headers.get("If-None-Match", ""))
        if f'"{version}"' in sent or "*" in sent:
            return _standings_response(status.HTTP_304_NOT_MODIFIED, version)
        body = cache.get(_standings_cache_key(tournament, version))
        if body is None:
            if state.pk is not None:
                state.refresh_from_db()  # the standings and their versions, as one row
            version = _standings_version(tournament, state)
            body = JSONRenderer().render(_standings_body(tournament, state))
            cache.set(_standings_cache_key(tournament, version), body, STANDINGS_BODY_TTL)
        return _standings_response(status.HTTP_200_OK, version, body)


def _standings_version(tournament: Tournament, state) -> str:
    return f"{STANDINGS_BODY_SCHEMA}.{selectors.published_version(tournament, state)}"


def _standings_cache_key(tournament: Tournament, version: str) -> str:
    return f"pym:api-standings:{tournament.pk}:{version}"


def _standings_body(tournament: Tournament, state) -> dict[str, Any]:
    """The stored standings as the public may see them: entrants by number and name, and the
    ranked results of complete tables only (RULES: who may see what, and when)."""
    stored = state.standings or {"provisional": True, "groups": [], "standings": []}
    entrants = {
        str(pk): {"number": number, "name": name}
        for pk, number, name in tournament.entrants.values_list("pk", "number", "name")
    }
    complete = visibility.complete_tables(tournament)
    return {
        "tournament": tournament.slug,
        "status": selectors.standings_kind(tournament, state),
        "stale": state.stale,
        "computed_at": state.computed_at,
        **stored,
        "groups": [
            {**group, "results": [_named(row, entrants) for row in group["results"]]}
            for group in stored.get("groups", [])
            if group.get("table") in complete
        ],
        "standings": [
            _without_open_tables(_named(row, entrants), complete)
            for row in stored.get("standings", [])
        ],
    }


def _without_open_tables(row: dict[str, Any], complete: set[int]) -> dict[str, Any]:
    """A standings row whose per-table lines (``tables``) keep only complete tables."""
    if "tables" not in row:
        return row
    return {**row, "tables": [line for line in row["tables"] if line.get("table") in complete]}


def _named(row: dict[str, Any], entrants: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A standings row with its entrant ("team" or "player") by number and name."""
    key = "player" if "player" in row else "team"
    return {**row, key: entrants.get(str(row.get(key)), {"number": None, "name": None})}


def _standings_response(code: int, version: str, body: bytes = b"") -> HttpResponse:
    response = HttpResponse(body, status=code, content_type="application/json")
    response["ETag"] = f'"{version}"'
    response["Cache-Control"] = "no-cache"  # may be kept, but asked again each time
    return response


class LegalCallsView(PublicView):
    @extend_schema(
        operation_id="legal_calls",
        summary="The bidding box: the legal next calls after an auction prefix",
        parameters=[
            OpenApiParameter("table", int, required=True),
            OpenApiParameter(
                "calls",
                str,
                description=(
                    "Comma-separated calls so far, e.g. N:G,E:G%2B1,S:P. A plus may also be "
                    "sent unescaped (N:G+1): the space it becomes is read as the plus."
                ),
            ),
        ],
        responses={200: s.LegalCallsSerializer},
    )
    def get(self, request, slug):
        tournament = public_tournament(slug)
        game = tournament.game_rules
        if not game.offers_legal_calls:
            raise NotFound("this game has no auction; a board's choices are at its entry-form/")
        table = request.query_params.get("table", "")
        if not table.isdigit():
            raise ValidationError({"table": "a table number is required"})
        # A ``+`` left unescaped in a query string arrives as a space (``N:G+1`` as
        # ``N:G 1``): a space inside a call is read as the call's plus.
        calls = [
            "+".join(c.split())
            for c in request.query_params.get("calls", "").split(",")
            if c.strip()
        ]
        if len(calls) > 60:
            raise ValidationError({"calls": "too many calls"})
        at_table = game.table_scorer_config(tournament.rules, int(table))
        try:
            return Response(game.entry_options(calls=calls, **at_table))
        except ValueError as exc:  # the game's error naming the call it cannot take
            raise ValidationError({"calls": str(exc)}) from None
