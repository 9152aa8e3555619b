"""Export jobs through the REST API (organisers: token or session), beside ``/api/v1/``:

- ``GET  /api/v1/tournaments/<slug>/exports/``: the latest exports and their states;
- ``POST /api/v1/tournaments/<slug>/exports/`` ``{"kind", "format", "force"}``: start one
  (202), or get the finished or running export of the same results (200);
- ``GET  /api/v1/tournaments/<slug>/exports/<id>/``: its state and progress;
- ``GET  /api/v1/tournaments/<slug>/exports/<id>/file/``: the file.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from publishing import selectors, services
from publishing.models import Export
from publishing.views import CONTENT_TYPES, file_response
from tournaments.models import Tournament
from tournaments.permissions import IsOrganiser


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false`` only: DRF's own also takes "yes", 1 and "on", which the schema
    does not say."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class ExportRequestSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=Export.Kind.choices, default=Export.Kind.RESULTS)
    format = serializers.ChoiceField(choices=Export.Format.choices, default=Export.Format.XLSX)
    force = StrictBooleanField(default=False)


class ExportStatusSerializer(serializers.Serializer):
    """The status of an export (for the schema; views answer ``selectors.export_status``)."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    format = serializers.CharField()
    state = serializers.ChoiceField(choices=Export.State.choices)
    progress = serializers.IntegerField(help_text="Percent done.")
    step = serializers.CharField()
    error = serializers.CharField()
    published = serializers.BooleanField()
    content_hash = serializers.CharField(help_text="SHA-256 of the file once done.")
    download_url = serializers.CharField(allow_null=True)


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _api_status(request, export: Export) -> dict:
    found = selectors.export_status(export)
    if found["download_url"]:
        found["download_url"] = request.build_absolute_uri(
            reverse("publishing:api-export-file", args=[export.tournament.slug, export.pk])
        )
    return found


class ExportListView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(responses=ExportStatusSerializer(many=True))
    def get(self, request, slug: str):
        tournament = _tournament(slug)
        return Response([_api_status(request, e) for e in selectors.recent_exports(tournament)])

    @extend_schema(
        request=ExportRequestSerializer,
        responses={200: ExportStatusSerializer, 202: ExportStatusSerializer},
    )
    def post(self, request, slug: str):
        tournament = _tournament(slug)
        serializer = ExportRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        export, started = services.request_export(
            tournament=tournament,
            kind=data["kind"],
            fmt=data["format"],
            by=request.user,
            force=data["force"],
        )
        export.refresh_from_db()
        code = status.HTTP_202_ACCEPTED if started else status.HTTP_200_OK
        return Response(_api_status(request, export), status=code)


class ExportDetailView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(responses=ExportStatusSerializer)
    def get(self, request, slug: str, pk: int):
        export = get_object_or_404(Export, pk=pk, tournament=_tournament(slug))
        return Response(_api_status(request, export))


class ExportFileView(APIView):
    permission_classes = [IsOrganiser]

    @extend_schema(
        responses={
            (200, content_type): OpenApiTypes.BINARY for content_type in CONTENT_TYPES.values()
        }
    )
    def get(self, request, slug: str, pk: int):
        export = get_object_or_404(Export, pk=pk, tournament=_tournament(slug))
        return file_response(export)
