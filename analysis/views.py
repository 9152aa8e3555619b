from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from analysis import services
from engine.core.words import plural
from tournaments.models import Tournament
from tournaments.permissions import organiser_required


@organiser_required
@require_POST
def analyse(request: HttpRequest, slug: str) -> HttpResponse:
    """Start the job for every board without a table (``again``: every board)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.game_rules.offers_analysis(tournament.rules):
        messages.error(request, f"{tournament.game_rules.title} has no double-dummy analysis.")
        return redirect("tournaments:deals", slug=slug)
    count = services.analyse(tournament, again=request.POST.get("again") == "1")
    if count:
        messages.success(request, f"Analysis started for {plural(count, 'board')}.")
    else:
        messages.info(request, "Every dealt board is analysed already.")
    return redirect("tournaments:deals", slug=slug)
