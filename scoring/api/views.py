"""The REST API, ``/api/v1/``: public reads, the scorers' writes (team access code in the
``X-Team-Code`` header) and the director's actions (organiser token or session).

Views stay thin: they read the request, call a service or selector, and shape the answer.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.http import parse_etags
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from engine.games.pymtheg.auction import AuctionError, legal_next_calls
from scoring import selectors, services, visibility
from scoring.api import outputs as o
from scoring.api import serializers as s
from scoring.api.access import (
    IsOrganiser,
    ScorerWriteThrottle,
    client_address,
    team_from_request,
)
from scoring.api.parsers import BoundedJSONParser
from scoring.models import Result, Review, Submission
from tournaments.models import Match, Status, Tournament
from tournaments.selectors import is_public, schedule_data

TEAM_CODE = OpenApiParameter(
    "X-Team-Code",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="The team's access code from its route card.",
)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _public_tournament(slug: str) -> Tournament:
    """A tournament the public may read: a draft is its organisers' own (404)."""
    tournament = _tournament(slug)
    if not is_public(tournament):
        raise NotFound("no such tournament")
    return tournament


def _match(tournament: Tournament, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("table", "ns_team", "ew_team"),
        pk=match_id,
        table__tournament=tournament,
    )


def _valid(serializer_class, data) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def _check_body_size(request) -> None:
    limit = settings.SCORER_MAX_BODY_BYTES
    length = request.META.get("CONTENT_LENGTH") or "0"
    if length.isdigit() and int(length) > limit:
        raise ValidationError({"body": f"larger than {limit} bytes"})


def tournament_summary(tournament: Tournament) -> dict[str, Any]:
    rules = tournament.rules
    return {
        "slug": tournament.slug,
        "name": tournament.name,
        "status": tournament.status,
        "game": tournament.game,
        "entrants": tournament.game_rules.entrants,
        "table_size": tournament.table_size,
        "settings": rules,
        "ruleset": rules.get("ruleset"),  # Pymtheg's; null for other games
        "ranking": tournament.ranking,
        "ties": tournament.ties,
        "boards_per_table": tournament.boards_per_table,
        "direction": tournament.direction,
        "side_mode": tournament.side_mode,
    }


def _board_entry(board_number: int, state) -> dict[str, Any]:
    return {"board": board_number, "state": state.state, "label": state.label}


class PublicView(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []


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
        tournament = _public_tournament(slug)
        body = tournament_summary(tournament)
        body["tables"] = tournament.tables.count()
        body["teams"] = tournament.teams.count()
        return Response(body)


class TeamListView(PublicView):
    @extend_schema(
        operation_id="teams_list",
        summary="Teams or players (never their access codes)",
        responses={200: o.TeamSerializer(many=True)},
    )
    def get(self, request, slug):
        tournament = _public_tournament(slug)
        teams = tournament.teams.select_related("disqualification").order_by("number")
        return Response(
            [
                {
                    "number": t.number,
                    "name": t.name,
                    "players": [p for p in (t.player1, t.player2) if p],
                    "disqualified": t.is_disqualified,
                }
                for t in teams
            ]
        )


class ScheduleView(PublicView):
    @extend_schema(
        operation_id="schedule_detail",
        summary="The schedule (interchange format)",
        responses={200: o.ScheduleSerializer},
    )
    def get(self, request, slug):
        return Response(schedule_data(_public_tournament(slug)))


class MatchListView(PublicView):
    @extend_schema(
        operation_id="matches_list",
        summary="Matches and the state of each board",
        responses={200: o.MatchSerializer(many=True)},
    )
    def get(self, request, slug):
        tournament = _public_tournament(slug)
        rows = selectors.director_overview(tournament)
        complete = visibility.complete_tables(tournament)
        by_match: dict[int, dict[str, Any]] = {}
        for row in rows:
            match = row["match"]
            entry = by_match.setdefault(
                match.pk,
                {
                    "id": match.pk,
                    "round": match.round,
                    "table": match.table.number,
                    "ns": {"number": match.ns_team.number, "name": match.ns_team.name},
                    "ew": {"number": match.ew_team.number, "name": match.ew_team.name},
                    "boards": [],
                },
            )
            board = _board_entry(row["board"], row["state"])
            result = row["result"]
            # A table's results are public once every match there is played.
            shown = result is not None and match.table.number in complete
            board["result"] = (
                {"ns": result.ns_result, "ew": result.ew_result, "kind": result.kind}
                if shown
                else None
            )
            entry["boards"].append(board)
        return Response(list(by_match.values()))


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
        tournament = _public_tournament(slug)
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
        for pk, number, name in tournament.teams.values_list("pk", "number", "name")
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
                "calls", str, description="Comma-separated calls so far, e.g. N:G,E:P"
            ),
        ],
        responses={200: s.LegalCallsSerializer},
    )
    def get(self, request, slug):
        tournament = _public_tournament(slug)
        if tournament.game_rules.entry_kind != "auction":
            raise NotFound("this game has no auction; a board's choices are at its entry-form/")
        table = request.query_params.get("table", "")
        if not table.isdigit():
            raise ValidationError({"table": "a table number is required"})
        calls = [c for c in request.query_params.get("calls", "").split(",") if c.strip()]
        if len(calls) > 60:
            raise ValidationError({"calls": "too many calls"})
        try:
            box = legal_next_calls(
                calls, tournament.opening_seat_for(int(table)), tournament.direction
            )
        except AuctionError as exc:
            raise ValidationError({"calls": str(exc)}) from None
        return Response(
            {
                "seat": box.seat.name if box.seat is not None else None,
                "calls": box.calls,
                "ended": box.ended,
                "passed_out": box.passed_out,
            }
        )


class TeamView(APIView):
    """Base of the views a team reaches with its access code."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScorerWriteThrottle]
    # Phones send and read JSON only; fewer choices make every answer cheaper.
    parser_classes = [BoundedJSONParser]
    renderer_classes = [JSONRenderer]

    def team(self, request, slug):
        return team_from_request(request, slug)

    def read(self, request, slug, serializer_class) -> tuple[Any, dict[str, Any]]:
        """The calling team and the checked body of a write."""
        _check_body_size(request)
        team = self.team(request, slug)
        return team, _valid(serializer_class, request.data)


class MeView(TeamView):
    @extend_schema(
        operation_id="team_me",
        summary="The calling team, its matches and their states",
        parameters=[TEAM_CODE],
        responses={200: o.MeSerializer},
    )
    def get(self, request, slug):
        team = self.team(request, slug)
        tournament = team.tournament
        overview, current = selectors.team_overview(team)
        # Each board's deal, once its result at this table stands (visibility's rule).
        seen = visibility.deals_seen_by(
            tournament,
            [(tm.match, n, state.has_result) for tm in overview for n, state in tm.boards],
        )
        return Response(
            {
                "team": {"number": team.number, "name": team.name},
                "tournament": tournament_summary(tournament),
                "current_match": current.pk if current else None,
                "matches": [
                    {
                        "id": tm.match.pk,
                        "round": tm.match.round,
                        "table": tm.match.table.number,
                        "side": tm.side,
                        "seat": {"NS": "N", "EW": "E"}.get(tm.side, tm.side),
                        "role": tm.role,
                        "opponent": (
                            {"number": tm.opponent.number, "name": tm.opponent.name}
                            if tm.opponent
                            else None
                        ),
                        "players": {
                            seat: {"number": player.number, "name": player.name}
                            for seat, player in tm.table_players
                        },
                        "opening": tournament.game_rules.table_context(
                            tournament.rules, tm.match.table.number
                        ).get("opening_seat"),
                        "needs_action": tm.needs_action,
                        "boards": [
                            {
                                **_board_entry(number, state),
                                "pending": s.SubmissionSerializer(state.pending).data
                                if state.pending is not None
                                else None,
                                "last_reason": state.last_reason,
                                "hands": seen.get((tm.match.pk, number)),
                            }
                            for number, state in tm.boards
                        ],
                    }
                    for tm in overview
                ],
            }
        )


class PreviewView(TeamView):
    @extend_schema(
        operation_id="entry_preview",
        summary="Score an entry without storing it",
        parameters=[TEAM_CODE],
        request=s.PreviewSerializer,
        responses={200: s.BoardScoreSerializer},
    )
    def post(self, request, slug, match_id, board):
        _check_body_size(request)
        team = self.team(request, slug)
        match = _match(team.tournament, match_id)
        if team.pk not in (match.ns_team_id, match.ew_team_id):
            raise PermissionDenied("only North and East of this match score its boards")
        data = _valid(s.PreviewSerializer, request.data)
        _record, score = services.score_entry(
            match, services.board_of(match, board), data["record"]
        )
        words = team.tournament.game_rules.describe(score)
        return Response({**score, "words": words})


class EntryFormView(TeamView):
    @extend_schema(
        operation_id="entry_form",
        summary="What North may enter on a board (games whose entry is a list of choices)",
        description=(
            "For Pyramid: the declarations left on the declarer's sheet, the trumps and the "
            "tricks, as the scorer's page offers them. 404 for a game with an entry of its "
            "own (Pymtheg: see legal-calls). Its fields are each game's own (Game.entry_form)."
        ),
        parameters=[TEAM_CODE],
        responses={200: dict},
    )
    def get(self, request, slug, match_id, board):
        team = self.team(request, slug)
        tournament = team.tournament
        if tournament.game_rules.entry_kind == "auction":
            raise NotFound("this game has no entry form; its calls are at legal-calls/")
        match = _match(tournament, match_id)
        if not match.seats.filter(team=team).exists():
            raise PermissionDenied("only the players of this match see its entry form")
        form = selectors.entry_forms(tournament, match).get(board)
        if form is None:
            raise NotFound(f"table {match.table.number} has no board {board}")
        return Response(form)


class SubmitView(TeamView):
    @extend_schema(
        operation_id="entry_submit",
        summary="North enters a board's result",
        parameters=[TEAM_CODE],
        request=s.SubmitSerializer,
        responses={
            201: s.SubmitAnswerSerializer,
            200: OpenApiResponse(
                s.SubmitAnswerSerializer,
                description="A re-send (the same client_id): the entry stored the first time.",
            ),
        },
    )
    def post(self, request, slug, match_id, board):
        team, data = self.read(request, slug, s.SubmitSerializer)
        submission = services.submit_entry(
            match_id=match_id,
            board_number=board,
            team=team,
            facts=data["record"],
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        resent = getattr(submission, "resent", False)
        code = status.HTTP_200_OK if resent else status.HTTP_201_CREATED
        return Response(s.SubmitAnswerSerializer(submission).data, status=code)


class AcceptView(TeamView):
    @extend_schema(
        operation_id="entry_accept",
        summary="East accepts North's entry",
        parameters=[TEAM_CODE],
        request=s.ActionSerializer,
        responses={200: s.ResultSerializer},
    )
    def post(self, request, slug, match_id, board, submission_id):
        team, data = self.read(request, slug, s.ActionSerializer)
        result = services.accept_entry(
            match_id=match_id,
            board_number=board,
            team=team,
            submission_id=submission_id,
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        return Response(s.ResultSerializer(result).data)


class RejectView(TeamView):
    @extend_schema(
        operation_id="entry_reject",
        summary="East rejects North's entry, with a reason",
        parameters=[TEAM_CODE],
        request=s.RejectSerializer,
        responses={200: s.ReviewSerializer},
    )
    def post(self, request, slug, match_id, board, submission_id):
        team, data = self.read(request, slug, s.RejectSerializer)
        review = services.reject_entry(
            match_id=match_id,
            board_number=board,
            team=team,
            submission_id=submission_id,
            reason=data["reason"],
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        return Response(s.ReviewSerializer(review).data)


class CallDirectorView(TeamView):
    @extend_schema(
        operation_id="call_director",
        summary="Call the director to a board",
        parameters=[TEAM_CODE],
        request=s.CallDirectorSerializer,
        responses={200: s.ReviewSerializer},
    )
    def post(self, request, slug, match_id, board):
        team, data = self.read(request, slug, s.CallDirectorSerializer)
        review = services.call_director(
            match_id=match_id,
            board_number=board,
            team=team,
            reason=data.get("reason", ""),
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        return Response(s.ReviewSerializer(review).data)


class DirectorView(APIView):
    permission_classes = [IsOrganiser]

    def read(self, request, slug, match_id, serializer_class) -> dict[str, Any]:
        """The checked body of a director's action on a match of this tournament."""
        _check_body_size(request)
        _match(_tournament(slug), match_id)
        return _valid(serializer_class, request.data)


def _history(match: Match, board: int) -> dict[str, Any]:
    """A board's whole history, for the director: every entry with why it disagrees with the
    deal on file, if it does."""
    entries = list(Submission.objects.filter(match=match, board__number=board))
    return {
        "submissions": [
            {**s.SubmissionSerializer(entry).data, "deal_disagreement": entry.deal_disagreement}
            for entry in entries
        ],
        "reviews": s.ReviewSerializer(
            Review.objects.filter(match=match, board__number=board), many=True
        ).data,
        "results": s.ResultSerializer(
            Result.objects.filter(match=match, board__number=board), many=True
        ).data,
    }


class DirectorBoardView(DirectorView):
    @extend_schema(
        operation_id="director_board",
        summary="A board of a match: state and full history",
        responses={200: o.DirectorBoardSerializer},
    )
    def get(self, request, slug, match_id, board):
        tournament = _tournament(slug)
        match = _match(tournament, match_id)
        state = services.board_state(match, services.board_of(match, board))
        return Response({"state": state.state, "label": state.label, **_history(match, board)})


class DirectorResultView(DirectorView):
    @extend_schema(
        operation_id="director_result",
        summary="Director: enter or correct a board's result",
        request=s.DirectorResultSerializer,
        responses={200: s.ResultSerializer},
    )
    def post(self, request, slug, match_id, board):
        data = self.read(request, slug, match_id, s.DirectorResultSerializer)
        result = services.director_enter_result(
            match_id=match_id,
            board_number=board,
            user=request.user,
            facts=data["record"],
            reason=data.get("reason", ""),
            client_id=data["client_id"],
        )
        return Response(s.ResultSerializer(result).data)


class DirectorAdjustView(DirectorView):
    @extend_schema(
        operation_id="director_adjust",
        summary="Director: an adjusted result (table results and a reason)",
        request=s.AdjustSerializer,
        responses={200: s.ResultSerializer},
    )
    def post(self, request, slug, match_id, board):
        data = self.read(request, slug, match_id, s.AdjustSerializer)
        result = services.director_adjust(
            match_id=match_id,
            board_number=board,
            user=request.user,
            ns=data.get("ns"),
            ew=data.get("ew"),
            seats=data.get("seats"),
            reason=data["reason"],
        )
        return Response(s.ResultSerializer(result).data)


class DirectorEraseView(DirectorView):
    @extend_schema(
        operation_id="director_erase",
        summary="Director: erase a board's result",
        request=s.EraseSerializer,
        responses={200: s.ReviewSerializer},
    )
    def post(self, request, slug, match_id, board):
        data = self.read(request, slug, match_id, s.EraseSerializer)
        review = services.director_erase(
            match_id=match_id, board_number=board, user=request.user, reason=data["reason"]
        )
        return Response(s.ReviewSerializer(review).data)
