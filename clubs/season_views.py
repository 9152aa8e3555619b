"""Season pages: the organisers' list and form, the public ladder page and its workbook."""

from __future__ import annotations

from functools import partial

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _

from clubs import seasons
from clubs.forms import SeasonForm
from clubs.models import Season
from clubs.views import club_or_404, saved
from clubs.workbook import ladder_workbook
from tournaments.permissions import organiser_required

XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def rule_words(season: Season) -> str:
    """The ladder's rule, ties and what counts, in words (the page and the workbook)."""
    if season.kind == Season.Kind.BEST and season.best_n == 1:
        rule = _("Ranked by the best percentage of the season: an event not played counts 0.")
    elif season.kind == Season.Kind.BEST:
        rule = _(
            "Ranked by the best %(count)s percentages of the season, added and divided by "
            "%(count)s: an event not played counts 0."
        ) % {"count": season.best_n}
    elif season.kind == Season.Kind.AVERAGE and season.min_events == 1:
        rule = _("Ranked by the average percentage of the events played.")
    elif season.kind == Season.Kind.AVERAGE:
        rule = _(
            "Ranked by the average percentage of the events played; a member needs %(count)s "
            "events to be placed (those with fewer are listed below, without a place)."
        ) % {"count": season.min_events}
    else:
        table = ", ".join(f"{p:g}" for p in season.points)
        rule = _(
            "Ranked by points per place, summed: places 1, 2, ... score %(table)s; any other 0."
        ) % {"table": table}
    rest = _(
        "Equal scores (to 2 decimals) share the place. A disqualified result never counts; a "
        "withdrawn player's result counts by its percentage but scores no points for a place. "
        "Only finalised events count: an event reopened leaves the ladder until it is final "
        "again."
    )
    return f"{rule} {rest}"


@organiser_required
def season_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    form = SeasonForm(request.POST or None)
    done = saved(
        request,
        form,
        partial(seasons.save_season, by=request.user, club=club),
        lambda season: _("Season %(name)s saved; its ladder is computed.") % {"name": season.name},
        "clubs:seasons",
        club_slug=club_slug,
    )
    if done:
        return done
    context = {"club": club, "seasons": seasons.seasons_of(club), "form": form}
    return render(request, "clubs/seasons.html", context, status=400 if form.errors else 200)


@organiser_required
def season_edit(request: HttpRequest, club_slug: str, season: str) -> HttpResponse:
    club = club_or_404(request, club_slug)
    found = get_object_or_404(Season, club=club, slug=season)
    initial = {name: getattr(found, name) for name in seasons.FIELDS}
    initial["points"] = ", ".join(f"{p:g}" for p in found.points)
    form = SeasonForm(request.POST or None, initial=initial)
    done = saved(
        request,
        form,
        partial(seasons.save_season, by=request.user, club=club, season=found),
        _("Saved; the ladder is computed again."),
        "clubs:seasons",
        club_slug=club_slug,
    )
    if done:
        return done
    return render(request, "clubs/season_form.html", {"club": club, "season": found, "form": form})


def _public_season(club: str, season: str) -> Season:
    found = seasons.public_season(club, season)
    if found is None:
        raise Http404(_("No such season."))
    return found


def ladder_page(request: HttpRequest, club: str, season: str) -> HttpResponse:
    """The public ladder: members who opted out are listed without their names."""
    found = _public_season(club, season)
    view = seasons.ladder_view(found, public=True)
    context = {"season": found, "club": found.club, "view": view, "rule": rule_words(found)}
    return render(request, "clubs/ladder.html", context)


def ladder_download(request: HttpRequest, club: str, season: str) -> HttpResponse:
    found = _public_season(club, season)
    data = ladder_workbook(seasons.ladder_view(found, public=True), rule_words(found))
    response = HttpResponse(data, content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{found.club.slug}-{found.slug}.xlsx"'
    return response
