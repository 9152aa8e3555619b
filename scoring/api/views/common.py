"""What the API's views share: the access-code parameter of the schema, looking up a
tournament and a match, reading a body, and a tournament's summary."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter
from rest_framework.exceptions import NotFound, ValidationError

from tournaments.models import Match, Tournament
from tournaments.selectors import is_public

TEAM_CODE = OpenApiParameter(
    "X-Team-Code",
    str,
    OpenApiParameter.HEADER,
    required=True,
    description="The team's access code from its route card.",
)


def tournament_or_404(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def public_tournament(slug: str) -> Tournament:
    """A tournament the public may read: a draft is its organisers' own (404)."""
    tournament = tournament_or_404(slug)
    if not is_public(tournament):
        raise NotFound("no such tournament")
    return tournament


def match_of(tournament: Tournament, match_id: int) -> Match:
    return get_object_or_404(
        Match.objects.select_related("table", "north_entrant", "east_entrant"),
        pk=match_id,
        table__tournament=tournament,
    )


def valid_data(serializer_class, data) -> dict[str, Any]:
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


def check_body_size(request) -> None:
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
        "ruleset": rules.get("ruleset"),  # null for a game without one
        "ranking": tournament.ranking,
        "ties": tournament.ties,
        "boards_per_table": tournament.boards_per_table,
        "direction": tournament.direction,
        "side_mode": tournament.side_mode,
    }


def board_entry(board_number: int, state) -> dict[str, Any]:
    return {"board": board_number, "state": state.state, "label": state.label}
