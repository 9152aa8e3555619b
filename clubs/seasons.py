"""Seasons and their ladders: the writes (a season made or changed, its ladder computed and
stored) and the reads (the season's final events, the stored ladder with its members).

The ladder job (``clubs.tasks.compute_ladders_task``) runs after a club event's standings are
stored or its status changes (finalised, reopened: ``clubs.signals``), and when a season is
made or changed; the pages only read what it stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from clubs.ladder import KINDS, Result, Rule, ladder
from clubs.models import Club, ClubEvent, EntrantMember, LadderState, Member, Season
from clubs.services import ClubError, log_change, require_organiser
from engine.games import GAME_IDS
from scoring.models import Standing
from tournaments.models import Status, Tournament

FIELDS = ("name", "starts", "ends", "games", "kind", "best_n", "min_events", "points")


def rule_of(season: Season) -> Rule:
    return Rule(
        season.kind,
        best_n=season.best_n,
        min_events=season.min_events,
        points=tuple(season.points or ()),
    )


def _check(season: Season) -> None:
    errors = []
    if not season.name.strip():
        errors.append(_("A season needs a name."))
    if season.ends < season.starts:
        errors.append(_("A season ends on or after the day it starts."))
    unknown = [game for game in season.games if game not in GAME_IDS]
    if unknown:
        errors.append(_("No game called %(names)s.") % {"names": ", ".join(map(repr, unknown))})
    if season.kind not in KINDS:
        errors.append(_("A ladder is one of %(kinds)s.") % {"kinds": ", ".join(KINDS)})
    elif season.best_n < 1 or season.min_events < 1:
        errors.append(_("The best N and the minimum of events are whole numbers from 1 up."))
    elif season.kind == Season.Kind.POINTS and not season.points:
        errors.append(_("A ladder by points needs the points of place 1 at least."))
    elif any(value < 0 for value in season.points or ()):
        errors.append(_("The points of a place are never negative."))
    else:
        try:
            rule_of(season)
        except ValueError as exc:
            errors.append(str(exc)[:1].upper() + str(exc)[1:] + ".")
    if errors:
        raise ClubError(errors)


@transaction.atomic
def save_season(*, by: Any, club: Club, season: Season | None = None, **values: Any) -> Season:
    """Make a season (``season`` None) or change one; its ladder is computed again once the
    change commits."""
    require_organiser(by, club)
    unknown = set(values) - set(FIELDS)
    if unknown:
        raise ClubError(_("A season has no %(fields)s.") % {"fields": ", ".join(sorted(unknown))})
    season = season or Season(club=club)
    for name, value in values.items():
        setattr(season, name, value)
    season.points = [float(p) for p in season.points or ()]
    _check(season)
    if not season.slug:
        season.slug = slugify(season.name)[:50] or "season"
        if Season.objects.filter(club=club, slug=season.slug).exists():
            raise ClubError(
                _("The club already has a season called %(name)s.") % {"name": repr(season.name)}
            )
    season.save()
    log_change(by=by, club=club, action="save_season", summary=f"season {season.name!r} saved")
    transaction.on_commit(lambda: enqueue_ladders(club.pk))
    return season


def enqueue_ladders(club_id: int) -> None:
    from clubs.tasks import compute_ladders_task

    compute_ladders_task.delay(club_id)


def season_events(season: Season) -> list[Tournament]:
    """The season's final events: the club's, of its games, played between its dates (the
    event's date, ``ClubEvent.date``)."""
    found = Tournament.objects.filter(
        club_event__club=season.club_id,
        status=Status.FINAL,
        club_event__date__gte=season.starts,
        club_event__date__lte=season.ends,
    )
    if season.games:
        found = found.filter(game__in=season.games)
    return list(found.select_related("club_event").order_by("club_event__date", "created_at", "pk"))


def season_results(events: list[Tournament]) -> list[Result]:
    """Each linked member's result in each event, from the stored standings."""
    standings = {s.entrant_id: s for s in Standing.objects.filter(tournament__in=events)}
    results = []
    for link in EntrantMember.objects.filter(tournament__in=events):
        standing = standings.get(link.entrant_id)
        if standing is not None:
            results.append(
                Result(
                    link.member_id,
                    link.tournament_id,
                    standing.place,
                    standing.percentage,
                    standing.status,
                )
            )
    return results


def compute_ladder(season: Season) -> LadderState:
    """The season's ladder from its final events, stored."""
    events = season_events(season)
    rungs = ladder(season_results(events), rule_of(season))
    state, _ = LadderState.objects.update_or_create(
        season=season,
        defaults={
            "rungs": [
                {
                    "member": r.member,
                    "place": r.place,
                    "score": r.score,
                    "events": r.events,
                    "counted": r.counted,
                }
                for r in rungs
            ],
            "events": [event.pk for event in events],
            "computed_at": timezone.now(),
        },
    )
    return state


def compute_club_ladders(club_id: int) -> int:
    seasons = list(Season.objects.filter(club_id=club_id))
    for season in seasons:
        compute_ladder(season)
    return len(seasons)


def club_of_tournament(tournament_id: int) -> int | None:
    return (
        ClubEvent.objects.filter(tournament_id=tournament_id)
        .values_list("club_id", flat=True)
        .first()
    )


# --- reads -------------------------------------------------------------------------------------


@dataclass
class LadderLine:
    place: int | None
    member: Member
    shown_name: str  # "" for a member who opted out, on a public page
    score: float
    events: int


@dataclass
class LadderView:
    season: Season
    lines: list[LadderLine]
    events: list[Tournament]
    computed_at: Any
    pending: bool  # never computed yet


def ladder_view(season: Season, *, public: bool) -> LadderView:
    state = LadderState.objects.filter(season=season).first()
    if state is None:
        return LadderView(season, [], [], None, True)
    members = Member.objects.in_bulk([rung["member"] for rung in state.rungs])
    lines = []
    for rung in state.rungs:
        member = members.get(rung["member"])
        if member is None:
            continue
        shown = member.name if (member.public or not public) else ""
        lines.append(LadderLine(rung["place"], member, shown, rung["score"], rung["events"]))
    events = list(
        Tournament.objects.filter(pk__in=state.events)
        .select_related("club_event")
        .order_by("club_event__date", "created_at", "pk")
    )
    return LadderView(season, lines, events, state.computed_at, False)


def public_season(club_slug: str, season_slug: str) -> Season | None:
    return (
        Season.objects.filter(club__slug=club_slug, slug=season_slug).select_related("club").first()
    )


def seasons_of(club: Club) -> list[Season]:
    return list(Season.objects.filter(club=club))
