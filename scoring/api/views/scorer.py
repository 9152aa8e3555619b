"""The API of the scorers' phones, with the team's access code (``X-Team-Code``): the team's
matches, a preview and the form of an entry, an entry sent, accepted or rejected, and the call
for the director."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import NotFound, PermissionDenied
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import selectors, services, visibility
from scoring.api import outputs as o
from scoring.api import serializers as s
from scoring.api.access import (
    ScorerWriteThrottle,
    WriteLimited,
    client_address,
    entrant_from_request,
    in_words,
    limit_board_write,
)
from scoring.api.parsers import BoundedJSONParser
from scoring.api.views.common import (
    TEAM_CODE,
    board_entry,
    check_body_size,
    match_of,
    tournament_summary,
    valid_data,
)
from tournaments.templatetags.languages import translated

if TYPE_CHECKING:
    from tournaments.models import Tournament


class EntrantView(APIView):
    """Base of the views a team reaches with its access code."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    throttle_classes = [ScorerWriteThrottle]
    # Phones send and read JSON only; fewer choices make every answer cheaper.
    parser_classes = [BoundedJSONParser]
    renderer_classes = [JSONRenderer]

    def entrant(self, request, slug):
        return entrant_from_request(request, slug)

    def throttled(self, request, wait):
        """The address's writes are used up (``ScorerWriteThrottle``): say so in words."""
        wait = wait or 1
        raise WriteLimited(
            wait,
            _(
                "Too many results and checks from your network in a short time. Wait %(wait)s, "
                "then send again."
            )
            % {"wait": in_words(wait)},
        )

    def read(self, request, slug, serializer_class) -> tuple[Any, dict[str, Any]]:
        """The calling team and the checked body of a write."""
        check_body_size(request)
        entrant = self.entrant(request, slug)
        return entrant, valid_data(serializer_class, request.data)

    def read_board_write(
        self, request, slug, match_id, board, serializer_class
    ) -> tuple[Any, dict[str, Any]]:
        """``read`` for a write on a board, counted against the team's and the board's limits
        (429 once one is used up)."""
        check_body_size(request)
        entrant = self.entrant(request, slug)
        limit_board_write(request, entrant, match_id, board)
        return entrant, valid_data(serializer_class, request.data)


class MeView(EntrantView):
    @extend_schema(
        operation_id="team_me",
        summary="The calling team, its matches and their states",
        parameters=[TEAM_CODE],
        responses={200: o.MeSerializer},
    )
    def get(self, request, slug):
        entrant = self.entrant(request, slug)
        tournament = entrant.tournament
        overview, current = selectors.entrant_overview(entrant)
        # Each board's deal, once its result at this table stands (visibility's rule).
        seen = visibility.deals_seen_by(
            tournament,
            [(tm.match, n, state.has_result) for tm in overview for n, state in tm.boards],
        )
        return Response(
            {
                "team": {"number": entrant.number, "name": entrant.name},
                "tournament": tournament_summary(tournament),
                "current_match": current.pk if current else None,
                "matches": [_my_match(tournament, tm, seen) for tm in overview],
            }
        )


def _my_match(
    tournament: Tournament, tm: selectors.EntrantMatch, seen: dict[tuple, Any]
) -> dict[str, Any]:
    """One of the calling entrant's matches: where and against whom it plays, its role, the
    table's opening seat, and each board's state (with the entry awaiting a check and the deal
    once seen)."""
    return {
        "id": tm.match.pk,
        "round": tm.match.round,
        "table": tm.match.table.number,
        "side": tm.side,
        "seat": {"NS": "N", "EW": "E"}.get(tm.side, tm.side),
        "role": tm.role,
        "opponent": (
            {"number": tm.opponent.number, "name": tm.opponent.name} if tm.opponent else None
        ),
        "players": {
            seat: {"number": player.number, "name": player.name}
            for seat, player in tm.table_players
        },
        "opening": tournament.game_rules.table_context(tournament.rules, tm.match.table.number).get(
            "opening_seat"
        ),
        "needs_action": tm.needs_action,
        "boards": [
            {
                **board_entry(number, state),
                "pending": s.SubmissionSerializer(state.pending).data
                if state.pending is not None
                else None,
                "last_reason": state.last_reason,
                "hands": seen.get((tm.match.pk, number)),
            }
            for number, state in tm.boards
        ],
    }


class PreviewView(EntrantView):
    @extend_schema(
        operation_id="entry_preview",
        summary="Score an entry without storing it",
        parameters=[TEAM_CODE],
        request=s.PreviewSerializer,
        responses={200: s.BoardScoreSerializer},
    )
    def post(self, request, slug, match_id, board):
        check_body_size(request)
        entrant = self.entrant(request, slug)
        match = match_of(entrant.tournament, match_id)
        if entrant.pk not in (match.north_entrant_id, match.east_entrant_id):
            raise PermissionDenied("only North and East of this match score its boards")
        data = valid_data(s.PreviewSerializer, request.data)
        _record, score = services.score_entry(
            match, services.board_of(match, board), data["record"]
        )
        # The score in words in the reader's language, as the page around it.
        words = translated(entrant.tournament.game_rules.describe(score))
        return Response({**score, "words": words})


class EntryFormView(EntrantView):
    @extend_schema(
        operation_id="entry_form",
        summary="What North may enter on a board (games whose entry is a list of choices)",
        description=(
            "E.g. the declarations left on a declarer's score sheet, the trumps and the tricks, "
            "as the scorer's page offers them. 404 for a game with an entry of its own (e.g. "
            "a bidding box: see legal-calls). Its fields are each game's own (Game.entry_form)."
        ),
        parameters=[TEAM_CODE],
        responses={200: dict},
    )
    def get(self, request, slug, match_id, board):
        entrant = self.entrant(request, slug)
        tournament = entrant.tournament
        match = match_of(tournament, match_id)
        if entrant.pk not in selectors.entrants_of(match):
            raise PermissionDenied("only the players of this match see its entry form")
        if not match.table.boards.filter(number=board).exists():
            raise NotFound(f"table {match.table.number} has no board {board}")
        form = selectors.entry_forms(tournament, match).get(board)
        if form is None:
            raise NotFound("this game has no entry form: its entry is its own (see legal-calls/)")
        return Response(form)


class SubmitView(EntrantView):
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
        entrant, data = self.read_board_write(request, slug, match_id, board, s.SubmitSerializer)
        submission = services.submit_entry(
            match_id=match_id,
            board_number=board,
            entrant=entrant,
            facts=data["record"],
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        resent = getattr(submission, "resent", False)
        code = status.HTTP_200_OK if resent else status.HTTP_201_CREATED
        return Response(s.SubmitAnswerSerializer(submission).data, status=code)


class AcceptView(EntrantView):
    @extend_schema(
        operation_id="entry_accept",
        summary="East accepts North's entry",
        parameters=[TEAM_CODE],
        request=s.ActionSerializer,
        responses={200: s.ResultSerializer},
    )
    def post(self, request, slug, match_id, board, submission_id):
        entrant, data = self.read_board_write(request, slug, match_id, board, s.ActionSerializer)
        result = services.accept_entry(
            match_id=match_id,
            board_number=board,
            entrant=entrant,
            submission_id=submission_id,
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        return Response(s.ResultSerializer(result).data)


class RejectView(EntrantView):
    @extend_schema(
        operation_id="entry_reject",
        summary="East rejects North's entry, with a reason",
        parameters=[TEAM_CODE],
        request=s.RejectSerializer,
        responses={200: s.ReviewSerializer},
    )
    def post(self, request, slug, match_id, board, submission_id):
        entrant, data = self.read_board_write(request, slug, match_id, board, s.RejectSerializer)
        review = services.reject_entry(
            match_id=match_id,
            board_number=board,
            entrant=entrant,
            submission_id=submission_id,
            reason=data["reason"],
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        return Response(s.ReviewSerializer(review).data)


class CallDirectorView(EntrantView):
    @extend_schema(
        operation_id="call_director",
        summary="Call the director to a board",
        parameters=[TEAM_CODE],
        request=s.CallDirectorSerializer,
        responses={200: s.ReviewSerializer},
    )
    def post(self, request, slug, match_id, board):
        entrant, data = self.read_board_write(
            request, slug, match_id, board, s.CallDirectorSerializer
        )
        review = services.call_director(
            match_id=match_id,
            board_number=board,
            entrant=entrant,
            reason=data.get("reason", ""),
            client_id=data["client_id"],
            remote_addr=client_address(request),
        )
        return Response(s.ReviewSerializer(review).data)
