"""The director's API (organiser token or session): a board's history, and a result entered,
adjusted or erased through ``scoring.services``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import services
from scoring.api import outputs as o
from scoring.api import serializers as s
from scoring.api.views.common import check_body_size, match_of, tournament_or_404, valid_data
from scoring.models import Result, Review, Submission
from tournaments.models import Match
from tournaments.permissions import IsOrganiser


class DirectorView(APIView):
    permission_classes = [IsOrganiser]

    def read(self, request, slug, match_id, serializer_class) -> dict[str, Any]:
        """The checked body of a director's action on a match of this tournament."""
        check_body_size(request)
        match_of(tournament_or_404(slug), match_id)
        return valid_data(serializer_class, request.data)


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
        tournament = tournament_or_404(slug)
        match = match_of(tournament, match_id)
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
