"""Pages of publishing.

Organisers (``organiser_required``): the publishing page (settings, exports with their
progress, publication), the JSON status the page polls, and the download of any finished
export. Everyone: the downloads page with the published files, the hand records (when the
organiser's setting allows them) and the charts. Public pages only read stored rows: the
charts are drawn by the chart task, never on a page view (but for the rare spread drawn
again without a table that is no longer complete: ``selectors.public_charts``).
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from analysis.selectors import analyses_changed
from publishing import conf, selectors, services
from publishing.forms import ExportForm, PublishForm, PublishingSettingsForm
from publishing.models import Export
from publishing.services import PublishingError
from scoring.selectors import (
    cached_fragment,
    published_version,
    standings_bookkeeping,
    standings_status,
)
from tournaments.models import Tournament
from tournaments.permissions import is_organiser, organiser_required
from tournaments.public import NotPublished
from tournaments.selectors import is_public

CONTENT_TYPES = {
    Export.Format.XLSX: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    Export.Format.ODS: "application/vnd.oasis.opendocument.spreadsheet",
    Export.Format.CSV: "application/zip",
}
EXTENSION_FORMATS = {"xlsx": Export.Format.XLSX, "ods": Export.Format.ODS, "zip": Export.Format.CSV}


def _tournament(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def _public_tournament(request: HttpRequest, slug: str) -> Tournament:
    """404 for a draft, but to its organisers."""
    tournament = _tournament(slug)
    if not is_public(tournament, request.user):
        raise NotPublished(tournament)
    return tournament


def _export(tournament: Tournament, pk: int) -> Export:
    exports = Export.objects.select_related("tournament")
    return get_object_or_404(exports, pk=pk, tournament=tournament)


def file_response(export: Export) -> FileResponse:
    """The export's file streamed from the exports storage (a folder or the database)."""
    opened = services.open_export(export)
    if opened is None:
        raise Http404("This export has no file (it failed, is not finished, or was cleaned up).")
    response = FileResponse(
        opened,
        as_attachment=True,
        filename=export.download_name,
        content_type=CONTENT_TYPES[export.format],
    )
    if export.size is not None:
        response["Content-Length"] = str(export.size)
    response["X-Content-SHA256"] = export.content_hash
    return response


# --- organiser -----------------------------------------------------------------------------


def _organiser_page(request: HttpRequest, tournament: Tournament, status: int = 200, **forms):
    found = selectors.publishing_settings(tournament)
    exports = selectors.recent_exports(tournament)
    release = selectors.hand_record_release(tournament, found)
    context: dict[str, Any] = {
        "tournament": tournament,
        "settings_form": forms.get("settings_form") or PublishingSettingsForm(instance=found),
        "export_form": forms.get("export_form") or ExportForm(),
        "exports": [(export, selectors.export_status(export)) for export in exports],
        "release": release,
        "released_tables": sorted(release.tables),
        "published": selectors.published_exports(tournament),
        "chart": selectors.chart_data(tournament),
        "watch": request.GET.get("export", ""),
    }
    return render(request, "publishing/organiser.html", context, status=status)


@organiser_required
def organiser_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    if request.method != "POST":
        return _organiser_page(request, tournament)
    found = selectors.publishing_settings(tournament)
    form = PublishingSettingsForm(request.POST, instance=found)
    if not form.is_valid():
        messages.error(request, "The settings were not saved: see the form below.")
        return _organiser_page(request, tournament, status=400, settings_form=form)
    services.update_settings(
        by=request.user,
        tournament=tournament,
        auto_publish_standings=form.cleaned_data["auto_publish_standings"],
        hand_records=form.cleaned_data["hand_records"],
    )
    messages.success(request, "Publishing settings saved.")
    return redirect("publishing:organiser", slug=slug)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@organiser_required
@require_POST
def export_start(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _tournament(slug)
    form = ExportForm(request.POST)
    if not form.is_valid():
        if _wants_json(request):
            return JsonResponse({"errors": form.errors}, status=400)
        messages.error(request, "Choose what to export and in which format.")
        return _organiser_page(request, tournament, status=400, export_form=form)
    export, started = services.request_export(
        tournament=tournament,
        kind=form.cleaned_data["kind"],
        fmt=form.cleaned_data["format"],
        by=request.user,
        force=form.cleaned_data["force"],
    )
    if _wants_json(request):
        return JsonResponse(selectors.export_status(export), status=202 if started else 200)
    if started:
        messages.success(request, _("Export started; the file appears below when it is ready."))
    else:
        messages.info(request, _("These results were exported already: here is that export."))
    return redirect(reverse("publishing:organiser", args=[slug]) + f"?export={export.pk}")


@never_cache
@organiser_required
def export_status(request: HttpRequest, slug: str, pk: int) -> JsonResponse:
    export = _export(_tournament(slug), pk)
    return JsonResponse(selectors.export_status(export))


@organiser_required
def export_download(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    return file_response(_export(_tournament(slug), pk))


@organiser_required
@require_POST
def export_publish(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    tournament = _tournament(slug)
    export = _export(tournament, pk)
    form = PublishForm(request.POST)
    form.is_valid()
    published = bool(form.cleaned_data.get("published"))
    try:
        services.publish_export(export=export, by=request.user, published=published)
    except PublishingError as exc:
        messages.error(request, f"Not published: {exc}.")
    else:
        messages.success(
            request,
            "Published on the downloads page." if published else "Taken off the downloads page.",
        )
    return redirect("publishing:organiser", slug=slug)


# --- public --------------------------------------------------------------------------------


def _public_context(tournament: Tournament, **extra: Any) -> dict[str, Any]:
    return {"tournament_public": tournament, **extra}


def downloads_page(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(request, slug)
    context = _public_context(tournament, published=selectors.published_exports(tournament))
    return render(request, "publishing/public/downloads.html", context)


def published_download(request: HttpRequest, slug: str, pk: int) -> FileResponse:
    export = _export(_public_tournament(request, slug), pk)
    if not export.published:
        raise Http404("This file is not published.")
    return file_response(export)


def latest_download(request: HttpRequest, slug: str, kind: str, ext: str) -> FileResponse:
    """A stable address for the latest published file of a kind and format, e.g.
    ``/t/<slug>/downloads/standings.xlsx``."""
    tournament = _public_tournament(request, slug)
    export = selectors.latest_published(tournament, kind, EXTENSION_FORMATS[ext])
    if export is None:
        raise Http404("Nothing of this kind is published yet.")
    return file_response(export)


def hand_records_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Each table's deals with every result played on them, once the organiser allows it.

    A page that says so while they are not public (404 while the organiser keeps them
    hidden; a "not yet" page while they will be). Organisers see every table, marked as a
    preview.
    """
    tournament = _public_tournament(request, slug)
    found = selectors.publishing_settings(tournament)
    release = selectors.hand_record_release(tournament, found)
    preview = is_organiser(request.user) and not release.everything
    state = standings_bookkeeping(tournament)
    if release.mode == "hidden" and not preview:
        context = _public_context(
            tournament, release=release, preview=False, fragment="", status=None
        )
        return render(request, "publishing/public/hand_records.html", context, status=404)
    if preview:
        tables = set(tournament.tables.values_list("number", flat=True))
        html = _hand_records_html(tournament, tables)
    else:
        changed = int(found.updated_at.timestamp() * 1e6) if found.updated_at else 0
        # A board's double-dummy table solved (or solved again) since shows at once.
        key = f"{found.hand_records}.{changed}.{analyses_changed(tournament)}"
        html = cached_fragment(
            "hand-records",
            key,
            tournament,
            state,
            lambda: _hand_records_html(tournament, release.tables),
        )
    context = _public_context(
        tournament,
        release=release,
        preview=preview,
        fragment=html,
        status=standings_status(tournament, state),
        version=published_version(tournament, state),
    )
    return render(request, "publishing/public/hand_records.html", context)


def _hand_records_html(tournament: Tournament, tables: set[int]) -> str:
    records = selectors.hand_records(tournament, tables) if tables else []
    return render_to_string(
        "publishing/public/hand_records_fragment.html",
        {"tournament": tournament, "records": records},
    )


def charts_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The places after every round and the spread of the results, drawn from complete
    tables only; the page names the tables still being played."""
    tournament = _public_tournament(request, slug)
    chart = selectors.chart_data(tournament)
    state = standings_bookkeeping(tournament)
    shown = selectors.public_charts(tournament, chart)
    context = _public_context(
        tournament,
        chart=chart,
        shown=shown,
        places_table=selectors.places_table(tournament, shown, conf.chart_lines()),
        status=standings_status(tournament, state),
        behind=chart is not None
        and (chart.computed_version != state.computed_version or shown.redrawing),
    )
    return render(request, "publishing/public/charts.html", context)
