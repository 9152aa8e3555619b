"""The clubs' API, beside ``/api/v1/``:

- ``GET /api/v1/clubs/<club>/members/``: the club's list, contacts included (the club's
  organisers only, by token or session; anyone else gets 404, as if the club did not exist);
  ``POST`` there adds a member; ``GET``/``PATCH /api/v1/clubs/<club>/members/<number>/``
  reads and changes one, ``POST .../<number>/deactivate/`` makes him inactive (the same
  organisers only, through ``clubs.services``: every change logged, a refusal a 400 problem
  naming every reason);
- ``GET /api/v1/clubs/<club>/players/<number>/``: a player's history, under the gate of the
  public page (``clubs.selectors``): to the public, the published events of a member who has
  not opted out (else 404); to the club's organisers, every event, marked published or not;
- ``GET /api/v1/clubs/<club>/seasons/<season>/ladder/``: a season's ladder as the ladder job
  stored it, public (a member who opted out has no name nor number there).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.exceptions import NotFound, PermissionDenied, ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import seasons, selectors, services
from clubs.models import Club, Member
from tournaments.permissions import IsOrganiser


class MemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = Member
        fields = ("number", "name", "contact", "active", "public")


class MemberWriteSerializer(serializers.Serializer):
    """A member as an organiser writes him: ``number`` and ``name`` to add him; any of the
    fields to change him (PATCH)."""

    number = serializers.CharField(
        max_length=20, help_text="Unique in the club (without case; inner spaces dropped)."
    )
    name = serializers.CharField(max_length=100)
    contact = serializers.CharField(
        max_length=200, required=False, allow_blank=True, help_text="Kept private."
    )
    active = serializers.BooleanField(required=False, help_text="Inactive: not suggested.")
    public = serializers.BooleanField(
        required=False, help_text="False: the member opted out of public pages."
    )


def _organised_club(request, club_slug: str) -> Club:
    club = selectors.club_for(request.user, club_slug)
    if club is None:
        raise NotFound("no such club")
    return club


def _member(club: Club, number: str) -> Member:
    member = selectors.member_by_number(club, number)
    if member is None or member.merged_into_id is not None:
        raise NotFound("no such member")
    return member


def _written(
    request,
    change: Any,
    values: dict[str, Any],
    *,
    body: MemberWriteSerializer | None = None,
    status: int = 200,
) -> Response:
    """The member a service's change (by the request's user) writes, with ``values`` and the
    fields of the request's ``body`` once valid; a refusal as the API says it (403, or a 400
    with every reason)."""
    if body is not None:
        body.is_valid(raise_exception=True)
        values = {**values, **body.validated_data}
    try:
        member = change(by=request.user, **values)
    except services.NotAllowed as exc:
        raise PermissionDenied(exc.messages[0]) from None
    except services.ClubError as exc:
        raise ValidationError({"non_field_errors": exc.messages}) from None
    return Response(MemberSerializer(member).data, status=status)


class EveningSerializer(serializers.Serializer):
    tournament = serializers.SlugField(help_text="The tournament's slug.")
    name = serializers.CharField()
    date = serializers.DateField(help_text="The day the event was played (its organiser's date).")
    game = serializers.CharField()
    entrant = serializers.IntegerField(help_text="The entrant's number in the tournament.")
    entrant_name = serializers.CharField()
    place = serializers.IntegerField(allow_null=True)
    percentage = serializers.FloatField(allow_null=True)
    status = serializers.CharField(
        help_text="The standings' status: ok, withdrawn ...; '' before any."
    )
    partner = serializers.CharField(help_text="'' in a game of individuals.")
    partner_number = serializers.CharField(
        allow_null=True, help_text="The partner's member number when his page is public."
    )
    published = serializers.BooleanField()


class PlayerSerializer(serializers.Serializer):
    club = serializers.SlugField()
    number = serializers.CharField()
    name = serializers.CharField()
    events = EveningSerializer(many=True)


def _evening(evening: selectors.Evening, *, public: bool) -> dict[str, Any]:
    partner = evening.partner_member
    shown = partner is not None and (partner.public or not public)
    return {
        "tournament": evening.tournament.slug,
        "name": evening.tournament.name,
        "date": evening.day,
        "game": evening.game,
        "entrant": evening.entrant.number,
        "entrant_name": evening.entrant.name,
        "place": evening.place,
        "percentage": evening.percentage,
        "status": evening.status,
        "partner": evening.partner,
        "partner_number": partner.number if shown else None,
        "published": evening.published,
    }


class MemberListView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="club_members",
        summary="A club's member list (its organisers only)",
        responses={200: MemberSerializer(many=True)},
    )
    def get(self, request, club_slug: str):
        club = _organised_club(request, club_slug)
        return Response(MemberSerializer(selectors.members_of(club), many=True).data)

    @extend_schema(
        operation_id="club_member_add",
        summary="Add a member to a club (its organisers only)",
        request=MemberWriteSerializer,
        responses={201: MemberSerializer},
    )
    def post(self, request, club_slug: str):
        club = _organised_club(request, club_slug)
        body = MemberWriteSerializer(data=request.data)
        return _written(request, services.add_member, {"club": club}, body=body, status=201)


class MemberView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="club_member",
        summary="A member of a club, contact included (its organisers only)",
        responses={200: MemberSerializer},
    )
    def get(self, request, club_slug: str, number: str):
        member = _member(_organised_club(request, club_slug), number)
        return Response(MemberSerializer(member).data)

    @extend_schema(
        operation_id="club_member_change",
        summary="Change a member's number, name, contact, active or public (its organisers only)",
        request=MemberWriteSerializer(partial=True),
        responses={200: MemberSerializer},
    )
    def patch(self, request, club_slug: str, number: str):
        member = _member(_organised_club(request, club_slug), number)
        body = MemberWriteSerializer(data=request.data, partial=True)
        return _written(request, services.update_member, {"member": member}, body=body)


class MemberDeactivateView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        operation_id="club_member_deactivate",
        summary="Make a member inactive: kept with his events, no longer suggested",
        request=None,
        responses={200: MemberSerializer},
    )
    def post(self, request, club_slug: str, number: str):
        member = _member(_organised_club(request, club_slug), number)
        return _written(request, services.update_member, {"member": member, "active": False})


class PlayerView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="club_player",
        summary="A player's events: the published ones, or every one for the club's organisers",
        responses={200: PlayerSerializer},
    )
    def get(self, request, club_slug: str, number: str):
        club = selectors.club_for(request.user, club_slug)
        member = selectors.member_by_number(club, number) if club is not None else None
        public = member is None
        if public:
            member = selectors.public_member(club_slug, number)
        if member is None:
            raise NotFound("no such player")
        evenings = selectors.player_history(member, public=public)
        body = {
            "club": member.club.slug,
            "number": member.number,
            "name": member.name,
            "events": [_evening(evening, public=public) for evening in evenings],
        }
        return Response(PlayerSerializer(body).data)


class RungSerializer(serializers.Serializer):
    place = serializers.IntegerField(allow_null=True, help_text="null: below the minimum.")
    name = serializers.CharField(allow_null=True, help_text="null: the member opted out.")
    number = serializers.CharField(allow_null=True)
    score = serializers.FloatField()
    events = serializers.IntegerField()


class LadderSerializer(serializers.Serializer):
    club = serializers.SlugField()
    season = serializers.SlugField()
    name = serializers.CharField()
    starts = serializers.DateField()
    ends = serializers.DateField()
    kind = serializers.ChoiceField(choices=["best", "average", "points"])
    computed_at = serializers.DateTimeField(allow_null=True, help_text="null: not yet.")
    events = serializers.ListField(child=serializers.SlugField(), help_text="Tournament slugs.")
    ladder = RungSerializer(many=True)


class LadderView(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="club_ladder",
        summary="A season's ladder (members who opted out without their names)",
        responses={200: LadderSerializer},
    )
    def get(self, request, club_slug: str, season: str):
        found = seasons.public_season(club_slug, season)
        if found is None:
            raise NotFound("no such season")
        view = seasons.ladder_view(found, public=True)
        body = {
            "club": found.club.slug,
            "season": found.slug,
            "name": found.name,
            "starts": found.starts,
            "ends": found.ends,
            "kind": found.kind,
            "computed_at": view.computed_at,
            "events": [event.slug for event in view.events],
            "ladder": [
                {
                    "place": line.place,
                    "name": line.shown_name or None,
                    "number": line.member.number if line.shown_name else None,
                    "score": line.score,
                    "events": line.events,
                }
                for line in view.lines
            ],
        }
        return Response(LadderSerializer(body).data)
